/// <reference lib="dom" />
/**
 * The page's HTML widgets around the map: the metrics panel of each view, the inspector of the
 * clicked agent, the toolbar controls and the legend.
 *
 * @module
 */
import type { AgentFrame, HelloMessage, OverlayName, StatusMessage } from "../frame_protocol.ts";
import { AGENT_STATE_NAMES, OVERLAY_NAMES, SPEEDS } from "../frame_protocol.ts";
import { type ColorMode, type Rgb, STATE_COLORS, VIEW_COLORS } from "./colors.ts";
import type { ViewRect } from "./layout.ts";
import type { LayerToggles } from "./layers.ts";

/** Looks up an element by id; throws when the page lacks it. */
export function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no element #${id}`);
  return found as T;
}

/** Formats a number with `digits` decimals, or an en dash when it is not finite. */
export function formatNumber(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "–";
}

/** The metrics panels, one per view. */
export class MetricsPanels {
  #cells: Record<string, HTMLTableCellElement>[] = [];
  #root = element("panels");

  /** Rebuilds the panels for the views of `hello`, placed over `rects`. */
  reset(hello: HelloMessage, rects: ViewRect[]): void {
    this.#root.replaceChildren();
    this.#cells = [];
    hello.views.forEach((view, i) => {
      const r = rects[i];
      const panel = document.createElement("div");
      panel.className = "panel";
      panel.dataset.view = String(i);
      panel.style.left = `${r.x * 100}%`;
      panel.style.top = `${r.y * 100}%`;
      const title = document.createElement("h2");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = _css(VIEW_COLORS[i]);
      const name = document.createElement("span");
      name.className = "strategy-name";
      name.textContent = view.label;
      title.append(swatch, name);
      const table = document.createElement("table");
      const cells: Record<string, HTMLTableCellElement> = {};
      const rows: [string, string][] = hello.mode === "live"
        ? [
          ["agents", "agents"],
          ["time", "time (s)"],
          ["collisions", "collisions"],
          ["arrived", "arrived"],
          ["speed", "mean speed (m/s)"],
          ["ms", "ms / step"],
          ["salsa", "salsa"],
          ["factor", "time factor"],
        ]
        : [
          ["agents", "agents"],
          ["time", "time (s)"],
          ["arrived", "arrived"],
          ["speed", "mean speed (m/s)"],
        ];
      for (const [key, label] of rows) {
        const tr = table.insertRow();
        tr.insertCell().textContent = label;
        cells[key] = tr.insertCell();
        cells[key].dataset.metric = key;
      }
      panel.append(title, table);
      this.#root.append(panel);
      this.#cells.push(cells);
    });
  }

  /** Shows a frame's numbers in its view's panel. */
  update(frame: AgentFrame): void {
    const cells = this.#cells[frame.view];
    if (!cells) return;
    const set = (key: string, text: string) => {
      if (cells[key] && cells[key].textContent !== text) cells[key].textContent = text;
    };
    set("agents", String(frame.count));
    set("time", formatNumber(frame.time, 1));
    set("collisions", formatNumber(frame.collisions));
    set("arrived", frame.trips > 0 ? `${frame.arrivals} / ${frame.trips}` : String(frame.arrivals));
    set("speed", formatNumber(frame.meanSpeed, 2));
    set("ms", formatNumber(frame.msPerStep, 2));
    set("salsa", formatNumber(frame.salsa));
    set("factor", `${formatNumber(frame.timeFactor, 2)}×`);
  }
}

/** The inspector of the clicked agent. */
export class Inspector {
  #box = element("inspector");
  #table = element<HTMLTableElement>("inspector-table");
  #title = element("inspector-title");

  /** Wires the close button. */
  constructor(onClose: () => void) {
    element("inspector-close").addEventListener("click", onClose);
  }

  /** Shows the state of agent `id` of `strategy` (null: the agent is gone). */
  show(
    id: number,
    strategy: string,
    state: Record<string, number | string | boolean> | null,
  ): void {
    this.#box.hidden = false;
    this.#title.textContent = `agent ${id} · ${strategy}`;
    this.#table.replaceChildren();
    if (!state) {
      this.#table.insertRow().insertCell().textContent = "no longer in the scene";
      return;
    }
    for (const [key, value] of Object.entries(state)) {
      const tr = this.#table.insertRow();
      tr.insertCell().textContent = key;
      tr.insertCell().textContent = typeof value === "number"
        ? (Number.isInteger(value) ? String(value) : value.toFixed(3))
        : String(value);
    }
  }

  /** Hides the inspector. */
  hide(): void {
    this.#box.hidden = true;
  }
}

/** Callbacks of the toolbar. */
export interface ToolbarHandlers {
  /** Play (false) or pause (true). */
  pause(paused: boolean): void;
  /** One step or frame forward. */
  step(): void;
  /** Speed multiplier chosen. */
  speed(speed: number): void;
  /** Timeline moved (replay), time in s. */
  seek(time: number): void;
  /** Restart with a seed (live). */
  restart(seed: number): void;
  /** Colour mode chosen. */
  colorBy(mode: ColorMode): void;
  /** Layer switches changed. */
  toggles(toggles: LayerToggles): void;
  /** Debug overlays chosen. */
  overlays(names: OverlayName[]): void;
}

/** The toolbar: play/pause, step, speed, timeline, seed, colour mode, layer and overlay switches. */
export class Toolbar {
  /** Current layer switches. */
  readonly toggles: LayerToggles = {
    tiles: true,
    obstacles: true,
    density: false,
    trails: true,
    headings: true,
  };
  /** Current overlays. */
  overlays: OverlayName[] = [];
  #paused = false;
  #play = element<HTMLButtonElement>("play");
  #timeline = element<HTMLInputElement>("timeline");
  #timelineLabel = element("timeline-label");
  #scrubbing = false;
  #handlers: ToolbarHandlers;

  /** Builds the controls and wires them to `handlers`. */
  constructor(handlers: ToolbarHandlers) {
    this.#handlers = handlers;
    const speed = element<HTMLSelectElement>("speed");
    for (const s of SPEEDS) speed.add(new Option(`${s}×`, String(s), s === 1, s === 1));
    speed.addEventListener("change", () => handlers.speed(Number(speed.value)));
    this.#play.addEventListener("click", () => handlers.pause(!this.#paused));
    element("step").addEventListener("click", () => handlers.step());
    element("restart").addEventListener("click", () => {
      const seed = Number(element<HTMLInputElement>("seed").value);
      if (Number.isInteger(seed) && seed >= 0) handlers.restart(seed);
    });
    const colorBy = element<HTMLSelectElement>("color-by");
    colorBy.addEventListener("change", () => handlers.colorBy(colorBy.value as ColorMode));
    this.#timeline.addEventListener("input", () => {
      this.#scrubbing = true;
      handlers.seek(Number(this.#timeline.value));
    });
    this.#timeline.addEventListener("change", () => this.#scrubbing = false);
    const layerBox = element("layer-toggles");
    for (const key of Object.keys(this.toggles) as (keyof LayerToggles)[]) {
      layerBox.append(this.#checkbox(`layer-${key}`, key, this.toggles[key], (on) => {
        this.toggles[key] = on;
        handlers.toggles({ ...this.toggles });
      }));
    }
    document.addEventListener("keydown", (event) => {
      if ((event.target as HTMLElement)?.tagName === "INPUT") return;
      if (event.key === " ") {
        event.preventDefault();
        handlers.pause(!this.#paused);
      } else if (event.key === ".") handlers.step();
    });
  }

  /** Adapts the toolbar to the mode and views of `hello`. */
  reset(hello: HelloMessage): void {
    element("mode").textContent = hello.mode === "live"
      ? `live · ${hello.scene.name} · ${hello.agents} agents`
      : `replay · ${hello.scene.name}`;
    element("restart-box").hidden = hello.mode !== "live";
    element("timeline-box").hidden = hello.mode !== "replay";
    if (hello.seed !== null) element<HTMLInputElement>("seed").value = String(hello.seed);
    if (hello.timeline) {
      this.#timeline.min = String(hello.timeline.startTime);
      this.#timeline.max = String(hello.timeline.endTime);
      this.#timeline.step = String(1 / hello.frameRate);
    }
    const available = new Set(hello.views.flatMap((v) => v.overlays));
    const box = element("overlay-toggles");
    box.replaceChildren();
    this.overlays = this.overlays.filter((n) => available.has(n));
    for (const name of OVERLAY_NAMES) {
      if (!available.has(name)) continue;
      box.append(this.#checkbox(`overlay-${name}`, name, this.overlays.includes(name), (on) => {
        this.overlays = on ? [...this.overlays, name] : this.overlays.filter((n) => n !== name);
        this.#handlers.overlays(this.overlays);
      }));
    }
  }

  /** Shows the server's playback state. */
  status(status: StatusMessage): void {
    this.#paused = status.paused;
    this.#play.textContent = status.paused ? "Play" : "Pause";
    element<HTMLSelectElement>("speed").value = String(status.speed);
  }

  /** Moves the timeline to `time` (s) unless the user is dragging it. */
  time(time: number): void {
    if (!this.#scrubbing) this.#timeline.value = String(time);
    this.#timelineLabel.textContent = `${time.toFixed(1)} s`;
  }

  #checkbox(
    id: string,
    label: string,
    checked: boolean,
    onChange: (on: boolean) => void,
  ): HTMLLabelElement {
    const box = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.id = id;
    input.checked = checked;
    input.addEventListener("change", () => onChange(input.checked));
    box.append(input, label);
    return box;
  }
}

/** Writes the legend of a colour mode. */
export function showLegend(mode: ColorMode, hello: HelloMessage | null): void {
  const legend = element("legend");
  legend.replaceChildren();
  const key = (color: Rgb, text: string) => {
    const swatch = document.createElement("span");
    swatch.className = "key";
    swatch.style.background = _css(color);
    legend.append(swatch, text);
  };
  if (mode === "state") AGENT_STATE_NAMES.forEach((name, i) => key(STATE_COLORS[i], name));
  else if (mode === "speed") {
    key([220, 40, 40], "0 m/s");
    key([250, 200, 50], "0.7");
    key([90, 210, 110], "1.3");
    key([40, 140, 255], "≥ 2");
  } else hello?.views.forEach((v, i) => key(VIEW_COLORS[i], v.label));
}

function _css(c: Rgb): string {
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

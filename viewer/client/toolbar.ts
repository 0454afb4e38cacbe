/// <reference lib="dom" />
/**
 * The toolbar: play/pause, step, speed, the timeline (replay) or the seed (live), the colour
 * mode, the layer menu and a button that frames the scene. The layer menu lists every layer kind
 * of `client/layers.ts` that has a label, then the debug overlays the views offer, so more layers
 * never widen the toolbar. Keys: space plays or pauses, `.` steps, `f` frames the scene.
 *
 * @module
 */
import type { HelloMessage, OverlayName, StatusMessage } from "../frame_protocol.ts";
import { OVERLAY_NAMES, SPEEDS } from "../frame_protocol.ts";
import type { ColorMode } from "./colors.ts";
import { SIDEWALK_LAYER_KIND, TRAFFIC_LAYER_KINDS } from "./traffic_layers.ts";
import { element } from "./dom.ts";
import { initialLayerSwitches, type LayerSwitches, VIEW_LAYER_KINDS } from "./layers.ts";

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
  layers(switches: LayerSwitches): void;
  /** Debug overlays chosen. */
  overlays(names: OverlayName[]): void;
  /** Frame the scene again. */
  fit(): void;
}

/** The toolbar. */
export class Toolbar {
  /** Current layer switches, by layer kind. */
  readonly layers: LayerSwitches = initialLayerSwitches();
  /** Current overlays. */
  overlays: OverlayName[] = [];
  #paused = false;
  #play = element<HTMLButtonElement>("play");
  #timeline = element<HTMLInputElement>("timeline");
  #timelineLabel = element("timeline-label");
  #menu = element("layer-menu");
  #menuButton = element<HTMLButtonElement>("layers-button");
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
    element("fit").addEventListener("click", () => handlers.fit());
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
    this.#buildLayerMenu();
    document.addEventListener("keydown", (event) => this.#key(event));
  }

  /** Adapts the toolbar to the mode and views of `hello`. */
  reset(hello: HelloMessage): void {
    element("mode").textContent = hello.mode === "live"
      ? `live · ${hello.scene.name} · ${hello.agents} agents`
      : `replay · ${hello.scene.name} · ${hello.agents} agents`;
    element("restart-box").hidden = hello.mode !== "live";
    element("timeline-box").hidden = hello.mode !== "replay";
    if (hello.seed !== null) element<HTMLInputElement>("seed").value = String(hello.seed);
    if (hello.timeline) {
      this.#timeline.min = String(hello.timeline.startTime);
      this.#timeline.max = String(hello.timeline.endTime);
      this.#timeline.step = String(1 / hello.frameRate);
    }
    // The traffic's layer switches only where there is traffic.
    this.#layerSwitches(hello.scene.traffic !== undefined);
    // Crossing states exist only in scenes with cars and crosswalks: the option is there only
    // then (it would widen the toolbar's colour menu for nothing).
    const colorBy = element<HTMLSelectElement>("color-by");
    const crossing = colorBy.querySelector<HTMLOptionElement>('option[value="crossing"]');
    if (hello.scene.traffic?.crossingStates.length) {
      if (!crossing) colorBy.add(new Option("crossing state", "crossing"));
    } else if (crossing) {
      const selected = colorBy.value === "crossing";
      crossing.remove();
      if (selected) {
        colorBy.value = "strategy";
        this.#handlers.colorBy("strategy");
      }
    }
    const available = new Set(hello.views.flatMap((v) => v.overlays));
    const box = element("overlay-toggles");
    box.replaceChildren();
    this.overlays = this.overlays.filter((n) => available.has(n));
    for (const name of OVERLAY_NAMES) {
      if (!available.has(name)) continue;
      box.append(_checkbox(`overlay-${name}`, name, this.overlays.includes(name), (on) => {
        this.overlays = on ? [...this.overlays, name] : this.overlays.filter((n) => n !== name);
        this.#handlers.overlays(this.overlays);
      }));
    }
    element("overlay-box").hidden = available.size === 0;
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

  #buildLayerMenu(): void {
    this.#layerSwitches(false);
    this.#menuButton.addEventListener("click", () => this.#openMenu(this.#menu.hidden === true));
    document.addEventListener("pointerdown", (event) => {
      const target = event.target as Node;
      if (!this.#menu.hidden && !this.#menu.contains(target) && target !== this.#menuButton) {
        this.#openMenu(false);
      }
    });
  }

  /** The layer switches, the traffic's only in scenes with traffic. */
  #layerSwitches(traffic: boolean): void {
    const box = element("layer-toggles");
    box.replaceChildren();
    const trafficKeys = [SIDEWALK_LAYER_KIND, ...TRAFFIC_LAYER_KINDS].map((k) => k.key);
    for (const kind of VIEW_LAYER_KINDS) {
      if (kind.label === null || (!traffic && trafficKeys.includes(kind.key))) continue;
      box.append(_checkbox(`layer-${kind.key}`, kind.label, this.layers[kind.key], (on) => {
        this.layers[kind.key] = on;
        this.#handlers.layers({ ...this.layers });
      }));
    }
  }

  #openMenu(open: boolean): void {
    this.#menu.hidden = !open;
    this.#menuButton.setAttribute("aria-expanded", String(open));
  }

  #key(event: KeyboardEvent): void {
    if (event.key === "Escape") {
      this.#openMenu(false);
      return;
    }
    const tag = (event.target as HTMLElement)?.tagName;
    if (tag === "INPUT" || tag === "SELECT") return;
    if (event.key === " ") {
      event.preventDefault();
      this.#handlers.pause(!this.#paused);
    } else if (event.key === ".") this.#handlers.step();
    else if (event.key === "f") this.#handlers.fit();
  }
}

function _checkbox(
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

/// <reference lib="dom" />
/**
 * The metrics panel of each view: its strategy with its colour, then agents, time, collisions,
 * arrivals, mean speed, ms per step, salsa and the time factor. Replays show the same rows: their
 * collisions and salsa are measured from the recording by the server; the cost of a step is not
 * in a recording.
 *
 * @module
 */
import type { AgentFrame, HelloMessage } from "../frame_protocol.ts";
import { strategyColor } from "./colors.ts";
import { cssColor, element, formatNumber } from "./dom.ts";
import type { ViewRect } from "./layout.ts";

/** Rows of a panel: key (also `data-metric`) and label. */
const ROWS: readonly (readonly [string, string])[] = [
  ["agents", "agents"],
  ["time", "time (s)"],
  ["collisions", "collisions"],
  ["arrived", "arrived"],
  ["speed", "mean speed (m/s)"],
  ["ms", "ms / step"],
  ["salsa", "salsa"],
  ["factor", "time factor"],
];

/** The metrics panels, one per view. */
export class MetricsPanels {
  #cells: Record<string, HTMLTableCellElement>[] = [];
  #root = element("panels");
  #replay = false;

  /** Rebuilds the panels for the views of `hello`, placed over `rects`. */
  reset(hello: HelloMessage, rects: ViewRect[]): void {
    this.#replay = hello.mode === "replay";
    this.#root.replaceChildren();
    this.#cells = hello.views.map((view, i) => {
      const r = rects[i];
      const panel = document.createElement("div");
      panel.className = "panel";
      panel.dataset.view = String(i);
      panel.style.left = `${r.x * 100}%`;
      panel.style.top = `${r.y * 100}%`;
      const title = document.createElement("h2");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = cssColor(strategyColor(view.strategy));
      const name = document.createElement("span");
      name.className = "strategy-name";
      name.textContent = view.label;
      title.append(swatch, name);
      const table = document.createElement("table");
      const cells: Record<string, HTMLTableCellElement> = {};
      for (const [key, label] of ROWS) {
        const tr = table.insertRow();
        tr.insertCell().textContent = label;
        cells[key] = tr.insertCell();
        cells[key].dataset.metric = key;
      }
      if (this.#replay) {
        cells.ms.textContent = "not recorded";
        cells.ms.title = "recordings do not hold the cost of their steps";
      }
      panel.append(title, table);
      this.#root.append(panel);
      return cells;
    });
  }

  /** Shows a frame's numbers in its view's panel. */
  update(frame: AgentFrame): void {
    const cells = this.#cells[frame.view];
    if (!cells) return;
    const set = (key: string, text: string) => {
      if (cells[key].textContent !== text) cells[key].textContent = text;
    };
    set("agents", String(frame.count));
    set("time", formatNumber(frame.time, 1));
    set("collisions", formatNumber(frame.collisions));
    set("arrived", frame.trips > 0 ? `${frame.arrivals} / ${frame.trips}` : String(frame.arrivals));
    set("speed", formatNumber(frame.meanSpeed, 2));
    if (!this.#replay) set("ms", formatNumber(frame.msPerStep, 2));
    set("salsa", formatNumber(frame.salsa));
    set("factor", this.#replay ? "–" : `${formatNumber(frame.timeFactor, 2)}×`);
  }
}

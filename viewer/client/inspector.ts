/// <reference lib="dom" />
/**
 * The inspector of the clicked agent: a small box in a corner of the map with the agent's state,
 * and its strategy's internals folded below. It sits at the top right, or at the bottom right when
 * the agent it shows is under it, so it never hides the agent.
 *
 * @module
 */
import type { InspectResultMessage } from "../frame_protocol.ts";
import { element } from "./dom.ts";

/** Prefix of the strategy's internals among the inspected values. */
const INTERNALS_PREFIX = "strategy.";

/** The inspector of the clicked agent. */
export class Inspector {
  #box = element("inspector");
  #table = element<HTMLTableElement>("inspector-table");
  #internals = element<HTMLDetailsElement>("inspector-internals");
  #internalsTable = element<HTMLTableElement>("inspector-internals-table");
  #internalsTitle = element("inspector-internals-title");
  #title = element("inspector-title");

  /** Position of the shown agent at the last placing (page pixels), or null. */
  #agent: { x: number; y: number } | null = null;

  /** Wires the close button; unfolding the internals (a taller box) places the box again. */
  constructor(onClose: () => void) {
    element("inspector-close").addEventListener("click", onClose);
    this.#internals.addEventListener("toggle", () => this.place(this.#agent));
  }

  /** Shows the state of agent `id` of view `label` (null: the agent is gone). */
  show(id: number, label: string, state: InspectResultMessage["state"]): void {
    this.#box.hidden = false;
    this.#title.textContent = `agent ${id} · ${label}`;
    this.#table.replaceChildren();
    this.#internalsTable.replaceChildren();
    if (!state) {
      this.#table.insertRow().insertCell().textContent = "no longer in the scene";
      this.#internals.hidden = true;
      return;
    }
    let internals = 0;
    for (const [key, value] of Object.entries(state)) {
      const inside = key.startsWith(INTERNALS_PREFIX);
      const tr = (inside ? this.#internalsTable : this.#table).insertRow();
      tr.insertCell().textContent = inside ? key.slice(INTERNALS_PREFIX.length) : key;
      tr.insertCell().textContent = typeof value === "number"
        ? (Number.isInteger(value) ? String(value) : value.toFixed(3))
        : String(value);
      if (inside) internals++;
    }
    this.#internals.hidden = internals === 0;
    this.#internalsTitle.textContent = `strategy internals (${internals})`;
  }

  /** Hides the inspector. */
  hide(): void {
    this.#box.hidden = true;
  }

  /**
   * Moves the box to the corner that leaves the shown agent visible: `agent` is its position in
   * page pixels, or null when it is not on screen.
   */
  place(agent: { x: number; y: number } | null): void {
    this.#agent = agent;
    if (this.#box.hidden) return;
    const box = this.#box;
    box.classList.remove("at-bottom");
    if (!agent) return;
    const r = box.getBoundingClientRect(), margin = 12;
    const covered = agent.x >= r.left - margin && agent.x <= r.right + margin &&
      agent.y >= r.top - margin && agent.y <= r.bottom + margin;
    if (covered) box.classList.add("at-bottom");
  }
}

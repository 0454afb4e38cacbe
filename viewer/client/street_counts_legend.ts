/// <reference lib="dom" />
/**
 * The legend of the `streets` debug overlay (the street heat map of
 * `viewer/street_counts_overlay.ts`): its colour ramp from the fewest walkers to the busiest
 * street, on a log scale, shown beside the agents' legend while the overlay is on.
 *
 * @module
 */
import { STREET_COUNT_RAMP } from "../street_counts_overlay.ts";
import { element } from "./dom.ts";

/** Shows (or hides) the street heat map's legend. */
export function showStreetCountLegend(on: boolean): void {
  let box = document.getElementById("street-legend");
  if (!on) {
    box?.remove();
    return;
  }
  if (box) return;
  box = document.createElement("div");
  box.id = "street-legend";
  box.style.cssText =
    "margin-bottom:8px;background:var(--panel);border-radius:6px;padding:4px 8px;color:var(--muted);display:flex;align-items:center;gap:6px";
  const ramp = document.createElement("span");
  const stops = STREET_COUNT_RAMP.map(([r, g, b], k) =>
    `rgb(${r},${g},${b}) ${(100 * k / (STREET_COUNT_RAMP.length - 1)).toFixed(0)}%`
  );
  ramp.style.cssText =
    `display:inline-block;width:120px;height:8px;border-radius:4px;background:linear-gradient(to right, ${
      stops.join(", ")
    })`;
  ramp.title = "walkers counted into each street so far, log scale";
  box.append("street counts: few", ramp, "busiest street (log scale)");
  element("legend").before(box);
}

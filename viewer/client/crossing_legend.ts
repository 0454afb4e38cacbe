/// <reference lib="dom" />
/**
 * The legend of the `crossing` debug overlay: the predicted car paths (threats and the others)
 * and the colours of the route's legs, shown beside the agents' legend while the overlay is on.
 *
 * @module
 */
import { PREDICTION_COLORS, ROUTE_LEG_COLORS } from "../crossing_overlay_colors.ts";
import { element } from "./dom.ts";

/** Shows (or hides) the crossing overlay's legend. */
export function showCrossingLegend(on: boolean): void {
  let box = document.getElementById("crossing-legend");
  if (!on) {
    box?.remove();
    return;
  }
  if (box) return;
  box = document.createElement("div");
  box.id = "crossing-legend";
  box.style.cssText =
    "margin-bottom:8px;background:var(--panel);border-radius:6px;padding:4px 8px;color:var(--muted);display:flex;align-items:center;gap:6px;flex-wrap:wrap";
  const swatch = (c: readonly number[]) => {
    const s = document.createElement("span");
    s.style.cssText =
      `display:inline-block;width:14px;height:4px;border-radius:2px;background:rgb(${c[0]},${
        c[1]
      },${c[2]})`;
    return s;
  };
  box.append(
    "picked pedestrian's crossing: cars that can reach it in time",
    swatch(PREDICTION_COLORS.threat),
    "the others",
    swatch(PREDICTION_COLORS.clear),
    "· route by leg",
    ...ROUTE_LEG_COLORS.slice(0, 4).map(swatch),
  );
  element("legend").before(box);
}

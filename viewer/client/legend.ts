/// <reference lib="dom" />
/**
 * The legend of the agents' colours: the strategies of the views, the speed ramp, the state
 * codes or the crossing states, depending on the colour mode; then the city's and the traffic's
 * layers.
 *
 * @module
 */
import type { HelloMessage } from "../frame_protocol.ts";
import { AGENT_STATE_NAMES } from "../frame_protocol.ts";
import {
  type ColorMode,
  CROSSING_STATE_COLORS,
  type Rgb,
  STATE_COLORS,
  strategyColor,
} from "./colors.ts";
import { trafficLegendEntries } from "./traffic_layers.ts";
import { cssColor, element } from "./dom.ts";
import { cityLegendEntries } from "./city_layers.ts";

/** Writes the legend of a colour mode. */
export function showLegend(mode: ColorMode, hello: HelloMessage | null): void {
  const legend = element("legend");
  legend.replaceChildren();
  const key = (color: Rgb, text: string) => {
    const item = document.createElement("span");
    item.className = "item";
    const swatch = document.createElement("span");
    swatch.className = "key";
    swatch.style.background = cssColor(color);
    item.append(swatch, text);
    legend.append(item);
  };
  if (mode === "state") AGENT_STATE_NAMES.forEach((name, i) => key(STATE_COLORS[i], name));
  else if (mode === "crossing") {
    const names = hello?.scene.traffic?.crossingStates ?? [];
    if (names.length === 0) key([128, 128, 128], "no crossing states in this scene");
    names.forEach((name, i) => key(CROSSING_STATE_COLORS[i] ?? [128, 128, 128], name));
  } else if (mode === "speed") {
    key([220, 40, 40], "0 m/s");
    key([250, 200, 50], "0.7");
    key([90, 210, 110], "1.3");
    key([40, 140, 255], "≥ 2");
  } else {
    const seen = new Set<string>();
    for (const view of hello?.views ?? []) {
      if (seen.has(view.strategy)) continue;
      seen.add(view.strategy);
      key(strategyColor(view.strategy), view.strategy);
    }
  }
  for (const [color, text] of cityLegendEntries(hello?.scene.city)) key(color, text);
  for (const [color, text] of trafficLegendEntries(hello?.scene.traffic)) key(color, text);
}

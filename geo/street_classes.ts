/**
 * What each `highway=*` value means for a crowd: who uses the way, and its width when the map
 * gives neither `width` nor `lanes`.
 *
 * | highway | use | default width (m) | default lanes |
 * | --- | --- | --- | --- |
 * | motorway, trunk | carriageway, no pedestrians | 7.0 | 2 |
 * | primary | carriageway | 7.0 | 2 |
 * | secondary | carriageway | 6.5 | 2 |
 * | tertiary | carriageway | 6.0 | 2 |
 * | unclassified, residential, road | carriageway | 5.5 | 2 |
 * | `*_link` | carriageway | 4.0 | 1 |
 * | service | carriageway | 3.5 | 1 |
 * | busway | carriageway (buses) | 3.5 | 1 |
 * | living_street | shared: cars, people on the whole width | 4.5 | 1 |
 * | track | shared | 3.0 | 1 |
 * | pedestrian | pedestrians (a pedestrian street) | 6.0 | 0 |
 * | footway | pedestrians | 2.0 | 0 |
 * | steps | pedestrians, stairs | 2.0 | 0 |
 * | path, bridleway | pedestrians | 1.5 | 0 |
 * | platform | pedestrians (a public-transport platform) | 2.5 | 0 |
 * | corridor | pedestrians (indoors) | 2.0 | 0 |
 * | cycleway | bicycles; pedestrians only with `foot=yes\|designated\|permissive` | 2.0 | 0 |
 *
 * The widths are those of typical urban cross-sections (carriageway lanes of 3.0–3.5 m, a
 * residential street of two 2.75 m lanes); mapped `width` and `lanes` override them (a lane
 * counts 3.0 m). Other values (`proposed`, `construction`, `raceway`, `bus_stop`, unknown ones)
 * are not part of the street network.
 *
 * @module
 */

/** Who uses a way. */
export type StreetUse = "carriageway" | "shared" | "foot" | "cycle" | "motor-only";

/** One row of the table. */
export interface StreetClass {
  /** Who uses it. */
  readonly use: StreetUse;
  /** Width when neither `width` nor `lanes` is mapped (m). */
  readonly width: number;
  /** Motor-vehicle lanes when `lanes` is not mapped. */
  readonly lanes: number;
}

/** Width of one motor-vehicle lane (m), for `lanes` × lane width. */
export const LANE_WIDTH = 3.0;

/** The table, by `highway` value. */
export const STREET_CLASSES: Readonly<Record<string, StreetClass>> = {
  motorway: { use: "motor-only", width: 7.0, lanes: 2 },
  trunk: { use: "motor-only", width: 7.0, lanes: 2 },
  primary: { use: "carriageway", width: 7.0, lanes: 2 },
  secondary: { use: "carriageway", width: 6.5, lanes: 2 },
  tertiary: { use: "carriageway", width: 6.0, lanes: 2 },
  unclassified: { use: "carriageway", width: 5.5, lanes: 2 },
  residential: { use: "carriageway", width: 5.5, lanes: 2 },
  road: { use: "carriageway", width: 5.5, lanes: 2 },
  motorway_link: { use: "motor-only", width: 4.0, lanes: 1 },
  trunk_link: { use: "motor-only", width: 4.0, lanes: 1 },
  primary_link: { use: "carriageway", width: 4.0, lanes: 1 },
  secondary_link: { use: "carriageway", width: 4.0, lanes: 1 },
  tertiary_link: { use: "carriageway", width: 4.0, lanes: 1 },
  service: { use: "carriageway", width: 3.5, lanes: 1 },
  busway: { use: "carriageway", width: 3.5, lanes: 1 },
  living_street: { use: "shared", width: 4.5, lanes: 1 },
  track: { use: "shared", width: 3.0, lanes: 1 },
  pedestrian: { use: "foot", width: 6.0, lanes: 0 },
  footway: { use: "foot", width: 2.0, lanes: 0 },
  steps: { use: "foot", width: 2.0, lanes: 0 },
  path: { use: "foot", width: 1.5, lanes: 0 },
  bridleway: { use: "foot", width: 1.5, lanes: 0 },
  platform: { use: "foot", width: 2.5, lanes: 0 },
  corridor: { use: "foot", width: 2.0, lanes: 0 },
  cycleway: { use: "cycle", width: 2.0, lanes: 0 },
};

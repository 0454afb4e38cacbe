/**
 * Reading OpenStreetMap tag values: lengths with units, numbers of levels and lanes, one-way
 * flags, sidewalk and crossing kinds. Unparseable values read as null (the caller then falls
 * back to a documented default); nothing here throws.
 *
 * @module
 */
import type { CrossingKind, SidewalkTag } from "./city_model.ts";
import type { OsmTags } from "./osm_elements.ts";

/** Metres per foot. */
const FOOT = 0.3048;

/**
 * A length in metres from a tag value: `"12"`, `"12 m"`, `"12.5m"`, `"40 ft"`, `"6'6\""`;
 * the first value of a `;` list. Null when absent, unparseable or not > 0.
 *
 * @example
 * ```ts
 * import { parseLength } from "./osm_tags.ts";
 * import assert from "node:assert/strict";
 * assert.equal(parseLength("7.5 m"), 7.5);
 * assert.equal(parseLength("10'"), 3.048);
 * assert.equal(parseLength("wide"), null);
 * ```
 */
export function parseLength(value: string | undefined): number | null {
  if (value === undefined) return null;
  const v = value.split(";")[0].trim().replace(",", ".");
  let m = /^(\d+(?:\.\d+)?)\s*(m|metres|meters|km|cm|mi|ft|')?$/i.exec(v);
  if (m) {
    const n = Number(m[1]);
    const unit = (m[2] ?? "m").toLowerCase();
    const metres = unit === "km"
      ? n * 1000
      : unit === "cm"
      ? n / 100
      : unit === "ft" || unit === "'"
      ? n * FOOT
      : unit === "mi"
      ? n * 1609.344
      : n;
    return metres > 0 && Number.isFinite(metres) ? Math.round(metres * 1e6) / 1e6 : null;
  }
  m = /^(\d+)\s*'\s*(\d+(?:\.\d+)?)\s*"$/.exec(v);
  if (m) return Math.round((Number(m[1]) * FOOT + Number(m[2]) * 0.0254) * 1e6) / 1e6;
  return null;
}

/**
 * A non-negative count (`building:levels`, `lanes`): the first number of the value, null when
 * absent or unparseable. Fractions are kept (`"2.5"` levels).
 *
 * @example
 * ```ts
 * import { parseCount } from "./osm_tags.ts";
 * import assert from "node:assert/strict";
 * assert.equal(parseCount("4"), 4);
 * assert.equal(parseCount("2;3"), 2);
 * assert.equal(parseCount("many"), null);
 * ```
 */
export function parseCount(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = /^\s*(\d+(?:\.\d+)?)/.exec(value.split(";")[0]);
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * One-way for vehicles: `1` along the way, `-1` against it, `0` both ways. `oneway=yes|true|1`,
 * `oneway=-1|reverse`, and implied by `junction=roundabout|circular` and `highway=motorway`.
 *
 * @example
 * ```ts
 * import { onewayDirection } from "./osm_tags.ts";
 * import assert from "node:assert/strict";
 * assert.equal(onewayDirection({ highway: "primary", oneway: "yes" }), 1);
 * assert.equal(onewayDirection({ highway: "residential", oneway: "-1" }), -1);
 * assert.equal(onewayDirection({ highway: "primary", junction: "roundabout" }), 1);
 * ```
 */
export function onewayDirection(tags: OsmTags): 1 | -1 | 0 {
  const v = tags.oneway;
  if (v === "yes" || v === "true" || v === "1") return 1;
  if (v === "-1" || v === "reverse") return -1;
  if (v === "no" || v === "false" || v === "0") return 0;
  if (tags.junction === "roundabout" || tags.junction === "circular") return 1;
  if (tags.highway === "motorway") return 1;
  return 0;
}

/** Sidewalks on each side of a road, from `sidewalk=*` and `sidewalk:left|right|both=*`. */
export interface SidewalkSides {
  /** Summary tag. */
  readonly tag: SidewalkTag;
  /** A sidewalk on the left is implied (drawn from the road tag). */
  readonly left: boolean;
  /** A sidewalk on the right is implied. */
  readonly right: boolean;
  /** The left side is mapped separately or has none: no edge strip is needed there. */
  readonly leftSettled: boolean;
  /** The right side is mapped separately or has none. */
  readonly rightSettled: boolean;
}

/**
 * Reads the sidewalk tags of a road.
 *
 * @example
 * ```ts
 * import { sidewalkSides } from "./osm_tags.ts";
 * import assert from "node:assert/strict";
 * const s = sidewalkSides({ highway: "residential", sidewalk: "right" });
 * assert.equal(s.right, true);
 * assert.equal(s.left, false);
 * assert.equal(s.leftSettled, true); // "right" says there is none on the left
 * ```
 */
export function sidewalkSides(tags: OsmTags): SidewalkSides {
  const side = (key: "left" | "right"): string | undefined =>
    tags[`sidewalk:${key}`] ?? tags["sidewalk:both"];
  let left = side("left"), right = side("right");
  const main = tags.sidewalk ?? tags.footway;
  if (main !== undefined) {
    const v = main === "none" ? "no" : main;
    if (v === "both" || v === "yes") {
      left ??= "yes";
      right ??= "yes";
    } else if (v === "left") {
      left ??= "yes";
      right ??= "no";
    } else if (v === "right") {
      left ??= "no";
      right ??= "yes";
    } else if (v === "no" || v === "separate") {
      left ??= v;
      right ??= v;
    }
  }
  const yes = (v: string | undefined) => v === "yes" || v === "both";
  const settled = (v: string | undefined) => v !== undefined && v !== "";
  const l = yes(left), r = yes(right);
  const tag: SidewalkTag = l && r
    ? "both"
    : l
    ? "left"
    : r
    ? "right"
    : left === "separate" || right === "separate"
    ? "separate"
    : left === "no" && right === "no"
    ? "no"
    : "unknown";
  return { tag, left: l, right: r, leftSettled: settled(left), rightSettled: settled(right) };
}

/**
 * The kind of a crossing from `crossing=*`, `crossing_ref=*`, `crossing:signals` and
 * `crossing:markings`.
 *
 * @example
 * ```ts
 * import { crossingKind } from "./osm_tags.ts";
 * import assert from "node:assert/strict";
 * assert.equal(crossingKind({ highway: "crossing", crossing: "traffic_signals" }), "traffic_signals");
 * assert.equal(crossingKind({ highway: "crossing", crossing_ref: "zebra" }), "zebra");
 * assert.equal(crossingKind({ highway: "crossing" }), "unknown");
 * ```
 */
export function crossingKind(tags: OsmTags): CrossingKind {
  const c = tags.crossing, ref = tags.crossing_ref;
  if (c === "traffic_signals" || tags["crossing:signals"] === "yes") return "traffic_signals";
  if (ref === "pelican" || ref === "toucan" || ref === "puffin" || ref === "pegasus") {
    return "traffic_signals";
  }
  if (c === "zebra" || ref === "zebra" || tags["crossing:markings"] === "zebra") return "zebra";
  if (c === "uncontrolled") return "uncontrolled";
  if (c === "marked") return "marked";
  if (c === "unmarked" || c === "informal") return "unmarked";
  if (c === "island") return "island";
  if (c === "no") return "no";
  return "unknown";
}

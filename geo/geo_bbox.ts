/**
 * A bounding box in longitude and latitude, the crop box of a city.
 *
 * @module
 */

/** `[west, south, east, north]` in degrees (WGS84), as in GeoJSON's `bbox`. */
export type GeoBBox = readonly [number, number, number, number];

/**
 * Checks a crop box: four finite numbers, longitudes in [-180, 180], latitudes in [-90, 90],
 * west < east and south < north (a box that does not cross the antimeridian). Throws a
 * RangeError naming `where` and the bad value.
 *
 * @example A box, and a reversed one
 * ```ts
 * import { checkGeoBBox } from "./geo_bbox.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(checkGeoBBox([7.42, 43.73, 7.43, 43.74], "bbox"), [7.42, 43.73, 7.43, 43.74]);
 * assert.throws(() => checkGeoBBox([7.43, 43.73, 7.42, 43.74], "bbox"), /west .* east/);
 * ```
 */
export function checkGeoBBox(bbox: unknown, where: string): GeoBBox {
  if (!Array.isArray(bbox) || bbox.length !== 4 || !bbox.every((v) => typeof v === "number")) {
    throw new TypeError(
      `'${where}' must be [west, south, east, north] in degrees: current value is ${
        JSON.stringify(bbox)
      }`,
    );
  }
  const [w, s, e, n] = bbox as number[];
  const names = ["west", "south", "east", "north"];
  bbox.forEach((v: number, i: number) => {
    const limit = i % 2 === 0 ? 180 : 90;
    if (!Number.isFinite(v) || v < -limit || v > limit) {
      throw new RangeError(
        `'${where}' ${names[i]} must be in [-${limit}, ${limit}]: current value is ${v}`,
      );
    }
  });
  if (!(w < e)) {
    throw new RangeError(
      `'${where}' is empty: west (${w}) must be less than east (${e})`,
    );
  }
  if (!(s < n)) {
    throw new RangeError(
      `'${where}' is empty: south (${s}) must be less than north (${n})`,
    );
  }
  return [w, s, e, n];
}

/**
 * Parses `"west,south,east,north"` (degrees) and checks it with {@linkcode checkGeoBBox}.
 *
 * @example
 * ```ts
 * import { parseGeoBBox } from "./geo_bbox.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseGeoBBox("24.94,60.166,24.95,60.172"), [24.94, 60.166, 24.95, 60.172]);
 * ```
 */
export function parseGeoBBox(text: string, where = "bbox"): GeoBBox {
  const parts = text.split(",").map((p) => p.trim());
  const values = parts.map((p) => (p === "" ? NaN : Number(p)));
  if (values.length !== 4 || values.some((v) => Number.isNaN(v))) {
    throw new TypeError(
      `'${where}' must be four numbers west,south,east,north (degrees): current value is '${text}'`,
    );
  }
  return checkGeoBBox(values, where);
}

/** True when (`lon`, `lat`) lies inside or on the box. */
export function bboxContains(bbox: GeoBBox, lon: number, lat: number): boolean {
  return lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3];
}

/**
 * The walkable area as polygons with holes, and the clean-up a navigation mesh needs before it
 * is triangulated: vertices welded within 1 mm (as in Aleksandrov, Heslop and Zlatanova (2021)), overlapping pieces merged, obstacles
 * and walls cut out, and erosion by the agent radius (the clearance Unity and Recast bake into
 * their meshes). Boolean operations and offsetting are done by Clipper2 (Angus Johnson), on
 * coordinates rounded to 0.1 mm.
 *
 * @module
 */
import {
  areaD,
  booleanOpD,
  ClipType,
  EndType,
  FillRule,
  inflatePathsD,
  JoinType,
  type PathD,
  type PathsD,
} from "npm:clipper2-ts@2.0.1";
import type { Point } from "../core/geometry.ts";
import { polygonsFromPaths } from "./_polygons_from_paths.ts";
import { weldPoints } from "./_weld.ts";

/** A closed ring of points (m); the first point is not repeated at the end. */
export type Ring = readonly Point[];

/**
 * A polygon with holes (m): the outer ring first, then the holes, as in GeoJSON. Rings may run
 * either way; cleaned polygons have a counter-clockwise outer ring and clockwise holes.
 */
export type PolygonWithHoles = readonly Ring[];

/** A polyline (m) such as a wall, optionally closed. */
export interface Polyline {
  /** At least two points. */
  readonly points: readonly Point[];
  /** Joins the last point to the first. @default false */
  readonly closed?: boolean;
}

/** Decimal places kept by the clipping library: 4 = 0.1 mm. */
const PRECISION = 4;

/** Options of {@linkcode cleanWalkableArea}. */
export interface CleanAreaOptions {
  /** Vertices closer than this are merged (m); Aleksandrov et al. (2021) weld within 1 mm. @default 0.001 */
  weldTolerance?: number;
  /** Walls (zero-thickness polylines) are cut out as strips this wide (m). @default 0.02 */
  wallThickness?: number;
}

/**
 * Cleans a walkable area: welds vertices within `weldTolerance`, merges overlapping polygons,
 * cuts out obstacle polygons and walls (as strips `wallThickness` wide), and returns disjoint
 * polygons with counter-clockwise outer rings and clockwise holes.
 *
 * @example A room with a pillar
 * ```ts
 * import { cleanWalkableArea, polygonsArea } from "./walkable_area.ts";
 * import assert from "node:assert/strict";
 * const room = [[[0, 0], [10, 0], [10, 10], [0, 10]]] as const;
 * const pillar = [[[4, 4], [6, 4], [6, 6], [4, 6]]] as const;
 * const area = cleanWalkableArea([room], [pillar]);
 * assert.equal(area.length, 1);
 * assert.equal(area[0].length, 2); // outer ring and one hole
 * assert(Math.abs(polygonsArea(area) - 96) < 1e-9);
 * ```
 */
export function cleanWalkableArea(
  walkable: readonly PolygonWithHoles[],
  obstacles: readonly PolygonWithHoles[] = [],
  walls: readonly Polyline[] = [],
  options: CleanAreaOptions = {},
): PolygonWithHoles[] {
  const weldTolerance = options.weldTolerance ?? 0.001;
  const wallThickness = options.wallThickness ?? 0.02;
  if (!(weldTolerance >= 0) || !Number.isFinite(weldTolerance)) {
    throw new RangeError(
      `Cannot clean walkable area as 'weldTolerance' must be a finite number >= 0: current value is ${weldTolerance}`,
    );
  }
  if (!(wallThickness > 0) || !Number.isFinite(wallThickness)) {
    throw new RangeError(
      `Cannot clean walkable area as 'wallThickness' must be a finite number > 0: current value is ${wallThickness}`,
    );
  }
  walkable.forEach((p, i) => checkPolygon(p, `walkable[${i}]`));
  obstacles.forEach((p, i) => checkPolygon(p, `obstacles[${i}]`));
  const include = weldedPaths(walkable, weldTolerance);
  const exclude = weldedPaths(obstacles, weldTolerance);
  walls.forEach((w, i) => {
    const pts = w.points;
    if (!Array.isArray(pts) || pts.length < 2) {
      throw new RangeError(`Cannot clean walkable area as 'walls[${i}]' needs at least 2 points`);
    }
    const line: PathD = pts.map(([x, y]) => ({ x, y }));
    if (w.closed) line.push({ ...line[0] });
    const strip = inflatePathsD(
      [line],
      wallThickness / 2,
      JoinType.Miter,
      EndType.Butt,
      2,
      PRECISION,
    );
    for (const path of strip) exclude.push(path);
  });
  return booleanPolygons(ClipType.Difference, include, exclude, FillRule.NonZero);
}

/** Options of {@linkcode erodeWalkableArea}. */
export interface ErodeOptions {
  /**
   * How convex obstacle corners are offset: `"square"` cuts them off at exactly the distance
   * (two vertices per corner, never closer than the distance), `"round"` follows the arc within
   * `arcTolerance` (more vertices), `"miter"` extends both sides to a sharp corner (one vertex
   * per corner: a rectangle grows into a rectangle; corners sharper than 60° are cut square).
   * @default "square"
   */
  join?: "square" | "round" | "miter";
  /** Largest deviation of a rounded corner's polygon from its arc (m). @default 0.02 */
  arcTolerance?: number;
}

/**
 * Shrinks an area by `distance` (m): every point left is at least `distance` from the area's
 * boundary (less `arcTolerance` at rounded corners). Passages narrower than `2 × distance`
 * close. A distance of 0 returns the area unchanged.
 *
 * @example Erode a 10 m × 4 m room by 0.5 m
 * ```ts
 * import { erodeWalkableArea, polygonsArea } from "./walkable_area.ts";
 * import assert from "node:assert/strict";
 * const eroded = erodeWalkableArea([[[[0, 0], [10, 0], [10, 4], [0, 4]]]], 0.5);
 * assert(Math.abs(polygonsArea(eroded) - 9 * 3) < 1e-6);
 * ```
 */
export function erodeWalkableArea(
  area: readonly PolygonWithHoles[],
  distance: number,
  options: ErodeOptions = {},
): PolygonWithHoles[] {
  const join = options.join ?? "square", arcTolerance = options.arcTolerance ?? 0.02;
  if (!(distance >= 0) || !Number.isFinite(distance)) {
    throw new RangeError(
      `Cannot erode walkable area as 'distance' must be a finite number >= 0: current value is ${distance}`,
    );
  }
  if (join !== "square" && join !== "round" && join !== "miter") {
    throw new RangeError(
      `Cannot erode walkable area as 'join' must be "square", "round" or "miter": current value is ${
        JSON.stringify(join)
      }`,
    );
  }
  if (!(arcTolerance > 0) || !Number.isFinite(arcTolerance)) {
    throw new RangeError(
      `Cannot erode walkable area as 'arcTolerance' must be a finite number > 0: current value is ${arcTolerance}`,
    );
  }
  const paths = toPaths(area);
  if (distance === 0) return booleanPolygons(ClipType.Union, paths, [], FillRule.NonZero);
  const joinType = join === "square"
    ? JoinType.Square
    : join === "miter"
    ? JoinType.Miter
    : JoinType.Round;
  const shrunk = inflatePathsD(
    paths,
    -distance,
    joinType,
    EndType.Polygon,
    2,
    PRECISION,
    arcTolerance,
  );
  return booleanPolygons(ClipType.Union, shrunk, [], FillRule.NonZero);
}

/**
 * The part of `a` inside `b`.
 *
 * @example Intersection of two squares
 * ```ts
 * import { intersectAreas, type PolygonWithHoles, polygonsArea } from "./walkable_area.ts";
 * import assert from "node:assert/strict";
 * const a: PolygonWithHoles[] = [[[[0, 0], [2, 0], [2, 2], [0, 2]]]];
 * const b: PolygonWithHoles[] = [[[[1, 1], [3, 1], [3, 3], [1, 3]]]];
 * assert.equal(polygonsArea(intersectAreas(a, b)), 1);
 * ```
 */
export function intersectAreas(
  a: readonly PolygonWithHoles[],
  b: readonly PolygonWithHoles[],
): PolygonWithHoles[] {
  return booleanPolygons(ClipType.Intersection, toPaths(a), toPaths(b), FillRule.NonZero);
}

/**
 * The part of `a` outside `b`.
 *
 * @example Difference of two squares
 * ```ts
 * import { type PolygonWithHoles, polygonsArea, subtractAreas } from "./walkable_area.ts";
 * import assert from "node:assert/strict";
 * const a: PolygonWithHoles[] = [[[[0, 0], [2, 0], [2, 2], [0, 2]]]];
 * const b: PolygonWithHoles[] = [[[[1, 1], [3, 1], [3, 3], [1, 3]]]];
 * assert.equal(polygonsArea(subtractAreas(a, b)), 3);
 * ```
 */
export function subtractAreas(
  a: readonly PolygonWithHoles[],
  b: readonly PolygonWithHoles[],
): PolygonWithHoles[] {
  return booleanPolygons(ClipType.Difference, toPaths(a), toPaths(b), FillRule.NonZero);
}

/**
 * The union of several areas.
 *
 * @example Union of two overlapping squares
 * ```ts
 * import { type PolygonWithHoles, polygonsArea, unionAreas } from "./walkable_area.ts";
 * import assert from "node:assert/strict";
 * const a: PolygonWithHoles = [[[0, 0], [2, 0], [2, 2], [0, 2]]];
 * const b: PolygonWithHoles = [[[1, 1], [3, 1], [3, 3], [1, 3]]];
 * assert.equal(polygonsArea(unionAreas([a, b])), 7);
 * ```
 */
export function unionAreas(areas: readonly PolygonWithHoles[]): PolygonWithHoles[] {
  return booleanPolygons(ClipType.Union, toPaths(areas), [], FillRule.NonZero);
}

/**
 * Total area (m²) of cleaned polygons: outer rings count positive, holes negative.
 *
 * @example A rectangle with a hole
 * ```ts
 * import { polygonsArea } from "./walkable_area.ts";
 * import assert from "node:assert/strict";
 * assert.equal(polygonsArea([[[[0, 0], [4, 0], [4, 3], [0, 3]], [[1, 1], [1, 2], [2, 2], [2, 1]]]]), 11);
 * ```
 */
export function polygonsArea(polygons: readonly PolygonWithHoles[]): number {
  let total = 0;
  for (const polygon of polygons) {
    polygon.forEach((ring, k) => {
      const a = Math.abs(ringArea(ring));
      total += k === 0 ? a : -a;
    });
  }
  return total;
}

/**
 * Signed area of a ring (m²), positive when counter-clockwise.
 *
 * @example A unit square both ways round
 * ```ts
 * import { ringArea } from "./walkable_area.ts";
 * import assert from "node:assert/strict";
 * assert.equal(ringArea([[0, 0], [1, 0], [1, 1], [0, 1]]), 1);
 * assert.equal(ringArea([[0, 0], [0, 1], [1, 1], [1, 0]]), -1);
 * ```
 */
export function ringArea(ring: Ring): number {
  let area = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    area += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  }
  return area / 2;
}

function checkPolygon(polygon: PolygonWithHoles, where: string): void {
  if (!Array.isArray(polygon) || polygon.length === 0) {
    throw new TypeError(
      `Cannot clean walkable area as '${where}' must be a list of rings: current value is ${
        JSON.stringify(polygon)
      }`,
    );
  }
  polygon.forEach((ring, k) => {
    if (!Array.isArray(ring) || ring.length < 3) {
      throw new RangeError(
        `Cannot clean walkable area as '${where}[${k}]' needs at least 3 points`,
      );
    }
    for (const p of ring) {
      if (!Array.isArray(p) || p.length !== 2 || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
        throw new RangeError(
          `Cannot clean walkable area as '${where}[${k}]' has a point that is not two finite numbers: ${
            JSON.stringify(p)
          }`,
        );
      }
    }
  });
}

/** Rings as Clipper paths, with vertices welded within `tolerance` across all of them. */
function weldedPaths(polygons: readonly PolygonWithHoles[], tolerance: number): PathsD {
  const rings = polygons.flatMap((p) => p);
  let n = 0;
  for (const r of rings) n += r.length;
  const xy = new Float64Array(2 * n);
  let k = 0;
  for (const r of rings) {
    for (const [x, y] of r) {
      xy[k++] = x;
      xy[k++] = y;
    }
  }
  const ids = weldPoints(xy, tolerance);
  const paths: PathsD = [];
  k = 0;
  for (const r of rings) {
    const path: PathD = [];
    let last = -1;
    for (let i = 0; i < r.length; i++, k++) {
      const id = ids[k];
      if (id === last) continue;
      path.push({ x: xy[2 * id], y: xy[2 * id + 1] });
      last = id;
    }
    const first = path[0];
    const end = path[path.length - 1];
    if (path.length > 1 && first.x === end.x && first.y === end.y) path.pop();
    if (path.length >= 3 && areaD(path) !== 0) paths.push(path);
  }
  return paths;
}

function toPaths(polygons: readonly PolygonWithHoles[]): PathsD {
  const paths: PathsD = [];
  for (const polygon of polygons) {
    polygon.forEach((ring, k) => {
      const path: PathD = ring.map(([x, y]) => ({ x, y }));
      // Outer rings counter-clockwise, holes clockwise, so NonZero filling reads them right.
      const ccw = areaD(path) > 0;
      if ((k === 0) !== ccw) path.reverse();
      paths.push(path);
    });
  }
  return paths;
}

function booleanPolygons(
  op: ClipType,
  subject: PathsD,
  clip: PathsD,
  fillRule: FillRule,
): PolygonWithHoles[] {
  return polygonsFromPaths(
    booleanOpD(op, subject, clip.length ? clip : null, fillRule, PRECISION),
  );
}

/**
 * Small 2-D geometry functions on plain numbers (metres). None of them allocate.
 *
 * @module
 */

/** A point as `[x, y]` in metres. */
export type Point = readonly [number, number];

/**
 * Largest distance from the origin (m) that geometry, areas and spawn points may have: 10,000 km,
 * room for projected coordinates such as UTM northings, while positions keep a resolution of
 * about 2 nm. Farther out, float steps become visible and grid cell indices stop being integers.
 */
export const MAX_COORDINATE_M = 1e7;

/**
 * Squared distance (m²) from point (`px`, `py`) to the segment (`ax`, `ay`)–(`bx`, `by`).
 *
 * @example
 * ```ts
 * import { pointSegmentDistanceSq } from "./geometry.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(pointSegmentDistanceSq(1, 2, 0, 0, 4, 0), 4);
 * ```
 */
export function pointSegmentDistanceSq(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const t = segmentParameter(px, py, ax, ay, bx, by);
  const dx = ax + t * (bx - ax) - px, dy = ay + t * (by - ay) - py;
  return dx * dx + dy * dy;
}

/**
 * Parameter t ∈ [0, 1] of the point of segment (`ax`, `ay`)–(`bx`, `by`) closest to
 * (`px`, `py`); the closest point is `a + t (b - a)`. A segment of zero length gives 0.
 *
 * @example
 * ```ts
 * import { segmentParameter } from "./geometry.ts";
 * import assert from "node:assert/strict";
 * assert.equal(segmentParameter(1, 2, 0, 0, 4, 0), 0.25);
 * assert.equal(segmentParameter(-3, 1, 0, 0, 4, 0), 0); // before a: clamped
 * ```
 */
export function segmentParameter(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const ex = bx - ax, ey = by - ay;
  const len2 = ex * ex + ey * ey;
  if (len2 === 0) return 0;
  const t = ((px - ax) * ex + (py - ay) * ey) / len2;
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

/**
 * True when segment p1–p2 and segment q1–q2 share a point (touching counts).
 *
 * @example
 * ```ts
 * import { segmentsIntersect } from "./geometry.ts";
 * import assert from "node:assert/strict";
 * assert(segmentsIntersect(0, 0, 2, 2, 0, 2, 2, 0));
 * assert(!segmentsIntersect(0, 0, 1, 0, 0, 1, 1, 1));
 * ```
 */
export function segmentsIntersect(
  p1x: number,
  p1y: number,
  p2x: number,
  p2y: number,
  q1x: number,
  q1y: number,
  q2x: number,
  q2y: number,
): boolean {
  const d1 = cross(q1x, q1y, q2x, q2y, p1x, p1y);
  const d2 = cross(q1x, q1y, q2x, q2y, p2x, p2y);
  const d3 = cross(p1x, p1y, p2x, p2y, q1x, q1y);
  const d4 = cross(p1x, p1y, p2x, p2y, q2x, q2y);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    return true;
  }
  return (d1 === 0 && onSegment(q1x, q1y, q2x, q2y, p1x, p1y)) ||
    (d2 === 0 && onSegment(q1x, q1y, q2x, q2y, p2x, p2y)) ||
    (d3 === 0 && onSegment(p1x, p1y, p2x, p2y, q1x, q1y)) ||
    (d4 === 0 && onSegment(p1x, p1y, p2x, p2y, q2x, q2y));
}

/** z of (b - a) × (c - a): > 0 when c lies left of the directed line a→b. */
export function cross(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function onSegment(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  px: number,
  py: number,
): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py &&
    py <= Math.max(ay, by);
}

/**
 * Bounding box `[minX, minY, maxX, maxY]` (m) of `points`; `[Infinity, Infinity, -Infinity,
 * -Infinity]` when there are none.
 *
 * @example
 * ```ts
 * import { pointsBounds } from "./geometry.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(pointsBounds([[1, 5], [-2, 3], [4, 4]]), [-2, 3, 4, 5]);
 * ```
 */
export function pointsBounds(
  points: readonly (readonly [number, number])[],
): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  return [minX, minY, maxX, maxY];
}

/** Signed area of a polygon (m²): positive when its vertices run counter-clockwise. */
export function signedArea(points: readonly Point[]): number {
  let area = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    area += points[j][0] * points[i][1] - points[i][0] * points[j][1];
  }
  return area / 2;
}

/**
 * A pair of edges of a closed polygon that cross each other (properly, or overlapping along a
 * line), as edge indices `[i, j]` with `i < j` and edge `i` running from point `i` to point
 * `i + 1`; null for a simple polygon. Edges that only touch at a shared vertex do not count.
 *
 * A sweep along the axis in which the edges are shortest compares each edge with those whose
 * extent overlaps it: close to linear for building outlines and city blocks, quadratic only for
 * polygons whose edges all overlap along both axes (keep those to some thousands of vertices).
 *
 * @example A bow tie crosses itself
 * ```ts
 * import { findSelfIntersection } from "./geometry.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(findSelfIntersection([[0, 0], [2, 2], [2, 0], [0, 2]]), [0, 2]);
 * assert.equal(findSelfIntersection([[0, 0], [2, 0], [2, 2], [0, 2]]), null);
 * ```
 */
export function findSelfIntersection(points: readonly Point[]): [number, number] | null {
  const n = points.length;
  const ax = new Float64Array(n), ay = new Float64Array(n);
  const bx = new Float64Array(n), by = new Float64Array(n);
  let spanX = 0, spanY = 0;
  for (let i = 0; i < n; i++) {
    const p = points[i], q = points[(i + 1) % n];
    ax[i] = p[0];
    ay[i] = p[1];
    bx[i] = q[0];
    by[i] = q[1];
    spanX += Math.abs(q[0] - p[0]);
    spanY += Math.abs(q[1] - p[1]);
  }
  // Sweep along the axis in which the edges are shorter: fewer overlap at any position.
  const [u0, u1, v0, v1] = spanX <= spanY ? [ax, bx, ay, by] : [ay, by, ax, bx];
  const lo = new Float64Array(n), hi = new Float64Array(n);
  const vlo = new Float64Array(n), vhi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lo[i] = Math.min(u0[i], u1[i]);
    hi[i] = Math.max(u0[i], u1[i]);
    vlo[i] = Math.min(v0[i], v1[i]);
    vhi[i] = Math.max(v0[i], v1[i]);
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => lo[a] - lo[b] || a - b);
  const active = new Uint32Array(n);
  let count = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    let kept = 0;
    for (let m = 0; m < count; m++) {
      const j = active[m];
      if (hi[j] < lo[i]) continue; // ends before this edge starts: leaves the sweep
      active[kept++] = j;
      if (vhi[j] < vlo[i] || vlo[j] > vhi[i]) continue;
      if (_edgesCross(ax, ay, bx, by, i, j, n)) return i < j ? [i, j] : [j, i];
    }
    count = kept;
    active[count++] = i;
  }
  return null;
}

/** True when edges `i` and `j` of an `n`-gon cross properly or overlap along a line. */
function _edgesCross(
  ax: Float64Array,
  ay: Float64Array,
  bx: Float64Array,
  by: Float64Array,
  i: number,
  j: number,
  n: number,
): boolean {
  const adjacent = Math.abs(i - j) === 1 || Math.abs(i - j) === n - 1;
  const d1 = cross(ax[j], ay[j], bx[j], by[j], ax[i], ay[i]);
  const d2 = cross(ax[j], ay[j], bx[j], by[j], bx[i], by[i]);
  const d3 = cross(ax[i], ay[i], bx[i], by[i], ax[j], ay[j]);
  const d4 = cross(ax[i], ay[i], bx[i], by[i], bx[j], by[j]);
  if (!adjacent && d1 * d2 < 0 && d3 * d4 < 0) return true;
  return d1 === 0 && d2 === 0 &&
    _collinearOverlap(ax[i], ay[i], bx[i], by[i], ax[j], ay[j], bx[j], by[j]);
}

/** True when collinear segments a–b and c–d share more than one point. */
function _collinearOverlap(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  // Project on the longer axis of a–b and compare the intervals.
  const useX = Math.abs(bx - ax) >= Math.abs(by - ay);
  const [a, b, c, d] = useX ? [ax, bx, cx, dx] : [ay, by, cy, dy];
  const lo = Math.max(Math.min(a, b), Math.min(c, d)),
    hi = Math.min(Math.max(a, b), Math.max(c, d));
  return hi > lo;
}

/** True when (`x`, `y`) lies inside the polygon (even-odd rule). */
export function pointInPolygon(x: number, y: number, points: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i], [xj, yj] = points[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * `Math.hypot(x, y)` bit for bit, about twice as fast: the same sum V8 computes (both lengths
 * scaled by the larger, squared and added with Kahan compensation, the square root scaled
 * back), without the cost of the variadic built-in. Zero, infinite and NaN arguments go to the
 * built-in. `core/geometry_test.ts` checks the identity on millions of pairs.
 *
 * @example
 * ```ts
 * import { hypot2 } from "./geometry.ts";
 * import assert from "node:assert/strict";
 * assert.equal(hypot2(3, 4), 5);
 * assert.equal(hypot2(0.1, 0.7), Math.hypot(0.1, 0.7));
 * ```
 */
export function hypot2(x: number, y: number): number {
  const ax = Math.abs(x), ay = Math.abs(y);
  if (!(ax < Infinity && ay < Infinity)) return Math.hypot(x, y);
  const max = ax > ay ? ax : ay;
  if (max === 0) return 0;
  // V8's Kahan-compensated loop over two terms: its compensation after the first term is 0.
  const a = ax / max, b = ay / max;
  return Math.sqrt(a * a + b * b) * max;
}

/**
 * Exactly `Math.hypot(dx, dy) <= r`, decided from the squares unless the two are within a
 * relative 1e-9 of each other (then by the built-in): for distance tests in per-agent loops.
 *
 * @example
 * ```ts
 * import { hypotAtMost } from "./geometry.ts";
 * import assert from "node:assert/strict";
 * assert.equal(hypotAtMost(3, 4, 5), true);
 * assert.equal(hypotAtMost(3, 4, 4.99), false);
 * ```
 */
export function hypotAtMost(dx: number, dy: number, r: number): boolean {
  if (r >= 0) {
    const d2 = dx * dx + dy * dy, r2 = r * r;
    if (d2 < r2 * (1 - 1e-9)) return true;
    if (d2 > r2 * (1 + 1e-9)) return false;
  }
  return Math.hypot(dx, dy) <= r;
}

/**
 * Small 2-D geometry functions on plain numbers (metres). None of them allocate.
 *
 * @module
 */

/** A point as `[x, y]` in metres. */
export type Point = readonly [number, number];

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

/** Signed area of a polygon (m²): positive when its vertices run counter-clockwise. */
export function signedArea(points: readonly Point[]): number {
  let area = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    area += points[j][0] * points[i][1] - points[i][0] * points[j][1];
  }
  return area / 2;
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

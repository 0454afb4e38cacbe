/**
 * Parallel offset of an open polyline, for sidewalks beside a road's centre line.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";

/**
 * The polyline moved sideways by `distance` (m): positive to the left of its direction,
 * negative to the right. Vertices are mitred (the offset lines of the two segments meet),
 * with the mitre capped at twice the distance at sharp turns. Zero-length segments are skipped.
 *
 * @example A line along x moved 2 m to the left
 * ```ts
 * import { offsetPolyline } from "./offset_polyline.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(offsetPolyline([[0, 0], [10, 0]], 2), [[0, 2], [10, 2]]);
 * const corner = offsetPolyline([[0, 0], [10, 0], [10, 10]], 1);
 * assert.deepEqual(corner[1], [9, 1]); // inside the left turn
 * ```
 */
export function offsetPolyline(points: readonly Point[], distance: number): Point[] {
  const pts: Point[] = [];
  for (const p of points) {
    const q = pts[pts.length - 1];
    if (!q || q[0] !== p[0] || q[1] !== p[1]) pts.push(p);
  }
  if (pts.length < 2) return pts.map((p) => [p[0], p[1]]);
  const normals: Point[] = [];
  for (let i = 0; i + 1 < pts.length; i++) {
    const dx = pts[i + 1][0] - pts[i][0], dy = pts[i + 1][1] - pts[i][1];
    const len = Math.hypot(dx, dy);
    normals.push([-dy / len, dx / len]);
  }
  const out: Point[] = [];
  for (let i = 0; i < pts.length; i++) {
    const a = normals[Math.max(0, i - 1)], b = normals[Math.min(normals.length - 1, i)];
    let nx = a[0] + b[0], ny = a[1] + b[1];
    const len = Math.hypot(nx, ny);
    if (len < 1e-9) {
      nx = b[0];
      ny = b[1];
    } else {
      nx /= len;
      ny /= len;
    }
    // Mitre: the offset lines meet at distance / cos(half the turn).
    const cos = nx * b[0] + ny * b[1];
    const scale = Math.min(2, 1 / Math.max(cos, 1e-9));
    out.push([pts[i][0] + nx * distance * scale, pts[i][1] + ny * distance * scale]);
  }
  return out;
}

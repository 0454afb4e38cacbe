/**
 * The funnel (string-pulling) algorithm (Lee & Preparata 1984; in the form of Mononen's "simple
 * stupid funnel"): the shortest path from a start point to an end point through a corridor of
 * adjacent triangles. Each shared edge is a portal; the funnel's two sides tighten portal by
 * portal, and where one side crosses the other the path turns at that corner.
 *
 * Its first corner is the furthest route point visible from the start — what Reynolds' path
 * following steers at, and what {@linkcode createNavMeshNavigator} recomputes for every agent
 * from its current position.
 *
 * @module
 */
import type { NavMesh } from "./navmesh.ts";

/**
 * Writes the straight path from (`sx`, `sy`) to (`gx`, `gy`) through triangles
 * `corridor[begin] … corridor[end - 1]` into `out` as `[x0, y0, x1, y1, …]`: the start, each
 * corner, then the end. Stops after `maxPoints` points (2 gives the start and the first corner,
 * or the end when it is visible). Returns the number of points written. A corridor whose next
 * triangle is not adjacent ends there: the end point follows the last portal reached.
 *
 * @example A corridor around a corner
 * ```ts
 * import { buildNavMesh } from "./navmesh_builder.ts";
 * import { NavMeshQuery, NavPath } from "./path_query.ts";
 * import { stringPull } from "./funnel.ts";
 * import assert from "node:assert/strict";
 * // An L-shaped room: from the bottom-right arm to the top-left arm, turning at (2, 2).
 * const mesh = buildNavMesh(
 *   { walkable: [[[[0, 0], [10, 0], [10, 2], [2, 2], [2, 10], [0, 10]]]] },
 *   { clearance: 0 },
 * );
 * const path = new NavPath();
 * new NavMeshQuery(mesh).findPath([9, 1], [1, 9], path);
 * const out = new Float64Array(16);
 * const n = stringPull(mesh, path.corridor, 0, path.corridorLength, 9, 1, 1, 9, out, 8);
 * assert.equal(n, 3);
 * assert.deepEqual([out[2], out[3]], [2, 2]);
 * ```
 */
export function stringPull(
  mesh: NavMesh,
  corridor: Int32Array,
  begin: number,
  end: number,
  sx: number,
  sy: number,
  gx: number,
  gy: number,
  out: Float64Array,
  maxPoints: number,
): number {
  const c = mesh.coords, v = mesh.triangles, nb = mesh.neighbors;
  let count = 0;
  const emit = (x: number, y: number): boolean => {
    if (count > 0 && out[2 * count - 2] === x && out[2 * count - 1] === y) return count < maxPoints;
    out[2 * count] = x;
    out[2 * count + 1] = y;
    count++;
    return count < maxPoints;
  };
  if (maxPoints <= 0) return 0;
  if (!emit(sx, sy)) return count;
  // Portals 1 … P-1 are the shared edges; portal P is the end point.
  let P = end - begin;
  for (let i = begin; i < end - 1; i++) {
    const t = corridor[i], n = corridor[i + 1];
    if (nb[3 * t] !== n && nb[3 * t + 1] !== n && nb[3 * t + 2] !== n) {
      P = i - begin + 1;
      break;
    }
  }
  let ax = sx, ay = sy, lx = sx, ly = sy, rx = sx, ry = sy;
  let apexIndex = 0, leftIndex = 0, rightIndex = 0;
  for (let i = 1; i <= P; i++) {
    let plx: number, ply: number, prx: number, pry: number;
    if (i === P) {
      plx = prx = gx;
      ply = pry = gy;
    } else {
      const t = corridor[begin + i - 1], n = corridor[begin + i];
      const k = nb[3 * t] === n ? 0 : nb[3 * t + 1] === n ? 1 : 2;
      const r = v[3 * t + k], l = v[3 * t + (k + 1) % 3];
      prx = c[2 * r];
      pry = c[2 * r + 1];
      plx = c[2 * l];
      ply = c[2 * l + 1];
    }
    // Right side: tighten when the new right point is left of (or on) apex→right.
    if (cross(ax, ay, rx, ry, prx, pry) >= 0) {
      if ((ax === rx && ay === ry) || cross(ax, ay, lx, ly, prx, pry) < 0) {
        rx = prx;
        ry = pry;
        rightIndex = i;
      } else {
        // The right side crossed the left one: the path turns at the left point.
        if (!emit(lx, ly)) return count;
        ax = rx = lx;
        ay = ry = ly;
        apexIndex = rightIndex = leftIndex;
        i = apexIndex;
        continue;
      }
    }
    // Left side: tighten when the new left point is right of (or on) apex→left.
    if (cross(ax, ay, lx, ly, plx, ply) <= 0) {
      if ((ax === lx && ay === ly) || cross(ax, ay, rx, ry, plx, ply) > 0) {
        lx = plx;
        ly = ply;
        leftIndex = i;
      } else {
        if (!emit(rx, ry)) return count;
        ax = lx = rx;
        ay = ly = ry;
        apexIndex = leftIndex = rightIndex;
        i = apexIndex;
        continue;
      }
    }
  }
  emit(gx, gy);
  return count;
}

/** z of (b − a) × (p − a): > 0 when p lies left of the directed line a→b. */
function cross(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

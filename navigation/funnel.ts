/**
 * The funnel (string-pulling) algorithm (Lee & Preparata 1984; in the form of Mononen's "simple
 * stupid funnel"): the shortest path from a start point to an end point through a corridor of
 * adjacent triangles. Each shared edge is a portal; the funnel's two sides tighten portal by
 * portal, and where one side crosses the other the path turns at that corner.
 *
 * Its first corner is the furthest route point visible from the start — what Reynolds' path
 * following steers at, and what the navmesh navigator recomputes for every agent from its
 * current position.
 *
 * @module
 */
import type { NavMesh } from "./navmesh.ts";

/**
 * What {@linkcode stringPull} pulls: a stretch of a corridor, the start and end points (m), and
 * the buffer the path goes to. A caller that pulls once per agent keeps one request and
 * overwrites its fields.
 */
export interface FunnelRequest {
  /** Triangles of the corridor, each adjacent to the next. */
  corridor: Int32Array;
  /** Index of the first corridor triangle used. @default 0 */
  begin?: number;
  /** One past the last corridor triangle used. @default corridor.length */
  end?: number;
  /** Start x (m), inside the first triangle. */
  startX: number;
  /** Start y (m). */
  startY: number;
  /** End x (m), inside the last triangle. */
  endX: number;
  /** End y (m). */
  endY: number;
  /** Receives the path as `[x0, y0, x1, y1, …]` (m). */
  out: Float64Array;
  /**
   * Points written at most: 2 gives the start and the first corner (or the end when it is
   * visible). @default out.length / 2
   */
  maxPoints?: number;
}

/**
 * Writes the straight path from the request's start to its end through triangles
 * `corridor[begin] … corridor[end - 1]` into `out`: the start, each corner, then the end.
 * Stops after `maxPoints` points. Returns the number of points written. A corridor whose next
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
 * const n = stringPull(mesh, {
 *   corridor: path.corridor,
 *   end: path.corridorLength,
 *   startX: 9, startY: 1, endX: 1, endY: 9,
 *   out,
 * });
 * assert.equal(n, 3);
 * assert.deepEqual([out[2], out[3]], [2, 2]);
 * ```
 */
export function stringPull(mesh: NavMesh, request: FunnelRequest): number {
  const { corridor, out, startX: sx, startY: sy, endX: gx, endY: gy } = request;
  const begin = request.begin ?? 0, end = request.end ?? corridor.length;
  const maxPoints = request.maxPoints ?? out.length >> 1;
  const c = mesh.coords, v = mesh.triangles, nb = mesh.neighbors;
  if (maxPoints <= 0) return 0;
  let count = _emit(out, 0, sx, sy);
  if (count >= maxPoints) return count;
  // Portals 1 … P-1 are the shared edges; portal P is the end point.
  const P = _portalCount(mesh, corridor, begin, end);
  let ax = sx, ay = sy, lx = sx, ly = sy, rx = sx, ry = sy;
  let apexIndex = 0, leftIndex = 0, rightIndex = 0;
  for (let i = 1; i <= P; i++) {
    let plx = gx, ply = gy, prx = gx, pry = gy;
    if (i < P) {
      const t = corridor[begin + i - 1], n = corridor[begin + i];
      const k = nb[3 * t] === n ? 0 : nb[3 * t + 1] === n ? 1 : 2;
      const r = v[3 * t + k], l = v[3 * t + (k + 1) % 3];
      prx = c[2 * r];
      pry = c[2 * r + 1];
      plx = c[2 * l];
      ply = c[2 * l + 1];
    }
    // Right side: tighten when the new right point is left of (or on) apex→right.
    if (_cross(ax, ay, rx, ry, prx, pry) >= 0) {
      if ((ax === rx && ay === ry) || _cross(ax, ay, lx, ly, prx, pry) < 0) {
        rx = prx;
        ry = pry;
        rightIndex = i;
      } else {
        // The right side crossed the left one: the path turns at the left point.
        count = _emit(out, count, lx, ly);
        if (count >= maxPoints) return count;
        ax = rx = lx;
        ay = ry = ly;
        apexIndex = rightIndex = leftIndex;
        i = apexIndex;
        continue;
      }
    }
    // Left side: tighten when the new left point is right of (or on) apex→left.
    if (_cross(ax, ay, lx, ly, plx, ply) <= 0) {
      if ((ax === lx && ay === ly) || _cross(ax, ay, rx, ry, plx, ply) > 0) {
        lx = plx;
        ly = ply;
        leftIndex = i;
      } else {
        count = _emit(out, count, rx, ry);
        if (count >= maxPoints) return count;
        ax = lx = rx;
        ay = ly = ry;
        apexIndex = leftIndex = rightIndex;
        i = apexIndex;
        continue;
      }
    }
  }
  return _emit(out, count, gx, gy);
}

/**
 * Number of portals of `corridor[begin … end-1]`, the end point included: the corridor is cut
 * after the first triangle not adjacent to the next.
 */
function _portalCount(mesh: NavMesh, corridor: Int32Array, begin: number, end: number): number {
  const nb = mesh.neighbors;
  for (let i = begin; i < end - 1; i++) {
    const t = corridor[i], n = corridor[i + 1];
    if (nb[3 * t] !== n && nb[3 * t + 1] !== n && nb[3 * t + 2] !== n) return i - begin + 1;
  }
  return end - begin;
}

/** Appends (x, y) as point `count` unless it repeats the last point; returns the new count. */
function _emit(out: Float64Array, count: number, x: number, y: number): number {
  if (count > 0 && out[2 * count - 2] === x && out[2 * count - 1] === y) return count;
  out[2 * count] = x;
  out[2 * count + 1] = y;
  return count + 1;
}

/** z of (b − a) × (p − a): > 0 when p lies left of the directed line a→b. */
function _cross(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/**
 * A barrier across a street: the obstacle polygon that blocks a street edge from facade to
 * facade, for road blocks in dynamic scenarios.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import type { StreetEdge } from "../geo/city_model.ts";
import type { ObstaclePolygon, ObstacleSet } from "./obstacle_set.ts";

/** Options of {@linkcode streetBarrier}. */
export interface StreetBarrierOptions {
  /**
   * Where along the street the barrier stands, as a fraction of its length.
   * @default 0.5
   */
  at?: number;
  /**
   * Thickness of the barrier along the street (m).
   * @default 0.5
   */
  thicknessM?: number;
  /**
   * How far to each side a facade is searched for (m); where none is found within it, the barrier
   * ends half the street's width plus 5 m from the centre line.
   * @default 40
   */
  searchM?: number;
}

/**
 * A thin rectangle (m) across `edge` at fraction `at` of its length, reaching on each side to the
 * nearest wall of `obstacles` (and 0.25 m into it, so no gap is left), perpendicular to the
 * street. Throws a RangeError when `at` is outside [0, 1].
 *
 * @example A barrier between two facades 10 m apart
 * ```ts
 * import { ObstacleSet } from "./obstacle_set.ts";
 * import { streetBarrier } from "./street_barrier.ts";
 * import type { StreetEdge } from "../geo/city_model.ts";
 * import assert from "node:assert/strict";
 * const obstacles = ObstacleSet.fromPolygons([
 *   [[[0, 5], [40, 5], [40, 15], [0, 15]]],
 *   [[[0, -15], [40, -15], [40, -5], [0, -5]]],
 * ]);
 * const edge = { points: [[0, 0], [40, 0]], length: 40, width: 8 } as unknown as StreetEdge;
 * const [ring] = streetBarrier(edge, obstacles);
 * const ys = ring.map((p) => p[1]);
 * assert.deepEqual([Math.min(...ys), Math.max(...ys)], [-5.25, 5.25]);
 * ```
 */
export function streetBarrier(
  edge: StreetEdge,
  obstacles: ObstacleSet,
  options: StreetBarrierOptions = {},
): ObstaclePolygon {
  const { at = 0.5, thicknessM = 0.5, searchM = 40 } = options;
  if (!(at >= 0 && at <= 1)) {
    throw new RangeError(
      `Cannot place street barrier as 'at' must be in [0, 1]: current value is ${at}`,
    );
  }
  const [x, y, tx, ty] = _pointAlong(edge.points, at * edge.length);
  const nx = -ty, ny = tx;
  const fallback = edge.width / 2 + 5;
  const reach = (sx: number, sy: number) => {
    const d = obstacles.raycast(x, y, sx, sy, searchM);
    return d < searchM ? d + 0.25 : fallback;
  };
  const left = reach(nx, ny), right = reach(-nx, -ny);
  const h = thicknessM / 2;
  return [[
    [x - right * nx - h * tx, y - right * ny - h * ty],
    [x - right * nx + h * tx, y - right * ny + h * ty],
    [x + left * nx + h * tx, y + left * ny + h * ty],
    [x + left * nx - h * tx, y + left * ny - h * ty],
  ]];
}

/** Point at `distance` (m) along the polyline and the unit tangent there. */
function _pointAlong(points: readonly Point[], distance: number): [number, number, number, number] {
  let left = distance;
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1], [bx, by] = points[i];
    const len = Math.hypot(bx - ax, by - ay);
    if (len === 0) continue;
    if (left <= len || i === points.length - 1) {
      const t = Math.min(1, left / len);
      return [ax + t * (bx - ax), ay + t * (by - ay), (bx - ax) / len, (by - ay) / len];
    }
    left -= len;
  }
  throw new RangeError("Cannot place street barrier as the street has no length");
}

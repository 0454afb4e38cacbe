/**
 * The lane order parameter Φ of a set of walkers given as plain arrays (positions and walking
 * directions), for measured trajectories as well as simulated crowds. It is the measure of
 * `strategies/lane_order.ts` (Rex and Löwen 2007): Φ ≈ 0 for two streams mixed across the width,
 * Φ = 1 for lanes that each carry one direction.
 *
 * @module
 */
import { AgentStore } from "../core/agent_store.ts";
import { laneOrder, type LaneOrderOptions } from "../strategies/lane_order.ts";

/**
 * Lane order Φ ∈ [0, 1] of walkers at (`x[i]`, `y[i]`) (m) walking along (`dirX[i]`, `dirY[i]`)
 * (any length; zero for standing); null when nobody has anyone in their lane.
 *
 * @example Perfect lanes and a mixed crowd
 * ```ts
 * import { laneOrderOf } from "./lane_order_of.ts";
 * import assert from "node:assert/strict";
 * // Two lanes, 1 m apart, one per direction.
 * assert.equal(laneOrderOf([0, 1, 2, 0, 1, 2], [0, 0, 0, 1, 1, 1], [1, 1, 1, -1, -1, -1], [0, 0, 0, 0, 0, 0]), 1);
 * // One lane with alternating directions.
 * assert.equal(laneOrderOf([0, 1, 2, 3], [0, 0, 0, 0], [1, -1, 1, -1], [0, 0, 0, 0]), 1 / 9);
 * ```
 */
export function laneOrderOf(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  dirX: ArrayLike<number>,
  dirY: ArrayLike<number>,
  options: LaneOrderOptions = {},
): number | null {
  const n = x.length;
  if (y.length !== n || dirX.length !== n || dirY.length !== n) {
    throw new TypeError(
      `Cannot compute lane order as 'x', 'y', 'dirX' and 'dirY' must have the same length: ${n}, ${y.length}, ${dirX.length}, ${dirY.length}`,
    );
  }
  const store = new AgentStore(Math.max(1, n));
  for (let i = 0; i < n; i++) {
    const k = store.indexOf(store.add({ x: x[i], y: y[i] }));
    store.prefVx[k] = dirX[i];
    store.prefVy[k] = dirY[i];
  }
  return laneOrder(store, options);
}

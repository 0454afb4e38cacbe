/**
 * The lane order parameter of a bidirectional flow (Rex and Löwen 2007, "Lane formation in
 * oppositely charged colloids driven by an electric field", Phys. Rev. E 75, 051402), for
 * checking that a strategy forms lanes.
 *
 * @module
 */
import type { AgentStore } from "../core/agent_store.ts";

/** Options of {@linkcode laneOrder}. */
export interface LaneOrderOptions {
  /**
   * Half-width of the lane around an agent's line of walking (m): others whose centre lies
   * within this lateral distance share its lane. About a body radius. @default 0.3
   */
  laneHalfWidth?: number;
}

/**
 * The lane order parameter Φ ∈ [0, 1] of the agents' current state.
 *
 * Every agent i with a desired direction e_i (its preferred velocity; agents standing still are
 * left out) looks along its line of walking, across the whole crowd: of the others whose centre
 * is within `laneHalfWidth` of that line, n⁺ walk the same way (e_j · e_i > 0) and n⁻ the other
 * way. Its lane order is φ_i = ((n⁺ − n⁻)/(n⁺ + n⁻))², and Φ is the mean over the agents that
 * have someone in their lane. Two groups that face each other mixed across the width give
 * Φ ≈ 0; lanes that each carry one direction give Φ = 1. Returns null when no agent has anyone
 * in its lane. Costs O(n²): meant for tests and analysis of crowds of hundreds.
 *
 * @example Two lanes, and two groups facing each other in one lane
 * ```ts
 * import { laneOrder } from "./lane_order.ts";
 * import { AgentStore } from "../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const store = new AgentStore();
 * const add = (x: number, y: number, dir: number) => {
 *   const i = store.indexOf(store.add({ x, y }));
 *   store.prefVx[i] = dir;
 * };
 * add(0, 1, 1); add(2, 1, 1); add(1, -1, -1); add(3, -1, -1); // east above, west below
 * assert.equal(laneOrder(store), 1);
 * store.clear();
 * add(0, 0, 1); add(1, 0, 1); add(5, 0, -1); add(6, 0, -1); // one lane, both ways
 * assert.ok(laneOrder(store)! < 0.2);
 * ```
 */
export function laneOrder(agents: AgentStore, options: LaneOrderOptions = {}): number | null {
  const halfWidth = options.laneHalfWidth ?? 0.3;
  if (!(halfWidth > 0) || !Number.isFinite(halfWidth)) {
    throw new RangeError(
      `Cannot compute lane order as 'laneHalfWidth' must be a finite number > 0: current value is ${halfWidth}`,
    );
  }
  const n = agents.count, px = agents.px, py = agents.py;
  const pvx = agents.prefVx, pvy = agents.prefVy;
  let sum = 0, counted = 0;
  for (let i = 0; i < n; i++) {
    const si = Math.sqrt(pvx[i] * pvx[i] + pvy[i] * pvy[i]);
    if (!(si > 0)) continue;
    const ex = pvx[i] / si, ey = pvy[i] / si;
    let same = 0, opposite = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const dot = pvx[j] * ex + pvy[j] * ey;
      if (dot === 0) continue;
      const lateral = Math.abs(ex * (py[j] - py[i]) - ey * (px[j] - px[i]));
      if (lateral >= halfWidth) continue;
      if (dot > 0) same++;
      else opposite++;
    }
    const total = same + opposite;
    if (total === 0) continue;
    const order = (same - opposite) / total;
    sum += order * order;
    counted++;
  }
  return counted === 0 ? null : sum / counted;
}

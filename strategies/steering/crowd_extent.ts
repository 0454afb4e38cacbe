/**
 * Bounds over the whole crowd that size neighbour queries: the largest body radius and the
 * largest current speed.
 *
 * @module
 */
import type { AgentStore } from "../../core/agent_store.ts";

/**
 * Largest body radius (m) and largest current speed (m/s) of agents `0 … count-1`, written to
 * `out[0]` and `out[1]`: the bounds behaviours use to size neighbour queries.
 *
 * @example
 * ```ts
 * import { AgentStore } from "../../core/agent_store.ts";
 * import { crowdExtent } from "./crowd_extent.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore();
 * agents.add({ x: 0, y: 0, radius: 0.3, vx: 3, vy: 4 });
 * agents.add({ x: 1, y: 0, radius: 0.2 });
 * const out = new Float64Array(2);
 * crowdExtent(agents, out);
 * assert.deepEqual([...out], [0.3, 5]);
 * ```
 */
export function crowdExtent(agents: AgentStore, out: Float64Array): void {
  const radius = agents.radius, vx = agents.vx, vy = agents.vy;
  let r = 0, s2 = 0;
  for (let j = 0; j < agents.count; j++) {
    if (radius[j] > r) r = radius[j];
    const v2 = vx[j] * vx[j] + vy[j] * vy[j];
    if (v2 > s2) s2 = v2;
  }
  out[0] = r;
  out[1] = Math.sqrt(s2);
}

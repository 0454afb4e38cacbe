/**
 * Headings of an agent: the direction it wants to go (preferred velocity) and the direction it
 * moves (velocity), each falling back on the other when it is zero.
 *
 * @module
 */
import type { AgentStore } from "../../core/agent_store.ts";

/** Speeds below this (m/s) have no direction. */
export const MIN_HEADING_SPEED = 1e-6;

/**
 * Writes the unit direction agent `i` wants to go into `out` (its preferred velocity, or its
 * velocity when the preferred velocity is zero) and returns the speed along it (m/s): the
 * preferred speed, or the current speed in the fallback. Returns 0 and writes (0, 0) when both
 * are zero.
 *
 * @example
 * ```ts
 * import { AgentStore } from "../../core/agent_store.ts";
 * import { preferredHeading } from "./heading.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore();
 * agents.add({ x: 0, y: 0, vx: 1, vy: 0 });
 * agents.prefVy[0] = 2;
 * const out = new Float64Array(2);
 * assert.equal(preferredHeading(agents, 0, out), 2);
 * assert.deepEqual([...out], [0, 1]);
 * ```
 */
export function preferredHeading(agents: AgentStore, i: number, out: Float64Array): number {
  const pvx = agents.prefVx[i], pvy = agents.prefVy[i];
  const ps = Math.sqrt(pvx * pvx + pvy * pvy);
  if (ps > MIN_HEADING_SPEED) {
    out[0] = pvx / ps;
    out[1] = pvy / ps;
    return ps;
  }
  const vx = agents.vx[i], vy = agents.vy[i];
  const s = Math.sqrt(vx * vx + vy * vy);
  if (s > MIN_HEADING_SPEED) {
    out[0] = vx / s;
    out[1] = vy / s;
    return s;
  }
  out[0] = out[1] = 0;
  return 0;
}

/**
 * Writes the unit direction agent `i` moves in into `out` (its velocity, or its preferred
 * velocity when standing) and returns the speed along it (m/s); 0 with (0, 0) when both are
 * zero.
 *
 * @example
 * ```ts
 * import { AgentStore } from "../../core/agent_store.ts";
 * import { motionHeading } from "./heading.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore();
 * agents.add({ x: 0, y: 0, vx: 0, vy: -3 });
 * const out = new Float64Array(2);
 * assert.equal(motionHeading(agents, 0, out), 3);
 * assert.deepEqual([...out], [0, -1]);
 * ```
 */
export function motionHeading(agents: AgentStore, i: number, out: Float64Array): number {
  const vx = agents.vx[i], vy = agents.vy[i];
  const s = Math.sqrt(vx * vx + vy * vy);
  if (s > MIN_HEADING_SPEED) {
    out[0] = vx / s;
    out[1] = vy / s;
    return s;
  }
  const pvx = agents.prefVx[i], pvy = agents.prefVy[i];
  const ps = Math.sqrt(pvx * pvx + pvy * pvy);
  if (ps > MIN_HEADING_SPEED) {
    out[0] = pvx / ps;
    out[1] = pvy / ps;
    return ps;
  }
  out[0] = out[1] = 0;
  return 0;
}

/**
 * The click panel's content for one agent of a live world: its state from the core columns and
 * its strategy's internals (`Strategy.inspect`), as plain named values.
 *
 * @module
 */
import { AgentFlags } from "../core/agent_store.ts";
import type { World } from "../core/world.ts";

/**
 * State of the agent whose trajectory id is `id`, or null when no such agent is in the world.
 * Core values come first (`id`, `x`, `y`, `speed`, `headingDeg`, `goalX`, `goalY`, `radius`,
 * `desiredSpeed`, `state`), then the strategy's internals prefixed with `strategy.`.
 *
 * @example
 * ```ts
 * import { inspectAgent } from "./inspect_agent.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 1, y: 2, vx: 0, vy: 1.5, goalX: 1, goalY: 9 });
 * const state = inspectAgent(world, world.agents.serial[0])!;
 * assert.equal(state.speed, 1.5);
 * assert.equal(state.headingDeg, 90);
 * assert.equal(state.goalY, 9);
 * assert.equal(inspectAgent(world, 12345), null);
 * ```
 */
export function inspectAgent(
  world: World,
  id: number,
): Record<string, number | string | boolean> | null {
  const a = world.agents;
  const index = a.serial.subarray(0, a.count).indexOf(id);
  if (index < 0) return null;
  const vx = a.vx[index], vy = a.vy[index];
  const flags = a.flags[index];
  const state: Record<string, number | string | boolean> = {
    id,
    index,
    x: a.px[index],
    y: a.py[index],
    vx,
    vy,
    speed: Math.hypot(vx, vy),
    headingDeg: (Math.atan2(vy, vx) * 180) / Math.PI,
    prefSpeed: Math.hypot(a.prefVx[index], a.prefVy[index]),
    goalX: a.goalX[index],
    goalY: a.goalY[index],
    radius: a.radius[index],
    desiredSpeed: a.desiredSpeed[index],
    state: (flags & AgentFlags.frozen) !== 0
      ? "frozen"
      : (flags & AgentFlags.arrived) !== 0
      ? "arrived"
      : "walking",
    tripTime: world.time - a.spawnTime[index],
    strategy: world.strategy.name,
  };
  const internals = world.strategy.inspect?.(world, index) ?? {};
  for (const [key, value] of Object.entries(internals)) state[`strategy.${key}`] = value;
  return state;
}

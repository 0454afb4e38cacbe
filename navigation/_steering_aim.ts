/**
 * The last step of every navigator: turn "where to go, how fast, and whether to brake" into a
 * preferred velocity (Reynolds' "seek" and "arrive").
 *
 * A navigator fills one reused {@linkcode SteeringAim} per agent and calls
 * {@linkcode steerAt}; nothing is allocated per agent.
 *
 * @module
 */
import type { AgentStore } from "../core/agent_store.ts";

/** Where an agent steers this step. Reused from agent to agent. */
export class SteeringAim {
  /** Point steered at, x (m). */
  x = 0;
  /** Point steered at, y (m). */
  y = 0;
  /** Speed wanted away from the point (m/s). */
  speed = 0;
  /** Within this distance (m) of the point the speed falls linearly to zero; 0 never brakes. */
  brakingDistance = 0;
}

/**
 * Writes agent `i`'s preferred velocity (m/s): towards the aim at `aim.speed`, scaled by
 * `distance / brakingDistance` inside the braking distance, and zero at the point itself.
 *
 * @example Braking at a quarter of the distance
 * ```ts
 * import { AgentStore } from "../core/agent_store.ts";
 * import { steerAt, SteeringAim } from "./_steering_aim.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore();
 * agents.add({ x: 0, y: 0 });
 * const aim = new SteeringAim();
 * Object.assign(aim, { x: 0.5, y: 0, speed: 1.2, brakingDistance: 2 });
 * steerAt(agents, 0, aim);
 * assert(Math.abs(agents.prefVx[0] - 0.3) < 1e-15);
 * ```
 */
export function steerAt(agents: AgentStore, i: number, aim: SteeringAim): void {
  const dx = aim.x - agents.px[i], dy = aim.y - agents.py[i];
  const d = Math.sqrt(dx * dx + dy * dy);
  if (d === 0) {
    agents.prefVx[i] = agents.prefVy[i] = 0;
    return;
  }
  let v = aim.speed;
  if (d < aim.brakingDistance) v *= d / aim.brakingDistance;
  agents.prefVx[i] = (dx / d) * v;
  agents.prefVy[i] = (dy / d) * v;
}

/**
 * Straight-line goal seeking: the preferred velocity points at the agent's goal at its desired
 * speed, slowing down inside a braking distance so it does not overshoot.
 *
 * @module
 */
import { AgentFlags } from "../core/agent_store.ts";
import type { NavigationContext, Navigator } from "../core/navigator.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";

/** Options of {@linkcode createGoalSeeker}. */
export interface GoalSeekerOptions {
  /**
   * Distance to the goal (m) inside which the preferred speed falls linearly to zero
   * (Reynolds' "arrive"). 0 keeps full speed up to the goal.
   */
  slowingDistance: number;
}

/** Descriptors of {@linkcode GoalSeekerOptions}. */
export const GOAL_SEEKER_OPTIONS: OptionSpecs<GoalSeekerOptions> = {
  slowingDistance: {
    type: "number",
    default: 0,
    min: 0,
    max: 100,
    unit: "m",
    doc: "braking distance before the goal; 0 walks at full speed until arrival",
  },
};

/**
 * Creates the goal-seeking navigator.
 *
 * @example
 * ```ts
 * import { createGoalSeeker } from "./goal_seeker.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * const h = world.addAgent({ x: 0, y: 0, goalX: 3, goalY: 4, desiredSpeed: 1 });
 * world.step();
 * assert(Math.abs(world.agent(h)!.vx - 0.6) < 1e-12);
 * ```
 */
export function createGoalSeeker(options: Partial<GoalSeekerOptions> = {}): Navigator {
  const { slowingDistance } = resolveOptions("goal seeker", GOAL_SEEKER_OPTIONS, options);
  return {
    name: "goal-seeker",
    updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
      const a = ctx.agents;
      const px = a.px, py = a.py, gx = a.goalX, gy = a.goalY, speed = a.desiredSpeed;
      const prefVx = a.prefVx, prefVy = a.prefVy, flags = a.flags;
      for (let i = begin; i < end; i++) {
        const dx = gx[i] - px[i], dy = gy[i] - py[i];
        const d = Math.sqrt(dx * dx + dy * dy);
        if ((flags[i] & AgentFlags.arrived) !== 0 || d === 0) {
          prefVx[i] = prefVy[i] = 0;
          continue;
        }
        let s = speed[i];
        if (d < slowingDistance) s *= d / slowingDistance;
        prefVx[i] = (dx / d) * s;
        prefVy[i] = (dy / d) * s;
      }
    },
  };
}

/**
 * The `none` strategy: every agent walks at its preferred velocity and ignores everyone else.
 *
 * It is the reference plugin (the smallest complete strategy) and the baseline every avoidance
 * method is compared with: its collision count is what avoidance has to remove.
 *
 * @module
 */
import { avoidVehicles } from "../core/vehicles.ts";
import type { StepContext, Strategy, StrategyFactory } from "../core/strategy.ts";

/** `none` takes no options. */
export type NoneOptions = Record<never, never>;

/**
 * Creates the `none` strategy.
 *
 * @example
 * ```ts
 * import { createNoneStrategy } from "./none.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * const h = world.addAgent({ x: 0, y: 0 });
 * world.agents.prefVy[world.agents.indexOf(h)] = 1;
 * world.step();
 * assert.deepEqual(world.agent(h)!.vy, 1);
 * ```
 */
export function createNoneStrategy(_options: Partial<NoneOptions> = {}): Strategy {
  return {
    name: "none",
    neighborRadius: 0,
    computeNewVelocities(ctx: StepContext, begin: number, end: number): void {
      const a = ctx.agents;
      const prefVx = a.prefVx, prefVy = a.prefVy, newVx = a.newVx, newVy = a.newVy;
      for (let i = begin; i < end; i++) {
        newVx[i] = prefVx[i];
        newVy[i] = prefVy[i];
      }
      avoidVehicles(a, ctx.vehicles, begin, end);
    },
  };
}

/** Registry entry of the `none` strategy. */
export const noneStrategy: StrategyFactory<NoneOptions> = {
  name: "none",
  description: "no avoidance: walk straight at the preferred velocity (baseline)",
  options: {},
  avoidsCollisions: false,
  create: createNoneStrategy,
};

/**
 * Any avoidance strategy as a steering behaviour: its acceleration is the change from the
 * current velocity to the strategy's new velocity over one step, `(v_strategy − v) / dt`. The
 * strategy runs once per step for the whole batch (in `prepare`), not once per agent.
 *
 * @module
 */
import type { StepContext, Strategy } from "../../core/strategy.ts";
import type { World } from "../../core/world.ts";
import type { SteeringBehaviour } from "./behaviour.ts";

class WrappedStrategy implements SteeringBehaviour {
  readonly name: string;
  readonly neighborRadius: number;
  readonly columns: Strategy["columns"];
  readonly #strategy: Strategy;
  #vx = new Float64Array(0);
  #vy = new Float64Array(0);

  constructor(strategy: Strategy) {
    this.#strategy = strategy;
    this.name = strategy.name;
    this.neighborRadius = strategy.neighborRadius;
    this.columns = strategy.columns;
  }

  attach(world: World): void {
    this.#strategy.attach?.(world);
  }

  prepare(ctx: StepContext, begin: number, end: number): void {
    const a = ctx.agents;
    if (this.#vx.length < a.count) {
      this.#vx = new Float64Array(a.capacity);
      this.#vy = new Float64Array(a.capacity);
    }
    // The strategy writes newVx/newVy of the batch; the composition overwrites them later.
    this.#strategy.computeNewVelocities(ctx, begin, end);
    this.#vx.set(a.newVx.subarray(begin, end), begin);
    this.#vy.set(a.newVy.subarray(begin, end), begin);
  }

  accelerate(ctx: StepContext, i: number, out: Float64Array): void {
    const a = ctx.agents, inv = 1 / ctx.dt;
    out[0] = (this.#vx[i] - a.vx[i]) * inv;
    out[1] = (this.#vy[i] - a.vy[i]) * inv;
  }

  inspect(world: World, index: number): Record<string, number | string | boolean> {
    return this.#strategy.inspect?.(world, index) ?? {};
  }
}

/**
 * Wraps `strategy` as a behaviour named like it. Its columns and `attach` are forwarded.
 *
 * @example The `none` strategy as a behaviour: accelerate to the preferred velocity in one step
 * ```ts
 * import { wrapStrategy } from "./wrap_strategy.ts";
 * import { createNoneStrategy } from "../none.ts";
 * import { AgentStore } from "../../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore();
 * agents.add({ x: 0, y: 0 });
 * agents.prefVx[0] = 1;
 * const ctx = { agents, dt: 0.05 } as never;
 * const none = wrapStrategy(createNoneStrategy());
 * none.prepare!(ctx, 0, 1);
 * const out = new Float64Array(2);
 * none.accelerate(ctx, 0, out);
 * assert.deepEqual([...out], [20, 0]); // 1 m/s in 0.05 s
 * ```
 */
export function wrapStrategy(strategy: Strategy): SteeringBehaviour {
  return new WrappedStrategy(strategy);
}

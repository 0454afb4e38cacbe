/**
 * The steering-behaviour interface: one small piece of motion (seek, separation, drag, an
 * avoidance volume, a wrapped strategy) that turns the frozen state of one agent into an
 * acceleration. Behaviours are blended in weighted groups by the priority composition
 * (strategies/priority_steering.ts), after Millington's priority steering as used by "Crossing
 * citizens: a simple simulation of pedestrian crossing" (project report, Section "Priority
 * steering").
 *
 * The contract is the strategy contract (core/strategy.ts) at the scale of one agent: read the
 * frozen state from `ctx`, write only the behaviour's own columns and only row `i`, allocate
 * nothing per step.
 *
 * @module
 */
import type { ColumnSpec } from "../../core/agent_store.ts";
import type { OptionSpecs } from "../../core/options.ts";
import type { StepContext } from "../../core/strategy.ts";
import type { World } from "../../core/world.ts";
import type { Neighbourhood } from "./neighbourhood.ts";

/**
 * A steering behaviour: an acceleration (m/s²) per agent.
 *
 * `prepare` runs once per step for the whole batch before any `accelerate` call; behaviours
 * that need batch work (a wrapped strategy computes its batch there, drag records the last
 * velocity of every agent) do it there. `accelerate` may be skipped for an agent when a group
 * of higher priority already decided its motion, so per-agent state that must advance every
 * step belongs in `prepare`.
 *
 * @example A behaviour that pushes every agent east at 1 m/s²
 * ```ts
 * import type { SteeringBehaviour } from "./behaviour.ts";
 * import assert from "node:assert/strict";
 * const east: SteeringBehaviour = {
 *   name: "east",
 *   neighborRadius: 0,
 *   accelerate(_ctx, _i, out) {
 *     out[0] = 1;
 *     out[1] = 0;
 *   },
 * };
 * const out = new Float64Array(2);
 * east.accelerate({} as never, 0, out);
 * assert.deepEqual([...out], [1, 0]);
 * ```
 */
export interface SteeringBehaviour {
  /** Name used in compositions and messages, e.g. `"seek"`. */
  readonly name: string;
  /** Radius (m) of the neighbourhood the behaviour reads; 0 when it reads no neighbours. */
  readonly neighborRadius: number;
  /** Per-agent columns the behaviour keeps (its state); registered by the world. */
  readonly columns?: readonly ColumnSpec[];
  /** Called once when the composing strategy is attached to a world, after columns exist. */
  attach?(world: World): void;
  /**
   * Offers a neighbour list shared with the other behaviours of a composition; a behaviour that
   * reads neighbours near the agent uses it instead of querying the grids itself.
   */
  shareNeighbourhood?(near: Neighbourhood): void;
  /** Batch work for agents `begin … end-1`, once per step, before any `accelerate`. */
  prepare?(ctx: StepContext, begin: number, end: number): void;
  /** Writes the acceleration (m/s²) of agent `i` into `out[0]` (x) and `out[1]` (y). */
  accelerate(ctx: StepContext, i: number, out: Float64Array): void;
  /**
   * Caps agent `i`'s new velocity (m/s) in `vel` (x, y) in place, after the groups have blended
   * their accelerations and before contact handling: a speed rule such as the time gap to the
   * person ahead. Called every step for every agent, whether or not `accelerate` ran for it.
   * Returns the cap (m/s) along the preferred direction, `Infinity` when none: progress is
   * then judged against the preferred speed so capped (contact handling, pinned time).
   */
  limitVelocity?(ctx: StepContext, i: number, vel: Float64Array): number;
  /** Internal state of agent `index` for inspection (debug views, tests). */
  inspect?(world: World, index: number): Record<string, number | string | boolean>;
}

/**
 * A named, documented way to create a {@linkcode SteeringBehaviour} from validated options, the
 * behaviour counterpart of a strategy factory.
 *
 * @example
 * ```ts
 * import { seekBehaviour } from "./seek.ts";
 * import assert from "node:assert/strict";
 * assert.equal(seekBehaviour.create({ relaxationTime: 0.3 }).name, "seek");
 * ```
 */
export interface BehaviourFactory<O extends object = Record<string, never>> {
  /** Name in compositions, lower-case with dashes. */
  readonly name: string;
  /** One line for listings. */
  readonly description: string;
  /** Parameters with defaults, units and limits. */
  readonly options: OptionSpecs<O>;
  /** Creates an instance; options are validated against `options`. */
  create(options?: Partial<O>): SteeringBehaviour;
}

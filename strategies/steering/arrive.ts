/**
 * Arrive (Reynolds 1999): seek that slows down inside a slowing radius around the goal, so the
 * agent comes to rest on it instead of overshooting. The direction is the preferred velocity's
 * (navigation may follow a path); only the speed falls with the distance to the goal. The same
 * piece as `seek` (see `_relax_to_preferred.ts`).
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../../core/options.ts";
import type { BehaviourFactory, SteeringBehaviour } from "./behaviour.ts";
import { RELAXATION_TIME_OPTION, RelaxToPreferred } from "./_relax_to_preferred.ts";

/** Options of {@linkcode createArriveBehaviour}. */
export interface ArriveOptions {
  /** Distance to the goal (m) inside which the target speed falls linearly to 0. @default 1 */
  slowingRadius: number;
  /** Relaxation time τ (s) to reach the target velocity. @default 0.4 */
  relaxationTime: number;
}

/** Descriptors of {@linkcode ArriveOptions}. */
export const ARRIVE_OPTIONS: OptionSpecs<ArriveOptions> = {
  slowingRadius: {
    type: "number",
    default: 1,
    min: 0,
    exclusiveMin: true,
    max: 100,
    unit: "m",
    doc: "slowing radius: the target speed falls linearly to 0 at the goal inside it",
  },
  relaxationTime: RELAXATION_TIME_OPTION,
};

/**
 * Creates the arrive behaviour: acceleration `(prefV · min(1, d / slowingRadius) − v) / τ`
 * (m/s²), with `d` the distance to the goal (m).
 *
 * @example Half way into the slowing radius, the target is half the preferred velocity
 * ```ts
 * import { createArriveBehaviour } from "./arrive.ts";
 * import { AgentStore } from "../../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore();
 * agents.add({ x: 0, y: 0, goalX: 1, goalY: 0 });
 * agents.prefVx[0] = 1.2;
 * const out = new Float64Array(2);
 * createArriveBehaviour({ slowingRadius: 2, relaxationTime: 1 }).accelerate({ agents } as never, 0, out);
 * assert.deepEqual([...out], [0.6, 0]);
 * ```
 */
export function createArriveBehaviour(options: Partial<ArriveOptions> = {}): SteeringBehaviour {
  return new RelaxToPreferred(
    "arrive",
    resolveOptions("arrive behaviour", ARRIVE_OPTIONS, options),
  );
}

/** Catalogue entry of the arrive behaviour. */
export const arriveBehaviour: BehaviourFactory<ArriveOptions> = {
  name: "arrive",
  description: "seek the preferred velocity, slowing to a stop inside a radius around the goal",
  options: ARRIVE_OPTIONS,
  create: createArriveBehaviour,
};

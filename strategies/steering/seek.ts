/**
 * Seek (seed 002, `SeekBehaviour`; Reynolds 1999): accelerate towards the preferred velocity
 * that navigation wrote, relaxing to it over a time τ (Helbing & Molnár 1995's driving term).
 * Navigation owns the direction to the goal; seek only follows it.
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../../core/options.ts";
import type { StepContext } from "../../core/strategy.ts";
import type { BehaviourFactory, SteeringBehaviour } from "./behaviour.ts";

/** Options of {@linkcode createSeekBehaviour}. */
export interface SeekOptions {
  /** Relaxation time τ (s) to reach the preferred velocity. @default 0.4 */
  relaxationTime: number;
}

/** Descriptors of {@linkcode SeekOptions}. */
export const SEEK_OPTIONS: OptionSpecs<SeekOptions> = {
  relaxationTime: {
    type: "number",
    default: 0.4,
    min: 0.05,
    max: 10,
    unit: "s",
    doc: "tau: time to reach the preferred velocity; smaller is more responsive and more abrupt",
  },
};

class Seek implements SteeringBehaviour {
  readonly name = "seek";
  readonly neighborRadius = 0;
  readonly #rate: number;

  constructor(o: SeekOptions) {
    this.#rate = 1 / o.relaxationTime;
  }

  accelerate(ctx: StepContext, i: number, out: Float64Array): void {
    const a = ctx.agents;
    out[0] = (a.prefVx[i] - a.vx[i]) * this.#rate;
    out[1] = (a.prefVy[i] - a.vy[i]) * this.#rate;
  }
}

/**
 * Creates the seek behaviour: acceleration `(prefV − v) / τ` (m/s²).
 *
 * @example
 * ```ts
 * import { createSeekBehaviour } from "./seek.ts";
 * import { AgentStore } from "../../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore();
 * agents.add({ x: 0, y: 0 });
 * agents.prefVx[0] = 1;
 * const out = new Float64Array(2);
 * createSeekBehaviour({ relaxationTime: 0.5 }).accelerate({ agents } as never, 0, out);
 * assert.deepEqual([...out], [2, 0]);
 * ```
 */
export function createSeekBehaviour(options: Partial<SeekOptions> = {}): SteeringBehaviour {
  return new Seek(resolveOptions("seek behaviour", SEEK_OPTIONS, options));
}

/** Catalogue entry of the seek behaviour. */
export const seekBehaviour: BehaviourFactory<SeekOptions> = {
  name: "seek",
  description: "accelerate towards the preferred velocity written by navigation",
  options: SEEK_OPTIONS,
  create: createSeekBehaviour,
};

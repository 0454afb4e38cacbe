/**
 * Seek (Reynolds 1999; the `SeekBehaviour` of "Crossing citizens: a simple simulation of
 * pedestrian crossing", project report): accelerate towards the preferred velocity that
 * navigation wrote, relaxing to it over a time τ (Helbing and Molnár 1995's driving term).
 * Navigation owns the direction to the goal; seek only follows it. `arrive` is the same piece
 * with a slowing radius (see `_relax_to_preferred.ts`).
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../../core/options.ts";
import type { BehaviourFactory, SteeringBehaviour } from "./behaviour.ts";
import { RELAXATION_TIME_OPTION, RelaxToPreferred } from "./_relax_to_preferred.ts";

/** Options of {@linkcode createSeekBehaviour}. */
export interface SeekOptions {
  /** Relaxation time τ (s) to reach the preferred velocity. @default 0.4 */
  relaxationTime: number;
}

/** Descriptors of {@linkcode SeekOptions}. */
export const SEEK_OPTIONS: OptionSpecs<SeekOptions> = {
  relaxationTime: RELAXATION_TIME_OPTION,
};

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
  const o = resolveOptions("seek behaviour", SEEK_OPTIONS, options);
  return new RelaxToPreferred("seek", { relaxationTime: o.relaxationTime, slowingRadius: 0 });
}

/** Catalogue entry of the seek behaviour. */
export const seekBehaviour: BehaviourFactory<SeekOptions> = {
  name: "seek",
  description: "accelerate towards the preferred velocity written by navigation",
  options: SEEK_OPTIONS,
  create: createSeekBehaviour,
};

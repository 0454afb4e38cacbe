/**
 * The one piece behind `seek` and `arrive` (Reynolds 1999): accelerate towards the preferred
 * velocity that navigation wrote, relaxing to it over a time τ (the driving term of Helbing and
 * Molnár 1995), optionally slowing down inside a radius around the goal. Seek is this piece
 * without a slowing radius, arrive with one.
 *
 * @module
 */
import { AgentFlags } from "../../core/agent_store.ts";
import type { NumberOption } from "../../core/options.ts";
import type { StepContext } from "../../core/strategy.ts";
import type { SteeringBehaviour } from "./behaviour.ts";

/**
 * Descriptor of the relaxation time τ (s) both behaviours take.
 *
 * @example
 * ```ts
 * import { RELAXATION_TIME_OPTION } from "./_relax_to_preferred.ts";
 * import assert from "node:assert/strict";
 * assert.equal(RELAXATION_TIME_OPTION.default, 0.4);
 * ```
 */
export const RELAXATION_TIME_OPTION: NumberOption = {
  type: "number",
  default: 0.4,
  min: 0.05,
  max: 10,
  unit: "s",
  doc: "tau: time to reach the target velocity; smaller is more responsive and more abrupt",
};

/** Settings of {@linkcode RelaxToPreferred}. */
export interface RelaxToPreferredSettings {
  /** τ (s): time to reach the target velocity. */
  relaxationTime: number;
  /**
   * Distance to the goal (m) inside which the target speed falls linearly to 0, and an agent
   * that has arrived gets a target of 0; 0 never slows (seek).
   */
  slowingRadius: number;
}

/**
 * Acceleration `(prefV · s − v) / τ` (m/s²), with `s = min(1, d / slowingRadius)` for an agent
 * `d` metres from its goal (0 once it has arrived), or `s = 1` without a slowing radius.
 *
 * @example Seek and arrive from the same piece
 * ```ts
 * import { RelaxToPreferred } from "./_relax_to_preferred.ts";
 * import { AgentStore } from "../../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore();
 * agents.add({ x: 0, y: 0, goalX: 1, goalY: 0 });
 * agents.prefVx[0] = 1.2;
 * const out = new Float64Array(2);
 * new RelaxToPreferred("seek", { relaxationTime: 1, slowingRadius: 0 })
 *   .accelerate({ agents } as never, 0, out);
 * assert.deepEqual([...out], [1.2, 0]);
 * new RelaxToPreferred("arrive", { relaxationTime: 1, slowingRadius: 2 })
 *   .accelerate({ agents } as never, 0, out);
 * assert.deepEqual([...out], [0.6, 0]); // half way into the slowing radius
 * ```
 */
export class RelaxToPreferred implements SteeringBehaviour {
  /** Name in compositions. */
  readonly name: string;
  /** Reads no neighbours. */
  readonly neighborRadius = 0;
  readonly #slowing: number;
  readonly #rate: number;

  /** @param name the behaviour's name in compositions and messages */
  constructor(name: string, settings: RelaxToPreferredSettings) {
    this.name = name;
    this.#slowing = settings.slowingRadius;
    this.#rate = 1 / settings.relaxationTime;
  }

  /** Writes the acceleration (m/s²) of agent `i` into `out`. */
  accelerate(ctx: StepContext, i: number, out: Float64Array): void {
    const a = ctx.agents;
    const scale = this.#slowing > 0 ? this.#slowdown(ctx, i) : 1;
    out[0] = (a.prefVx[i] * scale - a.vx[i]) * this.#rate;
    out[1] = (a.prefVy[i] * scale - a.vy[i]) * this.#rate;
  }

  /** Share of the preferred speed kept near the goal: min(1, d / slowingRadius), 0 once arrived. */
  #slowdown(ctx: StepContext, i: number): number {
    const a = ctx.agents;
    if ((a.flags[i] & AgentFlags.arrived) !== 0) return 0;
    const dx = a.goalX[i] - a.px[i], dy = a.goalY[i] - a.py[i];
    const d = Math.sqrt(dx * dx + dy * dy);
    return d < this.#slowing ? d / this.#slowing : 1;
  }
}

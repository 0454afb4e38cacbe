/**
 * Cultural bias and the salsa of the `raycast-cluster` strategy, after "The Sidewalk Salsa and
 * Cultural Sensitivities" (blog post): which side an agent prefers, how it turns to the side a
 * check chose, and how a cornered agent side-steps.
 *
 * - The directional bias is the world's walking side (right or left), inverted for "rude"
 *   agents and replaced by a coin flip with each agent's confusion probability; it is
 *   re-evaluated only every `biasIntervalSteps` steps, so agents can dance the salsa (the post's
 *   `get_directional_bias()`).
 * - The post applies the chosen angle at once, so agents snap between headings; here the heading
 *   eases towards its target with time constant `turnTimeS`. Smoothing alone would blur the salsa
 *   into a 20 Hz jitter (two mirrored agents re-decide every step), so a side, once turned to, is
 *   kept for `commitTimeS` before a check may turn to the other side: each twist lasts.
 * - A cornered agent (every cluster collides) side-steps at right angles to its bias side, or to
 *   the other side when the bias side is shut and it cannot go on (the post's side flip, at right
 *   angles) — when walls alone corner it or it stands in a counter-flow. In a crowd going one way,
 *   side-stepping would only shift everyone to the walking side and press them against the wall
 *   there.
 *
 * @module
 */
import type { Rng } from "../core/rng.ts";
import type { StepContext } from "../core/strategy.ts";
import { counterflowAhead, CounterflowQuery } from "./_right_of_way.ts";
import type { RaycastColumns } from "./_raycast_columns.ts";
import type { ContactConstraints } from "./_raycast_contacts.ts";
import type { RaycastScene } from "./_raycast_rays.ts";

/** A side-step goes to the bias side while it allows at least this share of the side-step speed. */
const SIDESTEP_OPEN = 0.5;

/** Model parameters of the {@linkcode Salsa} (see the `raycast-cluster` options). */
export interface SalsaOptions {
  /** Steps between re-evaluations of an agent's directional bias. */
  biasIntervalSteps: number;
  /** Time constant with which the heading and the side-step follow their targets (s). */
  turnTimeS: number;
  /** Time a side, once turned to, is kept before a check may turn to the other side (s). */
  commitTimeS: number;
  /** Side-step speed while cornered, as a share of the desired speed. */
  sidestepShare: number;
}

/**
 * The agent being stepped, as the salsa sees it: its preferred heading (`hx`, `hy`) and the
 * heading it walks after its turn (`dx`, `dy`), both unit vectors, and its preferred speed
 * (m/s). One per strategy, refilled for every agent.
 */
export class Walk {
  /** Preferred heading, x (unit). */
  hx = 1;
  /** Preferred heading, y (unit). */
  hy = 0;
  /** Walking heading after the turn, x (unit). */
  dx = 1;
  /** Walking heading after the turn, y (unit). */
  dy = 0;
  /** Preferred speed (m/s). */
  speed = 0;
}

/**
 * The bias, turn and side-step state machine of every agent, over the strategy's columns.
 * Call {@linkcode Salsa.beginStep} once per step before the per-agent methods.
 *
 * @example The bias follows the walking side, re-evaluated every `biasIntervalSteps` steps
 * ```ts
 * import { Salsa } from "./_raycast_salsa.ts";
 * import { RaycastColumns } from "./_raycast_columns.ts";
 * import { createRaycastClusterStrategy } from "./raycast_cluster.ts";
 * import { Rng } from "../core/rng.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createRaycastClusterStrategy() });
 * world.addAgent({ x: 0, y: 0 });
 * const columns = new RaycastColumns();
 * columns.bind(world.agents);
 * columns.rude[0] = 0;
 * const salsa = new Salsa(
 *   { biasIntervalSteps: 12, turnTimeS: 0.2, commitTimeS: 0.3, sidestepShare: 0.5 },
 *   columns,
 * );
 * salsa.beginStep({ dt: 0.05, time: 0, walkingSide: "left", rng: new Rng(1) });
 * salsa.updateBias(0);
 * assert.equal(columns.bias[0], 1); // left
 * assert.equal(columns.biasCountdown[0], 12);
 * ```
 */
export class Salsa {
  readonly #o: SalsaOptions;
  readonly #columns: RaycastColumns;
  readonly #counterflow = new CounterflowQuery();
  #cultural = -1;
  #blend = 1;
  #time = 0;
  #rng: Rng | undefined;

  /**
   * The salsa with model parameters `options` over `columns`.
   *
   * @param columns the strategy's columns, bound for each step before it begins
   */
  constructor(options: SalsaOptions, columns: RaycastColumns) {
    this.#o = options;
    this.#columns = columns;
  }

  /** Starts a step: its time, length and random source, and the world's walking side. */
  beginStep(ctx: Pick<StepContext, "dt" | "time" | "walkingSide" | "rng">): void {
    const turnTimeS = this.#o.turnTimeS;
    this.#cultural = ctx.walkingSide === "right" ? -1 : 1;
    this.#blend = turnTimeS > 0 ? 1 - Math.exp(-ctx.dt / turnTimeS) : 1;
    this.#time = ctx.time;
    this.#rng = ctx.rng;
  }

  /** The post's `get_directional_bias()` for agent `i`, re-evaluated every `biasIntervalSteps`. */
  updateBias(i: number): void {
    const c = this.#columns;
    if (--c.biasCountdown[i] > 0) return;
    c.biasCountdown[i] = this.#o.biasIntervalSteps;
    let bias = c.rude[i] === 1 ? -this.#cultural : this.#cultural;
    const confusion = c.confusion[i], rng = this.#rng!;
    if (confusion > 0 && rng.next() < confusion) bias = rng.next() < 0.5 ? -1 : 1;
    c.bias[i] = bias;
  }

  /**
   * Makes the turn of cosine `cos` and sine `sin` (left positive) the target turn of agent `i`,
   * unless that reverses a side taken less than `commitTimeS` ago: each twist of the salsa lasts.
   */
  turnTo(i: number, cos: number, sin: number): void {
    const c = this.#columns, time = this.#time;
    const previous = c.targetSin[i];
    const newSide = sin !== 0 && (previous === 0 || (previous > 0) !== (sin > 0));
    if (newSide && previous !== 0 && time - c.sideSince[i] < this.#o.commitTimeS - 1e-9) return;
    if (newSide) c.sideSince[i] = time;
    c.targetCos[i] = cos;
    c.targetSin[i] = sin;
  }

  /**
   * Eases agent `i`'s turn towards its target with the blend factor of `turnTimeS`, kept as a
   * unit vector (cosine, sine of the turn) so that no step needs trigonometry.
   */
  relaxTurn(i: number): void {
    const col = this.#columns, blend = this.#blend;
    let c = col.turnCos[i], s = col.turnSin[i];
    const tc = col.targetCos[i], ts = col.targetSin[i];
    if (c === tc && s === ts) return;
    c += (tc - c) * blend;
    s += (ts - s) * blend;
    const norm = Math.sqrt(c * c + s * s);
    if (norm > 1e-6 && blend < 1 && Math.abs(c - tc) + Math.abs(s - ts) > 1e-9) {
      c /= norm;
      s /= norm;
    } else {
      c = tc;
      s = ts;
    }
    col.turnCos[i] = c;
    col.turnSin[i] = s;
  }

  /**
   * Whether cornered agent `i` side-steps: when what corners it is walls alone (no neighbour
   * among its `contacts`), or a counter-flow (someone ahead within its ray length wants to go
   * the other way), where stepping to the walking side lets both streams pass. Not in a crowd
   * going one way — a queue at a door —, where side-stepping would only shift everyone to the
   * walking side and press them against the wall there.
   */
  wantsSidestep(scene: RaycastScene, i: number, contacts: ContactConstraints): boolean {
    if (contacts.agentCount === 0) return true;
    return counterflowAhead(
      scene.agents,
      scene.grid,
      i,
      this.#columns.length[i],
      this.#counterflow,
    );
  }

  /**
   * Side-step target of cornered agent `i` (share of the desired speed, right positive): to its
   * bias side, or to the other side when the bias side is shut and it cannot go on along
   * `walk`'s heading. Reads the free speeds its `contacts` allow.
   */
  sidestepTarget(i: number, walk: Walk, contacts: ContactConstraints): number {
    const share = this.#o.sidestepShare;
    if (!(share > 0)) return 0;
    const hx = walk.hx, hy = walk.hy;
    const open = SIDESTEP_OPEN * share * walk.speed, right = -this.#columns.bias[i]; // +1: right
    const free = contacts.freeSpeed(hy * right, -hx * right);
    const shut = free < open && contacts.freeSpeed(walk.dx, walk.dy) < open &&
      contacts.freeSpeed(-hy * right, hx * right) > free;
    return shut ? -share * right : share * right;
  }

  /**
   * Eases agent `i`'s side-step towards `target` (share of the desired speed, right positive)
   * with the blend factor of `turnTimeS`; returns the new side-step share.
   */
  easeSidestep(i: number, target: number): number {
    const sideColumn = this.#columns.side;
    let side = sideColumn[i];
    if (side !== target) {
      side += (target - side) * this.#blend;
      if (Math.abs(side - target) < 1e-6) side = target;
      sideColumn[i] = side;
    }
    return side;
  }
}

/**
 * Crossings of a measurement line, and the flow through it as experiments measure it.
 *
 * @module
 */
import type { World, WorldObserver } from "../core/world.ts";

/** A directed measurement line segment (m): crossings count from its left to its right side
 * (looking from `from` to `to`): a line pointing north counts walkers heading east. */
export interface MeasurementLine {
  /** Start point [x, y] (m). */
  from: readonly [number, number];
  /** End point [x, y] (m). */
  to: readonly [number, number];
}

/**
 * Records, as a world observer, the time each agent (by trajectory id) first crosses a segment
 * from its left-hand side (looking from `from` to `to`) to its right-hand side within the
 * segment's extent. Crossing times are interpolated within the step.
 *
 * @example An agent walking east crosses a line pointing north
 * ```ts
 * import { LineCrossings } from "./line_crossings.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * world.addAgent({ x: -1, y: 0, goalX: 5, goalY: 0, desiredSpeed: 1 });
 * const line = new LineCrossings({ from: [0, -1], to: [0, 1] });
 * world.addObserver(line);
 * for (let i = 0; i < 40; i++) world.step();
 * assert.equal(line.times.length, 1);
 * assert.ok(Math.abs(line.times[0] - 1) < 1e-9);
 * ```
 */
export class LineCrossings implements WorldObserver {
  /** Crossing times (s), in the order they happened. */
  readonly times: number[] = [];
  /** Trajectory id of the agent of each crossing (parallel to {@linkcode LineCrossings.times}). */
  readonly serials: number[] = [];
  readonly #ax: number;
  readonly #ay: number;
  readonly #ex: number;
  readonly #ey: number;
  #lastX = new Float64Array(0);
  #lastY = new Float64Array(0);
  #state = new Uint8Array(0); // 0 unseen, 1 seen, 2 crossed

  constructor(line: MeasurementLine) {
    this.#ax = line.from[0];
    this.#ay = line.from[1];
    this.#ex = line.to[0] - line.from[0];
    this.#ey = line.to[1] - line.from[1];
    if (!(this.#ex * this.#ex + this.#ey * this.#ey > 0)) {
      throw new RangeError("Cannot create LineCrossings as the line has zero length");
    }
  }

  /** Number of distinct agents that crossed. */
  get count(): number {
    return this.times.length;
  }

  attach(world: World): void {
    world.prepare();
    this.#record(world, world.time, world.dt);
  }

  afterStep(world: World): void {
    this.#record(world, world.time, world.dt);
  }

  #record(world: World, time: number, dt: number): void {
    const a = world.agents;
    for (let i = 0; i < a.count; i++) {
      const s = a.serial[i];
      this.#grow(s + 1);
      const x = a.px[i], y = a.py[i];
      if (this.#state[s] === 1) {
        const x0 = this.#lastX[s], y0 = this.#lastY[s];
        const side0 = this.#ex * (y0 - this.#ay) - this.#ey * (x0 - this.#ax);
        const side1 = this.#ex * (y - this.#ay) - this.#ey * (x - this.#ax);
        if (side0 > 0 && side1 <= 0) {
          const f = side0 === side1 ? 1 : -side0 / (side1 - side0);
          const cx = x0 + f * (x - x0), cy = y0 + f * (y - y0);
          const len2 = this.#ex * this.#ex + this.#ey * this.#ey;
          const t = ((cx - this.#ax) * this.#ex + (cy - this.#ay) * this.#ey) / len2;
          if (t >= 0 && t <= 1) {
            this.#state[s] = 2;
            this.times.push(time - dt + f * dt);
            this.serials.push(s);
          }
        }
      } else if (this.#state[s] === 0) {
        this.#state[s] = 1;
      }
      this.#lastX[s] = x;
      this.#lastY[s] = y;
    }
  }

  #grow(size: number): void {
    if (size <= this.#state.length) return;
    const n = Math.max(size, 2 * this.#state.length, 64);
    const state = new Uint8Array(n), lx = new Float64Array(n), ly = new Float64Array(n);
    state.set(this.#state);
    lx.set(this.#lastX);
    ly.set(this.#lastY);
    this.#state = state;
    this.#lastX = lx;
    this.#lastY = ly;
  }
}

/**
 * The flow J (persons/s) over the steady part of a list of crossing times, as bottleneck
 * experiments measure it: J = (n − 1)/(t_n − t_1) over the crossings from the `from` share to
 * the `to` share of `total` (by default the middle 60 %: the first fifth is the start-up, the
 * last the thinning tail). Null when fewer crossings happened than the window needs.
 *
 * @example
 * ```ts
 * import { steadyFlow } from "./line_crossings.ts";
 * import assert from "node:assert/strict";
 * const times = Array.from({ length: 10 }, (_, k) => 0.5 * k);
 * assert.equal(steadyFlow(times, 10), 2);
 * assert.equal(steadyFlow(times.slice(0, 5), 10), null);
 * ```
 */
export function steadyFlow(
  times: readonly number[],
  total: number,
  window: readonly [number, number] = [0.2, 0.8],
): number | null {
  const sorted = [...times].sort((a, b) => a - b);
  const first = Math.floor(window[0] * total), last = Math.ceil(window[1] * total) - 1;
  if (last <= first || sorted.length <= last) return null;
  const span = sorted[last] - sorted[first];
  return span > 0 ? (last - first) / span : null;
}

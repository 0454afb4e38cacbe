/**
 * Fixed-time signal cycles: the finite-state machine of a traffic light as a pure function of
 * time.
 *
 * A cycle is a sequence of stages with fixed durations, shifted by an offset. Its state at any
 * time `t` — which stage, how long it has run, how long it has left — is computed from `t`
 * alone, so a light can be asked about the future as cheaply as about the present. That is how
 * F. Gennari's city cars treat yellow (Procedural City: Pedestrian Updates + Navigation,
 * 3DWorld blog, 2019: "yellow lights aren't actually states; they're determined by querying the
 * traffic light for red/green light state at some time in the future") and how a pedestrian asks
 * whether a stopped car will still be held when they are across.
 *
 * @module
 */

/** Colour of a vehicle signal (numbers, so they fit typed arrays). */
export const SignalColor = {
  /** Go. */
  green: 0,
  /** Stop if you can. */
  yellow: 1,
  /** Stop. */
  red: 2,
} as const;

/** A {@linkcode SignalColor} value. */
export type SignalColor = typeof SignalColor[keyof typeof SignalColor];

/** State of a pedestrian signal (numbers, so they fit typed arrays). */
export const WalkSignal = {
  /** Walking figure: start crossing. */
  walk: 0,
  /** Flashing hand: do not start, finish crossing. */
  flashing: 1,
  /** Steady hand: do not cross. */
  dontWalk: 2,
} as const;

/** A {@linkcode WalkSignal} value. */
export type WalkSignal = typeof WalkSignal[keyof typeof WalkSignal];

/**
 * A fixed-time cycle of stages. Stage `k` runs from `start(k)` to `start(k) + durations[k]`
 * within each cycle; time `t` is at `(t + offset) mod cycle` within the cycle.
 *
 * @example Three stages of 20, 3 and 25 s started 5 s into the cycle
 * ```ts
 * import { SignalCycle } from "./signal_cycle.ts";
 * import assert from "node:assert/strict";
 * const cycle = new SignalCycle([20, 3, 25], { offset: 5 });
 * assert.equal(cycle.period, 48);
 * assert.equal(cycle.stageAt(0), 0); // 5 s into stage 0
 * assert.equal(cycle.stageAt(15), 1); // 20 s into the cycle
 * assert.equal(cycle.timeLeftInStage(15), 3);
 * assert.equal(cycle.timeUntilStage(2, 0), 18);
 * assert.equal(cycle.stageAt(1000), cycle.stageAt(1000 + 48)); // periodic
 * ```
 */
export class SignalCycle {
  /** Stage durations (s). */
  readonly durations: Float64Array;
  /** Start of each stage within the cycle (s); one more entry, the period, at the end. */
  readonly starts: Float64Array;
  /** Length of one cycle (s). */
  readonly period: number;
  /** Time (s) added to `t` before it is folded into the cycle. */
  readonly offset: number;

  /**
   * @param durations stage durations (s), each >= 0, at least one > 0
   * @param options `offset` (s) shifts the cycle: at `t = 0` it is `offset` seconds in (default 0)
   */
  constructor(durations: readonly number[], options: { offset?: number } = {}) {
    if (!Array.isArray(durations) || durations.length === 0) {
      throw new TypeError("Cannot create SignalCycle as 'durations' must be a non-empty array");
    }
    let total = 0;
    durations.forEach((d, k) => {
      if (!(d >= 0) || !Number.isFinite(d)) {
        throw new RangeError(
          `Cannot create SignalCycle as 'durations[${k}]' must be a finite number >= 0: current value is ${d}`,
        );
      }
      total += d;
    });
    if (!(total > 0)) {
      throw new RangeError("Cannot create SignalCycle as the stage durations must add up to > 0");
    }
    const offset = options.offset ?? 0;
    if (!Number.isFinite(offset)) {
      throw new RangeError(
        `Cannot create SignalCycle as 'offset' must be a finite number: current value is ${offset}`,
      );
    }
    this.durations = Float64Array.from(durations);
    this.starts = new Float64Array(durations.length + 1);
    for (let k = 0; k < durations.length; k++) {
      this.starts[k + 1] = this.starts[k] + durations[k];
    }
    this.period = total;
    this.offset = offset;
  }

  /** Number of stages. */
  get stageCount(): number {
    return this.durations.length;
  }

  /** Position of time `t` (s) within the cycle, in [0, period). */
  cycleTime(t: number): number {
    const p = this.period;
    const local = (t + this.offset) % p;
    return local < 0 ? local + p : local;
  }

  /** The stage running at time `t` (s). */
  stageAt(t: number): number {
    const local = this.cycleTime(t), starts = this.starts;
    let k = 0;
    // Zero-length stages are skipped: a stage runs while local < its end.
    while (k < this.durations.length - 1 && local >= starts[k + 1]) k++;
    return k;
  }

  /** Seconds the stage running at `t` has already run. */
  timeInStage(t: number): number {
    return this.cycleTime(t) - this.starts[this.stageAt(t)];
  }

  /** Seconds left in the stage running at `t`. */
  timeLeftInStage(t: number): number {
    return this.starts[this.stageAt(t) + 1] - this.cycleTime(t);
  }

  /** Seconds from `t` until stage `stage` next starts; 0 while it runs. */
  timeUntilStage(stage: number, t: number): number {
    if (!(stage >= 0 && stage < this.durations.length)) {
      throw new RangeError(
        `SignalCycle has no stage ${stage}: expected an integer in [0, ${this.durations.length})`,
      );
    }
    const local = this.cycleTime(t);
    const start = this.starts[stage], end = this.starts[stage + 1];
    if (local >= start && local < end) return 0;
    return local < start ? start - local : this.period - local + start;
  }
}

/** Options of {@linkcode SimpleTrafficLight}: the light of one crosswalk, one colour at a time. */
export interface SimpleTrafficLightOptions {
  /** Green time (s). @default 20 */
  greenTime?: number;
  /** Yellow time (s). @default 4 */
  yellowTime?: number;
  /** Red time (s). @default 20 */
  redTime?: number;
  /** Colour at time 0. @default "green" */
  startWith?: "green" | "yellow" | "red";
  /** Seconds already spent in `startWith` at time 0. @default 0 */
  startAfter?: number;
}

/**
 * The pole light of the crosswalk scene of "Crossing citizens: a simple simulation of pedestrian
 * crossing" (project report): green, yellow and red for set times, starting with a given colour
 * — a {@linkcode SignalCycle} of three stages with a colour each.
 *
 * @example Green 20 s, yellow 4 s, red 20 s
 * ```ts
 * import { SignalColor, SimpleTrafficLight } from "./signal_cycle.ts";
 * import assert from "node:assert/strict";
 * const light = new SimpleTrafficLight({ greenTime: 20, yellowTime: 4, redTime: 20 });
 * assert.equal(light.colorAt(21), SignalColor.yellow);
 * assert.equal(light.timeUntil(SignalColor.green, 21), 23);
 * ```
 */
export class SimpleTrafficLight {
  /** The cycle: stage 0 green, 1 yellow, 2 red. */
  readonly cycle: SignalCycle;

  constructor(options: SimpleTrafficLightOptions = {}) {
    const green = options.greenTime ?? 20, yellow = options.yellowTime ?? 4;
    const red = options.redTime ?? 20, start = options.startWith ?? "green";
    const colours = ["green", "yellow", "red"];
    if (!colours.includes(start)) {
      throw new RangeError(
        `Cannot create SimpleTrafficLight as 'startWith' must be "green", "yellow" or "red": current value is ${
          JSON.stringify(start)
        }`,
      );
    }
    const after = options.startAfter ?? 0;
    const durations = [green, yellow, red];
    durations.forEach((d, k) => {
      if (!(d >= 0) || !Number.isFinite(d)) {
        throw new RangeError(
          `Cannot create SimpleTrafficLight as '${
            colours[k]
          }Time' must be a finite number >= 0: current value is ${d}`,
        );
      }
    });
    const first = colours.indexOf(start);
    let offset = after;
    for (let k = 0; k < first; k++) offset += durations[k];
    this.cycle = new SignalCycle(durations, { offset });
  }

  /** The colour at time `t` (s). */
  colorAt(t: number): SignalColor {
    return this.cycle.stageAt(t) as SignalColor;
  }

  /** Seconds from `t` until the light next shows `color`; 0 while it does. */
  timeUntil(color: SignalColor, t: number): number {
    return this.cycle.timeUntilStage(color, t);
  }
}

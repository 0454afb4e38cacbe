/**
 * Trajectory plots: an observer that samples where agents walk, and an SVG picture of the
 * paths (coloured by speed) over the scenario's geometry, next to a density map.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import type { World, WorldObserver } from "../core/world.ts";

/** Options of {@linkcode TrajectorySampler}. */
export interface TrajectorySamplerOptions {
  /** Sample every k-th step. @default 5 (4 samples per second at dt = 0.05 s) */
  every?: number;
  /** Largest number of samples kept; later samples are dropped (the plot says so). @default 2,000,000 */
  maxSamples?: number;
}

/** Samples collected by a {@linkcode TrajectorySampler}, in step order. */
export interface TrajectorySamples {
  /** Number of samples. */
  count: number;
  /** Trip id (the agent's serial) of each sample. */
  serial: Uint32Array;
  /** x (m). */
  x: Float32Array;
  /** y (m). */
  y: Float32Array;
  /** Speed (m/s). */
  speed: Float32Array;
  /** True when `maxSamples` cut the collection short. */
  truncated: boolean;
  /** Seconds between samples. */
  interval: number;
  /** Sampling instants so far (the run covered `rounds × interval` seconds of sampling). */
  rounds: number;
}

/**
 * Collects agent positions every k steps for plotting. Attach it to a world as an observer.
 *
 * @example
 * ```ts
 * import { TrajectorySampler } from "./trajectory_plot.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0, vx: 1 });
 * const sampler = new TrajectorySampler({ every: 2 });
 * world.addObserver(sampler);
 * for (let i = 0; i < 4; i++) world.step();
 * assert.equal(sampler.samples().count, 3); // steps 0, 2 and 4
 * ```
 */
export class TrajectorySampler implements WorldObserver {
  readonly every: number;
  readonly maxSamples: number;
  #count = 0;
  #serial = new Uint32Array(1024);
  #x = new Float32Array(1024);
  #y = new Float32Array(1024);
  #speed = new Float32Array(1024);
  #truncated = false;
  #dt = 0.05;
  #rounds = 0;

  constructor(options: TrajectorySamplerOptions = {}) {
    const every = options.every ?? 5;
    const maxSamples = options.maxSamples ?? 2_000_000;
    if (!Number.isInteger(every) || every < 1) {
      throw new RangeError(
        `Cannot create TrajectorySampler as 'every' must be an integer >= 1: current value is ${every}`,
      );
    }
    if (!Number.isInteger(maxSamples) || maxSamples < 1) {
      throw new RangeError(
        `Cannot create TrajectorySampler as 'maxSamples' must be an integer >= 1: current value is ${maxSamples}`,
      );
    }
    this.every = every;
    this.maxSamples = maxSamples;
  }

  /** Solid polygons of the sampled world (m). */
  polygons: readonly (readonly Point[])[] = [];
  /** Walls of the sampled world (m). */
  walls: readonly { points: readonly Point[]; closed: boolean }[] = [];

  /** Takes the first sample (the initial positions) and keeps the world's geometry. */
  attach(world: World): void {
    this.#dt = world.dt;
    this.polygons = world.obstacles.polygons;
    this.walls = world.obstacles.walls;
    world.prepare();
    this.#sample(world);
  }

  /** Samples every k-th step. */
  afterStep(world: World): void {
    if (world.stepIndex % this.every === 0) this.#sample(world);
  }

  /** What was collected so far (views, not copies). */
  samples(): TrajectorySamples {
    const n = this.#count;
    return {
      count: n,
      serial: this.#serial.subarray(0, n),
      x: this.#x.subarray(0, n),
      y: this.#y.subarray(0, n),
      speed: this.#speed.subarray(0, n),
      truncated: this.#truncated,
      interval: this.every * this.#dt,
      rounds: this.#rounds,
    };
  }

  #sample(world: World): void {
    this.#rounds++;
    const a = world.agents;
    let n = a.count;
    if (this.#count + n > this.maxSamples) {
      n = this.maxSamples - this.#count;
      this.#truncated = true;
    }
    if (n <= 0) return;
    this.#reserve(this.#count + n);
    for (let i = 0; i < n; i++) {
      const k = this.#count + i;
      this.#serial[k] = a.serial[i];
      this.#x[k] = a.px[i];
      this.#y[k] = a.py[i];
      this.#speed[k] = Math.hypot(a.vx[i], a.vy[i]);
    }
    this.#count += n;
  }

  #reserve(n: number): void {
    if (n <= this.#serial.length) return;
    let size = this.#serial.length;
    while (size < n) size *= 2;
    const grow = <T extends Float32Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.#serial = grow(this.#serial, (s) => new Uint32Array(s));
    this.#x = grow(this.#x, (s) => new Float32Array(s));
    this.#y = grow(this.#y, (s) => new Float32Array(s));
    this.#speed = grow(this.#speed, (s) => new Float32Array(s));
  }
}

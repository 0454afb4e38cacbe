/**
 * Seeded pseudo-random numbers for reproducible runs.
 *
 * Every random draw in throng goes through an {@linkcode Rng}; library code never calls
 * `Math.random`. A world derives independent named streams from one seed so that, for
 * example, spawn positions do not change when a strategy draws more or fewer numbers.
 *
 * @module
 */
import { xoroshiro128plus } from "npm:pure-rand@8.4.2/generator/xoroshiro128plus";
import type { JumpableRandomGenerator } from "npm:pure-rand@8.4.2/types/JumpableRandomGenerator";
import { uniformFloat64 } from "npm:pure-rand@8.4.2/distribution/uniformFloat64";

/** Largest accepted seed (seeds are unsigned 32-bit integers). */
export const MAX_SEED = 0xffff_ffff;

/**
 * Well-known stream numbers. Each subsystem draws from its own stream so that the numbers one
 * subsystem consumes never shift another's.
 */
export const RngStream = {
  /** Spawn positions, destinations and per-agent parameters. */
  spawn: 0,
  /** The avoidance strategy. */
  strategy: 1,
  /** The navigator. */
  navigation: 2,
  /** Free for user scripts. */
  user: 3,
} as const;

/**
 * A seeded generator (xoroshiro128+ from `pure-rand`) with the draws a crowd simulation needs.
 *
 * @example Same seed, same numbers
 * ```ts
 * import { Rng } from "./rng.ts";
 * import assert from "node:assert/strict";
 * const a = new Rng(42), b = new Rng(42);
 * assert.deepEqual([a.next(), a.next()], [b.next(), b.next()]);
 * ```
 */
export class Rng {
  #gen: JumpableRandomGenerator;
  #spareNormal = 0;
  #hasSpare = false;

  /**
   * @param seed unsigned 32-bit integer
   * @param stream independent stream number (0 = the base stream); streams are 2^64 draws apart
   */
  constructor(seed: number, stream = 0) {
    if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
      throw new RangeError(
        `Cannot create Rng as 'seed' must be an integer in [0, ${MAX_SEED}]: current value is ${seed}`,
      );
    }
    if (!Number.isInteger(stream) || stream < 0 || stream > 1024) {
      throw new RangeError(
        `Cannot create Rng as 'stream' must be an integer in [0, 1024]: current value is ${stream}`,
      );
    }
    this.#gen = xoroshiro128plus(seed | 0);
    for (let i = 0; i < stream; i++) this.#gen.jump();
  }

  /** Uniform number in [0, 1). */
  next(): number {
    return uniformFloat64(this.#gen);
  }

  /** Uniform number in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Normally distributed number (Marsaglia's polar method). */
  normal(mean = 0, sd = 1): number {
    if (this.#hasSpare) {
      this.#hasSpare = false;
      return mean + sd * this.#spareNormal;
    }
    let u = 0, v = 0, s = 0;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt(-2 * Math.log(s) / s);
    this.#spareNormal = v * f;
    this.#hasSpare = true;
    return mean + sd * u * f;
  }
}

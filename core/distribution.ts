/**
 * Distributions of per-agent parameters (desired speed, radius, …).
 *
 * @module
 */
import type { Rng } from "./rng.ts";

/** A constant, a clamped normal or a uniform distribution. */
export type Distribution =
  | { readonly kind: "constant"; readonly value: number }
  /** Normal with mean and standard deviation, clamped to [min, max]. */
  | {
    readonly kind: "normal";
    readonly mean: number;
    readonly sd: number;
    readonly min: number;
    readonly max: number;
  }
  | { readonly kind: "uniform"; readonly min: number; readonly max: number };

/**
 * Desired walking speed of seed documents and Weidmann: normal 1.34 m/s, sd 0.26, clamped to
 * [0.5, 2.0] m/s.
 */
export const DEFAULT_DESIRED_SPEED: Distribution = {
  kind: "normal",
  mean: 1.34,
  sd: 0.26,
  min: 0.5,
  max: 2.0,
};

/** Default body radius: 0.25 m for everyone. */
export const DEFAULT_RADIUS: Distribution = { kind: "constant", value: 0.25 };

/**
 * Draws one value.
 *
 * @example
 * ```ts
 * import { DEFAULT_DESIRED_SPEED, sampleDistribution } from "./distribution.ts";
 * import { Rng } from "./rng.ts";
 * import assert from "node:assert/strict";
 * const v = sampleDistribution(DEFAULT_DESIRED_SPEED, new Rng(7));
 * assert(v >= 0.5 && v <= 2.0);
 * ```
 */
export function sampleDistribution(d: Distribution, rng: Rng): number {
  switch (d.kind) {
    case "constant":
      return d.value;
    case "uniform":
      return rng.range(d.min, d.max);
    case "normal": {
      const v = rng.normal(d.mean, d.sd);
      return v < d.min ? d.min : v > d.max ? d.max : v;
    }
  }
}

/** Largest value the distribution can produce. */
export function distributionMax(d: Distribution): number {
  return d.kind === "constant" ? d.value : d.max;
}

/** Mean of the distribution (of the unclamped normal for `normal`). */
export function distributionMean(d: Distribution): number {
  return d.kind === "constant" ? d.value : d.kind === "uniform" ? (d.min + d.max) / 2 : d.mean;
}

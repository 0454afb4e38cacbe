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
 * Body radius from anthropometry: half the shoulder (bideltoid) breadth of an adult population
 * of men and women in equal shares, the widest horizontal dimension of a walking body.
 * S. Pheasant and C. M. Haslegrave, "Bodyspace: Anthropometry, Ergonomics and the Design of
 * Work", 3rd ed., 2006, give shoulder breadths of 465 mm (sd 28) for men and 395 mm (sd 24) for
 * women: half of the mixture is 0.215 m with sd 0.022 m. Clamped to 0.18–0.24 m: at the upper
 * end people turn their shoulders in a narrow opening rather than stop (at 0.5 m, the narrowest
 * experimental bottleneck, the widest bodies keep 2 cm of play). A hexagonal packing of discs of
 * the mean radius holds 6.2 /m², above Weidmann's jam density of 5.4 /m² (U. Weidmann,
 * "Transporttechnik der Fussgänger", 1993), so that densities up to 4–5 /m² can exist.
 *
 * @example
 * ```ts
 * import { SHOULDER_RADIUS, distributionMax } from "./distribution.ts";
 * import assert from "node:assert/strict";
 * assert.equal(distributionMax(SHOULDER_RADIUS), 0.24); // m
 * ```
 */
export const SHOULDER_RADIUS: Distribution = {
  kind: "normal",
  mean: 0.215,
  sd: 0.022,
  min: 0.18,
  max: 0.24,
};

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

/**
 * Checks a distribution and that every value it can produce is at least `min` (and above it
 * when `exclusive`); throws a RangeError naming the field otherwise.
 *
 * @param action what is being done, e.g. `"add spawner 'west'"`
 * @param field the distribution's name in messages, e.g. `"agent.radius"`
 *
 * @example
 * ```ts
 * import { validateDistribution } from "./distribution.ts";
 * import assert from "node:assert/strict";
 * assert.throws(
 *   () => validateDistribution({ kind: "uniform", min: 2, max: 1 }, "add spawner 'a'", "agent.radius", 0),
 *   /'agent.radius.max' must be >= min/,
 * );
 * ```
 */
export function validateDistribution(
  d: Distribution,
  action: string,
  field: string,
  min = -Infinity,
  exclusive = false,
): void {
  const fail = (name: string, rule: string, value: unknown): never => {
    throw new RangeError(
      `Cannot ${action} as '${field}${name}' must be ${rule}: current value is ${value}`,
    );
  };
  const finite = (name: string, value: number) => {
    if (typeof value !== "number" || !Number.isFinite(value)) fail(name, "a finite number", value);
  };
  const atLeast = (name: string, value: number) => {
    if (exclusive ? !(value > min) : !(value >= min)) {
      fail(name, `${exclusive ? ">" : ">="} ${min}`, value);
    }
  };
  if (d === null || typeof d !== "object") {
    throw new TypeError(
      `Cannot ${action} as '${field}' must be a distribution object: current value is ${d}`,
    );
  }
  switch (d.kind) {
    case "constant":
      finite(".value", d.value);
      atLeast(".value", d.value);
      return;
    case "uniform":
    case "normal":
      if (d.kind === "normal") {
        finite(".mean", d.mean);
        finite(".sd", d.sd);
        if (!(d.sd >= 0)) fail(".sd", ">= 0", d.sd);
      }
      finite(".min", d.min);
      finite(".max", d.max);
      atLeast(".min", d.min);
      if (!(d.max >= d.min)) fail(".max", `>= min (${d.min})`, d.max);
      return;
    default:
      throw new TypeError(
        `Cannot ${action} as '${field}.kind' must be one of constant, normal, uniform: current value is ${
          JSON.stringify((d as { kind: unknown }).kind)
        }`,
      );
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

/**
 * Weidmann's speed–density relation for pedestrians walking on the flat, and the root mean
 * square error of measured speed–density points against it.
 *
 * U. Weidmann, "Transporttechnik der Fussgänger", Schriftenreihe des IVT Nr. 90, ETH Zürich
 * (1993), after Kladek's formula:
 *
 * ```
 * v(ρ) = v0 · (1 − exp(−γ · (1/ρ − 1/ρ_max)))       v0 = 1.34 m/s, γ = 1.913 /m², ρ_max = 5.4 /m²
 * ```
 *
 * @module
 */
import { WEIDMANN_GAMMA, WEIDMANN_JAM_DENSITY, weidmannSpeedShare } from "../core/speed_density.ts";

/** Parameters of {@linkcode weidmannSpeed}. */
export interface WeidmannParameters {
  /** Free walking speed v0 (m/s). @default 1.34 */
  freeSpeed?: number;
  /** Shape γ (persons/m²). @default 1.913 */
  gamma?: number;
  /** Jam density ρ_max (persons/m²), where the speed reaches 0. @default 5.4 */
  jamDensity?: number;
}

/**
 * Weidmann's mean walking speed (m/s) at density `density` (persons/m²); v0 at density 0 and 0
 * at or above the jam density.
 *
 * @example
 * ```ts
 * import { weidmannSpeed } from "./weidmann.ts";
 * import assert from "node:assert/strict";
 * assert.equal(weidmannSpeed(0), 1.34);
 * assert.ok(Math.abs(weidmannSpeed(1) - 1.06) < 0.01);
 * assert.ok(Math.abs(weidmannSpeed(2) - 0.61) < 0.01);
 * assert.equal(weidmannSpeed(6), 0);
 * ```
 */
export function weidmannSpeed(density: number, parameters: WeidmannParameters = {}): number {
  const v0 = parameters.freeSpeed ?? 1.34;
  const gamma = parameters.gamma ?? WEIDMANN_GAMMA;
  const jam = parameters.jamDensity ?? WEIDMANN_JAM_DENSITY;
  if (!(density >= 0) || !Number.isFinite(density)) {
    throw new RangeError(
      `Cannot compute Weidmann speed as 'density' must be a finite number >= 0: current value is ${density}`,
    );
  }
  return v0 * weidmannSpeedShare(density, gamma, jam);
}

/**
 * Root mean square error (m/s) of measured points `[density, speed]` against Weidmann's curve
 * at the same densities; null for no points.
 *
 * @example
 * ```ts
 * import { weidmannRmse, weidmannSpeed } from "./weidmann.ts";
 * import assert from "node:assert/strict";
 * assert.equal(weidmannRmse([[1, weidmannSpeed(1)], [3, weidmannSpeed(3)]]), 0);
 * assert.ok(Math.abs(weidmannRmse([[2, weidmannSpeed(2) + 0.1]])! - 0.1) < 1e-12);
 * ```
 */
export function weidmannRmse(
  points: readonly (readonly [number, number])[],
  parameters: WeidmannParameters = {},
): number | null {
  if (points.length === 0) return null;
  let sum = 0;
  for (const [rho, v] of points) {
    const e = v - weidmannSpeed(rho, parameters);
    sum += e * e;
  }
  return Math.sqrt(sum / points.length);
}

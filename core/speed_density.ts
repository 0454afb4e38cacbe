/**
 * Walking speed against density: Weidmann's relation for pedestrians on the flat (U. Weidmann,
 * "Transporttechnik der Fussgänger", Schriftenreihe des IVT Nr. 90, ETH Zürich, 1993, after
 * Kladek's formula), as the share of the free walking speed kept at a density:
 *
 * ```
 * v(ρ) / v0 = 1 − exp(−γ · (1/ρ − 1/ρ_max))       γ = 1.913 /m², ρ_max = 5.4 /m²
 * ```
 *
 * @module
 */

/** Weidmann's shape γ (persons/m²). */
export const WEIDMANN_GAMMA = 1.913;
/** Weidmann's jam density ρ_max (persons/m²), where walking stops. */
export const WEIDMANN_JAM_DENSITY = 5.4;

/**
 * Share of the free walking speed (0–1) that Weidmann's relation keeps at `density`
 * (persons/m²): 1 at density 0 (and below), 0 at and above the jam density, 0 for NaN. Cheap
 * and without checks: strategies call it per agent and step.
 *
 * @example Weidmann's 1.34 m/s crowd walks 1.06 m/s at 1 /m² and 0.61 m/s at 2 /m²
 * ```ts
 * import { weidmannSpeedShare } from "./speed_density.ts";
 * import assert from "node:assert/strict";
 * assert.equal(weidmannSpeedShare(0), 1);
 * assert.ok(Math.abs(1.34 * weidmannSpeedShare(1) - 1.06) < 0.01);
 * assert.ok(Math.abs(1.34 * weidmannSpeedShare(2) - 0.61) < 0.01);
 * assert.equal(weidmannSpeedShare(6), 0);
 * ```
 */
export function weidmannSpeedShare(
  density: number,
  gamma: number = WEIDMANN_GAMMA,
  jamDensity: number = WEIDMANN_JAM_DENSITY,
): number {
  if (density <= 0) return 1;
  if (!(density < jamDensity)) return 0;
  return 1 - Math.exp(-gamma * (1 / density - 1 / jamDensity));
}

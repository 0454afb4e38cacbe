/**
 * Walking speed on stairs from the stair's tread depth and riser height.
 *
 * Aleksandrov, Heslop and Zlatanova (2021) follow Fujiyama & Tyler (2010, "Predicting the walking speed of pedestrians on
 * stairs", Transportation Planning and Technology 33(2)): a pedestrian climbs at a vertical
 * speed set by body and stair, and the horizontal speed is the vertical speed divided by the
 * tangent of the stair angle, `tan θ = riser / tread`. The regression coefficients of that
 * model are not at hand here, so the vertical speeds come from Weidmann's table instead
 * (U. Weidmann 1993, "Transporttechnik der Fussgänger", IVT ETH Zürich, Schriftenreihe 90):
 * mean horizontal speeds of 0.610 m/s upstairs and 0.694 m/s downstairs on stairs of his
 * reference gradient 1:2, i.e. vertical speeds of 0.305 m/s and 0.347 m/s, against 1.34 m/s on
 * the flat. A pedestrian's vertical speed scales with their own flat speed:
 *
 * ```
 * v_vertical = v_desired · V_VERT / 1.34        (V_VERT = 0.305 up, 0.347 down)
 * v_horizontal = v_vertical / tan θ = v_vertical · tread / riser
 * factor = min(1, v_horizontal / v_desired)
 * ```
 *
 * For tread 0.28 m and riser 0.17 m (a 31° stair) the factor is 0.375 upstairs and 0.427
 * downstairs. Stairs steeper than the reference are slower, shallower ones faster.
 *
 * @module
 */

/** Weidmann's mean walking speed on the flat (m/s). */
export const WEIDMANN_FLAT_SPEED = 1.34;
/** Weidmann's mean vertical speed walking upstairs (m/s): 0.610 m/s horizontal on a 1:2 stair. */
export const WEIDMANN_VERTICAL_SPEED_UP = 0.305;
/** Weidmann's mean vertical speed walking downstairs (m/s): 0.694 m/s horizontal on a 1:2 stair. */
export const WEIDMANN_VERTICAL_SPEED_DOWN = 0.347;

/**
 * Fraction of the flat walking speed that a pedestrian keeps, horizontally, walking straight up
 * (`ascending` true) or down a stair of the given tread depth and riser height (m). Never above
 * 1. `verticalSpeed` (m/s, at a flat speed of 1.34 m/s) replaces Weidmann's value.
 *
 * @example A 0.28 m × 0.17 m stair
 * ```ts
 * import { stairSpeedFactor } from "./stair_speed.ts";
 * import assert from "node:assert/strict";
 * const up = stairSpeedFactor(0.28, 0.17, true);
 * assert(Math.abs(up - (0.305 / 1.34) * (0.28 / 0.17)) < 1e-12); // 0.375
 * assert(stairSpeedFactor(0.28, 0.17, false) > up); // downstairs is faster
 * ```
 */
export function stairSpeedFactor(
  treadDepth: number,
  riserHeight: number,
  ascending: boolean,
  verticalSpeed: number = ascending ? WEIDMANN_VERTICAL_SPEED_UP : WEIDMANN_VERTICAL_SPEED_DOWN,
): number {
  if (!(treadDepth > 0) || !Number.isFinite(treadDepth)) {
    throw new RangeError(
      `Cannot compute stair speed as 'treadDepth' must be a finite number > 0: current value is ${treadDepth}`,
    );
  }
  if (!(riserHeight > 0) || !Number.isFinite(riserHeight)) {
    throw new RangeError(
      `Cannot compute stair speed as 'riserHeight' must be a finite number > 0: current value is ${riserHeight}`,
    );
  }
  if (!(verticalSpeed > 0) || !Number.isFinite(verticalSpeed)) {
    throw new RangeError(
      `Cannot compute stair speed as 'verticalSpeed' must be a finite number > 0: current value is ${verticalSpeed}`,
    );
  }
  // horizontal = vertical / tan(theta), tan(theta) = riser / tread
  return Math.min(1, (verticalSpeed / WEIDMANN_FLAT_SPEED) * (treadDepth / riserHeight));
}

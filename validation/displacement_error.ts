/**
 * Trajectory prediction errors and the constant-velocity baseline, as in the ETH/UCY prediction
 * protocol (observe 8 samples, predict 12; A. Alahi et al., "Social LSTM: human trajectory
 * prediction in crowded spaces", CVPR 2016; the constant-velocity baseline of C. Schöller,
 * V. Aravantinos, F. Lay, A. Knoll, "What the constant velocity model can teach us about
 * pedestrian motion prediction", IEEE RA-L 5(2), 2020).
 *
 * @module
 */

/** Average and final displacement error of one prediction (m). */
export interface DisplacementError {
  /** ADE: mean distance between predicted and true positions over the predicted samples (m). */
  ade: number;
  /** FDE: distance at the last predicted sample (m). */
  fde: number;
}

/**
 * ADE and FDE of `predicted` against `actual`, both flat `[x0, y0, x1, y1, …]` arrays of the
 * same number of samples (m).
 *
 * @example
 * ```ts
 * import { displacementError } from "./displacement_error.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(displacementError([0, 0, 1, 0], [0, 0, 1, 0]), { ade: 0, fde: 0 });
 * assert.deepEqual(displacementError([0, 0, 1, 0], [0, 0, 1, 2]), { ade: 1, fde: 2 });
 * ```
 */
export function displacementError(
  predicted: ArrayLike<number>,
  actual: ArrayLike<number>,
): DisplacementError {
  if (predicted.length !== actual.length || predicted.length < 2 || predicted.length % 2 !== 0) {
    throw new TypeError(
      `Cannot compute displacement error as 'predicted' and 'actual' must be [x, y] pairs of the same length: ${predicted.length} and ${actual.length}`,
    );
  }
  const samples = predicted.length / 2;
  let sum = 0, last = 0;
  for (let k = 0; k < samples; k++) {
    const dx = predicted[2 * k] - actual[2 * k], dy = predicted[2 * k + 1] - actual[2 * k + 1];
    last = Math.sqrt(dx * dx + dy * dy);
    sum += last;
  }
  return { ade: sum / samples, fde: last };
}

/**
 * The constant-velocity prediction of `steps` samples after an observed track (flat
 * `[x, y, …]`, at least two samples, equally spaced): the last observed displacement repeated.
 *
 * @example A walker at 1 m per sample
 * ```ts
 * import { constantVelocityPrediction } from "./displacement_error.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual([...constantVelocityPrediction([0, 0, 1, 0], 2)], [2, 0, 3, 0]);
 * ```
 */
export function constantVelocityPrediction(
  observed: ArrayLike<number>,
  steps: number,
): Float64Array {
  const n = observed.length / 2;
  if (n < 2 || observed.length % 2 !== 0) {
    throw new TypeError(
      `Cannot predict as 'observed' needs at least two [x, y] samples: current length is ${observed.length}`,
    );
  }
  if (!Number.isInteger(steps) || steps < 1) {
    throw new RangeError(
      `Cannot predict as 'steps' must be an integer >= 1: current value is ${steps}`,
    );
  }
  const x = observed[2 * n - 2], y = observed[2 * n - 1];
  const dx = x - observed[2 * n - 4], dy = y - observed[2 * n - 3];
  const out = new Float64Array(2 * steps);
  for (let k = 0; k < steps; k++) {
    out[2 * k] = x + (k + 1) * dx;
    out[2 * k + 1] = y + (k + 1) * dy;
  }
  return out;
}

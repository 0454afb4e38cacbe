/**
 * The Intelligent Driver Model (M. Treiber, A. Hennecke and D. Helbing, Congested traffic states
 * in empirical observations and microscopic simulations, Physical Review E 62, 1805–1824, 2000):
 * a car's acceleration from its speed, the gap to the car ahead and the speed difference.
 *
 *     dv/dt = a · [1 − (v/v0)^δ − (s*(v, Δv)/s)²]
 *     s*(v, Δv) = s0 + max(0, v·T + v·Δv / (2·√(a·b)))
 *
 * with v the speed, s the gap (front bumper to the rear bumper ahead) and Δv = v − v_ahead the
 * approach rate. The parameters:
 *
 * | symbol | field                     | unit | city default | paper (motorway) |
 * |--------|---------------------------|------|--------------|------------------|
 * | v0     | desired speed (per car)   | m/s  | 13.9 (50 km/h) | 33.3 (120 km/h) |
 * | T      | `timeHeadway`             | s    | 1.0          | 1.6              |
 * | s0     | `minimumGap`              | m    | 2            | 2                |
 * | a      | `maxAcceleration`         | m/s² | 1.0          | 0.73             |
 * | b      | `comfortableDeceleration` | m/s² | 1.5          | 1.67             |
 * | δ      | `accelerationExponent`    | –    | 4            | 4                |
 * |        | `maxDeceleration`         | m/s² | 9            | –                |
 *
 * The city column follows the IDM parameter table for city traffic of M. Treiber and
 * A. Kesting, Traffic Flow Dynamics (Springer, 2013), chapter 11, with the desired speed lowered
 * from 54 km/h to the common urban limit of 50 km/h. The model itself brakes as hard as it needs to; `maxDeceleration` is the
 * physical limit (dry asphalt, about 0.9 g) it is clipped to, which is what makes "stop when you
 * can" a real question at a yellow light.
 *
 * Time integration is the ballistic update of M. Treiber and V. Kanagaraj, Comparing numerical
 * integration schemes for time-continuous car-following models, Physica A 419, 183–195, 2015:
 * `x += v·dt + a·dt²/2`, `v += a·dt`, stopping exactly where the speed reaches zero.
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../core/options.ts";

/** Model-wide parameters of the Intelligent Driver Model (see the module table). */
export interface IdmOptions {
  /** T (s): desired time headway to the car ahead. Larger is safer, lowers road capacity. @default 1 */
  timeHeadway: number;
  /** s0 (m): gap kept at standstill. @default 2 */
  minimumGap: number;
  /** a (m/s²): acceleration from standstill on a free road. @default 1 */
  maxAcceleration: number;
  /** b (m/s²): comfortable deceleration; harder braking happens only when needed. @default 1.5 */
  comfortableDeceleration: number;
  /** δ: how the free-road acceleration falls as the speed nears v0. @default 4 */
  accelerationExponent: number;
  /** Physical braking limit (m/s²) the model's deceleration is clipped to. @default 9 */
  maxDeceleration: number;
}

/** Descriptors of {@linkcode IdmOptions}. */
export const IDM_OPTIONS: OptionSpecs<IdmOptions> = {
  timeHeadway: {
    type: "number",
    default: 1,
    min: 0,
    max: 10,
    unit: "s",
    doc: "T: desired time headway; larger is safer and lowers road capacity",
  },
  minimumGap: {
    type: "number",
    default: 2,
    min: 0,
    max: 20,
    unit: "m",
    doc: "s0: gap kept to the car ahead at standstill",
  },
  maxAcceleration: {
    type: "number",
    default: 1,
    min: 0.01,
    max: 10,
    unit: "m/s²",
    doc: "a: acceleration from standstill on a free road",
  },
  comfortableDeceleration: {
    type: "number",
    default: 1.5,
    min: 0.01,
    max: 10,
    unit: "m/s²",
    doc: "b: comfortable deceleration; larger approaches queues later and brakes harder",
  },
  accelerationExponent: {
    type: "number",
    default: 4,
    min: 1,
    max: 20,
    doc: "δ: larger keeps accelerating hard until close to the desired speed",
  },
  maxDeceleration: {
    type: "number",
    default: 9,
    min: 0.1,
    max: 20,
    unit: "m/s²",
    doc: "physical braking limit the model's deceleration is clipped to",
  },
};

/**
 * The Intelligent Driver Model with validated parameters. The desired speed v0 is a per-car
 * value and is passed to each call.
 *
 * @example Free-road acceleration and the equilibrium gap
 * ```ts
 * import { IntelligentDriver } from "./idm.ts";
 * import assert from "node:assert/strict";
 * const idm = new IntelligentDriver();
 * assert.equal(idm.acceleration(0, 13.9, Infinity, 0), 1); // a from standstill
 * const gap = idm.equilibriumGap(10, 13.9); // where following at 10 m/s is steady
 * assert(Math.abs(idm.acceleration(10, 13.9, gap, 0)) < 1e-12);
 * ```
 */
export class IntelligentDriver {
  /** T (s). */
  readonly timeHeadway: number;
  /** s0 (m). */
  readonly minimumGap: number;
  /** a (m/s²). */
  readonly maxAcceleration: number;
  /** b (m/s²). */
  readonly comfortableDeceleration: number;
  /** δ. */
  readonly accelerationExponent: number;
  /** Braking limit (m/s²). */
  readonly maxDeceleration: number;
  readonly #twoSqrtAb: number;

  constructor(options: Partial<IdmOptions> = {}) {
    const o = resolveOptions("Intelligent Driver Model", IDM_OPTIONS, options);
    this.timeHeadway = o.timeHeadway;
    this.minimumGap = o.minimumGap;
    this.maxAcceleration = o.maxAcceleration;
    this.comfortableDeceleration = o.comfortableDeceleration;
    this.accelerationExponent = o.accelerationExponent;
    this.maxDeceleration = o.maxDeceleration;
    this.#twoSqrtAb = 2 * Math.sqrt(o.maxAcceleration * o.comfortableDeceleration);
  }

  /**
   * s*(v, Δv) (m): the gap the driver wants at speed `speed` (m/s) closing in at
   * `approachRate` = v − v_ahead (m/s).
   */
  desiredGap(speed: number, approachRate: number): number {
    const dynamic = speed * this.timeHeadway + (speed * approachRate) / this.#twoSqrtAb;
    return this.minimumGap + (dynamic > 0 ? dynamic : 0);
  }

  /**
   * Acceleration (m/s²) at `speed` (m/s) with desired speed `desiredSpeed` (m/s), a `gap` (m)
   * to the obstacle ahead (`Infinity` for a free road) closing at `approachRate` (m/s), clipped
   * to `-maxDeceleration`. A gap of zero or less brakes at the limit.
   */
  acceleration(speed: number, desiredSpeed: number, gap: number, approachRate: number): number {
    if (gap <= 0) return -this.maxDeceleration;
    const ratio = speed / desiredSpeed;
    let acc = this.maxAcceleration * (1 - Math.pow(ratio, this.accelerationExponent));
    if (gap < Infinity) {
      const q = this.desiredGap(speed, approachRate) / gap;
      acc -= this.maxAcceleration * q * q;
    }
    return acc < -this.maxDeceleration ? -this.maxDeceleration : acc;
  }

  /**
   * s_e(v) (m): the gap at which following a car at the same `speed` (m/s) is steady,
   * (s0 + v·T) / √(1 − (v/v0)^δ); `Infinity` at or above the desired speed.
   */
  equilibriumGap(speed: number, desiredSpeed: number): number {
    const free = 1 - Math.pow(speed / desiredSpeed, this.accelerationExponent);
    if (free <= 0) return Infinity;
    return (this.minimumGap + speed * this.timeHeadway) / Math.sqrt(free);
  }
}

/**
 * Distance (m) to stop from `speed` (m/s) braking at a constant `deceleration` (m/s²): v²/(2d).
 *
 * @example Stopping from 12 m/s at 3 m/s²
 * ```ts
 * import { brakingDistance } from "./idm.ts";
 * import assert from "node:assert/strict";
 * assert.equal(brakingDistance(12, 3), 24);
 * ```
 */
export function brakingDistance(speed: number, deceleration: number): number {
  return (speed * speed) / (2 * deceleration);
}

/**
 * One ballistic step (Treiber and Kanagaraj 2015) of length `dt` (s) from speed `speed` (m/s)
 * at constant `acceleration` (m/s²): returns the distance travelled (m); the new speed is
 * `max(0, speed + acceleration·dt)`. A car that would stop during the step stops where its
 * speed reaches zero instead of rolling backwards.
 *
 * @example A car braking to a halt inside the step
 * ```ts
 * import { ballisticDistance } from "./idm.ts";
 * import assert from "node:assert/strict";
 * assert.equal(ballisticDistance(1, -2, 1), 0.25); // stops after 0.5 s and 0.25 m
 * assert.equal(ballisticDistance(10, 1, 0.5), 5.125);
 * ```
 */
export function ballisticDistance(speed: number, acceleration: number, dt: number): number {
  const next = speed + acceleration * dt;
  if (next < 0) return -(speed * speed) / (2 * acceleration);
  return speed * dt + 0.5 * acceleration * dt * dt;
}

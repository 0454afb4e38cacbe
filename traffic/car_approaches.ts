/**
 * The cars a pedestrian must look at before crossing a street without a light: their distance
 * to the crosswalk along their own paths, their top speed, length, and how long a red light
 * will still hold them. Filled by {@linkcode CarSystem.approachingCars}; read by the crossing
 * prediction in `navigation/` (whose `ApproachingCars` shape it has).
 *
 * @module
 */

/**
 * A reusable buffer of approaching cars (struct of arrays; the first `count` entries are valid).
 *
 * @example One car 40 m from the crosswalk
 * ```ts
 * import { CarApproaches } from "./car_approaches.ts";
 * import assert from "node:assert/strict";
 * const out = new CarApproaches();
 * out.push(3, 40, 13.9, 4.5, 0);
 * assert.equal(out.count, 1);
 * assert.equal(out.distance[0], 40);
 * ```
 */
export class CarApproaches {
  /** Number of cars. */
  count = 0;
  /** Car numbers. */
  car: Int32Array = new Int32Array(16);
  /** Distance (m) along the car's path from its front to the near edge of the crosswalk. */
  distance: Float64Array = new Float64Array(16);
  /** Top speed (m/s). */
  maxSpeed: Float64Array = new Float64Array(16);
  /** Length (m). */
  length: Float64Array = new Float64Array(16);
  /** Seconds a red light will still hold the car; 0 when it may move. */
  holdTime: Float64Array = new Float64Array(16);

  /** Appends one car, growing the buffers when needed. */
  push(car: number, distance: number, maxSpeed: number, length: number, holdTime: number): void {
    if (this.count === this.car.length) this.#grow();
    const k = this.count++;
    this.car[k] = car;
    this.distance[k] = distance;
    this.maxSpeed[k] = maxSpeed;
    this.length[k] = length;
    this.holdTime[k] = holdTime;
  }

  #grow(): void {
    const n = 2 * this.car.length;
    const car = new Int32Array(n), distance = new Float64Array(n), maxSpeed = new Float64Array(n);
    const length = new Float64Array(n), holdTime = new Float64Array(n);
    car.set(this.car);
    distance.set(this.distance);
    maxSpeed.set(this.maxSpeed);
    length.set(this.length);
    holdTime.set(this.holdTime);
    this.car = car;
    this.distance = distance;
    this.maxSpeed = maxSpeed;
    this.length = length;
    this.holdTime = holdTime;
  }
}

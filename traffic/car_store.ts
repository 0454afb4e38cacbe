/**
 * Car state as a struct of arrays: one typed-array column per quantity, indexed by the car's
 * number `0 … count-1`. Cars are never removed (a stuck car is moved elsewhere, keeping its
 * number), so a car's number is a stable handle; the store is allocated once at its capacity.
 *
 * @module
 */

/** Bits of the car `flags` column. */
export const CarFlags = {
  /**
   * The car has decided to cross the junction ahead and holds its reservation (its movement,
   * and room on the lane after it); it no longer stops at the line.
   */
  committed: 1,
  /** Held in place by a script (a broken-down car, a blocked street); it still takes room. */
  held: 2,
  /** Waiting at its stop line for a red or yellow light (set by the car system each step). */
  atLight: 4,
  /** Waiting at its stop line, light green, for room or a clear junction (set each step). */
  blocked: 8,
} as const;

/**
 * Columns of every car. Positions along links are of the car's front bumper; poses (`x`, `y`,
 * `dirX`, `dirY`) are of the centre of its rectangle, refreshed after each step.
 *
 * @example A store for two cars
 * ```ts
 * import { CarStore } from "./car_store.ts";
 * import assert from "node:assert/strict";
 * const cars = new CarStore(2);
 * assert.equal(cars.capacity, 2);
 * assert.equal(cars.count, 0);
 * assert.equal(cars.reserved[1], -1);
 * ```
 */
export class CarStore {
  /** Allocated rows. */
  readonly capacity: number;
  /** Cars in use; valid numbers are `0 … count-1`. */
  count = 0;
  /** Link the car's front is on (lane or connector). */
  readonly link: Int32Array;
  /** Distance of the front bumper from the start of its link (m). */
  readonly s: Float64Array;
  /** Speed (m/s). */
  readonly speed: Float64Array;
  /** Acceleration chosen in the last step (m/s²). */
  readonly acceleration: Float64Array;
  /** v0: speed on a free road (m/s). */
  readonly desiredSpeed: Float64Array;
  /** Length, bumper to bumper (m). */
  readonly length: Float64Array;
  /** Width (m). */
  readonly width: Float64Array;
  /** {@linkcode CarFlags} bits. */
  readonly flags: Uint8Array;
  /** Connector the car holds a reservation on, or -1. */
  readonly reserved: Int32Array;
  /** Lane the car is heading for. */
  readonly destination: Int32Array;
  /** Connectors of the planned route stored for this car. */
  readonly routeLength: Int32Array;
  /** Index in the route of the next connector to take. */
  readonly routePos: Int32Array;
  /** Seconds waited at the line with a green light and no room (gridlock layer 2). */
  readonly blockedTime: Float64Array;
  /** Seconds without moving `stuckDistance` while not held by a red light (gridlock layer 3). */
  readonly stuckTime: Float64Array;
  /** Distance driven since the car was placed (m). */
  readonly odometer: Float64Array;
  /** Odometer reading when the stuck timer last restarted (m). */
  readonly stuckMark: Float64Array;
  /** Centre of the car (m). */
  readonly x: Float64Array;
  /** Centre of the car (m). */
  readonly y: Float64Array;
  /** Unit heading (x). */
  readonly dirX: Float64Array;
  /** Unit heading (y). */
  readonly dirY: Float64Array;
  /**
   * How far (m) the body strays beyond its rectangle carried straight on at its speed, because
   * its path turns, within the pedestrians' horizon (0 on a straight path and for a car that
   * drives farther than its own length within it; refreshed with the pose).
   */
  readonly sweep: Float64Array;
  /** Polyline segment of the link the front is on (a search hint). */
  readonly segment: Int32Array;
  /** Trip number: increases each time the car is moved elsewhere after being stuck. */
  readonly trip: Uint32Array;

  /** @param capacity number of cars the store can hold */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(
        `Cannot create CarStore as 'capacity' must be an integer >= 0: current value is ${capacity}`,
      );
    }
    const n = Math.max(1, capacity);
    this.capacity = capacity;
    this.link = new Int32Array(n);
    this.s = new Float64Array(n);
    this.speed = new Float64Array(n);
    this.acceleration = new Float64Array(n);
    this.desiredSpeed = new Float64Array(n);
    this.length = new Float64Array(n);
    this.width = new Float64Array(n);
    this.flags = new Uint8Array(n);
    this.reserved = new Int32Array(n).fill(-1);
    this.destination = new Int32Array(n).fill(-1);
    this.routeLength = new Int32Array(n);
    this.routePos = new Int32Array(n);
    this.blockedTime = new Float64Array(n);
    this.stuckTime = new Float64Array(n);
    this.odometer = new Float64Array(n);
    this.stuckMark = new Float64Array(n);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.dirX = new Float64Array(n);
    this.dirY = new Float64Array(n);
    this.sweep = new Float64Array(n);
    this.segment = new Int32Array(n);
    this.trip = new Uint32Array(n);
  }
}

/**
 * Reynolds' "arrive": the speed an agent wants at a distance from the point it steers at,
 * shared by every navigator that brakes before a goal.
 *
 * @module
 */

/**
 * The preferred speed (m/s) at `distance` (m) from the aim: `speed`, scaled by
 * `distance / brakingDistance` inside the braking distance (m; 0 never brakes).
 *
 * @example A quarter of the speed at a quarter of the braking distance
 * ```ts
 * import { arriveSpeed } from "./_arrive.ts";
 * import assert from "node:assert/strict";
 * assert.equal(arriveSpeed(1.2, 0.5, 2), 0.3);
 * assert.equal(arriveSpeed(1.2, 5, 2), 1.2);
 * assert.equal(arriveSpeed(1.2, 0.5, 0), 1.2);
 * ```
 */
export function arriveSpeed(speed: number, distance: number, brakingDistance: number): number {
  return distance < brakingDistance ? speed * (distance / brakingDistance) : speed;
}

/**
 * `crossing`: two opposing flocks cross an 8 m street between 3 m sidewalks over a zebra
 * crossing, after the "Crossing citizens" project report: capsule-shaped spawn zones along each
 * sidewalk, destinations on the opposite sidewalk with a random offset along it, and arrivals
 * looping back to their spawn zone so the flow never stops.
 *
 * @module
 */
import type { ScenarioSpec } from "../schema.ts";

/** Default agent count (both flocks). */
export const CROSSING_DEFAULT_AGENTS = 60;

/**
 * The street crossing. The sidewalk zones lengthen with the agent count (about 1.2 persons/m²).
 * A throughput line runs along the street's centre line across the crosswalk.
 *
 * @example
 * ```ts
 * import { crossingScenario } from "./crossing.ts";
 * import assert from "node:assert/strict";
 * assert.equal(crossingScenario().spawners.length, 2);
 * ```
 */
export function crossingScenario(agents = CROSSING_DEFAULT_AGENTS): ScenarioSpec {
  const south = Math.ceil(agents / 2), north = agents - south;
  const halfLength = Math.max(6, (south / 1.2 - Math.PI * 1.3 * 1.3) / (2 * 2.6));
  const sidewalk = 5.5; // |y| of the sidewalk centre lines
  const zone = (y: number, radius: number) => ({
    capsule: {
      from: [-halfLength, y] as [number, number],
      to: [halfLength, y] as [number, number],
      radius,
    },
  });
  return {
    name: "crossing",
    description: `${agents} agents in two flocks cross an 8 m street between sidewalks`,
    dt: 0.05,
    duration: 90,
    seed: 1,
    walkingSide: "right",
    bounds: [-halfLength - 3, -7.5, halfLength + 3, 7.5],
    goals: { north: zone(sidewalk, 1.0), south: zone(-sidewalk, 1.0) },
    spawners: [
      {
        name: "south",
        area: zone(-sidewalk, 1.3),
        count: south,
        goal: "north",
        onArrival: "respawn",
      },
      {
        name: "north",
        area: zone(sidewalk, 1.3),
        count: north,
        goal: "south",
        onArrival: "respawn",
      },
    ],
    metrics: { throughputLine: { name: "crosswalk", from: [-3, 0], to: [3, 0] } },
  };
}

/**
 * `city`: a crowd walking between random buildings of a real city centre — the OpenStreetMap
 * extract shipped in `data/helsinki-centre/` (© OpenStreetMap contributors, ODbL) — on the
 * navigation mesh of its walkable area. Each pedestrian steps out near a random building's
 * door, walks to another random building's door, and on arrival picks a new one (arrival policy
 * `next`). The strategy is chosen on the command line (`sim --scenario city --strategy orca`).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { ScenarioSpec } from "../schema.ts";

/** Default crowd of the built-in city. */
export const CITY_DEFAULT_AGENTS = 2000;

/** The map of the built-in city: the shipped Helsinki centre extract. */
export const CITY_MAP_PATH = fileURLToPath(
  new URL("../../data/helsinki-centre/helsinki-centre.osm.pbf", import.meta.url),
);

/**
 * The built-in city for `agents` pedestrians.
 *
 * @example
 * ```ts
 * import { cityScenario } from "./city.ts";
 * import assert from "node:assert/strict";
 * const spec = cityScenario(100);
 * assert.equal(spec.spawners[0].count, 100);
 * assert.deepEqual(spec.spawners[0].goal, { building: "random" });
 * ```
 */
export function cityScenario(agents = CITY_DEFAULT_AGENTS): ScenarioSpec {
  return {
    name: "city",
    description:
      `${agents} pedestrians walk between random buildings of Helsinki's centre (© OpenStreetMap contributors)`,
    dt: 0.05,
    duration: 600,
    seed: 1,
    map: { osm: CITY_MAP_PATH },
    agents: { radius: 0.25 },
    spawners: [{
      name: "buildings",
      area: { building: "random" },
      count: agents,
      goal: { building: "random" },
      onArrival: "next",
    }],
  };
}

/**
 * Built-in scenarios, addressable by name. Each takes the total agent count and sizes its
 * geometry so that the agents fit.
 *
 * @example
 * ```ts
 * import { BUILTIN_SCENARIOS } from "./mod.ts";
 * import assert from "node:assert/strict";
 * assert.equal(BUILTIN_SCENARIOS.corridor.create(40).name, "corridor");
 * ```
 *
 * @module
 */
import type { NavigatorResources } from "../../navigation/navigator_factory.ts";
import { CITY_WALK_DEFAULT_AGENTS, cityWalkGuidance, cityWalkScenario } from "../city_walk.ts";
import type { ScenarioSpec } from "../schema.ts";
import { BOTTLENECK_DEFAULT_AGENTS, bottleneckScenario } from "./bottleneck.ts";
import { BUILDING_DEFAULT_AGENTS, buildingScenario } from "./building.ts";
import { CIRCLE_DEFAULT_AGENTS, circleScenario } from "./circle.ts";
import { CITY_DEFAULT_AGENTS, cityScenario } from "./city.ts";
import { CORRIDOR_DEFAULT_AGENTS, corridorScenario } from "./corridor.ts";
import { CROSSING_DEFAULT_AGENTS, crossingScenario } from "./crossing.ts";
import { INTERSECTION_DEFAULT_AGENTS, intersectionScenario } from "./intersection.ts";

export {
  bottleneckScenario,
  circleScenario,
  cityScenario,
  corridorScenario,
  crossingScenario,
  intersectionScenario,
};

/** A built-in scenario generator. */
export interface BuiltinScenario {
  /** One line for listings. */
  readonly description: string;
  /** Agent count when `--agents` is not given. */
  readonly defaultAgents: number;
  /** Generates the scenario for `agents` agents. */
  create(agents?: number): ScenarioSpec;
  /** World data its navigator needs (a city), for `buildScenario`'s `resources`. @default none */
  resources?(): NavigatorResources;
}

/** Built-in scenarios by name. */
export const BUILTIN_SCENARIOS: Readonly<Record<string, BuiltinScenario>> = {
  circle: {
    description: "agents on a circle swap to the antipodal point",
    defaultAgents: CIRCLE_DEFAULT_AGENTS,
    create: circleScenario,
  },
  corridor: {
    description: "two opposing groups in a 3.6 m wide corridor",
    defaultAgents: CORRIDOR_DEFAULT_AGENTS,
    create: corridorScenario,
  },
  bottleneck: {
    description: "a room empties through a 1 m door",
    defaultAgents: BOTTLENECK_DEFAULT_AGENTS,
    create: bottleneckScenario,
  },
  crossing: {
    description: "two flocks cross a street between sidewalks (continuous flow)",
    defaultAgents: CROSSING_DEFAULT_AGENTS,
    create: crossingScenario,
  },
  intersection: {
    description: "four flows cross where two streets meet",
    defaultAgents: INTERSECTION_DEFAULT_AGENTS,
    create: intersectionScenario,
  },
  building: {
    description: "two storeys joined by a staircase: half go up, half come down (navigation mesh)",
    defaultAgents: BUILDING_DEFAULT_AGENTS,
    create: buildingScenario,
  },
  city: {
    description:
      "pedestrians walk between random buildings of Helsinki's centre (OpenStreetMap, navigation mesh)",
    defaultAgents: CITY_DEFAULT_AGENTS,
    create: cityScenario,
  },
  "city-walk": {
    description:
      "street walkers choose streets by visible area (affordance navigator) in a generated city",
    defaultAgents: CITY_WALK_DEFAULT_AGENTS,
    create: (agents) => cityWalkScenario(cityWalkGuidance(), { agents }).spec,
    resources: () => cityWalkScenario(cityWalkGuidance(), { agents: 0 }).resources,
  },
};

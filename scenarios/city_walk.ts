/**
 * City walks: a scenario of street walkers on a city model — the affordance navigator (or
 * another street walker) with its walkers placed on the streets — for `sim`, `compare` and
 * `view`. The built-in `city-walk` runs on a generated city; a map file given as the scenario
 * (`--scenario city.osm.pbf`) runs on that city.
 *
 * The walkers are placed when the scenario is made, from its seed (see
 * {@linkcode streetPlacement}): one spawner per walker, within a metre of a point on its street.
 *
 * @module
 */
import { Rng, RngStream } from "../core/rng.ts";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import type { NavigatorResources } from "../navigation/navigator_factory.ts";
import { StreetGuidance } from "../navigation/street_guidance.ts";
import { type StreetPlacement, streetPlacement } from "../navigation/street_placement.ts";
import type { ScenarioSpec } from "./schema.ts";

/** Walkers start within this distance (m) of their point, where there is room. */
const SPAWN_RADIUS = 1;

/** Default number of walkers of a city walk. */
export const CITY_WALK_DEFAULT_AGENTS = 2000;

/** Options of {@linkcode cityWalkScenario}. */
export interface CityWalkOptions {
  /** Walkers. @default 2000 */
  agents?: number;
  /** Where they start. @default "viewshed" */
  placement?: StreetPlacement;
  /** The street walker: `affordance`, `random-walk` or `shortest-path`. @default "affordance" */
  navigator?: string;
  /** Seed of the placement and of the run. @default 1 */
  seed?: number;
  /** Simulated time (s). @default 600 */
  duration?: number;
  /** Scenario name. @default "city-walk" */
  name?: string;
}

/** A city walk with what its navigator needs. */
export interface CityWalk {
  /** The scenario. */
  spec: ScenarioSpec;
  /** The city and its street guidance, for `buildScenario`'s `resources`. */
  resources: NavigatorResources;
}

/**
 * The city walk on `guidance`'s city (see the module doc).
 *
 * @example Two hundred affordance walkers on a generated city
 * ```ts
 * import { cityWalkScenario } from "./city_walk.ts";
 * import { buildScenario } from "./build.ts";
 * import { StreetGuidance } from "../navigation/street_guidance.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const guidance = StreetGuidance.fromCity(generateProceduralCity({ blocksX: 3, blocksY: 3 }));
 * const { spec, resources } = cityWalkScenario(guidance, { agents: 200 });
 * const built = buildScenario(spec, { registry: strategies, resources });
 * assert.equal(built.navigatorName, "affordance");
 * assert.equal(built.world.agents.count, 200);
 * ```
 */
export function cityWalkScenario(
  guidance: StreetGuidance,
  options: CityWalkOptions = {},
): CityWalk {
  const agents = options.agents ?? CITY_WALK_DEFAULT_AGENTS;
  const seed = options.seed ?? 1;
  const city = guidance.city;
  const points = streetPlacement(guidance, agents, {
    mode: options.placement ?? "viewshed",
    rng: new Rng(seed, RngStream.user),
  });
  const spawners: ScenarioSpec["spawners"] = [];
  for (let k = 0; k < points.length; k += 2) {
    const point: [number, number] = [points[k], points[k + 1]];
    spawners.push({
      area: { circle: { center: point, radius: SPAWN_RADIUS } },
      count: 1,
      goal: { point },
      onArrival: "stay",
    });
  }
  if (spawners.length === 0) {
    spawners.push({ area: { point: [0, 0] }, count: 0, goal: { point: [0, 0] } });
  }
  const navigator = options.navigator ?? "affordance";
  return {
    spec: {
      name: options.name ?? "city-walk",
      description: `${agents} street walkers (${navigator}) on ${city.name}`,
      dt: 0.05,
      duration: options.duration ?? 600,
      seed,
      anchor: { lon: city.anchor.lon, lat: city.anchor.lat },
      bounds: [...city.bounds],
      spawners,
      navigator: { name: navigator },
    },
    resources: { city, streetGuidance: guidance },
  };
}

let _generated: StreetGuidance | null = null;

/** The generated city of the built-in `city-walk` (6 × 6 blocks), built once. */
export function cityWalkGuidance(): StreetGuidance {
  return _generated ??= StreetGuidance.fromCity(generateProceduralCity());
}

/** Extensions of map files run as city walks. */
const MAP_EXTENSIONS = [".osm", ".pbf", ".geojson"];

/** True when `path` names a map file (`.osm`, `.osm.pbf`/`.pbf`, `.geojson`). */
export function isMapPath(path: string): boolean {
  const lower = path.toLowerCase();
  return MAP_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

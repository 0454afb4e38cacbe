/**
 * Finding a scenario by built-in name or file path.
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import { loadCity } from "../geo/load_city.ts";
import type { NavigatorResources } from "../navigation/navigator_factory.ts";
import { StreetGuidance } from "../navigation/street_guidance.ts";
import { BUILTIN_SCENARIOS } from "./builtin/mod.ts";
import { scaleScenario } from "./build.ts";
import { CITY_WALK_DEFAULT_AGENTS, cityWalkScenario, isMapPath } from "./city_walk.ts";
import { loadScenarioFile, ScenarioError } from "./load.ts";
import { loadScenarioMap, placeOnMap } from "./scenario_map.ts";
import type { ScenarioSpec } from "./schema.ts";

/** A scenario ready to build, with a name for messages. */
export interface ResolvedScenario {
  /** The validated (and, with `agents`, scaled) scenario. */
  spec: ScenarioSpec;
  /** `built-in scenario 'name'` or the file path. */
  source: string;
  /** World data its navigator needs (a city), for `buildScenario`'s `resources`. */
  resources?: NavigatorResources;
}

/**
 * Returns the built-in scenario called `nameOrPath`, generated for `agents` agents, or else
 * loads the JSON file at that path (scaling its spawner counts to `agents` when given); a
 * relative path is taken from `folder` when given (the folder a command was run in). A scenario
 * with a `map` section comes with its city loaded and meshed (see {@linkcode withMap}) unless
 * `loadMap` is false (to validate the file only). A map file
 * (`.osm`, `.osm.pbf`, `.geojson`) becomes a city walk on that city (see
 * {@linkcode cityWalkScenario}). Unknown names that are not files give a
 * {@linkcode ScenarioError} listing the built-ins.
 *
 * @example
 * ```ts
 * import { resolveScenario } from "./resolve.ts";
 * import assert from "node:assert/strict";
 * const { spec } = await resolveScenario("bottleneck", { agents: 30 });
 * assert.equal(spec.spawners[0].count, 30);
 * ```
 */
export async function resolveScenario(
  nameOrPath: string,
  options: { agents?: number; folder?: string; loadMap?: boolean } = {},
): Promise<ResolvedScenario> {
  const place = (resolved: ResolvedScenario, scenarioPath?: string) =>
    options.loadMap === false ? resolved : withMap(resolved, scenarioPath);
  const builtin = Object.hasOwn(BUILTIN_SCENARIOS, nameOrPath)
    ? BUILTIN_SCENARIOS[nameOrPath]
    : undefined;
  if (builtin) {
    const source = `built-in scenario '${nameOrPath}'`;
    if (options.agents !== undefined && (!Number.isInteger(options.agents) || options.agents < 0)) {
      throw new ScenarioError(
        source,
        "--agents",
        `must be an integer >= 0: current value is ${options.agents}`,
      );
    }
    return await place({
      spec: builtin.create(options.agents ?? builtin.defaultAgents),
      source,
      resources: builtin.resources?.(),
    });
  }
  if (!/[./\\]/.test(nameOrPath)) {
    throw new ScenarioError(
      `scenario '${nameOrPath}'`,
      "",
      `not a built-in scenario (${Object.keys(BUILTIN_SCENARIOS).join(", ")}) nor a file path`,
    );
  }
  const path = options.folder !== undefined && !isAbsolute(nameOrPath)
    ? join(options.folder, nameOrPath)
    : nameOrPath;
  if (isMapPath(path)) {
    const city = await loadCity(path);
    const walk = cityWalkScenario(StreetGuidance.fromCity(city), {
      agents: options.agents ?? CITY_WALK_DEFAULT_AGENTS,
      name: city.name,
    });
    return { ...walk, source: path };
  }
  const spec = await loadScenarioFile(path);
  return await place({
    spec: options.agents === undefined ? spec : scaleScenario(spec, options.agents, path),
    source: path,
  }, path);
}

/**
 * A scenario with a `map` section, its map loaded (relative paths from `scenarioPath`'s folder):
 * placed at the map's anchor, with the city and its navigation mesh as resources. Scenarios
 * without a map come back as they are.
 */
export async function withMap(
  resolved: ResolvedScenario,
  scenarioPath?: string,
): Promise<ResolvedScenario> {
  const { spec, source } = resolved;
  if (!spec.map) return resolved;
  if (spec.anchor) {
    throw new ScenarioError(
      source,
      "anchor",
      'give "map" or "anchor", not both: the map places the scenario',
    );
  }
  const map = await loadScenarioMap(spec.map, source, scenarioPath);
  return {
    spec: placeOnMap(spec, map),
    source,
    resources: { ...resolved.resources, city: map.city, navMesh: map.navigation.mesh },
  };
}

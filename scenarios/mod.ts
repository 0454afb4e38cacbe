/**
 * Scenarios: the JSON file format, loading with field-level errors, the built-in scenarios,
 * building a world from a scenario, running it with metrics, and comparing strategies.
 *
 * @example Compare strategies on a built-in scenario
 * ```ts
 * import { compareStrategies } from "./mod.ts";
 * import { strategies } from "../strategies/mod.ts";
 * const report = await compareStrategies({
 *   scenario: "corridor", strategies: strategies.names(), seeds: [1], agents: 20, registry: strategies,
 * });
 * console.log(report.results.map((r) => `${r.strategy}: ${r.summary.collisions.mean} collisions`));
 * ```
 *
 * @module
 */
export * from "./schema.ts";
export * from "./load.ts";
export * from "./build.ts";
export * from "./resolve.ts";
export * from "./run.ts";
export * from "./compare.ts";
export * from "./builtin/mod.ts";
export * from "./scenario_map.ts";
export * from "./map_places.ts";
export {
  buildCityTraffic,
  CITY_TRAFFIC_DEFAULT_MAP,
  CITY_TRAFFIC_SCENARIOS,
  type CityTrafficOptions,
  type CityTrafficRun,
  type CityTrafficScenario,
  CROSSWALK_PRESETS,
  crosswalkCity,
  type CrosswalkPreset,
  loadCityTraffic,
} from "./city_traffic.ts";

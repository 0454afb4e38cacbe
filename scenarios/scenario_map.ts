/**
 * A scenario's `map` section made real: the map file read and cropped into a city model, its
 * walkable area meshed (see {@linkcode buildCityNavMesh}), and the scenario placed at the
 * map's anchor, with the map's extent as its bounds. Loaded maps are kept by file, box and
 * options, so that a viewer or a comparison building the same scenario again does not read
 * and mesh the city twice.
 *
 * @module
 */
import { dirname, isAbsolute, join } from "node:path";
import { resolveOptions } from "../core/options.ts";
import type { CityModel } from "../geo/city_model.ts";
import { loadCity } from "../geo/load_city.ts";
import { MapImportError } from "../geo/map_import_error.ts";
import { buildCityNavMesh, type CityNavigation } from "../navigation/city_navmesh.ts";
import { CITY_WALKABLE_OPTIONS, type CityWalkableOptions } from "../navigation/city_walkable.ts";
import { ScenarioError } from "./load.ts";
import type { MapSpec, ScenarioSpec } from "./schema.ts";

/** A loaded map: the city and its navigation. */
export interface ScenarioMap {
  /** The map file as read (the scenario's path resolved). */
  readonly path: string;
  /** The city model. */
  readonly city: CityModel;
  /** Its walkable area and navigation mesh. */
  readonly navigation: CityNavigation;
}

const _loaded = new Map<string, Promise<ScenarioMap>>();

/** Most maps kept loaded at once. */
const MAX_LOADED_MAPS = 4;

/**
 * The map file of a `map` section: an absolute path as given, a relative one from the folder of
 * the scenario file (`scenarioPath`), or from the working folder when the scenario is built in.
 */
export function mapPath(map: MapSpec, scenarioPath?: string): string {
  if (isAbsolute(map.osm) || scenarioPath === undefined) return map.osm;
  return join(dirname(scenarioPath), map.osm);
}

/**
 * Loads the city of a scenario's `map` section and meshes its walkable area; problems are
 * {@linkcode ScenarioError}s naming the field (`map.osm`, `map.bbox`, `map.walkable`).
 *
 * @param source the scenario's name in messages (its file, or `built-in scenario 'city'`)
 * @param scenarioPath the scenario file, whose folder relative map paths start from
 */
export function loadScenarioMap(
  map: MapSpec,
  source: string,
  scenarioPath?: string,
): Promise<ScenarioMap> {
  const path = mapPath(map, scenarioPath);
  let walkable: Partial<CityWalkableOptions>;
  try {
    walkable = resolveOptions("the walkable area", CITY_WALKABLE_OPTIONS, map.walkable ?? {});
  } catch (error) {
    return Promise.reject(
      new ScenarioError(
        source,
        "map.walkable",
        (error as Error).message.replace(/^Cannot create the walkable area as /, ""),
      ),
    );
  }
  const key = JSON.stringify([path, map.bbox ?? null, walkable, map.clearance ?? null]);
  let loading = _loaded.get(key);
  if (!loading) {
    loading = _load(path, map, walkable, source);
    if (_loaded.size >= MAX_LOADED_MAPS) _loaded.delete(_loaded.keys().next().value!);
    _loaded.set(key, loading);
    loading.catch(() => _loaded.delete(key));
  }
  return loading;
}

async function _load(
  path: string,
  map: MapSpec,
  walkable: Partial<CityWalkableOptions>,
  source: string,
): Promise<ScenarioMap> {
  let city: CityModel;
  try {
    city = await loadCity(path, { bbox: map.bbox ?? null });
  } catch (error) {
    if (error instanceof MapImportError) {
      throw new ScenarioError(source, map.bbox ? "map" : "map.osm", error.message);
    }
    throw error;
  }
  try {
    const navigation = buildCityNavMesh(city, {
      walkable,
      navmesh: map.clearance === undefined ? {} : { clearance: map.clearance },
    });
    return { path, city, navigation };
  } catch (error) {
    throw new ScenarioError(
      source,
      "map",
      `${path}: ${(error as Error).message.replace(/^Cannot build [^ ]+ [^ ]+ [^ ]+ of /, "")}`,
    );
  }
}

/**
 * The scenario placed on its map: anchored at the map's anchor, with the map's extent as
 * bounds unless the scenario gives its own.
 */
export function placeOnMap(spec: ScenarioSpec, map: ScenarioMap): ScenarioSpec {
  const { city } = map;
  return {
    ...spec,
    anchor: { lon: city.anchor.lon, lat: city.anchor.lat },
    bounds: spec.bounds ?? [...city.bounds],
  };
}

/**
 * Built-in scenarios of pedestrians among cars, with the `city-blocks` navigator:
 *
 * - `city-grid`: a seeded procedural grid city (F. Gennari, Procedural City, 3DWorld blog,
 *   2019), by default 6 × 6 blocks with 10,000 pedestrians walking from building to building
 *   and 2,000 cars driving between random lanes, a traffic light at every junction;
 * - `crosswalk`: the scene of "Crossing citizens: a simple simulation of pedestrian crossing"
 *   (project report): one street, two sidewalks, one crosswalk with a light on each side;
 *   capsule spawners along each sidewalk send their agents to a base destination on the far
 *   side plus a random offset along it, and an agent arriving there appears again near its spawn
 *   point. `preset` (light, average, crowded) sets the crowd size and the boxcast preset.
 *
 * - `city-traffic`: the same model on a city read from OpenStreetMap (by default the shipped
 *   extract of Helsinki's centre, `data/helsinki-centre/`): its blocks derived from the
 *   streets cars drive on ({@linkcode deriveCityBlocks}), its mapped crossings fitted from kerb
 *   to kerb, a light at every mapped signal, cars on every street that cuts the blocks, and
 *   pedestrians walking from building to building (default 2,000 pedestrians, 300 cars).
 *
 * All are built in code (they need a city model, lanes, lights and cars, which scenario files
 * do not describe); {@linkcode buildCityTraffic} returns the world ready to step, and
 * {@linkcode loadCityTraffic} reads the map of `city-traffic` first.
 *
 * @module
 */
import { World } from "../core/world.ts";
import type { Strategy } from "../core/strategy.ts";
import { Rng } from "../core/rng.ts";
import { pointsBounds } from "../core/geometry.ts";
import type { CityCrossing, CityModel } from "../geo/city_model.ts";
import { drivenStreet, withCityBlocks } from "../geo/city_blocks.ts";
import { loadCity } from "../geo/load_city.ts";
import type { MapReadProgress } from "../geo/map_read_options.ts";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import { CityTrafficMetrics } from "../metrics/city_traffic_metrics.ts";
import {
  CityBlockNavigator,
  type CityBlockNavigatorOptions,
} from "../navigation/city_block_navigator.ts";
import { CarSystem } from "../traffic/car_system.ts";
import { buildLaneNetwork } from "../traffic/lane_network.ts";
import { buildTrafficLights, type TrafficLights } from "../traffic/traffic_lights.ts";
import { CarTraffic } from "../traffic/world_traffic.ts";
import { strategies } from "../strategies/mod.ts";

/** Names of the built-in scenarios with cars. */
export const CITY_TRAFFIC_SCENARIOS = ["city-grid", "crosswalk", "city-traffic"] as const;

/** The map `city-traffic` reads unless told otherwise: the shipped extract of Helsinki's centre. */
export const CITY_TRAFFIC_DEFAULT_MAP: string = new URL(
  "../data/helsinki-centre/helsinki-centre.osm.pbf",
  import.meta.url,
).pathname;

/** A built-in scenario with cars. */
export type CityTrafficScenario = typeof CITY_TRAFFIC_SCENARIOS[number];

/** Crowd presets of `crosswalk`: agents and the boxcast scene preset. */
export const CROSSWALK_PRESETS = {
  light: { agents: 40, cars: 40 },
  average: { agents: 120, cars: 80 },
  crowded: { agents: 300, cars: 120 },
} as const;

/** A crowd preset of `crosswalk`. */
export type CrosswalkPreset = keyof typeof CROSSWALK_PRESETS;

/** How to build a scenario with cars. */
export interface CityTrafficOptions {
  /** Pedestrians. @default 10,000 (city-grid), the preset's (crosswalk) */
  agents?: number;
  /** Cars. @default 2,000 (city-grid), the preset's (crosswalk) */
  cars?: number;
  /** Seed of the city, the cars and the world. @default 1 */
  seed?: number;
  /** Strategy name. @default "orca" */
  strategy?: string;
  /** Strategy options. */
  strategyOptions?: Record<string, unknown>;
  /** Blocks along each axis (city-grid). @default 6 */
  blocks?: number;
  /** Crowd preset (crosswalk). @default "average" */
  preset?: CrosswalkPreset;
  /** Navigator options on top of the scenario's. */
  navigatorOptions?: Partial<CityBlockNavigatorOptions>;
  /** Time step (s). @default 0.05 */
  dt?: number;
  /** Whether the crosswalk has a light (crosswalk); without, pedestrians judge the cars. @default true */
  signalled?: boolean;
  /**
   * The city of `city-traffic`, as built from a map (its blocks are derived when it has none);
   * {@linkcode loadCityTraffic} reads it from `map`.
   */
  city?: CityModel;
  /** Map file of `city-traffic` (read by {@linkcode loadCityTraffic}). @default the shipped Helsinki extract */
  map?: string;
  /** Called as {@linkcode loadCityTraffic} reads the map: bytes done and in all. */
  onMapProgress?: MapReadProgress;
}

/** A built scenario with cars. */
export interface CityTrafficRun {
  /** Scenario name. */
  readonly name: CityTrafficScenario;
  /** The world (its traffic steps the cars). */
  readonly world: World;
  /** The city. */
  readonly city: CityModel;
  /** The cars. */
  readonly cars: CarSystem;
  /** The lights. */
  readonly lights: TrafficLights;
  /** The pedestrians' navigator. */
  readonly navigator: CityBlockNavigator;
  /** The metrics, already observing the world. */
  readonly metrics: CityTrafficMetrics;
  /** Strategy name. */
  readonly strategyName: string;
}

/**
 * Builds `city-grid` or `crosswalk`.
 *
 * @example A small city-grid
 * ```ts
 * import { buildCityTraffic } from "./city_traffic.ts";
 * import assert from "node:assert/strict";
 * const run = buildCityTraffic("city-grid", { blocks: 2, agents: 50, cars: 20, strategy: "repulsion" });
 * for (let k = 0; k < 20; k++) run.world.step();
 * assert.equal(run.world.agents.count, 50);
 * assert.equal(run.world.vehicles.count, 20);
 * ```
 */
export function buildCityTraffic(
  name: CityTrafficScenario,
  options: CityTrafficOptions = {},
): CityTrafficRun {
  if (name === "city-traffic") return _cityTraffic(options);
  return name === "city-grid" ? _cityGrid(options) : _crosswalk(options);
}

/** The city models read for `city-traffic`, by map path (blocks derived), so reruns skip it. */
const _mapCities = new Map<string, Promise<CityModel>>();

/**
 * Builds a scenario with cars as {@linkcode buildCityTraffic} does, first reading the map of
 * `city-traffic` (`options.map`, else the shipped extract) unless `options.city` is given. A
 * map read once is kept for later builds in the same process. Map problems are
 * {@linkcode MapImportError}s naming the file.
 */
export async function loadCityTraffic(
  name: CityTrafficScenario,
  options: CityTrafficOptions = {},
): Promise<CityTrafficRun> {
  if (name !== "city-traffic" || options.city) return buildCityTraffic(name, options);
  const path = options.map ?? CITY_TRAFFIC_DEFAULT_MAP;
  let city = _mapCities.get(path);
  if (!city) {
    city = loadCity(path, { onProgress: options.onMapProgress }).then((c) => withCityBlocks(c));
    _mapCities.set(path, city);
    city.catch(() => _mapCities.delete(path));
  }
  return buildCityTraffic(name, { ...options, city: await city });
}

function _strategy(options: CityTrafficOptions, extra: Record<string, unknown> = {}): Strategy {
  const name = options.strategy ?? "orca";
  const own = name === "boxcast" ? extra : {};
  return strategies.create(name, { ...own, ...(options.strategyOptions ?? {}) });
}

function _world(
  options: CityTrafficOptions,
  city: CityModel,
  carCount: number,
  navigatorOptions: Partial<CityBlockNavigatorOptions>,
  strategyExtra: Record<string, unknown> = {},
  roads: CityModel = city,
) {
  const seed = options.seed ?? 1;
  const lanes = buildLaneNetwork(roads);
  const lights = buildTrafficLights(lanes, city);
  const cars = new CarSystem(lanes, { lights, seed, capacity: Math.max(1, carCount) });
  cars.populate(carCount);
  const navigator = new CityBlockNavigator(city, {
    ...navigatorOptions,
    ...(options.navigatorOptions ?? {}),
  });
  const strategy = _strategy(options, strategyExtra);
  // Buildings and street furniture are obstacles to every strategy.
  const world = new World({
    strategy,
    navigator,
    seed,
    dt: options.dt ?? 0.05,
    traffic: new CarTraffic(cars),
    capacity: Math.max(16, options.agents ?? 16),
  });
  for (const b of city.buildings) world.obstacles.addPolygon(b.polygon[0]);
  for (const f of city.furniture) world.obstacles.addPolygon(f.polygon);
  const metrics = new CityTrafficMetrics(city, cars, navigator);
  world.addObserver(metrics);
  return { world, lights, cars, navigator, metrics, strategyName: strategy.name };
}

function _cityGrid(options: CityTrafficOptions): CityTrafficRun {
  const blocks = options.blocks ?? 6, seed = options.seed ?? 1;
  const agents = options.agents ?? 10_000, carCount = options.cars ?? 2_000;
  const city = generateProceduralCity({ seed, blocksX: blocks, blocksY: blocks });
  const built = _world(options, city, carCount, { destination: "building" });
  _placePedestrians(built.world, city, built.navigator, agents, seed, false);
  return { name: "city-grid", city, ...built };
}

/**
 * Places `agents` pedestrians anywhere in the free space of the blocks (with `builtOnly`, only
 * blocks with buildings, in the largest region joined by paths and crosswalks), a body apart from each other, each standing until its navigator gives it
 * a building to walk to.
 */
function _placePedestrians(
  world: World,
  city: CityModel,
  navigator: CityBlockNavigator,
  agents: number,
  seed: number,
  builtOnly: boolean,
): void {
  const net = navigator.network!;
  const rng = new Rng(seed, 7);
  const taken = new Set<number>();
  const cell = 0.7;
  const usable: number[] = [];
  const main = builtOnly ? net.largestRegion() : -1;
  for (let b = 0; b < net.blockCount; b++) {
    if (!builtOnly || (net.component[b] === 0 && city.blocks![b].buildings.length > 0)) {
      usable.push(b);
    }
  }
  if (usable.length === 0) return;
  let placed = 0;
  for (let tries = 0; placed < agents && tries < agents * 50; tries++) {
    const b = usable[rng.int(usable.length)];
    const ring = city.blocks![b].polygon[0];
    const [minX, minY, maxX, maxY] = pointsBounds(ring);
    const x = rng.range(minX, maxX), y = rng.range(minY, maxY);
    const key = Math.floor(x / cell) * 100_003 + Math.floor(y / cell);
    if (taken.has(key) || !net.graph(b).contains(x, y)) continue;
    if (builtOnly && net.regionAt(x, y) !== main) continue;
    taken.add(key);
    world.addAgent({
      x,
      y,
      goalX: x,
      goalY: y,
      radius: 0.25,
      desiredSpeed: Math.min(2, Math.max(0.8, rng.normal(1.34, 0.2))),
      maxSpeed: 2.6,
    });
    placed++;
  }
}

function _cityTraffic(options: CityTrafficOptions): CityTrafficRun {
  if (!options.city) {
    throw new TypeError(
      "Cannot build city-traffic as 'city' is missing: read its map with loadCityTraffic",
    );
  }
  const seed = options.seed ?? 1;
  const agents = options.agents ?? 2_000, carCount = options.cars ?? 300;
  const city = withCityBlocks(options.city);
  // Cars drive only on the streets that cut the blocks (not in tunnels, not shared streets).
  const roads: CityModel = {
    ...city,
    streets: {
      nodes: city.streets.nodes,
      edges: city.streets.edges.map((e) =>
        e.carriageway && !drivenStreet(e) ? { ...e, carriageway: false } : e
      ),
    },
  };
  const built = _world(options, city, carCount, { destination: "building" }, {}, roads);
  _placePedestrians(built.world, city, built.navigator, agents, seed, true);
  return { name: "city-traffic", city, ...built };
}

/** Geometry of the crosswalk scene (m). */
const STREET_HALF_WIDTH = 3.5;
const SIDEWALK_WIDTH = 4;
const STREET_HALF_LENGTH = 400;

/**
 * The crosswalk scene's city: a two-lane street along x through (0, 0), a sidewalk on each
 * side `halfLength` m either way of the crosswalk, and a signalled crosswalk at x = 0.
 */
export function crosswalkCity(halfLength: number, signalled = true): CityModel {
  const y0 = STREET_HALF_WIDTH, y1 = STREET_HALF_WIDTH + SIDEWALK_WIDTH, L = STREET_HALF_LENGTH;
  const nodes: [number, number][] = [[-L, 0], [0, 0], [L, 0]];
  const crossing: CityCrossing = {
    id: "gen/crosswalk/0",
    x: 0,
    y: 0,
    kind: signalled ? "traffic_signals" : "uncontrolled",
    signalled,
    points: [[0, -y0], [0, y0]],
    width: 4,
    edge: 1,
    node: 1,
  };
  const edge = (index: number, from: number, to: number) => ({
    index,
    wayId: `gen/street/${index}`,
    from,
    to,
    points: [nodes[from], nodes[to]] as [number, number][],
    length: L,
    highway: "residential",
    name: null,
    oneway: false,
    lanes: 2,
    width: 2 * STREET_HALF_WIDTH,
    widthSource: "lanes" as const,
    sidewalk: "both" as const,
    carriageway: true,
    walkable: false,
    steps: false,
    crossing: false,
  });
  const rect = (ya: number, yb: number): [number, number][] => [
    [-halfLength, ya],
    [halfLength, ya],
    [halfLength, yb],
    [-halfLength, yb],
  ];
  return {
    name: "crosswalk",
    anchor: { lon: 0, lat: 0 },
    bbox: null,
    bounds: [-L, -y1 - 2, L, y1 + 2],
    buildings: [],
    streets: {
      nodes: nodes.map(([x, y], index) => ({
        index,
        osmId: null,
        x,
        y,
        degree: index === 1 ? 2 : 1,
        junction: false,
        signal: signalled && index === 1,
        crossing: index === 1 ? (signalled ? "traffic_signals" : "uncontrolled") : null,
      })),
      edges: [edge(0, 0, 1), edge(1, 1, 2)],
    },
    sidewalks: [],
    pedestrianAreas: [],
    crossings: [crossing],
    signals: signalled
      ? [{ id: "gen/crosswalk/signal", x: 0, y: 0, node: 1, pedestrian: true }]
      : [],
    barriers: [],
    furniture: [],
    attractors: [],
    blocks: [
      { id: "gen/sidewalk/south", polygon: [rect(-y1, -y0)], buildings: [] },
      { id: "gen/sidewalk/north", polygon: [rect(y0, y1)], buildings: [] },
    ],
    source: { format: "procedural", path: null, attribution: null },
  } as unknown as CityModel;
}

function _crosswalk(options: CityTrafficOptions): CityTrafficRun {
  const preset = CROSSWALK_PRESETS[options.preset ?? "average"];
  const agents = options.agents ?? preset.agents, carCount = options.cars ?? preset.cars;
  // Spawn capsules along each sidewalk sized for about 1 person per 2 m² of capsule.
  const perSide = Math.ceil(agents / 2);
  const spawnHalf = Math.max(8, perSide * 2 / (2 * 2.4) / 2);
  const halfLength = spawnHalf + 15;
  const city = crosswalkCity(halfLength, options.signalled ?? true);
  const built = _world(options, city, carCount, { destination: "goal" }, {
    preset: options.preset ?? "average",
  });
  const mid = STREET_HALF_WIDTH + SIDEWALK_WIDTH / 2;
  const agent = {
    radius: { kind: "constant" as const, value: 0.25 },
    maxSpeedFactor: 1.9,
  };
  for (const [name, side] of [["south", -1], ["north", 1]] as const) {
    built.world.population.addSpawner({
      name,
      area: {
        kind: "capsule",
        ax: -spawnHalf,
        ay: side * mid,
        bx: spawnHalf,
        by: side * mid,
        radius: 1.2,
      },
      count: name === "south" ? perSide : agents - perSide,
      // The base destination straight across, with a random offset of up to 10 m along the
      // far sidewalk.
      goal: {
        kind: "area",
        area: { kind: "capsule", ax: -10, ay: -side * mid, bx: 10, by: -side * mid, radius: 0.5 },
      },
      onArrival: "respawn",
      agent,
    });
  }
  return { name: "crosswalk", city, ...built };
}

/**
 * The scenario file format as TypeScript types: what a scenario file holds once
 * {@linkcode ScenarioSchema} has validated it. Lengths are metres, times seconds, speeds m/s;
 * points are `[x, y]` in the scenario's local frame. `scenarios/schema.ts` checks at compile time
 * that these types and the schema agree.
 *
 * @module
 */

/** `[x, y]` (m) in the scenario's local frame. */
export type PointSpec = [number, number];

/**
 * An area: exactly one of `rect`, `circle`, `capsule`, `point`, `ring` (local metres), or, on a
 * scenario's `map`, one of its places: `street`, `building`, `near` (with `radius`).
 */
export interface AreaSpec {
  /** `[minX, minY, maxX, maxY]` (m). */
  rect?: [number, number, number, number];
  /** A disc: centre and radius (m). */
  circle?: { center: PointSpec; radius: number };
  /** A segment thickened by `radius` (m). */
  capsule?: { from: PointSpec; to: PointSpec; radius: number };
  /** One point. */
  point?: PointSpec;
  /** Places on a circle round `center` (ring spawners); `radius` (m) defaults to the spread. */
  ring?: { center: PointSpec; radius?: number };
  /** A street of the map by name: the walkable ground along it. */
  street?: string;
  /** `"random"` (a random building per agent, at its door), or a building's name or id. */
  building?: string;
  /** `[lon, lat]` (degrees): the walkable ground within `radius` of the point. */
  near?: [number, number];
  /** Radius of a `near` area (m). @default 20 */
  radius?: number;
}

/** A city map to run on (a scenario's `map` section). */
export interface MapSpec {
  /** The map file (`.osm.pbf`, `.osm`, `.json`, `.geojson`), relative to the scenario file. */
  osm: string;
  /** Crop box `[west, south, east, north]` (degrees). */
  bbox?: [number, number, number, number];
  /** Options of the walkable area (see `navigation/city_walkable.ts`). */
  walkable?: Record<string, unknown>;
  /** Erosion of the area paths use (m). */
  clearance?: number;
}

/** A per-agent value: a number, or a clamped normal, or a uniform distribution. */
export type DistributionSpec =
  | number
  | { normal: { mean: number; sd: number; min: number; max: number } }
  | { uniform: { min: number; max: number } };

/** Agent parameters (all optional; spawners may override any of them). */
export interface AgentParamsSpec {
  /** Body radius (m). */
  radius?: DistributionSpec;
  /** Unobstructed walking speed (m/s). */
  desiredSpeed?: DistributionSpec;
  /** Speed cap as a multiple of the desired speed. */
  maxSpeedFactor?: number;
  /** Acceleration cap (m/s²); omit for none. */
  maxAcceleration?: number;
  /** Values for strategy columns by column name. */
  columns?: Record<string, DistributionSpec>;
}

/** A spawner: where agents appear, how many, when, and where they go. */
export interface SpawnerSpec {
  /** Name used in reports. */
  name?: string;
  /** Where agents appear. */
  area: AreaSpec;
  /** How many agents. */
  count: number;
  /** Agents per second; 0 or absent emits all at `startTime`. */
  rate?: number;
  /** First emission (s). */
  startTime?: number;
  /** A goal name, an inline area, or "antipodal" (ring spawners). */
  goal: string | AreaSpec;
  /** What an agent does on arrival. */
  onArrival?: "remove" | "respawn" | "stay" | "next";
  /** Gates to cross on the way, in order: each a segment `[[x1, y1], [x2, y2]]` (m). */
  via?: [PointSpec, PointSpec][];
  /** Height of the spawn area (m) on multi-level meshes. */
  z?: number;
  /** Agent parameters for this spawner's agents. */
  agents?: AgentParamsSpec;
}

/** A wall: a polyline, or `{points, closed}`. */
export type WallSpec = PointSpec[] | { points: PointSpec[]; closed?: boolean };

/** A polygon with holes: the outer ring first, then the holes (m). */
export type PolygonRingsSpec = PointSpec[][];

/** A walkable surface of a navigation mesh: flat at `z` or sloped along `slope`. */
export interface SurfaceSpec {
  /** Name used in messages. */
  name?: string;
  /** Outline in plan (m): outer ring, then holes. */
  polygon: PolygonRingsSpec;
  /** Height of a flat surface (m). */
  z?: number;
  /** Linear ramp: height `zFrom` at `from` rising to `zTo` at `to` (m). */
  slope?: { from: PointSpec; to: PointSpec; zFrom: number; zTo: number };
  /** Step geometry of a staircase (m); needs `slope`. */
  stairs?: { treadDepth: number; riserHeight: number };
}

/** Navigation on a navigation mesh. */
export interface NavigationSpec {
  /** The mesh's walkable area and build options. */
  navmesh: {
    /** Walkable polygons with holes (m). */
    walkable?: PolygonRingsSpec[];
    /** Walkable surfaces, flat or sloped. */
    surfaces?: SurfaceSpec[];
    /** Erosion of the area paths use (m): the agent radius. */
    clearance?: number;
    /** Narrowest passage routes may use (m). */
    minWidth?: number;
    /** Keep every connected part of the walkable area, not only the largest. */
    keepAllComponents?: boolean;
    /** Largest height difference where surfaces connect (m). */
    maxStepHeight?: number;
  };
  /** Short form: options of the `navmesh` navigator. */
  navigator?: Record<string, unknown>;
}

/** A registered plugin (strategy or navigator) by name, with its options. */
export interface PluginChoiceSpec {
  /** Registry name. */
  name: string;
  /** Options of the plugin, checked by the plugin. */
  options?: Record<string, unknown>;
}

/** A whole scenario file. */
export interface ScenarioSpec {
  /** Scenario name. */
  name: string;
  /** Free text. */
  description?: string;
  /** Time step (s), at most 1. */
  dt?: number;
  /** Simulated time (s). */
  duration?: number;
  /** Seed of the run (unsigned 32-bit integer). */
  seed?: number;
  /** The side people keep to. */
  walkingSide?: "right" | "left";
  /** Distance to a goal that counts as arrived (m). */
  arrivalRadius?: number;
  /** Longitude and latitude of the local origin (degrees, WGS84). */
  anchor?: { lon: number; lat: number };
  /** `[minX, minY, maxX, maxY]` (m): the region shown by viewers. */
  bounds?: [number, number, number, number];
  /** Walls (polylines). */
  walls?: WallSpec[];
  /** Solid polygons. */
  obstacles?: PointSpec[][];
  /** Named goal areas. */
  goals?: Record<string, AreaSpec>;
  /** Agent parameters for every spawner. */
  agents?: AgentParamsSpec;
  /** Spawners: at least one. */
  spawners: SpawnerSpec[];
  /** The avoidance strategy by registry name. */
  strategy?: PluginChoiceSpec;
  /** The navigator by registry name. */
  navigator?: PluginChoiceSpec;
  /** Metrics options. */
  metrics?: {
    /** A named line whose crossings are counted. */
    throughputLine?: { name: string; from: PointSpec; to: PointSpec };
  };
  /** Plan routes on a navigation mesh instead of walking straight at goals. */
  navigation?: NavigationSpec;
  /** A city map to walk, with a navigation mesh over its walkable area. */
  map?: MapSpec;
}

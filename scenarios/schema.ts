/**
 * The scenario file format (JSON), as a zod schema.
 *
 * Lengths are metres, times seconds, speeds m/s, angles degrees where named `…Deg`. Points are
 * `[x, y]` in the scenario's local frame; `anchor` places its origin on the globe.
 *
 * ```jsonc
 * {
 *   "name": "corridor",
 *   "dt": 0.05, "duration": 60, "seed": 1, "walkingSide": "right",
 *   "anchor": { "lon": 24.9414, "lat": 60.1699 },
 *   "bounds": [-15, -1.8, 15, 1.8],
 *   "walls": [[[-15, -1.8], [15, -1.8]], { "points": [[-15, 1.8], [15, 1.8]] }],
 *   "obstacles": [[[-1, -0.3], [1, -0.3], [1, 0.3], [-1, 0.3]]],
 *   "goals": { "east": { "rect": [12, -1.5, 15, 1.5] } },
 *   "agents": { "radius": 0.25, "desiredSpeed": { "normal": { "mean": 1.34, "sd": 0.26, "min": 0.5, "max": 2 } } },
 *   "spawners": [{ "name": "west", "area": { "rect": [-15, -1.5, -10, 1.5] }, "count": 40, "goal": "east" }],
 *   "strategy": { "name": "none", "options": {} },
 *   "navigator": { "name": "goal-seeker", "options": { "slowingDistance": 0 } },
 *   "metrics": { "throughputLine": { "name": "middle", "from": [0, -1.8], "to": [0, 1.8] } }
 * }
 * ```
 *
 * The navigator is picked by registry name, like the strategy: `"navigator": {"name",
 * "options"}`. Without it, a scenario with a `navigation` section uses the `navmesh` navigator
 * (whose options may also be given in the short form `navigation.navigator`), and any other
 * scenario the `goal-seeker`. A navigator that needs a navigation mesh gets the one the
 * `navigation` section describes.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { MAX_COORDINATE_M } from "../core/geometry.ts";
import type {
  AgentParamsSpec,
  AreaSpec,
  DistributionSpec,
  MapSpec,
  NavigationSpec,
  PointSpec,
  PolygonRingsSpec,
  ScenarioSpec,
  SpawnerSpec,
  SurfaceSpec,
  WallSpec,
} from "./scenario_spec.ts";

export type {
  AgentParamsSpec,
  AreaSpec,
  DistributionSpec,
  MapSpec,
  NavigationSpec,
  PluginChoiceSpec,
  PointSpec,
  PolygonRingsSpec,
  ScenarioSpec,
  SpawnerSpec,
  SurfaceSpec,
  WallSpec,
} from "./scenario_spec.ts";

const finite = (): z.ZodNumber =>
  z.number().refine(Number.isFinite, { message: "must be a finite number" });
const positive = (): z.ZodNumber => finite().refine((v) => v > 0, { message: "must be > 0" });
const nonNegative = (): z.ZodNumber => finite().refine((v) => v >= 0, { message: "must be >= 0" });
/** A coordinate or length (m), within ±10,000 km of the origin (`anchor` places the origin). */
const coordinate = (): z.ZodNumber =>
  finite().refine((v) => Math.abs(v) <= MAX_COORDINATE_M, {
    message: `must be within ±${MAX_COORDINATE_M} m of the origin (use "anchor" to place it)`,
  });
/** A length (m) > 0 and at most {@linkcode MAX_COORDINATE_M}. */
const length = (): z.ZodNumber => coordinate().refine((v) => v > 0, { message: "must be > 0" });

/**
 * Most corners of one solid polygon in a scenario file: checking that an outline does not cross
 * itself stays well under a second up to here (building outlines have tens to hundreds).
 */
export const MAX_OBSTACLE_POINTS = 5000;

/** `[x, y]` in metres, each within ±{@linkcode MAX_COORDINATE_M}. */
export const PointSchema: z.ZodType<PointSpec> = z.tuple([coordinate(), coordinate()], {
  error: "expected a point [x, y] of two finite numbers (m)",
});

/** A polyline or polygon: at least two points. */
const PointList = z.array(PointSchema).min(2, { error: "expected at least 2 points" });

/** The kinds of area, one of which an area gives. */
const AREA_KINDS = [
  "rect",
  "circle",
  "capsule",
  "point",
  "ring",
  "street",
  "building",
  "near",
] as const;

/** A longitude/latitude pair `[lon, lat]` in degrees (WGS84). */
export const LonLatSchema: z.ZodType<[number, number]> = z.tuple([
  finite().refine((v) => v >= -180 && v <= 180, { message: "longitude must be in [-180, 180]" }),
  finite().refine((v) => v >= -90 && v <= 90, { message: "latitude must be in [-90, 90]" }),
], { error: "expected [lon, lat] in degrees" });

/**
 * An area: exactly one of `rect`, `circle`, `capsule`, `point`, `ring` (local metres), or, in a
 * scenario with a `map`, a place on the map: `{"street": "Name"}` (its sidewalks and walkable
 * ground), `{"building": "random"}` (a random building per agent, reached at its door or the
 * edge on the walkable side; or one building by `name` or id such as `"way/123"`), or
 * `{"near": [lon, lat], "radius": m}` (the walkable ground within `radius` of a point; default
 * 20 m).
 */
export const AreaSchema: z.ZodType<AreaSpec> = z.object({
  rect: z.tuple([coordinate(), coordinate(), coordinate(), coordinate()], {
    error: "expected [minX, minY, maxX, maxY] (m)",
  }).refine(([x0, y0, x1, y1]) => x0 < x1 && y0 < y1, {
    message: "must have minX < maxX and minY < maxY",
  }).optional(),
  circle: z.object({ center: PointSchema, radius: length() }).strict().optional(),
  capsule: z.object({ from: PointSchema, to: PointSchema, radius: length() }).strict().optional(),
  point: PointSchema.optional(),
  ring: z.object({ center: PointSchema, radius: length().optional() }).strict().optional(),
  street: z.string().min(1).optional(),
  building: z.string().min(1).optional(),
  near: LonLatSchema.optional(),
  /** Radius (m) of a `near` area. */
  radius: length().optional(),
}).strict().refine(
  (a) => AREA_KINDS.filter((k) => a[k] !== undefined).length === 1,
  {
    message:
      'must have exactly one of "rect", "circle", "capsule", "point", "ring", "street", "building", "near"',
  },
).refine((a) => a.radius === undefined || a.near !== undefined, {
  message: '"radius" belongs to a "near" area',
});

/** True when an area is a place on a map (`street`, `building` or `near`). */
export function isMapArea(area: AreaSpec): boolean {
  return area.street !== undefined || area.building !== undefined || area.near !== undefined;
}

/**
 * A city map to run on: an OpenStreetMap extract (`.osm.pbf`, `.osm`, Overpass `.json`) or
 * GeoJSON, cropped to `bbox`, with the options of its walkable area.
 */
export const MapSchema: z.ZodType<MapSpec> = z.object({
  /** The map file; a relative path is taken from the scenario file's folder. */
  osm: z.string().min(1),
  /** Crop box `[west, south, east, north]` (degrees). */
  bbox: z.tuple([finite(), finite(), finite(), finite()], {
    error: "expected [west, south, east, north] in degrees",
  }).refine(([w, s, e, n]) => w >= -180 && e <= 180 && s >= -90 && n <= 90, {
    message: "must lie within longitude ±180 and latitude ±90",
  }).refine(([w, s, e, n]) => w < e && s < n, {
    message: "must have west < east and south < north",
  }).optional(),
  /** Options of the walkable area (`edgeStripWidth`, `jaywalking`, `barrierThickness`, …). */
  walkable: z.record(z.string(), z.unknown()).optional(),
  /** Erosion of the area paths use (m): the agent radius. */
  clearance: nonNegative().optional(),
}).strict();

/** A per-agent value: a number, or `{normal: {mean, sd, min, max}}`, or `{uniform: {min, max}}`. */
export const DistributionSchema: z.ZodType<DistributionSpec> = z.union([
  finite(),
  z.object({
    normal: z.object({ mean: finite(), sd: nonNegative(), min: finite(), max: finite() }).strict()
      .refine((d) => d.min <= d.max, { message: "must have min <= max" }),
  }).strict(),
  z.object({
    uniform: z.object({ min: finite(), max: finite() }).strict()
      .refine((d) => d.min <= d.max, { message: "must have min <= max" }),
  }).strict(),
], {
  error:
    'expected a number, {"normal": {"mean", "sd", "min", "max"}} or {"uniform": {"min", "max"}}',
});

/** Agent parameters (all optional; spawners may override any of them). */
export const AgentParamsSchema: z.ZodType<AgentParamsSpec> = z.object({
  /** Body radius (m). */
  radius: DistributionSchema.optional(),
  /** Unobstructed walking speed (m/s). */
  desiredSpeed: DistributionSchema.optional(),
  /** Speed cap as a multiple of the desired speed. */
  maxSpeedFactor: finite().refine((v) => v >= 1, { message: "must be >= 1" }).optional(),
  /** Acceleration cap (m/s²); omit for none. */
  maxAcceleration: positive().optional(),
  /** Values for strategy columns by column name. */
  columns: z.record(z.string(), DistributionSchema).optional(),
}).strict();

/** A spawner. */
export const SpawnerSchema: z.ZodType<SpawnerSpec> = z.object({
  name: z.string().min(1).optional(),
  area: AreaSchema,
  count: z.number().int({ error: "must be an integer" }).min(0, { error: "must be >= 0" }),
  /** Agents per second; 0 or absent emits all at `startTime`. */
  rate: nonNegative().optional(),
  startTime: nonNegative().optional(),
  /** A goal name, an inline area, or "antipodal" (ring spawners). */
  goal: z.union([z.string().min(1), AreaSchema], {
    error: 'expected a goal name, an area, or "antipodal"',
  }),
  /** `next`: walk on to a new goal drawn from the spawner's goal (e.g. another building). */
  onArrival: z.enum(["remove", "respawn", "stay", "next"]).optional(),
  /** Gates to cross on the way, in order: each a segment [[x1, y1], [x2, y2]] such as a doorway. */
  via: z.array(
    z.tuple([PointSchema, PointSchema], { error: "expected a gate [[x1, y1], [x2, y2]]" }),
  )
    .optional(),
  z: coordinate().optional(),
  agents: AgentParamsSchema.optional(),
}).strict();

/** A wall: a polyline, or `{points, closed}`. */
export const WallSchema: z.ZodType<WallSpec> = z.union([
  PointList,
  z.object({ points: PointList, closed: z.boolean().optional() }).strict(),
], { error: 'expected a list of points [[x, y], …] or {"points": […], "closed": true}' });

/** A polygon with holes: the outer ring first, then the holes; rings of at least 3 points. */
export const PolygonRingsSchema: z.ZodType<PolygonRingsSpec> = z.array(
  z.array(PointSchema).min(3, { error: "expected a ring of at least 3 points" }),
).min(1, { error: "expected at least the outer ring" });

/** A walkable surface of a navigation mesh: flat at `z` or sloped along `slope`; stairs add steps. */
export const SurfaceSchema: z.ZodType<SurfaceSpec> = z.object({
  name: z.string().min(1).optional(),
  /** Outline in plan (m): outer ring, then holes. */
  polygon: PolygonRingsSchema,
  /** Height of a flat surface (m). */
  z: coordinate().optional(),
  /** Linear ramp: height `zFrom` at `from` rising to `zTo` at `to` (m). */
  slope: z.object({
    from: PointSchema,
    to: PointSchema,
    zFrom: coordinate(),
    zTo: coordinate(),
  }).strict()
    .optional(),
  /** Step geometry of a staircase (m); needs `slope`. */
  stairs: z.object({ treadDepth: positive(), riserHeight: positive() }).strict().optional(),
}).strict().refine((s) => (s.z === undefined) !== (s.slope === undefined), {
  message: 'must have exactly one of "z" (flat) or "slope" (sloped)',
}).refine((s) => !s.stairs || s.slope !== undefined, { message: '"stairs" needs a "slope"' });

/**
 * Navigation on a navigation mesh. The walkable area is `surfaces`, or `walkable` (one flat
 * surface at z = 0), or else the scenario's `bounds`; `obstacles` and `walls` are cut out of it,
 * and the mesh's merged border edges become the obstacles strategies see.
 */
export const NavigationSchema: z.ZodType<NavigationSpec> = z.object({
  navmesh: z.object({
    walkable: z.array(PolygonRingsSchema).optional(),
    surfaces: z.array(SurfaceSchema).min(1, { error: "expected at least one surface" }).optional(),
    /** Erosion of the area paths use (m): the agent radius. */
    clearance: nonNegative().optional(),
    /** Narrowest passage routes may use (m). */
    minWidth: nonNegative().optional(),
    keepAllComponents: z.boolean().optional(),
    /** Largest height difference where surfaces connect (m). */
    maxStepHeight: nonNegative().optional(),
  }).strict().refine((n) => !(n.walkable && n.surfaces), {
    message: 'give "walkable" or "surfaces", not both',
  }),
  /**
   * Short form: options of the `navmesh` navigator (see NAVMESH_NAVIGATOR_OPTIONS) when the
   * scenario has no top-level `navigator`.
   */
  navigator: z.record(z.string(), z.unknown()).optional(),
}).strict();

/** A registered plugin (strategy or navigator) by name, with its options. */
const PluginChoiceSchema = z.object({
  name: z.string().min(1),
  options: z.record(z.string(), z.unknown()).optional(),
}).strict();

/** A whole scenario file (the object, with its inferred type, checked against ScenarioSpec). */
const scenarioObject = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  /** Time step (s). */
  dt: positive().refine((v) => v <= 1, { message: "must be <= 1" }).optional(),
  /** Simulated time (s). */
  duration: positive().optional(),
  seed: nonNegative().refine(Number.isInteger, { message: "must be an integer" })
    .refine((v) => v <= 0xffff_ffff, { message: "must be <= 4294967295" }).optional(),
  walkingSide: z.enum(["right", "left"]).optional(),
  arrivalRadius: positive().optional(),
  /** Longitude and latitude of the local origin (degrees, WGS84). */
  anchor: z.object({
    lon: finite().refine((v) => v >= -180 && v <= 180, { message: "must be in [-180, 180]" }),
    lat: finite().refine((v) => v >= -85 && v <= 85, { message: "must be in [-85, 85]" }),
  }).strict().optional(),
  /** `[minX, minY, maxX, maxY]` (m): the region shown by viewers. */
  bounds: z.tuple([coordinate(), coordinate(), coordinate(), coordinate()], {
    error: "expected [minX, minY, maxX, maxY] (m)",
  }).refine(([x0, y0, x1, y1]) => x0 < x1 && y0 < y1, {
    message: "must have minX < maxX and minY < maxY",
  }).optional(),
  walls: z.array(WallSchema).optional(),
  /** Solid polygons. */
  obstacles: z.array(
    z.array(PointSchema).min(3, { error: "expected at least 3 points" })
      .max(MAX_OBSTACLE_POINTS),
  ).optional(),
  goals: z.record(z.string(), AreaSchema).optional(),
  agents: AgentParamsSchema.optional(),
  spawners: z.array(SpawnerSchema).min(1, { error: "expected at least one spawner" }),
  strategy: PluginChoiceSchema.optional(),
  /**
   * The navigator by registry name, with options. Default: `navmesh` with a `navigation`
   * section, else `goal-seeker`.
   */
  navigator: PluginChoiceSchema.optional(),
  metrics: z.object({
    throughputLine: z.object({ name: z.string().min(1), from: PointSchema, to: PointSchema })
      .strict()
      .refine((l) => l.from[0] !== l.to[0] || l.from[1] !== l.to[1], {
        message: 'must have distinct ends "from" and "to"',
      })
      .optional(),
  }).strict().optional(),
  /** Plan routes on a navigation mesh instead of walking straight at goals. */
  navigation: NavigationSchema.optional(),
  /**
   * A city map: the scenario walks its walkable area, with a navigation mesh over it; the map
   * sets the anchor, and areas may name its places.
   */
  map: MapSchema.optional(),
}).strict();

/** A whole scenario file. */
export const ScenarioSchema: z.ZodType<ScenarioSpec> = scenarioObject.refine(
  (s) => !(s.map && s.navigation),
  { message: 'give "map" or "navigation", not both (a map brings its own navigation mesh)' },
);

/** True when A and B are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The hand-written ScenarioSpec and the schema's own type must agree, field for field: a field
// added to one and not the other fails the type check here.
const specMatchesSchema: Same<z.output<typeof scenarioObject>, ScenarioSpec> = true;
const specHasSchemaFields: Same<keyof z.output<typeof scenarioObject>, keyof ScenarioSpec> = true;
void specHasSchemaFields;
void specMatchesSchema;

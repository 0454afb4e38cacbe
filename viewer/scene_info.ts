/**
 * The static scene the page draws under the agents (anchor, framing bounds, obstacles, walls),
 * from a built scenario or from a recording's header.
 *
 * @module
 */
import type { World } from "../core/world.ts";
import type { TrajectoryHeader } from "../recording/trajectory.ts";
import type { ScenarioSpec } from "../scenarios/schema.ts";
import type { CityModel } from "../geo/city_model.ts";
import type { NavMesh } from "../navigation/navmesh.ts";
import { citySceneLayers } from "./city_scene.ts";
import type { MetrePoint, SceneInfo } from "./frame_protocol.ts";

/** Margin (m) around the crowd framed at the start of a scene on a city. */
const CROWD_MARGIN = 15;

/**
 * Where a scenario without an `anchor` is placed on the map: Senate Square (Senaatintori),
 * Helsinki, a large open public square (WGS84 degrees).
 */
export const DEFAULT_ANCHOR: Readonly<{ lon: number; lat: number }> = {
  lon: 24.9525,
  lat: 60.1693,
};

/** Half-size (m) of the framing box when a scene has no geometry and no agents. */
const EMPTY_SCENE_HALF_SIZE = 10;

/**
 * The scene of a built scenario: its anchor (or {@linkcode DEFAULT_ANCHOR}), its `bounds` (or
 * the box around the geometry and the agents), and the world's obstacles. With a `city` (a
 * scenario on a map), the scene carries the city's layers (and its navigation mesh) and frames
 * the crowd.
 *
 * @example A built-in scenario has no anchor: the default square is used
 * ```ts
 * import { sceneFromWorld, DEFAULT_ANCHOR } from "./scene_info.ts";
 * import { buildScenario } from "../scenarios/build.ts";
 * import { BUILTIN_SCENARIOS } from "../scenarios/builtin/mod.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const built = buildScenario(BUILTIN_SCENARIOS.corridor.create(20), { registry: strategies });
 * const scene = sceneFromWorld(built.world, built.spec);
 * assert.equal(scene.defaultAnchor, true);
 * assert.deepEqual(scene.anchor, DEFAULT_ANCHOR);
 * assert.ok(scene.walls.length > 0);
 * ```
 */
export function sceneFromWorld(
  world: World,
  spec: ScenarioSpec,
  city?: { city: CityModel; mesh?: NavMesh },
): SceneInfo {
  const polygons = world.obstacles.polygons.map((p) => p.map(([x, y]): MetrePoint => [x, y]));
  const walls = world.obstacles.walls.map((w) => {
    const points = w.points.map(([x, y]): MetrePoint => [x, y]);
    if (w.closed && points.length > 0) points.push([points[0][0], points[0][1]]);
    return points;
  });
  const a = world.agents;
  // On a city, the camera frames the crowd (the city's buildings and streets are its own layers).
  const crowd = city && a.count > 0
    ? _boundsOf([], a.px.subarray(0, a.count), a.py.subarray(0, a.count))
    : null;
  const bounds = crowd
    ? {
      minX: crowd.minX - CROWD_MARGIN,
      minY: crowd.minY - CROWD_MARGIN,
      maxX: crowd.maxX + CROWD_MARGIN,
      maxY: crowd.maxY + CROWD_MARGIN,
    }
    : spec.bounds
    ? { minX: spec.bounds[0], minY: spec.bounds[1], maxX: spec.bounds[2], maxY: spec.bounds[3] }
    : _boundsOf([...polygons, ...walls], a.px.subarray(0, a.count), a.py.subarray(0, a.count));
  return {
    name: spec.name,
    anchor: spec.anchor ? { lon: spec.anchor.lon, lat: spec.anchor.lat } : { ...DEFAULT_ANCHOR },
    defaultAnchor: !spec.anchor,
    bounds,
    polygons,
    polygonHeights: polygons.map(() => null),
    walls,
    ...(city ? { city: citySceneLayers(city.city, city.mesh) } : {}),
  };
}

/**
 * The scene of a recording, from its header (anchor, bounds, polygons, walls); the bounds fall
 * back to the box around the geometry and the first frame's agents.
 *
 * @example
 * ```ts
 * import { sceneFromHeader } from "./scene_info.ts";
 * import { createTrajectoryHeader } from "../recording/trajectory.ts";
 * import assert from "node:assert/strict";
 * const header = createTrajectoryHeader({ frameRate: 20, scenario: "hall", walls: [[[0, 0], [8, 0]]] });
 * const scene = sceneFromHeader(header, Float32Array.of(4), Float32Array.of(3));
 * assert.equal(scene.name, "hall");
 * assert.deepEqual(scene.bounds, { minX: 0, minY: 0, maxX: 8, maxY: 3 });
 * ```
 */
export function sceneFromHeader(
  header: TrajectoryHeader,
  x: ArrayLike<number>,
  y: ArrayLike<number>,
): SceneInfo {
  const polygons = header.polygons.map((p) => p.map(([px, py]): MetrePoint => [px, py]));
  const walls = header.walls.map((w) => w.map(([px, py]): MetrePoint => [px, py]));
  const heights = header.meta?.polygonHeights;
  return {
    name: header.scenario ?? "recording",
    anchor: header.anchor ? { ...header.anchor } : { ...DEFAULT_ANCHOR },
    defaultAnchor: !header.anchor,
    bounds: header.bounds ? { ...header.bounds } : _boundsOf([...polygons, ...walls], x, y),
    polygons,
    polygonHeights: polygons.map((_, i) => {
      const h = Array.isArray(heights) ? heights[i] : null;
      return typeof h === "number" && h > 0 ? h : null;
    }),
    walls,
  };
}

function _boundsOf(
  shapes: MetrePoint[][],
  x: ArrayLike<number>,
  y: ArrayLike<number>,
): SceneInfo["bounds"] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const add = (px: number, py: number) => {
    if (!Number.isFinite(px) || !Number.isFinite(py)) return;
    minX = Math.min(minX, px);
    maxX = Math.max(maxX, px);
    minY = Math.min(minY, py);
    maxY = Math.max(maxY, py);
  };
  for (const shape of shapes) for (const [px, py] of shape) add(px, py);
  for (let i = 0; i < x.length; i++) add(x[i], y[i]);
  if (!(minX <= maxX)) {
    const h = EMPTY_SCENE_HALF_SIZE;
    return { minX: -h, minY: -h, maxX: h, maxY: h };
  }
  return { minX, minY, maxX, maxY };
}

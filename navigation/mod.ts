/**
 * Navigation: where agents want to go. Navigators write preferred velocities, the seam to the
 * avoidance strategies.
 *
 * Two navigators: the goal seeker walks straight at goals (through a spawner's gates), the
 * navmesh navigator plans on a navigation mesh — built from a walkable area of polygons with
 * holes, on one or more surfaces joined by stairs — and follows the plan.
 *
 * @example A navigation mesh and a navigator planning on it
 * ```ts
 * import { buildNavMesh, createGoalSeeker, createNavMeshNavigator } from "./mod.ts";
 * import assert from "node:assert/strict";
 * const seeker = createGoalSeeker({ slowingDistance: 1 });
 * const mesh = buildNavMesh({ walkable: [[[[0, 0], [20, 0], [20, 10], [0, 10]]]] });
 * const navigator = createNavMeshNavigator(mesh, { minWidth: 1.1 });
 * assert.equal(navigator.name, "navmesh");
 * assert.equal(seeker.name, "goal-seeker");
 * ```
 *
 * @module
 */
export { createGoalSeeker, GOAL_SEEKER_OPTIONS, type GoalSeekerOptions } from "./goal_seeker.ts";
export {
  type BorderChain,
  type BorderEdgeOptions,
  type BorderEdges,
  extractBorderEdges,
} from "./border_edges.ts";
export {
  buildCityNavMesh,
  type CityNavigation,
  type CityNavMeshOptions,
  type UnreachableNode,
  type UnreachableReason,
} from "./city_navmesh.ts";
export {
  buildCityWalkableArea,
  CITY_WALKABLE_OPTIONS,
  type CityStairs,
  type CityWalkableArea,
  type CityWalkableOptions,
} from "./city_walkable.ts";
export { stringPull } from "./funnel.ts";
export { NavMesh, type NavMeshData } from "./navmesh.ts";
export {
  buildNavMesh,
  NAVMESH_OPTIONS,
  type NavMeshInput,
  type NavMeshOptions,
} from "./navmesh_builder.ts";
export {
  createNavMeshNavigator,
  NavAgentStatus,
  NAVMESH_NAVIGATOR_OPTIONS,
  NAVMESH_OUTSIDE_COLUMN,
  NAVMESH_RETRY_COLUMN,
  NAVMESH_STATUS_COLUMN,
  NAVMESH_STUCK_COLUMN,
  NAVMESH_SURFACE_COLUMN,
  NAVMESH_TARGET_X_COLUMN,
  NAVMESH_TARGET_Y_COLUMN,
  NAVMESH_TRIANGLE_COLUMN,
  type NavMeshNavigator,
  type NavMeshNavigatorOptions,
} from "./navmesh_navigator.ts";
export {
  NavMeshQuery,
  NavPath,
  PATH_QUERY_OPTIONS,
  type PathQueryOptions,
  type PathReason,
  type PathStatus,
} from "./path_query.ts";
export {
  stairSpeedFactor,
  WEIDMANN_FLAT_SPEED,
  WEIDMANN_VERTICAL_SPEED_DOWN,
  WEIDMANN_VERTICAL_SPEED_UP,
} from "./stair_speed.ts";
export {
  HeightGrid,
  type HeightGridInput,
  type SlopeInput,
  type StairsInput,
  Surface,
  type SurfaceInput,
} from "./surface.ts";
export { triangulatePieces, type Triangulation, type TriangulationPiece } from "./triangulation.ts";
export {
  type CleanAreaOptions,
  cleanWalkableArea,
  type ErodeOptions,
  erodeWalkableArea,
  intersectAreas,
  polygonsArea,
  type PolygonWithHoles,
  type Polyline,
  type Ring,
  ringArea,
  subtractAreas,
  unionAreas,
} from "./walkable_area.ts";

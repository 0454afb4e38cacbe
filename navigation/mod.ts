/**
 * Navigation: where agents want to go. Navigators write preferred velocities, the seam to the
 * avoidance strategies.
 *
 * Two navigators are registered in {@linkcode navigators}: the goal seeker walks straight at
 * goals (through a spawner's gates), the navmesh navigator plans on a navigation mesh — built
 * from a walkable area of polygons with holes, on one or more surfaces joined by stairs — and
 * follows the plan. A script adds its own with `navigators.register(factory)`; scenario files
 * then pick it by name (`"navigator": {"name": …, "options": …}`).
 *
 * @example Create a navigator by name, with the world data it needs
 * ```ts
 * import { buildNavMesh, navigators } from "./mod.ts";
 * import assert from "node:assert/strict";
 * const navMesh = buildNavMesh({ walkable: [[[[0, 0], [20, 0], [20, 10], [0, 10]]]] });
 * const navigator = navigators.create("navmesh", { maxQueriesPerStep: 16 }, { navMesh });
 * assert.equal(navigator.name, "navmesh");
 * assert.throws(() => navigators.create("navmesh"), /needs a navigation mesh/);
 * ```
 *
 * Viewshed affordance (D. Michael and Y. Chrysanthou, Automatic high level avatar guidance based
 * on affordance of movement, Eurographics 2003): exact viewsheds among building footprints
 * ({@linkcode ViewshedSweep}), the share of each junction's viewshed towards each street with the
 * attractors seen there ({@linkcode JunctionAffordance}), the guidance map of building, junction
 * and road cells ({@linkcode GuidanceMap}), and the visual field of walkers on open squares
 * ({@linkcode VisualField}).
 *
 * For cities: block routing over crosswalks with exact in-block paths on a visibility graph
 * ({@linkcode BlockNetwork}), and the decisions at a street — the crossing decision tree at a
 * signalled crosswalk ({@linkcode CrossingDecisionTree}) and the car-threat test where there is
 * no light ({@linkcode UnsignalledCrossing}).
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
import { goalSeekerNavigator } from "./goal_seeker.ts";
import { cityBlockNavigator } from "./city_block_navigator.ts";
import { NavigatorRegistry } from "./navigator_registry.ts";
import { navMeshNavigator } from "./navmesh_navigator.ts";
import { exitChoiceNavigator } from "./exit_choice.ts";
import {
  affordanceNavigator,
  attractorsNavigator,
  randomWalkNavigator,
  shortestPathNavigator,
  tripsNavigator,
} from "./street_navigators.ts";

export {
  createGoalSeeker,
  GOAL_SEEKER_OPTIONS,
  GoalSeeker,
  goalSeekerNavigator,
  type GoalSeekerOptions,
} from "./goal_seeker.ts";
export {
  HEURISTIC_WEIGHT_OPTION,
  MIN_WIDTH_OPTION,
  SLOWING_DISTANCE_OPTION,
} from "./navigation_options.ts";
export {
  NAVIGATOR_RESOURCE_NAMES,
  type NavigatorFactory,
  type NavigatorResourceName,
  type NavigatorResources,
} from "./navigator_factory.ts";
export {
  missingResources,
  NavigatorRegistry,
  UnknownNavigatorError,
} from "./navigator_registry.ts";
export {
  BLOCK_NETWORK_OPTIONS,
  BlockNetwork,
  type BlockNetworkOptions,
  BlockRoute,
  type BlockRouteOptions,
  type BlockRouteStatus,
} from "./block_network.ts";
export {
  type CheckpointOptions,
  CROSSING_ACTION_NAMES,
  CROSSING_DECISION_OPTIONS,
  CrossingAction,
  crossingCheckpoints,
  CrossingDecision,
  type CrossingDecisionOptions,
  CrossingDecisionTree,
  type CrossingSituation,
  type CrossingTrip,
  type CrosswalkShape,
} from "./crossing_decision.ts";
export {
  type ApproachingCars,
  CrossingAssessment,
  type CrossingGeometry,
  UNSIGNALLED_CROSSING_OPTIONS,
  UnsignalledCrossing,
  type UnsignalledCrossingOptions,
} from "./crossing_prediction.ts";
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
export { type FunnelRequest, stringPull } from "./funnel.ts";
export {
  GUIDANCE_MAP_OPTIONS,
  GuidanceCell,
  GuidanceMap,
  type GuidanceMapOptions,
} from "./guidance_map.ts";
export {
  JUNCTION_AFFORDANCE_OPTIONS,
  JunctionAffordance,
  type JunctionAffordanceOptions,
  type ObstacleChange,
} from "./junction_affordance.ts";
export { type ObstaclePolygon, ObstacleSet, type ObstacleSetOptions } from "./obstacle_set.ts";
export { streetBarrier, type StreetBarrierOptions } from "./street_barrier.ts";
export { OpenSquares } from "./open_squares.ts";
export { StreetGuidance, type StreetGuidanceOptions } from "./street_guidance.ts";
export { AttractorGuidance, type AttractorGuidanceOptions } from "./attractor_guidance.ts";
export {
  type AttractorSummary,
  attractorSummary,
  attractorWeight,
  type AttractorWeightOptions,
  attractorWeights,
  DEFAULT_ATTRACTOR_WEIGHTS,
  DEFAULT_FLOOR_AREA_WEIGHT_PER_M2,
  isTransportAttractor,
  parseAttractorWeights,
} from "./attractor_weights.ts";
export {
  STREET_LANES_OPTIONS,
  StreetLanes,
  type StreetLanesOptions,
  type StreetSpot,
} from "./street_lanes.ts";
export {
  AFFORDANCE_NAVIGATOR_OPTIONS,
  affordanceNavigator,
  ATTRACTORS_NAVIGATOR_OPTIONS,
  attractorsNavigator,
  createStreetWalker,
  RANDOM_WALK_NAVIGATOR_OPTIONS,
  randomWalkNavigator,
  SHORTEST_PATH_NAVIGATOR_OPTIONS,
  shortestPathNavigator,
  TRIPS_NAVIGATOR_OPTIONS,
  tripsNavigator,
} from "./street_navigators.ts";
export { StreetRoutes, type StreetSlots } from "./street_routes.ts";
export {
  STREET_COLUMNS,
  STREET_WALKER_OPTIONS,
  type StreetChoiceRule,
  streetGuidanceOptions,
  StreetWalker,
  type StreetWalkerOptions,
} from "./street_walker.ts";
export {
  Viewshed,
  VIEWSHED_BOUNDS_OWNER,
  VIEWSHED_RANGE_OWNER,
  type ViewshedWedges,
} from "./viewshed.ts";
export {
  computeViewshed,
  VIEWSHED_OPTIONS,
  type ViewshedOptions,
  ViewshedSweep,
} from "./viewshed_sweep.ts";
export { VISUAL_FIELD_OPTIONS, VisualField, type VisualFieldOptions } from "./visual_field.ts";
export { NavMesh, type NavMeshData } from "./navmesh.ts";
export {
  buildNavMesh,
  NAVMESH_OPTIONS,
  type NavMeshInput,
  type NavMeshOptions,
} from "./navmesh_builder.ts";
export { laneShare, segmentOnMesh, spreadCorner } from "./corner_spread.ts";
export {
  EXIT_CHOICE_COLUMN,
  EXIT_CHOICE_OPTIONS,
  ExitChoiceNavigator,
  exitChoiceNavigator,
  type ExitChoiceOptions,
  type ExitRect,
  VIA_CHOICE_COLUMN,
} from "./exit_choice.ts";
export {
  createNavMeshNavigator,
  NavAgentStatus,
  NAVMESH_CORNER_COLUMN,
  NAVMESH_NAVIGATOR_OPTIONS,
  NAVMESH_OUTSIDE_COLUMN,
  NAVMESH_RETRY_COLUMN,
  NAVMESH_SPREAD_COLUMN,
  NAVMESH_STATUS_COLUMN,
  NAVMESH_STUCK_COLUMN,
  NAVMESH_SURFACE_COLUMN,
  NAVMESH_TARGET_X_COLUMN,
  NAVMESH_TARGET_Y_COLUMN,
  NAVMESH_TRIANGLE_COLUMN,
  NavMeshNavigator,
  navMeshNavigator,
  type NavMeshNavigatorOptions,
} from "./navmesh_navigator.ts";
export {
  NavMeshQuery,
  NavPath,
  PATH_QUERY_OPTIONS,
  type PathQueryOptions,
  type PathReason,
  type PathStatus,
  turningVertices,
} from "./path_query.ts";
export {
  type DistanceFieldFn,
  LANDMARK_FIELD_NODES_PER_TRIANGLE,
  LANDMARK_MIN_TRIANGLES,
  type PathLandmarks,
  selectLandmarks,
} from "./path_landmarks.ts";
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
export { VisibilityGraph, VisibilityPath, type VisibilityStatus } from "./visibility_graph.ts";
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

/** The default registry, holding every built-in navigator. */
export const navigators: NavigatorRegistry = new NavigatorRegistry();

navigators.register(goalSeekerNavigator);
navigators.register(navMeshNavigator);
navigators.register(exitChoiceNavigator);
navigators.register(affordanceNavigator);
navigators.register(randomWalkNavigator);
navigators.register(shortestPathNavigator);
navigators.register(attractorsNavigator);
navigators.register(tripsNavigator);
navigators.register(cityBlockNavigator);
export {
  CITY_BLOCK_NAVIGATOR_OPTIONS,
  CITY_COLUMNS,
  CITY_STATE_NAMES,
  CityBlockNavigator,
  cityBlockNavigator,
  type CityBlockNavigatorOptions,
  type CityNavigationStats,
} from "./city_block_navigator.ts";

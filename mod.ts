/**
 * throng: crowd simulation for Deno.
 *
 * Agents live in typed-array columns of a {@linkcode World}; a navigator writes where each agent
 * wants to go (its preferred velocity), an avoidance {@linkcode Strategy} turns that into a safe
 * velocity, and the world integrates in fixed steps. Every run is reproducible from its seed.
 *
 * This module is the front door: the world, the plugin interfaces, the built-in strategies and
 * navigators, scenarios, metrics, recordings and geography. The rest of each area has its own
 * entry point (`deno.json` `exports`): `./core` (spatial indices, geometry, areas and
 * distributions for plugin writers), `./strategies` (strategy factories and option tables),
 * `./steering` (steering behaviours for priority steering), `./navigation` (navigation meshes,
 * walkable areas, path queries), `./scenarios` (the scenario schema), `./metrics`, `./recording`
 * (the trajectory formats), `./geo`, `./plots` (SVG pictures) and `./viewer` (the browser viewer).
 *
 * @example Compose a world and a strategy in a script
 * ```ts
 * import { createGoalSeeker, MetricsCollector, strategies, World } from "./mod.ts";
 *
 * const world = new World({
 *   strategy: strategies.create("none"),
 *   navigator: createGoalSeeker(),
 *   seed: 42,
 * });
 * world.obstacles.addWall([[-10, -2], [10, -2]]);
 * world.population.addSpawner({
 *   name: "west",
 *   area: { kind: "rect", minX: -10, minY: -1.5, maxX: -6, maxY: 1.5 },
 *   count: 20,
 *   goal: { kind: "area", area: { kind: "rect", minX: 8, minY: -1.5, maxX: 10, maxY: 1.5 } },
 * });
 * const metrics = new MetricsCollector();
 * world.addObserver(metrics);
 * while (!world.finished && world.time < 60) world.step();
 * console.log(metrics.result().meanTimeToGoal);
 * ```
 *
 * @module
 */
export {
  AgentFlags,
  type AgentHandle,
  type AgentInit,
  type AgentSnapshot,
  AgentStore,
  type AgentTemplate,
  type Area,
  type ArrivalPolicy,
  type BooleanOption,
  type ColumnArray,
  type ColumnSpec,
  type ColumnType,
  describeOptions,
  type Distribution,
  type EnumOption,
  type Gate,
  type GoalSpec,
  MAX_SEED,
  type NavigationContext,
  type Navigator,
  NeighbourQuery,
  NonFiniteVelocityError,
  type NumberOption,
  type ObjectOption,
  type OptionSpec,
  type OptionSpecs,
  type PhaseName,
  PHASES,
  type Point,
  Population,
  resolveOptions,
  Rng,
  type SpawnerConfig,
  StaticObstacles,
  type StepContext,
  type StepEvents,
  type Strategy,
  type StrategyFactory,
  StrategyRegistry,
  UnknownStrategyError,
  type WalkingSide,
  WEIDMANN_GAMMA,
  WEIDMANN_JAM_DENSITY,
  weidmannSpeedShare,
  World,
  type WorldObserver,
  type WorldOptions,
} from "./core/mod.ts";
export {
  type BoxcastOptions,
  composeBehaviours,
  createBoxcastStrategy,
  createNoneStrategy,
  createOrcaStrategy,
  createPriorityStrategy,
  createRaycastClusterStrategy,
  createRepulsionStrategy,
  createSocialForceStrategy,
  type NoneOptions,
  type OrcaOptions,
  type PrioritySteeringOptions,
  type RaycastClusterOptions,
  type RepulsionOptions,
  type SocialForceOptions,
  strategies,
} from "./strategies/mod.ts";
export {
  buildNavMesh,
  createGoalSeeker,
  createNavMeshNavigator,
  type GoalSeekerOptions,
  type NavigatorFactory,
  type NavigatorResources,
  navigators,
  NavMesh,
  type NavMeshInput,
  type NavMeshNavigator,
  type NavMeshNavigatorOptions,
  type NavMeshOptions,
  NavMeshQuery,
  NavPath,
  type PathReason,
  type PathStatus,
} from "./navigation/mod.ts";
export {
  buildScenario,
  type BuildScenarioOptions,
  BUILTIN_SCENARIOS,
  type BuiltinScenario,
  type BuiltScenario,
  type CompareOptions,
  type CompareReport,
  type CompareRun,
  compareStrategies,
  loadScenarioFile,
  parseScenario,
  type ResolvedScenario,
  resolveScenario,
  type RunOutcome,
  runScenario,
  type RunScenarioOptions,
  ScenarioError,
  type ScenarioSpec,
} from "./scenarios/mod.ts";
export {
  formatCsv,
  formatMetricsTable,
  METRIC_DOCS,
  METRIC_NAMES,
  METRIC_UNITS,
  type MetricName,
  MetricsCollector,
  type MetricsCollectorOptions,
  type MetricsTableOptions,
  type MetricSummary,
  type RunMetrics,
  type RunSummary,
  summarizeRuns,
} from "./metrics/mod.ts";
export {
  type AgentTrack,
  groupByAgent,
  readTrajectory,
  type ReadTrajectoryOptions,
  type TrajectoryData,
  TrajectoryFileError,
  type TrajectoryFormat,
  type TrajectoryFrame,
  type TrajectoryHeader,
  TrajectoryRecorder,
  type TrajectoryRecorderOptions,
} from "./recording/mod.ts";
export { LocalProjection, type LonLat } from "./geo/mod.ts";

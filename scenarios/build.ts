/**
 * Turning a validated scenario into a ready {@linkcode World}: geometry, spawners, strategy and
 * navigator, with every reference (goal names, strategy and navigator names and options,
 * strategy columns, world data a navigator needs) checked and reported with its field path.
 *
 * @module
 */
import type { Area } from "../core/area.ts";
import type { Distribution } from "../core/distribution.ts";
import { distributionMax } from "../core/distribution.ts";
import type { Navigator } from "../core/navigator.ts";
import type { AgentTemplate, GoalSpec } from "../core/population.ts";
import { DEFAULT_AGENT_TEMPLATE } from "../core/population.ts";
import type { StrategyRegistry } from "../core/registry.ts";
import type { Strategy } from "../core/strategy.ts";
import { World } from "../core/world.ts";
import { navigators as builtinNavigators } from "../navigation/mod.ts";
import {
  NAVIGATOR_RESOURCE_NAMES,
  type NavigatorResourceName,
  type NavigatorResources,
} from "../navigation/navigator_factory.ts";
import { missingResources, type NavigatorRegistry } from "../navigation/navigator_registry.ts";
import type { NavMesh } from "../navigation/navmesh.ts";
import { buildNavMesh } from "../navigation/navmesh_builder.ts";
import { ScenarioError } from "./load.ts";
import type {
  AgentParamsSpec,
  AreaSpec,
  DistributionSpec,
  ScenarioSpec,
  SpawnerSpec,
} from "./schema.ts";
import { estimateRunBytes, formatBytes, memoryBudgetBytes } from "./memory_estimate.ts";
import { checkPlacement } from "./placement_checks.ts";
import { MapPlaces } from "./map_places.ts";
import { type AgentStore, columnLimits } from "../core/agent_store.ts";

/** Default simulated time when a scenario gives no `duration` (s). */
export const DEFAULT_DURATION = 300;

/** Spacing of ring spawners without a radius: circumference per agent, in body diameters. */
export const RING_DIAMETERS_PER_AGENT = 2.5;

/**
 * Most steps a run can take: frame numbers of recordings are unsigned 32-bit integers
 * (4,294,967,295 steps of 0.05 s are about 6.8 years of simulated time).
 */
export const MAX_RUN_STEPS = 0xffff_ffff;

/** Largest desired speed a scenario may give (m/s): faster than a sprinter. */
export const MAX_DESIRED_SPEED = 10;

/** Largest body radius a scenario may give (m). */
export const MAX_AGENT_RADIUS = 5;

/** A strategy choice: registry name plus options. */
export interface StrategyChoice {
  /** Registered name. */
  name: string;
  /** Options, validated by the strategy's descriptors. */
  options?: Record<string, unknown>;
}

/** A navigator choice: registry name plus options. */
export interface NavigatorChoice {
  /** Registered name. */
  name: string;
  /** Options, validated by the navigator's descriptors. */
  options?: Record<string, unknown>;
}

/** Options of {@linkcode buildScenario}. */
export interface BuildScenarioOptions {
  /** Registry to find strategy names in. */
  registry: StrategyRegistry;
  /** Registry to find navigator names in. @default the built-in navigators */
  navigators?: NavigatorRegistry;
  /** Replaces the scenario's strategy (what `--strategy` does). */
  strategy?: StrategyChoice;
  /** Replaces the scenario's seed. */
  seed?: number;
  /** Replaces the scenario's total agent count, split over spawners in proportion. */
  agents?: number;
  /** Replaces the number of steps implied by `duration`. */
  steps?: number;
  /**
   * Replaces the scenario's navigator: a registered name with options (what `--navigator`
   * does), or a ready instance. @default the scenario's `navigator`; else `navmesh` with a
   * `navigation` section, else `goal-seeker`
   */
  navigator?: NavigatorChoice | Navigator;
  /**
   * World data for navigators that scenario files cannot describe (a city model); the
   * scenario's navigation mesh is added to it. @default none
   */
  resources?: NavigatorResources;
  /** Name of the scenario's source in error messages. @default the scenario name */
  source?: string;
  /**
   * Memory the run may take (bytes); a scenario estimated to need more is refused before any
   * agent is placed. @default the system's available memory when `--allow-sys=systemMemoryInfo`
   * is granted, else 4 GiB
   */
  memoryBudgetBytes?: number;
}

/** A world built from a scenario, with what is needed to run it. */
export interface BuiltScenario {
  /** The world, prepared (initial agents placed). */
  world: World;
  /** The scenario after scaling and overrides. */
  spec: ScenarioSpec;
  /** Steps to run (the run may stop earlier when everyone has arrived). */
  steps: number;
  /** Name of the strategy in use. */
  strategyName: string;
  /** Name of the navigator in use. */
  navigatorName: string;
  /** The navigation mesh of the scenario's `navigation` section, if it has one. */
  navMesh?: NavMesh;
  /** Line to measure throughput across, if the scenario names one. */
  throughputLine?: { name: string; from: [number, number]; to: [number, number] };
  /**
   * What the build repaired or found doubtful, one line each naming the field, e.g.
   * `spawners[0].area: 40% of it is under obstacles …: agents are placed in the rest`.
   */
  warnings: string[];
}

/**
 * Builds a world from a validated scenario. Errors are {@linkcode ScenarioError}s that name the
 * field, e.g. `strategy.options.timeHorizon`; they include spawn areas with no clear spot,
 * goals inside solid obstacles, strategy columns outside their limits and crowds that would
 * not fit in memory. Repairs and doubts come back as `warnings`.
 *
 * @example
 * ```ts
 * import { buildScenario } from "./build.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const built = buildScenario({
 *   name: "tiny",
 *   spawners: [{ area: { rect: [0, 0, 4, 4] }, count: 5, goal: { point: [20, 2] } }],
 * }, { registry: strategies });
 * assert.equal(built.world.agents.count, 5);
 * ```
 */
export function buildScenario(input: ScenarioSpec, options: BuildScenarioOptions): BuiltScenario {
  const source = options.source ?? `scenario '${input.name}'`;
  const fail: Fail = (where, problem) => {
    throw new ScenarioError(source, where, problem);
  };
  const spec = options.agents === undefined ? input : scaleScenario(input, options.agents, source);
  const strategy = scenarioStrategy(spec, options, fail);
  // With a navigation section, the navigation mesh owns the geometry: its merged border edges
  // replace the raw walls and obstacles, and navigators plan on it.
  const navMesh = spec.navigation
    ? scenarioNavMesh(spec, fail)
    : spec.map
    ? mapNavMesh(options, fail)
    : undefined;
  const places = spec.map && navMesh && options.resources?.city
    ? MapPlaces.of(options.resources.city, navMesh)
    : undefined;
  const navigator = scenarioNavigator(spec, options, navMesh, fail);
  let world: World;
  try {
    world = new World({
      strategy,
      navigator,
      dt: spec.dt,
      seed: options.seed ?? spec.seed ?? 1,
      walkingSide: spec.walkingSide,
      arrivalRadius: spec.arrivalRadius,
    });
  } catch (error) {
    return fail("", (error as Error).message);
  }
  _checkMemory(world.agents, spec, options, fail);
  addGeometry(world, spec, { navMesh, fail });
  addSpawners(world, spec, fail, places);
  const steps = runSteps(spec, options, world.dt, fail);
  const warnings: string[] = [];
  for (const finding of checkPlacement(world, spec)) {
    if (finding.fatal) fail(finding.field, finding.problem);
    warnings.push(`${finding.field}: ${finding.problem}`);
  }
  try {
    world.prepare();
  } catch (error) {
    fail("spawners", (error as Error).message);
  }
  world.population.pending.forEach((waiting, i) => {
    const s = spec.spawners[i];
    if (waiting > 0 && !s.rate) {
      warnings.push(
        `spawners[${i}]: ${
          s.count - waiting
        } of its ${s.count} agents found a clear spot at the start; the other ${waiting} enter as room frees`,
      );
    }
  });
  const line = spec.metrics?.throughputLine;
  return {
    world,
    spec,
    steps,
    warnings,
    strategyName: strategy.name,
    navigatorName: navigator.name,
    navMesh,
    throughputLine: line
      ? { name: line.name, from: [line.from[0], line.from[1]], to: [line.to[0], line.to[1]] }
      : undefined,
  };
}

/** Steps to run: `--steps`, else the scenario's `duration` over `dt`, within what a run can take. */
function runSteps(
  spec: ScenarioSpec,
  options: BuildScenarioOptions,
  dt: number,
  fail: Fail,
): number {
  const duration = spec.duration ?? DEFAULT_DURATION;
  const steps = options.steps ?? Math.ceil(duration / dt - 1e-9);
  if (options.steps !== undefined) {
    if (!(Number.isInteger(steps) && steps >= 0)) {
      fail("--steps", `must be an integer >= 0: current value is ${steps}`);
    }
    if (steps > MAX_RUN_STEPS) {
      fail("--steps", `must be <= ${MAX_RUN_STEPS}: current value is ${steps}`);
    }
  } else if (!(steps <= MAX_RUN_STEPS)) {
    fail(
      "duration",
      `${duration} s at dt ${dt} s needs more than the ${MAX_RUN_STEPS} steps a run can take (at most ${
        MAX_RUN_STEPS * dt
      } s)`,
    );
  }
  return steps;
}

/** Reports a problem at a field of the scenario (throws a {@linkcode ScenarioError}). */
type Fail = (where: string, problem: string) => never;

/** The strategy: the override (`--strategy`), else the scenario's, else `none`. */
function scenarioStrategy(
  spec: ScenarioSpec,
  options: BuildScenarioOptions,
  fail: Fail,
): Strategy {
  const choice = options.strategy ?? spec.strategy ?? { name: "none" };
  const field = options.strategy ? "--strategy" : "strategy";
  if (!options.registry.has(choice.name)) {
    fail(
      `${field}.name`,
      `unknown strategy '${choice.name}': registered strategies are ${
        options.registry.names().join(", ")
      }`,
    );
  }
  try {
    return options.registry.create(choice.name, choice.options ?? {});
  } catch (error) {
    return fail(`${field}.options`, (error as Error).message);
  }
}

/** Adds the obstacles: the navigation mesh's borders, or else the scenario's walls and polygons. */
function addGeometry(
  world: World,
  spec: ScenarioSpec,
  context: { navMesh: NavMesh | undefined; fail: Fail },
): void {
  const { navMesh, fail } = context;
  if (navMesh) {
    navMesh.addBordersTo(world.obstacles);
    return;
  }
  (spec.walls ?? []).forEach((wall, i) => {
    const points = Array.isArray(wall) ? wall : wall.points;
    const closed = Array.isArray(wall) ? false : wall.closed ?? false;
    try {
      world.obstacles.addWall(points, closed);
    } catch (error) {
      fail(`walls[${i}]`, (error as Error).message);
    }
  });
  (spec.obstacles ?? []).forEach((polygon, i) => {
    try {
      world.obstacles.addPolygon(polygon);
    } catch (error) {
      fail(`obstacles[${i}]`, (error as Error).message);
    }
  });
}

/** Adds the spawners with their agent templates, checking column names and goal references. */
function addSpawners(world: World, spec: ScenarioSpec, fail: Fail, places?: MapPlaces): void {
  const base = agentTemplate(DEFAULT_AGENT_TEMPLATE, spec.agents, "agents", fail);
  const strategy = world.strategy.name;
  _checkColumns(world.agents, spec.agents, { where: "agents", strategy, fail });
  spec.spawners.forEach((s, i) => {
    const where = `spawners[${i}]`;
    const template = agentTemplate(base, s.agents, `${where}.agents`, fail);
    _checkColumns(world.agents, s.agents, { where: `${where}.agents`, strategy, fail });
    const goal = spawnerGoal(spec, s.goal, { where: `${where}.goal`, fail, places });
    const area = _mapArea(s.area, "spawn", { where: `${where}.area`, fail, places }) ??
      toArea(s.area, s.count, distributionMax(template.radius));
    try {
      world.population.addSpawner({
        name: s.name ?? `spawner ${i}`,
        area,
        count: s.count,
        rate: s.rate,
        startTime: s.startTime,
        goal,
        onArrival: s.onArrival,
        z: s.z,
        via: (s.via ?? []).map(([a, b]) => ({ ax: a[0], ay: a[1], bx: b[0], by: b[1] })),
        agent: template,
      });
    } catch (error) {
      fail(where, (error as Error).message.replace(/^Cannot add spawner '[^']*' as /, ""));
    }
  });
}

/** A spawner's goal: `"antipodal"`, a goal name of the scenario, or an inline area. */
function spawnerGoal(
  spec: ScenarioSpec,
  goal: SpawnerSpec["goal"],
  context: { where: string; fail: Fail; places?: MapPlaces },
): GoalSpec {
  if (goal === "antipodal") return { kind: "antipodal" };
  if (typeof goal !== "string") {
    return { kind: "area", area: _mapArea(goal, "goal", context) ?? toArea(goal, 0, 0) };
  }
  // Own keys only: a goal called `toString` or `constructor` is not a prototype method.
  const area = spec.goals && Object.hasOwn(spec.goals, goal) ? spec.goals[goal] : undefined;
  if (!area) {
    const known = Object.keys(spec.goals ?? {});
    return context.fail(
      context.where,
      `unknown goal '${goal}': ${
        known.length ? `goals are ${known.join(", ")}` : "the scenario defines no goals"
      }`,
    );
  }
  const field = { ...context, where: `goals.${goal}` };
  return { kind: "area", area: _mapArea(area, "goal", field) ?? toArea(area, 0, 0) };
}

/**
 * A place on the scenario's map (`street`, `building`, `near`) as a spawn area or a goal, or
 * null for local areas; a map place without a map, or a place the map lacks, fails at `where`.
 */
function _mapArea(
  spec: AreaSpec,
  role: "spawn" | "goal",
  context: { where: string; fail: Fail; places?: MapPlaces },
): Area | null {
  if (spec.street === undefined && spec.building === undefined && spec.near === undefined) {
    return null;
  }
  const { where, fail, places } = context;
  const key = spec.street !== undefined
    ? "street"
    : spec.building !== undefined
    ? "building"
    : "near";
  if (!places) {
    return fail(`${where}.${key}`, 'a place on a map needs the scenario\'s "map" section');
  }
  try {
    const place = spec.street !== undefined
      ? places.street(spec.street)
      : spec.building !== undefined
      ? places.building(spec.building)
      : places.near(spec.near![0], spec.near![1], spec.radius);
    return role === "spawn" ? place.spawn : place.goal;
  } catch (error) {
    return fail(`${where}.${key}`, (error as Error).message);
  }
}

/** The navigation mesh of a scenario's `map`, loaded beforehand (see `loadScenarioMap`). */
function mapNavMesh(options: BuildScenarioOptions, fail: Fail): NavMesh {
  const mesh = options.resources?.navMesh;
  if (!mesh || !options.resources?.city) {
    return fail(
      "map",
      "the map is not loaded: resolve the scenario with resolveScenario, or pass the city and its mesh from loadScenarioMap as resources",
    );
  }
  return mesh;
}

/** What a scenario file can do about missing world data, per kind. */
const RESOURCE_HINTS: Readonly<Record<NavigatorResourceName, string>> = {
  navMesh: 'add a "navigation" section',
  city: 'add a "map" section, or give a map file as the scenario (a city walk)',
  streetGuidance: "it is built from the city",
};

/**
 * The scenario's navigator: the override, else the top-level `navigator`, else the `navmesh`
 * navigator with the short-form options of `navigation.navigator` when there is a navigation
 * section, else the goal seeker. The navigation section's `minWidth` is the navigator's
 * `minWidth` when it has that option and the navigator's options do not give one.
 */
function scenarioNavigator(
  spec: ScenarioSpec,
  options: BuildScenarioOptions,
  navMesh: NavMesh | undefined,
  fail: Fail,
): Navigator {
  const override = options.navigator;
  if (override && "updatePreferredVelocities" in override) return override;
  const registry = options.navigators ?? builtinNavigators;
  const { choice, nameField, optionsField } = navigatorChoice(spec, override, fail);
  if (!registry.has(choice.name)) {
    fail(
      nameField,
      `unknown navigator '${choice.name}': registered navigators are ${
        registry.names().join(", ")
      }`,
    );
  }
  const factory = registry.get(choice.name);
  const resources: NavigatorResources = { ...options.resources, navMesh };
  const missing = missingResources(factory, resources);
  if (missing.length > 0) {
    fail(
      nameField,
      missing.map((r) =>
        `navigator '${choice.name}' needs ${NAVIGATOR_RESOURCE_NAMES[r]}: ${RESOURCE_HINTS[r]}`
      ).join("; "),
    );
  }
  const navOptions = { ...choice.options };
  const minWidth = spec.navigation?.navmesh.minWidth;
  if (minWidth !== undefined && "minWidth" in factory.options) {
    // A command-line override wins; within the file, the width is given once.
    if (navOptions.minWidth === undefined) navOptions.minWidth = minWidth;
    else if (!override && navOptions.minWidth !== minWidth) {
      fail(
        `${optionsField}.minWidth`,
        `differs from navigation.navmesh.minWidth (${minWidth}): give it once`,
      );
    }
  }
  try {
    return registry.create(choice.name, navOptions, resources);
  } catch (error) {
    return fail(optionsField, (error as Error).message);
  }
}

/** Which navigator the scenario asks for, and the fields that name it and its options. */
function navigatorChoice(
  spec: ScenarioSpec,
  override: NavigatorChoice | undefined,
  fail: Fail,
): { choice: NavigatorChoice; nameField: string; optionsField: string } {
  if (override) {
    return { choice: override, nameField: "--navigator", optionsField: "--navigator-option" };
  }
  const shortForm = spec.navigation?.navigator;
  if (spec.navigator) {
    if (shortForm) {
      fail(
        "navigation.navigator",
        'give the navigator\'s options once, in "navigator.options" (the short form "navigation.navigator" is for scenarios without a "navigator")',
      );
    }
    return {
      choice: spec.navigator,
      nameField: "navigator.name",
      optionsField: "navigator.options",
    };
  }
  if (spec.navigation || spec.map) {
    return {
      choice: { name: "navmesh", options: shortForm ?? {} },
      nameField: spec.navigation ? "navigation" : "map",
      optionsField: "navigation.navigator",
    };
  }
  return { choice: { name: "goal-seeker" }, nameField: "navigator", optionsField: "navigator" };
}

/**
 * The navigation mesh of a scenario's `navigation` section: its surfaces, or its walkable area,
 * or else the scenario's bounds, less the scenario's obstacles and walls.
 */
function scenarioNavMesh(
  spec: ScenarioSpec,
  fail: Fail,
): NavMesh {
  const nav = spec.navigation!.navmesh;
  let walkable = nav.walkable;
  if (!nav.surfaces && !walkable) {
    if (!spec.bounds) {
      return fail(
        "navigation.navmesh.walkable",
        'required when neither "surfaces" nor the scenario\'s "bounds" are given',
      );
    }
    const [x0, y0, x1, y1] = spec.bounds;
    walkable = [[[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]]];
  }
  try {
    return buildNavMesh({
      walkable,
      surfaces: nav.surfaces,
      obstacles: (spec.obstacles ?? []).map((polygon) => [polygon]),
      walls: (spec.walls ?? []).map((w) =>
        Array.isArray(w) ? { points: w } : { points: w.points, closed: w.closed }
      ),
    }, {
      clearance: nav.clearance,
      keepAllComponents: nav.keepAllComponents,
      maxStepHeight: nav.maxStepHeight,
    });
  } catch (error) {
    return fail(
      "navigation.navmesh",
      (error as Error).message.replace(/^Cannot build navigation mesh as /, ""),
    );
  }
}

/**
 * Returns a copy of `spec` whose spawner counts add up to `agents`, split in proportion to the
 * original counts (largest remainder). Ring spawners without a radius grow with their count.
 */
export function scaleScenario(
  spec: ScenarioSpec,
  agents: number,
  source = spec.name,
): ScenarioSpec {
  if (!Number.isInteger(agents) || agents < 0) {
    throw new ScenarioError(
      source,
      "--agents",
      `must be an integer >= 0: current value is ${agents}`,
    );
  }
  const counts = spec.spawners.map((s) => s.count);
  const total = counts.reduce((a, b) => a + b, 0);
  const weights = total > 0 ? counts : counts.map(() => 1);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (agents * w) / weightSum);
  const scaled = exact.map(Math.floor);
  let left = agents - scaled.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i]).sort((a, b) =>
    b[0] - a[0] || a[1] - b[1]
  );
  for (const [, i] of order) {
    if (left-- <= 0) break;
    scaled[i]++;
  }
  return { ...spec, spawners: spec.spawners.map((s, i) => ({ ...s, count: scaled[i] })) };
}

/** Converts an area from the file format; a ring without radius gets one that fits `count`. */
export function toArea(spec: AreaSpec, count: number, maxRadius: number): Area {
  if (spec.rect) {
    const [minX, minY, maxX, maxY] = spec.rect;
    return { kind: "rect", minX, minY, maxX, maxY };
  }
  if (spec.circle) {
    return {
      kind: "circle",
      x: spec.circle.center[0],
      y: spec.circle.center[1],
      radius: spec.circle.radius,
    };
  }
  if (spec.capsule) {
    const { from, to, radius } = spec.capsule;
    return { kind: "capsule", ax: from[0], ay: from[1], bx: to[0], by: to[1], radius };
  }
  if (spec.point) return { kind: "point", x: spec.point[0], y: spec.point[1] };
  const ring = spec.ring!;
  return {
    kind: "ring",
    x: ring.center[0],
    y: ring.center[1],
    radius: ring.radius ?? ringRadiusFor(count, maxRadius),
  };
}

/** Radius (m) of a ring whose circumference gives each of `count` agents 2.5 body diameters. */
export function ringRadiusFor(count: number, bodyRadius: number): number {
  return Math.max(1, (count * RING_DIAMETERS_PER_AGENT * 2 * bodyRadius) / (2 * Math.PI));
}

function toDistribution(spec: DistributionSpec): Distribution {
  if (typeof spec === "number") return { kind: "constant", value: spec };
  if ("normal" in spec) return { kind: "normal", ...spec.normal };
  return { kind: "uniform", ...spec.uniform };
}

function agentTemplate(
  base: AgentTemplate,
  spec: AgentParamsSpec | undefined,
  where: string,
  fail: Fail,
): AgentTemplate {
  if (!spec) return base;
  const columns = { ...base.columns };
  for (const [name, d] of Object.entries(spec.columns ?? {})) columns[name] = toDistribution(d);
  const radius = spec.radius === undefined ? base.radius : toDistribution(spec.radius);
  const desiredSpeed = spec.desiredSpeed === undefined
    ? base.desiredSpeed
    : toDistribution(spec.desiredSpeed);
  if (distributionMin(radius) <= 0) {
    fail(
      `${where}.radius`,
      `every radius must be > 0 m: the smallest possible value is ${distributionMin(radius)}`,
    );
  }
  if (distributionMax(radius) > MAX_AGENT_RADIUS) {
    fail(
      `${where}.radius`,
      `every radius must be <= ${MAX_AGENT_RADIUS} m: the largest possible value is ${
        distributionMax(radius)
      }`,
    );
  }
  if (distributionMin(desiredSpeed) < 0) {
    fail(
      `${where}.desiredSpeed`,
      `every speed must be >= 0 m/s: the smallest possible value is ${
        distributionMin(desiredSpeed)
      }`,
    );
  }
  if (distributionMax(desiredSpeed) > MAX_DESIRED_SPEED) {
    fail(
      `${where}.desiredSpeed`,
      `every speed must be <= ${MAX_DESIRED_SPEED} m/s (pedestrians walk at 0.5–2 m/s): the largest possible value is ${
        distributionMax(desiredSpeed)
      }`,
    );
  }
  return {
    radius,
    desiredSpeed,
    maxSpeedFactor: spec.maxSpeedFactor ?? base.maxSpeedFactor,
    maxAcceleration: spec.maxAcceleration ?? base.maxAcceleration,
    columns,
  };
}

function distributionMin(d: Distribution): number {
  return d.kind === "constant" ? d.value : d.min;
}

/**
 * Refuses a scenario whose agents would not fit in memory, before any is placed: names
 * `--agents` when the count came from it, else the spawners.
 */
function _checkMemory(
  agents: AgentStore,
  spec: ScenarioSpec,
  options: BuildScenarioOptions,
  fail: (where: string, problem: string) => never,
): void {
  const count = spec.spawners.reduce((sum, s) => sum + s.count, 0);
  const need = estimateRunBytes(agents.columnSpecs, count);
  const budget = options.memoryBudgetBytes === undefined
    ? memoryBudgetBytes()
    : { bytes: options.memoryBudgetBytes, source: "option" as const };
  if (need <= budget.bytes) return;
  const limit = budget.source === "system"
    ? `the ${formatBytes(budget.bytes)} available`
    : budget.source === "default"
    ? `the default budget of ${
      formatBytes(budget.bytes)
    } (allow --allow-sys=systemMemoryInfo to use what is available)`
    : `the budget of ${formatBytes(budget.bytes)}`;
  fail(
    options.agents !== undefined
      ? "--agents"
      : spec.spawners.length === 1
      ? "spawners[0].count"
      : "spawners",
    `${count} agents would need about ${formatBytes(need)} of memory, more than ${limit}`,
  );
}

/**
 * Checks the strategy columns an agents section sets: each must exist and every value its
 * distribution can give must lie within the column's limits (the strategy option's range);
 * whole-number columns take a number, not a distribution.
 */
function _checkColumns(
  agents: AgentStore,
  params: AgentParamsSpec | undefined,
  context: { where: string; strategy: string; fail: (where: string, problem: string) => never },
): void {
  for (const [name, value] of Object.entries(params?.columns ?? {})) {
    const field = `${context.where}.columns.${name}`;
    const spec = agents.columnSpec(name);
    if (!spec) {
      return context.fail(field, `unknown column '${name}' for strategy '${context.strategy}'`);
    }
    const limits = columnLimits(spec);
    const d = toDistribution(value);
    if (limits.integer && d.kind !== "constant") {
      context.fail(field, "takes whole numbers: give a number, not a distribution");
    }
    const range = `${limits.exclusiveMin ? "(" : "["}${limits.min}, ${limits.max}${
      limits.exclusiveMax ? ")" : "]"
    }`;
    const rule = `${limits.integer ? "an integer" : "a number"} in ${range}`;
    for (const v of new Set([distributionMin(d), distributionMax(d)])) {
      const low = limits.exclusiveMin ? v <= limits.min! : v < limits.min!;
      const high = limits.exclusiveMax ? v >= limits.max! : v > limits.max!;
      if (low || high || (limits.integer && !Number.isInteger(v))) {
        context.fail(
          field,
          `every value must be ${rule}: ${
            d.kind === "constant" ? "current value is" : "the distribution reaches"
          } ${v}`,
        );
      }
    }
  }
}

/**
 * The conformance suite: every registered strategy, the same situations, the same bar.
 *
 * For each strategy: an empty world runs; a lone agent walks straight to its goal at its desired
 * speed; a head-on pair passes and both arrive; a circle of 24 swaps places and everyone
 * arrives; a rerun with the same seed is bit-identical; with every option at each of its limits
 * a head-on pair still arrives and stays apart. Strategies that avoid collisions (all but the
 * `none` baseline) must keep the pair apart (overlap ≤ 1 cm at the defaults, ≤ 0.1 m at an
 * option's limit) and the circle's largest overlap ≤ 0.1 m (a fifth of a body diameter).
 *
 * A limit where a model degenerates by its own definition is listed in
 * {@linkcode DEGENERATE_LIMITS} with the reason, and held to what still applies.
 */
import assert from "node:assert/strict";
import type { StrategyFactory } from "../core/strategy.ts";
import { World } from "../core/world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { ringRadiusFor } from "../scenarios/build.ts";
import { strategies } from "../strategies/mod.ts";
import type { OptionSpec } from "../core/options.ts";
import type { AgentStore } from "../core/agent_store.ts";
import type { Vehicles } from "../core/vehicles.ts";

/** One car that keeps its course: straight along x at a constant speed. */
interface SteadyCar {
  x: number;
  y: number;
  vx: number;
}

/** Cars that keep their course whatever happens (a `WorldTraffic` for the conformance case). */
class SteadyCars {
  constructor(readonly cars: SteadyCar[]) {}
  step(dt: number, _pedestrians: AgentStore): void {
    for (const c of this.cars) c.x += c.vx * dt;
  }
  writeVehicles(out: Vehicles): void {
    out.setCount(this.cars.length);
    this.cars.forEach((c, k) => out.set(k, c.x, c.y, Math.sign(c.vx), 0, 4.5, 1.8, c.vx, 0));
    out.finish();
  }
}

/**
 * Pedestrians crossing a two-lane road, each timed to meet a car that keeps its course (10 m/s,
 * 4.5 × 1.8 m) if it walked straight on at 1.3 m/s. Returns the largest overlap of a body with a
 * car (m), whether everyone arrived, and the overlap a straight walk would have had.
 */
function runPassingCars(factory: StrategyFactory<object>, seed: number) {
  // Car centres x(t) = x0 + 10 t; a pedestrian from y0 at 1.3 m/s is on a lane at time |y0 - lane| / 1.3.
  const cars = new SteadyCars([
    { x: -44, y: -1.75, vx: 10 }, // meets the first walker at 4.4 s
    { x: 60, y: 1.75, vx: -10 }, // meets the second at 5.95 s
    { x: -56, y: -1.75, vx: 10 }, // 1.2 s behind the first car
  ]);
  const initial = cars.cars.map((c) => ({ ...c }));
  const world = new World({
    strategy: factory.create({}),
    navigator: createGoalSeeker(),
    seed,
    traffic: cars,
  });
  const walkers = [
    { x: 0, y: -8, goalX: 0, goalY: 8 },
    { x: 0.5, y: 9.5, goalX: 0.5, goalY: -9.5 },
  ];
  for (const w of walkers) world.addAgent({ ...w, desiredSpeed: 1.3, radius: 0.25 });
  let maxOverlap = -Infinity;
  const dir = new Float64Array(2);
  for (let step = 0; step < 800 && !world.finished; step++) {
    world.step();
    const a = world.agents, v = world.vehicles;
    for (let i = 0; i < a.count; i++) {
      for (let k = 0; k < v.count; k++) {
        maxOverlap = Math.max(maxOverlap, a.radius[i] - v.distance(k, a.px[i], a.py[i], dir));
      }
    }
  }
  // The same walks, straight on at 1.3 m/s, against the same cars.
  let straightOverlap = -Infinity;
  for (let t = 0; t < 20; t += 0.05) {
    for (const w of walkers) {
      const len = Math.hypot(w.goalX - w.x, w.goalY - w.y), s = Math.min(1.3 * t, len);
      const x = w.x + ((w.goalX - w.x) / len) * s, y = w.y + ((w.goalY - w.y) / len) * s;
      for (const c of initial) {
        const dx = Math.max(Math.abs(x - (c.x + c.vx * t)) - 2.25, 0);
        const dy = Math.max(Math.abs(y - c.y) - 0.9, 0);
        straightOverlap = Math.max(straightOverlap, 0.25 - Math.hypot(dx, dy));
      }
    }
  }
  return { maxOverlap, arrived: world.finished, straightOverlap, time: world.time };
}

const PAIR_OVERLAP_LIMIT = 0.01; // m
const CIRCLE_OVERLAP_LIMIT = 0.1; // m
/** Largest overlap of the head-on pair with an option at one of its limits (m). */
const LIMIT_OVERLAP_LIMIT = 0.1;
/** Steps the head-on pair 6 m apart gets with an option at a limit: 60 s for a 4 s walk. */
const LIMIT_MAX_STEPS = 1200;

/**
 * Option limits where a model degenerates by its own definition, keyed `strategy option=value`:
 * `blind` agents see no neighbour (they still arrive, walking through each other as with
 * `none`); `stalls` agents keep apart but the head-on pair never gets past each other.
 */
const DEGENERATE_LIMITS: Record<string, { outcome: "blind" | "stalls"; why: string }> = {
  "orca maxNeighbors=0": { outcome: "blind", why: "no neighbour is considered" },
  "orca neighborDist=0.000001": { outcome: "blind", why: "neighbours are sought within 1 µm" },
  "social-force neighborRadius=0.1": {
    outcome: "blind",
    why: "neighbours are sought within 0.1 m, less than a body diameter",
  },
  "social-force socialStrength=0": {
    outcome: "stalls",
    why: "without social repulsion only body contact acts: the pair pushes chest to chest",
  },
  "boxcast steer=away": {
    outcome: "stalls",
    why: "the original push away from the hit, which deadlocks a head-on pair",
  },
  "raycast-cluster rayLengthM=0.000001": {
    outcome: "stalls",
    why: "1 µm rays see the other agent only on contact",
  },
  "priority-steering epsilon=10": {
    outcome: "stalls",
    why: "no group reaches 10 m/s², so no group ever decides and nobody moves",
  },
};

/** Cases each strategy passed, by strategy name (read by the coverage test at the end). */
const passed = new Map<string, Set<string>>();

function _pass(strategy: string, name: string): void {
  if (!passed.has(strategy)) passed.set(strategy, new Set());
  passed.get(strategy)!.add(name);
}

/** The cases every strategy must pass: the fixed situations and every option limit. */
function _expectedCases(factory: StrategyFactory<object>): string[] {
  const cases = [
    "empty world",
    "lone agent",
    "head-on pair",
    "circle of 24",
    "rerun",
    "passing cars",
  ];
  for (const [option, spec] of Object.entries(factory.options as Record<string, OptionSpec>)) {
    for (const value of limitValues(spec)) cases.push(`${option}=${_show(value)}`);
  }
  return cases;
}

function _show(value: unknown): string {
  return typeof value === "object" ? "default" : String(value);
}

interface RunResult {
  arrivedAll: boolean;
  steps: number;
  maxOverlap: number;
  finalHash: string;
  maxLateral: number;
}

/** Runs a ring of `n` agents (n = 2 is a head-on pair) to the antipodal points. */
function runRing(
  factory: StrategyFactory<object>,
  n: number,
  options: {
    radius?: number;
    maxSteps: number;
    strategyOptions?: Record<string, unknown>;
    seed?: number;
  },
): RunResult {
  const world = new World({
    strategy: factory.create(options.strategyOptions ?? {}),
    navigator: createGoalSeeker(),
    seed: options.seed ?? 7,
  });
  const radius = options.radius ?? ringRadiusFor(n, 0.25);
  world.population.addSpawner({
    name: "ring",
    area: { kind: "ring", x: 0, y: 0, radius },
    count: n,
    goal: { kind: "antipodal" },
    onArrival: "remove",
    agent: {
      desiredSpeed: { kind: "constant", value: 1.3 },
      radius: { kind: "constant", value: 0.25 },
    },
  });
  world.prepare();
  let maxOverlap = 0, maxLateral = 0, steps = 0;
  const out = new Uint32Array(64);
  while (!world.finished && steps < options.maxSteps) {
    world.step();
    steps++;
    const a = world.agents;
    for (let i = 0; i < a.count; i++) {
      assert.ok(Number.isFinite(a.px[i]) && Number.isFinite(a.py[i]), "positions stay finite");
      if (n === 2) maxLateral = Math.max(maxLateral, Math.abs(a.py[i]));
      const k = world.grid.queryRadius(a.px[i], a.py[i], 0.5, out, i);
      for (let m = 0; m < Math.min(k, out.length); m++) {
        const j = out[m];
        const d = Math.hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]);
        maxOverlap = Math.max(maxOverlap, a.radius[i] + a.radius[j] - d);
      }
    }
  }
  const bytes = new Uint8Array(world.agents.px.buffer, 0, world.agents.count * 8);
  return {
    arrivedAll: world.finished,
    steps,
    maxOverlap,
    finalHash: `${world.stepIndex}:${world.agents.count}:${Array.from(bytes).join(",")}`,
    maxLateral,
  };
}

/**
 * Values at the limits of one option (exclusive limits are approached from inside); a structured
 * option runs with its default given explicitly.
 */
function limitValues(spec: OptionSpec): unknown[] {
  if (spec.type === "object") return [spec.default];
  if (spec.type === "boolean") return [true, false];
  if (spec.type === "enum") return [...spec.values];
  const values: number[] = [];
  const nudge = (v: number, dir: number) => (v === 0 ? dir * 1e-6 : v + dir * Math.abs(v) * 1e-6);
  if (spec.min !== undefined) values.push(spec.exclusiveMin ? nudge(spec.min, 1) : spec.min);
  if (spec.max !== undefined) values.push(spec.exclusiveMax ? nudge(spec.max, -1) : spec.max);
  return values.map((v) => (spec.integer ? (spec.exclusiveMin ? Math.ceil(v) : Math.round(v)) : v));
}

for (const factory of strategies.list()) {
  const avoids = factory.avoidsCollisions !== false;
  const name = factory.name;

  Deno.test(`${name} runs an empty world`, () => {
    const world = new World({ strategy: factory.create({}), navigator: createGoalSeeker() });
    for (let i = 0; i < 100; i++) world.step();
    assert.equal(world.agents.count, 0);
    assert.equal(world.stepIndex, 100);
    _pass(name, "empty world");
  });

  Deno.test(`${name} walks a lone agent straight to its goal at its desired speed`, () => {
    const world = new World({ strategy: factory.create({}), navigator: createGoalSeeker() });
    const h = world.addAgent({ x: -5, y: 2, goalX: 5, goalY: 2, desiredSpeed: 1.3 });
    let steps = 0, maxLateral = 0;
    while (!world.finished && steps < 400) {
      world.step();
      steps++;
      maxLateral = Math.max(maxLateral, Math.abs(world.agent(h)!.y - 2));
    }
    assert.ok(world.finished, "the agent arrives");
    // 9.5 m to the 0.5 m arrival circle at 1.3 m/s is 7.3 s; allow 10 %.
    assert.ok(world.time <= 1.1 * (9.5 / 1.3) + 0.05, `arrived after ${world.time.toFixed(2)} s`);
    assert.ok(maxLateral < 0.01, `strayed ${maxLateral.toFixed(3)} m from the straight line`);
    _pass(name, "lone agent");
  });

  Deno.test(`${name} passes a head-on pair and both arrive`, () => {
    const r = runRing(factory, 2, { radius: 5, maxSteps: 600 });
    assert.ok(r.arrivedAll, `both arrive (after ${r.steps} steps)`);
    if (avoids) {
      assert.ok(r.maxOverlap <= PAIR_OVERLAP_LIMIT, `largest overlap ${r.maxOverlap.toFixed(4)} m`);
    }
    _pass(name, "head-on pair");
  });

  Deno.test(`${name} swaps a circle of 24 and everyone arrives`, () => {
    const n = 24, radius = ringRadiusFor(n, 0.25);
    const straightSteps = Math.ceil((2 * radius) / 1.3 / 0.05);
    const r = runRing(factory, n, { maxSteps: 4 * straightSteps });
    assert.ok(r.arrivedAll, `everyone arrives within 4× the straight-line time (${r.steps} steps)`);
    if (avoids) {
      assert.ok(
        r.maxOverlap <= CIRCLE_OVERLAP_LIMIT,
        `largest overlap ${r.maxOverlap.toFixed(4)} m`,
      );
    }
    _pass(name, "circle of 24");
  });

  Deno.test(`${name} reruns bit-identically from the same seed`, () => {
    const a = runRing(factory, 24, { maxSteps: 300, seed: 11 });
    const b = runRing(factory, 24, { maxSteps: 300, seed: 11 });
    assert.equal(a.steps, b.steps);
    assert.equal(a.finalHash, b.finalHash);
    _pass(name, "rerun");
  });

  Deno.test(`${name} never walks into a car that keeps its course`, () => {
    for (const seed of [1, 2]) {
      const r = runPassingCars(factory, seed);
      assert.ok(r.straightOverlap > 0.2, "walking straight on would hit a car");
      assert.ok(r.maxOverlap <= 0, `a body overlapped a car by ${r.maxOverlap.toFixed(3)} m`);
      assert.ok(r.arrived, `both pedestrians cross (${r.time.toFixed(1)} s run)`);
    }
    _pass(name, "passing cars");
  });

  for (const [option, spec] of Object.entries(factory.options as Record<string, OptionSpec>)) {
    for (const value of limitValues(spec)) {
      const limit = `${option}=${_show(value)}`;
      const degenerate = DEGENERATE_LIMITS[`${name} ${limit}`];
      const behaviour = degenerate
        ? `${degenerate.outcome === "blind" ? "walks through" : "keeps apart"} (${degenerate.why})`
        : avoids
        ? "passes a head-on pair apart"
        : "passes a head-on pair";
      Deno.test(`${name} with ${option} = ${_show(value)} ${behaviour}`, () => {
        const r = runRing(factory, 2, {
          radius: 3,
          maxSteps: LIMIT_MAX_STEPS,
          strategyOptions: { [option]: value },
        });
        if (degenerate?.outcome !== "stalls") {
          assert.ok(r.arrivedAll, `both arrive within ${LIMIT_MAX_STEPS} steps (${r.steps} run)`);
        }
        if (avoids && degenerate?.outcome !== "blind") {
          assert.ok(
            r.maxOverlap <= LIMIT_OVERLAP_LIMIT,
            `largest overlap ${r.maxOverlap.toFixed(4)} m`,
          );
        }
        _pass(name, limit);
      });
    }
  }
}

Deno.test("the conformance suite covers every registered strategy", () => {
  // Each registered strategy passed every situation and every limit of every option above, and
  // every exception to the bar names a registered strategy and one of its limits.
  assert.ok(strategies.names().length > 1, "the built-in strategies are registered");
  for (const factory of strategies.list()) {
    const expected = _expectedCases(factory);
    const missing = expected.filter((c) => !passed.get(factory.name)?.has(c));
    assert.deepEqual(missing, [], `${factory.name} did not pass: ${missing.join(", ")}`);
    assert.ok(expected.length > 5 || Object.keys(factory.options).length === 0);
  }
  for (const key of Object.keys(DEGENERATE_LIMITS)) {
    const [strategy, limit] = key.split(" ");
    assert.ok(
      strategies.has(strategy) && _expectedCases(strategies.get(strategy)).includes(limit),
      `${key} is a limit of a registered strategy`,
    );
  }
});

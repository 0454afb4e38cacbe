/**
 * The navigator conformance suite: every registered navigator, the same situations, the same
 * bar.
 *
 * Each navigator is created the way scenario files create it (by name, through the scenario
 * builder), in a 20 m × 10 m room described by a `navigation` section, so navigators that need a
 * navigation mesh get one. For each navigator: an empty world runs; a lone agent walks straight
 * to its goal at its desired speed; arrived agents get a zero preferred velocity; the preferred
 * speed never exceeds the agent's desired speed times the navigator's stated bound
 * (`maxSpeedFactor`, 1 unless stated); a wall between agent and goal is routed around by
 * navigators that plan (`plansAroundObstacles`), while the others aim straight at the goal; a
 * rerun with the same seed is bit-identical; and every option at each of its limits gives the
 * behaviour that limit means: the agent arrives (around the wall, for navigators that plan),
 * brakes by the arrive law, or (where a limit rules every route out) stands still.
 *
 * Navigators that ignore goals (`wanders`: the street walkers, on a grid of footways through the
 * room) are held instead to walking: a lone agent keeps walking at its desired speed on the
 * street network and never arrives, at every option limit too, and an agent flagged as arrived
 * gets a zero preferred velocity.
 *
 * World data a navigator requires comes from {@linkcode fixtureResources}; a navigator that
 * needs data the suite has no fixture for fails here until one is added.
 */
import assert from "node:assert/strict";
import type { OptionSpec } from "../core/options.ts";
import { navigators } from "../navigation/mod.ts";
import { SLOWING_DISTANCE_OPTION } from "../navigation/navigation_options.ts";
import type {
  NavigatorFactory,
  NavigatorResourceName,
  NavigatorResources,
} from "../navigation/navigator_factory.ts";
import { buildScenario, type BuiltScenario } from "../scenarios/build.ts";
import { validateScenario } from "../scenarios/load.ts";
import { strategies } from "../strategies/mod.ts";
import { distanceToStreets, streetGridCity } from "./_street_grid_city.ts";

const SPEED = 1.3; // m/s
const DT = 0.05; // s
/** The room: [-10, 10] × [-5, 5] m. */
const BOUNDS: [number, number, number, number] = [-10, -5, 10, 5];
/** A wall across the room at x = 0, leaving a 2 m gap at the top. */
const WALL: [[number, number], [number, number]] = [[0, -5], [0, 3]];

/** Footways through the room: x = -9, -3, 3, 9 by y = -3, 0, 3 (2 m wide). */
const CITY = streetGridCity([-9, -3, 3, 9], [-3, 0, 3]);

/** World data other than the navigation mesh, by kind; absent kinds have no fixture yet. */
function fixtureResources(): Partial<NavigatorResources> {
  return { city: CITY };
}

/**
 * Limits at which a navigator cannot reach the goal by design, with the reason. The agent must
 * then stand still with a zero preferred velocity.
 */
const STANDS_STILL_AT: Record<string, string> = {
  "navmesh minWidth=100": "the 2 m gap beside the wall is narrower: the goal is unreachable",
  "exit-choice minWidth=100":
    "the navmesh navigator walks its agents: the 2 m gap beside the wall is narrower",
};

interface RoomOptions {
  navigatorOptions?: Record<string, unknown>;
  wall?: boolean;
  spawners?: Record<string, unknown>[];
  seed?: number;
  strategy?: string;
}

/** A lone agent at (-5, y) heading for (5, y), staying when it arrives. */
function loneAgent(y: number): Record<string, unknown> {
  return {
    area: { point: [-5, y] },
    count: 1,
    goal: { point: [5, y] },
    onArrival: "stay",
    agents: { desiredSpeed: SPEED, radius: 0.25 },
  };
}

function room(factory: NavigatorFactory<object>, options: RoomOptions = {}): BuiltScenario {
  const missing = (factory.requires ?? []).filter((r: NavigatorResourceName) =>
    r !== "navMesh" && fixtureResources()[r] === undefined
  );
  assert.deepEqual(missing, [], `the suite has a fixture for what ${factory.name} needs`);
  const spec = validateScenario({
    name: `${factory.name} conformance`,
    dt: DT,
    bounds: BOUNDS,
    walls: options.wall ? [WALL] : [],
    spawners: options.spawners ?? [{ area: { point: [0, 0] }, count: 0, goal: { point: [1, 0] } }],
    navigation: { navmesh: { clearance: 0.25 } },
    navigator: { name: factory.name, options: options.navigatorOptions ?? {} },
  }, `${factory.name} conformance`);
  return buildScenario(spec, {
    registry: strategies,
    strategy: { name: options.strategy ?? "none" },
    seed: options.seed ?? 7,
    resources: fixtureResources(),
  });
}

interface Walk {
  arrived: boolean;
  steps: number;
  maxLateral: number;
  maxSpeedRatio: number;
  crossedWall: boolean;
  hash: string;
}

/** Steps `built` until everyone has arrived or `maxSteps`, watching every agent. */
function walk(built: BuiltScenario, maxSteps: number, lateralFrom = 0): Walk {
  const world = built.world, a = world.agents;
  let steps = 0, maxLateral = 0, maxSpeedRatio = 0, crossedWall = false;
  while (!world.finished && steps < maxSteps) {
    const before = Array.from(a.px.subarray(0, a.count)), beforeY = Array.from(a.py);
    world.step();
    steps++;
    for (let i = 0; i < a.count; i++) {
      const pref = Math.hypot(a.prefVx[i], a.prefVy[i]);
      assert.ok(Number.isFinite(pref), "preferred velocities stay finite");
      maxSpeedRatio = Math.max(maxSpeedRatio, pref / a.desiredSpeed[i]);
      maxLateral = Math.max(maxLateral, Math.abs(a.py[i] - lateralFrom));
      if (i < before.length && crossesWall(before[i], beforeY[i], a.px[i], a.py[i])) {
        crossedWall = true;
      }
    }
  }
  const bytes = new Uint8Array(a.px.buffer, 0, a.count * 8);
  const bytesY = new Uint8Array(a.py.buffer, 0, a.count * 8);
  return {
    arrived: world.finished,
    steps,
    maxLateral,
    maxSpeedRatio,
    crossedWall,
    hash: `${world.stepIndex}:${a.count}:${bytes.join(",")}|${bytesY.join(",")}`,
  };
}

/** True when the move (x0, y0) → (x1, y1) crosses {@linkcode WALL}. */
function crossesWall(x0: number, y0: number, x1: number, y1: number): boolean {
  const [[ax, ay], [bx, by]] = WALL;
  const side = (px: number, py: number, qx: number, qy: number, x: number, y: number) =>
    (qx - px) * (y - py) - (qy - py) * (x - px);
  return side(ax, ay, bx, by, x0, y0) * side(ax, ay, bx, by, x1, y1) < 0 &&
    side(x0, y0, x1, y1, ax, ay) * side(x0, y0, x1, y1, bx, by) < 0;
}

/** Values at the limits of one option (exclusive limits are approached from inside). */
function limitValues(spec: OptionSpec): unknown[] {
  if (spec.type === "object") return [];
  if (spec.type === "boolean") return [true, false];
  if (spec.type === "enum") return [...spec.values];
  const values: number[] = [];
  const nudge = (v: number, dir: number) => (v === 0 ? dir * 1e-6 : v + dir * Math.abs(v) * 1e-6);
  if (spec.min !== undefined) values.push(spec.exclusiveMin ? nudge(spec.min, 1) : spec.min);
  if (spec.max !== undefined) values.push(spec.exclusiveMax ? nudge(spec.max, -1) : spec.max);
  return values.map((v) => (spec.integer ? (spec.exclusiveMin ? Math.ceil(v) : Math.round(v)) : v));
}

/** Steps for a lone agent to walk the 9.5 m to its goal's arrival circle, plus 10 %. */
const STRAIGHT_STEPS = Math.ceil((1.1 * 9.5) / SPEED / DT) + 2;
/**
 * Steps for a lone agent from (-5, -2) to (5, -2) round the wall through the gap: about 16 m,
 * via (0, 3.5) less the arrival radius, plus 20 %.
 */
const AROUND_STEPS = Math.ceil((1.2 * 16.1) / SPEED / DT);

for (const factory of navigators.list()) {
  const name = factory.name;
  const bound = factory.maxSpeedFactor ?? 1;

  Deno.test(`${name} runs an empty world`, () => {
    const built = room(factory);
    for (let i = 0; i < 100; i++) built.world.step();
    assert.equal(built.world.agents.count, 0);
    assert.equal(built.world.stepIndex, 100);
  });

  if (factory.wanders) {
    wanderingTests(factory);
    continue;
  }

  Deno.test(`${name} walks a lone agent straight to its goal at its desired speed`, () => {
    const built = room(factory, { spawners: [loneAgent(2)] });
    const r = walk(built, 4 * STRAIGHT_STEPS, 2);
    assert.ok(r.arrived, "the agent arrives");
    assert.ok(
      r.steps <= STRAIGHT_STEPS,
      `arrived after ${r.steps} steps (${STRAIGHT_STEPS} allowed)`,
    );
    assert.ok(r.maxLateral < 0.01, `strayed ${r.maxLateral.toFixed(4)} m from the straight line`);
  });

  Deno.test(`${name} gives arrived agents a zero preferred velocity and they stay put`, () => {
    const built = room(factory, { spawners: [loneAgent(0), loneAgent(-3)] });
    walk(built, 4 * STRAIGHT_STEPS);
    assert.ok(built.world.finished, "both arrive");
    const a = built.world.agents;
    const x = Array.from(a.px.subarray(0, 2)), y = Array.from(a.py.subarray(0, 2));
    for (let k = 0; k < 20; k++) {
      built.world.step();
      for (let i = 0; i < 2; i++) {
        assert.deepEqual([a.prefVx[i], a.prefVy[i]], [0, 0], `agent ${i}, step ${k}`);
        assert.deepEqual([a.px[i], a.py[i]], [x[i], y[i]]);
      }
    }
  });

  Deno.test(`${name} never asks for more than ${bound} × the desired speed`, () => {
    const crowd = {
      area: { rect: [-9, -4, -3, 4] },
      count: 30,
      goal: { rect: [4, -4, 9, 4] },
      agents: { desiredSpeed: { uniform: { min: 0.6, max: 1.8 } }, radius: 0.25 },
    };
    const built = room(factory, { spawners: [crowd], wall: true, strategy: "orca" });
    const r = walk(built, 400);
    assert.ok(r.maxSpeedRatio > 0.5, "agents walk");
    assert.ok(r.maxSpeedRatio <= bound + 1e-12, `preferred/desired speed up to ${r.maxSpeedRatio}`);
  });

  if (factory.plansAroundObstacles) {
    Deno.test(`${name} routes around a wall between agent and goal`, () => {
      const built = room(factory, { spawners: [loneAgent(-2)], wall: true });
      const r = walk(built, 8 * STRAIGHT_STEPS);
      assert.ok(r.arrived, `the agent arrives (after ${r.steps} steps)`);
      assert.ok(!r.crossedWall, "it never walks through the wall (the strategy is none)");
      assert.ok(r.steps <= AROUND_STEPS, `${r.steps} steps (${AROUND_STEPS} allowed)`);
    });
  } else {
    Deno.test(`${name} does not plan: it aims straight at the goal behind a wall`, () => {
      const built = room(factory, { spawners: [loneAgent(-2)], wall: true });
      built.world.step();
      const a = built.world.agents;
      assert.ok(Math.abs(a.prefVy[0]) < 1e-12 && Math.abs(a.prefVx[0] - SPEED) < 1e-12);
    });
  }

  Deno.test(`${name} reruns bit-identically from the same seed`, () => {
    const crowd = {
      area: { rect: [-9, -4, -3, 4] },
      count: 30,
      goal: { rect: [4, -4, 9, 4] },
      agents: { desiredSpeed: { normal: { mean: 1.34, sd: 0.26, min: 0.5, max: 2 } } },
    };
    const run = (seed: number) =>
      walk(room(factory, { spawners: [crowd], wall: true, strategy: "orca", seed }), 200);
    const a = run(11), b = run(11);
    assert.equal(a.steps, b.steps);
    assert.equal(a.hash, b.hash);
    assert.notEqual(run(12).hash, a.hash, "another seed places the crowd differently");
  });

  for (const [option, spec] of Object.entries(factory.options as Record<string, OptionSpec>)) {
    for (const value of limitValues(spec)) {
      const standsStill = STANDS_STILL_AT[`${name} ${option}=${value}`];
      const brakes = spec === SLOWING_DISTANCE_OPTION && (value as number) > 0;
      const what = standsStill ? "stands still" : brakes ? "brakes by the arrive law" : "arrives";
      Deno.test(`${name} with ${option} = ${value}: the lone agent ${what}`, () => {
        // Navigators that plan go around the wall; the others walk the open room.
        const around = factory.plansAroundObstacles === true && !brakes;
        const built = room(factory, {
          spawners: [loneAgent(around ? -2 : 2)],
          navigatorOptions: { [option]: value },
          wall: around,
        });
        const a = built.world.agents;
        if (standsStill) {
          for (let k = 0; k < 100; k++) {
            built.world.step();
            assert.deepEqual([a.px[0], a.py[0], a.prefVx[0], a.prefVy[0]], [-5, -2, 0, 0]);
          }
          return;
        }
        if (brakes) {
          for (let k = 0; k < 100; k++) {
            const d = Math.hypot(5 - a.px[0], 2 - a.py[0]);
            built.world.step();
            const expected = SPEED * Math.min(1, d / (value as number));
            const speed = Math.hypot(a.prefVx[0], a.prefVy[0]);
            assert.ok(Math.abs(speed - expected) < 1e-9, `step ${k}: ${speed} vs ${expected} m/s`);
          }
          return;
        }
        const r = walk(built, 8 * STRAIGHT_STEPS, 2);
        const allowed = around ? AROUND_STEPS : STRAIGHT_STEPS;
        assert.ok(r.arrived && r.steps <= allowed, `arrived after ${r.steps} steps`);
        assert.ok(!around || !r.crossedWall, "around the wall, not through it");
        assert.ok(r.maxSpeedRatio <= bound + 1e-12);
      });
    }
  }
}

/** The street network's lane bound: half a footway's width plus a body's swerve (m). */
const ON_NETWORK = 1.5;

/**
 * Steps a lone wandering agent for `steps` and checks it keeps walking on the street network at
 * its desired speed (after `settle` steps to reach its lane) and never arrives. `bound` is how far
 * from a street's centre line it may get (m).
 */
function keepsWalking(
  built: BuiltScenario,
  steps: number,
  settle = 60,
  bound = ON_NETWORK,
): void {
  const world = built.world, a = world.agents;
  let farthest = 0, distance = 0;
  for (let k = 0; k < steps; k++) {
    const x = a.px[0], y = a.py[0];
    world.step();
    distance += Math.hypot(a.px[0] - x, a.py[0] - y);
    const pref = Math.hypot(a.prefVx[0], a.prefVy[0]);
    assert.ok(Math.abs(pref - SPEED) < 1e-9, `step ${k}: preferred speed ${pref}`);
    if (k >= settle) farthest = Math.max(farthest, distanceToStreets(CITY, a.px[0], a.py[0]));
  }
  assert.ok(!world.finished, "a wanderer never arrives");
  assert.ok(farthest <= bound, `strayed ${farthest.toFixed(2)} m from the streets`);
  assert.ok(distance >= 0.9 * SPEED * DT * steps, `walked ${distance.toFixed(1)} m`);
}

function wanderingTests(factory: NavigatorFactory<object>): void {
  const name = factory.name;
  Deno.test(`${name} keeps a lone agent walking on the street network`, () => {
    keepsWalking(room(factory, { spawners: [loneAgent(2)] }), 600);
  });

  Deno.test(`${name} gives an agent flagged as arrived a zero preferred velocity`, () => {
    const built = room(factory, { spawners: [loneAgent(2)] });
    built.world.step();
    built.world.agents.flags[0] |= 1;
    built.world.step();
    assert.deepEqual([built.world.agents.prefVx[0], built.world.agents.prefVy[0]], [0, 0]);
  });

  for (const [option, spec] of Object.entries(factory.options as Record<string, OptionSpec>)) {
    for (const value of limitValues(spec)) {
      Deno.test(`${name} with ${option} = ${value}: the lone agent keeps walking the streets`, () => {
        const built = room(factory, {
          spawners: [loneAgent(2)],
          navigatorOptions: { [option]: value },
        });
        // A walker whose heading turns at most ω sweeps a circle of diameter 2 v / ω when it
        // turns back (2.5 m at the slowest turn rate): the lane bound widens by it.
        const bound = option === "turnRateDegPerS"
          ? ON_NETWORK + (2 * SPEED) / ((Number(value) * Math.PI) / 180)
          : ON_NETWORK;
        keepsWalking(built, 300, 60, bound);
      });
    }
  }
}

Deno.test("the navigator conformance suite covers every registered navigator, documented", () => {
  assert.ok(navigators.names().includes("goal-seeker") && navigators.names().includes("navmesh"));
  for (const factory of navigators.list()) {
    assert.ok(factory.description.length > 0, `${factory.name} has a description`);
    for (const [option, spec] of Object.entries(factory.options as Record<string, OptionSpec>)) {
      assert.ok(spec.doc.length > 0, `${factory.name}.${option} is documented`);
      if (spec.type === "number") {
        assert.ok(
          spec.min !== undefined && spec.max !== undefined,
          `${factory.name}.${option} states its range`,
        );
      }
    }
  }
});

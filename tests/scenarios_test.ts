/**
 * Scenario files and built-in scenarios: every kind of validation error names the field and the
 * problem; every built-in scenario runs to completion; runs are reproducible and independent of
 * where the scenario sits in the plane.
 */
import assert from "node:assert/strict";
import { parseScenario, ScenarioError, validateScenario } from "../scenarios/load.ts";
import { buildScenario, scaleScenario } from "../scenarios/build.ts";
import { runScenario } from "../scenarios/run.ts";
import { BUILTIN_SCENARIOS } from "../scenarios/builtin/mod.ts";
import type { AreaSpec, ScenarioSpec } from "../scenarios/schema.ts";
import { strategies } from "../strategies/mod.ts";
import { resolveScenario } from "../scenarios/resolve.ts";
import { navigators } from "../navigation/mod.ts";

const base = (): Record<string, unknown> => ({
  name: "t",
  goals: { east: { rect: [8, -1, 10, 1] } },
  spawners: [{ area: { rect: [0, -1, 2, 1] }, count: 3, goal: "east" }],
});

/** Asserts that building `mutate(base)` fails with a message matching `pattern`. */
function assertRejects(mutate: (s: Record<string, unknown>) => void, pattern: RegExp): void {
  const spec = base();
  mutate(spec);
  assert.throws(() => {
    const valid = validateScenario(spec, "t.json");
    buildScenario(valid, { registry: strategies, source: "t.json" });
  }, (error: unknown) => {
    assert.ok(error instanceof ScenarioError, `a ScenarioError, got ${error}`);
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes("\n"), "one line");
    return true;
  });
}

const spawner0 = (s: Record<string, unknown>) => (s.spawners as Record<string, unknown>[])[0];

Deno.test("scenario validation: malformed JSON names line and column", () => {
  assert.throws(
    () => parseScenario('{\n  "name": "x",\n  "dt": 0.05,,\n}', "bad.json"),
    /^ScenarioError: bad\.json: line 3, column 14: invalid JSON/,
  );
});

Deno.test("scenario validation: a missing required field is named", () => {
  assertRejects((s) => delete s.spawners, /^t\.json: spawners: required field is missing$/);
  assertRejects((s) => delete spawner0(s).count, /spawners\[0\]\.count: required field is missing/);
});

Deno.test("scenario validation: an unknown field is named", () => {
  assertRejects((s) => spawner0(s).cout = 3, /spawners\[0\]: unknown field 'cout'/);
});

Deno.test("scenario validation: a wrong type gives the expected type and the value", () => {
  assertRejects(
    (s) => spawner0(s).count = "many",
    /spawners\[0\]\.count: expected a number: current value is "many"/,
  );
  assertRejects(
    (s) => spawner0(s).count = 2.5,
    /spawners\[0\]\.count: expected an integer: current value is 2\.5/,
  );
});

Deno.test("scenario validation: an out-of-range value gives the limit and the value", () => {
  assertRejects(
    (s) => spawner0(s).count = -1,
    /spawners\[0\]\.count: must be >= 0: current value is -1/,
  );
  assertRejects((s) => s.dt = 0, /dt: must be > 0: current value is 0/);
  assertRejects(
    (s) => s.anchor = { lon: 200, lat: 0 },
    /anchor\.lon: must be in \[-180, 180\]: current value is 200/,
  );
});

Deno.test("scenario validation: a non-finite number is rejected", () => {
  assertRejects(
    (s) => s.duration = Infinity,
    /duration: must be a finite number: current value is Infinity/,
  );
});

Deno.test("scenario validation: an enum field lists the allowed values", () => {
  assertRejects(
    (s) => s.walkingSide = "middle",
    /walkingSide: must be one of "right", "left": current value is "middle"/,
  );
  assertRejects(
    (s) => spawner0(s).onArrival = "vanish",
    /spawners\[0\]\.onArrival: must be one of "remove", "respawn", "stay"/,
  );
});

Deno.test("scenario validation: an area must be exactly one shape", () => {
  assertRejects(
    (s) => spawner0(s).area = { rect: [0, 0, 1, 1], point: [0, 0] },
    /spawners\[0\]\.area: must have exactly one of "rect", "circle", "capsule", "point", "ring"/,
  );
  assertRejects(
    (s) => spawner0(s).area = { rect: [2, 0, 1, 1] },
    /spawners\[0\]\.area\.rect: must have minX < maxX/,
  );
});

Deno.test("scenario validation: distributions are checked", () => {
  assertRejects(
    (s) => s.agents = { desiredSpeed: { normal: { mean: 1.3, sd: -0.2, min: 0.5, max: 2 } } },
    /agents\.desiredSpeed\.normal\.sd: must be >= 0/,
  );
  assertRejects(
    (s) => s.agents = { radius: { uniform: { min: 0, max: 0.3 } } },
    /agents\.radius: every radius must be > 0 m/,
  );
  assertRejects(
    (s) => s.agents = { radius: "big" },
    /agents\.radius: expected a number, \{"normal"/,
  );
});

Deno.test("scenario validation: references to goals, strategies and columns are checked", () => {
  assertRejects(
    (s) => spawner0(s).goal = "west",
    /spawners\[0\]\.goal: unknown goal 'west': goals are east/,
  );
  assertRejects(
    (s) => s.strategy = { name: "teleport" },
    /strategy\.name: unknown strategy 'teleport': registered strategies are none/,
  );
  assertRejects(
    (s) => s.strategy = { name: "none", options: { gain: 2 } },
    /strategy\.options: Cannot create none strategy as 'gain' is not one of its options/,
  );
  assertRejects(
    (s) => s.agents = { columns: { "raycast.nope": 1 } },
    /agents\.columns\.raycast\.nope: unknown column/,
  );
  assertRejects(
    (s) => spawner0(s).goal = "antipodal",
    /spawners\[0\]: an 'antipodal' goal needs a ring area/,
  );
});

Deno.test("scenario validation: navigator names, options and the world data they need are checked", () => {
  assertRejects(
    (s) => s.navigator = { name: "teleport" },
    /navigator\.name: unknown navigator 'teleport': registered navigators are goal-seeker, navmesh/,
  );
  assertRejects(
    (s) => s.navigator = { name: "goal-seeker", options: { slowingDistance: -1 } },
    /navigator\.options: Cannot create goal-seeker navigator as 'slowingDistance' must be >= 0: current value is -1/,
  );
  assertRejects(
    (s) => s.navigator = { name: "navmesh" },
    /navigator\.name: navigator 'navmesh' needs a navigation mesh: add a "navigation" section/,
  );
  assertRejects((s) => {
    s.bounds = [0, -2, 10, 2];
    s.navigation = { navmesh: {}, navigator: { maxQueriesPerStep: 8 } };
    s.navigator = { name: "navmesh" };
  }, /navigation\.navigator: give the navigator's options once, in "navigator\.options"/);
  assertRejects(
    (s) => {
      s.bounds = [0, -2, 10, 2];
      s.navigation = { navmesh: { minWidth: 1 } };
      s.navigator = { name: "navmesh", options: { minWidth: 2 } };
    },
    /navigator\.options\.minWidth: differs from navigation\.navmesh\.minWidth \(1\): give it once/,
  );
});

Deno.test("a scenario picks its navigator by name with options, or by default from its navigation section", () => {
  const build = (extra: Record<string, unknown>) => {
    const spec = validateScenario({ ...base(), bounds: [0, -2, 10, 2], ...extra }, "t.json");
    return buildScenario(spec, { registry: strategies, source: "t.json" });
  };
  const plain = build({});
  assert.equal(plain.navigatorName, "goal-seeker");
  const seeker = build({ navigator: { name: "goal-seeker", options: { slowingDistance: 2 } } });
  assert.equal(
    (seeker.world.navigator as unknown as { options: { slowingDistance: number } }).options
      .slowingDistance,
    2,
  );
  // The short form: a navigation section alone plans with the navmesh navigator and its options.
  const short = build({ navigation: { navmesh: {}, navigator: { maxQueriesPerStep: 8 } } });
  assert.equal(short.navigatorName, "navmesh");
  const shortOptions = (short.world.navigator as unknown as {
    options: { maxQueriesPerStep: number; minWidth: number };
  }).options;
  assert.equal(shortOptions.maxQueriesPerStep, 8);
  assert.equal(shortOptions.minWidth, 1.1);
  // The top-level form, with the mesh section's minimum width passed on.
  const named = build({
    navigation: { navmesh: { minWidth: 0.8 } },
    navigator: { name: "navmesh", options: { retryInterval: 5 } },
  });
  const namedOptions = (named.world.navigator as unknown as {
    options: { retryInterval: number; minWidth: number };
  }).options;
  assert.deepEqual([namedOptions.retryInterval, namedOptions.minWidth], [5, 0.8]);
  // A straight-line navigator on a navigation mesh still sees the mesh's borders as walls, once.
  const straight = build({ navigation: { navmesh: {} }, navigator: { name: "goal-seeker" } });
  assert.equal(straight.navigatorName, "goal-seeker");
  assert.equal(straight.world.obstacles.segmentCount, straight.navMesh!.border.count);
  assert.equal(named.world.obstacles.segmentCount, named.navMesh!.border.count);
});

Deno.test("scenario validation: geometry problems name the wall or obstacle", () => {
  assertRejects((s) => s.walls = [[[0, 0], [0, 0]]], /walls\[0\]: .*points 0 and 1 coincide/);
  assertRejects(
    (s) => s.obstacles = [[[0, 0], [1, 0]]],
    /obstacles\[0\]: expected at least 3 items/,
  );
  assertRejects((s) => s.obstacles = [[[0, 0], [1, 0], [2, 0]]], /obstacles\[0\]: .*area is 0/);
});

Deno.test("scenario validation: a spawn area too small for its agents says how many fit", () => {
  assertRejects(
    (s) => spawner0(s).count = 500,
    /spawners\[0\]: 500 agents of radius 0\.25 m do not fit in its 4\.0 m² rect \(at most about \d+\)/,
  );
  assertRejects(
    (s) => spawner0(s).area = { ring: { center: [0, 0], radius: 0.2 } },
    /spawners\[0\]: .*closer than one body diameter/,
  );
});

Deno.test("every built-in scenario runs to completion with none", async () => {
  for (const [name, builtin] of Object.entries(BUILTIN_SCENARIOS)) {
    const spec = validateScenario(builtin.create(), name);
    // Map scenarios load their city first and walk on (arrival policy `next`) for the whole
    // run: tests/city_scenario_test.ts runs the built-in city.
    if (spec.map) continue;
    const built = buildScenario(spec, { registry: strategies, resources: builtin.resources?.() });
    if (navigators.get(built.navigatorName).wanders) {
      // Street walkers never arrive: they walk the whole run.
      const outcome = await runScenario(built, { shouldStop: () => built.world.stepIndex >= 200 });
      assert.equal(outcome.metrics.arrivals, 0, `${name}: nobody arrives`);
      assert.ok(outcome.metrics.meanSpeed! > 1, `${name}: walkers walk`);
      continue;
    }
    const agents = spec.spawners.reduce((a, s) => a + s.count, 0);
    // Spawners with a rate place their first agent at the start, the rest over time.
    const atStart = spec.spawners.reduce(
      (a, s) => a + (s.rate ? Math.min(1, s.count) : s.count),
      0,
    );
    assert.equal(
      built.world.agents.count,
      atStart,
      `${name}: the agents due at the start are placed`,
    );
    const outcome = await runScenario(built);
    const m = outcome.metrics;
    if (spec.spawners.some((s) => s.onArrival === "respawn")) {
      assert.equal(outcome.steps, built.steps, `${name} loops until its duration`);
      assert.equal(built.world.agents.count, agents, `${name}: respawning keeps the population`);
      assert.ok(m.arrivals > agents, `${name}: ${m.arrivals} arrivals, more than one round`);
    } else {
      assert.ok(
        outcome.finished,
        `${name}: everyone arrived (${outcome.steps} of ${built.steps} steps)`,
      );
      assert.equal(m.arrivedFraction, 1, name);
    }
    assert.ok(m.collisions > 0, `${name}: without avoidance agents collide`);
  }
});

Deno.test("--agents scales every built-in scenario, and file spawner counts in proportion", async () => {
  for (const name of Object.keys(BUILTIN_SCENARIOS)) {
    const { spec, resources } = await resolveScenario(name, { agents: 333 });
    assert.equal(spec.spawners.reduce((a, s) => a + s.count, 0), 333, name);
    const built = buildScenario(validateScenario(spec, name), { registry: strategies, resources });
    const atStart = spec.spawners.reduce(
      (a, s) => a + (s.rate ? Math.min(1, s.count) : s.count),
      0,
    );
    assert.equal(
      built.world.agents.count,
      atStart,
      `${name} has room for the agents due at the start`,
    );
    assert.equal(
      built.world.population.pending.reduce((a, b) => a + b, 0),
      0,
      `${name}: nobody waits for room`,
    );
  }
  const spec = validateScenario({
    ...base(),
    spawners: [
      { area: { rect: [0, 0, 9, 9] }, count: 10, goal: { point: [20, 0] } },
      { area: { rect: [0, 10, 9, 19] }, count: 30, goal: { point: [20, 0] } },
    ],
  }, "t.json");
  assert.deepEqual(scaleScenario(spec, 10).spawners.map((s) => s.count), [3, 7]);
});

/** Copy of `spec` moved by (dx, dy). */
function shifted(spec: ScenarioSpec, dx: number, dy: number): ScenarioSpec {
  const p = (q: readonly [number, number]): [number, number] => [q[0] + dx, q[1] + dy];
  const area = (a: AreaSpec): AreaSpec => {
    if (a.rect) return { rect: [a.rect[0] + dx, a.rect[1] + dy, a.rect[2] + dx, a.rect[3] + dy] };
    if (a.circle) return { circle: { ...a.circle, center: p(a.circle.center) } };
    if (a.capsule) {
      return { capsule: { ...a.capsule, from: p(a.capsule.from), to: p(a.capsule.to) } };
    }
    if (a.point) return { point: p(a.point) };
    return { ring: { ...a.ring!, center: p(a.ring!.center) } };
  };
  return {
    ...spec,
    walls: spec.walls?.map((w) => Array.isArray(w) ? w.map(p) : { ...w, points: w.points.map(p) }),
    obstacles: spec.obstacles?.map((o) => o.map(p)),
    goals: spec.goals &&
      Object.fromEntries(Object.entries(spec.goals).map(([k, a]) => [k, area(a)])),
    spawners: spec.spawners.map((s) => ({
      ...s,
      area: area(s.area),
      goal: typeof s.goal === "string" ? s.goal : area(s.goal),
      via: s.via?.map(([a, b]) => [p(a), p(b)] as [[number, number], [number, number]]),
    })),
  };
}

function trajectory(spec: ScenarioSpec, steps: number, seed = 3): Float64Array[] {
  const built = buildScenario(spec, { registry: strategies, seed });
  const frames: Float64Array[] = [];
  for (let s = 0; s < steps; s++) {
    built.world.step();
    const a = built.world.agents;
    const frame = new Float64Array(a.count * 3);
    for (let i = 0; i < a.count; i++) {
      frame[3 * i] = a.serial[i];
      frame[3 * i + 1] = a.px[i];
      frame[3 * i + 2] = a.py[i];
    }
    frames.push(frame);
  }
  return frames;
}

Deno.test("the same scenario and seed give bit-identical trajectories", () => {
  for (const name of ["corridor", "crossing"]) {
    const spec = validateScenario(BUILTIN_SCENARIOS[name].create(40), name);
    const a = trajectory(spec, 300), b = trajectory(spec, 300);
    for (let s = 0; s < a.length; s++) {
      assert.deepEqual(
        new Uint8Array(a[s].buffer),
        new Uint8Array(b[s].buffer),
        `${name} step ${s}`,
      );
    }
    const c = trajectory(spec, 1, 4);
    assert.notDeepEqual(a[0], c[0], "another seed places agents elsewhere");
  }
});

Deno.test("shifting a whole scenario shifts its trajectories and changes nothing else", () => {
  const dx = 1234.5, dy = -987.25;
  for (const name of ["bottleneck", "crossing", "intersection"]) {
    const spec = validateScenario(BUILTIN_SCENARIOS[name].create(40), name);
    const a = trajectory(spec, 400), b = trajectory(shifted(spec, dx, dy), 400);
    let worst = 0;
    for (let s = 0; s < a.length; s++) {
      assert.equal(a[s].length, b[s].length, `${name}: same agents at step ${s}`);
      for (let k = 0; k < a[s].length; k += 3) {
        assert.equal(a[s][k], b[s][k], "same agent order");
        worst = Math.max(
          worst,
          Math.abs(a[s][k + 1] + dx - b[s][k + 1]),
          Math.abs(a[s][k + 2] + dy - b[s][k + 2]),
        );
      }
    }
    assert.ok(worst < 1e-9, `${name}: largest difference ${worst} m`);
  }
});

/** Warnings of building `mutate(base)`. */
function buildWarnings(mutate: (s: Record<string, unknown>) => void): string[] {
  const spec = base();
  mutate(spec);
  return buildScenario(validateScenario(spec, "t.json"), { registry: strategies, source: "t.json" })
    .warnings;
}

Deno.test("scenario validation: prototype names are names, not methods", () => {
  for (const name of ["toString", "constructor", "hasOwnProperty"]) {
    assertRejects(
      (s) => spawner0(s).goal = name,
      new RegExp(`spawners\\[0\\]\\.goal: unknown goal '${name}': goals are east$`),
    );
    // A goal that is really called so works.
    const spec = base();
    spec.goals = { [name]: { rect: [8, -1, 10, 1] } };
    spawner0(spec).goal = name;
    const built = buildScenario(validateScenario(spec, "t.json"), { registry: strategies });
    assert.ok(built.world.agents.goalX[0] >= 8);
  }
  assert.throws(
    () => parseScenario('{"name": "x", "goals": {"__proto__": {"rect": [0, 0, 1, 1]}}}', "p.json"),
    /^ScenarioError: p\.json: line 1, column 25: '__proto__' is not allowed as a field name$/,
  );
});

Deno.test("scenario files: a byte order mark is skipped, deep nesting is refused by line and column", () => {
  const text = JSON.stringify(base());
  assert.equal(parseScenario(`\uFEFF${text}`, "bom.json").name, "t");
  const deep = `{"name": "x", "description": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
  assert.throws(
    () => parseScenario(deep, "deep.json"),
    /^ScenarioError: deep\.json: line 1, column 93: nested deeper than 64 levels/,
  );
  // 60 levels pass the parser and reach validation (the format's deepest field needs about 8).
  assert.throws(
    () => parseScenario(`{"name": "x", "a": ${"[".repeat(60)}${"]".repeat(60)}}`, "ok.json"),
    /ok\.json: (unknown field 'a'|spawners: required field is missing)$/,
  );
});

Deno.test("scenario files: a FIFO, a device or a directory is refused without reading it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/scenario.json`;
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.equal(made.code, 0);
    await assert.rejects(
      () => resolveScenario(fifo),
      /scenario\.json: cannot read scenario file: it is a FIFO, not a regular file$/,
    );
    await assert.rejects(
      () => resolveScenario("/dev/zero"),
      /\/dev\/zero: cannot read scenario file: it is a device, not a regular file$/,
    );
    await assert.rejects(
      () => resolveScenario(`${dir}/`),
      /cannot read scenario file: is a directory$/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scenario validation: coinciding throughput line ends and coordinates beyond 10,000 km are named", () => {
  assertRejects(
    (s) => s.metrics = { throughputLine: { name: "m", from: [1, 1], to: [1, 1] } },
    /metrics\.throughputLine: must have distinct ends "from" and "to"/,
  );
  assertRejects(
    (s) => spawner0(s).area = { rect: [1e300, 1e300, 1.1e300, 1.1e300] },
    /spawners\[0\]\.area\.rect\[0\]: must be within ±10000000 m of the origin/,
  );
  assertRejects(
    (s) => s.walls = [[[-1e300, 0], [1e300, 0]]],
    /walls\[0\]\[0\]\[0\]: must be within ±10000000 m/,
  );
  assertRejects(
    (s) => spawner0(s).area = { circle: { center: [0, 0], radius: 1e12 } },
    /spawners\[0\]\.area\.circle\.radius: must be within ±10000000 m/,
  );
});

Deno.test("scenario validation: spawn areas under obstacles are refused or repaired with a warning", () => {
  // Entirely under a pillar: nobody could be placed.
  assertRejects(
    (s) => s.obstacles = [[[-1, -2], [3, -2], [3, 2], [-1, 2]]],
    /spawners\[0\]\.area: it lies inside obstacles\[0\]: none of its 3 agents \(radius 0\.25 m\) could be placed$/,
  );
  // A third under it (and its edge): 12 agents do not fit in the 5.3 m² left (8 m² take 17).
  assertRejects(
    (s) => {
      s.obstacles = [[[-1, -2], [1, -2], [1, 2], [-1, 2]]];
      spawner0(s).area = { rect: [0, -1, 4, 1] };
      spawner0(s).count = 12;
    },
    /spawners\[0\]\.area: 12 agents of radius 0\.25 m do not fit in the 5\.3 m² of its 8\.0 m² rect left clear by walls and obstacles \(at most about 11\)/,
  );
  // Half under it with room for everyone: placed in the rest, and the warning says so.
  const warnings = buildWarnings((s) => s.obstacles = [[[-1, -2], [1, -2], [1, 2], [-1, 2]]]);
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0],
    /^spawners\[0\]\.area: (5\d|6\d)% of it is under obstacles or too close to a wall: agents are placed in the rest$/,
  );
  // A ring place under an obstacle would wait forever.
  assertRejects(
    (s) => {
      s.obstacles = [[[4.5, -0.5], [5.5, -0.5], [5.5, 0.5], [4.5, 0.5]]];
      spawner0(s).area = { ring: { center: [0, 0], radius: 5 } };
      spawner0(s).goal = "antipodal";
    },
    /spawners\[0\]\.area: 1 of its 3 places on the ring are blocked by walls or obstacles/,
  );
});

Deno.test("scenario validation: a goal inside a solid obstacle is refused, one partly inside is drawn from the rest", () => {
  assertRejects(
    (s) => s.obstacles = [[[7, -3], [12, -3], [12, 3], [7, 3]]],
    /goals\.east: the goal lies inside obstacles\[0\], farther than the arrival radius \(0\.5 m\) from its edge: no agent could reach it$/,
  );
  assertRejects(
    (s) => {
      s.obstacles = [[[7, -3], [12, -3], [12, 3], [7, 3]]];
      spawner0(s).goal = { point: [9.5, 0] };
    },
    /spawners\[0\]\.goal: the goal lies inside obstacles\[0\]/,
  );
  const warnings = buildWarnings((s) => s.obstacles = [[[9, -3], [12, -3], [12, 3], [9, 3]]]);
  assert.deepEqual(warnings.length, 1);
  assert.match(
    warnings[0],
    /^goals\.east: \d+% of the goal lies inside obstacles\[0\].*: goals are drawn from the rest of it$/,
  );
});

Deno.test("scenario validation: a self-crossing obstacle and a gate through a pillar are named", () => {
  assertRejects(
    (s) => s.obstacles = [[[4, -2], [8, 2], [8, -2], [4, 1]]],
    /obstacles\[0\]: Cannot add polygon #0 as its edges 0–1 and 2–3 cross/,
  );
  const warnings = buildWarnings((s) => {
    s.obstacles = [[[4, -0.5], [5, -0.5], [5, 0.5], [4, 0.5]]];
    spawner0(s).via = [[[4.5, -1.8], [4.5, 1.8]]];
  });
  assert.deepEqual(warnings, [
    "spawners[0].via[0]: the gate passes through obstacles[0]: agents heading for the part inside it can get stuck; end the gate at the obstacle",
  ]);
});

Deno.test("scenario validation: strategy columns outside their option's range are named with the range", () => {
  const withColumns = (columns: Record<string, unknown>) => (s: Record<string, unknown>) => {
    s.strategy = { name: "raycast-cluster" };
    s.agents = { columns };
  };
  for (const value of [-5, 1e9, 2]) {
    assertRejects(
      withColumns({ "raycast.rayCount": value }),
      new RegExp(
        `agents\\.columns\\.raycast\\.rayCount: every value must be an integer in \\[3, 21\\]: current value is ${value}$`,
      ),
    );
  }
  assertRejects(
    withColumns({ "raycast.rayCount": 2.5 }),
    /raycast\.rayCount: every value must be an integer in \[3, 21\]: current value is 2\.5/,
  );
  assertRejects(
    withColumns({ "raycast.rayCount": { uniform: { min: 5, max: 9 } } }),
    /raycast\.rayCount: takes whole numbers: give a number, not a distribution/,
  );
  assertRejects(
    withColumns({ "raycast.arcDeg": { uniform: { min: 0, max: 90 } } }),
    /raycast\.arcDeg: every value must be a number in \(0, 180\]: the distribution reaches 0$/,
  );
  const spec = base();
  withColumns({ "raycast.rayCount": 9, "raycast.arcDeg": { uniform: { min: 30, max: 90 } } })(spec);
  const built = buildScenario(validateScenario(spec, "t.json"), { registry: strategies });
  assert.equal(built.world.agents.column<Uint8Array>("raycast.rayCount")[0], 9);
});

Deno.test("scenario validation: speeds, radii and durations beyond sense are named", () => {
  assertRejects(
    (s) => s.agents = { desiredSpeed: 1e9 },
    /agents\.desiredSpeed: every speed must be <= 10 m\/s .*: the largest possible value is 1000000000$/,
  );
  assertRejects(
    (s) => spawner0(s).agents = { radius: { uniform: { min: 0.2, max: 40 } } },
    /spawners\[0\]\.agents\.radius: every radius must be <= 5 m: the largest possible value is 40$/,
  );
  assertRejects(
    (s) => s.duration = 1e308,
    /^t\.json: duration: 1e\+308 s at dt 0\.05 s needs more than the 4294967295 steps a run can take \(at most \d+(\.\d+)? s\)$/,
  );
});

Deno.test("scenario validation: a crowd that would not fit in memory is refused before any agent is placed", () => {
  const spec = validateScenario({
    ...base(),
    spawners: [{ area: { rect: [0, 0, 1e6, 1e6] }, count: 1e9, goal: { point: [9, 0] } }],
  }, "big.json");
  assert.throws(
    () => buildScenario(spec, { registry: strategies, source: "big.json" }),
    /^ScenarioError: big\.json: spawners\[0\]\.count: 1000000000 agents would need about \d+\.\d GB of memory, more than/,
  );
  assert.throws(
    () =>
      buildScenario(BUILTIN_SCENARIOS.corridor.create(2000), {
        registry: strategies,
        agents: 2000,
        memoryBudgetBytes: 1e6,
      }),
    /built-in scenario|scenario 'corridor': --agents: 2000 agents would need about \d+ MB of memory, more than the budget of 1 MB$/,
  );
});

Deno.test("scenario validation: messages name types in words and the seed's real limit; a ring may hold one agent", () => {
  assertRejects((s) => s.goals = [], /goals: expected an object: current value is \[\]/);
  assertRejects((s) => spawner0(s).via = {}, /spawners\[0\]\.via: expected a list/);
  assertRejects((s) => s.seed = 1e300, /seed: must be <= 4294967295: current value is 1e\+300$/);
  const spec = base();
  spawner0(spec).area = { ring: { center: [0, 0], radius: 3 } };
  spawner0(spec).count = 1;
  spawner0(spec).goal = "antipodal";
  const built = buildScenario(validateScenario(spec, "t.json"), { registry: strategies });
  assert.equal(built.world.agents.count, 1);
  assert.equal(built.world.agents.goalX[0], -3);
});

Deno.test("scenario validation: a solid polygon of more than 5000 corners is refused; 5000 are checked quickly", () => {
  const circle = (n: number) =>
    Array.from({ length: n }, (_, i) => [
      30 + 5 * Math.cos((2 * Math.PI * i) / n),
      5 * Math.sin((2 * Math.PI * i) / n),
    ]);
  assertRejects(
    (s) => s.obstacles = [circle(5001)],
    /obstacles\[0\]: expected at most 5000 items: current value is/,
  );
  const spec = base();
  spec.obstacles = [circle(5000)];
  const built = buildScenario(validateScenario(spec, "t.json"), { registry: strategies });
  assert.equal(built.world.obstacles.polygons[0].length, 5000);
});

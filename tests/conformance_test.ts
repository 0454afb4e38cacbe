/**
 * The conformance suite: every registered strategy, the same situations, the same bar.
 *
 * For each strategy: an empty world runs; a lone agent walks straight to its goal at its desired
 * speed; a head-on pair passes and both arrive; a circle of 24 swaps places and everyone
 * arrives; a rerun with the same seed is bit-identical; every option at its limits runs without
 * NaN. Strategies that avoid collisions (all but the `none` baseline) must keep the pair apart
 * (overlap ≤ 1 cm) and the circle's largest overlap ≤ 0.1 m (a fifth of a body diameter).
 */
import assert from "node:assert/strict";
import type { StrategyFactory } from "../core/strategy.ts";
import { World } from "../core/world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { ringRadiusFor } from "../scenarios/build.ts";
import { strategies } from "../strategies/mod.ts";
import type { OptionSpec } from "../core/options.ts";

const PAIR_OVERLAP_LIMIT = 0.01; // m
const CIRCLE_OVERLAP_LIMIT = 0.1; // m

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

for (const factory of strategies.list()) {
  const avoids = factory.avoidsCollisions !== false;
  const name = factory.name;

  Deno.test(`${name} runs an empty world`, () => {
    const world = new World({ strategy: factory.create({}), navigator: createGoalSeeker() });
    for (let i = 0; i < 100; i++) world.step();
    assert.equal(world.agents.count, 0);
    assert.equal(world.stepIndex, 100);
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
  });

  Deno.test(`${name} passes a head-on pair and both arrive`, () => {
    const r = runRing(factory, 2, { radius: 5, maxSteps: 600 });
    assert.ok(r.arrivedAll, `both arrive (after ${r.steps} steps)`);
    if (avoids) {
      assert.ok(r.maxOverlap <= PAIR_OVERLAP_LIMIT, `largest overlap ${r.maxOverlap.toFixed(4)} m`);
    }
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
  });

  Deno.test(`${name} reruns bit-identically from the same seed`, () => {
    const a = runRing(factory, 24, { maxSteps: 300, seed: 11 });
    const b = runRing(factory, 24, { maxSteps: 300, seed: 11 });
    assert.equal(a.steps, b.steps);
    assert.equal(a.finalHash, b.finalHash);
  });

  for (const [option, spec] of Object.entries(factory.options as Record<string, OptionSpec>)) {
    for (const value of limitValues(spec)) {
      Deno.test(`${name} runs with ${option} = ${value}`, () => {
        runRing(factory, 2, { radius: 3, maxSteps: 200, strategyOptions: { [option]: value } });
      });
    }
  }
}

Deno.test("the conformance suite covers every registered strategy", () => {
  assert.ok(strategies.names().includes("none"));
  for (const factory of strategies.list()) {
    assert.equal(typeof factory.create, "function");
    assert.ok(factory.description.length > 0, `${factory.name} has a description`);
  }
});

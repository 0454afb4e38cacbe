import assert from "node:assert/strict";
import { StrategyRegistry } from "../core/registry.ts";
import type { StepContext, Strategy } from "../core/strategy.ts";
import { World } from "../core/world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { buildScenario } from "../scenarios/build.ts";
import { loadScenarioFile, ScenarioError } from "../scenarios/load.ts";
import { runScenario } from "../scenarios/run.ts";
import { strategies } from "./mod.ts";
import { SQUEEZE_SHARE } from "./_right_of_way.ts";
import { headwayGap } from "./steering/avoid_volume.ts";
import { noneStrategy } from "./none.ts";
import {
  createPrioritySteeringFactory,
  createPriorityStrategy,
  type PrioritySteeringOptions,
  STEERING_GROUP_COLUMN,
} from "./priority_steering.ts";

function groupOf(world: World, index: number): number {
  return world.agents.column<Int32Array>(STEERING_GROUP_COLUMN)[index];
}

Deno.test("priority steering lets the seek group decide while the way is clear", () => {
  const world = new World({
    strategy: strategies.create("priority-steering"),
    navigator: createGoalSeeker(),
  });
  const h = world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1.3 });
  const decided: number[] = [];
  while (!world.finished && world.stepIndex < 300) {
    world.step();
    const i = world.agents.indexOf(h);
    if (i < 0) break;
    decided.push(groupOf(world, i));
    assert.equal(world.strategy.inspect!(world, i).group, decided.at(-1));
  }
  assert.ok(world.finished);
  // Seek (group 1) accelerates the agent from rest; avoidance (group 0) never decides. Once the
  // agent walks exactly at its preferred velocity, no group has anything to do (-1).
  assert.deepEqual(decided.slice(0, 20), new Array(20).fill(1));
  assert.ok(decided.every((g) => g === 1 || g === -1), `groups seen: ${[...new Set(decided)]}`);
});

Deno.test("priority steering lets the avoidance group win while an obstacle is ahead", () => {
  const world = new World({
    strategy: strategies.create("priority-steering"),
    navigator: createGoalSeeker(),
  });
  world.obstacles.addPolygon([[1.2, -0.5], [2.2, -0.5], [2.2, 0.5], [1.2, 0.5]]);
  const h = world.addAgent({ x: 0, y: 0, goalX: 6, goalY: 0, desiredSpeed: 1.3 });
  const decided: number[] = [];
  while (!world.finished && world.stepIndex < 400) {
    world.step();
    const i = world.agents.indexOf(h);
    if (i >= 0) decided.push(groupOf(world, i));
  }
  assert.ok(world.finished);
  // The square is 1.2 m ahead, inside the 2 m sight range: avoidance decides from the start.
  assert.equal(decided[0], 0);
  assert.ok(
    decided.filter((g) => g === 0).length >= 10,
    `avoidance decided ${decided.filter((g) => g === 0).length} steps`,
  );
  // Once past it, seek decides again.
  assert.equal(decided.at(-1), 1);
});

Deno.test("priority steering runs a composition given in a scenario file and everyone arrives", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/composed.json`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        name: "composed",
        duration: 40,
        obstacles: [[[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]],
        spawners: [
          { area: { rect: [-8, -2, -6, 2] }, count: 8, goal: { rect: [7, -2, 9, 2] } },
          { area: { rect: [6, -2, 8, 2] }, count: 8, goal: { rect: [-9, -2, -7, 2] } },
        ],
        strategy: {
          name: "priority-steering",
          options: {
            groups: [
              [["boxcast", 1.0, { preset: "light" }]],
              [["seek", 1.0], { behaviour: "separation", weight: 0.6, options: { range: 0.4 } }, [
                "drag",
                0.3,
              ]],
            ],
            epsilon: 0.001,
          },
        },
      }),
    );
    const spec = await loadScenarioFile(path);
    const built = buildScenario(spec, { registry: strategies, source: path });
    assert.equal(built.strategyName, "priority-steering");
    // Bodies overlap at most as far as a pinned agent turns its shoulders to squeeze by (a fifth
    // of its radius, see strategies/steering/contact.ts): the 8 and 8 meet at the pillar.
    let deepest = 0, allowed = 0;
    const overlaps = {
      afterStep(world: World) {
        const a = world.agents;
        for (let i = 0; i < a.count; i++) {
          allowed = Math.max(allowed, SQUEEZE_SHARE * a.radius[i] + 0.001);
          for (let j = i + 1; j < a.count; j++) {
            const d = Math.hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]);
            deepest = Math.max(deepest, a.radius[i] + a.radius[j] - d);
          }
        }
      },
    };
    const outcome = await runScenario(built, { observers: [overlaps] });
    assert.equal(outcome.metrics.arrivedFraction, 1);
    assert.ok(deepest <= allowed, `deepest overlap ${deepest} m, allowed ${allowed} m`);
    assert.equal(outcome.metrics.wallPenetrations, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("priority steering names the entry of a bad composition in a scenario", () => {
  const build = (groups: unknown) =>
    buildScenario({
      name: "bad",
      spawners: [{ area: { rect: [0, 0, 1, 1] }, count: 1, goal: { point: [5, 0] } }],
      strategy: { name: "priority-steering", options: { groups } },
    }, { registry: strategies, source: "bad.json" });
  assert.throws(
    () => build([[["boxcast", 1]], [["sek", 1]]]),
    (error: Error) =>
      error instanceof ScenarioError &&
      /^bad\.json: strategy\.options: .*'groups' is invalid: groups\[1\]\[0\]\.behaviour: unknown behaviour 'sek' \(known: seek, arrive, separation, drag, boxcast; or a registered strategy: none,/
        .test(error.message),
  );
  assert.throws(
    () => build([[["seek", 0]]]),
    /groups\[0\]\[0\]\.weight: must be a finite number > 0: current value is 0/,
  );
  assert.throws(
    () => build([[["seek", 1, { relaxationTime: -1 }]]]),
    /groups\[0\]\[0\]\.options: .*'relaxationTime' must be >= 0\.05/,
  );
  assert.throws(
    () => build([[["drag", 1]], [["drag", 1]]]),
    /groups\[1\]\[0\]\.behaviour: 'drag' already appears at groups\[0\]\[0\]/,
  );
  assert.throws(() => build([]), /groups: expected a non-empty array of groups/);
  assert.throws(
    () => build([[{ behavior: "seek", weight: 1 }]]),
    /groups\[0\]\[0\]: unknown field 'behavior'/,
  );
});

Deno.test("priority steering runs a wrapped strategy once per step, not once per agent", () => {
  let calls = 0;
  const spy: Strategy = {
    name: "spy",
    neighborRadius: 0,
    computeNewVelocities(ctx: StepContext, begin: number, end: number) {
      calls++;
      ctx.agents.newVx.set(ctx.agents.prefVx.subarray(begin, end), begin);
      ctx.agents.newVy.set(ctx.agents.prefVy.subarray(begin, end), begin);
    },
  };
  const registry = new StrategyRegistry();
  registry.register({
    name: "spy",
    description: "counts its calls",
    options: {},
    create: () => spy,
  });
  registry.register(createPrioritySteeringFactory(() => registry));
  const strategy = registry.create("priority-steering", { groups: [[["spy", 1]]], contact: false });
  const world = new World({ strategy, navigator: createGoalSeeker() });
  for (let k = 0; k < 50; k++) world.addAgent({ x: k, y: 0, goalX: k, goalY: 100 });
  for (let s = 0; s < 10; s++) world.step();
  assert.equal(calls, 10);
  // The wrapped strategy's velocity is taken as it is: (v_spy − v)/dt applied over dt.
  for (let i = 0; i < world.agents.count; i++) {
    assert.ok(Math.abs(world.agents.vy[i] - 1.34) < 1e-12);
    assert.equal(world.agents.vx[i], 0);
  }
});

Deno.test("priority steering blends a group by weight and leaves the velocity alone below epsilon", () => {
  const run = (options: Partial<PrioritySteeringOptions>) => {
    const world = new World({
      strategy: createPriorityStrategy({ contact: false, ...options }),
      navigator: createGoalSeeker(),
    });
    world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1 });
    world.step();
    return { vx: world.agents.vx[0], group: groupOf(world, 0) };
  };
  // Seek with τ = 0.4 s from rest: a = 1/0.4 = 2.5 m/s², weighted by 0.5, for 0.05 s.
  const half = run({ groups: [[{ behaviour: "seek", weight: 0.5 }]] });
  assert.ok(Math.abs(half.vx - 0.5 * 2.5 * 0.05) < 1e-12, `vx ${half.vx}`);
  assert.equal(half.group, 0);
  // No group exceeds 10 m/s²: nothing decides and the agent stays at rest.
  const none = run({ groups: [[{ behaviour: "seek", weight: 1 }]], epsilon: 10 });
  assert.equal(none.vx, 0);
  assert.equal(none.group, -1);
  // A lower group decides when the first stays below epsilon.
  const second = run({
    groups: [[{ behaviour: "drag", weight: 1 }], [{ behaviour: "seek", weight: 1 }]],
  });
  assert.equal(second.group, 1);
});

Deno.test("priority steering resolves built-in behaviours before strategies of the same name", () => {
  const registry = new StrategyRegistry();
  registry.register(noneStrategy);
  registry.register({ ...noneStrategy, name: "seek" }); // a strategy that shadows nothing
  const strategy = createPriorityStrategy(
    { groups: [[{ behaviour: "seek", weight: 1 }]] },
    registry,
  );
  const world = new World({ strategy, navigator: createGoalSeeker() });
  world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1 });
  world.step();
  // The built-in seek relaxes over 0.4 s; the wrapped `none` would jump to 1 m/s at once.
  assert.ok(world.agents.vx[0] < 0.2, `vx ${world.agents.vx[0]}`);
});

Deno.test("boxcast's time gap holds in a later group too, when an earlier group decides", () => {
  // Seek first: it always decides, so boxcast never accelerates, yet its speed rule still caps
  // the follower at the free gap to the slower walker ahead over 1 s.
  const world = new World({
    strategy: createPriorityStrategy({ groups: [[["seek", 1]], [["boxcast", 1]]] } as never),
    navigator: createGoalSeeker(),
  });
  const leader = world.addAgent({ x: 3, y: 0, goalX: 75, goalY: 0, desiredSpeed: 0.6 });
  const follower = world.addAgent({ x: 0, y: 0, goalX: 75, goalY: 0, desiredSpeed: 1.3 });
  while (world.stepIndex < 400) world.step();
  const a = world.agents, i = a.indexOf(follower), j = a.indexOf(leader);
  assert.equal(groupOf(world, i), 0);
  const gap = headwayGap(a.px[j] - a.px[i], a.py[j] - a.py[i], a.radius[i] + a.radius[j]);
  assert.ok(Math.abs(a.vx[i] - 0.6) < 0.01, `follower at ${a.vx[i]} m/s`);
  assert.ok(Math.abs(gap - a.vx[i] * 1) < 0.02, `free gap ${gap} m at ${a.vx[i]} m/s`);
});

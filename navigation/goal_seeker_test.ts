import assert from "node:assert/strict";
import { AgentFlags, AgentStore } from "../core/agent_store.ts";
import type { NavigationContext } from "../core/navigator.ts";
import { createGoalSeeker } from "./goal_seeker.ts";
import { World } from "../core/world.ts";
import { createNoneStrategy } from "../strategies/none.ts";

function agentsAt(
  inits: { x: number; y: number; goalX: number; goalY: number; desiredSpeed: number }[],
) {
  const agents = new AgentStore();
  for (const init of inits) agents.add(init);
  return { agents } as unknown as NavigationContext;
}

Deno.test("goal seeker points at the goal at the desired speed", () => {
  const ctx = agentsAt([
    { x: 0, y: 0, goalX: 3, goalY: 4, desiredSpeed: 1 },
    { x: -10, y: 5, goalX: -10, goalY: -5, desiredSpeed: 1.5 },
  ]);
  createGoalSeeker().updatePreferredVelocities(ctx, 0, 2);
  const a = ctx.agents;
  assert(Math.abs(a.prefVx[0] - 0.6) < 1e-15 && Math.abs(a.prefVy[0] - 0.8) < 1e-15);
  assert.deepEqual([a.prefVx[1], a.prefVy[1]], [0, -1.5]);
});

Deno.test("goal seeker slows down linearly inside the slowing distance and stops at the goal", () => {
  const ctx = agentsAt([
    { x: 0, y: 0, goalX: 0.5, goalY: 0, desiredSpeed: 1.2 },
    { x: 0, y: 0, goalX: 5, goalY: 0, desiredSpeed: 1.2 },
    { x: 2, y: 2, goalX: 2, goalY: 2, desiredSpeed: 1.2 },
    { x: 0, y: 0, goalX: 9, goalY: 0, desiredSpeed: 1.2 },
  ]);
  ctx.agents.flags[3] |= AgentFlags.arrived;
  createGoalSeeker({ slowingDistance: 2 }).updatePreferredVelocities(ctx, 0, 4);
  const a = ctx.agents;
  assert(
    Math.abs(a.prefVx[0] - 0.3) < 1e-15,
    `${a.prefVx[0]}: a quarter of the speed at a quarter of the distance`,
  );
  assert.equal(a.prefVx[1], 1.2);
  assert.deepEqual([a.prefVx[2], a.prefVy[2]], [0, 0], "at the goal");
  assert.deepEqual([a.prefVx[3], a.prefVy[3]], [0, 0], "arrived");
});

Deno.test("goal seeker rejects a negative slowing distance naming it", () => {
  assert.throws(
    () => createGoalSeeker({ slowingDistance: -1 }),
    /goal seeker as 'slowingDistance' must be >= 0: current value is -1/,
  );
});

Deno.test("goal seeker routes agents through a spawner's gates: nobody walks into the walls beside a door", async () => {
  const { buildScenario } = await import("../scenarios/build.ts");
  const { runScenario } = await import("../scenarios/run.ts");
  const { bottleneckScenario } = await import("../scenarios/builtin/bottleneck.ts");
  const { strategies } = await import("../strategies/mod.ts");
  const spec = bottleneckScenario(60);
  const withGate = await runScenario(
    buildScenario(spec, { registry: strategies, strategy: { name: "none" } }),
  );
  assert.equal(withGate.metrics.arrivedFraction, 1);
  assert.equal(
    withGate.metrics.wallCrossings,
    0,
    "every straight leg stays inside the room or beyond the door",
  );
  const noGate = { ...spec, spawners: spec.spawners.map((s) => ({ ...s, via: undefined })) };
  const straight = await runScenario(
    buildScenario(noGate, { registry: strategies, strategy: { name: "none" } }),
  );
  assert.ok(
    straight.metrics.wallCrossings > 20,
    `without the gate ${straight.metrics.wallCrossings} moves cross a wall`,
  );
});

Deno.test("goal seeker moves on to the goal once the agent is past the gate", () => {
  const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
  world.population.addSpawner({
    name: "one",
    area: { kind: "point", x: -3, y: 2 },
    count: 1,
    goal: { kind: "area", area: { kind: "point", x: 6, y: 0 } },
    via: [{ ax: 0, ay: -0.5, bx: 0, by: 0.5 }],
  });
  world.prepare();
  const next = world.agents.column<Int32Array>("route.next");
  const h = world.agents.handleAt(0);
  // Heading for the gate: the nearest point of the door kept 0.35 m from its ends is (0, 0.15).
  world.step();
  const a = world.agent(h)!;
  const toGate = Math.atan2(0.15 - 2, 0 - -3);
  assert.ok(Math.abs(Math.atan2(a.vy, a.vx) - toGate) < 1e-9);
  while (world.agent(h)!.x < 0) world.step();
  world.step();
  assert.equal(next[world.agents.indexOf(h)], 1, "the gate is passed");
  const b = world.agent(h)!;
  assert.ok(Math.abs(Math.atan2(b.vy, b.vx) - Math.atan2(0 - b.y, 6 - (b.x - b.vx * 0.05))) < 0.05);
});

Deno.test("gate margin at its limits: 0 keeps a body radius from the door post, 5 aims at the middle", () => {
  for (const [gateMargin, aimY] of [[0, 1.75], [5, 1]]) {
    const world = new World({
      strategy: createNoneStrategy(),
      navigator: createGoalSeeker({ gateMargin }),
    });
    world.population.addSpawner({
      name: "one",
      area: { kind: "point", x: -3, y: 4 },
      count: 1,
      goal: { kind: "area", area: { kind: "point", x: 6, y: 4 } },
      via: [{ ax: 0, ay: 0, bx: 0, by: 2 }], // a 2 m door below the agent's line
      agent: { radius: { kind: "constant", value: 0.25 } },
    });
    world.prepare();
    world.step();
    const a = world.agents;
    // Heading for (0, aimY): 2 m door, ends pulled in by 0.25 m (+ margin), capped at the middle.
    const expected = Math.atan2(aimY - 4, 3);
    assert.ok(
      Math.abs(Math.atan2(a.prefVy[0], a.prefVx[0]) - expected) < 1e-9,
      `margin ${gateMargin}`,
    );
  }
});

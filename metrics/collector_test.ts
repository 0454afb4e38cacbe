import assert from "node:assert/strict";
import type { StepContext, Strategy } from "../core/strategy.ts";
import { World, type WorldOptions } from "../core/world.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { MetricsCollector, type MetricsCollectorOptions } from "./collector.ts";
import { METRIC_NAMES } from "./run_metrics.ts";

const DT = 0.05;

function makeWorld(options: Partial<WorldOptions> = {}): World {
  return new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker(), ...options });
}

function observe(world: World, options?: MetricsCollectorOptions): MetricsCollector {
  const collector = new MetricsCollector(options);
  world.addObserver(collector);
  return collector;
}

function steps(world: World, count: number): void {
  for (let k = 0; k < count; k++) world.step();
}

function near(actual: number | null, expected: number, tolerance: number, what: string): void {
  assert.ok(
    actual !== null && Math.abs(actual - expected) <= tolerance,
    `${what}: expected ${expected} ± ${tolerance}, got ${actual}`,
  );
}

Deno.test("two agents walking through each other with none collide and overlap by 2r", () => {
  const world = makeWorld();
  world.addAgent({ x: -5, y: 0, goalX: 5, goalY: 0, desiredSpeed: 1, radius: 0.25 });
  world.addAgent({ x: 5, y: 0, goalX: -5, goalY: 0, desiredSpeed: 1, radius: 0.25 });
  const metrics = observe(world);
  steps(world, 120);
  const result = metrics.result();
  // The gap closes by 0.1 m per step: centre distances 0.4, 0.3, 0.2, 0.1, 0, 0.1, … 0.4 overlap.
  assert.equal(result.collisions, 9);
  near(result.maxPenetration, 0.5, 1e-9, "maxPenetration");
  near(result.minDistance, 0, 1e-9, "minDistance");
});

Deno.test("two agents walking parallel 1 m apart never collide and keep 1 m", () => {
  const world = makeWorld();
  world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1 });
  world.addAgent({ x: 0, y: 1, goalX: 10, goalY: 1, desiredSpeed: 1 });
  const metrics = observe(world);
  steps(world, 100);
  const result = metrics.result();
  assert.equal(result.collisions, 0);
  assert.equal(result.maxPenetration, 0);
  near(result.minDistance, 1, 1e-12, "minDistance");
});

Deno.test("one agent walking straight to its goal is efficient, steady and on time", () => {
  const world = makeWorld();
  world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1.2 });
  const metrics = observe(world);
  while (!world.finished) world.step();
  steps(world, 10); // it stays; the extra steps must not change its trip metrics
  const result = metrics.result();
  assert.equal(result.trips, 1);
  assert.equal(result.arrivals, 1);
  assert.equal(result.arrivedFraction, 1);
  near(result.pathEfficiency, 1, 1e-12, "pathEfficiency");
  assert.equal(result.meanTurnRate, 0);
  near(result.meanSpeed, 1.2, 1e-12, "meanSpeed");
  // Arrival is detected at the end of the step that brings it within 0.5 m of the goal.
  near(result.meanTimeToGoal, (10 - world.arrivalRadius) / 1.2, DT, "meanTimeToGoal");
  assert.equal(result.p95TimeToGoal, result.meanTimeToGoal);
  assert.equal(result.stuck, 0);
  assert.equal(result.minDistance, null);
  assert.equal(result.collisions, 0);
  assert.equal(result.throughput, null);
  assert.equal(result.time, world.time);
  assert.equal(result.steps, world.stepIndex);
  assert.deepEqual(Object.keys(result).sort(), [...METRIC_NAMES].sort());
});

Deno.test("a right-angle turn gives its heading change over dt, spread over the moving steps", () => {
  // No navigator: the test steers through the preferred velocity, as RVO2 callers do.
  const world = new World({ strategy: createNoneStrategy() });
  const h = world.addAgent({ x: 0, y: 0, goalX: 100, goalY: 100 });
  const metrics = observe(world);
  for (let k = 0; k < 20; k++) {
    const i = world.agents.indexOf(h);
    world.agents.prefVx[i] = k < 10 ? 1 : 0;
    world.agents.prefVy[i] = k < 10 ? 0 : 1;
    world.step();
  }
  // The first step starts from rest, so 19 steps qualify; one of them turns by π/2.
  near(metrics.result().meanTurnRate, Math.PI / 2 / DT / 19, 1e-9, "meanTurnRate");
  near(metrics.result().meanSpeed, 1, 1e-12, "meanSpeed");
  assert.equal(metrics.result().pathEfficiency, null); // no arrival
});

Deno.test("an agent walking through a wall with none penetrates it and crosses it once", () => {
  const world = makeWorld();
  world.obstacles.addWall([[2, -1], [2, 1]]);
  world.addAgent({ x: 0, y: 0, goalX: 5, goalY: 0, desiredSpeed: 1, radius: 0.25 });
  const metrics = observe(world);
  steps(world, 100);
  const result = metrics.result();
  // Centres at x = 1.80, 1.85, …, 2.20 are closer than 0.25 - 0.001 m to the wall.
  assert.equal(result.wallPenetrations, 9);
  assert.equal(result.wallCrossings, 1);
  assert.equal(result.arrivals, 1);
});

Deno.test("an agent walking through a solid polygon penetrates it all the way across", () => {
  const world = makeWorld();
  world.obstacles.addPolygon([[3, -2], [6, -2], [6, 2], [3, 2]]);
  world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1, radius: 0.25 });
  const metrics = observe(world);
  steps(world, 220);
  const result = metrics.result();
  // x = 2.80 … 6.20: near an edge or with the centre inside (deep inside, no edge is near).
  assert.equal(result.wallPenetrations, 69);
  assert.equal(result.wallCrossings, 2);
});

Deno.test("a polygon added between steps around a standing agent counts as penetrated", () => {
  const world = makeWorld();
  world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 0 });
  const metrics = observe(world);
  world.step();
  assert.equal(metrics.result().wallPenetrations, 0);
  world.obstacles.addPolygon([[-3, -3], [3, -3], [3, 3], [-3, 3]]);
  steps(world, 2);
  assert.equal(metrics.result().wallPenetrations, 2);
  assert.equal(metrics.result().wallCrossings, 0);
});

Deno.test("an agent that does not move is stuck after stuckSeconds, once", () => {
  const world = makeWorld();
  world.addAgent({ x: 0, y: 0, goalX: 5, goalY: 0, desiredSpeed: 0 });
  const metrics = observe(world);
  steps(world, 199); // 9.95 s
  assert.equal(metrics.result().stuck, 0);
  world.step(); // 10 s
  assert.equal(metrics.result().stuck, 1);
  steps(world, 200);
  assert.equal(metrics.result().stuck, 1);
  assert.equal(metrics.result().meanSpeed, 0);
});

Deno.test("creeping slower than stuckProgress per stuckSeconds is stuck, faster is not", () => {
  const world = makeWorld();
  world.addAgent({ x: 0, y: 0, goalX: 100, goalY: 0, desiredSpeed: 0.02 }); // 0.2 m per 10 s
  world.addAgent({ x: 0, y: 5, goalX: 100, goalY: 5, desiredSpeed: 0.03 }); // 0.25 m in 8.3 s
  const metrics = observe(world, { stuckSeconds: 10, stuckProgress: 0.25 });
  steps(world, 400);
  assert.equal(metrics.result().stuck, 1);
});

Deno.test("throughput counts line crossings in either direction at their interpolated times", () => {
  const line = { name: "gate", from: [0, -5], to: [0, 5] } as const;
  const world = makeWorld();
  // Eastbound walkers cross x = 0 at t = 1, 2, 3, 4 s; one westbound walker at t = 2.5 s.
  for (let k = 1; k <= 4; k++) {
    world.addAgent({ x: -k, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1 });
  }
  world.addAgent({ x: 2.5, y: 3, goalX: -10, goalY: 3, desiredSpeed: 1 });
  const metrics = observe(world, { throughputLine: line });
  steps(world, 100);
  near(metrics.result().throughput, 4 / 3, 1e-9, "throughput");

  const lone = makeWorld();
  lone.addAgent({ x: -1, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1 });
  const single = observe(lone, { throughputLine: line });
  steps(lone, 100);
  assert.equal(single.result().throughput, null);
});

Deno.test("pair counts stay exact when a grid query overflows the collector's buffer", () => {
  const world = makeWorld();
  const side = 12, spacing = 0.1, radius = 0.06;
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++) {
      world.addAgent({
        x: c * spacing,
        y: r * spacing,
        radius,
        desiredSpeed: 0,
        goalX: 50,
        goalY: 0,
      });
    }
  }
  const metrics = observe(world);
  world.step();
  const result = metrics.result();
  // Neighbours along a row or column (0.1 m) overlap by 0.02 m; diagonal ones (0.141 m) do not.
  assert.equal(result.collisions, 2 * side * (side - 1));
  near(result.minDistance, spacing, 1e-12, "minDistance");
  near(result.maxPenetration, 2 * radius - spacing, 1e-12, "maxPenetration");
});

Deno.test("spawned agents that leave on arrival are accounted up to their last step", () => {
  const world = makeWorld();
  world.population.addSpawner({
    name: "west",
    area: { kind: "point", x: 0, y: 0 },
    count: 3,
    rate: 1,
    goal: { kind: "area", area: { kind: "point", x: 4, y: 0 } },
    onArrival: "remove",
    agent: { desiredSpeed: { kind: "constant", value: 1 } },
  });
  const metrics = observe(world);
  while (!world.finished) world.step();
  const result = metrics.result();
  assert.equal(result.trips, 3);
  assert.equal(result.arrivals, 3);
  assert.equal(result.arrivedFraction, 1);
  near(result.pathEfficiency, 1, 1e-12, "pathEfficiency");
  near(result.meanTimeToGoal, 3.5, DT + 1e-9, "meanTimeToGoal");
  // Agents placed during a step have not walked in it: their speed is not averaged in as 0.
  near(result.meanSpeed, 1, 1e-12, "meanSpeed");
});

Deno.test("every respawn starts a new trip", () => {
  const world = makeWorld();
  world.population.addSpawner({
    name: "loop",
    area: { kind: "point", x: 0, y: 0 },
    count: 1,
    goal: { kind: "area", area: { kind: "point", x: 2, y: 0 } },
    onArrival: "respawn",
    agent: { desiredSpeed: { kind: "constant", value: 1 } },
  });
  const metrics = observe(world);
  steps(world, 200); // 10 s of 1.5 s trips
  const result = metrics.result();
  assert.equal(result.arrivals, 6);
  assert.equal(result.trips, result.arrivals + 1);
  near(result.pathEfficiency, 1, 1e-12, "pathEfficiency");
});

Deno.test("per-agent state follows agents through swap-removes", () => {
  const world = makeWorld();
  const first = world.addAgent({ x: 0, y: 0, goalX: 20, goalY: 0, desiredSpeed: 1 });
  world.addAgent({ x: 0, y: 2, goalX: 6, goalY: 2, desiredSpeed: 1 });
  world.addAgent({ x: 0, y: 4, goalX: 4, goalY: 4, desiredSpeed: 2 });
  const metrics = observe(world);
  steps(world, 20);
  world.removeAgent(first); // the last agent moves into row 0
  steps(world, 100);
  const result = metrics.result();
  assert.equal(result.trips, 3);
  assert.equal(result.arrivals, 2);
  near(result.arrivedFraction, 2 / 3, 1e-12, "arrivedFraction");
  near(result.pathEfficiency, 1, 1e-12, "pathEfficiency");
  near(result.meanTimeToGoal, (5.5 / 1 + 3.5 / 2) / 2, DT, "meanTimeToGoal");
});

Deno.test("agents present at attach count as trips, arrived ones do not", () => {
  const world = makeWorld();
  world.addAgent({ x: 0, y: 0, goalX: 1, goalY: 0, desiredSpeed: 1 });
  world.addAgent({ x: 0, y: 3, goalX: 10, goalY: 3, desiredSpeed: 1 });
  steps(world, 20); // the first has arrived and stays; the second is 1 m along
  const metrics = observe(world);
  steps(world, 200);
  const result = metrics.result();
  assert.equal(result.trips, 1);
  assert.equal(result.arrivals, 1);
  // Measured from its position at attach; its time to goal still counts from its trip start.
  near(result.pathEfficiency, 1, 1e-12, "pathEfficiency");
  near(result.meanTimeToGoal, 9.5, DT, "meanTimeToGoal");
});

Deno.test("msPerStep is the mean of the world's step durations", () => {
  const world = makeWorld();
  world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0 });
  const metrics = observe(world);
  let total = 0;
  world.addObserver({ afterStep: (w) => void (total += w.lastStepMs) });
  steps(world, 30);
  near(metrics.result().msPerStep, total / 30, 1e-9, "msPerStep");
  assert.equal(new MetricsCollector().result().msPerStep, null);
});

Deno.test("options are validated with messages naming the option", () => {
  assert.throws(
    () => new MetricsCollector({ overlapTolerance: -1 }),
    { name: "RangeError", message: /'overlapTolerance' must be >= 0: current value is -1/ },
  );
  assert.throws(() => new MetricsCollector({ stuckSeconds: 0 }), /'stuckSeconds' must be > 0/);
  assert.throws(
    () => new MetricsCollector({ throughputLine: { name: "door", from: [0, 0], to: [0, 0] } }),
    { name: "RangeError", message: /'throughputLine' must have two distinct ends/ },
  );
  assert.throws(
    () => new MetricsCollector({ throughputLine: { name: "door", from: [0, NaN], to: [1, 0] } }),
    { name: "TypeError", message: /'throughputLine.from' must be two finite numbers/ },
  );
  assert.throws(
    () => new MetricsCollector({ stuckTime: 3 } as MetricsCollectorOptions),
    { name: "TypeError", message: /'stuckTime' is not one of its options/ },
  );
});

Deno.test("a collector observes exactly one world, and a world takes one collector", () => {
  const world = makeWorld();
  const metrics = observe(world);
  assert.throws(() => makeWorld().addObserver(metrics), /second world/);
  assert.throws(() => observe(world), /already has one/);
});

/**
 * A strategy that walks at the preferred velocity turned by `turn(serial, step)` radians (left
 * positive): the agent with that trip serial steers by that angle at that step.
 */
function scripted(turn: (serial: number, step: number) => number): Strategy {
  return {
    name: "scripted",
    neighborRadius: 0,
    computeNewVelocities(ctx: StepContext, begin: number, end: number): void {
      const a = ctx.agents;
      for (let i = begin; i < end; i++) {
        const t = turn(a.serial[i], ctx.stepIndex), c = Math.cos(t), s = Math.sin(t);
        a.newVx[i] = a.prefVx[i] * c - a.prefVy[i] * s;
        a.newVy[i] = a.prefVx[i] * s + a.prefVy[i] * c;
      }
    },
  };
}

/** Steers by `angle` (rad) during steps `from` … `to` - 1, else straight. */
const during = (from: number, to: number, angle: number) => (step: number) =>
  step >= from && step < to ? angle : 0;

/**
 * Two agents 10 m apart walk at 1 m/s towards each other (B 0.3 m to the side, so they would
 * brush); they come within 4 m at step 60 and pass at step 100. Returns `salsa`.
 */
function headOnSalsa(
  turnA: (step: number) => number,
  turnB: (step: number) => number = () => 0,
): number {
  const world = new World({
    strategy: scripted((serial, step) => (serial === 0 ? turnA(step) : turnB(step))),
    navigator: createGoalSeeker(),
  });
  world.addAgent({ x: -5, y: 0, goalX: 5, goalY: 0, desiredSpeed: 1 }); // serial 0
  world.addAgent({ x: 5, y: 0.3, goalX: -5, goalY: 0.3, desiredSpeed: 1 }); // serial 1
  const metrics = observe(world);
  steps(world, 200);
  return metrics.result().salsa;
}

Deno.test("salsa counts a head-on encounter in which the agent switches the side it steers to", () => {
  // Right (-0.3 rad) for 0.75 s, then left for 0.75 s, before they pass.
  const weave = (step: number) => during(62, 77, -0.3)(step) + during(77, 92, 0.3)(step);
  assert.equal(headOnSalsa(weave), 1);
  assert.equal(headOnSalsa(weave, weave), 2); // each agent counts its own encounter
  assert.equal(headOnSalsa(() => 0), 0); // walking straight
  assert.equal(headOnSalsa(during(62, 92, -0.3)), 0); // right all along: no reversal
  // A right-left weave that starts before the encounter (at 4 m) is not part of it.
  assert.equal(headOnSalsa((step) => during(10, 25, -0.3)(step) + during(25, 40, 0.3)(step)), 0);
  // After they passed (step 100) it does not count either.
  assert.equal(
    headOnSalsa((step) => during(110, 125, -0.3)(step) + during(125, 140, 0.3)(step)),
    0,
  );
});

Deno.test("salsa ignores side changes held for less than 0.25 s and small deviations", () => {
  // Left for 4 steps (0.2 s) only: not a chosen side.
  assert.equal(headOnSalsa((step) => during(62, 77, -0.3)(step) + during(77, 81, 0.3)(step)), 0);
  // Left for 5 steps (0.25 s): counted.
  assert.equal(headOnSalsa((step) => during(62, 77, -0.3)(step) + during(77, 82, 0.3)(step)), 1);
  // Deviations of 0.09 rad (sin < 0.1) are straight walking.
  assert.equal(headOnSalsa((step) => during(62, 77, -0.09)(step) + during(77, 92, 0.09)(step)), 0);
});

Deno.test("salsa needs an oncoming agent close ahead and to the front", () => {
  const weave = (step: number) => during(20, 40, -0.3)(step) + during(40, 60, 0.3)(step);
  const run = (b: { x: number; y: number; goalX: number; goalY: number }) => {
    const world = new World({
      strategy: scripted((serial, step) => (serial === 0 ? weave(step) : 0)),
      navigator: createGoalSeeker(),
    });
    world.addAgent({ x: -2, y: 0, goalX: 8, goalY: 0, desiredSpeed: 1 });
    world.addAgent({ ...b, desiredSpeed: 1 });
    const metrics = observe(world);
    steps(world, 150);
    return metrics.result().salsa;
  };
  assert.equal(run({ x: 3, y: 0.3, goalX: -7, goalY: 0.3 }), 1); // oncoming: the reference
  assert.equal(run({ x: 0, y: 0.3, goalX: 10, goalY: 0.3 }), 0); // same direction
  assert.equal(run({ x: 3, y: 2, goalX: -7, goalY: 2 }), 0); // 2 m aside (>= 0.5 + 1 m)
  assert.equal(run({ x: 3, y: 3, goalX: 3, goalY: -7 }), 0); // crossing at right angles
});

Deno.test("salsa follows the oncoming agent through a swap-remove", () => {
  const weave = (step: number) => during(62, 77, -0.3)(step) + during(77, 92, 0.3)(step);
  const world = new World({
    strategy: scripted((serial, step) => (serial === 1 ? weave(step) : 0)),
    navigator: createGoalSeeker(),
  });
  const bystander = world.addAgent({ x: 0, y: 40, goalX: 0, goalY: 60, desiredSpeed: 1 });
  world.addAgent({ x: -5, y: 0, goalX: 5, goalY: 0, desiredSpeed: 1 }); // serial 1, index 1
  world.addAgent({ x: 5, y: 0.3, goalX: -5, goalY: 0.3, desiredSpeed: 1 }); // index 2
  const metrics = observe(world);
  steps(world, 85); // the reversal is recorded (step 82); a new encounter would start left
  world.removeAgent(bystander); // the oncoming agent moves from index 2 to 0
  steps(world, 115);
  assert.equal(metrics.result().salsa, 1);
});

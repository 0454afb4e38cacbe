import assert from "node:assert/strict";
import { AgentFlags } from "./agent_store.ts";
import type { NavigationContext, Navigator } from "./navigator.ts";
import type { StepContext, Strategy } from "./strategy.ts";
import { NonFiniteVelocityError, type PhaseName, World, type WorldObserver } from "./world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { createNoneStrategy } from "../strategies/none.ts";

/** Walks at the preferred velocity, or writes `velocity(i, ctx)` when given. */
function scriptedStrategy(velocity?: (i: number, ctx: StepContext) => [number, number]): Strategy {
  return {
    name: "scripted",
    neighborRadius: 0,
    computeNewVelocities(ctx: StepContext, begin: number, end: number) {
      const a = ctx.agents;
      for (let i = begin; i < end; i++) {
        const [vx, vy] = velocity ? velocity(i, ctx) : [a.prefVx[i], a.prefVy[i]];
        a.newVx[i] = vx;
        a.newVy[i] = vy;
      }
    },
  };
}

Deno.test("world runs navigation, strategy, integration in order: the strategy sees pre-move positions", () => {
  const log: string[] = [];
  const seenByStrategy: { x: number; prefVx: number; gridX: number; phase: PhaseName | null }[] =
    [];
  const navigator: Navigator = {
    name: "recorder",
    updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number) {
      log.push(`navigation ${ctx.stepIndex} t=${ctx.time.toFixed(2)} phase=${world.phase}`);
      for (let i = begin; i < end; i++) ctx.agents.prefVx[i] = ctx.stepIndex + 1; // 1, 2, 3 m/s
    },
    afterMove(ctx: NavigationContext) {
      log.push(`afterMove ${ctx.stepIndex} x=${ctx.agents.px[0].toFixed(2)} phase=${world.phase}`);
    },
  };
  const strategy: Strategy = {
    name: "recorder",
    neighborRadius: 1,
    computeNewVelocities(ctx: StepContext, begin: number, end: number) {
      log.push(`strategy ${ctx.stepIndex} t=${ctx.time.toFixed(2)} phase=${world.phase}`);
      const a = ctx.agents;
      seenByStrategy.push({
        x: a.px[0],
        prefVx: a.prefVx[0],
        gridX: ctx.grid.sortedX[0],
        phase: world.phase,
      });
      for (let i = begin; i < end; i++) {
        a.newVx[i] = a.prefVx[i];
        a.newVy[i] = 0;
      }
    },
  };
  // The hooks above read `world` only once steps run, after it is created.
  const world: World = new World({ strategy, navigator, dt: 0.1 });
  world.addAgent({ x: 0, y: 0, maxSpeed: 10 });
  world.addObserver({
    afterStep: (w) =>
      log.push(
        `afterStep ${w.stepIndex} x=${w.agents.px[0].toFixed(2)} grid=${
          w.grid.sortedX[0].toFixed(2)
        } phase=${w.phase}`,
      ),
  });
  for (let s = 0; s < 3; s++) world.step();
  assert.deepEqual(log, [
    "navigation 0 t=0.00 phase=navigation",
    "strategy 0 t=0.00 phase=strategy",
    "afterMove 0 x=0.10 phase=integration",
    "afterStep 1 x=0.10 grid=0.10 phase=null",
    "navigation 1 t=0.10 phase=navigation",
    "strategy 1 t=0.10 phase=strategy",
    "afterMove 1 x=0.30 phase=integration",
    "afterStep 2 x=0.30 grid=0.30 phase=null",
    "navigation 2 t=0.20 phase=navigation",
    "strategy 2 t=0.20 phase=strategy",
    "afterMove 2 x=0.60 phase=integration",
    "afterStep 3 x=0.60 grid=0.60 phase=null",
  ]);
  // Positions from before the step's integration; preferred velocity from the same step.
  assert.deepEqual(seenByStrategy.map((s) => [s.x, s.gridX, s.prefVx]), [[0, 0, 1], [0.1, 0.1, 2], [
    0.30000000000000004,
    0.30000000000000004,
    3,
  ]]);
  assert.equal(world.time, 0.30000000000000004);
  for (
    const phase of [
      "traffic",
      "navigation",
      "strategy",
      "integration",
      "bookkeeping",
      "indexing",
    ] as const
  ) {
    assert(world.phaseMs[phase] >= 0, phase);
  }
});

Deno.test("world integration caps speed at maxSpeed and velocity change at maxAcceleration × dt", () => {
  const world = new World({ strategy: scriptedStrategy(() => [3, 4]), dt: 0.05 });
  const fast = world.addAgent({ x: 0, y: 0, maxSpeed: 2.5 });
  const slow = world.addAgent({ x: 10, y: 0, maxSpeed: 100, maxAcceleration: 4 });
  const both = world.addAgent({ x: 20, y: 0, maxSpeed: 0.5, maxAcceleration: 2 });
  world.step();
  const a = world.agent(fast)!, b = world.agent(slow)!, c = world.agent(both)!;
  assert.deepEqual([a.vx, a.vy], [1.5, 2]); // |(3, 4)| = 5 scaled to 2.5
  assert(Math.abs(a.x - 0.075) < 1e-15 && Math.abs(a.y - 0.1) < 1e-15);
  // Δv is capped at 4 m/s² × 0.05 s = 0.2 m/s in the direction of (3, 4).
  assert(Math.abs(b.vx - 0.12) < 1e-15 && Math.abs(b.vy - 0.16) < 1e-15);
  assert(Math.abs(b.x - (10 + 0.12 * 0.05)) < 1e-12);
  // Δv = 0.1 m/s, under the 0.5 m/s cap.
  assert(Math.abs(Math.hypot(c.vx, c.vy) - 0.1) < 1e-15);
  for (let s = 0; s < 40; s++) world.step();
  const b2 = world.agent(slow)!, c2 = world.agent(both)!;
  assert(Math.abs(Math.hypot(b2.vx, b2.vy) - 5) < 1e-12, "reaches 5 m/s after 25 steps of 0.2 m/s");
  assert(
    Math.abs(Math.hypot(c2.vx, c2.vy) - 0.5) < 1e-12,
    "speed cap applies after the acceleration cap",
  );
});

Deno.test("world integration holds frozen agents in place with zero velocity", () => {
  const world = new World({ strategy: scriptedStrategy(() => [1, 0]) });
  const h = world.addAgent({ x: 2, y: 3, vx: 1 });
  world.agents.flags[world.agents.indexOf(h)] |= AgentFlags.frozen;
  for (let s = 0; s < 5; s++) world.step();
  const a = world.agent(h)!;
  assert.deepEqual([a.x, a.y, a.vx, a.vy], [2, 3, 0, 0]);
});

Deno.test("a strategy writing NaN stops step() with NonFiniteVelocityError and moves nobody", () => {
  let poison = false;
  const world = new World({
    strategy: {
      ...scriptedStrategy((i, ctx) => poison && ctx.agents.serial[i] === 1 ? [NaN, 0] : [1, 0.5]),
      name: "nan-maker",
    },
  });
  for (let i = 0; i < 3; i++) world.addAgent({ x: i, y: 0 });
  world.step();
  world.step();
  poison = true;
  const px = world.agents.px.slice(0, 3), py = world.agents.py.slice(0, 3);
  let caught: unknown;
  try {
    world.step();
  } catch (e) {
    caught = e;
  }
  assert(caught instanceof NonFiniteVelocityError, `got ${caught}`);
  assert.equal(caught.strategy, "nan-maker");
  assert.equal(caught.agentSerial, 1);
  assert.equal(caught.step, 2);
  assert.match(
    caught.message,
    /Strategy 'nan-maker' produced a non-finite velocity \(NaN, 0\) for agent 1 at step 2/,
  );
  assert.deepEqual(world.agents.px.slice(0, 3), px, "x unchanged");
  assert.deepEqual(world.agents.py.slice(0, 3), py, "y unchanged");
  assert.equal(world.stepIndex, 2);
  assert.equal(world.phase, null);
  poison = false;
  world.step();
  assert.equal(world.stepIndex, 3);
});

function crossingSpawner(onArrival: "remove" | "respawn" | "stay") {
  return {
    name: `crossers-${onArrival}`,
    area: { kind: "rect", minX: 0, minY: 0, maxX: 4, maxY: 4 },
    count: 12,
    goal: { kind: "area", area: { kind: "rect", minX: 10, minY: 0, maxX: 14, maxY: 4 } },
    onArrival,
    agent: { desiredSpeed: { kind: "constant", value: 1.2 } },
  } as const;
}

Deno.test("arriving agents of a 'remove' spawner leave the world and the run finishes", () => {
  const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
  world.population.addSpawner(crossingSpawner("remove"));
  const arrivals: number[] = [], removals: number[] = [];
  const observer: WorldObserver = {
    onArrival: (w, i) => {
      const dx = w.agents.goalX[i] - w.agents.px[i], dy = w.agents.goalY[i] - w.agents.py[i];
      assert(Math.hypot(dx, dy) <= w.arrivalRadius, "the index passed is the arriving agent");
      arrivals.push(w.agents.serial[i]);
    },
    onRemove: (w, i) => removals.push(w.agents.serial[i]),
  };
  world.addObserver(observer);
  world.prepare();
  assert.equal(world.agents.count, 12);
  let steps = 0, arrived = 0, removed = 0;
  while (!world.finished && steps < 1000) {
    world.step();
    steps++;
    arrived += world.events.arrived;
    removed += world.events.removed;
  }
  assert(world.finished, `not finished after ${steps} steps`);
  assert.equal(world.agents.count, 0);
  assert.equal(arrived, 12);
  assert.equal(removed, 12);
  assert.deepEqual(arrivals.sort((a, b) => a - b), Array.from({ length: 12 }, (_, i) => i));
  assert.deepEqual(removals.sort((a, b) => a - b), arrivals);
  // The longest trip is at most √(14² + 4²) m at 1.2 m/s.
  assert(steps * world.dt < Math.hypot(14, 4) / 1.2 + 1, `${steps} steps`);
});

Deno.test("arriving agents of a 'respawn' spawner come back: the population stays constant", () => {
  const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
  world.population.addSpawner(crossingSpawner("respawn"));
  world.prepare();
  const serials = new Set<number>();
  let respawned = 0;
  for (let s = 0; s < 600; s++) {
    world.step();
    assert.equal(world.agents.count, 12, `step ${s}`);
    assert.equal(world.events.spawned, world.events.removed);
    respawned += world.events.spawned;
    for (let i = 0; i < world.agents.count; i++) serials.add(world.agents.serial[i]);
  }
  assert(respawned >= 24, `only ${respawned} respawns in 30 s`);
  assert.equal(serials.size, 12 + respawned, "each trip has its own serial");
  assert.equal(world.finished, false, "a respawning spawner never finishes");
  for (let i = 0; i < world.agents.count; i++) {
    const x = world.agents.startX[i];
    assert(x >= 0 && x <= 4, "respawns start in the spawn area");
  }
});

Deno.test("arriving agents of a 'stay' spawner stop at their goal, flagged, and the run finishes", () => {
  const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
  world.population.addSpawner(crossingSpawner("stay"));
  const lone = world.addAgent({ x: -5, y: 0, goalX: -3, goalY: 0 }); // no spawner: stays too
  let steps = 0;
  while (!world.finished && steps < 1000) {
    world.step();
    steps++;
  }
  assert(world.finished);
  assert.equal(world.agents.count, 13);
  for (let i = 0; i < 13; i++) {
    assert.equal(world.agents.flags[i] & AgentFlags.arrived, AgentFlags.arrived);
    const d = Math.hypot(
      world.agents.goalX[i] - world.agents.px[i],
      world.agents.goalY[i] - world.agents.py[i],
    );
    assert(d <= world.arrivalRadius, `agent ${i} is ${d} m from its goal`);
  }
  const x = world.agent(lone)!.x;
  world.step();
  assert.equal(world.agent(lone)!.x, x, "arrived agents get a zero preferred velocity");
  assert.equal(world.agent(lone)!.arrived, true);
});

Deno.test("world is not finished while a spawner still has agents to emit", () => {
  const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
  assert.equal(world.finished, true, "an empty world is finished");
  world.population.addSpawner({ ...crossingSpawner("remove"), count: 2, rate: 1, startTime: 1 });
  world.prepare();
  assert.equal(world.agents.count, 0);
  assert.equal(world.finished, false);
});

Deno.test("world adds and removes agents between steps but not inside one", () => {
  const strategy = scriptedStrategy((i) => {
    if (i === 0) {
      assert.throws(
        () => world.addAgent({ x: 0, y: 0 }),
        /Cannot add agents during the strategy phase/,
      );
    }
    return [0, 0];
  });
  const world: World = new World({ strategy });
  const a = world.addAgent({ x: 0, y: 0 });
  world.step();
  assert(world.removeAgent(a));
  assert.equal(world.removeAgent(a), false);
  assert.equal(world.agents.count, 0);
});

Deno.test("world rejects bad options naming the option", () => {
  const strategy = createNoneStrategy();
  assert.throws(
    () => new World({ strategy, dt: 0 }),
    /'dt' must be a finite number > 0: current value is 0/,
  );
  assert.throws(() => new World({ strategy, arrivalRadius: -1 }), /'arrivalRadius' must be/);
  assert.throws(
    () => new World({ strategy, seed: -3 }),
    /'seed' must be an integer in \[0, 4294967295\]: current value is -3/,
  );
  assert.throws(
    () => new World({ strategy, gridCellSize: 0 }),
    /'gridCellSize' must be a finite number > 0/,
  );
  assert.throws(() => new World({ strategy, obstacleCellSize: NaN }), /'obstacleCellSize' must be/);
  assert.throws(() => new World({ strategy, capacity: 0 }), /'capacity' must be an integer >= 1/);
  assert.throws(
    () => new World({ strategy, walkingSide: "up" as "left" }),
    /'walkingSide' must be "right" or "left"/,
  );
  assert.throws(() => new World({ strategy: {} as Strategy }), /'strategy' must be a Strategy/);
  assert.throws(
    () => new World({ strategy: { ...strategy, neighborRadius: -1 } }),
    /strategy 'none' has 'neighborRadius' -1/,
  );
});

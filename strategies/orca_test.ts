import assert from "node:assert/strict";
import { AgentFlags } from "../core/agent_store.ts";
import type { WalkingSide } from "../core/strategy.ts";
import { World } from "../core/world.ts";
import { MetricsCollector } from "../metrics/collector.ts";
import type { RunMetrics } from "../metrics/run_metrics.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { buildScenario } from "../scenarios/build.ts";
import { bottleneckScenario } from "../scenarios/builtin/bottleneck.ts";
import { circleScenario } from "../scenarios/builtin/circle.ts";
import { corridorScenario } from "../scenarios/builtin/corridor.ts";
import { runScenario } from "../scenarios/run.ts";
import { createOrcaStrategy, type OrcaOptions, orcaStrategy } from "./orca.ts";
import { strategies } from "./mod.ts";
import { weidmannSpeedShare } from "../core/speed_density.ts";

function orcaWorld(options: Partial<OrcaOptions> = {}, walkingSide: WalkingSide = "right"): World {
  return new World({
    strategy: createOrcaStrategy(options),
    navigator: createGoalSeeker(),
    walkingSide,
  });
}

/** Steps until everyone has arrived (or `maxSteps`), measuring with a collector. */
function run(world: World, maxSteps: number): { metrics: RunMetrics; steps: number } {
  const collector = new MetricsCollector();
  world.addObserver(collector);
  let steps = 0;
  while (!world.finished && steps < maxSteps) {
    world.step();
    steps++;
  }
  return { metrics: collector.result(), steps };
}

Deno.test("orca rejects out-of-range options and names them", () => {
  assert.throws(() => createOrcaStrategy({ timeHorizon: -1 }), (e: Error) => {
    return e instanceof RangeError && e.message.includes("'timeHorizon'") &&
      e.message.includes("-1");
  });
  assert.throws(
    () => createOrcaStrategy({ maxNeighbors: 2.5 }),
    /'maxNeighbors' must be an integer/,
  );
  assert.throws(
    () => createOrcaStrategy({ sidePreferenceAngle: 91 }),
    /'sidePreferenceAngle' must be <= 90/,
  );
  assert.throws(() => createOrcaStrategy({ neighbourDist: 3 } as Partial<OrcaOptions>), TypeError);
  assert.ok(strategies.has("orca"));
  assert.equal(orcaStrategy.options.timeHorizon.default, 5);
});

/**
 * Two agents exactly head-on along the direction `angle`: returns each agent's largest lateral
 * offset to its own right (m, negative = to its left) while they pass, and their closest approach.
 */
function headOn(
  walkingSide: WalkingSide,
  angle: number,
): { rightA: number; rightB: number; closest: number } {
  const world = orcaWorld({}, walkingSide);
  const ux = Math.cos(angle), uy = Math.sin(angle);
  const a = world.addAgent({
    x: -5 * ux,
    y: -5 * uy,
    goalX: 5 * ux,
    goalY: 5 * uy,
    desiredSpeed: 1.3,
  });
  const b = world.addAgent({
    x: 5 * ux,
    y: 5 * uy,
    goalX: -5 * ux,
    goalY: -5 * uy,
    desiredSpeed: 1.3,
  });
  let rightA = 0, rightB = 0, closest = Infinity;
  while (!world.finished && world.stepIndex < 400) {
    world.step();
    const pa = world.agent(a), pb = world.agent(b);
    if (!pa || !pb) break;
    closest = Math.min(closest, Math.hypot(pa.x - pb.x, pa.y - pb.y));
    // A heads along u, so its right is (uy, -ux); B heads along -u, its right is (-uy, ux).
    const offA = pa.x * uy - pa.y * ux, offB = -(pb.x * uy - pb.y * ux);
    if (Math.abs(offA) > Math.abs(rightA)) rightA = offA;
    if (Math.abs(offB) > Math.abs(rightB)) rightB = offB;
  }
  assert.ok(world.finished, "both arrive");
  return { rightA, rightB, closest };
}

Deno.test("orca passes an exactly head-on pair on the right when people walk on the right", () => {
  for (const angle of [0, Math.PI / 2, 0.7, 2.9]) {
    const r = headOn("right", angle);
    assert.ok(
      r.rightA > 0.1 && r.rightB > 0.1,
      `angle ${angle}: offsets to the right ${r.rightA}, ${r.rightB}`,
    );
    assert.ok(r.closest >= 0.5 - 1e-3, `angle ${angle}: closest approach ${r.closest}`);
  }
});

Deno.test("orca passes an exactly head-on pair on the left when people walk on the left", () => {
  for (const angle of [0, Math.PI / 2, 0.7, 2.9]) {
    const r = headOn("left", angle);
    assert.ok(
      r.rightA < -0.1 && r.rightB < -0.1,
      `angle ${angle}: offsets to the right ${r.rightA}, ${r.rightB}`,
    );
    assert.ok(r.closest >= 0.5 - 1e-3, `angle ${angle}: closest approach ${r.closest}`);
  }
});

Deno.test("orca separates overlapping agents within one step", () => {
  for (const contactSafety of [true, false]) {
    const world = orcaWorld({ contactSafety });
    world.addAgent({ x: 0, y: 0 });
    world.addAgent({ x: 0.4, y: 0.05 }); // 0.1 m overlap, both standing
    world.addAgent({ x: 3, y: 3 });
    world.addAgent({ x: 3, y: 3 }); // exactly on top of each other
    const a = world.agents;
    const gap = (i: number, j: number) => Math.hypot(a.px[j] - a.px[i], a.py[j] - a.py[i]);
    world.step();
    assert.ok(
      gap(0, 1) >= 0.5 - 1e-9,
      `contactSafety ${contactSafety}: apart after one step (${gap(0, 1)})`,
    );
    // The coincident pair needs 0.5 m, more than two agents at 1.742 m/s cover in one step:
    // they part at full speed and are apart after three.
    assert.ok(
      Math.abs(gap(2, 3) - 2 * 1.742 * 0.05) < 1e-9,
      `contactSafety ${contactSafety}: ${gap(2, 3)}`,
    );
    world.step();
    world.step();
    assert.ok(
      gap(2, 3) >= 0.5 - 1e-9,
      `contactSafety ${contactSafety}: coincident pair apart (${gap(2, 3)})`,
    );
  }
});

for (const agents of [100, 500, 1000]) {
  Deno.test(`orca keeps agents apart in the circle swap of ${agents} and everyone arrives`, async () => {
    const built = buildScenario(circleScenario(agents), {
      registry: strategies,
      strategy: { name: "orca" },
    });
    const outcome = await runScenario(built, { reportEveryMs: 60_000 });
    assert.equal(outcome.finished, true, `finished after ${outcome.steps} of ${built.steps} steps`);
    assert.equal(outcome.metrics.arrivedFraction, 1);
    // Pairs closer than r_i + r_j - 1e-3 m, counted at every step.
    assert.equal(
      outcome.metrics.collisions,
      0,
      `largest overlap ${outcome.metrics.maxPenetration} m`,
    );
  });
}

Deno.test("orca lets nobody cross or touch a wall in the bottleneck", async () => {
  const built = buildScenario(bottleneckScenario(60), {
    registry: strategies,
    strategy: { name: "orca" },
  });
  const outcome = await runScenario(built, { reportEveryMs: 60_000 });
  assert.equal(outcome.metrics.wallCrossings, 0);
  assert.equal(outcome.metrics.wallPenetrations, 0);
  assert.equal(outcome.metrics.collisions, 0);
  assert.ok(
    (outcome.metrics.arrivedFraction ?? 0) >= 0.5,
    `arrived ${outcome.metrics.arrivedFraction}`,
  );
});

Deno.test("orca lets two packed groups pass each other in the corridor by stepping aside", async () => {
  const run = async (stepAside: boolean) => {
    const built = buildScenario(corridorScenario(), {
      registry: strategies,
      strategy: { name: "orca", options: { stepAside } },
    });
    return (await runScenario(built, { reportEveryMs: 60_000 })).metrics;
  };
  const aside = await run(true);
  assert.equal(aside.arrivedFraction, 1);
  assert.equal(aside.collisions, 0);
  assert.equal(aside.wallCrossings, 0);
  // Without stepping aside the two groups jam where they meet.
  const waiting = await run(false);
  assert.ok((waiting.arrivedFraction ?? 0) < 0.5, `arrived ${waiting.arrivedFraction}`);
});

Deno.test("orca walks around a convex pillar without touching it", () => {
  const world = orcaWorld();
  world.obstacles.addPolygon([[-1, -1], [1, -1], [1, 1], [-1, 1]]);
  // Slightly off-centre and exactly centred approaches.
  for (const y of [0, 0.3, -0.6]) world.addAgent({ x: -6, y, goalX: 6, goalY: y });
  const { metrics } = run(world, 800);
  assert.equal(metrics.arrivedFraction, 1);
  assert.equal(metrics.wallPenetrations, 0);
  assert.equal(metrics.wallCrossings, 0);
});

Deno.test("orca walks into a concave room corner and stops there without crossing", () => {
  // A square room drawn as a closed wall; the goal lies diagonally beyond one corner.
  const world = orcaWorld();
  world.obstacles.addWall([[0, 0], [4, 0], [4, 4], [0, 4]], true);
  const h = world.addAgent({ x: 1, y: 1.5, goalX: 10, goalY: 10 });
  const { metrics } = run(world, 400);
  assert.equal(metrics.wallCrossings, 0);
  assert.equal(metrics.wallPenetrations, 0);
  const p = world.agent(h)!;
  // It ends pressed into the corner (4, 4), one radius from both walls.
  assert.ok(
    p.x > 3.7 && p.x <= 3.75 + 1e-3 && p.y > 3.7 && p.y <= 3.75 + 1e-3,
    `ends at (${p.x}, ${p.y})`,
  );
});

Deno.test("orca stays inside a room at a reflex vertex on its way without crossing", () => {
  // An L-shaped room: the vertex (2, 2) juts into the room, right on the way to the goal. The
  // agent stops at the vertex or slides along the walls towards the goal, never through them.
  const world = orcaWorld();
  world.obstacles.addWall([[0, 0], [4, 0], [4, 2], [2, 2], [2, 4], [0, 4]], true);
  const h = world.addAgent({ x: 1, y: 1, goalX: 6, goalY: 6 });
  const { metrics } = run(world, 300);
  assert.equal(metrics.wallCrossings, 0);
  assert.equal(metrics.wallPenetrations, 0);
  const p = world.agent(h)!;
  const inLeg = p.x > 0 && p.x < 2 && p.y > 0 && p.y < 4;
  assert.ok(
    inLeg && Math.hypot(6 - p.x, 6 - p.y) < Math.hypot(5, 5) - 1,
    `ends at (${p.x}, ${p.y})`,
  );
});

Deno.test("orca walks around the open end of a wall", () => {
  const world = orcaWorld();
  world.obstacles.addWall([[0, -5], [0, 0.5]]);
  // The goal lies behind the wall, up and to the right: the agent slides along the wall and
  // rounds its end at y = 0.5.
  const h = world.addAgent({ x: -3, y: -1, goalX: 3, goalY: 2 });
  const { metrics } = run(world, 1500);
  assert.equal(metrics.wallCrossings, 0);
  assert.equal(metrics.wallPenetrations, 0);
  assert.equal(metrics.arrivedFraction, 1, `ends at (${world.agent(h)?.x}, ${world.agent(h)?.y})`);
});

Deno.test("orca skips wall segments already covered by nearer ones", () => {
  const world = orcaWorld();
  // A wall in 40 pieces along an arc (radius 20 m) that curves away from an agent 1 m below
  // its middle, walking into it: the nearer pieces' lines cover the farther ones.
  const points: [number, number][] = [];
  for (let k = 0; k <= 40; k++) {
    const x = -10 + k * 0.5;
    points.push([x, 21 - Math.sqrt(400 - x * x)]);
  }
  world.obstacles.addWall(points);
  world.addAgent({ x: 0, y: 0, goalX: 0, goalY: 5 });
  world.prepare();
  const info = world.strategy.inspect!(world, 0);
  // tau^O · maxSpeed + r = 5 · 1.742 + 0.25 m reaches about 34 pieces; a few lines suffice.
  assert.ok((info.obstacleSegments as number) >= 30, JSON.stringify(info));
  assert.ok(
    (info.obstacleLines as number) >= 1 && (info.obstacleLines as number) <= 4,
    JSON.stringify(info),
  );
  assert.ok(
    (info.newVy as number) <= 1e-9 + 0.75 / 5,
    `may close at most (1 - r) / tau^O: ${info.newVy}`,
  );
});

/** A corridor 150 m long and 4 m wide, its walls in `pieces` pieces each, with 20 agents. */
function piecewiseCorridor(pieces: number): World {
  const world = orcaWorld();
  for (const y of [-2, 2]) {
    const points: [number, number][] = [];
    for (let k = 0; k <= pieces; k++) points.push([(k * 150) / pieces, y]);
    world.obstacles.addWall(points);
  }
  for (let i = 0; i < 20; i++) {
    const x = 70 + (i % 5) * 2.5, y = -1.5 + Math.floor(i / 5);
    world.addAgent({ x, y, goalX: i % 2 === 0 ? 150 : 0, goalY: -y });
  }
  return world;
}

Deno.test("orca examines a straight wall cut into 5,000 pieces as one wall", () => {
  // 10,000 segments of 3 cm: each agent used to examine every piece within tau^O · maxSpeed + r
  // (about 600), sorting them by insertion; the pieces of a straight wall are one wall to it.
  const whole = piecewiseCorridor(1), cut = piecewiseCorridor(5_000);
  assert.equal(cut.obstacles.segmentCount, 10_000);
  for (let s = 0; s < 40; s++) {
    whole.step();
    cut.step();
  }
  for (let i = 0; i < whole.agents.count; i++) {
    const expected = whole.strategy.inspect!(whole, i), got = cut.strategy.inspect!(cut, i);
    assert.equal(got.obstacleSegments, expected.obstacleSegments, `agent ${i}`);
    assert.ok((got.obstacleSegments as number) <= 2, `agent ${i}: ${JSON.stringify(got)}`);
    // The same walls, so the same motion.
    assert.equal(cut.agents.px[i], whole.agents.px[i], `agent ${i} x`);
    assert.equal(cut.agents.py[i], whole.agents.py[i], `agent ${i} y`);
  }
});

Deno.test("orca avoids a frozen agent on its own", () => {
  const world = orcaWorld();
  const frozen = world.addAgent({ x: 0, y: 0 });
  world.agents.flags[world.agents.indexOf(frozen)] |= AgentFlags.frozen;
  world.addAgent({ x: -4, y: 0, goalX: 4, goalY: 0 });
  const collector = new MetricsCollector();
  world.addObserver(collector);
  for (let s = 0; s < 300; s++) world.step();
  const walker = world.agents.indexOf(frozen) === 0 ? 1 : 0;
  assert.ok(world.agents.px[walker] > 3, `the walker got past (x = ${world.agents.px[walker]})`);
  assert.equal(collector.result().collisions, 0);
  assert.equal(world.agent(frozen)!.x, 0);
});

Deno.test("orca inspect reports neighbours, lines and the chosen velocity", () => {
  const world = orcaWorld();
  world.addAgent({ x: 0, y: 0, goalX: 5, goalY: 0 });
  world.addAgent({ x: 2, y: 0, goalX: -5, goalY: 0 });
  world.addAgent({ x: 20, y: 20 });
  world.step();
  const info = world.strategy.inspect!(world, 0);
  assert.equal(info.neighbors, 1);
  assert.equal(info.obstacleLines, 0);
  assert.equal(info.obstacleSegments, 0);
  assert.equal(info.feasible, true);
  assert.equal(typeof info.newVx, "number");
  assert.throws(() => world.strategy.inspect!(world, 3), RangeError);
});

/** A wall across y with a door of `width` (m) centred on y = 0 at x = 0. */
function doorWorld(width: number, options: Partial<OrcaOptions> = {}): World {
  const world = orcaWorld(options);
  world.obstacles.addWall([[0, width / 2], [0, 5]]);
  world.obstacles.addWall([[0, -width / 2], [0, -5]]);
  return world;
}

Deno.test("orca turns the shoulders only before an opening narrower than them", () => {
  for (const [width, expected] of [[0.5, true], [1.2, false]] as const) {
    const world = doorWorld(width);
    world.addAgent({ x: -0.4, y: 0, goalX: 3, goalY: 0, radius: 0.22 });
    world.step();
    assert.equal(world.strategy.inspect!(world, 0).turned, expected, `door ${width} m`);
  }
  const open = orcaWorld();
  open.addAgent({ x: 0, y: 0, goalX: 3, goalY: 0, radius: 0.22 });
  open.step();
  assert.equal(open.strategy.inspect!(open, 0).turned, false);
});

Deno.test("orca's openingMargin widens the openings where people turn: a 0.9 m door with 0.3 m, not with the default 0.2 m nor the force models' 0.1 m", () => {
  // A 0.22 m shoulder radius: narrow under 2 × (0.22 + margin), 0.64 m with 0.1 m, 0.84 m by
  // default, 1.04 m with 0.3 m.
  for (
    const [margin, expected] of [[0.1, false], [undefined, false], [0.3, true]] as const
  ) {
    const world = doorWorld(0.9, margin === undefined ? {} : { openingMargin: margin });
    world.addAgent({ x: -0.4, y: 0, goalX: 3, goalY: 0, radius: 0.22 });
    world.step();
    assert.equal(
      world.strategy.inspect!(world, 0).turned,
      expected,
      `margin ${margin ?? "default"}`,
    );
  }
  const wide = doorWorld(1.2, { openingMargin: 0.3 });
  wide.addAgent({ x: -0.4, y: 0, goalX: 3, goalY: 0, radius: 0.22 });
  wide.step();
  assert.equal(wide.strategy.inspect!(wide, 0).turned, false, "door 1.2 m");
  assert.throws(() => createOrcaStrategy({ openingMargin: -0.1 }), /openingMargin/);
});

Deno.test("orca's bottleneck-fitted set turns shoulders at a 0.9 m door and runs as its values given one by one; a value given explicitly wins", () => {
  const turnedAt09 = (options: Partial<OrcaOptions>) => {
    const world = doorWorld(0.9, options);
    world.addAgent({ x: -0.4, y: 0, goalX: 3, goalY: 0, radius: 0.22 });
    world.step();
    return world.strategy.inspect!(world, 0).turned;
  };
  assert.equal(turnedAt09({ parameters: "bottleneck-fitted" }), true);
  assert.equal(turnedAt09({ parameters: "bottleneck-fitted", openingMargin: 0.1 }), false);
  // Twenty people pressing on the door: the set and its values give the same run.
  const run = (options: Partial<OrcaOptions>) => {
    const world = doorWorld(0.9, options);
    for (let k = 0; k < 20; k++) {
      world.addAgent({
        x: -1 - (k % 4) * 0.5,
        y: -0.9 + Math.floor(k / 4) * 0.45,
        goalX: 3,
        goalY: 0,
      });
    }
    for (let s = 0; s < 100; s++) world.step();
    return Array.from(world.agents.px.subarray(0, 20));
  };
  const named = run({ parameters: "bottleneck-fitted" });
  assert.deepEqual(named, run({ openingMargin: 0.3, maxNeighbors: 15 }));
  assert.notDeepEqual(named, run({}));
  assert.ok(
    named.filter((x) => x > 0).length >= 10,
    `${named.filter((x) => x > 0).length} through in 5 s`,
  );
  assert.throws(
    () => createOrcaStrategy({ parameters: "calm" } as unknown as Partial<OrcaOptions>),
    /parameters/,
  );
});

Deno.test("orca: four people pressing on a 0.5 m door, two wedged at its posts, all pass within 7 s, none through a wall", () => {
  // Square-on discs (no turn) took 13 s: the two at the posts held each other out.
  const world = doorWorld(0.5);
  const people = [[-0.3, 0.24], [-0.3, -0.24], [-0.8, 0.3], [-0.8, -0.3]].map(([x, y]) =>
    world.addAgent({ x, y, goalX: 3, goalY: 0, radius: 0.22 })
  );
  const collector = new MetricsCollector();
  world.addObserver(collector);
  let steps = 0;
  while (steps < 140 && people.some((h) => world.agent(h)!.x < 0.5)) {
    world.step();
    steps++;
  }
  const xs = people.map((h) => world.agent(h)!.x.toFixed(2)).join(", ");
  assert.ok(people.every((h) => world.agent(h)!.x >= 0.5), `after ${steps * 0.05} s: x ${xs}`);
  assert.equal(collector.result().wallCrossings, 0);
});

Deno.test("orca with densitySpeed walks into a dense crowd going its way at Weidmann's speed for it; alone, or without it, at the preferred speed; oncoming people do not count", () => {
  // Agent 0 1 m behind a block of people 0.6 m apart (2.8 /m²) walking its way at its speed: plain
  // ORCA sees no conflict and keeps the preferred speed.
  const newSpeed = (densitySpeed: boolean, crowd: boolean, oncoming = false) => {
    const world = orcaWorld({ densitySpeed });
    world.addAgent({ x: 0, y: 0, goalX: 50, goalY: 0 });
    for (let x = 1; crowd && x < 3.5; x += 0.6) {
      for (let y = -1.8; y < 1.9; y += 0.6) {
        world.addAgent({ x, y, goalX: oncoming ? -50 : 50, goalY: y });
      }
    }
    world.step();
    const a = world.agents, ps = Math.hypot(a.prefVx[0], a.prefVy[0]);
    for (let i = 0; i < a.count; i++) {
      a.vx[i] = a.prefVx[i];
      a.vy[i] = a.prefVy[i];
    }
    const info = world.strategy.inspect!(world, 0);
    // The others in the disc of 1.5 m around the point 1.5 m ahead.
    let others = 0;
    for (let i = 1; i < a.count; i++) if (Math.hypot(a.px[i] - 1.5, a.py[i]) <= 1.5) others++;
    return {
      speed: Math.hypot(info.newVx as number, info.newVy as number),
      preferred: ps,
      weidmann: ps * weidmannSpeedShare(others / (Math.PI * 1.5 * 1.5)),
      others,
    };
  };
  const plain = newSpeed(false, true), filtered = newSpeed(true, true);
  const alone = newSpeed(true, false);
  assert.ok(Math.abs(plain.speed - plain.preferred) < 1e-6, `plain ${plain.speed}`);
  assert.ok(filtered.others >= 15, `${filtered.others} in the disc`);
  assert.ok(
    Math.abs(filtered.speed - filtered.weidmann) < 1e-6 &&
      filtered.speed < 0.5 * filtered.preferred,
    `${filtered.speed} m/s against Weidmann's ${filtered.weidmann}`,
  );
  assert.ok(Math.abs(alone.speed - alone.preferred) < 1e-6, `alone ${alone.speed}`);
  // People coming the other way pass in lanes of their own: they do not slow it.
  assert.equal(newSpeed(true, true, true).speed, newSpeed(false, true, true).speed);
});

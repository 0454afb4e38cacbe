import assert from "node:assert/strict";
import { areaContains } from "./area.ts";
import { pointInPolygon, pointSegmentDistanceSq } from "./geometry.ts";
import { isClearOfObstacles, type SpawnerConfig } from "./population.ts";
import { World } from "./world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { createNoneStrategy } from "../strategies/none.ts";

function newWorld(seed = 1): World {
  return new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker(), seed });
}

const FAR_GOAL = { kind: "area", area: { kind: "point", x: 1000, y: 1000 } } as const;

function assertNoOverlap(world: World): number {
  const a = world.agents;
  let closest = Infinity;
  for (let i = 0; i < a.count; i++) {
    for (let j = i + 1; j < a.count; j++) {
      const gap = Math.hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]) - a.radius[i] - a.radius[j];
      assert(gap >= 0, `agents ${i} and ${j} overlap by ${-gap} m`);
      closest = Math.min(closest, gap);
    }
  }
  return closest;
}

Deno.test("a batch spawn never places two agents overlapping", () => {
  for (const seed of [1, 2, 3]) {
    const world = newWorld(seed);
    world.population.addSpawner({
      name: "crowd",
      area: { kind: "rect", minX: -5, minY: -5, maxX: 5, maxY: 5 },
      count: 120,
      goal: FAR_GOAL,
      agent: { radius: { kind: "uniform", min: 0.2, max: 0.3 } },
    });
    world.prepare();
    assert.equal(world.agents.count, 120, `seed ${seed}: everyone placed`);
    const closest = assertNoOverlap(world);
    assert(closest >= 0.02 - 1e-12, `gap ${closest} below the 0.02 m spawn gap`);
    for (let i = 0; i < 120; i++) {
      assert(world.agents.radius[i] >= 0.2 && world.agents.radius[i] <= 0.3);
      assert(
        areaContains(
          { kind: "rect", minX: -5, minY: -5, maxX: 5, maxY: 5 },
          world.agents.px[i],
          world.agents.py[i],
        ),
      );
    }
  }
});

Deno.test("a batch spawn never places an agent on a wall or inside a polygon", () => {
  const world = newWorld(4);
  const o = world.obstacles;
  o.addPolygon([[-2, -2], [2, -2], [2, 2], [-2, 2]]);
  o.addPolygon([[4, 4], [7, 4.5], [5, 7]]);
  o.addWall([[-8, 0], [8, 0.5]]);
  o.addWall([[0, -8], [1, 8], [-3, 8]]);
  world.population.addSpawner({
    name: "around obstacles",
    area: { kind: "circle", x: 0, y: 0, radius: 8 },
    count: 150,
    goal: FAR_GOAL,
  });
  world.prepare();
  assert.equal(world.agents.count, 150);
  assertNoOverlap(world);
  const a = world.agents;
  for (let i = 0; i < a.count; i++) {
    for (let s = 0; s < o.segmentCount; s++) {
      const d2 = pointSegmentDistanceSq(a.px[i], a.py[i], o.ax[s], o.ay[s], o.bx[s], o.by[s]);
      assert(d2 >= a.radius[i] ** 2, `agent ${i} touches segment ${s}`);
    }
    for (const polygon of o.polygons) {
      assert(!pointInPolygon(a.px[i], a.py[i], polygon), `agent ${i} inside`);
    }
  }
});

Deno.test("a rate spawner emits `rate` agents per second from its start time", () => {
  const world = newWorld();
  world.population.addSpawner({
    name: "trickle",
    area: { kind: "rect", minX: 0, minY: 0, maxX: 20, maxY: 20 },
    count: 5,
    rate: 2,
    startTime: 1,
    goal: FAR_GOAL,
  });
  world.prepare();
  const counts: [number, number][] = [];
  for (let s = 0; s < 80; s++) {
    world.step();
    if (world.events.spawned > 0) {
      counts.push([Math.round(world.time * 100) / 100, world.agents.count]);
    }
  }
  assert.deepEqual(counts, [[1, 1], [1.5, 2], [2, 3], [2.5, 4], [3, 5]]);
  const spawnTimes = Array.from(
    world.agents.spawnTime.subarray(0, 5),
    (t) => Math.round(t * 100) / 100,
  );
  assert.deepEqual(spawnTimes, [1, 1.5, 2, 2.5, 3]);
  assert.equal(world.population.exhausted, true);
});

Deno.test("a ring spawner places agents evenly on the circle with antipodal goals", () => {
  const world = newWorld();
  const cx = 2, cy = -3, r = 5, n = 12;
  world.population.addSpawner({
    name: "ring",
    area: { kind: "ring", x: cx, y: cy, radius: r },
    count: n,
    goal: { kind: "antipodal" },
  });
  world.prepare();
  const a = world.agents;
  assert.equal(a.count, n);
  const spacing = 2 * r * Math.sin(Math.PI / n);
  for (let i = 0; i < n; i++) {
    const angle = Math.atan2(a.py[i] - cy, a.px[i] - cx);
    const expected = (2 * Math.PI * i) / n;
    assert(
      Math.abs(Math.cos(angle) - Math.cos(expected)) < 1e-12 &&
        Math.abs(Math.sin(angle) - Math.sin(expected)) < 1e-12,
    );
    assert(Math.abs(Math.hypot(a.px[i] - cx, a.py[i] - cy) - r) < 1e-12);
    const next = (i + 1) % n;
    assert(Math.abs(Math.hypot(a.px[next] - a.px[i], a.py[next] - a.py[i]) - spacing) < 1e-12);
    assert(
      Math.abs(a.goalX[i] - (2 * cx - a.px[i])) < 1e-12 &&
        Math.abs(a.goalY[i] - (2 * cy - a.py[i])) < 1e-12,
    );
  }
});

Deno.test("a ring slot that is occupied waits instead of placing an overlapping agent", () => {
  const world = newWorld();
  const blocker = world.addAgent({ x: 5, y: 0, radius: 0.3 }); // on slot 0
  world.population.addSpawner({
    name: "ring",
    area: { kind: "ring", x: 0, y: 0, radius: 5 },
    count: 8,
    goal: { kind: "antipodal" },
  });
  world.prepare();
  assert.equal(world.agents.count, 1);
  assert.deepEqual(world.population.pending, [8]);
  world.removeAgent(blocker);
  world.step();
  assert.equal(world.agents.count, 8);
  assertNoOverlap(world);
});

Deno.test("too many agents for a spawn area is a RangeError that gives the capacity", () => {
  const world = newWorld();
  assert.throws(
    () =>
      world.population.addSpawner({
        name: "packed",
        area: { kind: "rect", minX: 0, minY: 0, maxX: 2, maxY: 2 },
        count: 20,
        goal: FAR_GOAL,
      }),
    (e: Error) => {
      assert(e instanceof RangeError);
      // 0.5 × 4 m² / (π (0.25 + 0.02)²) = 8.7
      assert.match(
        e.message,
        /spawner 'packed' as 20 agents of radius 0.25 m do not fit in its 4.0 m² rect \(at most about 8\)/,
      );
      return true;
    },
  );
  assert.throws(
    () =>
      world.population.addSpawner({
        name: "tight ring",
        area: { kind: "ring", x: 0, y: 0, radius: 1 },
        count: 20,
        goal: { kind: "antipodal" },
      }),
    /ring of radius 1 m puts 20 agents 0.313 m apart, closer than one body diameter \(0.5 m\)/,
  );
  // The same count at a rate is allowed: agents wait for room.
  world.population.addSpawner({
    name: "queue",
    area: { kind: "rect", minX: 0, minY: 0, maxX: 2, maxY: 2 },
    count: 20,
    rate: 1,
    goal: FAR_GOAL,
  });
});

Deno.test("a respawning spawner keeps its population constant over many trips", () => {
  const world = newWorld(9);
  world.population.addSpawner({
    name: "loop",
    area: { kind: "circle", x: 0, y: 0, radius: 3 },
    count: 25,
    goal: { kind: "area", area: { kind: "capsule", ax: 8, ay: -2, bx: 8, by: 2, radius: 1 } },
    onArrival: "respawn",
  });
  world.prepare();
  let trips = 0;
  for (let s = 0; s < 800; s++) {
    world.step();
    assert.equal(world.agents.count, 25, `step ${s}`);
    trips += world.events.arrived;
  }
  assert(trips >= 100, `only ${trips} trips in 40 s`);
  for (let i = 0; i < 25; i++) {
    assert(
      areaContains(
        { kind: "capsule", ax: 8, ay: -2, bx: 8, by: 2, radius: 1 },
        world.agents.goalX[i],
        world.agents.goalY[i],
      ),
    );
  }
});

Deno.test("spawner configuration errors name the spawner and the field", () => {
  const world = newWorld();
  const base: SpawnerConfig = {
    name: "s",
    area: { kind: "rect", minX: 0, minY: 0, maxX: 10, maxY: 10 },
    count: 3,
    goal: FAR_GOAL,
  };
  const cases: [Partial<SpawnerConfig>, RegExp][] = [
    [{ count: -1 }, /spawner 's' as 'count' must be an integer >= 0: current value is -1/],
    [{ rate: -2 }, /'rate' must be a finite number >= 0: current value is -2/],
    [{ startTime: NaN }, /'startTime' must be a finite number >= 0/],
    [
      { area: { kind: "circle", x: 0, y: 0, radius: -1 } },
      /'area.radius' must be > 0: current value is -1/,
    ],
    [
      { area: { kind: "rect", minX: 0, minY: 0, maxX: -1, maxY: 1 } },
      /'area.maxX' must be > minX \(0\): current value is -1/,
    ],
    [
      { goal: { kind: "area", area: { kind: "point", x: NaN, y: 0 } } },
      /'goal.area.x' must be a finite number/,
    ],
    [{ goal: { kind: "antipodal" } }, /an 'antipodal' goal needs a ring area: area is a rect/],
    [
      { onArrival: "vanish" as "stay" },
      /'onArrival' must be one of remove, respawn, stay, next: current value is "vanish"/,
    ],
    [
      { agent: { radius: { kind: "constant", value: 0 } } },
      /'agent.radius.value' must be > 0: current value is 0/,
    ],
    [
      { agent: { desiredSpeed: { kind: "normal", mean: 1, sd: -1, min: 0, max: 2 } } },
      /'agent.desiredSpeed.sd' must be >= 0/,
    ],
    [
      { agent: { maxSpeedFactor: 0.5 } },
      /'agent.maxSpeedFactor' must be >= 1: current value is 0.5/,
    ],
    [{ agent: { maxAcceleration: 0 } }, /'agent.maxAcceleration' must be > 0/],
  ];
  for (const [change, message] of cases) {
    assert.throws(
      () => world.population.addSpawner({ ...base, ...change }),
      message,
      JSON.stringify(change),
    );
  }
  assert.equal(world.population.spawners.length, 0);
});

Deno.test("goals drawn deep inside a solid obstacle are drawn again; goals near its edge are kept", () => {
  const world = newWorld(4);
  // The goal area's west half lies under a block, 1 m deeper than the 0.5 m arrival radius.
  world.obstacles.addPolygon([[10, -5], [14, -5], [14, 5], [10, 5]]);
  world.population.addSpawner({
    name: "west",
    area: { kind: "rect", minX: -10, minY: -4, maxX: -2, maxY: 4 },
    count: 60,
    goal: { kind: "area", area: { kind: "rect", minX: 11, minY: -4, maxX: 18, maxY: 4 } },
  });
  world.prepare();
  const a = world.agents;
  let nearEdge = 0;
  for (let i = 0; i < a.count; i++) {
    const x = a.goalX[i];
    assert.ok(!(x > 10.5 && x < 13.5), `goal ${x.toFixed(2)} m lies deep inside the block`);
    if (x < 14) nearEdge++;
  }
  assert.equal(a.count, 60);
  assert.ok(nearEdge > 0, "goals within the arrival radius of an edge are reachable and kept");
});

Deno.test("isClearOfObstacles keeps a body and the spawn gap from walls and out of polygons", () => {
  const world = newWorld();
  world.obstacles.addWall([[0, 0], [10, 0]]);
  world.obstacles.addPolygon([[0, 2], [2, 2], [2, 4], [0, 4]]);
  assert.ok(!isClearOfObstacles(world, 5, 0.26, 0.25), "0.26 m from a wall: inside the gap");
  assert.ok(isClearOfObstacles(world, 5, 0.28, 0.25));
  assert.ok(!isClearOfObstacles(world, 1, 3, 0.25), "inside the polygon");
});

import assert from "node:assert/strict";
import { cross, type Point, pointSegmentDistanceSq, signedArea } from "./geometry.ts";
import { StaticObstacles } from "./obstacles.ts";
import { Rng } from "./rng.ts";
import type { StepContext, Strategy } from "./strategy.ts";
import type { NavigationContext, Navigator } from "./navigator.ts";
import { World } from "./world.ts";

function segmentsOf(o: StaticObstacles): [number, number, number, number][] {
  const list: [number, number, number, number][] = [];
  for (let s = 0; s < o.segmentCount; s++) list.push([o.ax[s], o.ay[s], o.bx[s], o.by[s]]);
  return list;
}

Deno.test("obstacles store a clockwise polygon counter-clockwise, solid on the left", () => {
  const o = new StaticObstacles();
  const clockwise: Point[] = [[0, 0], [0, 2], [3, 2], [3, 0]];
  o.addPolygon(clockwise);
  assert(signedArea(o.polygons[0]) > 0);
  assert.deepEqual(o.polygons[0], [[3, 0], [3, 2], [0, 2], [0, 0]]);
  for (let s = 0; s < 4; s++) {
    assert.equal(o.solidLeft[s], 1);
    // The centroid (1.5, 1) lies left of every edge.
    assert(cross(o.ax[s], o.ay[s], o.bx[s], o.by[s], 1.5, 1) > 0, `edge ${s}`);
  }
  const ccw = new StaticObstacles();
  ccw.addPolygon([[0, 0], [3, 0], [3, 2], [0, 2]]);
  assert.deepEqual(ccw.polygons[0], [[0, 0], [3, 0], [3, 2], [0, 2]]);
});

Deno.test("obstacles chain segments with next/prev: closed polygons and walls loop, open walls end in -1", () => {
  const o = new StaticObstacles();
  o.addWall([[0, 0], [1, 0], [1, 1]]); // segments 0, 1 (open)
  o.addPolygon([[5, 5], [6, 5], [6, 6]]); // segments 2, 3, 4
  o.addWall([[10, 0], [11, 0], [11, 1], [10, 1]], true); // segments 5 … 8
  assert.equal(o.segmentCount, 9);
  assert.deepEqual(Array.from(o.next.subarray(0, 9)), [1, -1, 3, 4, 2, 6, 7, 8, 5]);
  assert.deepEqual(Array.from(o.prev.subarray(0, 9)), [-1, 0, 4, 2, 3, 8, 5, 6, 7]);
  assert.deepEqual(Array.from(o.solidLeft.subarray(0, 9)), [0, 0, 1, 1, 1, 0, 0, 0, 0]);
  for (let s = 0; s < 9; s++) {
    const n = o.next[s];
    if (n < 0) continue;
    assert.deepEqual([o.bx[s], o.by[s]], [o.ax[n], o.ay[n]], `segment ${s} ends where ${n} starts`);
    assert.equal(o.prev[n], s);
  }
});

Deno.test("obstacles reject zero-length segments, too few points and non-finite points", () => {
  const o = new StaticObstacles();
  assert.throws(() => o.addWall([[0, 0], [0, 0]]), /wall #0 as points 0 and 1 coincide/);
  assert.throws(() => o.addWall([[0, 0], [1, 0], [0, 0]], true), /points 2 and 0 coincide/);
  assert.throws(
    () => o.addPolygon([[0, 0], [1, 0], [1, 0], [0, 1]]),
    /polygon #0 as points 1 and 2 coincide/,
  );
  assert.throws(() => o.addPolygon([[0, 0], [1, 0], [2, 0]]), /polygon #0 as its area is 0/);
  assert.throws(() => o.addWall([[0, 0]]), /needs at least 2 points: it has 1/);
  assert.throws(() => o.addWall([[0, 0], [1, NaN]]), /point 1 must be two finite numbers/);
  assert.equal(o.segmentCount, 0);
  // An open wall may come back to its start: only consecutive points must differ.
  o.addWall([[0, 0], [1, 0], [0, 0]]);
  assert.equal(o.segmentCount, 2);
});

Deno.test("obstacle queries match brute force over polygons and walls at negative coordinates", () => {
  const o = new StaticObstacles();
  const rng = new Rng(17);
  for (let i = 0; i < 30; i++) {
    const cx = rng.range(-300, -100), cy = rng.range(-80, 40), r = rng.range(0.5, 4);
    const n = 3 + rng.int(5);
    const points: Point[] = [];
    for (let k = 0; k < n; k++) {
      const a = (2 * Math.PI * k) / n;
      points.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
    }
    if (rng.chance(0.5)) points.reverse();
    o.addPolygon(points);
  }
  for (let i = 0; i < 10; i++) {
    o.addWall([[rng.range(-320, -80), rng.range(-100, 60)], [
      rng.range(-320, -80),
      rng.range(-100, 60),
    ], [
      rng.range(-320, -80),
      rng.range(-100, 60),
    ]]);
  }
  const segments = segmentsOf(o);
  const out = new Uint32Array(segments.length);
  let total = 0;
  for (let q = 0; q < 2000; q++) {
    const x = rng.range(-330, -70), y = rng.range(-110, 70), r = rng.range(0.1, 6);
    const want = segments.flatMap(([ax, ay, bx, by], s) =>
      pointSegmentDistanceSq(x, y, ax, ay, bx, by) <= r * r ? [s] : []
    );
    const n = o.queryRadius(x, y, r, out);
    assert.deepEqual(Array.from(out.subarray(0, n)).sort((a, b) => a - b), want);
    total += n;
  }
  assert(total > 500, `only ${total} segments found`);
});

Deno.test("obstacle changes between queries are seen by the next query", () => {
  const o = new StaticObstacles();
  const out = new Uint32Array(4);
  o.addWall([[0, 0], [10, 0]]);
  assert.equal(o.queryRadius(5, 1, 1.5, out), 1);
  o.addWall([[0, 2], [10, 2]]);
  assert.equal(o.queryRadius(5, 1, 1.5, out), 2);
  o.clear();
  assert.equal(o.queryRadius(5, 1, 1.5, out), 0);
  assert.equal(o.bounds(), null);
});

/** A strategy that stands still and runs `during` once per step, counting walls near (0, 0). */
function probeStrategy(during: (ctx: StepContext) => void): Strategy & { seen: number[] } {
  const seen: number[] = [];
  const buffer = new Uint32Array(8);
  return {
    name: "probe",
    neighborRadius: 0,
    seen,
    computeNewVelocities(ctx: StepContext, begin: number, end: number) {
      seen.push(ctx.obstacles.queryRadius(0, 0, 5, buffer));
      ctx.agents.newVx.fill(0, begin, end);
      ctx.agents.newVy.fill(0, begin, end);
      during(ctx);
    },
  };
}

Deno.test("a strategy that adds a wall during a step gets an error: static geometry is locked", () => {
  const strategy = probeStrategy((ctx) => ctx.obstacles.addWall([[0, 1], [1, 1]]));
  const world = new World({ strategy });
  world.addAgent({ x: 0, y: 0 });
  assert.throws(() => world.step(), (e: Error) => {
    assert.match(e.message, /Cannot change static geometry during step 0/);
    return true;
  });
  assert.equal(world.obstacles.segmentCount, 0);
  assert.equal(world.phase, null);
  assert.equal(world.stepIndex, 0);
});

Deno.test("a navigator that adds a polygon during a step gets an error: static geometry is locked", () => {
  const navigator: Navigator = {
    name: "vandal",
    updatePreferredVelocities(ctx: NavigationContext) {
      ctx.obstacles.addPolygon([[0, 0], [1, 0], [0, 1]]);
    },
  };
  const world = new World({ strategy: probeStrategy(() => {}), navigator });
  world.addAgent({ x: 3, y: 3 });
  assert.throws(() => world.step(), /Cannot change static geometry during step 0/);
  assert.throws(() => world.step(), /during step 0/, "the failed step did not count");
});

Deno.test("walls added between steps are seen by the next step's queries", () => {
  const strategy = probeStrategy(() => {});
  const world = new World({ strategy });
  world.addAgent({ x: 0, y: 0 });
  world.step();
  world.obstacles.addWall([[-1, 1], [1, 1]]);
  world.step();
  world.obstacles.addPolygon([[-1, -2], [1, -2], [0, -3]]);
  world.step();
  world.obstacles.clear();
  world.step();
  assert.deepEqual(strategy.seen, [0, 1, 4, 0]);
});

Deno.test("a self-crossing polygon is refused naming the crossing edges; touching neighbours are fine", () => {
  const obstacles = new StaticObstacles();
  // A bow tie whose lobes differ, so its signed area is not 0.
  assert.throws(
    () => obstacles.addPolygon([[4, -2], [8, 2], [8, -2], [4, 1]]),
    /Cannot add polygon #0 as its edges 0–1 and 2–3 cross: a solid polygon must not cross itself/,
  );
  // An edge doubling back along another.
  assert.throws(
    () => obstacles.addPolygon([[0, 0], [4, 0], [4, 2], [2, 0], [1, 0], [0, 2]]),
    /edges 0–1 and 3–4 cross/,
  );
  obstacles.addPolygon([[0, 0], [4, 0], [4, 2], [2, 1], [0, 2]]); // concave: fine
  assert.equal(obstacles.polygons.length, 1);
});

Deno.test("obstacle points beyond 10,000 km are refused before any grid is built", () => {
  const obstacles = new StaticObstacles();
  assert.throws(
    () => obstacles.addWall([[-1e300, 0], [1e300, 0]]),
    /Cannot add wall #0 as point 0 must be two finite numbers \[x, y\] within ±10000000 m/,
  );
  assert.throws(() => obstacles.addPolygon([[0, 0], [2e7, 0], [0, 1]]), /point 1 must be/);
  obstacles.addWall([[-9e6, 0], [9e6, 1]]);
  assert.equal(obstacles.queryRadius(0, 0.2, 1, new Uint32Array(4)), 1);
});

import assert from "node:assert/strict";
import { StaticObstacles } from "../core/obstacles.ts";
import { Rng } from "../core/rng.ts";
import { SegmentGrid } from "../core/segment_grid.ts";
import { ObstacleQuery, OrcaObstacles } from "./_orca_obstacles.ts";
import { OrcaLines } from "./_orca_lp.ts";

/** Pillars (whose corners are equally far from points on their diagonals) and a zigzag wall. */
function geometry(): StaticObstacles {
  const obstacles = new StaticObstacles();
  for (let i = 0; i < 6; i++) {
    const x = -12 + 4 * i, y = (i % 2) * 3 - 1;
    obstacles.addPolygon([[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]]);
  }
  obstacles.addWall([[-14, -4], [-6, -6], [2, -4], [10, -6], [14, -4]]);
  obstacles.addWall([[-14, 6], [14, 6]]);
  return obstacles;
}

/** The query of an agent at (x, y) with velocity (vx, vy), radius r and speed limit, over tau. */
function query(
  [x, y, vx, vy, r, speed]: readonly number[],
  horizon: number,
): ObstacleQuery {
  const q = new ObstacleQuery();
  q.x = x;
  q.y = y;
  q.vx = vx;
  q.vy = vy;
  q.radius = r;
  q.maxSpeed = speed;
  q.horizon = horizon;
  return q;
}

/** The lines as exact bit patterns (so that 0 and -0 differ). */
function bits(lines: OrcaLines): string {
  const out: string[] = [];
  for (let k = 0; k < lines.count; k++) {
    for (const v of [lines.px[k], lines.py[k], lines.dx[k], lines.dy[k]]) {
      out.push(Object.is(v, -0) ? "-0" : String(v));
    }
  }
  return out.join(" ");
}

/**
 * Agents walking along rows, as the solver visits them (so that consecutive ones are near each
 * other), some on the diagonals of pillars and some on the corridor's centre line, where two
 * segments are equally far.
 */
function walkers(rng: Rng): [number, number, number, number, number, number][] {
  const agents: [number, number, number, number, number, number][] = [];
  for (let y = -3.5; y <= 5; y += 0.7) {
    for (let x = -13; x <= 13; x += rng.range(0.1, 0.6)) {
      const speed = rng.range(0.5, 2);
      agents.push([x, y, rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), 0.25, speed]);
    }
  }
  for (let i = 0; i < 6; i++) {
    const x = -12 + 4 * i, y = (i % 2) * 3 - 1;
    agents.push([x - 0.5, y - 0.5, 1, 1, 0.25, 1.5], [x + 1.4, y + 1.4, -1, 0, 0.25, 1.3]);
  }
  return agents;
}

Deno.test("orca obstacle half-planes are the same whether segments come from the cache or not", () => {
  const obstacles = geometry();
  const warm = new OrcaObstacles(); // one instance for all agents: its cache serves the next ones
  warm.update(obstacles);
  let compared = 0, nonEmpty = 0;
  for (const agent of walkers(new Rng(3))) {
    const [x, y] = agent;
    for (const tau of [5, 0.5]) {
      const cold = new OrcaObstacles(); // a fresh instance asks the segment grid itself
      cold.update(obstacles);
      const a = new OrcaLines(), b = new OrcaLines();
      const na = warm.pushLines(a, query(agent, tau));
      const nb = cold.pushLines(b, query(agent, tau));
      assert.equal(na, nb, `line count at (${x}, ${y}), tau ${tau}`);
      assert.equal(bits(a), bits(b), `lines at (${x}, ${y}), tau ${tau}`);
      compared++;
      if (na > 0) nonEmpty++;
    }
  }
  assert(compared > 500, `${compared} agents compared`);
  assert(nonEmpty > compared / 3, `only ${nonEmpty} of ${compared} saw a wall`);
});

Deno.test("orca obstacle half-planes of a crowd with kept lists equal queries of their own", () => {
  // The walkers as one crowd solved in grid order over three steps, each with its own list: a
  // query may use the previous agent's set, a new wide answer or its own list.
  const obstacles = geometry();
  const kept = new OrcaObstacles();
  kept.update(obstacles);
  const crowd = walkers(new Rng(5));
  let compared = 0;
  for (let step = 0; step < 3; step++) {
    crowd.forEach((agent, index) => {
      const moved = [agent[0] + 0.07 * step, agent[1] - 0.05 * step, ...agent.slice(2)];
      const q = query(moved, 5);
      q.agent = index;
      const lines = new OrcaLines(), own = new OrcaLines();
      kept.pushLines(lines, q);
      const fresh = new OrcaObstacles();
      fresh.update(obstacles);
      fresh.pushLines(own, query(moved, 5));
      assert.equal(bits(lines), bits(own), `agent ${index}, step ${step}`);
      compared++;
    });
  }
  assert(compared > 1500, `${compared} queries compared`);
});

Deno.test("orca obstacle half-planes of a shorter horizon equal a query of their own", () => {
  const obstacles = geometry();
  const reused = new OrcaObstacles();
  reused.update(obstacles);
  let withLines = 0;
  for (const agent of walkers(new Rng(4))) {
    const [x, y] = agent;
    const anticipation = new OrcaLines(), near = new OrcaLines(), own = new OrcaLines();
    reused.pushLines(anticipation, query(agent, 5));
    const n = reused.pushNearer(near, query(agent, 0.5));
    const fresh = new OrcaObstacles();
    fresh.update(obstacles);
    assert.equal(n, fresh.pushLines(own, query(agent, 0.5)));
    assert.equal(bits(near), bits(own), `lines at (${x}, ${y})`);
    if (n > 0) withLines++;
  }
  assert(withLines > 50, `only ${withLines} agents were near a wall`);
});

Deno.test("orca obstacle geometry follows a change of the obstacles", () => {
  // Two obstacle sets of the same version (two changes each), with other segment numbers.
  const first = new StaticObstacles();
  first.addWall([[-5, 1], [5, 1]]);
  first.addWall([[40, 40], [41, 40]]); // far away
  const second = new StaticObstacles();
  second.addPolygon([[40, 40], [41, 40], [41, 41]]); // far away
  second.addWall([[-5, -1], [5, -1]]);
  assert.equal(first.version, second.version);
  const geometryOf = new OrcaObstacles();
  const lines = new OrcaLines();
  // Whether velocity (0, vy) is on the allowed (left) side of line 0.
  const allows = (vy: number) => lines.dx[0] * (vy - lines.py[0]) - lines.dy[0] * -lines.px[0] >= 0;
  geometryOf.update(first);
  assert.equal(geometryOf.pushLines(lines, query([0, 0, 0, 0, 0.25, 1.5], 5)), 1);
  assert(!allows(1) && allows(-1), "the wall above forbids walking up");
  // Other obstacles: neither the per-segment geometry nor the cached segments may be reused.
  geometryOf.update(second);
  lines.count = 0;
  assert.equal(geometryOf.pushLines(lines, query([0, 0, 0, 0, 0.25, 1.5], 5)), 1);
  assert(allows(1) && !allows(-1), "the wall below forbids walking down");
});

Deno.test("orca obstacle half-planes of equally far walls come in one order whatever disc found them", () => {
  // Two walls 5 m to either side of agents on x = 0: equally far. Scanning the segment grid
  // row by row from the bottom of the query disc, the right wall, which reaches further down,
  // is found first in a disc reaching below y = 1, the left one otherwise. Equally far segments
  // are ordered by segment (the left wall was added first), so the half-planes, and with them
  // the result of the linear program when both bind, do not depend on the disc.
  const obstacles = new StaticObstacles();
  obstacles.addWall([[-5, 2.5], [-5, 22.5]]);
  obstacles.addWall([[5, -20], [5, 20]]);
  const own = (tau: number) => {
    const fresh = new OrcaObstacles(), lines = new OrcaLines();
    fresh.update(obstacles);
    fresh.pushLines(lines, query([0, 7.5, 0, 1, 0.25, 1], tau));
    return lines;
  };
  const near = own(5), far = own(10);
  assert.equal(near.count, 2);
  assert(near.px[0] < 0 && near.px[1] > 0, "over 5 s (a 5.25 m disc) the left wall comes first");
  assert.equal(far.count, 2);
  assert(far.px[0] < 0 && far.px[1] > 0, "over 10 s (10.25 m) the left wall comes first too");
  // The segments of an agent just below, reused (its disc reaches below y = 1).
  const cached = new OrcaObstacles(), lines = new OrcaLines();
  cached.update(obstacles);
  cached.pushLines(lines, query([0, 6.5, 0, 0, 0.25, 1], 5));
  lines.count = 0;
  cached.pushLines(lines, query([0, 7.5, 0, 1, 0.25, 1], 5));
  assert.equal(bits(lines), bits(near));
  // The shorter horizon after the longer one.
  const reused = new OrcaObstacles();
  reused.update(obstacles);
  lines.count = 0;
  reused.pushLines(lines, query([0, 7.5, 0, 1, 0.25, 1], 10));
  assert.equal(bits(lines), bits(far));
  lines.count = 0;
  reused.pushNearer(lines, query([0, 7.5, 0, 1, 0.25, 1], 5));
  assert.equal(bits(lines), bits(near));
});

/** Counts the segment grid's queries while `body` runs. */
function gridQueries(body: () => void): number {
  const original = SegmentGrid.prototype.queryRadius;
  let calls = 0;
  SegmentGrid.prototype.queryRadius = function (...args) {
    calls++;
    return original.apply(this, args);
  };
  try {
    body();
  } finally {
    SegmentGrid.prototype.queryRadius = original;
  }
  return calls;
}

Deno.test("an agent's own segment list gives the half-planes of a query of its own as it walks", () => {
  const obstacles = geometry();
  const kept = new OrcaObstacles();
  kept.update(obstacles);
  // Two agents walking along the corridor among the pillars, 0.07 m per step (1.4 m/s, 0.05
  // s steps), solved alternately as in a world's step; their lists are kept under index 0 and 1.
  const steps = 300;
  let withLines = 0;
  const asked = gridQueries(() => {
    for (let k = 0; k < steps; k++) {
      for (const [agent, y0, dir] of [[0, -2.6, 1], [1, 3.3, -1]]) {
        const x = dir * (-13 + 0.07 * k), y = y0 + 0.4 * Math.sin(k / 15);
        const q = query([x, y, dir * 1.4, 0, 0.25, 2.6], 5);
        q.agent = agent;
        const lines = new OrcaLines();
        const n = kept.pushLines(lines, q);
        const nearLines = new OrcaLines();
        q.horizon = 0.5;
        kept.pushNearer(nearLines, q);
        const fresh = new OrcaObstacles(), own = new OrcaLines(), ownNear = new OrcaLines();
        fresh.update(obstacles);
        fresh.pushLines(own, query([x, y, dir * 1.4, 0, 0.25, 2.6], 5));
        fresh.pushLines(ownNear, query([x, y, dir * 1.4, 0, 0.25, 2.6], 0.5));
        assert.equal(bits(lines), bits(own), `agent ${agent}, step ${k}`);
        assert.equal(bits(nearLines), bits(ownNear), `agent ${agent}, step ${k}, 0.5 s`);
        if (n > 0) withLines++;
      }
    }
  });
  assert(withLines > steps, `only ${withLines} of ${2 * steps} saw a wall`);
  // Each fresh instance asks the grid once (its 0.5 s query reuses the answer); the kept lists
  // were made anew only when their agent had walked 1.5 m (21 m each: 28 times), not every step
  // (600 times).
  const ownLists = asked - 2 * steps;
  assert(ownLists >= 2 && ownLists <= 40, `${ownLists} grid queries for the own lists`);
});

Deno.test("a kept list serves only queries inside its disc, and not other obstacles", () => {
  // The same pillars and walls, but the top wall 0.2 m lower and added first (so segment
  // numbers differ): as many changes, the same version.
  const build = (top: number) => {
    const obstacles = new StaticObstacles();
    if (top !== 6) obstacles.addWall([[-14, top], [14, top]]);
    for (let i = 0; i < 6; i++) {
      const x = -12 + 4 * i, y = (i % 2) * 3 - 1;
      obstacles.addPolygon([[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]]);
    }
    obstacles.addWall([[-14, -4], [-6, -6], [2, -4], [10, -6], [14, -4]]);
    if (top === 6) obstacles.addWall([[-14, top], [14, top]]);
    return obstacles;
  };
  const first = build(6), second = build(5.8);
  assert.equal(first.version, second.version);
  const ask = (geometryOf: OrcaObstacles, x: number, agent: number) => {
    const q = query([x, 5.4, 0, 0, 0.25, 0.1], 5); // a 0.75 m disc under the top wall
    q.agent = agent;
    const lines = new OrcaLines();
    geometryOf.pushLines(lines, q);
    return lines;
  };
  const freshOf = (obstacles: StaticObstacles) => {
    const fresh = new OrcaObstacles();
    fresh.update(obstacles);
    return fresh;
  };
  const kept = freshOf(first);
  assert.equal(ask(kept, 0, 0).count, 1, "the top wall");
  // 0.5 m along (inside the kept 2.25 m disc) and 3 m along (outside): as a fresh query.
  assert.equal(bits(ask(kept, 0.5, 0)), bits(ask(freshOf(first), 0.5, -1)));
  assert.equal(bits(ask(kept, 3, 0)), bits(ask(freshOf(first), 3, -1)));
  // Other obstacles of the same version: the lists made for the earlier ones are not used.
  kept.update(second);
  const lines = ask(kept, 3.2, 0);
  assert.equal(lines.count, 1);
  assert.equal(bits(lines), bits(ask(freshOf(second), 3.2, -1)));
  assert.notEqual(bits(lines), bits(ask(freshOf(first), 3.2, -1)), "the walls differ");
});

Deno.test("orca joins chained collinear pieces into one segment and keeps every corner", () => {
  const obstacles = new StaticObstacles();
  // An open wall: three pieces along y = 0, a corner, two pieces up.
  obstacles.addWall([[0, 0], [1, 0], [2.5, 0], [3, 0], [3, 1], [3, 4]]);
  // A square whose outline starts half way along an edge and has a midpoint on another.
  obstacles.addPolygon([[6, 0], [7, 0], [7, 1], [7, 2], [5, 2], [5, 0]]);
  const geometry = new OrcaObstacles();
  geometry.update(obstacles);
  assert.equal(obstacles.segmentCount, 5 + 6);
  assert.equal(geometry.segmentCount, 2 + 4);
  const ends = [];
  for (let s = 0; s < geometry.segmentCount; s++) {
    ends.push([geometry.ax[s], geometry.ay[s], geometry.bx[s], geometry.by[s]]);
  }
  assert.deepEqual(ends, [
    [0, 0, 3, 0],
    [3, 0, 3, 4],
    [7, 0, 7, 2],
    [7, 2, 5, 2],
    [5, 2, 5, 0],
    [5, 0, 7, 0], // across the start of the outline
  ]);
  assert.deepEqual([...geometry.next], [1, -1, 3, 4, 5, 2]);
  assert.deepEqual([...geometry.prev], [-1, 0, 5, 2, 3, 4]);
});

Deno.test("orca obstacle half-planes of a wall in pieces equal those of the whole wall", () => {
  const whole = new StaticObstacles(), cut = new StaticObstacles();
  whole.addWall([[-14, 6], [14, 6]]);
  whole.addPolygon([[-2, -1], [2, -1], [2, 1], [-2, 1]]);
  const points: [number, number][] = [];
  for (let k = 0; k <= 1000; k++) points.push([-14 + k * 0.028, 6]);
  cut.addWall(points);
  cut.addPolygon([[-2, -1], [0, -1], [2, -1], [2, 1], [-2, 1]]);
  const ofWhole = new OrcaObstacles(), ofCut = new OrcaObstacles();
  ofWhole.update(whole);
  ofCut.update(cut);
  let nonEmpty = 0;
  for (const agent of walkers(new Rng(5))) {
    const [x, y] = agent;
    if (Math.abs(x) < 2.3 && Math.abs(y) < 1.3) continue; // inside the pillar
    const a = new OrcaLines(), b = new OrcaLines();
    const na = ofWhole.pushLines(a, query(agent, 5));
    assert.equal(ofCut.pushLines(b, query(agent, 5)), na, `line count at (${x}, ${y})`);
    assert.equal(bits(b), bits(a), `lines at (${x}, ${y})`);
    if (na > 0) nonEmpty++;
  }
  assert(nonEmpty > 100, `only ${nonEmpty} agents saw a wall`);
});

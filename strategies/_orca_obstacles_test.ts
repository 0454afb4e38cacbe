import assert from "node:assert/strict";
import { StaticObstacles } from "../core/obstacles.ts";
import { Rng } from "../core/rng.ts";
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

Deno.test("orca obstacle half-planes of equally far walls come in the order of their own query", () => {
  // Two walls 5 m to either side of agents on x = 0: equally far. Scanning the segment grid
  // row by row from the bottom of the query disc, the right wall, which reaches further down,
  // comes first in a disc reaching below y = 1, the left one otherwise (it comes first along
  // the row where both start). The order of the half-planes follows, and with it the result of
  // the linear program when both bind.
  const obstacles = new StaticObstacles();
  obstacles.addWall([[-5, 2.5], [-5, 22.5]]);
  obstacles.addWall([[5, -20], [5, 20]]);
  const own = (tau: number) => {
    const fresh = new OrcaObstacles(), lines = new OrcaLines();
    fresh.update(obstacles);
    fresh.pushLines(lines, query([0, 7.5, 0, 1, 0.25, 1], tau));
    return lines;
  };
  const left = own(5), right = own(10);
  assert.equal(left.count, 2);
  assert(left.px[0] < 0 && left.px[1] > 0, "over 5 s (a 5.25 m disc) the left wall comes first");
  assert(right.px[0] > 0 && right.px[1] < 0, "over 10 s (10.25 m) the right wall comes first");
  // The segments of an agent just below, reused (its disc reaches below y = 1).
  const cached = new OrcaObstacles(), lines = new OrcaLines();
  cached.update(obstacles);
  cached.pushLines(lines, query([0, 6.5, 0, 0, 0.25, 1], 5));
  lines.count = 0;
  cached.pushLines(lines, query([0, 7.5, 0, 1, 0.25, 1], 5));
  assert.equal(bits(lines), bits(left));
  // The shorter horizon after the longer one.
  const reused = new OrcaObstacles();
  reused.update(obstacles);
  lines.count = 0;
  reused.pushLines(lines, query([0, 7.5, 0, 1, 0.25, 1], 10));
  assert.equal(bits(lines), bits(right));
  lines.count = 0;
  reused.pushNearer(lines, query([0, 7.5, 0, 1, 0.25, 1], 5));
  assert.equal(bits(lines), bits(left));
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

import assert from "node:assert/strict";
import { AgentGrid } from "./agent_grid.ts";
import { Rng } from "./rng.ts";

interface Crowd {
  name: string;
  px: Float64Array;
  py: Float64Array;
}

function uniform(
  name: string,
  n: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  seed: number,
): Crowd {
  const rng = new Rng(seed);
  const px = new Float64Array(n), py = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    px[i] = rng.range(minX, maxX);
    py[i] = rng.range(minY, maxY);
  }
  return { name, px, py };
}

function clustered(n: number, seed: number): Crowd {
  const rng = new Rng(seed);
  const centres = [[-40, 12], [3, -7], [60, 60], [61, 58]];
  const px = new Float64Array(n), py = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [cx, cy] = centres[rng.int(centres.length)];
    px[i] = cx + rng.normal(0, 1.5);
    py[i] = cy + rng.normal(0, 1.5);
  }
  return { name: "clustered", px, py };
}

function bruteRadius(
  c: Crowd,
  n: number,
  x: number,
  y: number,
  r: number,
  exclude: number,
): number[] {
  const hits: number[] = [];
  for (let i = 0; i < n; i++) {
    const dx = c.px[i] - x, dy = c.py[i] - y;
    if (dx * dx + dy * dy <= r * r && i !== exclude) hits.push(i);
  }
  return hits;
}

function bruteNearest(
  c: Crowd,
  n: number,
  x: number,
  y: number,
  maxRadius: number,
  exclude: number,
): { index: number; d2: number }[] {
  const all: { index: number; d2: number }[] = [];
  for (let i = 0; i < n; i++) {
    if (i === exclude) continue;
    const dx = c.px[i] - x, dy = c.py[i] - y;
    const d2 = dx * dx + dy * dy;
    if (d2 <= maxRadius * maxRadius) all.push({ index: i, d2 });
  }
  all.sort((a, b) => a.d2 - b.d2 || a.index - b.index);
  return all;
}

/** Agents on a square lattice of `spacing` (m): most distances are tied with others. */
function lattice(side: number, spacing: number): Crowd {
  const n = side * side, px = new Float64Array(n), py = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    px[i] = (i % side) * spacing - 7;
    py[i] = Math.floor(i / side) * spacing - 3;
  }
  return { name: `${spacing} m lattice (tied distances)`, px, py };
}

const sorted = (a: ArrayLike<number>): number[] => Array.from(a).sort((p, q) => p - q);

/**
 * Asserts that the grid's k-nearest answer equals brute force (`all`: every candidate, nearest
 * first), ties aside: among agents at the same distance any order is right, and when the k-th
 * distance is tied beyond k, any of the tied agents may fill the last places.
 */
function assertSameNearest(
  got: { index: Uint32Array; d2: Float64Array; n: number },
  all: { index: number; d2: number }[],
  k: number,
  label: string,
): void {
  const want = all.slice(0, k);
  assert.equal(got.n, want.length, `${label}: count`);
  assert.deepEqual(
    Array.from(got.d2.subarray(0, got.n)),
    want.map((w) => w.d2),
    `${label}: distances`,
  );
  for (let j = 0; j < got.n;) {
    let e = j;
    while (e < got.n && got.d2[e] === got.d2[j]) e++;
    const tied = all.filter((w) => w.d2 === got.d2[j]).map((w) => w.index);
    const gotTied = sorted(got.index.subarray(j, e));
    if (tied.length === e - j) {
      assert.deepEqual(gotTied, sorted(tied), `${label}: indices at ${got.d2[j]}`);
    } else {for (const i of gotTied) {
        assert(tied.includes(i), `${label}: ${i} is not at ${got.d2[j]}`);
      }}
    j = e;
  }
}

/** Query points: every 7th agent (excluding itself), random points around and far outside. */
function queryPoints(c: Crowd, n: number, seed: number): [number, number, number][] {
  const rng = new Rng(seed);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, c.px[i]);
    maxX = Math.max(maxX, c.px[i]);
    minY = Math.min(minY, c.py[i]);
    maxY = Math.max(maxY, c.py[i]);
  }
  if (n === 0) {
    minX =
      minY =
      maxX =
      maxY =
        0;
  }
  const points: [number, number, number][] = [];
  for (let i = 0; i < n; i += 7) points.push([c.px[i], c.py[i], i]);
  for (let q = 0; q < 60; q++) {
    const w = maxX - minX + 10, h = maxY - minY + 10;
    points.push([rng.range(minX - 5, minX - 5 + w), rng.range(minY - 5, minY - 5 + h), -1]);
  }
  points.push([minX - 3, minY - 3, -1], [maxX + 1, maxY + 2, -1], [minX - 1e4, maxY + 5e3, -1]);
  return points;
}

const CROWDS: Crowd[] = [
  uniform("square around the origin", 1500, -30, -30, 30, 30, 1),
  uniform("500 m × 20 m corridor", 1500, 0, 0, 500, 20, 2),
  uniform("all-negative coordinates", 1200, -1000, -300, -940, -280, 3),
  uniform("mixed signs, far from the origin", 1200, 123456.5, -98765.25, 123516.5, -98725.25, 4),
  clustered(1500, 5),
  uniform("single agent", 1, -3, -3, -3, -3, 6),
  lattice(36, 0.5),
];

Deno.test("agent grid k-nearest answers do not depend on the queries asked before", () => {
  // Two grids over the same crowd, queried in opposite orders: scratch state must not leak
  // from one query into the next.
  for (const crowd of [lattice(30, 0.5), clustered(800, 17)]) {
    const n = crowd.px.length;
    const a = new AgentGrid({ cellSize: 2 }), b = new AgentGrid({ cellSize: 2 });
    a.rebuild(crowd.px, crowd.py, n);
    b.rebuild(crowd.px.slice(), crowd.py.slice(), n);
    const queries: [number, number, number][] = [];
    for (let i = 0; i < n; i += 3) queries.push([crowd.px[i], crowd.py[i], 1 + (i % 17)]);
    const answers = queries.map(([x, y, k]) => {
      const index = new Uint32Array(k), d2 = new Float64Array(k);
      const got = a.queryKNearest(x, y, 4, k, index, d2);
      return [...index.subarray(0, got), ...d2.subarray(0, got)];
    });
    for (let q = queries.length - 1; q >= 0; q--) {
      const [x, y, k] = queries[q];
      const index = new Uint32Array(k), d2 = new Float64Array(k);
      const got = b.queryKNearest(x, y, 4, k, index, d2);
      assert.deepEqual([...index.subarray(0, got), ...d2.subarray(0, got)], answers[q]);
    }
  }
});

for (const crowd of CROWDS) {
  Deno.test(`agent grid radius queries match brute force: ${crowd.name}`, () => {
    const n = crowd.px.length;
    const grid = new AgentGrid({ cellSize: 2.5 });
    grid.rebuild(crowd.px, crowd.py, n);
    const out = new Uint32Array(n + 1);
    let checked = 0, nonEmpty = 0;
    for (const [x, y, self] of queryPoints(crowd, n, 11)) {
      for (const r of [0, 0.4, 1.25, 2.5, 6.3, 40]) {
        const want = bruteRadius(crowd, n, x, y, r, self);
        const count = grid.queryRadius(x, y, r, out, self);
        assert.equal(count, want.length, `count at (${x}, ${y}) r=${r}`);
        assert.deepEqual(sorted(out.subarray(0, count)), want, `indices at (${x}, ${y}) r=${r}`);
        checked++;
        if (count > 0) nonEmpty++;
      }
    }
    assert(checked > 300);
    if (n > 1) {
      assert(nonEmpty > checked / 3, `only ${nonEmpty} of ${checked} queries found anyone`);
    }
  });

  Deno.test(`agent grid k-nearest queries match brute force: ${crowd.name}`, () => {
    const n = crowd.px.length;
    const grid = new AgentGrid({ cellSize: 2.5 });
    grid.rebuild(crowd.px, crowd.py, n);
    const index = new Uint32Array(16), d2 = new Float64Array(16);
    for (const [x, y, self] of queryPoints(crowd, n, 12)) {
      for (const [k, maxRadius] of [[1, Infinity], [10, 3], [10, Infinity], [16, 0.8], [5, 1e5]]) {
        const all = bruteNearest(crowd, n, x, y, maxRadius, self);
        const got = grid.queryKNearest(x, y, maxRadius, k, index, d2, self);
        assertSameNearest(
          { index, d2, n: got },
          all,
          k,
          `${crowd.name} (${x}, ${y}) k=${k} max=${maxRadius}`,
        );
      }
    }
  });
}

Deno.test("agent grid finds nobody in an empty crowd", () => {
  const grid = new AgentGrid();
  grid.rebuild(new Float64Array(0), new Float64Array(0), 0);
  const out = new Uint32Array(4);
  assert.equal(grid.queryRadius(0, 0, 100, out), 0);
  assert.equal(grid.queryKNearest(0, 0, Infinity, 3, out, new Float64Array(4)), 0);
  assert.equal(grid.count, 0);
});

Deno.test("agent grid indexes only the first `count` entries of the position arrays", () => {
  const px = new Float64Array([0, 1, 2, 3]), py = new Float64Array(4);
  const grid = new AgentGrid();
  grid.rebuild(px, py, 2);
  const out = new Uint32Array(8);
  assert.deepEqual(sorted(out.subarray(0, grid.queryRadius(0, 0, 10, out))), [0, 1]);
  assert.throws(
    () => grid.rebuild(px, py, 5),
    /'count' must be an integer in \[0, 4\].*current value is 5/,
  );
});

Deno.test("agent grid rejects non-finite positions naming the agent", () => {
  const px = new Float64Array([0, NaN, 2, 3]), py = new Float64Array(4);
  const grid = new AgentGrid();
  assert.throws(
    () => grid.rebuild(px, py, 4),
    /every position must be finite: agent 1 is at \(NaN, 0\)/,
  );
  px[1] = 1;
  py[3] = -Infinity;
  assert.throws(() => grid.rebuild(px, py, 4), /agent 3 is at \(3, -Infinity\)/);
  grid.rebuild(px, py, 3);
  assert.equal(grid.count, 3);
});

Deno.test("agent grid reports overflow: a short buffer gets the first hits and the true total", () => {
  const crowd = uniform("dense", 400, 0, 0, 10, 10, 21);
  const grid = new AgentGrid({ cellSize: 2 });
  grid.rebuild(crowd.px, crowd.py, 400);
  const want = bruteRadius(crowd, 400, 5, 5, 3, 17);
  assert(want.length > 50, `setup: ${want.length} hits`);
  for (const size of [0, 1, 3, 50]) {
    const out = new Uint32Array(size);
    const count = grid.queryRadius(5, 5, 3, out, 17);
    assert.equal(count, want.length);
    assert.equal(new Set(out).size, size, "no duplicates among the written hits");
    for (const i of out) assert(want.includes(i), `${i} is not a hit`);
  }
});

Deno.test("agent grid leaves out the excluded agent and only it", () => {
  const px = new Float64Array([0, 0, 0.5]), py = new Float64Array([0, 0, 0]);
  const grid = new AgentGrid();
  grid.rebuild(px, py, 3);
  const out = new Uint32Array(4);
  assert.deepEqual(sorted(out.subarray(0, grid.queryRadius(0, 0, 1, out, 1))), [0, 2]);
  assert.deepEqual(sorted(out.subarray(0, grid.queryRadius(0, 0, 1, out, -1))), [0, 1, 2]);
  assert.deepEqual(sorted(out.subarray(0, grid.queryRadius(0, 0, 1, out, 7))), [0, 1, 2]);
  const d2 = new Float64Array(4);
  assert.equal(grid.queryKNearest(0, 0, 1, 4, out, d2, 0), 2);
  assert.deepEqual([out[0], out[1], d2[0], d2[1]], [1, 2, 0, 0.25]);
});

Deno.test("agent grid answers NaN, negative-radius and far-away queries with nobody", () => {
  const crowd = uniform("square", 100, 0, 0, 10, 10, 8);
  const grid = new AgentGrid();
  grid.rebuild(crowd.px, crowd.py, 100);
  const out = new Uint32Array(200), d2 = new Float64Array(200);
  assert.equal(grid.queryRadius(NaN, 5, 3, out), 0);
  assert.equal(grid.queryRadius(5, 5, NaN, out), 0);
  assert.equal(grid.queryRadius(5, 5, -1, out), 0);
  assert.equal(grid.queryRadius(1e9, -1e9, 10, out), 0);
  assert.equal(grid.queryKNearest(NaN, 5, 3, 4, out, d2), 0);
  assert.equal(grid.queryKNearest(1e9, -1e9, 10, 4, out, d2), 0);
  assert.equal(grid.queryRadius(5, 5, Infinity, out), 100);
});

Deno.test("agent grid k-nearest with an infinite radius returns everyone when fewer than k exist", () => {
  const px = new Float64Array([0, 5, -70]), py = new Float64Array([0, 1, 3]);
  const grid = new AgentGrid({ cellSize: 1 });
  grid.rebuild(px, py, 3);
  const index = new Uint32Array(10), d2 = new Float64Array(10);
  assert.equal(grid.queryKNearest(1e4, 0, Infinity, 10, index, d2), 3);
  assert.deepEqual(Array.from(index.subarray(0, 3)), [1, 0, 2]);
  assert.equal(grid.queryKNearest(0, 0, Infinity, 10, index, d2, 0), 2);
  assert.deepEqual(Array.from(d2.subarray(0, 2)), [26, 4909]);
});

Deno.test("agent grid k-nearest writes at most the buffer length and a whole k", () => {
  const crowd = uniform("square", 300, 0, 0, 10, 10, 9);
  const grid = new AgentGrid();
  grid.rebuild(crowd.px, crowd.py, 300);
  const index = new Uint32Array(4), d2 = new Float64Array(6);
  assert.equal(grid.queryKNearest(5, 5, Infinity, 10, index, d2), 4);
  assert.equal(grid.queryKNearest(5, 5, Infinity, 2.7, index, d2), 2);
  assert.deepEqual(
    Array.from(index.subarray(0, 2)),
    bruteNearest(crowd, 300, 5, 5, Infinity, -1).slice(0, 2).map((w) => w.index),
  );
});

Deno.test("agent grid keeps two agents 100 km apart correct with a bounded number of cells", () => {
  for (const [bx, by] of [[1e5, 0], [0, -1e5], [7e4, 7e4]]) {
    const px = new Float64Array([0, bx]), py = new Float64Array([0, by]);
    const grid = new AgentGrid({ cellSize: 2.5 });
    grid.rebuild(px, py, 2);
    assert(grid.activeCellSize > 2.5, `cell size ${grid.activeCellSize} was not enlarged`);
    assert(grid.cols * grid.rows <= 4 * 2 + 4096, `${grid.cols} × ${grid.rows} cells`);
    assert(grid.cellStart.length <= 8192, `cellStart holds ${grid.cellStart.length} entries`);
    const out = new Uint32Array(4), d2 = new Float64Array(4);
    assert.equal(grid.queryRadius(0, 0, 1, out), 1);
    assert.equal(out[0], 0);
    assert.equal(grid.queryRadius(bx + 0.5, by, 1, out), 1);
    assert.equal(out[0], 1);
    assert.equal(grid.queryRadius(bx / 2, by / 2, 1e3, out), 0);
    assert.equal(grid.queryKNearest(0, 0, Infinity, 2, out, d2, -1), 2);
    assert.deepEqual([out[0], out[1], d2[1]], [0, 1, bx * bx + by * by]);
  }
  // A dense crowd returns to the requested cell size on the next rebuild.
  const grid = new AgentGrid({ cellSize: 2.5 });
  grid.rebuild(new Float64Array([0, 1e5]), new Float64Array(2), 2);
  const crowd = uniform("square", 50, 0, 0, 10, 10, 3);
  grid.rebuild(crowd.px, crowd.py, 50);
  assert.equal(grid.activeCellSize, 2.5);
});

Deno.test("agent grid cells hold exactly the agents whose floor cell they are", () => {
  for (const crowd of CROWDS) {
    const n = crowd.px.length;
    const grid = new AgentGrid({ cellSize: 2.5 });
    grid.rebuild(crowd.px, crowd.py, n);
    const seen = new Uint8Array(n);
    const cell = grid.activeCellSize;
    for (let c = 0; c < grid.cols * grid.rows; c++) {
      for (let k = grid.cellStart[c]; k < grid.cellStart[c + 1]; k++) {
        const i = grid.sortedIndex[k];
        seen[i]++;
        const col = Math.floor((crowd.px[i] - grid.originX) / cell);
        const row = Math.floor((crowd.py[i] - grid.originY) / cell);
        assert.equal(row * grid.cols + col, c, `${crowd.name}: agent ${i}`);
        assert.equal(grid.cellOf[i], c);
        assert.equal(grid.sortedX[k], crowd.px[i]);
        assert.equal(grid.sortedY[k], crowd.py[i]);
      }
    }
    assert.equal(grid.cellStart[grid.cols * grid.rows], n);
    assert(seen.every((s) => s === 1), `${crowd.name}: every agent in exactly one cell`);
  }
});

Deno.test("agent grid rejects a non-positive cell size naming the option", () => {
  assert.throws(
    () => new AgentGrid({ cellSize: 0 }),
    /'cellSize' must be a finite number > 0: current value is 0/,
  );
  assert.throws(() => new AgentGrid({ cellSize: NaN }), RangeError);
  assert.throws(() => new AgentGrid({ maxCellsPerAgent: 0.5 }), /'maxCellsPerAgent' must be/);
});

Deno.test("agent grid finds agents on the far edge when rounding puts them past the last cell", () => {
  // 0.3 / 0.1 rounds to 2.9999999999999996 but 0.3 * (1 / 0.1) to 3.0000000000000004.
  const px = new Float64Array([0, 0.3, 0.3, 0]), py = new Float64Array([0, 0, 0.3, 0.3]);
  const grid = new AgentGrid({ cellSize: 0.1 });
  grid.rebuild(px, py, 4);
  const out = new Uint32Array(8), d2 = new Float64Array(8);
  for (let i = 0; i < 4; i++) {
    assert.equal(grid.queryRadius(px[i], py[i], 0.01, out), 1, `agent ${i}`);
    assert.equal(out[0], i);
    assert.equal(grid.queryKNearest(px[i], py[i], 0.01, 1, out, d2), 1);
    assert.equal(out[0], i);
  }
  assert.equal(grid.queryRadius(0.15, 0.15, 1, out), 4);
});

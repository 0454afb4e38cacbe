import assert from "node:assert/strict";
import { pointSegmentDistanceSq } from "./geometry.ts";
import { Rng } from "./rng.ts";
import { SegmentGrid } from "./segment_grid.ts";

interface Segments {
  ax: Float64Array;
  ay: Float64Array;
  bx: Float64Array;
  by: Float64Array;
  count: number;
}

function segments(list: [number, number, number, number][]): Segments {
  const count = list.length;
  const s = {
    ax: new Float64Array(count),
    ay: new Float64Array(count),
    bx: new Float64Array(count),
    by: new Float64Array(count),
    count,
  };
  list.forEach(([ax, ay, bx, by], i) => {
    s.ax[i] = ax;
    s.ay[i] = ay;
    s.bx[i] = bx;
    s.by[i] = by;
  });
  return s;
}

function brute(s: Segments, x: number, y: number, r: number): number[] {
  const hits: number[] = [];
  for (let i = 0; i < s.count; i++) {
    if (pointSegmentDistanceSq(x, y, s.ax[i], s.ay[i], s.bx[i], s.by[i]) <= r * r) hits.push(i);
  }
  return hits;
}

/** A mix of long diagonal walls, shallow walls, short edges, axis-aligned walls on cell borders. */
function randomSegments(seed: number, offsetX: number, offsetY: number): Segments {
  const rng = new Rng(seed);
  const list: [number, number, number, number][] = [];
  for (let i = 0; i < 40; i++) {
    const x = rng.range(-100, 100), y = rng.range(-100, 100);
    const a = rng.range(0, 2 * Math.PI), len = rng.range(20, 200);
    list.push([x, y, x + len * Math.cos(a), y + len * Math.sin(a)]);
  }
  for (let i = 0; i < 20; i++) {
    const x = rng.range(-100, 100), y = rng.range(-100, 100);
    list.push([x, y, x + rng.range(50, 150), y + rng.range(-0.01, 0.01)]); // nearly horizontal
  }
  for (let i = 0; i < 100; i++) {
    const x = rng.range(-100, 100), y = rng.range(-100, 100);
    list.push([x, y, x + rng.range(-2, 2), y + rng.range(-2, 2)]);
  }
  for (let k = -10; k <= 10; k++) {
    list.push([-100, k * 2.1, 100, k * 2.1], [k * 2.1, -100, k * 2.1, 100]);
  }
  return segments(
    list.map(([ax, ay, bx, by]) => [ax + offsetX, ay + offsetY, bx + offsetX, by + offsetY]),
  );
}

for (
  const [name, ox, oy] of [["around the origin", 0, 0], [
    "at negative coordinates",
    -5000.5,
    -731.25,
  ]] as const
) {
  Deno.test(`segment grid radius queries match brute force ${name}`, () => {
    const s = randomSegments(3, ox, oy);
    const grid = new SegmentGrid(2.1);
    grid.build(s.ax, s.ay, s.bx, s.by, s.count);
    const rng = new Rng(4);
    const out = new Uint32Array(s.count);
    let hits = 0;
    for (let q = 0; q < 1500; q++) {
      const x = ox + rng.range(-130, 130), y = oy + rng.range(-130, 130);
      for (const r of [0.3, 1.05, 4, 25]) {
        const want = brute(s, x, y, r);
        const n = grid.queryRadius(x, y, r, out);
        assert.equal(n, want.length, `count at (${x}, ${y}) r=${r}`);
        assert.deepEqual(Array.from(out.subarray(0, n)).sort((a, b) => a - b), want);
        hits += n;
      }
    }
    assert(hits > 10_000, `queries found only ${hits} segments`);
  });
}

Deno.test("segment grid enters a long diagonal wall only in the cells it crosses", () => {
  const s = segments([[0, 0, 210, 210]]);
  const grid = new SegmentGrid(2.1);
  grid.build(s.ax, s.ay, s.bx, s.by, 1);
  assert.equal(grid.cols * grid.rows, 101 * 101);
  // A diagonal crosses about 2 cells per row (3 where it passes a corner within rounding).
  assert(grid.cellItems.length <= 3 * 101, `${grid.cellItems.length} cell entries`);
  const out = new Uint32Array(2);
  assert.equal(grid.queryRadius(100, 100.5, 0.5, out), 1);
  assert.equal(grid.queryRadius(100, 110, 5, out), 0);
});

Deno.test("segment grid reports overflow with the true total", () => {
  const s = segments([[0, 0, 10, 0], [0, 1, 10, 1], [0, 2, 10, 2]]);
  const grid = new SegmentGrid(2.1);
  grid.build(s.ax, s.ay, s.bx, s.by, 3);
  const out = new Uint32Array(2);
  assert.equal(grid.queryRadius(5, 1, 1.5, out), 3);
  assert.equal(new Set(out).size, 2);
});

Deno.test("segment grid keeps walls 100 km apart in a bounded number of cells", () => {
  const s = segments([[0, 0, 5, 0], [1e5, 1e5, 1e5 + 5, 1e5]]);
  const grid = new SegmentGrid(2.1);
  grid.build(s.ax, s.ay, s.bx, s.by, 2);
  assert(grid.cols * grid.rows <= 1 << 22, `${grid.cols} × ${grid.rows} cells`);
  assert(grid.activeCellSize > 2.1);
  const out = new Uint32Array(2);
  assert.equal(grid.queryRadius(2, 0.5, 1, out), 1);
  assert.equal(out[0], 0);
  assert.equal(grid.queryRadius(1e5 + 2, 1e5 - 0.5, 1, out), 1);
  assert.equal(out[0], 1);
  assert.equal(grid.queryRadius(5e4, 5e4, 100, out), 0);
});

Deno.test("segment grid with no segments finds nothing", () => {
  const grid = new SegmentGrid();
  const empty = new Float64Array(0);
  grid.build(empty, empty, empty, empty, 0);
  assert.equal(grid.queryRadius(0, 0, 1e6, new Uint32Array(1)), 0);
});

Deno.test("segment grid rejects a bad cell size and count naming them", () => {
  assert.throws(
    () => new SegmentGrid(-1),
    /'cellSize' must be a finite number > 0: current value is -1/,
  );
  const a = new Float64Array(2);
  assert.throws(
    () => new SegmentGrid().build(a, a, a, a, 3),
    /'count' must be an integer in \[0, 2\]/,
  );
});

Deno.test("segment grid isClear: never clear with a segment in range, clear for most open points", () => {
  // Sparse short pieces (street furniture) and two long walls, at large coordinates too.
  for (const [ox, oy] of [[0, 0], [-5000.5, 731.25]]) {
    const rng = new Rng(8);
    const list: [number, number, number, number][] = [];
    for (let i = 0; i < 60; i++) {
      const x = ox + rng.range(-60, 60), y = oy + rng.range(-60, 60);
      list.push([x, y, x + rng.range(-1.5, 1.5), y + rng.range(-1.5, 1.5)]);
    }
    list.push([ox - 60, oy - 20, ox + 60, oy - 20], [ox - 30, oy - 60, ox + 10, oy + 60]);
    const s = segments(list);
    const grid = new SegmentGrid(2.1);
    grid.build(s.ax, s.ay, s.bx, s.by, s.count);
    let clear = 0, empty = 0;
    for (let q = 0; q < 20_000; q++) {
      const x = ox + rng.range(-75, 75), y = oy + rng.range(-75, 75), r = rng.range(0, 3);
      const near = brute(s, x, y, r).length;
      if (near === 0) empty++;
      if (grid.isClear(x, y, r)) {
        clear++;
        assert.equal(near, 0, `clear at (${x}, ${y}) r ${r} with ${near} segments in range`);
      }
    }
    // The map is fine enough to settle most points with nothing in range.
    assert.ok(clear > 0.75 * empty, `${clear} clear of ${empty} empty`);
    assert.equal(grid.isClear(NaN, oy, 1), false);
    assert.equal(grid.isClear(ox + 1e6, oy, 1), true);
  }
  const none = new SegmentGrid(2.1);
  none.build(new Float64Array(0), new Float64Array(0), new Float64Array(0), new Float64Array(0), 0);
  assert.equal(none.isClear(0, 0, 100), true);
});

Deno.test("segment grid isClear over a city-sized area (coarser map): never clear with a segment in range", () => {
  // Walls spread over 800 m: a 0.5 m map would hold 2.6 million cells, so the map is coarser.
  const rng = new Rng(9);
  const list: [number, number, number, number][] = [];
  for (let i = 0; i < 400; i++) {
    const x = rng.range(0, 800), y = rng.range(0, 800);
    list.push([x, y, x + rng.range(-6, 6), y + rng.range(-6, 6)]);
  }
  const s = segments(list);
  const city = new SegmentGrid(2.1), fine = new SegmentGrid(2.1, 2.5, 0.5);
  city.build(s.ax, s.ay, s.bx, s.by, s.count);
  // The same segments near the origin only: a small area keeps the 0.5 m map.
  const near = segments(list.filter(([x, y]) => x < 100 && y < 100));
  fine.build(near.ax, near.ay, near.bx, near.by, near.count);
  let clear = 0, empty = 0, clearFine = 0, emptyFine = 0;
  for (let q = 0; q < 20_000; q++) {
    const x = rng.range(0, 800), y = rng.range(0, 800), r = rng.range(0, 2.5);
    const found = brute(s, x, y, r).length;
    if (found === 0) empty++;
    if (city.isClear(x, y, r)) {
      clear++;
      assert.equal(found, 0, `clear at (${x}, ${y}) r ${r} with ${found} segments in range`);
    }
    const fx = x / 8, fy = y / 8, foundFine = brute(near, fx, fy, r).length;
    if (foundFine === 0) emptyFine++;
    if (fine.isClear(fx, fy, r)) clearFine++;
  }
  // Coarser cells settle a smaller share of the open points than the fine map, but most.
  assert.ok(clear > 0.6 * empty, `${clear} clear of ${empty} empty`);
  assert.ok(clear / empty < clearFine / emptyFine, `${clear / empty} vs ${clearFine / emptyFine}`);
  assert.throws(() => new SegmentGrid(2, 2.5, 0), /'clearanceCell' must be a finite number > 0/);
});

Deno.test("segment grid isClear answers up to its clearance cap, and refuses a cap a byte cannot hold", () => {
  const wall = (grid: SegmentGrid) => {
    grid.build(Float64Array.of(0), Float64Array.of(0), Float64Array.of(10), Float64Array.of(0), 1);
    return grid;
  };
  // 4 m clear of the wall: beyond the default cap (2.5 m), within a 5 m one.
  assert.equal(wall(new SegmentGrid(2)).isClear(5, 5, 4), false);
  assert.equal(wall(new SegmentGrid(2, 5)).isClear(5, 5, 4), true);
  assert.equal(wall(new SegmentGrid(2, 5)).isClear(5, 3, 4), false);
  assert.throws(() => new SegmentGrid(2, 20), /'clearanceCap' must be in \(0, 12\.7\] m/);
});

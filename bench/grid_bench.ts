/**
 * Agent grid benchmarks: a rebuild plus one neighbour query per agent, as a strategy does every
 * step.
 *
 * Agents are uniformly random in a square sized so that a 1.25 m radius query finds about 10
 * neighbours (2.04 agents/m²); cells are 2.5 m. "grid order" iterates `grid.sortedIndex` (the
 * natural loop of a strategy), "random order" visits agents in a shuffled order.
 *
 * Target: rebuild + all radius queries for 100k agents under 15 ms. The k-nearest benchmark
 * (k = 10, within 5 m) has no target.
 *
 * Run with `deno bench bench/grid_bench.ts`.
 *
 * @module
 */
import { AgentGrid } from "../core/agent_grid.ts";
import { Rng } from "../core/rng.ts";

const QUERY_RADIUS = 1.25;
const CELL_SIZE = 2.5;
const NEIGHBOURS = 10;
const K = 10;

interface Crowd {
  px: Float64Array;
  py: Float64Array;
  order: Uint32Array;
}

/** `count` agents at a density giving about `NEIGHBOURS` others within `QUERY_RADIUS`. */
function makeCrowd(count: number): Crowd {
  const density = NEIGHBOURS / (Math.PI * QUERY_RADIUS * QUERY_RADIUS);
  const side = Math.sqrt(count / density);
  const rng = new Rng(2024);
  const px = new Float64Array(count), py = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    px[i] = rng.range(-side / 2, side / 2);
    py[i] = rng.range(-side / 2, side / 2);
  }
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  for (let i = count - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  return { px, py, order };
}

const out = new Uint32Array(64);
const outIndex = new Uint32Array(K);
const outDistSq = new Float64Array(K);
let sink = 0;

for (const count of [10_000, 100_000]) {
  const crowd = makeCrowd(count);
  const grid = new AgentGrid({ cellSize: CELL_SIZE });
  grid.rebuild(crowd.px, crowd.py, count);
  // Sanity check of the setup, outside the timed code.
  let total = 0;
  for (let i = 0; i < count; i++) {
    total += grid.queryRadius(crowd.px[i], crowd.py[i], QUERY_RADIUS, out, i);
  }
  const mean = total / count;
  if (mean < 8 || mean > 11) throw new Error(`expected ~10 neighbours per query, got ${mean}`);
  const label = `${count / 1000}k agents`;

  Deno.bench({
    name: `rebuild + radius query per agent, grid order, ${label}`,
    group: `radius ${label}`,
    baseline: true,
    fn() {
      const { px, py } = crowd;
      grid.rebuild(px, py, count);
      const idx = grid.sortedIndex, sx = grid.sortedX, sy = grid.sortedY;
      let found = 0;
      for (let k = 0; k < count; k++) {
        found += grid.queryRadius(sx[k], sy[k], QUERY_RADIUS, out, idx[k]);
      }
      sink += found;
    },
  });

  Deno.bench({
    name: `rebuild + radius query per agent, random order, ${label}`,
    group: `radius ${label}`,
    fn() {
      const { px, py, order } = crowd;
      grid.rebuild(px, py, count);
      let found = 0;
      for (let k = 0; k < count; k++) {
        const i = order[k];
        found += grid.queryRadius(px[i], py[i], QUERY_RADIUS, out, i);
      }
      sink += found;
    },
  });

  Deno.bench({
    name: `rebuild only, ${label}`,
    group: `radius ${label}`,
    fn() {
      grid.rebuild(crowd.px, crowd.py, count);
      sink += grid.cols;
    },
  });

  Deno.bench({
    name: `rebuild + 10-nearest query per agent, grid order, ${label}`,
    group: `k-nearest ${label}`,
    fn() {
      const { px, py } = crowd;
      grid.rebuild(px, py, count);
      const idx = grid.sortedIndex, sx = grid.sortedX, sy = grid.sortedY;
      let found = 0;
      for (let k = 0; k < count; k++) {
        found += grid.queryKNearest(sx[k], sy[k], 5, K, outIndex, outDistSq, idx[k]);
      }
      sink += found;
    },
  });
}

globalThis.addEventListener("unload", () => {
  if (sink === 0) console.log("no neighbours found");
});

/**
 * Navigation mesh benchmarks on a 1 km × 1 km area with 2,000 random rectangular obstacles
 * (sides 1–12 m, some overlapping), as a city block or a large hall would give.
 *
 * - build: clean-up, erosion by the 0.25 m clearance, triangulation, border edges, widths.
 *   Target: under 2 s.
 * - path query: one query per iteration, cycling through 1,000 random start/goal pairs anywhere
 *   on the map (mean distance about 520 m), with the navigator's defaults (minimum width 1.1 m,
 *   paths within 1% of the shortest). Target: under 200 µs. The exact query (weight 1) and local
 *   queries (10–100 m) are reported for comparison.
 * - world step with 10,000 agents following 150–300 m paths (funnel corner, walking to the new
 *   triangle), against the same crowd with the straight-line goal seeker; the strategy is
 *   `none`, so the difference is the navigator's cost.
 *
 * Run with `deno bench -A bench/navmesh_bench.ts`.
 *
 * @module
 */
import { Rng } from "../core/rng.ts";
import { World } from "../core/world.ts";
import { buildNavMesh } from "../navigation/navmesh_builder.ts";
import type { Navigator } from "../core/navigator.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { createNavMeshNavigator } from "../navigation/navmesh_navigator.ts";
import { NavMeshQuery, NavPath } from "../navigation/path_query.ts";
import type { PolygonWithHoles } from "../navigation/walkable_area.ts";
import { createNoneStrategy } from "../strategies/none.ts";

const SIZE = 1000;
const OBSTACLES = 2000;

function rectangles(seed: number): PolygonWithHoles[] {
  const rng = new Rng(seed);
  const out: PolygonWithHoles[] = [];
  for (let i = 0; i < OBSTACLES; i++) {
    const w = rng.range(1, 12), h = rng.range(1, 12);
    const x = rng.range(1, SIZE - 1 - w), y = rng.range(1, SIZE - 1 - h);
    out.push([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]]);
  }
  return out;
}

const input = {
  walkable: [[[[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]]]] as PolygonWithHoles[],
  obstacles: rectangles(7),
};
const mesh = buildNavMesh(input);

/** `count` start/goal pairs on the clear area, `[sx, sy, gx, gy]`, at most `maxDistance` apart. */
function pairs(
  count: number,
  seed: number,
  minDistance = 0,
  maxDistance = Infinity,
): Float64Array[] {
  const rng = new Rng(seed);
  const out: Float64Array[] = [];
  const clearAt = (x: number, y: number) => {
    const t = mesh.locate(x, y);
    return t >= 0 && mesh.clear[t] === 1;
  };
  while (out.length < count) {
    const sx = rng.range(0, SIZE), sy = rng.range(0, SIZE);
    let gx = rng.range(0, SIZE), gy = rng.range(0, SIZE);
    if (maxDistance < Infinity) {
      const a = rng.range(0, 2 * Math.PI), d = rng.range(minDistance, maxDistance);
      gx = sx + d * Math.cos(a);
      gy = sy + d * Math.sin(a);
    }
    if (clearAt(sx, sy) && clearAt(gx, gy)) out.push(Float64Array.of(sx, sy, gx, gy));
  }
  return out;
}

Deno.bench("navmesh build: 1 km², 2,000 rectangles, clearance 0.25 m", {
  group: "build",
  baseline: true,
}, () => {
  buildNavMesh(input);
});

Deno.bench("navmesh build: same, clearance 0", { group: "build" }, () => {
  buildNavMesh(input, { clearance: 0 });
});

function queryBench(
  name: string,
  list: Float64Array[],
  query: NavMeshQuery,
  baseline = false,
): void {
  const path = new NavPath(1024);
  let k = 0;
  Deno.bench(name, { group: "query", baseline }, () => {
    const p = list[k++ % list.length];
    query.findPath(p.subarray(0, 2), p.subarray(2, 4), path);
  });
}

const across = pairs(1000, 11);
queryBench(
  "path query across the map (min width 1.1 m, within 1%)",
  across,
  new NavMeshQuery(mesh, { minWidth: 1.1, heuristicWeight: 1.01 }),
  true,
);
queryBench(
  "path query across the map, exact shortest",
  across,
  new NavMeshQuery(mesh, { minWidth: 1.1, heuristicWeight: 1 }),
);
queryBench(
  "path query, 10–100 m apart",
  pairs(1000, 12, 10, 100),
  new NavMeshQuery(mesh, { minWidth: 1.1, heuristicWeight: 1.01 }),
);

// 10k agents following paths of 150–300 m (they do not arrive during the benchmark), against
// the same crowd walking straight at its goals: the difference is the navigator's share.
function crowd(navigator: Navigator): World {
  const world = new World({ strategy: createNoneStrategy(), navigator, capacity: 10_000 });
  for (const p of pairs(10_000, 13, 150, 300)) {
    world.addAgent({ x: p[0], y: p[1], goalX: p[2], goalY: p[3] });
  }
  world.step(); // plans every path
  return world;
}
const navmeshCrowd = crowd(
  createNavMeshNavigator(mesh, { maxQueriesPerStep: 100_000, exportBorders: false }),
);
const seekerCrowd = crowd(createGoalSeeker());
Deno.bench("world step, 10k agents, navmesh navigator", { group: "step" }, () => {
  navmeshCrowd.step();
});
Deno.bench("world step, 10k agents, goal seeker", { group: "step", baseline: true }, () => {
  seekerCrowd.step();
});

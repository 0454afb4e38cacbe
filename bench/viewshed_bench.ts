/**
 * Viewshed affordance benchmarks on a city model: one junction's viewshed, all junctions of the
 * city (the preprocessing of the affordance navigator), blocking one street (the dynamic update),
 * and the visual field of an open-square walker.
 *
 * Targets (D. Michael and Y. Chrysanthou, Automatic high level avatar guidance based on
 * affordance of movement, Eurographics 2003, compute a junction's viewshed in under 5 ms):
 * each junction under 5 ms, a 4 km² city centre in under 5 s on one core, a street block under
 * 50 ms.
 *
 * `benchCity(city)` registers the benchmarks for any {@linkcode CityModel}; this file benchmarks a
 * synthetic 2 km × 2 km centre (676 street nodes, 3,650 buildings with 61,000 wall segments) and
 * the Sydney CBD extract of the shared data folder beside the checkout
 * (`../shared/data/cities/sydney-cbd/osm/sydneycbd_2023.osm.pbf`, about 3.9 km², 2,118
 * junctions; left out without it). Before the benchmarks it prints the slowest junction, measured
 * once, and the cold build of the whole city in CPU time.
 *
 * Run with `deno bench --allow-read bench/viewshed_bench.ts`.
 *
 * @module
 */
import process from "node:process";
import { fileURLToPath } from "node:url";
import { loadCity } from "../geo/load_city.ts";
import type { CityModel } from "../geo/city_model.ts";
import { JunctionAffordance } from "../navigation/junction_affordance.ts";
import { ObstacleSet } from "../navigation/obstacle_set.ts";
import { ViewshedSweep } from "../navigation/viewshed_sweep.ts";
import { VisualField } from "../navigation/visual_field.ts";
import { syntheticCity } from "../navigation/_synthetic_city.ts";

/** Registers the viewshed benchmarks for `city` (default options of the affordance). */
export function benchCity(city: CityModel): void {
  const group = city.name;
  // The first, cold build (compilation included), in process CPU time and wall time: CPU time
  // stays meaningful when other processes share the cores.
  const cpu0 = _cpuMs(), wall0 = performance.now();
  const affordance = JunctionAffordance.fromCity(city);
  const coldCpu = _cpuMs() - cpu0, coldWall = performance.now() - wall0;
  const junctions: number[] = [];
  for (let i = 0; i < affordance.nodeCount; i++) if (affordance.hasViewshed[i]) junctions.push(i);
  const obstacles = ObstacleSet.fromPolygons(city.buildings.map((b) => b.polygon));
  const sweep = new ViewshedSweep(obstacles, { bounds: city.bounds });
  const nodes = city.streets.nodes;
  // The slowest junction, timed once each (outside the benchmarks).
  let slowest = 0, slowestNode = -1;
  for (const i of junctions) {
    const t = performance.now();
    sweep.compute(nodes[i].x, nodes[i].y);
    const dt = performance.now() - t;
    if (dt > slowest) [slowest, slowestNode] = [dt, i];
  }
  console.log(
    `${group}: ${city.buildings.length} buildings, ${obstacles.base.count} wall segments, ` +
      `${junctions.length} junctions; cold build ${coldCpu.toFixed(0)} ms CPU ` +
      `(${coldWall.toFixed(0)} ms wall); slowest junction ${slowest.toFixed(2)} ms ` +
      `(node ${slowestNode})`,
  );
  let sink = 0;
  let next = 0;
  Deno.bench({
    name: "one junction's viewshed (cycling through the junctions)",
    group,
    fn: () => {
      const i = junctions[next++ % junctions.length];
      sink += sweep.compute(nodes[i].x, nodes[i].y).area;
    },
  });
  Deno.bench({
    name: `junction affordance of the whole city (${junctions.length} junctions)`,
    group,
    n: 3,
    warmup: 1,
    fn: () => {
      sink += JunctionAffordance.fromCity(city).viewshedArea[junctions[0]];
    },
  });
  // Block and reopen streets between two junctions near the centre, one after the other.
  const [x0, y0, x1, y1] = city.bounds;
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const central = city.streets.edges
    .filter((e) => affordance.hasViewshed[e.from] && affordance.hasViewshed[e.to] && e.walkable)
    .sort((a, b) =>
      Math.hypot(nodes[a.from].x - cx, nodes[a.from].y - cy) -
      Math.hypot(nodes[b.from].x - cx, nodes[b.from].y - cy)
    )
    .slice(0, 20);
  let recomputed = 0, blocks = 0;
  Deno.bench({
    name: "block one street and reopen it (two updates)",
    group,
    fn: () => {
      const e = central[blocks++ % central.length].index;
      recomputed += affordance.blockStreet(e).recomputed.length;
      recomputed += affordance.openStreet(e).recomputed.length;
    },
  });
  const field = new VisualField(obstacles);
  const out = new Float64Array(field.rayOffsets.length);
  let walker = 0;
  Deno.bench({
    name: "visual field of one open-square walker (35 rays over 170°)",
    group,
    fn: () => {
      const n = nodes[walker++ % nodes.length];
      sink += field.sample(n.x + 3, n.y + 3, walker, out);
    },
  });
  globalThis.addEventListener("unload", () => {
    if (blocks > 0) {
      console.log(`${group}: ${(recomputed / (2 * blocks)).toFixed(1)} junctions per update`);
    }
    if (sink === 42) console.log(sink);
  });
}

/** CPU time of this process (ms). */
function _cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

benchCity(syntheticCity({ sizeM: 2000, spacingM: 80, seed: 1 }));

const SYDNEY = fileURLToPath(
  new URL("../../shared/data/cities/sydney-cbd/osm/sydneycbd_2023.osm.pbf", import.meta.url),
);
try {
  benchCity(await loadCity(SYDNEY));
} catch {
  console.log(`no ${SYDNEY}: the real-city case is left out`);
}

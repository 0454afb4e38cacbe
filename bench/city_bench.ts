/**
 * City benchmarks on the shared OpenStreetMap extracts (Helsinki centre, Monaco, Sydney CBD),
 * each imported whole from its PBF file.
 *
 * - import + mesh: read the PBF, build the city model, its walkable area and the navigation mesh
 *   (0.25 m clearance). Target for Helsinki: under 3 s on one core.
 * - path query: one query per iteration, cycling through 200 pairs of street nodes reachable on
 *   the mesh, drawn at random across the map, with the navigator's defaults (minimum width
 *   1.1 m, paths within 1 % of the shortest, 8 landmarks). Target: under 1 ms. The first query
 *   builds the mesh's landmark tables; their CPU time is printed at start-up.
 * - corridor path query: the same pairs with `search: "corridor"` (A* over triangles, then the
 *   funnel). At start-up its CPU time per query, triangles expanded, and how much longer its
 *   paths are than the exact search's (median, 90th percentile and largest, over the pairs both
 *   find) are printed.
 *
 * At start-up each city is built once and printed: the CPU time of each phase (read the file,
 * build the model, walkable area + mesh; one core, first run, so including compilation), its
 * memory (heap and array buffers held by the model and mesh after garbage collection, with
 * `--v8-flags=--expose-gc`, and the process's resident set size), and the path queries'
 * outcomes, search nodes and CPU time per query (the best of three rounds over the 200 pairs).
 * Target for Helsinki: under 300 MB.
 *
 * At exit, the least CPU time of the import + mesh runs is printed per city: on a busy machine
 * it is steadier than the wall-clock times of the table.
 *
 * Run with `deno bench -A --v8-flags=--expose-gc bench/city_bench.ts`.
 *
 * @module
 */
import process from "node:process";
import { cpuMs } from "./_cpu_time.ts";
import { Rng } from "../core/rng.ts";
import { buildCityModel } from "../geo/city_builder.ts";
import { readMapFeatures } from "../geo/load_city.ts";
import { buildCityNavMesh, type CityNavigation } from "../navigation/city_navmesh.ts";
import { NavMeshQuery, NavPath } from "../navigation/path_query.ts";

const SHARED = new URL("../../shared/data/", import.meta.url);
const CITIES = [
  ["Helsinki", "osm/helsinki-centre/helsinki-centre.osm.pbf"],
  ["Monaco", "osm/monaco-centre/monaco-centre.osm.pbf"],
  ["Sydney CBD", "cities/sydney-cbd/osm/sydneycbd_2023.osm.pbf"],
] as const;

const gc = (globalThis as { gc?: () => void }).gc;

async function importAndMesh(
  bytes: Uint8Array,
  file: string,
  phases?: Record<string, number>,
): Promise<CityNavigation> {
  let t = cpuMs();
  const lap = (name: string) => {
    const now = cpuMs();
    if (phases) phases[name] = Math.round(now - t);
    t = now;
  };
  const features = await readMapFeatures(bytes, { file });
  lap("read");
  const city = buildCityModel(features);
  lap("model");
  const nav = buildCityNavMesh(city);
  lap("walkable + mesh");
  return nav;
}

/** Least CPU time (ms) of the benchmark's import + mesh runs, per city, printed at exit. */
const buildCpu: Record<string, number> = {};
globalThis.addEventListener("unload", () => {
  for (const [name, ms] of Object.entries(buildCpu)) {
    console.log(`${name}: import + mesh ${ms.toFixed(0)} ms CPU (least of the benchmark's runs)`);
  }
});

for (const [name, path] of CITIES) {
  const file = new URL(path, SHARED).pathname;
  const bytes = await Deno.readFile(file);
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external + m.arrayBuffers;
  };
  gc?.();
  const before = used();
  const cpu0 = cpuMs();
  const phases: Record<string, number> = {};
  const nav = await importAndMesh(bytes, file, phases);
  const cpu = cpuMs() - cpu0;
  gc?.();
  const heap = (used() - before) / 2 ** 20;
  const rss = process.memoryUsage().rss / 2 ** 20;

  // Query pairs: reachable street nodes, snapped onto the mesh.
  const reachable: number[] = [];
  nav.reachable.forEach((r, i) => r && reachable.push(i));
  const rng = new Rng(11);
  const pairs: Float64Array[] = [];
  let distance = 0;
  for (let k = 0; k < 200; k++) {
    const a = reachable[rng.int(reachable.length)], b = reachable[rng.int(reachable.length)];
    const p = new Float64Array([
      nav.nodePoint[2 * a],
      nav.nodePoint[2 * a + 1],
      nav.nodePoint[2 * b],
      nav.nodePoint[2 * b + 1],
    ]);
    distance += Math.hypot(p[2] - p[0], p[3] - p[1]);
    pairs.push(p);
  }
  const query = new NavMeshQuery(nav.mesh);
  const out = new NavPath();
  // The first query builds the mesh's landmark tables (once per mesh).
  const cpuLandmarks = cpuMs();
  query.findPath(pairs[0].subarray(0, 2), pairs[0].subarray(2, 4), out);
  const landmarkMs = cpuMs() - cpuLandmarks;
  const outcomes: Record<string, number> = {};
  let nodes = 0, perQuery = Infinity;
  const exactLength = new Float64Array(pairs.length).fill(NaN);
  for (let round = 0; round < 3; round++) {
    const t0 = cpuMs();
    for (const [i, p] of pairs.entries()) {
      const status = query.findPath(p.subarray(0, 2), p.subarray(2, 4), out);
      if (round > 0) continue;
      outcomes[`${status}/${out.reason}`] = (outcomes[`${status}/${out.reason}`] ?? 0) + 1;
      nodes += out.nodes;
      if (status === "found") exactLength[i] = out.length;
    }
    perQuery = Math.min(perQuery, (cpuMs() - t0) / pairs.length);
  }
  const corridorQuery = new NavMeshQuery(nav.mesh, { search: "corridor" });
  const corridorOut = new NavPath();
  const excess: number[] = [];
  let corridorNodes = 0, corridorPerQuery = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = cpuMs();
    for (const [i, p] of pairs.entries()) {
      const status = corridorQuery.findPath(p.subarray(0, 2), p.subarray(2, 4), corridorOut);
      if (round > 0) continue;
      corridorNodes += corridorOut.nodes;
      if (status === "found" && exactLength[i] > 0) {
        excess.push(corridorOut.length / exactLength[i] - 1);
      }
    }
    corridorPerQuery = Math.min(corridorPerQuery, (cpuMs() - t0) / pairs.length);
  }
  excess.sort((a, b) => a - b);
  const percent = (q: number) => (100 * excess[Math.round(q * (excess.length - 1))]).toFixed(1);
  console.log(
    `${name}: first import + mesh ${cpu.toFixed(0)} ms CPU ${JSON.stringify(phases)}, ` +
      `${nav.mesh.triangleCount} triangles, model + mesh ${
        heap.toFixed(0)
      } MB (heap and array buffers)${gc ? "" : " (no --expose-gc: includes garbage)"}, process ${
        rss.toFixed(0)
      } MB RSS; ` +
      `${reachable.length} of ${nav.reachable.length} street nodes reachable; ` +
      `${query.landmarkCount} landmarks built in ${landmarkMs.toFixed(0)} ms CPU (first query); ` +
      `200 queries (mean ${(distance / 200).toFixed(0)} m apart): ${JSON.stringify(outcomes)}, ` +
      `${(nodes / 200).toFixed(0)} search nodes and ${perQuery.toFixed(2)} ms CPU per query; ` +
      `corridor search: ${corridorPerQuery.toFixed(2)} ms CPU and ${
        (corridorNodes / 200).toFixed(0)
      } triangles per query, paths longer than the exact ones by ${percent(0.5)} % (median), ` +
      `${percent(0.9)} % (90th percentile), ${percent(1)} % (largest) over ${excess.length} pairs`,
  );

  Deno.bench({
    name: `${name}: import + mesh`,
    group: "import + mesh",
    n: 3,
    warmup: 1,
    async fn() {
      const t0 = cpuMs();
      await importAndMesh(bytes, file);
      buildCpu[name] = Math.min(buildCpu[name] ?? Infinity, cpuMs() - t0);
    },
  });
  let next = 0;
  Deno.bench({
    name: `${name}: path query across the map`,
    group: "path query",
    n: 200,
    warmup: 20,
    fn() {
      const p = pairs[next++ % pairs.length];
      query.findPath(p.subarray(0, 2), p.subarray(2, 4), out);
    },
  });
  let nextCorridor = 0;
  Deno.bench({
    name: `${name}: corridor path query across the map`,
    group: "corridor path query",
    n: 200,
    warmup: 20,
    fn() {
      const p = pairs[nextCorridor++ % pairs.length];
      corridorQuery.findPath(p.subarray(0, 2), p.subarray(2, 4), corridorOut);
    },
  });
}

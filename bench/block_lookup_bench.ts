/**
 * Which block holds a point, on a real map: `BlockNetwork.blockAt` (each block's rings kept as
 * a `BandedRing`) against the same search testing every ring edge by edge with
 * `pointInPolygon`, for the positions of the pedestrians of `city-traffic` after 50 steps (on
 * the pavements, where the navigator asks). Both must find the same blocks; the bench stops with
 * an error otherwise.
 *
 * Run with `deno bench -A bench/block_lookup_bench.ts`; `CITY_MAP` names another map (the shared
 * Monaco extract, `../shared/data/osm/monaco-centre/monaco-centre.osm.pbf`, has blocks outlined
 * by up to thousands of points; the default is the shipped Helsinki extract).
 *
 * @module
 */
import { pointInPolygon } from "../core/geometry.ts";
import { MapImportError } from "../geo/map_import_error.ts";
import { CityBlockNavigator } from "../navigation/city_block_navigator.ts";
import { loadCityTraffic } from "../scenarios/city_traffic.ts";

const map = Deno.env.get("CITY_MAP");
const run = await loadCityTraffic("city-traffic", { map, agents: 2000, cars: 300, seed: 1 }).catch(
  (error) => {
    if (!(error instanceof MapImportError)) throw error;
    console.error(`CITY_MAP: ${error.message}`);
    Deno.exit(2);
  },
);
for (let k = 0; k < 50; k++) run.world.step();
const navigator = run.world.navigator;
if (!(navigator instanceof CityBlockNavigator) || navigator.network === null) {
  throw new Error("city-traffic runs without a block network");
}
const network = navigator.network;
const blocks = network.city.blocks!;
// The bounding box of each block's outline, as the search tests it first.
const boxes = blocks.map((block) => {
  const xs = block.polygon[0].map((p) => p[0]), ys = block.polygon[0].map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
});
const agents = run.world.agents;
const xs = agents.px.slice(0, agents.count), ys = agents.py.slice(0, agents.count);

/** The search without bands: every block whose box holds the point, every edge of its rings. */
function plainBlockAt(x: number, y: number): number {
  for (let b = 0; b < blocks.length; b++) {
    const [x0, y0, x1, y1] = boxes[b];
    if (x < x0 || y < y0 || x > x1 || y > y1) continue;
    const polygon = blocks[b].polygon;
    if (!pointInPolygon(x, y, polygon[0])) continue;
    let inHole = false;
    for (let h = 1; h < polygon.length && !inHole; h++) inHole = pointInPolygon(x, y, polygon[h]);
    if (!inHole) return b;
  }
  return -1;
}

for (let i = 0; i < xs.length; i++) {
  const banded = network.blockAt(xs[i], ys[i]), plain = plainBlockAt(xs[i], ys[i]);
  if (banded !== plain) {
    throw new Error(`block of (${xs[i]}, ${ys[i]}): banded ${banded}, edge by edge ${plain}`);
  }
}

let sink = 0;
Deno.bench({
  name: `blockAt, banded rings (${xs.length} pedestrians)`,
  group: "block lookup",
  baseline: true,
  fn() {
    for (let i = 0; i < xs.length; i++) sink += network.blockAt(xs[i], ys[i]);
  },
});
Deno.bench({
  name: `every ring edge by edge (${xs.length} pedestrians)`,
  group: "block lookup",
  fn() {
    for (let i = 0; i < xs.length; i++) sink += plainBlockAt(xs[i], ys[i]);
  },
});
globalThis.addEventListener("unload", () => {
  if (sink === 0.5) console.log(sink); // keeps the loops from being dropped
});

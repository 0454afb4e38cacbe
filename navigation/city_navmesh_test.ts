import assert from "node:assert/strict";
import { SHARED_MAPS, sharedCity } from "../geo/_test_maps.ts";
import { BuildingFinder } from "../geo/building_finder.ts";
import { loadCity } from "../geo/load_city.ts";
import { Rng } from "../core/rng.ts";
import { buildCityNavMesh, type CityNavigation } from "./city_navmesh.ts";
import { NavMeshQuery, NavPath } from "./path_query.ts";
import { intersectAreas, polygonsArea } from "./walkable_area.ts";

let helsinki: Promise<CityNavigation> | null = null;

/** Helsinki's mesh, built once for this file. */
function helsinkiNavigation(): Promise<CityNavigation> {
  helsinki ??= sharedCity(SHARED_MAPS.helsinkiPbf).then((city) => buildCityNavMesh(city));
  return helsinki;
}

// Helsinki whole; Monaco and Sydney cropped to about 1 km² around their centres, to keep the
// suite fast (the benchmark meshes them whole).
for (
  const [name, path, bbox, minShare] of [
    ["Helsinki", SHARED_MAPS.helsinkiPbf, null, 0.75],
    ["Monaco", SHARED_MAPS.monacoPbf, [7.418, 43.732, 7.428, 43.74], 0.8],
    ["Sydney CBD", SHARED_MAPS.sydneyPbf, [151.203, -33.87, 151.211, -33.862], 0.6],
  ] as const
) {
  Deno.test(`${name}: every street node is reachable on the mesh or reported, never inside a building`, async () => {
    const city = bbox ? await loadCity(path, { bbox }) : await sharedCity(path);
    const nav = bbox ? buildCityNavMesh(city) : await helsinkiNavigation();
    const nodes = city.streets.nodes;
    const reachable = nav.reachable.reduce((a, b) => a + b, 0);
    assert.equal(reachable + nav.unreachable.length, nodes.length);
    assert(reachable / nodes.length >= minShare, `${reachable} of ${nodes.length} reachable`);
    const finder = new BuildingFinder(city.buildings);
    nodes.forEach((_, i) => {
      if (!nav.reachable[i]) return;
      const t = nav.nodeTriangle[i];
      assert.equal(nav.mesh.planComponent[t], nav.mainComponent);
      assert.equal(finder.at(nav.nodePoint[2 * i], nav.nodePoint[2 * i + 1]), null);
    });
    for (const u of nav.unreachable) {
      const n = nodes[u.node];
      if (u.reason === "in-building") assert.notEqual(finder.at(n.x, n.y), null);
      if (u.reason === "disconnected") {
        assert.notEqual(nav.mesh.planComponent[nav.nodeTriangle[u.node]], nav.mainComponent);
      }
    }
    // The walkable area never overlaps a building.
    const overlap = polygonsArea(
      intersectAreas(nav.walkable.polygons, city.buildings.map((b) => b.polygon)),
    );
    assert(overlap < 0.05, `${overlap} m² of walkable area inside buildings`);
    // Paths are planned on the mesh between street nodes: from the first reachable node to the
    // reachable node nearest to 60 m away.
    const reach = nodes.map((_, i) => i).filter((i) => nav.reachable[i]);
    const p = (i: number) => [nav.nodePoint[2 * i], nav.nodePoint[2 * i + 1]];
    const a = reach[0];
    let b = reach[1], best = Infinity;
    for (const i of reach) {
      const d = Math.abs(Math.hypot(p(i)[0] - p(a)[0], p(i)[1] - p(a)[1]) - 60);
      if (d < best) [best, b] = [d, i];
    }
    const out = new NavPath();
    assert.equal(new NavMeshQuery(nav.mesh, { minWidth: 0 }).findPath(p(a), p(b), out), "found");
    assert(out.length >= Math.hypot(p(b)[0] - p(a)[0], p(b)[1] - p(a)[1]) - 1e-6);
  });
}

Deno.test("Helsinki: paths across the whole map are found well within the node budget, as short as the exact search", async () => {
  const nav = await helsinkiNavigation();
  const reach: number[] = [];
  nav.reachable.forEach((r, i) => r && reach.push(i));
  const rng = new Rng(7);
  const query = new NavMeshQuery(nav.mesh, { minWidth: 0 });
  const exact = new NavMeshQuery(nav.mesh, { minWidth: 0, heuristicWeight: 1 });
  const out = new NavPath(), best = new NavPath();
  let nodes = 0, far = 0;
  for (let k = 0; k < 40; k++) {
    const a = reach[rng.int(reach.length)], b = reach[rng.int(reach.length)];
    const p = [nav.nodePoint[2 * a], nav.nodePoint[2 * a + 1]];
    const q = [nav.nodePoint[2 * b], nav.nodePoint[2 * b + 1]];
    const straight = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (straight > 500) far++;
    assert.equal(query.findPath(p, q, out), "found", `${out.reason} after ${out.nodes} nodes`);
    assert.equal(exact.findPath(p, q, best), "found");
    assert(out.length >= straight - 1e-6 && out.length <= best.length * 1.01 + 1e-9);
    nodes += out.nodes;
  }
  assert(far >= 10, `${far} of 40 pairs more than 500 m apart`);
  // Each search node is generated once: a few thousand per query, not hundreds of thousands.
  assert(nodes / 40 < 40_000, `${nodes / 40} nodes per query`);
});

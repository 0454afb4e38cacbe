import assert from "node:assert/strict";
import { SHARED_MAPS, sharedCity } from "../geo/_test_maps.ts";
import { BuildingFinder } from "../geo/building_finder.ts";
import { loadCity } from "../geo/load_city.ts";
import { buildCityNavMesh } from "./city_navmesh.ts";
import { NavMeshQuery, NavPath } from "./path_query.ts";
import { intersectAreas, polygonsArea } from "./walkable_area.ts";

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
    const nav = buildCityNavMesh(city);
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

import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import {
  boundarySegments,
  crossingY as wallCrossingY,
  insideArea,
  randomRectangles,
  segmentInside,
  twoGapWalls,
} from "./_test_maps.ts";
import { syntheticCity } from "./_synthetic_city.ts";
import { buildCityNavMesh } from "./city_navmesh.ts";
import type { NavMesh } from "./navmesh.ts";
import { buildNavMesh } from "./navmesh_builder.ts";
import { NavMeshQuery, NavPath } from "./path_query.ts";

const SIZE = 30;
const room = [[[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]]] as [number, number][][];

function randomClearPoint(mesh: NavMesh, rng: Rng): [number, number] {
  for (;;) {
    const p: [number, number] = [rng.range(0, SIZE), rng.range(0, SIZE)];
    if (insideArea(mesh.clearArea, p[0], p[1])) return p;
  }
}

function legsInside(mesh: NavMesh, path: NavPath, what: string): void {
  const boundary = boundarySegments(mesh.clearArea);
  for (let i = 1; i < path.pointCount; i++) {
    const p = path.points;
    assert(
      segmentInside(mesh.clearArea, boundary, p[2 * i - 2], p[2 * i - 1], p[2 * i], p[2 * i + 1]),
      `${what}: leg ${i} leaves the clear area`,
    );
  }
}

Deno.test("corridor search finds a path wherever the exact search does, inside the clear area and close to the shortest", () => {
  let compared = 0, total = 0, totalExact = 0, worst = 0;
  for (let seed = 1; seed <= 10; seed++) {
    const mesh = buildNavMesh({ walkable: [room], obstacles: randomRectangles(seed, SIZE, 12) }, {
      clearance: 0.25,
      keepAllComponents: true,
    });
    const exact = new NavMeshQuery(mesh, { minWidth: 0, heuristicWeight: 1 });
    const corridor = new NavMeshQuery(mesh, { minWidth: 0, search: "corridor" });
    const path = new NavPath(), rng = new Rng(seed, 3);
    for (let k = 0; k < 8; k++) {
      const s = randomClearPoint(mesh, rng), g = randomClearPoint(mesh, rng);
      const status = exact.findPath(s, g, path);
      const shortest = path.length;
      assert.equal(corridor.findPath(s, g, path), status, `seed ${seed}: ${path.reason}`);
      if (status !== "found") continue;
      legsInside(mesh, path, `seed ${seed}`);
      assert.deepEqual([path.points[0], path.points[1]], s);
      assert.deepEqual([path.endX, path.endY], g);
      // The corridor runs from the start's triangle to the goal's, each next to the one before.
      assert.equal(path.corridor[0], mesh.locate(s[0], s[1]));
      assert.equal(path.corridor[path.corridorLength - 1], mesh.locate(g[0], g[1]));
      const relative = path.length / shortest - 1;
      assert(relative > -1e-9, `seed ${seed}: shorter than the shortest (${relative})`);
      worst = Math.max(worst, relative);
      total += path.length;
      totalExact += shortest;
      compared++;
    }
  }
  assert(compared >= 60, `${compared} paths compared`);
  assert(
    total <= 1.02 * totalExact,
    `corridor paths ${total} m against the shortest ${totalExact} m`,
  );
  assert(worst < 0.15, `worst path ${(100 * worst).toFixed(1)} % longer than the shortest`);
});

Deno.test("corridor search on a city: a fraction of the exact search's work, paths within a few percent", () => {
  const nav = buildCityNavMesh(syntheticCity({ sizeM: 1200, spacingM: 80, seed: 5 }), {
    walkable: { jaywalking: true },
  });
  const mesh = nav.mesh, rng = new Rng(3);
  const exact = new NavMeshQuery(mesh);
  const corridor = new NavMeshQuery(mesh, { search: "corridor" });
  const path = new NavPath();
  let exactNodes = 0, corridorNodes = 0, total = 0, totalExact = 0, compared = 0;
  const reachable: number[] = [];
  nav.reachable.forEach((r, i) => r && reachable.push(i));
  for (let k = 0; k < 40; k++) {
    const a = reachable[rng.int(reachable.length)], b = reachable[rng.int(reachable.length)];
    const s = [nav.nodePoint[2 * a], nav.nodePoint[2 * a + 1]];
    const g = [nav.nodePoint[2 * b], nav.nodePoint[2 * b + 1]];
    const status = exact.findPath(s, g, path);
    if (status !== "found") continue;
    exactNodes += path.nodes;
    totalExact += path.length;
    assert.equal(corridor.findPath(s, g, path), "found");
    corridorNodes += path.nodes;
    total += path.length;
    legsInside(mesh, path, `pair ${k}`);
    compared++;
  }
  assert(compared >= 30, `${compared} paths compared`);
  assert(total <= 1.02 * totalExact, `corridor ${total} m against exact ${totalExact} m`);
  assert(
    corridorNodes * 2 <= exactNodes,
    `corridor expanded ${corridorNodes} triangles, exact ${exactNodes} search nodes`,
  );
});

Deno.test("corridor search keeps out of gaps narrower than the minimum width", () => {
  // A wall across the room at x = 10 with a 0.8 m gap on the direct line and a 1.5 m gap 6 m off it.
  const walls = twoGapWalls();
  const mesh = buildNavMesh({ walkable: [[[[0, 0], [20, 0], [20, 20], [0, 20]]]], walls });
  const path = new NavPath();
  const crossingY = () => wallCrossingY(path.points, path.pointCount, 10);
  const query = (minWidth: number) => new NavMeshQuery(mesh, { minWidth, search: "corridor" });
  assert.equal(query(0).findPath([5, 10], [15, 10], path), "found");
  assert(Math.abs(crossingY() - 10) < 0.4, `the 0.8 m gap when any width goes: y = ${crossingY()}`);
  assert.equal(query(1.1).findPath([5, 10], [15, 10], path), "found");
  assert(crossingY() > 15 && crossingY() < 16.5, `the 1.5 m gap for 1.1 m: y = ${crossingY()}`);
  assert.equal(query(1.6).findPath([5, 10], [15, 10], path), "unreachable");
  assert.equal(path.reason, "too-narrow");
});

Deno.test("a corridor search that runs out of triangles returns a partial path towards the goal", () => {
  const mesh = buildNavMesh({ walkable: [room], obstacles: randomRectangles(4, SIZE, 14) }, {
    keepAllComponents: true,
  });
  const path = new NavPath();
  const query = new NavMeshQuery(mesh, { maxNodes: 5, search: "corridor" });
  assert.equal(query.findPath([1, 1], [29, 29], path), "partial");
  assert.equal(path.reason, "node-limit");
  assert(path.pointCount >= 2);
  assert(Math.hypot(path.endX - 29, path.endY - 29) < Math.hypot(28, 28));
  legsInside(mesh, path, "partial path");
});

Deno.test("an unknown search kind is refused by name", () => {
  const mesh = buildNavMesh({ walkable: [room] });
  assert.throws(
    () => new NavMeshQuery(mesh, { search: "fast" as "exact" }),
    /'search' must be one of "exact", "corridor"/,
  );
});

import assert from "node:assert/strict";
import { StaticObstacles } from "../core/obstacles.ts";
import { randomRectangles } from "./_test_maps.ts";
import { buildNavMesh } from "./navmesh_builder.ts";
import { polygonsArea } from "./walkable_area.ts";

const room = (size: number) =>
  [[[0, 0], [size, 0], [size, size], [0, size]]] as [number, number][][];

Deno.test("the triangles cover the walkable area exactly (to 1e-6 relative) on random maps", () => {
  for (let seed = 1; seed <= 8; seed++) {
    for (const clearance of [0, 0.25]) {
      const mesh = buildNavMesh(
        { walkable: [room(30)], obstacles: randomRectangles(seed, 30, 14) },
        { clearance, keepAllComponents: true },
      );
      let total = 0, clear = 0;
      for (let t = 0; t < mesh.triangleCount; t++) {
        const a = mesh.triangleArea(t);
        assert(a > 0, `triangle ${t} is clockwise or flat`);
        total += a;
        if (mesh.clear[t]) clear += a;
      }
      const walkable = polygonsArea(mesh.walkableArea), eroded = polygonsArea(mesh.clearArea);
      assert(
        Math.abs(total - walkable) <= 1e-6 * walkable,
        `seed ${seed}: ${total} vs ${walkable} m²`,
      );
      assert(
        Math.abs(clear - eroded) <= 1e-6 * eroded,
        `seed ${seed}: clear ${clear} vs ${eroded} m²`,
      );
      if (clearance > 0) assert(eroded < walkable);
    }
  }
});

Deno.test("vertices closer than 1 mm are welded into one", () => {
  // Two rooms meeting along x = 5, the second one's corners 0.4 mm off.
  const mesh = buildNavMesh({
    surfaces: [
      { polygon: [[[0, 0], [5, 0], [5, 4], [0, 4]]], z: 0 },
      { polygon: [[[5.0004, 0], [9, 0], [9, 4], [5.0004, 4.0003]]], z: 0 },
    ],
  }, { clearance: 0 });
  assert.equal(mesh.vertexCount, 6);
  assert.equal(mesh.connectingEdgeCount, 1);
  assert.equal(mesh.border.count, 4, "one rectangle of border edges");
});

Deno.test("only the largest connected area is kept unless keepAllComponents", () => {
  const input = {
    walkable: [room(10), [[[20, 0], [22, 0], [22, 2], [20, 2]]]] as [number, number][][][],
  };
  const largest = buildNavMesh(input, { clearance: 0 });
  assert.equal(largest.locate(21, 1), -1);
  assert(largest.locate(5, 5) >= 0);
  const all = buildNavMesh(input, { clearance: 0, keepAllComponents: true });
  assert(all.locate(21, 1) >= 0);
});

Deno.test("surfaces meeting at one height connect; at different heights their shared edge is a border", () => {
  const floor = {
    name: "floor",
    polygon: [[[0, 0], [10, 0], [10, 10], [0, 10]]] as [number, number][][],
    z: 0,
  };
  const level = buildNavMesh({
    surfaces: [floor, { name: "annex", polygon: [[[10, 2], [14, 2], [14, 8], [10, 8]]], z: 0.05 }],
  });
  assert(level.connectingEdgeCount > 0);
  const raised = buildNavMesh({
    surfaces: [floor, { name: "stage", polygon: [[[10, 2], [14, 2], [14, 8], [10, 8]]], z: 1 }],
  }, {
    keepAllComponents: true,
  });
  assert.equal(raised.connectingEdgeCount, 0);
  // The stage's edge along x = 10 is now a border: some merged border segment runs along it.
  let along = false;
  for (let s = 0; s < raised.border.count; s++) {
    if (
      Math.abs(raised.border.ax[s] - raised.border.bx[s]) < 1e-9 &&
      Math.abs(raised.border.ax[s] - 10) < 0.02
    ) along = true;
  }
  assert(along);
});

Deno.test("surfaces that overlap in plan are rejected, naming both", () => {
  assert.throws(
    () =>
      buildNavMesh({
        surfaces: [
          { name: "ground", polygon: [[[0, 0], [10, 0], [10, 10], [0, 10]]], z: 0 },
          { name: "mezzanine", polygon: [[[5, 5], [15, 5], [15, 15], [5, 15]]], z: 3 },
        ],
      }),
    /surfaces 'ground' and 'mezzanine' overlap in plan \(25\.000 m²\)/,
  );
});

Deno.test("a staircase whose slope contradicts its steps is rejected", () => {
  assert.throws(
    () =>
      buildNavMesh({
        surfaces: [{
          name: "stairs",
          polygon: [[[0, 0], [5, 0], [5, 2], [0, 2]]],
          slope: { from: [0, 1], to: [5, 1], zFrom: 0, zTo: 1 },
          stairs: { treadDepth: 0.28, riserHeight: 0.17 },
        }],
      }),
    /slope rises 0\.200 m per m but its steps rise 0\.607/,
  );
});

Deno.test("the navigation mesh rejects bad options naming them", () => {
  assert.throws(
    () => buildNavMesh({ walkable: [room(5)] }, { clearance: -1 }),
    /'clearance' must be >= 0: current value is -1/,
  );
  assert.throws(() => buildNavMesh({}), /no walkable area/);
});

Deno.test("merged border edges become world obstacles: holes as solid polygons, the outline as a wall", () => {
  const mesh = buildNavMesh({
    walkable: [room(10)],
    obstacles: [[[[4, 4], [6, 4], [6, 6], [4, 6]]]],
  });
  const obstacles = new StaticObstacles();
  mesh.addBordersTo(obstacles);
  assert.equal(obstacles.polygons.length, 1);
  assert.equal(obstacles.walls.length, 1);
  assert.equal(obstacles.segmentCount, 8);
});

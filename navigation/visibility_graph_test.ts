import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import { BlockNetwork } from "./block_network.ts";
import { VisibilityGraph, VisibilityPath } from "./visibility_graph.ts";
import { RectBlock } from "./_rect_reference.ts";

Deno.test("visibility graph: in-block paths equal an exhaustive visibility-graph search within 1 mm", () => {
  const rng = new Rng(17);
  let compared = 0, detours = 0;
  for (const seed of [1, 2, 3]) {
    const city = generateProceduralCity({
      seed,
      blocksX: 2,
      blocksY: 1,
      blockSize: 50,
      maxBuildingSize: 16,
      treesPerSide: 2,
    });
    const network = new BlockNetwork(city, { agentRadius: 0.3 });
    for (let block = 0; block < 2; block++) {
      const graph = network.graph(block);
      const reference = new RectBlock(city, block, 0.3);
      const [x0, y0, x1, y1] = reference.outer;
      const path = new VisibilityPath();
      for (let q = 0; q < 8; q++) {
        // Random points at least 1 mm inside the free space: both models agree they are free.
        const point = (): [number, number] => {
          for (;;) {
            const x = rng.range(x0, x1), y = rng.range(y0, y1);
            const e = 1e-3;
            const free = reference.free(x - e, y - e) && reference.free(x + e, y - e) &&
              reference.free(x - e, y + e) && reference.free(x + e, y + e);
            if (free) {
              assert(graph.contains(x, y), `(${x}, ${y}) is free`);
              return [x, y];
            }
          }
        };
        const a = point(), b = point();
        graph.shortestPath(a, b, path);
        const expected = reference.shortest(a[0], a[1], b[0], b[1]);
        assert.equal(path.status, "found");
        assert(Math.abs(path.length - expected) < 1e-3, `${path.length} vs ${expected}`);
        // The path is what its length says, and every piece of it is clear.
        let length = 0;
        const p = path.points;
        for (let k = 1; k < path.pointCount; k++) {
          length += Math.hypot(p[2 * k] - p[2 * k - 2], p[2 * k + 1] - p[2 * k - 1]);
          const ok = reference.clear(p[2 * k - 2], p[2 * k - 1], p[2 * k], p[2 * k + 1]);
          assert(ok, `piece ${k} of ${[...p.subarray(0, 2 * path.pointCount)]} is blocked`);
        }
        assert(Math.abs(length - path.length) < 1e-9);
        assert.deepEqual([p[0], p[1]], a);
        if (path.pointCount > 2) detours++;
        compared++;
      }
    }
  }
  assert.equal(compared, 48);
  assert(detours > 8, `only ${detours} paths went around something`);
});

Deno.test("visibility graph: distances to its extra nodes match the paths to them", () => {
  const city = generateProceduralCity({ seed: 4, blocksX: 2, blocksY: 2, blockSize: 45 });
  const network = new BlockNetwork(city);
  const graph = network.graph(3); // the north-east block: four crosswalks land on it
  assert.equal(graph.extraCount, 4);
  const [[x0, y0], , [x1, y1]] = city.blocks![3].polygon[0];
  const start = [x0 + 2, y1 - 2], far = [x1 - 2, y0 + 2];
  const distances = new Float64Array(graph.nodeCount);
  const path = new VisibilityPath();
  for (const from of [start, far]) {
    assert(graph.distancesFrom(from, distances));
    for (let u = graph.nodeCount - graph.extraCount; u < graph.nodeCount; u++) {
      graph.shortestPath(from, [graph.nodeX[u], graph.nodeY[u]], path);
      assert(Math.abs(path.length - distances[u]) < 1e-9, `node ${u}`);
    }
  }
  assert.equal(graph.distancesFrom([x0 - 5, y0], distances), false);
});

Deno.test("visibility graph: points outside and parts that do not meet are reported, not thrown", () => {
  // Two rooms that do not touch.
  const left = [[[0, 0], [4, 0], [4, 4], [0, 4]]] as const;
  const right = [[[6, 0], [10, 0], [10, 4], [6, 4]]] as const;
  const graph = new VisibilityGraph([left, right]);
  const path = new VisibilityPath();
  assert.equal(graph.shortestPath([1, 1], [8, 1], path).status, "unreachable");
  assert.equal(path.length, Infinity);
  assert.equal(graph.shortestPath([5, 1], [8, 1], path).status, "start-outside");
  assert.equal(graph.shortestPath([1, 1], [12, 1], path).status, "goal-outside");
  assert.equal(graph.shortestPath([1, 1], [3, 3], path).status, "found");
  assert.equal(path.pointCount, 2);
  // A path along a wall is allowed; one through the gap between rooms is not.
  assert(graph.visible(0, 0, 4, 0));
  assert(!graph.visible(1, 1, 8, 1));
});

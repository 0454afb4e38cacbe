import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import type { CityModel } from "../geo/city_model.ts";
import { BlockNetwork, BlockRoute } from "./block_network.ts";
import { VisibilityPath } from "./visibility_graph.ts";
import { RectBlock } from "./_rect_reference.ts";

const RADIUS = 0.3;

/** A random point at least 1 mm inside the free space of a random block. */
function freePoint(rng: Rng, blocks: RectBlock[]): [number, number] {
  const block = blocks[rng.int(blocks.length)];
  const [x0, y0, x1, y1] = block.outer;
  for (;;) {
    const x = rng.range(x0, x1), y = rng.range(y0, y1), e = 1e-3;
    if (
      block.free(x - e, y - e) && block.free(x + e, y - e) && block.free(x - e, y + e) &&
      block.free(x + e, y + e)
    ) return [x, y];
  }
}

/**
 * The shortest walk by exhaustive search: every simple path over the start, the goal and the
 * kerb points (depth first, cut only where it is already longer than the best found), with
 * in-block legs measured on the rectangle reference.
 */
function bruteForce(
  city: CityModel,
  network: BlockNetwork,
  blocks: RectBlock[],
  start: [number, number],
  goal: [number, number],
): number {
  type Node = { x: number; y: number; block: number; partner: number; across: number };
  const nodes: Node[] = [];
  city.crossings.forEach((_, c) => {
    if (network.sideA[c] < 0) return;
    const k = 4 * c, len = network.crossingLength[c];
    nodes.push({
      x: network.kerbs[k],
      y: network.kerbs[k + 1],
      block: network.sideA[c],
      partner: nodes.length + 1,
      across: len,
    });
    nodes.push({
      x: network.kerbs[k + 2],
      y: network.kerbs[k + 3],
      block: network.sideB[c],
      partner: nodes.length - 1,
      across: len,
    });
  });
  const blockOf = (p: [number, number]) => blocks.findIndex((b) => b.free(p[0], p[1]));
  const s = nodes.length, g = s + 1;
  nodes.push({ x: start[0], y: start[1], block: blockOf(start), partner: -1, across: 0 });
  nodes.push({ x: goal[0], y: goal[1], block: blockOf(goal), partner: -1, across: 0 });
  const memo = new Map<string, number>();
  const walk = (a: number, b: number) => {
    const key = a < b ? `${a}/${b}` : `${b}/${a}`;
    if (!memo.has(key)) {
      const p = nodes[a], q = nodes[b];
      memo.set(key, blocks[p.block].shortest(p.x, p.y, q.x, q.y));
    }
    return memo.get(key)!;
  };
  let best = Infinity;
  const visited = new Uint8Array(nodes.length);
  const dfs = (u: number, cost: number) => {
    if (cost >= best) return;
    if (u === g) {
      best = cost;
      return;
    }
    visited[u] = 1;
    const n = nodes[u];
    if (n.partner >= 0 && !visited[n.partner]) dfs(n.partner, cost + n.across);
    for (let v = 0; v < nodes.length; v++) {
      if (visited[v] || v === s || nodes[v].block !== n.block) continue;
      dfs(v, cost + walk(u, v));
    }
    visited[u] = 0;
  };
  dfs(s, 0);
  return best;
}

Deno.test("block network: routes equal the brute-force shortest walks on random small cities", () => {
  const rng = new Rng(29);
  let routes = 0, crossingsTaken = 0;
  for (const [seed, bx, by] of [[1, 2, 2], [2, 3, 2], [3, 2, 3], [4, 2, 2]]) {
    const city = generateProceduralCity({
      seed,
      blocksX: bx,
      blocksY: by,
      blockSize: 40,
      roadWidth: 7,
      lanes: 2,
      maxBuildingSize: 14,
      treesPerSide: 1,
    });
    const network = new BlockNetwork(city, { agentRadius: RADIUS });
    const blocks = city.blocks!.map((_, b) => new RectBlock(city, b, RADIUS));
    const route = new BlockRoute();
    for (let q = 0; q < 5; q++) {
      const start = freePoint(rng, blocks), goal = freePoint(rng, blocks);
      network.route(start, goal, route);
      assert.equal(route.status, "found");
      const expected = bruteForce(city, network, blocks, start, goal);
      assert(Math.abs(route.length - expected) < 1e-3, `${route.length} vs ${expected}`);
      // The legs join up: each crosswalk leaves the block the previous one entered.
      assert.equal(route.blocks[0], network.blockAt(start[0], start[1]));
      assert.equal(route.blocks[route.legCount], network.blockAt(goal[0], goal[1]));
      for (let k = 0; k < route.legCount; k++) {
        const c = route.crossings[k],
          from = route.reversed[k] ? network.sideB[c] : network.sideA[c];
        const to = route.reversed[k] ? network.sideA[c] : network.sideB[c];
        assert.equal(from, route.blocks[k]);
        assert.equal(to, route.blocks[k + 1]);
      }
      crossingsTaken += route.legCount;
      routes++;
    }
  }
  assert.equal(routes, 20);
  assert(crossingsTaken > 15, `only ${crossingsTaken} crossings in 20 routes`);
});

Deno.test("block network: a route avoiding a street takes other crosswalks and is no shorter", () => {
  const city = generateProceduralCity({ seed: 8, blocksX: 3, blocksY: 3, blockSize: 50 });
  const network = new BlockNetwork(city);
  const blocks = city.blocks!;
  // From the south-west block's corner area to the north-east block's.
  const [[ax, ay]] = blocks[0].polygon[0], [, , [bx, by]] = blocks[8].polygon[0];
  const start: [number, number] = [ax + 1.5, ay + 1.5],
    goal: [number, number] = [bx - 1.5, by - 1.5];
  const direct = network.route(start, goal, new BlockRoute());
  assert.equal(direct.status, "found");
  assert.equal(direct.legCount, 4); // two streets east, two north
  const avoid = new Uint8Array(city.streets.edges.length);
  avoid[city.crossings[direct.crossings[0]].edge!] = 1;
  const around = network.route(start, goal, new BlockRoute(), { avoidEdges: avoid });
  assert.equal(around.status, "found");
  for (let k = 0; k < around.legCount; k++) {
    assert.equal(avoid[city.crossings[around.crossings[k]].edge!], 0);
  }
  assert(around.length >= direct.length - 1e-9);
  // Avoiding every street strands the walker in the start block.
  const stranded = network.route(start, goal, new BlockRoute(), {
    avoidEdges: new Uint8Array(city.streets.edges.length).fill(1),
  });
  assert.equal(stranded.status, "unreachable");
});

Deno.test("block network: points off the blocks are reported, a city without blocks is refused", () => {
  const city = generateProceduralCity({ seed: 8, blocksX: 2, blocksY: 2, blockSize: 40 });
  const network = new BlockNetwork(city);
  const [x, y] = network.kerbPoint(0, 0);
  const route = new BlockRoute();
  // The middle of the street at the origin.
  assert.equal(network.route([0, 0], [x, y], route).status, "start-outside");
  assert.equal(network.route([x, y], [0, 0], route).status, "goal-outside");
  assert.throws(() => new BlockNetwork({ ...city, blocks: null }), /has no blocks/);
  // Inside a block: from a crosswalk's kerb point to a building's door, 0.4 m out.
  const path = new VisibilityPath();
  assert.equal(network.pathInBlock([0, 0], [x, y], path).status, "start-outside");
  const block = city.blocks!.findIndex((b) => b.buildings.length > 0);
  const crossing = [...network.sideA].indexOf(block);
  const [kx, ky] = network.kerbPoint(crossing, 0);
  const building = city.buildings[city.blocks![block].buildings[0]];
  const [ex, ey] = building.entrance!;
  const [[bx0, by0], , [bx1, by1]] = building.polygon[0];
  const door = [
    ex + (ex === bx0 ? -0.4 : ex === bx1 ? 0.4 : 0),
    ey + (ey === by0 ? -0.4 : ey === by1 ? 0.4 : 0),
  ];
  network.pathInBlock([kx, ky], door, path);
  assert.equal(path.status, "found");
  assert(path.length >= Math.hypot(door[0] - kx, door[1] - ky) - 1e-9);
});

Deno.test("block network: walkable regions join blocks over crosswalks; a pocket no crosswalk reaches has none", () => {
  const city = generateProceduralCity({ blocksX: 2, blocksY: 2, blockSize: 40 });
  const network = new BlockNetwork(city);
  assert.equal(network.componentCount, 1);
  const main = network.largestRegion();
  assert.ok(main >= 0);
  for (let c = 0; c < city.crossings.length; c++) {
    if (network.sideA[c] < 0) continue;
    for (const side of [0, 1] as const) {
      const [x, y] = network.kerbPoint(c, side);
      assert.equal(network.regionAt(x, y), main, `crossing ${c} side ${side}`);
    }
  }
  // Off every block: no region.
  const [x0, y0] = city.bounds;
  assert.equal(network.regionAt(x0 - 10, y0 - 10), -1);
  // A block with no crosswalk is a part of its own, and its points are in no region.
  const lone = { ...city, crossings: [] } as CityModel;
  const alone = new BlockNetwork(lone);
  assert.equal(alone.componentCount, city.blocks!.length);
  const [kx, ky] = network.kerbPoint(0, 0);
  assert.equal(alone.regionAt(kx, ky), -1);
});

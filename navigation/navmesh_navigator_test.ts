import assert from "node:assert/strict";
import { AgentFlags } from "../core/agent_store.ts";
import { World } from "../core/world.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import type { NavMesh } from "./navmesh.ts";
import { buildNavMesh } from "./navmesh_builder.ts";
import {
  createNavMeshNavigator,
  NavAgentStatus,
  NAVMESH_STATUS_COLUMN,
  NAVMESH_SURFACE_COLUMN,
  type NavMeshNavigatorOptions,
} from "./navmesh_navigator.ts";

type Ring = [number, number][];
const rect = (
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): Ring[] => [[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]];

/** Floor (z 0) — stairs rising east over 5.04 m to 3.06 m — upper floor. */
function stairMesh(): NavMesh {
  return buildNavMesh({
    surfaces: [
      { name: "lower", polygon: rect(-10, -3, 0, 3), z: 0 },
      {
        name: "stairs",
        polygon: rect(0, -1.5, 5.04, 1.5),
        slope: { from: [0, 0], to: [5.04, 0], zFrom: 0, zTo: 3.06 },
        stairs: { treadDepth: 0.28, riserHeight: 0.17 },
      },
      { name: "upper", polygon: rect(5.04, -3, 15, 3), z: 3.06 },
    ],
  });
}

function worldOn(mesh: NavMesh, options: Partial<NavMeshNavigatorOptions> = {}): World {
  return new World({
    strategy: createNoneStrategy(),
    navigator: createNavMeshNavigator(mesh, options),
  });
}

Deno.test("stairs slow agents by the stair relation's factor, upstairs and downstairs, and lift them", () => {
  const mesh = stairMesh();
  for (const [from, to, ascending] of [[-5, 12, true], [12, -5, false]] as const) {
    const world = worldOn(mesh);
    const h = world.addAgent({ x: from, y: 0, goalX: to, goalY: 0, desiredSpeed: 1.34 });
    const onStairs: number[] = [], heights: number[] = [];
    for (let i = 0; i < 1000 && !world.finished; i++) {
      world.step();
      const a = world.agent(h);
      if (a && a.x > 1 && a.x < 4) {
        onStairs.push(Math.hypot(a.vx, a.vy));
        heights.push(a.z - (3.06 / 5.04) * a.x);
      }
    }
    // Weidmann's vertical speeds (0.305 m/s up, 0.347 m/s down at 1.34 m/s on the flat) over
    // tan θ = 0.17 / 0.28: 0.5024 m/s up and 0.5715 m/s down, horizontally.
    const expected = ascending ? 0.305 * 0.28 / 0.17 : 0.347 * 0.28 / 0.17;
    assert(Math.abs(expected - (ascending ? 0.5024 : 0.5715)) < 1e-4);
    assert(onStairs.length > 10);
    for (const v of onStairs) {
      assert(
        Math.abs(v - expected) < 1e-9,
        `${ascending ? "up" : "down"}: ${v} vs ${expected} m/s`,
      );
    }
    for (const dz of heights) assert(Math.abs(dz) < 1e-9, "height follows the stairs");
    assert(world.finished, "arrived");
  }
  // Off the stairs the agent walks at its desired speed.
  const world = worldOn(mesh);
  const h = world.addAgent({ x: -8, y: 0, goalX: -1, goalY: 0, desiredSpeed: 1.34 });
  world.step();
  assert(Math.abs(world.agent(h)!.vx - 1.34) < 1e-12);
});

Deno.test("stair vertical speeds at their limits: 0.01 m/s crawls upstairs, 2 m/s keeps the flat speed", () => {
  const mesh = stairMesh();
  for (const [vertical, expected] of [[0.01, (0.01 / 1.34) * (0.28 / 0.17)], [2, 1]]) {
    const world = worldOn(mesh, { stairVerticalSpeedUp: vertical });
    const h = world.addAgent({ x: 1, y: 0, goalX: 12, goalY: 0, desiredSpeed: 1.34 });
    let onStairs = 0;
    for (let i = 0; i < 100; i++) {
      world.step();
      const a = world.agent(h)!;
      if (a.x > 0.5 && a.x < 4.5) {
        onStairs++;
        const speed = Math.hypot(a.vx, a.vy);
        assert(Math.abs(speed - 1.34 * expected) < 1e-9, `${vertical}: ${speed} m/s`);
      }
    }
    assert(onStairs > 5, "walked on the stairs");
  }
});

Deno.test("surfaces change only across connecting edges", () => {
  const mesh = stairMesh();
  const world = worldOn(mesh);
  for (let k = 0; k < 6; k++) {
    world.addAgent({
      x: -8 + k,
      y: -2 + 0.7 * k,
      goalX: 13 - k,
      goalY: 2 - 0.7 * k,
      desiredSpeed: 1.2,
    });
    world.addAgent({
      x: 13 - k,
      y: -2 + 0.7 * k,
      goalX: -8 + k,
      goalY: 1.5,
      desiredSpeed: 1.2,
      z: 3.06,
    });
  }
  const surface = () => world.agents.column<Int32Array>(NAVMESH_SURFACE_COLUMN);
  // Connecting edges: mesh edges between triangles of different surfaces.
  const edges: number[][] = [];
  for (let t = 0; t < mesh.triangleCount; t++) {
    for (let k = 0; k < 3; k++) {
      const n = mesh.neighbors[3 * t + k];
      if (n < 0 || mesh.surfaceOf[n] === mesh.surfaceOf[t]) continue;
      const a = mesh.triangles[3 * t + k], b = mesh.triangles[3 * t + (k + 1) % 3];
      edges.push([
        mesh.coords[2 * a],
        mesh.coords[2 * a + 1],
        mesh.coords[2 * b],
        mesh.coords[2 * b + 1],
      ]);
    }
  }
  const crosses = (px: number, py: number, qx: number, qy: number) =>
    edges.some(([ax, ay, bx, by]) => {
      const o = (x0: number, y0: number, x1: number, y1: number, x: number, y: number) =>
        (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0);
      return o(ax, ay, bx, by, px, py) * o(ax, ay, bx, by, qx, qy) <= 0 &&
        o(px, py, qx, qy, ax, ay) * o(px, py, qx, qy, bx, by) <= 0;
    });
  world.prepare();
  world.step();
  let changes = 0;
  for (let step = 0; step < 1200 && !world.finished; step++) {
    const before = new Map<number, [number, number, number]>();
    for (let i = 0; i < world.agents.count; i++) {
      before.set(world.agents.serial[i], [surface()[i], world.agents.px[i], world.agents.py[i]]);
    }
    world.step();
    for (let i = 0; i < world.agents.count; i++) {
      const [s, x, y] = before.get(world.agents.serial[i])!;
      if (surface()[i] === s) continue;
      changes++;
      assert.notEqual(Math.abs(surface()[i] - s), 2, "lower and upper floors never touch");
      assert(
        crosses(x, y, world.agents.px[i], world.agents.py[i]),
        "the move crossed a connecting edge",
      );
    }
  }
  assert(world.finished);
  assert.equal(changes, 12 * 2, "every agent changed surface twice");
});

Deno.test("an agent pushed over the edge of a raised platform keeps its surface and height", () => {
  const mesh = buildNavMesh({
    surfaces: [
      { name: "floor", polygon: rect(0, 0, 10, 10), z: 0 },
      { name: "platform", polygon: rect(10, 0, 14, 10), z: 1 },
    ],
  }, { keepAllComponents: true });
  const world = worldOn(mesh);
  const h = world.addAgent({ x: 9.5, y: 5, goalX: 9.5, goalY: 5.2 });
  world.step();
  const i = world.agents.indexOf(h);
  assert.equal(world.agents.column<Int32Array>(NAVMESH_SURFACE_COLUMN)[i], 0);
  world.agents.px[i] = 10.5; // across the 1 m drop, as a crowd might push it
  world.step();
  assert.equal(world.agents.column<Int32Array>(NAVMESH_SURFACE_COLUMN)[i], 0);
  assert.equal(world.agents.pz[i], 0);
});

Deno.test("path queries are spread over steps by the per-step budget", () => {
  const mesh = buildNavMesh({ walkable: [rect(0, 0, 60, 60)], obstacles: [rect(20, 10, 40, 50)] });
  const navigator = createNavMeshNavigator(mesh, { maxQueriesPerStep: 50 });
  const world = new World({ strategy: createNoneStrategy(), navigator });
  for (let k = 0; k < 400; k++) {
    world.addAgent({
      x: 2 + (k % 20) * 0.8,
      y: 2 + Math.floor(k / 20) * 2.5,
      goalX: 55,
      goalY: 30,
    });
  }
  const status = () => world.agents.column<Uint8Array>(NAVMESH_STATUS_COLUMN);
  const count = (s: number) => status().filter((v, i) => i < world.agents.count && v === s).length;
  world.step();
  assert.equal(navigator.queries, 50);
  assert.equal(count(NavAgentStatus.following), 50);
  assert.equal(count(NavAgentStatus.queued), 350);
  for (let k = 0; k < 7; k++) world.step();
  assert.equal(navigator.queries, 400);
  assert.equal(count(NavAgentStatus.following), 400);
});

Deno.test("an agent that leaves its corridor, or is blocked for long, plans again", () => {
  // Two rooms joined by a door at the top of the wall x = 20.
  const mesh = buildNavMesh({
    walkable: [rect(0, 0, 40, 20)],
    walls: [{ points: [[20, 0], [20, 18]] }],
  });
  const navigator = createNavMeshNavigator(mesh, { replanAfterStuck: 1 });
  const world = new World({ strategy: createNoneStrategy(), navigator });
  const h = world.addAgent({ x: 5, y: 5, goalX: 12, goalY: 5 });
  for (let k = 0; k < 5; k++) world.step();
  assert.equal(navigator.queries, 1);
  const i = world.agents.indexOf(h);
  world.agents.px[i] = 30; // carried into the other room, far from its corridor
  world.agents.py[i] = 5;
  world.step(); // the move is seen after integration
  world.step();
  assert.equal(navigator.queries, 2);
  world.agents.flags[i] |= AgentFlags.frozen; // held in place: blocked
  for (let k = 0; k < 25; k++) world.step();
  assert.equal(navigator.queries, 3, "one more plan after 1 s blocked");
});

Deno.test("unreachable agents stand still and retry", () => {
  const mesh = buildNavMesh({
    walkable: [rect(0, 0, 30, 30)],
    walls: [{ points: [[20, 20], [28, 20], [28, 28], [20, 28]], closed: true }],
  }, { keepAllComponents: true });
  const navigator = createNavMeshNavigator(mesh, { retryInterval: 1 });
  const world = new World({ strategy: createNoneStrategy(), navigator });
  const h = world.addAgent({ x: 5, y: 5, goalX: 24, goalY: 24 });
  for (let k = 0; k < 30; k++) world.step();
  const a = world.agent(h)!;
  assert.deepEqual([a.x, a.y], [5, 5]);
  assert.equal(
    world.agents.column<Uint8Array>(NAVMESH_STATUS_COLUMN)[a.index],
    NavAgentStatus.unreachable,
  );
  assert.equal(navigator.queries, 2, "first try and one retry after 1 s");
});

Deno.test("navmesh navigator rejects bad options naming them", () => {
  const mesh = buildNavMesh({ walkable: [rect(0, 0, 5, 5)] });
  assert.throws(
    () => createNavMeshNavigator(mesh, { maxQueriesPerStep: 0 }),
    /'maxQueriesPerStep' must be >= 1: current value is 0/,
  );
  assert.throws(() => createNavMeshNavigator(mesh, { minWidth: -1 }), /'minWidth' must be >= 0/);
});

/**
 * Closest approach (m) of each of 40 walkers to the inner corner of an L-shaped corridor 8 m wide,
 * heading for points across its far end.
 */
function cornerApproaches(cornerSpread: number): number[] {
  // South along x ∈ [0, 8] from y = 30, then east along y ∈ [0, 8] to x = 30; inner corner (8, 8).
  const mesh = buildNavMesh(
    { walkable: [[[[0, 0], [30, 0], [30, 8], [8, 8], [8, 30], [0, 30]]]] },
    { clearance: 0.25 },
  );
  const world = new World({
    strategy: createNoneStrategy(),
    navigator: createNavMeshNavigator(mesh, { cornerSpread }),
  });
  const closest: number[] = [];
  for (let k = 0; k < 40; k++) {
    world.addAgent({ x: 1 + (k % 7), y: 20 + Math.floor(k / 7), goalX: 28, goalY: 1 + (k % 7) });
    closest.push(Infinity);
  }
  const a = world.agents;
  for (let step = 0; step < 2000 && !world.finished; step++) {
    world.step();
    for (let i = 0; i < a.count; i++) {
      const d = Math.hypot(a.px[i] - 8, a.py[i] - 8), s = a.serial[i];
      if (d < closest[s]) closest[s] = d;
    }
  }
  assert.ok(world.finished);
  return closest.sort((p, q) => p - q);
}

Deno.test("a crowd spreads across the corridor round a corner instead of all hugging its inner edge", () => {
  const hug = cornerApproaches(0), spread = cornerApproaches(0.8);
  // Without spreading everyone turns within 0.5 m of the inner corner.
  assert.ok(hug[39] < 0.5, `farthest ${hug[39]}`);
  // Spread by crowd size (√40 ≈ 6.3 m wide): the median passes 1.5–4 m off the corner, the
  // farthest beyond 3.5 m.
  assert.ok(spread[20] > 1.5 && spread[20] < 4, `median ${spread[20]}`);
  assert.ok(spread[39] > 3.5, `farthest ${spread[39]}`);
});

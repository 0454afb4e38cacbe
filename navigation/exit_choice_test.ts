import assert from "node:assert/strict";
import { World } from "../core/world.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { ExitChoiceNavigator, VIA_CHOICE_COLUMN } from "./exit_choice.ts";
import { buildNavMesh } from "./navmesh_builder.ts";

// A 30 m × 20 m hall with a wall across its middle, open at both ends: a route by the south gap
// (y 0–2) and one by the north gap (y 18–20).
const mesh = buildNavMesh({
  walkable: [[[[0, 0], [30, 0], [30, 20], [0, 20]]]],
  obstacles: [[[[14, 2], [16, 2], [16, 18], [14, 18]]]],
});
const south: [number, number, number, number] = [14, 0, 16, 2];
const north: [number, number, number, number] = [14, 18, 16, 20];

Deno.test("route choice: people take the nearer gateway, then go on to their own goal", () => {
  const nav = new ExitChoiceNavigator(mesh, { via: [south, north] });
  assert.ok(nav.walkingDistance(0, 5, 3) < nav.walkingDistance(1, 5, 3));
  // Around the wall, the walking distance is longer than the straight line.
  assert.ok(nav.walkingDistance(1, 20, 1) > Math.hypot(20 - 15, 1 - 19) + 1);
  const world = new World({ strategy: createNoneStrategy(), navigator: nav });
  world.addAgent({ x: 5, y: 4, goalX: 25, goalY: 4 }); // nearer the south gap
  world.addAgent({ x: 5, y: 16, goalX: 25, goalY: 16 }); // nearer the north gap
  world.step();
  const choice = world.agents.column<Int32Array>(VIA_CHOICE_COLUMN);
  assert.deepEqual([choice[0], choice[1]], [0, 1]);
  for (let s = 0; s < 1200 && !world.finished; s++) world.step();
  assert.ok(world.finished, "both arrived");
  assert.deepEqual([choice[0], choice[1]], [-1, -1]); // both passed their gateway
  const a = world.agents;
  for (const i of [0, 1]) {
    assert.ok(Math.hypot(a.px[i] - 25, a.py[i] - a.goalY[i]) < 1, `agent ${i} at its goal`);
  }
});

Deno.test("bad gateways are refused with the option's name", () => {
  assert.throws(() => new ExitChoiceNavigator(mesh, { via: [[1, 2, 3]] as never }), /via\[0\]/);
  assert.throws(
    () => new ExitChoiceNavigator(mesh, { via: [[5, 5, 1, 1]] }),
    /via\[0\] must have x1 > x0/,
  );
});

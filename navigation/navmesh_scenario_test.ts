import assert from "node:assert/strict";
import type { World } from "../core/world.ts";
import { buildScenario } from "../scenarios/build.ts";
import { buildingScenario } from "../scenarios/builtin/building.ts";
import { validateScenario } from "../scenarios/load.ts";
import { runScenario } from "../scenarios/run.ts";
import { strategies } from "../strategies/mod.ts";
import type { NavMeshNavigator } from "./navmesh_navigator.ts";

Deno.test("the building scenario finishes with 'none': walkers climb to the gallery and come down to the hall", async () => {
  const built = buildScenario(buildingScenario(30), {
    registry: strategies,
    strategy: { name: "none" },
  });
  let highest = 0, lowestDown = Infinity;
  const downGroup = 1;
  built.world.addObserver({
    afterStep(world: World) {
      const a = world.agents;
      for (let i = 0; i < a.count; i++) {
        if (a.group[i] === downGroup) lowestDown = Math.min(lowestDown, a.pz[i]);
        else highest = Math.max(highest, a.pz[i]);
      }
    },
  });
  const outcome = await runScenario(built);
  assert(outcome.finished);
  assert.equal(outcome.metrics.arrivedFraction, 1);
  assert(Math.abs(highest - 3.06) < 1e-9, `highest walker ${highest} m`);
  assert(Math.abs(lowestDown) < 1e-9, `lowest walker coming down ${lowestDown} m`);
  assert.equal(outcome.metrics.wallCrossings, 0);
  // The navigation mesh's merged border edges are the world's walls.
  const mesh = (built.world.navigator as NavMeshNavigator).mesh;
  assert.equal(built.world.obstacles.segmentCount, mesh.border.count);
});

Deno.test("with the corridor path search the building scenario finishes too, over the stairs and without wall crossings", async () => {
  const scenario = buildingScenario(30);
  scenario.navigation!.navigator = { pathSearch: "corridor" };
  const built = buildScenario(scenario, { registry: strategies, strategy: { name: "none" } });
  let highest = 0;
  built.world.addObserver({
    afterStep(world: World) {
      for (let i = 0; i < world.agents.count; i++) highest = Math.max(highest, world.agents.pz[i]);
    },
  });
  const outcome = await runScenario(built);
  assert(outcome.finished);
  assert.equal(outcome.metrics.arrivedFraction, 1);
  assert(Math.abs(highest - 3.06) < 1e-9, `highest walker ${highest} m`);
  assert.equal(outcome.metrics.wallCrossings, 0);
  assert.equal((built.world.navigator as NavMeshNavigator).options.pathSearch, "corridor");
});

Deno.test("a scenario's navigation section is validated and errors name the field", () => {
  const base = buildingScenario(4);
  const bad = structuredClone(base) as unknown as Record<string, unknown>;
  (bad.navigation as { navmesh: { surfaces: unknown[] } }).navmesh.surfaces[1] = {
    polygon: [[[0, 0], [1, 0], [1, 1]]],
    z: 0,
    slope: { from: [0, 0], to: [1, 0], zFrom: 0, zTo: 1 },
  };
  assert.throws(() => validateScenario(bad, "building.json"), /navigation\.navmesh\.surfaces\[1\]/);
  const overlap = structuredClone(base);
  overlap.navigation!.navmesh.surfaces![2].polygon = [[[-10, -5], [10, -5], [10, 5], [-10, 5]]];
  assert.throws(
    () => buildScenario(overlap, { registry: strategies }),
    /navigation\.navmesh.*surfaces 'hall' and 'gallery' overlap in plan/,
  );
  const options = structuredClone(base);
  options.navigation!.navigator = { maxQueriesPerStep: -3 };
  assert.throws(
    () => buildScenario(options, { registry: strategies }),
    /navigation\.navigator.*'maxQueriesPerStep' must be >= 1/,
  );
});

Deno.test("a scenario without surfaces walks on its bounds minus its walls and obstacles", () => {
  const built = buildScenario({
    name: "room",
    bounds: [0, 0, 20, 10],
    walls: [[[10, 0], [10, 8]]],
    obstacles: [[[4, 4], [6, 4], [6, 6], [4, 6]]],
    spawners: [{ area: { rect: [1, 1, 3, 3] }, count: 3, goal: { point: [18, 2] } }],
    navigation: { navmesh: { clearance: 0.3 } },
  }, { registry: strategies, strategy: { name: "none" } });
  const mesh = (built.world.navigator as NavMeshNavigator).mesh;
  assert.equal(mesh.clearance, 0.3);
  assert.equal(mesh.locate(5, 5), -1, "inside the obstacle");
  assert.equal(mesh.locate(10, 4), -1, "inside the wall");
  assert(mesh.locate(10, 9) >= 0, "the gap above the wall");
  for (let k = 0; k < 1200 && !built.world.finished; k++) built.world.step();
  assert(built.world.finished, "every agent went round the wall");
});

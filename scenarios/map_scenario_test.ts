import assert from "node:assert/strict";
import { AgentFlags } from "../core/agent_store.ts";
import { BuildingFinder } from "../geo/building_finder.ts";
import { at } from "../geo/_test_maps.ts";
import { LocalProjection } from "../geo/local_projection.ts";
import { strategies } from "../strategies/mod.ts";
import { buildScenario } from "./build.ts";
import { ScenarioError } from "./load.ts";
import { resolveScenario } from "./resolve.ts";
import { MapPlaces } from "./map_places.ts";
import { writeTown } from "./_test_town.ts";

Deno.test("map scenario: relative map path, anchor and mesh from the map; street, building and near places", async () => {
  const [lon, lat] = at(-40, 0);
  const path = await writeTown({
    spawners: [
      { area: { street: "main street" }, count: 60, goal: { building: "random" } },
      { area: { building: "random" }, count: 60, goal: { near: [lon, lat], radius: 8 } },
      { area: { near: at(0, -60), radius: 10 }, count: 20, goal: { street: "Cross Road" } },
    ],
  });
  const { spec, resources, source } = await resolveScenario(path);
  const city = resources!.city!;
  assert.equal(city.buildings.length, 4);
  assert.deepEqual(spec.anchor, { lon: city.anchor.lon, lat: city.anchor.lat });
  const built = buildScenario(spec, { registry: strategies, resources, source });
  assert.equal(built.navigatorName, "navmesh");
  assert.equal(built.navMesh, resources!.navMesh);
  const { world } = built;
  assert.equal(world.agents.count, 140);
  const mesh = built.navMesh!;
  const places = MapPlaces.of(city, mesh);
  assert.equal(places.doorCount, 4);
  const finder = new BuildingFinder(city.buildings);
  const projection = new LocalProjection(city.anchor);
  const [nx, ny] = projection.toLocal(lon, lat);
  const a = world.agents;
  for (let i = 0; i < a.count; i++) {
    assert.equal(finder.at(a.px[i], a.py[i]), null, `agent ${i} spawned inside a building`);
    const here = mesh.locate(a.px[i], a.py[i]);
    assert(
      here >= 0 && mesh.planComponent[here] === places.mainComponent,
      `agent ${i} off the mesh`,
    );
    const goal = mesh.locate(a.goalX[i], a.goalY[i]);
    assert(
      goal >= 0 && mesh.planComponent[goal] === places.mainComponent,
      `goal of ${i} unreachable`,
    );
    if (a.group[i] === 0) {
      // Street walkers start within the street's reach of its centre line (y = 0).
      assert(Math.abs(a.py[i] - city.streets.nodes[0].y) < 12, `agent ${i} not on Main Street`);
      // ... and head for one of the buildings' doors.
      let door = false;
      for (let k = 0; k < places.doors.length; k += 2) {
        if (places.doors[k] === a.goalX[i] && places.doors[k + 1] === a.goalY[i]) door = true;
      }
      assert(door, `goal of ${i} is not a door`);
    } else if (a.group[i] === 1) {
      assert(
        Math.hypot(a.goalX[i] - nx, a.goalY[i] - ny) <= 8 + 2,
        `goal of ${i} not near the point`,
      );
    }
  }
});

Deno.test("map scenario: onArrival 'next' sends arrivals to a new building and keeps them", async () => {
  const path = await writeTown({
    spawners: [{
      area: { building: "random" },
      count: 20,
      goal: { building: "random" },
      onArrival: "next",
    }],
  });
  const { spec, resources, source } = await resolveScenario(path);
  const { world } = buildScenario(spec, { registry: strategies, resources, source });
  const serials = new Set(Array.from(world.agents.serial.subarray(0, world.agents.count)));
  let arrivals = 0;
  for (let s = 0; s < 2400 && arrivals < 25; s++) {
    world.step();
    arrivals += world.events.arrived;
  }
  assert(arrivals >= 25, `only ${arrivals} arrivals in 120 s`);
  assert.equal(world.agents.count, 20);
  const a = world.agents;
  for (let i = 0; i < a.count; i++) {
    assert(serials.has(a.serial[i]), "an agent was replaced");
    assert.equal(a.flags[i] & AgentFlags.arrived, 0, "an arrival stood still");
  }
});

Deno.test("map scenario: clear errors for unknown streets, points off the map, places without a map", async () => {
  const misspelt = await writeTown({
    spawners: [{ area: { street: "Main Stret" }, count: 5, goal: { building: "random" } }],
  });
  const r = await resolveScenario(misspelt);
  assert.throws(
    () => buildScenario(r.spec, { registry: strategies, resources: r.resources, source: r.source }),
    (e: Error) =>
      e instanceof ScenarioError &&
      /spawners\[0\]\.area\.street: unknown street 'Main Stret' on 'town': close matches: 'Main Street', 'Cross Road'/
        .test(e.message),
  );
  const far = await writeTown({
    spawners: [{ area: { building: "random" }, count: 5, goal: { near: [25.5, 60.3] } }],
  });
  const f = await resolveScenario(far);
  assert.throws(
    () => buildScenario(f.spec, { registry: strategies, resources: f.resources, source: f.source }),
    /spawners\[0\]\.goal\.near: \[25\.5, 60\.3\] is off the map: 'town' covers longitude 24\.9\d+ to 24\.9\d+/,
  );
  const unknownBuilding = await writeTown({
    spawners: [{ area: { building: "Town Hall" }, count: 5, goal: { building: "random" } }],
  });
  const u = await resolveScenario(unknownBuilding);
  assert.throws(
    () => buildScenario(u.spec, { registry: strategies, resources: u.resources, source: u.source }),
    /spawners\[0\]\.area\.building: unknown building 'Town Hall'/,
  );
  assert.throws(
    () =>
      buildScenario({
        name: "no map",
        spawners: [{ area: { street: "Main Street" }, count: 1, goal: { point: [0, 0] } }],
      }, { registry: strategies }),
    /spawners\[0\]\.area\.street: a place on a map needs the scenario's "map" section/,
  );
  const missing = await writeTown({ map: { osm: "maps/nowhere.osm.pbf" } });
  await assert.rejects(
    () => resolveScenario(missing),
    (e: Error) =>
      e instanceof ScenarioError &&
      /map\.osm: .*nowhere\.osm\.pbf: cannot read the map: no such file/
        .test(e.message),
  );
  const badOption = await writeTown({ map: { osm: "maps/town.osm", walkable: { jaywalk: true } } });
  await assert.rejects(() => resolveScenario(badOption), /map\.walkable: .*jaywalk/);
  const anchored = await writeTown({ anchor: { lon: 24.94, lat: 60.17 } });
  await assert.rejects(() => resolveScenario(anchored), /anchor: give "map" or "anchor", not both/);
});

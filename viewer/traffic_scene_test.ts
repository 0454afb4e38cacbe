import assert from "node:assert/strict";
import { buildCityTraffic } from "../scenarios/city_traffic.ts";
import { CITY_COLUMNS, CITY_STATE_NAMES } from "../navigation/city_block_navigator.ts";
import { SignalColor, WalkSignal } from "../traffic/signal_cycle.ts";
import { decodeTrafficFrame } from "./traffic_frame.ts";
import { crosswalkStripes, sceneFromCityTraffic, TrafficScene } from "./traffic_scene.ts";

Deno.test("crosswalk: a light at each lane's stop line and a walk signal at each kerb", () => {
  const run = buildCityTraffic("crosswalk", { agents: 10, cars: 4, strategy: "none" });
  const traffic = TrafficScene.fromRun(run);
  const vehicle = traffic.info.signals.filter((s) => s.kind === "vehicle");
  const walk = traffic.info.signals.filter((s) => s.kind === "walk");
  assert.equal(vehicle.length, 2); // one lane each way
  assert.equal(walk.length, 2);
  // Each stands at the end of a lane (its stop line) next to the crosswalk, on the lane's kerb side.
  const net = run.cars.network;
  for (const s of vehicle) {
    const [x, y] = s.position;
    const lane = [...Array(net.laneCount).keys()].find((l) => {
      const end = net.pointStart[l + 1] - 1;
      return Math.abs(net.px[end] - x) < 0.01 && Math.abs(Math.abs(y - net.py[end]) - 1.75) < 0.01;
    });
    assert.ok(lane !== undefined, `no lane ends at the light (${x}, ${y})`);
    assert.ok(Math.abs(x) <= 5, `light ${x} m from the crosswalk`);
    // At the kerb: the lanes are 3.5 m wide, the road 7 m.
    assert.ok(Math.abs(Math.abs(y) - 3.5) < 0.01, `light at y = ${y}`);
  }
  const ys = vehicle.map((s) => s.position[1]).sort((a, b) => a - b);
  assert.ok(ys[0] < 0 && ys[1] > 0, "one light per direction");
  // Keeping right, the lane heading +x (south side) stops west of the crosswalk.
  const south = vehicle.find((s) => s.position[1] < 0)!;
  assert.ok(south.position[0] < 0);
  // The two sidewalks, 4 m wide, along both kerbs.
  assert.equal(traffic.info.sidewalks.length, 2);
  for (const ring of traffic.info.sidewalks) {
    const ys = ring.map((p) => Math.abs(p[1]));
    assert.deepEqual([Math.min(...ys), Math.max(...ys)], [3.5, 7.5]);
  }
  // Walk signals just beyond the kerbs of the 7 m road.
  assert.deepEqual(walk.map((s) => s.position).sort((a, b) => a[1] - b[1]), [[0, -4.1], [0, 4.1]]);
});

Deno.test("crosswalk: the signal heads show the lights' colours, never walk beside a green car light", () => {
  const run = buildCityTraffic("crosswalk", { agents: 20, cars: 10, strategy: "none" });
  const traffic = TrafficScene.fromRun(run);
  const kinds = traffic.info.signals.map((s) => s.kind);
  const seen = { vehicle: new Set<number>(), walk: new Set<number>() };
  const world = run.world;
  // Two minutes, a few cycles of the light, read every second.
  for (let second = 0; second < 120; second++) {
    for (let k = 0; k < Math.round(1 / world.dt); k++) world.step();
    const frame = decodeTrafficFrame(traffic.encode(world, 0));
    assert.equal(frame.signals, 4);
    const states = [...frame.signalState];
    kinds.forEach((kind, i) => seen[kind].add(states[i]));
    // Both walk heads of the crosswalk agree with the light's pedestrian signal.
    const walkNow = run.lights.walkSignal(0, world.time);
    kinds.forEach((kind, i) => kind === "walk" && assert.equal(states[i], walkNow));
    if (walkNow !== WalkSignal.dontWalk) {
      kinds.forEach((kind, i) =>
        kind === "vehicle" && assert.equal(states[i], SignalColor.red, `t = ${world.time}`)
      );
    }
  }
  assert.deepEqual([...seen.vehicle].sort(), [0, 1, 2]);
  assert.deepEqual([...seen.walk].sort(), [0, 1, 2]);
});

Deno.test("crosswalk: every car is sent with its rectangle, and every pedestrian with its crossing state", () => {
  const run = buildCityTraffic("crosswalk", { agents: 40, cars: 12, strategy: "orca", seed: 2 });
  const traffic = TrafficScene.fromRun(run);
  const world = run.world;
  const seen = new Set<number>();
  for (let k = 0; k < 1200; k++) {
    world.step();
    if (k % 40 !== 39) continue;
    const frame = decodeTrafficFrame(traffic.encode(world, 1));
    const v = world.vehicles, a = world.agents;
    assert.equal(frame.view, 1);
    assert.equal(frame.step, world.stepIndex);
    assert.equal(frame.cars, 12);
    for (let c = 0; c < frame.cars; c++) {
      assert.ok(Math.abs(frame.centres[2 * c] - v.cx[c]) < 1e-3);
      assert.ok(Math.abs(frame.centres[2 * c + 1] - v.cy[c]) < 1e-3);
      assert.ok(Math.abs(Math.cos(frame.heading[c]) - v.dirX[c]) < 1e-5);
      assert.ok(Math.abs(Math.sin(frame.heading[c]) - v.dirY[c]) < 1e-5);
      assert.ok(Math.abs(frame.length[c] - 2 * v.halfLength[c]) < 1e-5);
      assert.ok(Math.abs(frame.width[c] - 2 * v.halfWidth[c]) < 1e-5);
      assert.ok(Math.abs(frame.speed[c] - Math.hypot(v.vx[c], v.vy[c])) < 1e-4);
    }
    assert.equal(frame.states, a.count);
    const column = a.column<Uint8Array>(CITY_COLUMNS.state);
    assert.deepEqual([...frame.crossingState], [...column.subarray(0, a.count)]);
    for (const s of frame.crossingState) seen.add(s);
  }
  // In a minute at a light: people wait at the kerb, cross, and walk on to their goal.
  const names = [...seen].map((s) => CITY_STATE_NAMES[s]);
  for (const name of ["wait", "cross", "arrive"]) assert.ok(names.includes(name), names.join());
});

Deno.test("the cars are sent as placed before the first step, and as the world sees them after", () => {
  const run = buildCityTraffic("crosswalk", { agents: 10, cars: 9, strategy: "none" });
  const traffic = TrafficScene.fromRun(run);
  const first = decodeTrafficFrame(traffic.encode(run.world, 0));
  assert.equal(first.cars, 9);
  const c = run.cars.cars;
  for (let k = 0; k < 9; k++) {
    assert.ok(Math.abs(first.centres[2 * k] - c.x[k]) < 1e-3);
    assert.ok(Math.abs(first.length[k] - c.length[k]) < 1e-5);
  }
  // A generic traffic's cars: the world's vehicles (empty before the first step).
  const generic = new TrafficScene(run.city, run.cars.network, run.lights);
  assert.equal(decodeTrafficFrame(generic.encode(run.world, 0)).cars, 0);
  run.world.step();
  const after = decodeTrafficFrame(generic.encode(run.world, 0));
  const own = decodeTrafficFrame(traffic.encode(run.world, 0));
  assert.equal(after.cars, 9);
  assert.deepEqual([...after.centres], [...own.centres]);
  assert.deepEqual([...after.length], [...own.length]);
});

Deno.test("encoding traffic messages every step leaves the run as it would have been", () => {
  const runs = [0, 1].map(() =>
    buildCityTraffic("crosswalk", { agents: 30, cars: 10, strategy: "orca", seed: 5 })
  );
  const traffic = TrafficScene.fromRun(runs[1]);
  for (let k = 0; k < 300; k++) {
    runs[0].world.step();
    runs[1].world.step();
    traffic.encode(runs[1].world, 0);
  }
  const [a, b] = runs.map((r) => r.world.agents);
  assert.equal(a.count, b.count);
  assert.deepEqual([...a.px.subarray(0, a.count)], [...b.px.subarray(0, b.count)]);
  assert.deepEqual([...runs[0].cars.cars.s], [...runs[1].cars.cars.s]);
});

Deno.test("city-grid: lights at every signalled junction's lanes, stripes on every crosswalk", () => {
  const run = buildCityTraffic("city-grid", { blocks: 2, agents: 20, cars: 10, strategy: "none" });
  const traffic = TrafficScene.fromRun(run);
  const net = run.cars.network, lights = run.lights;
  let controlledLanes = 0;
  for (let lane = 0; lane < net.laneCount; lane++) {
    let controlled = false;
    for (let k = net.outStart[lane]; k < net.outStart[lane + 1]; k++) {
      if (lights.controls(net.outLinks[k])) controlled = true;
    }
    if (controlled) controlledLanes++;
  }
  const signalled = [...lights.crossingJunction].filter((j) => j >= 0).length;
  const kinds = traffic.info.signals.map((s) => s.kind);
  assert.ok(controlledLanes > 0 && signalled > 0);
  assert.equal(kinds.filter((k) => k === "vehicle").length, controlledLanes);
  assert.equal(kinds.filter((k) => k === "walk").length, 2 * signalled);
  // Each crosswalk gets about one bar per metre of its length, all inside it.
  const stripes = crosswalkStripes(run.city);
  let metres = 0;
  for (const c of run.city.crossings) {
    for (let k = 0; k + 1 < c.points.length; k++) {
      metres += Math.hypot(
        c.points[k + 1][0] - c.points[k][0],
        c.points[k + 1][1] - c.points[k][1],
      );
    }
  }
  assert.ok(
    Math.abs(stripes.length - metres) <= run.city.crossings.length,
    `${stripes.length} bars, ${metres} m`,
  );
  const scene = sceneFromCityTraffic(run, traffic);
  assert.equal(scene.traffic, traffic.info);
  assert.equal(scene.city!.crossings.length, run.city.crossings.length);
  // The sidewalks fill the frame: every pedestrian starts inside it.
  const a = run.world.agents, b = scene.bounds;
  for (let i = 0; i < a.count; i++) {
    assert.ok(a.px[i] >= b.minX && a.px[i] <= b.maxX && a.py[i] >= b.minY && a.py[i] <= b.maxY);
  }
});

import assert from "node:assert/strict";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import type { CityCrossing } from "../geo/city_model.ts";
import { buildLaneNetwork, type LaneNetwork, TurnKind } from "./lane_network.ts";
import { SignalColor, WalkSignal } from "./signal_cycle.ts";
import { buildTrafficLights } from "./traffic_lights.ts";
import { streetCity } from "./_test_cities.ts";

function conflicting(net: LaneNetwork, a: number, b: number): boolean {
  const k = a - net.laneCount;
  return net.conflicts.subarray(net.conflictStart[k], net.conflictStart[k + 1]).includes(b);
}

Deno.test("traffic lights: with protected turns a 4-way junction runs 4 phases and never shows two conflicting movements go", () => {
  const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
  const net = buildLaneNetwork(city);
  const lights = buildTrafficLights(net, city, { offsets: "zero", turnPhases: "protected" });
  const j = [...lights.junctionNode].indexOf(4); // the centre 4-way
  const cycle = lights.cycles[j];
  // North–south through + right, north–south left, east–west through + right, east–west left.
  assert.equal(cycle.stageCount, 12);
  assert.equal(cycle.period, 2 * (20 + 3 + 2) + 2 * (8 + 3 + 2));
  const movements: number[] = [];
  for (let k = net.nodeStart[4]; k < net.nodeStart[5]; k++) movements.push(net.nodeLinks[k]);
  let farsideGreen = 0;
  for (let t = 0; t < cycle.period; t += 0.25) {
    const going = movements.filter((m) => lights.movementColor(m, t) !== SignalColor.red);
    for (const a of going) {
      // Movements from one approach may merge (a lane shift): those wait for each other in the
      // car system. Between approaches, nothing that crosses or merges goes at once.
      const from = net.edge[net.fromLane[a]];
      for (const b of going) {
        if (net.edge[net.fromLane[b]] === from) continue;
        assert(!conflicting(net, a, b), `conflict at t = ${t}`);
      }
      if (net.turn[a] === TurnKind.farside) farsideGreen++;
    }
  }
  assert(farsideGreen > 0, "left turns get their own phase");
  // Every movement gets green once per cycle, for 20 s (through) or 8 s (protected turn).
  for (const m of movements) {
    let green = 0;
    for (let t = 0; t < cycle.period; t += 0.25) {
      if (lights.movementColor(m, t) === SignalColor.green) green += 0.25;
    }
    assert.equal(green, net.turn[m] === TurnKind.farside ? 8 : 20);
  }
});

Deno.test("traffic lights: with protected turns nobody may walk while a car that does not yield can cross the crosswalk", () => {
  const city = generateProceduralCity({ blocksX: 3, blocksY: 3 });
  const net = buildLaneNetwork(city);
  const lights = buildTrafficLights(net, city, { seed: 9, turnPhases: "protected" });
  let walkTime = 0;
  city.crossings.forEach((crossing, k) => {
    const j = lights.crossingJunction[k];
    assert(j >= 0, `${crossing.id} has a pedestrian signal`);
    const node = lights.junctionNode[j];
    const onArm: number[] = [];
    for (let i = net.nodeStart[node]; i < net.nodeStart[node + 1]; i++) {
      const m = net.nodeLinks[i];
      const uses = net.edge[net.fromLane[m]] === crossing.edge ||
        net.edge[net.toLane[m]] === crossing.edge;
      if (uses && net.turn[m] !== TurnKind.kerbside) onArm.push(m);
    }
    const period = lights.cycles[j].period;
    for (let t = 0; t < period; t += 0.5) {
      const signal = lights.walkSignal(k, t);
      if (signal === WalkSignal.dontWalk) continue;
      if (signal === WalkSignal.walk) walkTime += 0.5;
      for (const m of onArm) assert.equal(lights.movementColor(m, t), SignalColor.red, crossing.id);
    }
  });
  // 24 crosswalks, each with walk for 20 + 3 − 10 = 13 s per cycle.
  assert.equal(walkTime, 24 * 13);
});

Deno.test("traffic lights: future queries agree with the light as time goes by", () => {
  const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
  const net = buildLaneNetwork(city);
  const lights = buildTrafficLights(net, city, { seed: 4 });
  for (let m = net.laneCount; m < net.linkCount; m++) {
    if (!lights.controls(m)) {
      // The ring-road bends have no light: always green, never red.
      assert.equal(lights.timeUntilRed(m, 0), Infinity);
      assert.equal(lights.movementColor(m, 7), SignalColor.green);
      continue;
    }
    for (let t = -30; t < 150; t += 3.7) {
      const red = lights.timeUntilRed(m, t), green = lights.timeUntilGreen(m, t);
      assert(Number.isFinite(red) && Number.isFinite(green));
      // Just before the predicted change it has not happened; just after it has.
      if (red > 0) {
        assert.notEqual(lights.movementColor(m, t + red - 1e-6), SignalColor.red);
        assert.equal(lights.movementColor(m, t + red + 1e-6), SignalColor.red);
      }
      if (green > 0) {
        assert.notEqual(lights.movementColor(m, t + green - 1e-6), SignalColor.green);
        assert.equal(lights.movementColor(m, t + green + 1e-6), SignalColor.green);
      }
      const period = lights.cycles[lights.movementJunction[m]].period;
      assert.equal(lights.movementColor(m, t), lights.movementColor(m, t + period));
    }
  }
  for (let k = 0; k < city.crossings.length; k++) {
    for (let t = 0; t < 100; t += 2.3) {
      const wait = lights.timeUntilWalk(k, t);
      assert.equal(lights.walkSignal(k, t + wait + 1e-6), WalkSignal.walk);
      const left = lights.timeUntilDontWalk(k, t);
      if (left > 0) {
        assert.notEqual(lights.walkSignal(k, t + left - 1e-6), WalkSignal.dontWalk);
        assert.equal(lights.walkSignal(k, t + left + 1e-6), WalkSignal.dontWalk);
      }
    }
  }
});

Deno.test("traffic lights: a signalled mid-block crossing gets a pedestrian phase", () => {
  const crossing: CityCrossing = {
    id: "gen/test/crossing",
    x: 100,
    y: 0,
    kind: "traffic_signals",
    signalled: true,
    points: [[100, -3.5], [100, 3.5]],
    width: 3,
    edge: 1,
    node: 1,
  };
  const base = streetCity([[0, 0], [100, 0], [200, 0]], [{ from: 0, to: 1 }, { from: 1, to: 2 }]);
  const city = {
    ...base,
    crossings: [crossing],
    signals: [{ id: "gen/test/signal", x: 100, y: 0, node: 1, pedestrian: true }],
  };
  const net = buildLaneNetwork(city);
  const lights = buildTrafficLights(net, city, { offsets: "zero" });
  assert.equal(lights.junctionCount, 1);
  // Cars: 20 + 3 + 2 s; pedestrians: 15 + 0 + 2 s.
  assert.equal(lights.cycles[0].period, 25 + 17);
  assert.equal(lights.walkSignal(0, 10), WalkSignal.dontWalk);
  assert.equal(lights.walkSignal(0, 26), WalkSignal.walk);
  assert.equal(lights.walkSignal(0, 36), WalkSignal.flashing);
  for (let k = net.nodeStart[1]; k < net.nodeStart[2]; k++) {
    const m = net.nodeLinks[k];
    assert.equal(lights.movementColor(m, 10), SignalColor.green);
    assert.equal(lights.movementColor(m, 26), SignalColor.red);
  }
  assert.throws(
    () => buildTrafficLights(net, city, { pedestrianClearance: 30 }),
    /'pedestrianClearance' must be < greenTime \+ yellowTime \(23 s\): current value is 30/,
  );
});

Deno.test("traffic lights: permissive turns share the main phase, and pedestrians walk across turning cars only", () => {
  const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
  const net = buildLaneNetwork(city);
  const lights = buildTrafficLights(net, city, { offsets: "zero" });
  const j = [...lights.junctionNode].indexOf(4);
  assert.equal(lights.cycles[j].period, 2 * (20 + 3 + 2));
  let walkTime = 0;
  city.crossings.forEach((crossing, k) => {
    const node = lights.junctionNode[lights.crossingJunction[k]];
    for (let t = 0; t < lights.cycles[lights.crossingJunction[k]].period; t += 0.5) {
      if (lights.walkSignal(k, t) === WalkSignal.dontWalk) continue;
      if (lights.walkSignal(k, t) === WalkSignal.walk) walkTime += 0.5;
      for (let i = net.nodeStart[node]; i < net.nodeStart[node + 1]; i++) {
        const m = net.nodeLinks[i];
        if (lights.movementColor(m, t) === SignalColor.red) continue;
        // Nobody leaves from the crosswalk's arm; whoever turns into it yields.
        assert.notEqual(net.edge[net.fromLane[m]], crossing.edge, `${crossing.id} at t = ${t}`);
        if (net.edge[net.toLane[m]] === crossing.edge) {
          assert.notEqual(net.turn[m], TurnKind.through, `${crossing.id} at t = ${t}`);
        }
      }
    }
  });
  // 4 crosswalks at the centre, 4 at the T-junctions: 13 s of walk per cycle each.
  assert.equal(walkTime, 8 * 13);
});

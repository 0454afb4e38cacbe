import assert from "node:assert/strict";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import type { CityModel } from "../geo/city_model.ts";
import { CarApproaches } from "./car_approaches.ts";
import { CarFlags } from "./car_store.ts";
import { CarSystem, type PedestrianView } from "./car_system.ts";
import { ballisticDistance, IntelligentDriver } from "./idm.ts";
import { buildLaneNetwork, type LaneNetwork, LinkKind } from "./lane_network.ts";
import { SignalColor } from "./signal_cycle.ts";
import { buildTrafficLights } from "./traffic_lights.ts";
import { streetCity } from "./_test_cities.ts";
import { VEHICLE_HORIZON } from "../core/vehicles.ts";

const DT = 0.05;

/** A straight two-way street, 3 km long: one lane each way. */
function straightRoad(): LaneNetwork {
  return buildLaneNetwork(streetCity([[0, 0], [3000, 0]], [{ from: 0, to: 1 }]));
}

/** The lane of `network` on street `edge` running forward (or backward). */
function laneOf(network: LaneNetwork, edge: number, forward: boolean): number {
  for (let l = 0; l < network.laneCount; l++) {
    if (network.edge[l] === edge && (network.forward[l] === 1) === forward) return l;
  }
  throw new Error(`no lane on edge ${edge}`);
}

/** A 4-way junction at the origin with 500 m arms (east, west, north, south), lit. */
function crossroads(): CityModel {
  return streetCity(
    [[0, 0], [500, 0], [-500, 0], [0, 500], [0, -500]],
    [{ from: 0, to: 1 }, { from: 0, to: 2 }, { from: 0, to: 3 }, { from: 0, to: 4 }],
    { signals: [{ id: "gen/test/signal", x: 0, y: 0, node: 0, pedestrian: false }] },
  );
}

/** The connector from `fromLane` to `toLane`. */
function movement(network: LaneNetwork, fromLane: number, toLane: number): number {
  for (let k = network.outStart[fromLane]; k < network.outStart[fromLane + 1]; k++) {
    if (network.toLane[network.outLinks[k]] === toLane) return network.outLinks[k];
  }
  throw new Error(`no movement ${fromLane} → ${toLane}`);
}

function noPedestrians(): PedestrianView {
  const none = new Float64Array(0);
  return { count: 0, px: none, py: none, vx: none, vy: none, radius: none };
}

Deno.test("cars: a car on a free road speeds up exactly as the Intelligent Driver Model says", () => {
  const network = straightRoad();
  const cars = new CarSystem(network, { desiredSpeedSpread: 0 });
  const lane = laneOf(network, 0, true);
  cars.addCar({ lane, s: 10, destination: laneOf(network, 0, false) });
  const idm = new IntelligentDriver();
  let s = 10, v = 0;
  for (let k = 0; k < 1200; k++) {
    cars.step(DT);
    const acc = idm.acceleration(v, 13.9, Infinity, 0);
    s += ballisticDistance(v, acc, DT);
    v = Math.max(0, v + acc * DT);
  }
  assert.equal(cars.cars.link[0], lane);
  assert(Math.abs(cars.cars.s[0] - s) < 1e-9, `${cars.cars.s[0]} vs ${s}`);
  assert(Math.abs(cars.cars.speed[0] - v) < 1e-12);
  assert(v > 0.98 * 13.9, `speed after a minute: ${v}`);
});

Deno.test("cars: a follower settles at the IDM equilibrium gap behind a slower car", () => {
  const network = straightRoad();
  const cars = new CarSystem(network);
  const lane = laneOf(network, 0, true), back = laneOf(network, 0, false);
  const follower = cars.addCar({ lane, s: 10, speed: 13.9, desiredSpeed: 13.9, destination: back });
  const leader = cars.addCar({ lane, s: 120, speed: 10, desiredSpeed: 10, destination: back });
  for (let k = 0; k < 3000; k++) cars.step(DT); // 150 s, 1.5 km: still on the lane
  const c = cars.cars;
  assert.equal(c.link[leader], lane);
  const gap = c.s[leader] - c.length[leader] - c.s[follower];
  const expected = cars.idm.equilibriumGap(10, 13.9); // 14.03 m
  assert(Math.abs(gap - expected) < 0.05, `gap ${gap} m, expected ${expected} m`);
  assert(Math.abs(c.speed[follower] - 10) < 1e-3);
});

Deno.test("cars: a car stops before a red light and crosses only on green", () => {
  const city = crossroads();
  const network = buildLaneNetwork(city);
  const lights = buildTrafficLights(network, city, { offsets: "zero" });
  const cars = new CarSystem(network, { lights });
  // From the south (street 3 runs 0 → 4, so its backward lane heads north) to the north.
  const south = laneOf(network, 3, false), north = laneOf(network, 2, true);
  const through = movement(network, south, north);
  // East–west goes first: north–south is red for the first 25 s.
  assert.equal(lights.movementColor(through, 0), SignalColor.red);
  assert.equal(lights.timeUntilGreen(through, 0), 25);
  const car = cars.addCar({
    lane: south,
    s: network.length[south] - 120,
    speed: 13.9,
    destination: north,
  });
  const c = cars.cars, line = network.length[south];
  let crossedAt = -1;
  for (let k = 0; k < 1000; k++) {
    const onLane = c.link[car] === south;
    cars.step(DT);
    if (onLane && c.link[car] !== south) {
      crossedAt = cars.time;
      // The movement was green (or yellow) when the front crossed the line.
      assert.notEqual(lights.movementColor(through, cars.time - DT), SignalColor.red);
    }
    if (c.link[car] === south) assert(c.s[car] <= line, `past the line at t = ${cars.time}`);
    if (cars.time > 20 && cars.time < 25) {
      assert(c.speed[car] < 0.01 && line - c.s[car] < 3, `waiting ${line - c.s[car]} m short`);
      assert((c.flags[car] & CarFlags.atLight) !== 0);
    }
  }
  assert(crossedAt > 25 && crossedAt < 29, `crossed at ${crossedAt} s`);
  assert.equal(cars.stats.redLightRuns, 0);
});

Deno.test("cars: at yellow a car stops when it can and goes on when it cannot", () => {
  const city = crossroads();
  const network = buildLaneNetwork(city);
  const lights = buildTrafficLights(network, city, { offsets: "zero" });
  // From the west (street 1 runs 0 → 2: backward heads east) to the east; green until 20 s.
  const west = laneOf(network, 1, false), east = laneOf(network, 0, true);
  const through = movement(network, west, east);
  assert.equal(lights.movementColor(through, 19.9), SignalColor.green);
  assert.equal(lights.movementColor(through, 20.1), SignalColor.yellow);
  const line = network.length[west];
  const outcome = (distanceAtYellow: number) => {
    const cars = new CarSystem(network, { lights, desiredSpeedSpread: 0 });
    // At 13.9 m/s (its desired speed) it is `distanceAtYellow` from the line at t = 20 s.
    const car = cars.addCar({
      lane: west,
      s: line - distanceAtYellow - 13.9 * 20,
      speed: 13.9,
      destination: east,
    });
    let crossedAt = Infinity;
    for (let k = 0; k < 800 && crossedAt === Infinity; k++) {
      cars.step(DT);
      if (cars.cars.link[car] !== west) crossedAt = cars.time;
    }
    return crossedAt;
  };
  // 60 m away at yellow: stopping takes 32 m at 3 m/s² — it stops and waits for the next green
  // (at 50 s).
  const far = outcome(60);
  assert(far > 50, `crossed at ${far} s`);
  // 15 m away: it cannot stop comfortably, so it crosses during the yellow (20–23 s).
  const near = outcome(15);
  assert(near > 20 && near < 23, `crossed at ${near} s`);
});

Deno.test("cars: a car never enters a junction it cannot leave, and takes another way when kept waiting", () => {
  const city = crossroads();
  const network = buildLaneNetwork(city);
  const south = laneOf(network, 3, false), north = laneOf(network, 2, true);
  // Fill the northbound lane after the junction with cars held in place: no room left.
  const setup = (patience: number) => {
    const cars = new CarSystem(network, { blockedPatience: patience });
    const queue: number[] = [];
    for (let s = 6; s < network.length[north]; s += 6.5) {
      const j = cars.addCar({ lane: north, s, destination: laneOf(network, 2, false) });
      cars.setHeld(j, true);
      queue.push(j);
    }
    const car = cars.addCar({
      lane: south,
      s: network.length[south] - 100,
      speed: 10,
      destination: north,
    });
    return { cars, queue, car };
  };
  {
    const { cars, queue, car } = setup(1000);
    const c = cars.cars;
    for (let k = 0; k < 600; k++) {
      cars.step(DT);
      assert.equal(c.link[car], south, `entered the junction at t = ${cars.time}`);
    }
    assert(c.speed[car] < 0.01 && network.length[south] - c.s[car] < 3);
    assert((c.flags[car] & CarFlags.blocked) !== 0);
    // Room appears: the car goes on and reaches the northbound lane.
    for (const j of queue) cars.setHeld(j, false);
    let reached = false;
    for (let k = 0; k < 1200 && !reached; k++) {
      cars.step(DT);
      reached = c.link[car] === north || cars.stats.arrivals > 0;
    }
    assert(reached, "the car got through once there was room");
  }
  {
    // Gridlock layer 2: after 10 s at the line it turns east or west instead.
    const { cars, car } = setup(10);
    const c = cars.cars;
    for (let k = 0; k < 600; k++) cars.step(DT);
    assert.equal(cars.stats.reroutes, 1);
    const lane = network.kind[c.link[car]] === LinkKind.lane
      ? c.link[car]
      : network.toLane[c.link[car]];
    assert([0, 1].includes(network.edge[lane]), `now on street ${network.edge[lane]}`);
  }
});

Deno.test("cars: a car kept stuck for a minute is moved to a free lane elsewhere", () => {
  const city = crossroads();
  const network = buildLaneNetwork(city);
  const south = laneOf(network, 3, false);
  const cars = new CarSystem(network, { seed: 5 });
  const blocker = cars.addCar({ lane: south, s: 200 });
  cars.setHeld(blocker, true);
  const car = cars.addCar({ lane: south, s: 150, speed: 5 });
  for (let k = 0; k < 1200; k++) cars.step(DT); // 60 s
  assert.equal(cars.stats.respawns, 0);
  for (let k = 0; k < 200; k++) cars.step(DT);
  assert.equal(cars.stats.respawns, 1);
  assert.equal(cars.cars.trip[car], 1);
  assert.notEqual(cars.cars.link[car], south);
  assert.equal(cars.cars.link[blocker], south, "held cars stay");
});

Deno.test("cars: a car moved after being stuck lands 2 m into its lane and clear of everyone on foot", () => {
  const city = crossroads();
  const network = buildLaneNetwork(city);
  const south = laneOf(network, 3, false);
  // Someone standing 3 m into every other lane, where a moved car would stand.
  const point = new Float64Array(4), xs: number[] = [], ys: number[] = [];
  for (let l = 0; l < network.laneCount; l++) {
    if (l === south) continue;
    network.pointAt(l, 3, point);
    xs.push(point[0]);
    ys.push(point[1]);
  }
  const people: PedestrianView = {
    count: xs.length,
    px: Float64Array.from(xs),
    py: Float64Array.from(ys),
    vx: new Float64Array(xs.length),
    vy: new Float64Array(xs.length),
    radius: new Float64Array(xs.length).fill(0.25),
  };
  for (const [standing, moved] of [[false, 1], [true, 0]] as const) {
    const cars = new CarSystem(network, { seed: 5 });
    const blocker = cars.addCar({ lane: south, s: 200 });
    cars.setHeld(blocker, true);
    const car = cars.addCar({ lane: south, s: 150, speed: 5 });
    // Up to 70 s, and no further than the step it is moved in.
    for (let k = 0; k < 1400 && cars.stats.respawns === 0; k++) {
      cars.step(DT, standing ? people : undefined);
    }
    assert.equal(cars.stats.respawns, moved, standing ? "with people" : "without");
    if (moved === 1) {
      const tail = cars.cars.s[car] - cars.cars.length[car];
      assert.ok(tail >= 2 - 1e-9, `tail ${tail.toFixed(2)} m into its new lane`);
    }
  }
});

Deno.test("cars: a car brakes for a pedestrian on its lane and drives on once the lane is clear", () => {
  const network = straightRoad();
  const cars = new CarSystem(network);
  const lane = laneOf(network, 0, true);
  const car = cars.addCar({ lane, s: 100, speed: 13.9, destination: laneOf(network, 0, false) });
  const c = cars.cars;
  // A pedestrian standing in the middle of the lane 150 m ahead of the car's front.
  const point = new Float64Array(4);
  network.pointAt(lane, 250, point);
  const pedestrian: PedestrianView = {
    count: 1,
    px: new Float64Array([point[0]]),
    py: new Float64Array([point[1]]),
    vx: new Float64Array([0]),
    vy: new Float64Array([0]),
    radius: new Float64Array([0.25]),
  };
  let closest = Infinity;
  for (let k = 0; k < 600; k++) {
    cars.step(DT, pedestrian);
    closest = Math.min(closest, 250 - 0.25 - c.s[car]);
  }
  assert(c.speed[car] < 0.01, `still moving at ${c.speed[car]} m/s`);
  assert(closest > 1 && closest < 2.5, `stopped ${closest} m from the pedestrian`);
  // The pedestrian steps onto the sidewalk, 4 m to the side of the lane: the car drives on.
  pedestrian.py[0] -= 4;
  for (let k = 0; k < 200; k++) cars.step(DT, pedestrian);
  assert(c.speed[car] > 5);
  // Someone walking towards the lane from the sidewalk at 1.4 m/s is seen a second early.
  pedestrian.px[0] = c.x[car] + 40;
  pedestrian.vy[0] = 1.4;
  pedestrian.py[0] = point[1] - 2.6; // 1.2 m from entering the car's corridor
  const before = c.speed[car];
  cars.step(DT, pedestrian);
  assert(c.acceleration[car] < 0, "brakes for the pedestrian about to step in");
  cars.step(DT, noPedestrians());
  assert(c.speed[car] < before);
});

Deno.test("cars: the same seed gives the same run, another seed another", () => {
  const city = generateProceduralCity({ blocksX: 3, blocksY: 3 });
  const network = buildLaneNetwork(city);
  const lights = buildTrafficLights(network, city, { seed: 2 });
  const run = (seed: number) => {
    const cars = new CarSystem(network, { lights, seed });
    cars.populate(300);
    for (let k = 0; k < 600; k++) cars.step(DT);
    const c = cars.cars;
    return [c.link, c.s, c.speed, c.x, c.y, c.destination, c.trip].map((a) => [...a]);
  };
  const a = run(7), b = run(7), other = run(8);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, other);
});

Deno.test("cars: in a busy city nobody overlaps, runs a red light or stops inside a junction for long", () => {
  const city = generateProceduralCity({ blocksX: 4, blocksY: 4 });
  const network = buildLaneNetwork(city);
  const lights = buildTrafficLights(network, city, { seed: 3 });
  const cars = new CarSystem(network, { lights, seed: 3 });
  assert.equal(cars.populate(400), 400);
  const c = cars.cars;
  const waitingInside = new Float64Array(c.count);
  let longest = 0;
  for (let k = 0; k < 1200; k++) {
    cars.step(DT);
    for (let i = 0; i < c.count; i++) {
      const inside = network.kind[c.link[i]] === LinkKind.connector && c.speed[i] < 0.1;
      waitingInside[i] = inside ? waitingInside[i] + DT : 0;
      longest = Math.max(longest, waitingInside[i]);
    }
    if (k % 5 !== 0) continue;
    // Cars one behind the other on a link never overlap.
    const byLink = new Map<number, number[]>();
    for (let i = 0; i < c.count; i++) {
      const list = byLink.get(c.link[i]) ?? [];
      list.push(i);
      byLink.set(c.link[i], list);
    }
    for (const list of byLink.values()) {
      list.sort((x, y) => c.s[x] - c.s[y]);
      for (let q = 1; q < list.length; q++) {
        const gap = c.s[list[q]] - c.length[list[q]] - c.s[list[q - 1]];
        assert(gap > 0, `cars ${list[q - 1]} and ${list[q]} overlap at t = ${cars.time}`);
      }
    }
  }
  assert.equal(cars.stats.redLightRuns, 0);
  assert.equal(cars.stats.hardStops, 0);
  assert(longest < 5, `a car stood in a junction for ${longest} s`);
  assert(cars.stats.arrivals > 10, `${cars.stats.arrivals} arrivals in a minute`);
});

Deno.test("cars: a pedestrian about to cross a street sees every car that can reach the crosswalk", () => {
  const city = crossroads();
  const network = buildLaneNetwork(city);
  const lights = buildTrafficLights(network, city, { offsets: "zero" });
  const cars = new CarSystem(network, { lights, desiredSpeedSpread: 0 });
  const eastOut = laneOf(network, 0, true), eastIn = laneOf(network, 0, false);
  const south = laneOf(network, 3, false), west = laneOf(network, 1, false);
  const north = laneOf(network, 2, true);
  const a = cars.addCar({ lane: eastOut, s: 100, destination: eastIn });
  const b = cars.addCar({ lane: eastIn, s: 50, destination: west });
  // Coming from the south and turning east onto the street: its light is red for 25 s.
  const c = cars.addCar({ lane: south, s: network.length[south] - 30, destination: eastOut });
  // Coming from the west and going north: never on this street.
  cars.addCar({ lane: west, s: 200, destination: north });
  const out = new CarApproaches();
  assert.equal(cars.approachingCars({ edge: 0, x: 250, y: 0, width: 3 }, out), 3);
  assert.deepEqual([...out.car.subarray(0, 3)], [a, b, c]);
  // The eastbound lane starts 4 m from the junction's centre (half the 7 m road + 0.5 m);
  // the westbound one 1 m before the dead end at x = 500.
  assert(Math.abs(out.distance[0] - (250 - 4 - 1.5 - 100)) < 1e-9);
  assert(Math.abs(out.distance[1] - (499 - 250 - 1.5 - 50)) < 1e-9);
  // The turning car counts from its stop line, held until its green at 25 s.
  const turn = movement(network, south, eastOut);
  assert(Math.abs(out.distance[2] - (network.length[turn] + 250 - 4 - 1.5)) < 1e-9);
  assert.equal(out.holdTime[2], 25);
  assert.deepEqual([...out.maxSpeed.subarray(0, 3)], [13.9, 13.9, 13.9]);
  assert.throws(
    () => cars.approachingCars({ edge: 9, x: 0, y: 0, width: 3 }, out),
    /'edge' must be a street edge/,
  );
});

Deno.test("cars: approaching a crosswalk over several short links counts up to 60 m along the route", () => {
  // A street cut into 20 m pieces (maps split streets at every footway node), the crosswalk
  // 10 m into the last, long piece.
  const xs = [0, 20, 40, 60, 80, 100, 300];
  const city = streetCity(
    xs.map((x): [number, number] => [x, 0]),
    xs.slice(1).map((_, k) => ({ from: k, to: k + 1 })),
  );
  const network = buildLaneNetwork(city);
  const cars = new CarSystem(network, { desiredSpeedSpread: 0 });
  const last = laneOf(network, 5, true);
  const near = cars.addCar({ lane: laneOf(network, 2, true), s: 10, destination: last });
  const far = cars.addCar({ lane: laneOf(network, 1, true), s: 5, destination: last });
  cars.addCar({ lane: laneOf(network, 0, true), s: 5, destination: last });
  const on = cars.addCar({ lane: last, s: 2, destination: last });
  const out = new CarApproaches();
  const n = cars.approachingCars({ edge: 5, x: 110, y: 0, width: 3 }, out);
  const listed = [...out.car.subarray(0, n)];
  assert.deepEqual(listed, [near, on], `listed ${listed}`);
  // Three links from the crosswalk's near edge (108.5 m), its front at about 50 m.
  assert(out.distance[0] > 50 && out.distance[0] < 60, `${out.distance[0]} m`);
  // The one 25 m further back, two pieces before, is farther than 60 m along its route.
  assert(!listed.includes(far));
});

Deno.test("cars: a car's body follows its path through junctions, short links included: its rear never jumps", () => {
  // Two crossroads 6 m apart (a lane shorter than a car between them), and a procedural city.
  const twin = streetCity(
    [[0, 0], [6, 0], [-300, 0], [306, 0], [0, 300], [0, -300], [6, 300], [6, -300]],
    [
      { from: 0, to: 1 },
      { from: 2, to: 0 },
      { from: 1, to: 3 },
      { from: 0, to: 4 },
      { from: 0, to: 5 },
      { from: 1, to: 6 },
      { from: 1, to: 7 },
    ],
  );
  for (
    const [name, city, count] of [
      ["twin crossroads", twin, 60],
      ["procedural city", generateProceduralCity({ blocksX: 3, blocksY: 3 }), 300],
    ] as const
  ) {
    const network = buildLaneNetwork(city);
    const cars = new CarSystem(network, { seed: 5 });
    cars.populate(count);
    const c = cars.cars, n = c.count;
    // Where each front has been since the car's trip began: odometer (m), x, y.
    const trails: number[][] = Array.from({ length: n }, () => []);
    const trip = Array.from({ length: n }, (_, i) => c.trip[i]);
    let checked = 0, turning = 0, worst = 0, where = "";
    for (let k = 0; k < 1200; k++) {
      cars.step(DT);
      for (let i = 0; i < n; i++) {
        const fx = c.x[i] + c.dirX[i] * c.length[i] / 2, fy = c.y[i] + c.dirY[i] * c.length[i] / 2;
        if (c.trip[i] !== trip[i]) {
          trip[i] = c.trip[i]; // moved after being stuck: a new trail
          trails[i] = [];
        }
        const trail = trails[i], odo = c.odometer[i];
        if (trail.length === 0 || odo > trail[trail.length - 3]) trail.push(odo, fx, fy);
        // The rear: where the front was a car length ago (once the trail is that long).
        const back = odo - c.length[i];
        if (trail.length < 6 || trail[0] > back) continue;
        let j = 0;
        while (trail[j + 3] < back) j += 3;
        const t = (back - trail[j]) / (trail[j + 3] - trail[j]);
        const rx = trail[j + 1] + t * (trail[j + 4] - trail[j + 1]);
        const ry = trail[j + 2] + t * (trail[j + 5] - trail[j + 2]);
        const chord = Math.hypot(fx - rx, fy - ry);
        if (chord < 0.5 * c.length[i]) continue;
        // The body lies along the chord from that rear point to the front.
        const error = Math.acos(
          Math.min(1, ((fx - rx) * c.dirX[i] + (fy - ry) * c.dirY[i]) / chord),
        ) * 180 / Math.PI;
        checked++;
        if (network.kind[c.link[i]] === LinkKind.connector) turning++;
        if (error > worst) {
          worst = error;
          where = `car ${i} on link ${c.link[i]} at s = ${c.s[i].toFixed(2)}, t = ${
            cars.time.toFixed(2)
          }`;
        }
      }
    }
    assert.ok(turning > 1000, `${name}: ${turning} of ${checked} car-steps in junctions`);
    assert.ok(worst < 2, `${name}: a body ${worst.toFixed(1)}° off its path (${where})`);
  }
});

Deno.test("cars: a car slows before a turn to the speed its curve allows, and crosses straight on at speed", () => {
  const network = buildLaneNetwork(crossroads());
  const fromWest = laneOf(network, 1, false);
  // The circle through three consecutive points of a connector's curve, at its tightest.
  const radiusOf = (link: number) => {
    let r = Infinity;
    for (let p = network.pointStart[link] + 1; p < network.pointStart[link + 1] - 1; p++) {
      const a = [network.px[p - 1], network.py[p - 1]], b = [network.px[p], network.py[p]];
      const c = [network.px[p + 1], network.py[p + 1]];
      const ab = Math.hypot(a[0] - b[0], a[1] - b[1]), bc = Math.hypot(b[0] - c[0], b[1] - c[1]);
      const ca = Math.hypot(c[0] - a[0], c[1] - a[1]);
      const area2 = Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
      if (area2 > 1e-12) r = Math.min(r, ab * bc * ca / (2 * area2));
    }
    return r;
  };
  for (
    const [turn, edge] of [["right", 3], ["left", 2], ["straight", 0]] as const
  ) {
    const cars = new CarSystem(network, { turnAcceleration: 3 });
    const destination = laneOf(network, edge, true);
    const car = cars.addCar({
      lane: fromWest,
      s: network.length[fromWest] - 150,
      speed: 13,
      desiredSpeed: 13.9,
      destination,
    });
    const connector = movement(network, fromWest, destination), c = cars.cars;
    let fastest = 0, steps = 0;
    for (let k = 0; k < 1200 && cars.stats.arrivals === 0 && c.link[car] !== destination; k++) {
      cars.step(DT);
      if (c.link[car] === connector) {
        fastest = Math.max(fastest, c.speed[car]);
        steps++;
      }
    }
    assert.ok(steps > 0, `${turn}: the car never drove the connector`);
    const allowed = Math.sqrt(3 * radiusOf(connector));
    if (turn === "straight") {
      assert.equal(allowed, Infinity);
      assert.ok(fastest > 12, `${turn}: ${fastest.toFixed(1)} m/s across`);
    } else {
      // Radius 3–12 m here: 3–6 m/s, against 13 m/s without the rule.
      assert.ok(allowed < 7, `${turn}: ${allowed.toFixed(1)} m/s allowed`);
      assert.ok(
        fastest <= allowed + 0.1,
        `${turn}: ${fastest.toFixed(2)} m/s, allowed ${allowed.toFixed(2)}`,
      );
      assert.ok(
        fastest > 0.8 * allowed,
        `${turn}: ${fastest.toFixed(2)} m/s, allowed ${allowed.toFixed(2)}`,
      );
    }
  }
});

Deno.test("cars: a turning car's sweep covers where its body goes within the pedestrians' horizon", () => {
  const network = buildLaneNetwork(generateProceduralCity({ blocksX: 3, blocksY: 3 }));
  const cars = new CarSystem(network, { seed: 9 });
  cars.populate(300);
  const c = cars.cars, n = c.count, steps = 1200, ahead = Math.round(VEHICLE_HORIZON / DT);
  // Per step and car: x, y, dirX, dirY, speed, sweep, odometer, trip.
  const log = new Float64Array(steps * n * 8);
  for (let k = 0; k < steps; k++) {
    cars.step(DT);
    for (let i = 0; i < n; i++) {
      log.set(
        [c.x[i], c.y[i], c.dirX[i], c.dirY[i], c.speed[i], c.sweep[i], c.odometer[i], c.trip[i]],
        (k * n + i) * 8,
      );
    }
  }
  let checked = 0, turning = 0, worst = -Infinity, where = "";
  for (let k = 0; k + ahead < steps; k++) {
    for (let i = 0; i < n; i++) {
      const b = (k * n + i) * 8, v = log[b + 4], sweep = log[b + 5];
      // Slow enough to drive at most its own length within the horizon: its sweep covers all of it.
      if (!(v > 0.5 && v * VEHICLE_HORIZON <= c.length[i])) continue;
      const hl = c.length[i] / 2, hw = c.width[i] / 2, ex = log[b + 2], ey = log[b + 3];
      if (sweep > 0.3) turning++;
      for (let q = 1; q <= 3; q++) {
        const m = (ahead * q) / 3, e = ((k + m) * n + i) * 8;
        if (log[e + 7] !== log[b + 7]) break; // moved elsewhere after being stuck
        // Where the body is against the rectangle carried straight on at its speed; the gap
        // between the distance driven and speed × time (`slip`) is allowed on top.
        const t = m * DT, slip = Math.abs(log[e + 6] - log[b + 6] - v * t);
        const ox = log[e] - (log[b] + ex * v * t), oy = log[e + 1] - (log[b + 1] + ey * v * t);
        const u = Math.abs(ox * ex + oy * ey), w = Math.abs(oy * ex - ox * ey);
        const cu = Math.abs(log[e + 2] * ex + log[e + 3] * ey);
        const cw = Math.abs(log[e + 3] * ex - log[e + 2] * ey);
        // Driving `slip` further along a curve turns the body too: its ends move up to twice
        // as far.
        const beyond = Math.max(u + hl * cu + hw * cw - hl, w + hl * cw + hw * cu - hw) - sweep -
          2 * slip;
        checked++;
        if (beyond > worst) {
          worst = beyond;
          where = `car ${i}, t = ${(k * DT).toFixed(2)} s + ${t} s, sweep ${sweep.toFixed(2)} m`;
        }
      }
    }
  }
  assert.ok(turning > 2000, `${turning} car-steps with a sweep over 0.3 m`);
  assert.ok(checked > 100_000, `${checked} checks`);
  assert.ok(worst < 0.02, `a body ${worst.toFixed(3)} m beyond its sweep (${where})`);
});

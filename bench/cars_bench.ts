/**
 * Car benchmarks on the default procedural city (6 × 6 blocks of 100 m, four-lane streets,
 * 45 signalled junctions): one `CarSystem.step` for 2,000 cars, without pedestrians and braking
 * for 10,000; the traffic lights alone; and, as an estimate of the `city-grid` step before cars
 * are wired into the world, a world step of 10,000 pedestrians with `repulsion` plus the car step.
 *
 * Cars are placed at random and driven for 30 s before timing, so queues have formed at the
 * lights. Pedestrians stand on the sidewalks, 2 % of them on crosswalks walking across, and walk
 * along their sidewalk to a point 40 m on (the world is stepped only in the last case).
 *
 * The summary printed at the end gives the milliseconds per step of each car phase.
 *
 * Target (one thread): the whole `city-grid` step with 10,000 pedestrians and 2,000 cars under
 * 15 ms with `repulsion`, cars a small part of it.
 *
 * Run with `deno bench -A bench/cars_bench.ts`.
 *
 * @module
 */
import { Rng } from "../core/rng.ts";
import { World } from "../core/world.ts";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { createRepulsionStrategy } from "../strategies/repulsion.ts";
import { buildLaneNetwork } from "../traffic/lane_network.ts";
import { buildTrafficLights } from "../traffic/traffic_lights.ts";
import { CAR_PHASES, CarSystem } from "../traffic/car_system.ts";

const DT = 0.05;
const CARS = 2000;
const PEDESTRIANS = 10_000;
const WARMUP_STEPS = 600;

const city = generateProceduralCity();
const network = buildLaneNetwork(city);
const lights = buildTrafficLights(network, city);

/** Phase times (ms) at the end of each system's warm-up, to report the timed steps only. */
const warmedUp = new Map<CarSystem, Record<string, number>>();

function makeCars(): CarSystem {
  const cars = new CarSystem(network, { lights, seed: 1 });
  if (cars.populate(CARS) !== CARS) throw new Error(`could not place ${CARS} cars`);
  for (let k = 0; k < WARMUP_STEPS; k++) cars.step(DT);
  warmedUp.set(cars, { ...cars.phaseMs });
  return cars;
}

/** 10,000 pedestrians on the sidewalks and crosswalks, buildings as obstacles. */
function makeWorld(): World {
  const world = new World({
    strategy: createRepulsionStrategy(),
    navigator: createGoalSeeker(),
    capacity: PEDESTRIANS,
    dt: DT,
  });
  for (const b of city.buildings) world.obstacles.addPolygon(b.polygon[0]);
  for (const f of city.furniture) world.obstacles.addPolygon(f.polygon);
  const rng = new Rng(7);
  for (let i = 0; i < PEDESTRIANS; i++) {
    const speed = Math.min(2, Math.max(0.5, rng.normal(1.34, 0.26)));
    if (rng.chance(0.02)) {
      // On a crosswalk, walking across.
      const c = city.crossings[rng.int(city.crossings.length)];
      const [[ax, ay], [bx, by]] = c.points;
      const t = rng.next(), along = rng.range(-1, 1);
      const nx = -(by - ay) / 14, ny = (bx - ax) / 14;
      const x = ax + t * (bx - ax) + nx * along, y = ay + t * (by - ay) + ny * along;
      world.addAgent({ x, y, goalX: bx + nx * along, goalY: by + ny * along, desiredSpeed: speed });
      continue;
    }
    // On a sidewalk, walking along it.
    const s = city.sidewalks[rng.int(city.sidewalks.length)];
    const [[ax, ay], [bx, by]] = s.points;
    const len = Math.hypot(bx - ax, by - ay), ux = (bx - ax) / len, uy = (by - ay) / len;
    const at = rng.range(10, len - 50), off = rng.range(-0.4, 0.4) * s.width;
    const x = ax + ux * at - uy * off, y = ay + uy * at + ux * off;
    world.addAgent({ x, y, goalX: x + ux * 40, goalY: y + uy * 40, desiredSpeed: speed });
  }
  world.prepare();
  return world;
}

const alone = makeCars();
Deno.bench({
  name: `car step, ${CARS} cars, no pedestrians`,
  group: "cars",
  baseline: true,
  fn() {
    alone.step(DT);
  },
});

const world = makeWorld();
const braking = makeCars();
Deno.bench({
  name: `car step, ${CARS} cars braking for ${PEDESTRIANS / 1000}k pedestrians`,
  group: "cars",
  fn() {
    braking.step(DT, world.agents);
  },
});

const stages = new Int32Array(lights.junctionCount);
let time = 0, sink = 0;
Deno.bench({
  name:
    `traffic lights: ${lights.junctionCount} junctions, colour of all ${network.connectorCount} movements`,
  group: "lights",
  fn() {
    time += DT;
    lights.stagesAt(time, stages);
    for (let c = network.laneCount; c < network.linkCount; c++) {
      const j = lights.movementJunction[c];
      sink += j < 0 ? 0 : lights.colorInStage(c, stages[j]);
    }
  },
});

const cityWorld = makeWorld();
const cityCars = makeCars();
Deno.bench({
  name: `city step estimate: ${PEDESTRIANS / 1000}k pedestrians (repulsion) + ${CARS} cars`,
  group: "city",
  fn() {
    cityWorld.step();
    cityCars.step(DT, cityWorld.agents);
  },
});

globalThis.addEventListener("unload", () => {
  const cases = [
    ["no pedestrians", alone],
    ["braking for 10k pedestrians", braking],
    ["in the city step", cityCars],
  ] as const;
  for (const [name, cars] of cases) {
    const steps = cars.stepIndex - WARMUP_STEPS, before = warmedUp.get(cars)!;
    if (steps <= 0) continue;
    let total = 0;
    const split = CAR_PHASES.map((p) => {
      const ms = (cars.phaseMs[p] - before[p]) / steps;
      total += ms;
      return `${p} ${ms.toFixed(3)}`;
    });
    console.log(`car step ${name}: ${total.toFixed(3)} ms/step = ${split.join(" + ")}`);
  }
  if (sink < 0) console.log(sink);
});

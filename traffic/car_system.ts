/**
 * Cars driving on a {@linkcode LaneNetwork}: car following with the Intelligent Driver Model,
 * traffic lights, junctions they never block, pedestrians they brake for, and the three layers
 * against gridlock of F. Gennari's procedural city (Procedural City: Pedestrian Updates +
 * Navigation, 3DWorld blog, 2019).
 *
 * Each {@linkcode CarSystem.step} runs named phases, timed in {@linkcode CarSystem.phaseMs}:
 *
 * 0. **lights** — every junction's light is read once for the step (a pure function of time);
 * 1. **index** — cars are sorted by link and position (a counting sort from last step's order,
 *    which is nearly sorted already), and the room taken on each lane is summed;
 * 2. **pedestrians** — pedestrians on or stepping onto a link become stopping points on it;
 * 3. **decide** — lane by lane, front car first, each car near its stop line decides whether to
 *    cross the junction ahead. It goes only when (a) its light will still be green or yellow when
 *    it reaches the line — a light about to turn red, or yellow, stops it if it can stop at
 *    `yellowDeceleration`, and a red one always unless even `maxDeceleration` cannot; (b) the lane
 *    after the junction has room for it, counting every car already on it and every car committed
 *    to it (so it never stops inside the junction: gridlock layer 1); (c) no car holds a movement
 *    that crosses or merges with its own; and (d) every car ahead on its lane has gone. Going, it
 *    *commits*: it reserves its movement (released when its rear leaves the junction) and its
 *    room on the next lane. A car kept at a green light for `blockedPatience` seconds takes
 *    another way out of the junction that is free, re-planning its route (and, with probability
 *    `newDestinationChance`, picking a new destination): gridlock layer 2;
 * 4. **drive** — every car's acceleration comes from the frozen state: IDM towards its desired
 *    speed, no faster than its turns allow (a connector's speed is √(a·R) for its tightest
 *    radius R at `turnAcceleration` a, and a car braking for the next one starts at the
 *    comfortable deceleration), behind the nearest car on its path (the next car on its link,
 *    cars on a sibling connector still beside the start of its own, else the first car on the
 *    next links of its route), behind its stop line when it has not committed, and behind the
 *    nearest pedestrian on its path (for a turn, including those on the side its body cuts
 *    across). Then all cars move (ballistic update) and cross into their next link;
 * 5. **gridlock** — a car that has not moved `stuckDistance` in `stuckTimeout` seconds, time
 *    spent waiting at a red light not counted, is moved to a free lane elsewhere with a new
 *    destination (gridlock layer 3), as is a car that reaches a lane with no way on;
 * 6. **poses** — centres and headings for drawing and for pedestrians, and a grid over them: a
 *    car's body spans the chord from its rear, a car length back along the links it came by,
 *    to its front.
 *
 * Cars pick a random destination lane and follow the shortest route ({@linkcode CarRouter});
 * arriving, they pick the next. Everything runs in a fixed order from a seeded random stream, so
 * the same seed gives the same run, and nothing is allocated per step once buffers have grown
 * (they grow only for more pedestrians on the roads than ever before).
 *
 * @module
 */
import { AgentGrid } from "../core/agent_grid.ts";
import { hypot2 } from "../core/geometry.ts";
import { VEHICLE_HORIZON } from "../core/vehicles.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import { Rng } from "../core/rng.ts";
import type { CarApproaches } from "./car_approaches.ts";
import { CarFlags, CarStore } from "./car_store.ts";
import { CarRouter } from "./car_router.ts";
import {
  ballisticDistance,
  brakingDistance,
  IDM_OPTIONS,
  type IdmOptions,
  IntelligentDriver,
} from "./idm.ts";
import { type LaneNetwork, LinkKind } from "./lane_network.ts";
import { PedestrianObstacles, type PedestrianView } from "./_pedestrian_obstacles.ts";
import { SignalColor } from "./signal_cycle.ts";
import type { TrafficLights } from "./traffic_lights.ts";

export type { PedestrianView } from "./_pedestrian_obstacles.ts";

/** Model-wide parameters of a {@linkcode CarSystem}: the IDM's and the cars'. */
export interface CarSystemOptions extends IdmOptions {
  /** Seed of the car system's random stream. @default 1 */
  seed: number;
  /** Mean desired speed v0 (m/s). @default 13.9 */
  desiredSpeed: number;
  /** Each car's v0 is the mean times a uniform factor in [1 − spread, 1 + spread]. @default 0.1 */
  desiredSpeedSpread: number;
  /** Car length, bumper to bumper (m). @default 4.5 */
  carLength: number;
  /** Car width (m). @default 1.8 */
  carWidth: number;
  /** At yellow, a car stops when it can at this deceleration (m/s²). @default 3 */
  yellowDeceleration: number;
  /** Sideways acceleration a car accepts in a turn (m/s²): it slows to √(a·R) before a curve of radius R. @default 3 */
  turnAcceleration: number;
  /** Pedestrians' positions are predicted this far ahead (s). @default 1 */
  pedestrianLookahead: number;
  /** Lateral margin beside a car within which a pedestrian is on its path (m). @default 0.3 */
  pedestrianMargin: number;
  /** Seconds at a green light without room before a car takes another way (layer 2). @default 10 */
  blockedPatience: number;
  /** Chance that a car taking another way also picks a new destination. @default 0.25 */
  newDestinationChance: number;
  /** Seconds without moving before a car is moved elsewhere (layer 3). @default 60 */
  stuckTimeout: number;
  /** A car that moves this far (m) is not stuck. @default 1 */
  stuckDistance: number;
  /** Most connectors of a route stored per car; longer routes are re-planned on the way. @default 64 */
  routeCapacity: number;
  /** Cars and pedestrians further ahead than this (m) are not looked for. @default 150 */
  lookahead: number;
  /** Cell size of the grid over car centres (m). @default 10 */
  gridCellSize: number;
}

/** Descriptors of {@linkcode CarSystemOptions}. */
export const CAR_SYSTEM_OPTIONS: OptionSpecs<CarSystemOptions> = {
  ...IDM_OPTIONS,
  seed: {
    type: "number",
    default: 1,
    min: 0,
    max: 0xffff_ffff,
    integer: true,
    doc: "seed of the car system's random stream",
  },
  desiredSpeed: {
    type: "number",
    default: 13.9,
    min: 0.5,
    max: 70,
    unit: "m/s",
    doc: "v0: mean speed on a free road (13.9 m/s = 50 km/h)",
  },
  desiredSpeedSpread: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 0.9,
    doc: "each car's v0 is the mean times a uniform factor in [1 − spread, 1 + spread]",
  },
  carLength: { type: "number", default: 4.5, min: 1, max: 30, unit: "m", doc: "car length" },
  carWidth: { type: "number", default: 1.8, min: 0.5, max: 4, unit: "m", doc: "car width" },
  yellowDeceleration: {
    type: "number",
    default: 3,
    min: 0.1,
    max: 20,
    unit: "m/s²",
    doc: "at yellow, a car stops when it can at this deceleration; larger stops more cars",
  },
  turnAcceleration: {
    type: "number",
    default: 3,
    min: 0.1,
    max: 20,
    unit: "m/s²",
    doc: "sideways acceleration a car accepts in a turn: it slows to √(a·R) before a curve of " +
      "radius R (side friction 0.3 of low-speed turning roadways, AASHTO 2011)",
  },
  pedestrianLookahead: {
    type: "number",
    default: 1,
    min: 0,
    max: 10,
    unit: "s",
    doc: "pedestrians' positions are predicted this far ahead; larger brakes earlier and more",
  },
  pedestrianMargin: {
    type: "number",
    default: 0.3,
    min: 0,
    max: 5,
    unit: "m",
    doc: "lateral margin beside a car within which a pedestrian is on its path",
  },
  blockedPatience: {
    type: "number",
    default: 10,
    min: 0,
    max: 3600,
    unit: "s",
    doc: "seconds at a green light without room before a car takes another way (layer 2)",
  },
  newDestinationChance: {
    type: "number",
    default: 0.25,
    min: 0,
    max: 1,
    doc: "chance that a car taking another way also picks a new destination",
  },
  stuckTimeout: {
    type: "number",
    default: 60,
    min: 1,
    max: 86400,
    unit: "s",
    doc: "seconds without moving (red lights not counted) before a car is moved elsewhere",
  },
  stuckDistance: {
    type: "number",
    default: 1,
    min: 0.01,
    max: 100,
    unit: "m",
    doc: "a car that moves this far is not stuck",
  },
  routeCapacity: {
    type: "number",
    default: 64,
    min: 1,
    max: 100000,
    integer: true,
    doc: "connectors of a route stored per car; longer routes are re-planned on the way",
  },
  lookahead: {
    type: "number",
    default: 150,
    min: 10,
    max: 10000,
    unit: "m",
    doc: "cars and pedestrians further ahead are not looked for; longer is slower",
  },
  gridCellSize: {
    type: "number",
    default: 10,
    min: 1,
    max: 1000,
    unit: "m",
    doc: "cell size of the grid over car centres",
  },
};

/** What a {@linkcode CarSystem} is built with besides its model options. */
export interface CarSystemInit extends Partial<CarSystemOptions> {
  /** Traffic lights; without them every movement is always green. */
  lights?: TrafficLights;
  /** Most cars the system holds. @default 4096 */
  capacity?: number;
}

/** Where and how to place one car with {@linkcode CarSystem.addCar}. */
export interface CarInit {
  /** A lane (not a connector). */
  lane: number;
  /** Distance of the front bumper from the lane's start (m). */
  s: number;
  /** Initial speed (m/s). @default 0 */
  speed?: number;
  /** v0 (m/s). @default the system's desiredSpeed */
  desiredSpeed?: number;
  /** Length (m). @default the system's carLength */
  length?: number;
  /** Width (m). @default the system's carWidth */
  width?: number;
  /** Destination lane. @default a random lane */
  destination?: number;
}

/** Where a pedestrian means to cross, for {@linkcode CarSystem.approachingCars}. */
export interface CrosswalkSpot {
  /** The street edge crossed. */
  readonly edge: number;
  /** Centre of the crossing (m). */
  readonly x: number;
  /** Centre of the crossing (m). */
  readonly y: number;
  /** Width of the crossing along the street (m). */
  readonly width: number;
}

/** Counts of what happened, since the system was built. */
export interface CarStats {
  /** Cars that reached their destination lane. */
  arrivals: number;
  /** Times a car took another way out of a junction it waited at (layer 2). */
  reroutes: number;
  /** Cars moved elsewhere after being stuck or reaching a dead end (layer 3). */
  respawns: number;
  /** Cars that crossed a stop line at red because they could not stop. */
  redLightRuns: number;
  /** Cars held at their stop line because they reached it without a reservation. */
  hardStops: number;
}

/** Names of the car step phases, in execution order. */
export const CAR_PHASES = [
  "lights",
  "index",
  "pedestrians",
  "decide",
  "drive",
  "gridlock",
  "poses",
] as const;

/** A car step phase. */
export type CarPhase = typeof CAR_PHASES[number];

/** Extra distance (m) beyond its IDM stopping distance at which a car decides at a line. */
const DECISION_MARGIN = 5;
/** Cars further along their route from a crosswalk than this (m) do not approach it. */
const APPROACH_REACH = 60;
/** A car waiting for its light stops this far (m) short of the line. */
const STOP_LINE_SLACK = 0.5;
/** Free lanes tried when moving a stuck car. */
const RESPAWN_TRIES = 32;
/**
 * A car moved elsewhere stands this far (m) past the start of its new lane, where the crosswalk
 * of the junction behind ends.
 */
const RESPAWN_CLEARANCE = 2;
/** ... and with nobody on foot within this distance (m) of its rectangle. */
const RESPAWN_PEDESTRIAN_GAP = 0.5;
/** Attempts at a reachable random destination before the car wanders. */
const DESTINATION_TRIES = 8;
/** Cars stand this much further apart than their minimum gap when placed (m). */
const PLACEMENT_SLACK = 3;
/** Links a car's rear is followed back over (short lanes between close junctions). */
const REAR_TRAIL = 4;
/** Times within the pedestrians' horizon at which a car's body is placed to measure its sweep. */
const SWEEP_SAMPLES = 3;
/** Links followed ahead of a car's front for its sweep (its next connector, the lane after it, the next). */
const SWEEP_LINKS = 3;

/**
 * Cars on a lane network (see the module doc).
 *
 * @example Cars driving around a small procedural city
 * ```ts
 * import { buildLaneNetwork, buildTrafficLights, CarSystem } from "./mod.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const network = buildLaneNetwork(city);
 * const cars = new CarSystem(network, { lights: buildTrafficLights(network, city), seed: 3 });
 * assert.equal(cars.populate(40), 40);
 * for (let k = 0; k < 200; k++) cars.step(0.05);
 * assert(Math.abs(cars.time - 10) < 1e-9);
 * assert(cars.cars.speed.some((v) => v > 1)); // someone is driving
 * ```
 */
export class CarSystem {
  /** The lanes. */
  readonly network: LaneNetwork;
  /** The lights, if any. */
  readonly lights: TrafficLights | undefined;
  /** Car columns. */
  readonly cars: CarStore;
  /** The car-following model. */
  readonly idm: IntelligentDriver;
  /** Validated options. */
  readonly options: Readonly<CarSystemOptions>;
  /** Grid over car centres, rebuilt after every step (for pedestrians' queries). */
  readonly grid: AgentGrid;
  /** Simulation time (s). */
  time = 0;
  /** Steps completed. */
  stepIndex = 0;
  /** Accumulated wall-clock milliseconds per phase. */
  readonly phaseMs: Record<CarPhase, number> = {
    lights: 0,
    index: 0,
    pedestrians: 0,
    decide: 0,
    drive: 0,
    gridlock: 0,
    poses: 0,
  };
  /** What happened so far. */
  readonly stats: CarStats = {
    arrivals: 0,
    reroutes: 0,
    respawns: 0,
    redLightRuns: 0,
    hardStops: 0,
  };

  readonly #rng: Rng;
  readonly #router: CarRouter;
  readonly #pedestrians: PedestrianObstacles;
  #hasPedestrians = false;
  /** The pedestrians of the current step, when there are any. */
  #pedestrianView: PedestrianView | null = null;
  /** Scratch point of `#clearOfPedestrians`. */
  readonly #spot = new Float64Array(4);
  /** Connectors of each car's route: car `i` owns `route[i·cap … (i+1)·cap-1]`. */
  readonly #route: Int32Array;
  readonly #routeCapacity: number;
  /** Cars sorted by link, then position along it (this step, and last step's to start from). */
  readonly #order: Int32Array;
  readonly #previousOrder: Int32Array;
  /** `order[linkStart[k] … linkStart[k+1]-1]` are the cars on link `k`, rearmost first. */
  readonly #linkStart: Int32Array;
  readonly #cursor: Int32Array;
  /** Position of each car in its link's run of `order`. */
  readonly #rank: Int32Array;
  /** Room taken on each lane by the cars on it (m: length plus minimum gap each). */
  readonly #occupied: Float64Array;
  /** Room on each lane promised to cars committed to a connector into it (m). */
  readonly #promised: Float64Array;
  /** Cars holding each connector (index `c - laneCount`). */
  readonly #holders: Int32Array;
  /** Connector a car's rear is still clearing after its front left it, or -1. */
  readonly #clearing: Int32Array;
  /** Speed (m/s) a car may drive through each link's tightest curve; Infinity when straight. */
  readonly #turnSpeed: Float64Array;
  /** Speed cap (m/s) `#turnLimit` found for the car it was last asked about. */
  #turnCap = Infinity;
  /**
   * The links each car came by, most recent first (`REAR_TRAIL` per car, -1 past the first):
   * its rear lies on them while its front is less than a car length into its link.
   */
  readonly #trail: Int32Array;
  /** Step stamp of the last respawn into each lane (one per lane and step). */
  readonly #respawnStamp: Uint32Array;
  /** Cars to move elsewhere at the end of this step. */
  readonly #respawnQueue: Int32Array;
  #respawnCount = 0;
  #leadSpeed = 0;
  readonly #point = new Float64Array(4);
  /** Scratch of the sweep: the front and the rear of a body placed ahead. */
  readonly #front = new Float64Array(4);
  readonly #rear = new Float64Array(4);
  /** Scratch: a body's unit heading. */
  readonly #heading = new Float64Array(2);
  /** Stage of each junction's cycle at the start of this step. */
  readonly #stages: Int32Array;
  /** Link marks of {@linkcode CarSystem.approachingCars}. */
  readonly #mark: Uint32Array;
  readonly #markOffset: Float64Array;
  /**
   * Lanes from which a car may be among a crosswalk's approaching cars (stamped like `#mark`),
   * and the least distance (m) from each one's end to the crosswalk over the lane graph.
   */
  readonly #feeds: Uint32Array;
  readonly #feedDistance: Float64Array;
  /** Scratch queue of lanes for the search of `#feeds`, and its length. */
  #feedQueue: Int32Array;
  #feedTail = 0;
  #markStamp = 0;

  constructor(network: LaneNetwork, init: CarSystemInit = {}) {
    const { lights, capacity = 4096, ...rest } = init;
    const o = resolveOptions("car system", CAR_SYSTEM_OPTIONS, rest);
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 1_000_000) {
      throw new RangeError(
        `Cannot create car system as 'capacity' must be an integer in [0, 1000000]: current value is ${capacity}`,
      );
    }
    if (lights && lights.movementJunction.length !== network.linkCount) {
      throw new TypeError(
        `Cannot create car system as 'lights' were built for a network of ${lights.movementJunction.length} links: this one has ${network.linkCount}`,
      );
    }
    this.network = network;
    this.lights = lights;
    this.options = o;
    this.idm = new IntelligentDriver({
      timeHeadway: o.timeHeadway,
      minimumGap: o.minimumGap,
      maxAcceleration: o.maxAcceleration,
      comfortableDeceleration: o.comfortableDeceleration,
      accelerationExponent: o.accelerationExponent,
      maxDeceleration: o.maxDeceleration,
    });
    this.cars = new CarStore(capacity);
    this.grid = new AgentGrid({ cellSize: o.gridCellSize });
    this.#rng = new Rng(o.seed);
    this.#router = new CarRouter(network);
    this.#pedestrians = new PedestrianObstacles(
      network,
      o.carWidth / 2 + o.pedestrianMargin,
      o.pedestrianLookahead,
      o.carLength,
    );
    const n = Math.max(1, capacity);
    this.#routeCapacity = o.routeCapacity;
    this.#route = new Int32Array(n * o.routeCapacity);
    this.#order = new Int32Array(n);
    this.#previousOrder = new Int32Array(n);
    this.#linkStart = new Int32Array(network.linkCount + 1);
    this.#cursor = new Int32Array(network.linkCount + 1);
    this.#rank = new Int32Array(n);
    this.#occupied = new Float64Array(network.laneCount);
    this.#promised = new Float64Array(network.laneCount);
    this.#holders = new Int32Array(Math.max(1, network.connectorCount));
    this.#clearing = new Int32Array(n).fill(-1);
    this.#turnSpeed = _turnSpeeds(network, o.turnAcceleration);
    this.#trail = new Int32Array(n * REAR_TRAIL).fill(-1);
    this.#respawnStamp = new Uint32Array(network.laneCount);
    this.#respawnQueue = new Int32Array(n);
    this.#stages = new Int32Array(Math.max(1, lights?.junctionCount ?? 0));
    this.#mark = new Uint32Array(network.linkCount);
    this.#markOffset = new Float64Array(network.linkCount);
    this.#feeds = new Uint32Array(network.linkCount);
    this.#feedDistance = new Float64Array(network.linkCount);
    this.#feedQueue = new Int32Array(64);
  }

  /** Number of cars. */
  get count(): number {
    return this.cars.count;
  }

  /**
   * Places `count` cars at random on the lanes, spaced at least their length plus the minimum
   * gap plus 3 m apart, each with a random destination. Returns how many were placed: fewer than
   * asked when the lanes (or the store's capacity) hold no more.
   */
  populate(count: number): number {
    if (!Number.isInteger(count) || count < 0) {
      throw new RangeError(
        `Cannot populate car system as 'count' must be an integer >= 0: current value is ${count}`,
      );
    }
    const net = this.network, o = this.options;
    const spacing = o.carLength + o.minimumGap + PLACEMENT_SLACK;
    const slots: number[] = [];
    for (let lane = 0; lane < net.laneCount; lane++) {
      for (let s = o.carLength; s <= net.length[lane] - STOP_LINE_SLACK; s += spacing) {
        slots.push(lane, s);
      }
    }
    const slotCount = slots.length / 2;
    const order = Int32Array.from({ length: slotCount }, (_, k) => k);
    for (let k = slotCount - 1; k > 0; k--) {
      const j = this.#rng.int(k + 1);
      [order[k], order[j]] = [order[j], order[k]];
    }
    const want = Math.min(count, slotCount, this.cars.capacity - this.cars.count);
    // Place in lane order so that no car is put down in front of one placed later.
    const chosen = [...order.subarray(0, want)].sort((a, b) => a - b);
    for (const k of chosen) this.addCar({ lane: slots[2 * k], s: slots[2 * k + 1] });
    return want;
  }

  /**
   * Adds one car between steps and returns its number. Throws a RangeError naming the field
   * when the lane, position or a size is out of range, or the store is full.
   */
  addCar(init: CarInit): number {
    const net = this.network, o = this.options, cars = this.cars;
    const fail = (field: string, rule: string, value: unknown): never => {
      throw new RangeError(
        `Cannot add car as '${field}' must be ${rule}: current value is ${value}`,
      );
    };
    if (cars.count >= cars.capacity) {
      fail("capacity", `> ${cars.count} (the store is full)`, cars.capacity);
    }
    const lane = init.lane;
    if (!Number.isInteger(lane) || lane < 0 || lane >= net.laneCount) {
      fail("lane", `a lane number in [0, ${net.laneCount})`, lane);
    }
    if (!(init.s >= 0 && init.s <= net.length[lane])) {
      fail("s", `in [0, ${net.length[lane]}] (the lane's length)`, init.s);
    }
    const speed = init.speed ?? 0, v0 = init.desiredSpeed ?? this.#randomDesiredSpeed();
    const length = init.length ?? o.carLength, width = init.width ?? o.carWidth;
    if (!(speed >= 0 && Number.isFinite(speed))) fail("speed", "a finite number >= 0", speed);
    if (!(v0 > 0 && Number.isFinite(v0))) fail("desiredSpeed", "a finite number > 0", v0);
    if (!(length > 0 && Number.isFinite(length))) fail("length", "a finite number > 0", length);
    if (!(width > 0 && Number.isFinite(width))) fail("width", "a finite number > 0", width);
    const destination = init.destination;
    if (
      destination !== undefined &&
      (!Number.isInteger(destination) || destination < 0 || destination >= net.laneCount)
    ) {
      fail("destination", `a lane number in [0, ${net.laneCount})`, destination);
    }
    const i = cars.count++;
    cars.link[i] = lane;
    this.#forgetTrail(i);
    cars.s[i] = init.s;
    cars.speed[i] = speed;
    cars.acceleration[i] = 0;
    cars.desiredSpeed[i] = v0;
    cars.length[i] = length;
    cars.width[i] = width;
    cars.flags[i] = 0;
    cars.reserved[i] = -1;
    this.#clearing[i] = -1;
    cars.segment[i] = 0;
    cars.stuckMark[i] = cars.odometer[i] = 0;
    cars.stuckTime[i] = cars.blockedTime[i] = 0;
    this.#previousOrder[i] = i;
    if (destination === undefined) this.#newDestination(i);
    else this.setDestination(i, destination);
    this.#pose(i);
    return i;
  }

  /**
   * Sends car `car` to lane `lane` by the shortest route from where it is. Returns false (and
   * lets the car wander) when the lane cannot be reached.
   */
  setDestination(car: number, lane: number): boolean {
    this.#checkCar(car);
    if (!Number.isInteger(lane) || lane < 0 || lane >= this.network.laneCount) {
      throw new RangeError(
        `Cannot set destination as 'lane' must be a lane number in [0, ${this.network.laneCount}): current value is ${lane}`,
      );
    }
    this.cars.destination[car] = lane;
    return this.#plan(car, -1);
  }

  /** Holds car `car` where it stands (`true`), or lets it drive again (`false`). */
  setHeld(car: number, held: boolean): void {
    this.#checkCar(car);
    if (held) {
      this.cars.flags[car] |= CarFlags.held;
      this.cars.speed[car] = 0;
    } else {
      this.cars.flags[car] &= ~CarFlags.held;
    }
  }

  /** The next connector on car `car`'s route, or -1 (at a dead end, or on a connector). */
  nextConnector(car: number): number {
    const cars = this.cars;
    if (this.network.kind[cars.link[car]] !== LinkKind.lane) return -1;
    const pos = cars.routePos[car];
    if (pos >= cars.routeLength[car]) return -1;
    return this.#route[car * this.#routeCapacity + pos];
  }

  /** Advances every car by `dt` seconds, braking for `pedestrians` when given. */
  step(dt: number, pedestrians?: PedestrianView): void {
    if (!(dt > 0) || !Number.isFinite(dt)) {
      throw new RangeError(
        `Cannot step car system as 'dt' must be a finite number > 0: current value is ${dt}`,
      );
    }
    let t = performance.now();
    this.lights?.stagesAt(this.time, this.#stages);
    t = this.#lap("lights", t);
    this.#index();
    t = this.#lap("index", t);
    this.#hasPedestrians = pedestrians !== undefined && pedestrians.count > 0;
    this.#pedestrianView = this.#hasPedestrians ? pedestrians! : null;
    if (this.#hasPedestrians) this.#pedestrians.rebuild(pedestrians!);
    t = this.#lap("pedestrians", t);
    this.#decide(dt);
    t = this.#lap("decide", t);
    this.#accelerate();
    this.#move(dt);
    t = this.#lap("drive", t);
    this.#gridlock(dt);
    t = this.#lap("gridlock", t);
    this.#poses();
    this.#lap("poses", t);
    this.stepIndex++;
    this.time += dt;
  }

  /**
   * The cars a pedestrian must look at before crossing at `crosswalk` (street edge `edge`,
   * centre (`x`, `y`), `width` m along the street): cars on the edge's lanes (both directions),
   * on the connectors into them, and on the lanes before those connectors when their route leads
   * onto the edge. Distances run along each car's path to the crosswalk's near edge. A car on a
   * lane before a light that is not green is counted as standing at its stop line until the
   * light turns green (`holdTime`, from the light's future state). Writes into `out`; returns
   * the count. Costs one pass over the cars, a look-up each for most: only cars on lanes from
   * which the lane graph reaches the crosswalk within 60 m (or that lead straight into it) follow
   * their route. For events, not for every pedestrian every step.
   */
  approachingCars(crosswalk: CrosswalkSpot, out: CarApproaches): number {
    const net = this.network, cars = this.cars, lights = this.lights;
    const { edge, x, y, width } = crosswalk;
    out.count = 0;
    if (!Number.isInteger(edge) || edge < 0 || edge >= net.edgeStart.length - 1) {
      throw new RangeError(
        `Cannot find approaching cars as 'edge' must be a street edge in [0, ${
          net.edgeStart.length - 1
        }): current value is ${edge}`,
      );
    }
    const stamp = this.#nextMark();
    const mark = this.#mark, offset = this.#markOffset;
    // Offset (m) from the start of each link to the crosswalk's near edge along the link chain.
    for (let k = net.edgeStart[edge]; k < net.edgeStart[edge + 1]; k++) {
      const lane = net.edgeLinks[k];
      const band = net.project(lane, x, y) - width / 2;
      mark[lane] = stamp;
      offset[lane] = band;
      for (let j = net.inStart[lane]; j < net.inStart[lane + 1]; j++) {
        const c = net.inLinks[j];
        mark[c] = stamp;
        offset[c] = net.length[c] + band;
      }
    }
    this.#markFeeds(edge, stamp);
    const feeds = this.#feeds;
    for (let i = 0; i < cars.count; i++) {
      const link = cars.link[i];
      let distance = NaN, hold = 0;
      if (mark[link] === stamp) {
        distance = offset[link] - cars.s[i];
      } else if (net.kind[link] === LinkKind.lane && feeds[link] === stamp) {
        const c = this.nextConnector(i);
        if (c < 0) continue;
        if (mark[c] !== stamp) {
          // Further back: the car's route reaches the crosswalk over short links (maps split
          // streets at every footway node).
          const far = this.#routeDistanceTo(i, mark, stamp, offset);
          if (far < APPROACH_REACH) out.push(i, far, cars.desiredSpeed[i], cars.length[i], 0);
          continue;
        }
        distance = net.length[link] - cars.s[i] + offset[c];
        const committed = (cars.flags[i] & CarFlags.committed) !== 0;
        if (lights && !committed && lights.movementColor(c, this.time) !== SignalColor.green) {
          hold = lights.timeUntilGreen(c, this.time);
          distance = offset[c];
        }
      } else {
        continue;
      }
      out.push(i, distance, cars.desiredSpeed[i], cars.length[i], hold);
    }
    return out.count;
  }

  /**
   * Writes the four corners of car `car`'s rectangle into `out` as `[x0, y0, …, x3, y3]` (m),
   * counter-clockwise from the rear right.
   */
  corners(car: number, out: Float64Array): void {
    const c = this.cars;
    const hx = c.dirX[car] * c.length[car] / 2, hy = c.dirY[car] * c.length[car] / 2;
    const wx = -c.dirY[car] * c.width[car] / 2, wy = c.dirX[car] * c.width[car] / 2;
    const x = c.x[car], y = c.y[car];
    out[0] = x - hx - wx;
    out[1] = y - hy - wy;
    out[2] = x + hx - wx;
    out[3] = y + hy - wy;
    out[4] = x + hx + wx;
    out[5] = y + hy + wy;
    out[6] = x - hx + wx;
    out[7] = y - hy + wy;
  }

  #lap(phase: CarPhase, since: number): number {
    const now = performance.now();
    this.phaseMs[phase] += now - since;
    return now;
  }

  /**
   * Stamps in `#feeds` every lane a car must be on to count as approaching the crosswalk marked
   * with `stamp` when it is on neither the crosswalk's lanes nor the connectors into them: the
   * lanes that lead into those connectors (the car's next turn may be one of them, from any
   * distance), and the lanes from whose end some path over the lane graph reaches a marked
   * connector within `APPROACH_REACH` (a car's own route is one such path, at least as long as
   * the shortest, so no car on another lane can reach the crosswalk within that distance). A
   * backward search from the marked connectors, bounded by the distance.
   */
  #markFeeds(edge: number, stamp: number): void {
    const net = this.network, mark = this.#mark, offset = this.#markOffset;
    const distance = this.#feedDistance;
    this.#feedTail = 0;
    for (let k = net.edgeStart[edge]; k < net.edgeStart[edge + 1]; k++) {
      const lane = net.edgeLinks[k];
      for (let j = net.inStart[lane]; j < net.inStart[lane + 1]; j++) {
        const c = net.inLinks[j];
        this.#feed(net.fromLane[c], offset[c], stamp);
      }
    }
    for (let head = 0; head < this.#feedTail; head++) {
      const lane = this.#feedQueue[head], d = distance[lane];
      for (let j = net.inStart[lane]; j < net.inStart[lane + 1]; j++) {
        const c = net.inLinks[j];
        if (mark[c] !== stamp) {
          this.#feed(net.fromLane[c], net.length[c] + net.length[lane] + d, stamp);
        }
      }
    }
  }

  /**
   * Stamps `lane` in `#feeds` with distance `d` (m) unless it holds a shorter one; queues it for
   * the search while `d` is within the approach reach (a hair beyond it: a route's sum may round
   * below the search's).
   */
  #feed(lane: number, d: number, stamp: number): void {
    const feeds = this.#feeds, distance = this.#feedDistance;
    if (feeds[lane] === stamp && !(d < distance[lane])) return;
    feeds[lane] = stamp;
    distance[lane] = d;
    if (!(d < APPROACH_REACH * (1 + 1e-9) + 1e-6)) return;
    if (this.#feedTail === this.#feedQueue.length) {
      const grown = new Int32Array(2 * this.#feedTail);
      grown.set(this.#feedQueue);
      this.#feedQueue = grown;
    }
    this.#feedQueue[this.#feedTail++] = lane;
  }

  #nextMark(): number {
    if (++this.#markStamp === 0xffff_ffff) {
      this.#mark.fill(0);
      this.#feeds.fill(0);
      this.#markStamp = 1;
    }
    return this.#markStamp;
  }

  #checkCar(car: number): void {
    if (!Number.isInteger(car) || car < 0 || car >= this.cars.count) {
      throw new RangeError(`No car ${car}: expected an integer in [0, ${this.cars.count})`);
    }
  }

  /** Colour of connector `c`'s light at the start of this step. */
  #color(c: number): SignalColor {
    const lights = this.lights;
    if (!lights) return SignalColor.green;
    const j = lights.movementJunction[c];
    return j < 0 ? SignalColor.green : lights.colorInStage(c, this.#stages[j]);
  }

  #randomDesiredSpeed(): number {
    const o = this.options;
    return o.desiredSpeed * (1 + o.desiredSpeedSpread * (2 * this.#rng.next() - 1));
  }

  /** Room a car takes on a lane (m). */
  #room(car: number): number {
    return this.cars.length[car] + this.idm.minimumGap;
  }

  // ---------------------------------------------------------------- index

  #index(): void {
    const cars = this.cars, n = cars.count, net = this.network;
    const link = cars.link, s = cars.s;
    const start = this.#linkStart, cursor = this.#cursor;
    start.fill(0);
    for (let i = 0; i < n; i++) start[link[i] + 1]++;
    for (let k = 0; k < net.linkCount; k++) start[k + 1] += start[k];
    cursor.set(start);
    const previous = this.#previousOrder, order = this.#order;
    for (let k = 0; k < n; k++) {
      const i = previous[k];
      order[cursor[link[i]]++] = i;
    }
    // Insertion sort by position within each link: nearly sorted already.
    for (let k = 0; k < net.linkCount; k++) {
      for (let a = start[k] + 1; a < start[k + 1]; a++) {
        const i = order[a], si = s[i];
        let b = a - 1;
        while (b >= start[k] && (s[order[b]] > si || (s[order[b]] === si && order[b] > i))) {
          order[b + 1] = order[b];
          b--;
        }
        order[b + 1] = i;
      }
    }
    const rank = this.#rank, occupied = this.#occupied;
    occupied.fill(0);
    for (let k = 0; k < net.linkCount; k++) {
      for (let a = start[k]; a < start[k + 1]; a++) {
        const i = order[a];
        rank[i] = a - start[k];
        if (k < net.laneCount) occupied[k] += this.#room(i);
      }
    }
    // Next step starts from this order.
    for (let k = 0; k < n; k++) previous[k] = order[k];
  }

  // ---------------------------------------------------------------- decide

  #decide(dt: number): void {
    const net = this.network, cars = this.cars, order = this.#order, start = this.#linkStart;
    const flags = cars.flags;
    for (let lane = 0; lane < net.laneCount; lane++) {
      // Front car first; a car may go only when every car ahead of it on the lane has.
      let aheadGone = true;
      for (let a = start[lane + 1] - 1; a >= start[lane]; a--) {
        const i = order[a];
        flags[i] &= ~(CarFlags.atLight | CarFlags.blocked);
        if ((flags[i] & CarFlags.committed) !== 0) continue;
        if ((flags[i] & CarFlags.held) !== 0 || !aheadGone) {
          aheadGone = false;
          continue;
        }
        aheadGone = this.#decideAtLine(i, lane, dt);
      }
    }
  }

  /** The decision of the front uncommitted car `i` of `lane`; true when it committed. */
  #decideAtLine(i: number, lane: number, dt: number): boolean {
    const net = this.network, cars = this.cars, idm = this.idm, o = this.options;
    const c = this.nextConnector(i);
    if (c < 0) return false;
    const d = net.length[lane] - cars.s[i], v = cars.speed[i];
    const horizon = brakingDistance(v, idm.comfortableDeceleration) + v * idm.timeHeadway +
      idm.minimumGap + DECISION_MARGIN;
    if (d > horizon) return false;
    // A car that was waiting at a green light for a gap goes on at yellow once it has one (as a
    // turning car waiting in the junction clears it at the end of the phase).
    const waited = cars.blockedTime[i] > 0 && d < idm.minimumGap + 1;
    if (!this.#lightLetsGo(c, d, v, waited) || this.#heldBeyond(i, c, d, v)) {
      cars.flags[i] |= CarFlags.atLight;
      if (this.#color(c) === SignalColor.red) cars.blockedTime[i] = 0;
      return false;
    }
    if (this.#free(c, i)) {
      this.#commit(i, c);
      return true;
    }
    cars.flags[i] |= CarFlags.blocked;
    if (d < idm.minimumGap + 1) {
      cars.blockedTime[i] += dt;
      if (cars.blockedTime[i] > o.blockedPatience && this.#takeAnotherWay(i, lane, c, d, v)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the light of connector `c` lets a car `d` m from its line at speed `v` go; `waited`:
   * it has been waiting at the line at green, and may still go at yellow.
   */
  #lightLetsGo(c: number, d: number, v: number, waited: boolean): boolean {
    const lights = this.lights;
    if (!lights) return true;
    let color = this.#color(c);
    if (color === SignalColor.green) {
      // Green now, but red before the car reaches the line counts as yellow.
      const a = this.idm.maxAcceleration;
      const arrive = v > 0.1 ? d / v : (-v + Math.sqrt(v * v + 2 * a * d)) / a;
      if (arrive <= lights.timeUntilRed(c, this.time)) return true;
      color = SignalColor.yellow;
    }
    if (color === SignalColor.yellow) {
      return waited || brakingDistance(v, this.options.yellowDeceleration) > d;
    }
    // Red: stop, unless even the hardest braking cannot.
    if (brakingDistance(v, this.idm.maxDeceleration) > d) {
      this.stats.redLightRuns++;
      return true;
    }
    return false;
  }

  /**
   * Whether a light further along car `i`'s route, past connector `c` (`d` m ahead, at speed
   * `v`) but closer than the car needs to stop comfortably, will not let it through when it gets
   * there: then it stops at `c`'s line instead of running the later red. Where signals stand a
   * few metres apart (maps put one on each crossing around a junction), the lanes between them
   * are too short to stop in. A car that can no longer stop at `c` goes on.
   */
  #heldBeyond(i: number, c: number, d: number, v: number): boolean {
    const lights = this.lights;
    if (!lights) return false;
    const net = this.network, cars = this.cars, idm = this.idm;
    if (brakingDistance(v, idm.maxDeceleration) > d) return false;
    const reach = brakingDistance(v, idm.comfortableDeceleration) + idm.minimumGap +
      cars.length[i];
    let ahead = d + net.length[c] + net.length[net.toLane[c]];
    const base = i * this.#routeCapacity, length = cars.routeLength[i];
    for (let pos = cars.routePos[i] + 1; pos < length && ahead < reach; pos++) {
      const next = this.#route[base + pos];
      if (lights.controls(next)) {
        if (this.#color(next) !== SignalColor.green) return true;
        const a = idm.maxAcceleration;
        const arrive = v > 0.1 ? ahead / v : (-v + Math.sqrt(v * v + 2 * a * ahead)) / a;
        if (arrive > lights.timeUntilRed(next, this.time)) return true;
      }
      ahead += net.length[next] + net.length[net.toLane[next]];
    }
    return false;
  }

  /**
   * Distance (m) along car `i`'s route (a car on a lane) to the first marked connector beyond
   * its next one, plus that connector's `offset`; Infinity when none is within
   * `APPROACH_REACH`.
   */
  #routeDistanceTo(i: number, mark: Uint32Array, stamp: number, offset: Float64Array): number {
    const net = this.network, cars = this.cars;
    const base = i * this.#routeCapacity, length = cars.routeLength[i];
    let pos = cars.routePos[i], c = this.#route[base + pos];
    let ahead = net.length[cars.link[i]] - cars.s[i] + net.length[c];
    for (pos++; pos < length && ahead < APPROACH_REACH; pos++) {
      ahead += net.length[net.toLane[c]];
      c = this.#route[base + pos];
      if (mark[c] === stamp) return ahead + offset[c];
      ahead += net.length[c];
    }
    return Infinity;
  }

  /** Whether connector `c` is free for car `i`: room after it, no conflicting holder. */
  #free(c: number, i: number): boolean {
    const net = this.network, exit = net.toLane[c];
    const taken = this.#occupied[exit] + this.#promised[exit];
    if (taken > 0 && taken + this.#room(i) > net.length[exit]) return false;
    const k = c - net.laneCount;
    for (let j = net.conflictStart[k]; j < net.conflictStart[k + 1]; j++) {
      if (this.#holders[net.conflicts[j] - net.laneCount] > 0) return false;
    }
    return true;
  }

  #commit(i: number, c: number): void {
    const cars = this.cars, net = this.network;
    cars.flags[i] |= CarFlags.committed;
    cars.reserved[i] = c;
    cars.blockedTime[i] = 0;
    this.#holders[c - net.laneCount]++;
    this.#promised[net.toLane[c]] += this.#room(i);
  }

  /**
   * Gridlock layer 2: car `i`, kept at its line without room for `blockedPatience`, takes another
   * free way out of the junction with a light that lets it go, re-planning from there. Returns
   * true when it found one (and committed to it).
   */
  #takeAnotherWay(i: number, lane: number, current: number, d: number, v: number): boolean {
    const net = this.network, cars = this.cars, first = net.outStart[lane];
    const count = net.outStart[lane + 1] - first;
    if (count < 2) return false;
    const offset = this.#rng.int(count);
    for (let k = 0; k < count; k++) {
      const c = net.outLinks[first + (offset + k) % count];
      if (c === current || !this.#lightLetsGo(c, d, v, true) || !this.#free(c, i)) continue;
      if (this.#rng.chance(this.options.newDestinationChance)) {
        cars.destination[i] = this.#randomLaneOtherThan(net.toLane[c]);
      }
      this.#plan(i, c);
      this.#commit(i, c);
      this.stats.reroutes++;
      return true;
    }
    return false;
  }

  // ---------------------------------------------------------------- drive

  #accelerate(): void {
    const cars = this.cars, idm = this.idm, net = this.network, n = cars.count;
    const flags = cars.flags;
    for (let i = 0; i < n; i++) {
      if ((flags[i] & CarFlags.held) !== 0) {
        cars.acceleration[i] = 0;
        continue;
      }
      const v = cars.speed[i], turnBound = this.#turnLimit(i, v);
      const v0 = Math.min(cars.desiredSpeed[i], this.#turnCap);
      let acc = Math.min(idm.acceleration(v, v0, Infinity, 0), turnBound);
      const gap = this.#leaderGap(i);
      if (gap < Infinity) acc = Math.min(acc, idm.acceleration(v, v0, gap, v - this.#leadSpeed));
      if ((flags[i] & (CarFlags.atLight | CarFlags.blocked)) !== 0) {
        const line = net.length[cars.link[i]] - cars.s[i] + idm.minimumGap - STOP_LINE_SLACK;
        acc = Math.min(acc, idm.acceleration(v, v0, line, v));
      }
      if (this.#hasPedestrians) {
        const ped = this.#pedestrianGap(i);
        if (ped < Infinity) acc = Math.min(acc, idm.acceleration(v, v0, ped, v));
      }
      cars.acceleration[i] = acc;
    }
  }

  /**
   * Keeps car `i`, at speed `v`, to the turn speed of its connector or of the next one on its
   * route. Returns an acceleration bound (m/s²): on a connector driven too fast, the
   * comfortable deceleration b; before one, the deceleration that reaches the turn speed at its
   * start, once that is b or more; else Infinity. Leaves in `#turnCap` the fastest speed (m/s)
   * for the IDM to aim at: the turn speed on a connector, before one the speed from which b
   * brakes to it by the connector's start (so the car never speeds up past what it can shed).
   */
  #turnLimit(i: number, v: number): number {
    const cars = this.cars, net = this.network, link = cars.link[i];
    const b = this.idm.comfortableDeceleration;
    if (net.kind[link] === LinkKind.connector) {
      const turn = this.#turnSpeed[link];
      this.#turnCap = turn;
      return v > turn ? -b : Infinity;
    }
    const next = this.nextConnector(i);
    if (next < 0) {
      this.#turnCap = Infinity;
      return Infinity;
    }
    const turn = this.#turnSpeed[next], left = net.length[link] - cars.s[i];
    const d = left > 0 ? left : 0;
    this.#turnCap = Math.sqrt(turn * turn + 2 * b * d);
    if (!(v > turn)) return Infinity;
    const need = (v * v - turn * turn) / (2 * (d > 0.1 ? d : 0.1));
    return need >= b ? -need : Infinity;
  }

  /**
   * Gap (m) from car `i`'s front to the rear of the nearest car on its path within `lookahead`,
   * or Infinity; the leader's speed goes to `#leadSpeed`.
   */
  #leaderGap(i: number): number {
    const cars = this.cars, net = this.network, order = this.#order, start = this.#linkStart;
    const s = cars.s, len = cars.length;
    let link = cars.link[i];
    const front = s[i];
    const a = start[link] + this.#rank[i] + 1;
    if (a < start[link + 1]) {
      const j = order[a];
      this.#leadSpeed = cars.speed[j];
      return s[j] - len[j] - front;
    }
    let best = Infinity;
    if (net.kind[link] === LinkKind.connector) best = this.#siblingGap(link, -front, front);
    let offset = net.length[link] - front;
    let cursor = cars.routePos[i];
    const base = i * this.#routeCapacity, routeLength = cars.routeLength[i];
    const lookahead = this.options.lookahead;
    while (offset < lookahead && offset < best) {
      let next: number;
      if (net.kind[link] === LinkKind.lane) {
        if (cursor >= routeLength) break;
        next = this.#route[base + cursor++];
        const sibling = this.#siblingGap(next, offset, -Infinity);
        if (sibling < best) best = sibling;
      } else {
        next = net.toLane[link];
      }
      if (start[next + 1] > start[next]) {
        const j = order[start[next]];
        const gap = offset + s[j] - len[j];
        if (gap < best) {
          best = gap;
          this.#leadSpeed = cars.speed[j];
        }
        break;
      }
      offset += net.length[next];
      link = next;
    }
    return best;
  }

  /**
   * Gap to the nearest car on a sibling of connector `c` whose rear is still where the two
   * curves run together, ahead of a front at `ownS` on `c` (-Infinity: before `c`); `offset` is
   * the distance from the asking car's front to the start of `c`. Sets `#leadSpeed` when it
   * finds one.
   */
  #siblingGap(c: number, offset: number, ownS: number): number {
    const net = this.network, cars = this.cars, order = this.#order, start = this.#linkStart;
    const k = c - net.laneCount;
    let best = Infinity;
    for (let m = net.siblingStart[k]; m < net.siblingStart[k + 1]; m++) {
      const sib = net.siblings[m], shared = net.siblingShared[m];
      for (let a = start[sib]; a < start[sib + 1]; a++) {
        const j = order[a], rear = cars.s[j] - cars.length[j];
        if (rear >= shared) break;
        if (cars.s[j] <= ownS) continue;
        const gap = offset + rear;
        if (gap < best) {
          best = gap;
          this.#leadSpeed = cars.speed[j];
        }
      }
    }
    return best;
  }

  /** Gap (m) from car `i`'s front to the nearest pedestrian on its path, or Infinity. */
  #pedestrianGap(i: number): number {
    const cars = this.cars, net = this.network, idm = this.idm, peds = this.#pedestrians;
    const v = cars.speed[i];
    const reach = Math.min(
      this.options.lookahead,
      brakingDistance(v, idm.comfortableDeceleration) + v * idm.timeHeadway + idm.minimumGap +
        DECISION_MARGIN,
    );
    let link = cars.link[i];
    const front = cars.s[i];
    // A pedestrian beside the bonnet (up to half a car width behind the front) still counts.
    const first = peds.firstFrom(link, front - cars.width[i] / 2);
    if (first < Infinity) return first - front < reach ? first - front : Infinity;
    let offset = net.length[link] - front;
    let cursor = cars.routePos[i];
    const base = i * this.#routeCapacity, routeLength = cars.routeLength[i];
    while (offset < reach) {
      let next: number;
      if (net.kind[link] === LinkKind.lane) {
        if (cursor >= routeLength) break;
        next = this.#route[base + cursor++];
      } else {
        next = net.toLane[link];
      }
      const s = peds.firstFrom(next, 0);
      if (s < Infinity) return offset + s < reach ? offset + s : Infinity;
      offset += net.length[next];
      link = next;
    }
    return Infinity;
  }

  #move(dt: number): void {
    const cars = this.cars, n = cars.count;
    for (let i = 0; i < n; i++) {
      if ((cars.flags[i] & CarFlags.held) !== 0) {
        cars.speed[i] = 0;
        continue;
      }
      const v = cars.speed[i], acc = cars.acceleration[i];
      const ds = ballisticDistance(v, acc, dt);
      const next = v + acc * dt;
      cars.speed[i] = next > 0 ? next : 0;
      cars.s[i] += ds;
      cars.odometer[i] += ds;
      this.#advance(i);
    }
  }

  /** Moves car `i` onto the next links while its front is past the end of its link. */
  #advance(i: number): void {
    const cars = this.cars, net = this.network;
    while (cars.s[i] > net.length[cars.link[i]]) {
      const link = cars.link[i], length = net.length[link];
      if (net.kind[link] === LinkKind.lane) {
        const c = cars.reserved[i];
        if ((cars.flags[i] & CarFlags.committed) === 0 || c < 0) {
          cars.s[i] = length;
          cars.speed[i] = 0;
          if (net.outStart[link + 1] === net.outStart[link]) this.#queueRespawn(i);
          else this.stats.hardStops++;
          return;
        }
        this.#releaseClearing(i);
        this.#leave(i, link);
        cars.s[i] -= length;
        cars.link[i] = c;
        cars.routePos[i]++;
        cars.segment[i] = 0;
      } else {
        const exit = net.toLane[link];
        this.#promised[exit] -= this.#room(i);
        this.#releaseClearing(i);
        this.#clearing[i] = link;
        cars.reserved[i] = -1;
        cars.flags[i] &= ~CarFlags.committed;
        this.#leave(i, link);
        cars.s[i] -= length;
        cars.link[i] = exit;
        cars.segment[i] = 0;
        if (exit === cars.destination[i]) {
          this.stats.arrivals++;
          this.#newDestination(i);
        } else if (cars.routePos[i] >= cars.routeLength[i]) {
          this.#plan(i, -1);
        }
      }
    }
    if (this.#clearing[i] >= 0 && cars.s[i] >= cars.length[i]) this.#releaseClearing(i);
  }

  #releaseClearing(i: number): void {
    const c = this.#clearing[i];
    if (c < 0) return;
    this.#holders[c - this.network.laneCount]--;
    this.#clearing[i] = -1;
  }

  // ---------------------------------------------------------------- gridlock

  #gridlock(dt: number): void {
    const cars = this.cars, o = this.options, n = cars.count;
    for (let i = 0; i < n; i++) {
      if ((cars.flags[i] & CarFlags.held) !== 0) continue;
      if (cars.odometer[i] - cars.stuckMark[i] >= o.stuckDistance) {
        cars.stuckMark[i] = cars.odometer[i];
        cars.stuckTime[i] = 0;
        continue;
      }
      // Waiting for a red light is not being stuck.
      const c = this.nextConnector(i);
      if (c >= 0 && this.#color(c) === SignalColor.red) continue;
      cars.stuckTime[i] += dt;
      if (cars.stuckTime[i] > o.stuckTimeout) this.#queueRespawn(i);
    }
    const stamp = this.stepIndex + 1;
    for (let k = 0; k < this.#respawnCount; k++) this.#respawn(this.#respawnQueue[k], stamp);
    this.#respawnCount = 0;
  }

  #queueRespawn(i: number): void {
    for (let k = 0; k < this.#respawnCount; k++) if (this.#respawnQueue[k] === i) return;
    this.#respawnQueue[this.#respawnCount++] = i;
  }

  /** Gridlock layer 3: moves car `i` to the start of a free lane, with a new destination. */
  #respawn(i: number, stamp: number): void {
    const net = this.network, cars = this.cars, order = this.#order, start = this.#linkStart;
    const room = this.#room(i);
    for (let tries = 0; tries < RESPAWN_TRIES; tries++) {
      const lane = this.#rng.int(net.laneCount);
      if (lane === cars.link[i] || this.#respawnStamp[lane] === stamp) continue;
      if (this.#promised[lane] > 0 || this.#occupied[lane] + room > net.length[lane]) continue;
      const front = cars.length[i] + RESPAWN_CLEARANCE;
      if (net.length[lane] < front) continue;
      // The start of the lane must be clear of the rearmost car (as indexed this step).
      if (start[lane + 1] > start[lane]) {
        const j = order[start[lane]];
        if (cars.link[j] === lane && cars.s[j] - cars.length[j] < front + room) continue;
      }
      if (!this.#clearOfPedestrians(lane, front, cars.length[i], cars.width[i])) continue;
      this.#releaseAll(i);
      this.#respawnStamp[lane] = stamp;
      this.#occupied[lane] += room;
      cars.link[i] = lane;
      this.#forgetTrail(i);
      cars.s[i] = front;
      cars.speed[i] = 0;
      cars.acceleration[i] = 0;
      cars.flags[i] = 0;
      cars.segment[i] = 0;
      cars.stuckMark[i] = cars.odometer[i];
      cars.stuckTime[i] = cars.blockedTime[i] = 0;
      cars.trip[i]++;
      this.stats.respawns++;
      this.#newDestination(i);
      return;
    }
  }

  /**
   * Whether a car `length` × `width` m with its front `front` m along `lane` would stand clear
   * of every pedestrian by `RESPAWN_PEDESTRIAN_GAP` (a scan of them all: cars are moved seldom).
   */
  #clearOfPedestrians(lane: number, front: number, length: number, width: number): boolean {
    const view = this.#pedestrianView;
    if (view === null) return true;
    const spot = this.#spot;
    this.network.pointAt(lane, front - length / 2, spot);
    const x = spot[0], y = spot[1], ex = spot[2], ey = spot[3];
    const halfLength = length / 2 + RESPAWN_PEDESTRIAN_GAP;
    const halfWidth = width / 2 + RESPAWN_PEDESTRIAN_GAP;
    for (let k = 0; k < view.count; k++) {
      const dx = view.px[k] - x, dy = view.py[k] - y, r = view.radius[k];
      const u = dx * ex + dy * ey, w = dy * ex - dx * ey;
      if (Math.abs(u) < halfLength + r && Math.abs(w) < halfWidth + r) return false;
    }
    return true;
  }

  /** Drops every reservation car `i` holds. */
  #releaseAll(i: number): void {
    const cars = this.cars, net = this.network;
    const c = cars.reserved[i];
    if (c >= 0) {
      this.#holders[c - net.laneCount]--;
      // Room on the next lane was promised until the front reaches it.
      if (net.kind[cars.link[i]] === LinkKind.lane || cars.link[i] === c) {
        this.#promised[net.toLane[c]] -= this.#room(i);
      }
      cars.reserved[i] = -1;
    }
    this.#releaseClearing(i);
    cars.flags[i] &= ~CarFlags.committed;
  }

  // ---------------------------------------------------------------- routes

  #randomLaneOtherThan(lane: number): number {
    const count = this.network.laneCount;
    if (count < 2) return lane;
    const k = this.#rng.int(count - 1);
    return k >= lane ? k + 1 : k;
  }

  /** Picks a reachable random destination for car `i` and plans the route to it. */
  #newDestination(i: number): void {
    const cars = this.cars, here = this.#laneAfterReservation(i);
    for (let tries = 0; tries < DESTINATION_TRIES; tries++) {
      cars.destination[i] = this.#randomLaneOtherThan(here);
      if (this.#plan(i, -1)) return;
    }
  }

  /** The lane car `i` is on, or will be on after the connector it is on. */
  #laneAfterReservation(i: number): number {
    const link = this.cars.link[i];
    return this.network.kind[link] === LinkKind.lane ? link : this.network.toLane[link];
  }

  /**
   * Plans car `i`'s route to its destination, starting with connector `first` when given (else
   * from the lane it is on, or enters next). Returns false when the destination cannot be
   * reached; the car then wanders: one random connector at a time.
   */
  #plan(i: number, first: number): boolean {
    const net = this.network, cars = this.cars, cap = this.#routeCapacity;
    const base = i * cap, route = this.#route;
    let count = 0;
    let from = this.#laneAfterReservation(i);
    // A car committed to a connector takes it whatever the new plan.
    if (first < 0 && cars.reserved[i] >= 0 && net.kind[cars.link[i]] === LinkKind.lane) {
      first = cars.reserved[i];
    }
    if (first >= 0) {
      route[base] = first;
      count = 1;
      from = net.toLane[first];
    }
    const hops = this.#router.route(from, cars.destination[i]);
    cars.routePos[i] = 0;
    if (hops < 0) {
      // Wander: one random way on.
      const out = net.outStart[from + 1] - net.outStart[from];
      if (count < cap && out > 0) {
        route[base + count++] = net.outLinks[net.outStart[from] + this.#rng.int(out)];
      }
      cars.routeLength[i] = count;
      return false;
    }
    const take = Math.min(hops, cap - count), path = this.#router.path;
    for (let k = 0; k < take; k++) route[base + count + k] = path[k];
    cars.routeLength[i] = count + take;
    return true;
  }

  // ---------------------------------------------------------------- poses

  #poses(): void {
    const cars = this.cars;
    for (let i = 0; i < cars.count; i++) this.#pose(i);
    this.grid.rebuild(cars.x, cars.y, cars.count);
  }

  /**
   * The rectangle spans the chord from the rear point (a car length back along its path) to the
   * front bumper, so the rear follows the path through a turn instead of swinging round the
   * front. A rear behind the start of the link lies on the links the car came by, however
   * short.
   */
  #pose(i: number): void {
    const cars = this.cars, p = this.#point, net = this.network;
    const link = cars.link[i], s = cars.s[i], length = cars.length[i];
    cars.segment[i] = net.pointAt(link, s, p, cars.segment[i]);
    const fx = p[0], fy = p[1], tx = p[2], ty = p[3];
    this.#pathPoint(i, -length, p);
    const heading = this.#heading;
    _chordHeading(fx, fy, p[0], p[1], tx, ty, heading);
    const dx = heading[0], dy = heading[1];
    cars.dirX[i] = dx;
    cars.dirY[i] = dy;
    cars.x[i] = fx - dx * length / 2;
    cars.y[i] = fy - dy * length / 2;
    cars.sweep[i] = this.#sweepOf(i);
  }

  /**
   * The point `offset` m along car `i`'s path from its front bumper into `out` (x, y, unit
   * direction x, y). Behind the front (`offset` < 0) the path runs back over the links the car
   * came by, then straight back along the start of the last one known (a car just placed stands
   * straight); ahead, over its next connector and the links after it on its route, then straight
   * on past the end of the last one known.
   */
  #pathPoint(i: number, offset: number, out: Float64Array): void {
    const cars = this.cars, net = this.network;
    let link = cars.link[i], at = cars.s[i] + offset;
    if (offset <= 0) {
      if (at >= 0) {
        net.pointAt(link, at, out, 0);
        return;
      }
      const trail = this.#trail, base = i * REAR_TRAIL;
      let back = -at, k = 0;
      for (; k < REAR_TRAIL; k++) {
        const before = trail[base + k];
        if (before < 0) break;
        const ahead = net.length[before];
        if (ahead >= back) {
          net.pointAt(before, ahead - back, out, 0);
          return;
        }
        back -= ahead;
        link = before;
      }
      net.pointAt(link, 0, out, 0);
      out[0] -= out[2] * back;
      out[1] -= out[3] * back;
      return;
    }
    let pos = cars.routePos[i];
    for (let hop = 0; hop < SWEEP_LINKS && at > net.length[link]; hop++) {
      let next: number;
      if (net.kind[link] === LinkKind.lane) {
        next = pos < cars.routeLength[i] ? this.#route[i * this.#routeCapacity + pos] : -1;
        pos++;
      } else {
        next = net.toLane[link];
      }
      if (next < 0) break;
      at -= net.length[link];
      link = next;
    }
    const length = net.length[link];
    net.pointAt(link, at, out, link === cars.link[i] ? cars.segment[i] : 0);
    if (at > length) {
      out[0] += out[2] * (at - length);
      out[1] += out[3] * (at - length);
    }
  }

  /**
   * How far (m) car `i`'s body strays beyond its rectangle carried straight on at its speed
   * within the pedestrians' horizon ({@linkcode VEHICLE_HORIZON}): what they see
   * ({@linkcode Vehicles.sweep}). The body is placed where its path takes it at `SWEEP_SAMPLES`
   * times (front on the path, rear on the path a car length back, as in `#pose`) and its
   * corners compared with the straight rectangle's sides. 0 for a car standing, with its reach on
   * one straight piece of lane, or driving farther than its own length within the horizon: there
   * what the straight course misses is the path ahead, not the body turning where it stands, and
   * a rectangle grown by that much ahead of a fast car sent people running ahead of it.
   */
  #sweepOf(i: number): number {
    const cars = this.cars, net = this.network, v = cars.speed[i];
    if (!(v > 0) || (cars.flags[i] & CarFlags.held) !== 0) return 0;
    const link = cars.link[i], s = cars.s[i], length = cars.length[i];
    const reach = v * VEHICLE_HORIZON;
    if (reach > length) return 0;
    const k = net.pointStart[link] + cars.segment[i];
    if (net.arc[k] <= s - length && s + reach <= net.arc[k + 1]) return 0; // one straight piece
    const hl = 0.5 * length, hw = 0.5 * cars.width[i];
    const ex = cars.dirX[i], ey = cars.dirY[i], cx = cars.x[i], cy = cars.y[i];
    const front = this.#front, rear = this.#rear;
    let sweep = 0;
    for (let q = 1; q <= SWEEP_SAMPLES; q++) {
      const d = (reach * q) / SWEEP_SAMPLES;
      this.#pathPoint(i, d, front);
      this.#pathPoint(i, d - length, rear);
      _chordHeading(front[0], front[1], rear[0], rear[1], front[2], front[3], this.#heading);
      const dx = this.#heading[0], dy = this.#heading[1];
      // The body's centre there against the straight rectangle's, in the heading's frame.
      const ox = front[0] - dx * hl - (cx + ex * d), oy = front[1] - dy * hl - (cy + ey * d);
      const u = Math.abs(ox * ex + oy * ey), w = Math.abs(oy * ex - ox * ey);
      const cu = Math.abs(dx * ex + dy * ey), cw = Math.abs(dy * ex - dx * ey);
      const along = u + hl * cu + hw * cw - hl, across = w + hl * cw + hw * cu - hw;
      if (along > sweep) sweep = along;
      if (across > sweep) sweep = across;
    }
    return sweep;
  }

  /** Car `i` leaves `link`: it goes first on the car's trail. */
  #leave(i: number, link: number): void {
    const trail = this.#trail, base = i * REAR_TRAIL;
    for (let k = REAR_TRAIL - 1; k > 0; k--) trail[base + k] = trail[base + k - 1];
    trail[base] = link;
  }

  /** Car `i` was placed: it came by no link (its body stands straight). */
  #forgetTrail(i: number): void {
    this.#trail.fill(-1, i * REAR_TRAIL, (i + 1) * REAR_TRAIL);
  }
}

/**
 * Speed (m/s) through each link at sideways acceleration `acceleration` (m/s²): √(a·R) for the
 * tightest radius R of a connector's curve (the circle through three consecutive points);
 * Infinity for lanes and straight connectors.
 */
function _turnSpeeds(network: LaneNetwork, acceleration: number): Float64Array {
  const speeds = new Float64Array(network.linkCount).fill(Infinity);
  const px = network.px, py = network.py;
  for (let k = network.laneCount; k < network.linkCount; k++) {
    let radius = Infinity;
    for (let p = network.pointStart[k] + 1; p < network.pointStart[k + 1] - 1; p++) {
      const ax = px[p - 1] - px[p], ay = py[p - 1] - py[p];
      const bx = px[p + 1] - px[p], by = py[p + 1] - py[p];
      const cross = Math.abs(ax * by - ay * bx);
      if (cross < 1e-12) continue;
      // Circumradius: |a|·|b|·|a − b| / (2·|a × b|).
      const r = Math.hypot(ax, ay) * Math.hypot(bx, by) * Math.hypot(ax - bx, ay - by) /
        (2 * cross);
      if (r < radius) radius = r;
    }
    speeds[k] = Math.sqrt(acceleration * radius);
  }
  return speeds;
}

/**
 * Unit heading of a body from its rear (`rx`, `ry`) to its front (`fx`, `fy`) into `out`; the
 * path's direction (`tx`, `ty`) where the two points (nearly) coincide.
 */
function _chordHeading(
  fx: number,
  fy: number,
  rx: number,
  ry: number,
  tx: number,
  ty: number,
  out: Float64Array,
): void {
  const dx = fx - rx, dy = fy - ry, chord = hypot2(dx, dy);
  if (chord > 1e-6) {
    out[0] = dx / chord;
    out[1] = dy / chord;
  } else {
    out[0] = tx;
    out[1] = ty;
  }
}

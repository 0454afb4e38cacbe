/**
 * The `city-blocks` navigator: pedestrians walking from building to building through a city of
 * blocks and streets with traffic (F. Gennari, Procedural City: Pedestrian Updates + Navigation,
 * 3DWorld blog, 2019; the crossing decision tree of "Crossing citizens: a simple simulation of
 * pedestrian crossing", project report).
 *
 * - **Destination**: with `destination: "building"`, a random building (a point beside its
 *   footprint, in the free space of its block) among those reachable over crosswalks from the
 *   agent's block, and a new one on reaching it; with `"goal"`, the
 *   goal the spawner gave (the world then applies the arrival policy).
 * - **High level**: the shortest route over the dual graph of blocks and crosswalks
 *   ({@linkcode BlockNetwork.route}); only its next crosswalk is kept, and the route is planned
 *   again after each crossing.
 * - **In a block**: the exact shortest path around the footprints grown by the agent's radius
 *   (the block's visibility graph), smoothed; the agent heads for its next corner and asks for
 *   the path again on reaching it, or every `replanInterval` seconds.
 * - **Crossing**: near its crosswalk the decision tree rules (approach, wait at the kerb on don't
 *   walk, cross on walk, hasten on flashing, jog on past halfway or turn back before it). Without
 *   a light the agent predicts where every car on the street can be while it crosses at
 *   `unsignalledSpeedFactor` × its walking speed ({@linkcode UnsignalledCrossing}) and crosses
 *   only when no car is a threat.
 * - **Stuck**: an agent that hardly moves while it wants to gets a small random nudge; one that
 *   has waited `maxKerbWait` seconds at one street plans again avoiding that street.
 *
 * Path finding runs only on events (a new destination, reaching a corner, finishing a crossing,
 * a timer, being stuck), never for everyone every step. Per-agent state lives in `city.*`
 * columns; {@linkcode CityBlockNavigator.stats} counts trips, re-plans, red starts and kerb waits.
 *
 * @module
 */
import { hypot2, hypotAtMost, pointsBounds } from "../core/geometry.ts";
import { AgentFlags, type AgentStore, type ColumnSpec } from "../core/agent_store.ts";
import type { NavigationContext, Navigator } from "../core/navigator.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { World } from "../core/world.ts";
import type { CityModel } from "../geo/city_model.ts";
import { CarApproaches } from "../traffic/car_approaches.ts";
import type { CarSystem } from "../traffic/car_system.ts";
import { WalkSignal } from "../traffic/signal_cycle.ts";
import type { TrafficLights } from "../traffic/traffic_lights.ts";
import { BlockNetwork, BlockRoute } from "./block_network.ts";
import {
  CrossingAction,
  crossingCheckpoints,
  CrossingDecision,
  CrossingDecisionTree,
  type CrossingSituation,
} from "./crossing_decision.ts";
import { CrossingAssessment, UnsignalledCrossing } from "./crossing_prediction.ts";
import type { NavigatorFactory, NavigatorResources } from "./navigator_factory.ts";
import { VisibilityPath } from "./visibility_graph.ts";

/** Options of the `city-blocks` navigator. */
export interface CityBlockNavigatorOptions {
  /** `"building"`: random buildings, one after another; `"goal"`: the spawner's goal. @default "goal" */
  destination: "building" | "goal";
  /** Radius (m) footprints are grown by when planning. @default 0.3 */
  agentRadius: number;
  /** A corner counts as reached this close (m). @default 0.5 */
  cornerRadius: number;
  /** Seconds between path queries of an agent walking in a block. @default 4 */
  replanInterval: number;
  /** Seconds waiting at one street before planning around it. @default 60 */
  maxKerbWait: number;
  /** Without a light, cross at this multiple of the walking speed. @default 1.8 */
  unsignalledSpeedFactor: number;
  /** Seconds of hardly moving before a nudge. @default 2 */
  stuckTime: number;
  /** A building counts as reached this close to its door point (m). @default 1 */
  buildingRadius: number;
  /**
   * Most first routes planned per step (agents not yet planned stand meanwhile), so that a crowd
   * placed at once spreads its planning over the first steps. @default 200
   */
  planBudget: number;
}

/** Descriptors of {@linkcode CityBlockNavigatorOptions}. */
export const CITY_BLOCK_NAVIGATOR_OPTIONS: OptionSpecs<CityBlockNavigatorOptions> = {
  destination: {
    type: "enum",
    values: ["building", "goal"],
    default: "goal",
    doc: "building: random buildings one after another; goal: the spawner's goal",
  },
  agentRadius: {
    type: "number",
    default: 0.3,
    min: 0.05,
    max: 1,
    unit: "m",
    doc: "footprints are grown by this when planning",
  },
  cornerRadius: {
    type: "number",
    default: 0.5,
    min: 0.05,
    max: 5,
    unit: "m",
    doc: "a path corner counts as reached this close",
  },
  replanInterval: {
    type: "number",
    default: 4,
    min: 0.1,
    max: 600,
    unit: "s",
    doc: "seconds between path queries of an agent walking in a block",
  },
  maxKerbWait: {
    type: "number",
    default: 60,
    min: 1,
    max: 3600,
    unit: "s",
    doc: "seconds waiting at one street before planning a route around it",
  },
  unsignalledSpeedFactor: {
    type: "number",
    default: 1.8,
    min: 1,
    max: 2.5,
    doc: "without a light, cross at this multiple of the walking speed",
  },
  stuckTime: {
    type: "number",
    default: 2,
    min: 0.1,
    max: 600,
    unit: "s",
    doc: "seconds of hardly moving before a small random nudge",
  },
  planBudget: {
    type: "number",
    default: 200,
    min: 1,
    max: 1_000_000,
    integer: true,
    doc: "most first routes planned per step (the others stand meanwhile)",
  },
  buildingRadius: {
    type: "number",
    default: 1,
    min: 0.1,
    max: 10,
    unit: "m",
    doc: "a building counts as reached this close to its door point",
  },
};

/** Column names. */
export const CITY_COLUMNS = {
  /** Next crosswalk on the route, or -1 when the destination is in this block. */
  crossing: "city.crossing",
  /** The crossing action ({@linkcode CrossingAction}) in force. */
  state: "city.state",
  /** Checkpoints of the next crosswalk: near kerb x, y, far kerb x, y (m). */
  firstX: "city.firstX",
  firstY: "city.firstY",
  secondX: "city.secondX",
  secondY: "city.secondY",
  /** Corner of the in-block path headed for (m). */
  cornerX: "city.cornerX",
  cornerY: "city.cornerY",
  /** Time of the next path query (s). */
  nextPlan: "city.nextPlan",
  /** Seconds waited at the current kerb. */
  wait: "city.wait",
  /** Seconds hardly moving. */
  stuck: "city.stuck",
  /** Street edge avoided after a long wait, or -1. */
  avoid: "city.avoid",
  /** Destination building, or -1. */
  building: "city.building",
  /** 1 once the agent has a plan. */
  planned: "city.planned",
  /** Crosswalks stored of the route, and the one being taken. */
  legCount: "city.legCount",
  legPos: "city.legPos",
  /** Corners stored of the in-block path, and the one headed for. */
  cornerCount: "city.cornerCount",
  cornerPos: "city.cornerPos",
} as const;

/** Crosswalks of a route stored per agent (`city.leg0` …): 2 · crossing + (1 if walked backwards). */
const LEGS = 6;
/** Corners of an in-block path stored per agent (`city.pathX0`, `city.pathY0`, …). */
const CORNERS = 8;
const legName = (k: number) => `city.leg${k}`;
const pathXName = (k: number) => `city.pathX${k}`;
const pathYName = (k: number) => `city.pathY${k}`;

const COLUMNS: readonly ColumnSpec[] = [
  { name: CITY_COLUMNS.crossing, type: "i32", default: -1, doc: "next crosswalk, -1 if none" },
  { name: CITY_COLUMNS.state, type: "u8", default: 0, doc: "crossing action in force" },
  { name: CITY_COLUMNS.firstX, type: "f64", doc: "near-kerb checkpoint x (m)" },
  { name: CITY_COLUMNS.firstY, type: "f64", doc: "near-kerb checkpoint y (m)" },
  { name: CITY_COLUMNS.secondX, type: "f64", doc: "far-kerb checkpoint x (m)" },
  { name: CITY_COLUMNS.secondY, type: "f64", doc: "far-kerb checkpoint y (m)" },
  { name: CITY_COLUMNS.cornerX, type: "f64", doc: "path corner headed for x (m)" },
  { name: CITY_COLUMNS.cornerY, type: "f64", doc: "path corner headed for y (m)" },
  { name: CITY_COLUMNS.nextPlan, type: "f64", doc: "time of the next path query (s)" },
  { name: CITY_COLUMNS.wait, type: "f64", doc: "seconds waited at the kerb" },
  { name: CITY_COLUMNS.stuck, type: "f64", doc: "seconds hardly moving" },
  { name: CITY_COLUMNS.avoid, type: "i32", default: -1, doc: "street edge avoided, -1 if none" },
  { name: CITY_COLUMNS.building, type: "i32", default: -1, doc: "destination building" },
  { name: CITY_COLUMNS.planned, type: "u8", default: 0, doc: "1 once planned" },
  { name: CITY_COLUMNS.legCount, type: "i32", doc: "crosswalks of the route stored" },
  { name: CITY_COLUMNS.legPos, type: "i32", doc: "crosswalk of the route being taken" },
  { name: CITY_COLUMNS.cornerCount, type: "i32", doc: "corners of the path stored" },
  { name: CITY_COLUMNS.cornerPos, type: "i32", doc: "corner of the path headed for" },
  ...Array.from({ length: LEGS }, (_, k): ColumnSpec => ({
    name: legName(k),
    type: "i32",
    doc: `crosswalk ${k} of the route (2 · crossing + reversed)`,
  })),
  ...Array.from({ length: CORNERS }, (_, k): ColumnSpec => ({
    name: pathXName(k),
    type: "f64",
    doc: `corner ${k} of the in-block path x (m)`,
  })),
  ...Array.from({ length: CORNERS }, (_, k): ColumnSpec => ({
    name: pathYName(k),
    type: "f64",
    doc: `corner ${k} of the in-block path y (m)`,
  })),
];

/** What the navigator counted since it was created. */
export interface CityNavigationStats {
  /** Destinations reached (buildings, or goals in `"goal"` mode when seen). */
  trips: number;
  /** Routes planned again around a street after a long wait, or after being stuck. */
  replans: number;
  /** Block routes planned. */
  routes: number;
  /** In-block path queries. */
  paths: number;
  /** Crossings started while the signal did not show walk (should stay 0). */
  redStarts: number;
  /** Agents that turned back (red came before halfway). */
  turnBacks: number;
  /** Agents that jogged on (red came past halfway). */
  jogs: number;
  /** Nudges given to stuck agents. */
  nudges: number;
  /** Each finished kerb wait (s), in the order they ended. */
  kerbWaits: number[];
}

/** The state of an agent as names, for the viewer and tests. */
export const CITY_STATE_NAMES: readonly string[] = [
  "approach",
  "wait",
  "cross",
  "hasten",
  "jog",
  "turn-back",
  "arrive",
  "despawn",
];

const ON_CROSSWALK = (s: number) =>
  s === CrossingAction.cross || s === CrossingAction.hasten || s === CrossingAction.jog ||
  s === CrossingAction.turnBack;

/**
 * The navigator (see the module doc).
 *
 * @example Pedestrians walk from building to building in a small city
 * ```ts
 * import { CityBlockNavigator } from "./city_block_navigator.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2, seed: 4 });
 * const navigator = new CityBlockNavigator(city, { destination: "building" });
 * const world = new World({ strategy: createNoneStrategy(), navigator, seed: 2 });
 * const [x, y] = navigator.randomSidewalkPoint(world.agents.count, 0.5, 0.5);
 * world.addAgent({ x, y, goalX: x, goalY: y, radius: 0.25 });
 * for (let k = 0; k < 200; k++) world.step();
 * assert(navigator.stats.routes >= 1);
 * ```
 */
export class CityBlockNavigator implements Navigator {
  /** Registry name. */
  readonly name = "city-blocks";
  /** Per-agent state columns. */
  readonly columns: readonly ColumnSpec[] = COLUMNS;
  /** Validated options. */
  readonly options: Readonly<CityBlockNavigatorOptions>;
  /** The city. */
  readonly city: CityModel;
  /** Blocks and crosswalks, or null for a city without blocks (agents then walk straight). */
  readonly network: BlockNetwork | null;
  /** What happened so far. */
  readonly stats: CityNavigationStats = {
    trips: 0,
    replans: 0,
    routes: 0,
    paths: 0,
    redStarts: 0,
    turnBacks: 0,
    jogs: 0,
    nudges: 0,
    kerbWaits: [],
  };

  #lights: TrafficLights | undefined;
  #cars: CarSystem | undefined;
  readonly #tree = new CrossingDecisionTree();
  readonly #decision = new CrossingDecision();
  readonly #situation: CrossingSituation = {
    x: 0,
    y: 0,
    goalX: 0,
    goalY: 0,
    firstX: 0,
    firstY: 0,
    secondX: 0,
    secondY: 0,
    width: 0,
    signal: 0,
  };
  readonly #route = new BlockRoute();
  readonly #path_ = new VisibilityPath();
  readonly #checkpoints = new Float64Array(4);
  readonly #unsignalled: UnsignalledCrossing;
  readonly #approaching = new CarApproaches();
  readonly #assessment = new CrossingAssessment();
  /** Door points of buildings (x, y), NaN until computed, and the building's block. */
  readonly #doors: Float64Array;
  readonly #doorBlock: Int32Array;
  /** Buildings with a door point in a block's free space. */
  #usable: Int32Array | null = null;
  /** Walkable region of each building's door point (see BlockNetwork.regionAt). */
  readonly #doorRegion: Int32Array;
  /** Usable buildings by region: `#byPart[#partStart[r] …]`; null when all share one. */
  #partStart: Int32Array | null = null;
  #byPart: Int32Array | null = null;
  #avoidEdges: Uint8Array;
  /** Unsignalled crossings: last assessment time and outcome per crossing. */
  readonly #assessedAt: Float64Array;
  readonly #assessedSafe: Uint8Array;
  /** Signalled crossings: the time their signal was last read, and what it showed. */
  readonly #signalAt: Float64Array;
  readonly #signalNow: Uint8Array;

  /**
   * @param city a city model with blocks and crossings
   * @param options navigator options
   */
  constructor(city: CityModel, options: Partial<CityBlockNavigatorOptions> = {}) {
    this.options = resolveOptions("city-blocks navigator", CITY_BLOCK_NAVIGATOR_OPTIONS, options);
    this.city = city;
    this.network = city.blocks && city.blocks.length > 0
      ? new BlockNetwork(city, { agentRadius: this.options.agentRadius })
      : null;
    this.#unsignalled = new UnsignalledCrossing({
      speedFactor: this.options.unsignalledSpeedFactor,
    });
    this.#doors = new Float64Array(2 * city.buildings.length).fill(NaN);
    this.#doorBlock = new Int32Array(city.buildings.length).fill(-1);
    this.#doorRegion = new Int32Array(city.buildings.length).fill(-1);
    this.#avoidEdges = new Uint8Array(Math.max(1, city.streets.edges.length));
    this.#assessedAt = new Float64Array(city.crossings.length).fill(-Infinity);
    this.#assessedSafe = new Uint8Array(city.crossings.length);
    this.#signalAt = new Float64Array(city.crossings.length).fill(NaN);
    this.#signalNow = new Uint8Array(city.crossings.length);
  }

  /** The traffic lights and cars the navigator reads, when the world has car traffic. */
  attach(world: World): void {
    const system = (world.traffic as { system?: CarSystem } | undefined)?.system;
    if (system) {
      this.#cars = system;
      this.#lights = system.lights;
    }
  }

  /** Uses `lights` (and `cars` for crossings without one) instead of the world's traffic. */
  useTraffic(lights: TrafficLights | undefined, cars?: CarSystem): void {
    this.#lights = lights;
    this.#cars = cars;
  }

  /**
   * A point (m) on the sidewalks: in block `block mod blocks`, at fractions (`u`, `v`) of its
   * bounding box, moved to the nearest free point found along the box; for placing agents.
   */
  randomSidewalkPoint(block: number, u: number, v: number): [number, number] {
    const net = this.network;
    if (!net) return [0, 0];
    const b = ((block % net.blockCount) + net.blockCount) % net.blockCount;
    const graph = net.graph(b);
    // Kerb points are always free: start from one and walk towards (u, v) while free.
    const ring = this.city.blocks![b].polygon[0];
    const [minX, minY, maxX, maxY] = pointsBounds(ring);
    const tx = minX + u * (maxX - minX), ty = minY + v * (maxY - minY);
    if (graph.contains(tx, ty)) return [tx, ty];
    // Project to the perimeter band: try points between the target and each side's middle.
    const inset = this.options.agentRadius + 1;
    const candidates: [number, number][] = [
      [tx, minY + inset],
      [tx, maxY - inset],
      [minX + inset, ty],
      [maxX - inset, ty],
    ];
    for (const [x, y] of candidates) if (graph.contains(x, y)) return [x, y];
    const n = graph.nodeCount;
    return [graph.nodeX[n - 1], graph.nodeY[n - 1]];
  }

  /** Writes preferred velocities (see the module doc). */
  updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
    const a = ctx.agents, dt = ctx.dt, time = ctx.time, o = this.options;
    const flags = a.flags, prefVx = a.prefVx, prefVy = a.prefVy;
    const px = a.px, py = a.py, vx = a.vx, vy = a.vy, speed0 = a.desiredSpeed;
    const state = a.column<Uint8Array>(CITY_COLUMNS.state);
    const crossing = a.column<Int32Array>(CITY_COLUMNS.crossing);
    const fX = a.column<Float64Array>(CITY_COLUMNS.firstX);
    const fY = a.column<Float64Array>(CITY_COLUMNS.firstY);
    const sX = a.column<Float64Array>(CITY_COLUMNS.secondX);
    const sY = a.column<Float64Array>(CITY_COLUMNS.secondY);
    const cX = a.column<Float64Array>(CITY_COLUMNS.cornerX);
    const cY = a.column<Float64Array>(CITY_COLUMNS.cornerY);
    const nextPlan = a.column<Float64Array>(CITY_COLUMNS.nextPlan);
    const wait = a.column<Float64Array>(CITY_COLUMNS.wait);
    const stuck = a.column<Float64Array>(CITY_COLUMNS.stuck);
    const avoid = a.column<Int32Array>(CITY_COLUMNS.avoid);
    const planned = a.column<Uint8Array>(CITY_COLUMNS.planned);
    const building = a.column<Int32Array>(CITY_COLUMNS.building);
    const net = this.network, tree = this.#tree, decision = this.#decision, s = this.#situation;
    const byBuilding = o.destination === "building";
    let budget = o.planBudget;
    for (let i = begin; i < end; i++) {
      if ((flags[i] & AgentFlags.arrived) !== 0 || (flags[i] & AgentFlags.frozen) !== 0) {
        prefVx[i] = prefVy[i] = 0;
        continue;
      }
      const x = px[i], y = py[i];
      if (net === null) {
        this.#head(a, i, a.goalX[i], a.goalY[i], speed0[i]);
        continue;
      }
      if (byBuilding) {
        const b = building[i];
        const reached = b >= 0 &&
          hypotAtMost(a.goalX[i] - x, a.goalY[i] - y, o.buildingRadius);
        if (b < 0 || reached) {
          if (reached) this.stats.trips++;
          this.#pickBuilding(a, i, ctx.rng.next(), building);
          planned[i] = 0;
          avoid[i] = -1;
        }
      }
      if (planned[i] === 0) {
        if (time >= nextPlan[i] && budget > 0) {
          budget--;
          this.#plan(a, i, time);
        }
        if (planned[i] === 0) {
          // Never planned yet: stand; off the free space: walk straight at the goal meanwhile.
          const first = nextPlan[i] === 0;
          cX[i] = first ? x : a.goalX[i];
          cY[i] = first ? y : a.goalY[i];
        }
      } else if (
        time >= nextPlan[i] && !ON_CROSSWALK(state[i]) && state[i] !== CrossingAction.wait
      ) {
        // Every few seconds: is the corner still in sight? If not, a fresh path.
        nextPlan[i] = time + o.replanInterval;
        const b = net.blockAt(x, y);
        if (b < 0 || !net.graph(b).visible(x, y, cX[i], cY[i])) this.#path(a, i);
      }
      const c = crossing[i];
      let tx: number, ty: number, factor = 1;
      if (c < 0) {
        // The destination is in this block: follow the path's corners.
        state[i] = CrossingAction.arrive;
        tx = cX[i];
        ty = cY[i];
        if (hypotAtMost(tx - x, ty - y, o.cornerRadius)) this.#nextCorner(a, i);
      } else {
        const cw = this.city.crossings[c];
        s.x = x;
        s.y = y;
        s.goalX = sX[i];
        s.goalY = sY[i];
        s.firstX = fX[i];
        s.firstY = fY[i];
        s.secondX = sX[i];
        s.secondY = sY[i];
        s.width = cw.width;
        s.signal = this.#signal(c, time, a, i);
        const before = state[i];
        const action = tree.decide(s, decision);
        if (action === CrossingAction.arrive || action === CrossingAction.despawn) {
          // Across: the next crosswalk of the route, or the destination, from the far kerb.
          state[i] = CrossingAction.approach;
          this.#nextLeg(a, i, time);
          tx = cX[i];
          ty = cY[i];
          if (crossing[i] < 0) state[i] = CrossingAction.arrive;
        } else if (action === CrossingAction.approach) {
          state[i] = action;
          tx = cX[i];
          ty = cY[i];
          if (hypotAtMost(tx - x, ty - y, o.cornerRadius)) this.#nextCorner(a, i);
        } else {
          state[i] = action;
          tx = decision.targetX;
          ty = decision.targetY;
          factor = decision.speedFactor;
          if (action === CrossingAction.cross && !cw.signalled) factor = o.unsignalledSpeedFactor;
          if (action === CrossingAction.cross && !ON_CROSSWALK(before)) {
            if (s.signal !== WalkSignal.walk) this.stats.redStarts++;
          }
          if (action === CrossingAction.turnBack && before !== action) this.stats.turnBacks++;
          if (action === CrossingAction.jog && before !== action) this.stats.jogs++;
          if (action === CrossingAction.wait) {
            wait[i] += dt;
            if (wait[i] > o.maxKerbWait && cw.edge !== null) {
              // Waited long enough: a route around this street.
              this.stats.kerbWaits.push(wait[i]);
              wait[i] = 0;
              avoid[i] = cw.edge;
              this.stats.replans++;
              this.#plan(a, i, time);
              prefVx[i] = prefVy[i] = 0;
              continue;
            }
          } else if (before === CrossingAction.wait && wait[i] > 0) {
            this.stats.kerbWaits.push(wait[i]);
            wait[i] = 0;
          }
        }
      }
      // Stuck: hardly moving while wanting to.
      const dx = tx - x, dy = ty - y, d = hypot2(dx, dy);
      const want = state[i] !== CrossingAction.wait && d > o.cornerRadius;
      const moving = vx[i] * vx[i] + vy[i] * vy[i] > 0.01 * speed0[i] * speed0[i];
      if (want && !moving) stuck[i] += dt;
      else stuck[i] = 0;
      const v = speed0[i] * factor;
      if (d < 1e-9 || factor === 0) {
        prefVx[i] = prefVy[i] = 0;
        continue;
      }
      let ux = dx / d, uy = dy / d;
      if (stuck[i] > o.stuckTime) {
        // A small random nudge sideways, and a fresh path next step.
        const side = ctx.rng.next() < 0.5 ? -1 : 1, k = 0.5 * ctx.rng.next();
        const nx = ux - side * uy * k, ny = uy + side * ux * k, nl = hypot2(nx, ny);
        ux = nx / nl;
        uy = ny / nl;
        stuck[i] = 0;
        this.stats.nudges++;
        if (!ON_CROSSWALK(state[i])) nextPlan[i] = time;
      }
      prefVx[i] = ux * v;
      prefVy[i] = uy * v;
    }
  }

  /** The signal agent `i` sees at crossing `c`: the light's, or the prediction's. */
  #signal(c: number, time: number, a: AgentStore, i: number): number {
    const cw = this.city.crossings[c];
    if (cw.signalled) {
      if (!this.#lights) return WalkSignal.walk;
      // Read once per crossing and step, shared by everyone at it.
      if (this.#signalAt[c] !== time) {
        this.#signalAt[c] = time;
        this.#signalNow[c] = this.#lights.walkSignal(c, time);
      }
      return this.#signalNow[c];
    }
    const cars = this.#cars;
    if (!cars || cw.edge === null) return WalkSignal.walk;
    // Reassess each crossing at most every 0.25 s (one pass over the cars), shared by everyone.
    if (time - this.#assessedAt[c] >= 0.25) {
      this.#assessedAt[c] = time;
      cars.approachingCars({ edge: cw.edge, x: cw.x, y: cw.y, width: cw.width }, this.#approaching);
      const length = this.network!.crossingLength[c];
      this.#unsignalled.assess(this.#approaching, {
        length,
        width: cw.width + 2 * a.radius[i],
        walkingSpeed: a.desiredSpeed[i],
      }, this.#assessment);
      this.#assessedSafe[c] = this.#assessment.safe ? 1 : 0;
    }
    return this.#assessedSafe[c] === 1 ? WalkSignal.walk : WalkSignal.dontWalk;
  }

  /** Heads agent `i` straight at (tx, ty). */
  #head(a: AgentStore, i: number, tx: number, ty: number, v: number): void {
    const dx = tx - a.px[i], dy = ty - a.py[i], d = hypot2(dx, dy);
    if (d < 1e-9) {
      a.prefVx[i] = a.prefVy[i] = 0;
      return;
    }
    a.prefVx[i] = (dx / d) * v;
    a.prefVy[i] = (dy / d) * v;
  }

  /** Picks a random reachable building for agent `i` and sets its goal. */
  #pickBuilding(a: AgentStore, i: number, r: number, building: Int32Array): void {
    const usable = this.#usableBuildings();
    if (usable.length === 0) {
      building[i] = -1;
      return;
    }
    // Only buildings reachable from where the agent stands: those of its walkable region
    // (the region of the building it just reached, else of where it stands).
    let list: Int32Array = usable;
    if (this.#byPart) {
      const region = building[i] >= 0
        ? this.#doorRegion[building[i]]
        : this.network!.regionAt(a.px[i], a.py[i]);
      const start = this.#partStart!;
      if (region >= 0 && start[region + 1] - start[region] > 1) {
        list = this.#byPart.subarray(start[region], start[region + 1]);
      }
    }
    let k = list[Math.min(list.length - 1, Math.floor(r * list.length))];
    if (k === building[i] && list.length > 1) {
      k = list[(list.indexOf(k) + 1) % list.length];
    }
    building[i] = k;
    a.goalX[i] = this.#doors[2 * k];
    a.goalY[i] = this.#doors[2 * k + 1];
  }

  /** Buildings with a door point in free space (computed once). */
  #usableBuildings(): Int32Array {
    if (this.#usable) return this.#usable;
    const net = this.network!, city = this.city, out: number[] = [];
    const off = this.options.agentRadius + 0.4;
    for (let b = 0; b < net.blockCount; b++) {
      const graph = net.graph(b);
      for (const k of city.blocks![b].buildings) {
        const ring = city.buildings[k].polygon[0];
        const [minX, minY, maxX, maxY] = pointsBounds(ring);
        const mx = (minX + maxX) / 2, my = (minY + maxY) / 2;
        const doors: (readonly [number, number])[] = city.buildings[k].entrance
          ? [city.buildings[k].entrance!]
          : [];
        doors.push([mx, minY - off], [mx, maxY + off], [minX - off, my], [maxX + off, my]);
        for (const [x, y] of doors) {
          if (graph.contains(x, y)) {
            this.#doors[2 * k] = x;
            this.#doors[2 * k + 1] = y;
            this.#doorBlock[k] = b;
            out.push(k);
            break;
          }
        }
      }
    }
    this.#usable = Int32Array.from(out);
    // Group the buildings by walkable region, unless all share one (then the list is `usable`).
    let parts = 0, split = false;
    for (const k of out) {
      const region = net.regionAt(this.#doors[2 * k], this.#doors[2 * k + 1]);
      this.#doorRegion[k] = region;
      parts = Math.max(parts, region + 1);
      if (region !== this.#doorRegion[out[0]]) split = true;
    }
    if (split) {
      const start = new Int32Array(parts + 1);
      for (const k of out) if (this.#doorRegion[k] >= 0) start[this.#doorRegion[k] + 1]++;
      for (let p = 0; p < parts; p++) start[p + 1] += start[p];
      const byPart = new Int32Array(start[parts]), cursor = start.slice(0, parts);
      for (const k of out) if (this.#doorRegion[k] >= 0) byPart[cursor[this.#doorRegion[k]]++] = k;
      this.#partStart = start;
      this.#byPart = byPart;
    }
    return this.#usable;
  }

  /**
   * Plans agent `i` (an event): the block route from where it stands to its goal, avoiding the
   * street in `city.avoid`; stores its first crosswalks and the path to the first of them.
   */
  #plan(a: AgentStore, i: number, time: number): void {
    const net = this.network!, o = this.options;
    const crossing = a.column<Int32Array>(CITY_COLUMNS.crossing);
    const nextPlan = a.column<Float64Array>(CITY_COLUMNS.nextPlan);
    const planned = a.column<Uint8Array>(CITY_COLUMNS.planned);
    const avoid = a.column<Int32Array>(CITY_COLUMNS.avoid);
    const legCount = a.column<Int32Array>(CITY_COLUMNS.legCount);
    const legPos = a.column<Int32Array>(CITY_COLUMNS.legPos);
    const x = a.px[i], y = a.py[i], gx = a.goalX[i], gy = a.goalY[i];
    nextPlan[i] = time + o.replanInterval;
    const edge = avoid[i];
    if (edge >= 0) this.#avoidEdges[edge] = 1;
    const route = net.route([x, y], [gx, gy], this.#route, {
      avoidEdges: edge >= 0 ? this.#avoidEdges : undefined,
    });
    if (edge >= 0) this.#avoidEdges[edge] = 0;
    this.stats.routes++;
    if (route.status !== "found") {
      // Off the free space (pushed against a footprint, onto the road): walk straight at the
      // goal and try again shortly.
      if (route.status === "unreachable" && edge >= 0) avoid[i] = -1;
      planned[i] = 0;
      crossing[i] = -1;
      nextPlan[i] = time + 0.5;
      return;
    }
    planned[i] = 1;
    const stored = Math.min(LEGS, route.legCount);
    for (let k = 0; k < stored; k++) {
      a.column<Int32Array>(legName(k))[i] = 2 * route.crossings[k] + route.reversed[k];
    }
    // A longer route is planned again when its stored crosswalks are used up.
    legCount[i] = route.legCount > LEGS ? -stored : stored;
    legPos[i] = 0;
    this.#enterLeg(a, i);
    this.#path(a, i);
  }

  /** After a crossing: the next stored crosswalk, a fresh route, or the destination's block. */
  #nextLeg(a: AgentStore, i: number, time: number): void {
    const legCount = a.column<Int32Array>(CITY_COLUMNS.legCount);
    const legPos = a.column<Int32Array>(CITY_COLUMNS.legPos);
    legPos[i]++;
    if (legCount[i] < 0 && legPos[i] >= -legCount[i]) {
      this.#plan(a, i, time);
      return;
    }
    this.#enterLeg(a, i);
    this.#path(a, i);
  }

  /** Sets `city.crossing` and its checkpoints from the stored leg in force. */
  #enterLeg(a: AgentStore, i: number): void {
    const crossing = a.column<Int32Array>(CITY_COLUMNS.crossing);
    const count = Math.abs(a.column<Int32Array>(CITY_COLUMNS.legCount)[i]);
    const pos = a.column<Int32Array>(CITY_COLUMNS.legPos)[i];
    if (pos >= count) {
      crossing[i] = -1;
      return;
    }
    const leg = a.column<Int32Array>(legName(pos))[i], c = leg >> 1, nearSide = leg & 1;
    const kerbs = this.network!.kerbs, k = 4 * c;
    const nx = kerbs[k + 2 * nearSide], ny = kerbs[k + 2 * nearSide + 1];
    const fx = kerbs[k + 2 * (1 - nearSide)], fy = kerbs[k + 2 * (1 - nearSide) + 1];
    crossingCheckpoints(
      { kerbs: [[nx, ny], [fx, fy]], width: this.city.crossings[c].width },
      { start: [a.px[i], a.py[i]], goal: [fx, fy] },
      this.#checkpoints,
    );
    a.column<Float64Array>(CITY_COLUMNS.firstX)[i] = this.#checkpoints[0];
    a.column<Float64Array>(CITY_COLUMNS.firstY)[i] = this.#checkpoints[1];
    a.column<Float64Array>(CITY_COLUMNS.secondX)[i] = this.#checkpoints[2];
    a.column<Float64Array>(CITY_COLUMNS.secondY)[i] = this.#checkpoints[3];
    a.column<Float64Array>(CITY_COLUMNS.wait)[i] = 0;
    crossing[i] = c;
  }

  /**
   * The shortest path inside the agent's block to its target (the near kerb of its crosswalk,
   * or its goal), smoothed; its corners are stored and the first becomes the one headed for.
   */
  #path(a: AgentStore, i: number): void {
    const net = this.network!;
    const c = a.column<Int32Array>(CITY_COLUMNS.crossing)[i];
    let tx = a.goalX[i], ty = a.goalY[i];
    if (c >= 0) {
      const pos = a.column<Int32Array>(CITY_COLUMNS.legPos)[i];
      const nearSide = a.column<Int32Array>(legName(pos))[i] & 1;
      tx = net.kerbs[4 * c + 2 * nearSide];
      ty = net.kerbs[4 * c + 2 * nearSide + 1];
    }
    const path = net.pathInBlock([a.px[i], a.py[i]], [tx, ty], this.#path_);
    this.stats.paths++;
    let n = 0;
    if (path.status === "found") {
      for (let k = 1; k < path.pointCount && n < CORNERS; k++, n++) {
        a.column<Float64Array>(pathXName(n))[i] = path.points[2 * k];
        a.column<Float64Array>(pathYName(n))[i] = path.points[2 * k + 1];
      }
    }
    if (n === 0) {
      a.column<Float64Array>(pathXName(0))[i] = tx;
      a.column<Float64Array>(pathYName(0))[i] = ty;
      n = 1;
    }
    a.column<Int32Array>(CITY_COLUMNS.cornerCount)[i] = n;
    a.column<Int32Array>(CITY_COLUMNS.cornerPos)[i] = 0;
    a.column<Float64Array>(CITY_COLUMNS.cornerX)[i] = a.column<Float64Array>(pathXName(0))[i];
    a.column<Float64Array>(CITY_COLUMNS.cornerY)[i] = a.column<Float64Array>(pathYName(0))[i];
  }

  /** Corner reached: head for the next stored one (the last one is the target; kept). */
  #nextCorner(a: AgentStore, i: number): void {
    const pos = a.column<Int32Array>(CITY_COLUMNS.cornerPos);
    const count = a.column<Int32Array>(CITY_COLUMNS.cornerCount)[i];
    if (pos[i] + 1 >= count) {
      // The stored path was cut short: ask for the rest.
      if (count === CORNERS) this.#path(a, i);
      return;
    }
    const k = ++pos[i];
    a.column<Float64Array>(CITY_COLUMNS.cornerX)[i] = a.column<Float64Array>(pathXName(k))[i];
    a.column<Float64Array>(CITY_COLUMNS.cornerY)[i] = a.column<Float64Array>(pathYName(k))[i];
  }
}

/**
 * Registry entry of the `city-blocks` navigator.
 *
 * @example Created by name with a city
 * ```ts
 * import { cityBlockNavigator } from "./city_block_navigator.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * assert.equal(cityBlockNavigator.create({ destination: "building" }, { city }).name, "city-blocks");
 * ```
 */
export const cityBlockNavigator: NavigatorFactory<CityBlockNavigatorOptions> = {
  name: "city-blocks",
  description:
    "city pedestrians: block routes over crosswalks, shortest paths around buildings, crossing at lights by the crossing decision tree and without lights by predicting cars (Gennari 2019)",
  options: CITY_BLOCK_NAVIGATOR_OPTIONS,
  requires: ["city"],
  maxSpeedFactor: 2.5,
  create(options: Partial<CityBlockNavigatorOptions>, resources: NavigatorResources) {
    return new CityBlockNavigator(resources.city!, options);
  },
};

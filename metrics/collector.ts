/**
 * A world observer that measures a run: collisions and penetrations, wall contacts and
 * crossings, closest approach, arrivals and times to goal, speed, path efficiency, turning,
 * side reversals in head-on encounters ("salsa"), stuck trips, throughput across a line, and the
 * cost of a step.
 *
 * Per-agent working state lives in plugin columns (`metrics.*`, kind `"state"`), so it moves with
 * swap-removes and is reset when an agent is placed for a new trip.
 *
 * @module
 */
import { AgentFlags, type ColumnSpec } from "../core/agent_store.ts";
import { cross, pointInPolygon, segmentsIntersect } from "../core/geometry.ts";
import { NeighbourQuery } from "../core/neighbour_query.ts";
import type { StaticObstacles } from "../core/obstacles.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { World, WorldObserver } from "../core/world.ts";
import type { RunMetrics } from "./run_metrics.ts";

/** A counting line for {@linkcode RunMetrics.throughput}, from `from` to `to` in metres. */
export interface ThroughputLine {
  /** Name shown in reports, e.g. `"door"`. */
  readonly name: string;
  /** One end `[x, y]` (m). */
  readonly from: readonly [number, number];
  /** Other end `[x, y]` (m). */
  readonly to: readonly [number, number];
}

/** Options of a {@linkcode MetricsCollector}. */
export interface MetricsCollectorOptions {
  /** Overlaps smaller than this are not collisions or wall penetrations (m). @default 0.001 */
  overlapTolerance?: number;
  /** A trip without progress for this long counts as stuck (s). @default 10 */
  stuckSeconds?: number;
  /**
   * Least improvement of a trip's best distance to its goal that counts as progress (m).
   * @default 0.25
   */
  stuckProgress?: number;
  /** Line whose crossings (either direction) give the throughput; none by default. */
  throughputLine?: ThroughputLine;
}

/** Numeric options of {@linkcode MetricsCollectorOptions}. */
export type MetricsThresholds = Required<Omit<MetricsCollectorOptions, "throughputLine">>;

/** Descriptors (default, unit, limits) of the collector's numeric options, for help texts. */
export const METRICS_COLLECTOR_OPTIONS: OptionSpecs<MetricsThresholds> = {
  overlapTolerance: {
    type: "number",
    default: 0.001,
    min: 0,
    max: 1,
    unit: "m",
    doc: "overlaps smaller than this are not collisions or wall penetrations",
  },
  stuckSeconds: {
    type: "number",
    default: 10,
    min: 0,
    exclusiveMin: true,
    unit: "s",
    doc: "a trip that makes no progress for this long counts as stuck",
  },
  stuckProgress: {
    type: "number",
    default: 0.25,
    min: 0,
    exclusiveMin: true,
    unit: "m",
    doc: "least improvement of the best distance to goal that counts as progress",
  },
};

/** The collector's per-agent columns (all kind `"state"`: reset when an agent is placed). */
export const METRICS_COLUMNS: readonly ColumnSpec[] = [
  {
    name: "metrics.state",
    type: "u8",
    doc: "collector bits: seen, arrived, stuck, inside, accounted",
  },
  { name: "metrics.fromX", type: "f64", doc: "x the travelled distance is measured from (m)" },
  { name: "metrics.fromY", type: "f64", doc: "y the travelled distance is measured from (m)" },
  { name: "metrics.lastX", type: "f64", doc: "x at the previous step (m)" },
  { name: "metrics.lastY", type: "f64", doc: "y at the previous step (m)" },
  { name: "metrics.lastVx", type: "f64", doc: "velocity x at the previous step (m/s)" },
  { name: "metrics.lastVy", type: "f64", doc: "velocity y at the previous step (m/s)" },
  { name: "metrics.travelled", type: "f64", doc: "distance walked this trip (m)" },
  { name: "metrics.bestDistance", type: "f64", doc: "distance to goal at the last progress (m)" },
  { name: "metrics.progressTime", type: "f64", doc: "simulation time of the last progress (s)" },
  {
    name: "metrics.salsa",
    type: "u8",
    doc: "head-on encounter bits: tracking, steering left, steering right, side reversed",
  },
  { name: "metrics.salsaPartner", type: "u32", doc: "serial of the oncoming agent being tracked" },
  { name: "metrics.salsaHint", type: "i32", doc: "index where that agent was last seen" },
  { name: "metrics.salsaAxisX", type: "f64", doc: "x of the heading at the encounter's start" },
  { name: "metrics.salsaAxisY", type: "f64", doc: "y of the heading at the encounter's start" },
  {
    name: "metrics.salsaSince",
    type: "f64",
    doc: "time the agent began steering to a new side (s)",
  },
];

// Bits of the `metrics.state` column.
const SEEN = 1; // the trip is counted and its columns are initialised
const DONE = 2; // the trip arrived
const STUCK = 4; // the trip was counted as stuck
const INSIDE = 8; // the centre is inside a solid polygon
const ACCOUNTED = 16; // this step's move was already accounted (by onArrival)

// Bits of the `metrics.salsa` column.
const ENCOUNTER = 1; // tracking a head-on encounter
const STEER_LEFT = 2; // the agent's velocity is left of its line of sight to the other
const STEER_RIGHT = 4; // … right of it
const REVERSED = 8; // the steering side changed during this encounter
const PENDING_LEFT = 16; // steering left since \`metrics.salsaSince\`, not yet for SALSA_SIDE_TIME
const PENDING_RIGHT = 32; // … right

/** A head-on encounter starts within this centre distance (m). */
const SALSA_RANGE = 4;
/** Velocities more than 135° apart are opposed: the cosine of their angle is below this. */
const SALSA_OPPOSED_COS = -Math.SQRT1_2;
/** The other must be less than ri + rj + this to the side of the agent's heading (m). */
const SALSA_LATERAL_MARGIN = 1;
/** An encounter whose agents drift farther apart than this ends uncounted (m). */
const SALSA_END_RANGE = 6;
/**
 * Agents not in an encounter look for a new one every this many steps, staggered by trip id
 * (0.2 s at dt = 0.05 s: oncoming walkers close at most ~1 m meanwhile, well inside the 4 m range).
 */
const SALSA_SCAN_STEPS = 4;
/** The steering side is set only when |sin| of the angle from line of sight to velocity exceeds this. */
const SALSA_SIDE_SIN = 0.1;
/** … and only once the agent has steered to that side for this long (s). */
const SALSA_SIDE_TIME = 0.25;

/** Pairs closer than 2 × largest radius + this (m) are candidates for `minDistance`. */
const MIN_DISTANCE_MARGIN = 1;
/** Turn rates are measured only above this speed (m/s) in both steps. */
const TURN_MIN_SPEED = 0.1;
/** Slack on the stuck timer for rounding in differences of step times (s). */
const TIME_EPSILON = 1e-9;

/**
 * Measures a run as a {@linkcode WorldObserver}: add it with `world.addObserver`, step the world,
 * then read {@linkcode MetricsCollector.result}. One collector observes one world.
 *
 * Definitions (agent-steps are evaluated on the state at the end of each step):
 * - a pair collides when its centre distance is < ri + rj − `overlapTolerance`; `minDistance`
 *   only sees pairs within 2 × (largest radius) + 1 m of each other;
 * - a trip starts whenever an agent is placed (respawns included) and for every agent not yet
 *   arrived when the collector is attached; for those, distance walked (path efficiency) and the
 *   stuck timer start at attach, while time to goal still counts from the trip's `spawnTime`;
 * - speed, turn rate and stuck time are measured while a trip has not arrived; collisions, wall
 *   penetrations and `minDistance` include agents that arrived and stay;
 * - a trip is stuck once its distance to goal has not improved by `stuckProgress` on its best
 *   for `stuckSeconds`; each trip counts at most once;
 * - line and wall crossings use a half-open side test, so a centre that ends a step exactly on a
 *   line is not counted twice; throughput crossing times are interpolated within the step;
 * - `salsa`: an agent on its trip, walking faster than 0.1 m/s, starts a head-on encounter with
 *   the nearest other such agent within 4 m whose velocity is more than 135° from its own, that is
 *   ahead of it, closing in, and less than ri + rj + 1 m to the side of its heading (one encounter
 *   per agent at a time). While it lasts, the agent steers left or right when its velocity has been
 *   more than asin 0.1 (5.7°) left or right of its preferred velocity (set by navigation, before
 *   and independently of the strategy) for 0.25 s. The encounter ends when the other
 *   is no longer ahead along the agent's heading at the start (they passed): it counts when the
 *   steering side changed at least once. It ends uncounted when they drift more than 6 m apart or
 *   either arrives or leaves. Each agent of a pair counts its own encounter.
 *
 * @example Two agents walking through each other collide
 * ```ts
 * import { MetricsCollector } from "./collector.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * world.addAgent({ x: -3, y: 0, goalX: 3, goalY: 0, desiredSpeed: 1 });
 * world.addAgent({ x: 3, y: 0, goalX: -3, goalY: 0, desiredSpeed: 1 });
 * const metrics = new MetricsCollector();
 * world.addObserver(metrics);
 * while (!world.finished) world.step();
 * const result = metrics.result();
 * assert.ok(result.collisions > 0);
 * assert.equal(result.arrivedFraction, 1);
 * ```
 */
export class MetricsCollector implements WorldObserver {
  /** Overlaps smaller than this are ignored (m). */
  readonly overlapTolerance: number;
  /** Time without progress after which a trip is stuck (s). */
  readonly stuckSeconds: number;
  /** Least improvement of the best distance to goal that counts as progress (m). */
  readonly stuckProgress: number;
  /** The throughput line, if any. */
  readonly throughputLine: ThroughputLine | undefined;

  #world: World | null = null;
  // Run totals.
  #steps = 0;
  #msSum = 0;
  #time = 0;
  #collisions = 0;
  #maxPenetration = 0;
  #minDistanceSq = Infinity;
  #wallPenetrations = 0;
  #wallCrossings = 0;
  #trips = 0;
  #arrivals = 0;
  #timesToGoal = new Float64Array(64);
  #efficiencySum = 0;
  #efficiencyCount = 0;
  #speedSum = 0;
  #speedCount = 0;
  #turnSum = 0;
  #turnCount = 0;
  #stuck = 0;
  #salsa = 0;
  #lineCrossings = 0;
  #lineFirst = Infinity;
  #lineLast = -Infinity;
  // Reused query buffers; grown when a query reports more items than they hold.
  #pairs = new NeighbourQuery();
  #segments = new NeighbourQuery();
  // Obstacle version the polygon boxes were built for; boxes are [minX, minY, maxX, maxY] each.
  #obstacleVersion = -1;
  #polygonBoxes = new Float64Array(0);
  #insideStale = false;
  // Columns, fetched again by #bind before every use (they are replaced when the store grows).
  #state!: Uint8Array;
  #fromX!: Float64Array;
  #fromY!: Float64Array;
  #lastX!: Float64Array;
  #lastY!: Float64Array;
  #lastVx!: Float64Array;
  #lastVy!: Float64Array;
  #travelled!: Float64Array;
  #bestDistance!: Float64Array;
  #progressTime!: Float64Array;
  #salsaBits!: Uint8Array;
  #salsaPartner!: Uint32Array;
  #salsaHint!: Int32Array;
  #salsaAxisX!: Float64Array;
  #salsaAxisY!: Float64Array;
  #salsaSince!: Float64Array;

  /** Throws a RangeError or TypeError naming the option when one is out of range or malformed. */
  constructor(options: MetricsCollectorOptions = {}) {
    if (options === null || typeof options !== "object") {
      throw new TypeError(
        `Cannot create metrics collector as its options must be an object: got ${options}`,
      );
    }
    const { throughputLine, ...thresholds } = options;
    const resolved = resolveOptions("metrics collector", METRICS_COLLECTOR_OPTIONS, thresholds);
    this.overlapTolerance = resolved.overlapTolerance;
    this.stuckSeconds = resolved.stuckSeconds;
    this.stuckProgress = resolved.stuckProgress;
    this.throughputLine = throughputLine === undefined ? undefined : _checkLine(throughputLine);
  }

  /** Registers the `metrics.*` columns and starts a trip for every agent not yet arrived. */
  attach(world: World): void {
    if (this.#world !== null) {
      throw new Error(
        "Cannot attach a MetricsCollector to a second world: create one collector per world",
      );
    }
    if (world.agents.hasColumn(METRICS_COLUMNS[0].name)) {
      throw new Error(
        `Cannot attach a MetricsCollector to a world that already has one (column '${
          METRICS_COLUMNS[0].name
        }' exists)`,
      );
    }
    this.#world = world;
    for (const spec of METRICS_COLUMNS) world.agents.registerColumn(spec);
    this.#bind(world);
    this.#time = world.time;
    const a = world.agents;
    for (let i = 0; i < a.count; i++) {
      if ((a.flags[i] & AgentFlags.arrived) !== 0) {
        this.#state[i] = SEEN | DONE;
        this.#updateInside(world.obstacles, i, a.px[i], a.py[i]);
      } else {
        this.#startTrip(world, i, a.px[i], a.py[i], world.time, false);
      }
    }
  }

  /** Accounts the final move of an arriving agent (it may leave before `afterStep`). */
  onArrival(world: World, index: number): void {
    this.#bind(world);
    const a = world.agents, state = this.#state;
    if ((state[index] & SEEN) === 0) {
      this.#startTrip(world, index, a.startX[index], a.startY[index], a.spawnTime[index], true);
    }
    if ((state[index] & ACCOUNTED) === 0) this.#accountMove(world, index);
    state[index] |= ACCOUNTED;
    if ((state[index] & DONE) !== 0) return; // a second arrival of the same trip
    state[index] |= DONE;
    if (this.#arrivals === this.#timesToGoal.length) {
      const grown = new Float64Array(this.#arrivals * 2);
      grown.set(this.#timesToGoal);
      this.#timesToGoal = grown;
    }
    this.#timesToGoal[this.#arrivals++] = world.time - a.spawnTime[index];
    const travelled = this.#travelled[index];
    if (travelled > 0) {
      const dx = a.px[index] - this.#fromX[index], dy = a.py[index] - this.#fromY[index];
      this.#efficiencySum += Math.sqrt(dx * dx + dy * dy) / travelled;
      this.#efficiencyCount++;
    }
  }

  /** Counts the trip of an agent removed before any step observed it. */
  onRemove(world: World, index: number): void {
    this.#bind(world);
    if ((this.#state[index] & SEEN) === 0) this.#trips++;
  }

  /**
   * Accounts every agent's move, then counts pairs, wall contacts and head-on encounters on the
   * new state.
   */
  afterStep(world: World): void {
    this.#bind(world);
    this.#steps++;
    this.#msSum += world.lastStepMs;
    this.#time = world.time;
    const a = world.agents, n = a.count, state = this.#state, time = world.time;
    const spawnTime = a.spawnTime;
    for (let i = 0; i < n; i++) {
      const bits = state[i];
      if ((bits & SEEN) === 0) {
        if (spawnTime[i] === time) {
          // Placed during this step's bookkeeping: it has not moved yet.
          this.#startTrip(world, i, a.px[i], a.py[i], time, false);
          continue;
        }
        this.#startTrip(world, i, a.startX[i], a.startY[i], spawnTime[i], true);
      } else if ((bits & ACCOUNTED) !== 0) {
        state[i] = bits & ~ACCOUNTED;
        continue;
      }
      this.#accountMove(world, i);
    }
    if (this.#insideStale) {
      for (let i = 0; i < n; i++) this.#updateInside(world.obstacles, i, a.px[i], a.py[i]);
      this.#insideStale = false;
    }
    this.#countPairs(world);
    this.#countWallPenetrations(world);
    this.#trackEncounters(world);
  }

  /** The metrics so far. */
  result(): RunMetrics {
    const arrivals = this.#arrivals;
    const times = this.#timesToGoal.slice(0, arrivals).sort();
    let timeSum = 0;
    for (let k = 0; k < arrivals; k++) timeSum += times[k];
    const crossings = this.#lineCrossings, span = this.#lineLast - this.#lineFirst;
    return {
      collisions: this.#collisions,
      maxPenetration: this.#maxPenetration,
      wallPenetrations: this.#wallPenetrations,
      wallCrossings: this.#wallCrossings,
      minDistance: this.#minDistanceSq === Infinity ? null : Math.sqrt(this.#minDistanceSq),
      arrivedFraction: this.#trips > 0 ? arrivals / this.#trips : null,
      meanTimeToGoal: arrivals > 0 ? timeSum / arrivals : null,
      p95TimeToGoal: arrivals > 0 ? _quantile(times, 0.95) : null,
      meanSpeed: this.#speedCount > 0 ? this.#speedSum / this.#speedCount : null,
      pathEfficiency: this.#efficiencyCount > 0
        ? this.#efficiencySum / this.#efficiencyCount
        : null,
      meanTurnRate: this.#turnCount > 0 ? this.#turnSum / this.#turnCount : null,
      salsa: this.#salsa,
      stuck: this.#stuck,
      throughput: crossings >= 2 && span > 0 ? (crossings - 1) / span : null,
      msPerStep: this.#steps > 0 ? this.#msSum / this.#steps : null,
      steps: this.#steps,
      time: this.#time,
      trips: this.#trips,
      arrivals,
    };
  }

  #bind(world: World): void {
    if (world !== this.#world) {
      throw new Error(
        "This MetricsCollector observes another world: add it with world.addObserver",
      );
    }
    const a = world.agents;
    this.#state = a.column<Uint8Array>("metrics.state");
    this.#fromX = a.column("metrics.fromX");
    this.#fromY = a.column("metrics.fromY");
    this.#lastX = a.column("metrics.lastX");
    this.#lastY = a.column("metrics.lastY");
    this.#lastVx = a.column("metrics.lastVx");
    this.#lastVy = a.column("metrics.lastVy");
    this.#travelled = a.column("metrics.travelled");
    this.#bestDistance = a.column("metrics.bestDistance");
    this.#progressTime = a.column("metrics.progressTime");
    this.#salsaBits = a.column<Uint8Array>("metrics.salsa");
    this.#salsaPartner = a.column<Uint32Array>("metrics.salsaPartner");
    this.#salsaHint = a.column<Int32Array>("metrics.salsaHint");
    this.#salsaAxisX = a.column("metrics.salsaAxisX");
    this.#salsaAxisY = a.column("metrics.salsaAxisY");
    this.#salsaSince = a.column("metrics.salsaSince");
    const obstacles = world.obstacles;
    if (obstacles.version !== this.#obstacleVersion) {
      this.#boxPolygons(obstacles);
      this.#obstacleVersion = obstacles.version;
      this.#insideStale = true;
    }
  }

  /**
   * Counts a new trip of agent `i` that started at (`x`, `y`) at time `t`; `moved` says whether
   * it has walked since (its previous velocity is then unknown).
   */
  #startTrip(world: World, i: number, x: number, y: number, t: number, moved: boolean): void {
    const a = world.agents;
    this.#trips++;
    this.#state[i] = SEEN;
    this.#fromX[i] = this.#lastX[i] = x;
    this.#fromY[i] = this.#lastY[i] = y;
    this.#travelled[i] = 0;
    this.#lastVx[i] = moved ? 0 : a.vx[i];
    this.#lastVy[i] = moved ? 0 : a.vy[i];
    const gx = a.goalX[i] - x, gy = a.goalY[i] - y;
    this.#bestDistance[i] = Math.sqrt(gx * gx + gy * gy);
    this.#progressTime[i] = t;
    this.#updateInside(world.obstacles, i, x, y);
  }

  /** Accounts the move of agent `i` from its last recorded position to its current one. */
  #accountMove(world: World, i: number): void {
    const a = world.agents, state = this.#state;
    const x0 = this.#lastX[i], y0 = this.#lastY[i], x1 = a.px[i], y1 = a.py[i];
    const dx = x1 - x0, dy = y1 - y0;
    const length = Math.sqrt(dx * dx + dy * dy);
    this.#travelled[i] += length;
    if (length > 0) {
      if (world.obstacles.segmentCount > 0) {
        this.#checkWallCrossing(world.obstacles, i, x0, y0, x1, y1, length);
      }
      const line = this.throughputLine;
      if (line !== undefined) {
        const s = _crossingFraction(
          x0,
          y0,
          x1,
          y1,
          line.from[0],
          line.from[1],
          line.to[0],
          line.to[1],
        );
        if (s >= 0) {
          const t = world.time - (1 - s) * world.dt;
          this.#lineCrossings++;
          if (t < this.#lineFirst) this.#lineFirst = t;
          if (t > this.#lineLast) this.#lineLast = t;
        }
      }
    }
    this.#lastX[i] = x1;
    this.#lastY[i] = y1;
    const vx = a.vx[i], vy = a.vy[i];
    const bits = state[i];
    if ((bits & DONE) === 0) {
      const speed = Math.sqrt(vx * vx + vy * vy);
      this.#speedSum += speed;
      this.#speedCount++;
      const pvx = this.#lastVx[i], pvy = this.#lastVy[i];
      if (speed > TURN_MIN_SPEED && pvx * pvx + pvy * pvy > TURN_MIN_SPEED * TURN_MIN_SPEED) {
        this.#turnSum += Math.abs(Math.atan2(pvx * vy - pvy * vx, pvx * vx + pvy * vy)) / world.dt;
        this.#turnCount++;
      }
      if ((bits & STUCK) === 0) {
        const gx = a.goalX[i] - x1, gy = a.goalY[i] - y1;
        const distance = Math.sqrt(gx * gx + gy * gy);
        if (this.#bestDistance[i] - distance >= this.stuckProgress) {
          this.#bestDistance[i] = distance;
          this.#progressTime[i] = world.time;
        } else if (world.time - this.#progressTime[i] >= this.stuckSeconds - TIME_EPSILON) {
          state[i] = bits | STUCK;
          this.#stuck++;
        }
      }
    }
    this.#lastVx[i] = vx;
    this.#lastVy[i] = vy;
  }

  /**
   * Counts a wall crossing when the move (x0, y0)→(x1, y1) of agent `i` crosses a segment, and
   * re-tests whether its centre is inside a polygon when the move touches a polygon edge.
   */
  #checkWallCrossing(
    obstacles: StaticObstacles,
    i: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    length: number,
  ): void {
    // Every point of the move lies within length / 2 of its midpoint.
    const mx = (x0 + x1) / 2, my = (y0 + y1) / 2, reach = length / 2 + 1e-9;
    const count = this.#segments.segments(obstacles, mx, my, reach);
    const segments = this.#segments.found;
    const ax = obstacles.ax, ay = obstacles.ay, bx = obstacles.bx, by = obstacles.by;
    let crossed = false, touchedPolygon = false;
    for (let k = 0; k < count; k++) {
      const s = segments[k];
      if (!segmentsIntersect(x0, y0, x1, y1, ax[s], ay[s], bx[s], by[s])) continue;
      if (obstacles.solidLeft[s] === 1) touchedPolygon = true;
      if (!crossed && _crossingFraction(x0, y0, x1, y1, ax[s], ay[s], bx[s], by[s]) >= 0) {
        crossed = true;
      }
    }
    if (crossed) this.#wallCrossings++;
    if (touchedPolygon) this.#updateInside(obstacles, i, x1, y1);
  }

  /** Sets or clears the INSIDE bit of agent `i` for a centre at (`x`, `y`). */
  #updateInside(obstacles: StaticObstacles, i: number, x: number, y: number): void {
    const boxes = this.#polygonBoxes, polygons = obstacles.polygons;
    let inside = false;
    for (let p = 0; p < polygons.length && !inside; p++) {
      const b = 4 * p;
      if (x < boxes[b] || y < boxes[b + 1] || x > boxes[b + 2] || y > boxes[b + 3]) continue;
      inside = pointInPolygon(x, y, polygons[p]);
    }
    this.#state[i] = inside ? this.#state[i] | INSIDE : this.#state[i] & ~INSIDE;
  }

  #boxPolygons(obstacles: StaticObstacles): void {
    const polygons = obstacles.polygons;
    if (this.#polygonBoxes.length < 4 * polygons.length) {
      this.#polygonBoxes = new Float64Array(4 * polygons.length);
    }
    const boxes = this.#polygonBoxes;
    for (let p = 0; p < polygons.length; p++) {
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (const [x, y] of polygons[p]) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      boxes[4 * p] = minX;
      boxes[4 * p + 1] = minY;
      boxes[4 * p + 2] = maxX;
      boxes[4 * p + 3] = maxY;
    }
  }

  /** Counts colliding pairs, the deepest overlap and the closest approach on the world's grid. */
  #countPairs(world: World): void {
    const a = world.agents, n = a.count;
    if (n < 2) return;
    const px = a.px, py = a.py, radius = a.radius, grid = world.grid;
    let maxRadius = 0;
    for (let i = 0; i < n; i++) if (radius[i] > maxRadius) maxRadius = radius[i];
    const range = 2 * maxRadius + MIN_DISTANCE_MARGIN, tolerance = this.overlapTolerance;
    let minDistanceSq = this.#minDistanceSq, maxPenetration = this.#maxPenetration;
    let collisions = 0;
    for (let i = 0; i < n; i++) {
      const x = px[i], y = py[i], ri = radius[i];
      const count = this.#pairs.agents(grid, x, y, range, i);
      const near = this.#pairs.found;
      for (let k = 0; k < count; k++) {
        const j = near[k];
        if (j <= i) continue; // each pair once
        const dx = px[j] - x, dy = py[j] - y;
        const distanceSq = dx * dx + dy * dy;
        if (distanceSq < minDistanceSq) minDistanceSq = distanceSq;
        const contact = ri + radius[j];
        if (distanceSq < contact * contact) {
          const penetration = contact - Math.sqrt(distanceSq);
          if (penetration > maxPenetration) maxPenetration = penetration;
          if (penetration > tolerance) collisions++;
        }
      }
    }
    this.#minDistanceSq = minDistanceSq;
    this.#maxPenetration = maxPenetration;
    this.#collisions += collisions;
  }

  /**
   * Head-on encounters for `salsa` (see the class doc): continues each agent's encounter, or
   * starts one with its nearest oncoming agent.
   */
  #trackEncounters(world: World): void {
    const a = world.agents, n = a.count;
    const px = a.px, py = a.py, vx = a.vx, vy = a.vy, flags = a.flags;
    const bits = this.#salsaBits, hint = this.#salsaHint;
    for (let i = 0; i < n; i++) {
      const b = bits[i];
      if ((flags[i] & AgentFlags.arrived) !== 0) {
        if (b !== 0) bits[i] = 0;
        continue;
      }
      const vix = vx[i], viy = vy[i];
      const speed = Math.sqrt(vix * vix + viy * viy);
      if ((b & ENCOUNTER) === 0) {
        if (speed > TURN_MIN_SPEED && (a.serial[i] + world.stepIndex) % SALSA_SCAN_STEPS === 0) {
          this.#startEncounter(world, i, speed);
        }
        continue;
      }
      const j = this.#findPartner(world, i);
      if (j < 0) {
        bits[i] = 0; // the other left or arrived
        continue;
      }
      hint[i] = j;
      const dx = px[j] - px[i], dy = py[j] - py[i];
      if (dx * this.#salsaAxisX[i] + dy * this.#salsaAxisY[i] <= 0) {
        if ((b & REVERSED) !== 0) this.#salsa++; // passed
        bits[i] = 0;
        continue;
      }
      if (dx * dx + dy * dy > SALSA_END_RANGE * SALSA_END_RANGE) {
        bits[i] = 0;
        continue;
      }
      if (speed > TURN_MIN_SPEED) this.#steer(i, _steering(a, i, speed), world.time, world.dt);
    }
  }

  /** Starts an encounter of agent `i` (moving at `speed`) with its nearest oncoming agent, if any. */
  #startEncounter(world: World, i: number, speed: number): void {
    const a = world.agents, x = a.px[i], y = a.py[i], vix = a.vx[i], viy = a.vy[i];
    const px = a.px, py = a.py, vx = a.vx, vy = a.vy, radius = a.radius, flags = a.flags;
    const count = this.#pairs.agents(world.grid, x, y, SALSA_RANGE, i);
    const near = this.#pairs.found;
    let best = -1, bestD2 = Infinity;
    for (let k = 0; k < count; k++) {
      const j = near[k];
      if ((flags[j] & AgentFlags.arrived) !== 0) continue;
      const vjx = vx[j], vjy = vy[j];
      const speedJ = Math.sqrt(vjx * vjx + vjy * vjy);
      if (!(speedJ > TURN_MIN_SPEED)) continue;
      if (vix * vjx + viy * vjy >= SALSA_OPPOSED_COS * speed * speedJ) continue; // not opposed
      const dx = px[j] - x, dy = py[j] - y;
      if (dx * vix + dy * viy <= 0) continue; // not ahead
      if (dx * (vjx - vix) + dy * (vjy - viy) >= 0) continue; // not closing in
      const lateral = Math.abs(dx * viy - dy * vix) / speed;
      if (lateral >= radius[i] + radius[j] + SALSA_LATERAL_MARGIN) continue;
      const d2 = dx * dx + dy * dy;
      if (d2 < bestD2) {
        bestD2 = d2;
        best = k;
      }
    }
    if (best < 0) return;
    const j = near[best];
    this.#salsaPartner[i] = a.serial[j];
    this.#salsaHint[i] = j;
    this.#salsaAxisX[i] = vix / speed;
    this.#salsaAxisY[i] = viy / speed;
    this.#salsaBits[i] = ENCOUNTER;
    this.#steer(i, _steering(a, i, speed), world.time, world.dt);
  }

  /**
   * Updates agent `i`'s steering side from `sin` (see `_steering`) for the step of `dt` (s) that
   * ended at `time` (s): a side beyond `SALSA_SIDE_SIN` becomes the agent's side once steered to
   * for `SALSA_SIDE_TIME`; taking the other side after one was set marks the encounter REVERSED.
   */
  #steer(i: number, sin: number, time: number, dt: number): void {
    const bits = this.#salsaBits[i];
    const side = sin > SALSA_SIDE_SIN ? STEER_LEFT : sin < -SALSA_SIDE_SIN ? STEER_RIGHT : 0;
    const held = bits & (STEER_LEFT | STEER_RIGHT);
    const pending = side === STEER_LEFT ? PENDING_LEFT : side === STEER_RIGHT ? PENDING_RIGHT : 0;
    let next = bits & ~(PENDING_LEFT | PENDING_RIGHT);
    if (side !== 0 && side !== held) {
      if ((bits & pending) === 0) this.#salsaSince[i] = time - dt; // a new side began this step
      if (time - this.#salsaSince[i] >= SALSA_SIDE_TIME - TIME_EPSILON) {
        next = (next & ~(STEER_LEFT | STEER_RIGHT)) | side | (held !== 0 ? REVERSED : 0);
      } else {
        next |= pending;
      }
    }
    this.#salsaBits[i] = next;
  }

  /**
   * Index of the agent that `i` is tracking: where it was last seen, or, after a swap-remove moved
   * it, found by its serial within the end range; -1 when it is gone or has arrived.
   */
  #findPartner(world: World, i: number): number {
    const a = world.agents, serial = this.#salsaPartner[i];
    let j = this.#salsaHint[i];
    if (!(j < a.count && j !== i && a.serial[j] === serial)) {
      j = -1;
      const count = this.#pairs.agents(world.grid, a.px[i], a.py[i], SALSA_END_RANGE, i);
      const near = this.#pairs.found;
      for (let k = 0; k < count && j < 0; k++) {
        if (a.serial[near[k]] === serial) j = near[k];
      }
    }
    return j >= 0 && (a.flags[j] & AgentFlags.arrived) === 0 ? j : -1;
  }

  /** Counts agents whose disc overlaps a segment beyond the tolerance or whose centre is inside a polygon. */
  #countWallPenetrations(world: World): void {
    const obstacles = world.obstacles;
    if (obstacles.segmentCount === 0) return;
    const a = world.agents, n = a.count, px = a.px, py = a.py, radius = a.radius;
    const state = this.#state, tolerance = this.overlapTolerance, segments = this.#segments.found;
    let count = 0;
    for (let i = 0; i < n; i++) {
      if ((state[i] & INSIDE) !== 0) {
        count++;
        continue;
      }
      // Only "any segment at all" matters here, so an overflowing query needs no second pass.
      const reach = radius[i] - tolerance;
      if (reach > 0 && obstacles.queryRadius(px[i], py[i], reach, segments) > 0) count++;
    }
    this.#wallPenetrations += count;
  }
}

/**
 * Fraction s ∈ [0, 1] along the move p0→p1 where it crosses segment a–b, or -1 when it does not.
 * Sides are half-open (a point on the line a–b counts as its left side), so a path that stops
 * exactly on the line crosses it once, not twice. Unlike `segmentsIntersect`, touching without
 * changing side is no crossing.
 */
function _crossingFraction(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const d0 = cross(ax, ay, bx, by, x0, y0), d1 = cross(ax, ay, bx, by, x1, y1);
  if ((d0 < 0) === (d1 < 0)) return -1;
  const ca = cross(x0, y0, x1, y1, ax, ay), cb = cross(x0, y0, x1, y1, bx, by);
  if ((ca > 0 && cb > 0) || (ca < 0 && cb < 0)) return -1;
  return d0 / (d0 - d1);
}

/**
 * Sine of the angle from agent `i`'s preferred velocity to its velocity (left positive; 0 without
 * a preferred velocity): the side it steers to, away from where navigation sends it.
 */
function _steering(a: World["agents"], i: number, speed: number): number {
  const pvx = a.prefVx[i], pvy = a.prefVy[i];
  const pref = Math.sqrt(pvx * pvx + pvy * pvy);
  return pref > 0 ? (pvx * a.vy[i] - pvy * a.vx[i]) / (pref * speed) : 0;
}

/** Linear-interpolation quantile (numpy's default) of ascending `sorted`, q ∈ [0, 1]. */
function _quantile(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

function _checkLine(line: ThroughputLine): ThroughputLine {
  const where = "Cannot create metrics collector as 'throughputLine";
  if (line === null || typeof line !== "object") {
    throw new TypeError(
      `${where}' must be an object { name, from, to }: current value is ${JSON.stringify(line)}`,
    );
  }
  if (typeof line.name !== "string" || line.name.length === 0) {
    throw new TypeError(
      `${where}.name' must be a non-empty string: current value is ${JSON.stringify(line.name)}`,
    );
  }
  for (const end of ["from", "to"] as const) {
    const p = line[end];
    if (!Array.isArray(p) || p.length !== 2 || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
      throw new TypeError(
        `${where}.${end}' must be two finite numbers [x, y] in metres: current value is ${
          JSON.stringify(p)
        }`,
      );
    }
  }
  if (line.from[0] === line.to[0] && line.from[1] === line.to[1]) {
    throw new RangeError(
      `${where}' must have two distinct ends: both are ${JSON.stringify(line.from)}`,
    );
  }
  return { name: line.name, from: [line.from[0], line.from[1]], to: [line.to[0], line.to[1]] };
}

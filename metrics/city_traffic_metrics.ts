/**
 * Metrics of pedestrians among cars: contacts, near misses, red-light crossings, kerb waiting,
 * trips, re-plans, stuck pedestrians and gridlocked cars. Measured from the world's state each
 * step (positions, the cars' rectangles, the lights), not from what the navigator believes.
 *
 * - **contacts**: pedestrian-steps where a body overlaps a car's rectangle (the goal is 0);
 *   `signalledContacts` counts those on a signalled crosswalk; `contactEncounters` counts each
 *   contact once however long it lasts (a pedestrian touching a car it did not touch the step
 *   before), so that one long encounter does not outweigh many short ones;
 * - **near misses**: times a pedestrian's time to collision with a car (both keeping their
 *   velocities) drops below 1 s without contact (counted once until it rises again);
 * - **red-light crossings**: times a pedestrian's centre steps off the kerb onto the stripes
 *   of a signalled crosswalk from the pavement (more than `KERB_BAND` m behind every kerb) while
 *   it shows don't walk; the road up to `STRAY` m beside the stripes counts as at the
 *   crosswalk, so straying off the stripes and back, moving from one crosswalk of a junction to
 *   the next, or stepping on after being pushed off the kerb beside them, is not a crossing;
 * - **kerb waits**: mean and 95th percentile of finished waits at a kerb (s), from the navigator;
 * - **trips per minute**, **re-plans**: from the navigator and the world's arrivals;
 * - **stuck pedestrians**: at each whole minute, pedestrians not waiting at a kerb that moved
 *   less than 1 m during that minute (the largest count is kept);
 * - **gridlocked cars**: cars that have not moved for 30 s or more, not counting red lights
 *   (the largest count), and cars moved elsewhere after a minute stuck.
 *
 * @module
 */
import { hypot2 } from "../core/geometry.ts";
import type { World, WorldObserver } from "../core/world.ts";
import type { CityModel } from "../geo/city_model.ts";
import type { CarSystem } from "../traffic/car_system.ts";
import { WalkSignal } from "../traffic/signal_cycle.ts";
import type { TrafficLights } from "../traffic/traffic_lights.ts";

/** What the metrics read from a city navigator (the `city-blocks` navigator has it). */
export interface CityNavigationCounters {
  /** Navigator statistics. */
  readonly stats: {
    readonly trips: number;
    readonly replans: number;
    readonly kerbWaits: readonly number[];
  };
}

/** A summary of a run among cars. */
export interface CityTrafficSummary {
  /** Simulated time (s). */
  seconds: number;
  /** Pedestrian-steps with a body overlapping a car. */
  contacts: number;
  /** Of those, on a signalled crosswalk. */
  signalledContacts: number;
  /** Contacts counted once each: a pedestrian touching a car it did not touch the step before. */
  contactEncounters: number;
  /** Largest overlap of a body with a car (m; 0 without contact). */
  maxContactDepth: number;
  /** Times a time to collision with a car fell below 1 s. */
  nearMisses: number;
  /** Steps onto a signalled crosswalk while it showed don't walk. */
  redLightCrossings: number;
  /** Finished kerb waits. */
  kerbWaits: number;
  /** Mean kerb wait (s). */
  meanKerbWait: number;
  /** 95th percentile kerb wait (s). */
  p95KerbWait: number;
  /** Trips completed (destinations reached, arrivals). */
  trips: number;
  /** Trips per simulated minute. */
  tripsPerMinute: number;
  /** Routes planned again around a street or after being stuck. */
  replans: number;
  /** Largest number of stuck pedestrians at a whole minute. */
  stuckPedestrians: number;
  /** Largest number of cars not moving for 30 s or more (red lights not counted). */
  gridlockedCars: number;
  /** Cars moved elsewhere after a minute stuck. */
  carRespawns: number;
}

/** Time to collision below this (s) is a near miss. */
const NEAR_MISS_TTC = 1;
/** A car not moving for this long (s) counts as gridlocked. */
const GRIDLOCK_TIME = 30;
/** Road beside the stripes that still counts as at the crosswalk (m). */
const STRAY = 20;
/**
 * Pavement beyond each kerb (m) that still counts as at the crosswalk: jostling across the kerb
 * line is not stepping on again. Less than the distance of the waiting place from the kerb.
 */
const KERB_BAND = 0.25;
/** Cell size (m) of the grid over crosswalks. */
const CELL = 16;

/**
 * Collects {@linkcode CityTrafficSummary} as a world observer.
 *
 * @example An empty city street has no contacts
 * ```ts
 * import { CityTrafficMetrics } from "./city_traffic_metrics.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * const metrics = new CityTrafficMetrics({ crossings: [] } as never);
 * world.addObserver(metrics);
 * world.step();
 * assert.equal(metrics.summary().contacts, 0);
 * ```
 */
export class CityTrafficMetrics implements WorldObserver {
  readonly #city: CityModel;
  readonly #cars: CarSystem | undefined;
  readonly #lights: TrafficLights | undefined;
  readonly #navigator: CityNavigationCounters | undefined;
  #contacts = 0;
  #signalledContacts = 0;
  #encounters = 0;
  #maxDepth = 0;
  #nearMisses = 0;
  #red = 0;
  #arrivals = 0;
  #stuck = 0;
  #gridlocked = 0;
  #seconds = 0;
  #minute = 0;
  /** Per agent index: crosswalk the centre is on (-1), near-miss state, minute marks. */
  #onCrossing = new Int32Array(0);
  #nearMiss = new Uint8Array(0);
  /** Per agent index: 1 + the vehicle it touched in the last step, 0 for none. */
  #touching = new Int32Array(0);
  #markX = new Float64Array(0);
  #markY = new Float64Array(0);
  readonly #dir = new Float64Array(2);
  /** Per crosswalk: first point, direction to the last one and its length (m), half width. */
  readonly #crossP: Float64Array;
  /** Crosswalk grid. */
  readonly #cellStart: Int32Array;
  readonly #cellItems: Int32Array;
  readonly #x0: number;
  readonly #y0: number;
  readonly #cols: number;
  readonly #rows: number;

  /**
   * @param city the city (its crossings)
   * @param cars the cars, when there is traffic
   * @param navigator the city navigator, for kerb waits, trips and re-plans
   */
  constructor(city: CityModel, cars?: CarSystem, navigator?: CityNavigationCounters) {
    this.#city = city;
    this.#cars = cars;
    this.#lights = cars?.lights;
    this.#navigator = navigator;
    const crossings = city.crossings;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const c of crossings) {
      for (const [x, y] of c.points) {
        minX = Math.min(minX, x - c.width - STRAY);
        minY = Math.min(minY, y - c.width - STRAY);
        maxX = Math.max(maxX, x + c.width + STRAY);
        maxY = Math.max(maxY, y + c.width + STRAY);
      }
    }
    if (crossings.length === 0) {
      minX =
        minY =
        maxX =
        maxY =
          0;
    }
    this.#x0 = minX;
    this.#y0 = minY;
    this.#cols = Math.floor((maxX - minX) / CELL) + 1;
    this.#rows = Math.floor((maxY - minY) / CELL) + 1;
    const lists: number[][] = Array.from({ length: this.#cols * this.#rows }, () => []);
    crossings.forEach((c, k) => {
      let a = Infinity, b = Infinity, e = -Infinity, f = -Infinity;
      for (const [x, y] of c.points) {
        a = Math.min(a, x - c.width - STRAY);
        b = Math.min(b, y - c.width - STRAY);
        e = Math.max(e, x + c.width + STRAY);
        f = Math.max(f, y + c.width + STRAY);
      }
      for (let cy = Math.floor((b - minY) / CELL); cy <= Math.floor((f - minY) / CELL); cy++) {
        for (let cx = Math.floor((a - minX) / CELL); cx <= Math.floor((e - minX) / CELL); cx++) {
          lists[cy * this.#cols + cx].push(k);
        }
      }
    });
    this.#cellStart = new Int32Array(lists.length + 1);
    lists.forEach((l, k) => this.#cellStart[k + 1] = this.#cellStart[k] + l.length);
    this.#cellItems = Int32Array.from(lists.flat());
    this.#crossP = new Float64Array(6 * crossings.length);
    crossings.forEach((c, k) => {
      const p = c.points[0], q = c.points[c.points.length - 1];
      const ex = q[0] - p[0], ey = q[1] - p[1];
      this.#crossP.set([p[0], p[1], ex, ey, Math.hypot(ex, ey), c.width / 2], 6 * k);
    });
  }

  /** Counts an arrival (a trip in `"goal"` mode). */
  onArrival(): void {
    this.#arrivals++;
  }

  /** Agent `index` leaves: the last agent takes its row (swap-remove), so its state moves too. */
  onRemove(world: World, index: number): void {
    const last = world.agents.count - 1;
    if (last >= this.#onCrossing.length) return;
    this.#onCrossing[index] = this.#onCrossing[last];
    this.#nearMiss[index] = this.#nearMiss[last];
    this.#touching[index] = this.#touching[last];
    this.#markX[index] = this.#markX[last];
    this.#markY[index] = this.#markY[last];
    // The freed row is a new agent's next: on the pavement, no near miss, no mark yet.
    this.#onCrossing[last] = -1;
    this.#nearMiss[last] = 0;
    this.#touching[last] = 0;
    this.#markX[last] = this.#markY[last] = NaN;
  }

  /** Measures the step. */
  afterStep(world: World): void {
    const a = world.agents, n = a.count, v = world.vehicles, time = world.time;
    this.#seconds = time;
    if (this.#onCrossing.length < n) this.#grow(a.capacity);
    const px = a.px, py = a.py, r = a.radius, vx = a.vx, vy = a.vy;
    const on = this.#onCrossing, near = this.#nearMiss, dir = this.#dir, touching = this.#touching;
    if (v.count > 0) {
      // Contacts and times to collision under NEAR_MISS_TTC happen within the reach map only.
      let rMax = 0, vMax = 0;
      for (let i = 0; i < n; i++) {
        const s = Math.sqrt(vx[i] * vx[i] + vy[i] * vy[i]);
        if (!(s <= vMax)) vMax = s;
        if (!(r[i] <= rMax)) rMax = r[i];
      }
      v.prepareReach(rMax * Math.SQRT2 + vMax * NEAR_MISS_TTC, NEAR_MISS_TTC);
    }
    // In the agent grid's order (close pedestrians together, so the crosswalks and cars they
    // look up stay in cache); every count here is the same in any order.
    const order = world.grid.count === n ? world.grid.sortedIndex : null;
    for (let k = 0; k < n; k++) {
      const i = order === null ? k : order[k];
      const x = px[i], y = py[i];
      // Crosswalk entered, and the light it showed.
      const c = this.#crossingAt(x, y, this.#dir);
      const stripes = c >= 0 && this.#dir[0] <= this.#city.crossings[c].width / 2 &&
        this.#dir[1] > 0;
      if (stripes && on[i] < 0 && this.#lights && this.#city.crossings[c].signalled) {
        if (this.#lights.walkSignal(c, time) === WalkSignal.dontWalk) {
          this.#red++;
        }
      }
      on[i] = c;
      if (v.count === 0) {
        touching[i] = 0;
        continue;
      }
      if (!v.mayReach(x, y)) {
        near[i] = 0; // as with no vehicle in the query below
        touching[i] = 0;
        continue;
      }
      const speed = hypot2(vx[i], vy[i]);
      // Of the vehicles in range, only those this body can touch within NEAR_MISS_TTC count.
      const m = v.queryTravel(x, y, r[i] * Math.SQRT2 + speed * NEAR_MISS_TTC, NEAR_MISS_TTC);
      let miss = 0, touched = 0;
      for (let j = 0; j < m; j++) {
        const k = v.near[j];
        const depth = r[i] - v.distance(k, x, y, dir);
        if (depth > 0) {
          this.#contacts++;
          if (touching[i] !== k + 1) this.#encounters++;
          if (touched === 0 || touching[i] === k + 1) touched = k + 1;
          if (c >= 0 && this.#city.crossings[c].signalled) this.#signalledContacts++;
          if (depth > this.#maxDepth) this.#maxDepth = depth;
        } else if (v.timeToContact(k, x, y, r[i], vx[i], vy[i], NEAR_MISS_TTC) < NEAR_MISS_TTC) {
          miss = 1;
        }
      }
      if (miss === 1 && near[i] === 0) this.#nearMisses++;
      near[i] = miss;
      touching[i] = touched;
    }
    // Whole minutes: stuck pedestrians and gridlocked cars.
    const minute = Math.floor(time / 60 + 1e-9);
    if (minute > this.#minute) {
      this.#minute = minute;
      const waiting = a.hasColumn("city.state") ? a.column<Uint8Array>("city.state") : null;
      let stuck = 0;
      for (let i = 0; i < n; i++) {
        const moved = Math.hypot(px[i] - this.#markX[i], py[i] - this.#markY[i]);
        if (minute > 1 && moved < 1 && (waiting === null || waiting[i] !== 1)) stuck++;
        this.#markX[i] = px[i];
        this.#markY[i] = py[i];
      }
      if (minute > 1) this.#stuck = Math.max(this.#stuck, stuck);
    }
    const cars = this.#cars;
    if (cars && world.stepIndex % 20 === 0) {
      let gridlocked = 0;
      const st = cars.cars.stuckTime;
      for (let k = 0; k < cars.cars.count; k++) if (st[k] >= GRIDLOCK_TIME) gridlocked++;
      this.#gridlocked = Math.max(this.#gridlocked, gridlocked);
    }
  }

  /** The summary so far. */
  summary(): CityTrafficSummary {
    const waits = [...(this.#navigator?.stats.kerbWaits ?? [])].sort((x, y) => x - y);
    const mean = waits.length ? waits.reduce((s, w) => s + w, 0) / waits.length : 0;
    const p95 = waits.length
      ? waits[Math.min(waits.length - 1, Math.floor(0.95 * waits.length))]
      : 0;
    const trips = (this.#navigator?.stats.trips ?? 0) + this.#arrivals;
    return {
      seconds: this.#seconds,
      contacts: this.#contacts,
      signalledContacts: this.#signalledContacts,
      contactEncounters: this.#encounters,
      maxContactDepth: this.#maxDepth,
      nearMisses: this.#nearMisses,
      redLightCrossings: this.#red,
      kerbWaits: waits.length,
      meanKerbWait: mean,
      p95KerbWait: p95,
      trips,
      tripsPerMinute: this.#seconds > 0 ? trips / (this.#seconds / 60) : 0,
      replans: this.#navigator?.stats.replans ?? 0,
      stuckPedestrians: this.#stuck,
      gridlockedCars: this.#gridlocked,
      carRespawns: this.#cars?.stats.respawns ?? 0,
    };
  }

  /**
   * The crosswalk whose stretch of road (and `KERB_BAND` of pavement at each end) holds (x, y),
   * or -1; `out[0]` is the distance from its centre line (m), `out[1]` 1 on the road itself.
   */
  #crossingAt(x: number, y: number, out: Float64Array): number {
    const cx = Math.floor((x - this.#x0) / CELL), cy = Math.floor((y - this.#y0) / CELL);
    if (cx < 0 || cy < 0 || cx >= this.#cols || cy >= this.#rows) return -1;
    const cell = cy * this.#cols + cx, cp = this.#crossP, items = this.#cellItems;
    // Stripes first: near a junction the road beside one crosswalk is another's stripes.
    let found = -1, foundAcross = Infinity, foundRoad = 0;
    for (let k = this.#cellStart[cell]; k < this.#cellStart[cell + 1]; k++) {
      const j = 6 * items[k], p0 = cp[j], p1 = cp[j + 1], ex = cp[j + 2], ey = cp[j + 3];
      const len = cp[j + 4];
      if (len === 0) continue;
      const along = ((x - p0) * ex + (y - p1) * ey) / len;
      const across = Math.abs((x - p0) * ey - (y - p1) * ex) / len;
      const over = across - cp[j + 5];
      if (along > -KERB_BAND && along < len + KERB_BAND && over <= STRAY && over < foundAcross) {
        found = items[k];
        foundAcross = over;
        foundRoad = along > 0 && along < len ? 1 : 0;
      }
    }
    out[0] = foundAcross + (found >= 0 ? cp[6 * found + 5] : 0);
    out[1] = foundRoad;
    return found;
  }

  #grow(capacity: number): void {
    const grow = <T extends Int32Array | Uint8Array | Float64Array>(
      old: T,
      make: (n: number) => T,
    ) => {
      const next = make(capacity);
      next.set(old as never);
      return next;
    };
    this.#onCrossing = grow(this.#onCrossing, (k) => new Int32Array(k).fill(-1));
    this.#nearMiss = grow(this.#nearMiss, (k) => new Uint8Array(k));
    this.#touching = grow(this.#touching, (k) => new Int32Array(k));
    this.#markX = grow(this.#markX, (k) => new Float64Array(k));
    this.#markY = grow(this.#markY, (k) => new Float64Array(k));
  }
}

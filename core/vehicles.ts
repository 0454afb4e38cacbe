/**
 * Vehicles as moving obstacles for pedestrians: oriented rectangles with velocities, in typed
 * arrays, indexed by a grid over their centres.
 *
 * Whoever drives the vehicles (a car system stepped by the world) writes their poses here once
 * per step, before navigation; every strategy reads them through its step context
 * (`ctx.vehicles`). Two reading helpers serve every model:
 *
 * - {@linkcode Vehicles.timeToContact}: when a pedestrian disc moving at a velocity first touches
 *   a rectangle that keeps its course (the velocity obstacle of P. Fiorini and Z. Shiller,
 *   Motion planning in dynamic environments using velocity obstacles, IJRR 17(7), 1998, tested
 *   for one velocity);
 * - {@linkcode Vehicles.repulsion}: an exponential push away from the nearest point of each
 *   nearby rectangle (the obstacle force of D. Helbing and P. Molnár, Social force model for
 *   pedestrian dynamics, Phys. Rev. E 51, 1995), for force models.
 *
 * {@linkcode avoidVehicles} is what every strategy runs last on the velocities it chose: a
 * velocity that would touch a vehicle keeping its course within `horizon` seconds is replaced
 * by the nearest safe one among slower and turned candidates (stopping included); a vehicle whose
 * path turns counts as its rectangle grown by its sweep (how far the turning body strays from the
 * straight course, {@linkcode Vehicles.sweep}). With no vehicle it returns at once.
 *
 * @module
 */
import { AgentGrid } from "./agent_grid.ts";
import { AgentFlags, type AgentStore } from "./agent_store.ts";

/** Seconds ahead a pedestrian's chosen velocity is checked against vehicles. */
export const VEHICLE_HORIZON = 1.5;
/** Clearance kept from a vehicle's rectangle on top of the pedestrian's radius (m). */
export const VEHICLE_MARGIN = 0.1;

/** Candidate headings (radians from the chosen direction) tried when a velocity is unsafe. */
const TURNS = [0, 0.5, -0.5, 1.0, -1.0, 1.57, -1.57, 2.2, -2.2, Math.PI];
/** Speed factors of the candidates (of the pedestrian's top speed). */
const SPEEDS = [1, 0.5];
/** Vehicles gathered per query at most. */
const MAX_NEAR = 64;
/**
 * Cell edges of the reach map (m): the pedestrian reach, within these bounds (a finer map marks
 * fewer points out of reach, a coarser one is cheaper to fill).
 */
const REACH_CELL_MIN = 2;
const REACH_CELL_MAX = 4;

/**
 * Oriented rectangles with velocities (struct of arrays). Rows `0 … count-1` are valid after
 * {@linkcode Vehicles.setCount}; fill them, then call {@linkcode Vehicles.finish}.
 *
 * @example A car passing and a pedestrian about to walk into it
 * ```ts
 * import { Vehicles } from "./vehicles.ts";
 * import assert from "node:assert/strict";
 * const v = new Vehicles();
 * v.setCount(1);
 * v.set(0, -12, 0, 1, 0, 4.5, 1.8, 10, 0); // centre (-12, 0), heading +x, 10 m/s
 * v.finish();
 * // 3 m beside its path, walking into it at 1.5 m/s: contact after about 1.2 s.
 * const t = v.timeToContact(0, 0, -3, 0.25, 0, 1.5, 5);
 * assert(t > 1.2 && t < 1.3);
 * assert.equal(v.timeToContact(0, 0, -3, 0.25, 0, -1.5, 5), Infinity);
 * ```
 */
export class Vehicles {
  /** Number of vehicles. */
  count = 0;
  /** Centre x (m). */
  cx: Float64Array = new Float64Array(0);
  /** Centre y (m). */
  cy: Float64Array = new Float64Array(0);
  /** Unit heading x. */
  dirX: Float64Array = new Float64Array(0);
  /** Unit heading y. */
  dirY: Float64Array = new Float64Array(0);
  /** Half the length (m). */
  halfLength: Float64Array = new Float64Array(0);
  /** Half the width (m). */
  halfWidth: Float64Array = new Float64Array(0);
  /** Velocity x (m/s). */
  vx: Float64Array = new Float64Array(0);
  /** Velocity y (m/s). */
  vy: Float64Array = new Float64Array(0);
  /**
   * How far (m) the body may stray beyond its rectangle carried straight on at its velocity
   * within {@linkcode VEHICLE_HORIZON}, because its path turns (0: it keeps its course). The
   * avoidance of {@linkcode avoidVehicles} grows the rectangle by this much on every side.
   */
  sweep: Float64Array = new Float64Array(0);
  /** Grid over the centres, rebuilt by {@linkcode Vehicles.finish}. */
  readonly grid: AgentGrid = new AgentGrid({ cellSize: 10 });
  /**
   * Half the diagonal of each rectangle grown by its sweep (m), written by
   * {@linkcode Vehicles.finish}.
   */
  halfDiagonal: Float64Array = new Float64Array(0);
  /** Speed of each vehicle (m/s), written by {@linkcode Vehicles.finish}. */
  speed: Float64Array = new Float64Array(0);
  /**
   * Largest half diagonal of the vehicles without a sweep (m); those with one are found through
   * a grid of their own (few turn at once, and their grown reach would widen every query).
   */
  maxHalfDiagonal = 0;
  /** Largest vehicle speed (m/s). */
  maxSpeed = 0;
  /** Scratch for grid queries (do not keep references). */
  readonly near: Uint32Array = new Uint32Array(MAX_NEAR);
  /** Version, increased by every {@linkcode Vehicles.finish}. */
  version = 0;

  /** Grid over the centres of the vehicles with a sweep, their indices, and their largest reach. */
  readonly #sweeping: AgentGrid = new AgentGrid({ cellSize: 10 });
  #sweepIndex: Uint32Array = new Uint32Array(0);
  #sweepX: Float64Array = new Float64Array(0);
  #sweepY: Float64Array = new Float64Array(0);
  #sweepCount = 0;
  #sweepDiagonal = 0;
  /** Scratch of the query of the sweeping vehicles. */
  readonly #sweepNear: Uint32Array = new Uint32Array(MAX_NEAR);
  /** Reach map (see `prepareReach`): 1 where a cell may lie within some vehicle's reach. */
  #reach: Uint8Array = new Uint8Array(0);
  #reachCols = 0;
  #reachRows = 0;
  /** Inverse cell edge of the reach map (1/m). */
  #reachInv = 1 / REACH_CELL_MAX;
  #reachX0 = 0;
  #reachY0 = 0;
  /** Whether the map answers at all (false: every point may be in reach). */
  #reachValid = false;
  #reachVersion = -1;
  #reachPed = NaN;
  #reachHorizon = NaN;
  /** Scratch: each vehicle's reach (m) in the last map. */
  #reachOf: Float64Array = new Float64Array(0);
  /** Grids over the midpoints of the vehicles' travel, for two horizons (see `queryTravel`). */
  readonly #travel: [TravelIndex, TravelIndex] = [new TravelIndex(), new TravelIndex()];
  /** Which of `#travel` was rebuilt last. */
  #travelLast = 0;

  /** Sets the number of vehicles, growing the columns when needed (keeps existing rows). */
  setCount(count: number): void {
    if (count > this.cx.length) {
      const n = Math.max(count, 2 * this.cx.length, 16);
      const grow = (a: Float64Array) => {
        const b = new Float64Array(n);
        b.set(a);
        return b;
      };
      this.cx = grow(this.cx);
      this.cy = grow(this.cy);
      this.dirX = grow(this.dirX);
      this.dirY = grow(this.dirY);
      this.halfLength = grow(this.halfLength);
      this.halfWidth = grow(this.halfWidth);
      this.vx = grow(this.vx);
      this.vy = grow(this.vy);
      this.sweep = grow(this.sweep);
      this.halfDiagonal = grow(this.halfDiagonal);
      this.speed = grow(this.speed);
    }
    this.count = count;
  }

  /**
   * Writes vehicle `k`: centre (m), unit heading, length and width (m), velocity (m/s), and
   * how far its turning body may stray from the rectangle carried straight on (m; see
   * {@linkcode Vehicles.sweep}).
   */
  set(
    k: number,
    cx: number,
    cy: number,
    dirX: number,
    dirY: number,
    length: number,
    width: number,
    vx: number,
    vy: number,
    sweep = 0,
  ): void {
    this.cx[k] = cx;
    this.cy[k] = cy;
    this.dirX[k] = dirX;
    this.dirY[k] = dirY;
    this.halfLength[k] = 0.5 * length;
    this.halfWidth[k] = 0.5 * width;
    this.vx[k] = vx;
    this.vy[k] = vy;
    this.sweep[k] = sweep;
  }

  /** Rebuilds the grid and the bounds after the rows were written. */
  finish(): void {
    let diag = 0, speed = 0, swept = 0, sweptDiag = 0;
    if (this.#sweepIndex.length < this.count) {
      this.#sweepIndex = new Uint32Array(this.cx.length);
      this.#sweepX = new Float64Array(this.cx.length);
      this.#sweepY = new Float64Array(this.cx.length);
    }
    for (let k = 0; k < this.count; k++) {
      const grow = this.sweep[k];
      const hl = this.halfLength[k] + grow, hw = this.halfWidth[k] + grow;
      const d = Math.sqrt(hl * hl + hw * hw);
      const v = Math.sqrt(this.vx[k] * this.vx[k] + this.vy[k] * this.vy[k]);
      this.halfDiagonal[k] = d;
      this.speed[k] = v;
      if (grow > 0) {
        this.#sweepIndex[swept] = k;
        this.#sweepX[swept] = this.cx[k];
        this.#sweepY[swept++] = this.cy[k];
        sweptDiag = Math.max(sweptDiag, d);
      } else {
        diag = Math.max(diag, d);
      }
      speed = Math.max(speed, v);
    }
    this.maxHalfDiagonal = diag;
    this.maxSpeed = speed;
    this.#sweepCount = swept;
    this.#sweepDiagonal = sweptDiag;
    this.grid.rebuild(this.cx, this.cy, this.count);
    if (swept > 0) this.#sweeping.rebuild(this.#sweepX, this.#sweepY, swept);
    this.version++;
  }

  /**
   * Prepares {@linkcode Vehicles.mayReach} for the vehicles as they are now: marks every point
   * within `halfDiagonal + pedestrianReach` (m) of the way some vehicle's centre travels at its
   * velocity over `horizon` seconds (with square cells of 2–4 m, so some farther points too).
   * A pedestrian with a radius (grown by any margin) of at most r and speed of at most v can
   * then touch a vehicle keeping its course within `horizon` seconds only where the map is
   * marked when `pedestrianReach ≥ r·√2 + v·horizon` (the rectangle grown by r lies within
   * `halfDiagonal + r·√2` of its centre, which is on that way at every moment). Free when the
   * vehicles have not changed since a call that asked for at least this reach and horizon: that
   * map marks a superset of this one's points (a wider reach around a longer way), so the
   * consumers of one step (the force models' push, {@linkcode avoidVehicles}, the near-miss
   * metric) share it when the widest asks first.
   *
   * @param pedestrianReach reach (m) on top of each vehicle's half diagonal and travel
   * @param horizon seconds of each vehicle's travel at its speed
   */
  prepareReach(pedestrianReach: number, horizon: number): void {
    if (
      this.#reachVersion === this.version && pedestrianReach <= this.#reachPed &&
      horizon <= this.#reachHorizon
    ) return;
    this.#reachVersion = this.version;
    this.#reachPed = pedestrianReach;
    this.#reachHorizon = horizon;
    const n = this.count;
    const cx = this.cx, cy = this.cy, diagonal = this.halfDiagonal;
    const vx = this.vx, vy = this.vy;
    this.#reachValid = false;
    if (!(pedestrianReach >= 0 && horizon >= 0) || !Number.isFinite(pedestrianReach + horizon)) {
      return;
    }
    if (n === 0) {
      this.#reachValid = true;
      this.#reachCols = this.#reachRows = 0;
      return;
    }
    // Each vehicle's reach around the path of its centre over the horizon, and the bounds of
    // all of them.
    if (this.#reachOf.length < n) this.#reachOf = new Float64Array(this.cx.length);
    const reachOf = this.#reachOf;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity, extra = 0;
    for (let k = 0; k < n; k++) {
      const x1 = cx[k] + vx[k] * horizon, y1 = cy[k] + vy[k] * horizon;
      minX = Math.min(minX, cx[k], x1);
      maxX = Math.max(maxX, cx[k], x1);
      minY = Math.min(minY, cy[k], y1);
      maxY = Math.max(maxY, cy[k], y1);
    }
    const scale = 1 + Math.max(Math.abs(minX), Math.abs(maxX), Math.abs(minY), Math.abs(maxY));
    const slack = 1e-9 * scale;
    for (let k = 0; k < n; k++) {
      const d = (diagonal[k] + pedestrianReach) * (1 + 1e-9) + slack;
      reachOf[k] = d;
      if (!(d <= extra)) extra = d;
    }
    if (!Number.isFinite(extra) || !Number.isFinite(scale)) return;
    const cell = Math.min(REACH_CELL_MAX, Math.max(REACH_CELL_MIN, pedestrianReach));
    const x0 = minX - extra - cell, y0 = minY - extra - cell;
    const cols = Math.floor((maxX + extra - x0) / cell) + 2;
    const rows = Math.floor((maxY + extra - y0) / cell) + 2;
    if (cols * rows > 1 << 24) return; // too large to map: every point may be in reach
    if (this.#reach.length < cols * rows) this.#reach = new Uint8Array(cols * rows);
    const map = this.#reach;
    map.fill(0, 0, cols * rows);
    const inv = 1 / cell;
    _markReach(map, cols, x0, y0, cell, n, cx, cy, vx, vy, reachOf, horizon);
    this.#reachInv = inv;
    this.#reachX0 = x0;
    this.#reachY0 = y0;
    this.#reachCols = cols;
    this.#reachRows = rows;
    this.#reachValid = true;
  }

  /**
   * False when (x, y) lies beyond the reach of every vehicle marked by the last
   * {@linkcode Vehicles.prepareReach}; true when it may lie within (or when no map is ready).
   */
  mayReach(x: number, y: number): boolean {
    if (!this.#reachValid || this.#reachVersion !== this.version) return true;
    const c = Math.floor((x - this.#reachX0) * this.#reachInv);
    const r = Math.floor((y - this.#reachY0) * this.#reachInv);
    if (!(c >= 0 && r >= 0 && c < this.#reachCols && r < this.#reachRows)) {
      // Outside the map (or NaN): beyond every vehicle's reach, unless NaN.
      return x !== x || y !== y;
    }
    return this.#reach[r * this.#reachCols + c] === 1;
  }

  /**
   * Vehicles whose rectangle (grown by its sweep) may come within `reach` (m) of (x, y) where
   * they stand now, written to {@linkcode Vehicles.near}; returns how many (at most its length).
   * For where they may be within a horizon, see {@linkcode Vehicles.queryTravel}.
   */
  query(x: number, y: number, reach: number): number {
    if (this.count === 0) return 0;
    const near = this.near, first = reach + this.maxHalfDiagonal;
    let n = this.grid.queryRadius(x, y, first, near);
    if (n > near.length) n = near.length;
    if (this.#sweepCount === 0) return n;
    const second = reach + this.#sweepDiagonal;
    if (!(second > first)) return n;
    // Turning vehicles reach farther: those the first query missed (the same test as its own).
    const more = this.#sweeping.queryRadius(x, y, second, this.#sweepNear);
    const cx = this.cx, cy = this.cy, index = this.#sweepIndex, r2 = first * first;
    for (let j = 0; j < more && j < MAX_NEAR && n < near.length; j++) {
      const k = index[this.#sweepNear[j]], dx = cx[k] - x, dy = cy[k] - y;
      if (!(dx * dx + dy * dy <= r2)) near[n++] = k;
    }
    return n;
  }

  /**
   * Vehicles whose rectangle (grown by its sweep), carried on at its velocity for `horizon`
   * seconds, may come within `reach` (m) of (x, y), written to {@linkcode Vehicles.near};
   * returns how many (at most its length). A vehicle is listed when the midpoint of the way its
   * centre travels lies within `reach + halfDiagonal + speed · horizon / 2` of (x, y), so the
   * nearer half of a disc search over that whole way is all that is read: a pedestrian's
   * look-up no longer reaches the fastest car's full travel on every side. The grid over the
   * midpoints is built on the first call after the vehicles changed, for the last two horizons
   * asked.
   */
  queryTravel(x: number, y: number, reach: number, horizon: number): number {
    if (this.count === 0) return 0;
    let index = this.#travel[0];
    if (!index.fits(this.version, horizon)) {
      index = this.#travel[1];
      if (!index.fits(this.version, horizon)) {
        this.#travelLast = 1 - this.#travelLast;
        index = this.#travel[this.#travelLast];
        index.build(this, horizon);
      }
    }
    const near = this.near;
    let n = index.grid.queryRadius(x, y, (reach + index.maxReach) * (1 + 1e-9) + 1e-9, near);
    if (n > near.length) n = near.length;
    const mx = index.mx, my = index.my, reachOf = index.reachOf;
    let kept = 0;
    for (let j = 0; j < n; j++) {
      const k = near[j], dx = x - mx[k], dy = y - my[k];
      const d = (reach + reachOf[k]) * (1 + 1e-9) + 1e-9;
      if (dx * dx + dy * dy <= d * d) near[kept++] = k;
    }
    return kept;
  }

  /**
   * Distance (m) from (x, y) to the rectangle of vehicle `k` (0 inside), and the unit direction
   * from the rectangle's nearest point to (x, y) in `out[0..1]` (away from its centre inside).
   */
  distance(k: number, x: number, y: number, out: Float64Array): number {
    const ex = this.dirX[k], ey = this.dirY[k];
    const dx = x - this.cx[k], dy = y - this.cy[k];
    const u = dx * ex + dy * ey, w = -dx * ey + dy * ex;
    const hl = this.halfLength[k], hw = this.halfWidth[k];
    const cu = u < -hl ? -hl : u > hl ? hl : u, cw = w < -hw ? -hw : w > hw ? hw : w;
    let nu = u - cu, nw = w - cw;
    let d = Math.sqrt(nu * nu + nw * nw);
    if (d === 0) {
      // Inside: out through the nearest side.
      if (hl - Math.abs(u) < hw - Math.abs(w)) {
        nu = u >= 0 ? 1 : -1;
        nw = 0;
      } else {
        nu = 0;
        nw = w >= 0 ? 1 : -1;
      }
      d = 0;
      out[0] = nu * ex - nw * ey;
      out[1] = nu * ey + nw * ex;
      return 0;
    }
    out[0] = (nu * ex - nw * ey) / d;
    out[1] = (nu * ey + nw * ex) / d;
    return d;
  }

  /**
   * First time (s, within `horizon`) at which a disc of radius `r` at (x, y) moving at
   * (vx, vy) touches vehicle `k` moving at its velocity, the rectangle grown by `r` on every side
   * (square corners: slightly cautious), and by its {@linkcode Vehicles.sweep} when `swept`. 0
   * when they touch now and the disc moves further in, or stands in the sweep alone (where the
   * turning body may swing) and will not be out of it within `horizon`; Infinity when they do
   * not touch within the horizon, or touch now and the disc moves out.
   */
  timeToContact(
    k: number,
    x: number,
    y: number,
    r: number,
    vx: number,
    vy: number,
    horizon: number,
    swept = false,
  ): number {
    const ex = this.dirX[k], ey = this.dirY[k];
    const dx = x - this.cx[k], dy = y - this.cy[k];
    const rvx = vx - this.vx[k], rvy = vy - this.vy[k];
    // The disc's centre and relative velocity in the vehicle's frame.
    const u = dx * ex + dy * ey, w = -dx * ey + dy * ex;
    const du = rvx * ex + rvy * ey, dw = -rvx * ey + rvy * ex;
    const sweep = swept ? this.sweep[k] : 0;
    const hu = this.halfLength[k] + r + sweep, hw = this.halfWidth[k] + r + sweep;
    if (u > -hu && u < hu && w > -hw && w < hw) {
      // Touching now: moving further in along the shallower axis is contact; within the sweep
      // alone (where the turning body may swing), so is not being out of it by the horizon.
      const pu = hu - Math.abs(u), pw = hw - Math.abs(w);
      const inward = pu < pw ? -Math.sign(u) * du : -Math.sign(w) * dw;
      if (inward > 1e-9) return 0;
      const depth = pu < pw ? pu : pw;
      return depth <= sweep && -inward * horizon < depth ? 0 : Infinity;
    }
    let t0 = 0, t1 = horizon;
    if (du === 0) {
      if (u <= -hu || u >= hu) return Infinity;
    } else {
      let a = (-hu - u) / du, b = (hu - u) / du;
      if (a > b) {
        const s = a;
        a = b;
        b = s;
      }
      if (a > t0) t0 = a;
      if (b < t1) t1 = b;
    }
    if (dw === 0) {
      if (w <= -hw || w >= hw) return Infinity;
    } else {
      let a = (-hw - w) / dw, b = (hw - w) / dw;
      if (a > b) {
        const s = a;
        a = b;
        b = s;
      }
      if (a > t0) t0 = a;
      if (b < t1) t1 = b;
    }
    return t0 < t1 ? t0 : Infinity;
  }

  /**
   * Earliest contact (s) of the disc at (x, y) moving at (vx, vy) with any of the first `n`
   * vehicles of {@linkcode Vehicles.near}, within `horizon` (their rectangles grown by their
   * sweep when `swept`); Infinity if none.
   */
  earliestContact(
    n: number,
    x: number,
    y: number,
    r: number,
    vx: number,
    vy: number,
    horizon: number,
    swept = false,
  ): number {
    let best = Infinity;
    const near = this.near;
    for (let j = 0; j < n; j++) {
      const t = this.timeToContact(near[j], x, y, r, vx, vy, horizon, swept);
      if (t < best) best = t;
    }
    return best;
  }

  /**
   * Adds to `out[0..1]` the push (m/s²) of every vehicle within `range · 6` of a disc of radius
   * `r` at (x, y): `strength · exp((r − d) / range)` away from the rectangle's nearest point at
   * distance d. Returns how many vehicles pushed.
   */
  repulsion(
    x: number,
    y: number,
    r: number,
    strength: number,
    range: number,
    out: Float64Array,
    scratch: Float64Array,
  ): number {
    const cutoff = r + 6 * range;
    const n = this.query(x, y, cutoff);
    let pushed = 0;
    for (let j = 0; j < n; j++) {
      const d = this.distance(this.near[j], x, y, scratch);
      if (d > cutoff) continue;
      const f = strength * Math.exp((r - d) / range);
      out[0] += f * scratch[0];
      out[1] += f * scratch[1];
      pushed++;
    }
    return pushed;
  }
}

/**
 * Marks in `map` (`cols` columns of square cells `cell` m wide from (x0, y0)) every cell that
 * may hold a point within `reachOf[k]` (m) of the way vehicle k's centre travels over `horizon`
 * seconds, for vehicles `0 … n-1`: the cells overlapping the bounds of that capsule whose centre
 * lies within it grown by half the cell's diagonal, found row by row as the centres on its chord.
 */
function _markReach(
  map: Uint8Array,
  cols: number,
  x0: number,
  y0: number,
  cell: number,
  n: number,
  cx: Float64Array,
  cy: Float64Array,
  vx: Float64Array,
  vy: Float64Array,
  reachOf: Float64Array,
  horizon: number,
): void {
  const inv = 1 / cell, halfCell = cell / 2, cellReach = halfCell * Math.SQRT2;
  for (let k = 0; k < n; k++) {
    const ax = cx[k], ay = cy[k], ux = vx[k] * horizon, uy = vy[k] * horizon;
    const d = reachOf[k], reach = d + cellReach, reach2 = reach * reach;
    const len2 = ux * ux + uy * uy, across = reach * Math.sqrt(len2);
    const invUx = 1 / ux, invUy = 1 / uy;
    const cMin = Math.floor((Math.min(ax, ax + ux) - d - x0) * inv);
    const cMax = Math.floor((Math.max(ax, ax + ux) + d - x0) * inv);
    const r0 = Math.floor((Math.min(ay, ay + uy) - d - y0) * inv);
    const r1 = Math.floor((Math.max(ay, ay + uy) + d - y0) * inv);
    for (let r = r0; r <= r1; r++) {
      const dy = y0 + r * cell + halfCell - ay;
      let lo = Infinity, hi = -Infinity;
      // The discs at both ends of the way.
      let h = reach2 - dy * dy;
      if (h >= 0) {
        h = Math.sqrt(h);
        lo = -h;
        hi = h;
      }
      const dy1 = dy - uy;
      h = reach2 - dy1 * dy1;
      if (h >= 0) {
        h = Math.sqrt(h);
        if (ux - h < lo) lo = ux - h;
        if (ux + h > hi) hi = ux + h;
      }
      if (len2 > 0) {
        // The band between them: 0 <= (x, dy)·u <= |u|² and |x uy - dy ux| <= reach |u|.
        let a = -Infinity, b = Infinity;
        const along = dy * uy;
        if (ux !== 0) {
          const p = -along * invUx, q = (len2 - along) * invUx;
          a = p < q ? p : q;
          b = p < q ? q : p;
        } else if (along < 0 || along > len2) a = Infinity;
        if (uy !== 0) {
          const p = (dy * ux - across) * invUy, q = (dy * ux + across) * invUy;
          if ((p < q ? p : q) > a) a = p < q ? p : q;
          if ((p < q ? q : p) < b) b = p < q ? q : p;
        } else if (Math.abs(dy * ux) > across) a = Infinity;
        if (a <= b) {
          if (a < lo) lo = a;
          if (b > hi) hi = b;
        }
      }
      if (!(lo <= hi)) continue;
      let c0 = Math.ceil((ax + lo - x0) * inv - 0.5);
      let c1 = Math.floor((ax + hi - x0) * inv - 0.5);
      if (c0 < cMin) c0 = cMin;
      if (c1 > cMax) c1 = cMax;
      for (let c = r * cols + c0, e = r * cols + c1; c <= e; c++) map[c] = 1;
    }
  }
}

/** A grid over the midpoints of the vehicles' travel over one horizon (see `queryTravel`). */
class TravelIndex {
  /** The grid over `mx`, `my`. */
  readonly grid: AgentGrid = new AgentGrid({ cellSize: 10 });
  /** Midpoint of each vehicle's travel over the horizon (m). */
  mx: Float64Array = new Float64Array(0);
  /** Midpoint of each vehicle's travel over the horizon (m). */
  my: Float64Array = new Float64Array(0);
  /** Half diagonal plus half the travel of each vehicle (m). */
  reachOf: Float64Array = new Float64Array(0);
  /** Largest of `reachOf` (m). */
  maxReach = 0;
  #version = -1;
  #horizon = NaN;

  /** True when built for these vehicles (their version) and this horizon (s). */
  fits(version: number, horizon: number): boolean {
    return this.#version === version && this.#horizon === horizon;
  }

  /** Builds the grid for `vehicles` as they are and `horizon` (s). */
  build(vehicles: Vehicles, horizon: number): void {
    const n = vehicles.count;
    if (this.mx.length < n) {
      this.mx = new Float64Array(vehicles.cx.length);
      this.my = new Float64Array(vehicles.cx.length);
      this.reachOf = new Float64Array(vehicles.cx.length);
    }
    const h = 0.5 * horizon, cx = vehicles.cx, cy = vehicles.cy, vx = vehicles.vx;
    const vy = vehicles.vy, diag = vehicles.halfDiagonal, speed = vehicles.speed;
    let most = 0;
    for (let k = 0; k < n; k++) {
      this.mx[k] = cx[k] + vx[k] * h;
      this.my[k] = cy[k] + vy[k] * h;
      const d = diag[k] + speed[k] * h;
      this.reachOf[k] = d;
      if (!(d <= most)) most = d;
    }
    this.maxReach = most;
    this.grid.rebuild(this.mx, this.my, n);
    this.#version = vehicles.version;
    this.#horizon = horizon;
  }
}

/** Candidate scratch for {@linkcode avoidVehicles} (one per module: strategies run one at a time per thread). */
const best = new Float64Array(2);
/** Scratch: the way out of a vehicle a pedestrian overlaps. */
const away = new Float64Array(2);

/**
 * Makes the new velocities of agents `begin … end-1` safe from vehicles: a velocity that would
 * touch a vehicle keeping its course within `horizon` seconds (with `VEHICLE_MARGIN` added to the
 * radius, and the rectangle grown by the vehicle's {@linkcode Vehicles.sweep}: a turning body
 * strays from the straight course) is replaced by the safe candidate nearest to it — the same
 * heading slower, turned up to about 125° or reversed, at the agent's top or half its top speed,
 * or standing still — and when none is safe, by the nearest that touches no rectangle itself (a
 * sweep is a precaution, never worth a real contact), else by the candidate whose contact comes
 * last. An agent whose body already overlaps a vehicle steps straight out of it at its top speed.
 * Agents beyond every vehicle's reach over the horizon cost one look-up in the reach map
 * ({@linkcode Vehicles.prepareReach}), the others one grid query. Pass the step's agent `grid` to
 * visit the whole range in grid order (the result does not depend on the order; the data of
 * neighbours is then likely still cached). Returns the number of velocities changed.
 *
 * @example A pedestrian stops short of a passing car
 * ```ts
 * import { avoidVehicles, Vehicles } from "./vehicles.ts";
 * import { AgentStore } from "./agent_store.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore(1);
 * agents.add({ x: 0, y: -2, goalX: 0, goalY: 5 });
 * agents.newVy[0] = 1.3; // straight at the car's path
 * const v = new Vehicles();
 * v.setCount(1);
 * v.set(0, -8, 0, 1, 0, 4.5, 1.8, 10, 0);
 * v.finish();
 * assert.equal(avoidVehicles(agents, v, 0, 1), 1);
 * assert(agents.newVy[0] < 1.3);
 * ```
 */
export function avoidVehicles(
  agents: AgentStore,
  vehicles: Vehicles | undefined,
  begin: number,
  end: number,
  horizon = VEHICLE_HORIZON,
  grid: AgentGrid | null = null,
): number {
  if (vehicles === undefined || vehicles.count === 0) return 0;
  const px = agents.px, py = agents.py, radius = agents.radius, flags = agents.flags;
  const newVx = agents.newVx, newVy = agents.newVy, maxSpeed = agents.maxSpeed;
  const prefVx = agents.prefVx, prefVy = agents.prefVy;
  // The largest radius and chosen speed in the range bound where anyone's chosen velocity may
  // touch a vehicle (the slower candidates are tried only after it does): agents outside the
  // reach map keep their velocities without a query.
  let reachR = 0, reachV = 0;
  for (let i = begin; i < end; i++) {
    const ux = newVx[i], uy = newVy[i], speed = Math.sqrt(ux * ux + uy * uy);
    if (!(speed <= reachV)) reachV = speed;
    if (!(radius[i] <= reachR)) reachR = radius[i];
  }
  vehicles.prepareReach((reachR + VEHICLE_MARGIN) * Math.SQRT2 + reachV * horizon, horizon);
  const order = grid !== null && begin === 0 && end === agents.count && grid.count === end
    ? grid.sortedIndex
    : null;
  let changed = 0;
  for (let k = begin; k < end; k++) {
    const i = order === null ? k : order[k];
    if ((flags[i] & AgentFlags.frozen) !== 0) continue;
    const x = px[i], y = py[i];
    if (!vehicles.mayReach(x, y)) continue;
    const r = radius[i] + VEHICLE_MARGIN;
    const ux = newVx[i], uy = newVy[i];
    const speed = Math.sqrt(ux * ux + uy * uy);
    const top = Math.max(speed, maxSpeed[i] < 3 ? maxSpeed[i] : 3);
    const n = vehicles.queryTravel(x, y, r * Math.SQRT2 + top * horizon, horizon);
    if (n === 0) continue;
    // Already overlapping a vehicle (pressed there by others, or swept by a turning car's
    // body): step straight out of the deepest one, at once. Standing still would count as safe
    // below, and a car waits for a person on its path.
    let depth = 0;
    for (let j = 0; j < n; j++) {
      const over = radius[i] - vehicles.distance(vehicles.near[j], x, y, best);
      if (over > depth) {
        depth = over;
        away[0] = best[0];
        away[1] = best[1];
      }
    }
    if (depth > 0) {
      newVx[i] = away[0] * top;
      newVy[i] = away[1] * top;
      changed++;
      continue;
    }
    if (vehicles.earliestContact(n, x, y, r, ux, uy, horizon, true) === Infinity) continue;
    let hx = ux, hy = uy;
    if (speed < 1e-6) {
      hx = prefVx[i];
      hy = prefVy[i];
    }
    const h = Math.sqrt(hx * hx + hy * hy);
    let dirX = 1, dirY = 0;
    if (h > 1e-9) {
      dirX = hx / h;
      dirY = hy / h;
    }
    // Unsafe: the nearest safe candidate; else the nearest that touches no rectangle itself (the
    // sweeps are a precaution, never worth a real contact); else the one whose contact comes last.
    let bestCost = Infinity, latest = -1, latestX = 0, latestY = 0;
    let plainCost = Infinity, plainX = 0, plainY = 0;
    // Slower along the same heading first, then standing still, then turned candidates.
    for (let c = -4; c < TURNS.length * SPEEDS.length; c++) {
      let cx: number, cy: number;
      if (c < 0) {
        const f = c === -4 ? 0.75 : c === -3 ? 0.5 : c === -2 ? 0.25 : 0;
        cx = ux * f;
        cy = uy * f;
      } else {
        const a = TURNS[c >> 1], s = SPEEDS[c & 1] * top;
        const ca = Math.cos(a), sa = Math.sin(a);
        cx = (dirX * ca - dirY * sa) * s;
        cy = (dirX * sa + dirY * ca) * s;
      }
      const ex = cx - ux, ey = cy - uy, cost = ex * ex + ey * ey;
      // Once a safe candidate is known, one no nearer cannot replace it.
      if (cost >= bestCost) continue;
      const t = vehicles.earliestContact(n, x, y, r, cx, cy, horizon, true);
      if (t === Infinity) {
        bestCost = cost;
        best[0] = cx;
        best[1] = cy;
      } else if (bestCost === Infinity) {
        if (
          cost < plainCost && vehicles.earliestContact(n, x, y, r, cx, cy, horizon) === Infinity
        ) {
          plainCost = cost;
          plainX = cx;
          plainY = cy;
        }
        if (t > latest) {
          latest = t;
          latestX = cx;
          latestY = cy;
        }
      }
    }
    if (bestCost === Infinity) {
      best[0] = plainCost < Infinity ? plainX : latestX;
      best[1] = plainCost < Infinity ? plainY : latestY;
    }
    newVx[i] = best[0];
    newVy[i] = best[1];
    changed++;
  }
  return changed;
}

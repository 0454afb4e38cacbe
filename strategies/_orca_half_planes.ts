/**
 * ORCA half-planes (van den Berg, Guy, Lin, Manocha 2011): the constraint one neighbouring agent
 * puts on an agent's new velocity (Section 5.1, `ORCA_A|B^tau`) and the constraints of static
 * obstacle segments (Section 6, velocity obstacles of line segments with horizon `tau^O`).
 *
 * Every half-plane is pushed into an {@linkcode OrcaLines} buffer as a directed line whose left
 * side is allowed. Obstacle geometry follows the convention of RVO2: solid polygons are
 * counter-clockwise, so an agent sees a polygon edge only from its right. A two-sided wall is
 * treated as a polygon of zero thickness that runs along the polyline and back (for each
 * segment the agent sees the direction it is on the right of); an open end of a wall is a convex
 * vertex where the outline turns around.
 *
 * @module
 */
import { pointSegmentDistanceSq } from "../core/geometry.ts";
import type { StaticObstacles } from "../core/obstacles.ts";
import type { OrcaLines } from "./_orca_lp.ts";

/**
 * Encounters within 1° of exactly symmetric (head-on, one exactly behind the other, or both
 * standing in each other's way) always pass on the walking side, whatever the preference angle:
 * otherwise rounding noise, not the model, would decide. This is the sine of that angle.
 *
 * @example
 * ```ts
 * import { HEAD_ON_SIN } from "./_orca_half_planes.ts";
 * import assert from "node:assert/strict";
 * assert.ok(Math.abs(Math.asin(HEAD_ON_SIN) * 180 / Math.PI - 1) < 1e-12);
 * ```
 */
export const HEAD_ON_SIN = Math.sin(Math.PI / 180);
const HEAD_ON_SIN_SQ = HEAD_ON_SIN * HEAD_ON_SIN;

/**
 * When an encounter passes on the walking side and the nearest point of the velocity obstacle is
 * on its cut-off circle, the circle is touched at least this far (10°) towards the walking side,
 * so the optimal velocity leaves the line joining the two.
 */
const BIAS_ANGLE = Math.PI / 18;
const BIAS_SIN = Math.sin(BIAS_ANGLE);
const BIAS_COS = Math.cos(BIAS_ANGLE);

/** Squared sines of the side-preference angles, indexed by `OrcaNeighbors.oncoming`. */
const _sinSqScratch = new Float64Array(2);

/**
 * The segment grid is asked for this much more (m) than an agent needs, and the answer serves
 * the agents that follow as long as their discs lie inside.
 */
const CACHE_MARGIN = 1.5;

/** Relative margin against rounding in the "disc inside the cached disc" test. */
const CACHE_SLACK = 1e-9;

/** Slack of the "already covered by a previous obstacle line" test (m/s), as in RVO2. */
const COVERED_EPSILON = 1e-5;

/** Turns at or above this det of unit directions count as convex (collinear joints are convex). */
const CONVEX_EPSILON = -1e-12;

/**
 * The neighbours of one agent A as A sees them, as a struct of arrays filled by the caller: the
 * input of {@linkcode pushAgentLines} and {@linkcode pushContactLines}.
 *
 * @example One neighbour 2 m ahead
 * ```ts
 * import { OrcaNeighbors } from "./_orca_half_planes.ts";
 * import assert from "node:assert/strict";
 * const nb = new OrcaNeighbors(4);
 * nb.rpx[0] = 2;
 * nb.combinedRadius[0] = 0.5;
 * nb.share[0] = 0.5;
 * nb.count = 1;
 * assert.equal(nb.rpx.length, 4);
 * ```
 */
export class OrcaNeighbors {
  /** Number of neighbours. */
  count = 0;
  /** Relative position p_B − p_A, x (m). */
  rpx: Float64Array;
  /** Relative position p_B − p_A, y (m). */
  rpy: Float64Array;
  /** B's current velocity x (m/s). */
  vx: Float64Array;
  /** B's current velocity y (m/s). */
  vy: Float64Array;
  /** r_A + r_B (m). */
  combinedRadius: Float64Array;
  /** A's share of the avoidance: 0.5 (reciprocal), 1 when B does not react. */
  share: Float64Array;
  /** +1 or -1, opposite for A and B: separates two agents at exactly the same position. */
  tie: Float64Array;
  /**
   * 1 when A and B want to go opposite ways (their preferred directions are more than 90°
   * apart): an oncoming encounter, the only kind the walking side decides; 0 otherwise (walking
   * the same way, queueing, crossing at right angles, or either one without a preferred
   * velocity). Symmetric in A and B.
   */
  oncoming: Uint8Array;

  /** @param capacity initial number of neighbours the buffers hold */
  constructor(capacity = 16) {
    const n = Math.max(1, Math.floor(capacity));
    this.rpx = new Float64Array(n);
    this.rpy = new Float64Array(n);
    this.vx = new Float64Array(n);
    this.vy = new Float64Array(n);
    this.combinedRadius = new Float64Array(n);
    this.share = new Float64Array(n);
    this.tie = new Float64Array(n);
    this.oncoming = new Uint8Array(n);
  }

  /** Makes room for at least `capacity` neighbours (the contents are not kept). */
  reserve(capacity: number): void {
    if (capacity <= this.rpx.length) return;
    const fresh = new OrcaNeighbors(capacity);
    this.rpx = fresh.rpx;
    this.rpy = fresh.rpy;
    this.vx = fresh.vx;
    this.vy = fresh.vy;
    this.combinedRadius = fresh.combinedRadius;
    this.share = fresh.share;
    this.tie = fresh.tie;
    this.oncoming = fresh.oncoming;
  }
}

/**
 * Pushes the ORCA half-plane `ORCA_A|B^tau` of every neighbour B in `nb` onto agent A.
 *
 * @param vx A's current velocity x (m/s)
 * @param vy A's current velocity y (m/s)
 * @param invTau 1 / tau, the inverse time horizon (1/s)
 * @param invDt 1 / time step, used instead of 1/tau for pairs that already overlap (1/s)
 * @param side the walking side: +1 to pass on the right, -1 on the left
 * @param preferSin sine of the side-preference angle (at least {@linkcode HEAD_ON_SIN}):
 *   oncoming encounters (`nb.oncoming`) within this angle of head-on pass on the walking side;
 *   others only when exactly symmetric (within 1°)
 *
 * @example A head-on neighbour makes a walker on the right turn right
 * ```ts
 * import { OrcaNeighbors, pushAgentLines, HEAD_ON_SIN } from "./_orca_half_planes.ts";
 * import { linearProgram2, OrcaLines } from "./_orca_lp.ts";
 * import assert from "node:assert/strict";
 * const nb = new OrcaNeighbors(1);
 * nb.rpx[0] = 2; // 2 m ahead along +x, walking towards us at 1.3 m/s
 * nb.vx[0] = -1.3;
 * nb.combinedRadius[0] = 0.5;
 * nb.share[0] = 0.5;
 * nb.oncoming[0] = 1; // it wants to go the other way
 * nb.count = 1;
 * const lines = new OrcaLines();
 * pushAgentLines(lines, nb, 1.3, 0, 1 / 5, 1 / 0.05, +1, HEAD_ON_SIN);
 * const v = new Float64Array(2);
 * assert.equal(linearProgram2(lines, 1.7, 1.3, 0, false, v), 1);
 * assert.ok(v[1] < 0, "turns to its right (-y) while heading +x");
 * ```
 */
export function pushAgentLines(
  lines: OrcaLines,
  nb: OrcaNeighbors,
  vx: number,
  vy: number,
  invTau: number,
  invDt: number,
  side: number,
  preferSin: number,
): void {
  const n = nb.count;
  let k = lines.count;
  lines.reserve(k + n);
  const lpx = lines.px, lpy = lines.py, ldx = lines.dx, ldy = lines.dy;
  const nrpx = nb.rpx, nrpy = nb.rpy, nvx = nb.vx, nvy = nb.vy, nr = nb.combinedRadius;
  const nshare = nb.share, ntie = nb.tie, noncoming = nb.oncoming;
  const sinSqOf = _sinSqScratch;
  sinSqOf[0] = HEAD_ON_SIN_SQ;
  sinSqOf[1] = preferSin * preferSin;
  for (let m = 0; m < n; m++) {
    const rpx = nrpx[m], rpy = nrpy[m], vbx = nvx[m], vby = nvy[m], combinedRadius = nr[m];
    const rvx = vx - vbx, rvy = vy - vby;
    const distSq = rpx * rpx + rpy * rpy;
    const rSq = combinedRadius * combinedRadius;
    let dirX: number, dirY: number, ux: number, uy: number;
    // Oncoming encounters pass on the walking side within the preference angle; any other
    // encounter only when exactly symmetric (within 1°), so that rounding noise never decides.
    const sinSq = sinSqOf[+(noncoming[m] === 1)];
    if (distSq > rSq) {
      // No collision. w: from the centre of the cut-off circle to the relative velocity.
      const wx = rvx - invTau * rpx, wy = rvy - invTau * rpy;
      const wSq = wx * wx + wy * wy;
      const dot1 = wx * rpx + wy * rpy;
      const cross = rpx * wy - rpy * wx; // det(p, w): > 0 when w is left of the line to B
      const wrongSide = side * cross; // > 0: w on the side opposite the walking side
      // Whether the walking side decides is rarely true but, tested term by term, a coin toss
      // for the branch predictor at every term: the terms are evaluated branch-free and
      // combined, and only the (predictable) result is branched on.
      const prefers = _prefersSide(rpx, rpy, distSq, vx, vy, vbx, vby, wrongSide, wSq, sinSq);
      if (dot1 < 0 && dot1 * dot1 > rSq * wSq) {
        // The nearest boundary point of the velocity obstacle is on the cut-off circle.
        const wLen = Math.sqrt(wSq);
        const d = Math.sqrt(distSq);
        if (
          (+(-wrongSide < BIAS_SIN * d * wLen) & +(d * BIAS_COS >= combinedRadius) & prefers) !==
            0
        ) {
          // w is not yet 10° on the walking side: touch the circle there instead. The tangent
          // still excludes the whole velocity obstacle (d cos(10°) >= r), and the optimum
          // turns to the walking side.
          const hx = rpx / d, hy = rpy / d;
          const nx = -BIAS_COS * hx + BIAS_SIN * side * hy;
          const ny = -BIAS_COS * hy - BIAS_SIN * side * hx;
          dirX = ny;
          dirY = -nx;
          ux = invTau * (rpx + combinedRadius * nx) - rvx;
          uy = invTau * (rpy + combinedRadius * ny) - rvy;
        } else {
          const nx = wx / wLen, ny = wy / wLen;
          dirX = ny;
          dirY = -nx;
          const f = combinedRadius * invTau - wLen;
          ux = f * nx;
          uy = f * ny;
        }
      } else {
        // The nearest boundary point is on a leg of the cone.
        const leg = Math.sqrt(distSq - rSq);
        const inv = 1 / distSq;
        // The natural leg is on w's side; the walking side may overrule it. s = +1 for the left
        // leg, -1 for the right: the two legs in one branch-free expression (multiplying by
        // ±1 is exact, so this is bit for bit the formula of each leg).
        const left = (+(wrongSide >= 0) & prefers) !== 0 ? side < 0 : cross > 0;
        const s = 2 * +left - 1;
        const a = rpx * leg, b = rpy * combinedRadius;
        dirX = s * (a - s * b) * inv;
        dirY = (rpx * combinedRadius + s * (rpy * leg)) * inv;
        const dot2 = rvx * dirX + rvy * dirY;
        ux = dot2 * dirX - rvx;
        uy = dot2 * dirY - rvy;
      }
    } else {
      // Already overlapping: the cut-off circle of one time step, so the overlap is resolved
      // within the next step.
      let wx = rvx - invDt * rpx, wy = rvy - invDt * rpy;
      let wLen = Math.sqrt(wx * wx + wy * wy);
      if (!(wLen > 1e-12)) {
        // Degenerate: separate along the line joining them, or along x when they coincide.
        const d = Math.sqrt(distSq);
        wx = d > 0 ? -rpx / d : ntie[m];
        wy = d > 0 ? -rpy / d : 0;
        wLen = 0;
      } else {
        wx /= wLen;
        wy /= wLen;
      }
      dirX = wy;
      dirY = -wx;
      const f = combinedRadius * invDt - wLen;
      ux = f * wx;
      uy = f * wy;
    }
    const share = nshare[m];
    lpx[k] = vx + share * ux;
    lpy[k] = vy + share * uy;
    ldx[k] = dirX;
    ldy[k] = dirY;
    k++;
  }
  lines.count = k;
}

/**
 * Pushes the one-step contact half-planes of the neighbours in `nb`: agent A may close in on B
 * by at most its share of their gap during the next step, `v · h <= share · gap / dt` with `h`
 * the unit vector towards B. When both agents of a pair keep to theirs, they do not overlap
 * after the step, whatever else they do; and the zero velocity satisfies all of them while no
 * pair overlaps, so together with the obstacle half-planes they are always feasible. Only
 * neighbours whose gap a speed of `maxSpeed` (m/s) could close get one.
 *
 * @example A neighbour 2 cm away may be approached by 1 cm in a step of 0.05 s
 * ```ts
 * import { OrcaNeighbors, pushContactLines } from "./_orca_half_planes.ts";
 * import { linearProgram2, OrcaLines } from "./_orca_lp.ts";
 * import assert from "node:assert/strict";
 * const nb = new OrcaNeighbors(1);
 * nb.rpx[0] = 0.52;
 * nb.combinedRadius[0] = 0.5;
 * nb.share[0] = 0.5;
 * nb.count = 1;
 * const lines = new OrcaLines();
 * pushContactLines(lines, nb, 1.5, 1 / 0.05);
 * const v = new Float64Array(2);
 * linearProgram2(lines, 1.5, 1.5, 0, false, v); // wants to walk straight into it
 * assert.ok(Math.abs(v[0] - 0.2) < 1e-12); // 0.01 m / 0.05 s
 * ```
 */
export function pushContactLines(
  lines: OrcaLines,
  nb: OrcaNeighbors,
  maxSpeed: number,
  invDt: number,
): void {
  const n = nb.count;
  const reach = (2 * maxSpeed) / invDt; // the largest gap two agents can close in one step
  const nrpx = nb.rpx, nrpy = nb.rpy, nr = nb.combinedRadius, nshare = nb.share;
  let k = lines.count;
  lines.reserve(k + n);
  const lpx = lines.px, lpy = lines.py, ldx = lines.dx, ldy = lines.dy;
  for (let m = 0; m < n; m++) {
    const rpx = nrpx[m], rpy = nrpy[m], near = nr[m] + reach;
    const distSq = rpx * rpx + rpy * rpy;
    if (distSq >= near * near || distSq === 0) continue;
    const d = Math.sqrt(distSq);
    const hx = rpx / d, hy = rpy / d;
    const c = nshare[m] * (d - nr[m]) * invDt;
    // The allowed side v · h <= c is the left of direction (-hy, hx).
    lpx[k] = c * hx;
    lpy[k] = c * hy;
    ldx[k] = -hy;
    ldy[k] = hx;
    k++;
  }
  lines.count = k;
}

/**
 * Per-segment geometry the obstacle half-planes need, kept in step with a
 * {@linkcode StaticObstacles} (recomputed when its `version` changes), plus the per-agent
 * scratch buffers of the obstacle query.
 *
 * @example A wall 1 m ahead limits the approach speed to (1 m − r) / tau^O
 * ```ts
 * import { OrcaObstacles } from "./_orca_half_planes.ts";
 * import { linearProgram2, OrcaLines } from "./_orca_lp.ts";
 * import { StaticObstacles } from "../core/obstacles.ts";
 * import assert from "node:assert/strict";
 * const obstacles = new StaticObstacles();
 * obstacles.addWall([[-5, 1], [5, 1]]);
 * const geometry = new OrcaObstacles();
 * geometry.update(obstacles);
 * const lines = new OrcaLines();
 * assert.equal(geometry.pushLines(obstacles, lines, 0, 0, 0, 0, 0.25, 1.5, 5), 1);
 * const v = new Float64Array(2);
 * linearProgram2(lines, 1.5, 0, 1.5, false, v);
 * assert.ok(Math.abs(v[1] - 0.75 / 5) < 1e-12);
 * ```
 */
export class OrcaObstacles {
  /** Obstacle version the arrays describe; -1 before the first update. */
  version = -1;
  /** Unit direction x of each segment (a → b). */
  ux: Float64Array = new Float64Array(0);
  /** Unit direction y of each segment (a → b). */
  uy: Float64Array = new Float64Array(0);
  /** 1 when vertex a is convex seen along a → b (the outline turns left or not at all there). */
  convexA: Uint8Array = new Uint8Array(0);
  /** 1 when vertex b is convex seen along b → a (walls only: their outline also runs back). */
  convexB: Uint8Array = new Uint8Array(0);

  #found: Uint32Array = new Uint32Array(32);
  #order: Int32Array = new Int32Array(32);
  #orderDistSq: Float64Array = new Float64Array(32);
  /** Number of segments in `#order` (visible, within the range of the last query). */
  #gathered = 0;
  /** The last answer of the segment grid, for a disc of `#cacheRange` (m) around the centre. */
  #cached: Uint32Array = new Uint32Array(32);
  #cachedCount = 0;
  #cacheX = 0;
  #cacheY = 0;
  #cacheRange = -Infinity;
  /** Obstacles and version of the cached answer. */
  #cacheSource: StaticObstacles | null = null;
  #cacheVersion = -1;
  /** The obstacles the per-segment arrays describe. */
  #source: StaticObstacles | null = null;

  /** Recomputes directions and convexity for other obstacles or when their geometry changed. */
  update(obstacles: StaticObstacles): void {
    if (obstacles === this.#source && obstacles.version === this.version) return;
    const n = obstacles.segmentCount;
    if (this.ux.length < n) {
      this.ux = new Float64Array(n);
      this.uy = new Float64Array(n);
      this.convexA = new Uint8Array(n);
      this.convexB = new Uint8Array(n);
    }
    const { ax, ay, bx, by, next, prev } = obstacles;
    const ux = this.ux, uy = this.uy;
    for (let s = 0; s < n; s++) {
      const ex = bx[s] - ax[s], ey = by[s] - ay[s];
      const len = Math.sqrt(ex * ex + ey * ey);
      ux[s] = ex / len;
      uy[s] = ey / len;
    }
    for (let s = 0; s < n; s++) {
      const p = prev[s], q = next[s];
      // Along a → b, vertex a is convex when the incoming edge turns left (or straight) into s.
      this.convexA[s] = p < 0 || ux[p] * uy[s] - uy[p] * ux[s] >= CONVEX_EPSILON ? 1 : 0;
      // Along b → a, the incoming edge at b is the reverse of the next segment.
      this.convexB[s] = q < 0 || ux[q] * uy[s] - uy[q] * ux[s] >= CONVEX_EPSILON ? 1 : 0;
    }
    this.version = obstacles.version;
    this.#source = obstacles;
  }

  /**
   * Pushes the half-planes of the obstacle segments within `timeHorizonObst · maxSpeed + radius`
   * of an agent at (`px`, `py`) with velocity (`vx`, `vy`), nearest segment first, skipping
   * those already covered by earlier obstacle lines. Must run before any agent line is pushed
   * (the coverage test reads every line in `lines`). Returns the number of lines pushed.
   *
   * @param radius the agent's radius (m)
   * @param maxSpeed the agent's speed limit (m/s)
   * @param timeHorizonObst tau^O (s)
   */
  pushLines(
    obstacles: StaticObstacles,
    lines: OrcaLines,
    px: number,
    py: number,
    vx: number,
    vy: number,
    radius: number,
    maxSpeed: number,
    timeHorizonObst: number,
  ): number {
    const count = this.#gather(obstacles, px, py, timeHorizonObst * maxSpeed + radius);
    return this.#pushFirst(obstacles, lines, count, px, py, vx, vy, radius, timeHorizonObst);
  }

  /**
   * {@linkcode OrcaObstacles.pushLines} for a shorter horizon, right after a call of it for the
   * same agent: the segments within the shorter range are the nearest of those that call found,
   * so the segment grid is not asked again (unless two of them are equally far: then the order
   * of a fresh query settles which comes first).
   *
   * @param timeHorizonObst the shorter horizon (s), at most the previous call's
   *
   * @example The safety horizon after the anticipation horizon
   * ```ts
   * import { OrcaObstacles } from "./_orca_half_planes.ts";
   * import { OrcaLines } from "./_orca_lp.ts";
   * import { StaticObstacles } from "../core/obstacles.ts";
   * import assert from "node:assert/strict";
   * const obstacles = new StaticObstacles();
   * obstacles.addWall([[-5, 0.9], [5, 0.9]]); // 0.9 m away
   * obstacles.addWall([[-5, -4], [5, -4]]); // 4 m away
   * const geometry = new OrcaObstacles();
   * geometry.update(obstacles);
   * const lines = new OrcaLines();
   * assert.equal(geometry.pushLines(obstacles, lines, 0, 0, 0, 0, 0.25, 1.5, 5), 2);
   * lines.count = 0;
   * // Over 0.5 s only the wall within 0.5 s · 1.5 m/s + 0.25 m = 1 m counts.
   * assert.equal(geometry.pushNearer(obstacles, lines, 0, 0, 0, 0, 0.25, 1.5, 0.5), 1);
   * ```
   */
  pushNearer(
    obstacles: StaticObstacles,
    lines: OrcaLines,
    px: number,
    py: number,
    vx: number,
    vy: number,
    radius: number,
    maxSpeed: number,
    timeHorizonObst: number,
  ): number {
    const range = timeHorizonObst * maxSpeed + radius, r2 = range * range;
    // Sorted by distance: those within range (the test of the segment grid) come first.
    const dist = this.#orderDistSq, gathered = this.#gathered;
    let count = 0;
    while (count < gathered && dist[count] <= r2) count++;
    for (let k = 1; k < count; k++) {
      if (dist[k] === dist[k - 1]) {
        count = this.#gather(obstacles, px, py, range);
        break;
      }
    }
    return this.#pushFirst(obstacles, lines, count, px, py, vx, vy, radius, timeHorizonObst);
  }

  /**
   * Finds the visible segments within `range` (m), nearest first (see `#sortVisible`): the
   * segment grid's answer. The grid is asked for a disc `CACHE_MARGIN` wider than needed, and
   * the next agents (solved in grid order, so nearby) whose disc lies inside it take their
   * segments from that answer with the grid's own distance test. Only the order of equally far
   * segments can differ from a query of their own: then the grid is asked.
   */
  #gather(obstacles: StaticObstacles, px: number, py: number, range: number): number {
    const dx = px - this.#cacheX, dy = py - this.#cacheY;
    const slack = CACHE_SLACK * (1 + Math.abs(px) + Math.abs(py) + range);
    if (
      !(this.#cacheSource === obstacles && this.#cacheVersion === obstacles.version &&
        Math.sqrt(dx * dx + dy * dy) + range <= this.#cacheRange - slack)
    ) {
      const wide = range + CACHE_MARGIN;
      let n = obstacles.queryRadius(px, py, wide, this.#cached);
      if (n > this.#cached.length) {
        this.#cached = new Uint32Array(2 * n);
        n = obstacles.queryRadius(px, py, wide, this.#cached);
      }
      this.#cachedCount = n;
      this.#cacheX = px;
      this.#cacheY = py;
      this.#cacheRange = wide;
      this.#cacheSource = obstacles;
      this.#cacheVersion = obstacles.version;
    }
    const n = this.#cachedCount, cached = this.#cached;
    if (this.#found.length < n) this.#growFound(n);
    const { ax, ay, bx, by } = obstacles;
    const found = this.#found, r2 = range * range;
    let count = 0;
    for (let c = 0; c < n; c++) {
      const s = cached[c];
      found[count] = s;
      count += +(pointSegmentDistanceSq(px, py, ax[s], ay[s], bx[s], by[s]) <= r2);
    }
    count = count === 0 ? 0 : this.#sortVisible(obstacles, count, px, py);
    const dist = this.#orderDistSq;
    for (let k = 1; k < count; k++) {
      if (dist[k] === dist[k - 1]) {
        count = this.#query(obstacles, px, py, range);
        break;
      }
    }
    this.#gathered = count;
    return count;
  }

  /** `#gather` without the cache: asks the segment grid for exactly `range`. */
  #query(obstacles: StaticObstacles, px: number, py: number, range: number): number {
    let found = obstacles.queryRadius(px, py, range, this.#found);
    if (found > this.#found.length) {
      this.#growFound(found);
      found = obstacles.queryRadius(px, py, range, this.#found);
    }
    return found === 0 ? 0 : this.#sortVisible(obstacles, found, px, py);
  }

  #growFound(n: number): void {
    this.#found = new Uint32Array(2 * n);
    this.#order = new Int32Array(2 * n);
    this.#orderDistSq = new Float64Array(2 * n);
  }

  /** Pushes the half-planes of the first `count` gathered segments; returns how many. */
  #pushFirst(
    obstacles: StaticObstacles,
    lines: OrcaLines,
    count: number,
    px: number,
    py: number,
    vx: number,
    vy: number,
    radius: number,
    timeHorizonObst: number,
  ): number {
    const before = lines.count;
    const order = this.#order;
    for (let k = 0; k < count; k++) {
      const code = order[k];
      this.#pushSegment(
        obstacles,
        lines,
        code >> 1,
        (code & 1) === 0,
        px,
        py,
        vx,
        vy,
        radius,
        timeHorizonObst,
      );
    }
    return lines.count - before;
  }

  /**
   * Keeps the found segments whose outer side faces the agent, as `segment << 1 | backward`,
   * ordered by distance (nearest first); returns how many.
   */
  #sortVisible(obstacles: StaticObstacles, found: number, px: number, py: number): number {
    const { ax, ay, bx, by, solidLeft } = obstacles;
    const ux = this.ux, uy = this.uy, seg = this.#found;
    const order = this.#order, dist = this.#orderDistSq;
    let count = 0;
    for (let k = 0; k < found; k++) {
      const s = seg[k];
      // det(u, p - a) < 0: the agent is on the right of a → b.
      const side = ux[s] * (py - ay[s]) - uy[s] * (px - ax[s]);
      let code: number;
      if (solidLeft[s] === 1) {
        if (!(side < 0)) continue; // inside the polygon or on the line of this edge
        code = s << 1;
      } else {
        code = (s << 1) | (side > 0 ? 1 : 0);
      }
      const d2 = pointSegmentDistanceSq(px, py, ax[s], ay[s], bx[s], by[s]);
      let j = count++;
      while (j > 0 && dist[j - 1] > d2) {
        dist[j] = dist[j - 1];
        order[j] = order[j - 1];
        j--;
      }
      dist[j] = d2;
      order[j] = code;
    }
    return count;
  }

  /** The half-plane of one directed obstacle edge (the core of Section 6 of the paper). */
  #pushSegment(
    obstacles: StaticObstacles,
    lines: OrcaLines,
    s: number,
    forward: boolean,
    px: number,
    py: number,
    vx: number,
    vy: number,
    radius: number,
    timeHorizonObst: number,
  ): void {
    const ux = this.ux, uy = this.uy;
    const next = obstacles.next[s], prev = obstacles.prev[s];
    // The directed edge A → B with unit direction e; ePrev enters A, eNext leaves B. At an open
    // wall end the outline turns around, so the neighbouring edge is the reverse of this one.
    let aX: number, aY: number, bX: number, bY: number, eX: number, eY: number;
    let ePrevX: number, ePrevY: number, eNextX: number, eNextY: number;
    let convexA: boolean, convexB: boolean;
    if (forward) {
      aX = obstacles.ax[s];
      aY = obstacles.ay[s];
      bX = obstacles.bx[s];
      bY = obstacles.by[s];
      eX = ux[s];
      eY = uy[s];
      ePrevX = prev >= 0 ? ux[prev] : -eX;
      ePrevY = prev >= 0 ? uy[prev] : -eY;
      eNextX = next >= 0 ? ux[next] : -eX;
      eNextY = next >= 0 ? uy[next] : -eY;
      convexA = this.convexA[s] === 1;
      convexB = next < 0 || this.convexA[next] === 1;
    } else {
      aX = obstacles.bx[s];
      aY = obstacles.by[s];
      bX = obstacles.ax[s];
      bY = obstacles.ay[s];
      eX = -ux[s];
      eY = -uy[s];
      ePrevX = next >= 0 ? -ux[next] : -eX;
      ePrevY = next >= 0 ? -uy[next] : -eY;
      eNextX = prev >= 0 ? -ux[prev] : -eX;
      eNextY = prev >= 0 ? -uy[prev] : -eY;
      convexA = this.convexB[s] === 1;
      convexB = prev < 0 || this.convexB[prev] === 1;
    }
    const invT = 1 / timeHorizonObst;
    const r1x = aX - px, r1y = aY - py, r2x = bX - px, r2y = bY - py;

    // Skip the edge when both its end points, seen through the horizon, already lie beyond one
    // of the lines pushed so far (by the agent's radius): its velocity obstacle is covered.
    const lpx = lines.px, lpy = lines.py, ldx = lines.dx, ldy = lines.dy;
    const rT = invT * radius;
    for (let j = 0; j < lines.count; j++) {
      const c1 = (invT * r1x - lpx[j]) * ldy[j] - (invT * r1y - lpy[j]) * ldx[j] - rT;
      const c2 = (invT * r2x - lpx[j]) * ldy[j] - (invT * r2y - lpy[j]) * ldx[j] - rT;
      if (c1 >= -COVERED_EPSILON && c2 >= -COVERED_EPSILON) return;
    }

    const distSq1 = r1x * r1x + r1y * r1y, distSq2 = r2x * r2x + r2y * r2y;
    const rSq = radius * radius;
    const obx = bX - aX, oby = bY - aY;
    const sParam = -(r1x * obx + r1y * oby) / (obx * obx + oby * oby);
    const offX = -r1x - sParam * obx, offY = -r1y - sParam * oby;
    const distSqLine = offX * offX + offY * offY;

    // Already touching the obstacle: forbid moving further into it (a line through the origin).
    if (sParam < 0 && distSq1 <= rSq) {
      // Touching vertex A; a concave vertex is covered by the edges that meet there.
      if (convexA) _pushNormalized(lines, 0, 0, -r1y, r1x);
      return;
    }
    if (sParam > 1 && distSq2 <= rSq) {
      // Touching vertex B; the next edge handles it unless the agent is in front of that edge.
      if (convexB && r2x * eNextY - r2y * eNextX >= 0) _pushNormalized(lines, 0, 0, -r2y, r2x);
      return;
    }
    if (sParam >= 0 && sParam < 1 && distSqLine <= rSq) {
      lines.push(0, 0, -eX, -eY);
      return;
    }

    // No collision: the velocity obstacle is bounded by two legs and the cut-off between the
    // vertices (scaled by 1/tau^O). Seen obliquely, one vertex defines both legs.
    let v1x: number, v1y: number, v2x: number, v2y: number;
    let convex1: boolean, convex2: boolean, single: boolean;
    let nbrX: number, nbrY: number; // direction of the edge entering vertex 1
    let dir1X: number, dir1Y: number; // direction of the edge leaving vertex 1
    let dir2X: number, dir2Y: number; // direction of the edge leaving vertex 2
    let leftX: number, leftY: number, rightX: number, rightY: number;
    if (sParam < 0 && distSqLine <= rSq) {
      if (!convexA) return; // seen past a concave vertex: the neighbouring edge handles it
      single = true;
      v1x = v2x = aX;
      v1y = v2y = aY;
      convex1 = convex2 = true;
      nbrX = ePrevX;
      nbrY = ePrevY;
      dir1X = dir2X = eX;
      dir1Y = dir2Y = eY;
      const leg = Math.sqrt(distSq1 - rSq);
      leftX = (r1x * leg - r1y * radius) / distSq1;
      leftY = (r1x * radius + r1y * leg) / distSq1;
      rightX = (r1x * leg + r1y * radius) / distSq1;
      rightY = (-r1x * radius + r1y * leg) / distSq1;
    } else if (sParam > 1 && distSqLine <= rSq) {
      if (!convexB) return;
      single = true;
      v1x = v2x = bX;
      v1y = v2y = bY;
      convex1 = convex2 = true;
      nbrX = eX;
      nbrY = eY;
      dir1X = dir2X = eNextX;
      dir1Y = dir2Y = eNextY;
      const leg = Math.sqrt(distSq2 - rSq);
      leftX = (r2x * leg - r2y * radius) / distSq2;
      leftY = (r2x * radius + r2y * leg) / distSq2;
      rightX = (r2x * leg + r2y * radius) / distSq2;
      rightY = (-r2x * radius + r2y * leg) / distSq2;
    } else {
      single = false;
      v1x = aX;
      v1y = aY;
      v2x = bX;
      v2y = bY;
      convex1 = convexA;
      convex2 = convexB;
      nbrX = ePrevX;
      nbrY = ePrevY;
      dir1X = eX;
      dir1Y = eY;
      dir2X = eNextX;
      dir2Y = eNextY;
      if (convexA) {
        const leg = Math.sqrt(distSq1 - rSq);
        leftX = (r1x * leg - r1y * radius) / distSq1;
        leftY = (r1x * radius + r1y * leg) / distSq1;
      } else {
        // Concave vertex A: the left leg continues the cut-off line.
        leftX = -eX;
        leftY = -eY;
      }
      if (convexB) {
        const leg = Math.sqrt(distSq2 - rSq);
        rightX = (r2x * leg + r2y * radius) / distSq2;
        rightY = (-r2x * radius + r2y * leg) / distSq2;
      } else {
        rightX = eX;
        rightY = eY;
      }
    }

    // A leg at a convex vertex never points into the neighbouring edge: use that edge's
    // direction instead, and add no constraint when the velocity projects onto such a
    // "foreign" leg (the neighbouring edge's own half-plane covers it).
    let leftForeign = false, rightForeign = false;
    if (convex1 && leftX * -nbrY - leftY * -nbrX >= 0) {
      leftX = -nbrX;
      leftY = -nbrY;
      leftForeign = true;
    }
    if (convex2 && rightX * dir2Y - rightY * dir2X <= 0) {
      rightX = dir2X;
      rightY = dir2Y;
      rightForeign = true;
    }

    const lcX = invT * (v1x - px), lcY = invT * (v1y - py); // left cut-off centre
    const rcX = invT * (v2x - px), rcY = invT * (v2y - py); // right cut-off centre
    const cvX = rcX - lcX, cvY = rcY - lcY;
    const t = single ? 0.5 : ((vx - lcX) * cvX + (vy - lcY) * cvY) / (cvX * cvX + cvY * cvY);
    const tLeft = (vx - lcX) * leftX + (vy - lcY) * leftY;
    const tRight = (vx - rcX) * rightX + (vy - rcY) * rightY;

    if ((t < 0 && tLeft < 0) || (single && tLeft < 0 && tRight < 0)) {
      _pushCircleTangent(lines, vx, vy, lcX, lcY, rT);
      return;
    }
    if (t > 1 && tRight < 0) {
      _pushCircleTangent(lines, vx, vy, rcX, rcY, rT);
      return;
    }

    // Project on the cut-off line, the left leg or the right leg, whichever is nearest.
    let distSqCutoff = Infinity, distSqLeft = Infinity, distSqRight = Infinity;
    if (!(t < 0 || t > 1 || single)) {
      const qx = vx - (lcX + t * cvX), qy = vy - (lcY + t * cvY);
      distSqCutoff = qx * qx + qy * qy;
    }
    if (!(tLeft < 0)) {
      const qx = vx - (lcX + tLeft * leftX), qy = vy - (lcY + tLeft * leftY);
      distSqLeft = qx * qx + qy * qy;
    }
    if (!(tRight < 0)) {
      const qx = vx - (rcX + tRight * rightX), qy = vy - (rcY + tRight * rightY);
      distSqRight = qx * qx + qy * qy;
    }
    let dX: number, dY: number, oX: number, oY: number;
    if (distSqCutoff <= distSqLeft && distSqCutoff <= distSqRight) {
      dX = -dir1X;
      dY = -dir1Y;
      oX = lcX;
      oY = lcY;
    } else if (distSqLeft <= distSqRight) {
      if (leftForeign) return;
      dX = leftX;
      dY = leftY;
      oX = lcX;
      oY = lcY;
    } else {
      if (rightForeign) return;
      dX = -rightX;
      dY = -rightY;
      oX = rcX;
      oY = rcY;
    }
    // The line is offset from the cut-off centre by the radius (scaled) to its right side.
    lines.push(oX - rT * dY, oY + rT * dX, dX, dY);
  }
}

/**
 * Whether the walking side decides the pair (1) or not (0): w lies on the other side of the
 * line to B by less than the angle whose squared sine is `sinSq` (`wrongSide` = side · det(p, w)),
 * the pair is not moving apart, and its summed velocity lies along that line within the same
 * angle, relative to their speeds (head-on, one behind the other, or standing; neighbours
 * converging side by side, as on a shrinking circle, do not qualify). All tests are symmetric in
 * A and B, so both agents of a pair decide alike. Branch-free (see the call site).
 */
function _prefersSide(
  rpx: number,
  rpy: number,
  distSq: number,
  vx: number,
  vy: number,
  vbx: number,
  vby: number,
  wrongSide: number,
  wSq: number,
  sinSq: number,
): number {
  const mx = vx + vbx, my = vy + vby;
  const along = rpx * my - rpy * mx;
  const speedSq = 2 * (vx * vx + vy * vy + vbx * vbx + vby * vby); // >= (|v_A| + |v_B|)²
  return +(wrongSide * Math.abs(wrongSide) <= sinSq * distSq * wSq) &
    +((vx - vbx) * rpx + (vy - vby) * rpy >= 0) &
    +(along * along <= sinSq * distSq * speedSq);
}

/** Pushes a line through (px, py) with direction (dx, dy) normalised. */
function _pushNormalized(lines: OrcaLines, px: number, py: number, dx: number, dy: number): void {
  const len = Math.sqrt(dx * dx + dy * dy);
  lines.push(px, py, dx / len, dy / len);
}

/**
 * Pushes the tangent to the cut-off circle of centre (cx, cy) and radius `r` at the point
 * nearest the velocity (vx, vy).
 */
function _pushCircleTangent(
  lines: OrcaLines,
  vx: number,
  vy: number,
  cx: number,
  cy: number,
  r: number,
): void {
  let wx = vx - cx, wy = vy - cy;
  const len = Math.sqrt(wx * wx + wy * wy);
  if (len > 0) {
    wx /= len;
    wy /= len;
  } else {
    // The velocity is the centre itself: take the side facing the agent's origin.
    const c = Math.sqrt(cx * cx + cy * cy);
    wx = c > 0 ? -cx / c : 1;
    wy = c > 0 ? -cy / c : 0;
  }
  lines.push(cx + r * wx, cy + r * wy, wy, -wx);
}

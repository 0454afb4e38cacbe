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
import { capacityFor, NeighbourQuery } from "../core/neighbour_query.ts";
import type { StaticObstacles } from "../core/obstacles.ts";
import { SegmentGrid } from "../core/segment_grid.ts";
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
  /** A's current velocity x (m/s). */
  ownVx = 0;
  /** A's current velocity y (m/s). */
  ownVy = 0;
  /** A's speed limit (m/s). */
  ownMaxSpeed = 0;
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
 * Step-wide settings of the agent half-planes ({@linkcode pushAgentLines},
 * {@linkcode pushContactLines}).
 */
export interface AgentLineSettings {
  /** 1 / tau, the inverse time horizon (1/s). */
  invTau: number;
  /** 1 / time step, used instead of 1/tau for pairs that already overlap (1/s). */
  invDt: number;
  /** The walking side: +1 to pass on the right, -1 on the left. */
  side: number;
  /**
   * Sine of the side-preference angle (at least {@linkcode HEAD_ON_SIN}): oncoming encounters
   * (`OrcaNeighbors.oncoming`) within this angle of head-on pass on the walking side; others
   * only when exactly symmetric (within 1°).
   */
  preferSin: number;
}

/**
 * Pushes the ORCA half-plane `ORCA_A|B^tau` of every neighbour B in `nb` onto agent A (whose
 * velocity is `nb.ownVx`, `nb.ownVy`).
 *
 * One loop of about 120 lines, on purpose: it is ORCA's innermost loop, its three cases
 * (cut-off circle, leg, overlap) share the relative position and velocity, and they are written
 * branch-free where the branch predictor would guess wrong; split into calls they would pass
 * those values back and forth for every neighbour.
 *
 * @example A head-on neighbour makes a walker on the right turn right
 * ```ts
 * import { OrcaNeighbors, pushAgentLines, HEAD_ON_SIN } from "./_orca_half_planes.ts";
 * import { linearProgram2, OrcaLines } from "./_orca_lp.ts";
 * import assert from "node:assert/strict";
 * const nb = new OrcaNeighbors(1);
 * nb.ownVx = 1.3; // heading +x
 * nb.rpx[0] = 2; // 2 m ahead along +x, walking towards us at 1.3 m/s
 * nb.vx[0] = -1.3;
 * nb.combinedRadius[0] = 0.5;
 * nb.share[0] = 0.5;
 * nb.oncoming[0] = 1; // it wants to go the other way
 * nb.count = 1;
 * const lines = new OrcaLines();
 * pushAgentLines(lines, nb, { invTau: 1 / 5, invDt: 1 / 0.05, side: +1, preferSin: HEAD_ON_SIN });
 * const v = new Float64Array(2);
 * assert.equal(linearProgram2(lines, 1.7, 1.3, 0, false, v), 1);
 * assert.ok(v[1] < 0, "turns to its right (-y) while heading +x");
 * ```
 */
export function pushAgentLines(
  lines: OrcaLines,
  nb: OrcaNeighbors,
  settings: AgentLineSettings,
): void {
  const vx = nb.ownVx, vy = nb.ownVy;
  const invTau = settings.invTau, invDt = settings.invDt, side = settings.side;
  const preferSin = settings.preferSin;
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
      // The walking side decides (1) when w lies on the other side of the line to B by less
      // than the angle whose squared sine is `sinSq`, the pair is not moving apart, and its
      // summed velocity lies along that line within the same angle, relative to their speeds
      // (head-on, one behind the other, or standing; neighbours converging side by side, as on
      // a shrinking circle, do not qualify). All tests are symmetric in A and B, so both agents
      // of a pair decide alike.
      const mx = vx + vbx, my = vy + vby;
      const along = rpx * my - rpy * mx;
      const speedSq = 2 * (vx * vx + vy * vy + vbx * vbx + vby * vby); // >= (|v_A| + |v_B|)²
      const prefers = +(wrongSide * Math.abs(wrongSide) <= sinSq * distSq * wSq) &
        +((vx - vbx) * rpx + (vy - vby) * rpy >= 0) &
        +(along * along <= sinSq * distSq * speedSq);
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
 * neighbours whose gap A's speed limit (`nb.ownMaxSpeed`) could close get one.
 *
 * @example A neighbour 2 cm away may be approached by 1 cm in a step of 0.05 s
 * ```ts
 * import { HEAD_ON_SIN, OrcaNeighbors, pushContactLines } from "./_orca_half_planes.ts";
 * import { linearProgram2, OrcaLines } from "./_orca_lp.ts";
 * import assert from "node:assert/strict";
 * const nb = new OrcaNeighbors(1);
 * nb.ownMaxSpeed = 1.5;
 * nb.rpx[0] = 0.52;
 * nb.combinedRadius[0] = 0.5;
 * nb.share[0] = 0.5;
 * nb.count = 1;
 * const lines = new OrcaLines();
 * pushContactLines(lines, nb, { invTau: 1 / 5, invDt: 1 / 0.05, side: 1, preferSin: HEAD_ON_SIN });
 * const v = new Float64Array(2);
 * linearProgram2(lines, 1.5, 1.5, 0, false, v); // wants to walk straight into it
 * assert.ok(Math.abs(v[0] - 0.2) < 1e-12); // 0.01 m / 0.05 s
 * ```
 */
export function pushContactLines(
  lines: OrcaLines,
  nb: OrcaNeighbors,
  settings: AgentLineSettings,
): void {
  const maxSpeed = nb.ownMaxSpeed, invDt = settings.invDt;
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
 * One agent's obstacle query: where it stands, how it moves and how far ahead it looks. The
 * solver keeps one and fills it per agent, so a query allocates nothing.
 *
 * @example
 * ```ts
 * import { ObstacleQuery } from "./_orca_half_planes.ts";
 * import assert from "node:assert/strict";
 * const query = new ObstacleQuery();
 * query.radius = 0.25;
 * query.maxSpeed = 1.5;
 * assert.equal(query.horizon * query.maxSpeed + query.radius, 7.75); // its range (m) over 5 s
 * ```
 */
export class ObstacleQuery {
  /** Position x (m). */
  x = 0;
  /** Position y (m). */
  y = 0;
  /** Velocity x (m/s). */
  vx = 0;
  /** Velocity y (m/s). */
  vy = 0;
  /** Radius (m). */
  radius = 0;
  /** Speed limit (m/s). */
  maxSpeed = 0;
  /** tau^O: how long the velocity must stay clear of the walls (s). @default 5 */
  horizon = 5;
}

/** One directed obstacle edge A → B as an agent sees it (scratch of the half-plane builder). */
class _Edge {
  /** Vertex A (m). */
  aX = 0;
  aY = 0;
  /** Vertex B (m). */
  bX = 0;
  bY = 0;
  /** Unit direction e of A → B. */
  eX = 0;
  eY = 0;
  /** Unit direction of the edge entering A. */
  prevX = 0;
  prevY = 0;
  /** Unit direction of the edge leaving B. */
  nextX = 0;
  nextY = 0;
  /** Whether A and B are convex vertices. */
  convexA = false;
  convexB = false;
  /** A − p and B − p for the agent at p (m), and their squared lengths (m²). */
  r1x = 0;
  r1y = 0;
  r2x = 0;
  r2y = 0;
  distSq1 = 0;
  distSq2 = 0;
  /** Parameter of the agent's foot point on the line A → B, and its squared distance (m²). */
  sParam = 0;
  distSqLine = 0;
}

/**
 * The velocity obstacle of one edge, before scaling by 1/tau^O (scratch of the half-plane
 * builder): the vertices its legs start from and the legs' directions.
 */
class _Cone {
  /** Vertex of the left leg (m). */
  v1x = 0;
  v1y = 0;
  /** Vertex of the right leg (m). */
  v2x = 0;
  v2y = 0;
  convex1 = false;
  convex2 = false;
  /** Seen obliquely: one vertex defines both legs. */
  single = false;
  /** Direction of the edge entering vertex 1. */
  nbrX = 0;
  nbrY = 0;
  /** Direction of the edge leaving vertex 1. */
  dir1X = 0;
  dir1Y = 0;
  /** Direction of the edge leaving vertex 2. */
  dir2X = 0;
  dir2Y = 0;
  /** Leg directions. */
  leftX = 0;
  leftY = 0;
  rightX = 0;
  rightY = 0;
  /** The leg runs along the neighbouring edge, whose own half-plane covers it. */
  leftForeign = false;
  rightForeign = false;
}

/**
 * The obstacle segments as ORCA reads them, kept in step with a {@linkcode StaticObstacles}
 * (recomputed when its `version` changes): the world's segments with every run of chained,
 * collinear pieces joined into one segment (a straight wall drawn as 10,000 pieces is one wall
 * here, so the number of segments an agent examines does not grow with how finely a wall is
 * cut), each segment's direction and convexity, and the scratch buffers of the per-agent query.
 *
 * @example A wall 1 m ahead limits the approach speed to (1 m − r) / tau^O
 * ```ts
 * import { ObstacleQuery, OrcaObstacles } from "./_orca_half_planes.ts";
 * import { linearProgram2, OrcaLines } from "./_orca_lp.ts";
 * import { StaticObstacles } from "../core/obstacles.ts";
 * import assert from "node:assert/strict";
 * const obstacles = new StaticObstacles();
 * obstacles.addWall([[-5, 1], [5, 1]]);
 * const geometry = new OrcaObstacles();
 * geometry.update(obstacles);
 * const query = new ObstacleQuery(); // at the origin, standing
 * query.radius = 0.25;
 * query.maxSpeed = 1.5;
 * query.horizon = 5;
 * const lines = new OrcaLines();
 * assert.equal(geometry.pushLines(lines, query), 1);
 * const v = new Float64Array(2);
 * linearProgram2(lines, 1.5, 0, 1.5, false, v);
 * assert.ok(Math.abs(v[1] - 0.75 / 5) < 1e-12);
 * ```
 */
export class OrcaObstacles {
  /** Obstacle version the arrays describe; -1 before the first update. */
  version = -1;
  /** Number of segments (after joining collinear pieces). */
  segmentCount = 0;
  /** Segment start x (m). */
  ax: Float64Array = new Float64Array(0);
  /** Segment start y (m). */
  ay: Float64Array = new Float64Array(0);
  /** Segment end x (m). */
  bx: Float64Array = new Float64Array(0);
  /** Segment end y (m). */
  by: Float64Array = new Float64Array(0);
  /** Next segment of the same polygon or wall, or -1 at an open end. */
  next: Int32Array = new Int32Array(0);
  /** Previous segment of the same polygon or wall, or -1 at an open end. */
  prev: Int32Array = new Int32Array(0);
  /** 1 when the segment belongs to a solid polygon (solid on its left), 0 for a wall. */
  solidLeft: Uint8Array = new Uint8Array(0);
  /** Unit direction x of each segment (a → b). */
  ux: Float64Array = new Float64Array(0);
  /** Unit direction y of each segment (a → b). */
  uy: Float64Array = new Float64Array(0);
  /** 1 when vertex a is convex seen along a → b (the outline turns left or not at all there). */
  convexA: Uint8Array = new Uint8Array(0);
  /** 1 when vertex b is convex seen along b → a (walls only: their outline also runs back). */
  convexB: Uint8Array = new Uint8Array(0);

  /** Where segments near a point are looked up: the world's grid, or one of the joined ones. */
  #index: StaticObstacles | SegmentGrid | null = null;
  /** The segments within range of the last query (before the visibility test). */
  #inRange: Uint32Array = new Uint32Array(64);
  #order: Int32Array = new Int32Array(64);
  #orderDistSq: Float64Array = new Float64Array(64);
  #sortOrder: Int32Array = new Int32Array(64);
  #sortDistSq: Float64Array = new Float64Array(64);
  /** Number of segments in `#order` (visible, within the range of the last query). */
  #gathered = 0;
  /** The last answer of the segment grid, for a disc of `#cacheRange` (m) around the centre. */
  #cache = new NeighbourQuery(32);
  #cacheX = 0;
  #cacheY = 0;
  #cacheRange = -Infinity;
  /** Geometry version of the cached answer; -1 for none. */
  #cacheVersion = -1;
  /** A query of its own, when the cached answer cannot settle the order. */
  #fresh = new NeighbourQuery(32);
  /** The obstacles the per-segment arrays describe. */
  #source: StaticObstacles | null = null;
  /** The query being answered. */
  #query: ObstacleQuery = new ObstacleQuery();
  #edge = new _Edge();
  #cone = new _Cone();

  /** Segments visible and within range in the last {@linkcode OrcaObstacles.pushLines}. */
  get segmentsInRange(): number {
    return this.#gathered;
  }

  /** Recomputes the segments, directions and convexity for other obstacles or changed geometry. */
  update(obstacles: StaticObstacles): void {
    if (obstacles === this.#source && obstacles.version === this.version) return;
    this.#join(obstacles);
    this.#measure();
    this.version = obstacles.version;
    this.#source = obstacles;
    this.#cacheVersion = -1;
  }

  /**
   * Pushes the half-planes of the obstacle segments within `horizon · maxSpeed + radius` of the
   * agent in `query`, nearest segment first, skipping those already covered by earlier obstacle
   * lines. Must run before any agent line is pushed (the coverage test reads every line in
   * `lines`), after {@linkcode OrcaObstacles.update}. Returns the number of lines pushed.
   */
  pushLines(lines: OrcaLines, query: ObstacleQuery): number {
    this.#query = query;
    const count = this.#gather(query.horizon * query.maxSpeed + query.radius);
    return this.#pushFirst(lines, count);
  }

  /**
   * {@linkcode OrcaObstacles.pushLines} for a shorter horizon (`query.horizon`, at most the
   * previous call's), right after a call of it for the same agent: the segments within the
   * shorter range are the nearest of those that call found, so the segment grid is not asked
   * again (unless two of them are equally far: then the order of a fresh query settles which
   * comes first).
   *
   * @example The safety horizon after the anticipation horizon
   * ```ts
   * import { ObstacleQuery, OrcaObstacles } from "./_orca_half_planes.ts";
   * import { OrcaLines } from "./_orca_lp.ts";
   * import { StaticObstacles } from "../core/obstacles.ts";
   * import assert from "node:assert/strict";
   * const obstacles = new StaticObstacles();
   * obstacles.addWall([[-5, 0.9], [5, 0.9]]); // 0.9 m away
   * obstacles.addWall([[-5, -4], [5, -4]]); // 4 m away
   * const geometry = new OrcaObstacles();
   * geometry.update(obstacles);
   * const query = new ObstacleQuery();
   * query.radius = 0.25;
   * query.maxSpeed = 1.5;
   * const lines = new OrcaLines();
   * assert.equal(geometry.pushLines(lines, query), 2);
   * lines.count = 0;
   * // Over 0.5 s only the wall within 0.5 s · 1.5 m/s + 0.25 m = 1 m counts.
   * query.horizon = 0.5;
   * assert.equal(geometry.pushNearer(lines, query), 1);
   * ```
   */
  pushNearer(lines: OrcaLines, query: ObstacleQuery): number {
    this.#query = query;
    const range = query.horizon * query.maxSpeed + query.radius, r2 = range * range;
    // Sorted by distance: those within range (the test of the segment grid) come first.
    const dist = this.#orderDistSq, gathered = this.#gathered;
    let count = 0;
    while (count < gathered && dist[count] <= r2) count++;
    for (let k = 1; k < count; k++) {
      if (dist[k] === dist[k - 1]) {
        count = this.#gather(range);
        break;
      }
    }
    return this.#pushFirst(lines, count);
  }

  /**
   * Copies the world's segments, joining every run of chained segments that continue each other
   * in a straight line (same direction within `JOIN_SIN`). Without such runs the world's arrays
   * and segment grid are used as they are.
   */
  #join(obstacles: StaticObstacles): void {
    const n = obstacles.segmentCount;
    const { ax, ay, bx, by, next, prev, solidLeft } = obstacles;
    const straight = new Uint8Array(n);
    let joined = n;
    for (let s = 0; s < n; s++) {
      if (prev[s] >= 0 && _continues(obstacles, prev[s], s)) {
        straight[s] = 1;
        joined--;
      }
    }
    this.segmentCount = n;
    this.ax = ax;
    this.ay = ay;
    this.bx = bx;
    this.by = by;
    this.next = next;
    this.prev = prev;
    this.solidLeft = solidLeft;
    this.#index = obstacles;
    if (joined === n) return;
    // Runs start at every segment whose start vertex is a corner (or an open end).
    const runOf = new Int32Array(n).fill(-1), first = new Int32Array(joined);
    const last = new Int32Array(joined);
    let m = 0;
    for (let s = 0; s < n && m < joined; s++) {
      if (straight[s] === 1) continue;
      let e = s;
      runOf[s] = m;
      while (next[e] >= 0 && next[e] !== s && straight[next[e]] === 1) {
        e = next[e];
        runOf[e] = m;
      }
      first[m] = s;
      last[m] = e;
      m++;
    }
    if (m !== joined || runOf.includes(-1)) return; // a closed chain without a corner: keep it
    this.segmentCount = m;
    this.ax = new Float64Array(m);
    this.ay = new Float64Array(m);
    this.bx = new Float64Array(m);
    this.by = new Float64Array(m);
    this.next = new Int32Array(m);
    this.prev = new Int32Array(m);
    this.solidLeft = new Uint8Array(m);
    for (let r = 0; r < m; r++) {
      const s = first[r], e = last[r];
      this.ax[r] = ax[s];
      this.ay[r] = ay[s];
      this.bx[r] = bx[e];
      this.by[r] = by[e];
      this.solidLeft[r] = solidLeft[s];
      this.next[r] = next[e] >= 0 ? runOf[next[e]] : -1;
      this.prev[r] = prev[s] >= 0 ? runOf[prev[s]] : -1;
    }
    const grid = new SegmentGrid(obstacles.grid.cellSize);
    grid.build(this.ax, this.ay, this.bx, this.by, m);
    this.#index = grid;
  }

  /** Directions and convexity of the (joined) segments. */
  #measure(): void {
    const n = this.segmentCount;
    if (this.ux.length < n) {
      this.ux = new Float64Array(n);
      this.uy = new Float64Array(n);
      this.convexA = new Uint8Array(n);
      this.convexB = new Uint8Array(n);
    }
    const { ax, ay, bx, by, next, prev } = this;
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
  }

  /**
   * Finds the visible segments within `range` (m) of the query, nearest first (see
   * `#sortVisible`): the segment grid's answer. The grid is asked for a disc `CACHE_MARGIN`
   * wider than needed, and the next agents (solved in grid order, so nearby) whose disc lies
   * inside it take their segments from that answer with the grid's own distance test. Only the
   * order of equally far segments can differ from a query of their own: then the grid is asked.
   */
  #gather(range: number): number {
    const px = this.#query.x, py = this.#query.y;
    const dx = px - this.#cacheX, dy = py - this.#cacheY;
    const slack = CACHE_SLACK * (1 + Math.abs(px) + Math.abs(py) + range);
    if (
      !(this.#cacheVersion === this.version &&
        Math.sqrt(dx * dx + dy * dy) + range <= this.#cacheRange - slack)
    ) {
      const wide = range + CACHE_MARGIN;
      this.#cache.segments(this.#index!, px, py, wide);
      this.#cacheX = px;
      this.#cacheY = py;
      this.#cacheRange = wide;
      this.#cacheVersion = this.version;
    }
    const n = this.#cache.count, cached = this.#cache.found;
    if (this.#inRange.length < n) this.#inRange = new Uint32Array(capacityFor(n));
    const { ax, ay, bx, by } = this;
    const inRange = this.#inRange, r2 = range * range;
    let count = 0;
    for (let c = 0; c < n; c++) {
      const s = cached[c];
      inRange[count] = s;
      count += +(pointSegmentDistanceSq(px, py, ax[s], ay[s], bx[s], by[s]) <= r2);
    }
    count = count === 0 ? 0 : this.#sortVisible(inRange, count);
    const dist = this.#orderDistSq;
    for (let k = 1; k < count; k++) {
      if (dist[k] === dist[k - 1]) {
        count = this.#askGrid(range);
        break;
      }
    }
    this.#gathered = count;
    return count;
  }

  /** `#gather` without the cache: asks the segment grid for exactly `range`. */
  #askGrid(range: number): number {
    const found = this.#fresh.segments(this.#index!, this.#query.x, this.#query.y, range);
    return found === 0 ? 0 : this.#sortVisible(this.#fresh.found, found);
  }

  /**
   * Keeps the first `found` segments of `segments` whose outer side faces the agent, as
   * `segment << 1 | backward`, ordered by distance (nearest first, equally far ones in the
   * order found); returns how many.
   */
  #sortVisible(segments: Uint32Array, found: number): number {
    if (this.#order.length < found) this.#growOrder(found);
    const { ax, ay, bx, by, solidLeft } = this;
    const px = this.#query.x, py = this.#query.y;
    const ux = this.ux, uy = this.uy;
    const order = this.#order, dist = this.#orderDistSq;
    let count = 0;
    for (let k = 0; k < found; k++) {
      const s = segments[k];
      // det(u, p - a) < 0: the agent is on the right of a → b.
      const side = ux[s] * (py - ay[s]) - uy[s] * (px - ax[s]);
      let code: number;
      if (solidLeft[s] === 1) {
        if (!(side < 0)) continue; // inside the polygon or on the line of this edge
        code = s << 1;
      } else {
        code = (s << 1) | (side > 0 ? 1 : 0);
      }
      dist[count] = pointSegmentDistanceSq(px, py, ax[s], ay[s], bx[s], by[s]);
      order[count] = code;
      count++;
    }
    _sortByDistance(dist, order, count, this.#sortDistSq, this.#sortOrder);
    return count;
  }

  #growOrder(n: number): void {
    const size = capacityFor(n);
    this.#order = new Int32Array(size);
    this.#orderDistSq = new Float64Array(size);
    this.#sortOrder = new Int32Array(size);
    this.#sortDistSq = new Float64Array(size);
  }

  /** Pushes the half-planes of the first `count` gathered segments; returns how many. */
  #pushFirst(lines: OrcaLines, count: number): number {
    const before = lines.count;
    const order = this.#order;
    for (let k = 0; k < count; k++) this.#pushSegment(lines, order[k]);
    return lines.count - before;
  }

  /**
   * The half-plane of one directed obstacle edge (`segment << 1 | backward`), the core of
   * Section 6 of the paper, in four steps: skip an edge whose velocity obstacle earlier lines
   * cover; forbid moving further into an edge the agent touches; otherwise find the cone of
   * its velocity obstacle and push the tangent at its boundary point nearest the velocity.
   */
  #pushSegment(lines: OrcaLines, code: number): void {
    const query = this.#query, edge = this.#edge, cone = this.#cone;
    this.#orient(code >> 1, (code & 1) === 0, edge);
    _measureEdge(edge, query);
    const invT = 1 / query.horizon;
    if (_covered(lines, edge, invT, invT * query.radius)) return;
    if (_pushIfTouching(lines, edge, query.radius)) return;
    if (!_coneOf(edge, query.radius, cone)) return;
    _pushNearestBoundary(lines, cone, query, invT);
  }

  /**
   * Writes the directed edge A → B of segment `s` (forward: a → b) into `edge`: its ends, unit
   * direction and those of the edges entering A and leaving B, and its vertices' convexity. At
   * an open wall end the outline turns around, so the neighbouring edge is the reverse of this
   * one.
   */
  #orient(s: number, forward: boolean, edge: _Edge): void {
    const ux = this.ux, uy = this.uy;
    const next = this.next[s], prev = this.prev[s];
    if (forward) {
      edge.aX = this.ax[s];
      edge.aY = this.ay[s];
      edge.bX = this.bx[s];
      edge.bY = this.by[s];
      const eX = edge.eX = ux[s], eY = edge.eY = uy[s];
      edge.prevX = prev >= 0 ? ux[prev] : -eX;
      edge.prevY = prev >= 0 ? uy[prev] : -eY;
      edge.nextX = next >= 0 ? ux[next] : -eX;
      edge.nextY = next >= 0 ? uy[next] : -eY;
      edge.convexA = this.convexA[s] === 1;
      edge.convexB = next < 0 || this.convexA[next] === 1;
    } else {
      edge.aX = this.bx[s];
      edge.aY = this.by[s];
      edge.bX = this.ax[s];
      edge.bY = this.ay[s];
      const eX = edge.eX = -ux[s], eY = edge.eY = -uy[s];
      edge.prevX = next >= 0 ? -ux[next] : -eX;
      edge.prevY = next >= 0 ? -uy[next] : -eY;
      edge.nextX = prev >= 0 ? -ux[prev] : -eX;
      edge.nextY = prev >= 0 ? -uy[prev] : -eY;
      edge.convexA = this.convexB[s] === 1;
      edge.convexB = prev < 0 || this.convexB[prev] === 1;
    }
  }
}

/** Slack of the "continues in a straight line" test of joined segments (sine of the angle). */
const JOIN_SIN = 1e-9;

/** True when segment `s` (a → b) continues segment `p` in the same direction, within `JOIN_SIN`. */
function _continues(obstacles: StaticObstacles, p: number, s: number): boolean {
  const { ax, ay, bx, by } = obstacles;
  const px = bx[p] - ax[p], py = by[p] - ay[p], sx = bx[s] - ax[s], sy = by[s] - ay[s];
  const lengths = Math.sqrt((px * px + py * py) * (sx * sx + sy * sy));
  return px * sx + py * sy > 0 && Math.abs(px * sy - py * sx) <= JOIN_SIN * lengths;
}

/**
 * Sorts the first `count` entries of `dist` ascending, carrying `order` along; equal distances
 * keep their order (as the insertion sort this replaces did: one agent's order of equally far
 * segments is the grid's). Small lists are sorted by insertion, longer ones by merging runs
 * through the scratch arrays (at least `count` long), so a wall of many pieces costs
 * n log n, not n².
 */
function _sortByDistance(
  dist: Float64Array,
  order: Int32Array,
  count: number,
  scratchDist: Float64Array,
  scratchOrder: Int32Array,
): void {
  for (let lo = 0; lo < count; lo += SORT_RUN) {
    _insertionSort(dist, order, lo, Math.min(lo + SORT_RUN, count));
  }
  if (count <= SORT_RUN) return;
  let fromDist = dist, fromOrder = order, toDist = scratchDist, toOrder = scratchOrder;
  for (let width = SORT_RUN; width < count; width *= 2) {
    for (let lo = 0; lo < count; lo += 2 * width) {
      const mid = Math.min(lo + width, count), hi = Math.min(lo + 2 * width, count);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        // Strictly smaller from the right only: equal distances keep their order.
        if (fromDist[j] < fromDist[i]) {
          toDist[k] = fromDist[j];
          toOrder[k++] = fromOrder[j++];
        } else {
          toDist[k] = fromDist[i];
          toOrder[k++] = fromOrder[i++];
        }
      }
      while (i < mid) {
        toDist[k] = fromDist[i];
        toOrder[k++] = fromOrder[i++];
      }
      while (j < hi) {
        toDist[k] = fromDist[j];
        toOrder[k++] = fromOrder[j++];
      }
    }
    [fromDist, toDist] = [toDist, fromDist];
    [fromOrder, toOrder] = [toOrder, fromOrder];
  }
  if (fromDist !== dist) {
    for (let k = 0; k < count; k++) {
      dist[k] = fromDist[k];
      order[k] = fromOrder[k];
    }
  }
}

/** Runs this long are sorted by insertion before merging. */
const SORT_RUN = 32;

/** Stable insertion sort of `dist[lo … hi-1]`, carrying `order` along. */
function _insertionSort(dist: Float64Array, order: Int32Array, lo: number, hi: number): void {
  for (let k = lo + 1; k < hi; k++) {
    const d = dist[k], code = order[k];
    let j = k;
    while (j > lo && dist[j - 1] > d) {
      dist[j] = dist[j - 1];
      order[j] = order[j - 1];
      j--;
    }
    dist[j] = d;
    order[j] = code;
  }
}

/**
 * Writes the agent-relative measures of `edge` for the agent in `query`: A − p, B − p, their
 * squared lengths, the foot point's parameter on the line A → B and its squared distance.
 */
function _measureEdge(edge: _Edge, query: ObstacleQuery): void {
  const r1x = edge.r1x = edge.aX - query.x, r1y = edge.r1y = edge.aY - query.y;
  const r2x = edge.r2x = edge.bX - query.x, r2y = edge.r2y = edge.bY - query.y;
  edge.distSq1 = r1x * r1x + r1y * r1y;
  edge.distSq2 = r2x * r2x + r2y * r2y;
  const obx = edge.bX - edge.aX, oby = edge.bY - edge.aY;
  const sParam = edge.sParam = -(r1x * obx + r1y * oby) / (obx * obx + oby * oby);
  const offX = -r1x - sParam * obx, offY = -r1y - sParam * oby;
  edge.distSqLine = offX * offX + offY * offY;
}

/**
 * True when both end points of `edge`, seen through the horizon (scaled by `invT`, 1/s), lie
 * beyond one of the lines pushed so far by the agent's radius (`rT` = radius · invT): the edge's
 * velocity obstacle is covered.
 */
function _covered(lines: OrcaLines, edge: _Edge, invT: number, rT: number): boolean {
  const r1x = edge.r1x, r1y = edge.r1y, r2x = edge.r2x, r2y = edge.r2y;
  const lpx = lines.px, lpy = lines.py, ldx = lines.dx, ldy = lines.dy;
  for (let j = 0; j < lines.count; j++) {
    const c1 = (invT * r1x - lpx[j]) * ldy[j] - (invT * r1y - lpy[j]) * ldx[j] - rT;
    const c2 = (invT * r2x - lpx[j]) * ldy[j] - (invT * r2y - lpy[j]) * ldx[j] - rT;
    if (c1 >= -COVERED_EPSILON && c2 >= -COVERED_EPSILON) return true;
  }
  return false;
}

/**
 * When the agent (of `radius`, m) already touches `edge`, pushes the line through the origin
 * that forbids moving further into it (none for a concave vertex, which the edges meeting there
 * cover) and returns true.
 */
function _pushIfTouching(lines: OrcaLines, edge: _Edge, radius: number): boolean {
  const rSq = radius * radius, sParam = edge.sParam;
  if (sParam < 0 && edge.distSq1 <= rSq) {
    // Touching vertex A.
    if (edge.convexA) _pushNormalized(lines, 0, 0, -edge.r1y, edge.r1x);
    return true;
  }
  if (sParam > 1 && edge.distSq2 <= rSq) {
    // Touching vertex B; the next edge handles it unless the agent is in front of that edge.
    const r2x = edge.r2x, r2y = edge.r2y;
    if (edge.convexB && r2x * edge.nextY - r2y * edge.nextX >= 0) {
      _pushNormalized(lines, 0, 0, -r2y, r2x);
    }
    return true;
  }
  if (sParam >= 0 && sParam < 1 && edge.distSqLine <= rSq) {
    lines.push(0, 0, -edge.eX, -edge.eY);
    return true;
  }
  return false;
}

/**
 * Writes the cone of the velocity obstacle of `edge` (not touching, agent of `radius`, m) into
 * `cone`: two legs and the cut-off between the vertices; seen obliquely, one vertex defines
 * both legs. A leg at a convex vertex never points into the neighbouring edge: it then runs
 * along that edge and is marked foreign (its half-plane is the neighbour's). Returns false when
 * the edge is seen past a concave vertex (the neighbouring edge handles it).
 */
function _coneOf(edge: _Edge, radius: number, cone: _Cone): boolean {
  const rSq = radius * radius, sParam = edge.sParam, distSqLine = edge.distSqLine;
  const r1x = edge.r1x, r1y = edge.r1y, r2x = edge.r2x, r2y = edge.r2y;
  const distSq1 = edge.distSq1, distSq2 = edge.distSq2, eX = edge.eX, eY = edge.eY;
  if (sParam < 0 && distSqLine <= rSq) {
    if (!edge.convexA) return false;
    cone.single = true;
    cone.v1x = cone.v2x = edge.aX;
    cone.v1y = cone.v2y = edge.aY;
    cone.convex1 = cone.convex2 = true;
    cone.nbrX = edge.prevX;
    cone.nbrY = edge.prevY;
    cone.dir1X = cone.dir2X = eX;
    cone.dir1Y = cone.dir2Y = eY;
    const leg = Math.sqrt(distSq1 - rSq);
    cone.leftX = (r1x * leg - r1y * radius) / distSq1;
    cone.leftY = (r1x * radius + r1y * leg) / distSq1;
    cone.rightX = (r1x * leg + r1y * radius) / distSq1;
    cone.rightY = (-r1x * radius + r1y * leg) / distSq1;
  } else if (sParam > 1 && distSqLine <= rSq) {
    if (!edge.convexB) return false;
    cone.single = true;
    cone.v1x = cone.v2x = edge.bX;
    cone.v1y = cone.v2y = edge.bY;
    cone.convex1 = cone.convex2 = true;
    cone.nbrX = eX;
    cone.nbrY = eY;
    cone.dir1X = cone.dir2X = edge.nextX;
    cone.dir1Y = cone.dir2Y = edge.nextY;
    const leg = Math.sqrt(distSq2 - rSq);
    cone.leftX = (r2x * leg - r2y * radius) / distSq2;
    cone.leftY = (r2x * radius + r2y * leg) / distSq2;
    cone.rightX = (r2x * leg + r2y * radius) / distSq2;
    cone.rightY = (-r2x * radius + r2y * leg) / distSq2;
  } else {
    cone.single = false;
    cone.v1x = edge.aX;
    cone.v1y = edge.aY;
    cone.v2x = edge.bX;
    cone.v2y = edge.bY;
    cone.convex1 = edge.convexA;
    cone.convex2 = edge.convexB;
    cone.nbrX = edge.prevX;
    cone.nbrY = edge.prevY;
    cone.dir1X = eX;
    cone.dir1Y = eY;
    cone.dir2X = edge.nextX;
    cone.dir2Y = edge.nextY;
    if (edge.convexA) {
      const leg = Math.sqrt(distSq1 - rSq);
      cone.leftX = (r1x * leg - r1y * radius) / distSq1;
      cone.leftY = (r1x * radius + r1y * leg) / distSq1;
    } else {
      // Concave vertex A: the left leg continues the cut-off line.
      cone.leftX = -eX;
      cone.leftY = -eY;
    }
    if (edge.convexB) {
      const leg = Math.sqrt(distSq2 - rSq);
      cone.rightX = (r2x * leg + r2y * radius) / distSq2;
      cone.rightY = (-r2x * radius + r2y * leg) / distSq2;
    } else {
      cone.rightX = eX;
      cone.rightY = eY;
    }
  }
  cone.leftForeign = cone.rightForeign = false;
  if (cone.convex1 && cone.leftX * -cone.nbrY - cone.leftY * -cone.nbrX >= 0) {
    cone.leftX = -cone.nbrX;
    cone.leftY = -cone.nbrY;
    cone.leftForeign = true;
  }
  if (cone.convex2 && cone.rightX * cone.dir2Y - cone.rightY * cone.dir2X <= 0) {
    cone.rightX = cone.dir2X;
    cone.rightY = cone.dir2Y;
    cone.rightForeign = true;
  }
  return true;
}

/**
 * Pushes the half-plane of `cone` (scaled by `invT`, 1/s) at the boundary point nearest the
 * query's velocity: the tangent to a cut-off circle, or the cut-off line or a leg offset by the
 * scaled radius; nothing when that point lies on a foreign leg.
 */
function _pushNearestBoundary(
  lines: OrcaLines,
  cone: _Cone,
  query: ObstacleQuery,
  invT: number,
): void {
  const vx = query.vx, vy = query.vy, rT = invT * query.radius, single = cone.single;
  const leftX = cone.leftX, leftY = cone.leftY, rightX = cone.rightX, rightY = cone.rightY;
  const lcX = invT * (cone.v1x - query.x), lcY = invT * (cone.v1y - query.y); // left cut-off centre
  const rcX = invT * (cone.v2x - query.x), rcY = invT * (cone.v2y - query.y); // right cut-off centre
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
    dX = -cone.dir1X;
    dY = -cone.dir1Y;
    oX = lcX;
    oY = lcY;
  } else if (distSqLeft <= distSqRight) {
    if (cone.leftForeign) return;
    dX = leftX;
    dY = leftY;
    oX = lcX;
    oY = lcY;
  } else {
    if (cone.rightForeign) return;
    dX = -rightX;
    dY = -rightY;
    oX = rcX;
    oY = rcY;
  }
  // The line is offset from the cut-off centre by the radius (scaled) to its right side.
  lines.push(oX - rT * dY, oY + rT * dX, dX, dY);
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

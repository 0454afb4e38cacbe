/**
 * ORCA half-planes of neighbouring agents (van den Berg, Guy, Lin, Manocha 2011): the
 * constraint one neighbouring agent puts on an agent's new velocity (Section 5.1,
 * `ORCA_A|B^tau`) and the one-step contact constraints. The obstacle half-planes are in
 * `_orca_obstacles.ts`.
 *
 * Every half-plane is pushed into an {@linkcode OrcaLines} buffer as a directed line whose left
 * side is allowed.
 *
 * @module
 */
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

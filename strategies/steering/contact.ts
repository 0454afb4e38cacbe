/**
 * Contact handling for steering compositions: the part of the agents of "Crossing citizens: a
 * simple simulation of pedestrian crossing" (project report) that Unity's
 * physics engine provided (rigid bodies whose colliders cannot interpenetrate), without a
 * physics engine.
 *
 * A steered velocity is limited so that, during the next step, the agent closes at most half of
 * the gap to each neighbour (the neighbour, running the same rule from the same frozen state,
 * closes at most the other half) and at most all of the gap to a wall. For a pair this is exact:
 * `d' ≥ d − (vᵢ − vⱼ)·n·dt ≥ rᵢ + rⱼ`. Velocities are projected onto these half-planes
 * (tangential motion is kept, so agents slide past each other) for a few rounds; if some limit
 * still fails, the velocity is scaled down until no gap closes by more than its share and no
 * overlap deepens. A slop of 2 mm
 * is kept so that rounding never turns contact into overlap. Overlapping
 * bodies (gap < 0) are pushed apart at no more than the agent's maximum speed.
 *
 * Hard contact has a fixed point that colliding bodies in a physics engine escape through
 * jitter: agents that touch and all want to move into each other stand still for ever — across
 * a doorway one at each door post and one between form an arch. So an agent whose limited
 * velocity makes less than a tenth of its preferred progress, wedged against a standing
 * neighbour that has the right of way (see strategies/_right_of_way.ts), backs off from it at
 * half its preferred speed instead, and the arch opens; stopped head-on against a stopped one that
 * comes the other way (within ±30° straight ahead), it steps to the world's walking side at that
 * speed. Where that cannot open the arch either (at a 0.8 m door everyone in it touches three
 * others), an agent pinned for more than half a second narrows towards its neighbours by up to a
 * fifth of its radius, as people turn their shoulders to squeeze by (the `squeeze` argument of
 * {@linkcode ContactConstraint.apply}; `squeezeOf` in strategies/_right_of_way.ts).
 *
 * Two crowds meeting head-on wall to wall lock the same way: everyone at the interface is pinned
 * against two or three people coming the other way. An agent pinned against two or more people
 * coming head-on turns its shoulders towards them at once: their distance shrinks by up to
 * 0.4 of the combined radii within a quarter second (`PASSING_TURN_SHARE` and
 * `passingTurnOf` in strategies/_right_of_way.ts; the `pinned` and `turns` arguments of
 * {@linkcode ContactConstraint.apply}), the larger turn of the pair counting for both, so that
 * the turned pairs slide past each other and lanes open behind them.
 *
 * @module
 */
import type { StepContext } from "../../core/strategy.ts";
import { crowdExtent } from "./crowd_extent.ts";
import { Neighbourhood } from "./neighbourhood.ts";
import {
  BLOCKED_PROGRESS,
  comesHeadOn,
  comesTheOtherWay,
  mustGiveWay,
  PASSING_PRESS,
  passingTurnOf,
  WEDGE_GAP,
} from "../_right_of_way.ts";

/** True when agent j moves slower than `STILL_SPEED`. */
function _still(a: StepContext["agents"], j: number): boolean {
  return a.vx[j] * a.vx[j] + a.vy[j] * a.vy[j] < STILL_SPEED * STILL_SPEED;
}

/**
 * Name of the per-agent column of the seconds an agent has stood pinned, kept by compositions
 * with contact handling (`STEERING_PINNED_COLUMN` of strategies/priority_steering.ts).
 */
export const PINNED_COLUMN = "steering.pinned";

/**
 * Name of the per-agent column of the passing turn (share of the combined radii given up towards
 * people coming head-on) that {@linkcode ContactConstraint.apply} returned last.
 */
export const TURN_COLUMN = "steering.turn";

/** Speed (m/s) under which an agent stands still: a head-on pair that has stopped is deadlocked. */
const STILL_SPEED = 0.02;

/** cos 30°: a neighbour within ±30° straight ahead blocks the way head-on. */
const HEAD_ON_COS = 0.866;

/** Backing-off speed of an agent giving way, as a share of its preferred speed. */
const GIVE_WAY_SPEED = 0.5;

/** Projection rounds before falling back on scaling the velocity down. */
const ROUNDS = 6;

/** Gap (m) kept between bodies so that rounding never turns contact into overlap. */
const SLOP = 0.002;

/**
 * Limits steered velocities so that bodies do not interpenetrate.
 *
 * @example Two agents walking into each other stop at contact
 * ```ts
 * import { ContactConstraint } from "./contact.ts";
 * import { World } from "../../core/world.ts";
 * import { createNoneStrategy } from "../none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0 });
 * world.addAgent({ x: 0.6, y: 0 }); // 10 cm gap
 * world.prepare();
 * const ctx = { agents: world.agents, grid: world.grid, obstacles: world.obstacles, dt: 0.05 } as never;
 * const contact = new ContactConstraint();
 * contact.prepare(ctx);
 * const v = new Float64Array([2, 0.5]); // 2 m/s towards the neighbour, 0.5 m/s sideways
 * contact.apply(ctx, 0, v);
 * assert.ok(Math.abs(v[0] - 0.98) < 1e-9); // half the gap less 2 mm slop (4.9 cm) in 0.05 s
 * assert.equal(v[1], 0.5); // sideways motion is kept
 * ```
 */
export class ContactConstraint {
  #near: Neighbourhood;
  #extent = new Float64Array(2);
  #nx = new Float64Array(32);
  #ny = new Float64Array(32);
  #limit = new Float64Array(32);

  /** @param near neighbour lists shared with behaviours. @default its own */
  constructor(near: Neighbourhood = new Neighbourhood(0)) {
    this.#near = near;
  }

  /** Reads crowd-wide bounds; call once per step before {@linkcode ContactConstraint.apply}. */
  prepare(ctx: StepContext): void {
    crowdExtent(ctx.agents, this.#extent);
  }

  /**
   * Limits agent `i`'s velocity `vel` (m/s, `[vx, vy]`, updated in place).
   *
   * @param squeeze share of i's radius given up towards neighbours (shoulders turned by a pinned
   * agent, see `SQUEEZE_SHARE` in strategies/_right_of_way.ts), in [0, 1); walls see the whole
   * body
   * @param pinned per-agent seconds stood pinned (see {@linkcode PINNED_COLUMN}); null: no
   * passing turn
   * @param turns per-agent passing turns of the last step (see {@linkcode TURN_COLUMN}); the
   * larger of i's and a neighbour's counts for the pair
   * @param progressCap the speed (m/s) along the preferred direction i's own speed rule allows
   * (the time gap to the person ahead, see `limitVelocity` of strategies/steering/behaviour.ts);
   * i counts as blocked when its progress falls below a tenth of the preferred speed so capped,
   * so that waiting behind someone is not taken for being wedged. @default Infinity
   * @returns i's passing turn: the share of the combined radii it gives up towards people coming
   * the other way (0 unless pinned against {@linkcode PASSING_PRESS} or more of them), for
   * `turns`
   */
  apply(
    ctx: StepContext,
    i: number,
    vel: Float64Array,
    squeeze = 0,
    pinned: Float64Array | null = null,
    turns: Float64Array | null = null,
    progressCap = Infinity,
  ): number {
    const a = ctx.agents, dt = ctx.dt;
    const vx = vel[0], vy = vel[1];
    const pvx = a.prefVx[i], pvy = a.prefVy[i], wantSq = pvx * pvx + pvy * pvy;
    // The fastest velocity limited here: the steered one, or backing off when giving way.
    const vSq = vx * vx + vy * vy, backSq = GIVE_WAY_SPEED * GIVE_WAY_SPEED * wantSq;
    const speed = Math.sqrt(vSq > backSq ? vSq : backSq);
    const rw = a.radius[i], ri = rw * (1 - squeeze);
    const push = a.maxSpeed[i];
    let count = 0;
    // Neighbours whose half-gap this velocity could close within one step, and those an agent
    // could be wedged against.
    const reachGap = 2 * dt * speed;
    const reach = ri + this.#extent[0] + (reachGap > WEDGE_GAP ? reachGap : WEDGE_GAP) + SLOP;
    const near = this.#near;
    near.gather(ctx, i, reach);
    const n = near.agentCount, buf = near.agents, ar = a.radius;
    const adx = near.agentDx, ady = near.agentDy, ad = near.agentDistance;
    const want = Math.sqrt(wantSq), ux = want > 0 ? pvx / want : 0, uy = want > 0 ? pvy / want : 0;
    const ownPinned = pinned !== null ? pinned[i] : 0;
    // Pinned against two or more people coming head-on: the shoulders turn.
    let press = 0;
    if (ownPinned > 0 && want > 0) {
      for (let k = 0; k < n; k++) {
        const j = buf[k];
        if (ad[k] - rw - ar[j] < WEDGE_GAP && comesHeadOn(ux, uy, a, j)) press++;
      }
    }
    const turn = press >= PASSING_PRESS ? passingTurnOf(ownPinned) : 0;
    for (let k = 0; k < n; k++) {
      const d = ad[k];
      if (d === 0) continue;
      const j = buf[k];
      let gap = d - ri - ar[j] - SLOP;
      const tj = turns !== null ? turns[j] : 0, t = turn > tj ? turn : tj;
      if (t > 0 && want > 0 && comesHeadOn(ux, uy, a, j)) {
        // The pair's distance is set by the one of them that has turned the more.
        const turned = d - (1 - t) * (rw + ar[j]) - SLOP;
        if (turned > gap) gap = turned;
      }
      if (gap >= reachGap) continue;
      const limit = gap / (2 * dt);
      count = this.#add(count, adx[k] / d, ady[k] / d, limit > -push ? limit : -push);
    }
    if (ctx.obstacles.segmentCount > 0) {
      const wallReach = rw + dt * speed + SLOP;
      const m = near.segmentCount;
      const sdx = near.segmentDx, sdy = near.segmentDy, sd = near.segmentDistance;
      for (let q = 0; q < m; q++) {
        const d = sd[q];
        if (d === 0 || d > wallReach) continue;
        const limit = (d - rw - SLOP) / dt;
        count = this.#add(count, sdx[q] / d, sdy[q] / d, limit > -push ? limit : -push);
      }
    }
    if (count === 0) return turn;
    this.#project(vx, vy, count, vel);
    const least = BLOCKED_PROGRESS * (progressCap < want ? want * progressCap : wantSq);
    if (wantSq > 0 && vel[0] * pvx + vel[1] * pvy < least) {
      // Blocked: give way to a wedged neighbour with the right of way, or step to the walking
      // side past one that comes the other way.
      const ex = ux, ey = uy;
      let awayX = 0, awayY = 0, oncoming = false;
      for (let k = 0; k < n; k++) {
        const j = buf[k], dx = adx[k], dy = ady[k], d = ad[k];
        if (d === 0 || d - ri - ar[j] >= WEDGE_GAP) continue;
        if (mustGiveWay(ex, ey, dx / d, dy / d, a, i, j)) {
          awayX -= dx / d;
          awayY -= dy / d;
        } else if (
          !oncoming && dx * ex + dy * ey > HEAD_ON_COS * d && comesTheOtherWay(ex, ey, a, j) &&
          _still(a, j) && _still(a, i)
        ) {
          oncoming = true;
        }
      }
      const len = Math.sqrt(awayX * awayX + awayY * awayY);
      if (len > 1e-9) {
        const back = (GIVE_WAY_SPEED * want) / len;
        this.#project(awayX * back, awayY * back, count, vel);
      } else if (oncoming) {
        // Right of the preferred direction is (ey, −ex).
        const side = (ctx.walkingSide === "left" ? -1 : 1) * GIVE_WAY_SPEED * want;
        this.#project(ey * side, -ex * side, count, vel);
      }
    }
    return turn;
  }

  /** Projects (vx, vy) onto the first `count` limits into `vel` (see the module doc). */
  #project(vx: number, vy: number, count: number, vel: Float64Array): void {
    const nxs = this.#nx, nys = this.#ny, limits = this.#limit;
    for (let round = 0; round < ROUNDS; round++) {
      let moved = false;
      for (let c = 0; c < count; c++) {
        const excess = vx * nxs[c] + vy * nys[c] - limits[c];
        if (excess > 1e-12) {
          vx -= excess * nxs[c];
          vy -= excess * nys[c];
          moved = true;
        }
      }
      if (!moved) {
        vel[0] = vx;
        vel[1] = vy;
        return;
      }
    }
    // Competing limits: shrink the velocity until no gap closes by more than its share and no
    // overlap deepens (scaling cannot push apart, so a negative limit counts as 0 here).
    let scale = 1;
    for (let c = 0; c < count; c++) {
      const along = vx * nxs[c] + vy * nys[c];
      const limit = limits[c] > 0 ? limits[c] : 0;
      if (along > limit) scale = Math.min(scale, limit / along);
    }
    vel[0] = vx * scale;
    vel[1] = vy * scale;
  }

  #add(count: number, nx: number, ny: number, limit: number): number {
    if (count === this.#nx.length) {
      const grow = (old: Float64Array) => {
        const next = new Float64Array(2 * old.length);
        next.set(old);
        return next;
      };
      this.#nx = grow(this.#nx);
      this.#ny = grow(this.#ny);
      this.#limit = grow(this.#limit);
    }
    this.#nx[count] = nx;
    this.#ny[count] = ny;
    this.#limit[count] = limit;
    return count + 1;
  }
}

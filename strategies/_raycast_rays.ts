/**
 * Ray casting of the `raycast-cluster` strategy: the fan of rays ahead of an agent and one ray
 * check, which casts them lazily against the neighbours and walls in the fan's wedge.
 *
 * After "The Sidewalk Salsa and Cultural Sensitivities" (blog post), with two changes to its
 * rays. A ray is one-dimensional and can slip through a sliver between two bodies that the
 * walker's body would not fit through; here rays are intersected analytically with neighbour
 * discs inflated by the agent's own radius — the shapecast "with a lateral dimension equivalent
 * to the NPC's collision size" the post prefers but cannot afford in a physics engine. And rays
 * ignore motion; with `motionAware` each ray is cast along the agent's path relative to each
 * moving neighbour (walking the ray at its preferred speed, does it meet that neighbour before it
 * has walked the ray length?). A standing neighbour sees exactly the post's ray.
 *
 * The post's optimisations are kept: rays are cast lazily (the centre cluster's first, the others
 * only when it collides) and each ray's result is cached within the check.
 *
 * @module
 */
import { capacityFor, NeighbourQuery } from "../core/neighbour_query.ts";
import type { StepContext } from "../core/strategy.ts";
import { MAX_MARGIN, MAX_RAYS, SCAN_FIELDS } from "./_raycast_scan.ts";
import { NearbyWalls } from "./_raycast_walls.ts";

/**
 * What a ray check or a contact gather reads of the world: the frozen agents, their grid and
 * the walls (a `StepContext`, or a `World`).
 */
export type RaycastScene = Pick<StepContext, "agents" | "grid" | "obstacles">;

/** Share of the longest clear length a cluster needs to be taken before later ones in scan order. */
const OPENEST_SHARE = 0.8;

/** Sizes the neighbour scratch before the first check; it grows when a query overflows. */
const INITIAL_NEIGHBOURS = 256;

/**
 * The fan of rays of one agent: `count` rays evenly over an arc, ray 0 the right-most and the
 * middle ray along the heading. Angles are kept as cosine and sine in the agent's frame (built
 * once per distinct count and arc) and as unit directions in the world frame (per check).
 *
 * @example Three rays over 90°, heading north
 * ```ts
 * import { RayFan } from "./_raycast_rays.ts";
 * import assert from "node:assert/strict";
 * const fan = new RayFan();
 * fan.aim(3, 90, 0, 1);
 * assert.ok(Math.abs(fan.dirX[0] - Math.SQRT1_2) < 1e-12); // the right-most ray points north-east
 * assert.deepEqual([fan.dirX[1], fan.dirY[1]], [0, 1]); // the middle ray along the heading
 * ```
 */
export class RayFan {
  /** Rays of the current fan. */
  count = 0;
  /** Arc of the current fan, from the right-most to the left-most ray (deg). */
  arcDeg: number = NaN;
  /** Cosine of each ray's angle to the heading. */
  readonly cos: Float64Array = new Float64Array(MAX_RAYS);
  /** Sine of each ray's angle to the heading (left positive). */
  readonly sin: Float64Array = new Float64Array(MAX_RAYS);
  /** World-frame unit direction of each ray, x, for the last heading aimed at. */
  readonly dirX: Float64Array = new Float64Array(MAX_RAYS);
  /** World-frame unit direction of each ray, y. */
  readonly dirY: Float64Array = new Float64Array(MAX_RAYS);
  /** Half the arc (rad). */
  halfArc = 0;
  /** Cosine of half the arc. */
  cosHalf = 1;
  /** Sine of half the arc. */
  sinHalf = 0;
  /** The last heading aimed at, x (unit). */
  hx = 1;
  /** The last heading aimed at, y (unit). */
  hy = 0;

  /**
   * Aims a fan of `count` rays (odd, 3…21) over `arcDeg` (deg) along the unit heading
   * (`hx`, `hy`).
   */
  aim(count: number, arcDeg: number, hx: number, hy: number): void {
    if (count !== this.count || arcDeg !== this.arcDeg) this.#build(count, arcDeg);
    const cos = this.cos, sin = this.sin, dirX = this.dirX, dirY = this.dirY;
    for (let k = 0; k < count; k++) {
      dirX[k] = hx * cos[k] - hy * sin[k];
      dirY[k] = hx * sin[k] + hy * cos[k];
    }
    this.hx = hx;
    this.hy = hy;
  }

  #build(count: number, arcDeg: number): void {
    const arc = (arcDeg * Math.PI) / 180, start = -arc / 2, step = arc / (count - 1);
    const middle = (count - 1) / 2;
    for (let k = 0; k < count; k++) {
      const angle = k === middle ? 0 : start + step * k;
      this.cos[k] = Math.cos(angle);
      this.sin[k] = Math.sin(angle);
    }
    this.halfArc = arc / 2;
    this.cosHalf = Math.cos(arc / 2);
    this.sinHalf = Math.sin(arc / 2);
    this.count = count;
    this.arcDeg = arcDeg;
  }
}

/** Model parameters of a {@linkcode RayCheck} (see the `raycast-cluster` options). */
export interface RayCheckOptions {
  /** Intersect rays with neighbour discs inflated by the agent's own radius. */
  inflateRays: boolean;
  /** Cast each ray along the agent's path relative to each moving neighbour. */
  motionAware: boolean;
  /** Rays see walls only this far (m). */
  wallRayLengthM: number;
}

/**
 * One ray check of one agent: the fan, the neighbours and walls in its wedge, and which rays
 * were cast and hit. Reused for every check; nothing is allocated once the buffers have grown
 * to the densest neighbourhood.
 *
 * @example A neighbour 3 m straight ahead blocks rays 5 to 7 of 13: the agent turns right
 * ```ts
 * import { RayCheck } from "./_raycast_rays.ts";
 * import { scanTable } from "./_raycast_scan.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "./none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0 });
 * world.addAgent({ x: 3, y: 0 });
 * world.prepare();
 * const check = new RayCheck({ inflateRays: true, motionAware: true, wallRayLengthM: 1.5 });
 * check.beginStep(0.25); // largest radius (m)
 * check.fan.aim(13, 60, 1, 0); // 13 rays over 60°, heading east
 * check.start(world, 0, 0.1, 1.3, 7.5); // agent 0, origin 0.1 m ahead, 1.3 m/s, rays 7.5 m
 * const table = scanTable(13, 2, -1); // margin 2, right-hand bias
 * const t = check.firstClearCluster(table);
 * assert.deepEqual([table[t + 1], table[t + 2]], [0, 4]); // offset 4 to the right, rays 0 … 4
 * assert.equal(check.raysCast, 8); // rays 8 … 12 were never needed
 * ```
 */
export class RayCheck {
  /** The fan of the agent being checked; aim it before {@linkcode RayCheck.start}. */
  readonly fan: RayFan = new RayFan();
  /** The walls near the ray origin, gathered by {@linkcode RayCheck.start}. */
  readonly walls: NearbyWalls = new NearbyWalls();
  /** Rays cast in the current check (bit k for ray k). */
  castMask = 0;
  /** Rays of the current check that hit (bit k for ray k). */
  hitMask = 0;
  readonly #o: RayCheckOptions;
  #maxRadius = 0;
  // The check: ray origin (m), preferred speed (m/s), ray length (m), ray radius (m).
  #ox = 0;
  #oy = 0;
  #speed = 0;
  #reach = 0;
  #rayRadius = 0;
  // Neighbours in the fan's wedge: position relative to the ray origin, velocity, |p|² - R².
  readonly #query = new NeighbourQuery(INITIAL_NEIGHBOURS);
  #nbCount = 0;
  #nbX = new Float64Array(INITIAL_NEIGHBOURS);
  #nbY = new Float64Array(INITIAL_NEIGHBOURS);
  #nbVx = new Float64Array(INITIAL_NEIGHBOURS);
  #nbVy = new Float64Array(INITIAL_NEIGHBOURS);
  #nbC0 = new Float64Array(INITIAL_NEIGHBOURS);
  // Clear length per ray and per cluster for the `openest` fallback (m).
  readonly #free = new Float64Array(MAX_RAYS);
  readonly #clusterFree = new Float64Array(1 + 2 * (MAX_RAYS + MAX_MARGIN));

  /** A check with the model parameters `options`. */
  constructor(options: RayCheckOptions) {
    this.#o = options;
  }

  /** Starts a step in which the largest agent radius is `maxRadius` (m). */
  beginStep(maxRadius: number): void {
    this.#maxRadius = maxRadius;
  }

  /** Number of rays the current check has cast. */
  get raysCast(): number {
    let count = 0;
    for (let m = this.castMask; m !== 0; m &= m - 1) count++;
    return count;
  }

  /**
   * Starts the check of agent `i` with the fan as aimed: rays from `ahead` (m) in front of its
   * centre, walked at `speed` (m/s, > 0), `reach` (m) long. Gathers the neighbours and walls in
   * the fan's wedge; the walls stay marked as agent `i`'s for its contact constraints.
   */
  start(scene: RaycastScene, i: number, ahead: number, speed: number, reach: number): void {
    const a = scene.agents, o = this.#o, hx = this.fan.hx, hy = this.fan.hy;
    this.castMask = 0;
    this.hitMask = 0;
    this.#ox = a.px[i] + hx * ahead;
    this.#oy = a.py[i] + hy * ahead;
    this.#speed = speed;
    this.#reach = reach;
    const wallReach = reach < o.wallRayLengthM ? reach : o.wallRayLengthM;
    this.#rayRadius = o.inflateRays ? a.radius[i] : 0;
    this.#gatherNeighbours(scene, i);
    this.walls.gather(scene.obstacles, this.#ox, this.#oy, wallReach, this.#rayRadius);
    this.walls.owner = i;
    this.walls.ownerAhead = ahead;
  }

  /**
   * Scans the clusters of `table` (a {@linkcode scanTable} of the fan's ray count) in order and
   * returns the table offset of the first clear one, -1 when every cluster collides.
   */
  firstClearCluster(table: Int32Array): number {
    for (let t = 0; t < table.length; t += SCAN_FIELDS) {
      if (!this.#clusterHits(table[t + 1], table[t + 2])) return t;
    }
    return -1;
  }

  /**
   * The `openest` fallback when every cluster of `table` collides: the table offset of the first
   * cluster in scan order whose rays stay clear for at least `OPENEST_SHARE` of the longest
   * clear length any cluster offers (0, the centre cluster, when none is clear at all).
   */
  openestCluster(table: Int32Array): number {
    const free = this.#free, clusterFree = this.#clusterFree, n = this.fan.count;
    for (let k = 0; k < n; k++) free[k] = this.#freeLength(k);
    let best = 0;
    for (let t = 0; t < table.length; t += SCAN_FIELDS) {
      let f = Infinity;
      for (let k = table[t + 1]; k <= table[t + 2]; k++) if (free[k] < f) f = free[k];
      clusterFree[t / SCAN_FIELDS] = f;
      if (f > best) best = f;
    }
    if (best > 0) {
      for (let t = 0; t < table.length; t += SCAN_FIELDS) {
        if (clusterFree[t / SCAN_FIELDS] >= OPENEST_SHARE * best) return t;
      }
    }
    return 0;
  }

  /**
   * Collects the neighbours whose disc, inflated by the agent's radius, reaches into the fan's
   * wedge within the reach of the ray origin: one grid query around the wedge's enclosing
   * circle, then a wedge test.
   */
  #gatherNeighbours(scene: RaycastScene, i: number): void {
    const a = scene.agents, ox = this.#ox, oy = this.#oy, ri = a.radius[i], range = this.#reach;
    const fan = this.fan, hx = fan.hx, hy = fan.hy;
    // Smallest circle around the sector: centred ahead for arcs under 120°.
    const cosHalf = fan.cosHalf, sinHalf = fan.sinHalf, narrow = fan.halfArc < Math.PI / 3;
    const ahead = narrow ? range / (2 * cosHalf) : 0;
    const rho = (narrow ? ahead : range) + ri + this.#maxRadius;
    const qx = ox + hx * ahead, qy = oy + hy * ahead;
    const count = this.#query.agents(scene.grid, qx, qy, rho, i);
    if (count > this.#nbX.length) this.#grow(count);
    // Edge rays: right e_R = h rotated by -halfArc, left e_L = h rotated by +halfArc.
    const erx = hx * cosHalf + hy * sinHalf, ery = hy * cosHalf - hx * sinHalf;
    const elx = hx * cosHalf - hy * sinHalf, ely = hy * cosHalf + hx * sinHalf;
    const px = a.px, py = a.py, vx = a.vx, vy = a.vy, radius = a.radius, query = this.#query.found;
    const nbX = this.#nbX, nbY = this.#nbY, nbVx = this.#nbVx, nbVy = this.#nbVy, c0 = this.#nbC0;
    const rayRadius = this.#rayRadius, motion = this.#o.motionAware;
    let kept = 0;
    for (let k = 0; k < count; k++) {
      const j = query[k];
      const dx = px[j] - ox, dy = py[j] - oy, rj = radius[j];
      const body = ri + rj, reach = range + body, d2 = dx * dx + dy * dy, hit = rayRadius + rj;
      // Always store, keep only a neighbour within reach, not behind the origin and between the
      // right-most and left-most rays (bitwise: the outcome is unpredictable).
      nbX[kept] = dx;
      nbY[kept] = dy;
      nbVx[kept] = motion ? vx[j] : 0;
      nbVy[kept] = motion ? vy[j] : 0;
      c0[kept] = d2 - hit * hit;
      kept += +(d2 < reach * reach) & +(dx * hx + dy * hy > -body) &
        +(erx * dy - ery * dx > -body) &
        +(elx * dy - ely * dx < body);
    }
    this.#nbCount = kept;
  }

  /** Grows the neighbour scratch (its content is lost) to hold `count` entries. */
  #grow(count: number): void {
    const size = capacityFor(count);
    this.#nbX = new Float64Array(size);
    this.#nbY = new Float64Array(size);
    this.#nbVx = new Float64Array(size);
    this.#nbVy = new Float64Array(size);
    this.#nbC0 = new Float64Array(size);
  }

  /** True when a ray of `first … last` hits; casts uncached rays in order and stops at a hit. */
  #clusterHits(first: number, last: number): boolean {
    for (let k = first; k <= last; k++) {
      const bit = 1 << k;
      if ((this.castMask & bit) === 0) {
        this.castMask |= bit;
        if (this.#castRay(k)) this.hitMask |= bit;
      }
      if ((this.hitMask & bit) !== 0) return true;
    }
    return false;
  }

  /**
   * Casts ray `k`: true when the agent walking along it at its preferred speed meets a
   * neighbour before it has walked the reach (with `motionAware` each neighbour moves with its
   * velocity, so the ray is cast along the agent's path relative to it; a standing neighbour
   * sees exactly the post's ray), or when a wall lies within the wall range.
   */
  #castRay(k: number): boolean {
    const speed = this.#speed, dx = this.fan.dirX[k], dy = this.fan.dirY[k];
    const sx = dx * speed, sy = dy * speed;
    const horizon = this.#reach / speed; // s
    const nbX = this.#nbX, nbY = this.#nbY, nbVx = this.#nbVx, nbVy = this.#nbVy, c0 = this.#nbC0;
    const count = this.#nbCount;
    for (let m = 0; m < count; m++) {
      // Relative path p - w t against the disc |q| <= R: ww t² - 2 b t + c0 = 0.
      const wx = sx - nbVx[m], wy = sy - nbVy[m];
      const b = nbX[m] * wx + nbY[m] * wy, c = c0[m];
      const ww = wx * wx + wy * wy;
      const disc = b * b - ww * c;
      // Entry time (b - sqrt(disc)) / ww <= horizon, without the square root.
      const e = b - horizon * ww;
      // Closing in (b > 0) and either inside (c <= 0) or meeting the disc within the horizon.
      // Bitwise, not short-circuit: the outcome is unpredictable, a branch would mispredict.
      if ((+(b > 0) & (+(c <= 0) | (+(disc >= 0) & (+(e <= 0) | +(e * e <= disc))))) !== 0) {
        return true;
      }
    }
    return this.walls.count > 0 && this.walls.hits(dx, dy, this.walls.reach);
  }

  /**
   * The longest reach ray `k` could have and still hit nothing (m): the earliest time the agent
   * walking along it meets a neighbour, times its speed, and no more than the distance at which
   * it would see a wall.
   */
  #freeLength(k: number): number {
    const speed = this.#speed, dx = this.fan.dirX[k], dy = this.fan.dirY[k];
    const sx = dx * speed, sy = dy * speed;
    const nbX = this.#nbX, nbY = this.#nbY, nbVx = this.#nbVx, nbVy = this.#nbVy, c0 = this.#nbC0;
    let first = Infinity; // s
    for (let m = 0; m < this.#nbCount; m++) {
      const wx = sx - nbVx[m], wy = sy - nbVy[m];
      const b = nbX[m] * wx + nbY[m] * wy;
      if (b <= 0) continue;
      if (c0[m] <= 0) return 0;
      const ww = wx * wx + wy * wy;
      const disc = b * b - ww * c0[m];
      if (disc < 0) continue;
      const t = (b - Math.sqrt(disc)) / ww;
      if (t < first) first = t;
    }
    const free = first * speed;
    const walls = this.walls;
    if (walls.count > 0 && walls.hits(dx, dy, walls.reach)) {
      // Bisect the wall entry to a few centimetres; only the cornered pay for it.
      let lo = 0, hi = walls.reach;
      while (hi - lo > 0.02) {
        const mid = (lo + hi) / 2;
        if (walls.hits(dx, dy, mid)) hi = mid;
        else lo = mid;
      }
      return lo < free ? lo : free;
    }
    return free;
  }
}

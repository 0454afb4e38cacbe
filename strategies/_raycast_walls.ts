/**
 * Wall geometry of the `raycast-cluster` strategy: the walls near an agent's ray origin, kept in
 * a frame that makes every ray test a few multiplications, and the test itself.
 *
 * Walls alongside are hit by the slanted rays and would push walkers off them to the middle of a
 * corridor. So rays see walls only within a short reach, and only where they meet a wall at more
 * than 30° to its surface: a ray that grazes a wall or a door post is not in the way (the contact
 * constraints slide the body along), so walkers neither turn away from a wall they follow nor
 * from the opening beside it.
 *
 * @module
 */
import { segmentParameter } from "../core/geometry.ts";
import { capacityFor, NeighbourQuery } from "../core/neighbour_query.ts";
import type { StaticObstacles } from "../core/obstacles.ts";

/**
 * A ray meeting a wall at less than this angle (30°) to its surface grazes it and is not blocked
 * (sine and cosine): the contact constraints slide the body along instead.
 */
const WALL_GLANCE_SIN = 0.5;
const WALL_GLANCE_COS = Math.sqrt(3) / 2;

/**
 * Numbers kept per gathered wall segment, relative to the ray origin: unit direction (2),
 * length, the origin's coordinates along and across the segment (2), the end points (4), and
 * the closest point to the origin (2) with its squared distance.
 */
const WALL_FIELDS = 12;

/**
 * The walls within reach of one agent's ray origin, gathered once per ray check and tested
 * against each ray of the check without allocating.
 *
 * @example A ray towards a wall 1 m ahead hits it; one along the wall does not
 * ```ts
 * import { NearbyWalls } from "./_raycast_walls.ts";
 * import { StaticObstacles } from "../core/obstacles.ts";
 * import assert from "node:assert/strict";
 * const obstacles = new StaticObstacles();
 * obstacles.addWall([[1, -5], [1, 5]]);
 * const walls = new NearbyWalls();
 * walls.gather(obstacles, 0, 0, 1.5, 0.25); // origin (0, 0), reach 1.5 m, body radius 0.25 m
 * assert.equal(walls.count, 1);
 * assert.equal(walls.hits(1, 0, walls.reach), true);
 * assert.equal(walls.hits(0, 1, walls.reach), false);
 * ```
 */
export class NearbyWalls {
  /** Walls gathered by the last {@linkcode NearbyWalls.gather}. */
  count = 0;
  /** Reach of the rays towards walls in the last gather (m). */
  reach = 0;
  /** Radius by which the rays were inflated in the last gather (m): the walls are capsules. */
  radius = 0;
  /** Agent whose ray check made the last gather (-1: none, or no longer of use). */
  owner: number = -1;
  /** Distance of that agent's ray origin ahead of its centre (m). */
  ownerAhead = 0;
  readonly #query = new NeighbourQuery();
  #geometry = new Float64Array(64 * WALL_FIELDS);

  /** Segment indices of the gathered walls: the first `count` are valid (read after each gather). */
  get segments(): Uint32Array {
    return this.#query.found;
  }

  /**
   * Gathers the walls within `reach` + `radius` (m) of the ray origin (`ox`, `oy`) with what
   * every ray test needs: the segment's direction and length, the origin's coordinates along
   * and across it, its end points and closest point relative to the origin. Clears the owner.
   */
  gather(obstacles: StaticObstacles, ox: number, oy: number, reach: number, radius: number): void {
    this.count = 0;
    this.reach = reach;
    this.radius = radius;
    this.owner = -1;
    if (obstacles.segmentCount === 0) return;
    const count = this.#query.segments(obstacles, ox, oy, reach + radius);
    if (count > this.#geometry.length / WALL_FIELDS) {
      this.#geometry = new Float64Array(capacityFor(count) * WALL_FIELDS);
    }
    const g = this.#geometry, segments = this.#query.found;
    for (let k = 0; k < count; k++) {
      const s = segments[k], b = k * WALL_FIELDS;
      const ax = obstacles.ax[s] - ox, ay = obstacles.ay[s] - oy;
      const bx = obstacles.bx[s] - ox, by = obstacles.by[s] - oy;
      const ex = bx - ax, ey = by - ay, length = Math.sqrt(ex * ex + ey * ey);
      const ux = length > 0 ? ex / length : 1, uy = length > 0 ? ey / length : 0;
      g[b] = ux;
      g[b + 1] = uy;
      g[b + 2] = length;
      g[b + 3] = -(ax * ux + ay * uy); // origin's coordinate along the segment from a
      g[b + 4] = ax * uy - ay * ux; // origin's coordinate across (left of a→b positive)
      g[b + 5] = ax;
      g[b + 6] = ay;
      g[b + 7] = bx;
      g[b + 8] = by;
      // The segment's closest point to the origin, as the vector from it to the origin.
      const t = segmentParameter(0, 0, ax, ay, bx, by);
      const cx = -(ax + t * ex), cy = -(ay + t * ey);
      g[b + 9] = cx;
      g[b + 10] = cy;
      g[b + 11] = cx * cx + cy * cy;
    }
    this.count = count;
  }

  /**
   * True when these walls were gathered by agent `i`'s ray check and hold every wall within
   * `range` (m) of the surface of its body of radius `bodyRadius` (m), so that its contact
   * constraints may use them. They do when the rays were inflated by the whole body (the
   * default): a body-radius-wide band is gathered beyond the reach.
   */
  covers(i: number, bodyRadius: number, range: number): boolean {
    return this.owner === i && this.radius >= bodyRadius && this.ownerAhead + range <= this.reach;
  }

  /**
   * True when the ray from the origin along unit (`dx`, `dy`) runs into a gathered wall's
   * capsule (the segment inflated by the ray radius) within `reach` (m), or starts inside one
   * heading deeper — at more than 30° to its surface. A ray that only grazes a wall (a heading
   * along it, or past a door post) is not in the way: the contact constraints slide the body
   * along the wall, and counting such rays would turn walkers away from a wall they follow and
   * from the opening beside it.
   */
  hits(dx: number, dy: number, reach: number): boolean {
    const g = this.#geometry, r = this.radius, r2 = r * r;
    for (let k = 0; k < this.count; k++) {
      const b = k * WALL_FIELDS;
      const ux = g[b], uy = g[b + 1], length = g[b + 2], along = g[b + 3], across = g[b + 4];
      // Origin inside the capsule: a hit when the ray heads steeply towards the segment.
      const c2 = g[b + 11];
      if (c2 < r2) {
        const into = -(g[b + 9] * dx + g[b + 10] * dy);
        if (into > 0 && into * into > WALL_GLANCE_SIN * WALL_GLANCE_SIN * c2) return true;
        continue;
      }
      // The side of the capsule facing the origin.
      const rate = dy * ux - dx * uy; // change of `across` per metre along the ray
      if (rate > WALL_GLANCE_SIN || rate < -WALL_GLANCE_SIN) {
        const t = ((across > 0 ? r : -r) - across) / rate;
        if (t >= 0 && t <= reach) {
          const s = along + t * (dx * ux + dy * uy);
          if (s >= 0 && s <= length) return true;
        }
      }
      // The end caps.
      if (
        r > 0 &&
        (_discHit(g[b + 5], g[b + 6], dx, dy, r2, reach) ||
          _discHit(g[b + 7], g[b + 8], dx, dy, r2, reach))
      ) {
        return true;
      }
    }
    return false;
  }
}

/**
 * True when the ray from the origin along unit (dx, dy) enters the disc of squared radius `r2`
 * centred at (px, py) (relative to the origin) within `reach` (m), at more than 30° to its
 * surface (the ray passes the centre at less than cos 30° of the radius).
 */
function _discHit(
  px: number,
  py: number,
  dx: number,
  dy: number,
  r2: number,
  reach: number,
): boolean {
  const t = px * dx + py * dy;
  if (t <= 0) return false;
  const c = px * dy - py * dx;
  if (c * c >= WALL_GLANCE_COS * WALL_GLANCE_COS * r2) return false;
  const w2 = r2 - c * c;
  const e = t - reach; // entry t - sqrt(w2) <= reach
  return e <= 0 || e * e <= w2;
}

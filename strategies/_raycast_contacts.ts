/**
 * Contact constraints and right of way of the `raycast-cluster` strategy: the short-range terms
 * that keep bodies apart whatever the rays decided, and let an arch of wedged agents open.
 *
 * Pure ray casting with "no turn and a speed dampener" walks an agent into whatever blocks it.
 * Every step and all around the body, the closing speed on any neighbour or wall is held to at
 * most the gap over `brakeTimeS` (plus what the neighbour moves away), and an overlap is pushed
 * out within {@linkcode CONTACT_TIME_S}. The desired velocity is projected onto these
 * constraints one after another.
 *
 * Constraints that hold bodies strictly apart have a fixed point: agents that touch and all want
 * to move into each other stand for ever (across a doorway, one at each post and one between
 * form an arch). A blocked agent wedged against a standing neighbour that wants to go where it
 * stands settles the right of way ({@linkcode mustGiveWay}): the one that has the other more
 * squarely in its way backs off. A pinned agent also turns its shoulders: towards neighbours its
 * body narrows by its squeeze (see `squeezeOf` in strategies/_right_of_way.ts). Pinned against
 * two or more people coming head-on, or next to one so pinned, it turns them towards them
 * at once (see `PASSING_TURN_SHARE` there), so that two crowds meeting head-on do not lock.
 *
 * @module
 */
import { segmentParameter } from "../core/geometry.ts";
import { capacityFor, NeighbourQuery } from "../core/neighbour_query.ts";
import type { AgentStore } from "../core/agent_store.ts";
import {
  comesHeadOn,
  mustGiveWay,
  PASSING_PRESS,
  passingTurnOf,
  WEDGE_GAP,
} from "./_right_of_way.ts";
import type { RaycastScene } from "./_raycast_rays.ts";
import type { NearbyWalls } from "./_raycast_walls.ts";

/**
 * Gap kept to every neighbour and wall by the contact constraints (m); gaps beyond the range by
 * more than this never bind.
 *
 * @example
 * ```ts
 * import { BRAKE_MARGIN } from "./_raycast_contacts.ts";
 * import assert from "node:assert/strict";
 * assert.equal(BRAKE_MARGIN, 0.02);
 * ```
 */
export const BRAKE_MARGIN = 0.02;

/**
 * Time in which an overlap with a neighbour or wall is pushed out (s).
 *
 * @example
 * ```ts
 * import { CONTACT_TIME_S } from "./_raycast_contacts.ts";
 * import assert from "node:assert/strict";
 * assert.equal(CONTACT_TIME_S, 0.1);
 * ```
 */
export const CONTACT_TIME_S = 0.1;

/** Passes over the contact constraints per step (each projects onto every violated one). */
const CONTACT_PASSES = 40;

/** Sizes the constraint buffers before the first gather; they grow when a query overflows. */
const INITIAL_CONTACTS = 256;

/** A mutable 2-D vector: the output of the queries that return one (units as documented there). */
export interface Vector2 {
  /** x component. */
  x: number;
  /** y component. */
  y: number;
}

/**
 * The contact constraints of one agent, gathered once per step and applied without allocating:
 * constraint k allows a velocity v with `v · n_k <= limit_k`, n_k the unit normal towards a
 * neighbour (the first {@linkcode ContactConstraints.agentCount}) or a wall (the rest).
 *
 * @example A wall 0.3 m ahead stops a walker before it touches
 * ```ts
 * import { ContactConstraints } from "./_raycast_contacts.ts";
 * import { NearbyWalls } from "./_raycast_walls.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "./none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.obstacles.addWall([[0.55, -5], [0.55, 5]]);
 * world.addAgent({ x: 0, y: 0, radius: 0.25 });
 * world.prepare();
 * const contacts = new ContactConstraints(0.5, new NearbyWalls());
 * contacts.beginStep(0.25);
 * contacts.gather(world, 0, 0, 1); // agent 0, not squeezed, within 1 m
 * const v = { x: 0, y: 0 };
 * contacts.project(1.3, 0, v); // walking east at 1.3 m/s into the wall
 * assert.ok(Math.abs(v.x - (0.3 - 0.02) / 0.5) < 1e-12); // (gap - margin) / brake time
 * assert.equal(v.y, 0);
 * ```
 */
export class ContactConstraints {
  /** Unit normals towards the neighbour or wall of each constraint, x. */
  nx: Float64Array = new Float64Array(INITIAL_CONTACTS);
  /** Unit normals towards the neighbour or wall of each constraint, y. */
  ny: Float64Array = new Float64Array(INITIAL_CONTACTS);
  /** Highest velocity component along each normal (m/s); negative pushes out. */
  limit: Float64Array = new Float64Array(INITIAL_CONTACTS);
  /** Agent index of each neighbour constraint (the first `agentCount`). */
  neighbours: Uint32Array = new Uint32Array(INITIAL_CONTACTS);
  /** Constraints gathered by the last {@linkcode ContactConstraints.gather}. */
  count = 0;
  /** Of them, those towards neighbours (they come first). */
  agentCount = 0;
  readonly #brakeTimeS: number;
  readonly #walls: NearbyWalls;
  readonly #agentQuery = new NeighbourQuery(INITIAL_CONTACTS);
  readonly #wallQuery = new NeighbourQuery();
  #maxRadius = 0;

  /**
   * Buffers for the constraints of one agent at a time.
   *
   * @param brakeTimeS closing speed on a neighbour or wall is at most the gap over this time (s)
   * @param walls the ray checks' gathered walls, used instead of a new query when they cover
   *   the contact range of the same agent (see {@linkcode NearbyWalls.covers})
   */
  constructor(brakeTimeS: number, walls: NearbyWalls) {
    this.#brakeTimeS = brakeTimeS;
    this.#walls = walls;
  }

  /** Starts a step in which the largest agent radius is `maxRadius` (m). */
  beginStep(maxRadius: number): void {
    this.#maxRadius = maxRadius;
  }

  /**
   * Gathers the constraints of agent `i` from every neighbour and wall within `range` (m) of its
   * body. Towards neighbours its radius is narrower by the share `squeeze` (shoulders turned);
   * given the per-agent seconds stood `pinned`, towards people coming head-on the pair's
   * distance is narrower by their passing turn (`passingTurnOf` in strategies/_right_of_way.ts)
   * when i touches two or more of them. The walls gathered by this step's ray check of `i` are used when they cover the range;
   * either way they are released afterwards.
   */
  gather(
    scene: RaycastScene,
    i: number,
    squeeze: number,
    range: number,
    pinned: Float64Array | null = null,
  ): void {
    const a = scene.agents, x = a.px[i], y = a.py[i];
    const rw = a.radius[i], ri = rw * (1 - squeeze);
    range += BRAKE_MARGIN; // gaps beyond never bind
    const count = this.#agentQuery.agents(scene.grid, x, y, ri + this.#maxRadius + range, i);
    const o = scene.obstacles, walls = this.#walls;
    let wallCount = 0, segments = this.#wallQuery.found;
    if (walls.covers(i, rw, range)) {
      wallCount = walls.count; // this step's check already gathered every wall in reach
      segments = walls.segments;
    } else if (o.segmentCount > 0) {
      wallCount = this.#wallQuery.segments(o, x, y, rw + range);
      segments = this.#wallQuery.found;
    }
    walls.owner = -1;
    this.#reserve(count, count + wallCount);
    let m = this.#gatherAgents(a, i, ri, range, count, pinned);
    this.agentCount = m;
    const nx = this.nx, ny = this.ny, limit = this.limit, tau = this.#brakeTimeS;
    for (let k = 0; k < wallCount; k++) {
      const s = segments[k];
      const t = segmentParameter(x, y, o.ax[s], o.ay[s], o.bx[s], o.by[s]);
      const qx = o.ax[s] + t * (o.bx[s] - o.ax[s]) - x, qy = o.ay[s] + t * (o.by[s] - o.ay[s]) - y;
      const d2 = qx * qx + qy * qy;
      if (d2 === 0) continue;
      const d = Math.sqrt(d2);
      nx[m] = qx / d;
      ny[m] = qy / d;
      limit[m++] = _gapSpeed(d - rw, tau);
    }
    this.count = m;
  }

  /**
   * Fills the neighbour constraints of agent `i` of radius `ri` (m) from the `count` agents of
   * the last query, keeping those within `range` (m) of its body; returns how many.
   */
  #gatherAgents(
    a: AgentStore,
    i: number,
    ri: number,
    range: number,
    count: number,
    pinned: Float64Array | null,
  ): number {
    const x = a.px[i], y = a.py[i], tau = this.#brakeTimeS;
    const px = a.px, py = a.py, vx = a.vx, vy = a.vy, radius = a.radius;
    const found = this.#agentQuery.found, neighbours = this.neighbours;
    const nx = this.nx, ny = this.ny, limit = this.limit;
    const pvx = a.prefVx[i], pvy = a.prefVy[i], want = Math.sqrt(pvx * pvx + pvy * pvy);
    const ex = want > 0 ? pvx / want : 0, ey = want > 0 ? pvy / want : 0, rw = a.radius[i];
    const own = pinned !== null ? pinned[i] : 0;
    // Pinned, or next to someone pinned, against two or more people coming head-on: the
    // shoulders turn (see PASSING_TURN_SHARE in strategies/_right_of_way.ts).
    let press = 0;
    if (pinned !== null && want > 0) {
      for (let k = 0; k < count; k++) {
        const j = found[k], qx = px[j] - x, qy = py[j] - y, near = rw + radius[j] + WEDGE_GAP;
        if (qx * qx + qy * qy < near * near && comesHeadOn(ex, ey, a, j)) press++;
      }
    }
    const turning = press >= PASSING_PRESS;
    let m = 0;
    for (let k = 0; k < count; k++) {
      const j = found[k];
      const qx = px[j] - x, qy = py[j] - y;
      let body = ri + radius[j];
      if (turning && pinned !== null && comesHeadOn(ex, ey, a, j)) {
        // The pair's distance is set by the more pinned of them.
        const turned = (1 - passingTurnOf(own > pinned[j] ? own : pinned[j])) * (rw + radius[j]);
        if (turned < body) body = turned;
      }
      const d2 = qx * qx + qy * qy, near = body + range;
      const d = Math.sqrt(d2), ux = qx / d, uy = qy / d;
      const away = vx[j] * ux + vy[j] * uy;
      // Always store, keep only neighbours near enough to bind (bitwise: unpredictable).
      nx[m] = ux;
      ny[m] = uy;
      limit[m] = (away > 0 ? away : 0) + _gapSpeed(d - body, tau);
      neighbours[m] = j;
      m += +(d2 < near * near) & +(d2 > 0);
    }
    return m;
  }

  /** Makes room for `agents` neighbour constraints and `total` constraints in all. */
  #reserve(agents: number, total: number): void {
    if (total > this.nx.length) {
      const size = capacityFor(total);
      this.nx = new Float64Array(size);
      this.ny = new Float64Array(size);
      this.limit = new Float64Array(size);
    }
    if (agents > this.neighbours.length) this.neighbours = new Uint32Array(capacityFor(agents));
  }

  /** Highest speed (m/s) along unit (`ux`, `uy`) that the gathered constraints allow. */
  freeSpeed(ux: number, uy: number): number {
    const nx = this.nx, ny = this.ny, limit = this.limit;
    let free = Infinity;
    for (let k = 0; k < this.count; k++) {
      const along = ux * nx[k] + uy * ny[k];
      if (along > 1e-9) {
        const v = limit[k] > 0 ? limit[k] / along : 0;
        if (v < free) free = v;
      }
    }
    return free;
  }

  /**
   * Projects the velocity (`vx`, `vy`) (m/s) onto the gathered constraints one after another,
   * for up to 40 passes while any is violated, and writes the result to `out` (m/s).
   */
  project(vx: number, vy: number, out: Vector2): void {
    const nx = this.nx, ny = this.ny, limit = this.limit, m = this.count;
    for (let pass = 0; pass < CONTACT_PASSES; pass++) {
      let violated = false;
      for (let k = 0; k < m; k++) {
        const excess = vx * nx[k] + vy * ny[k] - limit[k];
        if (excess > 1e-12) {
          vx -= excess * nx[k];
          vy -= excess * ny[k];
          violated = true;
        }
      }
      if (!violated) break;
    }
    out.x = vx;
    out.y = vy;
  }

  /**
   * Whether blocked agent `i` with preferred heading (`hx`, `hy`) (unit) must give way to a
   * neighbour it is wedged against (within `WEDGE_GAP`, see {@linkcode mustGiveWay}); if so,
   * writes the unit direction away from all such neighbours to `away`. Reads the neighbours of
   * the last gather, which must be of agent `i`.
   */
  givesWay(agents: AgentStore, i: number, hx: number, hy: number, away: Vector2): boolean {
    const px = agents.px, py = agents.py, radius = agents.radius, neighbours = this.neighbours;
    const x = px[i], y = py[i], ri = radius[i];
    let ax = 0, ay = 0;
    for (let k = 0; k < this.agentCount; k++) {
      const j = neighbours[k];
      const qx = px[j] - x, qy = py[j] - y, near = ri + radius[j] + WEDGE_GAP;
      const d2 = qx * qx + qy * qy;
      if (d2 >= near * near) continue;
      const d = Math.sqrt(d2), ux = qx / d, uy = qy / d;
      if (mustGiveWay(hx, hy, ux, uy, agents, i, j)) {
        ax -= ux;
        ay -= uy;
      }
    }
    const len = Math.sqrt(ax * ax + ay * ay);
    if (!(len > 1e-9)) return false;
    away.x = ax / len;
    away.y = ay / len;
    return true;
  }
}

/** Highest speed (m/s) at which a gap (m) may close: gap / tau, or a push-out when negative. */
function _gapSpeed(gap: number, tau: number): number {
  if (gap < 0) return gap / CONTACT_TIME_S;
  const free = gap - BRAKE_MARGIN;
  return free > 0 ? free / tau : 0;
}

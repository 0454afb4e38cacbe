/**
 * A navigator that plans on a {@linkcode NavMesh} and follows the plan: the navigation layer of
 * seed 001 (Algorithm 2) behind the {@linkcode Navigator} interface, so any avoidance strategy
 * can use it.
 *
 * Each agent keeps a corridor of triangles from a path query. Every step it steers at the
 * furthest route point it can see — the first corner of the funnel from its current position
 * through its corridor (Reynolds' path following, seed 001) — at its desired speed, scaled on
 * stairs by {@linkcode stairSpeedFactor}. Stair slowdown goes through the preferred velocity:
 * strategies treat the preferred speed as the speed the agent wants, so each of them slows
 * down on stairs by the same factor without knowing about stairs, and the world's `maxSpeed`
 * cap stays a physical limit.
 *
 * After integration the agent's triangle is updated by walking across mesh edges from the old
 * one to the new position; its surface is the triangle's surface, so it changes only across
 * connecting edges, and its height `pz` is read from the surface's height field. An agent whose
 * triangle is no longer in its corridor (pushed aside) keeps its corridor when the triangle
 * touches it and re-plans otherwise; an agent that has moved at less than a tenth of its desired
 * speed for `replanAfterStuck` seconds re-plans too.
 *
 * Path queries wait in a queue and at most `maxQueriesPerStep` run in a step, so that
 * thousands of agents asking at once spread over steps instead of stalling one. Queued agents
 * stand still. The count budget (not a time budget) keeps runs bit-identical.
 *
 * @module
 */
import { AgentFlags, type AgentHandle } from "../core/agent_store.ts";
import type { NavigationContext, Navigator } from "../core/navigator.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { World } from "../core/world.ts";
import { stringPull } from "./funnel.ts";
import type { NavMesh } from "./navmesh.ts";
import { NavMeshQuery, NavPath } from "./path_query.ts";
import {
  stairSpeedFactor,
  WEIDMANN_VERTICAL_SPEED_DOWN,
  WEIDMANN_VERTICAL_SPEED_UP,
} from "./stair_speed.ts";

/** Options of {@linkcode createNavMeshNavigator}. */
export interface NavMeshNavigatorOptions {
  /** Narrowest passage a route may use (m). */
  minWidth: number;
  /** Path queries run per step at most. */
  maxQueriesPerStep: number;
  /** Seconds of moving slower than a tenth of the desired speed before re-planning. */
  replanAfterStuck: number;
  /** Seconds between attempts for agents whose goal is unreachable. */
  retryInterval: number;
  /** Braking distance before the goal (m), as in the goal seeker. */
  slowingDistance: number;
  /** Paths are at most this factor longer than the shortest (weighted A*). */
  heuristicWeight: number;
  /** Vertical speed walking upstairs at a flat speed of 1.34 m/s (m/s). */
  stairVerticalSpeedUp: number;
  /** Vertical speed walking downstairs at a flat speed of 1.34 m/s (m/s). */
  stairVerticalSpeedDown: number;
  /** Add the mesh's merged border edges to the world's obstacles when attached. */
  exportBorders: boolean;
}

/** Descriptors of {@linkcode NavMeshNavigatorOptions}. */
export const NAVMESH_NAVIGATOR_OPTIONS: OptionSpecs<NavMeshNavigatorOptions> = {
  minWidth: {
    type: "number",
    default: 1.1,
    min: 0,
    max: 100,
    unit: "m",
    doc:
      "routes avoid passages narrower than this (seed 001: 1.1 m, the narrowest gap its pedestrians passed)",
  },
  maxQueriesPerStep: {
    type: "number",
    default: 64,
    min: 1,
    max: 1e6,
    integer: true,
    doc: "path queries per step; more plans new agents sooner, fewer bounds the step time",
  },
  replanAfterStuck: {
    type: "number",
    default: 3,
    min: 0.05,
    max: 3600,
    unit: "s",
    doc:
      "an agent moving slower than a tenth of its desired speed this long plans again from where it is",
  },
  retryInterval: {
    type: "number",
    default: 2,
    min: 0.05,
    max: 3600,
    unit: "s",
    doc: "agents whose goal is unreachable stand still and try again this often",
  },
  slowingDistance: {
    type: "number",
    default: 0,
    min: 0,
    max: 100,
    unit: "m",
    doc: "braking distance before the goal; 0 walks at full speed until arrival",
  },
  heuristicWeight: {
    type: "number",
    default: 1.01,
    min: 1,
    max: 10,
    doc:
      "weighted A*: routes are at most this factor longer than the shortest; 1 is exact but slower on long routes",
  },
  stairVerticalSpeedUp: {
    type: "number",
    default: WEIDMANN_VERTICAL_SPEED_UP,
    min: 0.01,
    max: 2,
    unit: "m/s",
    doc:
      "climbing rate upstairs of a 1.34 m/s walker (Weidmann 1993: 0.610 m/s along a 1:2 stair); horizontal speed = vertical / tan(stair angle)",
  },
  stairVerticalSpeedDown: {
    type: "number",
    default: WEIDMANN_VERTICAL_SPEED_DOWN,
    min: 0.01,
    max: 2,
    unit: "m/s",
    doc:
      "descent rate downstairs of a 1.34 m/s walker (Weidmann 1993: 0.694 m/s along a 1:2 stair)",
  },
  exportBorders: {
    type: "boolean",
    default: true,
    doc: "add the mesh's merged border edges (walls) to the world's obstacles when attached",
  },
};

/** Agent column: the mesh triangle the agent stands on (-1 before it is located). */
export const NAVMESH_TRIANGLE_COLUMN = "navmesh.triangle";
/** Agent column: the surface the agent stands on (-1 before it is located). */
export const NAVMESH_SURFACE_COLUMN = "navmesh.surface";
/** Agent column: the agent's {@linkcode NavAgentStatus}. */
export const NAVMESH_STATUS_COLUMN = "navmesh.status";
/** Agent column: seconds the agent has been nearly still. */
export const NAVMESH_STUCK_COLUMN = "navmesh.stuckTime";
/** Agent column: simulation time of the next path attempt of an unreachable agent (s). */
export const NAVMESH_RETRY_COLUMN = "navmesh.retryAt";
/** Agent column: 1 when the agent stands off the mesh (pushed into a wall or obstacle). */
export const NAVMESH_OUTSIDE_COLUMN = "navmesh.outside";
/** Agent column: x of the point the agent steers at (m). */
export const NAVMESH_TARGET_X_COLUMN = "navmesh.targetX";
/** Agent column: y of the point the agent steers at (m). */
export const NAVMESH_TARGET_Y_COLUMN = "navmesh.targetY";

/** Values of the status column. */
export const NavAgentStatus = {
  /** Needs a path. */
  unplanned: 0,
  /** Waiting for its path query. */
  queued: 1,
  /** Following a path to its goal. */
  following: 2,
  /** Following a path to the point nearest its goal (the goal is off the walkable area). */
  partial: 3,
  /** No route; retries every `retryInterval`. */
  unreachable: 4,
  /** Not on the mesh: walks straight at its goal. */
  offMesh: 5,
} as const;

const STUCK_SPEED_FRACTION = 0.1;
/**
 * An agent this far (m) beyond the border where its walk stopped was moved there (by a script),
 * not pushed: it is located afresh, on whichever surface it now stands.
 */
const RELOCATE_DISTANCE = 1;
/** How far (m) an agent pushed off the mesh looks for the way back. */
const RECOVERY_DISTANCE = 3;
/** Steps between recomputing the steering corner of an agent that stays in its triangle. */
const CORNER_REFRESH_STEPS = 4;
/** An agent this close (m) to its steering corner recomputes it at once. */
const CORNER_REACHED = 0.3;
/** Triangles of the corridor searched for the agent's new triangle after a move. */
const CORRIDOR_LOOKAHEAD = 16;

/** A navigator with its mesh, for scripts that want both. */
export interface NavMeshNavigator extends Navigator {
  /** The mesh it plans on. */
  readonly mesh: NavMesh;
  /** Options in force. */
  readonly options: Readonly<NavMeshNavigatorOptions>;
  /** Path queries run so far. */
  readonly queries: number;
}

/**
 * Creates a navigator planning on `mesh`.
 *
 * @example An agent walks around a pillar
 * ```ts
 * import { buildNavMesh } from "./navmesh_builder.ts";
 * import { createNavMeshNavigator } from "./navmesh_navigator.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const mesh = buildNavMesh({
 *   walkable: [[[[0, 0], [10, 0], [10, 10], [0, 10]]]],
 *   obstacles: [[[[4, 2], [6, 2], [6, 8], [4, 8]]]],
 * });
 * const world = new World({ strategy: createNoneStrategy(), navigator: createNavMeshNavigator(mesh) });
 * const h = world.addAgent({ x: 2, y: 5, goalX: 8, goalY: 5, desiredSpeed: 1.3 });
 * for (let i = 0; i < 400 && !world.finished; i++) world.step();
 * assert(world.agent(h)!.arrived);
 * ```
 */
export function createNavMeshNavigator(
  mesh: NavMesh,
  options: Partial<NavMeshNavigatorOptions> = {},
): NavMeshNavigator {
  const o = resolveOptions("navmesh navigator", NAVMESH_NAVIGATOR_OPTIONS, options);
  const query = new NavMeshQuery(mesh, {
    minWidth: o.minWidth,
    heuristicWeight: o.heuristicWeight,
  });
  const path = new NavPath(256);
  const upFactor = new Float64Array(mesh.surfaces.length),
    downFactor = new Float64Array(mesh.surfaces.length);
  mesh.surfaces.forEach((s, i) => {
    upFactor[i] = s.stairs
      ? stairSpeedFactor(s.stairs.treadDepth, s.stairs.riserHeight, true, o.stairVerticalSpeedUp)
      : 1;
    downFactor[i] = s.stairs
      ? stairSpeedFactor(s.stairs.treadDepth, s.stairs.riserHeight, false, o.stairVerticalSpeedDown)
      : 1;
  });
  const from = new Float64Array(2), to = new Float64Array(2), corner = new Float64Array(4);
  // Per agent slot (stable across swap-removes): corridor buffer, window, end point, owner.
  const corridors: Int32Array[] = [];
  let head = new Int32Array(0), length = new Int32Array(0);
  let endX = new Float64Array(0), endY = new Float64Array(0);
  let owner = new Uint32Array(0);
  let fresh = new Uint8Array(0); // 1 while the stored steering corner is valid for the corridor
  // Queue of agent handles waiting for a path (ring buffer).
  let queue = new Float64Array(64);
  let queueStart = 0, queueCount = 0;
  let queries = 0;

  function ensureSlots(capacity: number): void {
    if (head.length >= capacity) return;
    const grow = <A extends Int32Array | Float64Array | Uint32Array | Uint8Array>(a: A): A => {
      const b = new (a.constructor as new (n: number) => A)(capacity);
      b.set(a);
      return b;
    };
    head = grow(head);
    length = grow(length);
    endX = grow(endX);
    endY = grow(endY);
    owner = grow(owner);
    fresh = grow(fresh);
    while (corridors.length < capacity) corridors.push(new Int32Array(0));
  }

  function enqueue(handle: number): void {
    if (queueCount === queue.length) {
      const grown = new Float64Array(queue.length * 2);
      for (let k = 0; k < queueCount; k++) grown[k] = queue[(queueStart + k) % queue.length];
      queue = grown;
      queueStart = 0;
    }
    queue[(queueStart + queueCount) % queue.length] = handle;
    queueCount++;
  }

  function plan(ctx: NavigationContext, i: number): void {
    const a = ctx.agents;
    const status = a.column<Uint8Array>(NAVMESH_STATUS_COLUMN);
    from[0] = a.px[i];
    from[1] = a.py[i];
    to[0] = a.goalX[i];
    to[1] = a.goalY[i];
    queries++;
    const result = query.findPath(from, to, path);
    if (result === "unreachable") {
      status[i] = NavAgentStatus.unreachable;
      a.column(NAVMESH_RETRY_COLUMN)[i] = ctx.time + o.retryInterval;
      return;
    }
    const slot = a.slot[i];
    if (corridors[slot].length < path.corridorLength + 8) {
      corridors[slot] = new Int32Array(Math.max(2 * path.corridorLength, 32));
    }
    const buffer = corridors[slot];
    // Keep a few free entries in front so that stepping into a neighbouring triangle is cheap.
    const offset = Math.min(4, buffer.length - path.corridorLength);
    buffer.set(path.corridor.subarray(0, path.corridorLength), offset);
    head[slot] = offset;
    length[slot] = path.corridorLength;
    endX[slot] = result === "found" ? a.goalX[i] : path.endX;
    endY[slot] = result === "found" ? a.goalY[i] : path.endY;
    owner[slot] = a.serial[i];
    fresh[slot] = 0;
    // An agent standing in the clearance band starts from its own triangle when that touches
    // the corridor.
    const here = a.column<Int32Array>(NAVMESH_TRIANGLE_COLUMN)[i];
    if (here >= 0 && here !== buffer[offset]) advanceCorridor(slot, here);
    status[i] = result === "found" ? NavAgentStatus.following : NavAgentStatus.partial;
  }

  /** Moves the corridor's start to triangle t; false when t is not in or next to it. */
  function advanceCorridor(slot: number, t: number): boolean {
    const buffer = corridors[slot];
    const h = head[slot], n = length[slot];
    const look = Math.min(n, CORRIDOR_LOOKAHEAD);
    for (let j = 0; j < look; j++) {
      if (buffer[h + j] === t) {
        head[slot] = h + j;
        length[slot] = n - j;
        return true;
      }
    }
    const nb = mesh.neighbors;
    for (let j = 0; j < look; j++) {
      const u = buffer[h + j];
      if (nb[3 * t] !== u && nb[3 * t + 1] !== u && nb[3 * t + 2] !== u) continue;
      // t touches corridor triangle j: the corridor becomes t, then j onwards.
      if (h + j >= 1) {
        head[slot] = h + j - 1;
        buffer[h + j - 1] = t;
        length[slot] = n - j + 1;
        return true;
      }
      if (n + 1 > buffer.length) return false;
      buffer.copyWithin(1, 0, n);
      buffer[0] = t;
      head[slot] = 0;
      length[slot] = n + 1;
      return true;
    }
    return false;
  }

  return {
    name: "navmesh",
    mesh,
    options: o,
    get queries() {
      return queries;
    },
    columns: [
      {
        name: NAVMESH_TRIANGLE_COLUMN,
        type: "i32",
        default: -1,
        kind: "state",
        doc: "mesh triangle under the agent",
      },
      {
        name: NAVMESH_SURFACE_COLUMN,
        type: "i32",
        default: -1,
        kind: "state",
        doc: "surface under the agent",
      },
      { name: NAVMESH_STATUS_COLUMN, type: "u8", default: 0, kind: "state", doc: "NavAgentStatus" },
      {
        name: NAVMESH_STUCK_COLUMN,
        type: "f64",
        default: 0,
        kind: "state",
        doc: "seconds nearly still (s)",
      },
      {
        name: NAVMESH_RETRY_COLUMN,
        type: "f64",
        default: 0,
        kind: "state",
        doc: "time of the next path attempt (s)",
      },
      {
        name: NAVMESH_OUTSIDE_COLUMN,
        type: "u8",
        default: 0,
        kind: "state",
        doc: "1 when off the mesh",
      },
      {
        name: NAVMESH_TARGET_X_COLUMN,
        type: "f64",
        default: 0,
        kind: "state",
        doc: "steering point x (m)",
      },
      {
        name: NAVMESH_TARGET_Y_COLUMN,
        type: "f64",
        default: 0,
        kind: "state",
        doc: "steering point y (m)",
      },
    ],
    attach(world: World): void {
      if (o.exportBorders) mesh.addBordersTo(world.obstacles);
    },
    updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
      const a = ctx.agents;
      ensureSlots(a.capacity);
      const tri = a.column<Int32Array>(NAVMESH_TRIANGLE_COLUMN),
        surf = a.column<Int32Array>(NAVMESH_SURFACE_COLUMN);
      const status = a.column<Uint8Array>(NAVMESH_STATUS_COLUMN),
        retry = a.column(NAVMESH_RETRY_COLUMN);
      const tx = a.column(NAVMESH_TARGET_X_COLUMN), ty = a.column(NAVMESH_TARGET_Y_COLUMN);
      const outside = a.column<Uint8Array>(NAVMESH_OUTSIDE_COLUMN);
      const px = a.px, py = a.py, flags = a.flags, slotOf = a.slot, serial = a.serial;
      // 1. Locate new agents; queue those that need a path.
      for (let i = begin; i < end; i++) {
        if ((flags[i] & AgentFlags.arrived) !== 0) continue;
        if (tri[i] < 0) {
          const t = mesh.locate(px[i], py[i]);
          if (t < 0) {
            status[i] = NavAgentStatus.offMesh;
            continue;
          }
          tri[i] = t;
          surf[i] = mesh.surfaceOf[t];
          a.pz[i] = mesh.heightAt(t, px[i], py[i]);
          if (status[i] === NavAgentStatus.offMesh) status[i] = NavAgentStatus.unplanned;
        }
        const s = status[i];
        const stale = (s === NavAgentStatus.following || s === NavAgentStatus.partial) &&
          owner[slotOf[i]] !== serial[i];
        if (
          s === NavAgentStatus.unplanned || stale ||
          (s === NavAgentStatus.unreachable && ctx.time >= retry[i])
        ) {
          status[i] = NavAgentStatus.queued;
          enqueue(a.handleAt(i));
        }
      }
      // 2. Run the queued path queries, within the budget.
      for (let q = 0; q < o.maxQueriesPerStep && queueCount > 0; q++) {
        const handle = queue[queueStart];
        queueStart = (queueStart + 1) % queue.length;
        queueCount--;
        const i = a.indexOf(handle as AgentHandle);
        if (i < 0 || status[i] !== NavAgentStatus.queued) {
          q--; // a departed agent costs nothing
          continue;
        }
        plan(ctx, i);
      }
      // 3. Steer at the first corner of the funnel.
      const prefVx = a.prefVx, prefVy = a.prefVy, speed = a.desiredSpeed;
      for (let i = begin; i < end; i++) {
        const s = status[i];
        if (
          (flags[i] & AgentFlags.arrived) !== 0 || s === NavAgentStatus.queued ||
          s === NavAgentStatus.unreachable || s === NavAgentStatus.unplanned
        ) {
          prefVx[i] = prefVy[i] = 0;
          continue;
        }
        let gx = a.goalX[i], gy = a.goalY[i], final = true;
        if (outside[i] && mesh.nearestClearPoint(px[i], py[i], RECOVERY_DISTANCE, corner) >= 0) {
          // Pushed into a wall or an obstacle: back to the nearest clear point first.
          gx = corner[0];
          gy = corner[1];
          final = false;
          fresh[slotOf[i]] = 0;
        } else if (s !== NavAgentStatus.offMesh) {
          const slot = slotOf[i];
          // The corner is recomputed when the corridor changed, when the agent is about to reach
          // it, and otherwise every CORNER_REFRESH_STEPS steps (staggered over agents).
          let refresh = fresh[slot] === 0 ||
            (ctx.stepIndex + serial[i]) % CORNER_REFRESH_STEPS === 0;
          if (!refresh) {
            const ex = tx[i] - px[i], ey = ty[i] - py[i];
            refresh = ex * ex + ey * ey < CORNER_REACHED * CORNER_REACHED;
          }
          if (!refresh) {
            gx = tx[i];
            gy = ty[i];
            final = gx === endX[slot] && gy === endY[slot];
          } else {
            fresh[slot] = 1;
            const n = stringPull(
              mesh,
              corridors[slot],
              head[slot],
              head[slot] + length[slot],
              px[i],
              py[i],
              endX[slot],
              endY[slot],
              corner,
              2,
            );
            gx = corner[2];
            gy = corner[3];
            final = n < 2 || (gx === endX[slot] && gy === endY[slot]);
            if (n < 2) {
              gx = endX[slot];
              gy = endY[slot];
            }
          }
        }
        tx[i] = gx;
        ty[i] = gy;
        const dx = gx - px[i], dy = gy - py[i];
        const d = Math.sqrt(dx * dx + dy * dy);
        if (d === 0) {
          prefVx[i] = prefVy[i] = 0;
          continue;
        }
        let v = speed[i];
        const t = tri[i];
        if (t >= 0) {
          const k = mesh.surfaceOf[t];
          if (upFactor[k] !== 1 || downFactor[k] !== 1) {
            v *= mesh.surfaces[k].speedFactor(px[i], py[i], dx, dy, upFactor[k], downFactor[k]);
          }
        }
        if (final && d < o.slowingDistance) v *= d / o.slowingDistance;
        prefVx[i] = (dx / d) * v;
        prefVy[i] = (dy / d) * v;
      }
    },
    afterMove(ctx: NavigationContext, begin: number, end: number): void {
      const a = ctx.agents;
      const tri = a.column<Int32Array>(NAVMESH_TRIANGLE_COLUMN),
        surf = a.column<Int32Array>(NAVMESH_SURFACE_COLUMN);
      const status = a.column<Uint8Array>(NAVMESH_STATUS_COLUMN),
        stuck = a.column(NAVMESH_STUCK_COLUMN);
      const outside = a.column<Uint8Array>(NAVMESH_OUTSIDE_COLUMN);
      const px = a.px, py = a.py, vx = a.vx, vy = a.vy, flags = a.flags, slotOf = a.slot;
      for (let i = begin; i < end; i++) {
        const t = tri[i];
        if (t < 0 || (flags[i] & AgentFlags.arrived) !== 0) continue;
        // Walk across edges to the new position; a border stops the walk (the agent keeps the
        // last triangle and surface until it is back on the mesh).
        const w = mesh.walk(t, px[i], py[i]);
        let nt = w >= 0 ? w : ~w;
        outside[i] = w >= 0 ? 0 : 1;
        if (w < 0 && mesh.distanceToTriangle(nt, px[i], py[i]) > RELOCATE_DISTANCE) {
          // Moved far from the mesh it walked on (a script placed it): find it again.
          const found = mesh.locate(px[i], py[i]);
          if (found >= 0) {
            nt = found;
            outside[i] = 0;
          }
        }
        if (nt !== t) {
          tri[i] = nt;
          surf[i] = mesh.surfaceOf[nt];
        }
        a.pz[i] = mesh.surfaces[surf[i]].heightAt(px[i], py[i]);
        const s = status[i];
        if (s !== NavAgentStatus.following && s !== NavAgentStatus.partial) continue;
        if (nt !== t) {
          fresh[slotOf[i]] = 0;
          if (!advanceCorridor(slotOf[i], nt)) {
            status[i] = NavAgentStatus.unplanned;
            continue;
          }
        }
        const v2 = vx[i] * vx[i] + vy[i] * vy[i], slow = STUCK_SPEED_FRACTION * a.desiredSpeed[i];
        if (v2 < slow * slow) {
          stuck[i] += ctx.dt;
          if (stuck[i] >= o.replanAfterStuck) {
            stuck[i] = 0;
            status[i] = NavAgentStatus.unplanned;
          }
        } else stuck[i] = 0;
      }
    },
  };
}

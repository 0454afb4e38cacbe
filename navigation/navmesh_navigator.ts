/**
 * A navigator that plans on a {@linkcode NavMesh} and follows the plan — the navigation layer
 * (path planning, then path following) of the navigation-mesh crowd simulation for 3-D indoor
 * and outdoor spaces (a paper built on a Unity navigation mesh with stair classification,
 * heightmaps and border extraction, 2021), behind the {@linkcode Navigator} interface so that
 * any avoidance strategy can use it.
 *
 * Each agent keeps a corridor of triangles from a path query. Every step it steers at the
 * furthest route point it can see — the first corner of the funnel from its current position
 * through its corridor (Reynolds' path following, as in that paper) — at its desired speed,
 * scaled on stairs by {@linkcode stairSpeedFactor}. Stair slowdown goes through the preferred
 * velocity: strategies treat the preferred speed as the speed the agent wants, so each of them
 * slows down on stairs by the same factor without knowing about stairs, and the world's
 * `maxSpeed` cap stays a physical limit.
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
import { pointSegmentDistanceSq } from "../core/geometry.ts";
import { AgentFlags, type AgentStore, type ColumnSpec } from "../core/agent_store.ts";
import type { AgentHandle } from "../core/agent_store.ts";
import type { NavigationContext, Navigator } from "../core/navigator.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { World } from "../core/world.ts";
import { AgentCorridors } from "./_agent_corridors.ts";
import { HandleQueue } from "./_handle_queue.ts";
import { laneShare, segmentOnMesh, spreadCorner } from "./corner_spread.ts";
import { type FunnelRequest, stringPull } from "./funnel.ts";
import {
  HEURISTIC_WEIGHT_OPTION,
  MIN_WIDTH_OPTION,
  PATH_SEARCH_OPTION,
  SLOWING_DISTANCE_OPTION,
} from "./navigation_options.ts";
import type { NavigatorFactory } from "./navigator_factory.ts";
import type { NavMesh } from "./navmesh.ts";
import { NavAgentStatus, NAVMESH_COLUMNS, NavMeshAgentColumns } from "./navmesh_agent_columns.ts";
import { NavMeshQuery, NavPath } from "./path_query.ts";
import {
  stairSpeedFactor,
  WEIDMANN_VERTICAL_SPEED_DOWN,
  WEIDMANN_VERTICAL_SPEED_UP,
} from "./stair_speed.ts";

export {
  NavAgentStatus,
  NAVMESH_CORNER_COLUMN,
  NAVMESH_OUTSIDE_COLUMN,
  NAVMESH_RETRY_COLUMN,
  NAVMESH_SPREAD_COLUMN,
  NAVMESH_STATUS_COLUMN,
  NAVMESH_STUCK_COLUMN,
  NAVMESH_SURFACE_COLUMN,
  NAVMESH_TARGET_X_COLUMN,
  NAVMESH_TARGET_Y_COLUMN,
  NAVMESH_TRIANGLE_COLUMN,
} from "./navmesh_agent_columns.ts";

/** Options of {@linkcode NavMeshNavigator}. */
export interface NavMeshNavigatorOptions {
  /** Narrowest passage a route may use (m). Range [0, 100]. @default 1.1 */
  minWidth: number;
  /** Path queries run per step at most. Integer in [1, 1e6]. @default 64 */
  maxQueriesPerStep: number;
  /**
   * Seconds of moving slower than a tenth of the desired speed before re-planning (s).
   * Range [0.05, 3600]. @default 3
   */
  replanAfterStuck: number;
  /** Seconds between attempts for agents whose goal is unreachable (s). Range [0.05, 3600]. @default 2 */
  retryInterval: number;
  /** Braking distance before the goal (m), as in the goal seeker. Range [0, 100]. @default 0 */
  slowingDistance: number;
  /** Paths are at most this factor longer than the shortest (weighted A*). Range [1, 10]. @default 1.01 */
  heuristicWeight: number;
  /**
   * Path search: `exact` shortest paths, or `corridor` (A* over triangles and the funnel, as
   * Recast/Detour plans: faster on large meshes, sometimes the longer way round). @default "exact"
   */
  pathSearch: "exact" | "corridor";
  /**
   * Vertical speed walking upstairs at a flat speed of 1.34 m/s (m/s). Range [0.01, 2].
   * @default 0.305 (Weidmann 1993)
   */
  stairVerticalSpeedUp: number;
  /**
   * Vertical speed walking downstairs at a flat speed of 1.34 m/s (m/s). Range [0.01, 2].
   * @default 0.347 (Weidmann 1993)
   */
  stairVerticalSpeedDown: number;
  /** Add the mesh's merged border edges to the world's obstacles when attached. @default true */
  exportBorders: boolean;
  /**
   * Share of the corridor's width at a corner over which agents spread their turning points
   * (each by its lane share; 0: everyone turns at the inner corner). Range [0, 0.9].
   * @default 0.8
   */
  cornerSpread: number;
}

/** Descriptors of {@linkcode NavMeshNavigatorOptions}. */
export const NAVMESH_NAVIGATOR_OPTIONS: OptionSpecs<NavMeshNavigatorOptions> = {
  minWidth: MIN_WIDTH_OPTION,
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
  slowingDistance: SLOWING_DISTANCE_OPTION,
  heuristicWeight: HEURISTIC_WEIGHT_OPTION,
  pathSearch: PATH_SEARCH_OPTION,
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
  cornerSpread: {
    type: "number",
    default: 0.8,
    min: 0,
    max: 0.9,
    doc: "share of a corner's width over which agents spread where they turn (each at its own " +
      "lane, as in Karamouzas et al. 2009's indicative routes); 0 sends everyone along the " +
      "inner corner, where a crowd queues",
  },
};

/** Agents slower than this fraction of their desired speed count as stuck. */
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
/**
 * Density (persons/m²) at which the crowd steering round a corner is taken to spread: N people
 * spread over a width of √(N / density) (see corner_spread.ts).
 */
const CROWD_DENSITY = 1;
/** Share of its offset by which an agent keeps clear of a corner when it cuts to its lane. */
const CORNER_KEEP = 0.5;
/** Room (m) beyond its body an agent needs at an offset point it steers at. */
const BODY_ROOM = 0.1;
/** An agent this close (m) to its steering corner recomputes it at once. */
const CORNER_REACHED = 0.3;

/**
 * The navmesh navigator. Each step runs three phases over the agents — locate (find new agents'
 * triangles and queue those that need a path), plan (run queued path queries within the
 * budget), steer (aim at the funnel's first corner and set the preferred velocity) — and after
 * integration one more: follow the move (walk to the new triangle, keep the corridor, watch for
 * agents that are stuck).
 *
 * @example An agent walks around a pillar
 * ```ts
 * import { buildNavMesh } from "./navmesh_builder.ts";
 * import { NavMeshNavigator } from "./navmesh_navigator.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const mesh = buildNavMesh({
 *   walkable: [[[[0, 0], [10, 0], [10, 10], [0, 10]]]],
 *   obstacles: [[[[4, 2], [6, 2], [6, 8], [4, 8]]]],
 * });
 * const navigator = new NavMeshNavigator(mesh, { maxQueriesPerStep: 8 });
 * const world = new World({ strategy: createNoneStrategy(), navigator });
 * const h = world.addAgent({ x: 2, y: 5, goalX: 8, goalY: 5, desiredSpeed: 1.3 });
 * for (let i = 0; i < 400 && !world.finished; i++) world.step();
 * assert(world.agent(h)!.arrived);
 * assert.equal(navigator.queries, 1);
 * ```
 */
export class NavMeshNavigator implements Navigator {
  /** Registry name. */
  readonly name = "navmesh";
  /** The mesh it plans on. */
  readonly mesh: NavMesh;
  /** Options in force. */
  readonly options: Readonly<NavMeshNavigatorOptions>;
  /** Per-agent state columns. */
  readonly columns: readonly ColumnSpec[] = NAVMESH_COLUMNS;
  #query: NavMeshQuery;
  #path = new NavPath(256);
  /** Speed factors walking straight up / down each surface (1 off stairs). */
  #upFactor: Float64Array;
  #downFactor: Float64Array;
  #corridors: AgentCorridors;
  #queue = new HandleQueue();
  #queries = 0;
  #cols = new NavMeshAgentColumns();
  #from = new Float64Array(2);
  #to = new Float64Array(2);
  /** The nearest clear point (recovery), or the funnel's start, first corner and the next point. */
  #points = new Float64Array(6);
  #aim = new Float64Array(6);
  /** Agents steering round each mesh vertex (counted at the start of each step's steering). */
  #demand: Int32Array;
  #funnel: Required<FunnelRequest>;

  /** A navigator planning on `mesh`; `options` are validated (see the descriptors). */
  constructor(mesh: NavMesh, options: Partial<NavMeshNavigatorOptions> = {}) {
    this.mesh = mesh;
    const o = this.options = resolveOptions(
      "navmesh navigator",
      NAVMESH_NAVIGATOR_OPTIONS,
      options,
    );
    this.#query = new NavMeshQuery(mesh, {
      minWidth: o.minWidth,
      heuristicWeight: o.heuristicWeight,
      search: o.pathSearch,
    });
    const surfaceCount = mesh.surfaces.length;
    this.#upFactor = new Float64Array(surfaceCount);
    this.#downFactor = new Float64Array(surfaceCount);
    mesh.surfaces.forEach((s, k) => {
      if (!s.stairs) {
        this.#upFactor[k] = this.#downFactor[k] = 1;
        return;
      }
      const { treadDepth, riserHeight } = s.stairs;
      this.#upFactor[k] = stairSpeedFactor(treadDepth, riserHeight, true, o.stairVerticalSpeedUp);
      this.#downFactor[k] = stairSpeedFactor(
        treadDepth,
        riserHeight,
        false,
        o.stairVerticalSpeedDown,
      );
    });
    this.#corridors = new AgentCorridors(mesh);
    this.#demand = new Int32Array(mesh.coords.length >> 1);
    this.#funnel = {
      corridor: new Int32Array(0),
      begin: 0,
      end: 0,
      startX: 0,
      startY: 0,
      endX: 0,
      endY: 0,
      out: this.#points,
      maxPoints: 3,
    };
  }

  /**
   * Agent `i`'s planned route as it stands: the corners of the shortest path through its
   * corridor on the mesh (Lee and Preparata's funnel), from where it stands to the route's end,
   * written `[x0, y0, x1, y1, …]` (m) into `out` (at most `out.length / 2` points). Returns the
   * number of points; 0 when the agent has no route (unplanned, queued, unreachable, off the
   * mesh or arrived). For viewers and scripts, not for hot loops.
   */
  plannedRoute(agents: AgentStore, i: number, out: Float64Array): number {
    if (i < 0 || i >= agents.count || (agents.flags[i] & AgentFlags.arrived) !== 0) return 0;
    const cols = this.#cols;
    cols.bind(agents);
    const s = cols.status[i];
    if (s !== NavAgentStatus.following && s !== NavAgentStatus.partial) return 0;
    const corridors = this.#corridors, slot = agents.slot[i];
    if (slot >= corridors.owner.length || corridors.owner[slot] !== agents.serial[i]) return 0;
    return stringPull(this.mesh, {
      corridor: corridors.buffers[slot],
      begin: corridors.head[slot],
      end: corridors.head[slot] + corridors.length[slot],
      startX: agents.px[i],
      startY: agents.py[i],
      endX: corridors.endX[slot],
      endY: corridors.endY[slot],
      out,
      maxPoints: out.length >> 1,
    });
  }

  /** Path queries run so far. */
  get queries(): number {
    return this.#queries;
  }

  /** Adds the mesh's border edges to the world's obstacles (with `exportBorders`). */
  attach(world: World): void {
    if (this.options.exportBorders) this.mesh.addBordersTo(world.obstacles);
  }

  /** The step's three phases: locate, plan, steer. */
  updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
    this.#corridors.ensure(ctx.agents.capacity);
    this.#cols.bind(ctx.agents);
    this.#locateAndQueue(ctx, begin, end);
    this.#runQueuedPlans(ctx);
    this.#steer(ctx, begin, end);
  }

  /** After integration: follow each agent's move across the mesh. */
  afterMove(ctx: NavigationContext, begin: number, end: number): void {
    const a = ctx.agents, flags = a.flags;
    const cols = this.#cols;
    cols.bind(a);
    const triangle = cols.triangle, status = cols.status;
    for (let i = begin; i < end; i++) {
      const t = triangle[i];
      if (t < 0 || (flags[i] & AgentFlags.arrived) !== 0) continue;
      const now = this.#walkTo(a, i, t);
      const s = status[i];
      if (s !== NavAgentStatus.following && s !== NavAgentStatus.partial) continue;
      if (now !== t && !this.#enterTriangle(a, i, now)) {
        status[i] = NavAgentStatus.unplanned;
        continue;
      }
      this.#watchStuck(ctx, i);
    }
  }

  // ---- Phase 1: locate ----------------------------------------------------------------------

  /** Locates agents new to the mesh; queues those that need a path. */
  #locateAndQueue(ctx: NavigationContext, begin: number, end: number): void {
    const a = ctx.agents, flags = a.flags, cols = this.#cols;
    const triangle = cols.triangle, status = cols.status;
    for (let i = begin; i < end; i++) {
      if ((flags[i] & AgentFlags.arrived) !== 0) continue;
      if (triangle[i] < 0 && !this.#locate(a, i)) {
        status[i] = NavAgentStatus.offMesh;
        continue;
      }
      if (this.#needsPlan(ctx, i)) {
        status[i] = NavAgentStatus.queued;
        this.#queue.push(a.handleAt(i));
      }
    }
  }

  /** Finds agent `i`'s triangle, surface and height; false when it stands off the mesh. */
  #locate(a: AgentStore, i: number): boolean {
    const mesh = this.mesh, cols = this.#cols;
    const t = mesh.locate(a.px[i], a.py[i]);
    if (t < 0) return false;
    cols.triangle[i] = t;
    cols.surface[i] = mesh.surfaceOf[t];
    a.pz[i] = mesh.heightAt(t, a.px[i], a.py[i]);
    if (cols.status[i] === NavAgentStatus.offMesh) cols.status[i] = NavAgentStatus.unplanned;
    return true;
  }

  /**
   * True when agent `i` has no path, follows a corridor planned for an agent that has left its
   * slot, or is unreachable and due for another try.
   */
  #needsPlan(ctx: NavigationContext, i: number): boolean {
    const s = this.#cols.status[i];
    if (s === NavAgentStatus.unplanned) return true;
    if (s === NavAgentStatus.following || s === NavAgentStatus.partial) {
      const a = ctx.agents, slot = a.slot[i], corridors = this.#corridors;
      return corridors.owner[slot] !== a.serial[i] || corridors.goalX[slot] !== a.goalX[i] ||
        corridors.goalY[slot] !== a.goalY[i];
    }
    return s === NavAgentStatus.unreachable && ctx.time >= this.#cols.retryAt[i];
  }

  // ---- Phase 2: plan ------------------------------------------------------------------------

  /** Runs queued path queries, at most `maxQueriesPerStep`; departed agents cost nothing. */
  #runQueuedPlans(ctx: NavigationContext): void {
    const a = ctx.agents, status = this.#cols.status, queue = this.#queue;
    let budget = this.options.maxQueriesPerStep;
    while (budget > 0 && queue.count > 0) {
      const i = a.indexOf(queue.shift() as AgentHandle);
      if (i < 0 || status[i] !== NavAgentStatus.queued) continue;
      this.#plan(ctx, i);
      budget--;
    }
  }

  /** Plans agent `i`'s path from where it stands to its goal and stores its corridor. */
  #plan(ctx: NavigationContext, i: number): void {
    const a = ctx.agents, cols = this.#cols, path = this.#path;
    this.#from[0] = a.px[i];
    this.#from[1] = a.py[i];
    this.#to[0] = a.goalX[i];
    this.#to[1] = a.goalY[i];
    this.#queries++;
    const result = this.#query.findPath(this.#from, this.#to, path);
    if (result === "unreachable") {
      cols.status[i] = NavAgentStatus.unreachable;
      cols.retryAt[i] = ctx.time + this.options.retryInterval;
      return;
    }
    const slot = a.slot[i], corridors = this.#corridors;
    corridors.store(slot, path);
    corridors.endX[slot] = result === "found" ? a.goalX[i] : path.endX;
    corridors.endY[slot] = result === "found" ? a.goalY[i] : path.endY;
    corridors.owner[slot] = a.serial[i];
    corridors.goalX[slot] = a.goalX[i];
    corridors.goalY[slot] = a.goalY[i];
    // An agent standing in the clearance band starts from its own triangle when that touches
    // the corridor.
    const here = cols.triangle[i];
    if (here >= 0 && here !== corridors.first(slot)) corridors.advance(slot, here);
    cols.status[i] = result === "found" ? NavAgentStatus.following : NavAgentStatus.partial;
  }

  // ---- Phase 3: steer -----------------------------------------------------------------------

  /** Aims every walking agent and writes its preferred velocity; others stand still. */
  #steer(ctx: NavigationContext, begin: number, end: number): void {
    const a = ctx.agents, flags = a.flags, px = a.px, py = a.py;
    const prefVx = a.prefVx, prefVy = a.prefVy;
    const cols = this.#cols, status = cols.status, targetX = cols.targetX, targetY = cols.targetY;
    const slowingDistance = this.options.slowingDistance;
    this.#countDemand(a, begin, end);
    for (let i = begin; i < end; i++) {
      const s = status[i];
      if (
        (flags[i] & AgentFlags.arrived) !== 0 || s === NavAgentStatus.queued ||
        s === NavAgentStatus.unreachable || s === NavAgentStatus.unplanned
      ) {
        prefVx[i] = prefVy[i] = 0;
        continue;
      }
      const final = this.#chooseAim(ctx, i);
      const dx = targetX[i] - px[i], dy = targetY[i] - py[i];
      const d = Math.sqrt(dx * dx + dy * dy);
      if (d === 0) {
        prefVx[i] = prefVy[i] = 0;
        continue;
      }
      // Arrive (Reynolds) at the route's end, as in the goal seeker.
      let v = this.#stairSpeed(a, i, dx, dy);
      if (final && d < slowingDistance) v *= d / slowingDistance;
      prefVx[i] = (dx / d) * v;
      prefVy[i] = (dy / d) * v;
    }
  }

  /** Counts the agents steering round each corner (see corner_spread.ts). */
  #countDemand(a: AgentStore, begin: number, end: number): void {
    const demand = this.#demand, corner = this.#cols.corner, flags = a.flags;
    demand.fill(0);
    if (!(this.options.cornerSpread > 0)) return;
    for (let i = begin; i < end; i++) {
      const v = corner[i];
      if (v >= 0 && (flags[i] & AgentFlags.arrived) === 0) demand[v]++;
    }
  }

  /**
   * Chooses the point agent `i` steers at and writes it to the target columns: the nearest
   * clear point when it was pushed off the mesh, else the first corner of its corridor, else
   * (off the mesh) its goal. True when the point is the route's end, where the agent brakes.
   */
  #chooseAim(ctx: NavigationContext, i: number): boolean {
    const a = ctx.agents, cols = this.#cols, points = this.#points;
    if (
      cols.outside[i] &&
      this.mesh.nearestClearPoint(a.px[i], a.py[i], RECOVERY_DISTANCE, points) >= 0
    ) {
      // Pushed into a wall or an obstacle: back to the nearest clear point first.
      cols.targetX[i] = points[0];
      cols.targetY[i] = points[1];
      this.#corridors.fresh[a.slot[i]] = 0;
      return false;
    }
    if (cols.status[i] !== NavAgentStatus.offMesh) return this.#aimAlongCorridor(ctx, i);
    cols.targetX[i] = a.goalX[i];
    cols.targetY[i] = a.goalY[i];
    return true;
  }

  /**
   * Aims agent `i` at the first corner of the funnel through its corridor, recomputed when the
   * corridor changed, when the agent is about to reach the corner, and otherwise every
   * `CORNER_REFRESH_STEPS` steps (staggered over agents). True when the corner is the route's
   * end.
   */
  #aimAlongCorridor(ctx: NavigationContext, i: number): boolean {
    const a = ctx.agents, cols = this.#cols, corridors = this.#corridors, slot = a.slot[i];
    const endX = corridors.endX[slot], endY = corridors.endY[slot];
    if (!this.#cornerNeedsRefresh(ctx, i)) {
      return cols.targetX[i] === endX && cols.targetY[i] === endY;
    }
    corridors.fresh[slot] = 1;
    const funnel = this.#funnel;
    funnel.corridor = corridors.buffers[slot];
    funnel.begin = corridors.head[slot];
    funnel.end = corridors.head[slot] + corridors.length[slot];
    funnel.startX = a.px[i];
    funnel.startY = a.py[i];
    funnel.endX = endX;
    funnel.endY = endY;
    const n = stringPull(this.mesh, funnel);
    if (n < 3) {
      // The end in sight: pass the last corner at the agent's offset, then head for the end.
      if (n === 2 && this.#besideLastCorner(a, i, endX, endY)) return false;
      cols.spread[i] = 0;
      cols.corner[i] = -1;
      cols.targetX[i] = endX;
      cols.targetY[i] = endY;
      return true;
    }
    const points = this.#points;
    let tx = points[2], ty = points[3];
    cols.corner[i] = -1;
    if (n >= 3 && this.options.cornerSpread > 0) {
      const aim = this.#aim;
      const kind = spreadCorner(
        this.mesh,
        funnel.corridor,
        funnel.begin,
        funnel.end,
        a.px[i],
        a.py[i],
        tx,
        ty,
        points[4],
        points[5],
        laneShare(a.serial[i]),
        this.options.cornerSpread,
        this.#demand,
        CROWD_DENSITY,
        cols.spread[i],
        aim,
      );
      cols.corner[i] = aim[2];
      cols.spread[i] = aim[3];
      // Along the outgoing leg at its lane once it can walk there straight, passing the corner at
      // half its offset or more; else to its turning point while that is ahead and in reach;
      // else round the corner as without spreading.
      const from = cols.triangle[i];
      if (kind === 0 && from >= 0) {
        if (
          pointSegmentDistanceSq(tx, ty, a.px[i], a.py[i], aim[4], aim[5]) >=
            (CORNER_KEEP * aim[3]) ** 2 &&
          this.#reachable(a, i, from, aim[4], aim[5], points[4], points[5])
        ) {
          tx = aim[4];
          ty = aim[5];
        } else {
          const dx = aim[0] - a.px[i], dy = aim[1] - a.py[i];
          if (
            dx * dx + dy * dy > CORNER_REACHED * CORNER_REACHED &&
            this.#reachable(a, i, from, aim[0], aim[1], tx, ty)
          ) {
            tx = aim[0];
            ty = aim[1];
          }
        }
      }
    }
    cols.targetX[i] = tx;
    cols.targetY[i] = ty;
    return tx === endX && ty === endY;
  }

  /**
   * Aims agent `i`, which sees the end (`endX`, `endY`) of its route, beside the corner it last
   * spread round, at its offset across the way to the end, until it has come level with the
   * corner. True when it does (false: no such corner, passed it, or the point is out of reach).
   */
  #besideLastCorner(a: AgentStore, i: number, endX: number, endY: number): boolean {
    const cols = this.#cols, v = cols.corner[i], d = cols.spread[i];
    if (v < 0 || !(d > 0)) return false;
    const c = this.mesh.coords, cx = c[2 * v], cy = c[2 * v + 1];
    const ex = endX - cx, ey = endY - cy, len = Math.sqrt(ex * ex + ey * ey);
    if (len < 1e-9) return false;
    const px = a.px[i] - cx, py = a.py[i] - cy;
    if (px * ex + py * ey >= 0) return false; // level with the corner
    const side = ex * py - ey * px >= 0 ? 1 : -1; // the agent's side of the way to the end
    const tx = cx - (side * ey * d) / len, ty = cy + (side * ex * d) / len;
    const from = cols.triangle[i];
    if (from < 0 || !this.#reachable(a, i, from, tx, ty, cx, cy)) return false;
    cols.targetX[i] = tx;
    cols.targetY[i] = ty;
    return true;
  }

  /**
   * True when agent `i` (in triangle `from`) can walk straight to (`x`, `y`), an offset point
   * moved away from (`ox`, `oy`), with room for its body beyond it: the segment to the point
   * moved on by the body radius plus 0.1 m stays on the mesh.
   */
  #reachable(
    a: AgentStore,
    i: number,
    from: number,
    x: number,
    y: number,
    ox: number,
    oy: number,
  ): boolean {
    const dx = x - ox, dy = y - oy, len = Math.sqrt(dx * dx + dy * dy);
    const extra = len > 1e-9 ? (a.radius[i] + BODY_ROOM) / len : 0;
    return segmentOnMesh(this.mesh, from, a.px[i], a.py[i], x + dx * extra, y + dy * extra);
  }

  /** True when agent `i`'s cached steering corner must be recomputed this step. */
  #cornerNeedsRefresh(ctx: NavigationContext, i: number): boolean {
    const a = ctx.agents;
    if (this.#corridors.fresh[a.slot[i]] === 0) return true;
    if ((ctx.stepIndex + a.serial[i]) % CORNER_REFRESH_STEPS === 0) return true;
    const ex = this.#cols.targetX[i] - a.px[i], ey = this.#cols.targetY[i] - a.py[i];
    return ex * ex + ey * ey < CORNER_REACHED * CORNER_REACHED;
  }

  /** Agent `i`'s desired speed (m/s), scaled on stairs for walking in direction (dx, dy). */
  #stairSpeed(a: AgentStore, i: number, dx: number, dy: number): number {
    const v = a.desiredSpeed[i], t = this.#cols.triangle[i];
    if (t < 0) return v;
    const k = this.mesh.surfaceOf[t], up = this.#upFactor[k], down = this.#downFactor[k];
    if (up === 1 && down === 1) return v;
    return v * this.mesh.surfaces[k].speedFactor(a.px[i], a.py[i], dx, dy, up, down);
  }

  // ---- After the move -----------------------------------------------------------------------

  /**
   * Walks agent `i` across mesh edges from triangle `t` to its new position and updates its
   * triangle, surface, height and outside flag; returns the new triangle. A border stops the
   * walk: the agent keeps the last triangle and surface until it is back on the mesh, unless it
   * was moved far beyond (by a script), when it is located afresh.
   */
  #walkTo(a: AgentStore, i: number, t: number): number {
    const mesh = this.mesh, cols = this.#cols, px = a.px[i], py = a.py[i];
    const w = mesh.walk(t, px, py);
    let now = w >= 0 ? w : ~w;
    cols.outside[i] = w >= 0 ? 0 : 1;
    if (w < 0 && mesh.distanceToTriangle(now, px, py) > RELOCATE_DISTANCE) {
      const found = mesh.locate(px, py);
      if (found >= 0) {
        now = found;
        cols.outside[i] = 0;
      }
    }
    if (now !== t) {
      cols.triangle[i] = now;
      cols.surface[i] = mesh.surfaceOf[now];
    }
    a.pz[i] = mesh.surfaces[cols.surface[i]].heightAt(px, py);
    return now;
  }

  /** Moves agent `i`'s corridor start to triangle `t`; false when `t` is off the corridor. */
  #enterTriangle(a: AgentStore, i: number, t: number): boolean {
    const slot = a.slot[i];
    this.#corridors.fresh[slot] = 0;
    return this.#corridors.advance(slot, t);
  }

  /** Counts the time agent `i` moves slower than a tenth of its desired speed; re-plans when long. */
  #watchStuck(ctx: NavigationContext, i: number): void {
    const a = ctx.agents, cols = this.#cols;
    const v2 = a.vx[i] * a.vx[i] + a.vy[i] * a.vy[i];
    const slow = STUCK_SPEED_FRACTION * a.desiredSpeed[i];
    if (!(v2 < slow * slow)) {
      cols.stuckTime[i] = 0;
      return;
    }
    cols.stuckTime[i] += ctx.dt;
    if (cols.stuckTime[i] >= this.options.replanAfterStuck) {
      cols.stuckTime[i] = 0;
      cols.status[i] = NavAgentStatus.unplanned;
    }
  }
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
  return new NavMeshNavigator(mesh, options);
}

/** Registry entry of the navmesh navigator; it needs the scenario's navigation mesh. */
export const navMeshNavigator: NavigatorFactory<NavMeshNavigatorOptions> = {
  name: "navmesh",
  description:
    "plan on the navigation mesh (A* with a minimum width, funnel) and follow the furthest visible corner; stairs slow walkers",
  options: NAVMESH_NAVIGATOR_OPTIONS,
  requires: ["navMesh"],
  plansAroundObstacles: true,
  create(options, { navMesh }) {
    if (!navMesh) {
      throw new TypeError(
        "Cannot create navmesh navigator as it needs a navigation mesh (navMesh)",
      );
    }
    return new NavMeshNavigator(navMesh, options);
  },
};

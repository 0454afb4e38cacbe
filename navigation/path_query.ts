/**
 * Shortest paths on a {@linkcode NavMesh}: A* over the mesh's triangles whose search nodes are
 * funnel intervals — Polyanya (Cui, Harabor & Grastien 2017, "Compromise-free pathfinding on a
 * navigation mesh"). A node is a stretch of a triangle edge seen from a root point (the start or
 * a corner where the path turns); expanding it projects the stretch across the next triangle,
 * which is the funnel algorithm run inside the search. The result is the exact Euclidean
 * shortest path through the clear area, not an approximation over triangle centres, together
 * with its corridor of triangles for {@linkcode stringPull} and path following. A successor equal
 * to a node already generated (same root, triangle, entry edge and interval, no shorter) is
 * dropped: on city meshes, with thousands of obstacle corners, the same interval is otherwise
 * reached again and again through neighbouring intervals of one root, and its subtree repeated
 * (Helsinki centre: 18,000 search nodes per query across the map instead of 100,000+).
 *
 * A minimum passable width (1.1 m by default, the narrowest gap walked through in the
 * navigation-mesh crowd simulation for 3-D indoor and outdoor spaces, 2021) is enforced with
 * the triangle widths of TA*
 * (Demyen & Buro 2006): a route may not pass through a triangle between two edges whose
 * passage is narrower than `minWidth` (measured in the walkable area, so the mesh's clearance
 * counts on both sides).
 *
 * Results are values with a status (Detour style): `found`, `partial` (the goal lies off the
 * walkable area, or the node budget ran out: the path ends at the nearest point reached) or
 * `unreachable`; no exception is thrown for "no route". Queries write into a caller-owned
 * {@linkcode NavPath} and allocate nothing once their buffers have grown.
 *
 * @module
 */
import FlatQueue from "npm:flatqueue@3.1.0";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import {
  HEURISTIC_WEIGHT_OPTION,
  MIN_WIDTH_OPTION,
  PATH_SEARCH_OPTION,
} from "./navigation_options.ts";
import { CorridorSearch } from "./corridor_search.ts";
import { type FunnelRequest, stringPull } from "./funnel.ts";
import type { NavMesh } from "./navmesh.ts";
import {
  LANDMARK_FIELD_NODES_PER_TRIANGLE,
  LANDMARK_MIN_TRIANGLES,
  LandmarkBound,
  type PathLandmarks,
  selectLandmarks,
} from "./path_landmarks.ts";

/** Outcome of a path query. */
export type PathStatus = "found" | "partial" | "unreachable";

/** Why a query ended the way it did. */
export type PathReason =
  /** Start and goal are on the clear area and joined. */
  | "ok"
  /** The start is further than `maxSnapDistance` from the clear area. */
  | "start-off-mesh"
  /** The goal is further than `maxSnapDistance` from the clear area. */
  | "goal-off-mesh"
  /** The goal lies outside the walkable area; the path ends at the nearest clear point. */
  | "goal-snapped"
  /** Start and goal lie on unconnected parts of the clear area. */
  | "disconnected"
  /** Every route is blocked by a passage narrower than `minWidth`. */
  | "too-narrow"
  /** The search reached `maxNodes`; the path ends where it got closest to the goal. */
  | "node-limit";

/**
 * A path query's result, reused across queries: points, corridor and status. Buffers grow as
 * needed and are kept.
 *
 * @example A fresh path buffer
 * ```ts
 * import { NavPath } from "./path_query.ts";
 * import assert from "node:assert/strict";
 * const path = new NavPath();
 * assert.equal(path.status, "unreachable");
 * assert.equal(path.pointCount, 0);
 * ```
 */
export class NavPath {
  /** Outcome of the last query. */
  status: PathStatus = "unreachable";
  /** Why it ended so. */
  reason: PathReason = "disconnected";
  /** Straight path `[x0, y0, x1, y1, …]` (m) from the (snapped) start to the end. */
  points: Float64Array;
  /** Number of points in `points`. */
  pointCount = 0;
  /** Triangles the path runs through, from the start's to the end's. */
  corridor: Int32Array;
  /** Number of triangles in `corridor`. */
  corridorLength = 0;
  /** Length of the path (m). */
  length = 0;
  /** Search nodes the last query generated (a measure of its work). */
  nodes = 0;

  /** @param capacity initial number of points and corridor triangles */
  constructor(capacity = 64) {
    this.points = new Float64Array(2 * capacity);
    this.corridor = new Int32Array(capacity);
  }

  /** End x of the path (m). */
  get endX(): number {
    return this.pointCount > 0 ? this.points[2 * this.pointCount - 2] : NaN;
  }

  /** End y of the path (m). */
  get endY(): number {
    return this.pointCount > 0 ? this.points[2 * this.pointCount - 1] : NaN;
  }
}

/** Options of a {@linkcode NavMeshQuery}. */
export interface PathQueryOptions {
  /** Narrowest passage a route may use (m, measured between walls). Range [0, 100]. @default 1.1 */
  minWidth: number;
  /** Search nodes per query before giving up with a partial path. Integer in [1, 1e9]. @default 200000 */
  maxNodes: number;
  /**
   * Start and goal points further than this from the clear area are off the mesh (m).
   * Range [0, 1e6]. @default 5
   */
  maxSnapDistance: number;
  /**
   * Weight of the heuristic (weighted A*): paths are at most this many times the shortest.
   * Range [1, 10]. @default 1.01
   */
  heuristicWeight: number;
  /**
   * Landmarks for the ALT lower bound (distances to a few far-apart points, precomputed once per
   * mesh on its first query). 0 keeps the straight-line bound alone. Integer in [0, 32].
   * @default 8
   */
  landmarks: number;
  /**
   * `exact`: the shortest path (within `heuristicWeight`), by an any-angle search over
   * intervals of mesh edges. `corridor`: A* over triangles, then the funnel through them, as
   * Recast/Detour plans; several times faster on large meshes, and the path may take the longer
   * way round an obstacle where the two differ little (see {@linkcode CorridorSearch}).
   * @default "exact"
   */
  search: "exact" | "corridor";
}

/** Descriptors of {@linkcode PathQueryOptions}. */
export const PATH_QUERY_OPTIONS: OptionSpecs<PathQueryOptions> = {
  minWidth: MIN_WIDTH_OPTION,
  maxNodes: {
    type: "number",
    default: 200_000,
    min: 1,
    max: 1e9,
    integer: true,
    doc: "search nodes per query; when reached the query returns a partial path",
  },
  maxSnapDistance: {
    type: "number",
    default: 5,
    min: 0,
    max: 1e6,
    unit: "m",
    doc:
      "start and goal are moved onto the clear area from at most this far; further means off the mesh",
  },
  heuristicWeight: HEURISTIC_WEIGHT_OPTION,
  landmarks: {
    type: "number",
    default: 8,
    min: 0,
    max: 32,
    integer: true,
    doc:
      "landmarks for the ALT lower bound on meshes of 5,000 triangles or more (built once per mesh on its first query); 0 uses the straight-line bound alone",
  },
  search: PATH_SEARCH_OPTION,
};

const RIGHT_VERTEX = 1, LEFT_VERTEX = 2, FAN = 4, FINAL = 8;
const EPS = 1e-9;

/**
 * Path queries over one mesh. Not shareable between threads: it owns its search buffers.
 *
 * @example Around a pillar
 * ```ts
 * import { buildNavMesh } from "./navmesh_builder.ts";
 * import { NavMeshQuery, NavPath } from "./path_query.ts";
 * import assert from "node:assert/strict";
 * const mesh = buildNavMesh({
 *   walkable: [[[[0, 0], [10, 0], [10, 10], [0, 10]]]],
 *   obstacles: [[[[4, 2], [6, 2], [6, 8], [4, 8]]]],
 * }, { clearance: 0 });
 * const query = new NavMeshQuery(mesh);
 * const path = new NavPath();
 * assert.equal(query.findPath([2, 5], [8, 5], path), "found");
 * const expected = 2 * Math.hypot(2, 3) + 2; // via (4, 8) and (6, 8), or the two lower corners
 * assert(Math.abs(path.length - expected) < 1e-9);
 * ```
 */
export class NavMeshQuery {
  /** The mesh searched. */
  readonly mesh: NavMesh;
  /** Options in force. */
  readonly options: Readonly<PathQueryOptions>;

  #required: number;
  #weight: number;
  #open = new FlatQueue<number>();
  #rootG: Float64Array;
  #rootStamp: Int32Array;
  #stamp = 0;
  #snap = new Float64Array(2);
  // Search nodes, struct of arrays.
  #n = 0;
  #cap = 0;
  #rootV = new Int32Array(0);
  #rx = new Float64Array(0);
  #ry = new Float64Array(0);
  #irx = new Float64Array(0);
  #iry = new Float64Array(0);
  #ilx = new Float64Array(0);
  #ily = new Float64Array(0);
  #g = new Float64Array(0);
  #f = new Float64Array(0);
  #tri = new Int32Array(0);
  #edge = new Int8Array(0);
  #flags = new Uint8Array(0);
  #parent = new Int32Array(0);
  // Goal of the running query.
  #gx = 0;
  #gy = 0;
  #goalTri = -1;
  #best = -1;
  #bestH = Infinity;
  // Nodes generated by the running query, hashed by root, edge and interval: a successor equal
  // to one already generated (reached again through another interval of the same root) is
  // dropped, as its subtree would repeat the other's.
  #seen = new Int32Array(0);
  #seenStamp = new Int32Array(0);
  // Successors of the node being expanded (at most 6), pushed to the queue afterwards.
  #pending = new Int32Array(8);
  #pendingCount = 0;
  // ALT lower bound: landmark distances (landmark-major, Infinity where unknown), the goal's
  // distance range per landmark, and each vertex's bound, cached for the running query.
  /** 1 at the vertices a shortest path can bend round (see {@linkcode turningVertices}). */
  #turns: Uint8Array;
  #landmarks: LandmarkBound | null = null;
  #landmarksResolved = false;
  #corridor: CorridorSearch | null = null;
  #funnel: FunnelRequest = {
    corridor: new Int32Array(0),
    begin: 0,
    end: 0,
    startX: 0,
    startY: 0,
    endX: 0,
    endY: 0,
    out: new Float64Array(0),
  };
  // Distance-field mode: vertex distances from the source, written as nodes are generated.
  #field: Float64Array | null = null;

  constructor(mesh: NavMesh, options: Partial<PathQueryOptions> = {}) {
    this.mesh = mesh;
    this.options = resolveOptions("path query", PATH_QUERY_OPTIONS, options);
    this.#required = this.options.minWidth - 2 * mesh.clearance;
    this.#weight = this.options.heuristicWeight;
    this.#rootG = new Float64Array(mesh.vertexCount);
    this.#rootStamp = new Int32Array(mesh.vertexCount);
    this.#turns = turningVerticesOf(mesh);
    this.#grow(1024);
  }

  /**
   * Landmarks this query's lower bound uses: 0 until the first query, on meshes under 5,000
   * triangles, and on open meshes where they would cost more than they save.
   */
  get landmarkCount(): number {
    return this.#landmarks?.landmarks.count ?? 0;
  }

  /**
   * Writes into `out` (one entry per mesh vertex) the length (m) of the shortest path from
   * (`x`, `y`) to each vertex through passages at least `minWidth` wide, and Infinity for
   * vertices it cannot reach (or that no path can use, as the tip of a dead-end triangle).
   * The whole connected area is searched, up to `maxNodes` search nodes: returns false when
   * that budget ran out (the distances are then incomplete).
   */
  distanceField(x: number, y: number, out: Float64Array, maxNodes = Infinity): boolean {
    if (out.length < this.mesh.vertexCount) {
      throw new RangeError(
        `distanceField: out holds ${out.length} entries, the mesh has ${this.mesh.vertexCount} vertices`,
      );
    }
    out.fill(Infinity);
    const mesh = this.mesh, snap = this.#snap;
    const tri = mesh.nearestClearPoint(x, y, this.options.maxSnapDistance, snap);
    if (tri < 0) return true;
    const sx = snap[0], sy = snap[1], v = mesh.triangles, c = mesh.coords;
    for (let j = 0; j < 3; j++) {
      const u = v[3 * tri + j];
      out[u] = norm(c[2 * u] - sx, c[2 * u + 1] - sy);
    }
    const weight = this.#weight, landmarks = this.#landmarks;
    this.#field = out;
    this.#weight = 0;
    this.#landmarks = null;
    this.#goalTri = -1;
    this.#gx = sx;
    this.#gy = sy;
    try {
      this.#search(tri, sx, sy, maxNodes);
      return this.#n < maxNodes;
    } finally {
      this.#field = null;
      this.#weight = weight;
      this.#landmarks = landmarks;
    }
  }

  /**
   * Finds a path from `start` to `goal` (`[x, y]`, m), at most `heuristicWeight` times as long
   * as the shortest, and writes it into `out`. Returns `out.status`.
   */
  findPath(start: ArrayLike<number>, goal: ArrayLike<number>, out: NavPath): PathStatus {
    const mesh = this.mesh, snap = this.#snap, maxSnap = this.options.maxSnapDistance;
    out.pointCount = out.corridorLength = 0;
    out.length = 0;
    out.nodes = 0;
    const startTri = mesh.nearestClearPoint(start[0], start[1], maxSnap, snap);
    if (startTri < 0) return this.#fail(out, "start-off-mesh");
    const sx = snap[0], sy = snap[1];
    const goalTri = mesh.nearestClearPoint(goal[0], goal[1], maxSnap, snap);
    if (goalTri < 0) return this.#fail(out, "goal-off-mesh");
    const gx = snap[0], gy = snap[1];
    // A goal in the clearance band is still walkable; one off the walkable area is not.
    const snapped = mesh.locate(goal[0], goal[1]) < 0;
    if (mesh.planComponent[startTri] !== mesh.planComponent[goalTri]) {
      return this.#fail(out, "disconnected");
    }
    this.#gx = gx;
    this.#gy = gy;
    this.#goalTri = goalTri;
    if (!this.#landmarksResolved) this.#resolveLandmarks();
    this.#landmarks?.setGoal(goalTri, gx, gy);
    if (startTri === goalTri) {
      this.#writeDirect(out, startTri, sx, sy, gx, gy);
      out.status = snapped ? "partial" : "found";
      out.reason = snapped ? "goal-snapped" : "ok";
      return out.status;
    }
    if (this.options.search === "corridor") {
      return this.#findCorridorPath(out, startTri, sx, sy, goalTri, gx, gy, snapped);
    }
    const final = this.#search(startTri, sx, sy);
    out.nodes = this.#n;
    if (final >= 0) {
      this.#writePath(out, final, startTri, sx, sy, gx, gy);
      out.status = snapped ? "partial" : "found";
      out.reason = snapped ? "goal-snapped" : "ok";
      return out.status;
    }
    if (this.#n >= this.options.maxNodes && this.#best >= 0) {
      this.#writeBest(out, this.#best, startTri, sx, sy);
      out.status = "partial";
      out.reason = "node-limit";
      return out.status;
    }
    return this.#fail(out, "too-narrow");
  }

  /** Corridor search (see {@linkcode CorridorSearch}), then the funnel through its triangles. */
  #findCorridorPath(
    out: NavPath,
    startTri: number,
    sx: number,
    sy: number,
    goalTri: number,
    gx: number,
    gy: number,
    snapped: boolean,
  ): PathStatus {
    const corridor = this.#corridor ??= new CorridorSearch(this.mesh);
    const outcome = corridor.search(
      startTri,
      sx,
      sy,
      goalTri,
      gx,
      gy,
      this.#required,
      this.#weight,
      this.#landmarks,
      this.options.maxNodes,
    );
    out.nodes = corridor.expanded;
    if (outcome === "too-narrow") return this.#fail(out, "too-narrow");
    const last = outcome === "found" ? goalTri : corridor.bestTriangle;
    const tris = corridor.corridorLength(last);
    ensure(out, tris + 1, tris);
    corridor.corridor(last, out.corridor);
    out.corridorLength = tris;
    let ex = gx, ey = gy;
    if (outcome !== "found") {
      corridor.entryPoint(last, this.#snap);
      ex = this.#snap[0];
      ey = this.#snap[1];
    }
    const request = this.#funnel;
    request.corridor = out.corridor;
    request.end = tris;
    request.startX = sx;
    request.startY = sy;
    request.endX = ex;
    request.endY = ey;
    request.out = out.points;
    out.pointCount = stringPull(this.mesh, request);
    let length = 0;
    const p = out.points;
    for (let i = 1; i < out.pointCount; i++) {
      length += norm(p[2 * i] - p[2 * i - 2], p[2 * i + 1] - p[2 * i - 1]);
    }
    out.length = length;
    if (outcome === "found") {
      out.status = snapped ? "partial" : "found";
      out.reason = snapped ? "goal-snapped" : "ok";
    } else {
      out.status = "partial";
      out.reason = "node-limit";
    }
    return out.status;
  }

  /** Takes the mesh's landmark tables (building them on the first query of a large mesh). */
  #resolveLandmarks(): void {
    this.#landmarksResolved = true;
    const count = this.options.landmarks;
    if (count === 0 || this.mesh.triangleCount < LANDMARK_MIN_TRIANGLES) return;
    const landmarks = landmarksOf(this.mesh, count);
    if (landmarks.count === 0) return;
    this.#landmarks = new LandmarkBound(this.mesh, landmarks);
  }

  /**
   * Landmark lower bound of the remaining distance of node i: from its root, and through its
   * interval from either end vertex `a` of the entry edge. For p on the interval,
   * d(p, goal) ≥ bound(a) − |p − a|, and |root − p| − |p − a| is least at an interval end.
   */
  #landmarkBound(i: number): number {
    const root = this.#rootV[i];
    let h = root >= 0 ? this.#landmarks!.vertex(root) : 0;
    if (this.#flags[i] & FAN) return h;
    const v = this.mesh.triangles, c = this.mesh.coords, T = this.#tri[i], k = this.#edge[i];
    const rx = this.#rx[i], ry = this.#ry[i];
    const ax = this.#irx[i], ay = this.#iry[i], bx = this.#ilx[i], by = this.#ily[i];
    const ra = norm(ax - rx, ay - ry), rb = norm(bx - rx, by - ry);
    for (let s = 0; s < 2; s++) {
      const u = v[3 * T + (k + s) % 3], bound = this.#landmarks!.vertex(u);
      if (bound <= h) continue;
      const ux = c[2 * u], uy = c[2 * u + 1];
      const viaA = ra - norm(ax - ux, ay - uy), viaB = rb - norm(bx - ux, by - uy);
      const through = bound + (viaA < viaB ? viaA : viaB);
      if (through > h) h = through;
    }
    return h;
  }

  #fail(out: NavPath, reason: PathReason): PathStatus {
    out.status = "unreachable";
    out.reason = reason;
    return out.status;
  }

  /** Runs the search; returns the final node, or -1. */
  #search(startTri: number, sx: number, sy: number, maxNodes = this.options.maxNodes): number {
    const mesh = this.mesh, v = mesh.triangles, pn = mesh.planNeighbors, tw = mesh.twins;
    const open = this.#open;
    open.clear();
    this.#n = 0;
    this.#stamp++;
    this.#best = -1;
    this.#bestH = Infinity;
    this.#pendingCount = 0;
    for (let j = 0; j < 3; j++) {
      const n = pn[3 * startTri + j];
      if (n < 0) continue;
      const r = v[3 * startTri + j], l = v[3 * startTri + (j + 1) % 3];
      const c = mesh.coords;
      // A start lying on this edge sees all of the next triangle.
      const onEdge = Math.abs(cross(c[2 * r], c[2 * r + 1], c[2 * l], c[2 * l + 1], sx, sy)) <=
        EPS * norm(c[2 * l] - c[2 * r], c[2 * l + 1] - c[2 * r + 1]);
      this.#push(
        -1,
        sx,
        sy,
        c[2 * r],
        c[2 * r + 1],
        c[2 * l],
        c[2 * l + 1],
        RIGHT_VERTEX | LEFT_VERTEX | (onEdge ? FAN : 0),
        n,
        tw[3 * startTri + j],
        0,
        -1,
      );
    }
    this.#flushPending();
    while (open.length > 0) {
      let node = open.pop()!;
      if (this.#flags[node] & FINAL) return node;
      const root = this.#rootV[node];
      if (root >= 0 && this.#g[node] > this.#rootG[root] + EPS) continue; // a shorter way to the root exists
      // Expand; a node with a single successor that keeps its root is expanded at once
      // (Polyanya's cheap intermediate nodes), without a round trip through the queue.
      for (;;) {
        if (this.#n >= maxNodes) return -1;
        this.#pendingCount = 0;
        if (this.#flags[node] & FAN) this.#expandFan(node);
        else this.#expand(node);
        if (this.#pendingCount !== 1) break;
        const only = this.#pending[0];
        if ((this.#flags[only] & FINAL) || this.#rootV[only] !== root || root < 0) break;
        this.#pendingCount = 0;
        node = only;
      }
      this.#flushPending();
    }
    return -1;
  }

  #flushPending(): void {
    for (let p = 0; p < this.#pendingCount; p++) {
      const i = this.#pending[p];
      this.#open.push(i, this.#f[i]);
    }
    this.#pendingCount = 0;
  }

  /** Expands a node whose root sees the whole next triangle (the root is on its entry edge). */
  #expandFan(node: number): void {
    const mesh = this.mesh,
      v = mesh.triangles,
      c = mesh.coords,
      pn = mesh.planNeighbors,
      tw = mesh.twins;
    const T = this.#tri[node], k = this.#edge[node], root = this.#rootV[node];
    const rx = this.#rx[node], ry = this.#ry[node], g = this.#g[node];
    if (T === this.#goalTri) {
      this.#pushFinal(node, root, rx, ry, g + norm(this.#gx - rx, this.#gy - ry));
      return;
    }
    for (let s = 1; s <= 2; s++) {
      const j = (k + s) % 3;
      const n = pn[3 * T + j];
      if (n < 0 || !this.#wide(T, k, j)) continue;
      const r = v[3 * T + j], l = v[3 * T + (j + 1) % 3];
      const fan = root >= 0 && (root === r || root === l) ? FAN : 0;
      this.#push(
        root,
        rx,
        ry,
        c[2 * r],
        c[2 * r + 1],
        c[2 * l],
        c[2 * l + 1],
        RIGHT_VERTEX | LEFT_VERTEX | fan,
        n,
        tw[3 * T + j],
        g,
        node,
      );
    }
  }

  /**
   * Expands an interval node across its next triangle (observable and turning successors).
   *
   * Kept as one function although it is longer than the house limit: it is the innermost step
   * of the search (run for every node), and its phases share the node's dozen fields and the
   * triangle's vertices, which split-out steps would read again or take as long argument lists.
   */
  #expand(node: number): void {
    const mesh = this.mesh, v = mesh.triangles, c = mesh.coords, corner = this.#turns;
    const T = this.#tri[node], k = this.#edge[node], flags = this.#flags[node];
    const eL = v[3 * T + k], eR = v[3 * T + (k + 1) % 3], O = v[3 * T + (k + 2) % 3];
    const eLx = c[2 * eL], eLy = c[2 * eL + 1], eRx = c[2 * eR], eRy = c[2 * eR + 1];
    const ox = c[2 * O], oy = c[2 * O + 1];
    const root = this.#rootV[node], rx = this.#rx[node], ry = this.#ry[node], g = this.#g[node];
    const irx = this.#irx[node],
      iry = this.#iry[node],
      ilx = this.#ilx[node],
      ily = this.#ily[node];
    const rightTurn = (flags & RIGHT_VERTEX) !== 0 && corner[eR] === 1;
    const leftTurn = (flags & LEFT_VERTEX) !== 0 && corner[eL] === 1;
    const edgeLen = norm(eLx - eRx, eLy - eRy);
    if (Math.abs(cross(eRx, eRy, eLx, eLy, rx, ry)) <= EPS * edgeLen * (1 + edgeLen)) {
      // Root in line with the entry edge: nothing beyond is seen through it; turn at its ends.
      if (rightTurn) this.#turn(node, eR, eRx, eRy, g + norm(eRx - rx, eRy - ry), T, k);
      if (leftTurn) this.#turn(node, eL, eLx, eLy, g + norm(eLx - rx, eLy - ry), T, k);
      return;
    }
    // Where the rays root→right end and root→left end leave the triangle, as a parameter along
    // its far boundary eR (0) → O (1) → eL (2).
    const sR = this.#farParameter(rx, ry, irx, iry, eRx, eRy, ox, oy, eLx, eLy);
    const sL = this.#farParameter(rx, ry, ilx, ily, eRx, eRy, ox, oy, eLx, eLy);
    if (T === this.#goalTri) {
      const gx = this.#gx, gy = this.#gy;
      if (cross(rx, ry, irx, iry, gx, gy) >= -EPS && cross(rx, ry, ilx, ily, gx, gy) <= EPS) {
        this.#pushFinal(node, root, rx, ry, g + norm(gx - rx, gy - ry));
      } else if (cross(rx, ry, irx, iry, gx, gy) < 0) {
        if (rightTurn) {
          const g2 = g + norm(eRx - rx, eRy - ry);
          this.#pushFinal(node, eR, eRx, eRy, g2 + norm(gx - eRx, gy - eRy));
        }
      } else if (leftTurn) {
        const g2 = g + norm(eLx - rx, eLy - ry);
        this.#pushFinal(node, eL, eLx, eLy, g2 + norm(gx - eLx, gy - eLy));
      }
      return;
    }
    const j1 = (k + 1) % 3, j2 = (k + 2) % 3; // far edges eR→O and O→eL
    // Observable successors keep the root.
    if (sR < 1) {
      const hi = sL < 1 ? sL : 1;
      this.#successor(node, root, rx, ry, g, T, k, j1, sR, hi, eRx, eRy, ox, oy, 0);
    }
    if (sL > 1) {
      const lo = sR > 1 ? sR : 1;
      this.#successor(node, root, rx, ry, g, T, k, j2, lo - 1, sL - 1, ox, oy, eLx, eLy, 0);
    }
    // Turning at the interval's ends, into what the root cannot see.
    if (rightTurn && sR > 0) {
      const g2 = g + norm(eRx - rx, eRy - ry);
      if (this.#claimRoot(eR, g2)) {
        this.#successor(
          node,
          eR,
          eRx,
          eRy,
          g2,
          T,
          k,
          j1,
          0,
          sR < 1 ? sR : 1,
          eRx,
          eRy,
          ox,
          oy,
          FAN,
        );
        if (sR > 1) {
          this.#successor(node, eR, eRx, eRy, g2, T, k, j2, 0, sR - 1, ox, oy, eLx, eLy, 0);
        }
      }
    }
    if (leftTurn && sL < 2) {
      const g2 = g + norm(eLx - rx, eLy - ry);
      if (this.#claimRoot(eL, g2)) {
        this.#successor(
          node,
          eL,
          eLx,
          eLy,
          g2,
          T,
          k,
          j2,
          sL > 1 ? sL - 1 : 0,
          1,
          ox,
          oy,
          eLx,
          eLy,
          FAN,
        );
        if (sL < 1) this.#successor(node, eL, eLx, eLy, g2, T, k, j1, sL, 1, eRx, eRy, ox, oy, 0);
      }
    }
  }

  /** Turning at vertex `vtx` of triangle T, entered through edge `k`: all of T is seen from it. */
  #turn(node: number, vtx: number, vx: number, vy: number, g2: number, T: number, k: number): void {
    if (!this.#claimRoot(vtx, g2)) return;
    const mesh = this.mesh,
      v = mesh.triangles,
      c = mesh.coords,
      pn = mesh.planNeighbors,
      tw = mesh.twins;
    if (T === this.#goalTri) {
      this.#pushFinal(node, vtx, vx, vy, g2 + norm(this.#gx - vx, this.#gy - vy));
      return;
    }
    for (let s = 1; s <= 2; s++) {
      const j = (k + s) % 3;
      const n = pn[3 * T + j];
      if (n < 0 || !this.#wide(T, k, j)) continue;
      const r = v[3 * T + j], l = v[3 * T + (j + 1) % 3];
      const fan = r === vtx || l === vtx ? FAN : 0;
      this.#push(
        vtx,
        vx,
        vy,
        c[2 * r],
        c[2 * r + 1],
        c[2 * l],
        c[2 * l + 1],
        RIGHT_VERTEX | LEFT_VERTEX | fan,
        n,
        tw[3 * T + j],
        g2,
        node,
      );
    }
  }

  /**
   * Pushes the successor on far edge `j` of T covering parameters [`lo`, `hi`] along the edge
   * from (`ux`, `uy`) to (`wx`, `wy`) (its right and left vertices), seen from the given root.
   */
  #successor(
    node: number,
    root: number,
    rx: number,
    ry: number,
    g: number,
    T: number,
    entry: number,
    j: number,
    lo: number,
    hi: number,
    ux: number,
    uy: number,
    wx: number,
    wy: number,
    fan: number,
  ): void {
    const mesh = this.mesh, n = mesh.planNeighbors[3 * T + j];
    if (n < 0 || hi < lo || !this.#wide(T, entry, j)) return;
    const flags = (lo <= EPS ? RIGHT_VERTEX : 0) | (hi >= 1 - EPS ? LEFT_VERTEX : 0) | fan;
    const ex = wx - ux, ey = wy - uy;
    const ax = lo <= EPS ? ux : ux + lo * ex, ay = lo <= EPS ? uy : uy + lo * ey;
    const bx = hi >= 1 - EPS ? wx : ux + hi * ex, by = hi >= 1 - EPS ? wy : uy + hi * ey;
    this.#push(root, rx, ry, ax, ay, bx, by, flags, n, mesh.twins[3 * T + j], g, node);
  }

  /** True when passing through T from edge `a` to edge `b` is wide enough. */
  #wide(T: number, a: number, b: number): boolean {
    if (this.#required <= 0 || a === b) return true;
    // Edges a and b share the vertex that is neither a's start... : the vertex common to both.
    const shared = (a + 1) % 3 === b ? b : a; // edge a = (a, a+1), edge b = (b, b+1)
    return this.mesh.widths[3 * T + shared] >= this.#required;
  }

  /** Records `g` as the best distance to corner `vtx`; false when a shorter one is known. */
  #claimRoot(vtx: number, g: number): boolean {
    if (this.#rootStamp[vtx] === this.#stamp) {
      if (g > this.#rootG[vtx] + EPS) return false;
      if (g < this.#rootG[vtx]) this.#rootG[vtx] = g;
      return true;
    }
    this.#rootStamp[vtx] = this.#stamp;
    this.#rootG[vtx] = g;
    return true;
  }

  /** Far-boundary parameter (0 at eR, 1 at O, 2 at eL) where ray root→p leaves the triangle. */
  #farParameter(
    rx: number,
    ry: number,
    px: number,
    py: number,
    eRx: number,
    eRy: number,
    ox: number,
    oy: number,
    eLx: number,
    eLy: number,
  ): number {
    const dx = px - rx, dy = py - ry;
    const side = dx * (oy - ry) - dy * (ox - rx);
    if (side > 0) return clamp01(rayParameter(rx, ry, dx, dy, eRx, eRy, ox, oy));
    if (side < 0) return 1 + clamp01(rayParameter(rx, ry, dx, dy, ox, oy, eLx, eLy));
    return 1;
  }

  #push(
    root: number,
    rx: number,
    ry: number,
    irx: number,
    iry: number,
    ilx: number,
    ily: number,
    flags: number,
    tri: number,
    edge: number,
    g: number,
    parent: number,
  ): void {
    if (this.#field) this.#recordField(root, rx, ry, irx, iry, ilx, ily, flags, tri, edge, g);
    if (tri !== this.#goalTri) {
      // A triangle whose other two edges are closed leads nowhere.
      const pn = this.mesh.planNeighbors;
      if (pn[3 * tri + (edge + 1) % 3] < 0 && pn[3 * tri + (edge + 2) % 3] < 0) return;
    }
    const slot = this.#findSeen(root, irx, iry, ilx, ily, flags, tri, edge, g);
    if (slot < 0) return;
    if (this.#n === this.#cap) this.#grow(this.#cap * 2);
    const i = this.#n++;
    this.#seen[slot] = i;
    this.#seenStamp[slot] = this.#stamp;
    this.#rootV[i] = root;
    this.#rx[i] = rx;
    this.#ry[i] = ry;
    this.#irx[i] = irx;
    this.#iry[i] = iry;
    this.#ilx[i] = ilx;
    this.#ily[i] = ily;
    this.#flags[i] = flags;
    this.#tri[i] = tri;
    this.#edge[i] = edge;
    this.#g[i] = g;
    this.#parent[i] = parent;
    const h = flags & FAN ? norm(this.#gx - rx, this.#gy - ry) : this.#heuristic(i);
    if (h < this.#bestH) {
      this.#bestH = h;
      this.#best = i;
    }
    // The weight inflates the straight-line bound only: inflating the landmark bound too makes
    // corners be reached first by longer routes and searched again (f ≤ weight × the shortest
    // either way).
    let f = g + this.#weight * h;
    if (this.#landmarks) {
      const alt = g + this.#landmarkBound(i);
      if (alt > f) f = alt;
    }
    this.#f[i] = f;
    this.#pending[this.#pendingCount++] = i;
  }

  /** Distance-field mode: the interval's end vertices are reached at g + their distance to the root. */
  #recordField(
    root: number,
    rx: number,
    ry: number,
    irx: number,
    iry: number,
    ilx: number,
    ily: number,
    flags: number,
    tri: number,
    edge: number,
    g: number,
  ): void {
    const field = this.#field!, v = this.mesh.triangles;
    if (root >= 0 && g < field[root]) field[root] = g;
    if (flags & RIGHT_VERTEX) {
      const u = v[3 * tri + (edge + 1) % 3], d = g + norm(irx - rx, iry - ry);
      if (d < field[u]) field[u] = d;
    }
    if (flags & LEFT_VERTEX) {
      const u = v[3 * tri + edge], d = g + norm(ilx - rx, ily - ry);
      if (d < field[u]) field[u] = d;
    }
  }

  /**
   * The free slot of the seen-table for a new node, or -1 when a node with the same root,
   * triangle, entry edge, flags and interval (within 1e-7 m) and no larger cost exists.
   */
  #findSeen(
    root: number,
    irx: number,
    iry: number,
    ilx: number,
    ily: number,
    flags: number,
    tri: number,
    edge: number,
    g: number,
  ): number {
    const seen = this.#seen, stamp = this.#seenStamp, mask = seen.length - 1;
    let h = Math.imul(tri * 4 + edge, 0x9e3779b1) ^ Math.imul(root + 1, 0x85ebca6b);
    h ^= Math.imul(Math.round(irx * 1e4) ^ Math.round(ily * 1e4), 0xc2b2ae35);
    h ^= Math.imul(Math.round(iry * 1e4) ^ Math.round(ilx * 1e4), 0x27d4eb2f);
    h ^= h >>> 15;
    for (let slot = h & mask;; slot = (slot + 1) & mask) {
      if (stamp[slot] !== this.#stamp) return slot;
      const j = seen[slot];
      if (
        this.#tri[j] === tri && this.#edge[j] === edge && this.#rootV[j] === root &&
        this.#flags[j] === flags && Math.abs(this.#irx[j] - irx) <= 1e-7 &&
        Math.abs(this.#iry[j] - iry) <= 1e-7 && Math.abs(this.#ilx[j] - ilx) <= 1e-7 &&
        Math.abs(this.#ily[j] - ily) <= 1e-7 && this.#g[j] <= g + EPS
      ) return -1;
    }
  }

  #pushFinal(parent: number, root: number, rx: number, ry: number, f: number): void {
    if (this.#n === this.#cap) this.#grow(this.#cap * 2);
    const i = this.#n++;
    this.#rootV[i] = root;
    this.#rx[i] = rx;
    this.#ry[i] = ry;
    this.#flags[i] = FINAL;
    this.#tri[i] = this.#tri[parent];
    this.#g[i] = f;
    this.#f[i] = f;
    this.#parent[i] = parent;
    this.#pending[this.#pendingCount++] = i;
  }

  /** Lower bound of the remaining distance from node i's root through its interval to the goal. */
  #heuristic(i: number): number {
    const rx = this.#rx[i], ry = this.#ry[i];
    const ax = this.#irx[i], ay = this.#iry[i], bx = this.#ilx[i], by = this.#ily[i];
    let gx = this.#gx, gy = this.#gy;
    // Mirror the goal into the far side of the interval's line when it lies on the root's side.
    const ex = bx - ax, ey = by - ay, len2 = ex * ex + ey * ey;
    if (len2 > 0) {
      const sideRoot = ex * (ry - ay) - ey * (rx - ax), sideGoal = ex * (gy - ay) - ey * (gx - ax);
      if (sideRoot * sideGoal > 0) {
        const t = ((gx - ax) * ex + (gy - ay) * ey) / len2;
        const fx = ax + t * ex, fy = ay + t * ey;
        gx = 2 * fx - gx;
        gy = 2 * fy - gy;
      }
    }
    const cr = cross(rx, ry, ax, ay, gx, gy), cl = cross(rx, ry, bx, by, gx, gy);
    if (cr >= 0 && cl <= 0) return norm(gx - rx, gy - ry);
    if (cr < 0) return norm(ax - rx, ay - ry) + norm(gx - ax, gy - ay);
    return norm(bx - rx, by - ry) + norm(gx - bx, gy - by);
  }

  #grow(cap: number): void {
    const grow = <A extends Float64Array | Int32Array | Int8Array | Uint8Array>(a: A): A => {
      const b = new (a.constructor as new (n: number) => A)(cap);
      b.set(a);
      return b;
    };
    this.#rootV = grow(this.#rootV);
    this.#rx = grow(this.#rx);
    this.#ry = grow(this.#ry);
    this.#irx = grow(this.#irx);
    this.#iry = grow(this.#iry);
    this.#ilx = grow(this.#ilx);
    this.#ily = grow(this.#ily);
    this.#g = grow(this.#g);
    this.#f = grow(this.#f);
    this.#tri = grow(this.#tri);
    this.#edge = grow(this.#edge);
    this.#flags = grow(this.#flags);
    this.#parent = grow(this.#parent);
    this.#cap = cap;
    // The seen-table stays at most half full (final nodes are not entered).
    const size = 1 << Math.ceil(Math.log2(2 * cap));
    if (size > this.#seen.length) {
      const seen = new Int32Array(size), stamp = new Int32Array(size);
      // Re-enter the running query's nodes.
      const old = this.#seen, oldStamp = this.#seenStamp;
      this.#seen = seen;
      this.#seenStamp = stamp;
      for (let s = 0; s < old.length; s++) {
        if (oldStamp[s] !== this.#stamp) continue;
        const j = old[s];
        const slot = this.#findSeen(
          this.#rootV[j],
          this.#irx[j],
          this.#iry[j],
          this.#ilx[j],
          this.#ily[j],
          this.#flags[j],
          this.#tri[j],
          this.#edge[j],
          Infinity,
        );
        seen[slot] = j;
        stamp[slot] = this.#stamp;
      }
    }
  }

  #writeDirect(out: NavPath, tri: number, sx: number, sy: number, gx: number, gy: number): void {
    ensure(out, 2, 1);
    out.points[0] = sx;
    out.points[1] = sy;
    out.points[2] = gx;
    out.points[3] = gy;
    out.pointCount = 2;
    out.corridor[0] = tri;
    out.corridorLength = 1;
    out.length = norm(gx - sx, gy - sy);
  }

  /** Writes the path ending at final node `final`: roots back to the start, then reversed. */
  #writePath(
    out: NavPath,
    final: number,
    startTri: number,
    sx: number,
    sy: number,
    gx: number,
    gy: number,
  ): void {
    let points = 1, tris = 1;
    for (let i = final; i >= 0; i = this.#parent[i]) {
      const p = this.#parent[i];
      if (
        p < 0 || this.#rootV[p] !== this.#rootV[i] || this.#rx[p] !== this.#rx[i] ||
        this.#ry[p] !== this.#ry[i]
      ) points++;
      if (i !== final) tris++;
    }
    ensure(out, points + 1, tris);
    // Corridor: start triangle, then each node's triangle (the final node adds none).
    let t = tris - 1;
    for (let i = this.#parent[final]; i >= 0; i = this.#parent[i]) out.corridor[t--] = this.#tri[i];
    out.corridor[0] = startTri;
    out.corridorLength = tris;
    // Points: goal, then each distinct root.
    let k = 0;
    const pts = out.points;
    pts[2 * k] = gx;
    pts[2 * k + 1] = gy;
    k++;
    for (let i = final; i >= 0; i = this.#parent[i]) {
      const p = this.#parent[i];
      if (
        p >= 0 && this.#rootV[p] === this.#rootV[i] && this.#rx[p] === this.#rx[i] &&
        this.#ry[p] === this.#ry[i]
      ) continue;
      if (this.#rootV[i] < 0) continue; // the start, written last
      pts[2 * k] = this.#rx[i];
      pts[2 * k + 1] = this.#ry[i];
      k++;
    }
    pts[2 * k] = sx;
    pts[2 * k + 1] = sy;
    k++;
    reversePoints(pts, k);
    out.pointCount = k;
    out.length = this.#g[final];
  }

  /** Writes a partial path to the point of node `best`'s interval nearest the goal. */
  #writeBest(out: NavPath, best: number, startTri: number, sx: number, sy: number): void {
    let ex = this.#rx[best], ey = this.#ry[best];
    if (!(this.#flags[best] & FAN)) {
      const ax = this.#irx[best], ay = this.#iry[best], bx = this.#ilx[best], by = this.#ily[best];
      const dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
      let t = len2 > 0 ? ((this.#gx - ax) * dx + (this.#gy - ay) * dy) / len2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      ex = ax + t * dx;
      ey = ay + t * dy;
    }
    this.#pushFinal(best, this.#rootV[best], this.#rx[best], this.#ry[best], 0);
    const final = this.#n - 1;
    this.#tri[final] = this.#tri[best];
    this.#writePath(out, final, startTri, sx, sy, ex, ey);
    let length = 0;
    for (let i = 1; i < out.pointCount; i++) {
      length += norm(
        out.points[2 * i] - out.points[2 * i - 2],
        out.points[2 * i + 1] - out.points[2 * i - 1],
      );
    }
    out.length = length;
  }
}

const turnCache = new WeakMap<NavMesh, Uint8Array>();

function turningVerticesOf(mesh: NavMesh): Uint8Array {
  let turns = turnCache.get(mesh);
  if (!turns) turnCache.set(mesh, turns = turningVertices(mesh));
  return turns;
}

/**
 * The vertices a shortest path can bend round: on the clear area's border, with more than 180°
 * of clear area around them (a taut path never bends at a corner that points away from it, nor
 * on a straight stretch of wall). 1 for such a vertex, else 0.
 */
export function turningVertices(mesh: NavMesh): Uint8Array {
  const v = mesh.triangles, c = mesh.coords, angle = new Float64Array(mesh.vertexCount);
  for (let t = 0; t < mesh.triangleCount; t++) {
    if (!mesh.clear[t]) continue;
    for (let k = 0; k < 3; k++) {
      const a = v[3 * t + k], b = v[3 * t + (k + 1) % 3], d = v[3 * t + (k + 2) % 3];
      const ux = c[2 * b] - c[2 * a], uy = c[2 * b + 1] - c[2 * a + 1];
      const wx = c[2 * d] - c[2 * a], wy = c[2 * d + 1] - c[2 * a + 1];
      angle[a] += Math.abs(Math.atan2(ux * wy - uy * wx, ux * wx + uy * wy));
    }
  }
  const turns = new Uint8Array(mesh.vertexCount);
  for (let u = 0; u < mesh.vertexCount; u++) {
    turns[u] = mesh.corner[u] === 1 && angle[u] > Math.PI + 1e-9 ? 1 : 0;
  }
  return turns;
}

/** Landmark tables per mesh and count, shared by every query on the mesh. */
const landmarkCache = new WeakMap<NavMesh, Map<number, PathLandmarks>>();

function landmarksOf(mesh: NavMesh, count: number): PathLandmarks {
  let byCount = landmarkCache.get(mesh);
  if (!byCount) landmarkCache.set(mesh, byCount = new Map());
  let lm = byCount.get(count);
  if (!lm) {
    // Distances through passages of any width bound every query's, whatever its minWidth.
    const field = new NavMeshQuery(mesh, { minWidth: 0, landmarks: 0 });
    const budget = LANDMARK_FIELD_NODES_PER_TRIANGLE * mesh.triangleCount;
    lm = selectLandmarks(mesh, count, (x, y, out) => field.distanceField(x, y, out, budget));
    byCount.set(count, lm);
  }
  return lm;
}

function ensure(out: NavPath, points: number, tris: number): void {
  if (out.points.length < 2 * points) {
    out.points = new Float64Array(2 * Math.max(points, out.points.length));
  }
  if (out.corridor.length < tris + 1) {
    out.corridor = new Int32Array(Math.max(tris + 1, 2 * out.corridor.length));
  }
}

function reversePoints(pts: Float64Array, count: number): void {
  for (let i = 0, j = count - 1; i < j; i++, j--) {
    const x = pts[2 * i], y = pts[2 * i + 1];
    pts[2 * i] = pts[2 * j];
    pts[2 * i + 1] = pts[2 * j + 1];
    pts[2 * j] = x;
    pts[2 * j + 1] = y;
  }
}

/** Length of vector (x, y); faster than Math.hypot. */
function norm(x: number, y: number): number {
  return Math.sqrt(x * x + y * y);
}

function clamp01(t: number): number {
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

/** Parameter along u→w where the line through r with direction d meets it. */
function rayParameter(
  rx: number,
  ry: number,
  dx: number,
  dy: number,
  ux: number,
  uy: number,
  wx: number,
  wy: number,
): number {
  const ex = wx - ux, ey = wy - uy;
  const den = ex * dy - ey * dx;
  if (den === 0) return 0;
  return ((rx - ux) * dy - (ry - uy) * dx) / den;
}

/** z of (b − a) × (p − a). */
function cross(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

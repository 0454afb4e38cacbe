/**
 * Exact shortest paths in a polygonal free space by its visibility graph.
 *
 * The free space is a set of polygons with holes — in a city block, the block up to the kerb
 * minus the buildings and furniture, shrunk by the agent's radius so that the agent is a point
 * (F. Gennari, Procedural City: Pedestrian Updates + Navigation, 3DWorld blog, 2019, expands the
 * obstacles' rectangles by the pedestrian's radius the same way). A shortest path between two
 * points of a polygonal domain bends only at reflex corners of its boundary (the obstacles'
 * convex corners) and each of its segments is tangent to the boundary at the corners it joins,
 * so the graph of those corners joined by every tangent, unobstructed segment (the reduced
 * visibility graph; T. Lozano-Pérez and M. A. Wesley, An algorithm for planning collision-free
 * paths among polyhedral obstacles, Communications of the ACM 22(10), 1979) holds it. Queries join the start and the goal to the corners they see and
 * run A* (straight-line heuristic, `flatqueue`), then smooth the result by dropping corners the
 * path does not need (the blog's final pass; on an exact path it only drops collinear points).
 *
 * Building the graph costs O(n²·e) for n corners and e boundary edges, once; a query costs
 * O(n·e) to connect its two points plus the search. Results carry a status, never an exception.
 *
 * @module
 */
import FlatQueue from "npm:flatqueue@3.1.0";
import { hypot2, type Point, pointSegmentDistanceSq } from "../core/geometry.ts";
import type { PolygonWithHoles } from "./walkable_area.ts";

/** Outcome of a visibility-graph query. */
export type VisibilityStatus = "found" | "unreachable" | "start-outside" | "goal-outside";

/** Distances below this (m) count as zero in geometric tests. */
const EPS = 1e-7;
/** Height (m) of the horizontal bands that index the boundary edges. */
const BAND = 2;

/**
 * A shortest path, reused across queries: points from start to goal, its length and status.
 *
 * @example A fresh path
 * ```ts
 * import { VisibilityPath } from "./visibility_graph.ts";
 * import assert from "node:assert/strict";
 * const path = new VisibilityPath();
 * assert.equal(path.status, "unreachable");
 * ```
 */
export class VisibilityPath {
  /** Outcome of the last query. */
  status: VisibilityStatus = "unreachable";
  /** `[x0, y0, x1, y1, …]` (m) from start to goal. */
  points: Float64Array = new Float64Array(32);
  /** Number of points. */
  pointCount = 0;
  /** Length (m); Infinity when no path was found. */
  length = Infinity;

  /** Appends a point, growing the buffer when needed. */
  push(x: number, y: number): void {
    if (2 * this.pointCount + 2 > this.points.length) {
      const grown = new Float64Array(2 * this.points.length);
      grown.set(this.points);
      this.points = grown;
    }
    this.points[2 * this.pointCount] = x;
    this.points[2 * this.pointCount + 1] = y;
    this.pointCount++;
  }
}

/**
 * The visibility graph of a free space (see the module doc). Extra points (kerb ends of
 * crosswalks, doors) may be added as permanent nodes so that distances between them are
 * searched once.
 *
 * @example Around a square pillar
 * ```ts
 * import { VisibilityGraph, VisibilityPath } from "./visibility_graph.ts";
 * import assert from "node:assert/strict";
 * const room = [[0, 0], [10, 0], [10, 10], [0, 10]] as const;
 * const pillar = [[4, 4], [4, 6], [6, 6], [6, 4]] as const; // clockwise: a hole
 * const graph = new VisibilityGraph([[room, pillar]]);
 * const path = graph.shortestPath([2, 5], [8, 5], new VisibilityPath());
 * assert.equal(path.status, "found");
 * assert.equal(path.pointCount, 4); // start, two corners of the pillar, goal
 * assert(Math.abs(path.length - (2 * Math.hypot(2, 1) + 2)) < 1e-9);
 * ```
 */
export class VisibilityGraph {
  /** Graph nodes: reflex corners of the free space, then the extra points. */
  readonly nodeCount: number;
  /** Node x (m). */
  readonly nodeX: Float64Array;
  /** Node y (m). */
  readonly nodeY: Float64Array;
  /** Number of extra points (the last nodes). */
  readonly extraCount: number;
  /** Neighbours of node `u`: `adjacency[adjacencyStart[u] … adjacencyStart[u+1]-1]`. */
  readonly adjacencyStart: Int32Array;
  /** See `adjacencyStart`. */
  readonly adjacency: Int32Array;
  /** Length (m) of each adjacency entry. */
  readonly adjacencyLength: Float64Array;

  // Boundary edges (free space on their left): a→b, with the ring's neighbours for tangency.
  readonly #ax: Float64Array;
  readonly #ay: Float64Array;
  readonly #bx: Float64Array;
  readonly #by: Float64Array;
  /** Per edge: bounding box (m) and length (m), for quick rejection. */
  readonly #minX: Float64Array;
  readonly #minY: Float64Array;
  readonly #maxX: Float64Array;
  readonly #maxY: Float64Array;
  readonly #len: Float64Array;
  /**
   * Edges by horizontal band of height `BAND` from `#bandY0`: band b lists the edges whose
   * y-range grown by 2 EPS meets it, in `#bandItems[#bandStart[b] … #bandStart[b+1]-1]`.
   */
  readonly #bandY0: number;
  readonly #bandCount: number;
  readonly #bandStart: Int32Array;
  readonly #bandItems: Int32Array;
  /** Stamp per edge visited by the current `visible` (edges span several bands). */
  readonly #edgeSeen: Uint32Array;
  #edgeStamp = 0;
  /** Per corner node: the previous and next boundary vertex (for the tangency test). */
  readonly #prevX: Float64Array;
  readonly #prevY: Float64Array;
  readonly #nextX: Float64Array;
  readonly #nextY: Float64Array;
  readonly #cornerCount: number;
  readonly #queue = new FlatQueue<number>();
  #g: Float64Array;
  #from: Int32Array;
  #goalCost: Float64Array;
  #seen: Uint32Array;
  /** Stamp per node whose `#goalCost` is known in the current query. */
  #goalKnown: Uint32Array;
  #stamp = 0;

  /**
   * @param free polygons with holes (m); rings in any orientation
   * @param extra points added as permanent nodes (m); each must lie in the free space
   */
  constructor(free: readonly PolygonWithHoles[], extra: readonly Point[] = []) {
    const edges: number[] = [];
    const corners: number[] = []; // x, y, prevX, prevY, nextX, nextY
    for (const polygon of free) {
      polygon.forEach((ring, k) => {
        const n = ring.length;
        if (n < 3) return;
        // Free space on the left: outer rings counter-clockwise, holes clockwise.
        const ccw = _signedArea(ring) > 0;
        const forward = (k === 0) === ccw;
        const at = (i: number) => ring[forward ? i : n - 1 - i];
        for (let i = 0; i < n; i++) {
          const p = at((i + n - 1) % n), v = at(i), q = at((i + 1) % n);
          edges.push(v[0], v[1], q[0], q[1]);
          const turn = (v[0] - p[0]) * (q[1] - v[1]) - (v[1] - p[1]) * (q[0] - v[0]);
          if (turn < 0) corners.push(v[0], v[1], p[0], p[1], q[0], q[1]); // a right turn: reflex
        }
      });
    }
    const e = edges.length / 4;
    this.#ax = new Float64Array(e);
    this.#ay = new Float64Array(e);
    this.#bx = new Float64Array(e);
    this.#by = new Float64Array(e);
    this.#minX = new Float64Array(e);
    this.#minY = new Float64Array(e);
    this.#maxX = new Float64Array(e);
    this.#maxY = new Float64Array(e);
    this.#len = new Float64Array(e);
    for (let k = 0; k < e; k++) {
      const x0 = this.#ax[k] = edges[4 * k], y0 = this.#ay[k] = edges[4 * k + 1];
      const x1 = this.#bx[k] = edges[4 * k + 2], y1 = this.#by[k] = edges[4 * k + 3];
      this.#minX[k] = Math.min(x0, x1);
      this.#minY[k] = Math.min(y0, y1);
      this.#maxX[k] = Math.max(x0, x1);
      this.#maxY[k] = Math.max(y0, y1);
      this.#len[k] = hypot2(x1 - x0, y1 - y0);
    }
    let lowY = Infinity, highY = -Infinity;
    for (let k = 0; k < e; k++) {
      lowY = Math.min(lowY, this.#minY[k]);
      highY = Math.max(highY, this.#maxY[k]);
    }
    if (e === 0) lowY = highY = 0;
    this.#bandY0 = lowY - 4 * EPS;
    this.#bandCount = Math.floor((highY + 4 * EPS - this.#bandY0) / BAND) + 1;
    const bandOf = (y: number) => Math.floor((y - this.#bandY0) / BAND);
    this.#bandStart = new Int32Array(this.#bandCount + 1);
    for (let k = 0; k < e; k++) {
      const b1 = bandOf(this.#maxY[k] + 2 * EPS);
      for (let b = bandOf(this.#minY[k] - 2 * EPS); b <= b1; b++) this.#bandStart[b + 1]++;
    }
    for (let b = 0; b < this.#bandCount; b++) this.#bandStart[b + 1] += this.#bandStart[b];
    this.#bandItems = new Int32Array(this.#bandStart[this.#bandCount]);
    const fill = this.#bandStart.slice(0, this.#bandCount);
    for (let k = 0; k < e; k++) {
      const b1 = bandOf(this.#maxY[k] + 2 * EPS);
      for (let b = bandOf(this.#minY[k] - 2 * EPS); b <= b1; b++) this.#bandItems[fill[b]++] = k;
    }
    this.#edgeSeen = new Uint32Array(e);
    const c = corners.length / 6, n = c + extra.length;
    this.#cornerCount = c;
    this.nodeCount = n;
    this.extraCount = extra.length;
    this.nodeX = new Float64Array(n);
    this.nodeY = new Float64Array(n);
    this.#prevX = new Float64Array(c);
    this.#prevY = new Float64Array(c);
    this.#nextX = new Float64Array(c);
    this.#nextY = new Float64Array(c);
    for (let k = 0; k < c; k++) {
      this.nodeX[k] = corners[6 * k];
      this.nodeY[k] = corners[6 * k + 1];
      this.#prevX[k] = corners[6 * k + 2];
      this.#prevY[k] = corners[6 * k + 3];
      this.#nextX[k] = corners[6 * k + 4];
      this.#nextY[k] = corners[6 * k + 5];
    }
    extra.forEach(([x, y], k) => {
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        throw new RangeError(
          `Cannot create VisibilityGraph as 'extra[${k}]' must be two finite numbers: current value is ${x}, ${y}`,
        );
      }
      this.nodeX[c + k] = x;
      this.nodeY[c + k] = y;
    });
    const pairs: number[] = [];
    for (let u = 0; u < n; u++) {
      for (let v = u + 1; v < n; v++) {
        const ux = this.nodeX[u], uy = this.nodeY[u], vx = this.nodeX[v], vy = this.nodeY[v];
        if (!this.#tangent(u, vx, vy) || !this.#tangent(v, ux, uy)) continue;
        if (this.visible(ux, uy, vx, vy)) pairs.push(u, v);
      }
    }
    const degree = new Int32Array(n + 1);
    for (let k = 0; k < pairs.length; k++) degree[pairs[k] + 1]++;
    for (let u = 0; u < n; u++) degree[u + 1] += degree[u];
    this.adjacencyStart = degree;
    this.adjacency = new Int32Array(pairs.length);
    this.adjacencyLength = new Float64Array(pairs.length);
    const cursor = degree.slice(0, n);
    for (let k = 0; k < pairs.length; k += 2) {
      const u = pairs[k], v = pairs[k + 1];
      const len = hypot2(this.nodeX[v] - this.nodeX[u], this.nodeY[v] - this.nodeY[u]);
      this.adjacency[cursor[u]] = v;
      this.adjacencyLength[cursor[u]++] = len;
      this.adjacency[cursor[v]] = u;
      this.adjacencyLength[cursor[v]++] = len;
    }
    this.#g = new Float64Array(n);
    this.#from = new Int32Array(n);
    this.#goalCost = new Float64Array(n);
    this.#seen = new Uint32Array(n);
    this.#goalKnown = new Uint32Array(n);
  }

  /** True when (`x`, `y`) lies in the free space or on its boundary. */
  contains(x: number, y: number): boolean {
    const ax = this.#ax, ay = this.#ay, bx = this.#bx, by = this.#by;
    const minX = this.#minX, minY = this.#minY, maxX = this.#maxX, maxY = this.#maxY;
    // Only the edges of the point's band can span its y or lie within EPS of it.
    const band = Math.floor((y - this.#bandY0) / BAND);
    if (!(band >= 0 && band < this.#bandCount)) return false;
    const items = this.#bandItems, end = this.#bandStart[band + 1];
    let inside = false;
    for (let m = this.#bandStart[band]; m < end; m++) {
      const k = items[m];
      const x0 = ax[k], y0 = ay[k], x1 = bx[k], y1 = by[k];
      // Within EPS of the edge only inside its box grown by EPS (2 EPS: rounding to spare).
      if (
        x >= minX[k] - 2 * EPS && x <= maxX[k] + 2 * EPS && y >= minY[k] - 2 * EPS &&
        y <= maxY[k] + 2 * EPS &&
        pointSegmentDistanceSq(x, y, x0, y0, x1, y1) <= EPS * EPS
      ) return true;
      if ((y0 > y) !== (y1 > y) && x < ((x1 - x0) * (y - y0)) / (y1 - y0) + x0) inside = !inside;
    }
    return inside;
  }

  /**
   * True when the segment from (`ax`, `ay`) to (`bx`, `by`) stays in the free space (touching the
   * boundary is allowed). Both ends must be in the free space.
   */
  visible(ax: number, ay: number, bx: number, by: number): boolean {
    const ex = bx - ax, ey = by - ay, len = hypot2(ex, ey);
    if (len <= EPS) return true;
    const minX = Math.min(ax, bx) - EPS, maxX = Math.max(ax, bx) + EPS;
    const minY = Math.min(ay, by) - EPS, maxY = Math.max(ay, by) + EPS;
    const eax = this.#ax, eay = this.#ay, ebx = this.#bx, eby = this.#by;
    const eMinX = this.#minX, eMinY = this.#minY, eMaxX = this.#maxX, eMaxY = this.#maxY;
    const elen = this.#len;
    const tol = EPS * len;
    // Parameters along the segment of boundary vertices lying on it: there the segment may
    // leave the free space without crossing an edge properly, so the pieces between them are
    // checked at their midpoints.
    let touches = 0, t0 = 1, t1 = 0;
    // The edges of the bands the segment's box meets, each once (the answer does not depend on
    // the order edges are looked at).
    const b0 = Math.max(0, Math.floor((minY - this.#bandY0) / BAND));
    const b1 = Math.min(this.#bandCount - 1, Math.floor((maxY - this.#bandY0) / BAND));
    const items = this.#bandItems, seen = this.#edgeSeen;
    if (++this.#edgeStamp === 0xffff_ffff) {
      seen.fill(0);
      this.#edgeStamp = 1;
    }
    const stamp = this.#edgeStamp;
    for (
      let m = b0 <= b1 ? this.#bandStart[b0] : 0, end = b0 <= b1 ? this.#bandStart[b1 + 1] : 0;
      m < end;
      m++
    ) {
      const k = items[m];
      if (seen[k] === stamp) continue;
      seen[k] = stamp;
      if (eMaxX[k] < minX || eMinX[k] > maxX || eMaxY[k] < minY || eMinY[k] > maxY) continue;
      const x0 = eax[k], y0 = eay[k], x1 = ebx[k], y1 = eby[k];
      const o1 = ex * (y0 - ay) - ey * (x0 - ax), o2 = ex * (y1 - ay) - ey * (x1 - ax);
      const fx = x1 - x0, fy = y1 - y0, flen = elen[k];
      const o3 = fx * (ay - y0) - fy * (ax - x0), o4 = fx * (by - y0) - fy * (bx - x0);
      const ftol = EPS * flen;
      if (
        ((o1 > tol && o2 < -tol) || (o1 < -tol && o2 > tol)) &&
        ((o3 > ftol && o4 < -ftol) || (o3 < -ftol && o4 > ftol))
      ) return false;
      if (Math.abs(o1) <= tol) {
        const t = ((x0 - ax) * ex + (y0 - ay) * ey) / (len * len);
        if (t > EPS && t < 1 - EPS) {
          touches++;
          t0 = Math.min(t0, t);
          t1 = Math.max(t1, t);
        }
      }
    }
    if (touches === 0) return this.contains(ax + 0.5 * ex, ay + 0.5 * ey);
    // Rare (a segment grazing corners or running along an edge): check the pieces between the
    // touching vertices by sampling their midpoints through a sorted pass.
    return this.#piecesInside(ax, ay, ex, ey, t0, t1, len);
  }

  /**
   * Shortest path from `start` to `goal` (`[x, y]`, m), written into `out` (also returned). The
   * status is `start-outside` or `goal-outside` when a point is not in the free space, and
   * `unreachable` when they lie in unconnected parts of it.
   */
  shortestPath(
    start: ArrayLike<number>,
    goal: ArrayLike<number>,
    out: VisibilityPath,
  ): VisibilityPath {
    const ax = start[0], ay = start[1], bx = goal[0], by = goal[1];
    out.pointCount = 0;
    out.length = Infinity;
    if (!this.contains(ax, ay)) {
      out.status = "start-outside";
      return out;
    }
    if (!this.contains(bx, by)) {
      out.status = "goal-outside";
      return out;
    }
    if (this.visible(ax, ay, bx, by)) {
      out.push(ax, ay);
      out.push(bx, by);
      out.length = hypot2(bx - ax, by - ay);
      out.status = "found";
      return out;
    }
    const n = this.nodeCount, g = this.#g, from = this.#from, goalCost = this.#goalCost;
    const seen = this.#seenStamp(), stampNow = this.#stamp, queue = this.#queue;
    queue.clear();
    // The last leg from a node to the goal is looked at when the node is popped (most never are).
    const goalKnown = this.#goalKnown;
    for (let u = 0; u < n; u++) {
      const ux = this.nodeX[u], uy = this.nodeY[u];
      if (this.#tangent(u, ax, ay) && this.visible(ax, ay, ux, uy)) {
        g[u] = hypot2(ux - ax, uy - ay);
        from[u] = -1;
        seen[u] = stampNow;
        queue.push(u, g[u] + hypot2(bx - ux, by - uy));
      }
    }
    let best = Infinity, last = -1;
    while (queue.length > 0 && queue.peekValue()! < best) {
      const u = queue.pop()!;
      const gu = g[u];
      if (goalKnown[u] !== stampNow) {
        goalKnown[u] = stampNow;
        const ux = this.nodeX[u], uy = this.nodeY[u];
        goalCost[u] = this.#tangent(u, bx, by) && this.visible(ux, uy, bx, by)
          ? hypot2(bx - ux, by - uy)
          : Infinity;
      }
      if (gu + goalCost[u] < best) {
        best = gu + goalCost[u];
        last = u;
      }
      for (let k = this.adjacencyStart[u]; k < this.adjacencyStart[u + 1]; k++) {
        const v = this.adjacency[k], gv = gu + this.adjacencyLength[k];
        if (seen[v] === stampNow && g[v] <= gv) continue;
        seen[v] = stampNow;
        g[v] = gv;
        from[v] = u;
        queue.push(v, gv + hypot2(bx - this.nodeX[v], by - this.nodeY[v]));
      }
    }
    if (last < 0) {
      out.status = "unreachable";
      return out;
    }
    // Nodes from the goal back, then reversed in place.
    out.push(bx, by);
    for (let u = last; u >= 0; u = from[u]) out.push(this.nodeX[u], this.nodeY[u]);
    out.push(ax, ay);
    _reversePoints(out);
    this.#smooth(out);
    out.length = best;
    out.status = "found";
    return out;
  }

  /**
   * Writes into `out` (one entry per node) the distance (m) from `point` (`[x, y]`) to every
   * node, Infinity for nodes it cannot reach; returns false, writing nothing, when the point is
   * not in the free space. Distances to the extra nodes are exact shortest-path lengths; those to
   * corners are the lengths of the shortest paths that pass the corner on their way further (a
   * path that ends at a corner may be shorter).
   */
  distancesFrom(point: ArrayLike<number>, out: Float64Array): boolean {
    const x = point[0], y = point[1];
    if (!this.contains(x, y)) return false;
    const n = this.nodeCount, queue = this.#queue;
    out.fill(Infinity, 0, n);
    queue.clear();
    for (let u = 0; u < n; u++) {
      const ux = this.nodeX[u], uy = this.nodeY[u];
      if (this.#tangent(u, x, y) && this.visible(x, y, ux, uy)) {
        out[u] = hypot2(ux - x, uy - y);
        queue.push(u, out[u]);
      }
    }
    while (queue.length > 0) {
      const d = queue.peekValue()!, u = queue.pop()!;
      if (d > out[u]) continue;
      for (let k = this.adjacencyStart[u]; k < this.adjacencyStart[u + 1]; k++) {
        const v = this.adjacency[k], dv = d + this.adjacencyLength[k];
        if (dv < out[v]) {
          out[v] = dv;
          queue.push(v, dv);
        }
      }
    }
    return true;
  }

  /**
   * True when a shortest path may use the segment from corner node `u` towards (`x`, `y`): the
   * segment touches the boundary at `u` without entering it (both boundary neighbours of `u`
   * lie on one side of its line). Extra nodes bend anywhere.
   */
  #tangent(u: number, x: number, y: number): boolean {
    if (u >= this.#cornerCount) return true;
    const ux = this.nodeX[u], uy = this.nodeY[u], dx = x - ux, dy = y - uy;
    const s1 = dx * (this.#prevY[u] - uy) - dy * (this.#prevX[u] - ux);
    const s2 = dx * (this.#nextY[u] - uy) - dy * (this.#nextX[u] - ux);
    return s1 * s2 >= -EPS;
  }

  #piecesInside(
    ax: number,
    ay: number,
    ex: number,
    ey: number,
    t0: number,
    t1: number,
    len: number,
  ): boolean {
    // Gather every touching parameter again, sorted, and test each piece's midpoint.
    const ts: number[] = [0, t0, t1, 1];
    const eax = this.#ax, eay = this.#ay, tol = EPS * len;
    for (let k = 0; k < eax.length; k++) {
      const x0 = eax[k], y0 = eay[k];
      if (Math.abs(ex * (y0 - ay) - ey * (x0 - ax)) > tol) continue;
      const t = ((x0 - ax) * ex + (y0 - ay) * ey) / (len * len);
      if (t > EPS && t < 1 - EPS) ts.push(t);
    }
    ts.sort((p, q) => p - q);
    for (let k = 1; k < ts.length; k++) {
      if (ts[k] - ts[k - 1] <= EPS) continue;
      const t = 0.5 * (ts[k] + ts[k - 1]);
      if (!this.contains(ax + t * ex, ay + t * ey)) return false;
    }
    return true;
  }

  /** Drops every inner point whose neighbours see each other (collinear or redundant corners). */
  #smooth(path: VisibilityPath): void {
    const p = path.points;
    let kept = 1;
    for (let i = 1; i < path.pointCount - 1; i++) {
      const px = p[2 * kept - 2], py = p[2 * kept - 1];
      const nx = p[2 * i + 2], ny = p[2 * i + 3];
      const turn = (p[2 * i] - px) * (ny - p[2 * i + 1]) - (p[2 * i + 1] - py) * (nx - p[2 * i]);
      if (Math.abs(turn) <= EPS * hypot2(nx - px, ny - py) && this.visible(px, py, nx, ny)) {
        continue;
      }
      p[2 * kept] = p[2 * i];
      p[2 * kept + 1] = p[2 * i + 1];
      kept++;
    }
    p[2 * kept] = p[2 * path.pointCount - 2];
    p[2 * kept + 1] = p[2 * path.pointCount - 1];
    path.pointCount = kept + 1;
  }

  #seenStamp(): Uint32Array {
    if (++this.#stamp === 0xffff_ffff) {
      this.#seen.fill(0);
      this.#goalKnown.fill(0);
      this.#stamp = 1;
    }
    return this.#seen;
  }
}

function _signedArea(ring: readonly (readonly [number, number])[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  }
  return a / 2;
}

function _reversePoints(path: VisibilityPath): void {
  const p = path.points;
  for (let i = 0, j = path.pointCount - 1; i < j; i++, j--) {
    const x = p[2 * i], y = p[2 * i + 1];
    p[2 * i] = p[2 * j];
    p[2 * i + 1] = p[2 * j + 1];
    p[2 * j] = x;
    p[2 * j + 1] = y;
  }
}

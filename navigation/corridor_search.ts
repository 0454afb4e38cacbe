/**
 * Corridor search: A* over the triangles of a navigation mesh, then the funnel through the
 * triangles found. This is how Recast/Detour plans (Mononen 2009, "Recast Navigation"): the cost
 * of a step is the distance between points on successive portals (shared edges), so the search
 * sees each triangle once instead of the fans of intervals an exact any-angle search (Polyanya,
 * Cui, Harabor and Grastien 2017) opens round every corner it reaches. The path is the shortest
 * through the corridor found, not always the shortest on the mesh: where two ways round an
 * obstacle differ by less than the portal points' detour, it may take the longer.
 *
 * Each portal point is where the straight line from the previous point to the goal crosses the
 * portal, kept off its end vertices by a tenth of its length: on a straight street the chain of
 * points is nearly straight, which keeps the step costs close to the true distance and the
 * search narrow. The lower bound of the remaining distance is the straight line or the landmark
 * (ALT) bound of the portal's end vertices, whichever is larger.
 *
 * @module
 */
import FlatQueue from "npm:flatqueue@3.1.0";
import type { NavMesh } from "./navmesh.ts";
import type { LandmarkBound } from "./path_landmarks.ts";

/** How a corridor search ended. */
export type CorridorOutcome = "found" | "node-limit" | "too-narrow";

/** Share of a portal's length kept free at each end when choosing its point. */
const PORTAL_MARGIN = 0.1;

/**
 * A* over the triangles of one mesh. Keeps its buffers (a few numbers per triangle) across
 * searches; not shareable between threads.
 */
export class CorridorSearch {
  /** The mesh searched. */
  readonly mesh: NavMesh;
  /** Triangles expanded by the last search (a measure of its work). */
  expanded = 0;
  /** Triangle nearest the goal by its lower bound, after a search that failed. */
  bestTriangle = -1;
  #open = new FlatQueue<number>();
  #g: Float64Array;
  #px: Float64Array;
  #py: Float64Array;
  #parent: Int32Array;
  #entry: Int8Array;
  #seen: Int32Array;
  #closed: Int32Array;
  #stamp = 0;

  constructor(mesh: NavMesh) {
    this.mesh = mesh;
    const n = mesh.triangleCount;
    this.#g = new Float64Array(n);
    this.#px = new Float64Array(n);
    this.#py = new Float64Array(n);
    this.#parent = new Int32Array(n);
    this.#entry = new Int8Array(n);
    this.#seen = new Int32Array(n);
    this.#closed = new Int32Array(n);
  }

  /**
   * Searches from (`sx`, `sy`) in clear triangle `startTri` to (`gx`, `gy`) in `goalTri` through
   * passages where the clear width is at least `required` (m; see `NavMesh.widths`), with the
   * heuristic weighted by `weight` and the landmark bound `bound` (goal set) if given. Expands at
   * most `maxTriangles` triangles. On "found", {@linkcode CorridorSearch.corridor} writes the
   * triangles; otherwise `bestTriangle` is the one nearest the goal.
   */
  search(
    startTri: number,
    sx: number,
    sy: number,
    goalTri: number,
    gx: number,
    gy: number,
    required: number,
    weight: number,
    bound: LandmarkBound | null,
    maxTriangles: number,
  ): CorridorOutcome {
    const mesh = this.mesh, v = mesh.triangles, c = mesh.coords, pn = mesh.planNeighbors;
    const tw = mesh.twins, widths = mesh.widths;
    const g = this.#g, px = this.#px, py = this.#py, parent = this.#parent;
    const seen = this.#seen, closed = this.#closed, open = this.#open;
    const stamp = ++this.#stamp;
    open.clear();
    this.expanded = 0;
    this.bestTriangle = startTri;
    let bestH = Infinity;
    // The start triangle: entered at the start point.
    seen[startTri] = stamp;
    g[startTri] = 0;
    px[startTri] = sx;
    py[startTri] = sy;
    parent[startTri] = -1;
    const entry = this.#entry;
    entry[startTri] = -1;
    open.push(startTri, 0);
    while (open.length > 0) {
      const T = open.pop()!;
      if (closed[T] === stamp) continue;
      closed[T] = stamp;
      if (T === goalTri) return "found";
      if (this.expanded >= maxTriangles) return "node-limit";
      this.expanded++;
      const k = entry[T], x0 = px[T], y0 = py[T], g0 = g[T];
      for (let j = 0; j < 3; j++) {
        if (j === k) continue;
        const n = pn[3 * T + j];
        if (n < 0 || closed[n] === stamp) continue;
        if (k >= 0 && required > 0) {
          // Passing from edge k to edge j turns round the vertex they share.
          const shared = (k + 1) % 3 === j ? j : k;
          if (widths[3 * T + shared] < required) continue;
        }
        const r = v[3 * T + j], l = v[3 * T + (j + 1) % 3];
        const rx = c[2 * r], ry = c[2 * r + 1], lx = c[2 * l], ly = c[2 * l + 1];
        // Where the line from the entry point to the goal crosses the portal.
        const ex = lx - rx, ey = ly - ry, dx = gx - x0, dy = gy - y0;
        const den = ex * dy - ey * dx;
        let u = den !== 0 ? ((x0 - rx) * dy - (y0 - ry) * dx) / den : 0.5;
        if (!(u >= PORTAL_MARGIN)) u = PORTAL_MARGIN;
        else if (u > 1 - PORTAL_MARGIN) u = 1 - PORTAL_MARGIN;
        const qx = rx + u * ex, qy = ry + u * ey;
        const sx1 = qx - x0, sy1 = qy - y0;
        const ng = g0 + Math.sqrt(sx1 * sx1 + sy1 * sy1);
        if (seen[n] === stamp && g[n] <= ng) continue;
        seen[n] = stamp;
        g[n] = ng;
        px[n] = qx;
        py[n] = qy;
        parent[n] = T;
        entry[n] = tw[3 * T + j];
        const hx = gx - qx, hy = gy - qy;
        let h = Math.sqrt(hx * hx + hy * hy);
        if (bound) {
          const ar = qx - rx, br = qy - ry, al = qx - lx, bl = qy - ly;
          const viaR = bound.vertex(r) - Math.sqrt(ar * ar + br * br);
          const viaL = bound.vertex(l) - Math.sqrt(al * al + bl * bl);
          if (viaR > h) h = viaR;
          if (viaL > h) h = viaL;
        }
        if (h < bestH) {
          bestH = h;
          this.bestTriangle = n;
        }
        open.push(n, ng + weight * h);
      }
    }
    return "too-narrow";
  }

  /** Writes where the last search entered triangle `t` (`[x, y]`, m) into `out`. */
  entryPoint(t: number, out: Float64Array): void {
    out[0] = this.#px[t];
    out[1] = this.#py[t];
  }

  /** Number of triangles from the start to triangle `last` of the last search's tree. */
  corridorLength(last: number): number {
    let m = 0;
    for (let t = last; t >= 0; t = this.#parent[t]) m++;
    return m;
  }

  /**
   * Writes the triangles from the start to `last` (the goal's after "found", or
   * `bestTriangle`) into `out` from index 0; `out` must hold
   * {@linkcode CorridorSearch.corridorLength} of them. Returns their number.
   */
  corridor(last: number, out: Int32Array): number {
    const m = this.corridorLength(last);
    let i = m - 1;
    for (let t = last; t >= 0; t = this.#parent[t]) out[i--] = t;
    return m;
  }
}

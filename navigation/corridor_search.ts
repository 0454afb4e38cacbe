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
  #node: Float64Array;
  #mark: Int32Array;
  #link: Int32Array;
  #stamp = 0;

  constructor(mesh: NavMesh) {
    this.mesh = mesh;
    const n = mesh.triangleCount;
    this.#node = new Float64Array(3 * n);
    this.#mark = new Int32Array(n);
    this.#link = new Int32Array(n);
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
    // Per triangle: g, entry x, entry y side by side; its mark (2·stamp seen, 2·stamp + 1
    // closed); its parent and entry edge packed as 4·parent + edge.
    const node = this.#node, mark = this.#mark, link = this.#link, open = this.#open;
    const seenMark = 2 * ++this.#stamp, closedMark = seenMark + 1;
    open.clear();
    this.expanded = 0;
    this.bestTriangle = startTri;
    let bestH = Infinity;
    // The start triangle: entered at the start point, through no edge (3).
    mark[startTri] = seenMark;
    node[3 * startTri] = 0;
    node[3 * startTri + 1] = sx;
    node[3 * startTri + 2] = sy;
    link[startTri] = -1; // parent -1 (-1 >> 2), edge 3 (-1 & 3)
    open.push(startTri, 0);
    while (open.length > 0) {
      const T = open.pop()!;
      if (mark[T] === closedMark) continue;
      mark[T] = closedMark;
      if (T === goalTri) return "found";
      if (this.expanded >= maxTriangles) return "node-limit";
      this.expanded++;
      const k = link[T] & 3, g0 = node[3 * T], x0 = node[3 * T + 1], y0 = node[3 * T + 2];
      const dx = gx - x0, dy = gy - y0;
      for (let j = 0; j < 3; j++) {
        if (j === k) continue;
        const n = pn[3 * T + j];
        if (n < 0 || mark[n] === closedMark) continue;
        if (k !== 3 && required > 0) {
          // Passing from edge k to edge j turns round the vertex they share.
          const shared = (k + 1) % 3 === j ? j : k;
          if (widths[3 * T + shared] < required) continue;
        }
        const r = v[3 * T + j], l = v[3 * T + (j + 1) % 3];
        const rx = c[2 * r], ry = c[2 * r + 1], ex = c[2 * l] - rx, ey = c[2 * l + 1] - ry;
        // Where the line from the entry point to the goal crosses the portal.
        const den = ex * dy - ey * dx;
        let u = den !== 0 ? ((x0 - rx) * dy - (y0 - ry) * dx) / den : 0.5;
        if (!(u >= PORTAL_MARGIN)) u = PORTAL_MARGIN;
        else if (u > 1 - PORTAL_MARGIN) u = 1 - PORTAL_MARGIN;
        const qx = rx + u * ex, qy = ry + u * ey;
        const sx1 = qx - x0, sy1 = qy - y0;
        const ng = g0 + Math.sqrt(sx1 * sx1 + sy1 * sy1);
        if (mark[n] === seenMark && node[3 * n] <= ng) continue;
        mark[n] = seenMark;
        node[3 * n] = ng;
        node[3 * n + 1] = qx;
        node[3 * n + 2] = qy;
        link[n] = 4 * T + tw[3 * T + j];
        const hx = gx - qx, hy = gy - qy;
        let h = Math.sqrt(hx * hx + hy * hy);
        if (bound) {
          // q lies on the portal: u of its length from r, 1 − u from l.
          const len = Math.sqrt(ex * ex + ey * ey);
          const viaR = bound.vertex(r) - u * len, viaL = bound.vertex(l) - (1 - u) * len;
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
    out[0] = this.#node[3 * t + 1];
    out[1] = this.#node[3 * t + 2];
  }

  /** Number of triangles from the start to triangle `last` of the last search's tree. */
  corridorLength(last: number): number {
    let m = 0;
    for (let t = last; t >= 0; t = this.#link[t] >> 2) m++;
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
    for (let t = last; t >= 0; t = this.#link[t] >> 2) out[i--] = t;
    return m;
  }
}

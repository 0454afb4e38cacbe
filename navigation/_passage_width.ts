/**
 * Passage widths through triangles (Demyen & Buro 2006, "Efficient triangulation-based
 * pathfinding", the width used by TA*): moving through triangle (C, A, B) from edge CA to edge CB
 * means passing around vertex C; the widest body that fits is limited by C's distance to A, to B
 * and to any border lying across AB within the strip between the perpendiculars to AB at A and B.
 * Only vertices on the border (corners) count as obstacles.
 *
 * @module
 */

/** Triangles explored beyond the opposite edge per width, at most. */
const MAX_SEARCH = 256;

/**
 * Widths (m) for every clear triangle `t` and vertex `k`: `widths[3t + k]`. Infinity where the
 * vertex is not a corner (nothing to squeeze past) and for triangles that are not clear.
 */
export function passageWidths(
  coords: Float64Array,
  triangles: Uint32Array,
  planNeighbors: Int32Array,
  twins: Int8Array,
  clear: Uint8Array,
  corner: Uint8Array,
): Float64Array {
  const T = triangles.length / 3;
  const widths = new Float64Array(3 * T).fill(Infinity);
  const stackT = new Int32Array(MAX_SEARCH * 2 + 4), stackE = new Int8Array(MAX_SEARCH * 2 + 4);
  const X = (v: number) => coords[2 * v], Y = (v: number) => coords[2 * v + 1];
  for (let t = 0; t < T; t++) {
    if (!clear[t]) continue;
    for (let k = 0; k < 3; k++) {
      const C = triangles[3 * t + k];
      if (!corner[C]) continue;
      const A = triangles[3 * t + (k + 1) % 3], B = triangles[3 * t + (k + 2) % 3];
      const cx = X(C), cy = Y(C), ax = X(A), ay = Y(A), bx = X(B), by = Y(B);
      let d = Infinity;
      if (corner[A]) d = Math.min(d, Math.hypot(ax - cx, ay - cy));
      if (corner[B]) d = Math.min(d, Math.hypot(bx - cx, by - cy));
      const abx = bx - ax, aby = by - ay, ab2 = abx * abx + aby * aby;
      // Obtuse or right angle at A or B: the nearest point of the far side is A or B itself.
      if ((cx - ax) * abx + (cy - ay) * aby <= 0 || (cx - bx) * abx + (cy - by) * aby >= 0) {
        widths[3 * t + k] = d;
        continue;
      }
      // Search across AB (edge k + 1 of t runs A → B).
      let top = 0;
      stackT[top] = t;
      stackE[top++] = (k + 1) % 3;
      let visited = 0;
      while (top > 0 && visited++ < MAX_SEARCH) {
        const u = stackT[--top], e = stackE[top];
        const U = triangles[3 * u + e], V = triangles[3 * u + (e + 1) % 3];
        const dist = slabDistance(cx, cy, ax, ay, abx, aby, ab2, X(U), Y(U), X(V), Y(V));
        if (dist >= d) continue;
        const n = planNeighbors[3 * u + e];
        if (n < 0) {
          d = dist;
          continue;
        }
        const m = twins[3 * u + e]; // in n, edge m runs V → U
        const W = triangles[3 * n + (m + 2) % 3];
        const s = ((X(W) - ax) * abx + (Y(W) - ay) * aby) / ab2;
        if (corner[W] && s >= 0 && s <= 1) d = Math.min(d, Math.hypot(X(W) - cx, Y(W) - cy));
        if (top + 2 > stackT.length) break;
        stackT[top] = n;
        stackE[top++] = (m + 1) % 3; // U → W
        stackT[top] = n;
        stackE[top++] = (m + 2) % 3; // W → V
      }
      widths[3 * t + k] = d;
    }
  }
  return widths;
}

/**
 * Distance from C to the part of segment U–V lying in the strip between the perpendiculars to
 * A→B at A and B (Infinity when no part of it does).
 */
function slabDistance(
  cx: number,
  cy: number,
  ax: number,
  ay: number,
  abx: number,
  aby: number,
  ab2: number,
  ux: number,
  uy: number,
  vx: number,
  vy: number,
): number {
  const su = ((ux - ax) * abx + (uy - ay) * aby) / ab2,
    sv = ((vx - ax) * abx + (vy - ay) * aby) / ab2;
  let t0 = 0, t1 = 1;
  if (su !== sv) {
    // Parameters along U→V where s crosses 0 and 1.
    const ta = (0 - su) / (sv - su), tb = (1 - su) / (sv - su);
    t0 = Math.max(0, Math.min(ta, tb));
    t1 = Math.min(1, Math.max(ta, tb));
    if (t0 > t1) return Infinity;
  } else if (su < 0 || su > 1) return Infinity;
  const px = ux + t0 * (vx - ux), py = uy + t0 * (vy - uy);
  const qx = ux + t1 * (vx - ux), qy = uy + t1 * (vy - uy);
  const ex = qx - px, ey = qy - py, len2 = ex * ex + ey * ey;
  let s = len2 > 0 ? ((cx - px) * ex + (cy - py) * ey) / len2 : 0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  return Math.hypot(px + s * ex - cx, py + s * ey - cy);
}

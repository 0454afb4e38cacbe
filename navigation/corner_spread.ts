/**
 * Spreading a crowd across the width of a corner. The funnel's corners are mesh vertices on the
 * inside of each turn; a crowd that steers at them queues along the inner wall and leaves the
 * outer part of a corridor empty (RiMEA 3.0 test 15: 1.1–2.2 × the time of a straight corridor
 * of the centre line's length). People take a corner at different distances from its inner edge;
 * each keeps a lateral preference along the whole route, as in the indicative routes of
 * Karamouzas, Geraerts and Overmars ("Indicative routes for path planning and crowd simulation",
 * FDG 2009), where each agent follows the route at its own preferred clearance from the
 * obstacles.
 *
 * Here each agent has a fixed lane share s ∈ [0, 1) (from its serial: the golden-ratio sequence,
 * so that any group of agents covers the range evenly, and no random draws). At a corner c it
 * steers at the point `c + s · D · u` instead of c, where u is the direction of the corridor's
 * portal through c that points most into the outside of the turn. The point lies on the portal,
 * so it is walkable. How far the crowd spreads, D, depends on how many steer round that corner,
 * as a crowd takes up room: N people at 1 person/m² (about the upper end of free walking,
 * Fruin 1971 level of service C–D) fill a square √N m wide, so D = √N m, at least 1 m (a lone
 * walker keeps within 1 m of the corner) and at most `spread` × the portal's length. An agent
 * that has come level with its point (along its way to the corner) steers along the outgoing
 * leg at the same offset: at the route point after the corner moved sideways as far.
 *
 * @module
 */
import type { NavMesh } from "./navmesh.ts";

/** 1/φ: the golden-ratio sequence's step. */
const GOLDEN = 0.6180339887498949;

/**
 * The lane share in [0, 1) of the agent with `serial`: the fractional part of serial / φ.
 *
 * @example Consecutive agents spread over the range
 * ```ts
 * import { laneShare } from "./corner_spread.ts";
 * import assert from "node:assert/strict";
 * const s = [0, 1, 2, 3, 4].map(laneShare).sort();
 * assert.ok(s[0] >= 0 && s[4] < 1);
 * assert.ok(s[4] - s[0] > 0.6);
 * ```
 */
export function laneShare(serial: number): number {
  const x = (serial + 1) * GOLDEN;
  return x - Math.floor(x);
}

/**
 * Where agent at (`px`, `py`) may steer round the corner (`cx`, `cy`) of its funnel, followed by
 * (`nx`, `ny`), through triangles `corridor[begin] … corridor[end - 1]`, with lane share `share`
 * ∈ [0, 1) and `spread` ∈ [0, 1] (the share of the portal used). Writes its turning point to
 * `out[0]`, `out[1]`, the corner's mesh vertex to `out[2]` (-1 when none), the offset (m) to
 * `out[3]`, and the point after the corner moved across the outgoing leg by the offset's
 * sideways part to `out[4]`, `out[5]` (the outgoing leg at the agent's lane). Returns 0, or -1
 * when the corner is kept (no turn, no portal through it, `spread` 0, or the agent already at the
 * corner: nearer than the offset, at most 1 m, plus 0.3 m; `out[0]`, `out[1]` are the corner).
 * The offset is `share` times the smaller of `spread` × the portal's length and the width of the
 * crowd steering round the corner, √(`demand[vertex]` / `density`) m, at least 1 m; or the
 * agent's `committed` offset (m) when larger (what it chose before, as the crowd ahead thins
 * out), within the portal. The caller checks that the points can be walked to.
 *
 * @example An L-shaped corridor 4 m wide, 9 people steering round its corner: the agent with
 * share 0.5 turns 1.5 m off it (half their crowd width of √9 = 3 m)
 * ```ts
 * import { buildNavMesh } from "./navmesh_builder.ts";
 * import { NavMeshQuery, NavPath } from "./path_query.ts";
 * import { spreadCorner } from "./corner_spread.ts";
 * import assert from "node:assert/strict";
 * const mesh = buildNavMesh(
 *   { walkable: [[[[0, 0], [10, 0], [10, 4], [4, 4], [4, 10], [0, 10]]]] },
 *   { clearance: 0 },
 * );
 * const path = new NavPath();
 * new NavMeshQuery(mesh).findPath([9, 2], [2, 9], path);
 * const demand = new Int32Array(mesh.coords.length / 2).fill(9);
 * const out = new Float64Array(6);
 * const kind = spreadCorner(
 *   mesh, path.corridor, 0, path.corridorLength, 9, 2, 4, 4, 2, 9, 0.5, 0.8, demand, 1, 0, out,
 * );
 * assert.equal(kind, 0);
 * assert.ok(Math.abs(Math.hypot(out[0] - 4, out[1] - 4) - 1.5) < 1e-9);
 * assert.ok(out[0] < 4 && out[1] < 4); // towards the outside of the turn
 * assert.equal(mesh.coords[2 * out[2]], 4); // the corner's vertex
 * ```
 */
export function spreadCorner(
  mesh: NavMesh,
  corridor: Int32Array,
  begin: number,
  end: number,
  px: number,
  py: number,
  cx: number,
  cy: number,
  nx: number,
  ny: number,
  share: number,
  spread: number,
  demand: Int32Array,
  density: number,
  committed: number,
  out: Float64Array,
): number {
  out[0] = cx;
  out[1] = cy;
  out[2] = -1;
  out[3] = committed;
  if (!(spread > 0)) return -1;
  let e1x = cx - px, e1y = cy - py;
  const l1 = Math.sqrt(e1x * e1x + e1y * e1y);
  let e2x = nx - cx, e2y = ny - cy;
  const l2 = Math.sqrt(e2x * e2x + e2y * e2y);
  if (l1 < 1e-9 || l2 < 1e-9) return -1;
  e1x /= l1;
  e1y /= l1;
  e2x /= l2;
  e2y /= l2;
  // The outside of the turn: incoming minus outgoing direction.
  const ox = e1x - e2x, oy = e1y - e2y;
  if (ox * ox + oy * oy < 1e-12) return -1;
  // The corridor's portal through the corner that points most into the outside.
  const c = mesh.coords, v = mesh.triangles, nb = mesh.neighbors;
  let best = -Infinity, ux = 0, uy = 0, width = 0, vertex = -1;
  for (let i = begin; i < end - 1; i++) {
    const t = corridor[i], n = corridor[i + 1];
    const k = nb[3 * t] === n ? 0 : nb[3 * t + 1] === n ? 1 : nb[3 * t + 2] === n ? 2 : -1;
    if (k < 0) break;
    const a = v[3 * t + k], b = v[3 * t + (k + 1) % 3];
    let qx: number, qy: number, at: number;
    if (c[2 * a] === cx && c[2 * a + 1] === cy) {
      qx = c[2 * b];
      qy = c[2 * b + 1];
      at = a;
    } else if (c[2 * b] === cx && c[2 * b + 1] === cy) {
      qx = c[2 * a];
      qy = c[2 * a + 1];
      at = b;
    } else continue;
    const dx = qx - cx, dy = qy - cy, len = Math.sqrt(dx * dx + dy * dy);
    if (len < 1e-9) continue;
    const score = (dx * ox + dy * oy) / len;
    if (score > best) {
      best = score;
      ux = dx / len;
      uy = dy / len;
      width = len;
      vertex = at;
    }
  }
  if (!(best > 0)) return -1;
  out[2] = vertex;
  // The crowd's own width: `demand[vertex]` people at `density` in a square.
  const crowd = Math.sqrt((vertex < demand.length ? demand[vertex] : 0) / density);
  let d = share * Math.min(spread * width, crowd > MIN_WIDTH ? crowd : MIN_WIDTH);
  // Keep the offset once chosen: the crowd ahead thins out as it passes the corner.
  if (committed > d) d = committed < spread * width ? committed : spread * width;
  out[3] = d;
  // Already at the corner (nearer than a lone walker's offset): rounding it, as without spreading.
  if (l1 < (d < MIN_WIDTH ? d : MIN_WIDTH) + NEAR_CORNER) return -1;
  out[0] = cx + ux * d;
  out[1] = cy + uy * d;
  // The outgoing leg as far to its side: the route point after the corner moved across the leg
  // by the offset's sideways part.
  const sx = ux * d, sy = uy * d, along = sx * e2x + sy * e2y;
  out[4] = nx + sx - along * e2x;
  out[5] = ny + sy - along * e2y;
  return 0;
}

/** Width (m) a lone walker spreads over: turning up to 1 m off the corner. */
const MIN_WIDTH = 1;

/** Distance (m) from the corner, beyond a lone walker's offset, within which an agent is rounding it. */
const NEAR_CORNER = 0.3;

/**
 * True when the straight segment from (`x0`, `y0`), inside triangle `from`, to (`x1`, `y1`)
 * stays on the mesh: it is followed triangle by triangle through the edges it crosses, and
 * crossing a border edge (or more than `maxSteps` triangles) means it does not.
 *
 * @example An L-shaped room: round the corner is out of sight, along the arm is not
 * ```ts
 * import { buildNavMesh } from "./navmesh_builder.ts";
 * import { segmentOnMesh } from "./corner_spread.ts";
 * import assert from "node:assert/strict";
 * const mesh = buildNavMesh(
 *   { walkable: [[[[0, 0], [10, 0], [10, 4], [4, 4], [4, 10], [0, 10]]]] },
 *   { clearance: 0 },
 * );
 * const t = mesh.locate(2, 9);
 * assert.equal(segmentOnMesh(mesh, t, 2, 9, 2, 1), true);
 * assert.equal(segmentOnMesh(mesh, t, 2, 9, 9, 2), false);
 * ```
 */
export function segmentOnMesh(
  mesh: NavMesh,
  from: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  maxSteps = 256,
): boolean {
  const c = mesh.coords, v = mesh.triangles, nb = mesh.neighbors;
  const dx = x1 - x0, dy = y1 - y0;
  let t = from, came = -1;
  for (let step = 0; step < maxSteps; step++) {
    if (mesh.contains(t, x1, y1)) return true;
    let next = -2;
    for (let k = 0; k < 3; k++) {
      const n = nb[3 * t + k];
      if (n === came && n >= 0) continue;
      const a = v[3 * t + k], b = v[3 * t + (k + 1) % 3];
      const ax = c[2 * a], ay = c[2 * a + 1], bx = c[2 * b], by = c[2 * b + 1];
      // The segment leaves through edge ab when the end lies beyond it (the triangles run
      // counter-clockwise) and the segment's line passes between a and b.
      const ex = bx - ax, ey = by - ay;
      if (ex * (y1 - ay) - ey * (x1 - ax) >= 0) continue;
      const sa = dx * (ay - y0) - dy * (ax - x0), sb = dx * (by - y0) - dy * (bx - x0);
      if ((sa > 0 && sb > 0) || (sa < 0 && sb < 0)) continue;
      next = n;
      break;
    }
    if (next < 0) return false;
    came = t;
    t = next;
  }
  return false;
}

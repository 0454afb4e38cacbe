/**
 * Narrow openings, where people turn their shoulders: the test shared by the force models and
 * `orca`. An opening is narrow for a person of shoulder radius r when two wall points on either
 * side of their walking line, neither behind them by more than r, lie less than
 * 2(r + {@linkcode NARROW_MARGIN}) apart and belong to walls that do not meet there (two walls
 * meeting at a corner are no opening).
 *
 * @module
 */
import { segmentParameter } from "../core/geometry.ts";

/**
 * Margin (m) on each side of the shoulders under which an opening counts as narrow: people
 * turn their shoulders to slip through rather than keep their distance from its posts.
 */
export const NARROW_MARGIN = 0.1;

/** Segment end points, as {@linkcode StaticObstacles} and ORCA's joined segments hold them. */
export interface SegmentEnds {
  /** Start x (m). */
  readonly ax: Float64Array;
  /** Start y (m). */
  readonly ay: Float64Array;
  /** End x (m). */
  readonly bx: Float64Array;
  /** End y (m). */
  readonly by: Float64Array;
}

/**
 * Whether a person at (`xi`, `yi`) with shoulder radius `ri` (m), walking along the unit
 * direction (`ex`, `ey`), stands in or just before a narrow opening between the first `count`
 * segments of `segs` (indices into `o`). `wx`, `wy` are scratch arrays of at least `count`
 * entries (the nearest point of each segment is written there). The first wall point must lie
 * within 2(r + {@linkcode NARROW_MARGIN}); the opening is narrow under 2(r + `margin`) (m,
 * default {@linkcode NARROW_MARGIN}); with `between`, the person's centre must also project
 * onto the middle 90 % of the gap (in front of it, not beside a post).
 *
 * @example A 0.5 m door is narrow for a 0.22 m shoulder radius, a 1 m door is not
 * ```ts
 * import { isNarrowOpening } from "./_narrow_opening.ts";
 * import assert from "node:assert/strict";
 * const posts = (h: number) => ({
 *   ax: new Float64Array([0, 0]), ay: new Float64Array([h, -h]),
 *   bx: new Float64Array([0, 0]), by: new Float64Array([5, -5]),
 * });
 * const segs = new Uint32Array([0, 1]), wx = new Float64Array(2), wy = new Float64Array(2);
 * assert.equal(isNarrowOpening(posts(0.25), segs, 2, -0.3, 0, 0.22, 1, 0, wx, wy), true);
 * assert.equal(isNarrowOpening(posts(0.5), segs, 2, -0.3, 0, 0.22, 1, 0, wx, wy), false);
 * ```
 */
export function isNarrowOpening(
  o: SegmentEnds,
  segs: ArrayLike<number>,
  count: number,
  xi: number,
  yi: number,
  ri: number,
  ex: number,
  ey: number,
  wx: Float64Array,
  wy: Float64Array,
  margin = NARROW_MARGIN,
  between = false,
): boolean {
  if (count < 2 || (ex === 0 && ey === 0)) return false;
  for (let m = 0; m < count; m++) {
    const s = segs[m], x0 = o.ax[s], y0 = o.ay[s];
    const t = segmentParameter(xi, yi, x0, y0, o.bx[s], o.by[s]);
    wx[m] = x0 + t * (o.bx[s] - x0);
    wy[m] = y0 + t * (o.by[s] - y0);
  }
  const near = 2 * (ri + NARROW_MARGIN), near2 = near * near;
  const wide = 2 * (ri + margin), wide2 = wide * wide;
  for (let m = 0; m < count; m++) {
    const ax = wx[m] - xi, ay = wy[m] - yi;
    if (ax * ex + ay * ey < -ri || ax * ax + ay * ay > near2) continue;
    const sideA = ex * ay - ey * ax;
    for (let n = m + 1; n < count; n++) {
      const bx = wx[n] - xi, by = wy[n] - yi;
      if (bx * ex + by * ey < -ri || sideA * (ex * by - ey * bx) >= 0) continue;
      if (segmentsTouch(o, segs[m], segs[n])) continue; // a corner of walls, not an opening
      const gx = bx - ax, gy = by - ay, g2 = gx * gx + gy * gy;
      if (g2 >= wide2) continue;
      if (!between) return true;
      // In front of the gap: the centre projects onto its middle 90 %, not beside a post.
      const along = -(ax * gx + ay * gy);
      if (along > 0.05 * g2 && along < 0.95 * g2) return true;
    }
  }
  return false;
}

/** Whether segments `s` and `t` of `o` share an end point (within 1 nm). */
export function segmentsTouch(o: SegmentEnds, s: number, t: number): boolean {
  return _same(o.ax[s], o.ay[s], o.ax[t], o.ay[t]) || _same(o.ax[s], o.ay[s], o.bx[t], o.by[t]) ||
    _same(o.bx[s], o.by[s], o.ax[t], o.ay[t]) || _same(o.bx[s], o.by[s], o.bx[t], o.by[t]);
}

/** Whether two points coincide (within 1 nm). */
function _same(x0: number, y0: number, x1: number, y1: number): boolean {
  return Math.abs(x0 - x1) < 1e-9 && Math.abs(y0 - y1) < 1e-9;
}

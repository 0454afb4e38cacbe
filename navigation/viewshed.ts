/**
 * A viewshed (visibility polygon, isovist): the part of the plane seen from one point, stored
 * exactly as a fan of wedges around the observer.
 *
 * Seen from its observer a visibility polygon is star-shaped, so it is fully described by its
 * boundary distance as a function of direction. Between two consecutive event directions of the
 * sweep the boundary is one straight wall, or an arc of the range circle where nothing blocks
 * the view within the range. Each wedge keeps its two bounding directions (radians, counter-
 * clockwise from +x, covering [0, 2π] in order), the boundary distance at both (m), and which
 * obstacle polygon forms its boundary. Areas of the whole viewshed and of any sector of it (a
 * view frustum) follow exactly from the wedges (triangles and circular sectors), without
 * rasterising or sampling.
 *
 * D. Michael and Y. Chrysanthou, Automatic high level avatar guidance based on affordance of
 * movement, Eurographics 2003, compute this polygon at every junction and keep, for each
 * neighbouring junction, the share of its area inside the view frustum towards it.
 *
 * @module
 */
import { pointInPolygon } from "../core/geometry.ts";
import type { ObstaclePolygon } from "./obstacle_set.ts";

/** Owner of a wedge whose boundary is the range circle (nothing seen within the range). */
export const VIEWSHED_RANGE_OWNER = -1;
/** Owner of a wedge whose boundary is the box of {@linkcode ViewshedOptions.bounds}. */
export const VIEWSHED_BOUNDS_OWNER = -2;

const TWO_PI = 2 * Math.PI;

/** The arrays a viewshed is made of; see {@linkcode Viewshed}. */
export interface ViewshedWedges {
  /** Observer (m). */
  x: number;
  /** Observer (m). */
  y: number;
  /** Radius of the range circle (m); `Infinity` when the view is bounded by walls only. */
  rangeM: number;
  /** Number of wedges. */
  count: number;
  /** Start direction of each wedge (rad, in [0, 2π]); `angle0[0]` is 0. */
  angle0: Float64Array;
  /** End direction (rad); `angle1[count-1]` is 2π and `angle1[k] = angle0[k+1]`. */
  angle1: Float64Array;
  /** Boundary distance at `angle0` (m). */
  r0: Float64Array;
  /** Boundary distance at `angle1` (m). */
  r1: Float64Array;
  /** Obstacle polygon id forming the boundary, or `VIEWSHED_RANGE_OWNER` / `VIEWSHED_BOUNDS_OWNER`. */
  owner: Int32Array;
}

/**
 * The visible region from one point, as wedges (see the module doc). Made by
 * {@linkcode ViewshedSweep.compute} or {@linkcode computeViewshed}.
 *
 * @example Area in front of an observer in a 10 m square room
 * ```ts
 * import { computeViewshed } from "./viewshed_sweep.ts";
 * import assert from "node:assert/strict";
 * const v = computeViewshed(5, 5, [], { maxRangeM: 0, bounds: [0, 0, 10, 10] });
 * assert(Math.abs(v.area - 100) < 1e-9);
 * assert(Math.abs(v.sectorArea(0, Math.PI / 4) - 25) < 1e-9); // the triangle facing +x
 * assert(v.contains(9, 9) && !v.contains(11, 5));
 * ```
 */
export class Viewshed implements ViewshedWedges {
  /** Observer (m). */
  readonly x: number;
  /** Observer (m). */
  readonly y: number;
  /** Radius of the range circle (m), or `Infinity`. */
  readonly rangeM: number;
  /** Number of wedges. */
  readonly count: number;
  /** Start direction of each wedge (rad). */
  readonly angle0: Float64Array;
  /** End direction of each wedge (rad). */
  readonly angle1: Float64Array;
  /** Boundary distance at `angle0` (m). */
  readonly r0: Float64Array;
  /** Boundary distance at `angle1` (m). */
  readonly r1: Float64Array;
  /** Boundary owner per wedge (polygon id, or a negative owner constant). */
  readonly owner: Int32Array;
  /** Area (m²). */
  readonly area: number;
  #box: [number, number, number, number] | null = null;

  /** Wraps wedge arrays (kept by reference); computes the area. */
  constructor(w: ViewshedWedges) {
    this.x = w.x;
    this.y = w.y;
    this.rangeM = w.rangeM;
    this.count = w.count;
    this.angle0 = w.angle0;
    this.angle1 = w.angle1;
    this.r0 = w.r0;
    this.r1 = w.r1;
    this.owner = w.owner;
    let area = 0;
    for (let k = 0; k < this.count; k++) area += this.#wedgeArea(k, this.angle0[k], this.angle1[k]);
    this.area = area;
  }

  /** Distance (m) from the observer to the boundary in direction `angle` (rad). */
  distanceAt(angle: number): number {
    const a = _normalise(angle);
    return this.#radius(this.#wedgeAt(a), a);
  }

  /**
   * True when (`px`, `py`) is seen: inside the viewshed, or within `toleranceM` (m, along the
   * line of sight) beyond its boundary.
   */
  contains(px: number, py: number, toleranceM = 0): boolean {
    const dx = px - this.x, dy = py - this.y;
    const d = Math.hypot(dx, dy);
    if (d === 0) return true;
    const a = _normalise(Math.atan2(dy, dx));
    return d <= this.#radius(this.#wedgeAt(a), a) + toleranceM;
  }

  /**
   * Area (m²) of the part of the viewshed inside the sector of half-angle `halfAngle` (rad)
   * around direction `heading` (rad): the view frustum of an observer looking that way.
   */
  sectorArea(heading: number, halfAngle: number): number {
    if (halfAngle >= Math.PI) return this.area;
    if (!(halfAngle > 0)) return 0;
    const lo = _normalise(heading - halfAngle), hi = lo + 2 * halfAngle;
    if (hi <= TWO_PI) return this.#areaBetween(lo, hi);
    return this.#areaBetween(lo, TWO_PI) + this.#areaBetween(0, hi - TWO_PI);
  }

  /**
   * Writes into `out` the polygon ids whose walls bound the viewshed inside the sector (see
   * {@linkcode Viewshed.sectorArea}), in angular order, without repeating consecutive ids;
   * returns how many (may exceed `out.length`). Range and bounds boundaries are left out.
   */
  sectorOwners(heading: number, halfAngle: number, out: Int32Array): number {
    if (halfAngle >= Math.PI) return this.#ownersBetween(0, TWO_PI, out, 0);
    const lo = _normalise(heading - halfAngle), hi = lo + 2 * halfAngle;
    if (hi <= TWO_PI) return this.#ownersBetween(lo, hi, out, 0);
    const n = this.#ownersBetween(lo, TWO_PI, out, 0);
    return this.#ownersBetween(0, hi - TWO_PI, out, n);
  }

  /**
   * The boundary as a polygon (m), counter-clockwise, flattened `[x0, y0, x1, y1, …]`. Arcs of
   * the range circle become polygon edges at most `maxArcStepRad` apart, tangent to the circle,
   * so the polygon contains the exact viewshed.
   */
  polygon(maxArcStepRad = Math.PI / 90): Float64Array {
    const pts: number[] = [];
    const push = (a: number, r: number) => {
      const x = this.x + r * Math.cos(a), y = this.y + r * Math.sin(a);
      const n = pts.length;
      if (n >= 2 && Math.abs(pts[n - 2] - x) < 1e-9 && Math.abs(pts[n - 1] - y) < 1e-9) return;
      pts.push(x, y);
    };
    for (let k = 0; k < this.count; k++) {
      const a0 = this.angle0[k], a1 = this.angle1[k];
      push(a0, this.r0[k]);
      if (this.owner[k] === VIEWSHED_RANGE_OWNER) {
        const steps = Math.max(1, Math.ceil((a1 - a0) / maxArcStepRad));
        const step = (a1 - a0) / steps, r = this.rangeM / Math.cos(step / 2);
        for (let i = 0; i < steps; i++) push(a0 + (i + 0.5) * step, r);
      }
      push(a1, this.r1[k]);
    }
    const n = pts.length;
    if (n >= 4 && Math.abs(pts[0] - pts[n - 2]) < 1e-9 && Math.abs(pts[1] - pts[n - 1]) < 1e-9) {
      pts.length = n - 2;
    }
    return Float64Array.from(pts);
  }

  /** Bounding box `[minX, minY, maxX, maxY]` (m), containing the whole viewshed. */
  bounds(): readonly [number, number, number, number] {
    if (this.#box) return this.#box;
    let minX = this.x, minY = this.y, maxX = this.x, maxY = this.y;
    const p = this.polygon(Math.PI / 8);
    for (let i = 0; i < p.length; i += 2) {
      minX = Math.min(minX, p[i]);
      maxX = Math.max(maxX, p[i]);
      minY = Math.min(minY, p[i + 1]);
      maxY = Math.max(maxY, p[i + 1]);
    }
    return this.#box = [minX, minY, maxX, maxY];
  }

  /**
   * True when the polygon (m, outer ring then holes) shares a point with the viewshed, counting
   * points within `toleranceM` (m) beyond its boundary: exact up to that tolerance. A polygon
   * added there would change the viewshed; a polygon that touches it and is removed would
   * change it too.
   */
  touchesPolygon(polygon: ObstaclePolygon, toleranceM = 1e-6): boolean {
    if (pointInPolygon(this.x, this.y, polygon[0])) {
      let inHole = false;
      for (let h = 1; h < polygon.length && !inHole; h++) {
        inHole = pointInPolygon(this.x, this.y, polygon[h]);
      }
      if (!inHole) return true;
    }
    for (const ring of polygon) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        if (this.#touchesEdge(ring[j][0], ring[j][1], ring[i][0], ring[i][1], toleranceM)) {
          return true;
        }
      }
    }
    return false;
  }

  #touchesEdge(ax: number, ay: number, bx: number, by: number, tol: number): boolean {
    let px = ax - this.x, py = ay - this.y, qx = bx - this.x, qy = by - this.y;
    const ex = qx - px, ey = qy - py, len2 = ex * ex + ey * ey;
    const t = len2 > 0 ? Math.min(1, Math.max(0, -(px * ex + py * ey) / len2)) : 0;
    const fx = px + t * ex, fy = py + t * ey;
    if (Math.hypot(fx, fy) <= tol) return true;
    let c = px * qy - py * qx;
    const near = Math.min(Math.hypot(px, py), Math.hypot(qx, qy));
    if (Math.abs(c) <= 1e-12 * (px * px + py * py + qx * qx + qy * qy)) {
      return this.contains(this.x + fx, this.y + fy, tol) ||
        near <= this.distanceAt(Math.atan2(py, px)) + tol;
    }
    if (c < 0) {
      [px, py, qx, qy] = [qx, qy, px, py];
      c = -c;
    }
    const aP = _normalise(Math.atan2(py, px)), aQ = _normalise(Math.atan2(qy, qx));
    // The foot of the perpendicular, where the edge comes closest (matters against arcs).
    const foot = _normalise(Math.atan2(fy, fx)), footR = Math.hypot(fx, fy);
    if (aQ >= aP) return this.#edgeCloserBetween(aP, aQ, px, py, qx, qy, foot, footR, tol);
    return this.#edgeCloserBetween(aP, TWO_PI, px, py, qx, qy, foot, footR, tol) ||
      this.#edgeCloserBetween(0, aQ, px, py, qx, qy, foot, footR, tol);
  }

  /** Is the edge p–q (relative, counter-clockwise) closer than the boundary somewhere in [lo, hi]? */
  #edgeCloserBetween(
    lo: number,
    hi: number,
    px: number,
    py: number,
    qx: number,
    qy: number,
    foot: number,
    footR: number,
    tol: number,
  ): boolean {
    const c = px * qy - py * qx, ex = qx - px, ey = qy - py;
    const edgeR = (a: number) => c / (Math.cos(a) * ey - Math.sin(a) * ex);
    for (let k = this.#wedgeAt(lo); k < this.count && this.angle0[k] <= hi; k++) {
      const a = Math.max(lo, this.angle0[k]), b = Math.min(hi, this.angle1[k]);
      if (b < a) continue;
      // Two straight lines cross at most once, so comparing both ends decides; against an arc
      // the edge may also dip below the range between the ends, at its foot point.
      if (edgeR(a) <= this.#radius(k, a) + tol || edgeR(b) <= this.#radius(k, b) + tol) {
        return true;
      }
      if (this.owner[k] === VIEWSHED_RANGE_OWNER && foot >= a && foot <= b) {
        if (footR <= this.rangeM + tol) return true;
      }
    }
    return false;
  }

  /** Index of the wedge containing direction `a` (rad, in [0, 2π]). */
  #wedgeAt(a: number): number {
    let lo = 0, hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.angle1[mid] < a) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Boundary distance (m) of wedge `k` in direction `a` (rad). */
  #radius(k: number, a: number): number {
    if (this.owner[k] === VIEWSHED_RANGE_OWNER) return this.rangeM;
    const a0 = this.angle0[k], a1 = this.angle1[k];
    if (a === a0) return this.r0[k];
    if (a === a1) return this.r1[k];
    const pax = this.r0[k] * Math.cos(a0), pay = this.r0[k] * Math.sin(a0);
    const ex = this.r1[k] * Math.cos(a1) - pax, ey = this.r1[k] * Math.sin(a1) - pay;
    const denom = Math.cos(a) * ey - Math.sin(a) * ex;
    const r = (pax * ey - pay * ex) / denom;
    return denom > 0 && r >= 0 ? r : Math.min(this.r0[k], this.r1[k]);
  }

  #wedgeArea(k: number, a: number, b: number): number {
    if (b <= a) return 0;
    if (this.owner[k] === VIEWSHED_RANGE_OWNER) return 0.5 * this.rangeM * this.rangeM * (b - a);
    return 0.5 * this.#radius(k, a) * this.#radius(k, b) * Math.sin(b - a);
  }

  #areaBetween(lo: number, hi: number): number {
    let area = 0;
    for (let k = this.#wedgeAt(lo); k < this.count && this.angle0[k] < hi; k++) {
      area += this.#wedgeArea(k, Math.max(lo, this.angle0[k]), Math.min(hi, this.angle1[k]));
    }
    return area;
  }

  #ownersBetween(lo: number, hi: number, out: Int32Array, n: number): number {
    for (let k = this.#wedgeAt(lo); k < this.count && this.angle0[k] < hi; k++) {
      const o = this.owner[k];
      if (o < 0 || Math.min(hi, this.angle1[k]) <= Math.max(lo, this.angle0[k])) continue;
      if (n > 0 && n <= out.length && out[n - 1] === o) continue;
      if (n < out.length) out[n] = o;
      n++;
    }
    return n;
  }
}

/** `a` (rad) brought into [0, 2π). */
function _normalise(a: number): number {
  const r = a % TWO_PI;
  return r < 0 ? r + TWO_PI : r;
}

/**
 * A ring (closed polygon outline) prepared for many point-in-polygon tests: its edges sorted
 * into horizontal bands, so that a test reads only the edges that span the point's band instead
 * of every edge. The answer is that of {@linkcode pointInPolygon} bit for bit: the same
 * even-odd ray cast to +x, the same expression per edge, over every edge that can cross the
 * ray (an edge crosses the ray at height y only if y lies within its own span of heights, so it
 * is in y's band). A city block outlined by a thousand points costs a few edge tests per point
 * instead of a thousand.
 *
 * @module
 */
import { type Point, pointInPolygon } from "./geometry.ts";

/** Rings with fewer points than this are tested edge by edge (banding would not pay). */
const MIN_BANDED_POINTS = 32;
/** Points per band on average. */
const POINTS_PER_BAND = 4;
/** Most bands per ring (a bound on memory for rings of long steep edges). */
const MAX_BANDS = 512;

/**
 * A ring of points (m) for repeated even-odd inside tests.
 *
 * @example
 * ```ts
 * import { BandedRing } from "./banded_ring.ts";
 * import assert from "node:assert/strict";
 * // A comb: 40 teeth 1 m wide, 5 m tall, on a 2 m high base.
 * const ring: [number, number][] = [[0, 0], [80, 0]];
 * for (let k = 39; k >= 0; k--) ring.push([2 * k + 2, 2], [2 * k + 2, 7], [2 * k + 1, 7], [2 * k + 1, 2]);
 * const comb = new BandedRing(ring);
 * assert.equal(comb.contains(1.5, 5), true); // in a tooth
 * assert.equal(comb.contains(2.5, 5), false); // between two teeth
 * assert.equal(comb.contains(40, 1), true); // in the base
 * ```
 */
export class BandedRing {
  /** The ring's points as given. */
  readonly points: readonly Point[];
  /** Lowest and highest y of the ring (m). */
  readonly minY: number;
  /** Lowest and highest y of the ring (m). */
  readonly maxY: number;
  readonly #x: Float64Array;
  readonly #y: Float64Array;
  readonly #bandHeight: number;
  readonly #bandCount: number;
  /** Edges of band k: `#edges[#start[k] … #start[k+1]-1]`, each the index i of edge (i-1, i). */
  readonly #start: Int32Array;
  readonly #edges: Int32Array;

  /** @param points the ring, not repeating its first point at the end */
  constructor(points: readonly Point[]) {
    this.points = points;
    const n = points.length;
    this.#x = new Float64Array(n);
    this.#y = new Float64Array(n);
    let minY = Infinity, maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      this.#x[i] = points[i][0];
      this.#y[i] = points[i][1];
      if (points[i][1] < minY) minY = points[i][1];
      if (points[i][1] > maxY) maxY = points[i][1];
    }
    this.minY = minY;
    this.maxY = maxY;
    const bands = n < MIN_BANDED_POINTS || !(maxY > minY)
      ? 0
      : Math.min(MAX_BANDS, Math.ceil(n / POINTS_PER_BAND));
    this.#bandCount = bands;
    this.#bandHeight = bands > 0 ? (maxY - minY) / bands : 0;
    this.#start = new Int32Array(bands + 1);
    if (bands === 0) {
      this.#edges = new Int32Array(0);
      return;
    }
    // Count, then fill: edge (j, i) goes to every band from that of its lower end to that of its
    // upper end.
    const y = this.#y;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const lo = this.#band(Math.min(y[i], y[j])), hi = this.#band(Math.max(y[i], y[j]));
      for (let k = lo; k <= hi; k++) this.#start[k + 1]++;
    }
    for (let k = 0; k < bands; k++) this.#start[k + 1] += this.#start[k];
    this.#edges = new Int32Array(this.#start[bands]);
    const cursor = this.#start.slice(0, bands);
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const lo = this.#band(Math.min(y[i], y[j])), hi = this.#band(Math.max(y[i], y[j]));
      for (let k = lo; k <= hi; k++) this.#edges[cursor[k]++] = i;
    }
  }

  /** True when (`x`, `y`) lies inside the ring (even-odd rule), exactly as `pointInPolygon`. */
  contains(x: number, y: number): boolean {
    if (this.#bandCount === 0) return pointInPolygon(x, y, this.points);
    // No edge spans a height outside the ring's: the ray meets nothing (NaN: nothing either).
    if (!(y >= this.minY && y < this.maxY)) return false;
    const xs = this.#x, ys = this.#y, n = xs.length, edges = this.#edges;
    const k = this.#band(y);
    let inside = false;
    for (let e = this.#start[k]; e < this.#start[k + 1]; e++) {
      const i = edges[e], j = i === 0 ? n - 1 : i - 1;
      const xi = xs[i], yi = ys[i], xj = xs[j], yj = ys[j];
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }

  /**
   * How many edges {@linkcode BandedRing.contains} reads for a point at height `y` (m): those of
   * its band, all of them for a ring too short to band, none outside the ring's heights.
   */
  edgesRead(y: number): number {
    if (this.#bandCount === 0) return this.points.length;
    if (!(y >= this.minY && y < this.maxY)) return 0;
    const k = this.#band(y);
    return this.#start[k + 1] - this.#start[k];
  }

  /** Band of height `y` (clamped to the ring's bands). */
  #band(y: number): number {
    const k = Math.floor((y - this.minY) / this.#bandHeight);
    return k < 0 ? 0 : k >= this.#bandCount ? this.#bandCount - 1 : k;
  }
}

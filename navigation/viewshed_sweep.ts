/**
 * Exact viewsheds by a rotational sweep (Asano, 1985; the textbook form is in de Berg et al.,
 * Computational Geometry, ch. 15), with grid culling so that a city's hidden walls are never
 * sorted.
 *
 * 1. Culling. Directions are cut into `angularBins` bins; each bin holds an upper bound on how far
 *    one can see in it (the range at first). Grid cells of walls are visited in square rings of
 *    blocks outwards from the observer; a block, a cell or a wall whose nearest point lies beyond
 *    the bound of every bin it spans cannot be seen and is skipped. A wall that may be seen is
 *    kept, and lowers the bound of every bin it spans fully to its farthest distance in that bin.
 *    The ring walk stops when the next ring lies beyond every bound. Skipping is exact: a bound
 *    only ever comes from a wall that spans the whole bin in front of what it hides.
 * 2. Sweep. The kept walls are clipped to the range circle and the bounds box; their ends are
 *    sorted by direction; a ray turns once around the observer with a binary heap of the walls it
 *    crosses, ordered by "which is in front" (a fixed order, since walls at most touch). Between
 *    two consecutive ends, the front wall (or the range arc) bounds one wedge of the viewshed.
 *
 * Sorting k kept walls costs O(k log k); culling visits the cells of the visible region and its
 * nearby walls rather than all walls within the range.
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import { type ObstaclePolygon, ObstacleSet } from "./obstacle_set.ts";
import { Viewshed, VIEWSHED_BOUNDS_OWNER, VIEWSHED_RANGE_OWNER } from "./viewshed.ts";

/** Options of {@linkcode ViewshedSweep}. */
export interface ViewshedOptions {
  /**
   * How far an observer sees (m); 0 for no limit, in which case `bounds` must be given. Larger
   * ranges see down longer streets and cost more: the sweep visits every cell of the visible
   * region.
   * @default 1000
   */
  maxRangeM: number;
  /**
   * Box `[minX, minY, maxX, maxY]` (m) that ends every view, such as the city's extent; `[]` for
   * none.
   * @default []
   */
  bounds: readonly number[];
  /**
   * Direction bins of the culling step, a power of two in [64, 65536]. More bins cull more tightly
   * near the observer, at a cost per bin for every kept wall.
   * @default 1024
   */
  angularBins: number;
}

/** Descriptors of {@linkcode ViewshedOptions}. */
export const VIEWSHED_OPTIONS: OptionSpecs<ViewshedOptions> = {
  maxRangeM: {
    type: "number",
    default: 1000,
    min: 0,
    unit: "m",
    doc: "how far an observer sees; 0 for no limit (then bounds are required)",
  },
  bounds: {
    type: "object",
    default: [],
    parse: _parseBounds,
    doc: "box [minX, minY, maxX, maxY] (m) that ends every view, or [] for none",
  },
  angularBins: {
    type: "number",
    default: 1024,
    min: 64,
    max: 65536,
    integer: true,
    doc: "direction bins for culling (power of two); more cull tighter near the observer",
  },
};

/** Bins per group in the culling step's coarse maxima: 2^GROUP_BITS. */
const GROUP_BITS = 4;
const GROUP_MASK = (1 << GROUP_BITS) - 1;
/** Cells per side of a culling block. */
const BLOCK = 4;
/** Distance (m) under which a point counts as lying on a wall or line. */
const TOUCH_M = 1e-9;
const TWO_PI = 2 * Math.PI;

/**
 * Computes viewsheds from points among a set of obstacles. Keeps its work buffers between calls
 * (they only grow), so one sweep serves a whole city.
 *
 * @example The view from a street corner, blocked by one building
 * ```ts
 * import { ObstacleSet } from "./obstacle_set.ts";
 * import { ViewshedSweep } from "./viewshed_sweep.ts";
 * import assert from "node:assert/strict";
 * const obstacles = ObstacleSet.fromPolygons([[[[10, -5], [20, -5], [20, 5], [10, 5]]]]);
 * const sweep = new ViewshedSweep(obstacles, { maxRangeM: 50 });
 * const v = sweep.compute(0, 0);
 * assert.equal(v.distanceAt(0), 10); // the facade facing the observer
 * assert.equal(v.distanceAt(Math.PI), 50); // open to the range
 * assert(v.area < Math.PI * 50 * 50);
 * ```
 */
export class ViewshedSweep {
  /** The obstacles seen against. */
  readonly obstacles: ObstacleSet;
  /** Resolved options. */
  readonly options: Readonly<ViewshedOptions>;
  readonly #range: number;
  readonly #box: readonly number[] | null;
  readonly #bins: number;
  readonly #mask: number;
  /** Upper bound (m) on the visible distance per direction bin. */
  readonly #bound: Float64Array;
  /** Upper bound per group of bins (may be stale-high within a ring; never too low). */
  readonly #groupMax: Float64Array;
  readonly #dirty: Uint8Array;
  readonly #dirtyList: Int32Array;
  #dirtyCount = 0;
  // Partial cover of each bin (see #coverTo).
  readonly #toAngle: Float64Array;
  readonly #toFar: Float64Array;
  readonly #fromAngle: Float64Array;
  readonly #fromFar: Float64Array;
  /** Unit direction of each bin's start edge (bin `b` spans edges `b` and `b+1`). */
  readonly #edgeX: Float64Array;
  readonly #edgeY: Float64Array;
  #maxOpen = 0;
  #ox = 0;
  #oy = 0;
  #ignore = new Int32Array(8);
  #ignoreCount = 0;
  // Kept walls, relative to the observer, counter-clockwise from p to q.
  #px = new Float64Array(256);
  #py = new Float64Array(256);
  #qx = new Float64Array(256);
  #qy = new Float64Array(256);
  #invLen = new Float64Array(256);
  #own = new Int32Array(256);
  #kept = 0;
  // Sweep events and heap.
  #evAngle = new Float64Array(512);
  #evWall = new Int32Array(512);
  #evOrder = new Int32Array(512);
  #bucketStart = new Int32Array(1025);
  #heap = new Int32Array(256);
  #heapPos = new Int32Array(256);
  #heapSize = 0;
  // Output wedges.
  #a0 = new Float64Array(256);
  #a1 = new Float64Array(256);
  #r0 = new Float64Array(256);
  #r1 = new Float64Array(256);
  #wo = new Int32Array(256);
  #wWall = new Int32Array(256);
  #wedges = 0;

  /** Throws a RangeError naming the option when an option is out of range. */
  constructor(obstacles: ObstacleSet, options: Partial<ViewshedOptions> = {}) {
    this.obstacles = obstacles;
    const o = resolveOptions("viewshed sweep", VIEWSHED_OPTIONS, options);
    if (o.maxRangeM === 0 && o.bounds.length === 0) {
      throw new RangeError(
        "Cannot create viewshed sweep as 'bounds' must be given when 'maxRangeM' is 0 (no range limit): current value is []",
      );
    }
    if ((o.angularBins & (o.angularBins - 1)) !== 0) {
      throw new RangeError(
        `Cannot create viewshed sweep as 'angularBins' must be a power of two: current value is ${o.angularBins}`,
      );
    }
    this.options = o;
    this.#box = o.bounds.length === 4 ? o.bounds : null;
    this.#range = o.maxRangeM > 0 ? o.maxRangeM : Infinity;
    this.#bins = o.angularBins;
    this.#mask = o.angularBins - 1;
    this.#bound = new Float64Array(o.angularBins);
    this.#groupMax = new Float64Array(o.angularBins >> GROUP_BITS);
    this.#dirty = new Uint8Array(o.angularBins >> GROUP_BITS);
    this.#dirtyList = new Int32Array(o.angularBins >> GROUP_BITS);
    this.#toAngle = new Float64Array(o.angularBins);
    this.#toFar = new Float64Array(o.angularBins);
    this.#fromAngle = new Float64Array(o.angularBins);
    this.#fromFar = new Float64Array(o.angularBins);
    this.#edgeX = new Float64Array(o.angularBins);
    this.#edgeY = new Float64Array(o.angularBins);
    for (let e = 0; e < o.angularBins; e++) {
      const [ux, uy] = _diamondDirection((4 * e) / o.angularBins);
      this.#edgeX[e] = ux;
      this.#edgeY[e] = uy;
    }
  }

  /**
   * The viewshed from (`x`, `y`) (m). Polygons that contain the point are see-through for it (a
   * street node mapped under an arcade or a building passage sees out of it); walls through the
   * point itself are ignored.
   */
  compute(x: number, y: number): Viewshed {
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      throw new TypeError(
        `Cannot compute viewshed as the observer must be finite: got (${x}, ${y})`,
      );
    }
    this.#ox = x;
    this.#oy = y;
    this.#kept = 0;
    this.#bound.fill(this.#range);
    this.#groupMax.fill(this.#range);
    this.#dirty.fill(0);
    this.#dirtyCount = 0;
    this.#toAngle.fill(-1);
    this.#fromAngle.fill(5);
    this.#maxOpen = this.#range;
    this.#collectIgnored();
    const b = this.#box;
    if (b) {
      this.#consider(b[0], b[1], b[2], b[1], VIEWSHED_BOUNDS_OWNER);
      this.#consider(b[2], b[1], b[2], b[3], VIEWSHED_BOUNDS_OWNER);
      this.#consider(b[2], b[3], b[0], b[3], VIEWSHED_BOUNDS_OWNER);
      this.#consider(b[0], b[3], b[0], b[1], VIEWSHED_BOUNDS_OWNER);
      this.#refreshMaxOpen();
    }
    const d = this.obstacles.dynamic, on = this.obstacles.enabled;
    for (let s = 0; s < d.count; s++) {
      if (on[d.owner[s]] && !this.#ignored(d.owner[s])) {
        this.#consider(d.ax[s], d.ay[s], d.bx[s], d.by[s], d.owner[s]);
      }
    }
    this.#walkGrid();
    this.#clipKept();
    this.#sweep();
    return this.#result();
  }

  #collectIgnored(): void {
    let n = this.obstacles.polygonsContaining(this.#ox, this.#oy, this.#ignore);
    if (n > this.#ignore.length) {
      this.#ignore = new Int32Array(n * 2);
      n = this.obstacles.polygonsContaining(this.#ox, this.#oy, this.#ignore);
    }
    this.#ignoreCount = n;
  }

  #ignored(owner: number): boolean {
    for (let k = 0; k < this.#ignoreCount; k++) if (this.#ignore[k] === owner) return true;
    return false;
  }

  /** Notes that a bound of bin `b`'s group was lowered. */
  #markDirty(b: number): void {
    const g = b >> GROUP_BITS;
    if (this.#dirty[g]) return;
    this.#dirty[g] = 1;
    this.#dirtyList[this.#dirtyCount++] = g;
  }

  /** Recomputes the maxima of the groups whose bounds were lowered. */
  #refreshDirty(): void {
    const c = this.#bound, groups = this.#groupMax;
    for (let k = 0; k < this.#dirtyCount; k++) {
      const g = this.#dirtyList[k];
      let gm = 0;
      for (let i = g << GROUP_BITS, end = i + GROUP_MASK + 1; i < end; i++) {
        if (c[i] > gm) gm = c[i];
      }
      groups[g] = gm;
      this.#dirty[g] = 0;
    }
    this.#dirtyCount = 0;
  }

  /** Recomputes the largest bound, overall and per group of bins. */
  #refreshMaxOpen(): void {
    this.#dirty.fill(0);
    this.#dirtyCount = 0;
    let m = 0;
    const c = this.#bound, groups = this.#groupMax;
    for (let g = 0; g < groups.length; g++) {
      let gm = 0;
      for (let i = g << GROUP_BITS, end = i + GROUP_MASK + 1; i < end; i++) {
        if (c[i] > gm) gm = c[i];
      }
      groups[g] = gm;
      if (gm > m) m = gm;
    }
    this.#maxOpen = m;
  }

  /** Visits the wall grid in square rings of blocks outwards, keeping the walls that may show. */
  #walkGrid(): void {
    const set = this.obstacles, g = set.grid;
    if (g.cellItems.length === 0) return;
    const cell = g.activeCellSize, block = cell * BLOCK;
    const nbx = Math.ceil(g.cols / BLOCK), nby = Math.ceil(g.rows / BLOCK);
    const obx = Math.floor((this.#ox - g.originX) / block);
    const oby = Math.floor((this.#oy - g.originY) / block);
    const kMax = Math.max(obx, nbx - 1 - obx, oby, nby - 1 - oby);
    const stamp = set.nextStamp(), stamps = set.stamps;
    const base = set.base, rep = set.replaced, on = set.enabled;
    const start = g.cellStart, items = g.cellItems;
    for (let k = 0; k <= kMax; k++) {
      if ((k - 1) * block > this.#maxOpen) break;
      const yLo = oby - k, yHi = oby + k;
      for (let by = Math.max(0, yLo); by <= Math.min(nby - 1, yHi); by++) {
        const edgeRow = by === yLo || by === yHi;
        for (let bx = Math.max(0, obx - k); bx <= Math.min(nbx - 1, obx + k); bx++) {
          if (!edgeRow && bx !== obx - k && bx !== obx + k) {
            // Inside the ring: jump to its right side.
            if (obx + k > nbx - 1) break;
            bx = obx + k - 1;
            continue;
          }
          const bx0 = g.originX + bx * block - this.#ox, by0 = g.originY + by * block - this.#oy;
          this.#refreshDirty();
          if (!this.#open(bx0, by0, bx0 + block, by0 + block)) continue;
          const cx1 = Math.min(g.cols, (bx + 1) * BLOCK), cy1 = Math.min(g.rows, (by + 1) * BLOCK);
          for (let cy = by * BLOCK; cy < cy1; cy++) {
            for (let cx = bx * BLOCK; cx < cx1; cx++) {
              const c = cy * g.cols + cx;
              if (start[c] === start[c + 1]) continue;
              const cx0 = g.originX + cx * cell - this.#ox, cy0 = g.originY + cy * cell - this.#oy;
              if (this.#dirtyCount > 0) this.#refreshDirty();
              if (!this.#open(cx0, cy0, cx0 + cell, cy0 + cell)) continue;
              for (let i = start[c], end = start[c + 1]; i < end; i++) {
                const s = items[i];
                if (stamps[s] === stamp) continue;
                stamps[s] = stamp;
                const owner = base.owner[s];
                if (rep[s] || !on[owner] || (this.#ignoreCount > 0 && this.#ignored(owner))) {
                  continue;
                }
                this.#consider(base.ax[s], base.ay[s], base.bx[s], base.by[s], owner);
              }
            }
          }
        }
      }
      this.#refreshMaxOpen();
    }
  }

  /** May anything in the box [x0, x1] × [y0, y1] (m, relative to the observer) be seen? */
  #open(x0: number, y0: number, x1: number, y1: number): boolean {
    const nx = x0 > 0 ? x0 : x1 < 0 ? x1 : 0, ny = y0 > 0 ? y0 : y1 < 0 ? y1 : 0;
    if (nx === 0 && ny === 0) return true; // the observer's own box
    const dmin = Math.sqrt(nx * nx + ny * ny);
    if (dmin > this.#maxOpen) return false;
    // Exact direction span of the box: its corners' diamond angles, unwrapped across +x.
    const wraps = y0 < 0 && y1 > 0 && x1 > 0;
    let lo = 4, hi = 0;
    for (let k = 0; k < 4; k++) {
      const cx = k & 1 ? x1 : x0, cy = k & 2 ? y1 : y0;
      if (cx === 0 && cy === 0) continue;
      let p = _diamond(cx, cy);
      if (wraps && p >= 2) p -= 4;
      if (p < lo) lo = p;
      if (p > hi) hi = p;
    }
    const scale = this.#bins / 4;
    const b0 = Math.floor(lo * scale), b1 = Math.floor(hi * scale);
    const c = this.#bound, mask = this.#mask, groups = this.#groupMax;
    for (let b = b0; b <= b1; b++) {
      // Whole groups of bins whose (possibly stale, never too low) maximum is nearer: skip.
      if (
        (b & GROUP_MASK) === 0 && b + GROUP_MASK <= b1 && groups[(b & mask) >> GROUP_BITS] < dmin
      ) {
        b += GROUP_MASK;
        continue;
      }
      if (c[b & mask] >= dmin) return true;
    }
    return false;
  }

  /** Keeps the wall a–b (m) if it may be seen, and tightens the bins it spans. */
  #consider(ax: number, ay: number, bx: number, by: number, owner: number): void {
    let px = ax - this.#ox, py = ay - this.#oy, qx = bx - this.#ox, qy = by - this.#oy;
    let cr = px * qy - py * qx;
    if (cr === 0) return; // seen edge-on: covers no direction
    if (cr < 0) {
      let t = px;
      px = qx;
      qx = t;
      t = py;
      py = qy;
      qy = t;
      cr = -cr;
    }
    const ex = qx - px, ey = qy - py, len2 = ex * ex + ey * ey;
    const t = Math.min(1, Math.max(0, -(px * ex + py * ey) / len2));
    const mx = px + t * ex, my = py + t * ey;
    const dmin = Math.sqrt(mx * mx + my * my);
    if (dmin < TOUCH_M || dmin >= this.#range) return;
    const scale = this.#bins / 4, mask = this.#mask, c = this.#bound;
    const pa = _diamond(px, py), pb = _diamond(qx, qy);
    const ba = Math.min(mask, Math.floor(pa * scale)), bb = Math.min(mask, Math.floor(pb * scale));
    let visible = false;
    for (let b = ba;; b = (b + 1) & mask) {
      if (c[b] >= dmin - TOUCH_M) {
        visible = true;
        break;
      }
      if (b === bb) break;
    }
    if (!visible) return;
    this.#keep(px, py, qx, qy, owner);
    const dp = Math.sqrt(px * px + py * py), dq = Math.sqrt(qx * qx + qy * qy);
    if (ba === bb) {
      this.#coverInside(ba, pa, pb, dp > dq ? dp : dq);
      return;
    }
    // Bins strictly between the ends are covered fully: bound them by the wall's far distance.
    let e = (ba + 1) & mask;
    let tPrev = this.#edgeDistance(e, px, py, qx, qy, cr);
    this.#coverFrom(ba, pa, dp > tPrev ? dp : tPrev);
    while (e !== bb) {
      const e2 = (e + 1) & mask;
      const t2 = this.#edgeDistance(e2, px, py, qx, qy, cr);
      const far = tPrev > t2 ? tPrev : t2;
      if (far < c[e]) {
        c[e] = far;
        this.#markDirty(e);
      }
      tPrev = t2;
      e = e2;
    }
    this.#coverTo(bb, pb, dq > tPrev ? dq : tPrev);
  }

  /*
   * Partly covered bins. A bin cut by a corner is covered by two walls meeting there, neither of
   * them whole; each bin remembers the wall reaching farthest into it from its start edge
   * (`#toAngle`, up to a diamond angle) and from its end edge (`#fromAngle`), and is bounded once
   * the two meet. Walls inside one bin extend a chain that already touches them.
   */

  /** A wall covers bin `b` from its start edge to diamond angle `to`, within `far` (m). */
  #coverTo(b: number, to: number, far: number): void {
    if (to > this.#toAngle[b] || (to === this.#toAngle[b] && far < this.#toFar[b])) {
      this.#toAngle[b] = to;
      this.#toFar[b] = far;
      this.#closeBin(b);
    }
  }

  /** A wall covers bin `b` from diamond angle `from` to its end edge, within `far` (m). */
  #coverFrom(b: number, from: number, far: number): void {
    if (from < this.#fromAngle[b] || (from === this.#fromAngle[b] && far < this.#fromFar[b])) {
      this.#fromAngle[b] = from;
      this.#fromFar[b] = far;
      this.#closeBin(b);
    }
  }

  /** A wall lies inside bin `b`, from diamond angle `from` to `to`, within `far` (m). */
  #coverInside(b: number, from: number, to: number, far: number): void {
    if (from <= this.#toAngle[b] && to > this.#toAngle[b]) {
      this.#toAngle[b] = to;
      if (far > this.#toFar[b]) this.#toFar[b] = far;
    }
    if (to >= this.#fromAngle[b] && from < this.#fromAngle[b]) {
      this.#fromAngle[b] = from;
      if (far > this.#fromFar[b]) this.#fromFar[b] = far;
    }
    this.#closeBin(b);
  }

  #closeBin(b: number): void {
    if (this.#toAngle[b] >= this.#fromAngle[b]) {
      const far = this.#toFar[b] > this.#fromFar[b] ? this.#toFar[b] : this.#fromFar[b];
      if (far < this.#bound[b]) {
        this.#bound[b] = far;
        this.#markDirty(b);
      }
    }
  }

  /** Distance (m) along bin edge `e` to the wall p–q, or Infinity when the edge misses it. */
  #edgeDistance(e: number, px: number, py: number, qx: number, qy: number, cr: number): number {
    const ux = this.#edgeX[e], uy = this.#edgeY[e];
    if (px * uy - py * ux < 0 || ux * qy - uy * qx < 0) return Infinity;
    const denom = ux * (qy - py) - uy * (qx - px);
    return denom > 0 ? cr / denom : Infinity;
  }

  #keep(px: number, py: number, qx: number, qy: number, owner: number): void {
    if (this.#kept === this.#px.length) this.#growKept();
    const k = this.#kept++;
    this.#px[k] = px;
    this.#py[k] = py;
    this.#qx[k] = qx;
    this.#qy[k] = qy;
    this.#own[k] = owner;
  }

  #growKept(): void {
    const n = this.#px.length * 2;
    const f = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.#px = f(this.#px);
    this.#py = f(this.#py);
    this.#qx = f(this.#qx);
    this.#qy = f(this.#qy);
    this.#invLen = new Float64Array(n);
    const o = new Int32Array(n);
    o.set(this.#own);
    this.#own = o;
    this.#heap = new Int32Array(n);
    this.#heapPos = new Int32Array(n);
    this.#evAngle = new Float64Array(2 * n);
    this.#evWall = new Int32Array(2 * n);
  }

  /** Clips kept walls to the range circle and the bounds box; drops what is left edge-on. */
  #clipKept(): void {
    const R = this.#range, b = this.#box;
    const bx0 = b ? b[0] - this.#ox : -Infinity, by0 = b ? b[1] - this.#oy : -Infinity;
    const bx1 = b ? b[2] - this.#ox : Infinity, by1 = b ? b[3] - this.#oy : Infinity;
    let n = 0;
    for (let k = 0; k < this.#kept; k++) {
      let px = this.#px[k], py = this.#py[k], qx = this.#qx[k], qy = this.#qy[k];
      const ex = qx - px, ey = qy - py;
      let t0 = 0, t1 = 1;
      if (R < Infinity && (px * px + py * py > R * R || qx * qx + qy * qy > R * R)) {
        // |p + t e|² = R²
        const A = ex * ex + ey * ey, B = px * ex + py * ey, C = px * px + py * py - R * R;
        const disc = B * B - A * C;
        if (disc <= 0) continue;
        const sq = Math.sqrt(disc);
        t0 = Math.max(t0, (-B - sq) / A);
        t1 = Math.min(t1, (-B + sq) / A);
      }
      if (b) {
        // Liang–Barsky against the bounds box (the bounds walls themselves pass unchanged).
        const lim = [[-ex, px - bx0], [ex, bx1 - px], [-ey, py - by0], [ey, by1 - py]];
        for (const [pp, qq] of lim) {
          if (pp === 0) {
            if (qq < 0) t1 = -1;
          } else if (pp < 0) t0 = Math.max(t0, qq / pp);
          else t1 = Math.min(t1, qq / pp);
        }
      }
      if (!(t1 > t0)) continue;
      if (t0 > 0 || t1 < 1) {
        const nx = px + t0 * ex, ny = py + t0 * ey;
        qx = px + t1 * ex;
        qy = py + t1 * ey;
        px = nx;
        py = ny;
      }
      if (px * qy - py * qx <= 0) continue;
      this.#px[n] = px;
      this.#py[n] = py;
      this.#qx[n] = qx;
      this.#qy[n] = qy;
      this.#own[n] = this.#own[k];
      const lx = qx - px, ly = qy - py;
      this.#invLen[n] = 1 / Math.sqrt(lx * lx + ly * ly);
      n++;
    }
    this.#kept = n;
  }

  /** The rotational sweep over the kept walls, writing wedges. */
  #sweep(): void {
    this.#wedges = 0;
    this.#heapSize = 0;
    this.#heapPos.fill(-1, 0, this.#kept);
    let events = 0;
    const ang = this.#evAngle, wall = this.#evWall;
    for (let k = 0; k < this.#kept; k++) {
      const px = this.#px[k], py = this.#py[k], qx = this.#qx[k], qy = this.#qy[k];
      let ka = Math.atan2(py, px), kb = Math.atan2(qy, qx);
      if (ka < 0) ka += TWO_PI;
      if (kb < 0) kb += TWO_PI;
      const wraps = py < 0 && qy > 0;
      if (py < 0 && qy === 0 && qx > 0) kb = TWO_PI;
      if (!wraps && !(kb > ka)) continue;
      // Events: ~k = end of wall k, k = start; ends sort before starts at one angle.
      ang[events] = ka;
      wall[events++] = k;
      ang[events] = kb;
      wall[events++] = ~k;
      if (wraps) this.#heapPush(k);
    }
    const order = this.#sortEvents(events);
    let prev = 0, prevX = 1, prevY = 0;
    for (let i = 0; i < events;) {
      const a = ang[order[i]], w0 = wall[order[i]];
      const k0 = w0 < 0 ? ~w0 : w0;
      const dx = w0 < 0 ? this.#qx[k0] : this.#px[k0], dy = w0 < 0 ? this.#qy[k0] : this.#py[k0];
      if (a > prev) this.#emit(prev, a, prevX, prevY, dx, dy);
      for (; i < events && ang[order[i]] === a; i++) {
        const w = wall[order[i]];
        if (w < 0) this.#heapRemove(~w);
        else this.#heapPush(w);
      }
      prev = a;
      prevX = dx;
      prevY = dy;
    }
    if (prev < TWO_PI) this.#emit(prev, TWO_PI, prevX, prevY, 1, 0);
  }

  /**
   * Event indices in sweep order: by angle, ends before starts at one angle. A bucket sort by
   * angle, then insertion sort within each bucket (about one event per bucket).
   */
  #sortEvents(events: number): Int32Array {
    let buckets = 16;
    while (buckets < events) buckets *= 2;
    if (this.#bucketStart.length < buckets + 1) this.#bucketStart = new Int32Array(2 * buckets + 1);
    if (this.#evOrder.length < events) this.#evOrder = new Int32Array(this.#evAngle.length);
    const start = this.#bucketStart,
      order = this.#evOrder,
      ang = this.#evAngle,
      wall = this.#evWall;
    const scale = buckets / TWO_PI;
    start.fill(0, 0, buckets + 1);
    for (let i = 0; i < events; i++) {
      start[Math.min(buckets - 1, Math.floor(ang[i] * scale)) + 1]++;
    }
    for (let b = 0; b < buckets; b++) start[b + 1] += start[b];
    for (let i = 0; i < events; i++) {
      order[start[Math.min(buckets - 1, Math.floor(ang[i] * scale))]++] = i;
    }
    // start[b] is now the end of bucket b; sort each bucket by (angle, end before start).
    let lo = 0;
    for (let b = 0; b < buckets; b++) {
      const hi = start[b];
      for (let i = lo + 1; i < hi; i++) {
        const e = order[i], a = ang[e], w = wall[e];
        let j = i - 1;
        while (j >= lo && (ang[order[j]] > a || (ang[order[j]] === a && wall[order[j]] > w))) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = e;
      }
      lo = hi;
    }
    return order;
  }

  /** Writes the wedge [a, b] (rad) bounded by the front wall; (ux, uy), (vx, vy) point at a, b. */
  #emit(a: number, b: number, ux: number, uy: number, vx: number, vy: number): void {
    const k = this.#heapSize > 0 ? this.#heap[0] : -1;
    const n = this.#wedges;
    if (n > 0 && this.#wWall[n - 1] === k && k >= 0) {
      this.#a1[n - 1] = b;
      this.#r1[n - 1] = this.#rayDistance(k, vx, vy);
      return;
    }
    if (n === this.#a0.length) this.#growWedges();
    this.#a0[n] = a;
    this.#a1[n] = b;
    this.#wWall[n] = k;
    if (k < 0) {
      this.#r0[n] = this.#r1[n] = this.#range;
      this.#wo[n] = VIEWSHED_RANGE_OWNER;
    } else {
      this.#r0[n] = this.#rayDistance(k, ux, uy);
      this.#r1[n] = this.#rayDistance(k, vx, vy);
      this.#wo[n] = this.#own[k];
    }
    this.#wedges = n + 1;
  }

  /** Distance (m) along the direction (ux, uy) (any length) to the line of kept wall k. */
  #rayDistance(k: number, ux: number, uy: number): number {
    const px = this.#px[k], py = this.#py[k], qx = this.#qx[k], qy = this.#qy[k];
    const len = Math.sqrt(ux * ux + uy * uy);
    const denom = (ux * (qy - py) - uy * (qx - px)) / len;
    const r = (px * qy - py * qx) / denom;
    if (denom > 0 && r >= 0 && Number.isFinite(r)) return r;
    return Math.min(Math.sqrt(px * px + py * py), Math.sqrt(qx * qx + qy * qy));
  }

  #growWedges(): void {
    const n = this.#a0.length * 2;
    const f = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.#a0 = f(this.#a0);
    this.#a1 = f(this.#a1);
    this.#r0 = f(this.#r0);
    this.#r1 = f(this.#r1);
    const i = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.#wo = i(this.#wo);
    this.#wWall = i(this.#wWall);
  }

  #result(): Viewshed {
    const n = this.#wedges;
    return new Viewshed({
      x: this.#ox,
      y: this.#oy,
      rangeM: this.#range,
      count: n,
      angle0: this.#a0.slice(0, n),
      angle1: this.#a1.slice(0, n),
      r0: this.#r0.slice(0, n),
      r1: this.#r1.slice(0, n),
      owner: this.#wo.slice(0, n),
    });
  }

  /**
   * True when kept wall i is in front of kept wall j for the observer (at the origin), on any
   * ray that crosses both. Walls at most touch, so one of them lies wholly on one side of the
   * other's line.
   */
  #inFront(i: number, j: number): boolean {
    const pxi = this.#px[i], pyi = this.#py[i], exi = this.#qx[i] - pxi, eyi = this.#qy[i] - pyi;
    const li = this.#invLen[i];
    let o1 = (exi * (this.#py[j] - pyi) - eyi * (this.#px[j] - pxi)) * li;
    let o2 = (exi * (this.#qy[j] - pyi) - eyi * (this.#qx[j] - pxi)) * li;
    if (Math.abs(o1) < TOUCH_M) o1 = 0;
    if (Math.abs(o2) < TOUCH_M) o2 = 0;
    if ((o1 >= 0 && o2 >= 0) || (o1 <= 0 && o2 <= 0)) {
      const side = o1 + o2;
      if (side === 0) return false; // collinear: equally far
      const observer = eyi * pxi - exi * pyi; // side of the origin: e × (0 - p)
      return (observer > 0) !== (side > 0);
    }
    const pxj = this.#px[j], pyj = this.#py[j], exj = this.#qx[j] - pxj, eyj = this.#qy[j] - pyj;
    const lj = this.#invLen[j];
    let o3 = (exj * (pyi - pyj) - eyj * (pxi - pxj)) * lj;
    let o4 = (exj * (this.#qy[i] - pyj) - eyj * (this.#qx[i] - pxj)) * lj;
    if (Math.abs(o3) < TOUCH_M) o3 = 0;
    if (Math.abs(o4) < TOUCH_M) o4 = 0;
    const side = o3 + o4;
    const observer = eyj * pxj - exj * pyj;
    return (observer > 0) === (side > 0);
  }

  #heapPush(k: number): void {
    const h = this.#heap;
    const i = this.#heapSize++;
    h[i] = k;
    this.#heapPos[k] = i;
    this.#siftUp(i);
  }

  #heapRemove(k: number): void {
    const i = this.#heapPos[k];
    if (i < 0) return;
    this.#heapPos[k] = -1;
    const last = --this.#heapSize;
    if (i === last) return;
    const h = this.#heap;
    const moved = h[last];
    h[i] = moved;
    this.#heapPos[moved] = i;
    this.#siftUp(i);
    this.#siftDown(this.#heapPos[moved]);
  }

  #siftUp(i: number): void {
    const h = this.#heap, pos = this.#heapPos;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#inFront(h[i], h[parent])) break;
      const t = h[i];
      h[i] = h[parent];
      h[parent] = t;
      pos[h[i]] = i;
      pos[h[parent]] = parent;
      i = parent;
    }
  }

  #siftDown(i: number): void {
    const h = this.#heap, pos = this.#heapPos, n = this.#heapSize;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let best = i;
      if (l < n && this.#inFront(h[l], h[best])) best = l;
      if (r < n && this.#inFront(h[r], h[best])) best = r;
      if (best === i) return;
      const t = h[i];
      h[i] = h[best];
      h[best] = t;
      pos[h[i]] = i;
      pos[h[best]] = best;
      i = best;
    }
  }
}

/**
 * The viewshed from (`x`, `y`) (m) among `polygons` (m, polygons with holes), for one-off use;
 * build an {@linkcode ObstacleSet} and a {@linkcode ViewshedSweep} to compute many.
 *
 * @example
 * ```ts
 * import { computeViewshed } from "./viewshed_sweep.ts";
 * import assert from "node:assert/strict";
 * const v = computeViewshed(0, 0, [[[[2, -1], [3, -1], [3, 1], [2, 1]]]], { maxRangeM: 10 });
 * assert.equal(v.distanceAt(0), 2);
 * ```
 */
export function computeViewshed(
  x: number,
  y: number,
  polygons: readonly ObstaclePolygon[],
  options: Partial<ViewshedOptions> = {},
): Viewshed {
  return new ViewshedSweep(ObstacleSet.fromPolygons(polygons), options).compute(x, y);
}

/** Pseudo-angle in [0, 4) rising with the true angle (the "diamond angle"); no trigonometry. */
function _diamond(dx: number, dy: number): number {
  if (dy >= 0) return dx >= 0 ? dy / (dx + dy) : 1 - dx / (dy - dx);
  return dx < 0 ? 2 - dy / (-dx - dy) : 3 + dx / (dx - dy);
}

/** Unit direction of diamond angle `p` ∈ [0, 4). */
function _diamondDirection(p: number): [number, number] {
  let x: number, y: number;
  if (p < 1) [x, y] = [1 - p, p];
  else if (p < 2) [x, y] = [-(p - 1), 2 - p];
  else if (p < 3) [x, y] = [-(3 - p), -(p - 2)];
  else [x, y] = [p - 3, -(4 - p)];
  const len = Math.sqrt(x * x + y * y);
  return [x / len, y / len];
}

function _parseBounds(value: unknown): readonly number[] {
  if (Array.isArray(value) && value.length === 0) return [];
  if (
    !Array.isArray(value) || value.length !== 4 ||
    !value.every((v) => typeof v === "number" && Number.isFinite(v)) ||
    !(value[2] > value[0] && value[3] > value[1])
  ) {
    throw new Error(
      `expected [minX, minY, maxX, maxY] with finite numbers, min < max, or []: got ${
        JSON.stringify(value)
      }`,
    );
  }
  return value as readonly number[];
}

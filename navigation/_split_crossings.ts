/**
 * Splitting line segments where they properly cross (internal helper of the obstacle set).
 *
 * The rotational sweep of the viewshed orders the segments met by a ray by "which one is in
 * front", an order that only exists when no two segments cross. Footprints overlap in real maps
 * (a building part drawn over its building, two surveys of one block), so every proper crossing
 * is split once, at build time, into pieces that share the crossing point exactly. Touching
 * (T-junctions, shared walls, collinear overlaps) needs no split: the sweep's comparison treats
 * a point on a line as touching it.
 *
 * @module
 */

/** Segments as flat arrays (m) with the id of the polygon each belongs to. */
export interface SegmentArrays {
  /** Start x (m). */
  ax: Float64Array;
  /** Start y (m). */
  ay: Float64Array;
  /** End x (m). */
  bx: Float64Array;
  /** End y (m). */
  by: Float64Array;
  /** Owner polygon of each segment. */
  owner: Int32Array;
  /** Number of segments (the arrays may be longer). */
  count: number;
}

/** Distance (m) within which a point counts as lying on a line: touching, not crossing. */
export const TOUCH_TOLERANCE_M = 1e-9;

/**
 * Where segment `i` properly crosses segment `j` (both interiors, beyond the touch tolerance),
 * as the parameter along `i`; NaN when they do not.
 */
export function _crossingParameter(s: SegmentArrays, i: number, j: number): number {
  const ax = s.ax[i], ay = s.ay[i], ex = s.bx[i] - ax, ey = s.by[i] - ay;
  const cx = s.ax[j], cy = s.ay[j], fx = s.bx[j] - cx, fy = s.by[j] - cy;
  const lenE = Math.hypot(ex, ey), lenF = Math.hypot(fx, fy);
  if (lenE === 0 || lenF === 0) return NaN;
  // Signed distances of j's ends from i's line, and of i's ends from j's line.
  const d1 = (ex * (cy - ay) - ey * (cx - ax)) / lenE;
  const d2 = (ex * (s.by[j] - ay) - ey * (s.bx[j] - ax)) / lenE;
  if (
    !((d1 > TOUCH_TOLERANCE_M && d2 < -TOUCH_TOLERANCE_M) ||
      (d1 < -TOUCH_TOLERANCE_M && d2 > TOUCH_TOLERANCE_M))
  ) return NaN;
  const d3 = (fx * (ay - cy) - fy * (ax - cx)) / lenF;
  const d4 = (fx * (s.by[i] - cy) - fy * (s.bx[i] - cx)) / lenF;
  if (
    !((d3 > TOUCH_TOLERANCE_M && d4 < -TOUCH_TOLERANCE_M) ||
      (d3 < -TOUCH_TOLERANCE_M && d4 > TOUCH_TOLERANCE_M))
  ) return NaN;
  return d3 / (d3 - d4);
}

/**
 * Splits the segments at every proper crossing among the pairs `pairs` yields (each pair once
 * or more; duplicates are harmless). Returns new arrays; pieces keep their segment's owner and
 * direction, and the two segments of a crossing get the same crossing point.
 */
export function splitAtCrossings(
  s: SegmentArrays,
  forEachPair: (visit: (i: number, j: number) => void) => void,
): SegmentArrays {
  // Crossing points per segment, as a linked list over flat arrays.
  const head = new Int32Array(s.count).fill(-1);
  let next = new Int32Array(64), px = new Float64Array(64), py = new Float64Array(64);
  let points = 0;
  const add = (seg: number, x: number, y: number) => {
    if (points === next.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2);
        b.set(a);
        return b;
      };
      const n2 = new Int32Array(next.length * 2);
      n2.set(next);
      next = n2;
      px = grow(px);
      py = grow(py);
    }
    px[points] = x;
    py[points] = y;
    next[points] = head[seg];
    head[seg] = points++;
  };
  forEachPair((i, j) => {
    const t = _crossingParameter(s, i, j);
    if (Number.isNaN(t)) return;
    const x = s.ax[i] + t * (s.bx[i] - s.ax[i]), y = s.ay[i] + t * (s.by[i] - s.ay[i]);
    add(i, x, y);
    add(j, x, y);
  });
  if (points === 0) return s;
  const total = s.count + points;
  const out: SegmentArrays = {
    ax: new Float64Array(total),
    ay: new Float64Array(total),
    bx: new Float64Array(total),
    by: new Float64Array(total),
    owner: new Int32Array(total),
    count: 0,
  };
  const ts: number[] = [], xs: number[] = [], ys: number[] = [], order: number[] = [];
  for (let i = 0; i < s.count; i++) {
    const ax = s.ax[i], ay = s.ay[i], bx = s.bx[i], by = s.by[i];
    if (head[i] < 0) {
      _push(out, ax, ay, bx, by, s.owner[i]);
      continue;
    }
    ts.length =
      xs.length =
      ys.length =
      order.length =
        0;
    const ex = bx - ax, ey = by - ay, len2 = ex * ex + ey * ey;
    for (let k = head[i]; k >= 0; k = next[k]) {
      order.push(ts.length);
      ts.push(((px[k] - ax) * ex + (py[k] - ay) * ey) / len2);
      xs.push(px[k]);
      ys.push(py[k]);
    }
    order.sort((a, b) => ts[a] - ts[b]);
    let x0 = ax, y0 = ay;
    for (const k of order) {
      if (xs[k] === x0 && ys[k] === y0) continue; // the same crossing found twice
      _push(out, x0, y0, xs[k], ys[k], s.owner[i]);
      x0 = xs[k];
      y0 = ys[k];
    }
    _push(out, x0, y0, bx, by, s.owner[i]);
  }
  return out;
}

function _push(
  out: SegmentArrays,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  owner: number,
): void {
  if (ax === bx && ay === by) return;
  const n = out.count++;
  out.ax[n] = ax;
  out.ay[n] = ay;
  out.bx[n] = bx;
  out.by[n] = by;
  out.owner[n] = owner;
}

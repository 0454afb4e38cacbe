/**
 * Pedestrians as obstacles along links: each step, every pedestrian on or about to step onto a
 * lane or connector is entered on that link at the distance along it where a car would have to
 * stop, so a car finds the first pedestrian on its path with a scan of the links ahead.
 *
 * A pedestrian counts on a link when its centre, now or `lookahead` seconds ahead at its current
 * velocity, is closer to the link's centre line than half a car's width plus its radius plus a
 * margin. Pedestrians clear of every link — most of those on sidewalks — are skipped with a few
 * lookups in the link segments' clearance map ({@linkcode SegmentGrid.isClear}, kept up to a
 * few metres), so a city of pedestrians costs little more than a loop over them; the others are
 * matched against the link segments near them.
 *
 * In a tight turn a car's body cuts inside its path: the chord from its rear to its front runs
 * up to the curve's sagitta inside the centre line. On that inner side of a connector the
 * reach grows by that much (`sweep`), so a car also stops for people its body would brush while
 * turning, such as those waiting at the kerb of the corner it turns round.
 *
 * @module
 */
import { SEGMENT_GRID_MAX_CLEARANCE_CAP, SegmentGrid } from "../core/segment_grid.ts";
import type { LaneNetwork } from "./lane_network.ts";

/**
 * The pedestrian columns a car system reads (an `AgentStore` is one): positions (m), velocities
 * (m/s) and body radii (m) of pedestrians `0 … count-1`.
 */
export interface PedestrianView {
  /** Number of pedestrians. */
  readonly count: number;
  /** Position x (m). */
  readonly px: Float64Array;
  /** Position y (m). */
  readonly py: Float64Array;
  /** Velocity x (m/s). */
  readonly vx: Float64Array;
  /** Velocity y (m/s). */
  readonly vy: Float64Array;
  /** Body radius (m). */
  readonly radius: Float64Array;
}

/** Cell size (m) of the grid over link segments. */
const CELL = 4;
/**
 * The segment grid's clearance map tells pedestrians clear of every link up to this far beyond
 * the corridor's half width (m).
 */
const CLEAR_REACH = 4;

/** Per-link lists of pedestrian stopping points, rebuilt each step. */
export class PedestrianObstacles {
  /** Obstacles of link `k`: `s[start[k] … start[k+1]-1]`, ascending. */
  readonly start: Int32Array;
  /** Distance along the link (m) where the nearest pedestrian body begins. */
  s: Float64Array = new Float64Array(256);
  /** Number of obstacles entered in the last rebuild. */
  count = 0;

  readonly #network: LaneNetwork;
  readonly #grid: SegmentGrid;
  /** The segments of the links a car's body cuts inside (null when none does). */
  readonly #sweepGrid: SegmentGrid | null;
  /** Segment (of the main grid) of each segment of `#sweepGrid`. */
  readonly #sweepSegment: Int32Array;
  readonly #segLink: Int32Array;
  readonly #segFirst: Int32Array;
  readonly #halfWidth: number;
  readonly #lookahead: number;
  /** How far (m) a car's body cuts inside each link's centre line; 0 for straight ones. */
  readonly #sweep: Float64Array;
  /** Side of that cut: 1 left of the direction of travel, -1 right, 0 none. */
  readonly #inner: Int8Array;
  /** Largest `#sweep` (m). */
  readonly #maxSweep: number;
  #found = new Uint32Array(64);
  #scratch = new Uint32Array(64);
  #link = new Int32Array(256);
  #raw = new Float64Array(256);
  readonly #cursor: Int32Array;

  /**
   * @param network the links
   * @param halfWidth half a car's width plus the lateral margin (m)
   * @param lookahead how far ahead pedestrians' positions are predicted (s)
   * @param carLength length of the cars (m), for how far their bodies cut inside a turn
   */
  constructor(network: LaneNetwork, halfWidth: number, lookahead: number, carLength = 0) {
    this.#network = network;
    this.#halfWidth = halfWidth;
    this.#lookahead = lookahead;
    this.#sweep = new Float64Array(network.linkCount);
    this.#inner = new Int8Array(network.linkCount);
    let maxSweep = 0;
    for (let k = network.laneCount; k < network.linkCount && carLength > 0; k++) {
      const cut = _innerCut(network, k, carLength);
      this.#sweep[k] = Math.abs(cut);
      this.#inner[k] = cut > 0 ? 1 : cut < 0 ? -1 : 0;
      maxSweep = Math.max(maxSweep, Math.abs(cut));
    }
    this.#maxSweep = maxSweep;
    this.#grid = new SegmentGrid(
      CELL,
      Math.min(halfWidth + CLEAR_REACH, SEGMENT_GRID_MAX_CLEARANCE_CAP),
    );
    this.start = new Int32Array(network.linkCount + 1);
    this.#cursor = new Int32Array(network.linkCount + 1);
    let segments = 0;
    for (let k = 0; k < network.linkCount; k++) {
      segments += network.pointStart[k + 1] - network.pointStart[k] - 1;
    }
    const ax = new Float64Array(segments), ay = new Float64Array(segments);
    const bx = new Float64Array(segments), by = new Float64Array(segments);
    this.#segLink = new Int32Array(segments);
    this.#segFirst = new Int32Array(segments);
    let n = 0;
    for (let k = 0; k < network.linkCount; k++) {
      for (let p = network.pointStart[k]; p < network.pointStart[k + 1] - 1; p++) {
        ax[n] = network.px[p];
        ay[n] = network.py[p];
        bx[n] = network.px[p + 1];
        by[n] = network.py[p + 1];
        this.#segLink[n] = k;
        this.#segFirst[n++] = p;
      }
    }
    this.#grid.build(ax, ay, bx, by, n);
    // A second map over the turns alone tells who is clear of their wider reach: near a
    // junction only, so the others keep their one look-up.
    let swept = 0;
    for (let q = 0; q < n; q++) if (this.#sweep[this.#segLink[q]] > 0) swept++;
    this.#sweepSegment = new Int32Array(swept);
    if (swept === 0) {
      this.#sweepGrid = null;
    } else {
      const sx0 = new Float64Array(swept), sy0 = new Float64Array(swept);
      const sx1 = new Float64Array(swept), sy1 = new Float64Array(swept);
      let m = 0;
      for (let q = 0; q < n; q++) {
        if (!(this.#sweep[this.#segLink[q]] > 0)) continue;
        this.#sweepSegment[m] = q;
        sx0[m] = ax[q];
        sy0[m] = ay[q];
        sx1[m] = bx[q];
        sy1[m++] = by[q];
      }
      this.#sweepGrid = new SegmentGrid(
        CELL,
        Math.min(halfWidth + maxSweep + CLEAR_REACH, SEGMENT_GRID_MAX_CLEARANCE_CAP),
      );
      this.#sweepGrid.build(sx0, sy0, sx1, sy1, m);
    }
  }

  /** Rebuilds the lists from the pedestrians' current positions and velocities. */
  rebuild(pedestrians: PedestrianView): void {
    const net = this.#network, g = this.#grid;
    const px = pedestrians.px, py = pedestrians.py, vx = pedestrians.vx, vy = pedestrians.vy;
    const radius = pedestrians.radius, tau = this.#lookahead, half = this.#halfWidth;
    const maxSweep = this.#maxSweep, sweeps = this.#sweepGrid;
    let n = 0;
    for (let i = 0; i < pedestrians.count; i++) {
      const x0 = px[i], y0 = py[i], dx = vx[i] * tau, dy = vy[i] * tau;
      const reach = half + radius[i], move = Math.sqrt(dx * dx + dy * dy);
      const widest = reach + maxSweep;
      // Clear of every link by more than the reach plus the way it walks in `lookahead`, and of
      // the turns by their widest reach: both points are off every car's path. Two look-ups
      // settle most pedestrians.
      const x1 = x0 + dx, y1 = y0 + dy;
      if (
        (g.isClear(x0, y0, reach + move) ||
          (g.isClear(x0, y0, reach) && g.isClear(x1, y1, reach))) &&
        (sweeps === null || sweeps.isClear(x0, y0, widest + move) ||
          (sweeps.isClear(x0, y0, widest) && sweeps.isClear(x1, y1, widest)))
      ) continue;
      const mx = 0.5 * (x0 + x1), my = 0.5 * (y0 + y1);
      // Every segment within the reach, then those of turns within their widest reach.
      let found = this.#query(g, mx, my, reach + 0.5 * move, 0);
      if (sweeps !== null) found = this.#query(sweeps, mx, my, widest + 0.5 * move, found);
      for (let f = 0; f < found; f++) {
        const seg = this.#found[f], p = this.#segFirst[seg], link = this.#segLink[seg];
        const along = this.#stopPoint(
          p,
          x0,
          y0,
          x1,
          y1,
          reach,
          this.#sweep[link],
          this.#inner[link],
        );
        if (along === Infinity) continue;
        if (n === this.#link.length) this.#grow();
        this.#link[n] = this.#segLink[seg];
        this.#raw[n++] = along - radius[i];
      }
    }
    this.count = n;
    // Counting sort by link, then insertion sort by distance within each link.
    const start = this.start, cursor = this.#cursor;
    start.fill(0);
    for (let k = 0; k < n; k++) start[this.#link[k] + 1]++;
    for (let k = 0; k < net.linkCount; k++) start[k + 1] += start[k];
    cursor.set(start);
    if (this.s.length < n) this.s = new Float64Array(this.#raw.length);
    const s = this.s;
    for (let k = 0; k < n; k++) s[cursor[this.#link[k]]++] = this.#raw[k];
    for (let k = 0; k < net.linkCount; k++) {
      for (let a = start[k] + 1; a < start[k + 1]; a++) {
        const v = s[a];
        let b = a - 1;
        while (b >= start[k] && s[b] > v) {
          s[b + 1] = s[b];
          b--;
        }
        s[b + 1] = v;
      }
    }
  }

  /**
   * First obstacle on `link` at or beyond `from` (m), or Infinity. Lists are short (the people
   * on one crosswalk), so this is a linear scan.
   */
  firstFrom(link: number, from: number): number {
    const s = this.s;
    for (let k = this.start[link]; k < this.start[link + 1]; k++) if (s[k] >= from) return s[k];
    return Infinity;
  }

  /**
   * Appends to `#found`, after its first `from` entries, the segments of `grid` within `radius`
   * of (x, y) as main-grid segments (those of the turns' grid mapped back; on the main grid, the
   * turns' own segments are left to that grid); returns the new count.
   */
  #query(grid: SegmentGrid, x: number, y: number, radius: number, from: number): number {
    const turns = grid !== this.#grid;
    let found = grid.queryRadius(x, y, radius, this.#scratch);
    if (found > this.#scratch.length) {
      this.#scratch = new Uint32Array(2 * found);
      found = grid.queryRadius(x, y, radius, this.#scratch);
    }
    if (this.#found.length < from + found) {
      const grown = new Uint32Array(2 * (from + found));
      grown.set(this.#found.subarray(0, from));
      this.#found = grown;
    }
    let n = from;
    for (let k = 0; k < found; k++) {
      const seg = turns ? this.#sweepSegment[this.#scratch[k]] : this.#scratch[k];
      if (!turns && this.#sweep[this.#segLink[seg]] > 0) continue;
      this.#found[n++] = seg;
    }
    return n;
  }

  /**
   * Distance along the segment starting at polyline point `p` (as arc length of its link) of
   * the first of the two positions (now, predicted) within `reach` of it, or `reach + sweep`
   * on the `inner` side (1 left, -1 right); Infinity if neither.
   */
  #stopPoint(
    p: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    reach: number,
    sweep: number,
    inner: number,
  ): number {
    const net = this.#network;
    const ax = net.px[p], ay = net.py[p], ex = net.px[p + 1] - ax, ey = net.py[p + 1] - ay;
    const len2 = ex * ex + ey * ey;
    if (len2 === 0) return Infinity;
    let best = Infinity;
    for (let k = 0; k < 2; k++) {
      const x = k === 0 ? x0 : x1, y = k === 0 ? y0 : y1;
      let t = ((x - ax) * ex + (y - ay) * ey) / len2;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const dx = ax + t * ex - x, dy = ay + t * ey - y;
      // On the inner side of a turn (left: ex·(y − ay) − ey·(x − ax) > 0) the body reaches further.
      const side = ex * (y - ay) - ey * (x - ax);
      const r = inner !== 0 && side * inner > 0 ? reach + sweep : reach;
      if (dx * dx + dy * dy <= r * r) best = Math.min(best, net.arc[p] + t * Math.sqrt(len2));
    }
    return best;
  }

  #grow(): void {
    const link = new Int32Array(2 * this.#link.length),
      raw = new Float64Array(2 * this.#raw.length);
    link.set(this.#link);
    raw.set(this.#raw);
    this.#link = link;
    this.#raw = raw;
  }
}

/**
 * How far (m) the body of a car `length` m long cuts inside connector `link`'s centre line, with
 * its sign: > 0 on the left of the direction of travel, < 0 on the right. The front runs along
 * the connector and on straight along its exit for a car length; the rear a car length behind
 * it, straight back along the entry before the connector; the cut is the largest distance of
 * the path between them from the chord joining them (the sagitta), on the side the path bends.
 */
function _innerCut(network: LaneNetwork, link: number, length: number): number {
  const total = network.length[link];
  if (!(total > 0)) return 0;
  // The point at arc length u, straight on along the end tangents beyond the link.
  const at = (u: number, out: Float64Array) => {
    const on = u < 0 ? 0 : u > total ? total : u;
    network.pointAt(link, on, out);
    out[0] += out[2] * (u - on);
    out[1] += out[3] * (u - on);
  };
  const front = new Float64Array(4), rear = new Float64Array(4), q = new Float64Array(4);
  const step = 0.25;
  let cut = 0;
  for (let uf = 0; uf <= total + length + 1e-9; uf += step) {
    at(uf, front);
    at(uf - length, rear);
    const cx = front[0] - rear[0], cy = front[1] - rear[1], chord = Math.hypot(cx, cy);
    if (chord < 1e-9) continue;
    for (let u = uf - length + step; u < uf; u += step) {
      at(u, q);
      // > 0: the path lies left of the chord, so the chord (and the body) cuts inside on the
      // right; the cut's sign is the side of the body's excess.
      const off = (cx * (q[1] - rear[1]) - cy * (q[0] - rear[0])) / chord;
      if (Math.abs(off) > Math.abs(cut)) cut = -off;
    }
  }
  return cut;
}

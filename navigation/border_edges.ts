/**
 * Border edges of a triangle mesh (Aleksandrov, Heslop and Zlatanova 2021, section 3.3): the edges used by exactly one
 * triangle, chained into rings and polylines, with connected edges that are in line within
 * 3° merged into one segment. They are the obstacle segments strategies see.
 *
 * Meshes built from tiles (Unity, Recast) have T-junctions where tiles meet: a long edge on one
 * side, two shorter ones on the other, each "used once" although they lie inside the walkable
 * area. Such edges are split at the vertices lying on them before counting, so tile seams do not
 * become borders.
 *
 * @module
 */
import { weldPoints } from "./_weld.ts";
import { SegmentSplitter } from "./_segment_splitter.ts";

/** Options of {@linkcode extractBorderEdges}. */
export interface BorderEdgeOptions {
  /** Vertices closer than this are merged first (m). @default 0.001 */
  weldTolerance?: number;
  /**
   * Connected edges whose directions differ by at most this angle (degrees) are merged; Aleksandrov et al.
   * (2021) use 3°. 0 merges only exactly collinear edges. @default 3
   */
  mergeAngleDeg?: number;
}

/** One chain of border segments. */
export interface BorderChain {
  /** First segment index. */
  readonly start: number;
  /** One past the last segment index. */
  readonly end: number;
  /** True when the chain is a closed ring. */
  readonly closed: boolean;
  /**
   * Signed area (m²) of a closed ring: positive for an outer boundary (walkable inside), negative
   * around a hole (walkable outside); 0 for open chains. Segments run with the walkable side on
   * their left.
   */
  readonly area: number;
}

/** Merged border segments, with the walkable area on the left of each (a → b). */
export interface BorderEdges {
  /** Number of merged segments. */
  readonly count: number;
  /** Segment start x (m). */
  readonly ax: Float64Array;
  /** Segment start y (m). */
  readonly ay: Float64Array;
  /** Segment end x (m). */
  readonly bx: Float64Array;
  /** Segment end y (m). */
  readonly by: Float64Array;
  /** Chains of consecutive segments. */
  readonly chains: readonly BorderChain[];
  /** Number of border edges before merging. */
  readonly unmergedCount: number;
}

/**
 * Extracts and merges the border edges of a triangle mesh given as coordinates
 * (`[x0, y0, x1, y1, …]`, m) and vertex indices (three per triangle, either orientation).
 *
 * @example A square made of two triangles, one edge split by a T-junction
 * ```ts
 * import { extractBorderEdges } from "./border_edges.ts";
 * import assert from "node:assert/strict";
 * const coords = [0, 0, 2, 0, 2, 2, 0, 2, 1, 0];
 * const triangles = [0, 4, 3, 4, 1, 3, 1, 2, 3];
 * const border = extractBorderEdges(coords, triangles);
 * assert.equal(border.unmergedCount, 5);
 * assert.equal(border.count, 4); // (0,0)–(1,0)–(2,0) merged
 * ```
 */
export function extractBorderEdges(
  coords: ArrayLike<number>,
  triangles: ArrayLike<number>,
  options: BorderEdgeOptions = {},
): BorderEdges {
  const weldTolerance = options.weldTolerance ?? 0.001;
  const mergeAngleDeg = options.mergeAngleDeg ?? 3;
  if (!(weldTolerance >= 0) || !Number.isFinite(weldTolerance)) {
    throw new RangeError(
      `Cannot extract border edges as 'weldTolerance' must be a finite number >= 0: current value is ${weldTolerance}`,
    );
  }
  if (!(mergeAngleDeg >= 0 && mergeAngleDeg < 90)) {
    throw new RangeError(
      `Cannot extract border edges as 'mergeAngleDeg' must be in [0, 90): current value is ${mergeAngleDeg}`,
    );
  }
  if (triangles.length % 3 !== 0) {
    throw new RangeError(
      `Cannot extract border edges as 'triangles' length ${triangles.length} is not a multiple of 3`,
    );
  }
  const xy = Float64Array.from(coords);
  const n = xy.length >> 1;
  const ids = weldPoints(xy, weldTolerance);
  const key = (a: number, b: number): number => a < b ? a * n + b : b * n + a;

  // Directed edges with the triangle on their left; count undirected uses.
  const uses = new EdgeCounter(triangles.length);
  const directed: number[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    const a = ids[triangles[t]];
    let b = ids[triangles[t + 1]], c = ids[triangles[t + 2]];
    if (a === b || b === c || c === a) continue;
    const cross = (xy[2 * b] - xy[2 * a]) * (xy[2 * c + 1] - xy[2 * a + 1]) -
      (xy[2 * b + 1] - xy[2 * a + 1]) * (xy[2 * c] - xy[2 * a]);
    if (cross === 0) continue;
    if (cross < 0) [b, c] = [c, b];
    directed.push(a, b, b, c, c, a);
    uses.add(key(a, b));
    uses.add(key(b, c));
    uses.add(key(c, a));
  }
  // Edges used once, split at vertices lying on them (tile seams), counted again.
  const splitter = new SegmentSplitter(xy, n, Math.max(weldTolerance, 1e-9));
  const pieces: number[] = [];
  for (let e = 0; e < directed.length; e += 2) {
    const p = directed[e], q = directed[e + 1];
    if (uses.get(key(p, q)) !== 1) continue;
    let prev = p;
    for (const v of splitter.pointsOn(p, q)) {
      pieces.push(prev, v);
      prev = v;
    }
    pieces.push(prev, q);
  }
  const pieceUses = new EdgeCounter(pieces.length / 2);
  for (let e = 0; e < pieces.length; e += 2) pieceUses.add(key(pieces[e], pieces[e + 1]));
  const from: number[] = [], to: number[] = [];
  for (let e = 0; e < pieces.length; e += 2) {
    if (pieceUses.get(key(pieces[e], pieces[e + 1])) === 1) {
      from.push(pieces[e]);
      to.push(pieces[e + 1]);
    }
  }
  const chains = chainEdges(from, to);
  return mergeChains(xy, chains, (mergeAngleDeg * Math.PI) / 180, from.length);
}

/** Chains directed edges end to start; returns vertex sequences (closed ones repeat no point). */
function chainEdges(from: number[], to: number[]): { points: number[]; closed: boolean }[] {
  const out = new Map<number, number[]>();
  const incoming = new Map<number, number>();
  from.forEach((v, e) => {
    const list = out.get(v);
    if (list) list.push(e);
    else out.set(v, [e]);
    incoming.set(to[e], (incoming.get(to[e]) ?? 0) + 1);
  });
  const used = new Uint8Array(from.length);
  const chains: { points: number[]; closed: boolean }[] = [];
  const follow = (first: number): void => {
    const points = [from[first]];
    let e = first;
    for (;;) {
      used[e] = 1;
      const v = to[e];
      if (v === points[0]) {
        chains.push({ points, closed: true });
        return;
      }
      points.push(v);
      const next = (out.get(v) ?? []).find((f) => !used[f]);
      if (next === undefined) {
        chains.push({ points, closed: false });
        return;
      }
      e = next;
    }
  };
  // Open chains first, from vertices nothing leads into.
  for (let e = 0; e < from.length; e++) if (!used[e] && !incoming.has(from[e])) follow(e);
  for (let e = 0; e < from.length; e++) if (!used[e]) follow(e);
  return chains;
}

function mergeChains(
  xy: Float64Array,
  chains: { points: number[]; closed: boolean }[],
  tolerance: number,
  unmergedCount: number,
): BorderEdges {
  const ax: number[] = [], ay: number[] = [], bx: number[] = [], by: number[] = [];
  const result: BorderChain[] = [];
  const angleBetween = (ux: number, uy: number, vx: number, vy: number): number =>
    Math.abs(Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy));
  for (const chain of chains) {
    let pts = chain.points;
    if (chain.closed) {
      // Start at a real corner so a straight run is not cut where the ring happens to begin.
      const m = pts.length;
      let startAt = 0;
      for (let i = 0; i < m; i++) {
        const p = pts[(i + m - 1) % m], q = pts[i], r = pts[(i + 1) % m];
        const turn = angleBetween(
          xy[2 * q] - xy[2 * p],
          xy[2 * q + 1] - xy[2 * p + 1],
          xy[2 * r] - xy[2 * q],
          xy[2 * r + 1] - xy[2 * q + 1],
        );
        if (turn > tolerance) {
          startAt = i;
          break;
        }
      }
      pts = [...pts.slice(startAt), ...pts.slice(0, startAt), pts[startAt]];
    }
    const first = ax.length;
    let anchor = pts[0], last = pts[1];
    for (let i = 2; i < pts.length; i++) {
      const q = pts[i];
      const sx = xy[2 * last] - xy[2 * anchor], sy = xy[2 * last + 1] - xy[2 * anchor + 1];
      const ex = xy[2 * q] - xy[2 * last], ey = xy[2 * q + 1] - xy[2 * last + 1];
      if (angleBetween(sx, sy, ex, ey) <= tolerance) {
        last = q;
        continue;
      }
      ax.push(xy[2 * anchor]);
      ay.push(xy[2 * anchor + 1]);
      bx.push(xy[2 * last]);
      by.push(xy[2 * last + 1]);
      anchor = last;
      last = q;
    }
    ax.push(xy[2 * anchor]);
    ay.push(xy[2 * anchor + 1]);
    bx.push(xy[2 * last]);
    by.push(xy[2 * last + 1]);
    let area = 0;
    if (chain.closed) {
      for (let s = first; s < ax.length; s++) area += ax[s] * by[s] - bx[s] * ay[s];
      area /= 2;
    }
    result.push({ start: first, end: ax.length, closed: chain.closed, area });
  }
  return {
    count: ax.length,
    ax: Float64Array.from(ax),
    ay: Float64Array.from(ay),
    bx: Float64Array.from(bx),
    by: Float64Array.from(by),
    chains: result,
    unmergedCount,
  };
}

/** Counts of numeric edge keys in an open-addressing table (at most `capacity` distinct keys). */
class EdgeCounter {
  #keys: Float64Array;
  #counts: Int32Array;
  #mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < 2 * capacity) size *= 2;
    this.#keys = new Float64Array(size);
    this.#counts = new Int32Array(size);
    this.#mask = size - 1;
  }

  #slot(key: number): number {
    const lo = key % 4294967296, hi = (key - lo) / 4294967296;
    let h = (Math.imul(lo | 0, 0x9e3779b1) ^ Math.imul(hi | 0, 0x85ebca6b)) >>> 0;
    h ^= h >>> 15;
    const keys = this.#keys, counts = this.#counts, mask = this.#mask;
    for (let s = h & mask;; s = (s + 1) & mask) {
      if (counts[s] === 0 || keys[s] === key) return s;
    }
  }

  /** Counts one more use of `key`. */
  add(key: number): void {
    const s = this.#slot(key);
    this.#keys[s] = key;
    this.#counts[s]++;
  }

  /** Uses of `key` (0 when never added). */
  get(key: number): number {
    return this.#counts[this.#slot(key)];
  }
}

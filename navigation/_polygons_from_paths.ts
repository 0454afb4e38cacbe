/**
 * Polygons with holes from the flat output of a Clipper2 boolean operation (outer rings of
 * positive area, holes of negative area): each hole goes to the smallest outer ring around
 * it. Clipper's own polygon tree finds the same owners but tests every ring against every
 * candidate vertex by vertex, which dominates a city-wide union; here a box test picks the few
 * candidates first. Build-time only.
 *
 * @module
 */
import { areaD, type PathD, type PathsD } from "npm:clipper2-ts@2.0.1";
import type { Point } from "../core/geometry.ts";
import type { PolygonWithHoles } from "./walkable_area.ts";

/**
 * Groups the rings of `paths` into polygons: outer rings counter-clockwise, then their holes
 * clockwise, in the order of the outer rings in `paths`.
 */
export function polygonsFromPaths(paths: PathsD): PolygonWithHoles[] {
  const n = paths.length;
  const area = new Float64Array(n);
  const box = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    area[i] = areaD(paths[i]);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const p of paths[i]) {
      if (p.x < x0) x0 = p.x;
      if (p.x > x1) x1 = p.x;
      if (p.y < y0) y0 = p.y;
      if (p.y > y1) y1 = p.y;
    }
    box.set([x0, y0, x1, y1], 4 * i);
  }
  const outers: number[] = [];
  for (let i = 0; i < n; i++) if (area[i] > 0) outers.push(i);
  // Smallest first, so the first outer ring around a hole is its owner.
  const bySize = [...outers].sort((a, b) => area[a] - area[b]);
  const holes = new Map<number, number[]>();
  const index = new Map<number, RingIndex>();
  const ringAround = (o: number, inner: PathD): boolean => {
    let ring = index.get(o);
    if (!ring) index.set(o, ring = new RingIndex(paths[o]));
    // Most of three vertices (first, a third and two thirds along) inside: one vertex touching
    // the outer ring does not decide it.
    const m = inner.length;
    let votes = 0;
    for (const k of [0, Math.floor(m / 3), Math.floor((2 * m) / 3)]) {
      if (ring.contains(inner[k].x, inner[k].y)) votes++;
    }
    return votes >= 2;
  };
  for (let h = 0; h < n; h++) {
    if (!(area[h] < 0)) continue;
    const owner = bySize.find((o) =>
      box[4 * o] <= box[4 * h] && box[4 * o + 1] <= box[4 * h + 1] &&
      box[4 * o + 2] >= box[4 * h + 2] && box[4 * o + 3] >= box[4 * h + 3] &&
      -area[h] <= area[o] && ringAround(o, paths[h])
    );
    if (owner === undefined) continue; // cannot happen for Clipper output; dropped if it does
    const list = holes.get(owner);
    if (list) list.push(h);
    else holes.set(owner, [h]);
  }
  return outers.map((o) => [
    ring(paths[o], true),
    ...(holes.get(o) ?? []).map((h) => ring(paths[h], false)),
  ]);
}

/** Even-odd point-in-ring tests against one ring, its edges bucketed by height. */
class RingIndex {
  #xy: Float64Array;
  #y0: number;
  #step: number;
  #start: Int32Array;
  #edges: Int32Array;

  constructor(path: PathD) {
    const n = path.length;
    this.#xy = new Float64Array(2 * n);
    let y0 = Infinity, y1 = -Infinity;
    path.forEach((p, i) => {
      this.#xy[2 * i] = p.x;
      this.#xy[2 * i + 1] = p.y;
      y0 = Math.min(y0, p.y);
      y1 = Math.max(y1, p.y);
    });
    const buckets = Math.max(1, Math.ceil(Math.sqrt(n)));
    this.#y0 = y0;
    this.#step = (y1 - y0) / buckets || 1;
    const count = new Int32Array(buckets + 1);
    const range = (i: number): [number, number] => {
      const j = i === 0 ? n - 1 : i - 1;
      const a = this.#xy[2 * i + 1], b = this.#xy[2 * j + 1];
      return [this.#bucket(Math.min(a, b), buckets), this.#bucket(Math.max(a, b), buckets)];
    };
    for (let i = 0; i < n; i++) {
      const [lo, hi] = range(i);
      for (let k = lo; k <= hi; k++) count[k + 1]++;
    }
    for (let k = 0; k < buckets; k++) count[k + 1] += count[k];
    this.#start = count.slice();
    this.#edges = new Int32Array(count[buckets]);
    for (let i = 0; i < n; i++) {
      const [lo, hi] = range(i);
      for (let k = lo; k <= hi; k++) this.#edges[count[k]++] = i;
    }
  }

  #bucket(y: number, buckets: number): number {
    return Math.min(buckets - 1, Math.max(0, Math.floor((y - this.#y0) / this.#step)));
  }

  /** True when (x, y) lies inside the ring (even-odd). */
  contains(x: number, y: number): boolean {
    const xy = this.#xy, n = xy.length >> 1;
    const k = this.#bucket(y, this.#start.length - 1);
    let c = false;
    for (let e = this.#start[k]; e < this.#start[k + 1]; e++) {
      const i = this.#edges[e], j = i === 0 ? n - 1 : i - 1;
      const xi = xy[2 * i], yi = xy[2 * i + 1], xj = xy[2 * j], yj = xy[2 * j + 1];
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
    }
    return c;
  }
}

function ring(path: PathD, ccw: boolean): Point[] {
  const r: Point[] = path.map((p) => [p.x, p.y] as Point);
  if ((areaD(path) > 0) !== ccw) r.reverse();
  return r;
}

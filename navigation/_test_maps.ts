/**
 * Test helpers: random rectangle maps and a visibility-graph shortest path over polygons with
 * holes, the exact reference path queries are checked against.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import { Rng } from "../core/rng.ts";
import type { PolygonWithHoles } from "./walkable_area.ts";

/** A square room `size` m wide with `count` random axis-aligned rectangles (1–`maxSide` m). */
export function randomRectangles(
  seed: number,
  size: number,
  count: number,
  maxSide = 5,
): PolygonWithHoles[] {
  const rng = new Rng(seed);
  const out: PolygonWithHoles[] = [];
  for (let i = 0; i < count; i++) {
    const w = rng.range(1, maxSide), h = rng.range(0.5, maxSide);
    const x = rng.range(1, size - 1 - w), y = rng.range(1, size - 1 - h);
    out.push([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]]);
  }
  return out;
}

/** True when (`x`, `y`) lies inside the polygons (inside an outer ring, outside its holes). */
export function insideArea(area: readonly PolygonWithHoles[], x: number, y: number): boolean {
  for (const polygon of area) {
    if (!inRing(polygon[0], x, y)) continue;
    let hole = false;
    for (let k = 1; k < polygon.length && !hole; k++) hole = inRing(polygon[k], x, y);
    if (!hole) return true;
  }
  return false;
}

function inRing(ring: readonly Point[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Boundary segments of polygons as `[ax, ay, bx, by]`. */
export function boundarySegments(area: readonly PolygonWithHoles[]): number[][] {
  const out: number[][] = [];
  for (const polygon of area) {
    for (const ring of polygon) {
      for (let i = 0; i < ring.length; i++) {
        const a = ring[i], b = ring[(i + 1) % ring.length];
        out.push([a[0], a[1], b[0], b[1]]);
      }
    }
  }
  return out;
}

function properCross(p: number[], q: number[]): boolean {
  const o = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
    (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d1 = o(q[0], q[1], q[2], q[3], p[0], p[1]), d2 = o(q[0], q[1], q[2], q[3], p[2], p[3]);
  const d3 = o(p[0], p[1], p[2], p[3], q[0], q[1]), d4 = o(p[0], p[1], p[2], p[3], q[2], q[3]);
  const eps = 1e-12;
  return ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps)) &&
    ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps));
}

/** True when segment a–b runs inside the area (it may touch the boundary). */
export function segmentInside(
  area: readonly PolygonWithHoles[],
  segments: number[][],
  ax: number,
  ay: number,
  bx: number,
  by: number,
): boolean {
  const s = [ax, ay, bx, by];
  for (const e of segments) if (properCross(s, e)) return false;
  for (let k = 1; k < 16; k++) {
    const t = k / 16;
    const x = ax + t * (bx - ax), y = ay + t * (by - ay);
    if (!insideArea(area, x, y) && !onBoundary(segments, x, y)) return false;
  }
  return true;
}

function onBoundary(segments: number[][], x: number, y: number): boolean {
  for (const [ax, ay, bx, by] of segments) {
    const ex = bx - ax, ey = by - ay, len2 = ex * ex + ey * ey;
    let t = len2 > 0 ? ((x - ax) * ex + (y - ay) * ey) / len2 : 0;
    t = Math.max(0, Math.min(1, t));
    if (Math.hypot(ax + t * ex - x, ay + t * ey - y) < 1e-7) return true;
  }
  return false;
}

/** Shortest path length (m) from s to g inside the area, over the visibility graph of its vertices. */
export function visibilityShortestPath(
  area: readonly PolygonWithHoles[],
  s: Point,
  g: Point,
): number {
  const segments = boundarySegments(area);
  const nodes: Point[] = [s, g];
  for (const polygon of area) for (const ring of polygon) for (const p of ring) nodes.push(p);
  const n = nodes.length;
  const dist = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  dist[0] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0 || dist[u] === Infinity) return Infinity;
    if (u === 1) return dist[1];
    done[u] = 1;
    for (let w = 0; w < n; w++) {
      if (done[w]) continue;
      const d = dist[u] + Math.hypot(nodes[w][0] - nodes[u][0], nodes[w][1] - nodes[u][1]);
      if (d >= dist[w]) continue;
      if (segmentInside(area, segments, nodes[u][0], nodes[u][1], nodes[w][0], nodes[w][1])) {
        dist[w] = d;
      }
    }
  }
}

/**
 * A 20 m room split by a wall at x = 10 with a 0.8 m gap on the line y = 10 and a 1.5 m gap
 * from y = 15 to 16.5: the walls of `buildNavMesh`'s input.
 */
export function twoGapWalls(): { points: [number, number][] }[] {
  return [
    { points: [[10, 0], [10, 9.6]] },
    { points: [[10, 10.4], [10, 15]] },
    { points: [[10, 16.5], [10, 20]] },
  ];
}

/** Where the path `[x0, y0, x1, y1, …]` of `count` points first crosses the line x = `x`, or NaN. */
export function crossingY(points: Float64Array, count: number, x: number): number {
  for (let i = 1; i < count; i++) {
    const ax = points[2 * i - 2], bx = points[2 * i];
    if ((ax - x) * (bx - x) <= 0 && ax !== bx) {
      const t = (x - ax) / (bx - ax);
      return points[2 * i - 1] + t * (points[2 * i + 1] - points[2 * i - 1]);
    }
  }
  return NaN;
}

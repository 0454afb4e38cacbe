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
  for (let h = 0; h < n; h++) {
    if (!(area[h] < 0)) continue;
    const owner = bySize.find((o) =>
      box[4 * o] <= box[4 * h] && box[4 * o + 1] <= box[4 * h + 1] &&
      box[4 * o + 2] >= box[4 * h + 2] && box[4 * o + 3] >= box[4 * h + 3] &&
      -area[h] <= area[o] && ringAround(paths[o], paths[h])
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

/**
 * True when `inner` lies inside `outer`: most of three of its vertices (first, a third and two
 * thirds along) are inside, so one vertex touching the outer ring does not decide it.
 */
function ringAround(outer: PathD, inner: PathD): boolean {
  const m = inner.length;
  let votes = 0;
  for (const k of [0, Math.floor(m / 3), Math.floor((2 * m) / 3)]) {
    if (inside(outer, inner[k].x, inner[k].y)) votes++;
  }
  return votes >= 2;
}

function inside(ring: PathD, x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const xi = ring[i].x, yi = ring[i].y, xj = ring[j].x, yj = ring[j].y;
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

function ring(path: PathD, ccw: boolean): Point[] {
  const r: Point[] = path.map((p) => [p.x, p.y] as Point);
  if ((areaD(path) > 0) !== ccw) r.reverse();
  return r;
}

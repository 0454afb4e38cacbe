import assert from "node:assert/strict";
import { pointInPolygon, pointSegmentDistanceSq } from "../core/geometry.ts";
import { Rng } from "../core/rng.ts";
import { type ObstaclePolygon, ObstacleSet } from "./obstacle_set.ts";
import { computeViewshed, type ViewshedOptions, ViewshedSweep } from "./viewshed_sweep.ts";
import type { Viewshed } from "./viewshed.ts";

/** The walls a ray from (x, y) may hit: every polygon edge and the bounds, as [ax, ay, bx, by]. */
function wallsFor(
  x: number,
  y: number,
  polygons: readonly ObstaclePolygon[],
  options: Partial<ViewshedOptions>,
): number[][] {
  const walls: number[][] = [];
  for (const polygon of polygons) {
    const inside = pointInPolygon(x, y, polygon[0]) &&
      !polygon.slice(1).some((h) => pointInPolygon(x, y, h));
    if (inside) continue; // footprints around the observer are see-through (documented)
    for (const ring of polygon) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        walls.push([ring[j][0], ring[j][1], ring[i][0], ring[i][1]]);
      }
    }
  }
  const b = options.bounds;
  if (b && b.length === 4) {
    walls.push([b[0], b[1], b[2], b[1]], [b[2], b[1], b[2], b[3]]);
    walls.push([b[2], b[3], b[0], b[3]], [b[0], b[3], b[0], b[1]]);
  }
  // Walls through the observer itself are ignored (documented behaviour).
  return walls.filter(([ax, ay, bx, by]) => pointSegmentDistanceSq(x, y, ax, ay, bx, by) >= 1e-18);
}

/** Distance along a ray to the nearest wall by testing every wall: the reference. */
function bruteDistance(
  x: number,
  y: number,
  angle: number,
  walls: number[][],
  range: number,
): number {
  const dx = Math.cos(angle), dy = Math.sin(angle);
  let best = range;
  for (const [ax, ay, bx, by] of walls) {
    const ex = bx - ax, ey = by - ay, denom = dx * ey - dy * ex;
    if (denom === 0) continue;
    const wx = ax - x, wy = ay - y;
    const t = (wx * ey - wy * ex) / denom, u = (wx * dy - wy * dx) / denom;
    if (t >= 0 && u >= -1e-12 && u <= 1 + 1e-12 && t < best) best = t;
  }
  return best;
}

/** Compares the viewshed with brute-force rays; returns the number of rays checked. */
function checkAgainstRays(
  v: Viewshed,
  polygons: readonly ObstaclePolygon[],
  options: Partial<ViewshedOptions>,
  rays: number,
  rng: Rng,
): number {
  let checked = 0;
  let integrated = 0;
  const step = (2 * Math.PI) / rays;
  const walls = wallsFor(v.x, v.y, polygons, options);
  const range = options.maxRangeM ? options.maxRangeM : Infinity;
  const edges = Array.from(v.angle0).sort((a, b) => a - b);
  for (let i = 0; i < rays; i++) {
    const a = (i + rng.range(0.2, 0.8)) * step;
    const ref = bruteDistance(v.x, v.y, a, walls, range);
    integrated += 0.5 * ref * ref * step;
    // Directions within a hair of a wedge edge may see either side of a corner.
    let lo = 0, hi = edges.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (edges[mid] < a) lo = mid + 1;
      else hi = mid;
    }
    if (Math.abs((edges[lo] ?? Infinity) - a) < 1e-7 || Math.abs(edges[lo - 1] - a) < 1e-7) {
      continue;
    }
    const got = v.distanceAt(a);
    assert(
      Math.abs(got - ref) <= 1e-6 * Math.max(1, ref),
      `observer (${v.x}, ${v.y}) direction ${a}: sweep ${got} m, rays ${ref} m`,
    );
    checked++;
  }
  assert(
    Math.abs(integrated - v.area) <= 0.02 * v.area + 1e-6,
    `area ${v.area} m² vs integrated ${integrated} m²`,
  );
  return checked;
}

/** Random rectangles on a 1 m lattice (many collinear, touching and shared walls). */
function latticeRectangles(rng: Rng, count: number, size: number): ObstaclePolygon[] {
  const out: ObstaclePolygon[] = [];
  for (let i = 0; i < count; i++) {
    const w = 1 + rng.int(6), h = 1 + rng.int(6);
    const x = rng.int(size - w), y = rng.int(size - h);
    out.push([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]]);
  }
  return out;
}

/** Random convex polygons and triangles at any angle, overlapping each other. */
function randomPolygons(rng: Rng, count: number, size: number): ObstaclePolygon[] {
  const out: ObstaclePolygon[] = [];
  for (let i = 0; i < count; i++) {
    const cx = rng.range(0, size), cy = rng.range(0, size), r = rng.range(0.5, 4);
    const n = 3 + rng.int(5), start = rng.range(0, 2 * Math.PI);
    const ring: [number, number][] = [];
    for (let k = 0; k < n; k++) {
      const a = start + (2 * Math.PI * k) / n;
      ring.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
    }
    if (rng.chance(0.3)) {
      // A courtyard.
      const hole: [number, number][] = [];
      for (let k = n - 1; k >= 0; k--) {
        const a = start + (2 * Math.PI * k) / n;
        hole.push([cx + 0.4 * r * Math.cos(a), cy + 0.4 * r * Math.sin(a)]);
      }
      out.push([ring, hole]);
    } else out.push([ring]);
  }
  return out;
}

Deno.test("viewshed matches brute-force rays among lattice rectangles with shared and collinear walls", () => {
  const rng = new Rng(11);
  let checked = 0;
  for (let trial = 0; trial < 8; trial++) {
    const polygons = latticeRectangles(rng, 25, 30);
    const options = { maxRangeM: trial % 2 ? 0 : 12, bounds: [-2, -2, 32, 32] as const };
    const sweep = new ViewshedSweep(ObstacleSet.fromPolygons(polygons, { cellSizeM: 3 }), options);
    for (let o = 0; o < 6; o++) {
      // Lattice observers are collinear with many walls and corners.
      const x = o % 2 ? rng.int(30) : rng.range(0, 30), y = o % 2 ? rng.int(30) : rng.range(0, 30);
      checked += checkAgainstRays(sweep.compute(x, y), polygons, options, 1000, rng);
    }
  }
  assert(checked > 40_000, `${checked} rays checked`);
});

Deno.test("viewshed matches brute-force rays among overlapping polygons with courtyards", () => {
  const rng = new Rng(12);
  for (let trial = 0; trial < 8; trial++) {
    const polygons = randomPolygons(rng, 30, 40);
    const options = { maxRangeM: 15 + trial };
    const sweep = new ViewshedSweep(ObstacleSet.fromPolygons(polygons, { cellSizeM: 4 }), options);
    for (let o = 0; o < 6; o++) {
      // Some observers stand inside a footprint or at a corner.
      const p = polygons[rng.int(polygons.length)][0];
      const [x, y] = o === 0 ? p[0] : o === 1 ? [(p[0][0] + p[1][0]) / 2, p[0][1]] : [
        rng.range(0, 40),
        rng.range(0, 40),
      ];
      checkAgainstRays(sweep.compute(x, y), polygons, options, 1000, rng);
    }
  }
});

Deno.test("viewshed of an open square is the range disc and its frustum a sector", () => {
  const v = computeViewshed(3, 4, [], { maxRangeM: 10 });
  assert(Math.abs(v.area - Math.PI * 100) < 1e-9);
  assert(Math.abs(v.sectorArea(1, Math.PI / 6) - (Math.PI * 100) / 6) < 1e-9);
  assert(v.contains(12.9, 4) && !v.contains(13.1, 4));
});

Deno.test("viewshed frustum shares follow a corridor: most area looks down the long arm", () => {
  // An L-shaped corridor: 4 m wide, 40 m east from the corner, 10 m north.
  const walls: ObstaclePolygon[] = [
    [[[-2, -10], [50, -10], [50, -2], [-2, -2]]], // south of the east arm
    [[[2, 2], [50, 2], [50, 20], [2, 20]]], // between the arms
    [[[-10, -10], [-2, -10], [-2, 20], [-10, 20]]], // west
  ];
  const v = computeViewshed(0, 0, walls, { maxRangeM: 0, bounds: [-10, -10, 42, 12] });
  const east = v.sectorArea(0, Math.PI / 6), north = v.sectorArea(Math.PI / 2, Math.PI / 6);
  // East: 40 m × 4 m visible corridor; north: 10 m × 4 m (the corridor ends at y = 12).
  assert(east > 3 * north, `east ${east} m², north ${north} m²`);
  // Both arms are rectangles through the observer, seen whole: 44 m × 4 m plus 4 m × 10 m.
  assert(Math.abs(v.area - (44 * 4 + 4 * 10)) < 1e-9, `area ${v.area}`);
});

Deno.test("viewshed polygon contains the viewshed and touchesPolygon finds what it sees", () => {
  const rng = new Rng(13);
  const polygons = randomPolygons(rng, 25, 40);
  const sweep = new ViewshedSweep(ObstacleSet.fromPolygons(polygons), { maxRangeM: 20 });
  const v = sweep.compute(20, 20);
  const ring = v.polygon();
  const pts: [number, number][] = [];
  for (let i = 0; i < ring.length; i += 2) pts.push([ring[i], ring[i + 1]]);
  let seenSamples = 0;
  for (let i = 0; i < 4000; i++) {
    const x = rng.range(0, 40), y = rng.range(0, 40);
    if (v.contains(x, y)) {
      seenSamples++;
      assert(pointInPolygon(x, y, pts), `(${x}, ${y}) seen but outside the polygon`);
    }
  }
  assert(seenSamples > 100);
  // A small square is touched exactly when one of its sampled points is seen.
  for (let i = 0; i < 300; i++) {
    const x = rng.range(0, 40), y = rng.range(0, 40), s = 0.5;
    const square: ObstaclePolygon = [[[x, y], [x + s, y], [x + s, y + s], [x, y + s]]];
    let sampled = false;
    for (let k = 0; k <= 10 && !sampled; k++) {
      for (let l = 0; l <= 10 && !sampled; l++) {
        sampled = v.contains(x + k * s / 10, y + l * s / 10);
      }
    }
    if (sampled) assert(v.touchesPolygon(square), `square at (${x}, ${y}) is seen`);
  }
});

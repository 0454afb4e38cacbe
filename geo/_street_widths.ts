/**
 * Guessed street widths fitted between the buildings: a road whose map gives neither `width`
 * nor `lanes` gets its class's typical width (`street_classes.ts`), which on old town streets
 * (Monaco, most European centres) is wider than the gap between the houses, so the carriageway
 * and its cars would run through the façades. Such a road is narrowed to twice its clearance:
 * the smallest distance from its centre line to a building outline, sampled every metre but
 * for the first and last metres at each junction (where the corner houses of the crossing
 * street stand) and points inside a building (a passage under it, or a mapping conflict); never
 * below its lanes at `MIN_LANE_WIDTH` each. A one-way road keeps as many of its lanes as still
 * fit. Mapped widths and lane counts are kept as they are.
 *
 * @module
 */
import { pointInPolygon, pointSegmentDistanceSq } from "../core/geometry.ts";
import { NeighbourQuery } from "../core/neighbour_query.ts";
import { SegmentGrid } from "../core/segment_grid.ts";
import type { CityBuilding, StreetEdge } from "./city_model.ts";

/** Narrowest lane a fitted road keeps (m): a car's 1.8 m and a little room. */
export const MIN_LANE_WIDTH = 2.25;
/** Spacing of the clearance samples along a road (m). */
const SAMPLE_SPACING = 1;
/** Metres at each end of a road without samples (at most a quarter of its length). */
const END_SKIP = 4;

/**
 * The edges with every guessed carriageway width (`widthSource` "default", on the ground)
 * narrowed to the room between `buildings`; those narrowed have `widthSource` "fitted". Others
 * are returned as they are.
 *
 * @example A residential street (typical width 5.5 m) between houses 4 m apart
 * ```ts
 * import { fitGuessedWidths } from "./_street_widths.ts";
 * import assert from "node:assert/strict";
 * const house = (y0: number, y1: number) => ({
 *   id: "way/1", polygon: [[[0, y0], [40, y0], [40, y1], [0, y1]]] as [number, number][][],
 *   height: 9, heightSource: "default" as const, levels: null, name: null, kind: "yes",
 * });
 * const street = {
 *   index: 0, wayId: "way/2", from: 0, to: 1, points: [[0, 0], [40, 0]] as [number, number][],
 *   length: 40, highway: "residential", name: null, oneway: false, lanes: 2, width: 5.5,
 *   widthSource: "default" as const, sidewalk: "no" as const, carriageway: true,
 *   walkable: true, steps: false, crossing: false,
 * };
 * const [fitted] = fitGuessedWidths([street], [house(2, 10), house(-10, -2)]);
 * assert.equal(fitted.width, 4.5); // two narrow lanes: never below 2 × 2.25 m
 * assert.equal(fitted.widthSource, "fitted");
 * ```
 */
export function fitGuessedWidths(
  edges: readonly StreetEdge[],
  buildings: readonly CityBuilding[],
): StreetEdge[] {
  const outlines = buildingOutlines(buildings);
  if (outlines.count === 0) return [...edges];
  const query = new NeighbourQuery();
  return edges.map((e) => {
    if (!e.carriageway || e.widthSource !== "default" || e.tunnel || (e.layer ?? 0) !== 0) {
      return e;
    }
    const clearance = clearanceOf(e, outlines, query);
    if (!(2 * clearance < e.width)) return e;
    const lanes = e.oneway
      ? Math.max(1, Math.min(e.lanes, Math.floor(2 * clearance / MIN_LANE_WIDTH)))
      : Math.max(1, e.lanes);
    const width = Math.max(2 * clearance, lanes * MIN_LANE_WIDTH);
    if (!(width < e.width)) return e;
    return { ...e, width: Math.round(width * 100) / 100, lanes, widthSource: "fitted" as const };
  });
}

interface Outlines {
  count: number;
  ax: Float64Array;
  ay: Float64Array;
  bx: Float64Array;
  by: Float64Array;
  /** Building of each outline edge. */
  owner: Int32Array;
  grid: SegmentGrid;
  buildings: readonly CityBuilding[];
}

/** Every ring edge of every building, indexed. */
function buildingOutlines(buildings: readonly CityBuilding[]): Outlines {
  let count = 0;
  for (const b of buildings) for (const ring of b.polygon) count += ring.length;
  const ax = new Float64Array(count), ay = new Float64Array(count);
  const bx = new Float64Array(count), by = new Float64Array(count);
  const owner = new Int32Array(count);
  let n = 0;
  buildings.forEach((b, index) => {
    for (const ring of b.polygon) {
      for (let k = 0; k < ring.length; k++) {
        const p = ring[k], q = ring[(k + 1) % ring.length];
        owner[n] = index;
        ax[n] = p[0];
        ay[n] = p[1];
        bx[n] = q[0];
        by[n++] = q[1];
      }
    }
  });
  const grid = new SegmentGrid(8);
  grid.build(ax, ay, bx, by, n);
  return { count: n, ax, ay, bx, by, owner, grid, buildings };
}

/**
 * Smallest distance (m) from `e`'s centre line to a building outline, within half its width
 * (Infinity when none is that near), over the samples the module doc describes.
 */
function clearanceOf(e: StreetEdge, o: Outlines, query: NeighbourQuery): number {
  const half = e.width / 2, skip = Math.min(END_SKIP, e.length / 4);
  let best = Infinity, along = 0;
  for (let k = 0; k + 1 < e.points.length; k++) {
    const [x0, y0] = e.points[k], [x1, y1] = e.points[k + 1];
    const len = Math.hypot(x1 - x0, y1 - y0);
    for (
      let t = (SAMPLE_SPACING - (along % SAMPLE_SPACING)) % SAMPLE_SPACING;
      t <= len;
      t += SAMPLE_SPACING
    ) {
      const at = along + t;
      if (at < skip || at > e.length - skip || len === 0) continue;
      const x = x0 + (x1 - x0) * t / len, y = y0 + (y1 - y0) * t / len;
      const n = query.segments(o.grid, x, y, half), found = query.found;
      let near = Infinity;
      for (let j = 0; j < n; j++) {
        const s = found[j];
        near = Math.min(near, pointSegmentDistanceSq(x, y, o.ax[s], o.ay[s], o.bx[s], o.by[s]));
      }
      if (near === Infinity || insideBuilding(x, y, o, found, n)) continue;
      best = Math.min(best, Math.sqrt(near));
    }
    along += len;
  }
  return best;
}

/**
 * Whether (`x`, `y`) lies inside the footprint (outside the courtyards) of a building that owns
 * one of the first `n` outline edges in `found` (a point inside a building is within half a
 * road's width of its outline, or the road would not be tested).
 */
function insideBuilding(x: number, y: number, o: Outlines, found: Uint32Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    const index = o.owner[found[j]];
    if (j > 0 && o.owner[found[j - 1]] === index) continue;
    const b = o.buildings[index], outer = b.polygon[0];
    if (outer === undefined || !pointInPolygon(x, y, outer)) continue;
    let inHole = false;
    for (let h = 1; h < b.polygon.length && !inHole; h++) {
      inHole = pointInPolygon(x, y, b.polygon[h]);
    }
    if (!inHole) return true;
  }
  return false;
}

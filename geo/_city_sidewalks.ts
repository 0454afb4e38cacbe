/**
 * Sidewalks of a city: footways tagged `footway=sidewalk` (mapped), and sidewalks implied by a
 * road's `sidewalk=*` tags, drawn as the road's centre line offset to its edge. Each carriageway
 * side whose tags say nothing is checked for a separately mapped footway running along it
 * (sampled every few metres, near the road edge and roughly parallel); where one is found the
 * side is `"mapped"`, else it stays `"unknown"` and the walkable area gives it an edge strip.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import { SegmentGrid } from "../core/segment_grid.ts";
import type { CitySidewalk, SideSidewalk, StreetEdge } from "./city_model.ts";
import type { OsmTags } from "./osm_elements.ts";
import { offsetPolyline } from "./offset_polyline.ts";
import { parseLength } from "./osm_tags.ts";

/** Spacing of the samples along a carriageway side (m). */
const SAMPLE_SPACING = 8;
/** How far beyond the carriageway edge a separate sidewalk may run (m). */
const SIDEWALK_REACH = 7;
/** How far inside the carriageway edge a separate sidewalk's line may lie (m). */
const SIDEWALK_INSET = 2;
/** Smallest |cos| between a road and a footway that runs along it. */
const PARALLEL_COS = 0.8;
/** Share of samples that must find a footway. */
const COVERED_SHARE = 0.5;

/** Options of the sidewalk stage. */
export interface SidewalkOptions {
  /** Width of a sidewalk implied by a road tag without `sidewalk:width` (m). */
  readonly sidewalkWidth: number;
}

/**
 * Finds mapped and implied sidewalks and settles each carriageway side; returns the sidewalks
 * and the edges with `sidewalkLeft`/`sidewalkRight` updated.
 */
export function buildSidewalks(
  edges: readonly StreetEdge[],
  edgeTags: readonly OsmTags[],
  options: SidewalkOptions,
): { sidewalks: CitySidewalk[]; edges: StreetEdge[] } {
  const isRoad = (e: StreetEdge) => e.carriageway && !e.shared && !e.tunnel;
  const isFoot = (e: StreetEdge) => !e.carriageway && e.walkable && !e.crossing && !e.tunnel;
  const roads = segmentIndex(edges, isRoad);
  const feet = segmentIndex(edges, isFoot);
  const buffer = new Uint32Array(256);

  const sidewalks: CitySidewalk[] = [];
  // Mapped sidewalks, with the road they run along.
  edges.forEach((e, i) => {
    if (!isFoot(e) || edgeTags[i].footway !== "sidewalk") return;
    const [mx, my, dx, dy] = midpoint(e.points);
    let best = -1, bestD = Infinity, side: "left" | "right" | null = null;
    const n = Math.min(buffer.length, roads.grid.queryRadius(mx, my, 15, buffer));
    for (let k = 0; k < n; k++) {
      const s = buffer[k], r = roads.edge[s];
      const ax = roads.ax[s], ay = roads.ay[s], bx = roads.bx[s], by = roads.by[s];
      const len = Math.hypot(bx - ax, by - ay);
      if (len === 0 || Math.abs(((bx - ax) * dx + (by - ay) * dy) / len) < PARALLEL_COS) continue;
      const d = distanceToSegment(mx, my, ax, ay, bx, by);
      if (d < bestD) {
        bestD = d;
        best = r;
        side = (bx - ax) * (my - ay) - (by - ay) * (mx - ax) > 0 ? "left" : "right";
      }
    }
    sidewalks.push({
      id: e.wayId,
      points: e.points,
      width: e.width,
      mapped: true,
      edge: best >= 0 ? best : null,
      side: best >= 0 ? side : null,
    });
  });

  // Implied sidewalks and the sides still unknown.
  const out = edges.slice();
  edges.forEach((e, i) => {
    if (!isRoad(e)) return;
    let left: SideSidewalk = e.sidewalkLeft ?? "unknown";
    let right: SideSidewalk = e.sidewalkRight ?? "unknown";
    const tags = edgeTags[i];
    for (const which of ["left", "right"] as const) {
      const state = which === "left" ? left : right;
      const sign = which === "left" ? 1 : -1;
      if (state === "implied") {
        const width = parseLength(tags[`sidewalk:${which}:width`]) ??
          parseLength(tags["sidewalk:both:width"]) ?? parseLength(tags["sidewalk:width"]) ??
          options.sidewalkWidth;
        sidewalks.push({
          id: e.wayId,
          points: offsetPolyline(e.points, sign * (e.width / 2 + width / 2)),
          width,
          mapped: false,
          edge: i,
          side: which,
        });
      } else if (state === "unknown" && sideCovered(e, sign, feet, buffer)) {
        if (which === "left") left = "mapped";
        else right = "mapped";
      }
    }
    if (left !== e.sidewalkLeft || right !== e.sidewalkRight) {
      out[i] = { ...e, sidewalkLeft: left, sidewalkRight: right };
    }
  });
  return { sidewalks, edges: out };
}

interface SegmentIndex {
  grid: SegmentGrid;
  ax: Float64Array;
  ay: Float64Array;
  bx: Float64Array;
  by: Float64Array;
  edge: Int32Array;
}

function segmentIndex(
  edges: readonly StreetEdge[],
  keep: (e: StreetEdge) => boolean,
): SegmentIndex {
  let n = 0;
  for (const e of edges) if (keep(e)) n += e.points.length - 1;
  const ax = new Float64Array(n), ay = new Float64Array(n);
  const bx = new Float64Array(n), by = new Float64Array(n);
  const edge = new Int32Array(n);
  let k = 0;
  edges.forEach((e, i) => {
    if (!keep(e)) return;
    for (let j = 0; j + 1 < e.points.length; j++, k++) {
      ax[k] = e.points[j][0];
      ay[k] = e.points[j][1];
      bx[k] = e.points[j + 1][0];
      by[k] = e.points[j + 1][1];
      edge[k] = i;
    }
  });
  const grid = new SegmentGrid(10);
  grid.build(ax, ay, bx, by, n);
  return { grid, ax, ay, bx, by, edge };
}

/** Midpoint of a polyline by length, and the unit direction there. */
function midpoint(points: readonly Point[]): [number, number, number, number] {
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    total += Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
  }
  let walked = 0;
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1], [bx, by] = points[i];
    const len = Math.hypot(bx - ax, by - ay);
    if (walked + len >= total / 2 && len > 0) {
      const t = (total / 2 - walked) / len;
      return [ax + t * (bx - ax), ay + t * (by - ay), (bx - ax) / len, (by - ay) / len];
    }
    walked += len;
  }
  const [ax, ay] = points[0], [bx, by] = points[points.length - 1];
  const len = Math.hypot(bx - ax, by - ay) || 1;
  return [ax, ay, (bx - ax) / len, (by - ay) / len];
}

function distanceToSegment(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
  return Math.hypot(ax + t * dx - px, ay + t * dy - py);
}

/** True when a footway runs along the given side (`sign` 1 left, -1 right) of a road. */
function sideCovered(
  road: StreetEdge,
  sign: number,
  feet: SegmentIndex,
  buffer: Uint32Array,
): boolean {
  const pts = road.points;
  let samples = 0, hits = 0;
  const centre = road.width / 2 + (SIDEWALK_REACH - SIDEWALK_INSET) / 2;
  const radius = (SIDEWALK_REACH + SIDEWALK_INSET) / 2;
  for (let i = 0; i + 1 < pts.length; i++) {
    const [ax, ay] = pts[i], [bx, by] = pts[i + 1];
    const len = Math.hypot(bx - ax, by - ay);
    if (len === 0) continue;
    const ux = (bx - ax) / len, uy = (by - ay) / len;
    const count = Math.max(1, Math.round(len / SAMPLE_SPACING));
    for (let s = 0; s < count; s++) {
      const t = (s + 0.5) / count * len;
      const x = ax + ux * t - uy * sign * centre, y = ay + uy * t + ux * sign * centre;
      samples++;
      const n = Math.min(buffer.length, feet.grid.queryRadius(x, y, radius, buffer));
      for (let k = 0; k < n; k++) {
        const j = buffer[k];
        const fx = feet.bx[j] - feet.ax[j], fy = feet.by[j] - feet.ay[j];
        const flen = Math.hypot(fx, fy);
        if (flen > 0 && Math.abs((fx * ux + fy * uy) / flen) >= PARALLEL_COS) {
          hits++;
          break;
        }
      }
    }
  }
  return samples > 0 && hits / samples >= COVERED_SHARE;
}

/**
 * Crossings and traffic signals of a city.
 *
 * Crossings come from `footway=crossing` (and cycleway/path) ways, kerb to kerb as mapped; from
 * `highway=crossing` nodes on a carriageway, drawn across the road at the node; and, marked
 * `implied`, from footways that cross a road at a shared node, and (option
 * `junctionCrossings`) from the legs of junctions where no crossing is mapped within
 * {@linkcode JUNCTION_CROSSING_SEARCH}: a street leg of a junction of three or more streets, or
 * a service road (a driveway) where it meets a street, is crossed just outside the junction,
 * as the continuation of the sidewalk — the legal default in most countries.
 *
 * Signals come from `highway=traffic_signals` nodes and from `crossing=traffic_signals`.
 *
 * @module
 */
import { type Point, pointsBounds } from "../core/geometry.ts";
import type {
  CityCrossing,
  CrossingKind,
  StreetEdge,
  StreetNetwork,
  TrafficSignal,
} from "./city_model.ts";
import type { CityContext } from "./_city_context.ts";
import type { MapPoint } from "./map_features.ts";
import type { OsmTags } from "./osm_elements.ts";
import { crossingKind, parseLength } from "./osm_tags.ts";

/** A junction leg counts as crossed when a crossing lies within this distance of the junction (m). */
export const JUNCTION_CROSSING_SEARCH = 25;

/** Classes that count as minor roads (driveways, alleys) at junctions. */
const MINOR = new Set(["service", "busway", "track"]);

/** Options of the crossing stage. */
export interface CrossingOptions {
  /** Width of a crossing without `width` (m). */
  readonly crossingWidth: number;
  /** How far a crossing drawn at a node reaches past the carriageway edge (m). */
  readonly crossingReach: number;
  /** Add implied crossings on junction legs with no crossing mapped nearby. */
  readonly junctionCrossings: boolean;
}

/** Builds the crossings and signals. */
export function buildCrossings(
  network: StreetNetwork,
  edgeTags: readonly OsmTags[],
  points: readonly MapPoint[],
  nodeByOsmId: ReadonlyMap<number, number>,
  ctx: CityContext,
  options: CrossingOptions,
): { crossings: CityCrossing[]; signals: TrafficSignal[] } {
  const { nodes, edges } = network;
  const isRoad = (e: StreetEdge) =>
    e.carriageway && !e.shared && !e.tunnel && e.highway !== "motorway" &&
    e.highway !== "trunk" && !e.highway.endsWith("motorway_link");
  const isFoot = (e: StreetEdge) => !e.carriageway && e.walkable && !e.tunnel;
  const incident: number[][] = nodes.map(() => []);
  edges.forEach((e, i) => {
    incident[e.from].push(i);
    if (e.to !== e.from) incident[e.to].push(i);
  });
  const roadAt = (n: number) => incident[n].find((i) => isRoad(edges[i]));
  const crossings: CityCrossing[] = [];
  const usedNodes = new Set<number>();

  // 1. Crossing ways.
  let k = 0;
  while (k < edges.length) {
    const e = edges[k];
    if (!e.crossing || e.tunnel) {
      k++;
      continue;
    }
    const group = [k];
    while (
      k + 1 < edges.length && edges[k + 1].wayId === e.wayId &&
      edges[k + 1].from === edges[group[group.length - 1]].to
    ) group.push(++k);
    k++;
    const pts: Point[] = [...edges[group[0]].points];
    for (const g of group.slice(1)) pts.push(...edges[g].points.slice(1));
    let node: number | null = null, edge: number | null = null;
    for (const g of group) {
      for (const n of [edges[g].from, edges[g].to]) {
        const r = roadAt(n);
        if (r !== undefined && node === null) {
          node = n;
          edge = r;
        }
      }
    }
    edge ??= intersectingRoad(pts, edges, isRoad);
    const tags = edgeTags[group[0]];
    let kind = crossingKind(tags);
    for (const g of group) {
      for (const n of [edges[g].from, edges[g].to]) {
        if (nodes[n].crossing !== null) {
          usedNodes.add(n);
          if (kind === "unknown") kind = nodes[n].crossing!;
        }
      }
    }
    const [x, y] = node !== null ? [nodes[node].x, nodes[node].y] : polylineMiddle(pts);
    crossings.push({
      id: e.wayId,
      x,
      y,
      kind,
      signalled: kind === "traffic_signals" || (node !== null && nodes[node].signal),
      points: pts,
      width: parseLength(tags.width) ?? options.crossingWidth,
      edge,
      node,
    });
  }

  // 2. Crossing nodes on a road, and 3. footways crossing a road at a shared node.
  nodes.forEach((n, i) => {
    if (usedNodes.has(i)) return;
    const r = roadAt(i);
    if (r === undefined) return;
    let kind: CrossingKind | null = n.crossing;
    let implied = false;
    if (kind === null) {
      const feet = incident[i].filter((j) => isFoot(edges[j])).length;
      if (feet < 2) return;
      kind = "unknown";
      implied = true;
    }
    const road = edges[r];
    const [tx, ty] = tangentAt(road, i);
    crossings.push({
      id: n.osmId !== null ? `node/${n.osmId}` : `gen/crossing/node-${i}`,
      x: n.x,
      y: n.y,
      kind,
      signalled: kind === "traffic_signals" || n.signal,
      points: across(n.x, n.y, tx, ty, road.width / 2 + options.crossingReach),
      width: options.crossingWidth,
      edge: r,
      node: i,
      ...(implied ? { implied: true } : {}),
    });
  });

  // 4. Junction legs.
  if (options.junctionCrossings) {
    const mapped = crossings.slice();
    nodes.forEach((n, j) => {
      const legs = incident[j].filter((i) => isRoad(edges[i]));
      if (legs.length < 2) return;
      const streets = legs.filter((i) => !MINOR.has(edges[i].highway));
      if (streets.length === 0) return;
      for (const leg of legs) {
        const minor = MINOR.has(edges[leg].highway);
        if (!minor && streets.length < 3) continue;
        const road = edges[leg];
        let others = 0;
        for (const o of legs) if (o !== leg) others = Math.max(others, edges[o].width / 2);
        const d = Math.min(others + options.crossingWidth / 2 + 1, road.length / 2);
        const [px, py, tx, ty] = pointAlong(road, j, d);
        if (crossedNear(mapped, px, py, n.x, n.y, road)) continue;
        crossings.push({
          id: `gen/crossing/${n.osmId ?? `node-${j}`}-${leg}`,
          x: px,
          y: py,
          kind: "unknown",
          signalled: false,
          points: across(px, py, tx, ty, road.width / 2 + options.crossingReach),
          width: options.crossingWidth,
          edge: leg,
          node: null,
          implied: true,
        });
      }
    });
  }

  // Signals.
  const signals: TrafficSignal[] = [];
  for (const p of points) {
    const t = p.tags;
    const pedestrian = t.crossing === "traffic_signals" ||
      (t.highway === "crossing" && t["crossing:signals"] === "yes");
    if (t.highway !== "traffic_signals" && !pedestrian) continue;
    if (!ctx.inside(p.lon, p.lat)) continue;
    const node = p.osmId !== null ? nodeByOsmId.get(p.osmId) ?? null : null;
    const [x, y] = node !== null ? [nodes[node].x, nodes[node].y] : ctx.project(p.lon, p.lat);
    signals.push({ id: p.id, x, y, node, pedestrian });
  }
  return { crossings, signals };
}

/** A crossing lies near the leg: within the search radius of the junction, beside the leg. */
function crossedNear(
  crossings: readonly CityCrossing[],
  px: number,
  py: number,
  jx: number,
  jy: number,
  road: StreetEdge,
): boolean {
  const r2 = JUNCTION_CROSSING_SEARCH * JUNCTION_CROSSING_SEARCH;
  for (const c of crossings) {
    const dx = c.x - jx, dy = c.y - jy;
    if (dx * dx + dy * dy > r2) continue;
    if (c.edge !== null && c.edge === road.index) return true;
    if (distanceToPolyline(c.x, c.y, road.points) <= road.width / 2 + 3) {
      // On this leg's side of the junction, not on the far leg.
      if ((c.x - jx) * (px - jx) + (c.y - jy) * (py - jy) > 0) return true;
    }
  }
  return false;
}

function distanceToPolyline(x: number, y: number, pts: readonly Point[]): number {
  let best = Infinity;
  for (let i = 0; i + 1 < pts.length; i++) {
    const [ax, ay] = pts[i], [bx, by] = pts[i + 1];
    const dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
    best = Math.min(best, Math.hypot(ax + t * dx - x, ay + t * dy - y));
  }
  return best;
}

/** Unit direction of the road at node `n` (one of its ends). */
function tangentAt(road: StreetEdge, n: number): [number, number] {
  const pts = road.points;
  const [a, b] = road.from === n ? [pts[0], pts[1]] : [pts[pts.length - 2], pts[pts.length - 1]];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  return [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
}

/** The point `d` metres along the road from its end at node `n`, and the direction there. */
function pointAlong(road: StreetEdge, n: number, d: number): [number, number, number, number] {
  const pts = road.from === n ? road.points : [...road.points].reverse();
  let walked = 0;
  for (let i = 0; i + 1 < pts.length; i++) {
    const [ax, ay] = pts[i], [bx, by] = pts[i + 1];
    const len = Math.hypot(bx - ax, by - ay);
    if (len === 0) continue;
    if (walked + len >= d || i + 2 === pts.length) {
      const t = Math.min(1, (d - walked) / len);
      return [ax + t * (bx - ax), ay + t * (by - ay), (bx - ax) / len, (by - ay) / len];
    }
    walked += len;
  }
  return [pts[0][0], pts[0][1], 1, 0];
}

/** A segment through (x, y) across direction (tx, ty), `half` metres each side. */
function across(x: number, y: number, tx: number, ty: number, half: number): Point[] {
  return [[x + ty * half, y - tx * half], [x - ty * half, y + tx * half]];
}

function polylineMiddle(pts: readonly Point[]): [number, number] {
  let total = 0;
  for (let i = 1; i < pts.length; i++) {
    total += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
  }
  let walked = 0;
  for (let i = 1; i < pts.length; i++) {
    const len = Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
    if (walked + len >= total / 2 && len > 0) {
      const t = (total / 2 - walked) / len;
      return [
        pts[i - 1][0] + t * (pts[i][0] - pts[i - 1][0]),
        pts[i - 1][1] + t * (pts[i][1] - pts[i - 1][1]),
      ];
    }
    walked += len;
  }
  return [pts[0][0], pts[0][1]];
}

/** The first road edge whose centre line the polyline crosses, or null. */
function intersectingRoad(
  pts: readonly Point[],
  edges: readonly StreetEdge[],
  isRoad: (e: StreetEdge) => boolean,
): number | null {
  const [minX, minY, maxX, maxY] = pointsBounds(pts);
  for (const e of edges) {
    if (!isRoad(e)) continue;
    for (let i = 0; i + 1 < e.points.length; i++) {
      const [ax, ay] = e.points[i], [bx, by] = e.points[i + 1];
      if (Math.max(ax, bx) < minX || Math.min(ax, bx) > maxX) continue;
      if (Math.max(ay, by) < minY || Math.min(ay, by) > maxY) continue;
      for (let j = 0; j + 1 < pts.length; j++) {
        if (segmentsCross(pts[j], pts[j + 1], e.points[i], e.points[i + 1])) return e.index;
      }
    }
  }
  return null;
}

function segmentsCross(p: Point, q: Point, r: Point, s: Point): boolean {
  const o = (a: Point, b: Point, c: Point) =>
    Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  return o(p, q, r) !== o(p, q, s) && o(r, s, p) !== o(r, s, q);
}

/**
 * The street network of a city: every `highway=*` line of a known class, cropped, split into
 * edges at every node it shares with another way (junctions), at its ends, and at crossing and
 * traffic-signal nodes, with class, name, one-way, lanes and width read from the tags (see
 * {@linkcode STREET_CLASSES} for the defaults).
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import type {
  CrossingKind,
  StreetEdge,
  StreetNetwork,
  StreetNode,
  WidthSource,
} from "./city_model.ts";
import type { CityContext } from "./_city_context.ts";
import type { MapLine, MapPoint } from "./map_features.ts";
import type { OsmTags } from "./osm_elements.ts";
import {
  crossingKind,
  onewayDirection,
  parseCount,
  parseLength,
  sidewalkSides,
} from "./osm_tags.ts";
import { LANE_WIDTH, STREET_CLASSES, type StreetClass } from "./street_classes.ts";

/** `highway` values that are not ways people or cars use, left out without a warning. */
const NOT_STREETS = new Set([
  "proposed",
  "construction",
  "abandoned",
  "disused",
  "razed",
  "planned",
  "raceway",
  "bus_stop",
  "elevator",
  "emergency_bay",
  "escape",
  "rest_area",
  "services",
]);

/** A mutable street node while the network is built. */
interface NodeDraft {
  index: number;
  osmId: number | null;
  x: number;
  y: number;
  degree: number;
  signal: boolean;
  crossing: CrossingKind | null;
}

/** The street network and what the later stages need to know about its edges. */
export interface StreetNetworkBuild {
  /** The network. */
  readonly network: StreetNetwork;
  /** Tags of each edge's way. */
  readonly edgeTags: readonly OsmTags[];
  /** Node index by OSM node id. */
  readonly nodeByOsmId: ReadonlyMap<number, number>;
}

/** Builds the street network from the map's lines and node tags. */
export function buildStreetNetwork(
  lines: readonly MapLine[],
  points: readonly MapPoint[],
  ctx: CityContext,
): StreetNetworkBuild {
  const nodeTags = new Map<number, OsmTags>();
  for (const p of points) if (p.osmId !== null) nodeTags.set(p.osmId, p.tags);
  const isSpecial = (key: number | string): boolean => {
    if (typeof key !== "number") return false;
    const t = nodeTags.get(key);
    return t !== undefined &&
      (t.highway === "crossing" || t.highway === "traffic_signals" || t.crossing !== undefined);
  };

  // Crop the street lines and count how often each node is used.
  const unknown = new Map<string, number>();
  const pieces: { line: MapLine; cls: StreetClass; points: Point[]; keys: (number | string)[] }[] =
    [];
  const uses = new Map<number | string, number>();
  for (const line of lines) {
    const highway = line.tags.highway;
    if (highway === undefined) continue;
    const cls = STREET_CLASSES[highway];
    if (!cls) {
      if (!NOT_STREETS.has(highway)) unknown.set(highway, (unknown.get(highway) ?? 0) + 1);
      continue;
    }
    for (const piece of ctx.cropLine(line.coords, line.nodeIds)) {
      pieces.push({ line, cls, points: piece.points, keys: piece.keys });
      for (const key of piece.keys) uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  if (unknown.size > 0) {
    const list = [...unknown].sort((a, b) => b[1] - a[1]).map(([v, n]) => `${v} (${n})`);
    ctx.warn(
      `ways with unknown highway values were left out of the street network: ${list.join(", ")}`,
    );
  }

  const nodes: NodeDraft[] = [];
  const nodeByKey = new Map<number | string, number>();
  const nodeByOsmId = new Map<number, number>();
  const nodeAt = (key: number | string, p: Point): number => {
    let i = nodeByKey.get(key);
    if (i !== undefined) return i;
    i = nodes.length;
    const osmId = typeof key === "number" ? key : null;
    const t = osmId !== null ? nodeTags.get(osmId) : undefined;
    const signal = t !== undefined &&
      (t.highway === "traffic_signals" || t.crossing === "traffic_signals");
    const crossing = t !== undefined && (t.highway === "crossing" || t.crossing !== undefined)
      ? crossingKind(t)
      : null;
    nodes.push({ index: i, osmId, x: p[0], y: p[1], degree: 0, signal, crossing });
    nodeByKey.set(key, i);
    if (osmId !== null) nodeByOsmId.set(osmId, i);
    return i;
  };

  const edges: StreetEdge[] = [];
  const edgeTags: OsmTags[] = [];
  for (const { line, cls, points, keys } of pieces) {
    const attrs = edgeAttributes(line.tags, cls);
    let start = 0;
    for (let k = 1; k < points.length; k++) {
      const last = k === points.length - 1;
      if (!last && (uses.get(keys[k]) ?? 0) < 2 && !isSpecial(keys[k])) continue;
      let from = nodeAt(keys[start], points[start]);
      let to = nodeAt(keys[k], points[k]);
      let pts = points.slice(start, k + 1);
      start = k;
      if (attrs.reverse) {
        [from, to] = [to, from];
        pts = pts.reverse();
      }
      let length = 0;
      for (let j = 1; j < pts.length; j++) {
        length += Math.hypot(pts[j][0] - pts[j - 1][0], pts[j][1] - pts[j - 1][1]);
      }
      if (length === 0) continue;
      nodes[from].degree++;
      nodes[to].degree++;
      edges.push({
        index: edges.length,
        wayId: line.id,
        from,
        to,
        points: pts,
        length,
        ...attrs.edge,
      });
      edgeTags.push(line.tags);
    }
  }
  const network: StreetNetwork = {
    nodes: nodes.map((n) => ({ ...n, junction: n.degree >= 3 }) as StreetNode),
    edges,
  };
  return { network, edgeTags, nodeByOsmId };
}

type EdgeAttributes = Omit<StreetEdge, "index" | "wayId" | "from" | "to" | "points" | "length">;

/** Attributes of the edges of a way; `reverse` when the way is one-way against its direction. */
function edgeAttributes(
  tags: OsmTags,
  cls: StreetClass,
): { edge: EdgeAttributes; reverse: boolean } {
  const highway = tags.highway;
  const use = cls.use;
  const vehicles = use === "carriageway" || use === "shared" || use === "motor-only";
  const direction = vehicles ? onewayDirection(tags) : 0;
  const taggedLanes = vehicles ? parseCount(tags.lanes) : null;
  const lanes = vehicles ? (taggedLanes ?? cls.lanes) : 0;
  const taggedWidth = parseLength(tags.width) ?? parseLength(tags.est_width);
  let width: number, widthSource: WidthSource;
  if (taggedWidth !== null) {
    width = taggedWidth;
    widthSource = "width";
  } else if (taggedLanes !== null && taggedLanes > 0) {
    width = taggedLanes * LANE_WIDTH;
    widthSource = "lanes";
  } else {
    width = cls.width;
    widthSource = "default";
  }
  const foot = tags.foot, access = tags.access;
  const footAllowed = foot === "yes" || foot === "designated" || foot === "permissive" ||
    foot === "official";
  const footBanned = foot === "no" || foot === "private" ||
    (foot === undefined && (access === "no" || access === "private"));
  const sides = sidewalkSides(tags);
  let walkable: boolean;
  if (use === "foot" || use === "shared") walkable = !footBanned;
  else if (use === "cycle") walkable = footAllowed;
  else if (use === "motor-only") walkable = footAllowed || sides.left || sides.right;
  else walkable = !(foot === "no" && sides.tag !== "both");
  const layer = Math.trunc(Number(tags.layer ?? 0)) || 0;
  const level = Number((tags.level ?? "0").split(";")[0]);
  const tunnel = (tags.tunnel !== undefined && tags.tunnel !== "no") || tags.covered === "yes" ||
    (tags.indoor !== undefined && tags.indoor !== "no") || layer < 0 ||
    (Number.isFinite(level) && level < 0) || highway === "corridor";
  const crossing = tags.footway === "crossing" || tags.cycleway === "crossing" ||
    tags.path === "crossing" || highway === "crossing";
  const steps = highway === "steps";
  let incline: "up" | "down" | null = null;
  if (steps) {
    const v = tags.incline;
    if (v === "up" || (v !== undefined && /^\+?\d/.test(v) && parseFloat(v) > 0)) incline = "up";
    else if (v === "down" || (v !== undefined && /^-\d/.test(v))) incline = "down";
    if (direction === -1 && incline) incline = incline === "up" ? "down" : "up";
  }
  const side = (implied: boolean, settled: boolean) =>
    implied ? "implied" as const : settled ? "none" as const : "unknown" as const;
  let left = side(sides.left, sides.leftSettled), right = side(sides.right, sides.rightSettled);
  if (direction === -1) [left, right] = [right, left];
  return {
    reverse: direction === -1,
    edge: {
      highway,
      name: tags.name ?? null,
      oneway: direction !== 0,
      lanes,
      width,
      widthSource,
      sidewalk: vehicles ? sides.tag : "unknown",
      carriageway: vehicles,
      walkable,
      steps,
      crossing,
      shared: use === "shared",
      tunnel,
      layer,
      ...(vehicles && use !== "shared" ? { sidewalkLeft: left, sidewalkRight: right } : {}),
      stepCount: steps ? parseCount(tags.step_count) : null,
      incline,
    },
  };
}

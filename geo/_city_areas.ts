/**
 * Buildings, pedestrian areas and barriers of a city, cropped to the box and projected.
 *
 * Buildings are areas tagged `building=*` (not `no`); `building:part` areas are parts of a
 * building already counted and are left out. A building whose footprint falls apart into
 * several polygons (a multipolygon with several outer rings, or one cut by the crop box) gives
 * one {@linkcode CityBuilding} per polygon, sharing the id. Height: `height`, else
 * `building:levels` × {@linkcode METRES_PER_LEVEL}, else the default number of levels × the same.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import type {
  CityBarrier,
  CityBuilding,
  CityPolygon,
  HeightSource,
  PedestrianArea,
} from "./city_model.ts";
import type { CityContext } from "./_city_context.ts";
import type { MapArea, MapLine } from "./map_features.ts";
import type { OsmTags } from "./osm_elements.ts";
import { parseCount, parseLength } from "./osm_tags.ts";

/** Storey height (m) for `building:levels` × storey height. */
export const METRES_PER_LEVEL = 3.0;

/** `barrier` values that are walls nobody walks through. */
export const WALL_BARRIERS: ReadonlySet<string> = new Set([
  "wall",
  "fence",
  "retaining_wall",
  "city_wall",
  "hedge",
  "guard_rail",
  "jersey_barrier",
  "railing",
  "handrail",
  "wire_fence",
  "wood_fence",
  "hampshire_gate",
]);

/** `highway` / `area:highway` values whose areas are walkable squares and plazas. */
const PEDESTRIAN_AREA_VALUES = new Set([
  "pedestrian",
  "footway",
  "path",
  "steps",
  "platform",
  "living_street",
  "crossing",
  "corridor",
]);

/** True when the tags put a feature under ground or indoors. */
export function underground(tags: OsmTags): boolean {
  const layer = Number(tags.layer ?? 0);
  const level = Number((tags.level ?? "0").split(";")[0]);
  return (tags.tunnel !== undefined && tags.tunnel !== "no") || tags.covered === "yes" ||
    (tags.indoor !== undefined && tags.indoor !== "no") || (Number.isFinite(layer) && layer < 0) ||
    (Number.isFinite(level) && level < 0);
}

/** Buildings from the map's areas. */
export function buildBuildings(
  areas: readonly MapArea[],
  ctx: CityContext,
  defaultLevels: number,
): CityBuilding[] {
  const out: CityBuilding[] = [];
  for (const area of areas) {
    const t = area.tags;
    if (t.building === undefined || t.building === "no") continue;
    const levels = parseCount(t["building:levels"]);
    const height = parseLength(t.height);
    let h: number, source: HeightSource;
    if (height !== null) {
      h = height;
      source = "height";
    } else if (levels !== null && levels > 0) {
      h = levels * METRES_PER_LEVEL;
      source = "levels";
    } else {
      h = defaultLevels * METRES_PER_LEVEL;
      source = "default";
    }
    for (const polygon of ctx.areaPolygons(area.rings)) {
      if (polygonArea(polygon) < 0.01) continue;
      out.push({
        id: area.id,
        polygon,
        height: h,
        heightSource: source,
        levels,
        name: t.name ?? null,
        kind: t.building,
      });
    }
  }
  return out;
}

/** The tag that makes an area a walkable square or plaza, or null. */
export function pedestrianAreaKind(tags: OsmTags): string | null {
  const ah = tags["area:highway"];
  if (ah !== undefined && PEDESTRIAN_AREA_VALUES.has(ah)) return `area:highway=${ah}`;
  if (tags.highway !== undefined && PEDESTRIAN_AREA_VALUES.has(tags.highway)) {
    return `highway=${tags.highway}`;
  }
  if (tags.place === "square") return "place=square";
  if (tags.public_transport === "platform") return "public_transport=platform";
  if (tags.railway === "platform") return "railway=platform";
  return null;
}

/** Pedestrian areas and squares from the map's areas (not under ground, not buildings). */
export function buildPedestrianAreas(
  areas: readonly MapArea[],
  ctx: CityContext,
): PedestrianArea[] {
  const out: PedestrianArea[] = [];
  for (const area of areas) {
    const t = area.tags;
    const kind = pedestrianAreaKind(t);
    if (kind === null || t.building !== undefined || underground(t)) continue;
    if (t.foot === "no" || t.access === "no" || t.access === "private") continue;
    for (const polygon of ctx.areaPolygons(area.rings)) {
      if (polygonArea(polygon) < 0.01) continue;
      out.push({ id: area.id, polygon, kind, name: t.name ?? null });
    }
  }
  return out;
}

/** Walls from `barrier=*` lines (and areas, as closed lines). */
export function buildBarriers(
  lines: readonly MapLine[],
  areas: readonly MapArea[],
  ctx: CityContext,
): CityBarrier[] {
  const out: CityBarrier[] = [];
  const add = (id: string, kind: string, coords: Float64Array, ids: readonly (number | null)[]) => {
    for (const piece of ctx.cropLine(coords, ids)) {
      const pts = piece.points;
      const k = piece.keys;
      const closed = pts.length >= 4 && k[0] === k[k.length - 1];
      out.push({ id, kind, points: closed ? pts.slice(0, -1) : pts, closed });
    }
  };
  for (const line of lines) {
    const kind = line.tags.barrier;
    if (kind === undefined || !WALL_BARRIERS.has(kind) || underground(line.tags)) continue;
    add(line.id, kind, line.coords, line.nodeIds);
  }
  for (const area of areas) {
    const kind = area.tags.barrier;
    if (kind === undefined || !WALL_BARRIERS.has(kind) || area.tags.building !== undefined) {
      continue;
    }
    for (const ring of area.rings) {
      const closed = new Float64Array(ring.length + 2);
      closed.set(ring);
      closed[ring.length] = ring[0];
      closed[ring.length + 1] = ring[1];
      const ids = Array.from(
        { length: closed.length / 2 },
        (_, i) => (i === closed.length / 2 - 1 ? -1 : null),
      );
      // The last vertex closes the ring: give first and last the same key.
      ids[0] = -1;
      add(area.id, kind, closed, ids);
    }
  }
  return out;
}

/** Area (m²) of a polygon with holes. */
export function polygonArea(polygon: CityPolygon): number {
  let total = 0;
  polygon.forEach((ring: readonly Point[], k) => {
    let a = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
    }
    total += k === 0 ? Math.abs(a) / 2 : -Math.abs(a) / 2;
  });
  return total;
}

/**
 * Attractors: places people walk to. Points and areas tagged with one of
 * {@linkcode ATTRACTOR_KEYS} (shops, amenities, tourism, leisure, offices, public transport,
 * railway stations and entrances, building entrances), and every building. Street furniture
 * amenities (benches, bins, parking) are not attractors. A building's floor area is its
 * footprint × its levels (mapped, else its height / 3 m); an area's floor area is its area.
 * Each attractor notes the building it is or stands in.
 *
 * @module
 */
import type { CityAttractor, CityBuilding } from "./city_model.ts";
import type { CityContext } from "./_city_context.ts";
import type { MapArea, MapPoint } from "./map_features.ts";
import type { OsmTags } from "./osm_elements.ts";
import { METRES_PER_LEVEL, polygonArea } from "./_city_areas.ts";
import { BuildingFinder } from "./building_finder.ts";

/** Keys that make a point or area an attractor, in order of precedence. */
export const ATTRACTOR_KEYS: readonly string[] = [
  "shop",
  "amenity",
  "tourism",
  "leisure",
  "office",
  "public_transport",
  "railway",
  "entrance",
];

/** Values that are not destinations, by key. */
const NOT_ATTRACTORS: Record<string, ReadonlySet<string>> = {
  amenity: new Set([
    "bench",
    "waste_basket",
    "waste_disposal",
    "recycling",
    "bicycle_parking",
    "motorcycle_parking",
    "parking",
    "parking_space",
    "parking_entrance",
    "post_box",
    "vending_machine",
    "telephone",
    "clock",
    "grit_bin",
    "drinking_water",
    "fountain",
    "shelter",
    "hunting_stand",
    "loading_dock",
  ]),
  public_transport: new Set(["stop_position"]),
  railway: new Set([
    "rail",
    "tram",
    "subway",
    "light_rail",
    "level_crossing",
    "crossing",
    "switch",
    "signal",
    "buffer_stop",
    "platform",
    "abandoned",
    "disused",
  ]),
  leisure: new Set(["picnic_table", "firepit"]),
  shop: new Set(["no", "vacant"]),
};

/** The attractor key and value of a feature, or null. */
export function attractorTag(tags: OsmTags): [string, string] | null {
  for (const key of ATTRACTOR_KEYS) {
    const value = tags[key];
    if (value === undefined || value === "no") continue;
    if (NOT_ATTRACTORS[key]?.has(value)) continue;
    return [key, value];
  }
  return null;
}

/** Builds the attractors: tagged points and areas inside the box, and the buildings. */
export function buildAttractors(
  points: readonly MapPoint[],
  areas: readonly MapArea[],
  buildings: readonly CityBuilding[],
  ctx: CityContext,
  defaultLevels: number,
): CityAttractor[] {
  const finder = new BuildingFinder(buildings);
  const out: CityAttractor[] = [];
  const seenBuilding = new Set<string>();
  buildings.forEach((b, i) => {
    const [x, y] = centroid(b.polygon[0]);
    const levels = b.levels ??
      (b.heightSource === "height"
        ? Math.max(1, Math.round(b.height / METRES_PER_LEVEL))
        : defaultLevels);
    out.push({
      id: b.id,
      x,
      y,
      key: "building",
      value: b.kind,
      name: b.name,
      floorArea: polygonArea(b.polygon) * levels,
      building: i,
    });
    seenBuilding.add(b.id);
  });
  for (const p of points) {
    const tag = attractorTag(p.tags);
    if (!tag || !ctx.inside(p.lon, p.lat)) continue;
    const [x, y] = ctx.project(p.lon, p.lat);
    out.push({
      id: p.id,
      x,
      y,
      key: tag[0],
      value: tag[1],
      name: p.tags.name ?? null,
      floorArea: 0,
      building: finder.at(x, y),
    });
  }
  for (const a of areas) {
    const tag = attractorTag(a.tags);
    if (!tag) continue;
    const polygons = ctx.areaPolygons(a.rings);
    if (polygons.length === 0) continue;
    let area = 0, best = polygons[0], bestArea = -1;
    for (const p of polygons) {
      const s = polygonArea(p);
      area += s;
      if (s > bestArea) {
        bestArea = s;
        best = p;
      }
    }
    const [x, y] = centroid(best[0]);
    if (seenBuilding.has(a.id)) {
      // A building with a shop or amenity tag: name the building's attractor by it.
      const i = out.findIndex((o) => o.id === a.id && o.key === "building");
      if (i >= 0) out[i] = { ...out[i], key: tag[0], value: tag[1] };
      continue;
    }
    out.push({
      id: a.id,
      x,
      y,
      key: tag[0],
      value: tag[1],
      name: a.tags.name ?? null,
      floorArea: area,
      building: finder.at(x, y),
    });
  }
  return out;
}

/** Area centroid of a ring (m); the first vertex for degenerate rings. */
function centroid(ring: readonly (readonly [number, number])[]): [number, number] {
  let a = 0, cx = 0, cy = 0;
  const [ox, oy] = ring[0];
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const xj = ring[j][0] - ox, yj = ring[j][1] - oy, xi = ring[i][0] - ox, yi = ring[i][1] - oy;
    const f = xj * yi - xi * yj;
    a += f;
    cx += (xj + xi) * f;
    cy += (yj + yi) * f;
  }
  if (Math.abs(a) < 1e-12) return [ox, oy];
  return [ox + cx / (3 * a), oy + cy / (3 * a)];
}

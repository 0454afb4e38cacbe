/**
 * A city as GeoJSON (RFC 7946, longitude/latitude) that QGIS, kepler.gl or a browser map open
 * directly, and that {@linkcode readMapGeoJson} reads back as the same city.
 *
 * Source features carry OpenStreetMap tags and `@type`/`@id`: buildings (with `height` or
 * `building:levels` as mapped), street edges (`highway`, `name`, `oneway`, `lanes`, `width`,
 * `sidewalk:left|right`, `foot`, …), crossing and signal nodes, pedestrian areas, barriers and
 * point attractors. Derived layers — implied sidewalks, crossing strips, the walkable area —
 * are marked `"throng:derived": true` and skipped on reading, since the builder derives them
 * again. Every feature has a `throng:layer` property to style by.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import type { CityModel, CityPolygon, StreetEdge } from "./city_model.ts";
import { LocalProjection } from "./local_projection.ts";

/** A GeoJSON feature as written. */
export interface GeoJsonFeatureOut {
  /** Always `"Feature"`. */
  readonly type: "Feature";
  /** Geometry in longitude/latitude. */
  readonly geometry: { readonly type: string; readonly coordinates: unknown };
  /** OpenStreetMap tags and `throng:*` properties. */
  readonly properties: Record<string, string | number | boolean | null>;
}

/** A GeoJSON feature collection as written. */
export interface GeoJsonCollectionOut {
  /** Always `"FeatureCollection"`. */
  readonly type: "FeatureCollection";
  /** The city's crop box `[west, south, east, north]`, when it has one. */
  readonly bbox?: readonly number[];
  /** The features. */
  readonly features: GeoJsonFeatureOut[];
}

/** Options of {@linkcode cityToGeoJson}. */
export interface CityGeoJsonOptions {
  /** A walkable area (m) to add as a derived layer. @default none */
  walkable?: readonly CityPolygon[];
  /** Decimal places of longitude and latitude (7 ≈ 1 cm). @default 7 */
  decimals?: number;
}

/**
 * The city (and optionally its walkable area) as a GeoJSON FeatureCollection.
 *
 * @example A round trip keeps the buildings
 * ```ts
 * import { buildCityModel, cityToGeoJson, osmElementsToFeatures, readMapGeoJson, readOsmXml } from "./mod.ts";
 * import assert from "node:assert/strict";
 * const xml = `<osm version="0.6">
 *   <node id="1" lat="60.1700" lon="24.9400"/><node id="2" lat="60.1700" lon="24.9420"/>
 *   <node id="4" lat="60.1702" lon="24.9405"/><node id="5" lat="60.1702" lon="24.9415"/>
 *   <node id="6" lat="60.1705" lon="24.9415"/>
 *   <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="footway"/></way>
 *   <way id="11"><nd ref="4"/><nd ref="5"/><nd ref="6"/><nd ref="4"/><tag k="building" v="yes"/></way>
 * </osm>`;
 * const city = buildCityModel(osmElementsToFeatures(readOsmXml(xml), { file: "a.osm", format: "osm-xml" }));
 * const again = buildCityModel(readMapGeoJson(cityToGeoJson(city)));
 * assert.equal(again.buildings.length, 1);
 * assert.equal(again.streets.edges.length, 1);
 * ```
 */
export function cityToGeoJson(
  city: CityModel,
  options: CityGeoJsonOptions = {},
): GeoJsonCollectionOut {
  const decimals = options.decimals ?? 7;
  const scale = 10 ** decimals;
  const projection = new LocalProjection(city.anchor);
  const pos = ([x, y]: Point): [number, number] => {
    const { lon, lat } = projection.toLonLat(x, y);
    return [Math.round(lon * scale) / scale, Math.round(lat * scale) / scale];
  };
  const line = (points: readonly Point[]) => points.map(pos);
  const polygon = (p: CityPolygon) => p.map((ring) => [...ring.map(pos), pos(ring[0])]);
  const features: GeoJsonFeatureOut[] = [];
  const add = (
    layer: string,
    geometry: { type: string; coordinates: unknown },
    properties: Record<string, string | number | boolean | null>,
    derived = false,
  ) =>
    features.push({
      type: "Feature",
      geometry,
      properties: {
        ...properties,
        "throng:layer": layer,
        ...(derived ? { "throng:derived": true } : {}),
      },
    });

  // Buildings, one feature per id.
  const byId = new Map<string, number[]>();
  city.buildings.forEach((b, i) => (byId.get(b.id) ?? byId.set(b.id, []).get(b.id)!).push(i));
  const buildingKey = new Map<string, [string, string]>();
  for (const a of city.attractors) {
    if (a.key !== "building" && a.building != null && city.buildings[a.building]?.id === a.id) {
      buildingKey.set(a.id, [a.key, a.value]);
    }
  }
  for (const [id, list] of byId) {
    const b = city.buildings[list[0]];
    const poi = buildingKey.get(id);
    add("building", multiPolygon(list.map((i) => polygon(city.buildings[i].polygon))), {
      ...osmId(id),
      building: b.kind,
      ...(b.name !== null ? { name: b.name } : {}),
      ...(b.heightSource === "height" ? { height: String(b.height) } : {}),
      ...(b.levels !== null ? { "building:levels": String(b.levels) } : {}),
      ...(poi ? { [poi[0]]: poi[1] } : {}),
      "throng:height": b.height,
    });
  }

  // Street edges.
  const sidewalkWays = new Set(city.sidewalks.filter((s) => s.mapped).map((s) => s.id));
  for (const e of city.streets.edges) {
    const tags = edgeTags(e);
    if (!e.carriageway && sidewalkWays.has(e.wayId)) tags.footway = "sidewalk";
    add("street", { type: "LineString", coordinates: line(e.points) }, tags);
  }

  // Nodes: crossings and signals (merged per node).
  const nodes = new Map<string, { at: Point; tags: Record<string, string> }>();
  const node = (id: string, at: Point) => {
    let n = nodes.get(id);
    if (!n) nodes.set(id, n = { at, tags: {} });
    return n.tags;
  };
  city.streets.nodes.forEach((n) => {
    if (n.osmId === null || (n.crossing === null && !n.signal)) return;
    const tags = node(`node/${n.osmId}`, [n.x, n.y]);
    if (n.crossing !== null) {
      tags.highway = "crossing";
      tags.crossing = n.crossing;
    }
  });
  for (const s of city.signals) {
    const tags = node(
      s.id,
      s.node !== null ? [city.streets.nodes[s.node].x, city.streets.nodes[s.node].y] : [s.x, s.y],
    );
    if (s.pedestrian) {
      tags.crossing = "traffic_signals";
      tags.highway ??= "crossing";
    } else tags.highway = "traffic_signals";
  }
  for (const [id, n] of nodes) {
    add(n.tags.highway === "crossing" ? "crossing-node" : "signal", {
      type: "Point",
      coordinates: pos(n.at),
    }, { ...osmId(id), ...n.tags });
  }

  // Pedestrian areas, barriers, point attractors.
  const areas = new Map<string, number[]>();
  city.pedestrianAreas.forEach((a, i) =>
    (areas.get(a.id) ?? areas.set(a.id, []).get(a.id)!).push(i)
  );
  for (const [id, list] of areas) {
    const a = city.pedestrianAreas[list[0]];
    const [key, value] = a.kind.split("=");
    add(
      "pedestrian-area",
      multiPolygon(list.map((i) => polygon(city.pedestrianAreas[i].polygon))),
      {
        ...osmId(id),
        [key]: value,
        ...(key === "highway" ? { area: "yes" } : {}),
        ...(a.name !== null ? { name: a.name } : {}),
      },
    );
  }
  const areaKinds = new Map(city.pedestrianAreas.map((a) => [a.id, a.kind]));
  for (const b of city.barriers) {
    const pts = b.closed ? [...b.points, b.points[0]] : b.points;
    add("barrier", { type: "LineString", coordinates: line(pts) }, {
      ...osmId(b.id),
      barrier: b.kind,
    });
  }
  for (const a of city.attractors) {
    // Buildings (whatever their key) are attractors derived again from the buildings.
    const isBuilding = a.building !== null && a.building !== undefined &&
      city.buildings[a.building]?.id === a.id;
    // Areas whose kind is the attractor's tag are derived again from the area.
    if (areaKinds.get(a.id) === `${a.key}=${a.value}`) continue;
    if (a.key === "building" || isBuilding) continue;
    add("attractor", { type: "Point", coordinates: pos([a.x, a.y]) }, {
      ...osmId(a.id),
      [a.key]: a.value,
      ...(a.name !== null ? { name: a.name } : {}),
      "throng:floorArea": a.floorArea,
    });
  }

  // Derived layers.
  for (const s of city.sidewalks) {
    if (s.mapped) continue;
    add("sidewalk", { type: "LineString", coordinates: line(s.points) }, {
      "throng:id": s.id,
      "throng:width": s.width,
      "throng:side": s.side,
    }, true);
  }
  for (const c of city.crossings) {
    add("crossing", { type: "LineString", coordinates: line(c.points) }, {
      "throng:id": c.id,
      "throng:kind": c.kind,
      "throng:signalled": c.signalled,
      "throng:implied": c.implied ?? false,
      "throng:width": c.width,
    }, true);
  }
  if (options.walkable) {
    add("walkable", multiPolygon(options.walkable.map(polygon)), {}, true);
  }
  const [w, s, e, n] = city.bbox ?? [NaN, NaN, NaN, NaN];
  return {
    type: "FeatureCollection",
    ...(city.bbox ? { bbox: [w, s, e, n] } : {}),
    features,
  };
}

function multiPolygon(polygons: unknown[]): { type: string; coordinates: unknown } {
  return polygons.length === 1
    ? { type: "Polygon", coordinates: polygons[0] }
    : { type: "MultiPolygon", coordinates: polygons };
}

/** `@type`/`@id` for OpenStreetMap ids, `throng:id` for generated ones. */
function osmId(id: string): Record<string, string | number> {
  const m = /^(node|way|relation)\/(-?\d+)$/.exec(id);
  return m ? { "@type": m[1], "@id": Number(m[2]) } : { "throng:id": id };
}

/** Tags that make the builder read the edge back as it is. */
function edgeTags(e: StreetEdge): Record<string, string | number> {
  const t: Record<string, string | number> = { ...osmId(e.wayId), highway: e.highway };
  if (e.name !== null) t.name = e.name;
  if (e.oneway) t.oneway = "yes";
  if (e.carriageway) {
    if (e.widthSource === "width" || e.widthSource === "lanes") t.lanes = String(e.lanes);
    const side = (s: string | undefined) => s === "implied" ? "yes" : s === "none" ? "no" : null;
    const left = side(e.sidewalkLeft), right = side(e.sidewalkRight);
    if (left) t["sidewalk:left"] = left;
    if (right) t["sidewalk:right"] = right;
  }
  if (e.widthSource === "width") t.width = String(e.width);
  t.foot = e.walkable ? "yes" : "no";
  if (e.crossing) t.footway = "crossing";
  if (e.tunnel) t.tunnel = "yes";
  if (e.layer) t.layer = String(e.layer);
  if (e.stepCount !== null && e.stepCount !== undefined) t.step_count = String(e.stepCount);
  if (e.incline) t.incline = e.incline;
  return t;
}

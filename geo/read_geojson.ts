/**
 * Reading GeoJSON (RFC 7946, longitude/latitude) maps: a FeatureCollection whose features
 * carry OpenStreetMap tags as properties — the files osmium, Overpass turbo and
 * {@linkcode cityToGeoJson} write. A feature's id comes from `@type`/`@id` properties, an
 * `"way/123"`-style feature `id`, or `properties.id`; tags are the other properties (or a
 * `tags` object). Features marked `"throng:derived": true` (layers the exporter derives, such
 * as the walkable area) are skipped, so an exported city reads back as the same city.
 *
 * GeoJSON lines carry no node ids: the street network is split where lines share a coordinate,
 * and a point feature of type node at a line's vertex lends it its id.
 *
 * @module
 */
import type { FeatureId } from "./city_model.ts";
import { checkGeoBBox, type GeoBBox } from "./geo_bbox.ts";
import type { MapArea, MapFeatures, MapLine, MapPoint } from "./map_features.ts";
import type { MapReadOptions } from "./map_read_options.ts";
import { MapImportError } from "./map_import_error.ts";
import { isAreaTags } from "./osm_features.ts";
import type { OsmTags } from "./osm_elements.ts";

type Position = readonly number[];

interface GeoJsonGeometry {
  readonly type: string;
  readonly coordinates?: unknown;
  readonly geometries?: readonly GeoJsonGeometry[];
}

interface GeoJsonFeature {
  readonly type: "Feature";
  readonly id?: string | number;
  readonly geometry: GeoJsonGeometry | null;
  readonly properties: Record<string, unknown> | null;
}

/**
 * Parses a GeoJSON map (text or an already parsed object) into features.
 *
 * @example A footway and a building
 * ```ts
 * import { readMapGeoJson } from "./read_geojson.ts";
 * import assert from "node:assert/strict";
 * const features = readMapGeoJson({
 *   type: "FeatureCollection",
 *   features: [
 *     { type: "Feature", properties: { "@type": "way", "@id": 5, highway: "footway" },
 *       geometry: { type: "LineString", coordinates: [[7.42, 43.73], [7.421, 43.73]] } },
 *     { type: "Feature", properties: { "@type": "way", "@id": 6, building: "yes" },
 *       geometry: { type: "Polygon", coordinates: [[[7.42, 43.731], [7.421, 43.731], [7.421, 43.732], [7.42, 43.731]]] } },
 *   ],
 * });
 * assert.equal(features.lines[0].id, "way/5");
 * assert.equal(features.areas[0].rings[0].length, 6);
 * ```
 */
export function readMapGeoJson(input: string | unknown, options: MapReadOptions = {}): MapFeatures {
  const file = options.file ?? "<memory>";
  let doc = input as Record<string, unknown>;
  if (typeof input === "string") {
    try {
      doc = JSON.parse(input);
    } catch (error) {
      throw new MapImportError(file, `not valid JSON: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  let list: readonly unknown[];
  if (doc?.type === "FeatureCollection" && Array.isArray(doc.features)) list = doc.features;
  else if (doc?.type === "Feature") list = [doc];
  else {
    throw new MapImportError(
      file,
      `not a GeoJSON FeatureCollection: 'type' is ${JSON.stringify(doc?.type)}`,
    );
  }
  let bounds: GeoBBox | null = null;
  if (Array.isArray(doc.bbox) && doc.bbox.length === 4) {
    try {
      bounds = checkGeoBBox(doc.bbox, "bbox");
    } catch (error) {
      throw new MapImportError(file, (error as Error).message);
    }
  }
  const points: MapPoint[] = [];
  const lines: { id: FeatureId; tags: OsmTags; coords: Float64Array }[] = [];
  const areas: MapArea[] = [];
  list.forEach((raw, i) => {
    const feature = raw as GeoJsonFeature;
    const where = `features[${i}]`;
    if (feature?.type !== "Feature") {
      throw new MapImportError(file, `${where} is not a Feature`);
    }
    const props = feature.properties ?? {};
    if (props["throng:derived"] === true) return;
    const { id, osmId, tags } = identify(feature, props, i);
    const geometry = feature.geometry;
    if (!geometry) return;
    const pos = (p: unknown, at: string): [number, number] => {
      const q = p as Position;
      if (!Array.isArray(q) || q.length < 2 || !Number.isFinite(q[0]) || !Number.isFinite(q[1])) {
        throw new MapImportError(file, `${where}${at} is not a [lon, lat] position`);
      }
      if (Math.abs(q[0]) > 180 || Math.abs(q[1]) > 90) {
        throw new MapImportError(
          file,
          `${where}${at} [${q[0]}, ${
            q[1]
          }] is outside [-180, 180] × [-90, 90] (GeoJSON is longitude, latitude)`,
        );
      }
      return [q[0], q[1]];
    };
    const flat = (list: unknown, at: string, ring: boolean): Float64Array => {
      if (!Array.isArray(list)) throw new MapImportError(file, `${where}${at} is not a list`);
      let n = list.length;
      if (ring && n > 1) {
        const a = pos(list[0], `${at}[0]`), b = pos(list[n - 1], `${at}[${n - 1}]`);
        if (a[0] === b[0] && a[1] === b[1]) n--;
      }
      const out = new Float64Array(2 * n);
      for (let k = 0; k < n; k++) {
        const [x, y] = pos(list[k], `${at}[${k}]`);
        out[2 * k] = x;
        out[2 * k + 1] = y;
      }
      return out;
    };
    const c = geometry.coordinates as unknown[];
    switch (geometry.type) {
      case "Point": {
        const [lon, lat] = pos(c, ".geometry.coordinates");
        points.push({ id, osmId: id.startsWith("node/") ? osmId : null, lon, lat, tags });
        break;
      }
      case "LineString": {
        const coords = flat(c, ".geometry.coordinates", false);
        const n = coords.length / 2;
        const closed = n >= 4 && coords[0] === coords[2 * n - 2] && coords[1] === coords[2 * n - 1];
        if (closed && isAreaTags(tags)) {
          areas.push({ id, tags, rings: [coords.slice(0, 2 * n - 2)] });
        } else if (n >= 2) lines.push({ id, tags, coords });
        break;
      }
      case "MultiLineString":
        (c ?? []).forEach((part, k) => {
          const coords = flat(part, `.geometry.coordinates[${k}]`, false);
          if (coords.length >= 4) lines.push({ id, tags, coords });
        });
        break;
      case "Polygon":
      case "MultiPolygon": {
        const polygons = geometry.type === "Polygon" ? [c] : c;
        const rings: Float64Array[] = [];
        (polygons ?? []).forEach((polygon, p) => {
          if (!Array.isArray(polygon)) {
            throw new MapImportError(file, `${where}.geometry.coordinates[${p}] is not a list`);
          }
          polygon.forEach((ring, r) => {
            const coords = flat(ring, `.geometry.coordinates[${p}][${r}]`, true);
            if (coords.length >= 6) rings.push(coords);
          });
        });
        if (rings.length > 0) areas.push({ id, tags, rings });
        break;
      }
      case "MultiPoint":
      case "GeometryCollection":
        break;
      default:
        throw new MapImportError(
          file,
          `${where}.geometry has type ${JSON.stringify(geometry.type)}, which is not GeoJSON`,
        );
    }
  });
  // Node ids for line vertices from point features at the same position.
  const nodeAt = new Map<string, number>();
  for (const p of points) if (p.osmId !== null) nodeAt.set(`${p.lon},${p.lat}`, p.osmId);
  const mapLines: MapLine[] = lines.map((l) => {
    const nodeIds: (number | null)[] = [];
    for (let k = 0; k < l.coords.length; k += 2) {
      nodeIds.push(nodeAt.get(`${l.coords[k]},${l.coords[k + 1]}`) ?? null);
    }
    return { id: l.id, tags: l.tags, coords: l.coords, nodeIds };
  });
  options.onProgress?.(list.length, list.length);
  return {
    file,
    format: "geojson",
    points,
    lines: mapLines,
    areas,
    bounds,
    incomplete: [],
  };
}

/** Feature id, OpenStreetMap id and tags of a feature. */
function identify(
  feature: GeoJsonFeature,
  props: Record<string, unknown>,
  index: number,
): { id: FeatureId; osmId: number | null; tags: OsmTags } {
  let type: string | null = null, osmId: number | null = null;
  const parse = (v: unknown): boolean => {
    const m = typeof v === "string" ? /^(node|way|relation)\/(-?\d+)$/.exec(v) : null;
    if (!m) return false;
    type = m[1];
    osmId = Number(m[2]);
    return true;
  };
  if (typeof props["@type"] === "string" && props["@id"] !== undefined) {
    if (!parse(props["@id"])) {
      type = props["@type"] as string;
      const n = Number(props["@id"]);
      osmId = Number.isFinite(n) ? n : null;
    }
  } else if (!parse(props["@id"]) && !parse(feature.id)) parse(props.id);
  const source = typeof props.tags === "object" && props.tags !== null
    ? props.tags as Record<string, unknown>
    : props;
  const tags: Record<string, string> = {};
  for (const key in source) {
    if (key.startsWith("@") || key.startsWith("throng:")) continue;
    if (source === props && (key === "id" || key === "tags" || key === "meta")) continue;
    const v = source[key];
    if (v === null || v === undefined || typeof v === "object") continue;
    tags[key] = String(v);
  }
  const id = type !== null && osmId !== null ? `${type}/${osmId}` : `gen/geojson/${index}`;
  return { id, osmId, tags };
}

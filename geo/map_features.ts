/**
 * Map features in longitude and latitude, whatever file they came from: points (tagged nodes),
 * lines (ways, with their node ids) and areas (closed ways with area tags and multipolygon
 * relations, as rings). OpenStreetMap files become features through
 * {@linkcode osmElementsToFeatures}, GeoJSON files directly; the city model is built from
 * features.
 *
 * @module
 */
import type { FeatureId } from "./city_model.ts";
import type { GeoBBox } from "./geo_bbox.ts";
import type { OsmTags } from "./osm_elements.ts";

/** A tagged point. */
export interface MapPoint {
  /** Feature id (`"node/…"`). */
  readonly id: FeatureId;
  /** OpenStreetMap node id, or null. */
  readonly osmId: number | null;
  /** Longitude (degrees). */
  readonly lon: number;
  /** Latitude (degrees). */
  readonly lat: number;
  /** Tags. */
  readonly tags: OsmTags;
}

/** A polyline (a way). */
export interface MapLine {
  /** Feature id (`"way/…"`). */
  readonly id: FeatureId;
  /** Tags. */
  readonly tags: OsmTags;
  /** `[lon0, lat0, lon1, lat1, …]` (degrees), at least two points. */
  readonly coords: Float64Array;
  /** OpenStreetMap node id of each point, null where unknown (GeoJSON input). */
  readonly nodeIds: readonly (number | null)[];
}

/**
 * An area: the region covered by an odd number of its rings (even-odd filling), so outer rings
 * and holes need no roles and islands in holes work.
 */
export interface MapArea {
  /** Feature id (`"way/…"` or `"relation/…"`). */
  readonly id: FeatureId;
  /** Tags. */
  readonly tags: OsmTags;
  /** Closed rings `[lon0, lat0, lon1, lat1, …]` (degrees), first point not repeated. */
  readonly rings: readonly Float64Array[];
}

/**
 * A way or relation that could not be assembled because nodes or members are missing from the
 * file (usually cut off at an extract's edge).
 */
export interface IncompleteFeature {
  /** Feature id. */
  readonly id: FeatureId;
  /** Tags (to tell a building from a fence). */
  readonly tags: OsmTags;
  /** What is missing, e.g. `"way/123 is not in the file"`. */
  readonly reason: string;
  /** Box `[west, south, east, north]` (degrees) of the parts that are present, or null. */
  readonly extent: GeoBBox | null;
}

/** The features of one map file. */
export interface MapFeatures {
  /** The file, for messages. */
  readonly file: string;
  /** `"osm-xml"`, `"osm-pbf"`, `"overpass-json"` or `"geojson"`. */
  readonly format: string;
  /** Points. */
  readonly points: readonly MapPoint[];
  /** Lines. */
  readonly lines: readonly MapLine[];
  /** Areas. */
  readonly areas: readonly MapArea[];
  /** Bounds the file declares, or null. */
  readonly bounds: GeoBBox | null;
  /** Features left out because parts are missing from the file. */
  readonly incomplete: readonly IncompleteFeature[];
}

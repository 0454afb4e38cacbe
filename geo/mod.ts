/**
 * Geography: real cities in, local metres for the simulation, longitude and latitude out.
 *
 * - Map files: OpenStreetMap XML (read with saxes, a strict streaming XML parser), OpenStreetMap
 *   PBF (osm-pbf-parser-node: blob framing, zlib and protobuf decoding with Mapbox `pbf`),
 *   Overpass JSON and GeoJSON (RFC 7946). Every problem with a file is one
 *   {@linkcode MapImportError} line naming the file.
 * - The {@linkcode CityModel}: buildings, the street network split at junctions, sidewalks,
 *   crossings, signals, squares, barriers and attractors, in metres around the crop box's
 *   centre ({@linkcode LocalProjection}); {@linkcode loadCity} reads a file and builds it.
 * - Export: {@linkcode cityToGeoJson} writes the city (and its walkable area) back as GeoJSON in
 *   longitude/latitude, which reads back as the same city.
 *
 * Map data © OpenStreetMap contributors, under the Open Database Licence; any display must say so.
 *
 * @example Project, and back
 * ```ts
 * import { LocalProjection } from "./mod.ts";
 * const projection = new LocalProjection({ lon: 7.4246, lat: 43.7384 });
 * const { lon, lat } = projection.toLonLat(120, -35);
 * ```
 *
 * @module
 */
export { LocalProjection, type LonLat } from "./local_projection.ts";
export {
  generateProceduralCity,
  PROCEDURAL_CITY_OPTIONS,
  type ProceduralCityOptions,
} from "./procedural_city.ts";
export * from "./city_model.ts";
export { bboxContains, checkGeoBBox, type GeoBBox, parseGeoBBox } from "./geo_bbox.ts";
export { MapImportError } from "./map_import_error.ts";
export type { MapReadOptions, MapReadProgress } from "./map_read_options.ts";
export type { IncompleteFeature, MapArea, MapFeatures, MapLine, MapPoint } from "./map_features.ts";
export {
  type OsmElements,
  OsmElementsBuilder,
  type OsmMember,
  type OsmRelation,
  type OsmTags,
  type OsmWay,
} from "./osm_elements.ts";
export { readOsmXml } from "./read_osm_xml.ts";
export { readOsmPbf } from "./read_osm_pbf.ts";
export { readOverpassJson } from "./read_overpass_json.ts";
export { readMapGeoJson } from "./read_geojson.ts";
export { isAreaTags, osmElementsToFeatures } from "./osm_features.ts";
export {
  crossingKind,
  onewayDirection,
  parseCount,
  parseLength,
  type SidewalkSides,
  sidewalkSides,
} from "./osm_tags.ts";
export { LANE_WIDTH, STREET_CLASSES, type StreetClass, type StreetUse } from "./street_classes.ts";
export { offsetPolyline } from "./offset_polyline.ts";
export { BuildingFinder } from "./building_finder.ts";
export {
  buildCityModel,
  CITY_MODEL_OPTIONS,
  type CityBuildInput,
  type CityModelOptions,
} from "./city_builder.ts";
export {
  CITY_BLOCK_OPTIONS,
  type CityBlockOptions,
  type CityBlocks,
  deriveCityBlocks,
  drivenStreet,
  withCityBlocks,
} from "./city_blocks.ts";
export {
  detectMapFormat,
  loadCity,
  type LoadCityOptions,
  type MapFormat,
  readMapFeatures,
  type ReadMapOptions,
} from "./load_city.ts";
export {
  type CityGeoJsonOptions,
  cityToGeoJson,
  type GeoJsonCollectionOut,
  type GeoJsonFeatureOut,
} from "./city_geojson.ts";

/**
 * Loading a city from a map file in one call: the format is told by the file's extension (or
 * its first bytes), the file is read with the matching reader, and the city model is built.
 *
 * @module
 */
import { buildCityModel, type CityBuildInput, type CityModelOptions } from "./city_builder.ts";
import type { CityModel } from "./city_model.ts";
import type { MapFeatures } from "./map_features.ts";
import { MapImportError } from "./map_import_error.ts";
import type { MapReadProgress } from "./map_read_options.ts";
import { osmElementsToFeatures } from "./osm_features.ts";
import { readMapGeoJson } from "./read_geojson.ts";
import { readOsmPbf } from "./read_osm_pbf.ts";
import { readOsmXml } from "./read_osm_xml.ts";
import { readOverpassJson } from "./read_overpass_json.ts";

/** The map formats read. */
export type MapFormat = "osm-xml" | "osm-pbf" | "overpass-json" | "geojson";

/** Options of {@linkcode readMapFeatures}. */
export interface ReadMapOptions {
  /** The file name for messages. @default "<memory>" */
  file?: string;
  /** The format; told from the file name and the first bytes when absent. */
  format?: MapFormat;
  /** Progress through the bytes. @default none */
  onProgress?: MapReadProgress;
}

/** Options of {@linkcode loadCity}: reading, cropping and the model's options. */
export type LoadCityOptions =
  & Omit<ReadMapOptions, "file">
  & CityBuildInput
  & Partial<CityModelOptions>;

/**
 * The format of a map file from its name (`.osm`, `.osm.pbf`/`.pbf`, `.geojson`, `.json`) and
 * its first bytes (`<` XML, `{` JSON with `elements` → Overpass, else GeoJSON; binary → PBF).
 *
 * @example
 * ```ts
 * import { detectMapFormat } from "./load_city.ts";
 * import assert from "node:assert/strict";
 * const bytes = new TextEncoder().encode('{"type":"FeatureCollection","features":[]}');
 * assert.equal(detectMapFormat("city.json", bytes), "geojson");
 * assert.equal(detectMapFormat("city.osm.pbf", new Uint8Array(4)), "osm-pbf");
 * ```
 */
export function detectMapFormat(file: string, bytes: Uint8Array): MapFormat {
  const name = file.toLowerCase();
  if (name.endsWith(".pbf")) return "osm-pbf";
  if (name.endsWith(".osm") || name.endsWith(".xml")) return "osm-xml";
  if (name.endsWith(".geojson")) return "geojson";
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  ) i++;
  if (bytes[i] === 0x3c) return "osm-xml";
  if (bytes[i] === 0x7b) {
    const head = new TextDecoder().decode(bytes.subarray(i, i + 4096));
    return /"elements"\s*:/.test(head) && !/"FeatureCollection"/.test(head)
      ? "overpass-json"
      : "geojson";
  }
  return "osm-pbf";
}

/**
 * Reads the bytes of a map file into features (longitude/latitude).
 *
 * @example An Overpass answer
 * ```ts
 * import { readMapFeatures } from "./load_city.ts";
 * import assert from "node:assert/strict";
 * const text = JSON.stringify({ elements: [{ type: "node", id: 1, lat: 1, lon: 2, tags: { shop: "bakery" } }] });
 * const features = await readMapFeatures(new TextEncoder().encode(text), { file: "q.json" });
 * assert.equal(features.format, "overpass-json");
 * assert.equal(features.points[0].tags.shop, "bakery");
 * ```
 */
export async function readMapFeatures(
  bytes: Uint8Array,
  options: ReadMapOptions = {},
): Promise<MapFeatures> {
  const file = options.file ?? "<memory>";
  const format = options.format ?? detectMapFormat(file, bytes);
  const read = { file, onProgress: options.onProgress };
  const text = () => {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new MapImportError(file, `not a text file, so not ${format}: it is not valid UTF-8`);
    }
  };
  switch (format) {
    case "osm-pbf":
      return osmElementsToFeatures(await readOsmPbf(bytes, read), { file, format });
    case "osm-xml":
      return osmElementsToFeatures(readOsmXml(text(), read), { file, format });
    case "overpass-json":
      return osmElementsToFeatures(readOverpassJson(text(), read), { file, format });
    case "geojson":
      return readMapGeoJson(text(), read);
  }
}

/**
 * Reads a map file and builds its city model. Every problem with the file or the box is a
 * one-line {@linkcode MapImportError} naming the file.
 *
 * @example A city extract, cropped to a few blocks
 * ```ts ignore
 * import { loadCity } from "./load_city.ts";
 * const city = await loadCity("city.osm.pbf", { bbox: [west, south, east, north] });
 * console.log(city.buildings.length, city.streets.edges.length);
 * ```
 */
export async function loadCity(path: string, options: LoadCityOptions = {}): Promise<CityModel> {
  const { format, onProgress, ...build } = options;
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Deno.errors.IsADirectory
      ? "is a directory"
      : error instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : (error as Error).message.split("\n")[0];
    throw new MapImportError(path, `cannot read the map: ${reason}`);
  }
  const features = await readMapFeatures(bytes, { file: path, format, onProgress });
  return buildCityModel(features, build);
}

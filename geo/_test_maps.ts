/**
 * Test helpers: paths of the shared city extracts, small OSM XML maps written in code, and
 * cached loads so that test files share one import per city.
 *
 * @module
 */
import type { CityModel } from "./city_model.ts";
import { buildCityModel, type CityBuildInput, type CityModelOptions } from "./city_builder.ts";
import { readMapFeatures } from "./load_city.ts";
import { osmElementsToFeatures } from "./osm_features.ts";
import { readOsmXml } from "./read_osm_xml.ts";

/** Folder of the shared OpenStreetMap extracts. */
const SHARED = new URL("../../shared/data/", import.meta.url);

/** Paths of the shared extracts. */
export const SHARED_MAPS = {
  helsinkiPbf: new URL("osm/helsinki-centre/helsinki-centre.osm.pbf", SHARED).pathname,
  helsinkiXml: new URL("osm/helsinki-centre/helsinki-centre.osm", SHARED).pathname,
  helsinkiGeoJson: new URL("osm/helsinki-centre/helsinki-centre.geojson", SHARED).pathname,
  monacoPbf: new URL("osm/monaco-centre/monaco-centre.osm.pbf", SHARED).pathname,
  monacoXml: new URL("osm/monaco-centre/monaco-centre.osm", SHARED).pathname,
  monacoGeoJson: new URL("osm/monaco-centre/monaco-centre.geojson", SHARED).pathname,
  sydneyPbf: new URL("cities/sydney-cbd/osm/sydneycbd_2023.osm.pbf", SHARED).pathname,
} as const;

const cache = new Map<string, Promise<CityModel>>();

/** The city of a shared extract, loaded once per test process. */
export function sharedCity(path: string): Promise<CityModel> {
  let city = cache.get(path);
  if (!city) {
    city = Deno.readFile(path).then((bytes) =>
      readMapFeatures(bytes, { file: path }).then((f) => buildCityModel(f))
    );
    cache.set(path, city);
  }
  return city;
}

/** A node of a small test map: id, longitude, latitude, tags. */
export type TestNode = [number, number, number, Record<string, string>?];

/** OSM XML for nodes, ways (`[id, nodeIds, tags]`) and relations. */
export function osmXml(
  nodes: readonly TestNode[],
  ways: readonly [number, readonly number[], Record<string, string>][],
  relations: readonly [number, readonly [string, number, string][], Record<string, string>][] = [],
): string {
  const tags = (t: Record<string, string> = {}) =>
    Object.entries(t).map(([k, v]) => `<tag k="${k}" v="${v}"/>`).join("");
  return `<?xml version="1.0"?><osm version="0.6">${
    nodes.map(([id, lon, lat, t]) => `<node id="${id}" lon="${lon}" lat="${lat}">${tags(t)}</node>`)
      .join("")
  }${
    ways.map(([id, refs, t]) =>
      `<way id="${id}">${refs.map((r) => `<nd ref="${r}"/>`).join("")}${tags(t)}</way>`
    ).join("")
  }${
    relations.map(([id, members, t]) =>
      `<relation id="${id}">${
        members.map(([type, ref, role]) => `<member type="${type}" ref="${ref}" role="${role}"/>`)
          .join("")
      }${tags(t)}</relation>`
    ).join("")
  }</osm>`;
}

/** Builds a city from OSM XML text. */
export function cityFromXml(
  xml: string,
  options: Partial<CityModelOptions> & CityBuildInput = {},
): CityModel {
  return buildCityModel(
    osmElementsToFeatures(readOsmXml(xml, { file: "test.osm" }), {
      file: "test.osm",
      format: "osm-xml",
    }),
    options,
  );
}

/** Longitude and latitude `dx`, `dy` metres from (24.94, 60.17) (equirectangular, for tests). */
export function at(dx: number, dy: number): [number, number] {
  const lat0 = 60.17;
  return [
    24.94 + dx / (111_320 * Math.cos((lat0 * Math.PI) / 180)),
    lat0 + dy / 110_574,
  ];
}

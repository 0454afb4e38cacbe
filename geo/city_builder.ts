/**
 * Building the {@linkcode CityModel} from map features, in named stages: crop and project,
 * buildings, street network, sidewalks, crossings and signals, pedestrian areas, barriers,
 * attractors. Everything is cropped to the box (lines cut at its edge, areas intersected with
 * it) and projected to local metres around the box's centre (azimuthal equidistant, see
 * {@linkcode LocalProjection}).
 *
 * Bad input is a {@linkcode MapImportError} naming the file: an invalid or empty box, a box
 * with no map data or no ways, a box with no streets, footways or squares, and (with
 * `onIncomplete: "error"`) a building or area inside the box that cannot be assembled because
 * nodes or members are missing from the file. With the default `"warn"` such features are left
 * out and listed in {@linkcode CityModel.warnings}: extracts cut them at their edge.
 *
 * @module
 */
import { fitGuessedWidths } from "./_street_widths.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { CityModel } from "./city_model.ts";
import { CityContext } from "./_city_context.ts";
import {
  buildBarriers,
  buildBuildings,
  buildPedestrianAreas,
  pedestrianAreaKind,
} from "./_city_areas.ts";
import { attractorTag, buildAttractors } from "./_city_attractors.ts";
import { buildCrossings } from "./_city_crossings.ts";
import { buildSidewalks } from "./_city_sidewalks.ts";
import { buildStreetNetwork } from "./_street_network.ts";
import { checkGeoBBox, type GeoBBox } from "./geo_bbox.ts";
import { LocalProjection } from "./local_projection.ts";
import { MapImportError } from "./map_import_error.ts";
import type { MapFeatures } from "./map_features.ts";

/** Options of {@linkcode buildCityModel} with limits and defaults. */
export interface CityModelOptions {
  /** Storeys of a building with neither `height` nor `building:levels`. */
  defaultLevels: number;
  /** Width of a sidewalk implied by a road's `sidewalk=*` tag (m). */
  sidewalkWidth: number;
  /** Width of a crossing with no `width` tag (m). */
  crossingWidth: number;
  /** How far a crossing drawn at a node reaches past the carriageway edge (m). */
  crossingReach: number;
  /** Add implied crossings on junction legs with no crossing mapped nearby. */
  junctionCrossings: boolean;
  /** What to do with a building or area in the box whose nodes or members are missing. */
  onIncomplete: "warn" | "error";
}

/** Descriptors of {@linkcode CityModelOptions}. */
export const CITY_MODEL_OPTIONS: OptionSpecs<CityModelOptions> = {
  defaultLevels: {
    type: "number",
    default: 3,
    min: 1,
    max: 200,
    doc: "storeys of a building with neither height nor building:levels (× 3 m for its height)",
  },
  sidewalkWidth: {
    type: "number",
    default: 2.0,
    min: 0.5,
    max: 20,
    unit: "m",
    doc: "width of a sidewalk implied by a road's sidewalk=* tag without sidewalk:width",
  },
  crossingWidth: {
    type: "number",
    default: 3.0,
    min: 0.5,
    max: 20,
    unit: "m",
    doc: "width of a crossing without a width tag",
  },
  crossingReach: {
    type: "number",
    default: 2.0,
    min: 0,
    max: 20,
    unit: "m",
    doc:
      "a crossing drawn at a node reaches this far past each carriageway edge, into the sidewalk",
  },
  junctionCrossings: {
    type: "boolean",
    default: true,
    doc:
      "add implied crossings on junction legs where none is mapped within 25 m (pedestrians may cross at junctions)",
  },
  onIncomplete: {
    type: "enum",
    values: ["warn", "error"],
    default: "warn",
    doc:
      "a building or area in the box with nodes or members missing from the file: leave it out with a warning, or stop with an error",
  },
};

/** What to build: the crop box and the city's name. */
export interface CityBuildInput {
  /** Crop box `[west, south, east, north]` (degrees); null or absent keeps the whole file. */
  bbox?: GeoBBox | null;
  /** Name for listings. @default the file name without folders and extensions */
  name?: string;
}

/**
 * Builds the city model from map features.
 *
 * @example A tiny city: one building beside a street with a crossing node
 * ```ts
 * import { buildCityModel } from "./city_builder.ts";
 * import { readOsmXml } from "./read_osm_xml.ts";
 * import { osmElementsToFeatures } from "./osm_features.ts";
 * import assert from "node:assert/strict";
 * const xml = `<osm version="0.6">
 *   <node id="1" lat="60.1700" lon="24.9400"/><node id="2" lat="60.1700" lon="24.9420"/>
 *   <node id="3" lat="60.1700" lon="24.9410"><tag k="highway" v="crossing"/></node>
 *   <node id="4" lat="60.1702" lon="24.9405"/><node id="5" lat="60.1702" lon="24.9415"/>
 *   <node id="6" lat="60.1705" lon="24.9415"/><node id="7" lat="60.1705" lon="24.9405"/>
 *   <way id="10"><nd ref="1"/><nd ref="3"/><nd ref="2"/><tag k="highway" v="residential"/></way>
 *   <way id="11"><nd ref="4"/><nd ref="5"/><nd ref="6"/><nd ref="7"/><nd ref="4"/>
 *     <tag k="building" v="yes"/><tag k="building:levels" v="4"/></way>
 * </osm>`;
 * const features = osmElementsToFeatures(readOsmXml(xml), { file: "tiny.osm", format: "osm-xml" });
 * const city = buildCityModel(features);
 * assert.equal(city.buildings.length, 1);
 * assert.equal(city.buildings[0].height, 12);
 * assert.equal(city.streets.edges.length, 2); // split at the crossing node
 * assert.equal(city.crossings.length, 1);
 * ```
 */
export function buildCityModel(
  features: MapFeatures,
  options: Partial<CityModelOptions> & CityBuildInput = {},
): CityModel {
  const { bbox: givenBox, name, ...rest } = options;
  const o = resolveOptions("city model", CITY_MODEL_OPTIONS, rest);
  const file = features.file;
  let crop: GeoBBox | null = null;
  if (givenBox !== undefined && givenBox !== null) {
    try {
      crop = checkGeoBBox(givenBox, "bbox");
    } catch (error) {
      throw new MapImportError(file, (error as Error).message);
    }
  }

  // Crop and project.
  const extent = crop ?? features.bounds ?? dataExtent(features);
  if (extent === null) throw new MapImportError(file, "the file holds no map data");
  const anchor = { lon: (extent[0] + extent[2]) / 2, lat: (extent[1] + extent[3]) / 2 };
  if (Math.abs(anchor.lat) > 85) {
    throw new MapImportError(file, `the map lies at latitude ${anchor.lat}, beyond ±85°`);
  }
  const ctx = new CityContext(file, new LocalProjection(anchor), crop);
  checkBoxHoldsData(features, ctx);
  reportIncomplete(features, ctx, o.onIncomplete);

  const buildings = buildBuildings(features.areas, ctx, o.defaultLevels);
  const street = buildStreetNetwork(features.lines, features.points, ctx);
  // Guessed widths narrowed to the room between the houses, before the sidewalks go beside them.
  const fitted = fitGuessedWidths(street.network.edges, buildings);
  const { sidewalks, edges } = buildSidewalks(fitted, street.edgeTags, o);
  const streets = { nodes: street.network.nodes, edges };
  const { crossings, signals } = buildCrossings(
    streets,
    street.edgeTags,
    features.points,
    street.nodeByOsmId,
    ctx,
    o,
  );
  const pedestrianAreas = buildPedestrianAreas(features.areas, ctx);
  if (!streets.edges.some((e) => e.walkable && !e.tunnel) && pedestrianAreas.length === 0) {
    throw new MapImportError(
      file,
      `${boxText(ctx)} holds no streets, footways or squares that people can walk on`,
    );
  }
  const barriers = buildBarriers(features.lines, features.areas, ctx);
  const attractors = buildAttractors(
    features.points,
    features.areas,
    buildings,
    ctx,
    o.defaultLevels,
  );
  const [w, s, e, n] = extent;
  // The box's outline in metres bulges (parallels are curves there): bound every point of it.
  const outline: (readonly [number, number])[] = [];
  for (let i = 0; i <= 16; i++) {
    const t = i / 16;
    outline.push(
      ctx.project(w + t * (e - w), s),
      ctx.project(w + t * (e - w), n),
      ctx.project(w, s + t * (n - s)),
      ctx.project(e, s + t * (n - s)),
    );
  }
  const osm = features.format !== "geojson" ||
    [...features.areas, ...features.lines].some((f) => /^(way|relation)\//.test(f.id));
  return {
    name: name ?? baseName(file),
    anchor,
    bbox: [w, s, e, n],
    bounds: [
      Math.min(...outline.map((c) => c[0])),
      Math.min(...outline.map((c) => c[1])),
      Math.max(...outline.map((c) => c[0])),
      Math.max(...outline.map((c) => c[1])),
    ],
    buildings,
    streets,
    sidewalks,
    pedestrianAreas,
    crossings,
    signals,
    barriers,
    furniture: [],
    attractors,
    blocks: null,
    source: {
      format: features.format,
      path: file,
      attribution: osm ? "© OpenStreetMap contributors" : null,
    },
    warnings: ctx.warnings,
  };
}

function baseName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.(osm\.pbf|pbf|osm|xml|geojson|json)$/i, "") || base;
}

function boxText(ctx: CityContext): string {
  return ctx.crop ? `the box [${ctx.crop.join(", ")}]` : "the file";
}

/** Box of every coordinate of the features, or null when there are none. */
function dataExtent(features: MapFeatures): GeoBBox | null {
  let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
  const add = (lon: number, lat: number) => {
    w = Math.min(w, lon);
    e = Math.max(e, lon);
    s = Math.min(s, lat);
    n = Math.max(n, lat);
  };
  for (const p of features.points) add(p.lon, p.lat);
  for (const l of features.lines) {
    for (let k = 0; k < l.coords.length; k += 2) add(l.coords[k], l.coords[k + 1]);
  }
  for (const a of features.areas) {
    for (const r of a.rings) for (let k = 0; k < r.length; k += 2) add(r[k], r[k + 1]);
  }
  if (!(w <= e)) return null;
  // A single point still needs a box with some extent.
  if (w === e) [w, e] = [w - 1e-4, e + 1e-4];
  if (s === n) [s, n] = [s - 1e-4, n + 1e-4];
  return [w, s, e, n];
}

/** Errors for a box with no data at all, or with points but no ways. */
function checkBoxHoldsData(features: MapFeatures, ctx: CityContext): void {
  let points = 0, ways = 0;
  for (const p of features.points) if (ctx.inside(p.lon, p.lat)) points++;
  const anyInside = (coords: Float64Array) => {
    for (let k = 0; k < coords.length; k += 2) {
      if (ctx.inside(coords[k], coords[k + 1])) return true;
    }
    return false;
  };
  for (const l of features.lines) if (anyInside(l.coords)) ways++;
  for (const a of features.areas) if (a.rings.some(anyInside)) ways++;
  if (points === 0 && ways === 0) {
    const covers = features.bounds ?? dataExtent(features);
    throw new MapImportError(
      ctx.file,
      `${boxText(ctx)} holds no map data${
        covers ? ` (the file covers [${covers.map((v) => +v.toFixed(6)).join(", ")}])` : ""
      }`,
    );
  }
  if (ways === 0) {
    throw new MapImportError(ctx.file, `${boxText(ctx)} holds ${points} tagged points but no ways`);
  }
}

/** Warnings (or an error) for features in the box that could not be assembled. */
function reportIncomplete(
  features: MapFeatures,
  ctx: CityContext,
  mode: "warn" | "error",
): void {
  const relevant = features.incomplete.filter((f) =>
    (f.tags.building !== undefined || pedestrianAreaKind(f.tags) !== null ||
      attractorTag(f.tags) !== null) && f.extent !== null && ctx.meets(f.extent)
  );
  if (relevant.length === 0) return;
  const what = (t: Record<string, string>) =>
    t.building !== undefined ? "building" : pedestrianAreaKind(t) ?? attractorTag(t)!.join("=");
  if (mode === "error") {
    const f = relevant[0];
    throw new MapImportError(
      ctx.file,
      `${f.id} (${what(f.tags)}) cannot be assembled: ${f.reason}`,
    );
  }
  const buildings = relevant.filter((f) => f.tags.building !== undefined).length;
  const ids = relevant.slice(0, 5).map((f) => f.id).join(", ");
  ctx.warn(
    `${relevant.length} features (${buildings} buildings) have nodes or members missing from the file, ` +
      `usually cut off at the extract's edge, and were left out: ${ids}${
        relevant.length > 5 ? ", …" : ""
      }`,
  );
}

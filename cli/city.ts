/**
 * `deno task city`: imports a map (OpenStreetMap XML or PBF, Overpass JSON, GeoJSON), builds its
 * city model, walkable area and navigation mesh, and prints a summary — counts, areas, timings,
 * street nodes that are not reachable. `--export city.geojson` writes the city and its walkable
 * area as GeoJSON (longitude/latitude) for QGIS or kepler.gl.
 *
 * ```sh
 * deno task city city.osm.pbf --export city.geojson
 * deno task city city.osm --bbox 7.418,43.728,7.432,43.740 --json
 * ```
 *
 * A bad map file or box ends with one line on standard error and exit code 2.
 *
 * @module
 */
import { helpText, parseFlags } from "./_args.ts";
import { resolveUserPath } from "./_paths.ts";
import { FileError, runMain, UsageError } from "./_errors.ts";
import { writeTextFileAtomic } from "./_files.ts";
import { createProgress } from "./_progress.ts";
import { buildCityModel } from "../geo/city_builder.ts";
import { cityToGeoJson } from "../geo/city_geojson.ts";
import type { CityModel } from "../geo/city_model.ts";
import { parseGeoBBox } from "../geo/geo_bbox.ts";
import { readMapFeatures } from "../geo/load_city.ts";
import { MapImportError } from "../geo/map_import_error.ts";
import { buildCityNavMesh, type CityNavigation } from "../navigation/city_navmesh.ts";
import { polygonsArea } from "../navigation/walkable_area.ts";

const FLAGS = {
  bbox: { type: "string", help: "crop box west,south,east,north (degrees)" },
  export: { type: "string", short: "o", help: "write the city and walkable area as GeoJSON" },
  "no-mesh": { type: "boolean", help: "build the city model only (no walkable area or mesh)" },
  jaywalking: { type: "boolean", help: "carriageways are walkable everywhere" },
  strict: {
    type: "boolean",
    help: "stop on a building or area whose nodes or members are missing",
  },
  json: { type: "boolean", help: "print the summary as JSON" },
  quiet: { type: "boolean", short: "q", help: "no progress bar" },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const;

const USAGE =
  "Usage: deno task city MAP_FILE [--bbox w,s,e,n] [--export city.geojson] [--no-mesh] [--json]";

/** Files larger than this show a progress bar while read (bytes). */
const PROGRESS_BYTES = 2 << 20;

/** The summary printed. */
interface CitySummary {
  file: string;
  format: string;
  anchor: { lon: number; lat: number };
  bbox: readonly number[] | null;
  buildings: number;
  buildingFootprintM2: number;
  streetNodes: number;
  streetEdges: number;
  streetLengthM: number;
  sidewalks: number;
  crossings: number;
  impliedCrossings: number;
  signals: number;
  pedestrianAreas: number;
  barriers: number;
  attractors: number;
  walkableM2: number | null;
  walkableRegions: number | null;
  meshTriangles: number | null;
  unreachableNodes: Record<string, number> | null;
  timingsMs: Record<string, number>;
  /** Process memory after the import and mesh (MiB): resident set and V8 heap in use. */
  memoryMiB: { rss: number; heapUsed: number };
  warnings: readonly string[];
}

/** Parses flags, imports the map and prints the summary; returns the exit code. */
export async function cityMain(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, FLAGS);
  if (values.help) {
    console.log(helpText(USAGE, FLAGS));
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? "a map file is required (see --help)"
        : `unexpected argument '${positionals[1]}' (see --help)`,
    );
  }
  const file = resolveUserPath(positionals[0]);
  let bbox = null;
  if (typeof values.bbox === "string") {
    try {
      bbox = parseGeoBBox(values.bbox, "--bbox");
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const timings: Record<string, number> = {};
  const time = async <T>(name: string, work: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await work();
    timings[name] = Math.round(performance.now() - start);
    return result;
  };
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "no such file"
      : (error as Error).message.split("\n")[0];
    throw new FileError(`cannot read '${file}': ${reason}`);
  }
  const progress = createProgress(
    "reading",
    Math.ceil(bytes.length / 1024),
    values.quiet === true || bytes.length < PROGRESS_BYTES,
    "KiB",
  );
  const features = await time("read", () =>
    readMapFeatures(bytes, {
      file,
      onProgress: (done) => progress.update(Math.ceil(done / 1024)),
    })).finally(() => progress.stop());
  const city = await time(
    "build",
    () => buildCityModel(features, { bbox, onIncomplete: values.strict ? "error" : "warn" }),
  );
  let nav: CityNavigation | null = null;
  if (!values["no-mesh"]) {
    try {
      nav = await time(
        "walkableAndMesh",
        () => buildCityNavMesh(city, { walkable: { jaywalking: values.jaywalking === true } }),
      );
    } catch (error) {
      if (error instanceof RangeError) throw new MapImportError(file, error.message);
      throw error;
    }
  }
  const memory = Deno.memoryUsage();
  const memoryMiB = {
    rss: Math.round(memory.rss / 2 ** 20),
    heapUsed: Math.round(memory.heapUsed / 2 ** 20),
  };
  if (typeof values.export === "string") {
    const out = resolveUserPath(values.export);
    await time("export", () =>
      writeTextFileAtomic(
        out,
        JSON.stringify(cityToGeoJson(city, { walkable: nav?.walkable.polygons })),
      ));
  }
  const summary = summarize(file, city, nav, timings, memoryMiB);
  if (values.json) console.log(JSON.stringify(summary, null, 2));
  else printSummary(summary, typeof values.export === "string" ? values.export : null);
  return 0;
}

function summarize(
  file: string,
  city: CityModel,
  nav: CityNavigation | null,
  timings: Record<string, number>,
  memoryMiB: { rss: number; heapUsed: number },
): CitySummary {
  const unreachable: Record<string, number> = {};
  for (const u of nav?.unreachable ?? []) unreachable[u.reason] = (unreachable[u.reason] ?? 0) + 1;
  return {
    file,
    format: city.source.format,
    anchor: city.anchor,
    bbox: city.bbox,
    buildings: new Set(city.buildings.map((b) => b.id)).size,
    buildingFootprintM2: Math.round(polygonsArea(city.buildings.map((b) => b.polygon))),
    streetNodes: city.streets.nodes.length,
    streetEdges: city.streets.edges.length,
    streetLengthM: Math.round(city.streets.edges.reduce((s, e) => s + e.length, 0)),
    sidewalks: city.sidewalks.length,
    crossings: city.crossings.filter((c) => !c.implied).length,
    impliedCrossings: city.crossings.filter((c) => c.implied).length,
    signals: city.signals.length,
    pedestrianAreas: city.pedestrianAreas.length,
    barriers: city.barriers.length,
    attractors: city.attractors.length,
    walkableM2: nav ? Math.round(nav.walkable.area) : null,
    walkableRegions: nav ? nav.walkable.polygons.length : null,
    meshTriangles: nav ? nav.mesh.triangleCount : null,
    unreachableNodes: nav ? unreachable : null,
    timingsMs: timings,
    memoryMiB,
    warnings: city.warnings ?? [],
  };
}

function printSummary(s: CitySummary, exported: string | null): void {
  const km2 = (m2: number) => `${(m2 / 1e6).toFixed(3)} km²`;
  const lines = [
    `${s.file} (${s.format}), centred on ${s.anchor.lon.toFixed(5)}, ${s.anchor.lat.toFixed(5)}`,
    `  buildings        ${s.buildings}, footprint ${km2(s.buildingFootprintM2)}`,
    `  street network   ${s.streetNodes} nodes, ${s.streetEdges} edges, ${
      (s.streetLengthM / 1000).toFixed(1)
    } km`,
    `  sidewalks        ${s.sidewalks}`,
    `  crossings        ${s.crossings} mapped, ${s.impliedCrossings} implied; ${s.signals} signals`,
    `  squares          ${s.pedestrianAreas}; barriers ${s.barriers}; attractors ${s.attractors}`,
  ];
  if (s.walkableM2 !== null) {
    const unreachable = Object.entries(s.unreachableNodes ?? {}).map(([k, v]) => `${v} ${k}`);
    const total = Object.values(s.unreachableNodes ?? {}).reduce((a, b) => a + b, 0);
    lines.push(
      `  walkable area    ${
        km2(s.walkableM2)
      } in ${s.walkableRegions} regions, ${s.meshTriangles} triangles`,
      `  unreachable      ${total} of ${s.streetNodes} street nodes${
        unreachable.length ? ` (${unreachable.join(", ")})` : ""
      }`,
    );
  }
  lines.push(
    `  time             ${Object.entries(s.timingsMs).map(([k, v]) => `${k} ${v} ms`).join(", ")}`,
  );
  lines.push(
    `  memory           ${s.memoryMiB.rss} MiB resident, ${s.memoryMiB.heapUsed} MiB heap in use`,
  );
  for (const w of s.warnings) lines.push(`warning: ${w}`);
  if (exported) lines.push(`wrote ${exported}`);
  console.log(lines.join("\n"));
}

if (import.meta.main) {
  await runMain(() => cityMain(Deno.args));
}

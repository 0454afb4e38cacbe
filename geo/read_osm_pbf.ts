/**
 * Reading OpenStreetMap PBF (`.osm.pbf`) with osm-pbf-parser-node: it frames the file's blobs,
 * inflates them with the runtime's zlib and decodes the protobuf messages with Mapbox's `pbf`
 * from the format's published schema. This module feeds it the file in chunks (progress per
 * chunk), collects its nodes, ways and relations into an {@linkcode OsmElementsBuilder}, and
 * turns every failure — a file that is not PBF, a truncated or corrupt one — into a one-line
 * {@linkcode MapImportError}.
 *
 * @module
 */
import { OSMTransform } from "npm:osm-pbf-parser-node@1.1.4";
import type { MapReadOptions } from "./map_read_options.ts";
import { MapImportError } from "./map_import_error.ts";
import { type OsmElements, OsmElementsBuilder, type OsmMember } from "./osm_elements.ts";

/** Bytes handed to the parser at a time. */
const CHUNK = 1 << 20;
/** Largest BlobHeader the format allows (bytes). */
const MAX_BLOB_HEADER = 64 * 1024;

interface PbfHeader {
  bbox?: { left: number; right: number; top: number; bottom: number };
  required_features?: string[];
}
interface PbfNode {
  type: "node";
  id: number;
  lat: number;
  lon: number;
  tags?: Record<string, string>;
}
interface PbfWay {
  type: "way";
  id: number;
  refs: number[];
  tags?: Record<string, string>;
}
interface PbfRelation {
  type: "relation";
  id: number;
  members: OsmMember[];
  tags?: Record<string, string>;
}
type PbfItem = PbfHeader | PbfNode | PbfWay | PbfRelation;

/**
 * Parses the bytes of an OSM PBF file into raw elements.
 *
 * @example Bytes that are not PBF
 * ```ts
 * import { readOsmPbf } from "./read_osm_pbf.ts";
 * import assert from "node:assert/strict";
 * await assert.rejects(
 *   readOsmPbf(new TextEncoder().encode("<osm></osm>"), { file: "city.osm.pbf" }),
 *   /city\.osm\.pbf: not an OSM PBF file/,
 * );
 * ```
 */
export async function readOsmPbf(
  bytes: Uint8Array,
  options: MapReadOptions = {},
): Promise<OsmElements> {
  const file = options.file ?? "<memory>";
  checkFirstBlob(bytes, file);
  const builder = new OsmElementsBuilder(file);
  const transform = new OSMTransform({ withTags: true, withInfo: false });
  let failure: unknown = null;
  let sawHeader = false;
  transform.on("data", (batch: PbfItem[]) => {
    if (failure) return;
    try {
      for (const item of batch) {
        if (!("type" in item)) {
          sawHeader = true;
          readHeader(item, builder, file);
        } else if (item.type === "node") {
          builder.addNode(item.id, item.lon, item.lat, item.tags ?? {});
        } else if (item.type === "way") {
          builder.addWay(item.id, item.refs, item.tags ?? {});
        } else if (item.type === "relation") {
          builder.addRelation(item.id, item.members, item.tags ?? {});
        }
      }
    } catch (error) {
      failure = error;
    }
  });
  const finished = new Promise<void>((resolve) => {
    transform.on("end", () => resolve());
    transform.on("error", (error: unknown) => {
      failure ??= error;
      resolve();
    });
  });
  for (let i = 0; i < bytes.length && !failure; i += CHUNK) {
    const end = Math.min(bytes.length, i + CHUNK);
    await new Promise<void>((resolve) => {
      try {
        if (transform.write(bytes.subarray(i, end))) resolve();
        else transform.once("drain", () => resolve());
      } catch (error) {
        // zlib and protobuf errors are thrown from inside write().
        failure ??= error;
        resolve();
      }
      // A parser error ends the stream without a drain.
      transform.once("error", () => resolve());
    });
    options.onProgress?.(end, bytes.length);
  }
  if (!failure) {
    try {
      transform.end();
    } catch (error) {
      failure ??= error;
    }
    // Drain what is left, so that 'end' fires.
    transform.resume();
    await finished;
  } else {
    transform.destroy();
  }
  if (failure) throw describeFailure(failure, file);
  if (!sawHeader) throw new MapImportError(file, "not an OSM PBF file: it has no OSMHeader block");
  return builder.finish();
}

/** Checks the first blob header before handing the bytes to the parser. */
function checkFirstBlob(bytes: Uint8Array, file: string): void {
  if (bytes.length < 4) {
    throw new MapImportError(file, `not an OSM PBF file: it is only ${bytes.length} bytes long`);
  }
  const size = ((bytes[0] << 24) >>> 0) + (bytes[1] << 16) + (bytes[2] << 8) + bytes[3];
  if (size === 0 || size > MAX_BLOB_HEADER) {
    throw new MapImportError(
      file,
      "not an OSM PBF file: it does not start with a blob header (is it XML or GeoJSON?)",
    );
  }
  if (bytes.length < 4 + size) {
    throw new MapImportError(file, "truncated OSM PBF file: it ends inside the first blob header");
  }
  const header = new TextDecoder("latin1").decode(bytes.subarray(4, 4 + size));
  if (!header.includes("OSMHeader")) {
    throw new MapImportError(file, "not an OSM PBF file: the first blob is not an OSMHeader");
  }
}

function readHeader(header: PbfHeader, builder: OsmElementsBuilder, file: string): void {
  for (const feature of header.required_features ?? []) {
    if (feature !== "OsmSchema-V0.6" && feature !== "DenseNodes") {
      throw new MapImportError(
        file,
        `OSM PBF file needs the feature '${feature}', which this reader does not support`,
      );
    }
  }
  const b = header.bbox;
  if (b && [b.left, b.right, b.top, b.bottom].every(Number.isFinite)) {
    builder.setBounds([b.left / 1e9, b.bottom / 1e9, b.right / 1e9, b.top / 1e9], "header: ");
  }
}

function describeFailure(error: unknown, file: string): MapImportError {
  if (error instanceof MapImportError) return error;
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  if (/input format error|sequence error|Unimplemented type|index out of range/i.test(message)) {
    return new MapImportError(
      file,
      `truncated or corrupt OSM PBF file (${message})`,
    );
  }
  return new MapImportError(file, `corrupt OSM PBF file (${message})`);
}

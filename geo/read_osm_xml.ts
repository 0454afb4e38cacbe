/**
 * Reading OpenStreetMap XML (`.osm`, API 0.6 and JOSM files) with saxes, a strict streaming
 * XML parser: the document is fed in chunks (progress per chunk), elements go straight into an
 * {@linkcode OsmElementsBuilder} without building a document tree. Malformed XML and files
 * whose root is not `<osm>` are {@linkcode MapImportError}s naming the file and line.
 *
 * @module
 */
import { SaxesParser, type SaxesTag } from "npm:saxes@6.0.0";
import type { MapReadOptions } from "./map_read_options.ts";
import { MapImportError } from "./map_import_error.ts";
import {
  type OsmElements,
  OsmElementsBuilder,
  type OsmMember,
  type OsmTags,
} from "./osm_elements.ts";

/** Characters fed to the parser at a time. */
const CHUNK = 1 << 20;

/**
 * Parses OSM XML text into raw elements. Elements marked `action="delete"` (JOSM) or
 * `visible="false"` are skipped.
 *
 * @example A node and a way
 * ```ts
 * import { readOsmXml } from "./read_osm_xml.ts";
 * import assert from "node:assert/strict";
 * const elements = readOsmXml(`<osm version="0.6">
 *   <node id="1" lat="60.17" lon="24.95"/><node id="2" lat="60.171" lon="24.95"/>
 *   <way id="5"><nd ref="1"/><nd ref="2"/><tag k="highway" v="footway"/></way>
 * </osm>`);
 * assert.equal(elements.nodeCount, 2);
 * assert.deepEqual(elements.ways[0].nodes, [1, 2]);
 * assert.throws(() => readOsmXml("<html></html>", { file: "page.osm" }), /page\.osm: .*not <osm>/);
 * ```
 */
export function readOsmXml(text: string, options: MapReadOptions = {}): OsmElements {
  const file = options.file ?? "<memory>";
  const builder = new OsmElementsBuilder(file);
  const parser = new SaxesParser({ position: true });
  let root = true;
  let kind: "node" | "way" | "relation" | null = null;
  let id = NaN, lon = NaN, lat = NaN, skip = false, line = 0;
  let tags: Record<string, string> = {};
  let nodes: number[] = [];
  let members: OsmMember[] = [];
  const where = () => `line ${line}: `;
  const number = (attrs: Record<string, string>, name: string, element: string): number => {
    const raw = attrs[name];
    const v = raw === undefined ? NaN : Number(raw);
    if (raw === undefined || raw.trim() === "" || Number.isNaN(v)) {
      throw new MapImportError(
        file,
        `line ${parser.line}: <${element}> has ${
          raw === undefined ? "no" : `a non-numeric (${JSON.stringify(raw)})`
        } '${name}' attribute`,
      );
    }
    return v;
  };
  parser.on("opentag", (tag: SaxesTag) => {
    const a = tag.attributes as Record<string, string>;
    const name = tag.name;
    if (root) {
      root = false;
      if (name !== "osm") {
        throw new MapImportError(
          file,
          `not an OpenStreetMap XML file: the root element is <${name}>, not <osm>`,
        );
      }
      return;
    }
    switch (name) {
      case "node":
      case "way":
      case "relation":
        kind = name;
        line = parser.line;
        id = number(a, "id", name);
        skip = a.action === "delete" || a.visible === "false";
        tags = {};
        nodes = [];
        members = [];
        if (name === "node" && !skip) {
          lat = number(a, "lat", "node");
          lon = number(a, "lon", "node");
        }
        break;
      case "tag":
        if (kind !== null && a.k !== undefined) tags[a.k] = a.v ?? "";
        break;
      case "nd":
        if (kind === "way") nodes.push(number(a, "ref", "nd"));
        break;
      case "member":
        if (kind === "relation") {
          const type = a.type;
          if (type === "node" || type === "way" || type === "relation") {
            members.push({ type, ref: number(a, "ref", "member"), role: a.role ?? "" });
          }
        }
        break;
      case "bounds":
        builder.setBounds([
          number(a, "minlon", "bounds"),
          number(a, "minlat", "bounds"),
          number(a, "maxlon", "bounds"),
          number(a, "maxlat", "bounds"),
        ], `line ${parser.line}: `);
        break;
    }
  });
  parser.on("closetag", (tag: SaxesTag) => {
    if (tag.name !== kind) return;
    if (!skip) {
      const t: OsmTags = tags;
      if (kind === "node") builder.addNode(id, lon, lat, t, where());
      else if (kind === "way") builder.addWay(id, nodes, t);
      else builder.addRelation(id, members, t);
    }
    kind = null;
  });
  try {
    for (let i = 0; i < text.length; i += CHUNK) {
      parser.write(text.slice(i, i + CHUNK));
      options.onProgress?.(Math.min(text.length, i + CHUNK), text.length);
    }
    parser.close();
  } catch (error) {
    if (error instanceof MapImportError) throw error;
    const message = (error as Error).message.split("\n")[0].replace(/^undefined:/, "");
    throw new MapImportError(file, `malformed XML at ${message}`);
  }
  if (root) throw new MapImportError(file, "not an OpenStreetMap XML file: it has no elements");
  return builder.finish();
}

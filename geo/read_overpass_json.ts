/**
 * Reading Overpass API JSON (and OSM JSON from the editing API): `{"elements": [...]}` with
 * `node` (`lat`, `lon`), `way` (`nodes`, and with `out geom` a `geometry` list) and `relation`
 * (`members`) elements. Ways that carry their geometry but whose nodes are not in the answer get
 * their nodes from it.
 *
 * @module
 */
import type { MapReadOptions } from "./map_read_options.ts";
import { MapImportError } from "./map_import_error.ts";
import { type OsmElements, OsmElementsBuilder, type OsmMember } from "./osm_elements.ts";

/**
 * Parses Overpass JSON (text or an already parsed object) into raw elements.
 *
 * @example A way with its geometry (`out geom`)
 * ```ts
 * import { readOverpassJson } from "./read_overpass_json.ts";
 * import assert from "node:assert/strict";
 * const elements = readOverpassJson({
 *   elements: [{
 *     type: "way", id: 7, nodes: [1, 2], tags: { highway: "footway" },
 *     geometry: [{ lat: 43.73, lon: 7.42 }, { lat: 43.731, lon: 7.42 }],
 *   }],
 * });
 * assert.equal(elements.nodeCount, 2);
 * assert.equal(elements.ways[0].tags.highway, "footway");
 * ```
 */
export function readOverpassJson(
  input: string | unknown,
  options: MapReadOptions = {},
): OsmElements {
  const file = options.file ?? "<memory>";
  let doc: unknown = input;
  if (typeof input === "string") {
    try {
      doc = JSON.parse(input);
    } catch (error) {
      throw new MapImportError(file, `not valid JSON: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  const elements = (doc as { elements?: unknown })?.elements;
  if (typeof doc !== "object" || doc === null || !Array.isArray(elements)) {
    throw new MapImportError(file, "not Overpass/OSM JSON: it has no 'elements' list");
  }
  const builder = new OsmElementsBuilder(file);
  const bounds = (doc as { bounds?: Record<string, number> }).bounds;
  if (bounds && typeof bounds === "object") {
    builder.setBounds([bounds.minlon, bounds.minlat, bounds.maxlon, bounds.maxlat], "bounds: ");
  }
  const seen = new Set<number>();
  const deferred: { id: number; lon: number; lat: number }[] = [];
  elements.forEach((raw: unknown, i: number) => {
    const e = raw as Record<string, unknown>;
    const where = `elements[${i}]: `;
    const id = Number(e?.id);
    if (!Number.isFinite(id)) throw new MapImportError(file, `${where}has no numeric 'id'`);
    const tags = (typeof e.tags === "object" && e.tags !== null ? e.tags : {}) as Record<
      string,
      string
    >;
    if (e.type === "node") {
      builder.addNode(id, Number(e.lon), Number(e.lat), tags, where);
      seen.add(id);
    } else if (e.type === "way") {
      const nodes = Array.isArray(e.nodes) ? e.nodes.map(Number) : [];
      const geometry = Array.isArray(e.geometry) ? e.geometry : null;
      if (geometry && geometry.length === nodes.length) {
        geometry.forEach((g: { lon?: number; lat?: number } | null, k: number) => {
          if (g) deferred.push({ id: nodes[k], lon: Number(g.lon), lat: Number(g.lat) });
        });
      }
      builder.addWay(id, nodes, tags);
    } else if (e.type === "relation") {
      const members: OsmMember[] = [];
      for (const m of Array.isArray(e.members) ? e.members : []) {
        if (m?.type === "node" || m?.type === "way" || m?.type === "relation") {
          members.push({ type: m.type, ref: Number(m.ref), role: String(m.role ?? "") });
        }
      }
      builder.addRelation(id, members, tags);
    } else if (e.type !== "area" && e.type !== "count") {
      throw new MapImportError(
        file,
        `${where}has type ${JSON.stringify(e.type)}; expected node, way or relation`,
      );
    }
  });
  for (const n of deferred) {
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    builder.addNode(n.id, n.lon, n.lat, {}, `node ${n.id} from a way's geometry: `);
  }
  options.onProgress?.(elements.length, elements.length);
  return builder.finish();
}

/**
 * Raw OpenStreetMap elements as read from a file (XML, PBF or Overpass JSON), before any
 * geometry is assembled: nodes in typed arrays, ways as node-id lists, relations as member
 * lists, tags as plain objects. The readers fill it through {@linkcode OsmElementsBuilder},
 * which checks coordinates and reports the file and element of a bad one.
 *
 * @module
 */
import type { GeoBBox } from "./geo_bbox.ts";
import { MapImportError } from "./map_import_error.ts";

/** Tags of an element: key → value. */
export type OsmTags = Readonly<Record<string, string>>;

/** A way: an ordered list of node ids. */
export interface OsmWay {
  /** Way id. */
  readonly id: number;
  /** Node ids in order; a closed way repeats its first id at the end. */
  readonly nodes: readonly number[];
  /** Tags. */
  readonly tags: OsmTags;
}

/** A member of a relation. */
export interface OsmMember {
  /** Element type of the member. */
  readonly type: "node" | "way" | "relation";
  /** Member id. */
  readonly ref: number;
  /** Role (`"outer"`, `"inner"`, …), `""` when none. */
  readonly role: string;
}

/** A relation. */
export interface OsmRelation {
  /** Relation id. */
  readonly id: number;
  /** Members in order. */
  readonly members: readonly OsmMember[];
  /** Tags. */
  readonly tags: OsmTags;
}

/** Every element of one file. */
export interface OsmElements {
  /** Node ids. */
  readonly nodeIds: Float64Array;
  /** Node longitudes (degrees). */
  readonly lon: Float64Array;
  /** Node latitudes (degrees). */
  readonly lat: Float64Array;
  /** Number of nodes. */
  readonly nodeCount: number;
  /** Node id → index into the node arrays. */
  readonly nodeIndex: ReadonlyMap<number, number>;
  /** Tags of tagged nodes, by node index. */
  readonly nodeTags: ReadonlyMap<number, OsmTags>;
  /** Ways. */
  readonly ways: readonly OsmWay[];
  /** Relations. */
  readonly relations: readonly OsmRelation[];
  /** Bounds the file declares (`<bounds>`, the PBF header box), or null. */
  readonly bounds: GeoBBox | null;
}

/**
 * Collects elements while a reader parses a file. Coordinates outside [-180, 180] × [-90, 90]
 * or not finite are a {@linkcode MapImportError} naming the file, the node and `where` (a line
 * number, say).
 *
 * @example Two nodes and a way
 * ```ts
 * import { OsmElementsBuilder } from "./osm_elements.ts";
 * import assert from "node:assert/strict";
 * const builder = new OsmElementsBuilder("tiny.osm");
 * builder.addNode(1, 24.95, 60.17, {});
 * builder.addNode(2, 24.951, 60.17, { highway: "crossing" });
 * builder.addWay(10, [1, 2], { highway: "footway" });
 * const elements = builder.finish();
 * assert.equal(elements.nodeCount, 2);
 * assert.equal(elements.nodeTags.get(1)?.highway, "crossing");
 * assert.throws(() => builder.addNode(3, 200, 0, {}), /tiny\.osm: node 3 has longitude 200/);
 * ```
 */
export class OsmElementsBuilder {
  /** The file being read, for messages. */
  readonly file: string;
  #ids = new Float64Array(1024);
  #lon = new Float64Array(1024);
  #lat = new Float64Array(1024);
  #count = 0;
  #index = new Map<number, number>();
  #tags = new Map<number, OsmTags>();
  #ways: OsmWay[] = [];
  #relations: OsmRelation[] = [];
  #bounds: GeoBBox | null = null;

  constructor(file: string) {
    this.file = file;
  }

  /** Number of nodes so far. */
  get nodeCount(): number {
    return this.#count;
  }

  /** Number of ways so far. */
  get wayCount(): number {
    return this.#ways.length;
  }

  /** Sets the bounds the file declares (degrees). */
  setBounds(bounds: GeoBBox, where = ""): void {
    const [w, s, e, n] = bounds;
    for (
      const [v, limit, name] of [[w, 180, "west"], [s, 90, "south"], [e, 180, "east"], [
        n,
        90,
        "north",
      ]] as const
    ) {
      if (!Number.isFinite(v) || Math.abs(v) > limit) {
        throw new MapImportError(
          this.file,
          `${where}the declared bounds have ${name} ${v}, outside [-${limit}, ${limit}]`,
        );
      }
    }
    this.#bounds = [w, s, e, n];
  }

  /** Adds a node at (`lon`, `lat`) degrees; `where` prefixes messages (e.g. `"line 12: "`). */
  addNode(id: number, lon: number, lat: number, tags: OsmTags, where = ""): void {
    if (!Number.isFinite(id)) {
      throw new MapImportError(this.file, `${where}a node has no valid id`);
    }
    if (!Number.isFinite(lon) || lon < -180 || lon > 180) {
      throw new MapImportError(
        this.file,
        `${where}node ${id} has longitude ${lon}, outside [-180, 180]`,
      );
    }
    if (!Number.isFinite(lat) || lat < -90 || lat > 90) {
      throw new MapImportError(
        this.file,
        `${where}node ${id} has latitude ${lat}, outside [-90, 90]`,
      );
    }
    if (this.#count === this.#ids.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.#ids = grow(this.#ids);
      this.#lon = grow(this.#lon);
      this.#lat = grow(this.#lat);
    }
    const i = this.#count++;
    this.#ids[i] = id;
    this.#lon[i] = lon;
    this.#lat[i] = lat;
    this.#index.set(id, i);
    for (const _ in tags) {
      this.#tags.set(i, tags);
      break;
    }
  }

  /** Adds a way. */
  addWay(id: number, nodes: readonly number[], tags: OsmTags): void {
    this.#ways.push({ id, nodes, tags });
  }

  /** Adds a relation. */
  addRelation(id: number, members: readonly OsmMember[], tags: OsmTags): void {
    this.#relations.push({ id, members, tags });
  }

  /** The elements collected. */
  finish(): OsmElements {
    return {
      nodeIds: this.#ids.subarray(0, this.#count),
      lon: this.#lon.subarray(0, this.#count),
      lat: this.#lat.subarray(0, this.#count),
      nodeCount: this.#count,
      nodeIndex: this.#index,
      nodeTags: this.#tags,
      ways: this.#ways,
      relations: this.#relations,
      bounds: this.#bounds,
    };
  }
}

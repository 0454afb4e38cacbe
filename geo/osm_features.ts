/**
 * From raw OpenStreetMap elements to map features: tagged nodes become points; ways become
 * lines, or areas when they are closed and their tags describe an area (a building, a square
 * with `area=yes`, …); multipolygon relations become areas.
 *
 * A multipolygon's member ways are joined end to end on shared node ids into closed rings; the
 * area is what an odd number of rings covers (even-odd filling, done later by the clipping
 * library), so wrong or missing `inner`/`outer` roles do no harm. A relation tagged only
 * `type=multipolygon` takes its tags from its outer way (the old tagging style). A closed way
 * that is the outline of a multipolygon carrying the same tags is not an area of its own, so a
 * building tagged on both is counted once.
 *
 * Ways with missing nodes and relations with missing members (an extract cuts them at its edge)
 * are not assembled into areas; they are listed in {@linkcode MapFeatures.incomplete} for the
 * city builder to report. Lines keep the runs of nodes that are present.
 *
 * @module
 */
import type { IncompleteFeature, MapArea, MapFeatures, MapLine, MapPoint } from "./map_features.ts";
import type { GeoBBox } from "./geo_bbox.ts";
import type { OsmElements, OsmRelation, OsmTags, OsmWay } from "./osm_elements.ts";

/** Keys that say nothing about what a feature is. */
const UNINTERESTING = new Set([
  "source",
  "source_ref",
  "source:ref",
  "history",
  "attribution",
  "created_by",
  "tiger:county",
  "tiger:tlid",
  "tiger:upload_uuid",
  "note",
  "fixme",
  "FIXME",
  "odbl",
  "type",
]);

/** Values of keys whose closed ways are areas only for some values. */
const AREA_VALUES: Record<string, ReadonlySet<string>> = {
  highway: new Set(["platform", "services", "rest_area"]),
  railway: new Set(["platform", "station", "turntable", "roundhouse"]),
  public_transport: new Set(["platform", "station"]),
  natural: new Set([
    "water",
    "wood",
    "scrub",
    "grassland",
    "heath",
    "sand",
    "beach",
    "bare_rock",
    "wetland",
  ]),
  man_made: new Set(["pier", "bridge", "works"]),
};

/** Keys whose closed ways are areas whatever the value. */
const AREA_KEYS = new Set([
  "building",
  "building:part",
  "area:highway",
  "landuse",
  "leisure",
  "amenity",
  "shop",
  "tourism",
  "office",
  "place",
  "historic",
]);

/**
 * True when a closed way with these tags is an area rather than a ring-shaped line
 * (`area=yes` or `area=no` decide; otherwise the key tables above).
 *
 * @example A building and a roundabout
 * ```ts
 * import { isAreaTags } from "./osm_features.ts";
 * import assert from "node:assert/strict";
 * assert.equal(isAreaTags({ building: "yes" }), true);
 * assert.equal(isAreaTags({ highway: "primary", junction: "roundabout" }), false);
 * assert.equal(isAreaTags({ highway: "pedestrian", area: "yes" }), true);
 * ```
 */
export function isAreaTags(tags: OsmTags): boolean {
  if (tags.area === "yes") return true;
  if (tags.area === "no") return false;
  for (const key in tags) {
    if (AREA_KEYS.has(key) && tags[key] !== "no") return true;
    const values = AREA_VALUES[key];
    if (values?.has(tags[key])) return true;
  }
  return false;
}

/** True when the tags say something beyond bookkeeping. */
function interesting(tags: OsmTags): boolean {
  for (const key in tags) if (!UNINTERESTING.has(key)) return true;
  return false;
}

/**
 * Turns raw elements into points, lines and areas (longitude/latitude).
 *
 * @example A closed building way becomes an area
 * ```ts
 * import { OsmElementsBuilder } from "./osm_elements.ts";
 * import { osmElementsToFeatures } from "./osm_features.ts";
 * import assert from "node:assert/strict";
 * const b = new OsmElementsBuilder("x.osm");
 * b.addNode(1, 0, 0, {});
 * b.addNode(2, 0.001, 0, {});
 * b.addNode(3, 0.001, 0.001, {});
 * b.addWay(9, [1, 2, 3, 1], { building: "yes" });
 * const features = osmElementsToFeatures(b.finish(), { file: "x.osm", format: "osm-xml" });
 * assert.equal(features.areas.length, 1);
 * assert.equal(features.areas[0].id, "way/9");
 * assert.equal(features.areas[0].rings[0].length, 6); // three points, not repeated
 * ```
 */
export function osmElementsToFeatures(
  elements: OsmElements,
  source: { file: string; format: string },
): MapFeatures {
  const points: MapPoint[] = [];
  const lines: MapLine[] = [];
  const areas: MapArea[] = [];
  const incomplete: IncompleteFeature[] = [];
  const { lon, lat, nodeIndex, nodeIds } = elements;

  for (const [i, tags] of elements.nodeTags) {
    if (!interesting(tags)) continue;
    points.push({ id: `node/${nodeIds[i]}`, osmId: nodeIds[i], lon: lon[i], lat: lat[i], tags });
  }

  const wayById = new Map<number, OsmWay>();
  for (const way of elements.ways) wayById.set(way.id, way);
  const consumed = new Set<number>();
  for (const relation of elements.relations) {
    if (relation.tags.type !== "multipolygon") continue;
    const area = assembleMultipolygon(relation, wayById, elements, consumed, incomplete);
    if (area) areas.push(area);
  }

  for (const way of elements.ways) {
    const refs = way.nodes;
    if (refs.length < 2 || !interesting(way.tags)) continue;
    const closed = refs.length >= 4 && refs[0] === refs[refs.length - 1];
    const missing = refs.filter((r) => !nodeIndex.has(r));
    if (closed && isAreaTags(way.tags)) {
      if (consumed.has(way.id)) continue;
      if (missing.length > 0) {
        incomplete.push({
          id: `way/${way.id}`,
          tags: way.tags,
          reason: `${missing.length} of its ${refs.length - 1} nodes are not in the file`,
          extent: extentOf(refs, elements),
        });
        continue;
      }
      const ring = new Float64Array(2 * (refs.length - 1));
      for (let k = 0; k < refs.length - 1; k++) {
        const n = nodeIndex.get(refs[k])!;
        ring[2 * k] = lon[n];
        ring[2 * k + 1] = lat[n];
      }
      areas.push({ id: `way/${way.id}`, tags: way.tags, rings: [ring] });
      continue;
    }
    // A line: keep each run of nodes that are present.
    let run: number[] = [];
    const flush = () => {
      if (run.length >= 2) {
        const coords = new Float64Array(2 * run.length);
        run.forEach((n, k) => {
          coords[2 * k] = lon[n];
          coords[2 * k + 1] = lat[n];
        });
        lines.push({
          id: `way/${way.id}`,
          tags: way.tags,
          coords,
          nodeIds: run.map((n) => nodeIds[n]),
        });
      }
      run = [];
    };
    for (const ref of refs) {
      const n = nodeIndex.get(ref);
      if (n === undefined) flush();
      else run.push(n);
    }
    flush();
  }
  return {
    file: source.file,
    format: source.format,
    points,
    lines,
    areas,
    bounds: elements.bounds,
    incomplete,
  };
}

/** Box of the nodes present among `refs`, or null. */
function extentOf(refs: readonly number[], elements: OsmElements): GeoBBox | null {
  let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
  for (const ref of refs) {
    const i = elements.nodeIndex.get(ref);
    if (i === undefined) continue;
    w = Math.min(w, elements.lon[i]);
    e = Math.max(e, elements.lon[i]);
    s = Math.min(s, elements.lat[i]);
    n = Math.max(n, elements.lat[i]);
  }
  return w <= e ? [w, s, e, n] : null;
}

/** Tags of `way` are all on `relation` too, or both are buildings: the way is only an outline. */
function isOutlineOf(way: OsmWay, relationTags: OsmTags): boolean {
  if (way.tags.building !== undefined && relationTags.building !== undefined) return true;
  for (const key in way.tags) {
    if (UNINTERESTING.has(key)) continue;
    if (relationTags[key] !== way.tags[key]) return false;
  }
  return true;
}

function assembleMultipolygon(
  relation: OsmRelation,
  wayById: ReadonlyMap<number, OsmWay>,
  elements: OsmElements,
  consumed: Set<number>,
  incomplete: IncompleteFeature[],
): MapArea | null {
  const id = `relation/${relation.id}`;
  const memberWays: OsmWay[] = [];
  const missing: string[] = [];
  for (const m of relation.members) {
    if (m.type !== "way") continue;
    if (m.role !== "outer" && m.role !== "inner" && m.role !== "") continue;
    const way = wayById.get(m.ref);
    if (!way) missing.push(`way/${m.ref}`);
    else memberWays.push(way);
  }
  let tags = relation.tags;
  if (!interesting(tags)) {
    // Old style: the tags are on the outer way.
    const outer = relation.members.find((m) =>
      m.type === "way" && m.role === "outer" && wayById.get(m.ref) &&
      interesting(wayById.get(m.ref)!.tags)
    );
    if (outer) tags = { ...wayById.get(outer.ref)!.tags, type: "multipolygon" };
  }
  for (const m of relation.members) {
    const way = m.type === "way" && m.role === "outer" ? wayById.get(m.ref) : undefined;
    if (way && isOutlineOf(way, tags)) consumed.add(way.id);
  }
  const allRefs = memberWays.flatMap((w) => w.nodes);
  for (const way of memberWays) {
    for (const ref of way.nodes) {
      if (!elements.nodeIndex.has(ref)) {
        missing.push(`node/${ref} of way/${way.id}`);
        break;
      }
    }
  }
  if (!interesting(tags)) return null;
  if (missing.length > 0) {
    incomplete.push({
      id,
      tags,
      reason: `its member${missing.length > 1 ? "s" : ""} ${missing.slice(0, 3).join(", ")}${
        missing.length > 3 ? ` and ${missing.length - 3} more` : ""
      } ${missing.length > 1 ? "are" : "is"} not in the file`,
      extent: extentOf(allRefs, elements),
    });
    return null;
  }
  const rings = joinRings(memberWays.map((w) => w.nodes));
  if (rings === null) {
    incomplete.push({
      id,
      tags,
      reason: "its member ways do not join into closed rings",
      extent: extentOf(allRefs, elements),
    });
    return null;
  }
  return {
    id,
    tags,
    rings: rings.map((ring) => {
      const out = new Float64Array(2 * (ring.length - 1));
      for (let k = 0; k < ring.length - 1; k++) {
        const n = elements.nodeIndex.get(ring[k])!;
        out[2 * k] = elements.lon[n];
        out[2 * k + 1] = elements.lat[n];
      }
      return out;
    }),
  };
}

/**
 * Joins node-id lists end to end into closed rings (each returned ring repeats its first id at
 * the end), or null when some cannot be closed.
 */
function joinRings(ways: readonly (readonly number[])[]): number[][] | null {
  const open = ways.filter((w) => w.length >= 2).map((w) => [...w]);
  const rings: number[][] = [];
  while (open.length > 0) {
    const current = open.pop()!;
    while (current[0] !== current[current.length - 1]) {
      const first = current[0], last = current[current.length - 1];
      let joined = false;
      for (let i = 0; i < open.length; i++) {
        const w = open[i];
        if (w[0] === last) current.push(...w.slice(1));
        else if (w[w.length - 1] === last) current.push(...w.slice(0, -1).reverse());
        else if (w[w.length - 1] === first) current.unshift(...w.slice(0, -1));
        else if (w[0] === first) current.unshift(...w.slice(1).reverse());
        else continue;
        open.splice(i, 1);
        joined = true;
        break;
      }
      if (!joined) return null;
    }
    if (current.length >= 4) rings.push(current);
  }
  return rings.length > 0 ? rings : null;
}

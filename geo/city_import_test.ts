import assert from "node:assert/strict";
import { SHARED_MAPS, sharedCity } from "./_test_maps.ts";
import type { CityModel } from "./city_model.ts";
import { polygonsArea } from "../navigation/walkable_area.ts";
import { loadCity } from "./load_city.ts";
import type { OsmElements } from "./osm_elements.ts";
import { readOsmPbf } from "./read_osm_pbf.ts";
import { readOsmXml } from "./read_osm_xml.ts";

/** WGS84 semi-major axis (m) and first eccentricity squared. */
const A = 6_378_137, E2 = 0.00669437999014;

/**
 * Shoelace area (m²) of a [lon, lat] ring, equirectangular around latitude `lat0` with the
 * ellipsoid's radii of curvature there (a sphere would be off by 0.5 % at 60° N).
 */
function ringAreaM2(ring: readonly (readonly number[])[], lat0: number): number {
  const phi = (lat0 * Math.PI) / 180, w = 1 - E2 * Math.sin(phi) ** 2;
  const kx = ((A / Math.sqrt(w)) * Math.cos(phi) * Math.PI) / 180;
  const ky = (((A * (1 - E2)) / w ** 1.5) * Math.PI) / 180;
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    a += ring[j][0] * kx * ring[i][1] * ky - ring[i][0] * kx * ring[j][1] * ky;
  }
  return Math.abs(a) / 2;
}

/** Ids of ways tagged `building` that are outer members of a building multipolygon (XML scan). */
function doubleTaggedOutlines(xml: string): Set<string> {
  const buildingWays = new Set<string>();
  for (const m of xml.matchAll(/<way id="(\d+)"[^>]*>([\s\S]*?)<\/way>/g)) {
    if (/k="building"/.test(m[2])) buildingWays.add(m[1]);
  }
  const out = new Set<string>();
  for (const m of xml.matchAll(/<relation id="\d+"[^>]*>([\s\S]*?)<\/relation>/g)) {
    if (!/k="building"/.test(m[1]) || !/k="type" v="multipolygon"/.test(m[1])) continue;
    for (const r of m[1].matchAll(/type="way" ref="(\d+)" role="outer"/g)) {
      if (buildingWays.has(r[1])) out.add(`way/${r[1]}`);
    }
  }
  return out;
}

/** Building count of the osmium GeoJSON file, without the outlines tagged twice. */
async function geoJsonBuildingCount(geojsonPath: string, xmlPath: string): Promise<number> {
  const doc = JSON.parse(await Deno.readTextFile(geojsonPath));
  const doubles = doubleTaggedOutlines(await Deno.readTextFile(xmlPath));
  return doc.features.filter((
    f: { properties: Record<string, unknown>; geometry: { type: string } },
  ) =>
    f.properties.building !== undefined && f.properties.building !== "no" &&
    (f.geometry.type === "Polygon" || f.geometry.type === "MultiPolygon") &&
    !doubles.has(`${f.properties["@type"]}/${f.properties["@id"]}`)
  ).length;
}

/**
 * Building count and footprint (m²) straight from the raw elements: closed building ways with
 * every node present, and complete building multipolygons (tags on the relation, or on its
 * outer way in the old style) measured as outer rings less inner rings when every member way is
 * closed. Outer ways tagged as buildings themselves are outlines, not buildings of their own.
 */
function rawBuildings(raw: OsmElements) {
  const ways = new Map(raw.ways.map((w) => [w.id, w]));
  const isBuilding = (t: Record<string, string>) => t.building !== undefined && t.building !== "no";
  const complete = (refs: readonly number[]) => refs.every((r) => raw.nodeIndex.has(r));
  const ring = (refs: readonly number[]) =>
    refs.map((r) => [raw.lon[raw.nodeIndex.get(r)!], raw.lat[raw.nodeIndex.get(r)!]]);
  let latSum = 0;
  for (let i = 0; i < raw.nodeCount; i++) latSum += raw.lat[i];
  const lat0 = latSum / raw.nodeCount;
  const outlines = new Set<number>();
  let count = 0, area = 0;
  const unmeasured = new Set<string>();
  for (const r of raw.relations) {
    if (r.tags.type !== "multipolygon") continue;
    const members = r.members.filter((m) => m.type === "way");
    const outer = members.find((m) => m.role === "outer" && ways.has(m.ref));
    const oldStyle = Object.keys(r.tags).length === 1;
    const tags = oldStyle && outer ? ways.get(outer.ref)!.tags : r.tags;
    if (!isBuilding(tags)) continue;
    if (!members.every((m) => ways.has(m.ref) && complete(ways.get(m.ref)!.nodes))) continue;
    for (const m of members) {
      if (m.role === "outer" && isBuilding(ways.get(m.ref)!.tags)) outlines.add(m.ref);
    }
    count++;
    const closed = members.every((m) => {
      const n = ways.get(m.ref)!.nodes;
      return n[0] === n[n.length - 1];
    });
    if (!closed) {
      unmeasured.add(`relation/${r.id}`);
      continue;
    }
    for (const m of members) {
      area += (m.role === "inner" ? -1 : 1) * ringAreaM2(ring(ways.get(m.ref)!.nodes), lat0);
    }
  }
  for (const w of raw.ways) {
    const n = w.nodes;
    if (!isBuilding(w.tags) || outlines.has(w.id) || n.length < 4 || n[0] !== n[n.length - 1]) {
      continue;
    }
    if (!complete(n)) continue;
    count++;
    area += ringAreaM2(ring(n), lat0);
  }
  return { count, area, unmeasured };
}

/** Checks a city's buildings against the raw count. */
function assertMatchesRaw(city: CityModel, raw: OsmElements): void {
  const expected = rawBuildings(raw);
  assert.equal(new Set(city.buildings.map((b) => b.id)).size, expected.count);
  const measured = polygonsArea(
    city.buildings.filter((b) => !expected.unmeasured.has(b.id)).map((b) => b.polygon),
  );
  const error = Math.abs(measured - expected.area) / expected.area;
  assert(error < 0.001, `footprint ${measured.toFixed(0)} m² vs ${expected.area.toFixed(0)} m²`);
}

for (
  const [name, pbf, xml, geojson] of [
    ["Helsinki", SHARED_MAPS.helsinkiPbf, SHARED_MAPS.helsinkiXml, SHARED_MAPS.helsinkiGeoJson],
    ["Monaco", SHARED_MAPS.monacoPbf, SHARED_MAPS.monacoXml, SHARED_MAPS.monacoGeoJson],
  ] as const
) {
  Deno.test(`${name}: building count and footprint match independent counts from the files`, async () => {
    const city = await sharedCity(pbf);
    assertMatchesRaw(city, readOsmXml(await Deno.readTextFile(xml)));
    assert.equal(
      new Set(city.buildings.map((b) => b.id)).size,
      await geoJsonBuildingCount(geojson, xml),
    );
  });
}

Deno.test("Sydney CBD: building count and footprint match a count from the raw PBF elements", async () => {
  const raw = await readOsmPbf(await Deno.readFile(SHARED_MAPS.sydneyPbf));
  assertMatchesRaw(await sharedCity(SHARED_MAPS.sydneyPbf), raw);
});

Deno.test("Helsinki: the XML and the PBF file give the same city", async () => {
  const a = await sharedCity(SHARED_MAPS.helsinkiPbf);
  const b = await sharedCity(SHARED_MAPS.helsinkiXml);
  assert.equal(b.buildings.length, a.buildings.length);
  assert.equal(b.streets.nodes.length, a.streets.nodes.length);
  assert.equal(b.streets.edges.length, a.streets.edges.length);
  assert.equal(b.crossings.length, a.crossings.length);
  assert.equal(b.attractors.length, a.attractors.length);
  const area = (c: CityModel) => polygonsArea(c.buildings.map((x) => x.polygon));
  assert(Math.abs(area(a) - area(b)) < 1);
});

Deno.test("the street network keeps OSM node ids and splits ways at junctions", async () => {
  for (const path of [SHARED_MAPS.helsinkiPbf, SHARED_MAPS.monacoPbf, SHARED_MAPS.sydneyPbf]) {
    const { nodes, edges } = (await sharedCity(path)).streets;
    const ids = nodes.map((n) => n.osmId);
    assert(ids.every((id) => id !== null), "no box: every node is an OSM node");
    assert.equal(new Set(ids).size, nodes.length);
    const degree = new Int32Array(nodes.length);
    for (const e of edges) {
      degree[e.from]++;
      degree[e.to]++;
      const [a, b] = [e.points[0], e.points[e.points.length - 1]];
      assert.deepEqual([a[0], a[1]], [nodes[e.from].x, nodes[e.from].y]);
      assert.deepEqual([b[0], b[1]], [nodes[e.to].x, nodes[e.to].y]);
      assert(e.length > 0);
      if (e.widthSource === "lanes") assert.equal(e.width, 3 * e.lanes);
      if (!e.carriageway) assert.equal(e.lanes, 0);
    }
    nodes.forEach((n, i) => {
      assert.equal(n.degree, degree[i]);
      assert.equal(n.junction, degree[i] >= 3);
    });
    // A junction node never sits inside an edge: interior points are used by that edge only.
    const interior = new Set<string>();
    for (const e of edges) {
      for (const p of e.points.slice(1, -1)) interior.add(`${p[0]},${p[1]}`);
    }
    assert(nodes.filter((n) => n.junction).every((n) => !interior.has(`${n.x},${n.y}`)));
  }
});

Deno.test("a crop box cuts streets at its edge and centres the local frame on it", async () => {
  const bbox = [24.938, 60.166, 24.948, 60.172] as const;
  const city = await loadCity(SHARED_MAPS.helsinkiPbf, { bbox });
  assert(Math.abs(city.anchor.lon - 24.943) < 1e-12 && Math.abs(city.anchor.lat - 60.169) < 1e-12);
  const [x0, y0, x1, y1] = city.bounds;
  for (const e of city.streets.edges) {
    for (const [x, y] of e.points) {
      assert(x >= x0 - 1e-6 && x <= x1 + 1e-6 && y >= y0 - 1e-6 && y <= y1 + 1e-6);
    }
  }
  const cut = city.streets.nodes.filter((n) => n.osmId === null);
  assert(cut.length > 20, `${cut.length} nodes where streets leave the box`);
  const whole = await sharedCity(SHARED_MAPS.helsinkiPbf);
  assert(city.buildings.length < whole.buildings.length);
  const width = x1 - x0, height = y1 - y0;
  assert(Math.abs(width - 555) < 5 && Math.abs(height - 668) < 5, `${width} × ${height} m`);
});

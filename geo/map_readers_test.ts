import assert from "node:assert/strict";
import { at, cityFromXml, osmXml, SHARED_MAPS } from "./_test_maps.ts";
import { buildCityModel } from "./city_builder.ts";
import { readMapFeatures } from "./load_city.ts";
import { MapImportError } from "./map_import_error.ts";
import { osmElementsToFeatures } from "./osm_features.ts";
import { readOsmPbf } from "./read_osm_pbf.ts";
import { readOsmXml } from "./read_osm_xml.ts";
import { readOverpassJson } from "./read_overpass_json.ts";
import { readMapGeoJson } from "./read_geojson.ts";

/** Asserts a one-line MapImportError naming the file and matching `reason`. */
async function rejectsWith(work: () => unknown, file: string, reason: RegExp): Promise<void> {
  try {
    await work();
  } catch (error) {
    assert(error instanceof MapImportError, `expected a MapImportError, got ${error}`);
    assert.equal(error.file, file);
    assert.match(error.message, reason);
    assert(!error.message.includes("\n"), `one line: ${error.message}`);
    assert(error.message.startsWith(`${file}: `));
    return;
  }
  assert.fail(`expected an error matching ${reason}`);
}

Deno.test("the XML and PBF versions of an extract give the same raw elements", async () => {
  const xml = readOsmXml(await Deno.readTextFile(SHARED_MAPS.monacoXml));
  const pbf = await readOsmPbf(await Deno.readFile(SHARED_MAPS.monacoPbf));
  assert.equal(xml.nodeCount, 31_613);
  assert.equal(pbf.nodeCount, xml.nodeCount);
  assert.equal(pbf.ways.length, 4_783);
  assert.equal(xml.ways.length, pbf.ways.length);
  assert.equal(xml.relations.length, 124);
  assert.equal(pbf.relations.length, 124);
  const i = xml.nodeIndex.get(25_177_418) ?? xml.nodeIndex.values().next().value!;
  const j = pbf.nodeIndex.get(xml.nodeIds[i])!;
  assert(Math.abs(xml.lon[i] - pbf.lon[j]) < 1e-7 && Math.abs(xml.lat[i] - pbf.lat[j]) < 1e-7);
  assert.deepEqual(xml.ways[100].nodes, pbf.ways.find((w) => w.id === xml.ways[100].id)!.nodes);
});

Deno.test("a truncated or corrupt PBF is a one-line error naming the file", async () => {
  const bytes = await Deno.readFile(SHARED_MAPS.sydneyPbf);
  await rejectsWith(
    () => readMapFeatures(bytes.subarray(0, bytes.length >> 1), { file: "cut.osm.pbf" }),
    "cut.osm.pbf",
    /truncated or corrupt OSM PBF/,
  );
  const corrupt = bytes.slice();
  for (let i = 20_000; i < 20_200; i++) corrupt[i] ^= 0x5a;
  await rejectsWith(
    () => readMapFeatures(corrupt, { file: "bad.osm.pbf" }),
    "bad.osm.pbf",
    /corrupt OSM PBF/,
  );
  await rejectsWith(
    () => readOsmPbf(new TextEncoder().encode("<osm/>"), { file: "xml.pbf" }),
    "xml.pbf",
    /not an OSM PBF file/,
  );
});

Deno.test("XML that is not OpenStreetMap, or not XML, is a one-line error with the line", async () => {
  await rejectsWith(
    () => readOsmXml('<?xml version="1.0"?><gpx><trk/></gpx>', { file: "track.gpx" }),
    "track.gpx",
    /root element is <gpx>, not <osm>/,
  );
  await rejectsWith(
    () => readOsmXml('<osm>\n<node id="1" lat="1" lon="2">\n</osm>', { file: "broken.osm" }),
    "broken.osm",
    /malformed XML at 3:\d+/,
  );
  await rejectsWith(
    () => readOsmXml('<osm>\n<node id="1" lat="north" lon="2"/></osm>', { file: "a.osm" }),
    "a.osm",
    /line 2: <node> has a non-numeric \("north"\) 'lat'/,
  );
});

Deno.test("coordinates outside ±180/±90 are an error in every format", async () => {
  await rejectsWith(
    () => readOsmXml('<osm>\n\n<node id="7" lat="91.5" lon="2"/></osm>', { file: "x.osm" }),
    "x.osm",
    /line 3: node 7 has latitude 91\.5, outside \[-90, 90\]/,
  );
  await rejectsWith(
    () =>
      readOverpassJson({ elements: [{ type: "node", id: 3, lat: 10, lon: 181 }] }, {
        file: "q.json",
      }),
    "q.json",
    /node 3 has longitude 181, outside \[-180, 180\]/,
  );
  await rejectsWith(
    () =>
      readMapGeoJson({
        type: "FeatureCollection",
        features: [{
          type: "Feature",
          properties: {},
          geometry: { type: "Point", coordinates: [60.17, 124.94] },
        }],
      }, { file: "swapped.geojson" }),
    "swapped.geojson",
    /features\[0\]\.geometry\.coordinates \[60\.17, 124\.94\] is outside .*longitude, latitude/,
  );
});

const street = (): string =>
  osmXml(
    [[1, ...at(0, 0)], [2, ...at(100, 0)], [3, ...at(50, 0), { shop: "bakery" }]],
    [[10, [1, 2], { highway: "residential", sidewalk: "both" }]],
  );

Deno.test("an empty box, a box with no ways and a box with no streets are errors", async () => {
  const [w, s] = at(0, 0), [e, n] = at(100, 10);
  await rejectsWith(
    () => cityFromXml(street(), { bbox: [w + 1, s + 1, e + 1, n + 1] }),
    "test.osm",
    /holds no map data \(the file covers \[/,
  );
  await rejectsWith(
    () => cityFromXml(street(), { bbox: [w, s, e, s] }),
    "test.osm",
    /'bbox' is empty: south .* must be less than north/,
  );
  const onlyShop = osmXml([[3, ...at(50, 0), { shop: "bakery" }]], []);
  await rejectsWith(() => cityFromXml(onlyShop), "test.osm", /holds 1 tagged points but no ways/);
  const onlyBuilding = osmXml(
    [[1, ...at(0, 0)], [2, ...at(10, 0)], [3, ...at(10, 10)]],
    [[5, [1, 2, 3, 1], { building: "yes" }]],
  );
  await rejectsWith(
    () => cityFromXml(onlyBuilding),
    "test.osm",
    /holds no streets, footways or squares/,
  );
  assert.equal(cityFromXml(street()).streets.edges.length, 1);
});

Deno.test("a relation with missing members is left out with a warning, or an error when strict", async () => {
  const xml = osmXml(
    [[1, ...at(0, 0)], [2, ...at(40, 0)], [3, ...at(40, 40)], [4, ...at(0, 40)], [
      5,
      ...at(-10, -5),
    ], [
      6,
      ...at(50, -5),
    ]],
    [
      [20, [1, 2, 3, 4, 1], {}],
      [21, [5, 6], { highway: "footway" }],
    ],
    [[30, [["way", 20, "outer"], ["way", 99, "inner"]], { type: "multipolygon", building: "yes" }]],
  );
  const city = cityFromXml(xml);
  assert.equal(city.buildings.length, 0);
  assert.equal(city.warnings!.length, 1);
  assert.match(
    city.warnings![0],
    /1 features \(1 buildings\) have nodes or members missing.*relation\/30/,
  );
  await rejectsWith(
    () => cityFromXml(xml, { onIncomplete: "error" }),
    "test.osm",
    /relation\/30 \(building\) cannot be assembled: its member way\/99 is not in the file/,
  );
});

Deno.test("Overpass JSON with way geometry reads like the same map in XML", () => {
  const xml = street();
  const json = {
    elements: [
      { type: "node", id: 3, lon: at(50, 0)[0], lat: at(50, 0)[1], tags: { shop: "bakery" } },
      {
        type: "way",
        id: 10,
        nodes: [1, 2],
        tags: { highway: "residential", sidewalk: "both" },
        geometry: [at(0, 0), at(100, 0)].map(([lon, lat]) => ({ lon, lat })),
      },
    ],
  };
  const a = cityFromXml(xml);
  const b = buildCityModel(
    osmElementsToFeatures(readOverpassJson(json, { file: "q.json" }), {
      file: "q.json",
      format: "overpass-json",
    }),
  );
  assert.equal(b.streets.edges.length, a.streets.edges.length);
  assert(Math.abs(b.streets.edges[0].length - a.streets.edges[0].length) < 1e-6);
  assert.equal(b.sidewalks.length, 2);
  assert.equal(b.attractors.filter((x) => x.key === "shop").length, 1);
});

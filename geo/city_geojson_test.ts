import assert from "node:assert/strict";
import { at, cityFromXml, osmXml, SHARED_MAPS, sharedCity } from "./_test_maps.ts";
import { buildCityModel } from "./city_builder.ts";
import type { CityModel } from "./city_model.ts";
import { cityToGeoJson } from "./city_geojson.ts";
import { LocalProjection } from "./local_projection.ts";
import { readMapGeoJson } from "./read_geojson.ts";
import { buildCityWalkableArea } from "../navigation/city_walkable.ts";
import { polygonsArea } from "../navigation/walkable_area.ts";

function summary(city: CityModel) {
  return {
    buildings: city.buildings.length,
    buildingIds: new Set(city.buildings.map((b) => b.id)).size,
    footprint: polygonsArea(city.buildings.map((b) => b.polygon)),
    heights: city.buildings.reduce((s, b) => s + b.height, 0),
    squares: city.pedestrianAreas.length,
    squareArea: polygonsArea(city.pedestrianAreas.map((a) => a.polygon)),
    barriers: city.barriers.length,
    crossings: city.crossings.length,
    signals: city.signals.length,
    sidewalks: city.sidewalks.length,
    attractors: city.attractors.length,
    nodes: city.streets.nodes.length,
    edges: city.streets.edges.length,
    length: city.streets.edges.reduce((s, e) => s + e.length, 0),
  };
}

for (
  const [name, path] of [["Monaco", SHARED_MAPS.monacoPbf], ["Helsinki", SHARED_MAPS.helsinkiPbf]]
) {
  Deno.test(`${name}: the GeoJSON export reads back as the same city`, async () => {
    const city = await sharedCity(path);
    const text = JSON.stringify(cityToGeoJson(city));
    const again = buildCityModel(readMapGeoJson(text, { file: "city.geojson" }));
    const a = summary(city), b = summary(again);
    for (
      const key of [
        "buildings",
        "buildingIds",
        "squares",
        "barriers",
        "crossings",
        "signals",
        "sidewalks",
        "attractors",
      ] as const
    ) {
      assert.equal(b[key], a[key], key);
    }
    for (const key of ["footprint", "squareArea", "length", "heights"] as const) {
      assert(Math.abs(b[key] - a[key]) <= 1e-4 * a[key], `${key}: ${b[key]} vs ${a[key]}`);
    }
    // GeoJSON has no node ids: ways crossing at a shared position without a shared node join.
    assert(Math.abs(b.edges - a.edges) <= 0.001 * a.edges, `${b.edges} vs ${a.edges} edges`);
    assert(Math.abs(b.nodes - a.nodes) <= 0.001 * a.nodes, `${b.nodes} vs ${a.nodes} nodes`);
  });
}

Deno.test("the export is RFC 7946 GeoJSON in longitude/latitude with the walkable area as a layer", () => {
  const xml = osmXml(
    [[1, ...at(-50, 0)], [2, ...at(0, 0), { highway: "crossing" }], [3, ...at(50, 0)]],
    [[10, [1, 2, 3], { highway: "residential", sidewalk: "both", width: "6" }]],
  );
  const city = cityFromXml(xml);
  const walkable = buildCityWalkableArea(city);
  const doc = cityToGeoJson(city, { walkable: walkable.polygons });
  assert.equal(doc.type, "FeatureCollection");
  assert.deepEqual(doc.bbox, city.bbox);
  const layers = new Set(doc.features.map((f) => f.properties["throng:layer"]));
  for (const layer of ["street", "crossing-node", "sidewalk", "crossing", "walkable"]) {
    assert(layers.has(layer), layer);
  }
  const projection = new LocalProjection(city.anchor);
  for (const f of doc.features) {
    const g = f.geometry as { type: string; coordinates: number[][][] };
    if (g.type !== "Polygon") continue;
    for (const ring of g.coordinates) {
      assert.deepEqual(ring[0], ring[ring.length - 1], "rings are closed");
      for (const [lon, lat] of ring) {
        assert(Math.abs(lon - 24.94) < 0.01 && Math.abs(lat - 60.17) < 0.01);
      }
    }
    if (f.properties["throng:layer"] !== "walkable") continue;
    const local = g.coordinates.map((r) =>
      r.slice(0, -1).map(([lon, lat]) => projection.toLocal(lon, lat))
    );
    const area = polygonsArea([local]);
    // 7 decimals of a degree are within 1 cm: the area is right to 1 cm times the perimeter.
    let perimeter = 0;
    for (const r of local) {
      r.forEach((
        p,
        i,
      ) => (perimeter += Math.hypot(
        ...r[(i + 1) % r.length].map((v, k) => v - p[k]) as [number, number],
      )));
    }
    assert(Math.abs(area - walkable.area) < 0.01 * perimeter, `${area} vs ${walkable.area} m²`);
  }
  // The derived layers are skipped when reading back.
  const again = buildCityModel(readMapGeoJson(doc));
  assert.equal(again.sidewalks.length, city.sidewalks.length);
  assert.equal(again.crossings.length, 1);
});

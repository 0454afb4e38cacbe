import assert from "node:assert/strict";
import { at, cityFromXml, osmXml, type TestNode } from "../geo/_test_maps.ts";
import { buildCityWalkableArea, type CityWalkableArea } from "./city_walkable.ts";

/** True when (x, y) lies in the walkable area. */
function walkableAt(area: CityWalkableArea, x: number, y: number): boolean {
  const inside = (ring: readonly (readonly [number, number])[]) => {
    let c = false;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i], [xj, yj] = ring[j];
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
    }
    return c;
  };
  return area.polygons.some((p) => inside(p[0]) && !p.slice(1).some(inside));
}

/** A 200 m east-west street (8 m wide) at y = 0, with extra nodes and ways. */
function street(
  tags: Record<string, string>,
  nodes: TestNode[] = [],
  ways: [number, number[], Record<string, string>][] = [],
): string {
  return osmXml(
    [[1, ...at(-100, 0)], [2, ...at(0, 0)], [3, ...at(100, 0)], ...nodes],
    [[10, [1, 2, 3], { highway: "secondary", width: "8", ...tags }], ...ways],
  );
}

Deno.test("a street with tagged sidewalks is walkable beside the carriageway, not on it", () => {
  const city = cityFromXml(street({ sidewalk: "both" }));
  const area = buildCityWalkableArea(city);
  assert.equal(area.polygons.length, 2, "two sidewalks, nothing joins them");
  const y = (dy: number) => city.streets.edges[0].points[0][1] + dy;
  assert(walkableAt(area, 0, y(5)) && walkableAt(area, 0, y(-5)), "sidewalk centres 5 m out");
  assert(!walkableAt(area, 0, y(0)) && !walkableAt(area, 0, y(3.5)), "the carriageway");
  assert(!walkableAt(area, 0, y(6.5)), "beyond the 2 m sidewalk");
});

Deno.test("a crossing node joins the two sidewalks across the carriageway", () => {
  const xml = street({ sidewalk: "both" }).replace(
    '<node id="2" ',
    '<node id="2" ',
  ).replace(
    /(<node id="2"[^>]*>)/,
    '$1<tag k="highway" v="crossing"/><tag k="crossing" v="zebra"/>',
  );
  const city = cityFromXml(xml);
  assert.equal(city.crossings.length, 1);
  assert.equal(city.crossings[0].kind, "zebra");
  const area = buildCityWalkableArea(city);
  assert.equal(area.polygons.length, 1);
  assert(walkableAt(area, 0, city.streets.nodes[1].y));
  assert(!walkableAt(area, 10, city.streets.nodes[1].y), "only at the crossing");
});

Deno.test("jaywalking makes the whole carriageway walkable", () => {
  const city = cityFromXml(street({ sidewalk: "both" }));
  const area = buildCityWalkableArea(city, { jaywalking: true });
  assert.equal(area.polygons.length, 1);
  assert(walkableAt(area, 30, city.streets.nodes[0].y));
});

Deno.test("a street with unknown sidewalks gets edge strips inside the kerb", () => {
  const city = cityFromXml(street({}));
  const e = city.streets.edges;
  assert.equal(e[0].sidewalkLeft, "unknown");
  const area = buildCityWalkableArea(city, { edgeStripWidth: 1.5 });
  const y0 = city.streets.nodes[0].y;
  assert.equal(area.polygons.length, 2);
  assert(walkableAt(area, 0, y0 + 3.25) && walkableAt(area, 0, y0 - 3.25), "strip 2.5–4 m out");
  assert(!walkableAt(area, 0, y0 + 2) && !walkableAt(area, 0, y0 + 4.5));
  const strips = area.area;
  assert(Math.abs(strips - 2 * 1.5 * 200) < 0.05 * strips, `${strips} m²`);
});

Deno.test("a footway running along a street counts as its sidewalk: no edge strip on that side", () => {
  const city = cityFromXml(
    street({}, [[4, ...at(-100, 7)], [5, ...at(100, 7)]], [[11, [4, 5], { highway: "footway" }]]),
  );
  const road = city.streets.edges.find((e) => e.carriageway)!;
  assert.equal(road.sidewalkLeft, "mapped");
  assert.equal(road.sidewalkRight, "unknown");
  const area = buildCityWalkableArea(city);
  const y0 = city.streets.nodes[0].y;
  assert(!walkableAt(area, 0, y0 + 3.25), "no strip under the mapped sidewalk's side");
  assert(walkableAt(area, 0, y0 - 3.25));
});

Deno.test("buildings and walls are cut out of footways and squares", () => {
  const square: TestNode[] = [[20, ...at(-30, -30)], [21, ...at(30, -30)], [22, ...at(30, 30)], [
    23,
    ...at(-30, 30),
  ]];
  const house: TestNode[] = [[30, ...at(-10, -10)], [31, ...at(10, -10)], [32, ...at(10, 10)], [
    33,
    ...at(-10, 10),
  ]];
  const wall: TestNode[] = [[40, ...at(20, -35)], [41, ...at(20, 35)]];
  const city = cityFromXml(osmXml(
    [...square, ...house, ...wall, [50, ...at(-40, 0)], [51, ...at(-20, 0)]],
    [
      [60, [20, 21, 22, 23, 20], { highway: "pedestrian", area: "yes" }],
      [61, [30, 31, 32, 33, 30], { building: "yes" }],
      [62, [40, 41], { barrier: "wall" }],
      [63, [50, 51], { highway: "footway" }],
    ],
  ));
  assert.equal(city.pedestrianAreas.length, 1);
  assert.equal(city.barriers.length, 1);
  const area = buildCityWalkableArea(city);
  const house0 = city.buildings[0].polygon[0][0];
  assert(!walkableAt(area, house0[0] + 10, house0[1] + 10), "inside the building");
  // The square west of the wall, less the house, plus the footway outside the square (with its
  // 1 m square end); the part east of the wall holds no street and is dropped.
  const expected = 49.9 * 60 - 20 * 20 + 11 * 2;
  assert(Math.abs(area.area - expected) < 0.02 * expected, `${area.area} vs ${expected} m²`);
  assert.equal(area.polygons.length, 1, "the part beyond the wall holds no street: dropped");
  assert.equal(area.droppedRegions, 1);
  assert(Math.abs(area.droppedArea - 9.9 * 60) < 0.02 * 9.9 * 60, `${area.droppedArea} m²`);
});

Deno.test("a way passing a fence at a shared node goes through a gate; elsewhere the fence blocks", () => {
  const nodes: TestNode[] = [[1, ...at(-30, 0)], [2, ...at(0, 0)], [3, ...at(30, 0)], [
    4,
    ...at(0, -20),
  ], [5, ...at(0, 20)]];
  const gate = cityFromXml(osmXml(nodes, [
    [10, [1, 2, 3], { highway: "footway" }],
    [11, [4, 2, 5], { barrier: "fence" }],
  ]));
  assert.equal(buildCityWalkableArea(gate).polygons.length, 1);
  const fence = cityFromXml(osmXml(nodes, [
    [10, [1, 3], { highway: "footway" }],
    [11, [4, 2, 5], { barrier: "fence" }],
  ]));
  assert.equal(buildCityWalkableArea(fence).polygons.length, 2);
});

Deno.test("a footbridge crosses a road that cuts a footway on the ground", () => {
  const nodes: TestNode[] = [[1, ...at(-100, 0)], [2, ...at(100, 0)], [3, ...at(0, -20)], [
    4,
    ...at(0, 20),
  ]];
  const road = { highway: "primary", sidewalk: "both" };
  const ground = cityFromXml(osmXml(nodes, [
    [10, [1, 2], road],
    [11, [3, 4], { highway: "footway" }],
  ]));
  assert.equal(buildCityWalkableArea(ground).polygons.length, 2);
  const bridge = cityFromXml(osmXml(nodes, [
    [10, [1, 2], road],
    [11, [3, 4], { highway: "footway", bridge: "yes", layer: "1" }],
  ]));
  assert.equal(buildCityWalkableArea(bridge).polygons.length, 1);
});

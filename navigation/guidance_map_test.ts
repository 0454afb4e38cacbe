import assert from "node:assert/strict";
import type { CityModel, StreetEdge } from "../geo/city_model.ts";
import { GuidanceCell, GuidanceMap } from "./guidance_map.ts";

/** A T of streets: a bent street west–east through (0, 0), a branch north; one building. */
function tCity(): CityModel {
  const edge = (
    index: number,
    from: number,
    to: number,
    points: [number, number][],
  ): StreetEdge => ({
    index,
    wayId: `gen/w${index}`,
    from,
    to,
    points,
    length: 0,
    highway: "residential",
    name: null,
    oneway: false,
    lanes: 2,
    width: 8,
    widthSource: "default",
    sidewalk: "both",
    carriageway: true,
    walkable: true,
    steps: false,
    crossing: false,
  });
  const node = (index: number, x: number, y: number, degree: number) => ({
    index,
    osmId: null,
    x,
    y,
    degree,
    junction: degree >= 3,
    signal: false,
    crossing: null,
  });
  return {
    name: "t",
    anchor: { lon: 0, lat: 0 },
    bbox: null,
    bounds: [-100, -100, 100, 100],
    buildings: [{
      id: "gen/b0",
      // South of the street, with the street's core passing through its north-east corner.
      polygon: [[[-60, -40], [60, -40], [60, -2], [-60, -2]]],
      height: 10,
      heightSource: "default",
      levels: null,
      name: null,
      kind: "yes",
    }],
    streets: {
      nodes: [node(0, -80, 0, 1), node(1, 0, 0, 3), node(2, 80, 20, 1), node(3, 0, 80, 1)],
      edges: [
        edge(0, 0, 1, [[-80, 0], [0, 0]]),
        edge(1, 1, 2, [[0, 0], [40, 0], [80, 20]]), // bends north-east at x = 40
        edge(2, 1, 3, [[0, 0], [0, 80]]),
      ],
    },
    sidewalks: [],
    pedestrianAreas: [],
    crossings: [],
    signals: [],
    barriers: [],
    furniture: [],
    attractors: [],
    blocks: null,
    source: { format: "procedural", path: null, attribution: null },
  };
}

Deno.test("guidance map marks buildings, junctions and roads with the road's direction", () => {
  const map = GuidanceMap.fromCity(tCity(), { cellSizeM: 1 });
  assert.equal(map.kindAt(0.5, 0.5), GuidanceCell.junction);
  assert.equal(map.node[map.cellAt(0.5, 0.5)], 1);
  assert.equal(map.kindAt(-20.5, -20.5), GuidanceCell.building);
  // Road cells point from the street's first node to its last, along the piece nearest them.
  const west = map.cellAt(-30.5, 1.5);
  assert.equal(map.kind[west], GuidanceCell.road);
  assert.deepEqual([map.edge[west], map.dirX[west], map.dirY[west]], [0, 1, 0]);
  const bent = map.cellAt(60.5, 12.5);
  assert.equal(map.edge[bent], 1);
  assert(Math.abs(Math.atan2(map.dirY[bent], map.dirX[bent]) - Math.atan2(20, 40)) < 1e-6);
  const north = map.cellAt(1.5, 50.5);
  assert.deepEqual([map.edge[north], map.dirX[north], map.dirY[north]], [2, 0, 1]);
  // Sidewalk: beyond the half-width, within the reach; farther away: open ground.
  assert.equal(map.kindAt(-30.5, 8.5), GuidanceCell.road);
  assert.equal(map.kindAt(-30.5, 12.5), GuidanceCell.open);
  assert.equal(map.kindAt(-50.5, 60.5), GuidanceCell.open);
  // Within the half-width a street crosses a footprint (a passage); beyond it the building wins.
  assert.equal(map.kindAt(-30.5, -2.5), GuidanceCell.road);
  assert.equal(map.kindAt(-30.5, -6.5), GuidanceCell.building);
  // Dead ends are junctions too (walkers turn there).
  assert.equal(map.kindAt(-79.5, 0.5), GuidanceCell.junction);
  assert.equal(map.kindAt(150, 0), GuidanceCell.building); // outside the grid
});

Deno.test("guidance map refuses a grid too fine for the city", () => {
  assert.throws(
    () => GuidanceMap.fromCity(tCity(), { cellSizeM: 0.01 }),
    /'cellSizeM' must be >= 0.1: current value is 0.01/,
  );
  const city = { ...tCity(), bounds: [-1e5, -1e5, 1e5, 1e5] as const };
  assert.throws(() => GuidanceMap.fromCity(city, { cellSizeM: 1 }), /too small for the city/);
});

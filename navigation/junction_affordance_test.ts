import assert from "node:assert/strict";
import type { Point } from "../core/geometry.ts";
import type { CityAttractor, CityModel, StreetEdge, StreetNode } from "../geo/city_model.ts";
import { JunctionAffordance } from "./junction_affordance.ts";
import { syntheticCity } from "./_synthetic_city.ts";
import { ViewshedSweep } from "./viewshed_sweep.ts";

/** A small city from rectangles, node positions, edges between nodes and attractor points. */
function smallCity(
  rects: [number, number, number, number][],
  points: Point[],
  links: [number, number][],
  attractors: Point[] = [],
): CityModel {
  const degree = points.map((_, i) => links.filter(([a, b]) => a === i || b === i).length);
  const nodes: StreetNode[] = points.map(([x, y], i) => ({
    index: i,
    osmId: null,
    x,
    y,
    degree: degree[i],
    junction: degree[i] >= 3,
    signal: false,
    crossing: null,
  }));
  const edges: StreetEdge[] = links.map(([a, b], e) => ({
    index: e,
    wayId: `gen/w${e}`,
    from: a,
    to: b,
    points: [points[a], points[b]],
    length: Math.hypot(points[b][0] - points[a][0], points[b][1] - points[a][1]),
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
  }));
  return {
    name: "test",
    anchor: { lon: 0, lat: 0 },
    bbox: null,
    bounds: [-200, -200, 200, 200],
    buildings: rects.map(([x0, y0, x1, y1], b) => ({
      id: `gen/b${b}`,
      polygon: [[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]],
      height: 10,
      heightSource: "default",
      levels: null,
      name: null,
      kind: "yes",
    })),
    streets: { nodes, edges },
    sidewalks: [],
    pedestrianAreas: [],
    crossings: [],
    signals: [],
    barriers: [],
    furniture: [],
    attractors: attractors.map(([x, y], k): CityAttractor => ({
      id: `gen/a${k}`,
      x,
      y,
      key: "shop",
      value: "retail",
      name: null,
      floorArea: 0,
    })),
    blocks: null,
    source: { format: "procedural", path: null, attribution: null },
  };
}

/**
 * A crossroads at the origin with four corner blocks; streets 10 m wide. East runs to the city's
 * bounds at 200 m, north ends at a wall at y = 30, west and south at 60 m.
 */
function crossroads(attractors: Point[] = []): CityModel {
  return smallCity(
    [
      [5, 5, 200, 200], // north-east block
      [-200, 5, -5, 200], // north-west block
      [-200, -200, -5, -5], // south-west block
      [5, -200, 200, -5], // south-east block
      [-5, 30, 5, 40], // wall closing the north street at 30 m
      [-70, -5, -60, 5], // closing the west street at 60 m
      [-5, -70, 5, -60], // closing the south street at 60 m
    ],
    [[0, 0], [140, 0], [0, 25], [-55, 0], [0, -55]],
    [[0, 1], [0, 2], [0, 3], [0, 4]],
    attractors,
  );
}

Deno.test("junction shares are largest towards the longest view and match the frustum areas", () => {
  const city = crossroads();
  const a = JunctionAffordance.fromCity(city, { maxRangeM: 0 });
  assert.equal(a.hasViewshed[0], 1);
  assert.equal(a.hasViewshed[1], 0); // dead end
  const share = (neighbour: number) => {
    for (let s = a.slotStart[0]; s < a.slotStart[1]; s++) {
      if (a.slotNeighbour[s] === neighbour) return a.slotShare[s];
    }
    throw new Error("no slot");
  };
  const east = share(1), north = share(2), west = share(3), south = share(4);
  assert(east > west && west > north, `east ${east}, west ${west}, north ${north}`);
  assert(Math.abs(west - south) < 1e-9);
  // The plus-shaped viewshed: 10 m wide arms to x = 200, y = 30, x = -60, y = -60.
  const area = 10 * (200 + 60) + 10 * (30 + 60) - 10 * 10;
  assert(Math.abs(a.viewshedArea[0] - area) < 1e-6, `area ${a.viewshedArea[0]}`);
  // East frustum (±30°): the arm beyond x = 5 / tan 30° is seen whole.
  const x0 = 5 / Math.tan(Math.PI / 6);
  const eastArea = 0.5 * x0 * 10 + 10 * (200 - x0);
  assert(Math.abs(east * a.viewshedArea[0] - eastArea) < 1e-6);
});

Deno.test("attractors count in a frustum when their building's wall or their point is seen", () => {
  const city = crossroads([
    [40, 20], // inside the north-east block, whose walls line the east and north streets
    [100, -1], // a point in the east street
    [-100, 1], // beyond the west wall: hidden
    [0, 28], // in the north street, 2 m before its wall
  ]);
  const a = JunctionAffordance.fromCity(city, { maxRangeM: 0 });
  const { start, items } = a.slotAttractors();
  const seen = (neighbour: number) => {
    for (let s = a.slotStart[0]; s < a.slotStart[1]; s++) {
      if (a.slotNeighbour[s] === neighbour) return [...items.slice(start[s], start[s + 1])].sort();
    }
    throw new Error("no slot");
  };
  assert.deepEqual(seen(1), [0, 1]);
  assert.deepEqual(seen(2), [0, 3]);
  assert.deepEqual(seen(3), []);
  const weights = a.slotAttractorWeights([5, 1, 7, 2]);
  assert.equal(weights[a.slotStart[0]], 6); // the east slot comes first
  assert.throws(() => a.slotAttractorWeights([1]), /one entry per attractor \(4\)/);
});

Deno.test("blocking a street recomputes exactly the junctions that see the barrier", () => {
  const city = syntheticCity({ sizeM: 720, spacingM: 80, seed: 3 });
  const a = JunctionAffordance.fromCity(city, { maxRangeM: 400 });
  const before = Array.from({ length: a.nodeCount }, (_, i) => a.viewshed(i));
  const areas = Float64Array.from(a.viewshedArea);
  // A street in the middle of the city between two junctions.
  const edge = city.streets.edges.findIndex((e) =>
    a.hasViewshed[e.from] && a.hasViewshed[e.to] &&
    Math.hypot(city.streets.nodes[e.from].x, city.streets.nodes[e.from].y) < 100
  );
  const change = a.blockStreet(edge);
  const recomputed = new Set(change.recomputed);
  const e = city.streets.edges[edge];
  assert(recomputed.has(e.from) && recomputed.has(e.to));
  assert(recomputed.size < a.nodeCount / 3, `${recomputed.size} of ${a.nodeCount} recomputed`);
  // A fresh sweep over the changed obstacles agrees with every stored viewshed: those not
  // recomputed are still exact, and were left untouched (the same objects).
  const fresh = new ViewshedSweep(a.obstacles, { maxRangeM: 400, bounds: city.bounds });
  let changed = 0;
  for (let i = 0; i < a.nodeCount; i++) {
    const v = a.viewshed(i);
    if (!v) continue;
    const node = city.streets.nodes[i];
    assert(Math.abs(fresh.compute(node.x, node.y).area - v.area) < 1e-6 * v.area, `node ${i}`);
    if (!recomputed.has(i)) assert.equal(v, before[i]);
    if (Math.abs(v.area - areas[i]) > 1e-6) changed++;
  }
  assert(changed >= 2 && changed <= recomputed.size);
  for (let s = a.slotStart[e.from]; s < a.slotStart[e.from + 1]; s++) {
    assert.equal(a.slotBlocked[s], a.slotEdge[s] === edge ? 1 : 0);
  }
  // Opening it again restores every area.
  const reopened = a.openStreet(edge);
  assert.deepEqual([...reopened.recomputed], [...change.recomputed]);
  for (let i = 0; i < a.nodeCount; i++) {
    assert(Math.abs(a.viewshedArea[i] - areas[i]) < 1e-6 * Math.max(1, areas[i]), `node ${i}`);
  }
  assert.throws(() => a.openStreet(edge), /is not blocked/);
});

Deno.test("junction affordance options are checked", () => {
  const city = crossroads();
  assert.throws(
    () => JunctionAffordance.fromCity(city, { frustumDeg: 0 }),
    /'frustumDeg' must be > 0: current value is 0/,
  );
  assert.throws(() => JunctionAffordance.fromCity(city, { nodes: "some" as "all" }), /one of/);
  const all = JunctionAffordance.fromCity(city, { nodes: "all" });
  assert.equal(all.hasViewshed[1], 1);
});

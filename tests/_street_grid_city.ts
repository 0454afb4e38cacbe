/**
 * Test helper: a city of footways in a grid, without buildings, for suites that need a city
 * model in a small room (the navigator conformance suite's 20 m × 10 m room).
 *
 * @module
 */
import type { CityModel, StreetEdge, StreetNode } from "../geo/city_model.ts";

/** A grid of 2 m footways through the points `xs` × `ys` (m). */
export function streetGridCity(xs: readonly number[], ys: readonly number[]): CityModel {
  const nodes: StreetNode[] = [], edges: StreetEdge[] = [];
  const id = (i: number, j: number) => j * xs.length + i;
  const degree = new Array(xs.length * ys.length).fill(0);
  const link = (a: number, b: number) => {
    const pa = nodesXY[a], pb = nodesXY[b];
    degree[a]++;
    degree[b]++;
    edges.push({
      index: edges.length,
      wayId: `gen/${edges.length}`,
      from: a,
      to: b,
      points: [pa, pb],
      length: Math.hypot(pb[0] - pa[0], pb[1] - pa[1]),
      highway: "footway",
      name: null,
      oneway: false,
      lanes: 0,
      width: 2,
      widthSource: "default",
      sidewalk: "unknown",
      carriageway: false,
      walkable: true,
      steps: false,
      crossing: false,
    });
  };
  const nodesXY: [number, number][] = [];
  for (const y of ys) for (const x of xs) nodesXY.push([x, y]);
  for (let j = 0; j < ys.length; j++) {
    for (let i = 0; i < xs.length; i++) {
      if (i + 1 < xs.length) link(id(i, j), id(i + 1, j));
      if (j + 1 < ys.length) link(id(i, j), id(i, j + 1));
    }
  }
  nodesXY.forEach(([x, y], index) =>
    nodes.push({
      index,
      osmId: null,
      x,
      y,
      degree: degree[index],
      junction: degree[index] >= 3,
      signal: false,
      crossing: null,
    })
  );
  const pad = 1;
  return {
    name: "street grid",
    anchor: { lon: 0, lat: 0 },
    bbox: null,
    bounds: [xs[0] - pad, ys[0] - pad, xs[xs.length - 1] + pad, ys[ys.length - 1] + pad],
    buildings: [],
    streets: { nodes, edges },
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

/** Distance (m) from (`x`, `y`) to the nearest street centre line of `city`. */
export function distanceToStreets(city: CityModel, x: number, y: number): number {
  let best = Infinity;
  for (const e of city.streets.edges) {
    for (let k = 1; k < e.points.length; k++) {
      const [ax, ay] = e.points[k - 1], [bx, by] = e.points[k];
      const dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
      best = Math.min(best, Math.hypot(ax + t * dx - x, ay + t * dy - y));
    }
  }
  return best;
}

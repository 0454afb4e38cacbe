/**
 * Small hand-made city models for the traffic tests: streets only.
 *
 * @module
 */
import type { CityModel, StreetEdge, StreetNode } from "../geo/city_model.ts";

/** A street between two nodes for {@linkcode streetCity}. */
export interface TestStreet {
  from: number;
  to: number;
  lanes?: number;
  width?: number;
  oneway?: boolean;
}

/** A city with the given nodes (m) and straight streets, without buildings or crossings. */
export function streetCity(
  nodes: readonly [number, number][],
  streets: readonly TestStreet[],
  extra: Partial<CityModel> = {},
): CityModel {
  const degree = nodes.map(() => 0);
  for (const s of streets) {
    degree[s.from]++;
    degree[s.to]++;
  }
  const streetNodes: StreetNode[] = nodes.map(([x, y], index) => ({
    index,
    osmId: null,
    x,
    y,
    degree: degree[index],
    junction: degree[index] >= 3,
    signal: false,
    crossing: null,
  }));
  const edges: StreetEdge[] = streets.map((s, index) => {
    const a = nodes[s.from], b = nodes[s.to];
    const lanes = s.lanes ?? 2;
    return {
      index,
      wayId: `gen/test/${index}`,
      from: s.from,
      to: s.to,
      points: [a, b],
      length: Math.hypot(b[0] - a[0], b[1] - a[1]),
      highway: "residential",
      name: null,
      oneway: s.oneway ?? false,
      lanes,
      width: s.width ?? 3.5 * lanes,
      widthSource: "lanes",
      sidewalk: "no",
      carriageway: true,
      walkable: false,
      steps: false,
      crossing: false,
    };
  });
  return {
    name: "test streets",
    anchor: { lon: 0, lat: 0 },
    bbox: null,
    bounds: [-1000, -1000, 1000, 1000],
    buildings: [],
    streets: { nodes: streetNodes, edges },
    sidewalks: [],
    pedestrianAreas: [],
    crossings: [],
    signals: [],
    barriers: [],
    furniture: [],
    attractors: [],
    blocks: null,
    source: { format: "procedural", path: null, attribution: null },
    ...extra,
  };
}

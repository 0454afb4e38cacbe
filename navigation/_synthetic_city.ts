/**
 * Test and benchmark helper: a seeded city model shaped like a dense city centre, with a
 * jittered street grid (some streets missing, so T-junctions and long blocks appear), blocks of
 * terraced buildings with articulated facades, shared party walls, a few overlapping footprints
 * and courtyards, empty blocks as squares, and attractors in buildings and on streets.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import { Rng } from "../core/rng.ts";
import type {
  CityAttractor,
  CityBuilding,
  CityModel,
  StreetEdge,
  StreetNode,
} from "../geo/city_model.ts";

/** Options of {@linkcode syntheticCity}. */
export interface SyntheticCityOptions {
  /** Seed. */
  seed: number;
  /** Side of the square city (m). */
  sizeM: number;
  /** Street spacing (m). */
  spacingM: number;
  /** Share of grid streets left out. */
  missingStreets: number;
}

/** A synthetic city model (see the module doc). */
export function syntheticCity(options: Partial<SyntheticCityOptions> = {}): CityModel {
  const { seed = 1, sizeM = 2000, spacingM = 80, missingStreets = 0.08 } = options;
  const rng = new Rng(seed);
  const n = Math.floor(sizeM / spacingM) + 1;
  const half = sizeM / 2;
  const jitter = 0.12 * spacingM;
  const nx: number[] = [], ny: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const edge = i === 0 || j === 0 || i === n - 1 || j === n - 1;
      nx.push(-half + i * spacingM + (edge ? 0 : rng.range(-jitter, jitter)));
      ny.push(-half + j * spacingM + (edge ? 0 : rng.range(-jitter, jitter)));
    }
  }
  const id = (i: number, j: number) => j * n + i;
  // Street widths per row and column: a few avenues, many narrow streets.
  const widthOf = () => (rng.chance(0.15) ? 24 : rng.chance(0.4) ? 14 : 9);
  const rowWidth = Array.from({ length: n }, widthOf),
    colWidth = Array.from({ length: n }, widthOf);
  const pairs: [number, number, number][] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      if (i + 1 < n && !rng.chance(missingStreets)) {
        pairs.push([id(i, j), id(i + 1, j), rowWidth[j]]);
      }
      if (j + 1 < n && !rng.chance(missingStreets)) {
        pairs.push([id(i, j), id(i, j + 1), colWidth[i]]);
      }
    }
  }
  const degree = new Array(n * n).fill(0);
  for (const [a, b] of pairs) {
    degree[a]++;
    degree[b]++;
  }
  // Keep only nodes with streets; renumber.
  const index = new Array(n * n).fill(-1);
  const nodes: StreetNode[] = [];
  for (let k = 0; k < n * n; k++) {
    if (degree[k] === 0) continue;
    index[k] = nodes.length;
    nodes.push({
      index: nodes.length,
      osmId: null,
      x: nx[k],
      y: ny[k],
      degree: degree[k],
      junction: degree[k] >= 3,
      signal: false,
      crossing: null,
    });
  }
  const edges: StreetEdge[] = pairs.map(([a, b, width], e) => {
    const points: Point[] = [[nx[a], ny[a]], [nx[b], ny[b]]];
    return {
      index: e,
      wayId: `gen/w${e}`,
      from: index[a],
      to: index[b],
      points,
      length: Math.hypot(nx[b] - nx[a], ny[b] - ny[a]),
      highway: width > 20 ? "primary" : "residential",
      name: null,
      oneway: false,
      lanes: Math.round(width / 4),
      width,
      widthSource: "default",
      sidewalk: "both",
      carriageway: true,
      walkable: true,
      steps: false,
      crossing: false,
    };
  });
  const buildings: CityBuilding[] = [];
  const attractors: CityAttractor[] = [];
  for (let j = 0; j + 1 < n; j++) {
    for (let i = 0; i + 1 < n; i++) {
      if (rng.chance(0.05)) continue; // an open square
      const corners: Point[] = [
        [nx[id(i, j)], ny[id(i, j)]],
        [nx[id(i + 1, j)], ny[id(i + 1, j)]],
        [nx[id(i + 1, j + 1)], ny[id(i + 1, j + 1)]],
        [nx[id(i, j + 1)], ny[id(i, j + 1)]],
      ];
      // Inset from the street centre lines by half the street plus a 3 m sidewalk.
      const inset = [rowWidth[j], colWidth[i + 1], rowWidth[j + 1], colWidth[i]].map((w) =>
        w / 2 + 3
      );
      const u0 = inset[3] / spacingM, u1 = 1 - inset[1] / spacingM;
      const v0 = inset[0] / spacingM, v1 = 1 - inset[2] / spacingM;
      const cols = 2 + rng.int(2), rows = 2 + rng.int(2);
      const gap = rng.chance(0.5) ? 0 : 0.02; // party walls shared, or a hairline apart
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const ua = u0 + ((u1 - u0) * c) / cols + (c > 0 ? gap : 0);
          const ub = u0 + ((u1 - u0) * (c + 1)) / cols;
          const va = v0 + ((v1 - v0) * r) / rows + (r > 0 ? gap : 0);
          const vb = v0 + ((v1 - v0) * (r + 1)) / rows;
          // A few buildings overhang their neighbour (overlapping footprints).
          const over = rng.chance(0.05) ? 0.03 : 0;
          const quad: Point[] = [
            _bilinear(corners, ua, va),
            _bilinear(corners, ub + over, va),
            _bilinear(corners, ub + over, vb),
            _bilinear(corners, ua, vb),
          ];
          const outer = _articulate(quad, rng);
          const polygon = rng.chance(0.08) ? [outer, _courtyard(quad)] : [outer];
          const b = buildings.length;
          buildings.push({
            id: `gen/b${b}`,
            polygon,
            height: 20,
            heightSource: "default",
            levels: null,
            name: null,
            kind: "yes",
          });
          if (rng.chance(0.5)) {
            const [cx, cy] = _bilinear(corners, (ua + ub) / 2, (va + vb) / 2);
            attractors.push({
              id: `gen/a${attractors.length}`,
              x: cx,
              y: cy,
              key: "shop",
              value: "retail",
              name: null,
              floorArea: 0,
            });
          }
        }
      }
    }
  }
  for (let k = 0; k < edges.length; k += 7) {
    const [a, b] = edges[k].points;
    attractors.push({
      id: `gen/a${attractors.length}`,
      x: (a[0] + b[0]) / 2,
      y: (a[1] + b[1]) / 2,
      key: "amenity",
      value: "bench",
      name: null,
      floorArea: 0,
    });
  }
  return {
    name: `synthetic ${sizeM} m`,
    anchor: { lon: 0, lat: 0 },
    bbox: null,
    bounds: [-half - 20, -half - 20, half + 20, half + 20],
    buildings,
    streets: { nodes, edges },
    sidewalks: [],
    pedestrianAreas: [],
    crossings: [],
    signals: [],
    barriers: [],
    furniture: [],
    attractors,
    blocks: null,
    source: { format: "procedural", path: null, attribution: null },
  };
}

function _bilinear(c: readonly Point[], u: number, v: number): Point {
  const x = (1 - v) * ((1 - u) * c[0][0] + u * c[1][0]) + v * ((1 - u) * c[3][0] + u * c[2][0]);
  const y = (1 - v) * ((1 - u) * c[0][1] + u * c[1][1]) + v * ((1 - u) * c[3][1] + u * c[2][1]);
  return [x, y];
}

/** Facade detail: every edge cut into ~6 m pieces with small set-backs. */
function _articulate(quad: readonly Point[], rng: Rng): Point[] {
  const out: Point[] = [];
  for (let k = 0; k < 4; k++) {
    const [ax, ay] = quad[k], [bx, by] = quad[(k + 1) % 4];
    const len = Math.hypot(bx - ax, by - ay);
    const pieces = Math.max(1, Math.round(len / 6));
    const nx = (by - ay) / len, ny = -(bx - ax) / len;
    out.push([ax, ay]);
    for (let p = 1; p < pieces; p++) {
      const t = p / pieces, d = rng.chance(0.3) ? rng.range(-0.4, 0) : 0;
      out.push([ax + t * (bx - ax) + d * nx, ay + t * (by - ay) + d * ny]);
    }
  }
  return out;
}

function _courtyard(quad: readonly Point[]): Point[] {
  const cx = quad.reduce((s, p) => s + p[0], 0) / 4, cy = quad.reduce((s, p) => s + p[1], 0) / 4;
  return quad.map(([x, y]) => [cx + 0.35 * (x - cx), cy + 0.35 * (y - cy)] as Point).reverse();
}

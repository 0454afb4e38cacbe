/**
 * A seeded generator of grid cities as a {@linkcode CityModel}: the city of F. Gennari's
 * procedural-city posts (Procedural City: Pedestrian Updates + Navigation, 3DWorld blog, 2019).
 *
 * The layout, with `P = blockSize + roadWidth` the road pitch:
 *
 * - `(blocksX + 1) × (blocksY + 1)` intersections on a square grid centred on the origin, joined
 *   by two-way streets of `lanes` lanes (half in each direction) `roadWidth` wide; the outermost
 *   streets form a ring road, so every block has a street on each side;
 * - `blocksX × blocksY` blocks, each `blockSize` square up to the kerb, with a sidewalk
 *   `sidewalkWidth` wide along its four sides;
 * - buildings on the plot inside the sidewalks: axis-aligned rectangles from a random guillotine
 *   split of the plot into lots, each lot shrunk by half of `buildingGap` on every side, so two
 *   buildings are never closer than `buildingGap` (at least two pedestrian widths: the obstacles
 *   of a block stay isolated rectangles, as the blog requires for its in-block path search);
 * - street furniture in a strip along the kerb: a signal post at each block corner next to an
 *   intersection with a traffic light, light posts every `lightSpacing`, and randomly placed
 *   trees and benches, never closer to each other than `buildingGap` and never on a crosswalk
 *   landing; the sidewalk beside the strip stays at least two pedestrian widths clear;
 * - a crosswalk `crosswalkWidth` wide on every intersection arm with a block on both sides
 *   (arms of the ring road lead out of the city and have none), just outside the intersection;
 * - a traffic light at every intersection where three or four streets meet (the four corners of
 *   the ring road are bends).
 *
 * The same options give the same city, to the last bit.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import { Rng } from "../core/rng.ts";
import type {
  CityAttractor,
  CityBlock,
  CityBuilding,
  CityCrossing,
  CityModel,
  CitySidewalk,
  StreetEdge,
  StreetFurniture,
  StreetNode,
  TrafficSignal,
} from "./city_model.ts";

/** Options of {@linkcode generateProceduralCity}. */
export interface ProceduralCityOptions {
  /** Seed of the generator (unsigned 32-bit integer). @default 1 */
  seed: number;
  /** Blocks along x. @default 6 */
  blocksX: number;
  /** Blocks along y. @default 6 */
  blocksY: number;
  /** Side of a block up to the kerb, sidewalks included (m). @default 100 */
  blockSize: number;
  /** Carriageway width, kerb to kerb (m). @default 14 */
  roadWidth: number;
  /** Motor-vehicle lanes per street, both directions together (even). @default 4 */
  lanes: number;
  /** Sidewalk width (m). @default 3.5 */
  sidewalkWidth: number;
  /** Crosswalk width along the street (m). @default 3 */
  crosswalkWidth: number;
  /** Shoulder width of one pedestrian (m); gaps are at least two of them. @default 0.6 */
  pedestrianWidth: number;
  /** Smallest gap between two buildings or two pieces of furniture (m). @default 3 */
  buildingGap: number;
  /** Smallest building side (m). @default 8 */
  minBuildingSize: number;
  /** Largest building side (m). @default 30 */
  maxBuildingSize: number;
  /** Share of lots that get a building (the others stay open squares). @default 0.9 */
  buildingDensity: number;
  /** Lowest building (m). @default 9 */
  minHeight: number;
  /** Tallest building (m). @default 60 */
  maxHeight: number;
  /** Place street furniture (signal posts, lights, trees, benches). @default true */
  furniture: boolean;
  /** Distance between light posts along a sidewalk (m). @default 25 */
  lightSpacing: number;
  /** Trees tried per block side. @default 3 */
  treesPerSide: number;
  /** Benches tried per block side. @default 1 */
  benchesPerSide: number;
  /** Longitude of the local origin (deg). @default 0 */
  anchorLon: number;
  /** Latitude of the local origin (deg). @default 0 */
  anchorLat: number;
}

/** Descriptors of {@linkcode ProceduralCityOptions}. */
export const PROCEDURAL_CITY_OPTIONS: OptionSpecs<ProceduralCityOptions> = {
  seed: {
    type: "number",
    default: 1,
    min: 0,
    max: 0xffff_ffff,
    integer: true,
    doc: "seed of the generator; the same seed gives the same city",
  },
  blocksX: {
    type: "number",
    default: 6,
    min: 1,
    max: 200,
    integer: true,
    doc: "blocks along x; the cost of everything built on the city grows with the block count",
  },
  blocksY: { type: "number", default: 6, min: 1, max: 200, integer: true, doc: "blocks along y" },
  blockSize: {
    type: "number",
    default: 100,
    min: 20,
    max: 1000,
    unit: "m",
    doc: "side of a block up to the kerb, sidewalks included",
  },
  roadWidth: {
    type: "number",
    default: 14,
    min: 5,
    max: 60,
    unit: "m",
    doc: "carriageway width from kerb to kerb; at least 2.5 m per lane",
  },
  lanes: {
    type: "number",
    default: 4,
    min: 2,
    max: 12,
    integer: true,
    doc: "motor-vehicle lanes per street, both directions together; even",
  },
  sidewalkWidth: {
    type: "number",
    default: 3.5,
    min: 1.5,
    max: 20,
    unit: "m",
    doc: "sidewalk width; street furniture needs 1.4 m plus two pedestrian widths",
  },
  crosswalkWidth: {
    type: "number",
    default: 3,
    min: 1,
    max: 10,
    unit: "m",
    doc: "width of a crosswalk along the street it crosses",
  },
  pedestrianWidth: {
    type: "number",
    default: 0.6,
    min: 0.2,
    max: 2,
    unit: "m",
    doc: "shoulder width of one pedestrian; gaps between obstacles are at least two of them",
  },
  buildingGap: {
    type: "number",
    default: 3,
    min: 0.4,
    max: 50,
    unit: "m",
    doc: "smallest gap between two buildings or two pieces of furniture; >= 2 × pedestrianWidth",
  },
  minBuildingSize: {
    type: "number",
    default: 8,
    min: 1,
    max: 500,
    unit: "m",
    doc: "smallest building side",
  },
  maxBuildingSize: {
    type: "number",
    default: 30,
    min: 1,
    max: 1000,
    unit: "m",
    doc: "largest building side; larger gives fewer, bigger buildings",
  },
  buildingDensity: {
    type: "number",
    default: 0.9,
    min: 0,
    max: 1,
    doc: "share of lots that get a building; the others stay open",
  },
  minHeight: { type: "number", default: 9, min: 0, max: 1000, unit: "m", doc: "lowest building" },
  maxHeight: {
    type: "number",
    default: 60,
    min: 0,
    max: 1000,
    unit: "m",
    doc: "tallest building",
  },
  furniture: {
    type: "boolean",
    default: true,
    doc: "place signal posts, light posts, trees and benches along the kerbs",
  },
  lightSpacing: {
    type: "number",
    default: 25,
    min: 1,
    max: 1000,
    unit: "m",
    doc: "distance between light posts along a sidewalk",
  },
  treesPerSide: {
    type: "number",
    default: 3,
    min: 0,
    max: 100,
    integer: true,
    doc: "trees tried per block side (fewer fit when the side is crowded)",
  },
  benchesPerSide: {
    type: "number",
    default: 1,
    min: 0,
    max: 100,
    integer: true,
    doc: "benches tried per block side (fewer fit when the side is crowded)",
  },
  anchorLon: {
    type: "number",
    default: 0,
    min: -180,
    max: 180,
    unit: "deg",
    doc: "longitude of the local origin",
  },
  anchorLat: {
    type: "number",
    default: 0,
    min: -85,
    max: 85,
    unit: "deg",
    doc: "latitude of the local origin",
  },
};

const OWNER = "procedural city";

/** Gap between the kerb and the furniture strip (m). */
const KERB_CLEARANCE = 0.2;
/** Depth of the furniture strip measured from the kerb (m): clearance plus the deepest item. */
const FURNITURE_STRIP = 1.4;
/** Signal post side (m) and the distance of its centre from both kerbs of a block corner (m). */
const SIGNAL_POST = 0.3;
const SIGNAL_POST_INSET = 0.6;
/** Furniture footprints: side along the kerb × depth (m). */
const LIGHT_POST = [0.4, 0.4] as const;
const TREE_PIT = [1.2, 1.2] as const;
const BENCH = [1.8, 0.6] as const;
/** Furniture keeps this far (m) beyond a crosswalk landing at a block corner. */
const LANDING_CLEARANCE = 1;
/** Random placement attempts per tree or bench. */
const PLACEMENT_TRIES = 8;

/**
 * Generates a grid city (see the module doc). Throws a RangeError naming the option when the
 * options are out of range or inconsistent (a gap narrower than two pedestrians, lanes too
 * narrow, a block too small for its sidewalks and a building).
 *
 * @example Same seed, same city
 * ```ts
 * import { generateProceduralCity } from "./procedural_city.ts";
 * import assert from "node:assert/strict";
 * const a = generateProceduralCity({ seed: 7, blocksX: 2, blocksY: 2 });
 * const b = generateProceduralCity({ seed: 7, blocksX: 2, blocksY: 2 });
 * assert.deepEqual(a, b);
 * assert.equal(a.blocks!.length, 4);
 * assert.equal(a.streets.nodes.length, 9); // 3 × 3 intersections
 * assert.equal(a.signals.length, 5); // the four ring-road corners are bends
 * ```
 */
export function generateProceduralCity(options: Partial<ProceduralCityOptions> = {}): CityModel {
  const o = resolveOptions(OWNER, PROCEDURAL_CITY_OPTIONS, options);
  _checkConsistency(o);
  const rng = new Rng(o.seed);
  const grid = new _Grid(o);
  const streets = _streetNetwork(grid, o);
  const buildings: CityBuilding[] = [];
  const blocks: CityBlock[] = [];
  const furniture: StreetFurniture[] = [];
  for (let j = 0; j < o.blocksY; j++) {
    for (let i = 0; i < o.blocksX; i++) {
      const [minX, minY, maxX, maxY] = grid.block(i, j);
      const indices = _placeBuildings(grid, i, j, o, rng, buildings);
      blocks.push({
        id: `gen/block/${i}-${j}`,
        polygon: [_rect(minX, minY, maxX, maxY)],
        buildings: indices,
      });
      if (o.furniture) _placeFurniture(grid, i, j, o, rng, furniture);
    }
  }
  const attractors: CityAttractor[] = buildings.map((b) => {
    const [[x0, y0], , [x1, y1]] = b.polygon[0];
    return {
      id: b.id,
      x: (x0 + x1) / 2,
      y: (y0 + y1) / 2,
      key: "building",
      value: b.kind,
      name: null,
      floorArea: Math.abs((x1 - x0) * (y1 - y0)) * (b.levels ?? 1),
    };
  });
  const half = grid.roadWidth / 2;
  return {
    name: `procedural city ${o.blocksX}×${o.blocksY} (seed ${o.seed})`,
    anchor: { lon: o.anchorLon, lat: o.anchorLat },
    bbox: null,
    bounds: [
      grid.x(0) - half,
      grid.y(0) - half,
      grid.x(o.blocksX) + half,
      grid.y(o.blocksY) + half,
    ],
    buildings,
    streets,
    sidewalks: _sidewalks(grid, o),
    pedestrianAreas: [],
    crossings: _crossings(grid, o),
    signals: _signals(streets.nodes),
    barriers: [],
    furniture,
    attractors,
    blocks,
    source: { format: "procedural", path: null, attribution: null },
  };
}

function _checkConsistency(o: ProceduralCityOptions): void {
  const fail = (key: string, rule: string, value: number) => {
    throw new RangeError(
      `Cannot create ${OWNER} as '${key}' must be ${rule}: current value is ${value}`,
    );
  };
  if (o.lanes % 2 !== 0) fail("lanes", "even (half the lanes in each direction)", o.lanes);
  if (o.roadWidth / o.lanes < 2.5) {
    fail("roadWidth", `>= 2.5 m per lane (${2.5 * o.lanes} m for ${o.lanes} lanes)`, o.roadWidth);
  }
  if (o.buildingGap < 2 * o.pedestrianWidth) {
    fail("buildingGap", `>= 2 × pedestrianWidth (${2 * o.pedestrianWidth} m)`, o.buildingGap);
  }
  if (o.maxBuildingSize < o.minBuildingSize) {
    fail("maxBuildingSize", `>= minBuildingSize (${o.minBuildingSize} m)`, o.maxBuildingSize);
  }
  if (o.maxHeight < o.minHeight) fail("maxHeight", `>= minHeight (${o.minHeight} m)`, o.maxHeight);
  const plot = o.blockSize - 2 * o.sidewalkWidth;
  const smallest = o.minBuildingSize + o.buildingGap;
  if (plot < smallest) {
    fail(
      "blockSize",
      `>= 2 × sidewalkWidth + minBuildingSize + buildingGap (${2 * o.sidewalkWidth + smallest} m)`,
      o.blockSize,
    );
  }
  const corner = o.crosswalkWidth + LANDING_CLEARANCE;
  if (o.blockSize < 2 * corner + 1) {
    fail("blockSize", `>= 2 × (crosswalkWidth + 1 m) + 1 m (${2 * corner + 1} m)`, o.blockSize);
  }
  if (o.furniture && o.sidewalkWidth < FURNITURE_STRIP + 2 * o.pedestrianWidth) {
    fail(
      "sidewalkWidth",
      `>= ${FURNITURE_STRIP} m + 2 × pedestrianWidth (${
        FURNITURE_STRIP + 2 * o.pedestrianWidth
      } m) to hold street furniture (or set 'furniture' to false)`,
      o.sidewalkWidth,
    );
  }
}

/** Road centre lines and block rectangles of the grid. */
class _Grid {
  readonly pitch: number;
  readonly roadWidth: number;
  readonly blocksX: number;
  readonly blocksY: number;
  readonly #x0: number;
  readonly #y0: number;

  constructor(o: ProceduralCityOptions) {
    this.pitch = o.blockSize + o.roadWidth;
    this.roadWidth = o.roadWidth;
    this.blocksX = o.blocksX;
    this.blocksY = o.blocksY;
    this.#x0 = -o.blocksX * this.pitch / 2;
    this.#y0 = -o.blocksY * this.pitch / 2;
  }

  /** x of the centre line of vertical road `i` (m). */
  x(i: number): number {
    return this.#x0 + i * this.pitch;
  }

  /** y of the centre line of horizontal road `j` (m). */
  y(j: number): number {
    return this.#y0 + j * this.pitch;
  }

  /** Street-network node at intersection (i, j). */
  node(i: number, j: number): number {
    return j * (this.blocksX + 1) + i;
  }

  /** Block (i, j) up to the kerb: `[minX, minY, maxX, maxY]` (m). */
  block(i: number, j: number): [number, number, number, number] {
    const h = this.roadWidth / 2;
    return [this.x(i) + h, this.y(j) + h, this.x(i + 1) - h, this.y(j + 1) - h];
  }

  /** Does block (i, j) exist? */
  hasBlock(i: number, j: number): boolean {
    return i >= 0 && j >= 0 && i < this.blocksX && j < this.blocksY;
  }

  /** Number of streets meeting at intersection (i, j). */
  degree(i: number, j: number): number {
    return (i > 0 ? 1 : 0) + (i < this.blocksX ? 1 : 0) + (j > 0 ? 1 : 0) +
      (j < this.blocksY ? 1 : 0);
  }

  /** Index of the horizontal edge (i, j)→(i+1, j). */
  horizontalEdge(i: number, j: number): number {
    return j * this.blocksX + i;
  }

  /** Index of the vertical edge (i, j)→(i, j+1). */
  verticalEdge(i: number, j: number): number {
    return this.blocksX * (this.blocksY + 1) + i * this.blocksY + j;
  }
}

function _rect(minX: number, minY: number, maxX: number, maxY: number): Point[] {
  return [[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY]];
}

function _streetNetwork(grid: _Grid, o: ProceduralCityOptions): CityModel["streets"] {
  const nodes: StreetNode[] = [];
  for (let j = 0; j <= o.blocksY; j++) {
    for (let i = 0; i <= o.blocksX; i++) {
      const degree = grid.degree(i, j);
      const hasCrossing = degree >= 3;
      nodes.push({
        index: grid.node(i, j),
        osmId: null,
        x: grid.x(i),
        y: grid.y(j),
        degree,
        junction: degree >= 3,
        signal: degree >= 3,
        crossing: hasCrossing ? "traffic_signals" : null,
      });
    }
  }
  const edges: StreetEdge[] = [];
  const edge = (from: number, to: number, name: string, sidewalk: StreetEdge["sidewalk"]) => {
    const a = nodes[from], b = nodes[to];
    edges.push({
      index: edges.length,
      wayId: `gen/street/${name}`,
      from,
      to,
      points: [[a.x, a.y], [b.x, b.y]],
      length: Math.hypot(b.x - a.x, b.y - a.y),
      highway: "residential",
      name,
      oneway: false,
      lanes: o.lanes,
      width: o.roadWidth,
      widthSource: "width",
      sidewalk,
      carriageway: true,
      walkable: true,
      steps: false,
      crossing: false,
    });
  };
  // Horizontal edges first (index j·blocksX + i), then vertical (see _Grid).
  for (let j = 0; j <= o.blocksY; j++) {
    for (let i = 0; i < o.blocksX; i++) {
      // Going east, the blocks lie north (left) of the southern ring road and south (right) of
      // the northern one.
      const side = j === 0 ? "left" : j === o.blocksY ? "right" : "both";
      edge(grid.node(i, j), grid.node(i + 1, j), `row ${j}`, side);
    }
  }
  for (let i = 0; i <= o.blocksX; i++) {
    for (let j = 0; j < o.blocksY; j++) {
      const side = i === 0 ? "right" : i === o.blocksX ? "left" : "both";
      edge(grid.node(i, j), grid.node(i, j + 1), `column ${i}`, side);
    }
  }
  return { nodes, edges };
}

function _sidewalks(grid: _Grid, o: ProceduralCityOptions): CitySidewalk[] {
  const out: CitySidewalk[] = [];
  const w = o.sidewalkWidth, h = w / 2;
  for (let j = 0; j < o.blocksY; j++) {
    for (let i = 0; i < o.blocksX; i++) {
      const [minX, minY, maxX, maxY] = grid.block(i, j);
      const id = `gen/block/${i}-${j}`;
      out.push(
        {
          id: `${id}/south`,
          points: [[minX, minY + h], [maxX, minY + h]],
          width: w,
          mapped: false,
          edge: grid.horizontalEdge(i, j),
          side: "left",
        },
        {
          id: `${id}/north`,
          points: [[minX, maxY - h], [maxX, maxY - h]],
          width: w,
          mapped: false,
          edge: grid.horizontalEdge(i, j + 1),
          side: "right",
        },
        {
          id: `${id}/west`,
          points: [[minX + h, minY], [minX + h, maxY]],
          width: w,
          mapped: false,
          edge: grid.verticalEdge(i, j),
          side: "right",
        },
        {
          id: `${id}/east`,
          points: [[maxX - h, minY], [maxX - h, maxY]],
          width: w,
          mapped: false,
          edge: grid.verticalEdge(i + 1, j),
          side: "left",
        },
      );
    }
  }
  return out;
}

/** Crosswalks on every arm with a block on both sides, from the lower-left block's kerb. */
function _crossings(grid: _Grid, o: ProceduralCityOptions): CityCrossing[] {
  const out: CityCrossing[] = [];
  const h = o.roadWidth / 2, offset = h + o.crosswalkWidth / 2;
  for (let j = 0; j <= o.blocksY; j++) {
    for (let i = 0; i <= o.blocksX; i++) {
      const x = grid.x(i), y = grid.y(j), node = grid.node(i, j);
      const add = (arm: string, edge: number, points: Point[]) => {
        const [[ax, ay], [bx, by]] = points;
        out.push({
          id: `gen/crossing/${i}-${j}-${arm}`,
          x: (ax + bx) / 2,
          y: (ay + by) / 2,
          kind: "traffic_signals",
          signalled: true,
          points,
          width: o.crosswalkWidth,
          edge,
          node,
        });
      };
      // East and west arms cross a horizontal street: blocks (·, j-1) south and (·, j) north.
      if (j > 0 && j < o.blocksY) {
        if (i < o.blocksX) {
          add("east", grid.horizontalEdge(i, j), [[x + offset, y - h], [x + offset, y + h]]);
        }
        if (i > 0) {
          add("west", grid.horizontalEdge(i - 1, j), [[x - offset, y - h], [x - offset, y + h]]);
        }
      }
      // North and south arms cross a vertical street: blocks (i-1, ·) west and (i, ·) east.
      if (i > 0 && i < o.blocksX) {
        if (j < o.blocksY) {
          add("north", grid.verticalEdge(i, j), [[x - h, y + offset], [x + h, y + offset]]);
        }
        if (j > 0) {
          add("south", grid.verticalEdge(i, j - 1), [[x - h, y - offset], [x + h, y - offset]]);
        }
      }
    }
  }
  return out;
}

function _signals(nodes: readonly StreetNode[]): TrafficSignal[] {
  return nodes.filter((n) => n.signal).map((n) => ({
    id: `gen/signal/${n.index}`,
    x: n.x,
    y: n.y,
    node: n.index,
    pedestrian: true,
  }));
}

/**
 * Splits the plot of block (i, j) into lots (a guillotine split: always across the longer side,
 * at a random position that leaves both parts at least one smallest lot), and puts a building on
 * each lot with probability `buildingDensity`, shrunk by half a gap on every side.
 */
function _placeBuildings(
  grid: _Grid,
  i: number,
  j: number,
  o: ProceduralCityOptions,
  rng: Rng,
  buildings: CityBuilding[],
): number[] {
  const [bx0, by0, bx1, by1] = grid.block(i, j);
  const s = o.sidewalkWidth, gap = o.buildingGap;
  const minLot = o.minBuildingSize + gap, maxLot = o.maxBuildingSize + gap;
  const lots: [number, number, number, number][] = [];
  const split = (x0: number, y0: number, x1: number, y1: number) => {
    const w = x1 - x0, h = y1 - y0;
    const alongX = w >= h;
    const size = alongX ? w : h;
    if (size <= maxLot || size < 2 * minLot) {
      // Small enough in this direction; split the other one if that is still too big.
      const other = alongX ? h : w;
      if (other > maxLot && other >= 2 * minLot) {
        const cut = rng.range(minLot, other - minLot);
        if (alongX) {
          split(x0, y0, x1, y0 + cut);
          split(x0, y0 + cut, x1, y1);
        } else {
          split(x0, y0, x0 + cut, y1);
          split(x0 + cut, y0, x1, y1);
        }
        return;
      }
      lots.push([x0, y0, x1, y1]);
      return;
    }
    const cut = rng.range(minLot, size - minLot);
    if (alongX) {
      split(x0, y0, x0 + cut, y1);
      split(x0 + cut, y0, x1, y1);
    } else {
      split(x0, y0, x1, y0 + cut);
      split(x0, y0 + cut, x1, y1);
    }
  };
  split(bx0 + s, by0 + s, bx1 - s, by1 - s);
  const indices: number[] = [];
  for (const [x0, y0, x1, y1] of lots) {
    if (!rng.chance(o.buildingDensity)) continue;
    // The footprint fills the lot less half a gap on each side, capped at the largest size
    // (a lot that could not be split further may be up to two smallest lots long).
    const w = Math.min(x1 - x0 - gap, o.maxBuildingSize);
    const h = Math.min(y1 - y0 - gap, o.maxBuildingSize);
    const cx = rng.range(x0 + gap / 2 + w / 2, x1 - gap / 2 - w / 2);
    const cy = rng.range(y0 + gap / 2 + h / 2, y1 - gap / 2 - h / 2);
    const minX = cx - w / 2, maxX = cx + w / 2, minY = cy - h / 2, maxY = cy + h / 2;
    const height = rng.range(o.minHeight, o.maxHeight);
    const index = buildings.length;
    buildings.push({
      id: `gen/building/${index}`,
      polygon: [_rect(minX, minY, maxX, maxY)],
      height,
      heightSource: "height",
      levels: Math.max(1, Math.round(height / 3)),
      name: null,
      kind: "yes",
      entrance: _entrance(minX, minY, maxX, maxY, bx0, by0, bx1, by1),
    });
    indices.push(index);
  }
  return indices;
}

/** Midpoint of the footprint side closest to the block's kerb. */
function _entrance(
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  bx0: number,
  by0: number,
  bx1: number,
  by1: number,
): Point {
  const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2;
  const south = minY - by0, north = by1 - maxY, west = minX - bx0, east = bx1 - maxX;
  const nearest = Math.min(south, north, west, east);
  if (nearest === south) return [cx, minY];
  if (nearest === north) return [cx, maxY];
  if (nearest === west) return [minX, cy];
  return [maxX, cy];
}

/**
 * Street furniture of block (i, j). Each side of the block is a line from one corner to the
 * next; items stand in the strip along the kerb, keep `buildingGap` from each other and stay off
 * the crosswalk landings at the corners.
 */
function _placeFurniture(
  grid: _Grid,
  i: number,
  j: number,
  o: ProceduralCityOptions,
  rng: Rng,
  out: StreetFurniture[],
): void {
  const [x0, y0, x1, y1] = grid.block(i, j);
  const id = `gen/block/${i}-${j}`;
  // Signal posts at the corners touching a signalled intersection (three or more streets).
  const corners: [number, number, number, number, number, number][] = [
    [x0, y0, 1, 1, i, j],
    [x1, y0, -1, 1, i + 1, j],
    [x1, y1, -1, -1, i + 1, j + 1],
    [x0, y1, 1, -1, i, j + 1],
  ];
  corners.forEach(([cx, cy, sx, sy, ni, nj], k) => {
    if (grid.degree(ni, nj) < 3) return;
    const px = cx + sx * SIGNAL_POST_INSET, py = cy + sy * SIGNAL_POST_INSET;
    const h = SIGNAL_POST / 2;
    out.push({
      id: `${id}/signal-${k}`,
      kind: "signal",
      polygon: _rect(px - h, py - h, px + h, py + h),
    });
  });
  // Sides as (start corner, unit direction along the side, inward normal).
  const sides: [number, number, number, number, number, number, number, string][] = [
    [x0, y0, 1, 0, 0, 1, x1 - x0, "south"],
    [x0, y1, 1, 0, 0, -1, x1 - x0, "north"],
    [x0, y0, 0, 1, 1, 0, y1 - y0, "west"],
    [x1, y0, 0, 1, -1, 0, y1 - y0, "east"],
  ];
  const gap = o.buildingGap;
  const clear = o.crosswalkWidth + LANDING_CLEARANCE;
  for (const [sx, sy, dx, dy, nx, ny, length, name] of sides) {
    const taken: [number, number][] = []; // occupied intervals along the side (m)
    const place = (kind: string, size: readonly [number, number], at: number): boolean => {
      const lo = at - size[0] / 2, hi = at + size[0] / 2;
      if (lo < clear || hi > length - clear) return false;
      for (const [a, b] of taken) if (lo < b + gap && hi > a - gap) return false;
      taken.push([lo, hi]);
      const depth = KERB_CLEARANCE + size[1] / 2;
      const cx = sx + dx * at + nx * depth, cy = sy + dy * at + ny * depth;
      const hx = (dx !== 0 ? size[0] : size[1]) / 2, hy = (dy !== 0 ? size[0] : size[1]) / 2;
      out.push({
        id: `${id}/${name}/${kind}-${taken.length}`,
        kind,
        polygon: _rect(cx - hx, cy - hy, cx + hx, cy + hy),
      });
      return true;
    };
    const first = clear + LIGHT_POST[0] / 2, span = length - 2 * first;
    const lights = Math.max(1, Math.floor(span / o.lightSpacing) + 1);
    for (let k = 0; k < lights; k++) {
      place("light", LIGHT_POST, lights === 1 ? length / 2 : first + (span * k) / (lights - 1));
    }
    for (let k = 0; k < o.treesPerSide; k++) {
      for (let t = 0; t < PLACEMENT_TRIES; t++) {
        if (place("tree", TREE_PIT, rng.range(clear, length - clear))) break;
      }
    }
    for (let k = 0; k < o.benchesPerSide; k++) {
      for (let t = 0; t < PLACEMENT_TRIES; t++) {
        if (place("bench", BENCH, rng.range(clear, length - clear))) break;
      }
    }
  }
}

/**
 * City blocks of a map: the land between the streets cars drive on, each holding its buildings,
 * and the crossings fitted from kerb to kerb between them — what block routing with crosswalks
 * and cars needs (F. Gennari, Procedural City: Pedestrian Updates + Navigation, 3DWorld blog,
 * 2019), read from a city model built from OpenStreetMap instead of generated.
 *
 * - **Carriageways.** Each street edge cars drive on ({@linkcode drivenStreet}: a carriageway
 *   on the ground, not shared with pedestrians) is buffered by half its width with round joins
 *   and ends (Clipper2, Angus Johnson), and the buffers are merged. A street that ends within
 *   `edgeSnap` of the map's edge, heading for it, was cut off by the extract: it runs on to the
 *   edge, so that the land either side of it stays two blocks.
 * - **Blocks.** The map's extent minus the carriageways falls into connected pieces; each piece
 *   (with its holes) is a block, outlined up to the kerb. Pieces smaller than `minBlockArea`
 *   (slivers between converging roads, traffic islands too small to wait on) are dropped.
 * - **Buildings.** A building lies on the block holding most of its footprint. A building cut
 *   by a carriageway or reaching into another block (rare mapping errors, or a street whose
 *   width is guessed too wide) is reported in {@linkcode CityBlocks.cut}; its part in another
 *   block is cut out of that block, so the building is in exactly one block's free space and
 *   nobody walks through it. A building on no block at all (inside a carriageway or outside the
 *   extent) goes to the nearest block and is reported in {@linkcode CityBlocks.unplaced}.
 * - **Crossings.** A mapped crossing rarely ends exactly at the kerb of the modelled
 *   carriageway: footway crossings run between sidewalk lines, crossing nodes are drawn across
 *   the road's guessed width. Each crossing is fitted to the straight line through its ends:
 *   from its centre, it reaches out along the line (up to `kerbSearch` past its mapped ends) to
 *   where the land of a block starts on each side, so that its first point lies at one block's
 *   kerb and its last at the other's. A crossing whose centre is on a block (it crosses no
 *   carriageway there) or whose line finds no block within reach keeps its mapped points;
 *   {@linkcode CityBlocks.joined} counts the crossings that join two different blocks.
 *
 * @module
 */
import {
  areaD,
  booleanOpD,
  ClipType,
  EndType,
  FillRule,
  inflatePathsD,
  JoinType,
  type PathD,
  type PathsD,
} from "npm:clipper2-ts@2.0.1";
import { type Point, pointInPolygon, pointsBounds } from "../core/geometry.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import { polygonsFromPaths } from "../navigation/_polygons_from_paths.ts";
import type { CityBlock, CityCrossing, CityModel, CityPolygon, StreetEdge } from "./city_model.ts";
import { polygonArea } from "./_city_areas.ts";

/** Options of {@linkcode deriveCityBlocks}. */
export interface CityBlockOptions {
  /** Pieces of land smaller than this are dropped (m²). @default 30 */
  minBlockArea: number;
  /** A crossing may reach this far past its mapped ends to find a kerb (m). @default 8 */
  kerbSearch: number;
  /** A building with more than this share of its area off its block is reported as cut. @default 0.02 */
  cutShare: number;
  /**
   * A street that ends this close to the map's edge, heading for it, is taken to run on to the
   * edge (the extract cut it off) (m). @default 25
   */
  edgeSnap: number;
}

/** Descriptors of {@linkcode CityBlockOptions}. */
export const CITY_BLOCK_OPTIONS: OptionSpecs<CityBlockOptions> = {
  minBlockArea: {
    type: "number",
    default: 30,
    min: 0,
    max: 1e6,
    unit: "m²",
    doc: "pieces of land smaller than this are dropped",
  },
  kerbSearch: {
    type: "number",
    default: 8,
    min: 0,
    max: 100,
    unit: "m",
    doc: "a crossing may reach this far past its mapped ends to find a kerb",
  },
  cutShare: {
    type: "number",
    default: 0.02,
    min: 0,
    max: 1,
    doc: "a building with more than this share of its area off its block is reported as cut",
  },
  edgeSnap: {
    type: "number",
    default: 25,
    min: 0,
    max: 1000,
    unit: "m",
    doc: "a street ending this close to the map's edge, heading for it, runs on to the edge",
  },
};

/** What {@linkcode deriveCityBlocks} found. */
export interface CityBlocks {
  /** The blocks. */
  readonly blocks: CityBlock[];
  /** The city's crossings, fitted from kerb to kerb (same order and ids). */
  readonly crossings: CityCrossing[];
  /** Block of each building. */
  readonly buildingBlock: Int32Array;
  /** Buildings cut by a carriageway or reaching into another block. */
  readonly cut: number[];
  /** Buildings on no block, given to the nearest one. */
  readonly unplaced: number[];
  /** Crossings whose ends lie on two different blocks. */
  readonly joined: number;
  /** The merged carriageways (m): outer rings, then holes. */
  readonly carriageways: CityPolygon[];
}

/** Decimal places kept by the clipping library: 3 = 1 mm. */
const PRECISION = 3;
/** Side of a cell of the block index (m). */
const CELL = 50;

/**
 * Whether cars drive on `edge` at ground level: a carriageway that is neither in a tunnel nor
 * shared with pedestrians (a living street, a track). These cut the land into blocks; the
 * city-traffic scenario lets cars drive on these only.
 */
export function drivenStreet(edge: StreetEdge): boolean {
  return edge.carriageway && !edge.tunnel && !edge.shared;
}

/**
 * Derives the blocks of `city` (see the module doc). The city's own `blocks` are ignored.
 * Throws a RangeError naming the option for bad options.
 *
 * @example Two blocks either side of one street
 * ```ts
 * import { deriveCityBlocks } from "./city_blocks.ts";
 * import { crosswalkCity } from "../scenarios/city_traffic.ts";
 * import assert from "node:assert/strict";
 * const city = crosswalkCity(50);
 * const found = deriveCityBlocks(city);
 * assert.equal(found.blocks.length, 2);
 * assert.equal(found.joined, 1);
 * ```
 */
export function deriveCityBlocks(
  city: CityModel,
  options: Partial<CityBlockOptions> = {},
): CityBlocks {
  const o = resolveOptions("city blocks", CITY_BLOCK_OPTIONS, options);
  const carriageways = _carriageways(city, o.edgeSnap);
  const [x0, y0, x1, y1] = city.bounds;
  const extent: PathD = [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];
  const land = booleanOpD(ClipType.Difference, [extent], carriageways, FillRule.NonZero, PRECISION);
  const pieces = polygonsFromPaths(land).filter((p) => polygonArea(p) >= o.minBlockArea);
  const index = new _BlockIndex(pieces);
  const assigned = _assignBuildings(city, pieces, index, carriageways, o.cutShare);
  const polygons = _cutForeignBuildings(city, pieces, assigned);
  const blocks: CityBlock[] = polygons.map((polygon, b) => ({
    id: `gen/block/${b}`,
    polygon,
    buildings: assigned.members[b],
  }));
  const finalIndex = new _BlockIndex(polygons);
  let joined = 0;
  const crossings = city.crossings.map((c) => {
    const fitted = _fitCrossing(c, finalIndex, o.kerbSearch);
    const p = fitted.points;
    const a = finalIndex.blockAt(p[0][0], p[0][1], 0.4, p[p.length - 1]);
    const b = finalIndex.blockAt(p[p.length - 1][0], p[p.length - 1][1], 0.4, p[0]);
    if (a >= 0 && b >= 0 && a !== b) joined++;
    return fitted;
  });
  return {
    blocks,
    crossings,
    buildingBlock: assigned.block,
    cut: assigned.cut,
    unplaced: assigned.unplaced,
    joined,
    carriageways: polygonsFromPaths(carriageways),
  };
}

/**
 * `city` with its blocks derived and its crossings fitted from kerb to kerb
 * ({@linkcode deriveCityBlocks}), and a warning line for the buildings cut by a carriageway
 * and for those on no block; a city that already has blocks is returned as it is.
 */
export function withCityBlocks(
  city: CityModel,
  options: Partial<CityBlockOptions> = {},
): CityModel {
  if (city.blocks) return city;
  const found = deriveCityBlocks(city, options);
  const warnings = [...(city.warnings ?? [])];
  const ids = (list: readonly number[]) =>
    list.slice(0, 5).map((k) => city.buildings[k].id).join(", ") + (list.length > 5 ? ", …" : "");
  if (found.cut.length > 0) {
    warnings.push(
      `blocks: ${found.cut.length} buildings reach into a carriageway or another block (a mapping conflict, or a street's width guessed too wide): ${
        ids(found.cut)
      }`,
    );
  }
  if (found.unplaced.length > 0) {
    warnings.push(
      `blocks: ${found.unplaced.length} buildings lie on no block (inside a carriageway or outside the map's extent) and went to the nearest: ${
        ids(found.unplaced)
      }`,
    );
  }
  return { ...city, blocks: found.blocks, crossings: found.crossings, warnings };
}

/** The carriageways of `city` buffered by half their width and merged, as Clipper paths. */
function _carriageways(city: CityModel, edgeSnap: number): PathsD {
  const { nodes, edges } = city.streets;
  const degree = new Int32Array(nodes.length);
  for (const e of edges) {
    if (!drivenStreet(e)) continue;
    degree[e.from]++;
    degree[e.to]++;
  }
  const byWidth = new Map<number, PathsD>();
  for (const e of edges) {
    if (!drivenStreet(e) || e.points.length < 2 || !(e.width > 0)) continue;
    const half = Math.round(e.width * 50) / 100;
    let group = byWidth.get(half);
    if (!group) byWidth.set(half, group = []);
    const path: PathD = e.points.map(([x, y]) => ({ x, y }));
    // Dead ends cut off just inside the map's edge run on to it.
    const q = e.points.length - 1;
    if (degree[e.to] === 1) {
      const end = _toEdge(city.bounds, e.points[q], e.points[q - 1], edgeSnap);
      if (end) path.push({ x: end[0], y: end[1] });
    }
    if (degree[e.from] === 1) {
      const end = _toEdge(city.bounds, e.points[0], e.points[1], edgeSnap);
      if (end) path.unshift({ x: end[0], y: end[1] });
    }
    group.push(path);
  }
  const all: PathsD = [];
  for (const [half, paths] of byWidth) {
    const grown = inflatePathsD(paths, half, JoinType.Round, EndType.Round, 2, PRECISION, 0.05);
    for (const p of grown) all.push(p);
  }
  return booleanOpD(ClipType.Union, all, [], FillRule.NonZero, PRECISION);
}

/**
 * Where the street ending at `end` (coming from `before`) meets the edge of `bounds` if it runs
 * straight on, when that is within `reach` m; else null.
 */
function _toEdge(
  bounds: readonly [number, number, number, number],
  end: Point,
  before: Point,
  reach: number,
): Point | null {
  const [x0, y0, x1, y1] = bounds;
  const dx = end[0] - before[0], dy = end[1] - before[1], len = Math.hypot(dx, dy);
  if (!(len > 0) || reach <= 0) return null;
  const ux = dx / len, uy = dy / len;
  let t = Infinity;
  if (ux > 0) t = Math.min(t, (x1 - end[0]) / ux);
  if (ux < 0) t = Math.min(t, (x0 - end[0]) / ux);
  if (uy > 0) t = Math.min(t, (y1 - end[1]) / uy);
  if (uy < 0) t = Math.min(t, (y0 - end[1]) / uy);
  if (!(t >= 0 && t <= reach)) return null;
  // A little past the edge, so that the buffer's round end does not leave a gap of land.
  return [end[0] + ux * (t + 1), end[1] + uy * (t + 1)];
}

/** A point inside `ring` (m): the middle of the first corner's triangle that lies inside. */
function _insidePoint(ring: readonly Point[]): Point {
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    const a = ring[(i + n - 1) % n], b = ring[i], c = ring[(i + 1) % n];
    const x = (a[0] + b[0] + c[0]) / 3, y = (a[1] + b[1] + c[1]) / 3;
    if (pointInPolygon(x, y, ring)) return [x, y];
  }
  return ring[0];
}

function _path(ring: readonly Point[]): PathD {
  return ring.map(([x, y]) => ({ x, y }));
}

function _paths(polygon: CityPolygon): PathsD {
  return polygon.map((ring) => ring.map(([x, y]) => ({ x, y })));
}

function _pathsArea(paths: PathsD): number {
  let total = 0;
  for (const p of paths) total += areaD(p);
  return total;
}

/** Bounding boxes of blocks in a uniform grid, for point and box queries. */
class _BlockIndex {
  readonly polygons: readonly CityPolygon[];
  readonly boxes: Float64Array;
  readonly #cells = new Map<number, number[]>();

  constructor(polygons: readonly CityPolygon[]) {
    this.polygons = polygons;
    this.boxes = new Float64Array(4 * polygons.length);
    polygons.forEach((polygon, b) => {
      const [x0, y0, x1, y1] = pointsBounds(polygon[0]);
      this.boxes.set([x0, y0, x1, y1], 4 * b);
      for (let i = Math.floor(x0 / CELL); i <= Math.floor(x1 / CELL); i++) {
        for (let j = Math.floor(y0 / CELL); j <= Math.floor(y1 / CELL); j++) {
          const key = _key(i, j);
          let list = this.#cells.get(key);
          if (!list) this.#cells.set(key, list = []);
          list.push(b);
        }
      }
    });
  }

  /**
   * Where the segment from (`x0`, `y0`) to (`x1`, `y1`) crosses a block outline, as fractions
   * of its length (unsorted).
   */
  lineCuts(x0: number, y0: number, x1: number, y1: number): number[] {
    const out: number[] = [];
    const ex = x1 - x0, ey = y1 - y0;
    for (
      const b of this.near(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1))
    ) {
      for (const ring of this.polygons[b]) {
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const [px, py] = ring[j], [qx, qy] = ring[i];
          const fx = qx - px, fy = qy - py;
          const det = ex * fy - ey * fx;
          if (det === 0) continue;
          const wx = px - x0, wy = py - y0;
          const s = (wx * fy - wy * fx) / det, t = (wx * ey - wy * ex) / det;
          if (s >= 0 && s <= 1 && t >= 0 && t <= 1) out.push(s);
        }
      }
    }
    return out;
  }

  /** Blocks whose box meets the box `[x0, y0, x1, y1]`. */
  near(x0: number, y0: number, x1: number, y1: number): number[] {
    const found = new Set<number>();
    for (let i = Math.floor(x0 / CELL); i <= Math.floor(x1 / CELL); i++) {
      for (let j = Math.floor(y0 / CELL); j <= Math.floor(y1 / CELL); j++) {
        for (const b of this.#cells.get(_key(i, j)) ?? []) {
          const box = this.boxes;
          if (
            box[4 * b] <= x1 && box[4 * b + 2] >= x0 && box[4 * b + 1] <= y1 && box[4 * b + 3] >= y0
          ) {
            found.add(b);
          }
        }
      }
    }
    return [...found];
  }

  /**
   * The block holding (`x`, `y`), or -1. With `probe` > 0 and a point `away`, the point is
   * first moved `probe` m further from `away` (as block routing probes a crossing's ends).
   */
  blockAt(x: number, y: number, probe = 0, away?: Point): number {
    if (probe > 0 && away) {
      const dx = x - away[0], dy = y - away[1], len = Math.hypot(dx, dy);
      if (len > 0) {
        x += (dx / len) * probe;
        y += (dy / len) * probe;
      }
    }
    for (const b of this.#cells.get(_key(Math.floor(x / CELL), Math.floor(y / CELL))) ?? []) {
      const box = this.boxes;
      if (x < box[4 * b] || x > box[4 * b + 2] || y < box[4 * b + 1] || y > box[4 * b + 3]) {
        continue;
      }
      const polygon = this.polygons[b];
      if (!pointInPolygon(x, y, polygon[0])) continue;
      let hole = false;
      for (let h = 1; h < polygon.length && !hole; h++) hole = pointInPolygon(x, y, polygon[h]);
      if (!hole) return b;
    }
    return -1;
  }
}

function _key(i: number, j: number): number {
  return (i + 100_000) * 200_003 + (j + 100_000);
}

interface _Assignment {
  block: Int32Array;
  members: number[][];
  cut: number[];
  unplaced: number[];
  /** Per building: the other blocks its footprint reaches into. */
  foreign: Map<number, number[]>;
}

/** Gives each building the block holding most of it (see the module doc). */
function _assignBuildings(
  city: CityModel,
  pieces: readonly CityPolygon[],
  index: _BlockIndex,
  carriageways: PathsD,
  cutShare: number,
): _Assignment {
  const n = city.buildings.length;
  const block = new Int32Array(n).fill(-1);
  const members: number[][] = pieces.map(() => []);
  const cut: number[] = [], unplaced: number[] = [];
  const foreign = new Map<number, number[]>();
  // Where buildings meet carriageways, found at once; only buildings near one of these
  // pieces are clipped one by one.
  const footprints: PathsD = [];
  for (const b of city.buildings) for (const p of _paths(b.polygon)) footprints.push(p);
  const overlap = new _BlockIndex(
    polygonsFromPaths(
      booleanOpD(ClipType.Intersection, footprints, carriageways, FillRule.NonZero, PRECISION),
    ),
  );
  const [bx0, by0, bx1, by1] = city.bounds;
  city.buildings.forEach((building, k) => {
    const ring = building.polygon[0];
    const [x0, y0, x1, y1] = pointsBounds(ring);
    // A footprint clear of every carriageway and inside the extent lies on one piece of land.
    const first = overlap.near(x0, y0, x1, y1).length === 0 && x0 > bx0 && y0 > by0 &&
        x1 < bx1 && y1 < by1
      ? index.blockAt(ring[0][0], ring[0][1])
      : -1;
    if (first >= 0) {
      block[k] = first;
      members[first].push(k);
      return;
    }
    // The footprint off the carriageways, in pieces; each piece lies on one block (or none).
    const own = Math.abs(polygonArea(building.polygon));
    const near: PathsD = [];
    for (const o of overlap.near(x0, y0, x1, y1)) {
      for (const r of overlap.polygons[o]) near.push(_path(r));
    }
    // Outside the extent counts as off every block.
    if (!(x0 > bx0 && y0 > by0 && x1 < bx1 && y1 < by1)) {
      const m = Math.max(x1 - x0, y1 - y0) + 1;
      near.push(
        [{ x: x0 - m, y: y0 - m }, { x: x1 + m, y: y0 - m }, { x: x1 + m, y: y1 + m }, {
          x: x0 - m,
          y: y1 + m,
        }],
        [{ x: bx0, y: by0 }, { x: bx0, y: by1 }, { x: bx1, y: by1 }, { x: bx1, y: by0 }],
      );
    }
    const parts = polygonsFromPaths(
      booleanOpD(ClipType.Difference, _paths(building.polygon), near, FillRule.NonZero, PRECISION),
    );
    const areaOn = new Map<number, number>();
    for (const part of parts) {
      const [px, py] = _insidePoint(part[0]);
      const b = index.blockAt(px, py);
      if (b >= 0) areaOn.set(b, (areaOn.get(b) ?? 0) + polygonArea(part));
    }
    let best = -1, bestArea = 0;
    const hit: number[] = [];
    for (const [b, area] of areaOn) {
      if (area <= 1e-6) continue;
      hit.push(b);
      if (area > bestArea) {
        bestArea = area;
        best = b;
      }
    }
    if (best < 0) {
      best = _nearestBlock(index, (x0 + x1) / 2, (y0 + y1) / 2);
      unplaced.push(k);
      if (best < 0) return;
    } else if (own - bestArea > cutShare * own) {
      cut.push(k);
    }
    const others = hit.filter((b) => b !== best);
    if (others.length > 0) foreign.set(k, others);
    block[k] = best;
    members[best].push(k);
  });
  return { block, members, cut, unplaced, foreign };
}

function _nearestBlock(index: _BlockIndex, x: number, y: number): number {
  let best = -1, bestD = Infinity;
  const box = index.boxes;
  for (let b = 0; b < index.polygons.length; b++) {
    const dx = Math.max(box[4 * b] - x, 0, x - box[4 * b + 2]);
    const dy = Math.max(box[4 * b + 1] - y, 0, y - box[4 * b + 3]);
    const d = Math.hypot(dx, dy);
    if (d < bestD) {
      bestD = d;
      best = b;
    }
  }
  return best;
}

/** The blocks with the parts of buildings assigned to other blocks cut out. */
function _cutForeignBuildings(
  city: CityModel,
  pieces: readonly CityPolygon[],
  assigned: _Assignment,
): CityPolygon[] {
  const cutBy: number[][] = pieces.map(() => []);
  for (const [k, blocks] of assigned.foreign) for (const b of blocks) cutBy[b].push(k);
  return pieces.map((polygon, b) => {
    if (cutBy[b].length === 0) return polygon;
    const clip: PathsD = [];
    for (const k of cutBy[b]) for (const p of _paths(city.buildings[k].polygon)) clip.push(p);
    const rest = polygonsFromPaths(
      booleanOpD(ClipType.Difference, _paths(polygon), clip, FillRule.NonZero, PRECISION),
    );
    // The largest piece stays the block; slivers cut off by the building are dropped.
    rest.sort((p, q) => polygonArea(q) - polygonArea(p));
    return rest[0] ?? polygon;
  });
}

/**
 * `crossing` with its points set from kerb to kerb along the line through its ends (see the
 * module doc), or as it is when no kerb pair is found.
 */
function _fitCrossing(crossing: CityCrossing, index: _BlockIndex, reach: number): CityCrossing {
  const p = crossing.points;
  if (p.length < 2) return crossing;
  const [ax, ay] = p[0], [bx, by] = p[p.length - 1];
  const len = Math.hypot(bx - ax, by - ay);
  if (!(len > 0)) return crossing;
  const ux = (bx - ax) / len, uy = (by - ay) / len;
  const lo = -reach, hi = len + reach;
  // Where the line meets block outlines: between two such places it is either on one block
  // or off every block.
  const cuts = index.lineCuts(ax + ux * lo, ay + uy * lo, ax + ux * hi, ay + uy * hi)
    .map((s) => lo + s * (hi - lo));
  cuts.push(lo, hi);
  cuts.sort((a, b) => a - b);
  const pieces: [number, number, boolean][] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const t0 = cuts[i], t1 = cuts[i + 1];
    if (t1 - t0 < 1e-6) continue;
    const tm = (t0 + t1) / 2;
    pieces.push([t0, t1, index.blockAt(ax + ux * tm, ay + uy * tm) >= 0]);
  }
  // Merge neighbours of the same kind.
  const runs: [number, number, boolean][] = [];
  for (const q of pieces) {
    const last = runs[runs.length - 1];
    if (last && last[2] === q[2]) last[1] = q[1];
    else runs.push([...q]);
  }
  // The run off every block that holds the crossing's centre, or the nearest to it within
  // the mapped crossing; it must have land on both sides.
  const tc = (crossing.x - ax) * ux + (crossing.y - ay) * uy;
  let best = -1, bestD = Infinity;
  runs.forEach(([t0, t1, on], i) => {
    if (on || i === 0 || i === runs.length - 1) return;
    if (t1 < 0 || t0 > len) return;
    const d = tc < t0 ? t0 - tc : tc > t1 ? tc - t1 : 0;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  if (best < 0) return crossing;
  const [ta, tb] = runs[best];
  return {
    ...crossing,
    points: [[ax + ux * ta, ay + uy * ta], [ax + ux * tb, ay + uy * tb]],
  };
}

/**
 * The guidance map of D. Michael and Y. Chrysanthou, Automatic high level avatar guidance based
 * on affordance of movement, Eurographics 2003: the ground cut into square cells, each marked
 * building, junction or road, road cells holding the direction of their street's centre line,
 * so that a walker on a road only reads its cell to know where the road goes.
 *
 * Built from a city model:
 * - building: the cell's centre lies in a building footprint (courtyards excluded);
 * - road: within the street's half-width plus `roadReachM` of a walkable street's centre line
 *   (the sidewalks up to the facades); the direction is that of the nearest centre-line piece,
 *   pointing from the street's `from` node to its `to` node, and the cell remembers the street.
 *   Within the half-width itself a street wins over a footprint, so streets mapped through
 *   buildings (passages, arcades) stay connected;
 * - junction: within a small radius of a node where people choose or turn (three or more
 *   walkable streets, or a dead end); the cell remembers the node;
 * - open: walkable ground far from any street (squares, parks, yards), which the paper leaves
 *   for later and the visual-field walkers of Turner and Penn (2002) cover.
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { CityModel } from "../geo/city_model.ts";

/** Cell kinds of a {@linkcode GuidanceMap}. */
export const GuidanceCell = {
  /** Walkable, away from streets (squares, parks). */
  open: 0,
  /** Inside a building footprint. */
  building: 1,
  /** Near a junction's centre: where walkers choose their next street. */
  junction: 2,
  /** Along a street: walkers follow the cell's direction. */
  road: 3,
} as const;

/** Options of {@linkcode GuidanceMap.fromCity}. */
export interface GuidanceMapOptions {
  /** Cell edge (m). Smaller cells follow facades closely; memory grows with 1/size². @default 2 */
  cellSizeM: number;
  /**
   * Radius of the junction cells around a node (m); at least half the widest street meeting
   * there, so the whole crossing area counts as the junction. The paper's "small radius".
   * @default 5
   */
  junctionRadiusM: number;
  /**
   * How far beyond half its width a street's road cells reach (m): the sidewalks. Cells farther
   * from every street are open.
   * @default 6
   */
  roadReachM: number;
  /** Use only walkable streets. @default true */
  walkableOnly: boolean;
}

/** Descriptors of {@linkcode GuidanceMapOptions}. */
export const GUIDANCE_MAP_OPTIONS: OptionSpecs<GuidanceMapOptions> = {
  cellSizeM: {
    type: "number",
    default: 2,
    min: 0.1,
    max: 100,
    unit: "m",
    doc: "cell edge; smaller follows facades closely, memory grows with 1/size²",
  },
  junctionRadiusM: {
    type: "number",
    default: 5,
    min: 0,
    max: 100,
    unit: "m",
    doc: "radius of junction cells (at least half the widest street there)",
  },
  roadReachM: {
    type: "number",
    default: 6,
    min: 0,
    max: 200,
    unit: "m",
    doc: "road cells reach this far beyond half the street width (the sidewalks)",
  },
  walkableOnly: { type: "boolean", default: true, doc: "use walkable streets only" },
};

/** Most cells a guidance map may have. */
const MAX_CELLS = 1 << 26;

/**
 * A grid of {@linkcode GuidanceCell} kinds over a city, with road directions (see the module
 * doc). Cell `c = row * cols + col` covers `[originX + col·cellSizeM, …)` ×
 * `[originY + row·cellSizeM, …)`.
 *
 * @example The road direction under a walker
 * ```ts
 * import { GuidanceCell, GuidanceMap } from "./guidance_map.ts";
 * import { syntheticCity } from "./_synthetic_city.ts";
 * import assert from "node:assert/strict";
 * const city = syntheticCity({ sizeM: 400, spacingM: 80 });
 * const map = GuidanceMap.fromCity(city);
 * const node = city.streets.nodes.find((n) => n.degree === 4)!;
 * assert.equal(map.kindAt(node.x, node.y), GuidanceCell.junction);
 * ```
 */
export class GuidanceMap {
  /** Cell edge (m). */
  readonly cellSizeM: number;
  /** West edge of the grid (m). */
  readonly originX: number;
  /** South edge of the grid (m). */
  readonly originY: number;
  /** Columns. */
  readonly cols: number;
  /** Rows. */
  readonly rows: number;
  /** {@linkcode GuidanceCell} kind per cell. */
  readonly kind: Uint8Array;
  /** Unit direction of the street at road cells, from its `from` node to its `to` node (x). */
  readonly dirX: Float32Array;
  /** Unit direction (y); 0 where the cell is not road. */
  readonly dirY: Float32Array;
  /** Street edge of road and junction cells (the nearest one), else -1. */
  readonly edge: Int32Array;
  /** Street node of junction cells, else -1. */
  readonly node: Int32Array;

  private constructor(originX: number, originY: number, cols: number, rows: number, cell: number) {
    this.originX = originX;
    this.originY = originY;
    this.cols = cols;
    this.rows = rows;
    this.cellSizeM = cell;
    const n = cols * rows;
    this.kind = new Uint8Array(n);
    this.dirX = new Float32Array(n);
    this.dirY = new Float32Array(n);
    this.edge = new Int32Array(n).fill(-1);
    this.node = new Int32Array(n).fill(-1);
  }

  /**
   * Rasterises `city` over its bounds. Throws a RangeError naming `cellSizeM` when the grid would
   * exceed 2^26 cells, and the usual option errors.
   */
  static fromCity(city: CityModel, options: Partial<GuidanceMapOptions> = {}): GuidanceMap {
    const o = resolveOptions("guidance map", GUIDANCE_MAP_OPTIONS, options);
    const [x0, y0, x1, y1] = city.bounds;
    const cols = Math.floor((x1 - x0) / o.cellSizeM) + 1;
    const rows = Math.floor((y1 - y0) / o.cellSizeM) + 1;
    if (cols * rows > MAX_CELLS) {
      throw new RangeError(
        `Cannot create guidance map as 'cellSizeM' is too small for the city: ${cols} × ${rows} cells exceed ${MAX_CELLS}; current value is ${o.cellSizeM}`,
      );
    }
    const map = new GuidanceMap(x0, y0, cols, rows, o.cellSizeM);
    const building = map.#rasteriseBuildings(city);
    const core = map.#rasteriseStreets(city, o);
    map.#rasteriseJunctions(city, o, core);
    for (let c = 0; c < cols * rows; c++) {
      if (map.node[c] >= 0 && (!building[c] || core[c])) map.kind[c] = GuidanceCell.junction;
      else if (map.edge[c] >= 0 && (core[c] || !building[c])) map.kind[c] = GuidanceCell.road;
      else if (building[c]) map.kind[c] = GuidanceCell.building;
      else map.kind[c] = GuidanceCell.open;
      if (map.kind[c] !== GuidanceCell.road) {
        map.dirX[c] = map.dirY[c] = 0;
        if (map.kind[c] !== GuidanceCell.junction) map.edge[c] = -1;
      }
      if (map.kind[c] !== GuidanceCell.junction) map.node[c] = -1;
    }
    return map;
  }

  /** Cell index of (`x`, `y`) (m), or -1 outside the grid. */
  cellAt(x: number, y: number): number {
    const col = Math.floor((x - this.originX) / this.cellSizeM);
    const row = Math.floor((y - this.originY) / this.cellSizeM);
    if (col < 0 || row < 0 || col >= this.cols || row >= this.rows) return -1;
    return row * this.cols + col;
  }

  /** {@linkcode GuidanceCell} kind at (`x`, `y`) (m); building outside the grid. */
  kindAt(x: number, y: number): number {
    const c = this.cellAt(x, y);
    return c < 0 ? GuidanceCell.building : this.kind[c];
  }

  /** Building mask by scanlines through the cell centres (even-odd over all rings). */
  #rasteriseBuildings(city: CityModel): Uint8Array {
    const mask = new Uint8Array(this.cols * this.rows);
    const cs = this.cellSizeM;
    const xs: number[] = [];
    for (const b of city.buildings) {
      let minY = Infinity, maxY = -Infinity;
      for (const [, y] of b.polygon[0]) {
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
      const r0 = Math.max(0, Math.ceil((minY - this.originY) / cs - 0.5));
      const r1 = Math.min(this.rows - 1, Math.floor((maxY - this.originY) / cs - 0.5));
      for (let r = r0; r <= r1; r++) {
        const y = this.originY + (r + 0.5) * cs;
        xs.length = 0;
        for (const ring of b.polygon) {
          for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
            const [xi, yi] = ring[i], [xj, yj] = ring[j];
            if ((yi > y) !== (yj > y)) xs.push(xi + ((y - yi) / (yj - yi)) * (xj - xi));
          }
        }
        xs.sort((a, b) => a - b);
        for (let k = 0; k + 1 < xs.length; k += 2) {
          const c0 = Math.max(0, Math.ceil((xs[k] - this.originX) / cs - 0.5));
          const c1 = Math.min(this.cols - 1, Math.floor((xs[k + 1] - this.originX) / cs - 0.5));
          for (let c = c0; c <= c1; c++) mask[r * this.cols + c] = 1;
        }
      }
    }
    return mask;
  }

  /** Nearest street within reach of each cell centre: edge, direction; returns the core mask. */
  #rasteriseStreets(city: CityModel, o: GuidanceMapOptions): Uint8Array {
    const cells = this.cols * this.rows, cs = this.cellSizeM;
    const best = new Float32Array(cells).fill(Infinity);
    const core = new Uint8Array(cells);
    for (const e of city.streets.edges) {
      if (o.walkableOnly && !e.walkable) continue;
      const half = e.width / 2, reach = half + o.roadReachM;
      for (let k = 1; k < e.points.length; k++) {
        const [ax, ay] = e.points[k - 1], [bx, by] = e.points[k];
        const len = Math.hypot(bx - ax, by - ay);
        if (len === 0) continue;
        const ux = (bx - ax) / len, uy = (by - ay) / len;
        const c0 = Math.max(0, Math.floor((Math.min(ax, bx) - reach - this.originX) / cs));
        const c1 = Math.min(
          this.cols - 1,
          Math.floor((Math.max(ax, bx) + reach - this.originX) / cs),
        );
        const r0 = Math.max(0, Math.floor((Math.min(ay, by) - reach - this.originY) / cs));
        const r1 = Math.min(
          this.rows - 1,
          Math.floor((Math.max(ay, by) + reach - this.originY) / cs),
        );
        for (let r = r0; r <= r1; r++) {
          const py = this.originY + (r + 0.5) * cs;
          for (let c = c0; c <= c1; c++) {
            const px = this.originX + (c + 0.5) * cs;
            const t = Math.min(len, Math.max(0, (px - ax) * ux + (py - ay) * uy));
            const d = Math.hypot(ax + t * ux - px, ay + t * uy - py);
            const cell = r * this.cols + c;
            if (d > reach || d >= best[cell]) continue;
            best[cell] = d;
            this.edge[cell] = e.index;
            this.dirX[cell] = ux;
            this.dirY[cell] = uy;
            core[cell] = d <= half ? 1 : 0;
          }
        }
      }
    }
    return core;
  }

  /** Junction cells around nodes with other than two walkable streets. */
  #rasteriseJunctions(city: CityModel, o: GuidanceMapOptions, core: Uint8Array): void {
    const nodes = city.streets.nodes, cs = this.cellSizeM;
    const degree = new Int32Array(nodes.length), widest = new Float64Array(nodes.length);
    for (const e of city.streets.edges) {
      if (o.walkableOnly && !e.walkable) continue;
      for (const n of [e.from, e.to]) {
        degree[n]++;
        widest[n] = Math.max(widest[n], e.width);
      }
    }
    const best = new Float32Array(this.cols * this.rows).fill(Infinity);
    for (const n of nodes) {
      if (degree[n.index] === 0 || degree[n.index] === 2) continue;
      const radius = Math.max(o.junctionRadiusM, widest[n.index] / 2);
      const c0 = Math.max(0, Math.floor((n.x - radius - this.originX) / cs));
      const c1 = Math.min(this.cols - 1, Math.floor((n.x + radius - this.originX) / cs));
      const r0 = Math.max(0, Math.floor((n.y - radius - this.originY) / cs));
      const r1 = Math.min(this.rows - 1, Math.floor((n.y + radius - this.originY) / cs));
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const d = Math.hypot(
            this.originX + (c + 0.5) * cs - n.x,
            this.originY + (r + 0.5) * cs - n.y,
          );
          const cell = r * this.cols + c;
          if (d > radius || d >= best[cell]) continue;
          best[cell] = d;
          this.node[cell] = n.index;
          if (d <= widest[n.index] / 2) core[cell] = 1;
        }
      }
    }
  }
}

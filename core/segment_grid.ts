/**
 * Static uniform grid over line segments (walls, obstacle edges) for "segments near a point"
 * queries.
 *
 * Each segment is entered in exactly the cells it passes through (row by row, not its whole
 * bounding box), so long diagonal walls stay cheap. Queries deduplicate with a stamp per segment
 * and write into a caller-supplied buffer; they do not allocate.
 *
 * @module
 */
import { cellSizeWithin } from "./_cell_budget.ts";
import { pointSegmentDistanceSq } from "./geometry.ts";

/**
 * Cell budget: at most this many cells, or 16 per segment when that is more. Geometry spread
 * over a huge area (two buildings kilometres apart) gets larger cells instead of gigabytes.
 */
const MAX_CELLS = 1 << 22;

/** Default cell edge of the clearance map (m): the finest it is built with. */
const CLEARANCE_CELL = 0.5;
/**
 * Cells (bytes) of the clearance map beyond which its cell edge is doubled (up to
 * `CLEARANCE_MAX_CELL`): a map this small stays in a core's cache when it is read once per agent
 * and step; a city's at 0.5 m (a few megabytes) falls out of it between two reads.
 */
const CLEARANCE_CACHE_CELLS = 1 << 18;
/** Coarsest cell edge the clearance map is built with (m). */
const CLEARANCE_MAX_CELL = 2;
/** Clearances are stored in whole steps of this many metres. */
const CLEARANCE_STEP = 0.05;
/**
 * Default of the largest clearance the map tells apart (m); a segment farther away is not looked
 * at.
 */
const CLEARANCE_CAP = 2.5;
/** The largest clearance cap a {@linkcode SegmentGrid} takes (m): about 254 steps of 5 cm, a byte each. */
export const SEGMENT_GRID_MAX_CLEARANCE_CAP = 12.7;
/** Cells of the clearance map at most; beyond, every point may have a segment near. */
const CLEARANCE_MAX_CELLS = 1 << 24;

/**
 * Grid of segment indices. Build once with {@linkcode SegmentGrid.build}; rebuild only when the
 * geometry changes.
 *
 * @example Walls within 1 m of a point
 * ```ts
 * import { SegmentGrid } from "./segment_grid.ts";
 * import assert from "node:assert/strict";
 * const ax = new Float64Array([0, 0]), ay = new Float64Array([0, 5]);
 * const bx = new Float64Array([10, 10]), by = new Float64Array([0, 5]);
 * const grid = new SegmentGrid(2.1);
 * grid.build(ax, ay, bx, by, 2);
 * const out = new Uint32Array(4);
 * assert.deepEqual(grid.queryRadius(3, 0.5, 1, out), 1);
 * assert.deepEqual(out[0], 0);
 * ```
 */
export class SegmentGrid {
  /** Cell edge requested (m). */
  readonly cellSize: number;
  /** Cell edge used by the last build (m); larger than `cellSize` only for sparse geometry. */
  activeCellSize: number;
  /** Minimum corner (m). */
  originX = 0;
  /** Minimum corner (m). */
  originY = 0;
  /** Cell columns. */
  cols = 0;
  /** Cell rows. */
  rows = 0;
  /** `cellStart[c] … cellStart[c+1]-1` index `cellItems` for cell `c`. */
  cellStart: Int32Array = new Int32Array(1);
  /** Segment indices per cell. */
  cellItems: Uint32Array = new Uint32Array(0);

  #ax: Float64Array = new Float64Array(0);
  #ay: Float64Array = new Float64Array(0);
  #bx: Float64Array = new Float64Array(0);
  #by: Float64Array = new Float64Array(0);
  #stamp: Uint32Array = new Uint32Array(0);
  #stampNow = 0;
  #invCell: number;
  #count = 0;
  /** Clearance map (see `isClear`), built on first use after a build; null until then. */
  #clearance: Uint8Array | null = null;
  #clearX0 = 0;
  #clearY0 = 0;
  #clearCols = 0;
  #clearRows = 0;
  /** Slack (m) against rounding in the clearance test. */
  #clearSlack = 0;
  /** Largest clearance the map tells apart (m). */
  readonly #clearCap: number;
  /** Finest cell edge of the clearance map (m). */
  readonly #clearFinest: number;
  /** Cell edge of the clearance map built (m), and its inverse. */
  #clearCell = CLEARANCE_CELL;
  #clearInv = 1 / CLEARANCE_CELL;

  /**
   * @param cellSize cell edge (m), usually twice the obstacle search radius
   * @param clearanceCap largest radius (m) {@linkcode SegmentGrid.isClear} can answer true for
   *   (at most 12.7 m); a larger one costs a larger map
   * @param clearanceCell finest cell edge (m) of the clearance map: finer answers true for more
   *   points near segments; the edge is doubled, up to 2 m, while the map would exceed 256 K
   *   cells, so that the map of a whole city stays in cache when it is read once per agent and
   *   step (at 2 m it takes a sixteenth of the bytes at 0.5 m)
   */
  constructor(cellSize = 2.1, clearanceCap = CLEARANCE_CAP, clearanceCell = CLEARANCE_CELL) {
    if (!(cellSize > 0) || !Number.isFinite(cellSize)) {
      throw new RangeError(
        `Cannot create SegmentGrid as 'cellSize' must be a finite number > 0: current value is ${cellSize}`,
      );
    }
    if (!(clearanceCap > 0 && clearanceCap <= SEGMENT_GRID_MAX_CLEARANCE_CAP)) {
      throw new RangeError(
        `Cannot create SegmentGrid as 'clearanceCap' must be in (0, ${SEGMENT_GRID_MAX_CLEARANCE_CAP}] m: current value is ${clearanceCap}`,
      );
    }
    if (!(clearanceCell > 0) || !Number.isFinite(clearanceCell)) {
      throw new RangeError(
        `Cannot create SegmentGrid as 'clearanceCell' must be a finite number > 0: current value is ${clearanceCell}`,
      );
    }
    this.#clearCap = clearanceCap;
    this.#clearFinest = clearanceCell;
    this.cellSize = cellSize;
    this.activeCellSize = cellSize;
    this.#invCell = 1 / cellSize;
  }

  /** Indexes segments `0 … count-1` from a to b (m). The arrays are kept by reference. */
  build(
    ax: Float64Array,
    ay: Float64Array,
    bx: Float64Array,
    by: Float64Array,
    count: number,
  ): void {
    if (
      !Number.isInteger(count) || count < 0 || count > ax.length || count > ay.length ||
      count > bx.length || count > by.length
    ) {
      throw new RangeError(
        `Cannot build SegmentGrid as 'count' must be an integer in [0, ${
          Math.min(ax.length, ay.length, bx.length, by.length)
        }] (the length of the endpoint arrays): current value is ${count}`,
      );
    }
    this.#ax = ax;
    this.#ay = ay;
    this.#bx = bx;
    this.#by = by;
    this.#stamp = new Uint32Array(count);
    this.#stampNow = 0;
    this.#count = count;
    this.#clearance = null;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let s = 0; s < count; s++) {
      minX = Math.min(minX, ax[s], bx[s]);
      maxX = Math.max(maxX, ax[s], bx[s]);
      minY = Math.min(minY, ay[s], by[s]);
      maxY = Math.max(maxY, ay[s], by[s]);
    }
    if (count === 0) {
      minX =
        minY =
        maxX =
        maxY =
          0;
    }
    const w = maxX - minX, h = maxY - minY;
    const cell = cellSizeWithin(w, h, this.cellSize, Math.max(MAX_CELLS, 16 * count));
    const inv = 1 / cell;
    this.activeCellSize = cell;
    this.#invCell = inv;
    this.originX = minX;
    this.originY = minY;
    // Same expression as the cell of a point, so the far edge lands in the last row/column.
    this.cols = Math.floor(w * inv) + 1;
    this.rows = Math.floor(h * inv) + 1;
    const cells = this.cols * this.rows;
    const counts = new Int32Array(cells + 1);
    // Two passes over the same traversal: count, then fill.
    for (let s = 0; s < count; s++) this.#visitCells(s, (c) => counts[c + 1]++);
    for (let c = 0; c < cells; c++) counts[c + 1] += counts[c];
    this.cellStart = counts;
    this.cellItems = new Uint32Array(counts[cells]);
    const cursor = counts.slice(0, cells);
    for (let s = 0; s < count; s++) this.#visitCells(s, (c) => this.cellItems[cursor[c]++] = s);
  }

  /**
   * Writes the indices of segments within `radius` (m) of (`x`, `y`) into `out`; returns how many
   * there are (may exceed `out.length`, in which case only `out.length` were written).
   */
  queryRadius(x: number, y: number, radius: number, out: Uint32Array): number {
    if (this.cellItems.length === 0) return 0;
    const inv = this.#invCell;
    const cx0 = Math.max(0, Math.floor((x - radius - this.originX) * inv));
    const cx1 = Math.min(this.cols - 1, Math.floor((x + radius - this.originX) * inv));
    const cy0 = Math.max(0, Math.floor((y - radius - this.originY) * inv));
    const cy1 = Math.min(this.rows - 1, Math.floor((y + radius - this.originY) * inv));
    if (cx0 > cx1 || cy0 > cy1) return 0;
    const stamp = this.#nextStamp();
    const r2 = radius * radius;
    const marks = this.#stamp, items = this.cellItems, start = this.cellStart;
    const ax = this.#ax, ay = this.#ay, bx = this.#bx, by = this.#by;
    let n = 0;
    for (let cy = cy0; cy <= cy1; cy++) {
      const row = cy * this.cols;
      const end = start[row + cx1 + 1];
      for (let k = start[row + cx0]; k < end; k++) {
        const s = items[k];
        if (marks[s] === stamp) continue;
        marks[s] = stamp;
        if (pointSegmentDistanceSq(x, y, ax[s], ay[s], bx[s], by[s]) <= r2) {
          if (n < out.length) out[n] = s;
          n++;
        }
      }
    }
    return n;
  }

  /**
   * True when no segment lies within `radius` (m) of (`x`, `y`): then
   * {@linkcode SegmentGrid.queryRadius} would find none. False when one may (ask the query).
   * Answers from a map of clearances (the distance from each cell's centre to the nearest
   * segment, rounded down to 5 cm steps up to the cap, 2.5 m by default; less the point's
   * distance from the centre it bounds the point's), built on the first call after a build; one
   * read. Cells are 0.5 m by default, coarser (up to 2 m) where the segments spread over so large
   * an area that the map would not stay in cache.
   */
  isClear(x: number, y: number, radius: number): boolean {
    if (this.#clearance === null) this.#buildClearance();
    const map = this.#clearance!;
    if (map.length === 0) return this.#count === 0;
    const cell = this.#clearCell, inv = this.#clearInv;
    const c = Math.floor((x - this.#clearX0) * inv);
    const r = Math.floor((y - this.#clearY0) * inv);
    if (!(c >= 0 && r >= 0 && c < this.#clearCols && r < this.#clearRows)) {
      // Beyond the map every segment is more than the cap away (NaN: not clear).
      return radius < this.#clearCap && x === x && y === y;
    }
    const dx = x - (this.#clearX0 + (c + 0.5) * cell);
    const dy = y - (this.#clearY0 + (r + 0.5) * cell);
    const offset = Math.sqrt(dx * dx + dy * dy) + this.#clearSlack;
    return radius + offset < map[r * this.#clearCols + c] * CLEARANCE_STEP;
  }

  /**
   * Fills the clearance map: for every cell within the cap of a segment, the distance from its
   * centre to the nearest segment (less a slack against rounding), rounded down to whole steps
   * and capped.
   */
  #buildClearance(): void {
    const n = this.#count, ax = this.#ax, ay = this.#ay, bx = this.#bx, by = this.#by;
    this.#clearance = new Uint8Array(0);
    if (n === 0) return;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let s = 0; s < n; s++) {
      minX = Math.min(minX, ax[s], bx[s]);
      maxX = Math.max(maxX, ax[s], bx[s]);
      minY = Math.min(minY, ay[s], by[s]);
      maxY = Math.max(maxY, ay[s], by[s]);
    }
    // The finest cells whose map fits the cache budget (or the coarsest allowed).
    let cell = this.#clearFinest, inv = 1 / cell, reach = 0, x0 = 0, y0 = 0, cols = 0, rows = 0;
    for (;;) {
      reach = this.#clearCap + cell;
      x0 = minX - reach;
      y0 = minY - reach;
      cols = Math.floor((maxX + reach - x0) * inv) + 1;
      rows = Math.floor((maxY + reach - y0) * inv) + 1;
      if (!(cols * rows > CLEARANCE_CACHE_CELLS && 2 * cell <= CLEARANCE_MAX_CELL)) break;
      cell *= 2;
      inv = 1 / cell;
    }
    this.#clearCell = cell;
    this.#clearInv = inv;
    if (!(cols * rows <= CLEARANCE_MAX_CELLS)) return; // too large: never known to be clear
    const capSteps = Math.floor(this.#clearCap / CLEARANCE_STEP);
    const map = new Uint8Array(cols * rows).fill(capSteps);
    // Slack for rounding relative to the coordinates' magnitude.
    const slack = 1e-9 *
      (1 + Math.max(Math.abs(minX), Math.abs(maxX), Math.abs(minY), Math.abs(maxY)));
    this.#clearSlack = slack;
    for (let s = 0; s < n; s++) {
      const sx0 = Math.min(ax[s], bx[s]) - reach, sx1 = Math.max(ax[s], bx[s]) + reach;
      const sy0 = Math.min(ay[s], by[s]) - reach, sy1 = Math.max(ay[s], by[s]) + reach;
      const c0 = Math.max(0, Math.floor((sx0 - x0) * inv));
      const c1 = Math.min(cols - 1, Math.floor((sx1 - x0) * inv));
      const r0 = Math.max(0, Math.floor((sy0 - y0) * inv));
      const r1 = Math.min(rows - 1, Math.floor((sy1 - y0) * inv));
      for (let r = r0; r <= r1; r++) {
        const cy = y0 + (r + 0.5) * cell;
        for (let c = c0; c <= c1; c++) {
          const cx = x0 + (c + 0.5) * cell;
          const d = Math.sqrt(pointSegmentDistanceSq(cx, cy, ax[s], ay[s], bx[s], by[s])) - slack;
          const q = d <= 0 ? 0 : Math.floor(d / CLEARANCE_STEP);
          const k = r * cols + c;
          if (q < map[k]) map[k] = q;
        }
      }
    }
    this.#clearX0 = x0;
    this.#clearY0 = y0;
    this.#clearCols = cols;
    this.#clearRows = rows;
    this.#clearance = map;
  }

  #nextStamp(): number {
    if (++this.#stampNow === 0xffff_ffff) {
      this.#stamp.fill(0);
      this.#stampNow = 1;
    }
    return this.#stampNow;
  }

  /** Calls `visit(cell)` once for every cell the segment passes through (build time only). */
  #visitCells(s: number, visit: (cell: number) => void): void {
    const inv = this.#invCell, cell = this.activeCellSize, ox = this.originX, oy = this.originY;
    let x0 = this.#ax[s], y0 = this.#ay[s], x1 = this.#bx[s], y1 = this.#by[s];
    if (y0 > y1) [x0, y0, x1, y1] = [x1, y1, x0, y0];
    const cy0 = Math.min(this.rows - 1, Math.floor((y0 - oy) * inv));
    const cy1 = Math.min(this.rows - 1, Math.floor((y1 - oy) * inv));
    // Slack (m) against rounding at cell borders, relative to the coordinates' magnitude.
    const slack = 1e-9 + 1e-12 * (Math.abs(ox) + Math.abs(oy) + cell * (this.cols + this.rows));
    for (let cy = cy0; cy <= cy1; cy++) {
      // Part of the segment inside this row's band (widened by the slack, for shallow segments).
      const bandLo = Math.max(y0, oy + cy * cell - slack);
      const bandHi = Math.min(y1, oy + (cy + 1) * cell + slack);
      let xa = x0, xb = x1;
      if (y1 > y0) {
        xa = x0 + ((bandLo - y0) / (y1 - y0)) * (x1 - x0);
        xb = x0 + ((bandHi - y0) / (y1 - y0)) * (x1 - x0);
      }
      const lo = Math.max(0, Math.floor((Math.min(xa, xb) - slack - ox) * inv));
      const hi = Math.min(this.cols - 1, Math.floor((Math.max(xa, xb) + slack - ox) * inv));
      for (let cx = lo; cx <= hi; cx++) visit(cy * this.cols + cx);
    }
  }
}

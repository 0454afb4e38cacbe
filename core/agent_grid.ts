/**
 * Uniform grid over agent positions, rebuilt every step, for radius and k-nearest queries.
 *
 * The grid is a counting sort of agents by cell (compressed sparse rows): `cellStart[c]` is the
 * first slot of cell `c` in `sortedIndex`, and the agents of consecutive cells of one row are
 * contiguous, so a query scans one contiguous run of memory per row of cells. Positions are
 * copied into `sortedX`/`sortedY` in the same order for cache-friendly scans.
 *
 * The default cell size is twice the neighbour search radius, so a radius query touches at most
 * 2 × 2 cells (seed 001, Section 3.5). Cell coordinates use `Math.floor` relative to the minimum
 * corner of the agents' bounding box, so negative coordinates work and shifting every position by
 * a constant shifts nothing else.
 *
 * Rebuilds and queries do not allocate once the buffers have grown to the population size.
 *
 * @module
 */

/** Options of {@linkcode AgentGrid}. */
export interface AgentGridOptions {
  /** Edge of one square cell (m); twice the usual query radius is best. @default 2.5 */
  cellSize?: number;
  /**
   * Upper bound on the number of cells as a multiple of the agent count (plus 4096). When agents
   * are spread so thinly that the grid would exceed it, the cell size of that rebuild grows.
   * @default 4
   */
  maxCellsPerAgent?: number;
}

/**
 * Uniform grid of agent indices.
 *
 * @example Radius query into a caller-supplied buffer
 * ```ts
 * import { AgentGrid } from "./agent_grid.ts";
 * import assert from "node:assert/strict";
 * const px = new Float64Array([0, 1, -3]), py = new Float64Array([0, 0, -4]);
 * const grid = new AgentGrid({ cellSize: 2 });
 * grid.rebuild(px, py, 3);
 * const out = new Uint32Array(8);
 * const n = grid.queryRadius(0, 0, 1.5, out);
 * assert.deepEqual([...out.subarray(0, n)].sort(), [0, 1]);
 * ```
 */
export class AgentGrid {
  /** Cell size requested by the user (m). */
  readonly cellSize: number;
  /** Cell size used by the last rebuild (m); larger than `cellSize` only for very sparse crowds. */
  activeCellSize: number;
  /** Minimum corner of the grid (m). */
  originX = 0;
  /** Minimum corner of the grid (m). */
  originY = 0;
  /** Number of cell columns. */
  cols = 0;
  /** Number of cell rows. */
  rows = 0;
  /** Number of agents indexed by the last rebuild. */
  count = 0;
  /** `cellStart[c] … cellStart[c+1]-1` are the slots of cell `c` (row-major, `c = row*cols+col`). */
  cellStart: Int32Array = new Int32Array(1);
  /** Agent indices sorted by cell. */
  sortedIndex: Uint32Array = new Uint32Array(0);
  /** x of `sortedIndex[k]` (m). */
  sortedX: Float64Array = new Float64Array(0);
  /** y of `sortedIndex[k]` (m). */
  sortedY: Float64Array = new Float64Array(0);
  /** Cell of each agent index. */
  cellOf: Int32Array = new Int32Array(0);

  #invCell: number;
  #maxCellsPerAgent: number;
  #cursor: Int32Array = new Int32Array(1);

  constructor(options: AgentGridOptions = {}) {
    const cellSize = options.cellSize ?? 2.5;
    if (!(cellSize > 0) || !Number.isFinite(cellSize)) {
      throw new RangeError(
        `Cannot create AgentGrid as 'cellSize' must be a finite number > 0: current value is ${cellSize}`,
      );
    }
    const maxCellsPerAgent = options.maxCellsPerAgent ?? 4;
    if (!(maxCellsPerAgent >= 1)) {
      throw new RangeError(
        `Cannot create AgentGrid as 'maxCellsPerAgent' must be >= 1: current value is ${maxCellsPerAgent}`,
      );
    }
    this.cellSize = cellSize;
    this.activeCellSize = cellSize;
    this.#invCell = 1 / cellSize;
    this.#maxCellsPerAgent = maxCellsPerAgent;
  }

  /** Re-indexes agents `0 … count-1` at positions `px`, `py` (m). */
  rebuild(px: ArrayLike<number>, py: ArrayLike<number>, count: number): void {
    this.count = count;
    if (this.sortedIndex.length < count) this.#growItems(count);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < count; i++) {
      const x = px[i], y = py[i];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    if (count === 0) minX = minY = maxX = maxY = 0;
    let cell = this.cellSize;
    let cols = Math.floor((maxX - minX) / cell) + 1;
    let rows = Math.floor((maxY - minY) / cell) + 1;
    const maxCells = this.#maxCellsPerAgent * count + 4096;
    if (cols * rows > maxCells) {
      // Smallest cell c with (w/c + 1)(h/c + 1) <= maxCells, solved for u = 1/c.
      const w = maxX - minX, h = maxY - minY, m = maxCells - 1;
      const u = w * h > 0
        ? (-(w + h) + Math.sqrt((w + h) * (w + h) + 4 * w * h * m)) / (2 * w * h)
        : m / (w + h);
      cell = Math.max(cell, 1.0001 / u);
      cols = Math.floor(w / cell) + 1;
      rows = Math.floor(h / cell) + 1;
    }
    this.activeCellSize = cell;
    this.#invCell = 1 / cell;
    this.originX = minX;
    this.originY = minY;
    this.cols = cols;
    this.rows = rows;
    const cells = cols * rows;
    if (this.cellStart.length < cells + 1) {
      let n = Math.max(this.cellStart.length, 64);
      while (n < cells + 1) n *= 2;
      this.cellStart = new Int32Array(n);
      this.#cursor = new Int32Array(n);
    }
    const cellStart = this.cellStart, cellOf = this.cellOf, inv = this.#invCell;
    cellStart.fill(0, 0, cells + 1);
    for (let i = 0; i < count; i++) {
      const c = Math.floor((py[i] - minY) * inv) * cols + Math.floor((px[i] - minX) * inv);
      cellOf[i] = c;
      cellStart[c + 1]++;
    }
    for (let c = 0; c < cells; c++) cellStart[c + 1] += cellStart[c];
    const cursor = this.#cursor;
    cursor.set(cellStart.subarray(0, cells));
    const sortedIndex = this.sortedIndex, sortedX = this.sortedX, sortedY = this.sortedY;
    for (let i = 0; i < count; i++) {
      const k = cursor[cellOf[i]]++;
      sortedIndex[k] = i;
      sortedX[k] = px[i];
      sortedY[k] = py[i];
    }
  }

  /**
   * Writes the indices of agents within `radius` (m) of (`x`, `y`) into `out` and returns how
   * many there are. When that number exceeds `out.length`, only the first `out.length` are
   * written: compare the result with `out.length` to detect overflow.
   *
   * @param exclude an agent index to leave out (usually the querying agent), or -1
   */
  queryRadius(
    x: number,
    y: number,
    radius: number,
    out: Uint32Array,
    exclude = -1,
  ): number {
    if (this.count === 0) return 0;
    const inv = this.#invCell, cols = this.cols;
    const cx0 = Math.max(0, Math.floor((x - radius - this.originX) * inv));
    const cx1 = Math.min(cols - 1, Math.floor((x + radius - this.originX) * inv));
    const cy0 = Math.max(0, Math.floor((y - radius - this.originY) * inv));
    const cy1 = Math.min(this.rows - 1, Math.floor((y + radius - this.originY) * inv));
    if (cx0 > cx1 || cy0 > cy1) return 0;
    const r2 = radius * radius;
    const cellStart = this.cellStart, sx = this.sortedX, sy = this.sortedY, idx = this.sortedIndex;
    const cap = out.length;
    let n = 0;
    for (let cy = cy0; cy <= cy1; cy++) {
      const row = cy * cols;
      const end = cellStart[row + cx1 + 1];
      for (let k = cellStart[row + cx0]; k < end; k++) {
        const dx = sx[k] - x, dy = sy[k] - y;
        if (dx * dx + dy * dy <= r2) {
          const i = idx[k];
          if (i === exclude) continue;
          if (n < cap) out[n] = i;
          n++;
        }
      }
    }
    return n;
  }

  /**
   * Finds up to `k` agents nearest to (`x`, `y`) within `maxRadius` (m), writing their indices to
   * `outIndex` and squared distances (m²) to `outDistSq`, nearest first. Returns how many were
   * found (at most `k`, `outIndex.length` and `outDistSq.length`). Ties keep grid order.
   */
  queryKNearest(
    x: number,
    y: number,
    maxRadius: number,
    k: number,
    outIndex: Uint32Array,
    outDistSq: Float64Array,
    exclude = -1,
  ): number {
    k = Math.min(k, outIndex.length, outDistSq.length);
    if (this.count === 0 || k <= 0) return 0;
    const inv = this.#invCell, cols = this.cols, rows = this.rows, cell = this.activeCellSize;
    const ox = this.originX, oy = this.originY;
    const cellStart = this.cellStart, sx = this.sortedX, sy = this.sortedY, idx = this.sortedIndex;
    // Home cell, possibly outside the grid; rings grow around it.
    const hx = Math.floor((x - ox) * inv), hy = Math.floor((y - oy) * inv);
    let best = maxRadius * maxRadius;
    let n = 0;
    const maxRing = Math.ceil(maxRadius * inv) + 1;
    for (let ring = 0; ring <= maxRing; ring++) {
      if (ring > 0) {
        // Nearest possible distance to any cell of this ring: distance from the point to the
        // border of the block of cells covered by the previous rings.
        const bx0 = (hx - ring + 1) * cell + ox, bx1 = (hx + ring) * cell + ox;
        const by0 = (hy - ring + 1) * cell + oy, by1 = (hy + ring) * cell + oy;
        const gap = Math.min(x - bx0, bx1 - x, y - by0, by1 - y);
        if (gap > 0 && gap * gap > best) break;
      }
      const cy0 = hy - ring, cy1 = hy + ring;
      if (cy1 < 0 || cy0 >= rows || hx + ring < 0 || hx - ring >= cols) continue;
      for (let cy = Math.max(0, cy0); cy <= Math.min(rows - 1, cy1); cy++) {
        const edgeRow = cy === cy0 || cy === cy1;
        const row = cy * cols;
        // Full row on the ring's top and bottom edge, else only its two side cells.
        for (let side = 0; side < (edgeRow ? 1 : 2); side++) {
          let cx0: number, cx1: number;
          if (edgeRow) {
            cx0 = hx - ring;
            cx1 = hx + ring;
          } else {
            cx0 = cx1 = side === 0 ? hx - ring : hx + ring;
          }
          if (cx0 < 0) cx0 = 0;
          if (cx1 > cols - 1) cx1 = cols - 1;
          if (cx0 > cx1) continue;
          const end = cellStart[row + cx1 + 1];
          for (let s = cellStart[row + cx0]; s < end; s++) {
            const dx = sx[s] - x, dy = sy[s] - y;
            const d2 = dx * dx + dy * dy;
            if (d2 > best) continue;
            const i = idx[s];
            if (i === exclude) continue;
            // Insertion into the sorted result list.
            let j = n < k ? n++ : k - 1;
            while (j > 0 && outDistSq[j - 1] > d2) {
              outDistSq[j] = outDistSq[j - 1];
              outIndex[j] = outIndex[j - 1];
              j--;
            }
            outDistSq[j] = d2;
            outIndex[j] = i;
            if (n === k) best = outDistSq[k - 1];
          }
        }
      }
    }
    return n;
  }

  #growItems(count: number): void {
    let n = Math.max(this.sortedIndex.length, 64);
    while (n < count) n *= 2;
    this.sortedIndex = new Uint32Array(n);
    this.sortedX = new Float64Array(n);
    this.sortedY = new Float64Array(n);
    this.cellOf = new Int32Array(n);
  }
}

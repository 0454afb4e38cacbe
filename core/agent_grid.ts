/**
 * Uniform grid over agent positions, rebuilt every step, for radius and k-nearest queries.
 *
 * The grid is a counting sort of agents by cell (compressed sparse rows): `cellStart[c]` is the
 * first slot of cell `c` in `sortedIndex`, and the agents of consecutive cells of one row are
 * contiguous, so a query scans one contiguous run of memory per row of cells. Positions are
 * copied into `sortedX`/`sortedY` in the same order for cache-friendly scans.
 *
 * Inside a cell, agents are further ordered by a finer column (a power-of-two split of the cell
 * width, chosen from the crowd's density), so a query scans only the part of each row that lies
 * within its radius in x instead of whole cells. The scan itself is branch-free: whether an agent
 * is inside the radius is unpredictable, and a mispredicted branch per candidate costs more than
 * the distance test.
 *
 * A k-nearest query gathers every agent within a first-guess radius (sized for about 1.3 k agents
 * at the density of the cells around the query point, and grown when it holds fewer than k),
 * then sorts them by squared distance with a bucket sort and keeps the first k. Squared
 * distances in an even crowd spread evenly over the buckets, so the sort is a few branch-free
 * passes; sorting by insertion costs a mispredicted branch or two per candidate. Ties are
 * settled by a fixed visit order (rows nearest first, then slots), so equal queries on equal
 * grids give equal answers.
 *
 * The default cell size is twice the neighbour search radius, so a radius query touches at most
 * 2 rows of cells (M. Aleksandrov, D. J. Heslop and S. Zlatanova, 3D Indoor Environment
 * Abstraction for Crowd Simulations in Complex Buildings, Buildings 11(10):445, 2021, Section
 * 3.5). Cell coordinates use `Math.floor` relative to the minimum corner of the agents' bounding
 * box, so negative coordinates work and shifting every position by a constant shifts nothing
 * else.
 *
 * Rebuilds and queries do not allocate once the buffers have grown to the population size.
 *
 * @module
 */
import { cellSizeWithin } from "./_cell_budget.ts";
import { capacityFor } from "./neighbour_query.ts";

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

/** Largest split of a cell into finer columns, as a power of two (2^3 = 8 columns). */
const MAX_SPLIT_SHIFT = 3;

/**
 * The k-nearest search first gathers the agents within the radius expected to hold this many
 * times k (at the density of the cells around the query point), and grows the radius by
 * `KNN_GROWTH` while it holds fewer than k. Larger gathers more agents than needed; smaller
 * searches again more often.
 */
const KNN_FIRST_SHARE = 1.3;
const KNN_GROWTH = 1.4;

/** Bounds on the number of buckets of the k-nearest bucket sort (about one per candidate). */
const MIN_BUCKETS = 16;
const MAX_BUCKETS = 4096;

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
 *
 * @example The 2 nearest neighbours of agent 0, nearest first
 * ```ts
 * import { AgentGrid } from "./agent_grid.ts";
 * import assert from "node:assert/strict";
 * const px = new Float64Array([0, 3, -1, 10]), py = new Float64Array([0, 0, 0, 0]);
 * const grid = new AgentGrid();
 * grid.rebuild(px, py, 4);
 * const index = new Uint32Array(2), distSq = new Float64Array(2);
 * assert.deepEqual(grid.queryKNearest(0, 0, Infinity, 2, index, distSq, 0), 2);
 * assert.deepEqual([...index], [2, 1]);
 * assert.deepEqual([...distSq], [1, 9]);
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
  /** Agent indices sorted by cell (and inside a cell by a finer column, then by index). */
  sortedIndex: Uint32Array = new Uint32Array(0);
  /** x of `sortedIndex[k]` (m). */
  sortedX: Float64Array = new Float64Array(0);
  /** y of `sortedIndex[k]` (m). */
  sortedY: Float64Array = new Float64Array(0);

  #invCell: number;
  #maxCellsPerAgent: number;
  /** Cells are split into 2^#splitShift finer columns. */
  #splitShift = 0;
  /** Columns of the fine layout (`cols << #splitShift`). */
  #fineCols = 0;
  /** 1 / width of a fine column (1/m). */
  #invFine = 0;
  /** Like `cellStart`, per fine cell (`row * #fineCols + fineCol`). */
  #fineStart: Int32Array = new Int32Array(1);
  /** Fine cell of each agent index (rebuild scratch). */
  #fineOf: Int32Array = new Int32Array(0);
  /** Cell of each agent index, filled by the `cellOf` getter. */
  #cellOf: Int32Array = new Int32Array(0);
  #cellOfValid = false;
  /** Agents gathered by a k-nearest query, in visit order, and their squared distances (m²). */
  #candIndex: Uint32Array = new Uint32Array(0);
  #candDistSq: Float64Array = new Float64Array(0);
  /** Bucket of each gathered agent, and the gathered agents sorted by distance. */
  #bucketOf: Int32Array = new Int32Array(0);
  #sortIndex: Uint32Array = new Uint32Array(0);
  #sortDistSq: Float64Array = new Float64Array(0);
  /** Candidates per bucket, then the first place of each bucket. */
  #bucketStart: Int32Array = new Int32Array(MIN_BUCKETS);
  /** Margin (m) added to query windows so rounding of cell coordinates never drops an agent. */
  #slack = 0;

  constructor(options: AgentGridOptions = {}) {
    const cellSize = options.cellSize ?? 2.5;
    if (!(cellSize > 0) || !Number.isFinite(cellSize)) {
      throw new RangeError(
        `Cannot create AgentGrid as 'cellSize' must be a finite number > 0: current value is ${cellSize}`,
      );
    }
    const maxCellsPerAgent = options.maxCellsPerAgent ?? 4;
    if (!(maxCellsPerAgent >= 1) || !Number.isFinite(maxCellsPerAgent)) {
      throw new RangeError(
        `Cannot create AgentGrid as 'maxCellsPerAgent' must be a finite number >= 1: current value is ${maxCellsPerAgent}`,
      );
    }
    this.cellSize = cellSize;
    this.activeCellSize = cellSize;
    this.#invCell = 1 / cellSize;
    this.#maxCellsPerAgent = maxCellsPerAgent;
  }

  /**
   * Re-indexes agents `0 … count-1` at positions `px`, `py` (m). Throws a RangeError when a
   * position is not finite or `count` exceeds the arrays' length.
   */
  rebuild(px: ArrayLike<number>, py: ArrayLike<number>, count: number): void {
    if (!Number.isInteger(count) || count < 0 || count > px.length || count > py.length) {
      throw new RangeError(
        `Cannot rebuild AgentGrid as 'count' must be an integer in [0, ${
          Math.min(px.length, py.length)
        }] (the length of the position arrays): current value is ${count}`,
      );
    }
    this.count = count;
    if (this.sortedIndex.length < count) this.#growItems(count);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    let finite = 0; // stays 0 while every coordinate is finite, NaN otherwise
    for (let i = 0; i < count; i++) {
      const x = px[i], y = py[i];
      finite += x - x + (y - y);
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    if (finite !== 0) this.#throwNonFinite(px, py, count);
    if (count === 0) {
      minX = minY = 0;
      maxX = maxY = 0;
    }
    const w = maxX - minX, h = maxY - minY;
    const cell = cellSizeWithin(w, h, this.cellSize, this.#maxCellsPerAgent * count + 4096);
    const inv = 1 / cell;
    // Rows and columns use the same expression as the agents' cells below, so the agent on the
    // far edge always lands in the last row or column.
    const cols = Math.floor(w * inv) + 1;
    const rows = Math.floor(h * inv) + 1;
    const cells = cols * rows;
    // Split cells into finer columns while each fine cell still holds an agent on average.
    let shift = 0;
    while (shift < MAX_SPLIT_SHIFT && cells * (1 << (shift + 1)) <= count) shift++;
    const fineCols = cols << shift, fineCells = fineCols * rows;
    // Scaling by a power of two is exact: floor((x - ox) * invFine) >> shift is the cell column.
    const invFine = inv * (1 << shift);
    this.activeCellSize = cell;
    this.#invCell = inv;
    this.#invFine = invFine;
    this.#splitShift = shift;
    this.#fineCols = fineCols;
    this.#slack = 1e-12 *
      (1 + Math.max(Math.abs(minX), Math.abs(maxX), Math.abs(minY), Math.abs(maxY)));
    this.originX = minX;
    this.originY = minY;
    this.cols = cols;
    this.rows = rows;
    if (this.cellStart.length < cells + 1) this.cellStart = new Int32Array(capacityFor(cells + 1));
    if (this.#fineStart.length < fineCells + 1) {
      this.#fineStart = new Int32Array(capacityFor(fineCells + 1));
    }
    this.#cellOfValid = false;
    const fineStart = this.#fineStart, fineOf = this.#fineOf;
    fineStart.fill(0, 0, fineCells + 1);
    for (let i = 0; i < count; i++) {
      const f = Math.floor((py[i] - minY) * inv) * fineCols + Math.floor((px[i] - minX) * invFine);
      fineOf[i] = f;
      fineStart[f]++;
    }
    // Inclusive prefix sums: fineStart[f] is the end of fine cell f. Placing agents from the last
    // to the first, decrementing, leaves fineStart[f] at the start and keeps index order per cell.
    for (let f = 1; f < fineCells; f++) fineStart[f] += fineStart[f - 1];
    fineStart[fineCells] = count;
    const sortedIndex = this.sortedIndex, sortedX = this.sortedX, sortedY = this.sortedY;
    for (let i = count - 1; i >= 0; i--) sortedIndex[--fineStart[fineOf[i]]] = i;
    // Gathering positions in slot order is cheaper than scattering them with the indices:
    // independent random reads overlap, random writes queue up.
    for (let k = 0; k < count; k++) {
      const i = sortedIndex[k];
      sortedX[k] = px[i];
      sortedY[k] = py[i];
    }
    const cellStart = this.cellStart;
    for (let row = 0; row < rows; row++) {
      const fineRow = row * fineCols, cellRow = row * cols;
      for (let col = 0; col < cols; col++) {
        cellStart[cellRow + col] = fineStart[fineRow + (col << shift)];
      }
    }
    cellStart[cells] = count;
  }

  /**
   * Cell (`row * cols + col`) of each agent index of the last rebuild. Computed on first use
   * after a rebuild, into a buffer that is reused.
   */
  get cellOf(): Int32Array {
    if (!this.#cellOfValid) {
      const cellOf = this.#cellOf, fineOf = this.#fineOf, fineCols = this.#fineCols;
      const shift = this.#splitShift, cols = this.cols;
      for (let i = 0; i < this.count; i++) {
        const row = Math.floor(fineOf[i] / fineCols);
        cellOf[i] = row * cols + ((fineOf[i] - row * fineCols) >> shift);
      }
      this.#cellOfValid = true;
    }
    return this.#cellOf;
  }

  /**
   * Writes the indices of agents within `radius` (m) of (`x`, `y`) into `out`, in no particular
   * order, and returns how many there are. When that number exceeds `out.length`, only the first
   * `out.length` are written: compare the result with `out.length` to detect overflow. Entries
   * of `out` after the returned count may be overwritten.
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
    if (this.count === 0 || !(radius >= 0)) return 0;
    const inv = this.#invCell, invFine = this.#invFine, fineCols = this.#fineCols;
    const ox = this.originX, oy = this.originY;
    const reach = radius * (1 + 1e-12) + this.#slack;
    let cy0 = Math.floor((y - reach - oy) * inv), cy1 = Math.floor((y + reach - oy) * inv);
    let fx0 = Math.floor((x - reach - ox) * invFine), fx1 = Math.floor((x + reach - ox) * invFine);
    if (cy0 < 0) cy0 = 0;
    if (cy1 >= this.rows) cy1 = this.rows - 1;
    if (fx0 < 0) fx0 = 0;
    if (fx1 >= fineCols) fx1 = fineCols - 1;
    if (!(cy0 <= cy1 && fx0 <= fx1)) return 0; // also false for NaN coordinates
    const r2 = radius * radius;
    const fineStart = this.#fineStart, sx = this.sortedX, sy = this.sortedY;
    const idx = this.sortedIndex;
    let n = 0;
    for (let cy = cy0; cy <= cy1; cy++) {
      const row = cy * fineCols;
      const end = fineStart[row + fx1 + 1];
      for (let k = fineStart[row + fx0]; k < end; k++) {
        const dx = sx[k] - x, dy = sy[k] - y;
        // Always store, advance only on a hit; stores past out.length are ignored by typed arrays.
        const i = idx[k];
        out[n] = i;
        n += +(dx * dx + dy * dy <= r2) & +(i !== exclude);
      }
    }
    return n;
  }

  /**
   * Finds up to `k` agents nearest to (`x`, `y`) within `maxRadius` (m, may be `Infinity`),
   * writing their indices to `outIndex` and squared distances (m²) to `outDistSq`, nearest
   * first. Returns how many were found (at most `k`, `outIndex.length` and `outDistSq.length`).
   * Among agents at exactly the same distance, which one is listed first is unspecified (but
   * always the same for the same grid and query).
   *
   * @param exclude an agent index to leave out (usually the querying agent), or -1
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
    k = Math.min(Math.floor(k), outIndex.length, outDistSq.length);
    if (this.count === 0 || !(k > 0) || !(maxRadius >= 0)) return 0;
    if (!(Number.isFinite(x) && Number.isFinite(y))) return 0;
    if (this.#candIndex.length < this.count) this.#growNearest();
    const cell = this.activeCellSize, inv = this.#invCell, ox = this.originX, oy = this.originY;
    const cols = this.cols, rows = this.rows, cellStart = this.cellStart;
    // A search radius beyond the farthest corner of the grid (plus a cell against rounding) has
    // seen every agent.
    const farX = Math.max(Math.abs(x - ox), Math.abs(ox + cols * cell - x));
    const farY = Math.max(Math.abs(y - oy), Math.abs(oy + rows * cell - y));
    const whole = Math.sqrt(farX * farX + farY * farY) + cell;
    // First guess: the radius holding about KNN_FIRST_SHARE · k agents at the density of the
    // 3 × 3 cells around the nearest cell (each row of them is one run of slots).
    const col = Math.min(cols - 1, Math.max(0, Math.floor((x - ox) * inv)));
    const row = Math.min(rows - 1, Math.max(0, Math.floor((y - oy) * inv)));
    const c0 = col > 0 ? col - 1 : 0, c1 = col + 1 < cols ? col + 1 : cols - 1;
    const r0 = row > 0 ? row - 1 : 0, r1 = row + 1 < rows ? row + 1 : rows - 1;
    let local = 0;
    for (let r = r0; r <= r1; r++) local += cellStart[r * cols + c1 + 1] - cellStart[r * cols + c0];
    const area = (c1 - c0 + 1) * (r1 - r0 + 1) * cell * cell;
    const guess = Math.sqrt(((KNN_FIRST_SHARE * k + 1) * area) / (Math.PI * Math.max(1, local)));
    let radius = Math.min(maxRadius, whole, guess);
    for (;;) {
      const m = this.#gatherWithin(x, y, radius, exclude);
      if (m >= k || radius >= maxRadius || radius >= whole) {
        return this.#nearestOfGathered(m, radius, k, outIndex, outDistSq);
      }
      radius = Math.min(maxRadius, whole, KNN_GROWTH * radius);
    }
  }

  /**
   * Writes every agent within `radius` of (`x`, `y`) but `exclude` to the candidate buffers, in
   * visit order: the home row, then the rows above and below alternately, nearest first; in a
   * row, by slot. Returns how many. The visit order settles ties (see `#nearestOfGathered`).
   */
  #gatherWithin(x: number, y: number, radius: number, exclude: number): number {
    const inv = this.#invCell, invFine = this.#invFine, fineCols = this.#fineCols;
    const ox = this.originX, oy = this.originY, cell = this.activeCellSize, rows = this.rows;
    const fineStart = this.#fineStart, sx = this.sortedX, sy = this.sortedY, idx = this.sortedIndex;
    const candIndex = this.#candIndex, candDistSq = this.#candDistSq;
    const slack = this.#slack + radius * 1e-12;
    const r2 = radius * radius;
    let m = 0;
    // Home row, clamped into the grid; then alternately the rows above and below.
    let home = Math.floor((y - oy) * inv);
    if (home < 0) home = 0;
    if (home >= rows) home = rows - 1;
    let up = home, down = home - 1;
    let upOpen = true, downOpen = down >= 0;
    while (upOpen || downOpen) {
      // Take the open side whose row is nearer to y.
      let cy: number;
      const upGap = upOpen ? Math.max(0, oy + up * cell - y) : Infinity;
      const downGap = downOpen ? Math.max(0, y - (oy + (down + 1) * cell)) : Infinity;
      let gap: number;
      if (upGap <= downGap) {
        cy = up++;
        gap = upGap;
        if (up >= rows) upOpen = false;
      } else {
        cy = down--;
        gap = downGap;
        if (down < 0) downOpen = false;
      }
      gap = Math.max(0, gap - slack);
      if (gap * gap > r2) {
        // Rows further on this side are further away still.
        if (cy >= home) upOpen = false;
        else downOpen = false;
        continue;
      }
      const half = Math.sqrt(r2 - gap * gap) + slack;
      let fx0 = Math.floor((x - half - ox) * invFine), fx1 = Math.floor((x + half - ox) * invFine);
      if (fx0 < 0) fx0 = 0;
      if (fx1 >= fineCols) fx1 = fineCols - 1;
      if (fx0 > fx1) continue;
      const base = cy * fineCols;
      const end = fineStart[base + fx1 + 1];
      for (let s = fineStart[base + fx0]; s < end; s++) {
        const dx = sx[s] - x, dy = sy[s] - y;
        const d2 = dx * dx + dy * dy;
        // Always store, advance only on a hit (see the module doc).
        const i = idx[s];
        candIndex[m] = i;
        candDistSq[m] = d2;
        m += +(d2 <= r2) & +(i !== exclude);
      }
    }
    return m;
  }

  /**
   * Writes the `k` nearest of the `m` gathered candidates (all within `radius`), nearest first,
   * and returns how many (at most `k`). Ties are settled as inserting the candidates in visit
   * order into a sorted list of `k` would: equal distances keep the visit order, and when the
   * k-th distance is tied beyond `k`, the last of the tied candidates visited takes the last
   * place. A branch-free bucket sort on the squared distance (spread evenly over [0, radius²]
   * in an even crowd) does the work: sorting by repeated insertion costs a mispredicted branch
   * or two per candidate.
   */
  #nearestOfGathered(
    m: number,
    radius: number,
    k: number,
    outIndex: Uint32Array,
    outDistSq: Float64Array,
  ): number {
    if (m === 0) return 0;
    const candIndex = this.#candIndex, candDistSq = this.#candDistSq;
    const counts = this.#bucketStart, bucketOf = this.#bucketOf;
    const sortIndex = this.#sortIndex, sortDistSq = this.#sortDistSq;
    const buckets = m < MIN_BUCKETS ? MIN_BUCKETS : m > counts.length ? counts.length : m;
    const want = m < k ? m : k;
    for (let b = 0; b < buckets; b++) counts[b] = 0;
    const r2 = radius * radius;
    const scale = r2 > 0 ? buckets / r2 : 0;
    const last = buckets - 1;
    for (let e = 0; e < m; e++) {
      // Monotone in the distance: a higher bucket holds only farther candidates.
      let b = (candDistSq[e] * scale) | 0;
      if (b > last) b = last;
      bucketOf[e] = b;
      counts[b]++;
    }
    // Bucket starts; `end`: the end of the bucket holding place want-1 (the later ones cannot
    // hold any of the first `want`).
    let acc = 0, end = 0;
    for (let b = 0; b < buckets; b++) {
      const c = counts[b];
      counts[b] = acc;
      acc += c;
      if (end < want) end = acc;
    }
    for (let e = 0; e < m; e++) {
      const slot = counts[bucketOf[e]]++;
      sortIndex[slot] = candIndex[e];
      sortDistSq[slot] = candDistSq[e];
    }
    // Insertion sort of the first `end` places (stable; out of order only within a bucket).
    for (let s = 1; s < end; s++) {
      const d2 = sortDistSq[s];
      if (sortDistSq[s - 1] <= d2) continue;
      const i = sortIndex[s];
      let j = s;
      do {
        sortDistSq[j] = sortDistSq[j - 1];
        sortIndex[j] = sortIndex[j - 1];
        j--;
      } while (j > 0 && sortDistSq[j - 1] > d2);
      sortDistSq[j] = d2;
      sortIndex[j] = i;
    }
    if (end > want && sortDistSq[want - 1] === sortDistSq[want]) {
      this.#insertTied(m, k, sortDistSq[want - 1], outIndex, outDistSq);
    } else {
      for (let s = 0; s < want; s++) {
        outIndex[s] = sortIndex[s];
        outDistSq[s] = sortDistSq[s];
      }
    }
    return want;
  }

  /**
   * The k-th distance is tied beyond `k`: inserts the gathered candidates at most `limit` (m²)
   * away, in visit order, into a sorted list of `k` (a later candidate at the distance of the
   * last place takes it).
   */
  #insertTied(
    m: number,
    k: number,
    limit: number,
    outIndex: Uint32Array,
    outDistSq: Float64Array,
  ): void {
    const candIndex = this.#candIndex, candDistSq = this.#candDistSq;
    let n = 0;
    for (let e = 0; e < m; e++) {
      const d2 = candDistSq[e];
      if (d2 > limit) continue;
      let j = n < k ? n++ : k - 1;
      while (j > 0 && outDistSq[j - 1] > d2) {
        outDistSq[j] = outDistSq[j - 1];
        outIndex[j] = outIndex[j - 1];
        j--;
      }
      outDistSq[j] = d2;
      outIndex[j] = candIndex[e];
    }
  }

  /** Sizes the k-nearest scratch buffers for the population (grown only, on first need). */
  #growNearest(): void {
    const n = this.sortedIndex.length;
    this.#candIndex = new Uint32Array(n);
    this.#candDistSq = new Float64Array(n);
    this.#bucketOf = new Int32Array(n);
    this.#sortIndex = new Uint32Array(n);
    this.#sortDistSq = new Float64Array(n);
    this.#bucketStart = new Int32Array(Math.max(MIN_BUCKETS, Math.min(n, MAX_BUCKETS)));
  }

  #throwNonFinite(px: ArrayLike<number>, py: ArrayLike<number>, count: number): never {
    let i = 0;
    while (i < count && Number.isFinite(px[i]) && Number.isFinite(py[i])) i++;
    throw new RangeError(
      `Cannot rebuild AgentGrid as every position must be finite: agent ${i} is at (${px[i]}, ${
        py[i]
      })`,
    );
  }

  #growItems(count: number): void {
    const n = capacityFor(count);
    this.sortedIndex = new Uint32Array(n);
    this.sortedX = new Float64Array(n);
    this.sortedY = new Float64Array(n);
    this.#cellOf = new Int32Array(n);
    this.#fineOf = new Int32Array(n);
  }
}

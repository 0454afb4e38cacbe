/**
 * The density heat map of the viewer page: agents counted in square cells, turned into coloured
 * cells (persons per m², Fruin's levels of service as colour steps) for deck.gl's grid cell layer.
 *
 * @module
 */

/** Density (persons/m²) at the top of each colour step, and the step's RGBA. */
export const DENSITY_STEPS: readonly {
  below: number;
  rgba: readonly [number, number, number, number];
}[] = [
  { below: 0.5, rgba: [60, 200, 120, 70] },
  { below: 1, rgba: [160, 220, 60, 110] },
  { below: 2, rgba: [250, 210, 40, 140] },
  { below: 3, rgba: [250, 130, 30, 170] },
  { below: Infinity, rgba: [230, 30, 30, 200] },
];

/** Occupied cells of the last {@linkcode DensityGrid.update}. */
export interface DensityCells {
  /** Number of occupied cells. */
  count: number;
  /** Lower-left corner `x, y` of each cell (m), length ≥ 2·count. */
  positions: Float32Array;
  /** RGBA of each cell, length ≥ 4·count. */
  colors: Uint8Array;
  /** Cell edge (m). */
  cellSize: number;
}

/**
 * Counts agents per square cell of `cellSize` metres and lists the occupied cells with their
 * density colour. Buffers are reused between updates (they only grow).
 *
 * @example Four agents in one 2 m cell: 1 person/m²
 * ```ts
 * import { DensityGrid, DENSITY_STEPS } from "./density_grid.ts";
 * import assert from "node:assert/strict";
 * const grid = new DensityGrid(2);
 * const cells = grid.update(Float32Array.of(0.1, 0.1, 0.5, 0.5, 1.9, 1.0, 1.0, 1.9), 4);
 * assert.equal(cells.count, 1);
 * assert.deepEqual([...cells.positions.subarray(0, 2)], [0, 0]);
 * assert.deepEqual([...cells.colors.subarray(0, 4)], [...DENSITY_STEPS[2].rgba]); // 1 <= 1 < 2
 * ```
 */
export class DensityGrid {
  /** Cell edge (m). */
  readonly cellSize: number;
  #keys = new Float64Array(0);
  #order = new Uint32Array(0);
  #positions = new Float32Array(0);
  #colors = new Uint8Array(0);

  /** @param cellSize cell edge (m), > 0 */
  constructor(cellSize = 2) {
    if (!(cellSize > 0)) {
      throw new RangeError(
        `Cannot create DensityGrid as 'cellSize' must be > 0 m: current value is ${cellSize}`,
      );
    }
    this.cellSize = cellSize;
  }

  /** Counts the `count` agents of interleaved `positions` (m); returns the occupied cells. */
  update(positions: Float32Array, count: number): DensityCells {
    if (this.#keys.length < count) {
      const size = Math.max(1024, count * 2);
      this.#keys = new Float64Array(size);
      this.#order = new Uint32Array(size);
      this.#positions = new Float32Array(2 * size);
      this.#colors = new Uint8Array(4 * size);
    }
    const inv = 1 / this.cellSize, keys = this.#keys;
    // Key = cx * 2^26 + cy, both offset to be non-negative; sorting groups equal cells.
    const OFFSET = 1 << 25, SCALE = 1 << 26;
    let valid = 0;
    for (let i = 0; i < count; i++) {
      const x = positions[2 * i], y = positions[2 * i + 1];
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      const cx = Math.floor(x * inv) + OFFSET, cy = Math.floor(y * inv) + OFFSET;
      keys[valid++] = cx * SCALE + cy;
    }
    const sorted = keys.subarray(0, valid).sort();
    const area = this.cellSize * this.cellSize;
    let cells = 0;
    for (let k = 0; k < valid;) {
      const key = sorted[k];
      let run = 1;
      while (k + run < valid && sorted[k + run] === key) run++;
      const cx = Math.floor(key / SCALE) - OFFSET, cy = (key % SCALE) - OFFSET;
      this.#positions[2 * cells] = cx * this.cellSize;
      this.#positions[2 * cells + 1] = cy * this.cellSize;
      const density = run / area;
      const step = DENSITY_STEPS.find((s) => density < s.below)!;
      this.#colors.set(step.rgba, 4 * cells);
      cells++;
      k += run;
    }
    return {
      count: cells,
      positions: this.#positions,
      colors: this.#colors,
      cellSize: this.cellSize,
    };
  }
}

/**
 * An insert-only hashed grid of discs for spawn placement: "is this spot free?" while a batch of
 * agents is placed one after another.
 *
 * @module
 */

/**
 * Discs hashed into grid cells (chained lists in typed arrays). Reset it, insert the discs that
 * already exist, then test and insert candidates one by one.
 *
 * @example
 * ```ts
 * import { PlacementIndex } from "./placement_index.ts";
 * import assert from "node:assert/strict";
 * const index = new PlacementIndex();
 * index.reset(1);
 * index.insert(0, 0, 0.25);
 * assert(!index.isFree(0.4, 0, 0.25));
 * assert(index.isFree(0.6, 0, 0.25));
 * ```
 */
export class PlacementIndex {
  #cell = 1;
  #maxRadius = 0;
  #mask = 0;
  #head: Int32Array = new Int32Array(0);
  #next: Int32Array = new Int32Array(0);
  #x: Float64Array = new Float64Array(0);
  #y: Float64Array = new Float64Array(0);
  #r: Float64Array = new Float64Array(0);
  #count = 0;

  /**
   * Empties the index. `cellSize` (m) should be about the largest disc diameter; `expected` is
   * the number of discs that will be inserted (it sizes the hash table).
   */
  reset(cellSize: number, expected = 1024): void {
    if (!(cellSize > 0) || !Number.isFinite(cellSize)) {
      throw new RangeError(
        `Cannot reset PlacementIndex as 'cellSize' must be a finite number > 0: current value is ${cellSize}`,
      );
    }
    this.#cell = cellSize;
    this.#maxRadius = 0;
    this.#count = 0;
    let size = 1024;
    while (size < expected * 2) size *= 2;
    if (this.#head.length !== size) this.#head = new Int32Array(size);
    this.#head.fill(-1);
    this.#mask = size - 1;
  }

  /** Adds a disc at (`x`, `y`) with radius `r` (m). */
  insert(x: number, y: number, r: number): void {
    if (this.#count === this.#next.length) this.#grow();
    const k = this.#count++;
    this.#x[k] = x;
    this.#y[k] = y;
    this.#r[k] = r;
    if (r > this.#maxRadius) this.#maxRadius = r;
    const h = this.#hash(Math.floor(x / this.#cell), Math.floor(y / this.#cell));
    this.#next[k] = this.#head[h];
    this.#head[h] = k;
  }

  /** True when a disc of radius `r` at (`x`, `y`) keeps at least `gap` (m) from every disc. */
  isFree(x: number, y: number, r: number, gap = 0): boolean {
    const reach = r + this.#maxRadius + gap;
    const inv = 1 / this.#cell;
    const cx0 = Math.floor((x - reach) * inv), cx1 = Math.floor((x + reach) * inv);
    const cy0 = Math.floor((y - reach) * inv), cy1 = Math.floor((y + reach) * inv);
    if (
      !(Number.isSafeInteger(cx0) && Number.isSafeInteger(cx1) && Number.isSafeInteger(cy0) &&
        Number.isSafeInteger(cy1) && (cx1 - cx0 + 1) * (cy1 - cy0 + 1) <= 1 << 20)
    ) {
      // Far beyond any scenario (or not finite): the cell loop below would never end.
      throw new RangeError(
        `Cannot test a spot at (${x}, ${y}) m of radius ${r} m: coordinates too large for a placement grid of ${this.#cell} m cells`,
      );
    }
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        for (let k = this.#head[this.#hash(cx, cy)]; k >= 0; k = this.#next[k]) {
          const dx = this.#x[k] - x, dy = this.#y[k] - y, min = this.#r[k] + r + gap;
          if (dx * dx + dy * dy < min * min) return false;
        }
      }
    }
    return true;
  }

  #hash(cx: number, cy: number): number {
    return (Math.imul(cx, 73856093) ^ Math.imul(cy, 19349663)) & this.#mask;
  }

  #grow(): void {
    const n = Math.max(64, this.#next.length * 2);
    const grow = <T extends Float64Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.#next = grow(this.#next, (n) => new Int32Array(n));
    this.#x = grow(this.#x, (n) => new Float64Array(n));
    this.#y = grow(this.#y, (n) => new Float64Array(n));
    this.#r = grow(this.#r, (n) => new Float64Array(n));
  }
}

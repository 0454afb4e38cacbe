/**
 * Where each side-by-side view sits on the page: one to three views in columns, four in a 2 × 2
 * grid. Fractions of the map area.
 *
 * @module
 */

/** A view's rectangle as fractions (0–1) of the map area. */
export interface ViewRect {
  /** Left edge. */
  x: number;
  /** Top edge. */
  y: number;
  /** Width. */
  width: number;
  /** Height. */
  height: number;
}

/**
 * Rectangles of `count` views (1–4).
 *
 * @example
 * ```ts
 * import { viewRects } from "./layout.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(viewRects(2).map((r) => r.x), [0, 0.5]);
 * assert.deepEqual(viewRects(4)[3], { x: 0.5, y: 0.5, width: 0.5, height: 0.5 });
 * ```
 */
export function viewRects(count: number): ViewRect[] {
  if (!Number.isInteger(count) || count < 1 || count > 4) {
    throw new RangeError(
      `Cannot lay out views as 'count' must be 1 to 4: current value is ${count}`,
    );
  }
  if (count === 4) {
    return [0, 1, 2, 3].map((i) => ({
      x: (i % 2) / 2,
      y: Math.floor(i / 2) / 2,
      width: 0.5,
      height: 0.5,
    }));
  }
  return Array.from(
    { length: count },
    (_, i) => ({ x: i / count, y: 0, width: 1 / count, height: 1 }),
  );
}

/**
 * Cell size of a uniform grid under a budget on the number of cells (internal helper of the
 * agent and segment grids).
 *
 * @module
 */

/**
 * The cell size (m) to use for a grid over a `width` × `height` box (m): `cellSize` when the
 * grid has at most `maxCells` cells, else the smallest larger size that fits the budget.
 * `maxCells` must be at least 2.
 */
export function cellSizeWithin(
  width: number,
  height: number,
  cellSize: number,
  maxCells: number,
): number {
  const inv = 1 / cellSize;
  if ((Math.floor(width * inv) + 1) * (Math.floor(height * inv) + 1) <= maxCells) return cellSize;
  // Smallest cell c with (w/c + 1)(h/c + 1) <= maxCells, solved for u = 1/c; the factor leaves
  // room for rounding.
  const w = width, h = height, m = maxCells - 1;
  const u = w * h > 0
    ? (-(w + h) + Math.sqrt((w + h) * (w + h) + 4 * w * h * m)) / (2 * w * h)
    : m / (w + h);
  return Math.max(cellSize, 1.0001 / u);
}

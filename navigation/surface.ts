/**
 * Walkable surfaces of a 2.5-D navigation mesh — the subdivision into horizontal and vertical
 * spaces of the navigation-mesh crowd simulation for 3-D indoor and outdoor spaces (a paper
 * built on a Unity navigation mesh with stair classification, heightmaps and border extraction,
 * 2021): each surface is a polygon in plan that is either flat (one height) or sloped, with a
 * height grid of 0.24 m cells sampled at cell centres (that paper's heightmap, whose cell
 * matches the minimum tread depth). A staircase is a sloped surface that also carries its tread depth and riser height,
 * from which walking speed follows (see {@linkcode stairSpeedFactor}).
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import { stairSpeedFactor } from "./stair_speed.ts";
import type { PolygonWithHoles } from "./walkable_area.ts";

/** A linear ramp: the height goes from `zFrom` at `from` to `zTo` at `to` (m), constant across. */
export interface SlopeInput {
  /** Point (m) at height `zFrom`. */
  readonly from: Point;
  /** Point (m) at height `zTo`; the height is constant along lines perpendicular to from→to. */
  readonly to: Point;
  /** Height at `from` (m). */
  readonly zFrom: number;
  /** Height at `to` (m). */
  readonly zTo: number;
}

/** A measured height field over a surface: values at cell centres, row by row (m). */
export interface HeightGridInput {
  /** Minimum corner x of the grid (m). */
  readonly originX: number;
  /** Minimum corner y of the grid (m). */
  readonly originY: number;
  /** Cell edge (m). */
  readonly cellSize: number;
  /** Cells along x. */
  readonly cols: number;
  /** Cells along y. */
  readonly rows: number;
  /** `cols × rows` heights (m), index `row * cols + col`. */
  readonly values: ArrayLike<number>;
}

/** Step geometry of a staircase (m). */
export interface StairsInput {
  /** Horizontal depth of one tread (m), usually 0.24–0.33. */
  readonly treadDepth: number;
  /** Height of one riser (m), usually 0.10–0.20. */
  readonly riserHeight: number;
}

/** One walkable surface as given to the navigation mesh builder. */
export interface SurfaceInput {
  /** Name used in messages. @default "surface N" */
  readonly name?: string;
  /** Outline in plan (m), outer ring first, then holes. */
  readonly polygon: PolygonWithHoles;
  /** Height of a flat surface (m). Exactly one of `z`, `slope`, `heights`. */
  readonly z?: number;
  /** A ramp or staircase rising linearly; sampled into a height grid. */
  readonly slope?: SlopeInput;
  /** A measured height grid. */
  readonly heights?: HeightGridInput;
  /** Makes a sloped surface a staircase whose speed follows its steps. */
  readonly stairs?: StairsInput;
}

/**
 * Height samples at cell centres over a rectangle, with bilinear interpolation between them.
 *
 * @example A 2 × 1 grid rising along x
 * ```ts
 * import { HeightGrid } from "./surface.ts";
 * import assert from "node:assert/strict";
 * const grid = new HeightGrid({ originX: 0, originY: 0, cellSize: 1, cols: 2, rows: 1, values: [0, 1] });
 * assert.equal(grid.heightAt(1, 0.5), 0.5); // halfway between the cell centres
 * assert.equal(grid.heightAt(5, 0.5), 1); // beyond the grid: the edge value
 * ```
 */
export class HeightGrid {
  /** Minimum corner x (m). */
  readonly originX: number;
  /** Minimum corner y (m). */
  readonly originY: number;
  /** Cell edge (m). */
  readonly cellSize: number;
  /** Cells along x. */
  readonly cols: number;
  /** Cells along y. */
  readonly rows: number;
  /** Heights at cell centres (m), index `row * cols + col`. */
  readonly values: Float64Array;

  constructor(input: HeightGridInput) {
    const { originX, originY, cellSize, cols, rows } = input;
    if (![originX, originY].every(Number.isFinite)) {
      throw new RangeError(
        `Cannot create HeightGrid as its origin must be finite: current value is (${originX}, ${originY})`,
      );
    }
    if (!(cellSize > 0) || !Number.isFinite(cellSize)) {
      throw new RangeError(
        `Cannot create HeightGrid as 'cellSize' must be a finite number > 0: current value is ${cellSize}`,
      );
    }
    if (!Number.isInteger(cols) || cols < 1 || !Number.isInteger(rows) || rows < 1) {
      throw new RangeError(
        `Cannot create HeightGrid as 'cols' and 'rows' must be integers >= 1: current values are ${cols}, ${rows}`,
      );
    }
    if (input.values.length !== cols * rows) {
      throw new RangeError(
        `Cannot create HeightGrid as 'values' must hold cols × rows = ${
          cols * rows
        } heights: it holds ${input.values.length}`,
      );
    }
    this.originX = originX;
    this.originY = originY;
    this.cellSize = cellSize;
    this.cols = cols;
    this.rows = rows;
    this.values = Float64Array.from(input.values);
    for (let i = 0; i < this.values.length; i++) {
      if (!Number.isFinite(this.values[i])) {
        throw new RangeError(
          `Cannot create HeightGrid as 'values[${i}]' must be finite: current value is ${
            this.values[i]
          }`,
        );
      }
    }
  }

  /**
   * Height (m) at (`x`, `y`), interpolated between the four nearest cell centres; points
   * outside the grid take the nearest edge value.
   */
  heightAt(x: number, y: number): number {
    const fx = (x - this.originX) / this.cellSize - 0.5,
      fy = (y - this.originY) / this.cellSize - 0.5;
    const cx = fx < 0 ? 0 : fx > this.cols - 1 ? this.cols - 1 : fx;
    const cy = fy < 0 ? 0 : fy > this.rows - 1 ? this.rows - 1 : fy;
    const c0 = Math.min(Math.floor(cx), this.cols - 2 < 0 ? 0 : this.cols - 2);
    const r0 = Math.min(Math.floor(cy), this.rows - 2 < 0 ? 0 : this.rows - 2);
    const c1 = Math.min(c0 + 1, this.cols - 1), r1 = Math.min(r0 + 1, this.rows - 1);
    const tx = cx - c0, ty = cy - r0, v = this.values, w = this.cols;
    const a = v[r0 * w + c0] + (v[r0 * w + c1] - v[r0 * w + c0]) * tx;
    const b = v[r1 * w + c0] + (v[r1 * w + c1] - v[r1 * w + c0]) * tx;
    return a + (b - a) * ty;
  }
}

/**
 * A built surface: its kind, height field and, for stairs, its step geometry and speeds.
 *
 * @example A staircase rising 3.06 m eastwards over 5.04 m
 * ```ts
 * import { Surface } from "./surface.ts";
 * import assert from "node:assert/strict";
 * const stairs = new Surface(0, {
 *   name: "stairs",
 *   polygon: [[[0, 0], [5.04, 0], [5.04, 2], [0, 2]]],
 *   slope: { from: [0, 1], to: [5.04, 1], zFrom: 0, zTo: 3.06 },
 *   stairs: { treadDepth: 0.28, riserHeight: 0.17 },
 * }, [0, 0, 5.04, 2]);
 * assert(Math.abs(stairs.heightAt(2.52, 1) - 1.53) < 1e-9);
 * assert.equal(stairs.speedFactor(2, 1, 1, 0), stairs.upFactor); // straight up
 * assert.equal(stairs.speedFactor(2, 1, 0, 1), 1); // across the stairs
 * ```
 */
export class Surface {
  /** Index in the mesh's surface list. */
  readonly index: number;
  /** Name from the input. */
  readonly name: string;
  /** Flat (one height) or sloped (height grid). */
  readonly kind: "flat" | "sloped";
  /** Height of a flat surface; mean height of a sloped one (m). */
  readonly z: number;
  /** Height grid of a sloped surface. */
  readonly grid: HeightGrid | undefined;
  /** Step geometry when the surface is a staircase. */
  readonly stairs: StairsInput | undefined;
  /** Stair angle θ (rad), `atan(riser / tread)`; 0 for other surfaces. */
  readonly stairAngle: number;
  /** Unit vector (x, y) pointing uphill for linear slopes; (0, 0) when unknown or flat. */
  readonly uphillX: number;
  /** See `uphillX`. */
  readonly uphillY: number;
  /** Speed factor walking straight upstairs, `stairSpeedFactor(tread, riser, true)`; 1 off stairs. */
  readonly upFactor: number;
  /** Speed factor walking straight downstairs; 1 off stairs. */
  readonly downFactor: number;

  /**
   * Builds surface `index` from its input; `bounds` (`[minX, minY, maxX, maxY]`, m) is the
   * plan extent a slope is sampled over, with cells of `cellSize` m (0.24 m, the minimum tread
   * depth, as in the 3-D navigation-mesh crowd simulation paper).
   */
  constructor(
    index: number,
    input: SurfaceInput,
    bounds: readonly [number, number, number, number],
    options: { cellSize?: number; verticalSpeedUp?: number; verticalSpeedDown?: number } = {},
  ) {
    this.index = index;
    this.name = input.name ?? `surface ${index}`;
    const where = `surface '${this.name}'`;
    const shape = _surfaceShape(input, { bounds, cellSize: options.cellSize ?? 0.24, where });
    this.kind = shape.kind;
    this.z = shape.z;
    this.grid = shape.grid;
    this.uphillX = shape.uphillX;
    this.uphillY = shape.uphillY;
    this.stairs = input.stairs;
    if (input.stairs) {
      if (this.kind !== "sloped") {
        throw new RangeError(
          `Cannot build ${where} as 'stairs' needs a sloped surface ('slope' or 'heights')`,
        );
      }
      const { treadDepth, riserHeight } = input.stairs;
      this.upFactor = stairSpeedFactor(treadDepth, riserHeight, true, options.verticalSpeedUp);
      this.downFactor = stairSpeedFactor(treadDepth, riserHeight, false, options.verticalSpeedDown);
      this.stairAngle = Math.atan2(riserHeight, treadDepth);
      if (input.slope) _checkStairGradient(input.slope, input.stairs, where);
    } else {
      this.upFactor = this.downFactor = 1;
      this.stairAngle = 0;
    }
  }

  /** Height (m) of the surface at (`x`, `y`). */
  heightAt(x: number, y: number): number {
    return this.grid ? this.grid.heightAt(x, y) : this.z;
  }

  /**
   * Horizontal speed factor for walking in direction (`dx`, `dy`) (any length) at (`x`, `y`):
   * 1 off stairs; on stairs the upstairs or downstairs factor, applied to the part of the
   * motion along the stair's rise: `min(1, factor / |cos φ|)` with φ the angle between the
   * direction and the uphill direction. `upFactor`/`downFactor` replace the surface's own.
   */
  speedFactor(
    x: number,
    y: number,
    dx: number,
    dy: number,
    upFactor: number = this.upFactor,
    downFactor: number = this.downFactor,
  ): number {
    if (!this.stairs) return 1;
    let ux = this.uphillX, uy = this.uphillY;
    if (ux === 0 && uy === 0) {
      // Measured grid: uphill direction from the local gradient.
      const h = this.grid!.cellSize;
      ux = this.heightAt(x + h, y) - this.heightAt(x - h, y);
      uy = this.heightAt(x, y + h) - this.heightAt(x, y - h);
      const n = Math.sqrt(ux * ux + uy * uy);
      if (n === 0) return 1;
      ux /= n;
      uy /= n;
    }
    const d = Math.sqrt(dx * dx + dy * dy);
    if (d === 0) return 1;
    const cos = (dx * ux + dy * uy) / d;
    const f = cos >= 0 ? upFactor : downFactor;
    const along = Math.abs(cos);
    return along <= f ? 1 : f / along;
  }
}

/** Height shape of a surface: flat at `z`, or a height grid with its uphill direction. */
interface SurfaceShape {
  kind: "flat" | "sloped";
  z: number;
  grid: HeightGrid | undefined;
  uphillX: number;
  uphillY: number;
}

/** Where and how finely a surface's heights are sampled, and its name for messages. */
interface SamplingFrame {
  bounds: readonly [number, number, number, number];
  cellSize: number;
  where: string;
}

/** The height shape of `input`, which must give exactly one of `z`, `slope`, `heights`. */
function _surfaceShape(input: SurfaceInput, frame: SamplingFrame): SurfaceShape {
  const where = frame.where;
  const given =
    [input.z !== undefined, input.slope !== undefined, input.heights !== undefined].filter(
      Boolean,
    ).length;
  if (given !== 1) {
    throw new RangeError(
      `Cannot build ${where} as it needs exactly one of 'z', 'slope', 'heights': it has ${given}`,
    );
  }
  if (input.z !== undefined) {
    if (!Number.isFinite(input.z)) {
      throw new RangeError(
        `Cannot build ${where} as 'z' must be finite: current value is ${input.z}`,
      );
    }
    return { kind: "flat", z: input.z, grid: undefined, uphillX: 0, uphillY: 0 };
  }
  const shape: SurfaceShape = input.heights
    ? { kind: "sloped", z: 0, grid: new HeightGrid(input.heights), uphillX: 0, uphillY: 0 }
    : _sampledSlope(input.slope!, frame);
  let sum = 0;
  for (const v of shape.grid!.values) sum += v;
  shape.z = sum / shape.grid!.values.length;
  return shape;
}

/**
 * A linear ramp sampled into a height grid over the frame's bounds, at cell centres (as the 3-D
 * navigation-mesh crowd simulation paper casts its rays from cell centroids).
 */
function _sampledSlope(s: SlopeInput, frame: SamplingFrame): SurfaceShape {
  const ex = s.to[0] - s.from[0], ey = s.to[1] - s.from[1], len2 = ex * ex + ey * ey;
  if (![...s.from, ...s.to, s.zFrom, s.zTo].every(Number.isFinite) || !(len2 > 0)) {
    throw new RangeError(
      `Cannot build ${frame.where} as 'slope' needs distinct finite 'from' and 'to' and finite heights`,
    );
  }
  const cellSize = frame.cellSize;
  const [x0, y0, x1, y1] = frame.bounds;
  const cols = Math.max(1, Math.ceil((x1 - x0) / cellSize)),
    rows = Math.max(1, Math.ceil((y1 - y0) / cellSize));
  const values = new Float64Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const px = x0 + (c + 0.5) * cellSize, py = y0 + (r + 0.5) * cellSize;
      let t = ((px - s.from[0]) * ex + (py - s.from[1]) * ey) / len2;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      values[r * cols + c] = s.zFrom + t * (s.zTo - s.zFrom);
    }
  }
  const grid = new HeightGrid({ originX: x0, originY: y0, cellSize, cols, rows, values });
  const len = Math.sqrt(len2), sign = s.zTo >= s.zFrom ? 1 : -1;
  const rises = s.zTo !== s.zFrom;
  return {
    kind: "sloped",
    z: 0,
    grid,
    uphillX: rises ? (sign * ex) / len : 0,
    uphillY: rises ? (sign * ey) / len : 0,
  };
}

/** Throws when a staircase's slope and its steps disagree by more than 20 %. */
function _checkStairGradient(s: SlopeInput, stairs: StairsInput, where: string): void {
  const { treadDepth, riserHeight } = stairs;
  const run = Math.hypot(s.to[0] - s.from[0], s.to[1] - s.from[1]);
  const gradient = Math.abs(s.zTo - s.zFrom) / run, stepGradient = riserHeight / treadDepth;
  if (Math.abs(gradient - stepGradient) > 0.2 * stepGradient) {
    throw new RangeError(
      `Cannot build ${where} as its slope rises ${gradient.toFixed(3)} m per m but its steps rise ${
        stepGradient.toFixed(3)
      } (riser ${riserHeight} m / tread ${treadDepth} m): they must agree within 20%`,
    );
  }
}

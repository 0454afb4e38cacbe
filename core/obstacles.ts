/**
 * Static obstacles: solid polygons and walls (open or closed polylines), flattened into one
 * segment table that every strategy and metric reads, with a {@linkcode SegmentGrid} for
 * neighbourhood queries.
 *
 * Polygons are stored counter-clockwise, so the solid side of every polygon segment is on its
 * left (the convention of RVO2). Wall segments are solid on both sides. Segments of one polygon
 * or wall are chained through `next`/`prev` so that vertex-based methods (ORCA's obstacle
 * half-planes, convexity tests) can walk them.
 *
 * Geometry may change between steps; changing it while a step runs throws.
 *
 * @module
 */
import { findSelfIntersection, MAX_COORDINATE_M, type Point, signedArea } from "./geometry.ts";
import { SegmentGrid } from "./segment_grid.ts";

/** How obstacle segments are indexed. */
export interface StaticObstaclesOptions {
  /**
   * Cell edge of the segment grid (m): twice the 1.05 m obstacle search radius of Aleksandrov,
   * Heslop and Zlatanova (2021). @default 2.1
   */
  cellSize?: number;
}

/**
 * The static geometry of a world.
 *
 * @example A square pillar and a wall
 * ```ts
 * import { StaticObstacles } from "./obstacles.ts";
 * import assert from "node:assert/strict";
 * const obstacles = new StaticObstacles();
 * obstacles.addPolygon([[0, 0], [1, 0], [1, 1], [0, 1]]);
 * obstacles.addWall([[-5, -2], [5, -2]]);
 * assert.deepEqual(obstacles.segmentCount, 5);
 * const near = new Uint32Array(8);
 * assert.deepEqual(obstacles.queryRadius(0, -1.5, 1, near), 1); // the wall only
 * ```
 */
export class StaticObstacles {
  /** Number of segments. */
  segmentCount = 0;
  /** Segment start x (m). */
  ax: Float64Array = new Float64Array(16);
  /** Segment start y (m). */
  ay: Float64Array = new Float64Array(16);
  /** Segment end x (m). */
  bx: Float64Array = new Float64Array(16);
  /** Segment end y (m). */
  by: Float64Array = new Float64Array(16);
  /** Next segment of the same polygon or wall, or -1 at an open end. */
  next: Int32Array = new Int32Array(16);
  /** Previous segment of the same polygon or wall, or -1 at an open end. */
  prev: Int32Array = new Int32Array(16);
  /** 1 when the segment belongs to a solid polygon (solid on its left), 0 for a two-sided wall. */
  solidLeft: Uint8Array = new Uint8Array(16);
  /** Polygons as given (re-oriented counter-clockwise), in metres. */
  readonly polygons: Point[][] = [];
  /** Walls as given, in metres. */
  readonly walls: { points: Point[]; closed: boolean }[] = [];
  /** Incremented on every change. */
  version = 0;

  #grid: SegmentGrid;
  #gridVersion = -1;
  #locked = false;
  #lockReason = "";

  constructor(options: StaticObstaclesOptions = {}) {
    this.#grid = new SegmentGrid(options.cellSize ?? 2.1);
  }

  /** The segment grid, rebuilt first if the geometry changed. */
  get grid(): SegmentGrid {
    if (this.#gridVersion !== this.version) {
      this.#grid.build(this.ax, this.ay, this.bx, this.by, this.segmentCount);
      this.#gridVersion = this.version;
    }
    return this.#grid;
  }

  /**
   * Adds a solid polygon (m). Orientation does not matter; it is stored counter-clockwise.
   * Throws a RangeError for fewer than 3 vertices, coordinates that are not finite or beyond
   * ±{@linkcode MAX_COORDINATE_M}, zero area, or edges that cross each other (the solid side of
   * a self-intersecting outline is undefined).
   */
  addPolygon(points: readonly Point[]): void {
    this.#checkUnlocked();
    this.#checkPoints(points, 3, "polygon", true);
    const area = signedArea(points);
    if (Math.abs(area) < 1e-12) {
      throw new RangeError(`Cannot add polygon #${this.polygons.length} as its area is 0`);
    }
    const crossing = findSelfIntersection(points);
    if (crossing) {
      const [i, j] = crossing, n = points.length;
      throw new RangeError(
        `Cannot add polygon #${this.polygons.length} as its edges ${i}–${(i + 1) % n} and ${j}–${
          (j + 1) % n
        } cross: a solid polygon must not cross itself (split it into simple polygons)`,
      );
    }
    const ccw = area > 0 ? points.slice() : points.slice().reverse();
    this.polygons.push(ccw as Point[]);
    this.#addChain(ccw, true, true);
  }

  /**
   * Adds a wall along a polyline of at least 2 points (m); `closed` joins the last point to the
   * first. Walls block from both sides.
   */
  addWall(points: readonly Point[], closed = false): void {
    this.#checkUnlocked();
    this.#checkPoints(points, closed ? 3 : 2, "wall", closed);
    this.walls.push({ points: points.slice() as Point[], closed });
    this.#addChain(points, closed, false);
  }

  /** Removes every obstacle. */
  clear(): void {
    this.#checkUnlocked();
    this.segmentCount = 0;
    this.polygons.length = 0;
    this.walls.length = 0;
    this.version++;
  }

  /**
   * Writes the segments within `radius` (m) of (`x`, `y`) into `out` and returns how many there
   * are (may exceed `out.length`: only `out.length` were written).
   */
  queryRadius(x: number, y: number, radius: number, out: Uint32Array): number {
    return this.grid.queryRadius(x, y, radius, out);
  }

  /**
   * True when no segment lies within `radius` (m) of (`x`, `y`) (then `queryRadius` finds none);
   * false when one may. One read of a clearance map: see {@linkcode SegmentGrid.isClear}.
   */
  isClear(x: number, y: number, radius: number): boolean {
    return this.grid.isClear(x, y, radius);
  }

  /** Bounding box `[minX, minY, maxX, maxY]` of all segments (m), or null when empty. */
  bounds(): [number, number, number, number] | null {
    if (this.segmentCount === 0) return null;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let s = 0; s < this.segmentCount; s++) {
      minX = Math.min(minX, this.ax[s], this.bx[s]);
      maxX = Math.max(maxX, this.ax[s], this.bx[s]);
      minY = Math.min(minY, this.ay[s], this.by[s]);
      maxY = Math.max(maxY, this.ay[s], this.by[s]);
    }
    return [minX, minY, maxX, maxY];
  }

  /**
   * Forbids changes until {@linkcode StaticObstacles.unlock}; the world locks its geometry for
   * the duration of a step.
   */
  lock(reason: string): void {
    // Build the grid now so that no query inside the locked window rebuilds it.
    void this.grid;
    this.#locked = true;
    this.#lockReason = reason;
  }

  /** Allows changes again. */
  unlock(): void {
    this.#locked = false;
  }

  #checkUnlocked(): void {
    if (this.#locked) {
      throw new Error(`Cannot change static geometry ${this.#lockReason}`);
    }
  }

  #checkPoints(points: readonly Point[], min: number, what: string, closed: boolean): void {
    const index = what === "polygon" ? this.polygons.length : this.walls.length;
    if (!Array.isArray(points) || points.length < min) {
      throw new RangeError(
        `Cannot add ${what} #${index} as it needs at least ${min} points: it has ${
          Array.isArray(points) ? points.length : "none"
        }`,
      );
    }
    for (let i = 0; i < points.length; i++) {
      const p = points[i];
      if (
        !Array.isArray(p) || p.length !== 2 || !(Math.abs(p[0]) <= MAX_COORDINATE_M) ||
        !(Math.abs(p[1]) <= MAX_COORDINATE_M)
      ) {
        throw new RangeError(
          `Cannot add ${what} #${index} as point ${i} must be two finite numbers [x, y] within ±${MAX_COORDINATE_M} m: current value is ${
            JSON.stringify(p)
          }`,
        );
      }
      const q = points[(i + 1) % points.length];
      if ((i + 1 < points.length || closed) && p[0] === q[0] && p[1] === q[1]) {
        throw new RangeError(
          `Cannot add ${what} #${index} as points ${i} and ${(i + 1) % points.length} coincide`,
        );
      }
    }
  }

  #addChain(points: readonly Point[], closed: boolean, solid: boolean): void {
    const segments = closed ? points.length : points.length - 1;
    this.#reserve(this.segmentCount + segments);
    const first = this.segmentCount;
    for (let i = 0; i < segments; i++) {
      const s = first + i;
      const a = points[i], b = points[(i + 1) % points.length];
      this.ax[s] = a[0];
      this.ay[s] = a[1];
      this.bx[s] = b[0];
      this.by[s] = b[1];
      this.solidLeft[s] = solid ? 1 : 0;
      this.next[s] = i + 1 < segments ? s + 1 : closed ? first : -1;
      this.prev[s] = i > 0 ? s - 1 : closed ? first + segments - 1 : -1;
    }
    this.segmentCount += segments;
    this.version++;
  }

  #reserve(n: number): void {
    if (n <= this.ax.length) return;
    let size = this.ax.length;
    while (size < n) size *= 2;
    const grow = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.ax = grow(this.ax);
    this.ay = grow(this.ay);
    this.bx = grow(this.bx);
    this.by = grow(this.by);
    this.next = grow(this.next);
    this.prev = grow(this.prev);
    this.solidLeft = grow(this.solidLeft);
  }
}

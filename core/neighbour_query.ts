/**
 * One allocation-free way to ask "who and what is near this point": a result buffer that grows
 * on demand for radius queries on the agent grid and on the obstacle segments.
 *
 * The grids write into a caller-supplied buffer and return how many items there are, which may
 * exceed the buffer (nothing is dropped silently). Every caller used to repeat "query, grow the
 * buffer, query again"; this class does it once. The buffer only grows, in powers of two, so a
 * simulation stops allocating as soon as the densest neighbourhood has been seen.
 *
 * @module
 */
import type { AgentGrid } from "./agent_grid.ts";
import type { StaticObstacles } from "./obstacles.ts";
import type { SegmentGrid } from "./segment_grid.ts";

/** Smallest buffer a query starts with (items). */
const MIN_CAPACITY = 64;

/**
 * The buffer size (a power of two, at least 64) that holds `count` items.
 *
 * @example
 * ```ts
 * import { capacityFor } from "./neighbour_query.ts";
 * import assert from "node:assert/strict";
 * assert.equal(capacityFor(10), 64);
 * assert.equal(capacityFor(65), 128);
 * ```
 */
export function capacityFor(count: number): number {
  let size = MIN_CAPACITY;
  while (size < count) size *= 2;
  return size;
}

/**
 * A reusable, growing result buffer for radius queries. After a query, the first `count` items
 * of {@linkcode NeighbourQuery.found} are the answer (read `found` after each query: growing
 * replaces it).
 *
 * @example Agents near the origin, then walls near it
 * ```ts
 * import { AgentGrid } from "./agent_grid.ts";
 * import { NeighbourQuery } from "./neighbour_query.ts";
 * import { StaticObstacles } from "./obstacles.ts";
 * import assert from "node:assert/strict";
 * const px = new Float64Array(100), py = new Float64Array(100);
 * for (let i = 0; i < 100; i++) px[i] = i * 0.01; // 100 agents within 1 m
 * const grid = new AgentGrid({ cellSize: 2 });
 * grid.rebuild(px, py, 100);
 * const query = new NeighbourQuery();
 * assert.equal(query.agents(grid, 0, 0, 1.5, 0), 99); // grown past 64, agent 0 excluded
 * const obstacles = new StaticObstacles();
 * obstacles.addWall([[-5, 1], [5, 1]]);
 * assert.equal(query.segments(obstacles, 0, 0, 2), 1);
 * ```
 */
export class NeighbourQuery {
  /** Indices found by the last query; the first `count` are valid. */
  found: Uint32Array;
  /** Number of items the last query found. */
  count = 0;

  constructor(initialCapacity = MIN_CAPACITY) {
    this.found = new Uint32Array(capacityFor(initialCapacity));
  }

  /**
   * Agents within `radius` (m) of (`x`, `y`), except agent `exclude` (-1 for none), in the
   * grid's order. Returns the count.
   */
  agents(grid: AgentGrid, x: number, y: number, radius: number, exclude = -1): number {
    let n = grid.queryRadius(x, y, radius, this.found, exclude);
    if (n > this.found.length) {
      this.found = new Uint32Array(capacityFor(n));
      n = grid.queryRadius(x, y, radius, this.found, exclude);
    }
    return this.count = n;
  }

  /**
   * Obstacle segments within `radius` (m) of (`x`, `y`), in the grid's order, from the world's
   * obstacles or a segment grid of one's own. Returns the count.
   */
  segments(
    obstacles: StaticObstacles | SegmentGrid,
    x: number,
    y: number,
    radius: number,
  ): number {
    let n = obstacles.queryRadius(x, y, radius, this.found);
    if (n > this.found.length) {
      this.found = new Uint32Array(capacityFor(n));
      n = obstacles.queryRadius(x, y, radius, this.found);
    }
    return this.count = n;
  }

  /** Makes room for at least `count` items, keeping the current ones. */
  reserve(count: number): void {
    if (count <= this.found.length) return;
    const grown = new Uint32Array(capacityFor(count));
    grown.set(this.found);
    this.found = grown;
  }
}

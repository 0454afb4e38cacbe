/**
 * The neighbours and obstacle segments near one agent, gathered once and shared by the
 * behaviours that steer it (separation, contact handling), so that a composition queries the
 * grids once per agent instead of once per behaviour — and measures the offsets to them once:
 * separation and contact handling both read the same surfaces (neighbour discs and the nearest
 * points of walls) and differ only in what they make of each gap.
 *
 * @module
 */
import { segmentParameter } from "../../core/geometry.ts";
import { NeighbourQuery } from "../../core/neighbour_query.ts";
import type { StepContext } from "../../core/strategy.ts";

/**
 * Reusable neighbour and segment lists for the agent being steered. A gather reuses the previous
 * list when it was gathered for the same agent in the same step with at least the requested
 * radius; queries are padded to `padding` so that the next behaviour's
 * (usually smaller) request hits. Lists hold candidates within the radius; callers still test
 * distances.
 *
 * {@linkcode Neighbourhood.gather} also measures the offsets from the agent's centre to each
 * neighbour's centre and to the nearest point of each segment (`agentDx`, `segmentDistance`, …,
 * in metres, in list order).
 *
 * @example
 * ```ts
 * import { Neighbourhood } from "./neighbourhood.ts";
 * import { World } from "../../core/world.ts";
 * import { createNoneStrategy } from "../none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0 });
 * world.addAgent({ x: 0.8, y: 0 });
 * world.addAgent({ x: 5, y: 0 });
 * world.obstacles.addWall([[-2, 0.5], [2, 0.5]]);
 * world.prepare();
 * const ctx = { agents: world.agents, grid: world.grid, obstacles: world.obstacles, stepIndex: 0 } as never;
 * const near = new Neighbourhood(1);
 * near.gather(ctx, 0, 0.5); // padded to 1 m
 * assert.deepEqual([...near.agents.subarray(0, near.agentCount)], [1]);
 * assert.equal(near.agentDistance[0], 0.8);
 * assert.equal(near.segmentCount, 1);
 * assert.deepEqual([near.segmentDx[0], near.segmentDy[0]], [0, 0.5]); // straight up to the wall
 * ```
 */
export class Neighbourhood {
  /** Least query radius (m). */
  readonly padding: number;
  /** Number of valid entries in `agents`. */
  agentCount = 0;
  /** Number of valid entries in `segments`. */
  segmentCount = 0;
  /** x offset (m) from the agent to each listed neighbour's centre (after `gather`). */
  agentDx: Float64Array = new Float64Array(64);
  /** y offset (m) from the agent to each listed neighbour's centre. */
  agentDy: Float64Array = new Float64Array(64);
  /** Centre distance (m) to each listed neighbour. */
  agentDistance: Float64Array = new Float64Array(64);
  /** x offset (m) from the agent to the nearest point of each listed segment (after `gather`). */
  segmentDx: Float64Array = new Float64Array(64);
  /** y offset (m) from the agent to the nearest point of each listed segment. */
  segmentDy: Float64Array = new Float64Array(64);
  /** Distance (m) from the agent's centre to each listed segment. */
  segmentDistance: Float64Array = new Float64Array(64);
  #agentQuery = new NeighbourQuery();
  #segmentQuery = new NeighbourQuery();
  #agentOwner = -1;
  #agentStep = -1;
  #agentRadius = -1;
  #agentsVersion = -1;
  #agentsMeasured = false;
  #segmentOwner = -1;
  #segmentStep = -1;
  #segmentRadius = -1;
  #segmentAgentsVersion = -1;
  #obstaclesVersion = -1;
  #segmentsMeasured = false;

  /** @param padding least query radius (m). @default 1 */
  constructor(padding = 1) {
    if (!(padding >= 0) || !Number.isFinite(padding)) {
      throw new RangeError(
        `Cannot create Neighbourhood as 'padding' must be a finite number >= 0: current value is ${padding}`,
      );
    }
    this.padding = padding;
  }

  /** Agent indices of the last gather (the first `agentCount`). */
  get agents(): Uint32Array {
    return this.#agentQuery.found;
  }

  /** Segment indices of the last gather (the first `segmentCount`). */
  get segments(): Uint32Array {
    return this.#segmentQuery.found;
  }

  /**
   * Makes `agents` and `segments` hold everything within `radius` (m) of agent `i`, and the
   * offset arrays the offsets to them.
   */
  gather(ctx: StepContext, i: number, radius: number): void {
    this.gatherAgents(ctx, i, radius);
    this.gatherSegments(ctx, i, radius);
    if (!this.#agentsMeasured) this.#measureAgents(ctx, i);
    if (!this.#segmentsMeasured) this.#measureSegments(ctx, i);
  }

  /** Makes `agents` hold every agent within `radius` (m) of agent `i` (but `i`). */
  gatherAgents(ctx: StepContext, i: number, radius: number): void {
    const store = ctx.agents;
    if (
      i === this.#agentOwner && ctx.stepIndex === this.#agentStep && radius <= this.#agentRadius &&
      store.version === this.#agentsVersion
    ) return;
    const r = radius > this.padding ? radius : this.padding;
    this.agentCount = this.#agentQuery.agents(ctx.grid, store.px[i], store.py[i], r, i);
    this.#agentOwner = i;
    this.#agentStep = ctx.stepIndex;
    this.#agentRadius = r;
    this.#agentsVersion = store.version;
    this.#agentsMeasured = false;
  }

  /** Makes `segments` hold every obstacle segment within `radius` (m) of agent `i`. */
  gatherSegments(ctx: StepContext, i: number, radius: number): void {
    const store = ctx.agents, o = ctx.obstacles;
    if (
      i === this.#segmentOwner && ctx.stepIndex === this.#segmentStep &&
      radius <= this.#segmentRadius &&
      store.version === this.#segmentAgentsVersion && o.version === this.#obstaclesVersion
    ) return;
    const r = radius > this.padding ? radius : this.padding;
    this.segmentCount = o.segmentCount > 0
      ? this.#segmentQuery.segments(o, store.px[i], store.py[i], r)
      : 0;
    this.#segmentOwner = i;
    this.#segmentStep = ctx.stepIndex;
    this.#segmentRadius = r;
    this.#segmentAgentsVersion = store.version;
    this.#obstaclesVersion = o.version;
    this.#segmentsMeasured = false;
  }

  #measureAgents(ctx: StepContext, i: number): void {
    const n = this.agentCount;
    if (this.agentDx.length < n) {
      const size = this.#agentQuery.found.length;
      this.agentDx = new Float64Array(size);
      this.agentDy = new Float64Array(size);
      this.agentDistance = new Float64Array(size);
    }
    const a = ctx.agents, ax = a.px, ay = a.py, px = ax[i], py = ay[i], buf = this.agents;
    const outX = this.agentDx, outY = this.agentDy, outD = this.agentDistance;
    for (let k = 0; k < n; k++) {
      const j = buf[k];
      const dx = ax[j] - px, dy = ay[j] - py;
      outX[k] = dx;
      outY[k] = dy;
      outD[k] = Math.sqrt(dx * dx + dy * dy);
    }
    this.#agentsMeasured = true;
  }

  #measureSegments(ctx: StepContext, i: number): void {
    const m = this.segmentCount;
    if (this.segmentDx.length < m) {
      const size = this.#segmentQuery.found.length;
      this.segmentDx = new Float64Array(size);
      this.segmentDy = new Float64Array(size);
      this.segmentDistance = new Float64Array(size);
    }
    const o = ctx.obstacles, px = ctx.agents.px[i], py = ctx.agents.py[i], segs = this.segments;
    const ax = o.ax, ay = o.ay, bx = o.bx, by = o.by;
    const outX = this.segmentDx, outY = this.segmentDy, outD = this.segmentDistance;
    for (let q = 0; q < m; q++) {
      const s = segs[q];
      // The nearest point of the segment is a + t (b − a).
      const t = segmentParameter(px, py, ax[s], ay[s], bx[s], by[s]);
      const dx = ax[s] + t * (bx[s] - ax[s]) - px, dy = ay[s] + t * (by[s] - ay[s]) - py;
      outX[q] = dx;
      outY[q] = dy;
      outD[q] = Math.sqrt(dx * dx + dy * dy);
    }
    this.#segmentsMeasured = true;
  }
}

/**
 * The neighbours and obstacle segments near one agent, gathered once and shared by the
 * behaviours that steer it (separation, contact handling), so that a composition queries the
 * grids once per agent instead of once per behaviour.
 *
 * @module
 */
import type { StepContext } from "../../core/strategy.ts";

/**
 * Reusable neighbour and segment lists for the agent being steered. A gather reuses the previous
 * list when it was gathered for the same agent in the same step with at least the requested
 * radius; queries are padded to `padding` so that the next behaviour's
 * (usually smaller) request hits. Lists hold candidates within the radius; callers still test
 * distances.
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
 * world.prepare();
 * const ctx = { agents: world.agents, grid: world.grid, obstacles: world.obstacles, stepIndex: 0 } as never;
 * const near = new Neighbourhood(1);
 * near.gather(ctx, 0, 0.5); // padded to 1 m
 * assert.deepEqual([...near.agents.subarray(0, near.agentCount)], [1]);
 * ```
 */
export class Neighbourhood {
  /** Least query radius (m). */
  readonly padding: number;
  /** Agent indices of the last gather (the first `agentCount`). */
  agents: Uint32Array = new Uint32Array(32);
  /** Number of valid entries in `agents`. */
  agentCount = 0;
  /** Segment indices of the last gather (the first `segmentCount`). */
  segments: Uint32Array = new Uint32Array(16);
  /** Number of valid entries in `segments`. */
  segmentCount = 0;
  #agentOwner = -1;
  #agentStep = -1;
  #agentRadius = -1;
  #agentsVersion = -1;
  #segmentOwner = -1;
  #segmentStep = -1;
  #segmentRadius = -1;
  #segmentAgentsVersion = -1;
  #obstaclesVersion = -1;

  /** @param padding least query radius (m). @default 1 */
  constructor(padding = 1) {
    if (!(padding >= 0) || !Number.isFinite(padding)) {
      throw new RangeError(
        `Cannot create Neighbourhood as 'padding' must be a finite number >= 0: current value is ${padding}`,
      );
    }
    this.padding = padding;
  }

  /** Makes `agents` and `segments` hold everything within `radius` (m) of agent `i`. */
  gather(ctx: StepContext, i: number, radius: number): void {
    this.gatherAgents(ctx, i, radius);
    this.gatherSegments(ctx, i, radius);
  }

  /** Makes `agents` hold every agent within `radius` (m) of agent `i` (but `i`). */
  gatherAgents(ctx: StepContext, i: number, radius: number): void {
    const store = ctx.agents;
    if (
      i === this.#agentOwner && ctx.stepIndex === this.#agentStep && radius <= this.#agentRadius &&
      store.version === this.#agentsVersion
    ) return;
    const r = radius > this.padding ? radius : this.padding;
    const x = store.px[i], y = store.py[i];
    let n = ctx.grid.queryRadius(x, y, r, this.agents, i);
    if (n > this.agents.length) {
      this.agents = new Uint32Array(2 * n);
      n = ctx.grid.queryRadius(x, y, r, this.agents, i);
    }
    this.agentCount = n;
    this.#agentOwner = i;
    this.#agentStep = ctx.stepIndex;
    this.#agentRadius = r;
    this.#agentsVersion = store.version;
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
    let m = 0;
    if (o.segmentCount > 0) {
      const x = store.px[i], y = store.py[i];
      m = o.queryRadius(x, y, r, this.segments);
      if (m > this.segments.length) {
        this.segments = new Uint32Array(2 * m);
        m = o.queryRadius(x, y, r, this.segments);
      }
    }
    this.segmentCount = m;
    this.#segmentOwner = i;
    this.#segmentStep = ctx.stepIndex;
    this.#segmentRadius = r;
    this.#segmentAgentsVersion = store.version;
    this.#obstaclesVersion = o.version;
  }
}

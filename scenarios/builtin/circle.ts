/**
 * `circle`: agents evenly spaced on a circle walk to the antipodal point, all meeting in the
 * centre — the classic stress test of reciprocal avoidance (RVO2's "Circle" example).
 *
 * @module
 */
import { ringRadiusFor } from "../build.ts";
import type { ScenarioSpec } from "../schema.ts";

/** Default agent count. */
export const CIRCLE_DEFAULT_AGENTS = 100;

/**
 * The circle swap. The radius gives every agent 2.5 body diameters of circumference, so nobody
 * starts overlapping; the duration allows the slowest walker (0.5 m/s) to cross with margin.
 *
 * @example
 * ```ts
 * import { circleScenario } from "./circle.ts";
 * import assert from "node:assert/strict";
 * assert.equal(circleScenario(10).spawners[0].count, 10);
 * ```
 */
export function circleScenario(agents = CIRCLE_DEFAULT_AGENTS): ScenarioSpec {
  const radius = ringRadiusFor(agents, 0.25);
  const extent = radius + 2;
  return {
    name: "circle",
    description: `${agents} agents on a circle of radius ${
      radius.toFixed(1)
    } m swap to the antipodal point`,
    dt: 0.05,
    duration: Math.ceil((2 * radius) / 0.5 + 30),
    seed: 1,
    bounds: [-extent, -extent, extent, extent],
    agents: { radius: 0.25 },
    spawners: [{
      name: "ring",
      area: { ring: { center: [0, 0], radius } },
      count: agents,
      goal: "antipodal",
      onArrival: "remove",
    }],
  };
}

/**
 * `corridor`: two groups walk towards each other along a closed 3.6 m wide corridor (the width of
 * the HERMES bidirectional experiments), so lanes can form.
 *
 * @module
 */
import type { ScenarioSpec } from "../schema.ts";

/** Default agent count (both groups together). */
export const CORRIDOR_DEFAULT_AGENTS = 80;

/** Corridor width (m). */
export const CORRIDOR_WIDTH = 3.6;

/**
 * The bidirectional corridor. Each group starts packed at about 1.5 persons/m² at one end and
 * leaves at the other; the start zones lengthen with the agent count. A throughput line crosses
 * the middle.
 *
 * @example
 * ```ts
 * import { corridorScenario } from "./corridor.ts";
 * import assert from "node:assert/strict";
 * const spec = corridorScenario(20);
 * assert.equal(spec.spawners[0].count + spec.spawners[1].count, 20);
 * ```
 */
export function corridorScenario(agents = CORRIDOR_DEFAULT_AGENTS): ScenarioSpec {
  const half = CORRIDOR_WIDTH / 2;
  const usable = CORRIDOR_WIDTH - 0.6;
  const west = Math.ceil(agents / 2), east = agents - west;
  const depth = Math.max(4, west / (1.5 * usable));
  const end = 10 + depth + 1; // x of the corridor's end walls
  const lane = half - 0.3;
  return {
    name: "corridor",
    description: `${agents} agents in two opposing groups along a ${
      (2 * end).toFixed(0)
    } m × ${CORRIDOR_WIDTH} m corridor`,
    dt: 0.05,
    duration: Math.ceil((2 * end) / 0.5 + 20),
    seed: 1,
    walkingSide: "right",
    bounds: [-end, -half, end, half],
    walls: [{ points: [[-end, -half], [end, -half], [end, half], [-end, half]], closed: true }],
    goals: {
      east: { rect: [end - 2.5, -lane, end - 0.5, lane] },
      west: { rect: [-end + 0.5, -lane, -end + 2.5, lane] },
    },
    spawners: [
      {
        name: "west",
        area: { rect: [-end + 0.5, -lane, -end + 0.5 + depth, lane] },
        count: west,
        goal: "east",
      },
      {
        name: "east",
        area: { rect: [end - 0.5 - depth, -lane, end - 0.5, lane] },
        count: east,
        goal: "west",
      },
    ],
    metrics: { throughputLine: { name: "middle", from: [0, -half], to: [0, half] } },
  };
}

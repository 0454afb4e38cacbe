/**
 * `bottleneck`: a room 10 m wide empties through a 1 m door into open space — the standard
 * evacuation benchmark (compare the flow with the measured 1.6–2.0 persons/s of Seyfried et al.
 * 2009 for 1 m wide doors).
 *
 * @module
 */
import type { ScenarioSpec } from "../schema.ts";

/** Default agent count. */
export const BOTTLENECK_DEFAULT_AGENTS = 100;

/** Default door width (m). */
export const BOTTLENECK_DOOR_WIDTH = 1.0;

/** Largest door width (m): the room is 10 m wide and keeps a wall on each side. */
export const BOTTLENECK_MAX_DOOR_WIDTH = 9;

/** Options of {@linkcode bottleneckScenario}. */
export interface BottleneckOptions {
  /** Door width b (m), in (0, 9]. @default 1 */
  doorWidth?: number;
}

/**
 * The bottleneck. The room grows deeper with the agent count (about 1.5 persons/m² at the
 * start); agents head for the nearest point of the doorway, then for the exit zone beyond it;
 * the throughput line spans the door. `doorWidth` widens or narrows the door (for flow-versus-width
 * studies such as validation/bottleneck_flow.ts).
 *
 * @example
 * ```ts
 * import { bottleneckScenario } from "./bottleneck.ts";
 * import assert from "node:assert/strict";
 * assert.equal(bottleneckScenario(50).spawners[0].count, 50);
 * const wide = bottleneckScenario(50, { doorWidth: 2 });
 * assert.deepEqual(wide.metrics?.throughputLine?.to, [0, 1]);
 * assert.throws(() => bottleneckScenario(50, { doorWidth: 0 }), RangeError);
 * ```
 */
export function bottleneckScenario(
  agents = BOTTLENECK_DEFAULT_AGENTS,
  options: BottleneckOptions = {},
): ScenarioSpec {
  const width = options.doorWidth ?? BOTTLENECK_DOOR_WIDTH;
  if (!(width > 0 && width <= BOTTLENECK_MAX_DOOR_WIDTH)) {
    throw new RangeError(
      `Cannot create bottleneck scenario as 'doorWidth' must be in (0, ${BOTTLENECK_MAX_DOOR_WIDTH}] m: current value is ${width}`,
    );
  }
  const depth = Math.max(6, agents / (1.5 * 9.2) + 1.4);
  const door = width / 2;
  return {
    name: "bottleneck",
    description: `${agents} agents leave a ${
      depth.toFixed(1)
    } m × 10 m room through a ${width} m door`,
    dt: 0.05,
    duration: Math.ceil(agents / 1.0 + 40),
    seed: 1,
    bounds: [-depth - 0.5, -5.5, 7, 5.5],
    walls: [[[0, door], [0, 5], [-depth, 5], [-depth, -5], [0, -5], [0, -door]]],
    // The exit zone is at least as wide as the door, so a wide door's flow does not funnel.
    goals: { exit: { rect: [4, -Math.max(1, door), 6, Math.max(1, door)] } },
    spawners: [{
      name: "room",
      area: { rect: [-depth + 0.4, -4.6, -1, 4.6] },
      count: agents,
      goal: "exit",
      via: [[[0, -door], [0, door]]],
    }],
    metrics: { throughputLine: { name: "door", from: [0, -door], to: [0, door] } },
  };
}

/**
 * `intersection`: four flows cross where two 6 m streets meet between building corners.
 *
 * @module
 */
import type { ScenarioSpec } from "../schema.ts";

/** Default agent count (all four flows). */
export const INTERSECTION_DEFAULT_AGENTS = 80;

/**
 * Four flows (west→east, east→west, south→north, north→south) meet in the central square. The
 * start zones deepen and the arms lengthen with the agent count (about 1.5 persons/m²).
 *
 * @example
 * ```ts
 * import { intersectionScenario } from "./intersection.ts";
 * import assert from "node:assert/strict";
 * assert.equal(intersectionScenario(40).spawners.length, 4);
 * ```
 */
export function intersectionScenario(agents = INTERSECTION_DEFAULT_AGENTS): ScenarioSpec {
  const half = 3; // half street width (m)
  const lane = half - 0.4;
  const perFlow = [0, 1, 2, 3].map((k) => Math.floor(agents / 4) + (k < agents % 4 ? 1 : 0));
  const depth = Math.max(3, Math.max(...perFlow) / (1.5 * 2 * lane));
  const arm = Math.max(20, depth + 12); // distance from the centre to each street end
  const start = (sign: number): [number, number] =>
    sign < 0 ? [-arm + 0.5, -arm + 0.5 + depth] : [arm - 0.5 - depth, arm - 0.5];
  const finish = (sign: number): [number, number] =>
    sign < 0 ? [-arm + 0.5, -arm + 2.5] : [arm - 2.5, arm - 0.5];
  const xZone = ([x0, x1]: [number, number]) => ({
    rect: [x0, -lane, x1, lane] as [number, number, number, number],
  });
  const yZone = ([y0, y1]: [number, number]) => ({
    rect: [-lane, y0, lane, y1] as [number, number, number, number],
  });
  const corner = (
    sx: number,
    sy: number,
  ): [number, number][] => [[sx * half, sy * arm], [sx * half, sy * half], [sx * arm, sy * half]];
  return {
    name: "intersection",
    description: `${agents} agents in four flows cross where two 6 m streets meet`,
    dt: 0.05,
    duration: Math.ceil((2 * arm) / 0.5 + 30),
    seed: 1,
    walkingSide: "right",
    bounds: [-arm, -arm, arm, arm],
    walls: [corner(1, 1), corner(-1, 1), corner(-1, -1), corner(1, -1)],
    goals: {
      east: xZone(finish(1)),
      west: xZone(finish(-1)),
      north: yZone(finish(1)),
      south: yZone(finish(-1)),
    },
    spawners: [
      { name: "from west", area: xZone(start(-1)), count: perFlow[0], goal: "east" },
      { name: "from east", area: xZone(start(1)), count: perFlow[1], goal: "west" },
      { name: "from south", area: yZone(start(-1)), count: perFlow[2], goal: "north" },
      { name: "from north", area: yZone(start(1)), count: perFlow[3], goal: "south" },
    ],
    metrics: { throughputLine: { name: "east arm", from: [half, -half], to: [half, half] } },
  };
}

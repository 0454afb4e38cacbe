/**
 * `building`: a two-storey building whose storeys are joined by a straight staircase; half the
 * agents go up, half come down. It exercises the navigation mesh: routes through doors, around
 * pillars and desks, avoiding a slot too narrow to pass, up and down stairs that slow walkers.
 *
 * Layout (x east, y north, metres):
 *
 * ```
 *        ground-floor hall (z = 0)              stairs           first-floor gallery (z = 3.06)
 *   x -26 ………………… -15 …………………… -4      -4 ……… 1.04      1.04 ……………………………………… 23.04
 *   y  9 ┌──────────┬──────────────┐                     ┌──────────────────────────┐
 *        │          │   □       □  │                     │   ▭      ▭      ▭        │
 *        │          door (1.6 m)   └─────────────────────┘                          │
 *        │  spawn   slot (0.7 m)     ═══ 18 steps up ═══►                 goal      │
 *        │   up     │              ┌─────────────────────┐                 up       │
 *        │          door (1.6 m)   │                     │   ▭      ▭      ▭        │
 *   y -9 └──────────┴──────────────┘                     └──────────────────────────┘
 * ```
 *
 * - The hall (22 m × 18 m, z = 0) is split by a partition at x = −15 with two 1.6 m doors and
 *   a 0.7 m slot on the direct line to the stairs; with the default minimum passable width of
 *   1.1 m routes avoid the slot. Four 0.6 m pillars stand in front of the stairs.
 * - The staircase (x −4 … 1.04, 3 m wide) has 18 risers of 0.17 m and treads of 0.28 m: it
 *   rises 3.06 m over 5.04 m (31.3°). Its bottom edge connects to the hall and its top edge to
 *   the gallery; its sides are walls.
 * - The gallery (22 m × 18 m, z = 3.06) has six desks. It lies east of the stairs and does not
 *   overlap the hall in plan: the world sees agents and walls in 2-D, so storeys where agents
 *   walk must not overlap (the space below the gallery is not part of the simulation).
 * - Spawner `up` fills the west end of the hall and heads for the east end of the gallery;
 *   spawner `down` starts on the gallery and heads for the west end of the hall. The throughput
 *   line crosses the middle of the stairs.
 *
 * @module
 */
import type { ScenarioSpec } from "../schema.ts";

/** Default agent count (both directions). */
export const BUILDING_DEFAULT_AGENTS = 60;

/** Riser height of the staircase (m). */
export const BUILDING_RISER = 0.17;
/** Tread depth of the staircase (m). */
export const BUILDING_TREAD = 0.28;
/** Number of risers. */
export const BUILDING_STEPS = 18;
/** Width of the staircase (m). */
export const BUILDING_STAIR_WIDTH = 4;
/** Agents entering per second in each direction. */
export const BUILDING_ARRIVAL_RATE = 1;

/**
 * The building scenario for `agents` agents, split evenly between the two directions. Above 300
 * agents per direction, agents enter at 3 per second instead of all at once.
 *
 * @example 40 agents, 20 each way, on three surfaces
 * ```ts
 * import { buildingScenario } from "./building.ts";
 * import assert from "node:assert/strict";
 * const spec = buildingScenario(40);
 * assert.equal(spec.spawners[0].count + spec.spawners[1].count, 40);
 * assert.equal(spec.navigation?.navmesh.surfaces?.length, 3);
 * ```
 */
export function buildingScenario(agents = BUILDING_DEFAULT_AGENTS): ScenarioSpec {
  const up = Math.ceil(agents / 2), down = agents - up;
  const rise = BUILDING_STEPS * BUILDING_RISER; // 3.06 m
  const run = BUILDING_STEPS * BUILDING_TREAD; // 5.04 m
  const x0 = -4, x1 = x0 + run; // stairs from x0 (bottom) to x1 (top)
  const w = BUILDING_STAIR_WIDTH / 2;
  const rect = (
    ax: number,
    ay: number,
    bx: number,
    by: number,
  ): [number, number][] => [[ax, ay], [bx, ay], [bx, by], [ax, by]];
  const square = (cx: number, cy: number, half: number) =>
    rect(cx - half, cy - half, cx + half, cy + half);
  const rate = { rate: BUILDING_ARRIVAL_RATE };
  return {
    name: "building",
    description: `${agents} agents walk between the storeys of a building over a ${
      run.toFixed(2)
    } m staircase`,
    dt: 0.05,
    duration: Math.ceil(120 + agents / (2 * BUILDING_ARRIVAL_RATE) + agents),
    seed: 1,
    walkingSide: "right",
    bounds: [-27, -10, x1 + 23, 10],
    walls: [
      [[-15, -9], [-15, -6.8]],
      [[-15, -5.2], [-15, -0.45]],
      [[-15, 0.45], [-15, 2.2]],
      [[-15, 3.8], [-15, 9]],
    ],
    obstacles: [
      square(-10, 3.5, 0.3),
      square(-10, -3.5, 0.3),
      square(-7, 3.5, 0.3),
      square(-7, -3.5, 0.3),
      ...[6, 11, 16].flatMap((
        x,
      ) => [
        rect(x1 + x - 1.2, 3.6, x1 + x + 1.2, 4.4),
        rect(x1 + x - 1.2, -4.4, x1 + x + 1.2, -3.6),
      ]),
    ],
    goals: {
      gallery: { rect: [x1 + 17, -7, x1 + 21, 7] },
      hall: { rect: [-25, -7, -20, 7] },
    },
    spawners: [
      {
        name: "up",
        area: { rect: [-25.5, -8.5, -17, 8.5] },
        count: up,
        goal: "gallery",
        z: 0,
        ...rate,
      },
      {
        name: "down",
        area: { rect: [x1 + 14, -8.5, x1 + 21.5, 8.5] },
        count: down,
        goal: "hall",
        z: rise,
        ...rate,
      },
    ],
    navigation: {
      navmesh: {
        surfaces: [
          { name: "hall", polygon: [rect(-26, -9, x0, 9)], z: 0 },
          {
            name: "stairs",
            polygon: [rect(x0, -w, x1, w)],
            slope: { from: [x0, 0], to: [x1, 0], zFrom: 0, zTo: rise },
            stairs: { treadDepth: BUILDING_TREAD, riserHeight: BUILDING_RISER },
          },
          { name: "gallery", polygon: [rect(x1, -9, x1 + 22, 9)], z: rise },
        ],
        clearance: 0.4,
        minWidth: 1.1,
      },
    },
    metrics: {
      throughputLine: { name: "stairs", from: [(x0 + x1) / 2, -w], to: [(x0 + x1) / 2, w] },
    },
  };
}

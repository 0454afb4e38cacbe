/**
 * Walls drawn in many pieces: one whole `world.step()` on a corridor whose two walls are single
 * segments, and on the same corridor with each wall cut into 5,000 pieces of 3 cm (10,000
 * segments), for `none` and `orca`. The geometry is the same, so the step should cost about the
 * same: a strategy whose cost grows with how finely a wall is cut (ORCA once sorted every piece
 * within its obstacle range by insertion, quadratic in their number) shows here.
 *
 * The corridor is 150 m long and 10 m wide, with 1,000 agents at 1 agent/m² in its middle
 * 100 m walking to either end (half each way, randomly mixed), after 20 warm-up steps.
 *
 * Run with `deno bench bench/wall_pieces_bench.ts`.
 *
 * @module
 */
import { Rng } from "../core/rng.ts";
import { World } from "../core/world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { strategies } from "../strategies/mod.ts";

const AGENTS = 1_000;
const LENGTH = 150; // m
const WIDTH = 10; // m
const PIECES = 5_000; // per wall: 3 cm each
const WARM_UP_STEPS = 20;

/** The corridor with `strategy`, its walls in `pieces` pieces each. */
function corridor(strategy: string, pieces: number): World {
  const world = new World({
    strategy: strategies.create(strategy),
    navigator: createGoalSeeker(),
    capacity: AGENTS,
  });
  for (const y of [-WIDTH / 2, WIDTH / 2]) {
    const points: [number, number][] = [];
    for (let k = 0; k <= pieces; k++) points.push([(k * LENGTH) / pieces, y]);
    world.obstacles.addWall(points);
  }
  const rng = new Rng(14);
  const occupied = AGENTS / WIDTH, x0 = (LENGTH - occupied) / 2;
  const cols = Math.ceil(Math.sqrt(AGENTS * occupied / WIDTH)), rows = Math.ceil(AGENTS / cols);
  for (let i = 0; i < AGENTS; i++) {
    const x = x0 + ((i % cols) + 0.5) * (occupied / cols);
    const y = -WIDTH / 2 + 0.4 + (Math.floor(i / cols) + 0.5) * ((WIDTH - 0.8) / rows);
    const east = rng.chance(0.5);
    world.addAgent({ x, y, goalX: east ? LENGTH : 0, goalY: y, desiredSpeed: 1.34 });
  }
  for (let s = 0; s < WARM_UP_STEPS; s++) world.step();
  return world;
}

for (const strategy of ["none", "orca"]) {
  for (const pieces of [1, PIECES]) {
    const world = corridor(strategy, pieces);
    Deno.bench({
      name: `${strategy}: world.step(), walls ${
        pieces === 1 ? "whole" : `in ${pieces} pieces each`
      }`,
      group: strategy,
      baseline: pieces === 1,
      n: 50,
      fn() {
        world.step();
      },
    });
  }
}

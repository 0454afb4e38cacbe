/**
 * World step benchmarks: one full `world.step()` (navigation, strategy, integration,
 * bookkeeping, grid rebuild) with the `none` strategy and the goal seeker.
 *
 * Agents stand uniformly at random in a square at about 2 agents/m² and all walk east to goals
 * 1 km away, so nobody arrives while the benchmark runs and the crowd keeps its shape.
 *
 * Run with `deno bench bench/step_bench.ts`.
 *
 * @module
 */
import { World } from "../core/world.ts";
import { Rng } from "../core/rng.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";

const DENSITY = 2; // agents per m²

function makeWorld(count: number): World {
  const world = new World({
    strategy: createNoneStrategy(),
    navigator: createGoalSeeker(),
    capacity: count,
  });
  const side = Math.sqrt(count / DENSITY);
  const rng = new Rng(7);
  for (let i = 0; i < count; i++) {
    const x = rng.range(0, side), y = rng.range(0, side);
    world.addAgent({ x, y, goalX: x + 1000, goalY: y, desiredSpeed: rng.range(1.1, 1.5) });
  }
  world.prepare();
  return world;
}

for (const count of [10_000, 100_000]) {
  const world = makeWorld(count);
  Deno.bench({
    name: `world.step(), none + goal seeker, ${count / 1000}k agents`,
    group: "step",
    fn() {
      world.step();
    },
  });
}

/**
 * `boxcast` and `priority-steering` benchmarks: 10 000 agents on the built-in `corridor`
 * scenario (two opposing groups at 1.5 persons/m² in a 3.6 m wide corridor), warmed up for 100
 * steps so that the groups walk and sight ranges have adapted.
 *
 * Each benchmark is one unit of work on 10 000 agents, so µs per agent-step is the reported
 * time per iteration divided by 10 000 (e.g. 13 ms/iter = 1.3 µs per agent-step):
 * - `strategy phase`: the strategy's `computeNewVelocities` over every agent, on a frozen
 *   state (the figure the 1.5 µs target applies to);
 * - `world.step()`: the whole step (navigation, strategy, integration, bookkeeping, grid).
 *
 * Run with `deno bench -A bench/boxcast_bench.ts`.
 *
 * @module
 */
import type { StepContext } from "../core/strategy.ts";
import type { World } from "../core/world.ts";
import { Rng, RngStream } from "../core/rng.ts";
import { buildScenario } from "../scenarios/build.ts";
import { corridorScenario } from "../scenarios/builtin/corridor.ts";
import { strategies } from "../strategies/mod.ts";

const AGENTS = 10_000;
const WARM_UP_STEPS = 100;

function warmWorld(name: string, options: Record<string, unknown> = {}): World {
  const built = buildScenario(corridorScenario(AGENTS), {
    registry: strategies,
    strategy: { name, options },
    seed: 1,
  });
  for (let s = 0; s < WARM_UP_STEPS; s++) built.world.step();
  return built.world;
}

/** A step context on the world's current (frozen) state, as the world builds it. */
function contextOf(world: World): StepContext {
  return {
    agents: world.agents,
    grid: world.grid,
    obstacles: world.obstacles,
    dt: world.dt,
    time: world.time,
    stepIndex: world.stepIndex,
    rng: new Rng(world.seed, RngStream.strategy),
    walkingSide: world.walkingSide,
  };
}

const cases: [string, string, Record<string, unknown>][] = [
  ["boxcast", "boxcast", {}],
  ["boxcast, crowded preset", "boxcast", { preset: "crowded" }],
  ["priority-steering, default groups", "priority-steering", {}],
  [
    "priority-steering, boxcast then seek + arrive + separation + drag",
    "priority-steering",
    {
      groups: [[["boxcast", 1]], [["seek", 0.5], ["arrive", 0.5], ["separation", 0.6], [
        "drag",
        0.3,
      ]]],
    },
  ],
];

for (const [label, name, options] of cases) {
  const world = warmWorld(name, options);
  const ctx = contextOf(world);
  const n = world.agents.count;
  Deno.bench({
    name: `${label}: strategy phase, ${n / 1000}k agents (corridor)`,
    group: "strategy phase",
    baseline: label === "boxcast",
    fn() {
      world.strategy.computeNewVelocities(ctx, 0, n);
    },
  });
}

for (const [label, name, options] of cases.slice(0, 1)) {
  const world = warmWorld(name, options);
  Deno.bench({
    name: `${label}: world.step(), ${AGENTS / 1000}k agents (corridor)`,
    group: "world step",
    fn() {
      world.step();
    },
  });
}

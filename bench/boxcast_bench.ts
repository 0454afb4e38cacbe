/**
 * `boxcast` and `priority-steering` benchmarks: 10 000 agents on the built-in `corridor`
 * scenario (two opposing groups at 1.5 persons/m² in a 3.6 m wide corridor), warmed up for 100
 * steps so that the groups walk and sight ranges have adapted.
 *
 * Each benchmark is one unit of work on 10 000 agents, so µs per agent-step is the reported
 * time per iteration divided by 10 000 (e.g. 13 ms/iter = 1.3 µs per agent-step):
 * - `strategy phase`: the strategy's `computeNewVelocities` over every agent, on a frozen
 *   state (the figure the 1.5 µs target applies to);
 * - `world.step()`: the whole step (navigation, strategy, integration, bookkeeping, grid); the
 *   summary printed at the end splits it by phase (`world.phaseMs`). The phases around the
 *   strategy add about 0.3 ms at 10k agents, as with the `none` strategy, and the step is timed
 *   on a crowd that keeps walking (the groups meet after about 160 steps), so its mean also
 *   covers later, denser states than the strategy phase's frozen one.
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

/** Steps and phase times (ms) of the timed `world.step()` calls, for the summary. */
const stepped: { label: string; world: World; steps: number; startMs: Record<string, number> }[] =
  [];

for (const [label, name, options] of cases.slice(0, 1)) {
  const world = warmWorld(name, options);
  const entry = { label, world, steps: 0, startMs: { ...world.phaseMs } };
  stepped.push(entry);
  Deno.bench({
    name: `${label}: world.step(), ${AGENTS / 1000}k agents (corridor)`,
    group: "world step",
    fn() {
      world.step();
      entry.steps++;
    },
  });
}

globalThis.addEventListener("unload", () => {
  const lines = [
    "",
    "ms per world.step() by phase (every step the benchmark ran, warm-up included)",
    "",
  ];
  lines.push(
    "| case | steps | navigation | strategy | integration | bookkeeping | indexing | whole |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const { label, world, steps, startMs } of stepped) {
    if (steps === 0) continue;
    const phases = ["navigation", "strategy", "integration", "bookkeeping", "indexing"] as const;
    const ms = phases.map((p) => (world.phaseMs[p] - startMs[p]) / steps);
    const whole = ms.reduce((a, b) => a + b, 0);
    lines.push(`| ${label} | ${steps} | ${[...ms, whole].map((v) => v.toFixed(2)).join(" | ")} |`);
  }
  console.log(lines.join("\n"));
});

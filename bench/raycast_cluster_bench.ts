/**
 * `raycast-cluster` benchmarks: one full `world.step()` of the bidirectional corridor with 10k
 * agents (two groups of 5,000 at about 1.5 persons/m² walking towards each other along a 3.6 m
 * wide corridor), for 13 rays (the default), 21 rays, and 13 rays without the document's check
 * interval (every agent checked every step), against the `none` baseline on the same world.
 * Each world is warmed up for 200 steps (10 s: the group fronts have met) before timing.
 *
 * The figure to read is microseconds per agent-step: the time per iteration divided by 10,000
 * (the iteration is one step of 10k agents, so 30 ms per step is 3 µs per agent-step).
 *
 * Target: raycast-cluster with 13 rays at most 3 µs per agent-step.
 *
 * Run with `deno bench -A bench/raycast_cluster_bench.ts`.
 *
 * @module
 */
import { StrategyRegistry } from "../core/registry.ts";
import { buildScenario } from "../scenarios/build.ts";
import { corridorScenario } from "../scenarios/builtin/corridor.ts";
import { noneStrategy } from "../strategies/none.ts";
import { raycastClusterStrategy } from "../strategies/raycast_cluster.ts";
import type { World } from "../core/world.ts";

const AGENTS = 10_000;
const WARMUP_STEPS = 200;

const registry = new StrategyRegistry();
registry.register(noneStrategy);
registry.register(raycastClusterStrategy);

function corridorWorld(name: string, options: Record<string, unknown> = {}): World {
  const { world } = buildScenario(corridorScenario(AGENTS), {
    registry,
    agents: AGENTS,
    strategy: { name, options },
  });
  for (let k = 0; k < WARMUP_STEPS; k++) world.step();
  return world;
}

const cases: [string, string, Record<string, unknown>][] = [
  ["none (baseline)", "none", {}],
  ["raycast-cluster, 13 rays", "raycast-cluster", {}],
  ["raycast-cluster, 21 rays", "raycast-cluster", { rayCount: 21 }],
  ["raycast-cluster, 13 rays, checked every step", "raycast-cluster", { checkIntervalSteps: 1 }],
];

for (const [label, name, options] of cases) {
  const world = corridorWorld(name, options);
  Deno.bench({
    name: `corridor 10k agents, world.step(): ${label}`,
    group: "corridor-10k",
    baseline: name === "none",
    fn() {
      world.step();
    },
  });
}

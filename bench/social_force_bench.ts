/**
 * Social-force benchmarks. Each iteration runs one strategy phase (`computeNewVelocities` over
 * every agent) or one whole `world.step()`; divide its time by the agent count for µs per
 * agent-step. The target is ≤ 1.0 µs per agent-step at 10k agents on one thread.
 *
 * - `circle`: the built-in scenario at 1k, 10k and 100k agents after 100 warm-up steps (5 s), so
 *   the crowd walks towards the centre (sparse: about two neighbours within 1.25 m);
 * - `dense`: 10k agents standing uniformly at 2 agents/m² and walking east together (about ten
 *   neighbours within 1.25 m) — the load of a busy concourse.
 *
 * Run with `deno bench -A bench/social_force_bench.ts`.
 *
 * @module
 */
import { buildScenario } from "../scenarios/build.ts";
import { circleScenario } from "../scenarios/builtin/circle.ts";
import { StrategyRegistry } from "../core/registry.ts";
import { Rng, RngStream } from "../core/rng.ts";
import type { StepContext } from "../core/strategy.ts";
import { World } from "../core/world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { createSocialForceStrategy, socialForceStrategy } from "../strategies/social_force.ts";

const WARM_UP_STEPS = 100;
const registry = new StrategyRegistry();
registry.register(socialForceStrategy);

/** The context the world's strategy phase would see now. */
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

/** The circle scenario with `agents` agents, in motion. */
function circleWorld(agents: number): World {
  const world = buildScenario(circleScenario(agents), {
    registry,
    strategy: { name: "social-force" },
  }).world;
  for (let i = 0; i < WARM_UP_STEPS; i++) world.step();
  return world;
}

/** `agents` agents at 2 per m², walking east to goals 1 km away, after a few steps. */
function denseWorld(agents: number): World {
  const world = new World({
    strategy: createSocialForceStrategy(),
    navigator: createGoalSeeker(),
    capacity: agents,
  });
  const side = Math.sqrt(agents / 2);
  const rng = new Rng(7);
  for (let i = 0; i < agents; i++) {
    // A jittered lattice (0.707 m apart) so nobody starts in deep contact.
    const x = (i % Math.ceil(side)) * 0.707 + rng.range(-0.05, 0.05);
    const y = Math.floor(i / Math.ceil(side)) * 0.707 + rng.range(-0.05, 0.05);
    world.addAgent({ x, y, goalX: x + 1000, goalY: y, desiredSpeed: rng.range(1.1, 1.5) });
  }
  for (let i = 0; i < 20; i++) world.step();
  return world;
}

for (const agents of [1_000, 10_000, 100_000]) {
  const world = circleWorld(agents);
  const ctx = contextOf(world);
  const group = `circle ${agents / 1000}k`;
  Deno.bench({
    name: `social-force strategy phase, circle, ${agents / 1000}k agents`,
    group,
    baseline: true,
    fn() {
      world.strategy.computeNewVelocities(ctx, 0, world.agents.count);
    },
  });
  Deno.bench({
    name: `world.step(), social-force + goal seeker, circle, ${agents / 1000}k agents`,
    group,
    fn() {
      world.step();
    },
  });
}

{
  const world = denseWorld(10_000);
  const ctx = contextOf(world);
  Deno.bench({
    name: "social-force strategy phase, dense 2/m², 10k agents",
    group: "dense 10k",
    baseline: true,
    fn() {
      world.strategy.computeNewVelocities(ctx, 0, world.agents.count);
    },
  });
}

/**
 * ORCA benchmarks: one whole world step (navigation, ORCA, integration, grid rebuild) at 1k, 10k
 * and 100k agents, reported in µs per agent-step (step time / agents).
 *
 * Crowds:
 * - **circle, converged**: the circle swap at the moment the crowd meets in the middle, its
 *   hardest phase. Agents fill a disc at 1 agent/m² (sunflower spiral: even spacing, no
 *   overlaps) and walk radially, half of them inwards and half outwards, to the antipodal point
 *   of the circle they started on (the circle of the `circle` scenario for that agent count).
 *   Every agent has its 10 neighbours within 2 m and most programs have active constraints.
 * - **corridor, steady state**: a 10 m wide corridor between two walls at 1 agent/m², half the
 *   agents walking east and half west (randomly mixed), so agent and wall half-planes are both
 *   exercised; timed after 200 steps (10 s) of walking. 1k and 10k agents only: the
 *   warm-up of 100k would take minutes.
 *
 * The circle runs 20 steps before timing starts. The summary printed at the end gives the best
 * and the mean µs per agent-step over the timed steps of each case.
 *
 * Target (one thread): at most 2.0 µs per agent-step at 10k agents on the converged circle.
 *
 * Run with `deno bench -A bench/orca_bench.ts`.
 *
 * @module
 */
import { Rng } from "../core/rng.ts";
import { World } from "../core/world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { ringRadiusFor } from "../scenarios/build.ts";
import { createOrcaStrategy } from "../strategies/orca.ts";
import { buildCorridorCrowd } from "./_corridor_crowd.ts";

const DENSITY = 1; // agents per m²
const CIRCLE_WARMUP_STEPS = 20;
const CORRIDOR_WARMUP_STEPS = 200;

/** Desired speed as in the scenarios: normal 1.34 ± 0.26 m/s clamped to [0.5, 2]. */
function desiredSpeed(rng: Rng): number {
  return Math.min(2, Math.max(0.5, rng.normal(1.34, 0.26)));
}

/** The circle swap of `count` agents when the crowd meets in the middle. */
function convergedCircle(count: number): World {
  const world = new World({
    strategy: createOrcaStrategy(),
    navigator: createGoalSeeker(),
    capacity: count,
  });
  const rng = new Rng(2011);
  const disc = Math.sqrt(count / (Math.PI * DENSITY));
  const ring = ringRadiusFor(count, 0.25);
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < count; i++) {
    const r = disc * Math.sqrt((i + 0.5) / count), a = i * golden;
    const x = r * Math.cos(a), y = r * Math.sin(a);
    const outwards = rng.chance(0.5) ? 1 : -1;
    world.addAgent({
      x,
      y,
      goalX: outwards * ring * Math.cos(a),
      goalY: outwards * ring * Math.sin(a),
      desiredSpeed: desiredSpeed(rng),
    });
  }
  return world;
}

/** A 10 m wide corridor holding `count` agents walking both ways. */
function steadyCorridor(count: number): World {
  return buildCorridorCrowd({ World, Rng, createGoalSeeker }, createOrcaStrategy(), count);
}

interface Case {
  crowd: string;
  agents: number;
  world: World;
  timings: number[];
}

const cases: Case[] = [];
const SIZES = [1_000, 10_000, 100_000];

const CROWDS = [
  { crowd: "circle, converged", make: convergedCircle, sizes: SIZES, warmup: CIRCLE_WARMUP_STEPS },
  {
    crowd: "corridor, steady state",
    make: steadyCorridor,
    sizes: SIZES.slice(0, 2),
    warmup: CORRIDOR_WARMUP_STEPS,
  },
];

for (const { crowd, make, sizes, warmup } of CROWDS) {
  for (const agents of sizes) {
    const c: Case = { crowd, agents, world: make(agents), timings: [] };
    for (let s = 0; s < warmup; s++) c.world.step();
    cases.push(c);
    Deno.bench({
      name: `orca step, ${crowd}, ${agents / 1000}k agents`,
      group: `${crowd}`,
      n: agents >= 100_000 ? 10 : agents >= 10_000 ? 40 : 200,
      warmup: 3,
      fn() {
        const t0 = performance.now();
        c.world.step();
        c.timings.push(performance.now() - t0);
      },
    });
  }
}

globalThis.addEventListener("unload", () => {
  const lines = [
    "",
    "µs per agent-step (whole world step / agents; best and mean of the timed steps)",
    "",
  ];
  lines.push("| crowd | agents | best | mean |", "| --- | ---: | ---: | ---: |");
  for (const c of cases) {
    if (c.timings.length === 0) continue;
    const per = c.timings.map((ms) => (ms * 1000) / c.agents);
    const best = Math.min(...per), mean = per.reduce((a, b) => a + b, 0) / per.length;
    lines.push(`| ${c.crowd} | ${c.agents} | ${best.toFixed(2)} | ${mean.toFixed(2)} |`);
  }
  console.log(lines.join("\n"));
});

/**
 * The whole `city-grid` step: 10,000 pedestrians walking from building to building with the
 * `city-blocks` navigator and 2,000 cars with traffic lights on the default 6 × 6 procedural
 * city, with the `repulsion` and the `orca` strategies.
 *
 * Each world is built when its strategy's turn comes (the one before is let go, so the timed
 * steps share the heap with no other world), then stepped `WARMUP_STEPS` times before timing
 * (everyone has planned a route, queues have formed at the lights). The summary printed at the
 * end gives the CPU time of the timed steps (this process's user + system time, which other
 * processes on a busy machine distort far less than the wall clock of the table) split by
 * phase, also in CPU time: navigation, cars (traffic: car following, braking for pedestrians),
 * the lights alone (their wall clock: a few microseconds), avoidance (the strategy), the metrics
 * observing the step, and the rest (integration, arrivals, indexing).
 *
 * Targets (one thread): under 15 ms per step with `repulsion`, under 35 ms with `orca`.
 *
 * Run with `deno bench -A bench/city_grid_bench.ts` (setup takes a minute: block graphs, the
 * first routes of 10,000 pedestrians); `CITY_BENCH_WARMUP`, `CITY_BENCH_STEPS` (60 timed steps
 * per strategy), `CITY_BENCH_AGENTS` and `CITY_BENCH_CARS` change the defaults.
 *
 * @module
 */
import { timeCpu } from "./_cpu_time.ts";
import { buildCityTraffic, type CityTrafficRun } from "../scenarios/city_traffic.ts";

const WARMUP_STEPS = Number(Deno.env.get("CITY_BENCH_WARMUP") ?? 100);
const AGENTS = Number(Deno.env.get("CITY_BENCH_AGENTS") ?? 10_000);
const CARS = Number(Deno.env.get("CITY_BENCH_CARS") ?? 2_000);
/** Timed steps per strategy (the bench runner would take only as many as fit its time budget). */
const STEPS = Number(Deno.env.get("CITY_BENCH_STEPS") ?? 60);

/** Phases timed in CPU time. */
const PHASES = ["step", "navigation", "traffic", "avoidance", "metrics"] as const;
type Phase = typeof PHASES[number];

interface Case {
  strategy: string;
  /** Built on its first timed call, let go when the next case starts (one world at a time). */
  run: CityTrafficRun | null;
  steps: number;
  cpu: Record<Phase, number>;
  lightsBefore: number;
  lightsMs: number;
}

/** Builds and warms up the world of `c`, and wraps its phases in CPU timers. */
function build(c: Case): CityTrafficRun {
  const run = buildCityTraffic("city-grid", {
    agents: AGENTS,
    cars: CARS,
    strategy: c.strategy,
    seed: 1,
  });
  for (let k = 0; k < WARMUP_STEPS; k++) run.world.step();
  const world = run.world, cpu = c.cpu;
  timeCpu(world, "step", cpu, "step");
  timeCpu(world.navigator!, "updatePreferredVelocities", cpu, "navigation");
  timeCpu(world.traffic!, "step", cpu, "traffic");
  timeCpu(world.strategy, "computeNewVelocities", cpu, "avoidance");
  timeCpu(run.metrics, "afterStep", cpu, "metrics");
  c.lightsBefore = run.cars.phaseMs.lights;
  return run;
}

/** Lets go of the world of `c`, keeping its figures. */
function release(c: Case): void {
  if (c.run === null) return;
  c.lightsMs = c.run.cars.phaseMs.lights - c.lightsBefore;
  c.run = null;
}

const cases: Case[] = ["repulsion", "orca"].map((strategy) => ({
  strategy,
  run: null,
  steps: 0,
  cpu: { step: 0, navigation: 0, traffic: 0, avoidance: 0, metrics: 0 },
  lightsBefore: 0,
  lightsMs: 0,
}));

for (const c of cases) {
  Deno.bench({
    name: `city-grid step, ${AGENTS} pedestrians, ${CARS} cars, ${c.strategy}`,
    group: "city-grid",
    n: STEPS,
    warmup: 0,
    fn(b) {
      // Each world is built when its first step is timed, and the one before it let go then:
      // the timed steps share the heap with no other world.
      if (c.run === null) {
        for (const other of cases) release(other);
        c.run = build(c);
      }
      b.start();
      c.run.world.step();
      b.end();
      c.steps++;
    },
  });
}

globalThis.addEventListener("unload", () => {
  for (const c of cases) {
    if (c.steps === 0) continue;
    const name = c.strategy;
    const per = (ms: number) => (ms / c.steps).toFixed(2);
    // The lights' wall clock (ms per step), from the run itself while it is still held.
    const lights = (c.run ? c.run.cars.phaseMs.lights - c.lightsBefore : c.lightsMs) / c.steps;
    const p = c.cpu;
    const rest = p.step - p.navigation - p.traffic - p.avoidance - p.metrics;
    console.log(
      `city-grid ${name}: ${per(p.step)} ms CPU per step = navigation ${per(p.navigation)} + ` +
        `cars ${(p.traffic / c.steps - lights).toFixed(2)} + lights ${lights.toFixed(2)} + ` +
        `avoidance ${per(p.avoidance)} + metrics ${per(p.metrics)} + ` +
        `integration/indexing ${per(rest)} (${c.steps} steps)`,
    );
  }
});

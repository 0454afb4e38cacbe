/**
 * The whole `city-grid` step: 10,000 pedestrians walking from building to building with the
 * `city-blocks` navigator and 2,000 cars with traffic lights on the default 6 × 6 procedural
 * city, with the `repulsion` and the `orca` strategies.
 *
 * Each world is built, then stepped `WARMUP_STEPS` times before timing (everyone has planned a
 * route, queues have formed at the lights). The summary printed at the end gives the CPU time
 * of the timed steps (this process's user + system time, which other processes on a busy
 * machine distort far less than the wall clock of the table) split by phase, also in CPU time:
 * navigation, cars (traffic: car following, braking for pedestrians), the lights alone (their
 * wall clock: a few microseconds), avoidance (the strategy), the metrics observing the step, and
 * the rest (integration, arrivals, indexing).
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
  run: CityTrafficRun;
  steps: number;
  cpu: Record<Phase, number>;
  lightsBefore: number;
}

function makeCase(strategy: string): Case {
  const run = buildCityTraffic("city-grid", { agents: AGENTS, cars: CARS, strategy, seed: 1 });
  for (let k = 0; k < WARMUP_STEPS; k++) run.world.step();
  const cpu = { step: 0, navigation: 0, traffic: 0, avoidance: 0, metrics: 0 };
  const world = run.world;
  timeCpu(world, "step", cpu, "step");
  timeCpu(world.navigator!, "updatePreferredVelocities", cpu, "navigation");
  timeCpu(world.traffic!, "step", cpu, "traffic");
  timeCpu(world.strategy, "computeNewVelocities", cpu, "avoidance");
  timeCpu(run.metrics, "afterStep", cpu, "metrics");
  return { run, steps: 0, cpu, lightsBefore: run.cars.phaseMs.lights };
}

const cases: Record<string, Case> = {
  repulsion: makeCase("repulsion"),
  orca: makeCase("orca"),
};

for (const [name, c] of Object.entries(cases)) {
  Deno.bench({
    name: `city-grid step, ${AGENTS} pedestrians, ${CARS} cars, ${name}`,
    group: "city-grid",
    n: STEPS,
    warmup: 0,
    fn() {
      c.run.world.step();
      c.steps++;
    },
  });
}

globalThis.addEventListener("unload", () => {
  for (const [name, c] of Object.entries(cases)) {
    if (c.steps === 0) continue;
    const per = (ms: number) => (ms / c.steps).toFixed(2);
    const lights = (c.run.cars.phaseMs.lights - c.lightsBefore) / c.steps;
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

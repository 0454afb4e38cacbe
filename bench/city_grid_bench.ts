/**
 * The whole `city-grid` step: 10,000 pedestrians walking from building to building with the
 * `city-blocks` navigator and 2,000 cars with traffic lights on the default 6 × 6 procedural
 * city, with the `repulsion` and the `orca` strategies.
 *
 * Each world is built, then stepped `WARMUP_STEPS` times before timing (everyone has planned a
 * route, queues have formed at the lights). The summary printed at the end splits the timed
 * steps by phase: navigation, cars (traffic: lights, car following, braking for pedestrians),
 * the lights alone, and avoidance (the strategy).
 *
 * Targets (one thread): under 15 ms per step with `repulsion`, under 35 ms with `orca`.
 *
 * Run with `deno bench -A bench/city_grid_bench.ts` (setup takes a minute: block graphs, the
 * first routes of 10,000 pedestrians).
 *
 * @module
 */
import { buildCityTraffic, type CityTrafficRun } from "../scenarios/city_traffic.ts";

const WARMUP_STEPS = Number(Deno.env.get("CITY_BENCH_WARMUP") ?? 100);
const AGENTS = Number(Deno.env.get("CITY_BENCH_AGENTS") ?? 10_000);
const CARS = Number(Deno.env.get("CITY_BENCH_CARS") ?? 2_000);

interface Case {
  run: CityTrafficRun;
  steps: number;
  world: Record<string, number>;
  cars: Record<string, number>;
}

function makeCase(strategy: string): Case {
  const run = buildCityTraffic("city-grid", { agents: AGENTS, cars: CARS, strategy, seed: 1 });
  for (let k = 0; k < WARMUP_STEPS; k++) run.world.step();
  return {
    run,
    steps: 0,
    world: { ...run.world.phaseMs },
    cars: { ...run.cars.phaseMs },
  };
}

const cases: Record<string, Case> = {
  repulsion: makeCase("repulsion"),
  orca: makeCase("orca"),
};

for (const [name, c] of Object.entries(cases)) {
  Deno.bench({
    name: `city-grid step, ${AGENTS} pedestrians, ${CARS} cars, ${name}`,
    group: "city-grid",
    fn() {
      c.run.world.step();
      c.steps++;
    },
  });
}

globalThis.addEventListener("unload", () => {
  for (const [name, c] of Object.entries(cases)) {
    if (c.steps === 0) continue;
    const w = c.run.world.phaseMs, cars = c.run.cars.phaseMs;
    const per = (now: number, before: number) => (now - before) / c.steps;
    const navigation = per(w.navigation, c.world.navigation);
    const traffic = per(w.traffic, c.world.traffic);
    const lights = per(cars.lights, c.cars.lights);
    const avoidance = per(w.strategy, c.world.strategy);
    const rest = per(
      w.integration + w.bookkeeping + w.indexing,
      c.world.integration + c.world.bookkeeping + c.world.indexing,
    );
    const total = navigation + traffic + avoidance + rest;
    console.log(
      `city-grid ${name}: ${total.toFixed(2)} ms/step = navigation ${
        navigation.toFixed(2)
      } + cars ${(traffic - lights).toFixed(2)} + lights ${lights.toFixed(2)} + avoidance ${
        avoidance.toFixed(2)
      } + integration/indexing ${rest.toFixed(2)} (${c.steps} steps)`,
    );
  }
});

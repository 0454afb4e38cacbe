/**
 * Street walkers' navigation phase: 10,000 walkers of each street navigator (affordance,
 * attractors, trips, random-walk, shortest-path) on the Sydney CBD extract of the shared data folder beside the
 * checkout (`../shared/data/cities/sydney-cbd/osm/sydneycbd_2023.osm.pbf`; a synthetic 2 km city
 * centre without it), placed by viewshed area, under the `none` strategy. Target: the navigation
 * phase under 2 ms per step on one core for the affordance and attractor walkers.
 *
 * Before the benchmarks it runs 400 steps per navigator after a 200-step warm-up and prints the
 * navigation phase's fastest and median step and its CPU time per step: on a machine shared with
 * other work, the fastest step and CPU time say more than the mean.
 *
 * Run with `deno bench --allow-read bench/affordance_bench.ts`.
 *
 * @module
 */
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Rng } from "../core/rng.ts";
import { World } from "../core/world.ts";
import type { CityModel } from "../geo/city_model.ts";
import { loadCity } from "../geo/load_city.ts";
import { syntheticCity } from "../navigation/_synthetic_city.ts";
import { StreetGuidance } from "../navigation/street_guidance.ts";
import { createStreetWalker } from "../navigation/street_navigators.ts";
import { streetPlacement } from "../navigation/street_placement.ts";
import type { StreetChoiceRule } from "../navigation/street_walker.ts";
import { createNoneStrategy } from "../strategies/none.ts";

const WALKERS = 10_000;
const SYDNEY = fileURLToPath(
  new URL("../../shared/data/cities/sydney-cbd/osm/sydneycbd_2023.osm.pbf", import.meta.url),
);

async function benchCity(): Promise<CityModel> {
  try {
    return await loadCity(SYDNEY);
  } catch {
    console.log(`no ${SYDNEY}: a synthetic 2 km city centre instead`);
    return syntheticCity({ sizeM: 2000, spacingM: 80, seed: 1 });
  }
}

const city = await benchCity();
const guidance = StreetGuidance.fromCity(city);

function walkers(rule: StreetChoiceRule): World {
  const navigator = createStreetWalker(rule, {}, { city, streetGuidance: guidance });
  const world = new World({ strategy: createNoneStrategy(), navigator });
  const points = streetPlacement(guidance, WALKERS, { mode: "viewshed", rng: new Rng(1) });
  for (let k = 0; k < WALKERS; k++) world.addAgent({ x: points[2 * k], y: points[2 * k + 1] });
  for (let s = 0; s < 200; s++) world.step();
  return world;
}

for (
  const rule of ["affordance", "attractors", "trips", "random-walk", "shortest-path"] as const
) {
  const world = walkers(rule);
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  let navigation = 0;
  for (let s = 0; s < 400; s++) {
    const before = world.phaseMs.navigation;
    world.step();
    times.push(world.phaseMs.navigation - before);
    navigation += world.phaseMs.navigation - before;
  }
  const cpu = process.cpuUsage(cpu0), wall = world.phaseMs;
  times.sort((a, b) => a - b);
  const stepCpu = (cpu.user + cpu.system) / 1000 / 400;
  console.log(
    `${city.name}, ${WALKERS} ${rule} walkers: navigation phase fastest ${
      times[0].toFixed(2)
    } ms, median ${times[200].toFixed(2)} ms, mean ${(navigation / 400).toFixed(2)} ms per step; ` +
      `whole step ${stepCpu.toFixed(2)} ms CPU (${
        (wall.strategy / (wall.navigation || 1)).toFixed(2)
      }× strategy/navigation)`,
  );
  Deno.bench({
    name: `${WALKERS} ${rule} walkers: one step with none (navigation, integration, indexing)`,
    group: city.name,
    fn: () => world.step(),
  });
}

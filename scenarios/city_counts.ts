/**
 * Counting runs on a city: street walkers of one navigator walk the city for a warm-up and then a
 * counting period, while junction and street counts ({@linkcode StreetCounts}) and gate counts
 * ({@linkcode GateCounts}) are taken. Used by `deno task validate-counts` and
 * `deno task compare --navigators`.
 *
 * Walkers are added directly (no spawner checks), placed by {@linkcode streetPlacement}; the
 * avoidance strategy is `none` unless another is named, so that a run of 10,000 walkers over a
 * city centre takes seconds per simulated minute.
 *
 * @module
 */
import { Rng, RngStream } from "../core/rng.ts";
import { World } from "../core/world.ts";
import type { CountGate } from "../metrics/count_gates.ts";
import { GateCounts } from "../metrics/count_gates.ts";
import { StreetCounts } from "../metrics/street_counts.ts";
import { navigators } from "../navigation/mod.ts";
import type { StreetGuidance } from "../navigation/street_guidance.ts";
import { type StreetPlacement, streetPlacement } from "../navigation/street_placement.ts";
import { strategies } from "../strategies/mod.ts";

/** Options of {@linkcode runCityCounts}. */
export interface CityCountsOptions {
  /** The city and its street guidance. */
  guidance: StreetGuidance;
  /** Street-walking navigator name. */
  navigator: string;
  /** Walkers. */
  agents: number;
  /** Steps before counting starts. */
  warmupSteps: number;
  /** Steps counted. */
  countSteps: number;
  /** Where walkers start. @default "uniform" */
  placement?: StreetPlacement;
  /** Seed. @default 1 */
  seed?: number;
  /** Options of the navigator (validated against its descriptors). @default {} */
  navigatorOptions?: Record<string, unknown>;
  /** Avoidance strategy. @default "none" */
  strategy?: string;
  /** Gates to count at. @default none */
  gates?: readonly CountGate[];
  /** Called with steps done and steps planned. */
  onProgress?: (done: number, total: number) => void;
}

/** The counts of a run. */
export interface CityCounts {
  /** Junction and street counts. */
  streets: StreetCounts;
  /** Gate counts. */
  gates: GateCounts;
  /** The world after the run. */
  world: World;
  /** Fastest navigation phase of a counted step (ms). */
  minNavigationMs: number;
  /**
   * The navigator's one-line notice on what it found in the city (attractor and trip walkers:
   * points of interest, or that there are none and visibility alone guides them), or null.
   */
  notice: string | null;
}

/**
 * Runs street walkers on a city and counts them (see the module doc).
 *
 * @example Random walkers on a small generated city
 * ```ts
 * import { runCityCounts } from "./city_counts.ts";
 * import { StreetGuidance } from "../navigation/street_guidance.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const guidance = StreetGuidance.fromCity(generateProceduralCity({ blocksX: 2, blocksY: 2 }));
 * const run = await runCityCounts({ guidance, navigator: "random-walk", agents: 100, warmupSteps: 100, countSteps: 400 });
 * assert(run.streets.total > 0);
 * ```
 */
export async function runCityCounts(options: CityCountsOptions): Promise<CityCounts> {
  const { guidance, agents, warmupSteps, countSteps } = options;
  const seed = options.seed ?? 1;
  const navigator = navigators.create(options.navigator, options.navigatorOptions ?? {}, {
    city: guidance.city,
    streetGuidance: guidance,
  });
  const world = new World({
    strategy: strategies.create(options.strategy ?? "none"),
    navigator,
    seed,
  });
  const points = streetPlacement(guidance, agents, {
    mode: options.placement ?? "uniform",
    rng: new Rng(seed, RngStream.user),
  });
  for (let k = 0; k < points.length; k += 2) world.addAgent({ x: points[k], y: points[k + 1] });
  const streets = new StreetCounts(guidance.city, { fromStep: warmupSteps });
  const gates = new GateCounts(options.gates ?? [], { fromStep: warmupSteps });
  world.addObserver(streets);
  world.addObserver(gates);
  const total = warmupSteps + countSteps;
  let minNavigationMs = Infinity;
  for (let s = 0; s < total; s++) {
    const before = world.phaseMs.navigation;
    world.step();
    if (s >= warmupSteps) {
      minNavigationMs = Math.min(minNavigationMs, world.phaseMs.navigation - before);
    }
    if (s % 200 === 199) {
      options.onProgress?.(s + 1, total);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  options.onProgress?.(total, total);
  const notice = (navigator as { notice?: string | null }).notice ?? null;
  return { streets, gates, world, minNavigationMs, notice };
}

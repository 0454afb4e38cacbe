/**
 * Running one scenario with several strategies and seeds — the product's central comparison.
 *
 * @module
 */
import type { StrategyRegistry } from "../core/registry.ts";
import type { RunMetrics } from "../metrics/run_metrics.ts";
import type { WorldObserver } from "../core/world.ts";
import { type RunSummary, summarizeRuns } from "../metrics/summary.ts";
import { buildScenario } from "./build.ts";
import { resolveScenario } from "./resolve.ts";
import { runScenario } from "./run.ts";

/** Options of {@linkcode compareStrategies}. */
export interface CompareOptions {
  /** Built-in scenario name or JSON file path. */
  scenario: string;
  /** Folder a relative scenario path is taken from. @default the current folder */
  folder?: string;
  /** Strategy names, in the order of the results. */
  strategies: string[];
  /**
   * Navigator names to compare instead of strategies: each runs with the first of `strategies`,
   * and results are labelled by navigator. @default the scenario's navigator, strategies compared
   */
  navigators?: string[];
  /** Seeds; every strategy runs once per seed. */
  seeds: number[];
  /** Total agent count (scales the scenario). */
  agents?: number;
  /** Steps per run instead of the scenario's duration / dt. */
  steps?: number;
  /** Where strategy names are looked up. */
  registry: StrategyRegistry;
  /** Called with steps done and steps planned over all runs. */
  onProgress?: (done: number, total: number) => void;
  /** Checked between steps; true stops the comparison (partial results are returned). */
  shouldStop?: () => boolean;
  /** Extra observers for one run (e.g. a trajectory sampler for the first seed). */
  observers?: (strategy: string, seed: number) => WorldObserver[];
}

/** One run of a comparison. */
export interface CompareRun {
  /** Strategy name (the navigator's when navigators are compared). */
  strategy: string;
  /** Seed. */
  seed: number;
  /** The run's metrics. */
  metrics: RunMetrics;
}

/** Results of a comparison. */
export interface CompareReport {
  /** Scenario name. */
  scenario: string;
  /** Agents per run (as spawned by the scenario's spawners). */
  agents: number;
  /** Seeds used. */
  seeds: number[];
  /** Planned steps per run. */
  steps: number;
  /** Time step (s). */
  dt: number;
  /** Per strategy: mean and sample standard deviation of every metric over seeds. */
  results: { strategy: string; summary: RunSummary }[];
  /** Every run. */
  runs: CompareRun[];
  /** True when `shouldStop` cut the comparison short. */
  interrupted: boolean;
  /** Repairs and doubts of the scenario's build (see `BuiltScenario.warnings`), each once. */
  warnings: string[];
}

/**
 * Runs every strategy on the same scenario with the same seeds and summarizes the metrics.
 *
 * @example
 * ```ts
 * import { compareStrategies } from "./compare.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const report = await compareStrategies({
 *   scenario: "bottleneck", strategies: ["none"], seeds: [1, 2], agents: 10, registry: strategies,
 * });
 * assert.equal(report.results[0].summary.arrivedFraction.mean, 1);
 * ```
 */
export async function compareStrategies(options: CompareOptions): Promise<CompareReport> {
  const { spec, source, resources } = await resolveScenario(options.scenario, {
    agents: options.agents,
    folder: options.folder,
  });
  const agents = spec.spawners.reduce((sum, s) => sum + s.count, 0);
  // What is compared: strategies, or navigators under the first strategy.
  const labels = options.navigators ?? options.strategies;
  const choice = (label: string) =>
    options.navigators
      ? { strategy: { name: options.strategies[0] }, navigator: { name: label } }
      : { strategy: { name: label } };
  // Build once up front so that a bad strategy name or option fails before any run starts.
  const planned = labels.map((label) =>
    buildScenario(spec, {
      registry: options.registry,
      ...choice(label),
      agents: options.agents,
      steps: options.steps,
      source,
      resources,
    })
  );
  const warnings = [...new Set(planned.flatMap((built) => built.warnings))];
  const steps = planned[0]?.steps ?? 0;
  const dt = planned[0]?.world.dt ?? spec.dt ?? 0.05;
  const total = steps * labels.length * options.seeds.length;
  const runs: CompareRun[] = [];
  let offset = 0, interrupted = false;
  outer: for (const name of labels) {
    for (const seed of options.seeds) {
      const built = buildScenario(spec, {
        registry: options.registry,
        ...choice(name),
        seed,
        steps: options.steps,
        source,
        resources,
      });
      const outcome = await runScenario(built, {
        observers: options.observers?.(name, seed),
        onProgress: (done) => options.onProgress?.(offset + done, total),
        shouldStop: options.shouldStop,
      });
      offset += steps;
      runs.push({ strategy: name, seed, metrics: outcome.metrics });
      if (outcome.interrupted) {
        interrupted = true;
        break outer;
      }
    }
  }
  const results = labels
    .map((strategy) => ({ strategy, runs: runs.filter((r) => r.strategy === strategy) }))
    .filter((r) => r.runs.length > 0)
    .map(({ strategy, runs }) => ({
      strategy,
      summary: summarizeRuns(runs.map((r) => r.metrics)),
    }));
  return {
    scenario: spec.name,
    agents,
    seeds: options.seeds,
    steps,
    dt,
    results,
    runs,
    interrupted,
    warnings,
  };
}

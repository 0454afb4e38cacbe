/**
 * The validation suite: every test, run for each strategy and seed, judged per strategy.
 *
 * @module
 */
import type { StrategyRegistry } from "../core/registry.ts";
import { bottleneckTest } from "./bottleneck_flow.ts";
import { counterFlowTest } from "./counter_flow.ts";
import { DataFileError } from "./data_files.ts";
import { fundamentalDiagramTest } from "./fundamental_diagram.ts";
import { rimeaTests } from "./rimea_tests.ts";
import { trajectoryPredictionTest } from "./trajectory_prediction.ts";
import {
  notRunVerdict,
  type Picture,
  type StrategyMeasurements,
  type ValidationTest,
  type Verdict,
} from "./validation_test_spec.ts";

/** Every test of the suite, in report order. */
export function validationTests(): ValidationTest[] {
  return [
    ...rimeaTests(),
    fundamentalDiagramTest("unidirectional"),
    fundamentalDiagramTest("bidirectional"),
    bottleneckTest("channel"),
    bottleneckTest("door"),
    counterFlowTest(),
    trajectoryPredictionTest(),
  ];
}

/** Options of {@linkcode runSuite}. */
export interface SuiteOptions {
  /** Strategy names. */
  strategies: readonly string[];
  /** Seeds, each run for every test and strategy. */
  seeds: readonly number[];
  /** The quick variant of every test. @default false */
  quick?: boolean;
  /** Registry the strategies are found in. */
  registry: StrategyRegistry;
  /** Tests to run. @default validationTests() */
  tests?: readonly ValidationTest[];
  /** Called before each measurement with the work done and the total (in cost units). */
  onProgress?: (done: number, total: number, label: string) => void;
}

/** One row of the results: a test's verdict on a strategy. */
export interface SuiteRow {
  /** Test id. */
  test: string;
  /** Strategy name. */
  strategy: string;
  /** The verdict. */
  verdict: Verdict;
}

/** What a suite run produced. */
export interface SuiteResult {
  /** The tests, in order. */
  tests: readonly ValidationTest[];
  /** Strategies, in order. */
  strategies: readonly string[];
  /** Seeds. */
  seeds: readonly number[];
  /** Quick variant. */
  quick: boolean;
  /** One row per test and strategy. */
  rows: SuiteRow[];
  /** Pictures of every test. */
  pictures: Picture[];
}

/**
 * Runs every test for every strategy and seed. Deterministic: the same options give the same
 * rows and pictures.
 *
 * @example One quick RiMEA test
 * ```ts
 * import { runSuite, validationTests } from "./suite.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const tests = validationTests().filter((t) => t.id === "rimea-1");
 * const r = runSuite({ strategies: ["none"], seeds: [1], registry: strategies, tests, quick: true });
 * assert.equal(r.rows[0].verdict.status, "pass");
 * ```
 */
export function runSuite(options: SuiteOptions): SuiteResult {
  const tests = options.tests ?? validationTests();
  const quick = options.quick ?? false;
  const total = tests.reduce(
    (n, t) =>
      n +
      (t.needs || t.sameAs
        ? 0
        : (t.cost?.(quick) ?? 1) * options.strategies.length * options.seeds.length),
    0,
  );
  let done = 0;
  const rows: SuiteRow[] = [];
  const pictures: Picture[] = [];
  for (const test of tests) {
    if (test.needs || test.sameAs) continue;
    const results: StrategyMeasurements<unknown>[] = [];
    const cost = (test.cost?.(quick) ?? 1) * options.strategies.length * options.seeds.length;
    const start = done;
    try {
      for (const strategy of options.strategies) {
        const runs: unknown[] = [];
        for (const seed of options.seeds) {
          options.onProgress?.(done, total, `${test.id} ${strategy} seed ${seed}`);
          runs.push(test.measure({ strategy, seed, quick, registry: options.registry }));
          done += test.cost?.(quick) ?? 1;
        }
        results.push({ strategy, runs });
        rows.push({ test: test.id, strategy, verdict: test.judge(runs, quick) });
      }
      pictures.push(...(test.pictures?.(results, quick) ?? []));
    } catch (error) {
      // A measured file the test needs is missing or unreadable: the test is not run.
      if (!(error instanceof DataFileError)) throw error;
      for (let k = rows.length - 1; k >= 0 && rows[k].test === test.id; k--) rows.pop();
      for (const strategy of options.strategies) {
        rows.push({
          test: test.id,
          strategy,
          verdict: notRunVerdict(`cannot read the measured data: ${error.message}`),
        });
      }
      done = start + cost;
    }
  }
  // Tests not run, and tests that share another's verdict.
  const ordered: SuiteRow[] = [];
  for (const test of tests) {
    for (const strategy of options.strategies) {
      if (test.needs) ordered.push({ test: test.id, strategy, verdict: notRunVerdict(test.needs) });
      else if (test.sameAs) {
        const same = rows.find((r) => r.test === test.sameAs && r.strategy === strategy);
        ordered.push({
          test: test.id,
          strategy,
          verdict: same ? same.verdict : notRunVerdict(`${test.sameAs} was not run`),
        });
      } else ordered.push(rows.find((r) => r.test === test.id && r.strategy === strategy)!);
    }
  }
  options.onProgress?.(total, total, "done");
  return {
    tests,
    strategies: options.strategies,
    seeds: options.seeds,
    quick,
    rows: ordered,
    pictures,
  };
}

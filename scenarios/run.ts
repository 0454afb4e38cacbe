/**
 * Running a built scenario to the end with metrics, progress reports and a way to stop early.
 *
 * @module
 */
import type { WorldObserver } from "../core/world.ts";
import { MetricsCollector } from "../metrics/collector.ts";
import type { RunMetrics } from "../metrics/run_metrics.ts";
import type { BuiltScenario } from "./build.ts";

/** Options of {@linkcode runScenario}. */
export interface RunScenarioOptions {
  /** More observers, e.g. a trajectory recorder. */
  observers?: WorldObserver[];
  /** Called about every `reportEveryMs` with steps done and steps planned. */
  onProgress?: (done: number, total: number) => void;
  /** Checked between steps; returning true ends the run early (e.g. after Ctrl-C). */
  shouldStop?: () => boolean;
  /**
   * How often (ms of wall clock) to report progress and let the event loop run (signals,
   * timers). @default 100
   */
  reportEveryMs?: number;
}

/** How a run ended. */
export interface RunOutcome {
  /** Metrics of the run. */
  metrics: RunMetrics;
  /** Steps run. */
  steps: number;
  /** Everyone arrived before the planned number of steps. */
  finished: boolean;
  /** `shouldStop` ended the run. */
  interrupted: boolean;
}

/**
 * Steps `built.world` until its planned steps are done, everyone has arrived, or `shouldStop`
 * says so. Yields to the event loop about every 100 ms so signals and progress output work.
 *
 * @example
 * ```ts
 * import { buildScenario } from "./build.ts";
 * import { runScenario } from "./run.ts";
 * import { BUILTIN_SCENARIOS } from "./builtin/mod.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const built = buildScenario(BUILTIN_SCENARIOS.bottleneck.create(10), { registry: strategies });
 * const outcome = await runScenario(built);
 * assert.equal(outcome.metrics.arrivedFraction, 1);
 * ```
 */
export async function runScenario(
  built: BuiltScenario,
  options: RunScenarioOptions = {},
): Promise<RunOutcome> {
  const { world, steps } = built;
  const collector = new MetricsCollector({ throughputLine: built.throughputLine });
  world.addObserver(collector);
  for (const observer of options.observers ?? []) world.addObserver(observer);
  const every = options.reportEveryMs ?? 100;
  let last = performance.now();
  let done = 0, interrupted = false;
  options.onProgress?.(0, steps);
  while (done < steps && !world.finished) {
    world.step();
    done++;
    const now = performance.now();
    if (now - last >= every) {
      last = now;
      options.onProgress?.(done, steps);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    if (options.shouldStop?.()) {
      interrupted = true;
      break;
    }
  }
  options.onProgress?.(done, steps);
  return { metrics: collector.result(), steps: done, finished: world.finished, interrupted };
}

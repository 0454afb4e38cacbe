/**
 * Aggregation of several runs (one per seed) into a mean and a sample standard deviation per
 * metric.
 *
 * @module
 */
import { METRIC_NAMES, type MetricName, type RunMetrics } from "./run_metrics.ts";

/** Mean and spread of one metric over runs. */
export interface MetricSummary {
  /** Mean over the runs where the metric is defined; null when it is defined in none. */
  readonly mean: number | null;
  /** Sample standard deviation (n − 1 in the denominator); null when defined in fewer than 2 runs. */
  readonly sd: number | null;
  /** Number of runs where the metric is defined (not null). */
  readonly count: number;
}

/** A {@linkcode MetricSummary} for every metric. */
export type RunSummary = Readonly<Record<MetricName, MetricSummary>>;

/**
 * Summarises runs metric by metric. Null values (a metric undefined in that run) are skipped, so
 * a metric that is null in every run stays null. Throws a RangeError naming the run and metric
 * when a value is neither a finite number nor null.
 *
 * @example Three seeds
 * ```ts
 * import { summarizeRuns } from "./summary.ts";
 * import type { RunMetrics } from "./run_metrics.ts";
 * import assert from "node:assert/strict";
 * const run = (collisions: number, minDistance: number | null) =>
 *   ({ collisions, minDistance } as unknown as RunMetrics);
 * const summary = summarizeRuns([run(2, 0.5), run(4, null), run(6, 0.7)]);
 * assert.equal(summary.collisions.mean, 4);
 * assert.equal(summary.collisions.sd, 2);
 * assert.equal(summary.minDistance.count, 2);
 * ```
 */
export function summarizeRuns(runs: readonly RunMetrics[]): RunSummary {
  if (!Array.isArray(runs)) {
    throw new TypeError(
      `Cannot summarise runs as 'runs' must be an array: current value is ${runs}`,
    );
  }
  const summary = {} as Record<MetricName, MetricSummary>;
  for (const name of METRIC_NAMES) {
    let count = 0, sum = 0;
    for (let r = 0; r < runs.length; r++) {
      const value = runs[r][name] ?? null;
      if (value === null) continue;
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new RangeError(
          `Cannot summarise runs as '${name}' of run ${r} must be a finite number or null: current value is ${value}`,
        );
      }
      count++;
      sum += value;
    }
    const mean = count > 0 ? sum / count : null;
    let sd: number | null = null;
    if (mean !== null && count >= 2) {
      let squares = 0;
      for (const run of runs) {
        const value = run[name] ?? null;
        if (value !== null) squares += (value - mean) ** 2;
      }
      sd = Math.sqrt(squares / (count - 1));
    }
    summary[name] = { mean, sd, count };
  }
  return summary;
}

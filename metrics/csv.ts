/**
 * CSV output of runs: a header, then one row per run with its strategy, seed and every metric in
 * {@linkcode METRIC_NAMES} order. Used by `compare --csv`.
 *
 * @module
 */
import { METRIC_NAMES, type RunMetrics } from "./run_metrics.ts";

/** One run with what identifies it. */
export interface LabelledRun {
  /** Strategy name. */
  readonly strategy: string;
  /** World seed. */
  readonly seed: number;
  /** The run's metrics. */
  readonly metrics: RunMetrics;
}

/**
 * The header row: `strategy,seed,` then every metric name.
 *
 * @example
 * ```ts
 * import { formatCsvHeader } from "./csv.ts";
 * import assert from "node:assert/strict";
 * assert.ok(formatCsvHeader().startsWith("strategy,seed,collisions,maxPenetration,"));
 * ```
 */
export function formatCsvHeader(): string {
  return ["strategy", "seed", ...METRIC_NAMES].join(",");
}

/**
 * One data row. Numbers keep full precision, null metrics are empty fields, and a strategy name
 * with a comma, quote or line break is quoted (RFC 4180).
 *
 * @example
 * ```ts
 * import { formatCsvRow } from "./csv.ts";
 * import type { RunMetrics } from "./run_metrics.ts";
 * import assert from "node:assert/strict";
 * const metrics = { collisions: 3, maxPenetration: 0.25, minDistance: null } as unknown as RunMetrics;
 * assert.ok(formatCsvRow({ strategy: "orca", seed: 7, metrics }).startsWith("orca,7,3,0.25,,"));
 * ```
 */
export function formatCsvRow(run: LabelledRun): string {
  const fields = [_quote(run.strategy), String(run.seed)];
  for (const name of METRIC_NAMES) {
    const value = run.metrics[name] ?? null;
    fields.push(value === null ? "" : String(value));
  }
  return fields.join(",");
}

/**
 * A whole CSV document: the header and one row per run, each line ending with `\n`.
 *
 * @example
 * ```ts
 * import { formatCsv } from "./csv.ts";
 * import type { RunMetrics } from "./run_metrics.ts";
 * import assert from "node:assert/strict";
 * const metrics = { collisions: 0 } as unknown as RunMetrics;
 * const csv = formatCsv([{ strategy: "none", seed: 1, metrics }, { strategy: "none", seed: 2, metrics }]);
 * assert.equal(csv.split("\n").length, 4); // header, two rows, final empty line
 * ```
 */
export function formatCsv(runs: readonly LabelledRun[]): string {
  return [formatCsvHeader(), ...runs.map(formatCsvRow)].join("\n") + "\n";
}

function _quote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Side-by-side text table of summarised metrics: one column per strategy, one row per metric,
 * cells `mean ± sd`.
 *
 * @module
 */
import { METRIC_NAMES, metricLabel, type MetricName } from "./run_metrics.ts";
import type { MetricSummary, RunSummary } from "./summary.ts";

/** Decimal places shown for each metric. */
export const METRIC_DIGITS: Readonly<Record<MetricName, number>> = {
  collisions: 1,
  maxPenetration: 3,
  wallPenetrations: 1,
  wallCrossings: 1,
  minDistance: 3,
  arrivedFraction: 3,
  meanTimeToGoal: 2,
  p95TimeToGoal: 2,
  meanSpeed: 3,
  pathEfficiency: 3,
  meanTurnRate: 3,
  salsa: 1,
  stuck: 1,
  throughput: 3,
  msPerStep: 3,
  steps: 0,
  time: 2,
  trips: 1,
  arrivals: 1,
};

/** Shown for a metric that is undefined in every run. */
export const EMPTY_CELL = "—";

/** One column of the table. */
export interface TableColumn {
  /** Column title, usually the strategy name. */
  readonly name: string;
  /** The summary of that strategy's runs. */
  readonly summary: RunSummary;
}

/** Options of {@linkcode formatMetricsTable}. */
export interface MetricsTableOptions {
  /** Rows to show, in order. @default METRIC_NAMES */
  readonly metrics?: readonly MetricName[];
}

/**
 * One cell: `mean ± sd` with the metric's precision, the mean alone when there is no sd (a single
 * run), and {@linkcode EMPTY_CELL} when the metric is undefined.
 *
 * @example
 * ```ts
 * import { formatSummaryCell } from "./table.ts";
 * import assert from "node:assert/strict";
 * assert.equal(formatSummaryCell("minDistance", { mean: 0.4987, sd: 0.0012, count: 3 }), "0.499 ± 0.001");
 * assert.equal(formatSummaryCell("throughput", { mean: null, sd: null, count: 0 }), "—");
 * ```
 */
export function formatSummaryCell(name: MetricName, summary: MetricSummary): string {
  const [mean, sd] = _cellParts(name, summary);
  return sd === null ? mean : `${mean} ± ${sd}`;
}

/**
 * Formats summaries side by side: a header row of column names, then one row per metric labelled
 * with its unit (`minDistance (m)`). The `±` signs of a column line up.
 *
 * @example Two strategies
 * ```ts
 * import { formatMetricsTable } from "./table.ts";
 * import { summarizeRuns } from "./summary.ts";
 * import type { RunMetrics } from "./run_metrics.ts";
 * import assert from "node:assert/strict";
 * const run = (collisions: number, minDistance: number | null) =>
 *   ({ collisions, minDistance } as unknown as RunMetrics);
 * const table = formatMetricsTable(
 *   [
 *     { name: "none", summary: summarizeRuns([run(12, 0), run(14, 0.01)]) },
 *     { name: "orca", summary: summarizeRuns([run(0, null), run(0, null)]) },
 *   ],
 *   { metrics: ["collisions", "minDistance"] },
 * );
 * assert.equal(table, [
 *   "metric           none           orca     ",
 *   "---------------  -------------  ---------",
 *   "collisions        13.0 ± 1.4    0.0 ± 0.0",
 *   "minDistance (m)  0.005 ± 0.007    —      ",
 * ].join("\n"));
 * ```
 */
export function formatMetricsTable(
  columns: readonly TableColumn[],
  options: MetricsTableOptions = {},
): string {
  const metrics = options.metrics ?? METRIC_NAMES;
  for (const name of metrics) {
    if (!METRIC_NAMES.includes(name)) {
      throw new RangeError(
        `Cannot format metrics table as 'metrics' holds an unknown metric: current value is ${
          JSON.stringify(name)
        }; known metrics are ${METRIC_NAMES.join(", ")}`,
      );
    }
  }
  const labels = ["metric", ...metrics.map(metricLabel)];
  const table: string[][] = [labels];
  for (const column of columns) {
    const parts = metrics.map((name) => _cellParts(name, column.summary[name]));
    const meanWidth = Math.max(0, ...parts.map(([mean]) => mean.length));
    const sdWidth = Math.max(0, ...parts.map(([, sd]) => sd?.length ?? 0));
    const cells = parts.map(([mean, sd]) =>
      sd === null
        ? mean.padStart(meanWidth).padEnd(meanWidth + (sdWidth > 0 ? 3 + sdWidth : 0))
        : `${mean.padStart(meanWidth)} ± ${sd.padEnd(sdWidth)}`
    );
    table.push([column.name, ...cells]);
  }
  const widths = table.map((col) => Math.max(...col.map((cell) => cell.length)));
  const lines: string[] = [];
  for (let row = 0; row < labels.length; row++) {
    lines.push(table.map((col, c) => col[row].padEnd(widths[c])).join("  "));
    if (row === 0) lines.push(widths.map((w) => "-".repeat(w)).join("  "));
  }
  return lines.join("\n");
}

/** Mean and sd texts of one cell; the mean is {@linkcode EMPTY_CELL} when undefined. */
function _cellParts(name: MetricName, summary: MetricSummary | undefined): [string, string | null] {
  if (summary === undefined || summary.mean === null) return [EMPTY_CELL, null];
  const digits = METRIC_DIGITS[name];
  return [_fixed(summary.mean, digits), summary.sd === null ? null : _fixed(summary.sd, digits)];
}

/** `toFixed` without a minus sign on values that round to zero. */
function _fixed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

import assert from "node:assert/strict";
import { formatMetricsTable, formatSummaryCell } from "./table.ts";
import { summarizeRuns } from "./summary.ts";
import { METRIC_NAMES, type RunMetrics } from "./run_metrics.ts";

function run(value: number | null, overrides: Partial<RunMetrics> = {}): RunMetrics {
  const metrics = Object.fromEntries(METRIC_NAMES.map((name) => [name, value]));
  return { ...metrics, ...overrides } as RunMetrics;
}

Deno.test("table cells show mean ± sd with each metric's precision and — for null", () => {
  assert.equal(
    formatSummaryCell("minDistance", { mean: 0.49871, sd: 0.00123, count: 3 }),
    "0.499 ± 0.001",
  );
  assert.equal(
    formatSummaryCell("meanTimeToGoal", { mean: 12.345, sd: 0.5, count: 3 }),
    "12.35 ± 0.50",
  );
  assert.equal(formatSummaryCell("collisions", { mean: 13, sd: 1.41421, count: 2 }), "13.0 ± 1.4");
  assert.equal(formatSummaryCell("steps", { mean: 400, sd: 0, count: 2 }), "400 ± 0");
  assert.equal(formatSummaryCell("throughput", { mean: 1.5, sd: null, count: 1 }), "1.500");
  assert.equal(formatSummaryCell("throughput", { mean: null, sd: null, count: 0 }), "—");
  assert.equal(
    formatSummaryCell("maxPenetration", { mean: -0.00001, sd: 0, count: 2 }),
    "0.000 ± 0.000",
  );
});

Deno.test("table has one column per strategy and one row per metric with units in the labels", () => {
  const none = summarizeRuns([run(1, { minDistance: 0 }), run(3, { minDistance: 0.2 })]);
  const orca = summarizeRuns([run(0, { throughput: null }), run(0, { throughput: null })]);
  const table = formatMetricsTable([{ name: "none", summary: none }, {
    name: "orca",
    summary: orca,
  }]);
  const lines = table.split("\n");
  assert.equal(lines.length, 2 + METRIC_NAMES.length);
  assert.match(lines[0], /^metric +none +orca *$/);
  assert.match(lines[1], /^-+ +-+ +-+$/);
  const row = (label: string) => lines.find((line) => line.startsWith(label + " "))!;
  assert.match(row("minDistance (m)"), /^minDistance \(m\) +0\.100 ± 0\.141 +0\.000 ± 0\.000$/);
  assert.match(row("throughput (1/s)"), /^throughput \(1\/s\) +2\.000 ± 1\.414 +— *$/);
  assert.match(row("meanSpeed (m/s)"), /2\.000 ± 1\.414/);
  assert.match(row("collisions"), /^collisions +2\.0 ± 1\.4 +0\.0 ± 0\.0 *$/);
  // Every line has the same width, so columns line up.
  assert.equal(new Set(lines.map((line) => line.length)).size, 1);
});

Deno.test("table shows only the chosen metrics and rejects unknown ones", () => {
  const summary = summarizeRuns([run(1)]);
  const table = formatMetricsTable([{ name: "none", summary }], { metrics: ["stuck", "time"] });
  assert.deepEqual(table.split("\n").slice(2).map((line) => line.split(/ {2,}/)[0]), [
    "stuck",
    "time (s)",
  ]);
  assert.throws(
    () => formatMetricsTable([{ name: "none", summary }], { metrics: ["speed" as "stuck"] }),
    { name: "RangeError", message: /unknown metric: current value is "speed"/ },
  );
});

Deno.test("salsa counts show one decimal, like the other counts", () => {
  assert.equal(formatSummaryCell("salsa", { mean: 12.345, sd: 1.24, count: 3 }), "12.3 ± 1.2");
  const table = formatMetricsTable([{
    name: "raycast-cluster",
    summary: summarizeRuns([run(4, { salsa: 7 })]),
  }], {
    metrics: ["salsa"],
  });
  assert.match(table.split("\n")[2], /^salsa +7\.0 *$/);
});

import assert from "node:assert/strict";
import { summarizeRuns } from "./summary.ts";
import { METRIC_NAMES, type RunMetrics } from "./run_metrics.ts";

/** A run where every metric is `value`, with some overrides. */
function run(value: number | null, overrides: Partial<RunMetrics> = {}): RunMetrics {
  const metrics = Object.fromEntries(METRIC_NAMES.map((name) => [name, value]));
  return { ...metrics, ...overrides } as RunMetrics;
}

Deno.test("summary gives the mean and the sample standard deviation of each metric", () => {
  const summary = summarizeRuns([run(1), run(2), run(3), run(6)]);
  for (const name of METRIC_NAMES) {
    assert.equal(summary[name].mean, 3);
    // Deviations -2, -1, 0, 3: squares sum to 14, over n - 1 = 3.
    assert.ok(Math.abs(summary[name].sd! - Math.sqrt(14 / 3)) < 1e-12);
    assert.equal(summary[name].count, 4);
  }
});

Deno.test("summary skips nulls and keeps an all-null metric null", () => {
  const summary = summarizeRuns([
    run(0, { minDistance: 0.4, throughput: null }),
    run(0, { minDistance: null, throughput: null }),
    run(0, { minDistance: 0.6, throughput: null }),
  ]);
  assert.deepEqual(summary.minDistance.count, 2);
  assert.ok(Math.abs(summary.minDistance.mean! - 0.5) < 1e-12);
  assert.ok(Math.abs(summary.minDistance.sd! - Math.sqrt(0.02)) < 1e-12);
  assert.deepEqual(summary.throughput, { mean: null, sd: null, count: 0 });
});

Deno.test("summary of a single run has a mean and no standard deviation", () => {
  const summary = summarizeRuns([run(2.5)]);
  assert.deepEqual(summary.collisions, { mean: 2.5, sd: null, count: 1 });
  assert.deepEqual(summarizeRuns([]).collisions, { mean: null, sd: null, count: 0 });
});

Deno.test("summary rejects a NaN metric, naming the run and the metric", () => {
  assert.throws(
    () => summarizeRuns([run(1), run(1, { meanSpeed: NaN })]),
    {
      name: "RangeError",
      message: /'meanSpeed' of run 1 must be a finite number or null: current value is NaN/,
    },
  );
});

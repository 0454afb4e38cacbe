/**
 * Run metrics: a {@linkcode MetricsCollector} that observes a world and produces
 * {@linkcode RunMetrics} (collisions, wall contacts, closest approach, arrivals, times to goal,
 * speed, path efficiency, turning, side reversals in head-on encounters, stuck trips, throughput,
 * step cost), the metric catalogue
 * ({@linkcode METRIC_NAMES}, {@linkcode METRIC_DOCS}, {@linkcode METRIC_UNITS}), aggregation
 * over seeds ({@linkcode summarizeRuns}), a side-by-side text table
 * ({@linkcode formatMetricsTable}) and CSV output ({@linkcode formatCsv}).
 *
 * @example Measure two strategies' worth of runs and print a table
 * ```ts
 * import { formatMetricsTable, MetricsCollector, summarizeRuns } from "./mod.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * function run(seed: number) {
 *   const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker(), seed });
 *   world.addAgent({ x: 0, y: 0, goalX: 5, goalY: 0, desiredSpeed: 1 });
 *   const metrics = new MetricsCollector();
 *   world.addObserver(metrics);
 *   while (!world.finished) world.step();
 *   return metrics.result();
 * }
 * const summary = summarizeRuns([run(1), run(2)]);
 * assert.equal(summary.arrivedFraction.mean, 1);
 * const table = formatMetricsTable([{ name: "none", summary }], { metrics: ["meanSpeed"] });
 * assert.equal(table.split("\n")[2], "meanSpeed (m/s)  1.000 ± 0.000");
 * ```
 *
 * @module
 */
export * from "./collector.ts";
export * from "./csv.ts";
export * from "./run_metrics.ts";
export * from "./summary.ts";
export * from "./table.ts";
export {
  type CityNavigationCounters,
  CityTrafficMetrics,
  type CityTrafficSummary,
} from "./city_traffic_metrics.ts";

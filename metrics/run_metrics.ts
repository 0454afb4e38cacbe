/**
 * The metrics of one simulation run: their names, order, units and one-line definitions.
 *
 * @module
 */

/**
 * Metrics of one run, as produced by {@linkcode MetricsCollector.result}. Every value is a
 * number; `null` marks a metric that is undefined for the run (no arrivals, no pairs close
 * enough, fewer than two line crossings, …).
 */
export interface RunMetrics {
  /** Overlapping agent pairs (centre distance < ri + rj − tolerance), each pair once, summed over steps. */
  collisions: number;
  /** Largest ri + rj − d over all pairs and steps (m); 0 when no two agents ever overlapped. */
  maxPenetration: number;
  /** Agent-steps with the disc overlapping a segment by more than the tolerance, or the centre inside a solid polygon. */
  wallPenetrations: number;
  /** Agent-steps whose move from the previous to the current position crosses an obstacle segment. */
  wallCrossings: number;
  /** Smallest centre-to-centre distance between two agents (m); null when no pair came within the query radius. */
  minDistance: number | null;
  /** Arrivals / trips started; null when no trip started. */
  arrivedFraction: number | null;
  /** Mean of arrival time − trip start time over arrivals (s). */
  meanTimeToGoal: number | null;
  /** 95th percentile of arrival time − trip start time over arrivals (s). */
  p95TimeToGoal: number | null;
  /** Mean speed |v| over agent-steps of agents that have not arrived (m/s). */
  meanSpeed: number | null;
  /** Mean over arrivals of straight distance (trip start → arrival) / distance travelled (1 = straight). */
  pathEfficiency: number | null;
  /** Mean |heading change| / dt over agent-steps faster than 0.1 m/s in this and the previous step (rad/s). */
  meanTurnRate: number | null;
  /**
   * Head-on encounters in which the agent reversed the side it steers to at least once before
   * passing (the "sidewalk salsa"), counted per agent; see {@linkcode MetricsCollector}.
   */
  salsa: number;
  /** Trips that went `stuckSeconds` without progress toward their goal. */
  stuck: number;
  /** Crossings of the throughput line per second (agents/s): (n − 1) / (t_last − t_first), n ≥ 2. */
  throughput: number | null;
  /** Mean wall-clock duration of a world step, observers excluded (ms). */
  msPerStep: number | null;
  /** Steps observed. */
  steps: number;
  /** Simulation time at the last observed step (s). */
  time: number;
  /** Trips started: agents placed (including respawns) plus agents present at attach. */
  trips: number;
  /** Trips that reached their goal. */
  arrivals: number;
}

/** Name of one metric. */
export type MetricName = keyof RunMetrics;

/**
 * Every metric name, in the order tables, CSV files and help texts list them.
 *
 * @example Every metric has a unit and a doc line
 * ```ts
 * import { METRIC_DOCS, METRIC_NAMES, METRIC_UNITS } from "./run_metrics.ts";
 * import assert from "node:assert/strict";
 * assert.equal(METRIC_NAMES[0], "collisions");
 * assert.equal(METRIC_UNITS.minDistance, "m");
 * assert.ok(METRIC_NAMES.every((name) => METRIC_DOCS[name].length > 0));
 * ```
 */
export const METRIC_NAMES: readonly MetricName[] = [
  "collisions",
  "maxPenetration",
  "wallPenetrations",
  "wallCrossings",
  "minDistance",
  "arrivedFraction",
  "meanTimeToGoal",
  "p95TimeToGoal",
  "meanSpeed",
  "pathEfficiency",
  "meanTurnRate",
  "salsa",
  "stuck",
  "throughput",
  "msPerStep",
  "steps",
  "time",
  "trips",
  "arrivals",
];

/** Unit of each metric; `""` for counts and ratios. */
export const METRIC_UNITS: Readonly<Record<MetricName, string>> = {
  collisions: "",
  maxPenetration: "m",
  wallPenetrations: "",
  wallCrossings: "",
  minDistance: "m",
  arrivedFraction: "",
  meanTimeToGoal: "s",
  p95TimeToGoal: "s",
  meanSpeed: "m/s",
  pathEfficiency: "",
  meanTurnRate: "rad/s",
  salsa: "",
  stuck: "",
  throughput: "1/s",
  msPerStep: "ms",
  steps: "",
  time: "s",
  trips: "",
  arrivals: "",
};

/** One line per metric saying what it measures, with its unit, for `--help` and the README. */
export const METRIC_DOCS: Readonly<Record<MetricName, string>> = {
  collisions:
    "overlapping agent pairs (centre distance < ri + rj - overlapTolerance), each pair once, summed over steps",
  maxPenetration: "largest overlap ri + rj - d of two agents over the run (m); 0 if none",
  wallPenetrations:
    "agent-steps with the body overlapping an obstacle segment by more than overlapTolerance, or the centre inside a solid polygon",
  wallCrossings: "agent-steps whose move from the previous position crosses an obstacle segment",
  minDistance:
    "smallest centre-to-centre distance of two agents (m); empty if no pair came within 2 x largest radius + 1 m",
  arrivedFraction: "arrivals / trips started (respawns and agents present at the start are trips)",
  meanTimeToGoal: "mean of arrival time - trip start time over arrivals (s)",
  p95TimeToGoal: "95th percentile of arrival time - trip start time over arrivals (s)",
  meanSpeed: "mean speed |v| over agent-steps of agents not yet arrived (m/s)",
  pathEfficiency:
    "mean over arrivals of straight distance start -> arrival / distance walked (1 = straight)",
  meanTurnRate:
    "mean |heading change| / dt over agent-steps above 0.1 m/s in this and the previous step (rad/s)",
  salsa:
    "head-on encounters (oncoming agent within 4 m, velocities > 135 deg apart, < ri + rj + 1 m aside) in which the agent switched the side it steers to (velocity > 5.7 deg left/right of its preferred velocity) before they passed; per agent",
  stuck: "trips that went stuckSeconds without getting stuckProgress closer to their goal",
  throughput:
    "crossings of the throughput line per second (1/s): (n - 1) / (last - first crossing time)",
  msPerStep: "mean wall-clock time of one world step, observers excluded (ms)",
  steps: "steps observed",
  time: "simulation time at the last step (s)",
  trips: "trips started",
  arrivals: "trips that reached their goal",
};

/**
 * Row label of a metric: its name followed by its unit in brackets, e.g. `minDistance (m)`.
 *
 * @example
 * ```ts
 * import { metricLabel } from "./run_metrics.ts";
 * import assert from "node:assert/strict";
 * assert.equal(metricLabel("minDistance"), "minDistance (m)");
 * assert.equal(metricLabel("collisions"), "collisions");
 * ```
 */
export function metricLabel(name: MetricName): string {
  const unit = METRIC_UNITS[name];
  return unit ? `${name} (${unit})` : name;
}

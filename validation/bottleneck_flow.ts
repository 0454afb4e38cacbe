/**
 * Bottleneck flow against width: a room 10 m wide, filled at 1.5 persons/m² so that a dense
 * crowd keeps pressing on the exit, empties through a short channel of width b (1.1 m long, as
 * the Wuppertal 0.5 m and HERMES "AO" experiments) or a thin door. The flow is measured as in
 * the experiments, J = (n − 1)/(t_n − t_1) over the crossings of the bottleneck's exit line by
 * the middle 60 % of the crowd, and the specific flow J/b is compared with the measured tables
 * of Kretz et al. 2006, Seyfried et al. 2009, Daamen & Hoogendoorn 2010, Müller 1981, Nagai et
 * al. 2006, the HERMES "AO" and "EG" series (`empirical/bottleneck-flow-vs-width/`) and with the
 * flows measured here, by the same method, from the trajectories of the 0.5 m (J. Adrian,
 * A. Seyfried, A. Sieben, J. R. Soc. Interface 17 (2020) 20190871) and 3.0 m (W. Liao et al.,
 * Transp. Res. Procedia 2 (2014) 26–33) experiments.
 *
 * @module
 */
import type { StrategyRegistry } from "../core/registry.ts";
import { renderXyChartSvg, SERIES_COLOURS, type XySeries } from "../plots/xy_chart.ts";
import { groupByAgent } from "../recording/agent_tracks.ts";
import type { TrajectoryData } from "../recording/trajectory.ts";
import { buildScenario } from "../scenarios/build.ts";
import type { DistributionSpec, ScenarioSpec } from "../scenarios/schema.ts";
import { type Distribution, SHOULDER_RADIUS } from "../core/distribution.ts";
import {
  dataPath,
  dataRoot,
  JUELICH_RUNS,
  type PointTable,
  readJuelichRun,
  readPointTables,
} from "./data_files.ts";
import { LineCrossings, steadyFlow } from "./line_crossings.ts";
import {
  defineTest,
  fmt,
  meanOf,
  notRunVerdict,
  type Picture,
  type ValidationTest,
} from "./validation_test_spec.ts";

/** Widths (m) of the full validation. */
export const BOTTLENECK_WIDTHS: readonly number[] = [0.5, 0.8, 1.0, 1.2, 1.6, 2.0, 2.5];
/** Widths (m) of the quick variant. */
export const BOTTLENECK_WIDTHS_QUICK: readonly number[] = [0.5, 1.0, 2.0];
/** Length of the channel (m): the 0.5 m Wuppertal experiment's 1.1 m. */
export const CHANNEL_LENGTH = 1.1;

/**
 * Agents of a run at width `b` (m): 100 plus 80 per metre, so that the steady window (60 % of
 * the crowd) lasts about 40 s at an empirical flow.
 *
 * @example
 * ```ts
 * import { validationAgents } from "./bottleneck_flow.ts";
 * import assert from "node:assert/strict";
 * assert.equal(validationAgents(1), 180);
 * ```
 */
export function validationAgents(b: number): number {
  return Math.round(100 + 80 * b);
}

/**
 * The scenario: the room's exit wall at x = 0 with an opening of width `b`, followed by a
 * channel of length `channelLength` (0 for a thin door); the exit zone is a strip 6–8 m past the
 * bottleneck across the room's width, so that arrivals never back up. Body radii are drawn from
 * `body` (default {@linkcode SHOULDER_RADIUS}: half the shoulder breadth of adults).
 *
 * @example
 * ```ts
 * import { bottleneckFlowScenario } from "./bottleneck_flow.ts";
 * import assert from "node:assert/strict";
 * const spec = bottleneckFlowScenario(0.5, 75, 1.1);
 * assert.equal(spec.walls?.length, 3);
 * assert.deepEqual(spec.goals?.exit, { rect: [7.1, -4.5, 9.1, 4.5] });
 * ```
 */
export function bottleneckFlowScenario(
  b: number,
  agents: number,
  channelLength: number,
  body: Distribution = SHOULDER_RADIUS,
): ScenarioSpec {
  if (!(b > 0 && b <= 9)) {
    throw new RangeError(
      `Cannot create bottleneck scenario as 'b' must be in (0, 9] m: current value is ${b}`,
    );
  }
  if (!(channelLength >= 0 && channelLength <= 10)) {
    throw new RangeError(
      `Cannot create bottleneck scenario as 'channelLength' must be in [0, 10] m: current value is ${channelLength}`,
    );
  }
  const depth = Math.max(6, agents / (1.5 * 9.2) + 1.4), h = b / 2, c = channelLength;
  const walls: [number, number][][] = [[[0, h], [0, 5], [-depth, 5], [-depth, -5], [0, -5], [
    0,
    -h,
  ]]];
  if (c > 0) walls.push([[0, h], [c, h]], [[0, -h], [c, -h]]);
  return {
    name: `bottleneck-${b}m${c > 0 ? `-channel-${c}m` : "-door"}`,
    dt: 0.05,
    duration: Math.ceil(agents / 0.4 + 60),
    bounds: [-depth - 0.5, -5.5, c + 9, 5.5],
    walls,
    agents: { radius: distributionSpec(body) },
    goals: { exit: { rect: [c + 6, -4.5, c + 8, 4.5] } },
    spawners: [{
      name: "room",
      area: { rect: [-depth + 0.4, -4.6, -1, 4.6] },
      count: agents,
      goal: "exit",
      via: [
        [[0, -h], [0, h]],
        ...(c > 0 ? [[[c, -h], [c, h]] as [[number, number], [number, number]]] : []),
      ],
    }],
    metrics: { throughputLine: { name: "exit", from: [c, -h], to: [c, h] } },
  };
}

/** A distribution in the scenario file's format. */
export function distributionSpec(d: Distribution): DistributionSpec {
  switch (d.kind) {
    case "constant":
      return d.value;
    case "uniform":
      return { uniform: { min: d.min, max: d.max } };
    case "normal":
      return { normal: { mean: d.mean, sd: d.sd, min: d.min, max: d.max } };
  }
}

/** Options of {@linkcode measureBottleneckFlow}. */
export interface BottleneckFlowOptions {
  /** Registered strategy name. */
  strategy: string;
  /** Width b (m). */
  width: number;
  /** Seed. @default 1 */
  seed?: number;
  /** Agents. @default validationAgents(width) */
  agents?: number;
  /** Channel length (m); 0 for a thin door. @default 0 */
  channelLength?: number;
  /** Strategy options. @default {} */
  strategyOptions?: Record<string, unknown>;
  /** Body radii (m). @default SHOULDER_RADIUS */
  body?: Distribution;
  /** Where the strategy is looked up. */
  registry: StrategyRegistry;
}

/** One measured flow. */
export interface BottleneckFlowResult {
  /** Width b (m). */
  width: number;
  /** Channel length (m), 0 for a door. */
  channelLength: number;
  /** Seed. */
  seed: number;
  /** Agents in the room at the start. */
  agents: number;
  /** Agents that crossed the exit line before the run ended. */
  crossed: number;
  /** J (persons/s) over the steady window, null when the crowd never got that far (clogged). */
  flow: number | null;
  /** J/b ((m·s)⁻¹), or null. */
  specificFlow: number | null;
  /** Simulated seconds. */
  seconds: number;
}

/**
 * Runs one bottleneck until the 80 % mark of the crowd has crossed the exit line (or the crowd
 * is clearly clogged: a flow below 0.4 persons/s) and returns J over the steady window.
 *
 * @example
 * ```ts
 * import { measureBottleneckFlow } from "./bottleneck_flow.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const r = measureBottleneckFlow({ strategy: "none", width: 1, agents: 40, registry: strategies });
 * assert.ok(r.flow! > 0);
 * ```
 */
export function measureBottleneckFlow(options: BottleneckFlowOptions): BottleneckFlowResult {
  const b = options.width, seed = options.seed ?? 1, c = options.channelLength ?? 0;
  const agents = options.agents ?? validationAgents(b);
  const built = buildScenario(bottleneckFlowScenario(b, agents, c, options.body), {
    registry: options.registry,
    strategy: { name: options.strategy, options: options.strategyOptions ?? {} },
    seed,
  });
  const world = built.world;
  const line = new LineCrossings({ from: [c, -b / 2], to: [c, b / 2] });
  world.addObserver(line);
  const last = Math.ceil(0.8 * agents) - 1;
  while (line.count <= last && world.stepIndex < built.steps && !world.finished) world.step();
  const flow = steadyFlow(line.times, agents);
  return {
    width: b,
    channelLength: c,
    seed,
    agents,
    crossed: line.count,
    flow,
    specificFlow: flow === null ? null : flow / b,
    seconds: world.time,
  };
}

/**
 * Flow (persons/s) through a measured bottleneck: the crossings of the line y = `lineY` within
 * `[xMin, xMax]`, in the walking direction `sign` (−1 towards −y), over the middle 80 % of the
 * passages (J = (n − 1)/(t_n − t_1)).
 */
export function measuredBottleneckFlow(
  data: TrajectoryData,
  line: { lineY: number; xMin: number; xMax: number; sign: 1 | -1 },
): { flow: number | null; passages: number } {
  const times: number[] = [];
  for (const t of groupByAgent(data).values()) {
    for (let k = 1; k < t.count; k++) {
      const before = line.sign * (t.y[k - 1] - line.lineY),
        after = line.sign * (t.y[k] - line.lineY);
      if (before < 0 && after >= 0 && t.x[k] >= line.xMin && t.x[k] <= line.xMax) {
        times.push(t.time[k]);
        break;
      }
    }
  }
  return { flow: steadyFlow(times, times.length, [0.1, 0.9]), passages: times.length };
}

/** The tables read, by data folder. */
const _tables = new Map<string, PointTable[]>();

/**
 * The measured tables `[b, J]` (cached), with the two trajectory-derived points added as tables
 * `Wuppertal-2018-0.5m` and `HERMES-AO-3.0m`; [] when the data are missing.
 */
export function bottleneckTables(): PointTable[] {
  const cached = _tables.get(dataRoot().href);
  if (cached) return cached;
  const tables = readPointTables(dataPath("empirical/bottleneck-flow-vs-width")) ?? [];
  try {
    const narrow = measuredBottleneckFlow(readJuelichRun(JUELICH_RUNS.bottleneck050), {
      lineY: 0,
      xMin: -0.25,
      xMax: 0.25,
      sign: -1,
    });
    if (narrow.flow !== null) {
      tables.push({ name: "Wuppertal-2018-0.5m", points: [[0.5, narrow.flow]] });
    }
    const wide = measuredBottleneckFlow(readJuelichRun(JUELICH_RUNS.bottleneck300), {
      lineY: 0,
      xMin: -0.6,
      xMax: 2.4,
      sign: 1,
    });
    if (wide.flow !== null) tables.push({ name: "HERMES-AO-3.0m", points: [[3.0, wide.flow]] });
  } catch {
    // Trajectories missing: the tables alone.
  }
  _tables.set(dataRoot().href, tables);
  return tables;
}

/**
 * Range of measured J/b ((m·s)⁻¹) at width `b` (m) over every table, or null when no table
 * reaches `b`. A table counts with its points within `tolerance` (m) of `b` and, when its widths
 * lie on both sides of `b`, with its own trend across `b`: the lowest and the highest J/b it
 * measured at the nearest width below and the nearest above, each interpolated linearly to `b`.
 * So an experiment that measured doors of 1.65 and 2.75 m speaks for 2 m too, as it does for
 * 1.6 m through the window, and the range does not hang on which widths happened to be built.
 *
 * @example
 * ```ts
 * import { empiricalRange } from "./bottleneck_flow.ts";
 * import assert from "node:assert/strict";
 * const tables = [{ name: "a", points: [[1, 1.8], [1.05, 2.1], [2, 3.6]] as [number, number][] }];
 * assert.deepEqual(empiricalRange(tables, 1), [1.8, 2]);
 * // 1.5 m lies between the table's 1.05 m (J/b 2) and 2 m (J/b 1.8): about 1.905 by its trend.
 * const [low, high] = empiricalRange(tables, 1.5)!;
 * assert.ok(Math.abs(low - 1.905) < 1e-3 && high === low);
 * assert.equal(empiricalRange(tables, 3), null);
 * ```
 */
export function empiricalRange(
  tables: readonly PointTable[],
  b: number,
  tolerance = 0.1,
): [number, number] | null {
  let low = Infinity, high = -Infinity;
  for (const t of tables) {
    // Lowest and highest J/b at the nearest measured width on each side of b.
    let below = -Infinity, above = Infinity;
    for (const [w] of t.points) {
      if (w <= b && w > below) below = w;
      if (w >= b && w < above) above = w;
    }
    if (Number.isFinite(below) && Number.isFinite(above)) {
      const [lo0, hi0] = specificFlowSpan(t, below), [lo1, hi1] = specificFlowSpan(t, above);
      const f = above > below ? (b - below) / (above - below) : 0;
      low = Math.min(low, lo0 + f * (lo1 - lo0));
      high = Math.max(high, hi0 + f * (hi1 - hi0));
    }
    for (const [w, j] of t.points) {
      if (Math.abs(w - b) > tolerance + 1e-9) continue;
      low = Math.min(low, j / w);
      high = Math.max(high, j / w);
    }
  }
  return low <= high ? [low, high] : null;
}

/** Lowest and highest J/b ((m·s)⁻¹) a table measured at exactly `width` (m). */
function specificFlowSpan(t: PointTable, width: number): [number, number] {
  let low = Infinity, high = -Infinity;
  for (const [w, j] of t.points) {
    if (w === width) low = Math.min(low, j / w), high = Math.max(high, j / w);
  }
  return [low, high];
}

const MARKERS = ["circle", "square", "triangle", "diamond"] as const;

/** The bottleneck test for one geometry: a 1.1 m channel or a thin door. */
export function bottleneckTest(geometry: "channel" | "door"): ValidationTest {
  const c = geometry === "channel" ? CHANNEL_LENGTH : 0;
  return defineTest<BottleneckFlowResult[]>({
    id: `bottleneck-${geometry}`,
    group: "Bottleneck",
    title: geometry === "channel"
      ? `flow against width through a ${CHANNEL_LENGTH} m long channel, 0.5–2.5 m wide`
      : "flow against width through a thin door, 0.5–2.5 m wide",
    criterion:
      "mean J/b (over seeds) inside the range of the measured tables at every width (each table by its points within ±0.1 m and by its trend between the widths it measured on either side); a clogged run fails. Figures: the mean, with more than one seed the lowest–highest seed in round brackets, the measured range in square brackets",
    cost: (quick) => (quick ? 4 : 12),
    measure: (ctx) =>
      (ctx.quick ? BOTTLENECK_WIDTHS_QUICK : BOTTLENECK_WIDTHS).map((width) =>
        measureBottleneckFlow({
          strategy: ctx.strategy,
          width,
          seed: ctx.seed,
          channelLength: c,
          registry: ctx.registry,
        })
      ),
    judge(runs) {
      const tables = bottleneckTables();
      if (tables.length === 0) {
        return notRunVerdict(
          `no measured tables in ${dataPath("empirical/bottleneck-flow-vs-width")}`,
        );
      }
      const cells: string[] = [];
      const figures: Record<string, number | null> = {};
      let pass = true;
      runs[0].forEach((r0, k) => {
        const b = r0.width;
        const clogged = runs.some((r) => r[k].flow === null);
        const perSeed = runs.map((r) => r[k].specificFlow);
        const js = meanOf(perSeed);
        const range = empiricalRange(tables, b);
        const ok = !clogged && js !== null && range !== null && js >= range[0] - 1e-9 &&
          js <= range[1] + 1e-9;
        if (!ok) pass = false;
        figures[`specificFlowAt${b} (1/(m·s))`] = clogged ? null : js;
        const spread = !clogged && js !== null && runs.length > 1
          ? ` (${fmt(Math.min(...perSeed as number[]))}–${fmt(Math.max(...perSeed as number[]))})`
          : "";
        cells.push(
          `${b} m: ${clogged ? "clogged" : fmt(js)}${spread}${
            range ? ` [${fmt(range[0])}–${fmt(range[1])}]` : ""
          }`,
        );
      });
      return { status: pass ? "pass" : "fail", summary: `J/b ${cells.join(", ")}`, figures };
    },
    pictures(results): Picture[] {
      const tables = bottleneckTables();
      const series: XySeries[] = tables.map((t, k) => ({
        name: t.name,
        points: t.points,
        style: "points",
        colour: ["#555555", "#777777", "#999999", "#444444"][k % 4],
        marker: MARKERS[k % MARKERS.length],
      }));
      // The pass criterion's range at each width run, as J = (J/b)·b.
      const widths = results[0]?.runs[0]?.map((r0) => r0.width) ?? [];
      const low: [number, number][] = [], high: [number, number][] = [];
      for (const b of widths) {
        const range = empiricalRange(tables, b);
        if (range) low.push([b, range[0] * b]), high.push([b, range[1] * b]);
      }
      if (low.length > 0) {
        series.push(
          { name: "criterion: lowest measured", points: low, style: "line", colour: "#c8b47a" },
          { name: "criterion: highest measured", points: high, style: "line", colour: "#8c7a3c" },
        );
      }
      results.forEach((r, k) => {
        const points: [number, number][] = [];
        r.runs[0].forEach((r0, m) => {
          const j = meanOf(r.runs.map((run) => run[m].flow));
          if (j !== null && r.runs.every((run) => run[m].flow !== null)) points.push([r0.width, j]);
        });
        series.push({
          name: r.strategy,
          points,
          style: "line",
          colour: SERIES_COLOURS[k % SERIES_COLOURS.length],
        });
      });
      return [{
        name: `bottleneck-${geometry}`,
        title: `Bottleneck flow against width (${geometry})`,
        svg: renderXyChartSvg({
          title: `Bottleneck flow against width: ${
            geometry === "channel" ? `${CHANNEL_LENGTH} m channel` : "thin door"
          }`,
          xLabel: "width b (m)",
          yLabel: "flow J (persons/s)",
          series,
          bands: [{ name: "J/b 1.8–2.4 (m·s)⁻¹", low: 1.8, high: 2.4, colour: "#e8f0fb" }],
          range: [0, 3.2, 0, 8],
        }),
      }];
    },
  });
}

/**
 * The fundamental diagram: speed and flow against density in a closed ring corridor
 * ({@linkcode RingCorridor}, 3 m wide), one- and two-way, measured as in the experiments with
 * the Voronoi method in a 2 m long measurement area across the corridor
 * ({@linkcode MeasurementArea}), and compared with Weidmann's curve and the Jülich measurements:
 * the HERMES closed corridor (1.8 m, unidirectional) and bidirectional corridor (3.6 m) point
 * clouds in `empirical/` (J. Zhang et al., J. Stat. Mech. (2011) P06004 and (2012) P02002).
 *
 * @module
 */
import type { Distribution } from "../core/distribution.ts";
import { buildScenario } from "../scenarios/build.ts";
import { renderXyChartSvg, SERIES_COLOURS, type XySeries } from "../plots/xy_chart.ts";
import { dataPath, dataRoot, type PointTable, readPointTables } from "./data_files.ts";
import { MeasurementArea } from "./measurement_area.ts";
import { RingCorridor, ringSpeed } from "./ring_corridor.ts";
import {
  defineTest,
  fmt,
  meanOf,
  type MeasureContext,
  notRunVerdict,
  type Picture,
  type ValidationTest,
} from "./validation_test_spec.ts";
import { weidmannRmse, weidmannSpeed } from "./weidmann.ts";

/** Densities (persons/m²) filled into the ring. */
export const FD_DENSITIES: readonly number[] = [0.5, 1, 1.5, 2, 3, 4];
/** Densities of the quick variant. */
export const FD_DENSITIES_QUICK: readonly number[] = [0.5, 1, 2, 3];

/** One density of a fundamental-diagram run. */
export interface FdPoint {
  /** Density filled in (persons/m² of walkable area). */
  target: number;
  /** Agents placed, or 0 when they could not be placed. */
  agents: number;
  /** Mean Voronoi density in the measurement area (persons/m²), null when not placed. */
  density: number | null;
  /** Mean Voronoi speed along the walking direction (m/s), null when not placed. */
  speed: number | null;
  /** Share of agent-samples walking backwards (speed < −0.05 m/s). */
  backwards: number;
}

/** Options of {@linkcode measureFundamentalDiagram}. */
export interface FundamentalDiagramOptions {
  /** Strategy name. */
  strategy: string;
  /** Seed. */
  seed: number;
  /** Registry to find the strategy in. */
  registry: MeasureContext["registry"];
  /** Half the agents walk the other way. @default false */
  bidirectional?: boolean;
  /** Densities (persons/m²). @default FD_DENSITIES */
  densities?: readonly number[];
  /** Seconds before measuring. @default 20 */
  warmUpSeconds?: number;
  /** Seconds measured, one sample every 0.5 s. @default 30 */
  measureSeconds?: number;
  /** Strategy options. @default {} */
  strategyOptions?: Record<string, unknown>;
  /** Body radii (m): one for everyone or a distribution. @default SHOULDER_RADIUS */
  radius?: number | Distribution;
}

/**
 * Fills the ring at each density, lets the crowd settle, and averages Voronoi density and speed
 * in the measurement area over the measuring time.
 *
 * @example A few sparse agents walk at about their desired speed
 * ```ts
 * import { measureFundamentalDiagram } from "./fundamental_diagram.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const [p] = measureFundamentalDiagram({
 *   strategy: "none", seed: 1, registry: strategies, densities: [0.2], warmUpSeconds: 2, measureSeconds: 3,
 * });
 * assert.ok(p.speed! > 1.1 && p.speed! < 1.6);
 * ```
 */
export function measureFundamentalDiagram(options: FundamentalDiagramOptions): FdPoint[] {
  const ring = new RingCorridor();
  const area = new MeasurementArea(ring.walkable, ring.measurementArea);
  const warm = options.warmUpSeconds ?? 20, span = options.measureSeconds ?? 30;
  return (options.densities ?? FD_DENSITIES).map((target) => {
    const built = buildScenario(ring.scenario(), {
      registry: options.registry,
      strategy: { name: options.strategy, options: options.strategyOptions ?? {} },
      seed: options.seed,
      navigator: ring.navigator(),
    });
    const world = built.world;
    const count = Math.round(target * ring.area);
    const fill = {
      seed: options.seed,
      bidirectional: options.bidirectional,
      radius: options.radius,
    };
    if (!ring.fill(world, count, fill)) {
      return { target, agents: 0, density: null, speed: null, backwards: 0 };
    }
    const every = Math.round(0.5 / world.dt);
    const warmSteps = Math.round(warm / world.dt), total = warmSteps + Math.round(span / world.dt);
    const densities: number[] = [], speeds: number[] = [];
    let backwards = 0, samples = 0;
    const x = new Float64Array(count), y = new Float64Array(count), v = new Float64Array(count);
    while (world.stepIndex < total) {
      world.step();
      if (world.stepIndex < warmSteps || world.stepIndex % every !== 0) continue;
      const n = world.agents.count;
      for (let i = 0; i < n; i++) {
        x[i] = world.agents.px[i];
        y[i] = world.agents.py[i];
        v[i] = ringSpeed(world, i);
        if (v[i] < -0.05) backwards++;
      }
      samples += n;
      const m = area.measure(x.subarray(0, n), y.subarray(0, n), v.subarray(0, n));
      densities.push(m.density);
      speeds.push(m.speed);
    }
    return {
      target,
      agents: count,
      density: meanOf(densities),
      speed: meanOf(speeds),
      backwards: samples > 0 ? backwards / samples : 0,
    };
  });
}

/**
 * A reference speed–density relation from measured points: mean speed in density bins of
 * `binWidth` (persons/m²) with at least `minPoints` points, linearly interpolated between bin
 * centres; null outside the measured range.
 *
 * @example
 * ```ts
 * import { binnedReference } from "./fundamental_diagram.ts";
 * import assert from "node:assert/strict";
 * const ref = binnedReference([[0.1, 1.4], [0.2, 1.2], [1.1, 0.8], [1.2, 0.6]], { binWidth: 0.5, minPoints: 1 });
 * assert.ok(Math.abs(ref(0.25)! - 1.3) < 1e-9);
 * assert.ok(Math.abs(ref(1.25)! - 0.7) < 1e-9);
 * assert.ok(Math.abs(ref(0.75)! - 1.0) < 1e-9);
 * assert.equal(ref(3), null);
 * ```
 */
export function binnedReference(
  points: readonly (readonly [number, number])[],
  options: { binWidth?: number; minPoints?: number } = {},
): (density: number) => number | null {
  const w = options.binWidth ?? 0.25, min = options.minPoints ?? 20;
  const bins = new Map<number, { sum: number; n: number }>();
  for (const [rho, v] of points) {
    const k = Math.floor(rho / w);
    const b = bins.get(k) ?? { sum: 0, n: 0 };
    b.sum += v;
    b.n++;
    bins.set(k, b);
  }
  const nodes = [...bins.entries()].filter(([, b]) => b.n >= min)
    .map(([k, b]) => [(k + 0.5) * w, b.sum / b.n] as const).sort((a, b) => a[0] - b[0]);
  return (density: number) => {
    if (nodes.length === 0 || density < nodes[0][0] || density > nodes[nodes.length - 1][0]) {
      return null;
    }
    for (let k = 1; k < nodes.length; k++) {
      if (density <= nodes[k][0]) {
        const [x0, y0] = nodes[k - 1], [x1, y1] = nodes[k];
        return y0 + ((y1 - y0) * (density - x0)) / (x1 - x0);
      }
    }
    return nodes[nodes.length - 1][1];
  };
}

/** RMSE (m/s) of points against a reference, over the points the reference covers. */
export function referenceRmse(
  points: readonly (readonly [number, number])[],
  reference: (density: number) => number | null,
): number | null {
  let sum = 0, n = 0;
  for (const [rho, v] of points) {
    const r = reference(rho);
    if (r === null) continue;
    sum += (v - r) ** 2;
    n++;
  }
  return n > 0 ? Math.sqrt(sum / n) : null;
}

/** Folders of the Jülich point clouds, by corridor type. */
export const FD_DATA = {
  unidirectional: "empirical/fd-closed-corridor-1.8m",
  bidirectional: "empirical/fd-bidirectional-bot-3.6m",
} as const;

const _tables = new Map<string, PointTable[]>();

/** The measured points of a corridor type (every file of its folder), cached; [] when absent. */
export function fdData(kind: keyof typeof FD_DATA): [number, number][] {
  const key = `${dataRoot().href}|${kind}`;
  if (!_tables.has(key)) _tables.set(key, readPointTables(dataPath(FD_DATA[kind])) ?? []);
  return _tables.get(key)!.flatMap((t) => t.points);
}

/** Mean (over seeds) point at each target density: [density, speed]. */
export function meanFdPoints(runs: readonly FdPoint[][]): [number, number][] {
  const out: [number, number][] = [];
  const targets = runs[0]?.map((p) => p.target) ?? [];
  for (let k = 0; k < targets.length; k++) {
    const rho = meanOf(runs.map((r) => r[k]?.density)), v = meanOf(runs.map((r) => r[k]?.speed));
    if (rho !== null && v !== null) out.push([rho, v]);
  }
  return out;
}

/** A fundamental-diagram test: unidirectional (RiMEA test 4) or bidirectional. */
export function fundamentalDiagramTest(kind: "unidirectional" | "bidirectional"): ValidationTest {
  const bidirectional = kind === "bidirectional";
  const rmseTarget = 0.1;
  return defineTest<FdPoint[]>({
    id: bidirectional ? "fd-bidirectional" : "fd-unidirectional",
    group: "Fundamental diagram",
    title: `${kind} ring corridor 3 m: Voronoi speed against density`,
    criterion: bidirectional
      ? `speed–density RMSE < ${rmseTarget} m/s against the Jülich bidirectional corridor points (HERMES 2009, binned by 0.25 /m²) over their density range, every density placeable, nobody walking backwards (> 1 % of samples)`
      : `speed–density RMSE < ${rmseTarget} m/s against Weidmann (1993) over 0.5–4 /m², every density placeable, nobody walking backwards (> 1 % of samples); also reported against the Jülich closed-corridor points (HERMES 2009)`,
    cost: (quick) => (quick ? 6 : 20),
    measure: (ctx) =>
      measureFundamentalDiagram({
        strategy: ctx.strategy,
        seed: ctx.seed,
        registry: ctx.registry,
        bidirectional,
        densities: ctx.quick ? FD_DENSITIES_QUICK : FD_DENSITIES,
        warmUpSeconds: ctx.quick ? 15 : 20,
        measureSeconds: ctx.quick ? 15 : 30,
      }),
    judge(runs) {
      if (bidirectional && fdData(kind).length === 0) {
        return notRunVerdict(`no measured points in ${dataPath(FD_DATA[kind])}`);
      }
      const points = meanFdPoints(runs);
      const unplaced = runs[0].filter((_p, k) => runs.some((r) => r[k].density === null))
        .map((p) => p.target);
      const backwards = Math.max(...runs.flatMap((r) => r.map((p) => p.backwards)));
      const weidmann = weidmannRmse(points);
      const data = referenceRmse(points, binnedReference(fdData(kind)));
      const rmse = bidirectional ? data : weidmann;
      const pass = rmse !== null && rmse < rmseTarget && unplaced.length === 0 &&
        backwards <= 0.01;
      const at = (rho: number) => {
        const p = points.find(([d]) => Math.abs(d - rho) < 0.35);
        return p ? p[1] : null;
      };
      return {
        status: pass ? "pass" : "fail",
        summary: `RMSE ${fmt(weidmann)} m/s vs Weidmann, ${fmt(data)} vs Jülich; v(1) ${
          fmt(at(1))
        }, v(2) ${fmt(at(2))}, v(3) ${fmt(at(3))} m/s${
          unplaced.length ? `; cannot place ${unplaced.join(", ")} /m²` : ""
        }${backwards > 0.01 ? `; ${(100 * backwards).toFixed(0)} % backwards` : ""}`,
        figures: {
          ...(bidirectional
            ? { "rmseJuelich (m/s)": data, "rmseWeidmann (m/s)": weidmann }
            : { "rmseWeidmann (m/s)": weidmann, "rmseJuelich (m/s)": data }),
          "speedAt1 (m/s)": at(1),
          "speedAt2 (m/s)": at(2),
          "backwardsShare": backwards,
          "unplacedDensities": unplaced.length,
        },
      };
    },
    pictures(results): Picture[] {
      const series: XySeries[] = [{
        name: bidirectional ? "Jülich bidirectional 3.6 m" : "Jülich closed corridor 1.8 m",
        points: fdData(kind),
        style: "points",
        colour: "#bbbbbb",
      }, {
        name: "Weidmann 1993",
        points: Array.from({ length: 54 }, (_, k) => [0.1 * (k + 1), weidmannSpeed(0.1 * (k + 1))]),
        style: "line",
        colour: "#000000",
      }];
      results.forEach((r, k) => {
        series.push({
          name: r.strategy,
          points: meanFdPoints(r.runs),
          style: "line",
          colour: SERIES_COLOURS[k % SERIES_COLOURS.length],
          marker: "square",
        });
      });
      const flowSeries = series.map((s) => ({
        ...s,
        points: s.points.map(([d, v]) => [d, d * v] as [number, number]),
      }));
      return [{
        name: `${kind === "bidirectional" ? "fd-bidirectional" : "fd-unidirectional"}-speed`,
        title: `Speed against density, ${kind}`,
        svg: renderXyChartSvg({
          title: `Fundamental diagram (${kind}): speed`,
          xLabel: "Voronoi density (persons/m²)",
          yLabel: "speed (m/s)",
          series,
          range: [0, 5.5, -0.2, 2],
        }),
      }, {
        name: `${kind === "bidirectional" ? "fd-bidirectional" : "fd-unidirectional"}-flow`,
        title: `Specific flow against density, ${kind}`,
        svg: renderXyChartSvg({
          title: `Fundamental diagram (${kind}): flow`,
          xLabel: "Voronoi density (persons/m²)",
          yLabel: "specific flow ρ·v (1/(m·s))",
          series: flowSeries,
          range: [0, 5.5, 0, 2.5],
        }),
      }];
    },
  });
}

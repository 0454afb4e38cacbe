/**
 * Counter-flow: two groups of 60 walk towards each other along a 3.6 m wide corridor (the
 * width of the HERMES bidirectional experiments), starting at 1 or 2 persons/m². Measured: the
 * share of people through the opposing group within 120 s, and the lane order parameter Φ
 * (Rex and Löwen 2007) while the groups pass each other, next to Φ of the Jülich
 * bidirectional runs (J. Zhang et al., "Ordering in bidirectional pedestrian flows and its
 * influence on the fundamental diagram", J. Stat. Mech. (2012) P02002).
 *
 * @module
 */
import { AgentFlags } from "../core/agent_store.ts";
import type { TrajectoryData } from "../recording/trajectory.ts";
import { groupByAgent } from "../recording/agent_tracks.ts";
import { buildScenario } from "../scenarios/build.ts";
import type { ScenarioSpec } from "../scenarios/schema.ts";
import { dataRoot, JUELICH_RUNS, readJuelichRun } from "./data_files.ts";
import { laneOrderOf } from "./lane_order_of.ts";
import {
  defineTest,
  fmt,
  meanOf,
  type MeasureContext,
  type Picture,
  type ValidationTest,
} from "./validation_test_spec.ts";

/** Corridor width (m). */
export const COUNTER_FLOW_WIDTH = 3.6;
/** People per direction. */
export const COUNTER_FLOW_GROUP = 60;
/** Seconds allowed. */
export const COUNTER_FLOW_SECONDS = 120;

/**
 * The scenario at `density` (persons/m²): each group fills a block across the corridor, 4 m
 * apart, and heads for the far end, 3 m past where the other group started.
 *
 * @example
 * ```ts
 * import { counterFlowScenario } from "./counter_flow.ts";
 * import assert from "node:assert/strict";
 * const spec = counterFlowScenario(1);
 * assert.equal(spec.spawners.length, 2);
 * assert.equal(spec.spawners[0].count, 60);
 * ```
 */
export function counterFlowScenario(density: number): ScenarioSpec {
  const half = COUNTER_FLOW_WIDTH / 2, margin = 0.3;
  const length = COUNTER_FLOW_GROUP / (density * (COUNTER_FLOW_WIDTH - 2 * margin));
  const gap = 2, far = gap + length + 3, end = far + 2;
  return {
    name: `counter-flow-${density}`,
    dt: 0.05,
    duration: COUNTER_FLOW_SECONDS,
    walkingSide: "right",
    bounds: [-end, -half, end, half],
    walls: [{ points: [[-end, -half], [end, -half], [end, half], [-end, half]], closed: true }],
    goals: {
      east: { rect: [far, -half + margin, end - 0.3, half - margin] },
      west: { rect: [-end + 0.3, -half + margin, -far, half - margin] },
    },
    spawners: [
      {
        name: "eastbound",
        area: { rect: [-gap - length, -half + margin, -gap, half - margin] },
        count: COUNTER_FLOW_GROUP,
        goal: "east",
      },
      {
        name: "westbound",
        area: { rect: [gap, -half + margin, gap + length, half - margin] },
        count: COUNTER_FLOW_GROUP,
        goal: "west",
      },
    ],
  };
}

/** A snapshot of walkers for the lane picture. */
export interface LaneSnapshot {
  /** Time (s). */
  time: number;
  /** Positions x (m). */
  x: number[];
  /** Positions y (m). */
  y: number[];
  /** +1 eastbound, −1 westbound. */
  dir: number[];
}

/** One counter-flow run. */
export interface CounterFlowRun {
  /** Start density (persons/m²). */
  density: number;
  /** Share of the 120 through within the time (arrived at the far end). */
  through: number;
  /** Mean Φ while both groups overlap in the middle, null when they never did. */
  laneOrder: number | null;
  /** The crowd when the most people were in the middle 8 m. */
  snapshot: LaneSnapshot | null;
}

/** Runs one counter-flow scenario. */
export function measureCounterFlow(context: MeasureContext, density: number): CounterFlowRun {
  const built = buildScenario(counterFlowScenario(density), {
    registry: context.registry,
    strategy: { name: context.strategy },
    seed: context.seed,
  });
  const world = built.world, a = world.agents;
  const total = 2 * COUNTER_FLOW_GROUP;
  let arrived = 0;
  world.addObserver({ onArrival: () => void arrived++ });
  const every = Math.round(1 / world.dt);
  const orders: number[] = [];
  let snapshot: LaneSnapshot | null = null, best = 0;
  while (world.stepIndex < built.steps && !world.finished) {
    world.step();
    if (world.stepIndex % every !== 0) continue;
    const x: number[] = [], y: number[] = [], dx: number[] = [], dir: number[] = [];
    let east = 0, west = 0;
    for (let i = 0; i < a.count; i++) {
      if ((a.flags[i] & AgentFlags.arrived) !== 0 || Math.abs(a.px[i]) > 4) continue;
      const d = a.goalX[i] > a.px[i] ? 1 : -1;
      if (d > 0) east++;
      else west++;
      x.push(a.px[i]);
      y.push(a.py[i]);
      dx.push(d);
      dir.push(d);
    }
    if (east >= 5 && west >= 5) {
      const phi = laneOrderOf(x, y, dx, new Float64Array(dx.length));
      if (phi !== null) orders.push(phi);
      if (x.length > best) {
        best = x.length;
        snapshot = { time: world.time, x, y, dir };
      }
    }
  }
  return { density, through: arrived / total, laneOrder: meanOf(orders), snapshot };
}

/**
 * Mean lane order Φ of a measured bidirectional corridor run (walking along ±y): once a second,
 * over the people within `halfLength` m of the middle, with their direction from their motion
 * over half a second, when at least 5 walk each way.
 */
export function measuredLaneOrder(data: TrajectoryData, halfLength = 4): number | null {
  const tracks = groupByAgent(data);
  const lag = Math.max(1, Math.round(data.frameRate / 2));
  const byFrame = new Map<number, { x: number; y: number; dir: number }[]>();
  const every = Math.round(data.frameRate);
  for (const t of tracks.values()) {
    for (let k = lag; k < t.count; k++) {
      if (t.frames[k] % every !== 0 || Math.abs(t.y[k]) > halfLength) continue;
      const vy = t.y[k] - t.y[k - lag];
      if (Math.abs(vy) < 0.05) continue;
      const list = byFrame.get(t.frames[k]) ?? [];
      list.push({ x: t.x[k], y: t.y[k], dir: Math.sign(vy) });
      byFrame.set(t.frames[k], list);
    }
  }
  const orders: number[] = [];
  for (const people of byFrame.values()) {
    const up = people.filter((p) => p.dir > 0).length;
    if (up < 5 || people.length - up < 5) continue;
    const phi = laneOrderOf(
      people.map((p) => p.x),
      people.map((p) => p.y),
      new Float64Array(people.length),
      people.map((p) => p.dir),
    );
    if (phi !== null) orders.push(phi);
  }
  return meanOf(orders);
}

/** The lane orders measured, by data folder. */
const _measured = new Map<string, Record<string, number | null>>();

/** Φ of the Jülich bidirectional runs bo-360-050, -090 and -160 (cached; null when absent). */
export function juelichLaneOrders(): Record<string, number | null> {
  const cached = _measured.get(dataRoot().href);
  if (cached) return cached;
  const out: Record<string, number | null> = {};
  for (const key of ["bo050", "bo090", "bo160"] as const) {
    try {
      out[key] = measuredLaneOrder(readJuelichRun(JUELICH_RUNS[key]));
    } catch {
      out[key] = null;
    }
  }
  _measured.set(dataRoot().href, out);
  return out;
}

/** The lane snapshot as SVG: eastbound red, westbound blue, corridor walls grey. */
export function laneSnapshotSvg(title: string, snapshot: LaneSnapshot): string {
  const scale = 60, half = COUNTER_FLOW_WIDTH / 2, x0 = -4.5, x1 = 4.5;
  const w = (x1 - x0) * scale, h = 2 * half * scale + 40;
  const sx = (x: number) => (x - x0) * scale, sy = (y: number) => 30 + (half - y) * scale;
  const dots = snapshot.x.map((x, k) =>
    `<circle cx="${sx(x).toFixed(1)}" cy="${sy(snapshot.y[k]).toFixed(1)}" r="${
      0.25 * scale
    }" fill="${snapshot.dir[k] > 0 ? "#d62728" : "#1f77b4"}" fill-opacity="0.8"/>`
  );
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="6" y="18" font-size="13">${esc(title)} — t = ${
      snapshot.time.toFixed(0)
    } s (red → east, blue → west)</text>`,
    `<line x1="0" y1="${sy(half)}" x2="${w}" y2="${sy(half)}" stroke="#555" stroke-width="3"/>`,
    `<line x1="0" y1="${sy(-half)}" x2="${w}" y2="${sy(-half)}" stroke="#555" stroke-width="3"/>`,
    ...dots,
    "</svg>",
  ].join("\n");
}

/** The counter-flow test at 1 and 2 persons/m² (one density in the quick variant: 2 /m²). */
export function counterFlowTest(): ValidationTest {
  return defineTest<CounterFlowRun[]>({
    id: "counter-flow",
    group: "Counter-flow",
    title: "two-way corridor 3.6 m, 2 × 60 people at 1 and 2 /m²",
    criterion:
      "at least 99 % through within 120 s at each density; lane order Φ reported next to the Jülich bidirectional runs (HERMES 2009, bo-360)",
    cost: (quick) => (quick ? 3 : 6),
    measure: (ctx) => (ctx.quick ? [2] : [1, 2]).map((d) => measureCounterFlow(ctx, d)),
    judge(runs) {
      const densities = runs[0].map((r) => r.density);
      const through = densities.map((_, k) => Math.min(...runs.map((r) => r[k].through)));
      const phi = densities.map((_, k) => meanOf(runs.map((r) => r[k].laneOrder)));
      const measured = juelichLaneOrders();
      const pass = through.every((t) => t >= 0.99);
      return {
        status: pass ? "pass" : "fail",
        summary: densities.map((d, k) =>
          `${d} /m²: ${(100 * through[k]).toFixed(0)} % through (worst seed), Φ ${fmt(phi[k])}`
        ).join("; ") +
          `; Jülich Φ ${fmt(measured.bo050)}–${fmt(measured.bo160)}`,
        figures: Object.fromEntries(densities.flatMap((d, k) => [
          [`throughAt${d} (share)`, through[k]],
          [`laneOrderAt${d}`, phi[k]],
        ])),
      };
    },
    pictures(results): Picture[] {
      return results.flatMap((r) => {
        const last = r.runs[0];
        return last.filter((run) =>
          run.snapshot
        ).map((run) => ({
          name: `lanes-${r.strategy}-${run.density}`,
          title: `Counter-flow lanes, ${r.strategy}, ${run.density} /m²`,
          svg: laneSnapshotSvg(`${r.strategy}, ${run.density} /m²`, run.snapshot!),
        }));
      });
    },
  });
}

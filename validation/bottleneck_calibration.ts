/**
 * Training data for bottleneck flow, kept apart from the validation: the HERMES unidirectional
 * corridor runs (Düsseldorf 2009; J. Zhang, W. Klingsch, A. Schadschneider, A. Seyfried,
 * "Transitions in pedestrian fundamental diagrams of straight corridors and T-junctions",
 * J. Stat. Mech. (2011) P06004). Two kinds of openings: the three runs whose 1.8 m corridor ends
 * in a narrow exit (0.70, 0.95 and 1.20 m), and the six whose crowd enters the set-up through an
 * entrance (0.50, 0.60, 0.70, 1.00, 1.45 and 1.80 m) from its waiting area. The validation's
 * bottleneck tables and the Wuppertal 0.5 m channel are not read here. The flow through each
 * opening is measured from the trajectories as in the validation (J = (n − 1)/(t_n − t_1) over
 * the middle 60 % of the crossings of a line) and against the same flow of a simulated copy of
 * the set-up: a waiting room, for the entrance runs a thin door of width b into a 3.8 m wide,
 * 4 m long hall, the 1.8 m wide, 8 m long corridor, and for the exit runs a thin door of width
 * b centred at the corridor's end.
 *
 * The entrance itself lies just outside the trajectories (which begin 4 m before the corridor);
 * its flow is measured where the crowd enters the corridor, which every person crosses once
 * they are through the entrance.
 *
 * ```sh
 * deno run --allow-read validation/bottleneck_calibration.ts [--seeds 1-3] [strategy-spec ...]
 * ```
 *
 * prints, per strategy spec (`name:option=value:...`), the simulated J/b at each opening (mean
 * over the seeds, 1–3 unless given) beside the measured one, and the RMSE over the exits, over
 * the entrances and over all nine runs, with the range that RMSE takes over resamples of the
 * seeds ({@linkcode rmseInterval}); given several specs, it ends with the one of lowest RMSE and
 * how often each other spec is lower on the same resamples ({@linkcode shareBelow}).
 *
 * @module
 */
import type { StrategyRegistry } from "../core/registry.ts";
import { SHOULDER_RADIUS } from "../core/distribution.ts";
import { groupByAgent } from "../recording/agent_tracks.ts";
import { buildScenario } from "../scenarios/build.ts";
import type { ScenarioSpec } from "../scenarios/schema.ts";
import { hermesUnidirectionalRun, readJuelichRun } from "./data_files.ts";
import { distributionSpec } from "./bottleneck_flow.ts";
import { LineCrossings, steadyFlow } from "./line_crossings.ts";
import { withStrategyVariants } from "./strategy_variants.ts";
import { parseArgs } from "node:util";
import { seedListFlag } from "../cli/_args.ts";
import { runMain, UsageError } from "../cli/_errors.ts";
import { createProgress } from "../cli/_progress.ts";
import { Rng } from "../core/rng.ts";

/** The runs with a narrow exit: file, exit width b (m), persons. */
export const HERMES_EXIT_RUNS: readonly OpeningRun[] = [
  { name: "uo-180-180-070", width: 0.7, persons: 148 },
  { name: "uo-180-180-095", width: 0.95, persons: 159 },
  { name: "uo-180-180-120", width: 1.2, persons: 170 },
];

/**
 * The runs whose crowd enters through an entrance from its waiting area: file, entrance width b
 * (m), persons. The widest, 1.80 m, is as wide as the corridor; its flow (2.98 /s) is hardly
 * above the 1.45 m run's (2.92 /s), so the widest entrances may be limited by the waiting crowd
 * as much as by the opening.
 */
export const HERMES_ENTRANCE_RUNS: readonly OpeningRun[] = [
  { name: "uo-050-180-180", width: 0.5, persons: 61 },
  { name: "uo-060-180-180", width: 0.6, persons: 66 },
  { name: "uo-070-180-180", width: 0.7, persons: 111 },
  { name: "uo-100-180-180", width: 1.0, persons: 121 },
  { name: "uo-145-180-180", width: 1.45, persons: 175 },
  { name: "uo-180-180-180", width: 1.8, persons: 220 },
];

/** Corridor width (m) and length (m) of the HERMES unidirectional series (PROVENANCE). */
const CORRIDOR_WIDTH = 1.8, CORRIDOR_LENGTH = 8;
/** The hall between the entrance and the corridor: width and length (m; PedPy's polygon). */
const HALL_WIDTH = 3.8, HALL_LENGTH = 4;

/** Flow J (persons/s) over the middle 60 % of the crossings of y = `lineY` towards −y. */
function measuredLineFlow(name: string, lineY: number): number | null {
  const data = readJuelichRun(hermesUnidirectionalRun(name));
  const times: number[] = [];
  for (const t of groupByAgent(data).values()) {
    for (let k = 1; k < t.count; k++) {
      if (t.y[k - 1] > lineY && t.y[k] <= lineY) {
        times.push(t.time[k]);
        break;
      }
    }
  }
  return steadyFlow(times, times.length);
}

/**
 * Measured flow J (persons/s) through the entrance of one run: the crossings of the corridor's
 * start, y = 4 m (people walk towards −y), over the middle 60 % of the persons.
 */
export function measuredEntranceFlow(name: string): number | null {
  return measuredLineFlow(name, 4);
}

/**
 * Measured flow J (persons/s) through the exit of one run: the crossings of its end, y = −4 m
 * (people walk towards −y), over the middle 60 % of the persons.
 */
export function measuredExitFlow(name: string): number | null {
  return measuredLineFlow(name, -4);
}

/**
 * The simulated set-up, walking towards +x: a waiting room 10 m wide filled at 1.5 persons/m²,
 * the corridor (1.8 m wide, 8 m long) and at its end (x = 0) a thin wall with a centred exit
 * of width `b` (m).
 */
export function hermesExitScenario(b: number, agents: number): ScenarioSpec {
  if (!(b > 0 && b <= CORRIDOR_WIDTH)) {
    throw new RangeError(
      `Cannot create the HERMES exit scenario as 'b' must be in (0, ${CORRIDOR_WIDTH}] m: current value is ${b}`,
    );
  }
  const h = b / 2, w = CORRIDOR_WIDTH / 2, L = CORRIDOR_LENGTH;
  const depth = Math.max(4, agents / (1.5 * 9.2) + 1.4);
  return {
    name: `hermes-exit-${b}m`,
    dt: 0.05,
    duration: Math.ceil(agents / 0.4 + 60),
    bounds: [-L - depth - 0.5, -5.5, 9, 5.5],
    walls: [[
      [0, h],
      [0, w],
      [-L, w],
      [-L, 5],
      [-L - depth, 5],
      [-L - depth, -5],
      [-L, -5],
      [
        -L,
        -w,
      ],
      [0, -w],
      [0, -h],
    ]],
    agents: { radius: distributionSpec(SHOULDER_RADIUS) },
    goals: { exit: { rect: [6, -4.5, 8, 4.5] } },
    spawners: [{
      name: "room",
      area: { rect: [-L - depth + 0.4, -4.6, -L - 1, 4.6] },
      count: agents,
      goal: "exit",
      via: [[[-L, -w], [-L, w]], [[0, -h], [0, h]]],
    }],
  };
}

/**
 * The simulated entrance set-up, walking towards +x: a waiting room 10 m wide filled at 1.5
 * persons/m², a thin wall with a centred entrance of width `b` (m), the hall (3.8 m wide, 4 m
 * long), the corridor (1.8 m wide, 8 m long, ending at x = 0) and open ground beyond.
 */
export function hermesEntranceScenario(b: number, agents: number): ScenarioSpec {
  if (!(b > 0 && b <= HALL_WIDTH)) {
    throw new RangeError(
      `Cannot create the HERMES entrance scenario as 'b' must be in (0, ${HALL_WIDTH}] m: current value is ${b}`,
    );
  }
  const h = b / 2, w = CORRIDOR_WIDTH / 2, hw = HALL_WIDTH / 2, L = CORRIDOR_LENGTH;
  const door = -L - HALL_LENGTH, depth = Math.max(4, agents / (1.5 * 9.2) + 1.4);
  return {
    name: `hermes-entrance-${b}m`,
    dt: 0.05,
    duration: Math.ceil(agents / 0.4 + 60),
    bounds: [door - depth - 0.5, -5.5, 9, 5.5],
    walls: [
      [[door, h], [door, 5], [door - depth, 5], [door - depth, -5], [door, -5], [door, -h]],
      [[door, hw], [-L, hw], [-L, w], [0, w]],
      [[door, -hw], [-L, -hw], [-L, -w], [0, -w]],
    ],
    agents: { radius: distributionSpec(SHOULDER_RADIUS) },
    goals: { exit: { rect: [6, -4.5, 8, 4.5] } },
    spawners: [{
      name: "room",
      area: { rect: [door - depth + 0.4, -4.6, door - 1, 4.6] },
      count: agents,
      goal: "exit",
      via: [[[door, -h], [door, h]], [[-L, -w], [-L, w]], [[0, -w], [0, w]]],
    }],
  };
}

/** What a simulated opening run needs. */
export interface OpeningRunOptions {
  strategy: string;
  strategyOptions?: Record<string, unknown>;
  width: number;
  agents: number;
  seed: number;
  registry: StrategyRegistry;
}

/** Flow J (persons/s) over the middle 60 % of the crossings of the line x = `lineX`, |y| ≤ `half`. */
function simulatedLineFlow(
  spec: ScenarioSpec,
  lineX: number,
  half: number,
  options: OpeningRunOptions,
): number | null {
  const built = buildScenario(spec, {
    registry: options.registry,
    strategy: { name: options.strategy, options: options.strategyOptions ?? {} },
    seed: options.seed,
  });
  const world = built.world;
  const line = new LineCrossings({ from: [lineX, -half], to: [lineX, half] });
  world.addObserver(line);
  const last = Math.ceil(0.8 * options.agents) - 1;
  while (line.count <= last && world.stepIndex < built.steps && !world.finished) world.step();
  return steadyFlow(line.times, options.agents);
}

/** Simulated flow J (persons/s) through the exit of width `b` (m), or null if it clogged. */
export function simulatedExitFlow(options: OpeningRunOptions): number | null {
  const b = options.width;
  return simulatedLineFlow(hermesExitScenario(b, options.agents), 0, b / 2, options);
}

/**
 * Simulated flow J (persons/s) through the entrance of width `b` (m), counted where the crowd
 * enters the corridor as in the measurement, or null if it clogged.
 */
export function simulatedEntranceFlow(options: OpeningRunOptions): number | null {
  const spec = hermesEntranceScenario(options.width, options.agents);
  return simulatedLineFlow(spec, -CORRIDOR_LENGTH, CORRIDOR_WIDTH / 2, options);
}

/** Simulated against measured J/b ((m·s)⁻¹) at a set of openings. */
export interface OpeningFit {
  /** Measured J/b per run. */
  measured: number[];
  /** Simulated J/b per run, mean over the seeds (null: a run clogged). */
  simulated: (number | null)[];
  /** Simulated J/b per run and seed, in the order of the seeds (null: clogged). */
  perSeed: (number | null)[][];
  /** Root mean square of simulated − measured (m·s)⁻¹; Infinity if a run clogged. */
  rmse: number;
}

/** A HERMES run with a narrow opening: file, opening width b (m), persons. */
export interface OpeningRun {
  name: string;
  width: number;
  persons: number;
}

/** The two kinds of training opening: their runs, how each is measured and simulated. */
export const HERMES_OPENINGS = {
  exit: { runs: HERMES_EXIT_RUNS, measure: measuredExitFlow, simulate: simulatedExitFlow },
  entrance: {
    runs: HERMES_ENTRANCE_RUNS,
    measure: measuredEntranceFlow,
    simulate: simulatedEntranceFlow,
  },
} as const;

/**
 * Runs `strategy` with `strategyOptions` through the openings of one kind (the three exits or
 * the six entrances; seeds 1–3 by default) and compares the mean J/b with the measured one.
 * `onRun` is called after each simulated run (for progress).
 */
export function openingFit(
  kind: keyof typeof HERMES_OPENINGS,
  strategy: string,
  strategyOptions: Record<string, unknown>,
  registry: StrategyRegistry,
  seeds: readonly number[] = [1, 2, 3],
  onRun?: () => void,
): OpeningFit {
  const { runs, measure, simulate } = HERMES_OPENINGS[kind];
  const measured = runs.map((r) => measure(r.name)! / r.width);
  const perSeed = runs.map((r) =>
    seeds.map((seed) => {
      const j = simulate({
        strategy,
        strategyOptions,
        width: r.width,
        agents: r.persons,
        seed,
        registry,
      });
      onRun?.();
      return j === null ? null : j / r.width;
    })
  );
  const simulated = perSeed.map(meanOrNull);
  return { measured, simulated, perSeed, rmse: pooledRmse([{ measured, simulated }]) };
}

/** Mean of the values, or null if any is null (a clogged run). */
function meanOrNull(values: readonly (number | null)[]): number | null {
  let sum = 0;
  for (const v of values) {
    if (v === null) return null;
    sum += v;
  }
  return sum / values.length;
}

/** Number of seed resamples behind {@linkcode rmseInterval} and {@linkcode shareBelow}. */
export const SEED_RESAMPLES = 1000;

/**
 * The pooled RMSE of `fits` over {@linkcode SEED_RESAMPLES} resamples of the seeds with
 * replacement, drawn from a fixed random stream: the same resamples for every spec with the same
 * number of seeds, and the same resample for every run of one spec, as a seed is one draw of
 * every run. A clogged run in a resample makes its RMSE Infinity.
 */
export function resampledRmse(
  fits: readonly Pick<OpeningFit, "measured" | "perSeed">[],
): Float64Array {
  const seedCount = fits[0]?.perSeed[0]?.length ?? 0;
  if (seedCount === 0) throw new RangeError("resampledRmse needs at least one run and one seed");
  const rng = new Rng(1);
  const pick = new Int32Array(seedCount);
  const values = new Float64Array(SEED_RESAMPLES);
  for (let d = 0; d < SEED_RESAMPLES; d++) {
    for (let k = 0; k < seedCount; k++) pick[k] = rng.int(seedCount);
    values[d] = pooledRmse(fits.map((f) => ({
      measured: f.measured,
      simulated: f.perSeed.map((flows) => meanOrNull(Array.from(pick, (k) => flows[k]))),
    })));
  }
  return values;
}

/**
 * How far a pooled RMSE moves with the seeds: the 5th and 95th percentiles of its values over
 * the seed resamples (from {@linkcode resampledRmse}, which is left as it is).
 */
export function rmseInterval(resamples: Float64Array): [number, number] {
  const values = Float64Array.from(resamples).sort();
  const at = (q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))];
  return [at(0.05), at(0.95)];
}

/**
 * Share (0–1) of the seed resamples in which spec `a` has a lower RMSE than spec `b` (ties count
 * half), both from {@linkcode resampledRmse} over the same seeds. Near 0.5 the training runs do
 * not tell the two apart; near 0 or 1 they do.
 */
export function shareBelow(a: Float64Array, b: Float64Array): number {
  if (a.length !== b.length) throw new RangeError("shareBelow needs resamples of the same seeds");
  let share = 0;
  for (let d = 0; d < a.length; d++) share += a[d] < b[d] ? 1 : a[d] === b[d] ? 0.5 : 0;
  return share / a.length;
}

/** RMSE (m·s)⁻¹ over the runs of several fits together; Infinity if a run clogged. */
export function pooledRmse(
  fits: readonly Pick<OpeningFit, "measured" | "simulated">[],
): number {
  let se = 0, n = 0;
  for (const f of fits) {
    f.simulated.forEach((j, k) => se += j === null ? Infinity : (j - f.measured[k]) ** 2);
    n += f.measured.length;
  }
  return Math.sqrt(se / n);
}

/** The script: `[--seeds 1-3] [spec ...]`, one line per spec. */
function calibrationMain(args: string[], registry: StrategyRegistry): void {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { seeds: { type: "string", default: "1-3" } },
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; usage: ${USAGE}`);
  }
  const seeds = seedListFlag(parsed.values.seeds!);
  const specs = parsed.positionals.length > 0 ? parsed.positionals : ["social-force"];
  for (const spec of specs) {
    if (!registry.has(spec.split(":")[0])) {
      throw new UsageError(
        `unknown strategy '${spec}': registered are ${registry.names().join(", ")}`,
      );
    }
  }
  let variants: StrategyRegistry;
  try {
    variants = withStrategyVariants(registry, specs);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  console.log(`seeds ${seeds.join(", ")}`);
  const cells = (fit: OpeningFit) =>
    fit.simulated.map((j) => j === null ? "clog" : j.toFixed(2)).join(" / ");
  const results: { spec: string; rmse: number; resamples: Float64Array }[] = [];
  const runCount = (HERMES_EXIT_RUNS.length + HERMES_ENTRANCE_RUNS.length) * seeds.length;
  specs.forEach((spec, k) => {
    const bar = createProgress(spec, runCount, false, "runs");
    let done = 0;
    const onRun = () => bar.update(++done);
    const exits = openingFit("exit", spec, {}, variants, seeds, onRun);
    const entrances = openingFit("entrance", spec, {}, variants, seeds, onRun);
    bar.stop();
    if (k === 0) {
      for (const [kind, fit] of [["exits", exits], ["entrances", entrances]] as const) {
        const runs = kind === "exits" ? HERMES_EXIT_RUNS : HERMES_ENTRANCE_RUNS;
        console.log(
          `measured J/b, ${kind}: ${
            runs.map((r, m) => `${r.width} m ${fit.measured[m].toFixed(2)}`).join(", ")
          }`,
        );
      }
    }
    const rmse = pooledRmse([exits, entrances]);
    const resamples = resampledRmse([exits, entrances]);
    results.push({ spec, rmse, resamples });
    const [low, high] = rmseInterval(resamples);
    console.log(
      `${spec}: exits ${cells(exits)} (RMSE ${exits.rmse.toFixed(3)}); entrances ${
        cells(entrances)
      } (RMSE ${entrances.rmse.toFixed(3)}); all ${rmse.toFixed(3)} (${low.toFixed(3)}–${
        high.toFixed(3)
      } over seed resamples)`,
    );
  });
  if (results.length > 1) {
    const leader = results.reduce((best, r) => r.rmse < best.rmse ? r : best);
    const others = results.filter((r) => r !== leader).map((r) =>
      `${r.spec} ${Math.round(100 * shareBelow(r.resamples, leader.resamples))} %`
    );
    console.log(
      `lowest RMSE: ${leader.spec}; share of seed resamples in which another spec is lower: ${
        others.join(", ")
      }`,
    );
  }
}

const USAGE =
  "deno run --allow-read validation/bottleneck_calibration.ts [--seeds 1-3] [strategy-spec ...]";

if (import.meta.main) {
  const { strategies } = await import("../strategies/mod.ts");
  await runMain(() => Promise.resolve(calibrationMain(Deno.args, strategies)));
}

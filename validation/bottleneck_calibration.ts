/**
 * Training data for bottleneck flow, kept apart from the validation: the three HERMES
 * unidirectional corridor runs whose 1.8 m corridor ends in a narrow exit (0.70, 0.95 and
 * 1.20 m; Düsseldorf 2009; J. Zhang, W. Klingsch, A. Schadschneider, A. Seyfried, "Transitions
 * in pedestrian fundamental diagrams of straight corridors and T-junctions", J. Stat. Mech.
 * (2011) P06004). The validation's bottleneck tables and the Wuppertal 0.5 m channel are not
 * read here. The flow through each exit is measured from the trajectories as in the
 * validation (J = (n − 1)/(t_n − t_1) over the middle 60 % of the crossings of the exit line)
 * and against the same flow of a simulated copy of the set-up: a waiting room, the 1.8 m wide,
 * 8 m long corridor, and the exit, a thin door of width b centred at the corridor's end.
 *
 * ```sh
 * deno run --allow-read validation/bottleneck_calibration.ts [strategy-spec ...]
 * ```
 *
 * prints, per strategy spec (`name:option=value:...`), the simulated J/b at each exit (seeds
 * 1–3) beside the measured one and the RMSE.
 *
 * @module
 */
import type { StrategyRegistry } from "../core/registry.ts";
import { SHOULDER_RADIUS } from "../core/distribution.ts";
import { groupByAgent } from "../recording/agent_tracks.ts";
import { buildScenario } from "../scenarios/build.ts";
import type { ScenarioSpec } from "../scenarios/schema.ts";
import { readJuelichRun } from "./data_files.ts";
import { distributionSpec } from "./bottleneck_flow.ts";
import { LineCrossings, steadyFlow } from "./line_crossings.ts";

/** The runs with a narrow exit: file, exit width b (m), persons. */
export const HERMES_EXIT_RUNS: readonly { name: string; width: number; persons: number }[] = [
  { name: "uo-180-180-070", width: 0.7, persons: 148 },
  { name: "uo-180-180-095", width: 0.95, persons: 159 },
  { name: "uo-180-180-120", width: 1.2, persons: 170 },
];

/** Corridor width (m) and length (m) of the HERMES unidirectional series (PROVENANCE). */
const CORRIDOR_WIDTH = 1.8, CORRIDOR_LENGTH = 8;

/**
 * Measured flow J (persons/s) through the exit of one run: the crossings of its end, y = −4 m
 * (people walk towards −y), over the middle 60 % of the persons.
 */
export function measuredExitFlow(name: string): number | null {
  const data = readJuelichRun({
    file: `trajectories/juelich/hermes-2009-corridor-unidirectional/${name}.txt`,
    unit: "cm",
    frameRate: 16,
  });
  const times: number[] = [];
  for (const t of groupByAgent(data).values()) {
    for (let k = 1; k < t.count; k++) {
      if (t.y[k - 1] > -4 && t.y[k] <= -4) {
        times.push(t.time[k]);
        break;
      }
    }
  }
  return steadyFlow(times, times.length);
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

/** Simulated flow J (persons/s) through the exit of width `b` (m), or null if it clogged. */
export function simulatedExitFlow(options: {
  strategy: string;
  strategyOptions?: Record<string, unknown>;
  width: number;
  agents: number;
  seed: number;
  registry: StrategyRegistry;
}): number | null {
  const b = options.width;
  const built = buildScenario(hermesExitScenario(b, options.agents), {
    registry: options.registry,
    strategy: { name: options.strategy, options: options.strategyOptions ?? {} },
    seed: options.seed,
  });
  const world = built.world;
  const line = new LineCrossings({ from: [0, -b / 2], to: [0, b / 2] });
  world.addObserver(line);
  const last = Math.ceil(0.8 * options.agents) - 1;
  while (line.count <= last && world.stepIndex < built.steps && !world.finished) world.step();
  return steadyFlow(line.times, options.agents);
}

/** Simulated against measured J/b ((m·s)⁻¹) at the three exits. */
export interface ExitFit {
  /** Measured J/b per run of {@linkcode HERMES_EXIT_RUNS}. */
  measured: number[];
  /** Simulated J/b per run, mean over the seeds (null: a run clogged). */
  simulated: (number | null)[];
  /** Root mean square of simulated − measured (m·s)⁻¹; Infinity if a run clogged. */
  rmse: number;
}

/**
 * Runs `strategy` with `strategyOptions` through the three exits (seeds 1–3 by default) and
 * compares the mean J/b with the measured one.
 */
export function exitFit(
  strategy: string,
  strategyOptions: Record<string, unknown>,
  registry: StrategyRegistry,
  seeds: readonly number[] = [1, 2, 3],
): ExitFit {
  const measured = HERMES_EXIT_RUNS.map((r) => measuredExitFlow(r.name)! / r.width);
  const simulated = HERMES_EXIT_RUNS.map((r) => {
    const flows = seeds.map((seed) =>
      simulatedExitFlow({
        strategy,
        strategyOptions,
        width: r.width,
        agents: r.persons,
        seed,
        registry,
      })
    );
    if (flows.some((f) => f === null)) return null;
    return flows.reduce((sum: number, f) => sum + f!, 0) / flows.length / r.width;
  });
  let se = 0;
  simulated.forEach((j, k) => se += j === null ? Infinity : (j - measured[k]) ** 2);
  return { measured, simulated, rmse: Math.sqrt(se / measured.length) };
}

if (import.meta.main) {
  const { strategies } = await import("../strategies/mod.ts");
  const { withStrategyVariants } = await import("./mod.ts");
  const specs = Deno.args.length > 0 ? Deno.args : ["social-force"];
  const registry = withStrategyVariants(strategies, specs);
  let first = true;
  for (const spec of specs) {
    const fit = exitFit(spec, {}, registry);
    if (first) {
      console.log(
        `measured J/b: ${
          HERMES_EXIT_RUNS.map((r, k) => `${r.width} m ${fit.measured[k].toFixed(2)}`).join(", ")
        }`,
      );
      first = false;
    }
    const cells = fit.simulated.map((j) => j === null ? "clog" : j.toFixed(2));
    console.log(`${spec}: ${cells.join(" / ")}  RMSE ${fit.rmse.toFixed(3)}`);
  }
}

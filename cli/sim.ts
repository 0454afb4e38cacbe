/**
 * `deno task sim`: runs one simulation and prints its metrics; optionally records the
 * trajectories (`--out run.txt` for PedPy-style text, `--out run.bin` for the compact binary
 * form the viewer replays, `--out run.csv` with lon/lat columns on a map, `--out run.geojson`
 * for one longitude/latitude LineString per agent).
 *
 * ```sh
 * deno task sim --scenario bottleneck --strategy none --agents 200 --out run.bin
 * deno task sim --scenario my_scenario.json --seed 7 --json
 * deno task sim --scenario building --navigator navmesh --navigator-option slowingDistance=1
 * ```
 *
 * Ctrl-C stops the run after the current step, closes the recording (every frame in it is
 * complete), prints the metrics so far and exits with code 130.
 *
 * @module
 */
import { type FlagSpec, helpText, integerFlag, parseFlags } from "./_args.ts";
import { EXIT_INTERRUPTED, FileError, runMain, UsageError } from "./_errors.ts";
import { createProgress } from "./_progress.ts";
import { strategies } from "../strategies/mod.ts";
import { navigators } from "../navigation/mod.ts";
import { resolveScenario } from "../scenarios/resolve.ts";
import { buildScenario } from "../scenarios/build.ts";
import { runScenario } from "../scenarios/run.ts";
import { TrajectoryRecorder } from "../recording/recorder.ts";
import { sceneFromWorld } from "../viewer/scene_info.ts";
import { sceneFilePath, writeSceneFile } from "../viewer/scene_file.ts";
import { TrajectoryFileError } from "../recording/trajectory.ts";
import { METRIC_DOCS, METRIC_NAMES, metricLabel } from "../metrics/run_metrics.ts";
import { formatMetricsTable } from "../metrics/table.ts";
import { summarizeRuns } from "../metrics/summary.ts";
import { describeOptions } from "../core/options.ts";
import { NAVIGATOR_RESOURCE_NAMES } from "../navigation/navigator_factory.ts";
import { renderTrajectorySvg, TrajectorySampler } from "../plots/mod.ts";
import { plotSubtitle, svgPath } from "./compare.ts";
import { writeTextFileAtomic } from "./_files.ts";
import { resolveUserPath, userFolder } from "./_paths.ts";
import { citySimMain, isCityTrafficScenario } from "./_city_sim.ts";

/** The flags of `deno task sim`. */
export const SIM_FLAGS = {
  scenario: { type: "string", short: "s", help: "built-in name or scenario JSON file (required)" },
  strategy: { type: "string", help: "strategy name (default: the scenario's, else none)" },
  option: { type: "string", multiple: true, help: "strategy option name=value (repeatable)" },
  navigator: {
    type: "string",
    help:
      "navigator name (default: the scenario's, else navmesh with a navigation mesh, else goal-seeker)",
  },
  "navigator-option": {
    type: "string",
    multiple: true,
    help: "navigator option name=value (repeatable)",
  },
  agents: { type: "string", short: "n", help: "total agent count (scales the scenario)" },
  cars: { type: "string", help: "cars (city-grid, crosswalk, city-traffic)" },
  preset: { type: "string", help: "crowd preset of crosswalk: light, average or crowded" },
  map: {
    type: "string",
    help:
      "map file of city-traffic (.osm.pbf, .osm, .geojson; default the shipped Helsinki extract)",
  },
  steps: { type: "string", help: "steps to run (default: the scenario's duration / dt)" },
  seed: { type: "string", help: "random seed (default: the scenario's, else 1)" },
  out: {
    type: "string",
    short: "o",
    help:
      "record trajectories: .txt (PedPy text), .csv, .bin or .geojson (lon/lat); beside them <out>.scene.json (on a map) or <out>.traffic (cars) for the viewer's replay",
  },
  every: { type: "string", help: "record every k-th step (default 1)" },
  plot: { type: "string", help: "also draw trajectories and density (.svg)" },
  json: { type: "boolean", help: "print the result as JSON" },
  quiet: { type: "boolean", short: "q", help: "no progress bar" },
  list: {
    type: "boolean",
    help: "list scenarios, strategies and navigators (with options) and metrics",
  },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const satisfies Record<string, FlagSpec>;

const USAGE =
  "Usage: deno task sim --scenario S [--strategy X] [--option k=v] [--navigator Y] [--navigator-option k=v] [--agents N] [--steps N] [--seed K] [--out FILE] [--json]";

/** Parses `name=value`; values that read as JSON (numbers, booleans, objects) are parsed. */
function parseOption(text: string, flag = "--option"): [string, unknown] {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new UsageError(`${flag} must look like name=value: got '${text}'`);
  const name = text.slice(0, eq).trim(), raw = text.slice(eq + 1).trim();
  try {
    return [name, JSON.parse(raw)];
  } catch {
    return [name, raw];
  }
}

async function listEverything(): Promise<void> {
  const { BUILTIN_SCENARIOS } = await import("../scenarios/builtin/mod.ts");
  console.log("Built-in scenarios:");
  for (const [name, s] of Object.entries(BUILTIN_SCENARIOS)) {
    console.log(`  ${name.padEnd(14)} ${s.description} (default ${s.defaultAgents} agents)`);
  }
  console.log(
    `  ${
      "city-grid".padEnd(14)
    } pedestrians and cars in a 6 × 6 block city (default 10000 agents, 2000 cars)`,
  );
  console.log(
    `  ${
      "crosswalk".padEnd(14)
    } two flocks cross a street at a light among cars (--preset light|average|crowded)`,
  );
  console.log(
    `  ${
      "city-traffic".padEnd(14)
    } pedestrians and cars on the OpenStreetMap streets of Helsinki's centre (default 2000 agents, 300 cars)`,
  );
  console.log("\nStrategies:");
  for (const f of strategies.list()) {
    console.log(`  ${f.name.padEnd(14)} ${f.description}`);
    for (const line of describeOptions(f.options as never)) console.log(`      ${line}`);
  }
  console.log("\nNavigators:");
  for (const f of navigators.list()) {
    const needs = (f.requires ?? []).map((r) => NAVIGATOR_RESOURCE_NAMES[r]).join(" and ");
    console.log(`  ${f.name.padEnd(14)} ${f.description}${needs ? ` (needs ${needs})` : ""}`);
    for (const line of describeOptions(f.options as never)) console.log(`      ${line}`);
  }
  console.log("\nMetrics:");
  for (const name of METRIC_NAMES) {
    console.log(`  ${metricLabel(name).padEnd(24)} ${METRIC_DOCS[name]}`);
  }
}

/** Parses flags and runs one simulation; returns the exit code. */
export async function simMain(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, SIM_FLAGS);
  if (values.help) {
    console.log(
      helpText(
        USAGE,
        SIM_FLAGS,
        "Run with --list to see scenarios, strategies, navigators and their options.",
      ),
    );
    return 0;
  }
  if (values.list) {
    await listEverything();
    return 0;
  }
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument '${positionals[0]}' (see --help)`);
  }
  if (typeof values.scenario !== "string") {
    throw new UsageError("--scenario is required (see --help)");
  }
  if (isCityTrafficScenario(values.scenario)) return citySimMain(values);
  const options = Object.fromEntries(
    ((values.option ?? []) as string[]).map((t) => parseOption(t)),
  );
  if (Object.keys(options).length > 0 && typeof values.strategy !== "string") {
    throw new UsageError("--option needs --strategy");
  }
  const navigatorOptions = Object.fromEntries(
    ((values["navigator-option"] ?? []) as string[]).map((t) =>
      parseOption(t, "--navigator-option")
    ),
  );
  if (Object.keys(navigatorOptions).length > 0 && typeof values.navigator !== "string") {
    throw new UsageError("--navigator-option needs --navigator");
  }
  const seed = integerFlag("seed", values.seed);
  if (seed !== undefined && seed > 0xffff_ffff) {
    throw new UsageError(`--seed must be <= 4294967295: got '${seed}'`);
  }
  const every = integerFlag("every", values.every, 1) ?? 1;
  if (values.every !== undefined && typeof values.out !== "string") {
    throw new UsageError("--every needs --out");
  }

  const agents = integerFlag("agents", values.agents);
  const { spec, source, resources } = await resolveScenario(values.scenario, {
    agents,
    folder: userFolder(),
  });
  const built = buildScenario(spec, {
    registry: strategies,
    source,
    resources,
    agents,
    seed,
    steps: integerFlag("steps", values.steps),
    strategy: typeof values.strategy === "string" ? { name: values.strategy, options } : undefined,
    navigator: typeof values.navigator === "string"
      ? { name: values.navigator, options: navigatorOptions }
      : undefined,
  });

  for (const warning of built.warnings) console.error(`warning: ${source}: ${warning}`);

  let recorder: TrajectoryRecorder | undefined;
  if (typeof values.out === "string") {
    try {
      recorder = new TrajectoryRecorder({
        path: resolveUserPath(values.out),
        every,
        scenario: spec.name,
        anchor: spec.anchor ?? null,
        bounds: spec.bounds
          ? {
            minX: spec.bounds[0],
            minY: spec.bounds[1],
            maxX: spec.bounds[2],
            maxY: spec.bounds[3],
          }
          : undefined,
        description: `${spec.name} with ${built.strategyName}, seed ${built.world.seed}`,
      });
    } catch (error) {
      if (error instanceof TrajectoryFileError) throw new FileError(error.message);
      if (error instanceof RangeError || error instanceof TypeError) {
        throw new UsageError(`--out: ${error.message}`);
      }
      throw error;
    }
  }

  let sceneFile: string | undefined;
  if (recorder && resources?.city) {
    // A run on a map: the city's layers beside the recording, for replays that show the city.
    sceneFile = sceneFilePath(recorder.path);
    try {
      writeSceneFile(
        sceneFile,
        sceneFromWorld(built.world, built.spec, { city: resources.city, mesh: built.navMesh }),
      );
    } catch (error) {
      recorder.close();
      throw new FileError((error as Error).message);
    }
  }

  const plotPath = typeof values.plot === "string"
    ? resolveUserPath(svgPath(values.plot))
    : undefined;
  const sampler = plotPath ? new TrajectorySampler() : undefined;
  let interrupted = false;
  const onSigint = () => interrupted = true;
  Deno.addSignalListener("SIGINT", onSigint);
  const progress = createProgress(
    "sim",
    built.steps,
    values.quiet === true || values.json === true,
  );
  let outcome;
  try {
    outcome = await runScenario(built, {
      observers: [...(recorder ? [recorder] : []), ...(sampler ? [sampler] : [])],
      onProgress: (done) => progress.update(done),
      shouldStop: () => interrupted,
    });
  } finally {
    progress.stop();
    Deno.removeSignalListener("SIGINT", onSigint);
    recorder?.close();
  }

  const total = spec.spawners.reduce((sum, s) => sum + s.count, 0);
  if (plotPath && sampler) {
    const m = outcome.metrics;
    await writeTextFileAtomic(
      plotPath,
      renderTrajectorySvg([{
        title: built.strategyName,
        subtitle: plotSubtitle(built.world.seed, m),
        samples: sampler.samples(),
        polygons: sampler.polygons,
        walls: sampler.walls,
      }], { title: `${spec.name}: ${total} agents` }),
    );
  }
  if (values.json) {
    console.log(JSON.stringify({
      scenario: spec.name,
      strategy: built.strategyName,
      seed: built.world.seed,
      agents: total,
      steps: outcome.steps,
      interrupted: outcome.interrupted,
      out: recorder
        ? {
          path: recorder.path,
          format: recorder.format,
          frames: recorder.framesWritten,
          scene: sceneFile ?? null,
        }
        : null,
      metrics: outcome.metrics,
    }));
  } else {
    console.log(
      `scenario ${spec.name}: ${total} agents, strategy ${built.strategyName}, seed ${built.world.seed}, ${outcome.steps} steps of ${built.world.dt} s${
        outcome.interrupted ? " (interrupted)" : outcome.finished ? " (everyone arrived)" : ""
      }\n`,
    );
    console.log(
      formatMetricsTable([{ name: built.strategyName, summary: summarizeRuns([outcome.metrics]) }]),
    );
    if (recorder) {
      console.log(
        `\nwrote ${recorder.framesWritten} frames to ${recorder.path} (${recorder.format})${
          sceneFile ? ` and the city's layers to ${sceneFile}` : ""
        }`,
      );
    }
    if (plotPath) console.log(`${recorder ? "" : "\n"}drew ${plotPath}`);
  }
  return outcome.interrupted ? EXIT_INTERRUPTED : 0;
}

if (import.meta.main) await runMain(() => simMain(Deno.args));

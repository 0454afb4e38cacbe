/**
 * `deno task sim` for the built-in scenarios with cars (`city-grid`, `crosswalk`,
 * `city-traffic`): runs one and prints the city metrics and the step's phase split. With `--out`, the pedestrians go to a
 * trajectory file and the cars, lights and crossing states to its traffic track beside it
 * (`<out>.traffic`), which `deno task view <out>` replays with them.
 *
 * ```sh
 * deno task sim --scenario crosswalk --preset crowded --strategy boxcast
 * deno task sim --scenario city-grid --agents 2000 --cars 400 --strategy repulsion --steps 1200
 * deno task sim --scenario crosswalk --steps 600 --out out/crosswalk.bin
 * deno task sim --scenario city-traffic --agents 1000 --cars 200 --steps 1200
 * ```
 *
 * @module
 */
import { integerFlag } from "./_args.ts";
import { UsageError } from "./_errors.ts";
import { createProgress, type Progress } from "./_progress.ts";

/** Maps smaller than this (bytes) are read without a progress bar. */
const MAP_PROGRESS_BYTES = 2 << 20;
import {
  CITY_TRAFFIC_SCENARIOS,
  type CityTrafficRun,
  type CityTrafficScenario,
  CROSSWALK_PRESETS,
  type CrosswalkPreset,
  loadCityTraffic,
} from "../scenarios/city_traffic.ts";
import type { CityTrafficSummary } from "../metrics/city_traffic_metrics.ts";
import { strategies } from "../strategies/mod.ts";
import { TrajectoryRecorder } from "../recording/recorder.ts";
import { TrajectoryFileError } from "../recording/trajectory.ts";
import { sceneFromCityTraffic, TrafficScene } from "../viewer/traffic_scene.ts";
import { trafficTrackPath, TrafficTrackRecorder } from "../viewer/traffic_track.ts";
import { resolveUserPath } from "./_paths.ts";
import { FileError } from "./_errors.ts";

/** Default simulated time of a run with cars (s). */
const DEFAULT_SECONDS = 120;

/** True when `name` is a built-in scenario with cars. */
export function isCityTrafficScenario(name: unknown): name is CityTrafficScenario {
  return (CITY_TRAFFIC_SCENARIOS as readonly unknown[]).includes(name);
}

/** Labels and units of the summary, in print order. */
const ROWS: [keyof CityTrafficSummary, string, number][] = [
  ["contacts", "pedestrian-car contacts (pedestrian-steps)", 0],
  ["signalledContacts", "  of which on signalled crosswalks", 0],
  ["contactEncounters", "  encounters (each contact once)", 0],
  ["nearMisses", "near misses (TTC < 1 s)", 0],
  ["redLightCrossings", "red-light crossings", 0],
  ["meanKerbWait", "mean kerb wait (s)", 1],
  ["p95KerbWait", "p95 kerb wait (s)", 1],
  ["trips", "trips completed", 0],
  ["tripsPerMinute", "trips per minute", 1],
  ["replans", "re-plans", 0],
  ["stuckPedestrians", "stuck pedestrians (most at a minute)", 0],
  ["gridlockedCars", "gridlocked cars (most, >= 30 s still)", 0],
  ["carRespawns", "cars moved after a minute stuck", 0],
];

/** Formats a summary as an aligned two-column table. */
export function formatCitySummary(summary: CityTrafficSummary): string {
  return ROWS.map(([key, label, digits]) =>
    `${label.padEnd(42)} ${(summary[key] as number).toFixed(digits).padStart(10)}`
  ).join("\n");
}

/** Figures of a map's city-life model: blocks, crossings joining two blocks, lights. */
export function cityMapFigures(run: CityTrafficRun): {
  file: string | null;
  buildings: number;
  blocks: number;
  crossings: number;
  joined: number;
  signalledCrossings: number;
  lights: number;
} {
  const net = run.navigator.network;
  let joined = 0;
  if (net) { for (let c = 0; c < net.sideA.length; c++) if (net.sideA[c] >= 0) joined++; }
  return {
    file: run.city.source.path,
    buildings: run.city.buildings.length,
    blocks: net?.blockCount ?? 0,
    crossings: run.city.crossings.length,
    joined,
    signalledCrossings: run.city.crossings.filter((c) => c.signalled).length,
    lights: run.lights.cycles.length,
  };
}

/** One line on a map's city-life model (see {@linkcode cityMapFigures}). */
export function describeCityMap(run: CityTrafficRun): string {
  const f = cityMapFigures(run);
  const share = f.crossings > 0 ? ((100 * f.joined) / f.crossings).toFixed(1) : "0";
  return `map ${f.file}: ${f.buildings} buildings on ${f.blocks} blocks; ${f.joined} of ${f.crossings} crossings (${share} %) join two blocks; ${f.signalledCrossings} signalled crossings, ${f.lights} lights`;
}

/** Runs a scenario with cars from `sim`'s parsed flags; returns the exit code. */
export async function citySimMain(values: Record<string, unknown>): Promise<number> {
  const name = values.scenario as CityTrafficScenario;
  for (const flag of ["plot", "navigator", "navigator-option"]) {
    if (values[flag] !== undefined) {
      throw new UsageError(`--${flag} is not available for the scenario '${name}' (cars)`);
    }
  }
  const every = integerFlag("every", values.every as string | undefined, 1) ?? 1;
  if (values.every !== undefined && typeof values.out !== "string") {
    throw new UsageError("--every needs --out");
  }
  const preset = values.preset as string | undefined;
  if (preset !== undefined && !(preset in CROSSWALK_PRESETS)) {
    throw new UsageError(
      `--preset must be one of ${Object.keys(CROSSWALK_PRESETS).join(", ")}: got '${preset}'`,
    );
  }
  if (preset !== undefined && name !== "crosswalk") {
    throw new UsageError("--preset applies to the scenario 'crosswalk' only");
  }
  if (values.map !== undefined && name !== "city-traffic") {
    throw new UsageError("--map applies to the scenario 'city-traffic' only");
  }
  const strategy = typeof values.strategy === "string" ? values.strategy : "orca";
  if (!strategies.has(strategy)) {
    throw new UsageError(
      `unknown strategy '${strategy}': expected one of ${strategies.names().join(", ")}`,
    );
  }
  const options = Object.fromEntries(
    ((values.option ?? []) as string[]).map((t) => {
      const eq = t.indexOf("=");
      if (eq <= 0) throw new UsageError(`--option must be name=value: got '${t}'`);
      const raw = t.slice(eq + 1);
      let value: unknown = raw;
      try {
        value = JSON.parse(raw);
      } catch { /* a plain string */ }
      return [t.slice(0, eq), value];
    }),
  );
  // Reading a large map takes a while: a progress bar in KiB, as `city` shows it.
  let reading: Progress | null = null;
  const run = await loadCityTraffic(name, {
    onMapProgress: (done, total) => {
      reading ??= createProgress(
        "reading",
        Math.ceil(total / 1024),
        values.quiet === true || values.json === true || total < MAP_PROGRESS_BYTES,
        "KiB",
      );
      reading.update(Math.ceil(done / 1024));
    },
    agents: integerFlag("agents", values.agents as string | undefined),
    cars: integerFlag("cars", values.cars as string | undefined),
    seed: integerFlag("seed", values.seed as string | undefined),
    strategy,
    strategyOptions: options,
    preset: preset as CrosswalkPreset | undefined,
    map: typeof values.map === "string" ? resolveUserPath(values.map) : undefined,
  }).finally(() => (reading as Progress | null)?.stop());
  const world = run.world;
  const steps = integerFlag("steps", values.steps as string | undefined) ??
    Math.round(DEFAULT_SECONDS / world.dt);
  const out = typeof values.out === "string" ? _record(run, name, values.out, every) : null;
  const progress = createProgress("sim", steps, values.quiet === true || values.json === true);
  try {
    for (let k = 0; k < steps; k++) {
      world.step();
      if (k % 20 === 0) progress.update(k + 1);
    }
  } finally {
    progress.stop();
    out?.recorder.close();
    out?.track.close();
  }
  const summary = run.metrics.summary();
  const phases: Record<string, number> = {};
  for (const [phase, ms] of Object.entries(world.phaseMs)) phases[phase] = ms / steps;
  for (const [phase, ms] of Object.entries(run.cars.phaseMs)) phases[`cars.${phase}`] = ms / steps;
  if (values.json) {
    console.log(JSON.stringify({
      scenario: name,
      strategy: run.strategyName,
      seed: world.seed,
      agents: world.agents.count,
      cars: run.cars.count,
      steps,
      out: out
        ? {
          path: out.recorder.path,
          format: out.recorder.format,
          frames: out.recorder.framesWritten,
          traffic: out.track.path,
        }
        : null,
      ...(name === "city-traffic" ? { map: cityMapFigures(run) } : {}),
      metrics: summary,
      msPerStep: phases,
    }));
    return 0;
  }
  console.log(
    `scenario ${name}: ${world.agents.count} pedestrians, ${run.cars.count} cars, strategy ${run.strategyName}, seed ${world.seed}, ${steps} steps of ${world.dt} s\n`,
  );
  if (name === "city-traffic") {
    console.log(describeCityMap(run));
    for (const line of run.city.warnings ?? []) {
      if (line.startsWith("blocks: ")) console.log(`  ${line}`);
    }
    console.log("");
  }
  console.log(formatCitySummary(summary));
  const total = Object.entries(phases).filter(([p]) => !p.startsWith("cars.")).reduce(
    (s, [, v]) => s + v,
    0,
  );
  console.log(
    `\nms per step: ${total.toFixed(2)} (${
      Object.entries(phases).filter(([p]) => !p.startsWith("cars.")).map(([p, v]) =>
        `${p} ${v.toFixed(2)}`
      ).join(", ")
    }; cars: ${
      Object.entries(phases).filter(([p]) => p.startsWith("cars.")).map(([p, v]) =>
        `${p.slice(5)} ${v.toFixed(2)}`
      ).join(", ")
    })`,
  );
  if (out) {
    console.log(
      `\nwrote ${out.recorder.framesWritten} frames to ${out.recorder.path} (${out.recorder.format}) and the cars, lights and crossing states to ${out.track.path}`,
    );
  }
  return 0;
}

/** Records `run`'s pedestrians to `path` and its traffic to the track beside it. */
function _record(
  run: CityTrafficRun,
  name: string,
  path: string,
  every: number,
): { recorder: TrajectoryRecorder; track: TrafficTrackRecorder } {
  let recorder: TrajectoryRecorder;
  try {
    recorder = new TrajectoryRecorder({
      path: resolveUserPath(path),
      every,
      scenario: name,
      anchor: run.city.anchor ?? null,
      description: `${name} with ${run.strategyName}, seed ${run.world.seed}`,
    });
  } catch (error) {
    if (error instanceof TrajectoryFileError) throw new FileError(error.message);
    if (error instanceof RangeError || error instanceof TypeError) {
      throw new UsageError(`--out: ${error.message}`);
    }
    throw error;
  }
  const traffic = TrafficScene.fromRun(run);
  let track: TrafficTrackRecorder;
  try {
    track = new TrafficTrackRecorder({
      path: trafficTrackPath(recorder.path),
      scene: sceneFromCityTraffic(run, traffic),
      traffic,
      trajectory: recorder,
    });
  } catch (error) {
    recorder.close();
    throw new FileError((error as Error).message);
  }
  run.world.addObserver(recorder);
  run.world.addObserver(track);
  return { recorder, track };
}

/**
 * `deno task compare` for a scenario with cars: each strategy over each seed, the city metrics
 * averaged over the seeds, one column per strategy (or JSON with every run).
 */
export async function cityCompareMain(
  scenario: CityTrafficScenario,
  names: readonly string[],
  seeds: readonly number[],
  values: Record<string, unknown>,
): Promise<number> {
  for (const flag of ["navigators", "csv", "plot"]) {
    if (values[flag] !== undefined) {
      throw new UsageError(`--${flag} is not available for the scenario '${scenario}' (cars)`);
    }
  }
  const agents = integerFlag("agents", values.agents as string | undefined);
  const runs: { strategy: string; seed: number; metrics: CityTrafficSummary }[] = [];
  let steps = 0, pedestrians = 0, cars = 0;
  for (const strategy of names) {
    for (const seed of seeds) {
      const run = await loadCityTraffic(scenario, { agents, seed, strategy });
      steps = integerFlag("steps", values.steps as string | undefined) ??
        Math.round(DEFAULT_SECONDS / run.world.dt);
      for (let k = 0; k < steps; k++) run.world.step();
      pedestrians = run.world.agents.count;
      cars = run.cars.count;
      runs.push({ strategy, seed, metrics: run.metrics.summary() });
    }
  }
  if (values.json) {
    console.log(JSON.stringify({ scenario, seeds, steps, agents: pedestrians, cars, runs }));
    return 0;
  }
  console.log(
    `scenario ${scenario}: ${pedestrians} pedestrians, ${cars} cars, ${steps} steps, seeds ${
      seeds.join(",")
    } (means over seeds)\n`,
  );
  const width = Math.max(12, ...names.map((n) => n.length + 2));
  console.log(`${"".padEnd(42)} ${names.map((n) => n.padStart(width)).join("")}`);
  for (const [key, label, digits] of ROWS) {
    const cells = names.map((n) => {
      const mine = runs.filter((r) => r.strategy === n);
      const mean = mine.reduce((s, r) => s + (r.metrics[key] as number), 0) / mine.length;
      return mean.toFixed(digits).padStart(width);
    });
    console.log(`${label.padEnd(42)} ${cells.join("")}`);
  }
  return 0;
}

/**
 * `deno task view`: the crowd viewer in the browser.
 *
 * ```sh
 * deno task view --scenario crossing --strategies orca,boxcast --agents 200 --seed 3
 * deno task view --scenario crosswalk --preset crowded --strategies orca   # cars and lights
 * deno task view run1.bin run2.bin        # replay recorded runs side by side
 * ```
 *
 * Starts a server on 127.0.0.1 (`--host`, `--port`), builds the page's bundle (cached by content
 * hash under `out/viewer-bundle/`), prints the URL and serves until Ctrl-C. Every page that
 * connects gets its own runs (or playback), with its own pause, speed and seed.
 *
 * @module
 */
import { helpText, integerFlag, parseFlags } from "./_args.ts";
import { EXIT_INTERRUPTED, FileError, runMain, UsageError } from "./_errors.ts";
import { resolveScenario } from "../scenarios/resolve.ts";
import { BUILTIN_SCENARIOS } from "../scenarios/builtin/mod.ts";
import { resolveUserPath } from "./_paths.ts";
import {
  CITY_TRAFFIC_SCENARIOS,
  CROSSWALK_PRESETS,
  type CrosswalkPreset,
} from "../scenarios/city_traffic.ts";
import { strategies } from "../strategies/mod.ts";
import {
  buildClientBundle,
  DEFAULT_MAX_LIVE_PAGES,
  DEFAULT_TILE_URL,
  type FrameSource,
  LiveFrameSource,
  MAX_VIEWS,
  ReplayFrameSource,
  startViewerServer,
  type ViewerServer,
} from "../viewer/mod.ts";

/** Strategies shown side by side when `--strategies` is not given, first registered ones first. */
export const DEFAULT_VIEW_STRATEGIES: readonly string[] = [
  "raycast-cluster",
  "boxcast",
  "orca",
  "social-force",
];

/** Default port of the viewer. */
export const DEFAULT_VIEW_PORT = 8080;

const FLAGS = {
  scenario: {
    type: "string",
    short: "s",
    help:
      "built-in name or scenario JSON file (default crossing); city-grid, crosswalk and city-traffic have cars",
  },
  cars: {
    type: "string",
    help: "cars of city-grid, crosswalk or city-traffic (default the scenario's)",
  },
  preset: {
    type: "string",
    help: `crowd preset of crosswalk: ${Object.keys(CROSSWALK_PRESETS).join(", ")}`,
  },
  strategies: {
    type: "string",
    help: `1-4 strategies side by side, comma-separated (default: up to 4 of ${
      DEFAULT_VIEW_STRATEGIES.join(", ")
    })`,
  },
  agents: { type: "string", short: "n", help: "total agent count (scales the scenario)" },
  seed: { type: "string", help: "random seed of every run (default 1)" },
  host: {
    type: "string",
    help: "interface to listen on (default 127.0.0.1; 0.0.0.0 opens the viewer to the network)",
  },
  port: { type: "string", help: `port, 0 for any free one (default ${DEFAULT_VIEW_PORT})` },
  tiles: {
    type: "string",
    help: "basemap XYZ URL template with {z} {x} {y} (default the OpenStreetMap tile server)",
  },
  attribution: { type: "string", help: "basemap attribution text" },
  paused: { type: "boolean", help: "start paused" },
  "max-fps": { type: "string", help: "most frames per second sent to the page (default 30)" },
  "max-pages": {
    type: "string",
    help: `most pages running their own live runs at once (default ${DEFAULT_MAX_LIVE_PAGES})`,
  },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const;

const USAGE = "Usage: deno task view [--scenario S] [--strategies a[,b,c,d]] [--agents N] " +
  "[--seed K] [--host H] [--port P] [--tiles URL]\n       deno task view run1.bin [run2.bin ...]";

type _Values = ReturnType<typeof parseFlags>["values"];

/** What {@linkcode viewMain} started, for callers that stop it themselves. */
export interface RunningViewer {
  /** The page's address. */
  url: string;
  /** Stops the server and the simulations. */
  close(): Promise<void>;
  /** Settles when the server stops. */
  finished: Promise<void>;
}

/**
 * Parses the flags, starts the viewer and prints its URL. Returns the running viewer, or null
 * after `--help`. Bad flags, scenarios, strategies or recordings throw one-line errors
 * (`UsageError`, `FileError`, `ScenarioError`).
 */
export async function startViewer(
  args: string[],
  defaults: { scenario?: string; strategies?: readonly string[]; log?: (line: string) => void } =
    {},
): Promise<RunningViewer | null> {
  const log = defaults.log ?? ((line: string) => console.log(line));
  const { values, positionals } = parseFlags(args, FLAGS);
  if (values.help) {
    log(helpText(USAGE, FLAGS, `Strategies: ${strategies.names().join(", ")}`));
    return null;
  }
  const serving = _servingFlags(values);
  const { source, describe } = positionals.length > 0
    ? _replaySource(positionals, values)
    : await _liveSource(values, defaults.scenario ?? "crossing", defaults.strategies);
  const bundle = await buildClientBundle();
  let server: ViewerServer;
  try {
    server = await startViewerServer({ source, bundle: bundle.code, ...serving });
  } catch (error) {
    source.close();
    throw _listenError(error as Error, serving.hostname, serving.port);
  }
  log(
    `throng viewer (${describe})\npage bundle ${
      bundle.cached ? "from cache" : `built in ${(bundle.ms / 1000).toFixed(1)} s`
    }\nopen ${server.url}  (Ctrl-C stops)`,
  );
  return {
    url: server.url,
    finished: server.finished,
    async close() {
      await server.close();
      source.close();
    },
  };
}

/** `deno task view`: starts the viewer and serves until Ctrl-C; returns the exit code. */
export async function viewMain(
  args: string[],
  defaults: { scenario?: string; strategies?: readonly string[] } = {},
): Promise<number> {
  const viewer = await startViewer(args, defaults);
  if (!viewer) return 0;
  let interrupted = false;
  const stop = () => {
    interrupted = true;
    viewer.close();
  };
  Deno.addSignalListener("SIGINT", stop);
  await viewer.finished;
  Deno.removeSignalListener("SIGINT", stop);
  return interrupted ? EXIT_INTERRUPTED : 0;
}

/** Where and how to serve: host, port, basemap. */
function _servingFlags(values: _Values) {
  const port = integerFlag("port", values.port) ?? DEFAULT_VIEW_PORT;
  if (port > 65535) throw new UsageError(`--port must be <= 65535: got '${values.port}'`);
  const tiles = typeof values.tiles === "string" ? values.tiles : DEFAULT_TILE_URL;
  if (!/\{z\}/.test(tiles) || !/\{x\}/.test(tiles) || !/\{y\}/.test(tiles)) {
    throw new UsageError(`--tiles must contain {z}, {x} and {y}: got '${tiles}'`);
  }
  return {
    hostname: typeof values.host === "string" ? values.host : "127.0.0.1",
    port,
    tiles,
    attribution: typeof values.attribution === "string" ? values.attribution : undefined,
  };
}

/** Recordings given as arguments: a replay source (their metrics measured now). */
function _replaySource(
  paths: string[],
  values: _Values,
): { source: FrameSource; describe: string } {
  for (
    const flag of [
      "scenario",
      "strategies",
      "agents",
      "seed",
      "paused",
      "max-pages",
      "cars",
      "preset",
    ] as const
  ) {
    if (values[flag] !== undefined) {
      throw new UsageError(`--${flag} does not apply to a replay of recordings`);
    }
  }
  if (paths.length > MAX_VIEWS) {
    throw new UsageError(`at most ${MAX_VIEWS} recordings side by side: got ${paths.length}`);
  }
  const t0 = performance.now();
  let source: ReplayFrameSource;
  try {
    source = ReplayFrameSource.load(paths.map((path) => resolveUserPath(path)));
  } catch (error) {
    throw new FileError((error as Error).message.split("\n")[0]);
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    source,
    describe: `replay of ${paths.join(", ")}; read and measured in ${seconds.toFixed(1)} s`,
  };
}

/** No recordings: live runs of the strategies on the scenario, one set per page. */
async function _liveSource(
  values: _Values,
  defaultScenario: string,
  defaultStrategies?: readonly string[],
): Promise<{ source: FrameSource; describe: string }> {
  const names = _strategyNames(values.strategies ?? defaultStrategies?.join(","));
  const agents = integerFlag("agents", values.agents);
  const seed = integerFlag("seed", values.seed) ?? 1;
  if (seed > 0xffff_ffff) throw new UsageError(`--seed must be <= 4294967295: got '${seed}'`);
  const maxFps = integerFlag("max-fps", values["max-fps"], 1) ?? 30;
  const maxPages = integerFlag("max-pages", values["max-pages"], 1) ?? DEFAULT_MAX_LIVE_PAGES;
  const named = (values.scenario as string | undefined) ?? defaultScenario;
  const withCars = (CITY_TRAFFIC_SCENARIOS as readonly string[]).includes(named);
  const cars = integerFlag("cars", values.cars);
  const preset = values.preset as string | undefined;
  if (!withCars && (cars !== undefined || preset !== undefined)) {
    throw new UsageError(
      `--${cars !== undefined ? "cars" : "preset"} applies to ${
        CITY_TRAFFIC_SCENARIOS.slice(0, -1).join(", ")
      } and ${CITY_TRAFFIC_SCENARIOS[CITY_TRAFFIC_SCENARIOS.length - 1]} only`,
    );
  }
  if (
    preset !== undefined && (named !== "crosswalk" || !Object.hasOwn(CROSSWALK_PRESETS, preset))
  ) {
    throw new UsageError(
      `--preset must be one of ${
        Object.keys(CROSSWALK_PRESETS).join(", ")
      } with the scenario crosswalk: got '${preset}'`,
    );
  }
  // A scenario file given relative to the folder the command was run in (INIT_CWD).
  const scenario = withCars || Object.hasOwn(BUILTIN_SCENARIOS, named)
    ? named
    : resolveUserPath(named);
  // Validates the scenario here, with its errors; its map is read by the runs themselves.
  if (!withCars) await resolveScenario(scenario, { agents, loadMap: false });
  let source: LiveFrameSource;
  try {
    source = await LiveFrameSource.start({
      scenario,
      strategies: names,
      agents,
      seed,
      maxFps,
      maxPages,
      paused: values.paused === true,
      cars,
      preset: preset as CrosswalkPreset | undefined,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]);
  }
  return {
    source,
    describe: `live ${source.scene.name}: ${
      names.join(" | ")
    }, ${source.agents} agents, seed ${seed}; each page runs its own`,
  };
}

/** A one-line error for a server that could not listen. */
function _listenError(error: Error, host: string, port: number): UsageError {
  const message = error.message.split("\n")[0];
  if (/in use/i.test(message)) {
    return new UsageError(`--port ${port} is in use: pick another or --port 0`);
  }
  if (/Requires net access/.test(message)) {
    return new UsageError(
      `listening on ${host}:${port} needs --allow-net=${host}: run 'deno run --unstable-bundle --allow-read --allow-net=${host} --allow-write=out/viewer-bundle cli/view.ts ...'`,
    );
  }
  return new UsageError(message);
}

function _strategyNames(flag: string | boolean | string[] | undefined): string[] {
  const registered = strategies.names();
  let names: string[];
  if (typeof flag === "string") {
    names = flag.split(",").map((s) => s.trim()).filter((s) => s);
    for (const name of names) {
      if (!strategies.has(name)) {
        throw new UsageError(
          `--strategies: unknown strategy '${name}': registered strategies are ${
            registered.join(", ")
          }`,
        );
      }
    }
  } else {
    names = DEFAULT_VIEW_STRATEGIES.filter((n) => strategies.has(n));
    for (const n of registered) if (names.length < 2 && !names.includes(n)) names.push(n);
  }
  if (names.length < 1 || names.length > MAX_VIEWS) {
    throw new UsageError(
      `--strategies must name 1 to ${MAX_VIEWS} strategies: got ${names.length}`,
    );
  }
  return names;
}

if (import.meta.main) {
  await runMain(() => viewMain(Deno.args));
}

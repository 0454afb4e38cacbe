/**
 * `deno task view`: the crowd viewer in the browser.
 *
 * ```sh
 * deno task view --scenario crossing --strategies orca,boxcast --agents 200 --seed 3
 * deno task view run1.bin run2.bin        # replay recorded runs side by side
 * ```
 *
 * Starts a server on 127.0.0.1 (`--host`, `--port`), builds the page's bundle (cached by content
 * hash under `out/viewer-bundle/`), prints the URL and serves until Ctrl-C.
 *
 * @module
 */
import { helpText, integerFlag, parseFlags } from "./_args.ts";
import { EXIT_INTERRUPTED, FileError, runMain, UsageError } from "./_errors.ts";
import { resolveScenario } from "../scenarios/resolve.ts";
import { strategies } from "../strategies/mod.ts";
import {
  buildClientBundle,
  DEFAULT_TILE_URL,
  LiveSimulation,
  loadRecordings,
  MAX_VIEWS,
  startViewerServer,
  type ViewerSource,
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
    help: "built-in name or scenario JSON file (default crossing)",
  },
  strategies: {
    type: "string",
    help: `2-4 strategies side by side, comma-separated (default: up to 4 of ${
      DEFAULT_VIEW_STRATEGIES.join(", ")
    })`,
  },
  agents: { type: "string", short: "n", help: "total agent count (scales the scenario)" },
  seed: { type: "string", help: "random seed of every run (default 1)" },
  host: { type: "string", help: "interface to listen on (default 127.0.0.1)" },
  port: { type: "string", help: `port, 0 for any free one (default ${DEFAULT_VIEW_PORT})` },
  tiles: {
    type: "string",
    help: "basemap XYZ URL template with {z} {x} {y} (default the OpenStreetMap tile server)",
  },
  attribution: { type: "string", help: "basemap attribution text" },
  paused: { type: "boolean", help: "start paused" },
  "max-fps": { type: "string", help: "most frames per second sent to the page (default 30)" },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const;

const USAGE = "Usage: deno task view [--scenario S] [--strategies a,b[,c,d]] [--agents N] " +
  "[--seed K] [--host H] [--port P] [--tiles URL]\n       deno task view run1.bin [run2.bin ...]";

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
  defaults: { scenario?: string; log?: (line: string) => void } = {},
): Promise<RunningViewer | null> {
  const log = defaults.log ?? ((line: string) => console.log(line));
  const { values, positionals } = parseFlags(args, FLAGS);
  if (values.help) {
    log(helpText(USAGE, FLAGS, `Strategies: ${strategies.names().join(", ")}`));
    return null;
  }
  const port = integerFlag("port", values.port) ?? DEFAULT_VIEW_PORT;
  if (port > 65535) throw new UsageError(`--port must be <= 65535: got '${values.port}'`);
  const maxFps = integerFlag("max-fps", values["max-fps"], 1) ?? 30;
  const tiles = typeof values.tiles === "string" ? values.tiles : DEFAULT_TILE_URL;
  if (!/\{z\}/.test(tiles) || !/\{x\}/.test(tiles) || !/\{y\}/.test(tiles)) {
    throw new UsageError(`--tiles must contain {z}, {x} and {y}: got '${tiles}'`);
  }
  let source: ViewerSource;
  let describe: string;
  if (positionals.length > 0) {
    for (const flag of ["scenario", "strategies", "agents", "seed"] as const) {
      if (values[flag] !== undefined) {
        throw new UsageError(`--${flag} does not apply to a replay of recordings`);
      }
    }
    if (positionals.length > MAX_VIEWS) {
      throw new UsageError(
        `at most ${MAX_VIEWS} recordings side by side: got ${positionals.length}`,
      );
    }
    let recordings;
    try {
      recordings = loadRecordings(positionals);
    } catch (error) {
      throw new FileError((error as Error).message.split("\n")[0]);
    }
    source = { kind: "replay", recordings };
    describe = `replay of ${positionals.join(", ")}`;
  } else {
    const names = _strategyNames(values.strategies);
    const agents = integerFlag("agents", values.agents);
    const seed = integerFlag("seed", values.seed) ?? 1;
    if (seed > 0xffff_ffff) throw new UsageError(`--seed must be <= 4294967295: got '${seed}'`);
    const scenario = (values.scenario as string | undefined) ?? defaults.scenario ?? "crossing";
    await resolveScenario(scenario, { agents }); // validates the scenario here, with its errors
    let live: LiveSimulation;
    try {
      live = await LiveSimulation.start({ scenario, strategies: names, agents, seed, maxFps });
    } catch (error) {
      throw new UsageError((error as Error).message.split("\n")[0]);
    }
    if (!values.paused) live.resume();
    source = { kind: "live", live };
    describe = `live ${live.scene.name}: ${names.join(" | ")}, ${live.agents} agents, seed ${seed}`;
  }
  const bundle = await buildClientBundle();
  let server;
  try {
    server = await startViewerServer({
      source,
      bundle: bundle.code,
      hostname: typeof values.host === "string" ? values.host : "127.0.0.1",
      port,
      tiles,
      attribution: typeof values.attribution === "string" ? values.attribution : undefined,
    });
  } catch (error) {
    if (source.kind === "live") source.live.close();
    const message = (error as Error).message.split("\n")[0];
    const host = typeof values.host === "string" ? values.host : "127.0.0.1";
    throw new UsageError(
      /in use/i.test(message)
        ? `--port ${port} is in use: pick another or --port 0`
        : /Requires net access/.test(message)
        ? `listening on ${host}:${port} needs --allow-net=${host}: run 'deno run --unstable-bundle --allow-read --allow-net=${host} --allow-write=out/viewer-bundle cli/view.ts ...'`
        : message,
    );
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
      if (source.kind === "live") source.live.close();
    },
  };
}

/** `deno task view`: starts the viewer and serves until Ctrl-C; returns the exit code. */
export async function viewMain(
  args: string[],
  defaults: { scenario?: string } = {},
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

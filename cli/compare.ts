/**
 * `deno task compare`: runs one scenario with several strategies and seeds and prints the
 * metrics side by side (mean ± sd over seeds).
 *
 * ```sh
 * deno task compare --scenario corridor --strategies none,orca --agents 200 --seeds 1-5
 * deno task compare --scenario my_scenario.json --json
 * deno task compare --scenario city-walk --navigators affordance,random-walk,shortest-path
 * deno task compare --scenario city.osm.pbf --navigators affordance,random-walk --agents 5000
 * ```
 *
 * With `--navigators`, the navigators are compared under one strategy; street walkers also get
 * a table of their counts: junction passages per walker and minute, the share of street entries
 * taken by the busiest tenth of the streets, and Spearman's ρ of the street counts against the
 * first navigator's.
 *
 * @module
 */
import { cityCompareMain, isCityTrafficScenario } from "./_city_sim.ts";
import { type FlagSpec, helpText, integerFlag, parseFlags, seedListFlag } from "./_args.ts";
import { runMain, UsageError } from "./_errors.ts";
import { createProgress } from "./_progress.ts";
import { type CompareReport, compareStrategies } from "../scenarios/compare.ts";
import { formatMetricsTable } from "../metrics/table.ts";
import type { RunSummary } from "../metrics/summary.ts";
import { formatCsv } from "../metrics/csv.ts";
import { METRIC_NAMES, type RunMetrics } from "../metrics/run_metrics.ts";
import { strategies } from "../strategies/mod.ts";
import { writeTextFileAtomic } from "./_files.ts";
import { renderTrajectorySvg, TrajectorySampler } from "../plots/mod.ts";
import { resolveUserPath, userFolder } from "./_paths.ts";
import type { World, WorldObserver } from "../core/world.ts";
import { correlateCounts } from "../metrics/count_correlation.ts";
import { StreetCounts } from "../metrics/street_counts.ts";
import { navigators } from "../navigation/mod.ts";
import type { StreetWalker } from "../navigation/street_walker.ts";

/** The flags of `deno task compare`. */
export const COMPARE_FLAGS = {
  scenario: {
    type: "string",
    short: "s",
    help: "built-in name or scenario JSON file (default corridor)",
  },
  strategies: { type: "string", help: "comma-separated strategy names (default: all registered)" },
  navigators: {
    type: "string",
    help:
      "compare navigators instead (under the first of --strategies, default none), e.g. affordance,random-walk,shortest-path on a city walk",
  },
  agents: { type: "string", short: "n", help: "total agent count (scales the scenario)" },
  seeds: { type: "string", help: "seeds: 3, 1-5 or 1,2,7 (default 1-3)" },
  steps: { type: "string", help: "steps per run (default: the scenario's duration / dt)" },
  json: { type: "boolean", help: "print JSON instead of the table" },
  csv: { type: "string", help: "also write one CSV row per run to this file" },
  plot: {
    type: "string",
    help: "also draw trajectories and density of the first seed, side by side (.svg)",
  },
  quiet: { type: "boolean", short: "q", help: "no progress bar" },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const satisfies Record<string, FlagSpec>;

const USAGE =
  "Usage: deno task compare [--scenario S] [--strategies a,b,...] [--navigators a,b,...] [--agents N] [--seeds 1-5] [--steps N] [--json] [--csv FILE]";

/** Parses flags and runs the comparison; returns the exit code. */
export async function compareMain(
  args: string[],
  defaults: { scenario?: string } = {},
): Promise<number> {
  const { values, positionals } = parseFlags(args, COMPARE_FLAGS);
  if (values.help) {
    console.log(helpText(USAGE, COMPARE_FLAGS, `Strategies: ${strategies.names().join(", ")}`));
    return 0;
  }
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument '${positionals[0]}' (see --help)`);
  }
  const navigatorNames = typeof values.navigators === "string"
    ? values.navigators.split(",").map((s) => s.trim()).filter((s) => s)
    : undefined;
  for (const name of navigatorNames ?? []) {
    if (!navigators.has(name)) {
      throw new UsageError(
        `--navigators: unknown navigator '${name}': registered navigators are ${
          navigators.names().join(", ")
        }`,
      );
    }
  }
  const names = typeof values.strategies === "string"
    ? values.strategies.split(",").map((s) => s.trim()).filter((s) => s)
    : navigatorNames
    ? ["none"]
    : strategies.names();
  if (names.length === 0) throw new UsageError("--strategies needs at least one name");
  for (const name of names) {
    if (!strategies.has(name)) {
      throw new UsageError(
        `--strategies: unknown strategy '${name}': registered strategies are ${
          strategies.names().join(", ")
        }`,
      );
    }
  }
  const seeds = seedListFlag(typeof values.seeds === "string" ? values.seeds : "1-3");
  if (isCityTrafficScenario(values.scenario)) {
    return cityCompareMain(values.scenario, names, seeds, values);
  }
  const quiet = values.quiet === true || values.json === true;
  const plotPath = typeof values.plot === "string"
    ? resolveUserPath(svgPath(values.plot))
    : undefined;
  const samplers = new Map<string, TrajectorySampler>();
  const streetCounts = new Map<string, StreetCountObserver>();
  let progress: ReturnType<typeof createProgress> | undefined;
  const report: CompareReport = await compareStrategies({
    scenario: (values.scenario as string | undefined) ?? defaults.scenario ?? "corridor",
    folder: userFolder(),
    strategies: names,
    seeds,
    agents: integerFlag("agents", values.agents),
    steps: integerFlag("steps", values.steps),
    registry: strategies,
    navigators: navigatorNames,
    observers: (label, seed) => {
      const observers: WorldObserver[] = [];
      if (navigatorNames && navigators.get(label).wanders && seed === seeds[0]) {
        const counts = new StreetCountObserver();
        streetCounts.set(label, counts);
        observers.push(counts);
      }
      if (!plotPath || seed !== seeds[0]) return observers;
      const sampler = new TrajectorySampler();
      samplers.set(label, sampler);
      return [...observers, sampler];
    },
    onProgress: (done, total) => {
      progress ??= createProgress("compare", total, quiet);
      progress.update(done);
    },
  });
  progress?.stop();
  for (const warning of report.warnings) console.error(`warning: ${warning}`);
  if (typeof values.csv === "string") {
    await writeTextFileAtomic(resolveUserPath(values.csv), formatCsv(report.runs));
  }
  if (plotPath) {
    const panels = report.results.map((r) => {
      const sampler = samplers.get(r.strategy)!;
      const run = report.runs.find((x) => x.strategy === r.strategy && x.seed === seeds[0])!;
      return {
        title: r.strategy,
        subtitle: plotSubtitle(seeds[0], run.metrics),
        samples: sampler.samples(),
        polygons: sampler.polygons,
        walls: sampler.walls,
      };
    });
    await writeTextFileAtomic(
      plotPath,
      renderTrajectorySvg(panels, { title: `${report.scenario}: ${report.agents} agents` }),
    );
  }
  if (values.json) {
    console.log(JSON.stringify({
      scenario: report.scenario,
      agents: report.agents,
      seeds: report.seeds,
      steps: report.steps,
      results: report.results.map((r) => ({
        strategy: r.strategy,
        metrics: pick(r.summary, "mean"),
        sd: pick(r.summary, "sd"),
      })),
    }));
  } else {
    console.log(
      `scenario ${report.scenario}: ${report.agents} agents, ${report.steps} steps of ${report.dt} s, seeds ${
        report.seeds.join(",")
      } (mean ± sd over seeds)\n`,
    );
    console.log(
      formatMetricsTable(report.results.map((r) => ({ name: r.strategy, summary: r.summary }))),
    );
    if (streetCounts.size > 0) console.log(`\n${streetCountTable(streetCounts, report.dt)}`);
  }
  return 0;
}

/** Street counts of a street walker's run, made when the world is known. */
class StreetCountObserver implements WorldObserver {
  counts: StreetCounts | null = null;
  agents = 0;
  attach(world: World): void {
    const city = (world.navigator as StreetWalker).guidance.city;
    this.counts = new StreetCounts(city);
    this.counts.attach(world);
  }
  afterStep(world: World): void {
    this.agents = world.agents.count;
    this.counts?.afterStep(world);
  }
}

/** Junction passages, concentration on the busiest streets, and agreement with the first. */
function streetCountTable(runs: Map<string, StreetCountObserver>, dt: number): string {
  const entries = [...runs.entries()].filter(([, r]) => r.counts);
  const first = entries.length > 0 ? entries[0][1].counts!.edgeCounts : new Uint32Array(0);
  const lines = [
    "street counts (first seed)  passages/walker/min  busiest 10% of streets  ρ vs " +
    (entries[0]?.[0] ?? ""),
  ];
  for (const [name, run] of entries) {
    const c = run.counts!;
    const minutes = (c.steps * dt) / 60;
    const perWalker = run.agents > 0 && minutes > 0 ? c.total / run.agents / minutes : 0;
    const sorted = Array.from(c.edgeCounts).sort((a, b) => b - a);
    const all = sorted.reduce((a, b) => a + b, 0);
    const top = sorted.slice(0, Math.max(1, Math.ceil(sorted.length / 10))).reduce(
      (a, b) => a + b,
      0,
    );
    const rho = correlateCounts(Array.from(first), Array.from(c.edgeCounts)).spearman;
    lines.push(
      `${name.padEnd(27)}  ${perWalker.toFixed(2).padStart(19)}  ${
        (all > 0 ? `${((100 * top) / all).toFixed(0)}%` : "—").padStart(22)
      }  ${rho === null ? "—" : rho.toFixed(2)}`,
    );
  }
  return lines.join("\n");
}

function pick(summary: RunSummary, field: "mean" | "sd"): Record<keyof RunMetrics, number | null> {
  return Object.fromEntries(METRIC_NAMES.map((name) => [name, summary[name][field]])) as Record<
    keyof RunMetrics,
    number | null
  >;
}

/** One line of key metrics under a plot panel. */
export function plotSubtitle(seed: number, m: RunMetrics): string {
  const f = (v: number | null, digits: number) => (v === null ? "—" : v.toFixed(digits));
  return `seed ${seed}: ${m.collisions} collisions, ${
    f(m.arrivedFraction, 2)
  } arrived, mean speed ${f(m.meanSpeed, 2)} m/s`;
}

/** Checks that a plot path ends in .svg. */
export function svgPath(path: string): string {
  if (!path.toLowerCase().endsWith(".svg")) {
    throw new UsageError(`--plot writes SVG: the file name must end in .svg, got '${path}'`);
  }
  return path;
}

if (import.meta.main) await runMain(() => compareMain(Deno.args));

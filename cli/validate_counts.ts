/**
 * `deno task validate-counts`: simulated pedestrian counts against real ones. Street walkers of
 * each navigator walk a city read from a map file; a gate across the street at each count site
 * (see `metrics/site_gates.ts`) counts them; Pearson's r of log counts and Spearman's ρ against
 * the observed counts are printed per navigator, with a scatter plot and a per-site CSV on
 * request.
 *
 * ```sh
 * deno task validate-counts --city city.osm.pbf --sites sites.csv            # columns id,lon,lat,count
 * deno task validate-counts --city city.osm.pbf --sites sites.csv --site-id Site_ID \
 *   --surveys surveys.csv --survey-site SiteID --survey-count TotalCount \
 *   --where "Year>=2022" --where "Period=weekday" --plot counts.svg --csv counts.csv
 * ```
 *
 * @module
 */
import { type FlagSpec, helpText, integerFlag, parseFlags } from "./_args.ts";
import { FileError, runMain, UsageError } from "./_errors.ts";
import { describeOsError, writeTextFileAtomic } from "./_files.ts";
import { resolveUserPath } from "./_paths.ts";
import { createProgress } from "./_progress.ts";
import { loadCity } from "../geo/load_city.ts";
import { correlateCounts, type CountCorrelation } from "../metrics/count_correlation.ts";
import {
  CountDataError,
  parseCountFilter,
  readCountSites,
  type ReadCountSitesOptions,
} from "../metrics/count_sites.ts";
import { siteGates } from "../metrics/site_gates.ts";
import { navigators } from "../navigation/mod.ts";
import { StreetGuidance } from "../navigation/street_guidance.ts";
import { STREET_PLACEMENTS, type StreetPlacement } from "../navigation/street_placement.ts";
import { renderXyChartSvg, type XySeries } from "../plots/xy_chart.ts";
import { runCityCounts } from "../scenarios/city_counts.ts";

/** The flags of `deno task validate-counts`. */
export const VALIDATE_COUNTS_FLAGS = {
  city: { type: "string", help: "map file of the city (.osm, .osm.pbf, .geojson) (required)" },
  bbox: { type: "string", help: "crop box west,south,east,north (degrees)" },
  sites: { type: "string", help: "CSV of count sites: id, lon, lat (and count) (required)" },
  "site-id": { type: "string", help: "id column of the sites file (default id)" },
  lon: { type: "string", help: "longitude column (default lon)" },
  lat: { type: "string", help: "latitude column (default lat)" },
  count: {
    type: "string",
    help: "count column of the sites file, without --surveys (default count)",
  },
  surveys: { type: "string", help: "CSV of surveys, averaged per site after --where" },
  "survey-site": { type: "string", help: "site id column of the surveys (default id)" },
  "survey-count": { type: "string", help: "count column of the surveys (default count)" },
  where: {
    type: "string",
    multiple: true,
    help: "keep survey rows where column op value (=, !=, >=, <=, >, <), repeatable",
  },
  navigators: {
    type: "string",
    help: "street walkers to compare (default affordance,random-walk,shortest-path)",
  },
  "navigator-option": {
    type: "string",
    multiple: true,
    help:
      'navigator option key=value (JSON value) for every navigator that has it, repeatable, e.g. attraction=2 or attractorWeights={"shop":3}',
  },
  agents: { type: "string", short: "n", help: "walkers (default 10000)" },
  warmup: { type: "string", help: "steps of 0.05 s before counting (default 2400: 2 min)" },
  steps: { type: "string", help: "steps counted (default 6000: 5 min)" },
  placement: {
    type: "string",
    help: "start: uniform, viewshed, attractors or transport (default uniform)",
  },
  seed: { type: "string", help: "seed (default 1)" },
  plot: { type: "string", help: "write a log-log scatter plot of the counts (.svg)" },
  csv: { type: "string", help: "write observed and simulated counts per site (.csv)" },
  json: { type: "boolean", help: "print JSON instead of the table" },
  quiet: { type: "boolean", short: "q", help: "no progress bar" },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const satisfies Record<string, FlagSpec>;

const USAGE =
  "Usage: deno task validate-counts --city MAP --sites CSV [--surveys CSV --where COL>=V ...] [--navigators a,b] [--agents N] [--plot F.svg] [--csv F.csv]";

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];

/** One navigator's result. */
interface NavigatorResult {
  navigator: string;
  notice: string | null;
  counts: number[];
  correlation: CountCorrelation;
  minNavigationMs: number;
}

/** Parses flags, runs the navigators and prints the correlations; returns the exit code. */
export async function validateCountsMain(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, VALIDATE_COUNTS_FLAGS);
  if (values.help) {
    console.log(helpText(USAGE, VALIDATE_COUNTS_FLAGS, ""));
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const str = (k: keyof typeof values) =>
    typeof values[k] === "string" ? values[k] as string : undefined;
  const cityPath = str("city"), sitesPath = str("sites");
  if (!cityPath || !sitesPath) throw new UsageError("--city and --sites are required (see --help)");
  const names = (str("navigators") ?? "affordance,random-walk,shortest-path").split(",")
    .map((s) => s.trim()).filter((s) => s);
  for (const name of names) {
    if (!navigators.has(name) || !navigators.get(name).wanders) {
      throw new UsageError(
        `--navigators: '${name}' is not a street walker: use ${
          navigators.list().filter((f) => f.wanders).map((f) => f.name).join(", ")
        }`,
      );
    }
  }
  const navigatorOptions = _navigatorOptions(
    (values["navigator-option"] ?? []) as string[],
    names,
  );
  const placement = (str("placement") ?? "uniform") as StreetPlacement;
  if (!STREET_PLACEMENTS.includes(placement)) {
    throw new UsageError(
      `--placement must be ${STREET_PLACEMENTS.join(" or ")}: got '${placement}'`,
    );
  }
  const agents = integerFlag("agents", values.agents) ?? 10000;
  const warmupSteps = integerFlag("warmup", values.warmup) ?? 2400;
  const countSteps = integerFlag("steps", values.steps, 1) ?? 6000;
  const seed = integerFlag("seed", values.seed) ?? 1;
  const bbox = str("bbox") ? _bbox(str("bbox")!) : undefined;

  const readText = async (path: string) => {
    try {
      return await Deno.readTextFile(resolveUserPath(path));
    } catch (error) {
      throw new FileError(`${path}: ${describeOsError(error)}`);
    }
  };
  const surveysPath = str("surveys");
  const options: ReadCountSitesOptions = {
    file: sitesPath,
    idColumn: str("site-id"),
    lonColumn: str("lon"),
    latColumn: str("lat"),
    countColumn: str("count"),
  };
  let read;
  try {
    if (surveysPath) {
      options.surveys = {
        text: await readText(surveysPath),
        file: surveysPath,
        siteColumn: str("survey-site"),
        countColumn: str("survey-count"),
        where: ((values.where ?? []) as string[]).map(parseCountFilter),
      };
    } else if (values.where) throw new UsageError("--where needs --surveys");
    read = readCountSites(await readText(sitesPath), options);
  } catch (error) {
    if (error instanceof CountDataError) throw new FileError(error.message);
    throw error;
  }
  const city = await loadCity(resolveUserPath(cityPath), bbox ? { bbox } : {});
  const guidance = StreetGuidance.fromCity(city);
  const { gates, skipped } = siteGates(city, read.sites, {
    lanes: guidance.lanes,
    walls: guidance.affordance.obstacles,
  });
  if (gates.length < 3) {
    throw new UsageError(
      `only ${gates.length} count sites lie on the map's walkable streets: at least 3 are needed`,
    );
  }
  const observed = gates.map((g) => g.site.count);
  const quiet = values.quiet === true || values.json === true;
  const results: NavigatorResult[] = [];
  for (const name of names) {
    const progress = createProgress(name, warmupSteps + countSteps, quiet);
    const run = await runCityCounts({
      guidance,
      navigator: name,
      navigatorOptions: navigatorOptions.get(name),
      agents,
      warmupSteps,
      countSteps,
      placement,
      seed,
      gates,
      onProgress: (done) => progress.update(done),
    });
    progress.stop();
    if (run.notice && !values.json) console.log(`${name}: ${run.notice}`);
    const counts = Array.from(run.gates.counts);
    results.push({
      navigator: name,
      notice: run.notice,
      counts,
      correlation: correlateCounts(observed, counts),
      minNavigationMs: run.minNavigationMs,
    });
  }
  const csvPath = str("csv"), plotPath = str("plot");
  if (csvPath) {
    const header = ["site", "lon", "lat", "observed", "surveys", ...names].join(",");
    const rows = gates.map((g, k) =>
      [
        JSON.stringify(g.site.id),
        g.site.lon,
        g.site.lat,
        g.site.count,
        g.site.surveys,
        ...results.map((r) => r.counts[k]),
      ].join(",")
    );
    await writeTextFileAtomic(resolveUserPath(csvPath), [header, ...rows].join("\n") + "\n");
  }
  if (plotPath) {
    if (!plotPath.toLowerCase().endsWith(".svg")) {
      throw new UsageError(`--plot writes SVG: the file name must end in .svg, got '${plotPath}'`);
    }
    await writeTextFileAtomic(
      resolveUserPath(plotPath),
      countScatterSvg(city.name, observed, results),
    );
  }
  if (values.json) {
    console.log(JSON.stringify({
      city: city.name,
      sites: gates.length,
      skipped: skipped.map((s) => ({ id: s.site.id, reason: s.reason })),
      agents,
      warmupSteps,
      countSteps,
      results: results.map((r) => ({
        navigator: r.navigator,
        notice: r.notice,
        ...r.correlation,
        counts: r.counts,
      })),
    }));
    return 0;
  }
  console.log(
    `${city.name}: ${gates.length} count sites on the map (${skipped.length} left out${
      read.withoutSurveys.length ? `, ${read.withoutSurveys.length} without surveys` : ""
    }); ${agents} walkers, ${warmupSteps} steps of warm-up, ${countSteps} steps counted\n`,
  );
  const outside = skipped.filter((s) => s.reason === "outside the map").length;
  if (outside > 0) console.log(`  ${outside} sites lie outside the map`);
  for (const s of skipped) {
    if (s.reason !== "outside the map") console.log(`  left out ${s.site.id}: ${s.reason}`);
  }
  const f = (v: number | null) => (v === null ? "  —  " : v.toFixed(2).padStart(5));
  console.log(`\nnavigator        Pearson r (log)  Spearman ρ  r²     total count`);
  for (const r of results) {
    const total = r.counts.reduce((a, b) => a + b, 0);
    const r2 = r.correlation.pearsonLog === null ? null : r.correlation.pearsonLog ** 2;
    console.log(
      `${r.navigator.padEnd(16)} ${f(r.correlation.pearsonLog).padEnd(16)} ${
        f(r.correlation.spearman).padEnd(11)
      } ${f(r2)}  ${total}`,
    );
  }
  return 0;
}

/**
 * A log-log scatter of simulated against observed counts, one series per navigator, simulated
 * counts scaled so that their total matches the observed total (the correlations do not depend
 * on the scale).
 */
export function countScatterSvg(
  city: string,
  observed: readonly number[],
  results: readonly {
    navigator: string;
    counts: readonly number[];
    correlation: CountCorrelation;
  }[],
): string {
  const total = observed.reduce((a, b) => a + b, 0);
  const lo = Math.floor(Math.log10(Math.max(1, Math.min(...observed))));
  const hi = Math.ceil(Math.log10(Math.max(...observed)));
  const series: XySeries[] = results.map((r, k) => {
    const sim = r.counts.reduce((a, b) => a + b, 0);
    const scale = sim > 0 ? total / sim : 1;
    const rho = r.correlation.spearman === null ? "—" : r.correlation.spearman.toFixed(2);
    const pr = r.correlation.pearsonLog === null ? "—" : r.correlation.pearsonLog.toFixed(2);
    return {
      name: `${r.navigator} (r ${pr}, ρ ${rho})`,
      points: observed.map((o, j) => [Math.log10(o), Math.log10(1 + r.counts[j] * scale)]),
      style: "points",
      colour: COLOURS[k % COLOURS.length],
      marker: (["circle", "square", "triangle", "diamond"] as const)[k % 4],
    };
  });
  series.push({
    name: "simulated = observed",
    points: [[lo, lo], [hi, hi]],
    style: "line",
    colour: "#999",
  });
  return renderXyChartSvg({
    title: `${city}: simulated against observed counts at ${observed.length} sites`,
    xLabel: "observed count (log10)",
    yLabel: "simulated count, scaled to the observed total (log10)",
    series,
    range: [lo, hi, lo, hi],
  });
}

/** `key=value` options (values as JSON, else text), per navigator that declares the key. */
function _navigatorOptions(
  given: readonly string[],
  names: readonly string[],
): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>(names.map((n) => [n, {}]));
  for (const text of given) {
    const eq = text.indexOf("=");
    if (eq <= 0) {
      throw new UsageError(`--navigator-option must be key=value: got '${text}'`);
    }
    const key = text.slice(0, eq), raw = text.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // A plain word: kept as text.
    }
    const takers = names.filter((n) => key in navigators.get(n).options);
    if (takers.length === 0) {
      throw new UsageError(
        `--navigator-option: none of ${names.join(", ")} has an option '${key}'`,
      );
    }
    for (const n of takers) out.get(n)![key] = value;
  }
  return out;
}

function _bbox(text: string): [number, number, number, number] {
  const v = text.split(",").map((s) => Number(s.trim()));
  if (v.length !== 4 || v.some((x) => !Number.isFinite(x)) || v[0] >= v[2] || v[1] >= v[3]) {
    throw new UsageError(`--bbox must be west,south,east,north in degrees: got '${text}'`);
  }
  return v as [number, number, number, number];
}

if (import.meta.main) await runMain(() => validateCountsMain(Deno.args));

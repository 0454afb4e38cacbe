/**
 * `deno task validate`: runs the validation suite (RiMEA 3.0 tests 1–15, fundamental diagram,
 * bottleneck flow against width, counter-flow, ETH/UCY trajectory prediction) for every chosen
 * strategy and seed, prints the overview table and writes the report folder (report.md,
 * results.json, pictures).
 *
 * ```sh
 * deno task validate --quick --strategies orca,social-force --seeds 1
 * deno task validate --seeds 1-3 --out out/validation
 * ```
 *
 * @module
 */
import { helpText, parseFlags, seedListFlag } from "./_args.ts";
import { FileError, runMain, UsageError } from "./_errors.ts";
import { createProgress } from "./_progress.ts";
import { strategies } from "../strategies/mod.ts";
import { runSuite, validationTests } from "../validation/suite.ts";
import { formatReport, writeReport } from "../validation/report.ts";
import { withStrategyVariants } from "../validation/strategy_variants.ts";
import { useDataRoot } from "../validation/data_files.ts";

const FLAGS = {
  quick: {
    type: "boolean",
    help: "the quick variant of every test (fewer densities, widths, windows)",
  },
  strategies: {
    type: "string",
    help: "comma-separated strategy names, each optionally with options changed as " +
      "name:option=value[:option=value] (default: every avoiding strategy)",
  },
  seeds: { type: "string", help: "seeds: 3, 1-5 or 1,2,7 (default 1-3; 1 with --quick)" },
  tests: {
    type: "string",
    help: "comma-separated test ids or id prefixes, e.g. rimea,fd (default: all)",
  },
  out: { type: "string", short: "o", help: "report folder (default out/validation)" },
  data: {
    type: "string",
    help: "measured data folder with the layout of shared/data (default: shared/data beside " +
      "the repository); tests whose files it lacks are reported as not run",
  },
  list: { type: "boolean", help: "list the tests with their criteria" },
  quiet: { type: "boolean", short: "q", help: "no progress bar" },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const;

const USAGE =
  "Usage: deno task validate [--quick] [--strategies a,b] [--seeds 1-3] [--tests rimea,fd] [--out DIR] [--data DIR]";

/** Parses flags and runs the suite; returns the exit code. */
export function validateMain(args: string[]): number {
  const { values, positionals } = parseFlags(args, FLAGS);
  if (values.help) {
    console.log(helpText(USAGE, FLAGS, `Strategies: ${strategies.names().join(", ")}`));
    return 0;
  }
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument '${positionals[0]}' (see --help)`);
  }
  const all = validationTests();
  if (values.list) {
    for (const t of all) {
      console.log(
        `${t.id.padEnd(22)} ${t.title}\n${"".padEnd(22)} criterion: ${t.criterion}${
          t.needs ? ` (not run: ${t.needs})` : ""
        }`,
      );
    }
    return 0;
  }
  const split = (v: unknown) =>
    typeof v === "string" ? v.split(",").map((s) => s.trim()).filter((s) => s) : undefined;
  const names = split(values.strategies) ??
    strategies.list().filter((f) => f.avoidsCollisions !== false).map((f) => f.name);
  for (const name of names) {
    if (!strategies.has(name.split(":")[0])) {
      throw new UsageError(
        `--strategies: unknown strategy '${name}': registered are ${strategies.names().join(", ")}`,
      );
    }
  }
  let registry;
  try {
    registry = withStrategyVariants(strategies, names);
  } catch (error) {
    throw new UsageError(`--strategies: ${(error as Error).message}`);
  }
  if (typeof values.data === "string") {
    try {
      useDataRoot(values.data);
    } catch (error) {
      throw new UsageError(`--data: ${(error as Error).message}`);
    }
  }
  const quick = values.quick === true;
  const seeds = typeof values.seeds === "string"
    ? seedListFlag(values.seeds)
    : quick
    ? [1]
    : [1, 2, 3];
  const wanted = split(values.tests);
  const tests = wanted
    ? all.filter((t) => wanted.some((w) => t.id === w || t.id.startsWith(`${w}-`)))
    : all;
  if (wanted) {
    for (const w of wanted) {
      if (!all.some((t) => t.id === w || t.id.startsWith(`${w}-`))) {
        throw new UsageError(
          `--tests: no test matches '${w}': tests are ${all.map((t) => t.id).join(", ")}`,
        );
      }
    }
  }
  const out = typeof values.out === "string" ? values.out : "out/validation";
  let bar: ReturnType<typeof createProgress> | null = null;
  const result = runSuite({
    strategies: names,
    seeds,
    quick,
    registry,
    tests,
    onProgress(done, total, label) {
      bar ??= createProgress("validate", total, values.quiet === true);
      bar.update(done);
      if (values.quiet !== true && !Deno.stderr.isTerminal() && label !== "done") {
        console.error(label);
      }
    },
  });
  (bar as ReturnType<typeof createProgress> | null)?.stop();
  let written: string[];
  try {
    written = writeReport(result, out);
  } catch (error) {
    throw new FileError(`cannot write the report to '${out}': ${(error as Error).message}`);
  }
  console.log(formatReport(result).split("\n## Pictures")[0]);
  console.log(`\nReport written to ${out}/ (${written.length} files).`);
  return 0;
}

if (import.meta.main) runMain(() => Promise.resolve(validateMain(Deno.args)));

/**
 * The validation report: a Markdown table per test group (pass/fail with the deciding figures
 * for each strategy), the criteria, a JSON file of every figure, and the pictures, written to a
 * folder so that an interrupted write never leaves a half file.
 *
 * @module
 */
import { dataPath } from "./data_files.ts";
import type { SuiteResult } from "./suite.ts";
import type { Verdict } from "./validation_test_spec.ts";

const MARK = { pass: "pass", fail: "FAIL", "not-run": "not run" } as const;

/**
 * The report as Markdown: the overview (test × strategy, each cell the verdict and the test's
 * first figure), then per test its criterion and each strategy's verdict with figures.
 *
 * @example
 * ```ts
 * import { formatReport } from "./report.ts";
 * import assert from "node:assert/strict";
 * const md = formatReport({
 *   tests: [{ id: "t", group: "G", title: "a test", criterion: "c", measure: () => 0, judge: () => ({ status: "pass", summary: "ok", figures: {} }) }],
 *   strategies: ["orca"], seeds: [1], quick: true, pictures: [],
 *   rows: [{ test: "t", strategy: "orca", verdict: { status: "pass", summary: "ok", figures: {} } }],
 * });
 * assert.match(md, /\| t +\| pass – +\|/);
 * ```
 */
export function formatReport(result: SuiteResult): string {
  const lines: string[] = [];
  lines.push(
    `# Validation report`,
    "",
    `Strategies ${result.strategies.join(", ")}; seeds ${result.seeds.join(", ")}${
      result.quick ? "; quick variant" : ""
    }. Measured data from ${dataPath(".")}.`,
    "",
  );
  const groups = [...new Set(result.tests.map((t) => t.group))];
  for (const group of groups) {
    const tests = result.tests.filter((t) => t.group === group);
    lines.push(`## ${group}`, "");
    const header = ["test", ...result.strategies];
    const body = tests.map((t) => [
      t.id,
      ...result.strategies.map((s) =>
        overviewCell(result.rows.find((r) => r.test === t.id && r.strategy === s)!.verdict)
      ),
    ]);
    lines.push(..._table(header, body), "");
    for (const t of tests) {
      lines.push(`### ${t.id}: ${t.title}`, "", `Criterion: ${t.criterion}.`, "");
      if (t.needs) {
        lines.push(`Not run: ${t.needs}.`, "");
        continue;
      }
      if (t.sameAs) {
        lines.push(`Measured by ${t.sameAs}.`, "");
        continue;
      }
      lines.push(
        ..._table(
          ["strategy", "result", "figures"],
          result.strategies.map((s) => {
            const v = result.rows.find((r) => r.test === t.id && r.strategy === s)!.verdict;
            return [s, MARK[v.status], v.summary];
          }),
        ),
        "",
      );
    }
  }
  if (result.pictures.length) {
    lines.push("## Pictures", "");
    for (const p of result.pictures) lines.push(`![${p.title}](${p.name}.svg)`, "");
  }
  return lines.join("\n");
}

/**
 * A verdict as one short cell: its status and its first figure, e.g. `FAIL 0.21`.
 *
 * @example
 * ```ts
 * import { overviewCell } from "./report.ts";
 * import assert from "node:assert/strict";
 * assert.equal(overviewCell({ status: "fail", summary: "", figures: { "rmse (m/s)": 0.214 } }), "FAIL 0.21");
 * assert.equal(overviewCell({ status: "not-run", summary: "", figures: {} }), "not run");
 * ```
 */
export function overviewCell(verdict: Verdict): string {
  const first = Object.values(verdict.figures)[0];
  const figure = typeof first === "number" && Number.isFinite(first)
    ? ` ${Math.abs(first) >= 100 ? first.toFixed(0) : first.toFixed(2)}`
    : verdict.status === "not-run"
    ? ""
    : " –";
  return `${MARK[verdict.status]}${figure}`;
}

function _table(header: string[], body: string[][]): string[] {
  const widths = header.map((h, k) => Math.max(h.length, ...body.map((r) => r[k].length)));
  const row = (cells: string[]) => `| ${cells.map((c, k) => c.padEnd(widths[k])).join(" | ")} |`;
  return [row(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...body.map(row)];
}

/** The figures of every row as JSON-ready data. */
export function reportData(result: SuiteResult): Record<string, unknown> {
  return {
    strategies: result.strategies,
    seeds: result.seeds,
    quick: result.quick,
    data: dataPath("."),
    tests: result.tests.map((t) => ({
      id: t.id,
      group: t.group,
      title: t.title,
      criterion: t.criterion,
      needs: t.needs ?? null,
    })),
    rows: result.rows,
  };
}

/**
 * Writes `report.md`, `results.json` and one SVG per picture into `dir` (created if needed).
 * Each file is written under a temporary name and renamed, so an interrupted run never leaves
 * a half-written file. Returns the paths written.
 */
export function writeReport(result: SuiteResult, dir: string): string[] {
  Deno.mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ["report.md", formatReport(result)],
    ["results.json", JSON.stringify(reportData(result), null, 2) + "\n"],
    ...result.pictures.map((p) => [`${p.name}.svg`, p.svg] as [string, string]),
  ];
  return files.map(([name, text]) => {
    const path = `${dir}/${name}`;
    Deno.writeTextFileSync(`${path}.partial`, text);
    Deno.renameSync(`${path}.partial`, path);
    return path;
  });
}

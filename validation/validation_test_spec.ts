/**
 * The shape of one validation test: what it measures for a strategy and seed, how it judges the
 * measurements of several seeds against its stated criterion, and which pictures it draws.
 *
 * @module
 */
import type { StrategyRegistry } from "../core/registry.ts";

/** Outcome of a test for one strategy. `not-run`: the test needs something not built yet. */
export type VerdictStatus = "pass" | "fail" | "not-run";

/** A test's judgement of one strategy over its seeds. */
export interface Verdict {
  /** Pass, fail or not run. */
  status: VerdictStatus;
  /** One line with the figures that decide, e.g. `RMSE 0.21 m/s (target < 0.1)`. */
  summary: string;
  /** The deciding figures by name (units in the name), null where not measurable. */
  figures: Record<string, number | null>;
}

/** What a measurement run gets. */
export interface MeasureContext {
  /** Registered strategy name. */
  strategy: string;
  /** Seed of this run. */
  seed: number;
  /** Smaller, faster variant (fewer densities, widths, windows). */
  quick: boolean;
  /** Registry the strategy is found in. */
  registry: StrategyRegistry;
}

/** A named SVG picture for the report folder. */
export interface Picture {
  /** File name without extension, e.g. `fd-unidirectional`. */
  name: string;
  /** Caption. */
  title: string;
  /** SVG document. */
  svg: string;
}

/** The measurements of one strategy, one per seed. */
export interface StrategyMeasurements<M> {
  /** Strategy name. */
  strategy: string;
  /** One per seed, in seed order. */
  runs: M[];
}

/** One validation test. */
export interface ValidationTest<M = unknown> {
  /** Short id, e.g. `rimea-1` or `fd-unidirectional`. */
  readonly id: string;
  /** Group heading of the report (`RiMEA 3.0`, `Fundamental diagram`, …). */
  readonly group: string;
  /** One-line title. */
  readonly title: string;
  /** The pass criterion and its source. */
  readonly criterion: string;
  /** Why the test is not run yet (it needs a feature still to come); absent when it runs. */
  readonly needs?: string;
  /** Id of another test whose verdict this one shares (the same measurement). */
  readonly sameAs?: string;
  /** Relative cost of one measurement (for the progress bar). @default 1 */
  cost?(quick: boolean): number;
  /** Measures one strategy with one seed. Deterministic for a given context. */
  measure(context: MeasureContext): M;
  /** Judges one strategy's measurements over its seeds. */
  judge(runs: readonly M[], quick: boolean): Verdict;
  /** Pictures over every strategy's measurements. */
  pictures?(results: readonly StrategyMeasurements<M>[], quick: boolean): Picture[];
}

/**
 * Declares a test, keeping its measurement type inside (the suite handles tests of different
 * measurement types alike).
 *
 * @example A test that passes when every seed gives an even number
 * ```ts
 * import { defineTest } from "./validation_test_spec.ts";
 * import assert from "node:assert/strict";
 * const test = defineTest({
 *   id: "even", group: "demo", title: "even seeds", criterion: "every seed is even",
 *   measure: (ctx) => ctx.seed,
 *   judge: (runs) => ({
 *     status: runs.every((s) => s % 2 === 0) ? "pass" : "fail",
 *     summary: `${runs.length} seeds`,
 *     figures: {},
 *   }),
 * });
 * assert.equal(test.judge([2, 4], false).status, "pass");
 * ```
 */
export function defineTest<M>(test: ValidationTest<M>): ValidationTest<unknown> {
  return test as unknown as ValidationTest<unknown>;
}

/** A verdict for a test that is not run: its `needs` as the summary. */
export function notRunVerdict(needs: string): Verdict {
  return { status: "not-run", summary: needs, figures: {} };
}

/** Mean of the finite numbers of `values`, or null when there are none. */
export function meanOf(values: readonly (number | null | undefined)[]): number | null {
  let sum = 0, n = 0;
  for (const v of values) {
    if (typeof v === "number" && Number.isFinite(v)) {
      sum += v;
      n++;
    }
  }
  return n > 0 ? sum / n : null;
}

/** Formats a number with `digits` decimals, or `–` for null. */
export function fmt(value: number | null | undefined, digits = 2): string {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "–";
}

/**
 * How well simulated counts follow observed ones: Pearson's r between the logarithms of the
 * counts (log10(1 + count), so that a site the model never reaches still counts), and Spearman's
 * rank correlation ρ. Both ignore scale: a model with ten times fewer walkers than the city
 * scores the same. The correlations are those of `simple-statistics`.
 *
 * @module
 */
import { sampleCorrelation, sampleRankCorrelation } from "npm:simple-statistics@7.12.1";

/** Correlation of simulated with observed counts. */
export interface CountCorrelation {
  /** Sites compared. */
  n: number;
  /** Pearson's r of log10(1 + count); null with fewer than 3 sites or no spread. */
  pearsonLog: number | null;
  /** Spearman's ρ; null with fewer than 3 sites or no spread. */
  spearman: number | null;
}

/**
 * Correlates `simulated` with `observed` counts (same order, same length). Throws a RangeError
 * when the lengths differ or a count is negative or not finite.
 *
 * @example Counts in the same order, ten times fewer
 * ```ts
 * import { correlateCounts } from "./count_correlation.ts";
 * import assert from "node:assert/strict";
 * const r = correlateCounts([100, 1000, 10000, 5000], [9, 99, 999, 499]);
 * assert.equal(r.spearman, 1);
 * assert(r.pearsonLog! > 0.99);
 * ```
 */
export function correlateCounts(
  observed: readonly number[],
  simulated: readonly number[],
): CountCorrelation {
  if (observed.length !== simulated.length) {
    throw new RangeError(
      `Cannot correlate counts as 'simulated' must have one count per observed site (${observed.length}): current length is ${simulated.length}`,
    );
  }
  for (const [name, list] of [["observed", observed], ["simulated", simulated]] as const) {
    const bad = list.find((v) => !(v >= 0) || !Number.isFinite(v));
    if (bad !== undefined) {
      throw new RangeError(
        `Cannot correlate counts as '${name}' counts must be finite numbers >= 0: found ${bad}`,
      );
    }
  }
  const n = observed.length;
  const spread = (list: readonly number[]) => list.some((v) => v !== list[0]);
  if (n < 3 || !spread(observed) || !spread(simulated)) {
    return { n, pearsonLog: null, spearman: null };
  }
  const log = (list: readonly number[]) => list.map((v) => Math.log10(1 + v));
  const clamp = (r: number) => Math.max(-1, Math.min(1, r));
  return {
    n,
    pearsonLog: clamp(sampleCorrelation(log(observed), log(simulated))),
    spearman: clamp(sampleRankCorrelation([...observed], [...simulated])),
  };
}

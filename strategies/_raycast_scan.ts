/**
 * The cluster scan of the `raycast-cluster` strategy: which rays form each cluster and the order
 * in which the clusters are tried, after "The Sidewalk Salsa and Cultural Sensitivities" (blog
 * post on the avoidance of the game Stop Shoving!).
 *
 * Rays are numbered from the right-most (0) to the left-most (rays - 1); the middle ray points
 * along the preferred velocity. A cluster is a ray plus `clusterMargin` rays to each side,
 * clamped to the ray array. The centre cluster is tried first, then the offsets 1, 1, 2, 2, …
 * up to half the rays plus the margin, the side flipping at every try starting with the
 * directional bias: the side flip is the salsa.
 *
 * @module
 */
import type { WalkingSide } from "../core/strategy.ts";

/**
 * Largest ray count (the post's `clamp(…, 3, 21)`).
 *
 * @example
 * ```ts
 * import { MAX_RAYS } from "./_raycast_scan.ts";
 * import assert from "node:assert/strict";
 * assert.equal(MAX_RAYS, 21);
 * ```
 */
export const MAX_RAYS = 21;

/**
 * Largest cluster margin that changes the scan: with 21 rays, a margin of 20 spans them all.
 * The strategy clamps larger margins to it, which scans the same distinct clusters in the same
 * order (only repeats of the all-ray cluster drop out).
 *
 * @example
 * ```ts
 * import { MAX_MARGIN, MAX_RAYS } from "./_raycast_scan.ts";
 * import assert from "node:assert/strict";
 * assert.equal(MAX_MARGIN, MAX_RAYS - 1);
 * ```
 */
export const MAX_MARGIN = 20;

/**
 * Numbers per cluster in a {@linkcode scanTable}: centre ray, first ray, last ray, offset.
 *
 * @example
 * ```ts
 * import { SCAN_FIELDS, scanTable } from "./_raycast_scan.ts";
 * import assert from "node:assert/strict";
 * assert.equal(scanTable(5, 1, -1).length / SCAN_FIELDS, 7); // the centre and 6 offsets
 * ```
 */
export const SCAN_FIELDS = 4;

/**
 * Effective ray count of a requested one, as the post's setter computes it:
 * `clamp(n + (n % 2) - 1, 3, 21)` (an even count loses one ray; non-integers are floored).
 *
 * @example
 * ```ts
 * import { effectiveRayCount } from "./raycast_cluster.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual([12, 13, 2, 40].map(effectiveRayCount), [11, 13, 3, 21]);
 * ```
 */
export function effectiveRayCount(requested: number): number {
  const n = Math.floor(requested);
  if (!(n >= 3)) return 3; // also NaN
  const odd = n + (n % 2) - 1;
  return odd > MAX_RAYS ? MAX_RAYS : odd;
}

/**
 * The cluster offsets of the post, `[1, 1, 2, 2, …, h, h]` with h = floor(rays / 2) +
 * margin: each offset is tried once to each side.
 *
 * @example The post's worked example
 * ```ts
 * import { rayClusterOffsets } from "./raycast_cluster.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(rayClusterOffsets(5, 1), [1, 1, 2, 2, 3, 3]);
 * ```
 */
export function rayClusterOffsets(rayCount: number, clusterMargin: number): number[] {
  const n = effectiveRayCount(rayCount), margin = _checkMargin(clusterMargin);
  const offsets: number[] = [];
  for (let i = 1; i <= Math.floor(n / 2) + margin; i++) offsets.push(i, i);
  return offsets;
}

/** One cluster of a scan: its centre ray and its (clamped) range of rays, indices from the right. */
export interface RayCluster {
  /** Offset from the middle ray (0 for the centre cluster), signed: negative is to the right. */
  readonly offset: number;
  /** Centre ray index after clamping (0 = right-most). */
  readonly centre: number;
  /** First ray of the cluster, clamped to 0. */
  readonly first: number;
  /** Last ray of the cluster, clamped to rays - 1. */
  readonly last: number;
}

/**
 * The clusters in the order the strategy scans them: the centre cluster, then the post's
 * offsets with the side flipping at every try, starting with `bias`. Ray 0 is the right-most.
 * This is the same table the strategy uses.
 *
 * @example Five rays, margin 1, right-hand bias: the edge clusters shrink to one ray
 * ```ts
 * import { rayClusterScan } from "./raycast_cluster.ts";
 * import assert from "node:assert/strict";
 * const ranges = rayClusterScan(5, 1, "right").map((c) => [c.first, c.last]);
 * assert.deepEqual(ranges, [[1, 3], [0, 2], [2, 4], [0, 1], [3, 4], [0, 0], [4, 4]]);
 * ```
 */
export function rayClusterScan(
  rayCount: number,
  clusterMargin: number,
  bias: WalkingSide,
): RayCluster[] {
  if (bias !== "right" && bias !== "left") {
    throw new RangeError(
      `Cannot scan ray clusters as 'bias' must be "right" or "left": current value is ${
        JSON.stringify(bias)
      }`,
    );
  }
  const n = effectiveRayCount(rayCount), margin = _checkMargin(clusterMargin);
  const table = scanTable(n, margin, bias === "right" ? -1 : 1);
  const clusters: RayCluster[] = [];
  for (let t = 0; t < table.length; t += SCAN_FIELDS) {
    clusters.push({
      offset: table[t + 3],
      centre: table[t],
      first: table[t + 1],
      last: table[t + 2],
    });
  }
  return clusters;
}

function _checkMargin(margin: number): number {
  if (!Number.isInteger(margin) || margin < 0) {
    throw new RangeError(
      `Cannot scan ray clusters as 'clusterMargin' must be an integer >= 0: current value is ${margin}`,
    );
  }
  return margin;
}

/** Scan tables by (rays, margin, bias), built on first use. */
const _scanTables: (Int32Array | undefined)[] = [];

/**
 * The scan of {@linkcode rayClusterScan} as a flat table, `SCAN_FIELDS` numbers per cluster in
 * scan order: [centre ray, first ray, last ray, offset]. `rayCount` must be an effective (odd,
 * 3…21) count and `bias` -1 (right) or 1 (left). Tables for margins up to
 * {@linkcode MAX_MARGIN} are built once and shared: do not write into them.
 *
 * @example Three rays, no margin, left-hand bias
 * ```ts
 * import { scanTable } from "./_raycast_scan.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual([...scanTable(3, 0, 1)], [1, 1, 1, 0, 2, 2, 2, 1, 0, 0, 0, -1]);
 * ```
 */
export function scanTable(rayCount: number, margin: number, bias: number): Int32Array {
  const n = rayCount;
  const key = ((n - 3) / 2 * (MAX_MARGIN + 1) + margin) * 2 + (bias > 0 ? 1 : 0);
  const cached = margin <= MAX_MARGIN ? _scanTables[key] : undefined;
  if (cached !== undefined) return cached;
  const half = Math.floor(n / 2), hi = n - 1;
  const tries = 1 + 2 * (half + margin);
  const table = new Int32Array(SCAN_FIELDS * tries);
  table[0] = half;
  table[1] = _clamp(half - margin, hi);
  table[2] = _clamp(half + margin, hi);
  table[3] = 0;
  let side = bias, t = SCAN_FIELDS;
  for (let i = 1; i <= half + margin; i++) {
    for (let twice = 0; twice < 2; twice++) {
      const cur = half + i * side;
      table[t] = _clamp(cur, hi);
      table[t + 1] = _clamp(cur - margin, hi);
      table[t + 2] = _clamp(cur + margin, hi);
      table[t + 3] = i * side;
      side = -side;
      t += SCAN_FIELDS;
    }
  }
  if (margin <= MAX_MARGIN) _scanTables[key] = table;
  return table;
}

/** Ray index `k` clamped to 0 … `hi`. */
function _clamp(k: number, hi: number): number {
  return k < 0 ? 0 : k > hi ? hi : k;
}

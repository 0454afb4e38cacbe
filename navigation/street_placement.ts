/**
 * Where street walkers start: points on the walkable streets, either uniformly along their
 * length or near the junctions in proportion to each junction's viewshed area — the improvement
 * D. Michael and Y. Chrysanthou (Automatic high level avatar guidance based on affordance of
 * movement, Eurographics 2003) propose so that a run starts close to the distribution a long
 * affordance run converges to, instead of waiting hundreds of frames for it.
 *
 * @module
 */
import type { Rng } from "../core/rng.ts";
import type { StreetGuidance } from "./street_guidance.ts";
import type { StreetSpot } from "./street_lanes.ts";
import { attractorWeights, isTransportAttractor } from "./attractor_weights.ts";

/**
 * How walkers are placed: `"viewshed"` near junctions by viewshed area, `"uniform"` along
 * streets, `"attractors"` near the street nodes of the city's attractors by their default weight
 * (where trips begin: stations, shops, offices; see {@linkcode attractorWeights}), `"transport"`
 * near public transport only (stations, entrances, stops, terminals by weight: a morning peak,
 * when trips begin where people arrive).
 */
export type StreetPlacement = "viewshed" | "uniform" | "attractors" | "transport";

/** The placements, for option descriptors and messages. */
export const STREET_PLACEMENTS: readonly StreetPlacement[] = [
  "viewshed",
  "uniform",
  "attractors",
  "transport",
];

/**
 * `count` points (m) on `guidance`'s walkable streets, `[x0, y0, x1, y1, …]`, placed by `mode`
 * with `rng`: `"uniform"` picks a street with probability in proportion to its length and a
 * spot along it; `"viewshed"` picks a junction with probability in proportion to its viewshed
 * area, one of its open streets, and a spot on that street within twice the junction's radius
 * (at most half the street); `"attractors"` does the same with street nodes weighted by the
 * attractors nearest to them (default weights), `"transport"` with the public transport
 * attractors alone. Each point lies on the walker's lane (a random one). Returns an empty array
 * when the city has no walkable street; `"transport"` falls back to `"attractors"` without public
 * transport mapped, and `"viewshed"` and `"attractors"` to `"uniform"` without junctions or
 * weighted attractors.
 *
 * @example Walkers placed by viewshed area stay near junctions
 * ```ts
 * import { streetPlacement } from "./street_placement.ts";
 * import { StreetGuidance } from "./street_guidance.ts";
 * import { Rng } from "../core/rng.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const guidance = StreetGuidance.fromCity(generateProceduralCity({ blocksX: 3, blocksY: 3 }));
 * const points = streetPlacement(guidance, 100, { mode: "viewshed", rng: new Rng(1) });
 * assert.equal(points.length, 200);
 * ```
 */
export function streetPlacement(
  guidance: StreetGuidance,
  count: number,
  options: { mode: StreetPlacement; rng: Rng },
): Float64Array {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(
      `Cannot place walkers as 'count' must be an integer >= 0: current value is ${count}`,
    );
  }
  const { lanes, affordance } = guidance, rng = options.rng;
  const out = new Float64Array(2 * count);
  const point: [number, number] = [0, 0];
  const streets = _cumulative(lanes.edgeCount, (e) => lanes.edgeLength[e]);
  if (streets.total <= 0) return new Float64Array(0);
  let nodeWeight = affordance.viewshedArea;
  if (options.mode === "transport") {
    nodeWeight = _attractorNodeWeights(guidance, true);
    if (!nodeWeight.some((w) => w > 0)) nodeWeight = _attractorNodeWeights(guidance, false);
  } else if (options.mode === "attractors") nodeWeight = _attractorNodeWeights(guidance, false);
  const junctions = _cumulative(affordance.nodeCount, (v) => nodeWeight[v]);
  const byViewshed = options.mode !== "uniform" && junctions.total > 0;
  for (let k = 0; k < count; k++) {
    let edge: number, along: number, forward: boolean;
    if (byViewshed) {
      const v = _pick(junctions, rng);
      const s0 = affordance.slotStart[v], s1 = affordance.slotStart[v + 1];
      const s = s0 + rng.int(s1 - s0);
      edge = affordance.slotEdge[s];
      const len = lanes.edgeLength[edge];
      const d = rng.next() * Math.min(len / 2, 2 * lanes.junctionRadius[v]);
      along = lanes.edgeFrom[edge] === v ? d : len - d;
      forward = rng.next() < 0.5;
    } else {
      edge = _pick(streets, rng);
      along = rng.next() * lanes.edgeLength[edge];
      forward = rng.next() < 0.5;
    }
    const offset = lanes.laneOffset(edge, forward, rng.range(-1, 1));
    lanes.pointAt(edge, along, offset, point);
    out[2 * k] = point[0];
    out[2 * k + 1] = point[1];
  }
  return out;
}

/**
 * Per street node: the default weight of the attractors (public transport alone with
 * `transportOnly`) whose nearest street ends there.
 */
function _attractorNodeWeights(guidance: StreetGuidance, transportOnly: boolean): Float64Array {
  const { city, lanes } = guidance;
  const weights = attractorWeights(city.attractors);
  const out = new Float64Array(guidance.affordance.nodeCount);
  const spot: StreetSpot = { edge: -1, segment: 0, along: 0, distance: 0 };
  city.attractors.forEach((a, k) => {
    if (!(weights[k] > 0) || (transportOnly && !isTransportAttractor(a))) return;
    lanes.nearest(a.x, a.y, spot);
    if (spot.edge < 0) return;
    const node = spot.along < lanes.edgeLength[spot.edge] / 2
      ? lanes.edgeFrom[spot.edge]
      : lanes.edgeTo[spot.edge];
    const slots = guidance.affordance.slotStart;
    if (slots[node + 1] > slots[node]) out[node] += weights[k];
  });
  return out;
}

interface _Cumulative {
  total: number;
  sums: Float64Array;
}

function _cumulative(n: number, weight: (i: number) => number): _Cumulative {
  const sums = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) sums[i] = total += Math.max(0, weight(i));
  return { total, sums };
}

/** An index drawn with probability in proportion to its weight. */
function _pick(c: _Cumulative, rng: Rng): number {
  const r = rng.next() * c.total;
  let lo = 0, hi = c.sums.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.sums[mid] > r) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

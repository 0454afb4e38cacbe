/**
 * Attraction at junctions and on squares: how much the attractors in view along each street draw
 * a walker, combined with the street's visible walkable share. D. Michael and Y. Chrysanthou
 * (Automatic high level avatar guidance based on affordance of movement, Eurographics 2003) end
 * with this extension: pedestrians choose the next junction "not only based on visibility, but
 * also based whether an attractor is visible from their current position".
 *
 * For slot `s` (a street leaving junction `i`), with the attractors seen inside its frustum
 * ({@linkcode JunctionAffordance.slotAttractors}), each of weight `w_k`
 * ({@linkcode attractorWeights}) at distance `d_k` from the junction:
 *
 * ```
 * A_s = Σ_k w_k · exp(−d_k / λ)          attraction in view (λ = attractionDecayM)
 * a_s = A_s / mean_s' A_s'               relative to the city's average street (no unit)
 * P(s) ∝ share_s · (1 + β · a_s)^γ        β = attraction, γ = attractionExponent
 * ```
 *
 * The product of powers is a multinomial logit whose utility is linear in the logarithms of
 * visible area and attraction (D. McFadden, Conditional logit analysis of qualitative choice
 * behavior, 1974), the form of D. L. Huff's retail gravity model (A probabilistic analysis of
 * shopping center trade areas, Land Economics, 1963: attractiveness to a power over a distance
 * deterrent). The `1 +` keeps streets with nothing in view choosable by visibility alone, as in
 * the paper's rule; β = 0 gives the paper's rule exactly. The distance decay (λ = 400 m, a
 * five-minute walk, the planners' usual walking catchment) discounts attractors seen far down a
 * street. Dividing by the city's mean makes β independent of how densely a map is tagged. The
 * defaults β = 1, γ = 1 give a street with the average attraction twice the pull of a street of
 * equal view with nothing in it; they were set before comparing with any counts.
 *
 * On an open square the walker's look ({@linkcode VisualField}) weighs each ray's walkable
 * distance by `(1 + β · a_ray)^γ`, where `a_ray` is the attraction of the building the ray ends
 * at plus the point attractors within the field's range near the ray, decayed by distance and
 * divided by the same mean.
 *
 * Everything is computed once per city (and again for the junctions a blocked street changes),
 * so that the choice at a junction costs what the visibility rule costs.
 *
 * @module
 */
import type { CityModel } from "../geo/city_model.ts";
import {
  type AttractorSummary,
  attractorSummary,
  type AttractorWeightOptions,
  attractorWeights,
} from "./attractor_weights.ts";
import type { JunctionAffordance } from "./junction_affordance.ts";
import type { OpenSquares } from "./open_squares.ts";

/** Options of {@linkcode AttractorGuidance}. */
export interface AttractorGuidanceOptions extends AttractorWeightOptions {
  /** β: pull of the average street's attractors relative to visibility; 0 for none. @default 1 */
  attraction?: number;
  /** γ: exponent of the attraction term. @default 1 */
  attractionExponent?: number;
  /** λ: distance over which an attractor's pull falls by e (m). @default 400 */
  attractionDecayM?: number;
}

/**
 * Per-slot attraction and choice weights of a city's junctions (see the module doc).
 *
 * @example A street with a station in view draws more than one without
 * ```ts
 * import { AttractorGuidance } from "./attractor_guidance.ts";
 * import { StreetGuidance } from "./street_guidance.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 3, blocksY: 3 });
 * const guidance = StreetGuidance.fromCity(city);
 * const g = new AttractorGuidance(guidance.city, guidance.affordance, guidance.squares);
 * const a = guidance.affordance;
 * for (let s = 0; s < a.slotEdge.length; s++) {
 *   assert(g.slotChoice[s] >= a.slotShare[s]); // attraction only adds to the pull
 * }
 * ```
 */
export class AttractorGuidance {
  /** Weight of each attractor of the city. */
  readonly weights: Float64Array;
  /** Points of interest and weights, with a one-line notice. */
  readonly summary: AttractorSummary;
  /** False when the city has no points of interest (or β = 0): visibility alone. */
  readonly active: boolean;
  /** β. */
  readonly beta: number;
  /** γ. */
  readonly gamma: number;
  /** λ (m). */
  readonly decayM: number;
  /** Relative attraction `a_s` of each slot (1 = the city's mean). */
  readonly slotAttraction: Float64Array;
  /** Choice weight of each slot: `share_s · (1 + β a_s)^γ`. */
  readonly slotChoice: Float64Array;
  /** Choice weight factor of the square at each node (the mean street's: `(1 + β)^γ`). */
  readonly squareFactor: number;
  /** Attraction of each building (the attractors in it, undecayed), over the mean. */
  readonly buildingAttraction: Float64Array;
  #mean = 1;
  readonly #city: CityModel;
  readonly #affordance: JunctionAffordance;
  readonly #squares: OpenSquares;
  readonly #inside = new Int32Array(4);
  /** Free point attractors (not in a building) with weight, bucketed in a grid. */
  readonly #freeCell: number;
  readonly #freeOriginX: number;
  readonly #freeOriginY: number;
  readonly #freeCols: number;
  readonly #freeRows: number;
  readonly #freeStart: Uint32Array;
  readonly #freeItems: Uint32Array;

  /**
   * Weighs `city`'s attractors and computes the slots' attraction from `affordance`. Throws a
   * RangeError naming the option for a negative β, γ or λ ≤ 0.
   */
  constructor(
    city: CityModel,
    affordance: JunctionAffordance,
    squares: OpenSquares,
    options: AttractorGuidanceOptions = {},
  ) {
    this.beta = _check("attraction", options.attraction ?? 1, 0);
    this.gamma = _check("attractionExponent", options.attractionExponent ?? 1, 0);
    this.decayM = _check("attractionDecayM", options.attractionDecayM ?? 400, 1e-9);
    this.#city = city;
    this.#affordance = affordance;
    this.#squares = squares;
    this.weights = attractorWeights(city.attractors, options);
    this.summary = attractorSummary(city.attractors, this.weights);
    this.active = this.summary.pointsOfInterest > 0 && this.beta > 0;
    const slots = affordance.slotEdge.length;
    this.slotAttraction = new Float64Array(slots);
    this.slotChoice = new Float64Array(slots);
    this.squareFactor = this.active ? Math.pow(1 + this.beta, this.gamma) : 1;
    this.buildingAttraction = new Float64Array(city.buildings.length);
    // Free attractors in a grid of 25 m cells (for square walkers).
    const cell = 25;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const free: number[] = [];
    city.attractors.forEach((a, k) => {
      const b = a.building ?? -1;
      if (b >= 0 && b < city.buildings.length) this.buildingAttraction[b] += this.weights[k];
      else if (this.weights[k] > 0) {
        free.push(k);
        minX = Math.min(minX, a.x);
        minY = Math.min(minY, a.y);
        maxX = Math.max(maxX, a.x);
        maxY = Math.max(maxY, a.y);
      }
    });
    if (free.length === 0) {
      minX =
        minY =
        maxX =
        maxY =
          0;
    }
    this.#freeCell = cell;
    this.#freeOriginX = minX;
    this.#freeOriginY = minY;
    this.#freeCols = Math.min(2048, Math.floor((maxX - minX) / cell) + 1);
    this.#freeRows = Math.min(2048, Math.floor((maxY - minY) / cell) + 1);
    const cells = this.#freeCols * this.#freeRows;
    const start = new Uint32Array(cells + 1);
    const cellOf = (k: number) => {
      const a = city.attractors[k];
      return Math.min(this.#freeRows - 1, Math.floor((a.y - minY) / cell)) * this.#freeCols +
        Math.min(this.#freeCols - 1, Math.floor((a.x - minX) / cell));
    };
    for (const k of free) start[cellOf(k) + 1]++;
    for (let c = 0; c < cells; c++) start[c + 1] += start[c];
    const items = new Uint32Array(free.length);
    const cursor = start.slice(0, cells);
    for (const k of free) items[cursor[cellOf(k)]++] = k;
    this.#freeStart = start;
    this.#freeItems = items;
    this.refresh();
  }

  /** Recomputes the slots' attraction and choice weights (after the affordance changed). */
  refresh(): void {
    const a = this.#affordance,
      nodes = this.#city.streets.nodes,
      attractors = this.#city.attractors;
    const { start, items } = a.slotAttractors();
    const raw = this.slotAttraction;
    let sum = 0, counted = 0;
    for (let i = 0; i < a.nodeCount; i++) {
      const nx = nodes[i].x, ny = nodes[i].y;
      for (let s = a.slotStart[i]; s < a.slotStart[i + 1]; s++) {
        let total = 0;
        for (let j = start[s]; j < start[s + 1]; j++) {
          const k = items[j], w = this.weights[k];
          if (w === 0) continue;
          const d = Math.hypot(attractors[k].x - nx, attractors[k].y - ny);
          total += w * Math.exp(-d / this.decayM);
        }
        raw[s] = total;
        if (a.hasViewshed[i]) {
          sum += total;
          counted++;
        }
      }
    }
    const mean = counted > 0 && sum > 0 ? sum / counted : 1;
    this.#mean = mean;
    for (let s = 0; s < raw.length; s++) {
      raw[s] /= mean;
      this.slotChoice[s] = this.active
        ? a.slotShare[s] * Math.pow(1 + this.beta * raw[s], this.gamma)
        : a.slotShare[s];
    }
  }

  /**
   * Multiplies each of a square walker's `distances` (one per ray of the squares' field of view,
   * from (`x`, `y`) around `headingRad`) by the ray's attraction factor; returns the new sum.
   * Leaves them as they are when inactive.
   */
  weighRays(x: number, y: number, headingRad: number, distances: Float64Array): number {
    const field = this.#squares.field, offsets = field.rayOffsets, rays = offsets.length;
    let total = 0;
    if (!this.active) {
      for (let k = 0; k < rays; k++) total += distances[k];
      return total;
    }
    const inv = 1 / this.#mean, beta = this.beta, gamma = this.gamma, decay = this.decayM;
    const obstacles = this.#affordance.obstacles, buildings = this.buildingAttraction;
    const attraction = _rayScratch(rays);
    for (let k = 0; k < rays; k++) {
      const angle = headingRad + offsets[k], d = distances[k];
      const ex = x + Math.cos(angle) * (d + 0.5), ey = y + Math.sin(angle) * (d + 0.5);
      const n = obstacles.polygonsContaining(ex, ey, this.#inside);
      const b = n > 0 ? this.#inside[0] : -1;
      attraction[k] = b >= 0 && b < buildings.length ? buildings[b] * Math.exp(-d / decay) : 0;
    }
    // Point attractors near the walker: each adds to the ray nearest its direction, if in sight.
    const range = field.options.maxRangeM, cell = this.#freeCell;
    const fov = (field.options.fieldOfViewDeg * Math.PI) / 180;
    const cx0 = Math.max(0, Math.floor((x - range - this.#freeOriginX) / cell));
    const cy0 = Math.max(0, Math.floor((y - range - this.#freeOriginY) / cell));
    const cx1 = Math.min(this.#freeCols - 1, Math.floor((x + range - this.#freeOriginX) / cell));
    const cy1 = Math.min(this.#freeRows - 1, Math.floor((y + range - this.#freeOriginY) / cell));
    const attractors = this.#city.attractors;
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const c = cy * this.#freeCols + cx;
        for (let j = this.#freeStart[c]; j < this.#freeStart[c + 1]; j++) {
          const q = this.#freeItems[j], ax = attractors[q].x - x, ay = attractors[q].y - y;
          const dist = Math.sqrt(ax * ax + ay * ay);
          if (dist > range) continue;
          let off = Math.atan2(ay, ax) - headingRad;
          off -= 2 * Math.PI * Math.round(off / (2 * Math.PI));
          if (Math.abs(off) > fov / 2) continue;
          const k = rays === 1 ? 0 : Math.round(((off + fov / 2) / fov) * (rays - 1));
          if (distances[k] + 1 < dist) continue; // behind a wall
          attraction[k] += this.weights[q] * Math.exp(-dist / decay);
        }
      }
    }
    for (let k = 0; k < rays; k++) {
      distances[k] *= Math.pow(1 + beta * attraction[k] * inv, gamma);
      total += distances[k];
    }
    return total;
  }
}

let _scratch = new Float64Array(64);
function _rayScratch(n: number): Float64Array {
  if (_scratch.length < n) _scratch = new Float64Array(2 * n);
  return _scratch;
}

function _check(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) {
    throw new RangeError(
      `Cannot create attractor guidance as '${name}' must be ${
        min > 0 ? "> 0" : ">= 0"
      }: current value is ${value}`,
    );
  }
  return value;
}

/**
 * The visual field of a walker in open space: how far one can walk in each of k directions
 * spread across the field of view, for walkers on squares and in parks where there are no
 * junctions to decide at. Turner and Penn's visual agents (A. Turner and A. Penn, Encoding
 * natural movement as an agent-based system: an investigation into human pedestrian behaviour
 * in the built environment, Environment and Planning B, 2002) look over a 170° field of view and
 * every few steps head for a direction in proportion to the walkable distance they see there.
 *
 * Rays are cast against the same walls as the viewshed ({@linkcode ObstacleSet}), through its
 * grid; a call allocates nothing.
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { ObstacleSet } from "./obstacle_set.ts";

/** Options of {@linkcode VisualField}. */
export interface VisualFieldOptions {
  /** Full horizontal field of view (degrees); Turner and Penn's agents use 170°. @default 170 */
  fieldOfViewDeg: number;
  /**
   * Number of directions sampled across the field, evenly from one edge to the other. More rays
   * resolve narrow openings at a cost per ray.
   * @default 35
   */
  rays: number;
  /** Longest distance reported (m); rays that hit nothing report it. @default 100 */
  maxRangeM: number;
}

/** Descriptors of {@linkcode VisualFieldOptions}. */
export const VISUAL_FIELD_OPTIONS: OptionSpecs<VisualFieldOptions> = {
  fieldOfViewDeg: {
    type: "number",
    default: 170,
    min: 0,
    max: 360,
    exclusiveMin: true,
    unit: "deg",
    doc: "full horizontal field of view",
  },
  rays: {
    type: "number",
    default: 35,
    min: 1,
    max: 4096,
    integer: true,
    doc: "directions sampled across the field; more resolve narrow openings, cost per ray",
  },
  maxRangeM: {
    type: "number",
    default: 100,
    min: 0,
    exclusiveMin: true,
    unit: "m",
    doc: "longest distance reported; rays that hit nothing report it",
  },
};

/**
 * Samples visible walkable distance across a field of view (see the module doc).
 *
 * @example A walker facing a wall 4 m ahead
 * ```ts
 * import { ObstacleSet } from "./obstacle_set.ts";
 * import { VisualField } from "./visual_field.ts";
 * import assert from "node:assert/strict";
 * const walls = ObstacleSet.fromPolygons([[[[4, -50], [5, -50], [5, 50], [4, 50]]]]);
 * const field = new VisualField(walls, { rays: 3, fieldOfViewDeg: 120 });
 * const out = new Float64Array(3);
 * field.sample(0, 0, 0, out);
 * assert.equal(out[1], 4); // straight ahead
 * assert(Math.abs(out[0] - 8) < 1e-9); // 60° to the right: 4 / cos 60°
 * ```
 */
export class VisualField {
  /** Resolved options. */
  readonly options: Readonly<VisualFieldOptions>;
  /** Direction of each ray relative to the heading (rad), from right (negative) to left. */
  readonly rayOffsets: Float64Array;
  readonly #obstacles: ObstacleSet;
  readonly #cos: Float64Array;
  readonly #sin: Float64Array;

  /** Throws a RangeError or TypeError naming the option for invalid options. */
  constructor(obstacles: ObstacleSet, options: Partial<VisualFieldOptions> = {}) {
    this.options = resolveOptions("visual field", VISUAL_FIELD_OPTIONS, options);
    this.#obstacles = obstacles;
    const { rays, fieldOfViewDeg } = this.options;
    const fov = (fieldOfViewDeg * Math.PI) / 180;
    this.rayOffsets = new Float64Array(rays);
    this.#cos = new Float64Array(rays);
    this.#sin = new Float64Array(rays);
    for (let k = 0; k < rays; k++) {
      const a = rays === 1 ? 0 : -fov / 2 + (fov * k) / (rays - 1);
      this.rayOffsets[k] = a;
      this.#cos[k] = Math.cos(a);
      this.#sin[k] = Math.sin(a);
    }
  }

  /**
   * Writes into `out[0 … rays-1]` the distance (m) to the nearest wall along each ray from
   * (`x`, `y`) around `headingRad` (rad), capped at `maxRangeM`; returns their sum (m). Throws a
   * RangeError when `out` is shorter than `rays`.
   */
  sample(x: number, y: number, headingRad: number, out: Float64Array): number {
    const rays = this.rayOffsets.length;
    if (out.length < rays) {
      throw new RangeError(
        `Cannot sample visual field as 'out' must hold ${rays} distances: its length is ${out.length}`,
      );
    }
    const hc = Math.cos(headingRad), hs = Math.sin(headingRad), range = this.options.maxRangeM;
    let total = 0;
    for (let k = 0; k < rays; k++) {
      const dx = hc * this.#cos[k] - hs * this.#sin[k], dy = hs * this.#cos[k] + hc * this.#sin[k];
      const d = this.#obstacles.raycast(x, y, dx, dy, range);
      out[k] = d;
      total += d;
    }
    return total;
  }
}

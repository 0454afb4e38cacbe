/**
 * Separation (the `SeparationBehaviour` of "Crossing citizens: a simple simulation of pedestrian
 * crossing", project report; Reynolds 1999, Millington & Funge 2009): keep
 * away from neighbours and obstacle edges within a range in the field of view, the repulsion
 * growing as the gap closes. The gap is measured between body surfaces (centre distance minus
 * both radii; for a segment, minus the agent's radius), and the strength is Millington's
 * `min(k / gap², maxAcceleration)` (inverse square) or `min(k / gap, maxAcceleration)`
 * (inverse).
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../../core/options.ts";
import type { StepContext } from "../../core/strategy.ts";
import type { BehaviourFactory, SteeringBehaviour } from "./behaviour.ts";
import { crowdExtent } from "./crowd_extent.ts";
import { motionHeading } from "./heading.ts";
import { Neighbourhood } from "./neighbourhood.ts";

/** How repulsion falls off with the gap. */
export type SeparationFalloff = "inverse-square" | "inverse";

/** Options of {@linkcode createSeparationBehaviour}. */
export interface SeparationOptions {
  /** Largest gap between surfaces that still repels (m). @default 0.5 */
  range: number;
  /** Field of view (degrees) centred on the walking direction; 360 sees all round. @default 200 */
  fieldOfViewDeg: number;
  /** Strength k: m³/s² for inverse square, m²/s² for inverse. @default 0.02 */
  strength: number;
  /** Cap on the total repulsion (m/s²). @default 4 */
  maxAcceleration: number;
  /** Repulsion falloff with the gap. @default "inverse-square" */
  falloff: SeparationFalloff;
  /** Also repel from obstacle segments. @default true */
  obstacles: boolean;
}

/** Descriptors of {@linkcode SeparationOptions}. */
export const SEPARATION_OPTIONS: OptionSpecs<SeparationOptions> = {
  range: {
    type: "number",
    default: 0.5,
    min: 0,
    max: 5,
    unit: "m",
    doc: "largest surface gap that repels; larger keeps crowds looser and reads more neighbours",
  },
  fieldOfViewDeg: {
    type: "number",
    default: 200,
    min: 0,
    max: 360,
    unit: "deg",
    doc: "field of view centred on the walking direction (a person's is about 200°)",
  },
  strength: {
    type: "number",
    default: 0.02,
    min: 0,
    max: 10,
    unit: "m³/s² (m²/s² for inverse)",
    doc: "k: repulsion at 1 m gap; 0.02 gives 2 m/s² at a 10 cm gap (inverse square)",
  },
  maxAcceleration: {
    type: "number",
    default: 4,
    min: 0,
    max: 100,
    unit: "m/s²",
    doc: "cap on the total repulsion",
  },
  falloff: {
    type: "enum",
    values: ["inverse-square", "inverse"],
    default: "inverse-square",
    doc: "repulsion k/gap² (stiff near contact) or k/gap (softer, longer reach)",
  },
  obstacles: {
    type: "boolean",
    default: true,
    doc: "also repel from walls and obstacle edges",
  },
};

/** Gaps below this (m) count as this, so touching bodies get a finite push. */
const MIN_GAP = 0.01;

class Separation implements SteeringBehaviour {
  readonly name = "separation";
  readonly neighborRadius: number;
  readonly #range: number;
  readonly #cosHalf: number;
  readonly #strength: number;
  readonly #cap: number;
  readonly #square: boolean;
  readonly #walls: boolean;
  #near = new Neighbourhood(0);
  #heading = new Float64Array(2);
  #extent = new Float64Array(2);

  constructor(o: SeparationOptions) {
    this.#range = o.range;
    this.#cosHalf = o.fieldOfViewDeg >= 360 ? -2 : Math.cos((o.fieldOfViewDeg * Math.PI) / 360);
    this.#strength = o.strength;
    this.#cap = o.maxAcceleration;
    this.#square = o.falloff === "inverse-square";
    this.#walls = o.obstacles;
    this.neighborRadius = o.range + 0.5;
  }

  shareNeighbourhood(near: Neighbourhood): void {
    this.#near = near;
  }

  prepare(ctx: StepContext): void {
    crowdExtent(ctx.agents, this.#extent);
  }

  accelerate(ctx: StepContext, i: number, out: Float64Array): void {
    const a = ctx.agents, h = this.#heading;
    out[0] = out[1] = 0;
    if (this.#strength === 0 || this.#cap === 0) return;
    const moving = motionHeading(a, i, h) > 0;
    const cosHalf = moving ? this.#cosHalf : -2;
    const hx = h[0], hy = h[1];
    const ri = a.radius[i];
    const range = this.#range, k = this.#strength, square = this.#square;
    let fx = 0, fy = 0;
    const reach = ri + this.#extent[0] + range;
    const near = this.#near;
    near.gather(ctx, i, reach);
    const n = near.agentCount, buf = near.agents, ar = a.radius;
    const adx = near.agentDx, ady = near.agentDy, ad = near.agentDistance;
    for (let m = 0; m < n; m++) {
      const d = ad[m];
      if (d === 0) continue;
      const gap = d - ri - ar[buf[m]];
      if (gap > range) continue;
      const nx = adx[m] / d, ny = ady[m] / d;
      if (nx * hx + ny * hy < cosHalf) continue;
      const g = gap > MIN_GAP ? gap : MIN_GAP;
      const f = square ? k / (g * g) : k / g;
      fx -= nx * f;
      fy -= ny * f;
    }
    if (this.#walls && ctx.obstacles.segmentCount > 0) {
      const m = near.segmentCount;
      const sdx = near.segmentDx, sdy = near.segmentDy, sd = near.segmentDistance;
      for (let q = 0; q < m; q++) {
        const d = sd[q];
        if (d === 0) continue;
        const gap = d - ri;
        if (gap > range) continue;
        const nx = sdx[q] / d, ny = sdy[q] / d;
        if (nx * hx + ny * hy < cosHalf) continue;
        const g = gap > MIN_GAP ? gap : MIN_GAP;
        const f = square ? k / (g * g) : k / g;
        fx -= nx * f;
        fy -= ny * f;
      }
    }
    const f2 = fx * fx + fy * fy, cap = this.#cap;
    if (f2 > cap * cap) {
      const scale = cap / Math.sqrt(f2);
      fx *= scale;
      fy *= scale;
    }
    out[0] = fx;
    out[1] = fy;
  }
}

/**
 * Creates the separation behaviour.
 *
 * @example Pushed away from a neighbour 10 cm ahead
 * ```ts
 * import { createSeparationBehaviour } from "./separation.ts";
 * import { World } from "../../core/world.ts";
 * import { createNoneStrategy } from "../none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0, vx: 1 });
 * world.addAgent({ x: 0.6, y: 0 });
 * world.prepare();
 * const separation = createSeparationBehaviour();
 * const ctx = { agents: world.agents, grid: world.grid, obstacles: world.obstacles } as never;
 * separation.prepare!(ctx, 0, 2);
 * const out = new Float64Array(2);
 * separation.accelerate(ctx, 0, out);
 * assert.ok(Math.abs(out[0] + 2) < 1e-9); // 0.02 / 0.1² = 2 m/s², backwards
 * assert.equal(out[1], 0);
 * ```
 */
export function createSeparationBehaviour(
  options: Partial<SeparationOptions> = {},
): SteeringBehaviour {
  return new Separation(resolveOptions("separation behaviour", SEPARATION_OPTIONS, options));
}

/** Catalogue entry of the separation behaviour. */
export const separationBehaviour: BehaviourFactory<SeparationOptions> = {
  name: "separation",
  description: "repel from neighbours and walls in the field of view, stronger when closer",
  options: SEPARATION_OPTIONS,
  create: createSeparationBehaviour,
};

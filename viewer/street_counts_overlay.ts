/**
 * The viewer's street heat map: walkers counted into each street of the city over the run so far
 * ({@linkcode StreetCounts}), drawn as the streets' centre lines coloured from pale yellow (few)
 * through orange and red to dark blue (the busiest), on a logarithmic scale relative to the
 * busiest street, as the traffic-count figures of D. Michael and Y. Chrysanthou (Automatic high
 * level avatar guidance based on affordance of movement, Eurographics 2003). Offered as the
 * `streets` debug overlay for worlds whose navigator walks a city's streets (street walkers);
 * the counts accumulate from the first step whether or not the overlay is shown.
 *
 * @module
 */
import type { World } from "../core/world.ts";
import type { CityModel } from "../geo/city_model.ts";
import { StreetCounts } from "../metrics/street_counts.ts";

/** Colour stops of the heat map (RGBA), from no walkers (0) to the busiest street (1). */
export const STREET_COUNT_RAMP: readonly (readonly [number, number, number, number])[] = [
  [255, 240, 160, 150],
  [253, 180, 60, 200],
  [240, 90, 40, 230],
  [190, 20, 60, 240],
  [40, 40, 160, 255],
];

/** The colour of relative count `t` in [0, 1] on {@linkcode STREET_COUNT_RAMP}, into `out`. */
export function streetCountColor(t: number, out: number[] = [0, 0, 0, 0]): number[] {
  const ramp = STREET_COUNT_RAMP, last = ramp.length - 1;
  const u = Math.max(0, Math.min(1, t)) * last, k = Math.min(last - 1, Math.floor(u)), f = u - k;
  for (let c = 0; c < 4; c++) out[c] = Math.round(ramp[k][c] + (ramp[k + 1][c] - ramp[k][c]) * f);
  return out;
}

/** The city of a world's street-walking navigator, or null for other navigators. */
export function streetWalkerCity(world: World): CityModel | null {
  const nav = world.navigator as { guidance?: { city?: CityModel } } | null | undefined;
  return nav?.guidance?.city ?? null;
}

/**
 * Live street counts of a world and their heat-map segments.
 *
 * @example Counts accumulate, segments coloured by them
 * ```ts
 * import { StreetCountsOverlay } from "./street_counts_overlay.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createStreetWalker } from "../navigation/street_navigators.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const world = new World({ strategy: createNoneStrategy(), navigator: createStreetWalker("random-walk", {}, { city }) });
 * for (const n of city.streets.nodes) world.addAgent({ x: n.x + 2, y: n.y + 2 });
 * const overlay = StreetCountsOverlay.watch(world)!;
 * for (let i = 0; i < 600; i++) world.step();
 * const segments: number[] = [], colors: number[][] = [];
 * overlay.forEachSegment((x0, y0, x1, y1, c) => { segments.push(x0, y0, x1, y1); colors.push([...c]); });
 * assert(overlay.counts.total > 0 && segments.length > 0);
 * ```
 */
export class StreetCountsOverlay {
  /** The counts, since the overlay began watching. */
  readonly counts: StreetCounts;
  readonly #city: CityModel;
  readonly #color = [0, 0, 0, 0];

  private constructor(world: World, city: CityModel) {
    this.#city = city;
    this.counts = new StreetCounts(city);
    world.addObserver(this.counts);
  }

  /** Starts counting the streets of `world`; null when its navigator does not walk streets. */
  static watch(world: World): StreetCountsOverlay | null {
    const city = streetWalkerCity(world);
    return city ? new StreetCountsOverlay(world, city) : null;
  }

  /** The busiest street's count so far. */
  get max(): number {
    let max = 0;
    for (const c of this.counts.edgeCounts) if (c > max) max = c;
    return max;
  }

  /**
   * Calls `push` for every piece of every street's centre line (m) with the street's colour
   * (RGBA): log(1 + count) over log(1 + the busiest street's count) on the ramp.
   */
  forEachSegment(
    push: (x0: number, y0: number, x1: number, y1: number, rgba: readonly number[]) => void,
  ): void {
    const edges = this.#city.streets.edges, counts = this.counts.edgeCounts;
    const scale = 1 / Math.log1p(Math.max(1, this.max));
    for (let e = 0; e < edges.length; e++) {
      if (!edges[e].walkable) continue;
      const color = streetCountColor(Math.log1p(counts[e]) * scale, this.#color);
      const p = edges[e].points;
      for (let k = 1; k < p.length; k++) push(p[k - 1][0], p[k - 1][1], p[k][0], p[k][1], color);
    }
  }
}

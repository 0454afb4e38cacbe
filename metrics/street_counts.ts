/**
 * Traffic counts on a city's street network over a run: how many walkers pass each junction and
 * enter each street, as in the figures of D. Michael and Y. Chrysanthou, Automatic high level
 * avatar guidance based on affordance of movement, Eurographics 2003. Exported as CSV and as
 * GeoJSON in longitude and latitude, for a map or a GIS.
 *
 * The counts are read from the street walkers' columns (`street.from`, the junction last passed,
 * and `street.edge`, the street walked): each time a walker's last junction changes it has
 * passed that junction, and the street it now walks gets one more walker. A walker's first
 * placement on the network is not a passage. Steps before `fromStep` (a warm-up) are not counted.
 *
 * @module
 */
// @ts-types="npm:@types/d3-dsv@3.0.7"
import { csvFormat } from "npm:d3-dsv@3.0.2";
import type { World, WorldObserver } from "../core/world.ts";
import type { CityModel } from "../geo/city_model.ts";
import { LocalProjection } from "../geo/local_projection.ts";
import { STREET_COLUMNS } from "../navigation/street_walker.ts";

/** Options of {@linkcode StreetCounts}. */
export interface StreetCountsOptions {
  /** First step counted (steps before it are a warm-up). @default 0 */
  fromStep?: number;
}

/** Column of the junction each walker was last seen coming from. */
const SEEN_COLUMN = "counts.seenFrom";

/**
 * Counts walkers through junctions and into streets (see the module doc).
 *
 * @example Counts of affordance walkers on a small city
 * ```ts
 * import { StreetCounts } from "./street_counts.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createStreetWalker } from "../navigation/street_navigators.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const navigator = createStreetWalker("affordance", {}, { city });
 * const world = new World({ strategy: createNoneStrategy(), navigator });
 * for (const n of city.streets.nodes) world.addAgent({ x: n.x + 2, y: n.y + 2 });
 * const counts = new StreetCounts(city);
 * world.addObserver(counts);
 * for (let i = 0; i < 1200; i++) world.step();
 * assert(counts.total > 0 && counts.total <= navigator.junctionsPassed);
 * assert(counts.edgeCounts.reduce((a, b) => a + b) > 0);
 * ```
 */
export class StreetCounts implements WorldObserver {
  /** Walkers through each street node. */
  readonly nodeCounts: Uint32Array;
  /** Walkers into each street edge. */
  readonly edgeCounts: Uint32Array;
  /** Steps counted so far. */
  steps = 0;
  /** Junction passages counted so far. */
  total = 0;
  readonly #city: CityModel;
  readonly #fromStep: number;

  /** Counts on `city`'s streets. Throws a RangeError for a negative `fromStep`. */
  constructor(city: CityModel, options: StreetCountsOptions = {}) {
    const fromStep = options.fromStep ?? 0;
    if (!Number.isInteger(fromStep) || fromStep < 0) {
      throw new RangeError(
        `Cannot count streets as 'fromStep' must be an integer >= 0: current value is ${fromStep}`,
      );
    }
    this.#city = city;
    this.#fromStep = fromStep;
    this.nodeCounts = new Uint32Array(city.streets.nodes.length);
    this.edgeCounts = new Uint32Array(city.streets.edges.length);
  }

  /** Checks that the world's navigator walks streets; registers the observer's column. */
  attach(world: World): void {
    if (!world.agents.hasColumn(STREET_COLUMNS.from)) {
      throw new TypeError(
        `Cannot count streets as the navigator '${
          world.navigator?.name ?? "none"
        }' does not walk streets: use affordance, random-walk or shortest-path`,
      );
    }
    world.agents.registerColumn({
      name: SEEN_COLUMN,
      type: "i32",
      default: -1,
      doc: "junction the walker was last seen coming from",
    });
  }

  /** Counts the junctions passed in the step. */
  afterStep(world: World): void {
    const a = world.agents;
    const from = a.column<Int32Array>(STREET_COLUMNS.from);
    const edge = a.column<Int32Array>(STREET_COLUMNS.edge);
    const seen = a.column<Int32Array>(SEEN_COLUMN);
    const counting = world.stepIndex > this.#fromStep;
    if (counting) this.steps++;
    for (let i = 0; i < a.count; i++) {
      const f = from[i];
      if (f === seen[i]) continue;
      if (counting && seen[i] >= 0 && f >= 0) {
        this.nodeCounts[f]++;
        this.total++;
        if (edge[i] >= 0) this.edgeCounts[edge[i]]++;
      }
      seen[i] = f;
    }
  }

  /**
   * The counts as CSV: one row per junction passed at least once (`kind` `junction`) and per
   * walkable street (`kind` `street`), with the feature's id, name, position (lon/lat of the
   * junction, or of the street's middle), length (m) and count, and the count per hour of
   * simulated time at time step `dt` (s).
   */
  toCsv(dt: number): string {
    const rows = this.#rows(dt).map(({ geometry: _, ...row }) => row);
    return csvFormat(rows) + "\n";
  }

  /**
   * The counts as a GeoJSON FeatureCollection in longitude and latitude (RFC 7946): junctions as
   * points, streets as line strings, each with the CSV's properties.
   */
  toGeoJson(dt: number): {
    type: "FeatureCollection";
    features: {
      type: "Feature";
      geometry: { type: "Point" | "LineString"; coordinates: number[] | number[][] };
      properties: Record<string, string | number | null>;
    }[];
  } {
    return {
      type: "FeatureCollection",
      features: this.#rows(dt).map(({ geometry, ...properties }) => ({
        type: "Feature",
        geometry,
        properties,
      })),
    };
  }

  #rows(dt: number) {
    const city = this.#city, projection = new LocalProjection(city.anchor);
    const hours = (this.steps * dt) / 3600;
    const lonLat = (x: number, y: number) => {
      const p = projection.toLonLat(x, y);
      return [_round(p.lon, 7), _round(p.lat, 7)];
    };
    const perHour = (n: number) => (hours > 0 ? _round(n / hours, 2) : null);
    const rows: {
      kind: string;
      index: number;
      id: string;
      name: string | null;
      lon: number;
      lat: number;
      length_m: number | null;
      count: number;
      per_hour: number | null;
      geometry: { type: "Point" | "LineString"; coordinates: number[] | number[][] };
    }[] = [];
    for (const n of city.streets.nodes) {
      const count = this.nodeCounts[n.index];
      if (count === 0) continue;
      const [lon, lat] = lonLat(n.x, n.y);
      rows.push({
        kind: "junction",
        index: n.index,
        id: n.osmId === null ? `gen/${n.index}` : `node/${n.osmId}`,
        name: null,
        lon,
        lat,
        length_m: null,
        count,
        per_hour: perHour(count),
        geometry: { type: "Point", coordinates: [lon, lat] },
      });
    }
    for (const e of city.streets.edges) {
      if (!e.walkable) continue;
      const count = this.edgeCounts[e.index];
      const mid = e.points[Math.floor(e.points.length / 2)];
      const [lon, lat] = lonLat(mid[0], mid[1]);
      rows.push({
        kind: "street",
        index: e.index,
        id: e.wayId,
        name: e.name,
        lon,
        lat,
        length_m: _round(e.length, 2),
        count,
        per_hour: perHour(count),
        geometry: { type: "LineString", coordinates: e.points.map(([x, y]) => lonLat(x, y)) },
      });
    }
    return rows;
  }
}

function _round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

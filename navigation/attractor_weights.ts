/**
 * How strongly each attractor of a city draws people: a table of default weights by kind
 * ({@linkcode DEFAULT_ATTRACTOR_WEIGHTS}), overridable per kind, and building floor area as a
 * weight of its own. Used by the attractor-aware street walkers (`attractors` chooses streets by
 * what is in view, `trips` draws origins and destinations).
 *
 * A kind is written `key=value` (`railway=station`) or `key` (`shop`, every value); the most
 * specific entry wins. Weights are relative: 1 is one ordinary shop or café. The defaults were
 * set before any comparison with counts, from the relative numbers of visitors such places
 * usually have: a railway station serves tens of thousands of people a day (weight 100), a
 * station entrance or a ferry terminal a share of that (20), a department store or a mall
 * (20) many ordinary shops, a tram or bus stop (5) a few; street services (toilets, cash
 * machines, taxi ranks) draw little (0.5). Buildings weigh their floor area (footprint ×
 * levels) × `floorAreaWeightPerM2`: 1 per 1,000 m² by default (about 50–100 workplaces, or the
 * floor of a mid-sized shop), so that offices and homes unmapped as points still draw people.
 *
 * Points of interest are the attractors other than buildings. A city whose map has none gets no
 * attraction from them; {@linkcode attractorSummary} says so, and the walkers then choose by
 * visibility alone.
 *
 * @module
 */
import type { CityAttractor } from "../geo/city_model.ts";

/**
 * Default weight of each attractor kind (see the module doc): `key=value` entries before `key`
 * entries; kinds not listed weigh their key's entry, keys not listed weigh 0.
 */
export const DEFAULT_ATTRACTOR_WEIGHTS: Readonly<Record<string, number>> = {
  "railway=station": 100,
  "public_transport=station": 100,
  "railway=subway_entrance": 20,
  "railway=train_station_entrance": 20,
  "public_transport=entrance": 20,
  "amenity=ferry_terminal": 20,
  "amenity=bus_station": 20,
  "railway=tram_stop": 5,
  "railway=halt": 5,
  "railway=stop": 5,
  "public_transport=platform": 5,
  "public_transport=stop_area": 0,
  "public_transport": 1,
  "railway": 0,
  "shop=mall": 20,
  "shop=department_store": 20,
  "shop=supermarket": 5,
  "shop": 2,
  "office": 2,
  "amenity=marketplace": 10,
  "amenity=university": 10,
  "amenity=college": 5,
  "amenity=school": 5,
  "amenity=hospital": 10,
  "amenity=cinema": 5,
  "amenity=theatre": 5,
  "amenity=library": 5,
  "amenity=toilets": 0.5,
  "amenity=atm": 0.5,
  "amenity=taxi": 0.5,
  "amenity=charging_station": 0,
  "amenity": 1,
  "tourism=attraction": 5,
  "tourism=museum": 5,
  "tourism=gallery": 2,
  "tourism=hotel": 2,
  "tourism=information": 0.2,
  "tourism=artwork": 0.2,
  "tourism": 1,
  "leisure=park": 2,
  "leisure": 0.5,
  "entrance=main": 1,
  "entrance": 0.5,
};

/** Default weight per square metre of building floor area: 1 per 1,000 m². */
export const DEFAULT_FLOOR_AREA_WEIGHT_PER_M2 = 0.001;

/** Options of {@linkcode attractorWeights}. */
export interface AttractorWeightOptions {
  /** Weights by kind replacing the defaults (`{"shop": 3, "railway=station": 50}`). @default {} */
  weights?: Readonly<Record<string, number>>;
  /** Weight per m² of a building's floor area (1/m²); 0 leaves buildings out. @default 0.001 */
  floorAreaWeightPerM2?: number;
}

/**
 * Checks a table of weight overrides from a script, scenario file or command line; throws an
 * Error naming the bad entry (a weight must be a finite number ≥ 0).
 */
export function parseAttractorWeights(value: unknown): Record<string, number> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`must be an object of kind → weight, such as {"shop": 2}`);
  }
  const out: Record<string, number> = {};
  for (const [kind, w] of Object.entries(value as Record<string, unknown>)) {
    if (typeof w !== "number" || !Number.isFinite(w) || w < 0) {
      throw new Error(`'${kind}' must be a number >= 0: current value is ${JSON.stringify(w)}`);
    }
    if (!/^[a-z_:]+(=[^=]+)?$/i.test(kind)) {
      throw new Error(`'${kind}' is not a kind: write key or key=value, such as railway=station`);
    }
    out[kind] = w;
  }
  return out;
}

/** The weight of one attractor under `table` (overrides first, then the defaults). */
export function attractorWeight(
  a: CityAttractor,
  overrides: Readonly<Record<string, number>> = {},
  floorAreaWeightPerM2: number = DEFAULT_FLOOR_AREA_WEIGHT_PER_M2,
): number {
  if (a.key === "building") {
    const kind = overrides["building"];
    return (kind ?? 1) * a.floorArea * floorAreaWeightPerM2;
  }
  const full = `${a.key}=${a.value}`;
  return overrides[full] ?? DEFAULT_ATTRACTOR_WEIGHTS[full] ?? overrides[a.key] ??
    DEFAULT_ATTRACTOR_WEIGHTS[a.key] ?? 0;
}

/**
 * The weight of every attractor (one entry per `attractors` entry). Throws a RangeError for a
 * negative or non-finite `floorAreaWeightPerM2`, an Error naming a bad override.
 *
 * @example A station outweighs a shop; a 2,000 m² building weighs 2
 * ```ts
 * import { attractorWeights } from "./attractor_weights.ts";
 * import assert from "node:assert/strict";
 * const base = { id: "n1", x: 0, y: 0, name: null, floorArea: 0 };
 * const w = attractorWeights([
 *   { ...base, key: "railway", value: "station" },
 *   { ...base, key: "shop", value: "bakery" },
 *   { ...base, key: "building", value: "office", floorArea: 2000 },
 * ], { weights: { shop: 3 } });
 * assert.deepEqual(Array.from(w), [100, 3, 2]);
 * ```
 */
export function attractorWeights(
  attractors: readonly CityAttractor[],
  options: AttractorWeightOptions = {},
): Float64Array {
  const perM2 = options.floorAreaWeightPerM2 ?? DEFAULT_FLOOR_AREA_WEIGHT_PER_M2;
  if (!Number.isFinite(perM2) || perM2 < 0) {
    throw new RangeError(
      `Cannot weigh attractors as 'floorAreaWeightPerM2' must be >= 0: current value is ${perM2}`,
    );
  }
  const overrides = parseAttractorWeights(options.weights ?? {});
  const out = new Float64Array(attractors.length);
  for (let k = 0; k < attractors.length; k++) {
    out[k] = attractorWeight(attractors[k], overrides, perM2);
  }
  return out;
}

/** True for public transport: stations, their entrances, stops and platforms, ferry and bus terminals. */
export function isTransportAttractor(a: CityAttractor): boolean {
  return a.key === "railway" || a.key === "public_transport" ||
    (a.key === "amenity" && (a.value === "ferry_terminal" || a.value === "bus_station"));
}

/** What a city's attractors amount to, for a one-line notice. */
export interface AttractorSummary {
  /** Points of interest (attractors other than buildings) with a weight above 0. */
  pointsOfInterest: number;
  /** Of those, public transport. */
  transport: number;
  /** Total weight of the points of interest. */
  poiWeight: number;
  /** Total weight of the buildings' floor area. */
  buildingWeight: number;
  /** A one-line description; says when the city has no points of interest. */
  notice: string;
}

/** Counts and weighs a city's attractors under `weights` (from {@linkcode attractorWeights}). */
export function attractorSummary(
  attractors: readonly CityAttractor[],
  weights: ArrayLike<number>,
): AttractorSummary {
  let pointsOfInterest = 0, transport = 0, poiWeight = 0, buildingWeight = 0;
  for (let k = 0; k < attractors.length; k++) {
    const a = attractors[k];
    if (a.key === "building") buildingWeight += weights[k];
    else if (weights[k] > 0) {
      pointsOfInterest++;
      poiWeight += weights[k];
      if (isTransportAttractor(a)) transport++;
    }
  }
  const notice = pointsOfInterest === 0
    ? "no points of interest mapped: attractor walkers choose by visibility alone"
    : `${pointsOfInterest} points of interest (${transport} public transport), weight ${
      poiWeight.toFixed(0)
    }; buildings' floor area weight ${buildingWeight.toFixed(0)}`;
  return { pointsOfInterest, transport, poiWeight, buildingWeight, notice };
}

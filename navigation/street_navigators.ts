/**
 * The street-walking navigators, registered as `affordance`, `attractors`, `trips`,
 * `random-walk` and `shortest-path`: one {@linkcode StreetWalker} with five rules of choice at
 * junctions (see its module doc), each
 * declaring the options that mean something to it. All three need a city model; they share a
 * prebuilt {@linkcode StreetGuidance} when one for the same city and options comes with it.
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { NavigatorFactory, NavigatorResources } from "./navigator_factory.ts";
import { StreetGuidance } from "./street_guidance.ts";
import {
  STREET_WALKER_OPTIONS,
  type StreetChoiceRule,
  streetGuidanceOptions,
  StreetWalker,
  type StreetWalkerOptions,
} from "./street_walker.ts";

type Key = keyof StreetWalkerOptions;

const MOVEMENT: readonly Key[] = [
  "junctionRadiusM",
  "sidewalkWidthM",
  "lookAheadM",
  "turnRateDegPerS",
  "buildingWalls",
];
const SQUARES: readonly Key[] = ["squares", "fieldOfViewDeg", "stepsBetweenLooks", "paceM"];

function _pick(keys: readonly Key[]): OptionSpecs<StreetWalkerOptions> {
  return Object.fromEntries(keys.map((k) => [k, STREET_WALKER_OPTIONS[k]])) as OptionSpecs<
    StreetWalkerOptions
  >;
}

/** Options of the `affordance` navigator. */
export const AFFORDANCE_NAVIGATOR_OPTIONS: OptionSpecs<StreetWalkerOptions> = _pick([
  "frustumDeg",
  "maxRangeM",
  ...MOVEMENT,
  ...SQUARES,
]);

const ATTRACTION: readonly Key[] = [
  "attraction",
  "attractionExponent",
  "attractionDecayM",
  "attractorWeights",
  "floorAreaWeightPerM2",
];

/** Options of the `attractors` navigator. */
export const ATTRACTORS_NAVIGATOR_OPTIONS: OptionSpecs<StreetWalkerOptions> = _pick([
  "frustumDeg",
  "maxRangeM",
  ...ATTRACTION,
  ...MOVEMENT,
  ...SQUARES,
]);

/** Options of the `trips` navigator. */
export const TRIPS_NAVIGATOR_OPTIONS: OptionSpecs<StreetWalkerOptions> = _pick([
  "attractorWeights",
  "floorAreaWeightPerM2",
  "transportShare",
  "routeSpread",
  ...MOVEMENT,
  "maxRouteTables",
]);

/** Options of the `random-walk` navigator. */
export const RANDOM_WALK_NAVIGATOR_OPTIONS: OptionSpecs<StreetWalkerOptions> = _pick([
  ...MOVEMENT,
  ...SQUARES,
]);

/** Options of the `shortest-path` navigator. */
export const SHORTEST_PATH_NAVIGATOR_OPTIONS: OptionSpecs<StreetWalkerOptions> = _pick([
  ...MOVEMENT,
  "maxRouteTables",
]);

/**
 * Creates a street walker with `rule` from validated `options` (the rest at their defaults) on
 * `resources.city`, reusing `resources.streetGuidance` when it was built for that city with the
 * same options. Throws a TypeError without a city.
 *
 * @example Three navigators on one prebuilt guidance
 * ```ts
 * import { createStreetWalker } from "./street_navigators.ts";
 * import { StreetGuidance } from "./street_guidance.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const streetGuidance = StreetGuidance.fromCity(city);
 * const walkers = (["affordance", "random-walk", "shortest-path"] as const)
 *   .map((rule) => createStreetWalker(rule, {}, { city, streetGuidance }));
 * assert(walkers.every((w) => w.guidance === streetGuidance));
 * ```
 */
export function createStreetWalker(
  rule: StreetChoiceRule,
  options: Partial<StreetWalkerOptions>,
  resources: NavigatorResources,
): StreetWalker {
  const city = resources.city;
  if (!city) throw new TypeError(`Cannot create ${rule} navigator as it needs a city model (city)`);
  const o = resolveOptions(`${rule} navigator`, STREET_WALKER_OPTIONS, options);
  const wanted = streetGuidanceOptions(o);
  const shared = resources.streetGuidance;
  const guidance = shared && shared.matches(city, wanted)
    ? shared
    : StreetGuidance.fromCity(city, wanted);
  return new StreetWalker(guidance, rule, o);
}

/** Walkers that choose streets by visible walkable share (the paper's rule). */
export const affordanceNavigator: NavigatorFactory<StreetWalkerOptions> = {
  name: "affordance",
  description:
    "walk the city's streets, choosing at junctions in proportion to the visible area along each street (needs a city)",
  options: AFFORDANCE_NAVIGATOR_OPTIONS,
  requires: ["city"],
  wanders: true,
  create: (options, resources) => createStreetWalker("affordance", options, resources),
};

/** Walkers that choose every open street alike (the paper's comparison). */
export const randomWalkNavigator: NavigatorFactory<StreetWalkerOptions> = {
  name: "random-walk",
  description: "walk the city's streets, choosing at junctions at random (needs a city)",
  options: RANDOM_WALK_NAVIGATOR_OPTIONS,
  requires: ["city"],
  wanders: true,
  create: (options, resources) => createStreetWalker("random-walk", options, resources),
};

/** Walkers on shortest street routes between random buildings. */
export const shortestPathNavigator: NavigatorFactory<StreetWalkerOptions> = {
  name: "shortest-path",
  description:
    "walk shortest street routes between random buildings, one trip after another (needs a city)",
  options: SHORTEST_PATH_NAVIGATOR_OPTIONS,
  requires: ["city"],
  wanders: true,
  create: (options, resources) => createStreetWalker("shortest-path", options, resources),
};

/** Walkers that choose streets by visible share and the attractors in view. */
export const attractorsNavigator: NavigatorFactory<StreetWalkerOptions> = {
  name: "attractors",
  description:
    "walk the city's streets, choosing at junctions by the visible area and the attractors (shops, stations, …) in view along each street (needs a city)",
  options: ATTRACTORS_NAVIGATOR_OPTIONS,
  requires: ["city"],
  wanders: true,
  create: (options, resources) => createStreetWalker("attractors", options, resources),
};

/** Walkers on shortest street routes between attractors drawn by weight. */
export const tripsNavigator: NavigatorFactory<StreetWalkerOptions> = {
  name: "trips",
  description:
    "walk shortest street routes of trips between public transport and destinations (shops, offices, …) drawn by attractor weight (needs a city)",
  options: TRIPS_NAVIGATOR_OPTIONS,
  requires: ["city"],
  wanders: true,
  create: (options, resources) => createStreetWalker("trips", options, resources),
};

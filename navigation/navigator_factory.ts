/**
 * The navigator plugin's front door: a named, documented factory, and the world data a
 * navigator may need when it is created.
 *
 * A {@linkcode Navigator} decides where each agent wants to go (its preferred velocity). Some
 * navigators need static data of the world they walk in that the {@linkcode World} does not
 * hold: a navigation mesh to plan on, a city model with its street network, crossings and
 * attractors. That data travels in {@linkcode NavigatorResources}; a factory lists in
 * `requires` what it cannot work without, and the registry refuses to create it without them,
 * with an error naming the navigator and the missing data. Everything dynamic (agents,
 * obstacles, spawners, time) is read from the world in `attach` and from the step context.
 *
 * A new kind of world data is a new optional field of {@linkcode NavigatorResources}; the
 * navigators that need it name it in `requires`.
 *
 * @module
 */
import type { Navigator } from "../core/navigator.ts";
import type { OptionSpecs } from "../core/options.ts";
import type { CityModel } from "../geo/city_model.ts";
import type { NavMesh } from "./navmesh.ts";
import type { StreetGuidance } from "./street_guidance.ts";

/** Static world data a navigator may be created with; each field is optional. */
export interface NavigatorResources {
  /** The walkable area as a navigation mesh (built once, frozen). */
  readonly navMesh?: NavMesh;
  /** The city: buildings, street network, sidewalks, crossings, signals, attractors. */
  readonly city?: CityModel;
  /**
   * The street walkers' preprocessing of `city` (viewsheds, guidance map, lanes, squares), to
   * share between runs on the same city; built from `city` when absent.
   */
  readonly streetGuidance?: StreetGuidance;
}

/** Name of one kind of world data in {@linkcode NavigatorResources}. */
export type NavigatorResourceName = keyof NavigatorResources;

/** How each kind of world data is called in messages. */
export const NAVIGATOR_RESOURCE_NAMES: Readonly<Record<NavigatorResourceName, string>> = {
  navMesh: "a navigation mesh",
  city: "a city model",
  streetGuidance: "the street guidance of a city",
};

/**
 * A named, documented way to create a {@linkcode Navigator} from validated options and world
 * data.
 *
 * @example A navigator that keeps everyone still
 * ```ts
 * import type { NavigatorFactory } from "./navigator_factory.ts";
 * import assert from "node:assert/strict";
 * const standStill: NavigatorFactory = {
 *   name: "stand-still",
 *   description: "nobody wants to go anywhere",
 *   options: {},
 *   create: () => ({
 *     name: "stand-still",
 *     updatePreferredVelocities(ctx, begin, end) {
 *       ctx.agents.prefVx.fill(0, begin, end);
 *       ctx.agents.prefVy.fill(0, begin, end);
 *     },
 *   }),
 * };
 * assert.equal(standStill.create({}, {}).name, "stand-still");
 * ```
 */
export interface NavigatorFactory<O extends object = Record<string, never>> {
  /** Registry name, lower-case with dashes, e.g. `"navmesh"`. */
  readonly name: string;
  /** One line for listings. */
  readonly description: string;
  /** Model-wide parameters with defaults, units and limits. */
  readonly options: OptionSpecs<O>;
  /** World data the navigator cannot work without. @default none */
  readonly requires?: readonly NavigatorResourceName[];
  /**
   * Largest preferred speed the navigator writes, as a multiple of the agent's desired speed.
   * The conformance suite holds every navigator to it. @default 1
   */
  readonly maxSpeedFactor?: number;
  /**
   * True when the navigator routes around walls and obstacles (it plans); false when it walks
   * straight at goals and leaves walls to the avoidance strategy. @default false
   */
  readonly plansAroundObstacles?: boolean;
  /**
   * True when the navigator ignores goals: its agents walk the city on their own and never
   * arrive (street walkers). The conformance suite then checks that they keep walking on the
   * street network. @default false
   */
  readonly wanders?: boolean;
  /**
   * Creates an instance. `options` are validated against `options` (the registry does it
   * first; a direct call must too); `resources` holds at least what `requires` names.
   */
  create(options: Partial<O>, resources: NavigatorResources): Navigator;
}

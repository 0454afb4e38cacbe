/**
 * Everything street walkers read, built once per city: the viewshed affordance at every junction
 * ({@linkcode JunctionAffordance}), the guidance map of building, junction and road cells
 * ({@linkcode GuidanceMap}), the lanes of the walkable streets ({@linkcode StreetLanes}) and the
 * open squares ({@linkcode OpenSquares}).
 *
 * Building it is the preprocessing of the street navigators (about 2 s for a 4 km² city centre,
 * almost all of it viewsheds). Several runs on the same city may share one
 * ({@linkcode NavigatorResources.streetGuidance}) as long as none of them blocks a street:
 * blocking changes the shared affordance.
 *
 * @module
 */
import type { CityModel } from "../geo/city_model.ts";
import { GuidanceMap } from "./guidance_map.ts";
import { JunctionAffordance, type JunctionAffordanceOptions } from "./junction_affordance.ts";
import { OpenSquares } from "./open_squares.ts";
import { StreetLanes, type StreetLanesOptions } from "./street_lanes.ts";
import type { VisualFieldOptions } from "./visual_field.ts";

/** Options of {@linkcode StreetGuidance.fromCity}: those of each part. */
export interface StreetGuidanceOptions {
  /** Viewsheds and frustums. @default the affordance's defaults */
  affordance?: Partial<JunctionAffordanceOptions>;
  /** Lanes and junction radius. @default the lanes' defaults */
  lanes?: Partial<StreetLanesOptions>;
  /** Field of view of square walkers. @default the visual field's defaults */
  field?: Partial<VisualFieldOptions>;
}

/**
 * The street walkers' view of a city (see the module doc).
 *
 * @example Build once, read the parts
 * ```ts
 * import { StreetGuidance } from "./street_guidance.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 3, blocksY: 3 });
 * const guidance = StreetGuidance.fromCity(city);
 * assert.equal(guidance.lanes.nodeCount, city.streets.nodes.length);
 * assert(guidance.affordance.viewshedArea.some((a) => a > 0));
 * ```
 */
export class StreetGuidance {
  /** The city. */
  readonly city: CityModel;
  /** Viewshed affordance per junction. */
  readonly affordance: JunctionAffordance;
  /** Cells marked building, junction, road or open. */
  readonly map: GuidanceMap;
  /** Lanes of the walkable streets. */
  readonly lanes: StreetLanes;
  /** Open squares. */
  readonly squares: OpenSquares;
  /** The options it was built with. */
  readonly options: Readonly<StreetGuidanceOptions>;

  private constructor(city: CityModel, options: StreetGuidanceOptions) {
    this.city = city;
    this.options = options;
    this.affordance = JunctionAffordance.fromCity(city, options.affordance);
    const lanes = new StreetLanes(city, { ...options.lanes, walls: this.affordance.obstacles });
    this.lanes = lanes;
    this.map = GuidanceMap.fromCity(city, { junctionRadiusM: lanes.options.junctionRadiusM });
    this.squares = new OpenSquares(city, this.affordance, this.map, options.field);
  }

  /** Builds the guidance of `city`. Throws the parts' option errors. */
  static fromCity(city: CityModel, options: StreetGuidanceOptions = {}): StreetGuidance {
    return new StreetGuidance(city, options);
  }

  /**
   * True when this guidance was built for `city` and every option `options` gives has the value
   * in force here (options left out match their defaults).
   */
  matches(city: CityModel, options: StreetGuidanceOptions): boolean {
    if (city !== this.city) return false;
    const agrees = (given: object | undefined, held: object) =>
      Object.entries(given ?? {}).every(([k, v]) => (held as Record<string, unknown>)[k] === v);
    return agrees(options.affordance, this.affordance.options) &&
      agrees(options.lanes, this.lanes.options) &&
      agrees(options.field, this.squares.field.options);
  }
}

/**
 * Geography: real-world coordinates in, local metres for the simulation, longitude and latitude
 * out.
 *
 * @example
 * ```ts
 * import { LocalProjection } from "./mod.ts";
 * const projection = new LocalProjection({ lon: 7.4246, lat: 43.7384 });
 * const { lon, lat } = projection.toLonLat(120, -35);
 * ```
 *
 * @module
 */
export { LocalProjection, type LonLat } from "./local_projection.ts";
export {
  generateProceduralCity,
  PROCEDURAL_CITY_OPTIONS,
  type ProceduralCityOptions,
} from "./procedural_city.ts";

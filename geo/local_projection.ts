/**
 * Local metres around a geographic anchor, and back to longitude and latitude.
 *
 * The simulation runs in a flat local frame in metres (x east, y north) whose origin is the
 * scenario's `anchor`. The mapping is the azimuthal equidistant projection on the WGS84
 * ellipsoid centred on the anchor (via `proj4`): distances and directions from the anchor are
 * exact, and over a few kilometres every distance is right to better than 0.01 %.
 *
 * @module
 */
import proj4 from "npm:proj4@2.22.0";

/** A geographic position in degrees (WGS84). */
export interface LonLat {
  /** Longitude (degrees east). */
  readonly lon: number;
  /** Latitude (degrees north). */
  readonly lat: number;
}

/**
 * Converts between local metres and longitude/latitude around an anchor.
 *
 * @example Ten metres east of Helsinki's Senate Square
 * ```ts
 * import { LocalProjection } from "./local_projection.ts";
 * import assert from "node:assert/strict";
 * const projection = new LocalProjection({ lon: 24.9525, lat: 60.1693 });
 * const [x, y] = projection.toLocal(projection.toLonLat(10, 0).lon, 60.1693);
 * assert.ok(Math.abs(x - 10) < 0.01 && Math.abs(y) < 0.01);
 * ```
 */
export class LocalProjection {
  /** The geographic position of the local origin. */
  readonly anchor: LonLat;
  #converter: proj4.Converter;

  constructor(anchor: LonLat) {
    const { lon, lat } = anchor;
    if (!Number.isFinite(lon) || lon < -180 || lon > 180) {
      throw new RangeError(
        `Cannot create LocalProjection as 'lon' must be in [-180, 180]: current value is ${lon}`,
      );
    }
    if (!Number.isFinite(lat) || lat < -85 || lat > 85) {
      throw new RangeError(
        `Cannot create LocalProjection as 'lat' must be in [-85, 85]: current value is ${lat}`,
      );
    }
    this.anchor = { lon, lat };
    this.#converter = proj4(
      "WGS84",
      `+proj=aeqd +lat_0=${lat} +lon_0=${lon} +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs`,
    );
  }

  /** Local metres `[x, y]` (east, north) of a longitude/latitude in degrees. */
  toLocal(lon: number, lat: number): [number, number] {
    const [x, y] = this.#converter.forward([lon, lat]);
    return [x, y];
  }

  /** Longitude/latitude in degrees of local metres (`x` east, `y` north). */
  toLonLat(x: number, y: number): LonLat {
    const [lon, lat] = this.#converter.inverse([x, y]);
    return { lon, lat };
  }
}

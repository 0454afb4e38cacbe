/**
 * Counting gates at count sites: for each site inside a city's map, a gate across the street
 * nearest to it, square to the street and reaching the facades on both sides (at most
 * `maxHalfWidthM` each way), so that walkers on the street and on sidewalks mapped beside it are
 * counted together, as a person counting on the spot would.
 *
 * @module
 */
import type { CityModel } from "../geo/city_model.ts";
import { LocalProjection } from "../geo/local_projection.ts";
import type { ObstacleSet } from "../navigation/obstacle_set.ts";
import type { StreetLanes, StreetSpot } from "../navigation/street_lanes.ts";
import type { CountGate } from "./count_gates.ts";
import type { CountSite } from "./count_sites.ts";

/** Options of {@linkcode siteGates}. */
export interface SiteGateOptions {
  /** Farthest a site may be from a walkable street (m). @default 25 */
  maxSnapM?: number;
  /** Longest reach of a gate on each side of the street's centre line (m). @default 30 */
  maxHalfWidthM?: number;
}

/** A gate made for a count site. */
export interface SiteGate extends CountGate {
  /** The site. */
  readonly site: CountSite;
  /** The street the gate crosses. */
  readonly edge: number;
  /** Distance from the site to that street's centre line (m). */
  readonly snapM: number;
}

/** Gates at sites, and the sites left out with the reason. */
export interface SiteGates {
  /** One gate per site kept. */
  gates: SiteGate[];
  /** Sites without a gate. */
  skipped: { site: CountSite; reason: string }[];
}

/**
 * Gates at `sites` on `city` (see the module doc), using its `lanes` and building `walls`.
 *
 * @example A gate across a street of a small city
 * ```ts
 * import { siteGates } from "./site_gates.ts";
 * import { StreetGuidance } from "../navigation/street_guidance.ts";
 * import { LocalProjection } from "../geo/local_projection.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const g = StreetGuidance.fromCity(city);
 * const e = city.streets.edges[0], [x, y] = e.points[0];
 * const { lon, lat } = new LocalProjection(city.anchor).toLonLat(x + 30 * Math.sign(e.points[1][0] - x), y + 30 * Math.sign(e.points[1][1] - y));
 * const { gates } = siteGates(city, [{ id: "a", lon, lat, count: 10, surveys: 1 }], { lanes: g.lanes, walls: g.affordance.obstacles });
 * assert.equal(gates.length, 1);
 * assert(Math.hypot(gates[0].bx - gates[0].ax, gates[0].by - gates[0].ay) > e.width);
 * ```
 */
export function siteGates(
  city: CityModel,
  sites: readonly CountSite[],
  options: SiteGateOptions & { lanes: StreetLanes; walls: ObstacleSet },
): SiteGates {
  const maxSnap = options.maxSnapM ?? 25, reach = options.maxHalfWidthM ?? 30;
  const { lanes, walls } = options;
  const projection = new LocalProjection(city.anchor);
  const [x0, y0, x1, y1] = city.bounds;
  const gates: SiteGate[] = [], skipped: SiteGates["skipped"] = [];
  const spot: StreetSpot = { edge: -1, segment: 0, along: 0, distance: 0 };
  for (const site of sites) {
    const [x, y] = projection.toLocal(site.lon, site.lat);
    const inBox = city.bbox
      ? site.lon >= city.bbox[0] && site.lon <= city.bbox[2] && site.lat >= city.bbox[1] &&
        site.lat <= city.bbox[3]
      : x >= x0 && x <= x1 && y >= y0 && y <= y1;
    if (!inBox) {
      skipped.push({ site, reason: "outside the map" });
      continue;
    }
    lanes.nearest(x, y, spot);
    if (spot.edge < 0 || spot.distance > maxSnap) {
      skipped.push({ site, reason: `no walkable street within ${maxSnap} m` });
      continue;
    }
    const k = lanes.pointStart[spot.edge] + spot.segment;
    const [cx, cy] = lanes.pointAt(spot.edge, spot.along, 0, [0, 0]);
    const nx = -lanes.uy[k], ny = lanes.ux[k];
    const left = walls.raycast(cx, cy, nx, ny, reach),
      right = walls.raycast(cx, cy, -nx, -ny, reach);
    gates.push({
      id: site.id,
      ax: cx + nx * left,
      ay: cy + ny * left,
      bx: cx - nx * right,
      by: cy - ny * right,
      site,
      edge: spot.edge,
      snapM: spot.distance,
    });
  }
  return { gates, skipped };
}

/**
 * The city under a crowd, as the viewer draws it: building footprints with their heights,
 * streets by kind, crossings, traffic signals and (on demand) the navigation mesh, in the
 * scene's local metres rounded to centimetres, with the map's attribution. Offline — without
 * basemap tiles — these layers alone show where the crowd walks.
 *
 * @module
 */
import type { CityModel, StreetEdge } from "../geo/city_model.ts";
import type { NavMesh } from "../navigation/navmesh.ts";
import type { CitySceneLayers, MetrePoint, StreetKind } from "./frame_protocol.ts";

const _round = (v: number) => Math.round(v * 100) / 100;
const _point = (p: readonly [number, number] | readonly number[]): MetrePoint => [
  _round(p[0]),
  _round(p[1]),
];

/** The kind a street edge is drawn as. */
export function streetKind(edge: StreetEdge): StreetKind {
  if (edge.crossing) return "crossing";
  if (edge.steps) return "steps";
  if (edge.carriageway && !edge.shared) return "road";
  if (edge.highway === "pedestrian" || edge.highway === "living_street") return "pedestrian";
  return "footway";
}

/**
 * The layers of `city` (and of its navigation mesh, when given) for the viewer's scene.
 *
 * @example
 * ```ts
 * import { citySceneLayers } from "./city_scene.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const layers = citySceneLayers(city);
 * assert.equal(layers.buildings.length, city.buildings.length);
 * assert(layers.streets.some((s) => s.kind === "road"));
 * assert.equal(layers.navmesh, null);
 * ```
 */
export function citySceneLayers(city: CityModel, mesh?: NavMesh): CitySceneLayers {
  const navmesh = mesh ? new Array<number>(6 * mesh.triangleCount) : null;
  if (mesh && navmesh) {
    const c = mesh.coords, v = mesh.triangles;
    for (let t = 0; t < mesh.triangleCount; t++) {
      for (let k = 0; k < 3; k++) {
        const p = v[3 * t + k];
        navmesh[6 * t + 2 * k] = _round(c[2 * p]);
        navmesh[6 * t + 2 * k + 1] = _round(c[2 * p + 1]);
      }
    }
  }
  return {
    name: city.name,
    attribution: city.source.attribution,
    buildings: city.buildings.map((b) => ({
      rings: b.polygon.map((ring) => ring.map(_point)),
      height: b.height,
    })),
    streets: city.streets.edges.filter((e) => !e.tunnel).map((e) => ({
      path: e.points.map(_point),
      width: _round(e.width),
      kind: streetKind(e),
    })),
    crossings: city.crossings.map((c) => ({
      path: c.points.map(_point),
      width: _round(c.width),
      signalled: c.signalled,
    })),
    signals: city.signals.map((s) => _point([s.x, s.y])),
    navmesh,
  };
}

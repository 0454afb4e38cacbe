/**
 * A city's navigation mesh: its walkable area ({@linkcode buildCityWalkableArea}) meshed with
 * the standard builder ({@linkcode buildNavMesh}, every connected region kept), and where each
 * street-network node lands on it. A node is reachable when the nearest clear point within
 * reach of it (half the widest way at the node, plus the clearance and a metre) lies on the
 * mesh's main component — the one holding most nodes. Every other node is listed with the
 * reason: inside a building, underground, off the walkable area, or on a region cut off from
 * the main one.
 *
 * @module
 */
import type { CityModel } from "../geo/city_model.ts";
import { BuildingFinder } from "../geo/building_finder.ts";
import {
  buildCityWalkableArea,
  type CityWalkableArea,
  type CityWalkableOptions,
} from "./city_walkable.ts";
import type { NavMesh } from "./navmesh.ts";
import { buildNavMesh, type NavMeshOptions } from "./navmesh_builder.ts";

/** Why a street node is not reachable on the mesh. */
export type UnreachableReason =
  /** The node lies inside a building footprint (an entrance or a passage through it). */
  | "in-building"
  /** Every way at the node runs under ground or indoors. */
  | "underground"
  /** No clear walkable point within reach of the node. */
  | "off-mesh"
  /** On a walkable region not connected to the main one. */
  | "disconnected";

/** A street node that is not reachable, and why. */
export interface UnreachableNode {
  /** Index in {@linkcode StreetNetwork.nodes}. */
  readonly node: number;
  /** Why. */
  readonly reason: UnreachableReason;
}

/** Options of {@linkcode buildCityNavMesh}. */
export interface CityNavMeshOptions {
  /** Options of the walkable area. */
  walkable?: Partial<CityWalkableOptions>;
  /** Options of the mesh builder; `keepAllComponents` is always true here. */
  navmesh?: Partial<Omit<NavMeshOptions, "keepAllComponents">>;
}

/** A city's walkable area, mesh, and the street nodes on it. */
export interface CityNavigation {
  /** The walkable area. */
  readonly walkable: CityWalkableArea;
  /** The mesh over it (every region, see `mainComponent`). */
  readonly mesh: NavMesh;
  /** The plan component holding most street nodes (see {@linkcode NavMesh.planComponent}). */
  readonly mainComponent: number;
  /** For each street node: the clear triangle it snaps to, or -1. */
  readonly nodeTriangle: Int32Array;
  /** For each street node: its snapped position on the mesh `[x0, y0, …]` (m), NaN when none. */
  readonly nodePoint: Float64Array;
  /** For each street node: 1 when it is on the main component. */
  readonly reachable: Uint8Array;
  /** The nodes that are not, with the reason. */
  readonly unreachable: readonly UnreachableNode[];
}

/**
 * Builds a city's walkable area and navigation mesh and places the street nodes on it.
 *
 * @example Two sidewalks joined by a crossing
 * ```ts
 * import { buildCityNavMesh } from "./city_navmesh.ts";
 * import { buildCityModel, osmElementsToFeatures, readOsmXml } from "../geo/mod.ts";
 * import assert from "node:assert/strict";
 * const xml = `<osm version="0.6">
 *   <node id="1" lat="60.1700" lon="24.9400"/><node id="2" lat="60.1700" lon="24.9420"/>
 *   <node id="3" lat="60.1700" lon="24.9410"><tag k="highway" v="crossing"/></node>
 *   <way id="10"><nd ref="1"/><nd ref="3"/><nd ref="2"/><tag k="highway" v="residential"/>
 *     <tag k="sidewalk" v="both"/></way>
 * </osm>`;
 * const city = buildCityModel(osmElementsToFeatures(readOsmXml(xml), { file: "c.osm", format: "osm-xml" }));
 * const nav = buildCityNavMesh(city);
 * assert.equal(nav.walkable.polygons.length, 1); // the crossing joins both sidewalks
 * assert.equal(nav.unreachable.length, 0);
 * ```
 */
export function buildCityNavMesh(
  city: CityModel,
  options: CityNavMeshOptions = {},
): CityNavigation {
  const walkable = buildCityWalkableArea(city, options.walkable);
  if (walkable.polygons.length === 0) {
    throw new RangeError(
      `Cannot build the navigation mesh of '${city.name}' as it has no walkable area holding streets`,
    );
  }
  const mesh = buildNavMesh({ walkable: walkable.polygons }, {
    ...options.navmesh,
    keepAllComponents: true,
  });
  const { nodes, edges } = city.streets;
  const reach = new Float64Array(nodes.length);
  const onSurface = new Uint8Array(nodes.length);
  for (const e of edges) {
    for (const n of [e.from, e.to]) {
      reach[n] = Math.max(reach[n], e.width / 2);
      if (!e.tunnel) onSurface[n] = 1;
    }
  }
  const nodeTriangle = new Int32Array(nodes.length).fill(-1);
  const nodePoint = new Float64Array(2 * nodes.length).fill(NaN);
  const out = new Float64Array(2);
  const votes = new Map<number, number>();
  nodes.forEach((n, i) => {
    if (!onSurface[i]) return;
    const t = mesh.nearestClearPoint(n.x, n.y, reach[i] + mesh.clearance + 1, out);
    if (t < 0) return;
    nodeTriangle[i] = t;
    nodePoint[2 * i] = out[0];
    nodePoint[2 * i + 1] = out[1];
    const c = mesh.planComponent[t];
    votes.set(c, (votes.get(c) ?? 0) + 1);
  });
  let mainComponent = -1, most = 0;
  for (const [c, count] of votes) {
    if (count > most || (count === most && c < mainComponent)) {
      most = count;
      mainComponent = c;
    }
  }
  const finder = new BuildingFinder(city.buildings);
  const reachable = new Uint8Array(nodes.length);
  const unreachable: UnreachableNode[] = [];
  nodes.forEach((n, i) => {
    const t = nodeTriangle[i];
    if (t >= 0 && mesh.planComponent[t] === mainComponent) {
      reachable[i] = 1;
      return;
    }
    const reason: UnreachableReason = !onSurface[i]
      ? "underground"
      : finder.at(n.x, n.y) !== null
      ? "in-building"
      : t < 0
      ? "off-mesh"
      : "disconnected";
    unreachable.push({ node: i, reason });
  });
  return { walkable, mesh, mainComponent, nodeTriangle, nodePoint, reachable, unreachable };
}

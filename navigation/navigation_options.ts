/**
 * Option descriptors shared by several navigation pieces, declared once: the goal seeker and
 * the navmesh navigator brake with the same `slowingDistance`; the navmesh navigator passes
 * `minWidth` and `heuristicWeight` on to its path queries.
 *
 * The 1.1 m minimum width is the narrowest gap the pedestrians of the navigation-mesh crowd
 * simulation for 3-D indoor and outdoor spaces (a paper built on a Unity navigation mesh with
 * stair classification, heightmaps and border extraction, 2021) walked through.
 *
 * @module
 */
import type { EnumOption, NumberOption } from "../core/options.ts";

/**
 * Distance to the goal (m) inside which the preferred speed falls linearly to zero (Reynolds'
 * "arrive"); 0 keeps full speed up to the goal.
 *
 * @example Use it in a navigator's option descriptors
 * ```ts
 * import { SLOWING_DISTANCE_OPTION } from "./navigation_options.ts";
 * import { type OptionSpecs, resolveOptions } from "../core/options.ts";
 * import assert from "node:assert/strict";
 * const specs: OptionSpecs<{ slowingDistance: number }> = { slowingDistance: SLOWING_DISTANCE_OPTION };
 * assert.deepEqual(resolveOptions("demo navigator", specs), { slowingDistance: 0 });
 * ```
 */
export const SLOWING_DISTANCE_OPTION: NumberOption = {
  type: "number",
  default: 0,
  min: 0,
  max: 100,
  unit: "m",
  doc: "braking distance before the goal; 0 walks at full speed until arrival",
};

/** Narrowest passage (m, measured between walls) a route may use. */
export const MIN_WIDTH_OPTION: NumberOption = {
  type: "number",
  default: 1.1,
  min: 0,
  max: 100,
  unit: "m",
  doc:
    "routes avoid passages narrower than this (1.1 m: the narrowest gap pedestrians passed in the 3-D navigation-mesh crowd study); 0 allows any passage the clearance leaves open",
};

/** Weight of the A* heuristic: routes are at most this factor longer than the shortest. */
export const HEURISTIC_WEIGHT_OPTION: NumberOption = {
  type: "number",
  default: 1.01,
  min: 1,
  max: 10,
  doc:
    "weighted A*: every route is at most this factor longer than the shortest; 1 finds the shortest but explores the whole ellipse around start and goal (quadratic in distance), 1.01 searches far less",
};

/** How path queries search the mesh: exact shortest paths, or A* over triangles and the funnel. */
export const PATH_SEARCH_OPTION: EnumOption<"exact" | "corridor"> = {
  type: "enum",
  values: ["exact", "corridor"],
  default: "exact",
  doc:
    "exact: the shortest path (any-angle search); corridor: A* over the mesh's triangles and the funnel through them, as Recast/Detour plans, several times faster on city meshes and sometimes the longer way round an obstacle",
};

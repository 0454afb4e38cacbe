/**
 * Geometry of the viewer's debug overlays, drawn as coloured line segments (encoded by
 * `encodeDebugSegments` of `viewer/frame_protocol.ts`), after the per-behaviour gizmos of
 * "Crossing citizens: a simple simulation of pedestrian crossing" (project report) and the
 * colour-coded debug views of F. Gennari, "Procedural City: Pedestrian Updates + Navigation"
 * (3DWorld blog, 2019):
 *
 * - `rays` (raycast-cluster): the fan of rays around the preferred heading, `rays` rays over
 *   `arcDeg`, each `reachM` long (the adaptive ray length), grey, red when every cluster is
 *   blocked;
 * - `cluster` (raycast-cluster): the rays of the chosen cluster (`clusterMargin` rays each side
 *   of the ray nearest `targetTurnDeg`), green;
 * - `box` (boxcast): the swept box, as wide as the body, from the centre along the preferred
 *   heading to the sight range (`…sightRange`), orange, with a tick on the passing side
 *   (`…side`);
 * - `links`: lines to the neighbours within the strategy's `neighborRadius`, cyan;
 * - `paths`: the agent's planned route, white: the corners of its path on the navigation mesh
 *   when its navigator plans one, else the straight line to its goal;
 * - `streets` (street walkers): the street heat map of `viewer/street_counts_overlay.ts`, every
 *   street coloured by the walkers counted into it so far;
 * - `crossing` (scenes with cars, the picked pedestrian only): the predicted paths of the cars
 *   approaching its next crosswalk, threats red and the others green, and its route coloured by
 *   leg (`viewer/crossing_overlay.ts`).
 *
 * The strategy geometry is derived from what the strategy's `inspect` returns (its keys are
 * listed above), so a strategy that renames them loses its overlay, not the viewer.
 *
 * @module
 */
import { NeighbourQuery } from "../core/neighbour_query.ts";
import type { World } from "../core/world.ts";
import type { OverlayName } from "./frame_protocol.ts";
import { StreetCountsOverlay, streetWalkerCity } from "./street_counts_overlay.ts";
import type { CrossingOverlay } from "./crossing_overlay.ts";
import { CITY_COLUMNS } from "../navigation/city_block_navigator.ts";

/** With no agent focused, at most this many agents get overlays (else none). */
export const OVERLAY_ALL_AGENTS_LIMIT = 300;

/** Neighbour-link radius (m) for strategies that read no neighbours (`neighborRadius` 0). */
export const DEFAULT_LINK_RADIUS = 2;

/** Segment colours (RGBA) of the overlays. */
export const OVERLAY_COLORS = {
  ray: [190, 190, 200, 150],
  rayBlocked: [235, 60, 60, 200],
  cluster: [40, 220, 90, 230],
  box: [255, 150, 30, 230],
  link: [60, 210, 230, 140],
  path: [255, 255, 255, 110],
} as const;

/**
 * Which overlays a world's strategy can draw, judged from its `inspect` output for agent 0
 * (`links` and `paths` always).
 *
 * @example The none strategy has no internals: only links and paths
 * ```ts
 * import { availableOverlays } from "./debug_overlays.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0 });
 * assert.deepEqual(availableOverlays(world), ["links", "paths"]);
 * ```
 */
export function availableOverlays(world: World): OverlayName[] {
  const names: OverlayName[] = [];
  const state = world.agents.count > 0 ? world.strategy.inspect?.(world, 0) : undefined;
  if (state) {
    if (typeof state.rays === "number" && typeof state.arcDeg === "number") {
      names.push("rays", "cluster");
    }
    if (Object.keys(state).some((k) => k.endsWith("sightRange"))) names.push("box");
  } else if (world.strategy.name === "raycast-cluster") names.push("rays", "cluster");
  else if (world.strategy.name === "boxcast") names.push("box");
  names.push("links", "paths");
  if (streetWalkerCity(world)) names.push("streets");
  if (world.traffic && world.agents.hasColumn(CITY_COLUMNS.crossing)) names.push("crossing");
  return names;
}

/**
 * Builds overlay segments for a world, reusing its buffers from call to call.
 *
 * @example Paths and links of two agents
 * ```ts
 * import { DebugOverlayBuilder } from "./debug_overlays.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0 });
 * world.addAgent({ x: 1, y: 0, goalX: -10, goalY: 0 });
 * world.prepare();
 * const builder = new DebugOverlayBuilder();
 * const count = builder.build(world, ["paths", "links"], null);
 * assert.equal(count, 3); // two paths, one link (each pair once)
 * assert.deepEqual([...builder.segments.subarray(0, 4)], [0, 0, 10, 0]);
 * ```
 */
export class DebugOverlayBuilder {
  /** `x0, y0, x1, y1` per segment (m); valid up to 4 × the count `build` returned. */
  segments: Float32Array = new Float32Array(1024);
  /** RGBA per segment; valid up to 4 × the count `build` returned. */
  colors: Uint8Array = new Uint8Array(1024);
  #count = 0;
  #neighbours = new NeighbourQuery(256);
  /** Corners of one planned route `[x0, y0, …]` (m). */
  #route = new Float64Array(2 * 256);
  #streets: StreetCountsOverlay | null = null;
  #crossings: CrossingOverlay | null = null;

  /** Draws the `crossing` overlay of a picked pedestrian with `overlay` (scenes with cars). */
  watchCrossings(overlay: CrossingOverlay | null): void {
    this.#crossings = overlay;
  }

  /** Starts the street counts of `world` for the `streets` overlay (street walkers only). */
  watchStreets(world: World): void {
    this.#streets = StreetCountsOverlay.watch(world);
  }

  /**
   * Fills the segments of `names` for the agent whose trajectory id is `focus` (none when it is
   * gone), or, when `focus` is null, for every agent if there are at most
   * {@linkcode OVERLAY_ALL_AGENTS_LIMIT}. Returns the segment count.
   */
  build(world: World, names: readonly OverlayName[], focus: number | null): number {
    this.#count = 0;
    if (this.#streets && names.includes("streets")) {
      this.#streets.forEachSegment((x0, y0, x1, y1, c) => this.#push(x0, y0, x1, y1, c));
    }
    const a = world.agents, n = a.count;
    if (names.length === 0 || n === 0) return this.#count;
    const all = focus === null;
    if (all && n > OVERLAY_ALL_AGENTS_LIMIT) return this.#count;
    let from = 0, to = n;
    if (!all) {
      const index = a.serial.subarray(0, n).indexOf(focus);
      if (index < 0) return this.#count;
      from = index;
      to = index + 1;
    }
    const want = (name: OverlayName) => names.includes(name);
    const paths = want("paths"), links = want("links");
    const rays = want("rays"), cluster = want("cluster"), box = want("box");
    const crossings = !all && want("crossing") ? this.#crossings : null;
    const inspect = world.strategy.inspect?.bind(world.strategy);
    const linkRadius = world.strategy.neighborRadius > 0
      ? world.strategy.neighborRadius
      : DEFAULT_LINK_RADIUS;
    for (let i = from; i < to; i++) {
      const x = a.px[i], y = a.py[i];
      if (paths) this.#path(world, i);
      if (links) this.#links(world, i, linkRadius, all);
      if (crossings) {
        crossings.build(world, i, (x0, y0, x1, y1, c) => this.#push(x0, y0, x1, y1, c));
      }
      if ((rays || cluster || box) && inspect) {
        const state = inspect(world, i);
        const heading = _heading(world, i);
        if (rays || cluster) this.#rays(x, y, heading, state, rays, cluster);
        if (box) this.#box(x, y, a.radius[i], heading, state);
      }
    }
    return this.#count;
  }

  /**
   * The planned route of agent `i`: the corners of its path on the navigation mesh when its
   * navigator plans one (`plannedRoute`), else the straight line to its goal.
   */
  #path(world: World, i: number): void {
    const a = world.agents;
    const navigator = world.navigator as undefined | {
      plannedRoute?: (agents: World["agents"], i: number, out: Float64Array) => number;
    };
    const n = navigator?.plannedRoute?.(a, i, this.#route) ?? 0;
    if (n < 2) {
      this.#push(a.px[i], a.py[i], a.goalX[i], a.goalY[i], OVERLAY_COLORS.path);
      return;
    }
    const r = this.#route;
    for (let k = 1; k < n; k++) {
      this.#push(r[2 * k - 2], r[2 * k - 1], r[2 * k], r[2 * k + 1], OVERLAY_COLORS.path);
    }
  }

  #links(world: World, i: number, radius: number, pairsOnce: boolean): void {
    const a = world.agents;
    const found = this.#neighbours.agents(world.grid, a.px[i], a.py[i], radius, i);
    const near = this.#neighbours.found;
    for (let k = 0; k < found; k++) {
      const j = near[k];
      if (pairsOnce && j < i) continue;
      this.#push(a.px[i], a.py[i], a.px[j], a.py[j], OVERLAY_COLORS.link);
    }
  }

  #rays(
    x: number,
    y: number,
    heading: number,
    state: Record<string, number | string | boolean>,
    rays: boolean,
    cluster: boolean,
  ): void {
    const count = Number(state.rays), arc = (Number(state.arcDeg) * Math.PI) / 180;
    const length = Number(state.reachM ?? state.rayLengthM);
    if (!(count >= 1) || !(length > 0) || !Number.isFinite(arc)) return;
    const step = count > 1 ? arc / (count - 1) : 0;
    let chosen = -1;
    const margin = Number(state.clusterMargin ?? 0);
    if (cluster && state.allBlocked !== true && typeof state.targetTurnDeg === "number") {
      const turn = (state.targetTurnDeg * Math.PI) / 180;
      chosen = step > 0 ? Math.round((turn + arc / 2) / step) : 0;
      chosen = Math.max(0, Math.min(count - 1, chosen));
    }
    const blocked = state.allBlocked === true;
    for (let k = 0; k < count; k++) {
      const inCluster = chosen >= 0 && Math.abs(k - chosen) <= margin;
      if (!(rays || inCluster)) continue;
      const angle = heading - arc / 2 + k * step; // ray 0 is the right-most
      const color = inCluster
        ? OVERLAY_COLORS.cluster
        : blocked
        ? OVERLAY_COLORS.rayBlocked
        : OVERLAY_COLORS.ray;
      this.#push(x, y, x + length * Math.cos(angle), y + length * Math.sin(angle), color);
    }
  }

  #box(
    x: number,
    y: number,
    radius: number,
    heading: number,
    state: Record<string, number | string | boolean>,
  ): void {
    let range = NaN, side = 0;
    for (const [key, value] of Object.entries(state)) {
      if (key.endsWith("sightRange")) range = Number(value);
      else if (key.endsWith("side")) side = Number(value);
    }
    if (!(range >= 0)) return;
    const ux = Math.cos(heading), uy = Math.sin(heading), wx = -uy, wy = ux;
    const ax = x + radius * wx, ay = y + radius * wy, bx = x - radius * wx, by = y - radius * wy;
    const cx = bx + range * ux, cy = by + range * uy, dx = ax + range * ux, dy = ay + range * uy;
    const c = OVERLAY_COLORS.box;
    this.#push(ax, ay, bx, by, c);
    this.#push(bx, by, cx, cy, c);
    this.#push(cx, cy, dx, dy, c);
    this.#push(dx, dy, ax, ay, c);
    if (side !== 0) {
      // A tick from the far end towards the side being passed on (+1 left, -1 right).
      const ex = x + range * ux, ey = y + range * uy, s = Math.sign(side) * 2 * radius;
      this.#push(ex, ey, ex + s * wx, ey + s * wy, c);
    }
  }

  #push(x0: number, y0: number, x1: number, y1: number, color: readonly number[]): void {
    const k = this.#count++;
    if (4 * this.#count > this.segments.length) {
      const segments = new Float32Array(this.segments.length * 2);
      segments.set(this.segments);
      this.segments = segments;
      const colors = new Uint8Array(this.colors.length * 2);
      colors.set(this.colors);
      this.colors = colors;
    }
    const s = this.segments, o = 4 * k;
    s[o] = x0;
    s[o + 1] = y0;
    s[o + 2] = x1;
    s[o + 3] = y1;
    this.colors[o] = color[0];
    this.colors[o + 1] = color[1];
    this.colors[o + 2] = color[2];
    this.colors[o + 3] = color[3];
  }
}

/** Preferred heading of agent `i` (rad), else its velocity's, else towards its goal. */
function _heading(world: World, i: number): number {
  const a = world.agents;
  if (a.prefVx[i] !== 0 || a.prefVy[i] !== 0) return Math.atan2(a.prefVy[i], a.prefVx[i]);
  if (a.vx[i] !== 0 || a.vy[i] !== 0) return Math.atan2(a.vy[i], a.vx[i]);
  return Math.atan2(a.goalY[i] - a.py[i], a.goalX[i] - a.px[i]);
}

/**
 * The walkable street network as lanes that walkers follow: every walkable street's centre line
 * in flat typed arrays (points, arc lengths, unit directions), and for each street where along
 * its width people walk.
 *
 * Street walkers keep to the network by walking along a street's centre line, offset sideways
 * to their lane: on footways, paths and pedestrian streets anywhere across the mapped width; on
 * roads that cars use, on a sidewalk beside the carriageway (half the road's width plus a band
 * `sidewalkWidthM` wide), on the sides where OpenStreetMap says a sidewalk exists or may exist
 * (not where it is tagged absent or mapped as a footway of its own, which is then a street of
 * its own). The offset is capped so that the lane keeps `wallClearanceM` from the nearest
 * facade, measured by rays square to the street at a quarter, half and three quarters of its
 * length. Walking the centre lines (rather than planning on a navigation mesh) keeps every
 * walker on the street network the counts are made on, costs a few arithmetic operations per
 * step, and holds for any city the importer reads; the avoidance strategy still keeps people
 * off the building walls, which the navigators add to the world.
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import { SegmentGrid } from "../core/segment_grid.ts";
import type { CityModel, StreetEdge } from "../geo/city_model.ts";
import type { ObstacleSet } from "./obstacle_set.ts";

/** Options of {@linkcode StreetLanes}. */
export interface StreetLanesOptions {
  /**
   * Width of the sidewalk beside a road that cars use (m), where none is mapped with a width.
   * Walkers keep within it, from a fifth to four fifths of the way out from the kerb.
   * @default 2.5
   */
  sidewalkWidthM: number;
  /**
   * Radius of a junction (m): walkers choose their next street when they come this close to
   * its centre; at least half the widest street meeting there, and its sidewalk. The paper's
   * "small radius" of junction cells; as the guidance map's default.
   * @default 5
   */
  junctionRadiusM: number;
  /** Smallest distance from a lane to a facade (m). @default 0.5 */
  wallClearanceM: number;
}

/** Descriptors of {@linkcode StreetLanesOptions}. */
export const STREET_LANES_OPTIONS: OptionSpecs<StreetLanesOptions> = {
  sidewalkWidthM: {
    type: "number",
    default: 2.5,
    min: 0.5,
    max: 20,
    unit: "m",
    doc: "sidewalk width beside roads that cars use; walkers keep within it",
  },
  junctionRadiusM: {
    type: "number",
    default: 5,
    min: 0.5,
    max: 50,
    unit: "m",
    doc: "walkers choose their next street this close to a junction's centre",
  },
  wallClearanceM: {
    type: "number",
    default: 0.5,
    min: 0,
    max: 5,
    unit: "m",
    doc: "smallest distance from a lane to a facade",
  },
};

/** Where a point lies on the network: the nearest walkable street and the spot on it. */
export interface StreetSpot {
  /** Street edge, or -1 when the network has no walkable street. */
  edge: number;
  /** Segment of the edge's centre line (index of its first point, counted from the edge's start). */
  segment: number;
  /** Distance along the edge from its `from` node (m). */
  along: number;
  /** Distance from the point to the centre line (m). */
  distance: number;
}

/** Farthest a point is looked up from the network (m). */
const MAX_LOOKUP_M = 5000;

/**
 * The walkable streets of a city as lanes (see the module doc). Street and node indices are
 * those of `city.streets`; streets that are not walkable have no points.
 *
 * @example The lane of a walker on the right sidewalk
 * ```ts
 * import { StreetLanes } from "./street_lanes.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const lanes = new StreetLanes(city);
 * const road = city.streets.edges[0];
 * const offset = lanes.laneOffset(road.index, true, 0.5); // right of travel: negative (left is +)
 * assert(offset < -road.width / 2 && offset > -road.width / 2 - 2.5);
 * ```
 */
export class StreetLanes {
  /** Options in force. */
  readonly options: Readonly<StreetLanesOptions>;
  /** Number of street nodes. */
  readonly nodeCount: number;
  /** Number of street edges (walkable or not). */
  readonly edgeCount: number;
  /** Node positions (m). */
  readonly nodeX: Float64Array;
  /** Node positions (m). */
  readonly nodeY: Float64Array;
  /** Junction radius of each node (m). */
  readonly junctionRadius: Float64Array;
  /** Start node of each edge. */
  readonly edgeFrom: Int32Array;
  /** End node of each edge. */
  readonly edgeTo: Int32Array;
  /** Length of each walkable edge (m); 0 for the others. */
  readonly edgeLength: Float64Array;
  /** Points of edge `e`: `pointStart[e] … pointStart[e+1]-1`; none for streets not walkable. */
  readonly pointStart: Uint32Array;
  /** Centre-line points (m). */
  readonly px: Float64Array;
  /** Centre-line points (m). */
  readonly py: Float64Array;
  /** Arc length from the edge's start to each point (m). */
  readonly cum: Float64Array;
  /** Unit direction of the segment starting at each point (0 at an edge's last point). */
  readonly ux: Float64Array;
  /** Unit direction of the segment starting at each point. */
  readonly uy: Float64Array;
  /** 1 for roads that cars use (walkers on sidewalks), 0 for streets walked across. */
  readonly edgeRoad: Uint8Array;
  /** Half the walked width of a street walked across (m). */
  readonly edgeHalfWidth: Float64Array;
  /** Largest offset to the left of `from` → `to` a lane may take (m); -1 when no sidewalk. */
  readonly edgeLeftMax: Float64Array;
  /** Largest offset to the right a lane may take (m); -1 when no sidewalk. */
  readonly edgeRightMax: Float64Array;
  readonly #grid = new SegmentGrid(16);
  /** Point index of each grid segment (its first point). */
  readonly #segmentPoint: Uint32Array;
  /** Edge of each point. */
  readonly #pointEdge: Int32Array;
  #found = new Uint32Array(64);

  /**
   * Builds the lanes of `city`'s walkable streets; `walls` (the buildings) cap offsets at the
   * facades when given. Throws the usual option errors.
   */
  constructor(
    city: CityModel,
    options: Partial<StreetLanesOptions> & { walls?: ObstacleSet } = {},
  ) {
    const { walls, ...rest } = options;
    const o = resolveOptions("street lanes", STREET_LANES_OPTIONS, rest);
    this.options = o;
    const nodes = city.streets.nodes, edges = city.streets.edges;
    this.nodeCount = nodes.length;
    this.edgeCount = edges.length;
    this.nodeX = Float64Array.from(nodes, (n) => n.x);
    this.nodeY = Float64Array.from(nodes, (n) => n.y);
    this.edgeFrom = Int32Array.from(edges, (e) => e.from);
    this.edgeTo = Int32Array.from(edges, (e) => e.to);
    this.edgeLength = new Float64Array(edges.length);
    this.pointStart = new Uint32Array(edges.length + 1);
    for (const e of edges) this.pointStart[e.index + 1] = e.walkable ? e.points.length : 0;
    for (let e = 0; e < edges.length; e++) this.pointStart[e + 1] += this.pointStart[e];
    const points = this.pointStart[edges.length];
    this.px = new Float64Array(points);
    this.py = new Float64Array(points);
    this.cum = new Float64Array(points);
    this.ux = new Float64Array(points);
    this.uy = new Float64Array(points);
    this.#pointEdge = new Int32Array(points);
    this.edgeRoad = new Uint8Array(edges.length);
    this.edgeHalfWidth = new Float64Array(edges.length);
    this.edgeLeftMax = new Float64Array(edges.length);
    this.edgeRightMax = new Float64Array(edges.length);
    this.junctionRadius = new Float64Array(nodes.length).fill(o.junctionRadiusM);
    const segments: number[] = [];
    for (const e of edges) {
      if (!e.walkable) continue;
      this.#addEdge(e, segments);
      // The junction reaches over the sidewalks of the widest road meeting there.
      const reach = e.width / 2 + (e.carriageway && !e.shared ? o.sidewalkWidthM : 0);
      for (const n of [e.from, e.to]) {
        this.junctionRadius[n] = Math.max(this.junctionRadius[n], reach);
      }
      this.#setLanes(e, walls);
    }
    this.#segmentPoint = Uint32Array.from(segments);
    const ax = new Float64Array(segments.length), ay = new Float64Array(segments.length);
    const bx = new Float64Array(segments.length), by = new Float64Array(segments.length);
    segments.forEach((k, s) => {
      ax[s] = this.px[k];
      ay[s] = this.py[k];
      bx[s] = this.px[k + 1];
      by[s] = this.py[k + 1];
    });
    this.#grid.build(ax, ay, bx, by, segments.length);
  }

  /**
   * Offset (m, positive to the left of the edge's `from` → `to` direction) of the lane of a
   * walker with lane value `lane` in [-1, 1] (negative: left of its travel, positive: right)
   * walking edge `edge` forwards (`from` → `to`) or backwards.
   */
  laneOffset(edge: number, forward: boolean, lane: number): number {
    // Right of travel is the edge's right going forwards, its left going backwards.
    const towardsLeft = forward ? lane < 0 : lane >= 0;
    const side = towardsLeft ? 1 : -1, mag = Math.abs(lane);
    if (!this.edgeRoad[edge]) {
      const max = side > 0 ? this.edgeLeftMax[edge] : this.edgeRightMax[edge];
      return side * Math.min(mag * this.edgeHalfWidth[edge], Math.max(0, max));
    }
    let max = side > 0 ? this.edgeLeftMax[edge] : this.edgeRightMax[edge];
    let s = side;
    if (max < 0) {
      s = -side;
      max = s > 0 ? this.edgeLeftMax[edge] : this.edgeRightMax[edge];
    }
    const half = this.edgeHalfWidth[edge], band = this.options.sidewalkWidthM;
    const want = half + band * (0.2 + 0.6 * mag);
    return s * Math.max(0, Math.min(want, max));
  }

  /**
   * The nearest walkable street to (`x`, `y`) (m), written into `out` (and returned). `edge` is
   * -1 when the city has no walkable street within 5 km. Allocates only when many segments are
   * near.
   */
  nearest(x: number, y: number, out: StreetSpot): StreetSpot {
    out.edge = -1;
    out.distance = Infinity;
    for (let r = 8; r <= MAX_LOOKUP_M && out.edge < 0; r *= 4) {
      let n = this.#grid.queryRadius(x, y, r, this.#found);
      if (n > this.#found.length) {
        this.#found = new Uint32Array(2 * n);
        n = this.#grid.queryRadius(x, y, r, this.#found);
      }
      for (let j = 0; j < n; j++) {
        const k = this.#segmentPoint[this.#found[j]];
        const ax = this.px[k], ay = this.py[k];
        const len = this.cum[k + 1] - this.cum[k];
        const t = Math.max(0, Math.min(len, (x - ax) * this.ux[k] + (y - ay) * this.uy[k]));
        const d = Math.hypot(ax + t * this.ux[k] - x, ay + t * this.uy[k] - y);
        if (d < out.distance) {
          const e = this.#pointEdge[k];
          out.distance = d;
          out.edge = e;
          out.segment = k - this.pointStart[e];
          out.along = this.cum[k] + t;
        }
      }
    }
    return out;
  }

  /**
   * A point `along` metres from the start of `edge` (m), offset `offset` to its left (m),
   * written into `out`. `hint` (a point index of the edge) is where the search for the segment
   * starts: the walker's own segment makes it a step or two.
   */
  pointAt(
    edge: number,
    along: number,
    offset: number,
    out: [number, number],
    hint = -1,
  ): [number, number] {
    const first = this.pointStart[edge], last = this.pointStart[edge + 1] - 2;
    let k = hint >= first && hint <= last ? hint : first;
    while (k < last && this.cum[k + 1] < along) k++;
    while (k > first && this.cum[k] > along) k--;
    const t = along - this.cum[k];
    out[0] = this.px[k] + t * this.ux[k] - offset * this.uy[k];
    out[1] = this.py[k] + t * this.uy[k] + offset * this.ux[k];
    return out;
  }

  /** Point index of the segment of `edge` holding arc length `along` (m), clamped to the edge. */
  segmentAt(edge: number, along: number): number {
    const first = this.pointStart[edge], last = this.pointStart[edge + 1] - 2;
    let k = first;
    while (k < last && this.cum[k + 1] < along) k++;
    return k;
  }

  #addEdge(e: StreetEdge, segments: number[]): void {
    const k0 = this.pointStart[e.index], pts = e.points;
    let total = 0;
    for (let j = 0; j < pts.length; j++) {
      const k = k0 + j;
      this.px[k] = pts[j][0];
      this.py[k] = pts[j][1];
      this.#pointEdge[k] = e.index;
      if (j > 0) total += Math.hypot(pts[j][0] - pts[j - 1][0], pts[j][1] - pts[j - 1][1]);
      this.cum[k] = total;
    }
    this.edgeLength[e.index] = total;
    for (let j = 0; j + 1 < pts.length; j++) {
      const k = k0 + j;
      const dx = this.px[k + 1] - this.px[k], dy = this.py[k + 1] - this.py[k];
      const len = Math.hypot(dx, dy);
      if (len > 0) {
        this.ux[k] = dx / len;
        this.uy[k] = dy / len;
      } else if (j > 0) {
        this.ux[k] = this.ux[k - 1];
        this.uy[k] = this.uy[k - 1];
      } else {
        this.ux[k] = 1;
      }
      segments.push(k);
    }
  }

  #setLanes(e: StreetEdge, walls: ObstacleSet | undefined): void {
    const road = e.carriageway && !e.shared;
    const i = e.index, half = e.width / 2;
    this.edgeRoad[i] = road ? 1 : 0;
    this.edgeHalfWidth[i] = road ? half : Math.max(0, half - 0.3);
    const far = road ? half + this.options.sidewalkWidthM : half;
    let left = far, right = far;
    if (road) {
      const absent = (s: string | undefined) => s === "none" || s === "mapped";
      const noLeft = absent(e.sidewalkLeft), noRight = absent(e.sidewalkRight);
      // A road with no sidewalk on either side is still walked, along its edges.
      if (noLeft && !noRight) left = -1;
      if (noRight && !noLeft) right = -1;
    }
    if (walls) {
      const clearance = this.options.wallClearanceM;
      for (const f of [0.25, 0.5, 0.75]) {
        const [x, y] = this.pointAt(i, f * this.edgeLength[i], 0, [0, 0]);
        const k = this.segmentAt(i, f * this.edgeLength[i]);
        const nx = -this.uy[k], ny = this.ux[k];
        const reach = far + clearance;
        if (left >= 0) left = Math.min(left, walls.raycast(x, y, nx, ny, reach) - clearance);
        if (right >= 0) right = Math.min(right, walls.raycast(x, y, -nx, -ny, reach) - clearance);
      }
      // A facade on the centre line (streets mapped through arcades): walk the centre line.
      if (left < 0 && right < 0 && !road) left = right = 0;
      if (road && left < 0 && right < 0) left = right = 0;
    }
    this.edgeLeftMax[i] = left < 0 ? -1 : left;
    this.edgeRightMax[i] = right < 0 ? -1 : right;
  }
}

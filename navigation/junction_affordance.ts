/**
 * Affordance of movement at street junctions: the viewshed at each junction's centre, and for
 * every street leaving it the share of that viewshed inside the view frustum looking along the
 * street, as D. Michael and Y. Chrysanthou, Automatic high level avatar guidance based on
 * affordance of movement, Eurographics 2003, precompute it ("all we need to store at each
 * junction is the percentage of walkable (or visible) area that corresponds to each direction,
 * and the actual vector that indicates the direction").
 *
 * Storage is flat for the navigation hot path: the streets leaving node `i` are the "slots"
 * `slotStart[i] … slotStart[i+1]-1`, and each slot has its street, neighbour, unit direction,
 * frustum area and share in typed arrays. For attractors, each slot also lists the attractors of
 * the city seen inside its frustum (indices into `CityModel.attractors`), so that weights chosen
 * later are summed without any visibility work.
 *
 * The city's buildings block sight; the view also ends at the city's bounds and at `maxRangeM`.
 * Blocking a street (or any obstacle added or removed) recomputes only the junctions whose
 * viewshed the obstacle touches: visibility is symmetric, so the paper's rule "compute the
 * visibility polygon at the change and update the junctions inside it" is applied exactly, by
 * testing the obstacle against each stored viewshed.
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { CityModel } from "../geo/city_model.ts";
import { type ObstaclePolygon, ObstacleSet } from "./obstacle_set.ts";
import { streetBarrier, type StreetBarrierOptions } from "./street_barrier.ts";
import type { Viewshed } from "./viewshed.ts";
import { ViewshedSweep } from "./viewshed_sweep.ts";

/** Options of {@linkcode JunctionAffordance.fromCity}. */
export interface JunctionAffordanceOptions {
  /**
   * Full horizontal angle of the view frustum along each street (degrees). The default, 60°, is
   * the near-peripheral field (±30° from the line of sight) in which people still recognise shapes
   * and read the scene, as opposed to merely detecting motion (Strasburger, Rentschler and
   * Jüttner, Peripheral vision and pattern recognition: a review, Journal of Vision, 2011); it
   * also keeps the frustums of streets meeting at right angles apart. The paper does not give
   * its angle. Wider frustums overlap at ordinary junctions and flatten the differences between
   * streets; narrower ones see little beyond the street itself.
   * @default 60
   */
  frustumDeg: number;
  /**
   * How far people see (m); 0 for no limit other than the city's bounds. Larger ranges favour
   * long straight streets more strongly and cost more time (see the viewshed sweep).
   * @default 1000
   */
  maxRangeM: number;
  /**
   * A street's direction at a junction points at the spot this far along its centre line (m), or
   * at its far end when the street is shorter; 0 points straight at the neighbouring junction,
   * as in the paper. Looking a little way along follows curved streets; far points cut corners.
   * @default 20
   */
  lookAheadM: number;
  /**
   * Nodes that get a viewshed: `"junctions"` (three or more walkable streets meet, where people
   * choose) or `"all"` (dead ends and way splits as well).
   * @default "junctions"
   */
  nodes: "junctions" | "all";
  /** Use only walkable streets (footways, pedestrian streets, roads with sidewalks). @default true */
  walkableOnly: boolean;
  /**
   * An attractor mapped as a point (not inside a building) counts as seen when it lies within
   * this distance (m) beyond the viewshed's boundary: points mapped on a facade or a kerb.
   * Attractors inside a building's footprint are seen when a wall of that building is.
   * @default 1
   */
  attractorToleranceM: number;
  /** Cell edge of the grid over building walls (m). @default 16 */
  cellSizeM: number;
}

/** Descriptors of {@linkcode JunctionAffordanceOptions}. */
export const JUNCTION_AFFORDANCE_OPTIONS: OptionSpecs<JunctionAffordanceOptions> = {
  frustumDeg: {
    type: "number",
    default: 60,
    min: 0,
    max: 360,
    exclusiveMin: true,
    unit: "deg",
    doc: "full angle of the view frustum along each street; wider ones overlap",
  },
  maxRangeM: {
    type: "number",
    default: 1000,
    min: 0,
    unit: "m",
    doc: "how far people see; 0 for the city's bounds only; larger is slower",
  },
  lookAheadM: {
    type: "number",
    default: 20,
    min: 0,
    unit: "m",
    doc: "street direction points this far along the street; 0 points at the neighbour",
  },
  nodes: {
    type: "enum",
    values: ["junctions", "all"],
    default: "junctions",
    doc: "nodes that get a viewshed: junctions (3+ streets) or all nodes",
  },
  walkableOnly: { type: "boolean", default: true, doc: "use walkable streets only" },
  attractorToleranceM: {
    type: "number",
    default: 1,
    min: 0,
    max: 50,
    unit: "m",
    doc: "a point attractor counts as seen this far beyond the viewshed boundary",
  },
  cellSizeM: {
    type: "number",
    default: 16,
    min: 1,
    max: 1000,
    unit: "m",
    doc: "cell edge of the grid over building walls",
  },
};

/** The result of a change of obstacles. */
export interface ObstacleChange {
  /** Id of the obstacle polygon added or removed (see {@linkcode ObstacleSet}). */
  obstacle: number;
  /** Nodes whose viewshed and slots were recomputed, ascending. */
  recomputed: Uint32Array;
}

/**
 * Viewshed affordance at every junction of a city (see the module doc).
 *
 * @example Shares towards the streets of a crossroads
 * ```ts
 * import { JunctionAffordance } from "./junction_affordance.ts";
 * import { syntheticCity } from "./_synthetic_city.ts";
 * import assert from "node:assert/strict";
 * const city = syntheticCity({ sizeM: 400, spacingM: 80 });
 * const affordance = JunctionAffordance.fromCity(city);
 * const node = city.streets.nodes.findIndex((n) => n.degree === 4);
 * for (let s = affordance.slotStart[node]; s < affordance.slotStart[node + 1]; s++) {
 *   assert(affordance.slotShare[s] > 0 && affordance.slotShare[s] < 1);
 * }
 * ```
 */
export class JunctionAffordance {
  /** Resolved options. */
  readonly options: Readonly<JunctionAffordanceOptions>;
  /** Half the frustum angle (rad). */
  readonly halfFrustumRad: number;
  /** The buildings (and obstacles added later) that block sight. */
  readonly obstacles: ObstacleSet;
  /** Number of street nodes. */
  readonly nodeCount: number;
  /** 1 where the node has a viewshed (see {@linkcode JunctionAffordanceOptions.nodes}). */
  readonly hasViewshed: Uint8Array;
  /** Area of each node's viewshed (m²); 0 without one. */
  readonly viewshedArea: Float64Array;
  /** Slots of node `i`: `slotStart[i] … slotStart[i+1]-1` (walkable streets leaving it). */
  readonly slotStart: Uint32Array;
  /** Street edge of each slot. */
  readonly slotEdge: Int32Array;
  /** Node at the other end of the slot's street. */
  readonly slotNeighbour: Int32Array;
  /** Unit direction of the street as it leaves the node (x). */
  readonly slotDirX: Float64Array;
  /** Unit direction of the street as it leaves the node (y). */
  readonly slotDirY: Float64Array;
  /** Viewshed area inside the slot's frustum (m²). */
  readonly slotArea: Float64Array;
  /** `slotArea` over the node's viewshed area, in [0, 1] (frustums may overlap: no sum to 1). */
  readonly slotShare: Float64Array;
  /** 1 where the slot's street is blocked by {@linkcode JunctionAffordance.blockStreet}. */
  readonly slotBlocked: Uint8Array;
  readonly #city: CityModel;
  readonly #sweep: ViewshedSweep;
  readonly #viewsheds: (Viewshed | null)[];
  /** Attractors seen per slot, per node: node → flat list, with per-slot offsets. */
  readonly #nodeAttractors: (Uint32Array | null)[];
  readonly #nodeAttractorStart: (Uint32Array | null)[];
  /** Attractor → building id containing it, or -1. */
  readonly #attractorBuilding: Int32Array;
  /** Building → its attractors (CSR). */
  readonly #buildingAttractorStart: Uint32Array;
  readonly #buildingAttractors: Uint32Array;
  /** Attractors not in a building, bucketed in a grid. */
  readonly #freeGrid: _PointGrid;
  #csr: { start: Uint32Array; items: Uint32Array } | null = null;
  readonly #barriers = new Map<number, number>();
  #ownerBuffer = new Int32Array(1024);
  readonly #free = { count: 0, index: new Uint32Array(64), angle: new Float64Array(64) };
  #ownerStamp: Uint32Array;
  #stampNow = 0;

  private constructor(city: CityModel, o: JunctionAffordanceOptions) {
    this.options = o;
    this.#city = city;
    this.halfFrustumRad = (o.frustumDeg * Math.PI) / 360;
    this.obstacles = ObstacleSet.fromPolygons(city.buildings.map((b) => b.polygon), {
      cellSizeM: o.cellSizeM,
    });
    this.#sweep = new ViewshedSweep(this.obstacles, {
      maxRangeM: o.maxRangeM,
      bounds: city.bounds,
    });
    const nodes = city.streets.nodes, edges = city.streets.edges;
    this.nodeCount = nodes.length;
    // Slots: walkable edge ends at each node (a loop gives its node two slots).
    const count = new Uint32Array(nodes.length + 1);
    for (const e of edges) {
      if (o.walkableOnly && !e.walkable) continue;
      count[e.from + 1]++;
      count[e.to + 1]++;
    }
    for (let i = 0; i < nodes.length; i++) count[i + 1] += count[i];
    this.slotStart = count;
    const slots = count[nodes.length];
    this.slotEdge = new Int32Array(slots);
    this.slotNeighbour = new Int32Array(slots);
    this.slotDirX = new Float64Array(slots);
    this.slotDirY = new Float64Array(slots);
    this.slotArea = new Float64Array(slots);
    this.slotShare = new Float64Array(slots);
    this.slotBlocked = new Uint8Array(slots);
    const cursor = count.slice(0, nodes.length);
    for (const e of edges) {
      if (o.walkableOnly && !e.walkable) continue;
      for (const atStart of [true, false]) {
        const node = atStart ? e.from : e.to, s = cursor[node]++;
        this.slotEdge[s] = e.index;
        this.slotNeighbour[s] = atStart ? e.to : e.from;
        const [dx, dy] = _leavingDirection(e.points, atStart, o.lookAheadM);
        this.slotDirX[s] = dx;
        this.slotDirY[s] = dy;
      }
    }
    this.hasViewshed = new Uint8Array(nodes.length);
    this.viewshedArea = new Float64Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      const degree = count[i + 1] - count[i];
      this.hasViewshed[i] = (o.nodes === "all" ? degree >= 1 : degree >= 3) ? 1 : 0;
    }
    this.#viewsheds = new Array(nodes.length).fill(null);
    this.#nodeAttractors = new Array(nodes.length).fill(null);
    this.#nodeAttractorStart = new Array(nodes.length).fill(null);
    // Attractors: inside a building, or free points.
    const attractors = city.attractors;
    this.#attractorBuilding = new Int32Array(attractors.length).fill(-1);
    const inside = new Int32Array(8);
    const perBuilding = new Uint32Array(city.buildings.length + 1);
    attractors.forEach((a, k) => {
      const n = this.obstacles.polygonsContaining(a.x, a.y, inside);
      if (n > 0) {
        this.#attractorBuilding[k] = inside[0];
        perBuilding[inside[0] + 1]++;
      }
    });
    for (let b = 0; b < city.buildings.length; b++) perBuilding[b + 1] += perBuilding[b];
    this.#buildingAttractorStart = perBuilding;
    this.#buildingAttractors = new Uint32Array(perBuilding[city.buildings.length]);
    const fill = perBuilding.slice(0, city.buildings.length);
    attractors.forEach((_, k) => {
      const b = this.#attractorBuilding[k];
      if (b >= 0) this.#buildingAttractors[fill[b]++] = k;
    });
    this.#freeGrid = new _PointGrid(
      attractors.map((a, k) => (this.#attractorBuilding[k] < 0 ? [a.x, a.y] : null)),
      50,
    );
    this.#ownerStamp = new Uint32Array(city.buildings.length + 16);
  }

  /**
   * Computes the viewshed of every junction of `city` and its slots. Throws a RangeError or
   * TypeError naming the option for invalid options.
   */
  static fromCity(
    city: CityModel,
    options: Partial<JunctionAffordanceOptions> = {},
  ): JunctionAffordance {
    const o = resolveOptions("junction affordance", JUNCTION_AFFORDANCE_OPTIONS, options);
    const affordance = new JunctionAffordance(city, o);
    for (let i = 0; i < affordance.nodeCount; i++) {
      if (affordance.hasViewshed[i]) affordance.#computeNode(i);
    }
    return affordance;
  }

  /** The viewshed of node `node`, or null when it has none. */
  viewshed(node: number): Viewshed | null {
    return this.#viewsheds[node] ?? null;
  }

  /**
   * Attractors seen from each slot, as CSR arrays: slot `s` sees attractors
   * `items[start[s]] … items[start[s+1]-1]` (indices into `CityModel.attractors`).
   */
  slotAttractors(): { start: Uint32Array; items: Uint32Array } {
    if (this.#csr) return this.#csr;
    const slots = this.slotEdge.length;
    const start = new Uint32Array(slots + 1);
    for (let i = 0; i < this.nodeCount; i++) {
      const offsets = this.#nodeAttractorStart[i];
      for (let s = this.slotStart[i]; s < this.slotStart[i + 1]; s++) {
        const k = s - this.slotStart[i];
        start[s + 1] = offsets ? offsets[k + 1] - offsets[k] : 0;
      }
    }
    for (let s = 0; s < slots; s++) start[s + 1] += start[s];
    const items = new Uint32Array(start[slots]);
    for (let i = 0; i < this.nodeCount; i++) {
      const list = this.#nodeAttractors[i];
      if (list) items.set(list, start[this.slotStart[i]]);
    }
    return this.#csr = { start, items };
  }

  /**
   * Total weight of the attractors seen from each slot, for per-attractor `weights` (one per
   * `CityModel.attractors` entry), written into `out` (allocated when not given). Throws a
   * RangeError when `weights` has the wrong length.
   */
  slotAttractorWeights(weights: ArrayLike<number>, out?: Float64Array): Float64Array {
    if (weights.length !== this.#city.attractors.length) {
      throw new RangeError(
        `Cannot weigh attractors as 'weights' must have one entry per attractor (${this.#city.attractors.length}): current length is ${weights.length}`,
      );
    }
    const { start, items } = this.slotAttractors();
    const result = out ?? new Float64Array(this.slotEdge.length);
    for (let s = 0; s < this.slotEdge.length; s++) {
      let total = 0;
      for (let k = start[s]; k < start[s + 1]; k++) total += weights[items[k]];
      result[s] = total;
    }
    return result;
  }

  /**
   * Adds an obstacle polygon (m) that blocks sight, and recomputes the junctions whose viewshed
   * it touches.
   */
  addObstacle(polygon: ObstaclePolygon): ObstacleChange {
    const id = this.obstacles.addPolygon(polygon);
    return { obstacle: id, recomputed: this.#recomputeTouching(polygon) };
  }

  /**
   * Removes obstacle `id` (an added one, or a building by its index), and recomputes the
   * junctions that saw it. Throws a RangeError for an unknown id.
   */
  removeObstacle(id: number): ObstacleChange {
    this.obstacles.setEnabled(id, false);
    return { obstacle: id, recomputed: this.#recomputeTouching(this.obstacles.polygon(id)) };
  }

  /**
   * Blocks street `edge` with a barrier across it (see {@linkcode streetBarrier}), marks its
   * slots blocked and recomputes the junctions that see the barrier. Throws a RangeError for an
   * unknown edge or one already blocked.
   */
  blockStreet(edge: number, options: StreetBarrierOptions = {}): ObstacleChange {
    const e = this.#checkEdge(edge, "block");
    if (this.#barriers.has(edge)) {
      throw new RangeError(`Cannot block street ${edge} as it is already blocked`);
    }
    const change = this.addObstacle(streetBarrier(e, this.obstacles, options));
    this.#barriers.set(edge, change.obstacle);
    this.#markBlocked(edge, 1);
    return change;
  }

  /**
   * Removes the barrier of {@linkcode JunctionAffordance.blockStreet} from `edge` and recomputes
   * the junctions that saw it. Throws a RangeError when the street is not blocked.
   */
  openStreet(edge: number): ObstacleChange {
    this.#checkEdge(edge, "open");
    const id = this.#barriers.get(edge);
    if (id === undefined) throw new RangeError(`Cannot open street ${edge} as it is not blocked`);
    this.#barriers.delete(edge);
    this.#markBlocked(edge, 0);
    return this.removeObstacle(id);
  }

  #checkEdge(edge: number, verb: string) {
    const edges = this.#city.streets.edges;
    if (!Number.isInteger(edge) || edge < 0 || edge >= edges.length) {
      throw new RangeError(
        `Cannot ${verb} street as 'edge' must be an integer in [0, ${edges.length}): current value is ${edge}`,
      );
    }
    return edges[edge];
  }

  #markBlocked(edge: number, value: number): void {
    for (let s = 0; s < this.slotEdge.length; s++) {
      if (this.slotEdge[s] === edge) this.slotBlocked[s] = value;
    }
  }

  /** Recomputes the nodes whose stored viewshed touches `polygon`; returns them ascending. */
  #recomputeTouching(polygon: ObstaclePolygon): Uint32Array {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const [x, y] of polygon[0]) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
    const touched: number[] = [];
    for (let i = 0; i < this.nodeCount; i++) {
      const v = this.#viewsheds[i];
      if (!v) continue;
      const [x0, y0, x1, y1] = v.bounds();
      if (x1 < minX || x0 > maxX || y1 < minY || y0 > maxY) continue;
      if (v.touchesPolygon(polygon)) touched.push(i);
    }
    for (const i of touched) this.#computeNode(i);
    return Uint32Array.from(touched);
  }

  /** Viewshed, slot areas and shares, and seen attractors of node `i`. */
  #computeNode(i: number): void {
    const node = this.#city.streets.nodes[i];
    const v = this.#sweep.compute(node.x, node.y);
    this.#viewsheds[i] = v;
    this.viewshedArea[i] = v.area;
    const s0 = this.slotStart[i], s1 = this.slotStart[i + 1];
    const half = this.halfFrustumRad;
    const free = this.#freeSeen(v);
    const seen: number[] = [], offsets = new Uint32Array(s1 - s0 + 1);
    for (let s = s0; s < s1; s++) {
      const heading = Math.atan2(this.slotDirY[s], this.slotDirX[s]);
      this.slotArea[s] = v.sectorArea(heading, half);
      this.slotShare[s] = v.area > 0 ? this.slotArea[s] / v.area : 0;
      this.#buildingAttractorsSeen(v, heading, seen);
      for (let k = 0; k < free.count; k++) {
        let off = Math.abs(free.angle[k] - heading) % (2 * Math.PI);
        if (off > Math.PI) off = 2 * Math.PI - off;
        if (off <= half) seen.push(free.index[k]);
      }
      offsets[s - s0 + 1] = seen.length;
    }
    this.#nodeAttractors[i] = Uint32Array.from(seen);
    this.#nodeAttractorStart[i] = offsets;
    this.#csr = null;
  }

  /** Appends to `seen` the attractors of buildings whose walls bound `v` around `heading`. */
  #buildingAttractorsSeen(v: Viewshed, heading: number, seen: number[]): void {
    let owners = this.#ownerBuffer;
    let n = v.sectorOwners(heading, this.halfFrustumRad, owners);
    if (n > owners.length) {
      owners = this.#ownerBuffer = new Int32Array(2 * n);
      n = v.sectorOwners(heading, this.halfFrustumRad, owners);
    }
    if (++this.#stampNow === 0xffff_ffff) {
      this.#ownerStamp.fill(0);
      this.#stampNow = 1;
    }
    const stamp = this.#stampNow, start = this.#buildingAttractorStart;
    for (let k = 0; k < n; k++) {
      const b = owners[k];
      if (b >= start.length - 1 || this.#ownerStamp[b] === stamp) continue;
      this.#ownerStamp[b] = stamp;
      for (let j = start[b]; j < start[b + 1]; j++) seen.push(this.#buildingAttractors[j]);
    }
  }

  /** Point attractors (not in buildings) inside `v`, with their direction from its observer. */
  #freeSeen(v: Viewshed): { count: number; index: Uint32Array; angle: Float64Array } {
    const found = this.#free;
    found.count = 0;
    const [x0, y0, x1, y1] = v.bounds();
    const tol = this.options.attractorToleranceM;
    const attractors = this.#city.attractors;
    this.#freeGrid.forEachIn(x0 - tol, y0 - tol, x1 + tol, y1 + tol, (k) => {
      const a = attractors[k];
      if (!v.contains(a.x, a.y, tol)) return;
      if (found.count === found.index.length) {
        const index = new Uint32Array(2 * found.count), angle = new Float64Array(2 * found.count);
        index.set(found.index);
        angle.set(found.angle);
        found.index = index;
        found.angle = angle;
      }
      found.index[found.count] = k;
      found.angle[found.count++] = Math.atan2(a.y - v.y, a.x - v.x);
    });
    return found;
  }
}

/** Unit direction of a street leaving its start (or end) node, looking `lookAheadM` along it. */
function _leavingDirection(
  points: readonly (readonly [number, number])[],
  atStart: boolean,
  lookAheadM: number,
): [number, number] {
  const n = points.length;
  const at = (k: number) => points[atStart ? k : n - 1 - k];
  const [ox, oy] = at(0);
  let target = at(n - 1);
  if (lookAheadM > 0) {
    let left = lookAheadM;
    for (let k = 1; k < n; k++) {
      const [ax, ay] = at(k - 1), [bx, by] = at(k);
      const len = Math.hypot(bx - ax, by - ay);
      if (left <= len && len > 0) {
        target = [ax + (left / len) * (bx - ax), ay + (left / len) * (by - ay)];
        break;
      }
      left -= len;
    }
  }
  let dx = target[0] - ox, dy = target[1] - oy;
  let len = Math.hypot(dx, dy);
  if (len === 0) {
    // A closed loop back to its node: use its first piece.
    [dx, dy] = [at(1)[0] - ox, at(1)[1] - oy];
    len = Math.hypot(dx, dy) || 1;
  }
  return [dx / len, dy / len];
}

/** Points bucketed in a uniform grid (null entries left out), for box queries. */
class _PointGrid {
  readonly #xs: Float64Array;
  readonly #ys: Float64Array;
  readonly #cell: number;
  readonly #originX: number;
  readonly #originY: number;
  readonly #cols: number;
  readonly #rows: number;
  readonly #start: Uint32Array;
  readonly #items: Uint32Array;

  constructor(points: readonly ([number, number] | null)[], cell: number) {
    this.#cell = cell;
    this.#xs = new Float64Array(points.length);
    this.#ys = new Float64Array(points.length);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    points.forEach((p, k) => {
      if (!p) return;
      this.#xs[k] = p[0];
      this.#ys[k] = p[1];
      minX = Math.min(minX, p[0]);
      minY = Math.min(minY, p[1]);
      maxX = Math.max(maxX, p[0]);
      maxY = Math.max(maxY, p[1]);
    });
    if (minX > maxX) {
      minX =
        minY =
        maxX =
        maxY =
          0;
    }
    this.#originX = minX;
    this.#originY = minY;
    this.#cols = Math.min(4096, Math.floor((maxX - minX) / cell) + 1);
    this.#rows = Math.min(4096, Math.floor((maxY - minY) / cell) + 1);
    const cells = this.#cols * this.#rows;
    const start = new Uint32Array(cells + 1);
    const cellOf = (k: number) =>
      Math.min(this.#rows - 1, Math.floor((this.#ys[k] - minY) / cell)) * this.#cols +
      Math.min(this.#cols - 1, Math.floor((this.#xs[k] - minX) / cell));
    points.forEach((p, k) => {
      if (p) start[cellOf(k) + 1]++;
    });
    for (let c = 0; c < cells; c++) start[c + 1] += start[c];
    const items = new Uint32Array(start[cells]);
    const cursor = start.slice(0, cells);
    points.forEach((p, k) => {
      if (p) items[cursor[cellOf(k)]++] = k;
    });
    this.#start = start;
    this.#items = items;
  }

  /** Calls `visit(k)` for every point in cells overlapping the box (a superset of the box). */
  forEachIn(x0: number, y0: number, x1: number, y1: number, visit: (k: number) => void): void {
    const c = this.#cell;
    const cx0 = Math.max(0, Math.floor((x0 - this.#originX) / c));
    const cy0 = Math.max(0, Math.floor((y0 - this.#originY) / c));
    const cx1 = Math.min(this.#cols - 1, Math.floor((x1 - this.#originX) / c));
    const cy1 = Math.min(this.#rows - 1, Math.floor((y1 - this.#originY) / c));
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const cell = cy * this.#cols + cx;
        for (let k = this.#start[cell]; k < this.#start[cell + 1]; k++) visit(this.#items[k]);
      }
    }
  }
}

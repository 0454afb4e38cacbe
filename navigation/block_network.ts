/**
 * Block routing for pedestrians in a city: which blocks to walk through and which crosswalks to
 * take (the high level), and the exact path inside a block around its buildings and furniture
 * (the low level), as in F. Gennari, Procedural City: Pedestrian Updates + Navigation, 3DWorld
 * blog, 2019.
 *
 * **High level.** Blocks and crosswalks form the dual graph of the street network: a crosswalk
 * joins the two blocks on either side of its street. Each crosswalk has a kerb point on each
 * side, just inside its block. The route search runs Dijkstra (`flatqueue`) over the kerb points
 * with exact costs: crossing a street costs the crosswalk's length, and walking between two kerb
 * points of one block — or from the start to a kerb point of its block, or from a kerb point to
 * the goal — costs the length of the shortest path inside the block. So the route is the
 * shortest walk that stays in blocks and crosses streets only on crosswalks, not an estimate.
 * Streets can be avoided (a pedestrian who waited a minute at one re-plans around it).
 *
 * **Inside a block.** The free space of a block is its outline up to the kerb minus its
 * buildings' footprints and its street furniture, shrunk by the agent's radius with mitred
 * corners (the blog's rectangles expanded by the pedestrian's radius); a
 * {@linkcode VisibilityGraph} over it, with the block's kerb points as extra nodes, gives exact
 * shortest paths. Graphs are built when a block is first used.
 *
 * Results carry a status (`found`, `unreachable`, `start-outside`, `goal-outside`); no route is
 * not an exception.
 *
 * @module
 */
import FlatQueue from "npm:flatqueue@3.1.0";
import { BandedRing } from "../core/banded_ring.ts";
import type { Point } from "../core/geometry.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { CityModel } from "../geo/city_model.ts";
import { VisibilityGraph, VisibilityPath } from "./visibility_graph.ts";
import { erodeWalkableArea, type PolygonWithHoles, subtractAreas } from "./walkable_area.ts";

/** Options of a {@linkcode BlockNetwork}. */
export interface BlockNetworkOptions {
  /** Agent radius (m): footprints grow and block outlines shrink by it. @default 0.25 */
  agentRadius: number;
  /** Kerb points lie this much further into the block than the agent's radius (m). @default 0.05 */
  kerbInset: number;
}

/** Descriptors of {@linkcode BlockNetworkOptions}. */
export const BLOCK_NETWORK_OPTIONS: OptionSpecs<BlockNetworkOptions> = {
  agentRadius: {
    type: "number",
    default: 0.25,
    min: 0,
    max: 5,
    unit: "m",
    doc: "agent radius: footprints grow and block outlines shrink by it",
  },
  kerbInset: {
    type: "number",
    default: 0.05,
    min: 0,
    max: 5,
    unit: "m",
    doc: "kerb points lie this much further into the block than the agent's radius",
  },
};

/** Outcome of a block route query. */
export type BlockRouteStatus = "found" | "unreachable" | "start-outside" | "goal-outside";

/**
 * A block route, reused across queries: the crosswalks to take in order, the blocks walked
 * through, and the total length.
 *
 * @example A fresh route
 * ```ts
 * import { BlockRoute } from "./block_network.ts";
 * import assert from "node:assert/strict";
 * assert.equal(new BlockRoute().legCount, 0);
 * ```
 */
export class BlockRoute {
  /** Outcome of the last query. */
  status: BlockRouteStatus = "unreachable";
  /** Length of the whole walk (m); Infinity when none was found. */
  length = Infinity;
  /** Crosswalks taken. */
  legCount = 0;
  /** Crosswalks (indices into the city model's crossings), in walking order. */
  crossings: Int32Array = new Int32Array(16);
  /** 1 where the crosswalk is walked from its last point to its first, else 0. */
  reversed: Uint8Array = new Uint8Array(16);
  /** Blocks walked through: `legCount + 1` entries, the start's block first. */
  blocks: Int32Array = new Int32Array(17);

  /** @internal Makes room for `legs` crosswalks. */
  reserve(legs: number): void {
    if (legs <= this.crossings.length) return;
    let size = this.crossings.length;
    while (size < legs) size *= 2;
    this.crossings = new Int32Array(size);
    this.reversed = new Uint8Array(size);
    this.blocks = new Int32Array(size + 1);
  }
}

/** Options of one {@linkcode BlockNetwork.route} query. */
export interface BlockRouteOptions {
  /** Street edges not to cross (1 = avoid), indexed like the city's street edges. */
  avoidEdges?: Uint8Array;
}

/**
 * The blocks and crosswalks of a city (see the module doc). Needs a city model with `blocks`.
 *
 * @example Route across a 2 × 2 procedural city
 * ```ts
 * import { BlockNetwork, BlockRoute } from "./block_network.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2, blockSize: 40 });
 * const network = new BlockNetwork(city);
 * const [ax, ay] = network.kerbPoint(0, 0), [bx, by] = network.kerbPoint(0, 1);
 * const route = network.route([ax, ay], [bx, by], new BlockRoute());
 * assert.equal(route.status, "found");
 * assert.equal(route.legCount, 1); // straight over crosswalk 0
 * ```
 */
export class BlockNetwork {
  /** The city. */
  readonly city: CityModel;
  /** Validated options. */
  readonly options: Readonly<BlockNetworkOptions>;
  /** Blocks. */
  readonly blockCount: number;
  /** Block on the side of each crossing's first point, or -1 when the crossing is not usable. */
  readonly sideA: Int32Array;
  /** Block on the side of each crossing's last point, or -1. */
  readonly sideB: Int32Array;
  /** Kerb points `[ax, ay, bx, by]` per crossing (m): just inside the blocks at its ends. */
  readonly kerbs: Float64Array;
  /** Length (m) between a crossing's two kerb points. */
  readonly crossingLength: Float64Array;
  /**
   * Connected part of each block: blocks joined by crossings, directly or through other
   * blocks, share a number (`0 … componentCount-1`, the largest part first).
   */
  readonly component: Int32Array;
  /** Number of connected parts. */
  readonly componentCount: number;

  readonly #blockBoxes: Float64Array;
  /** Each block's rings (outline, then holes), banded for the inside tests of `blockAt`. */
  readonly #blockRings: BandedRing[][];
  /** Kerb nodes (2·crossing + side) of each block: `#blockKerbs[#blockKerbStart[b] …]`. */
  readonly #blockKerbStart: Int32Array;
  readonly #blockKerbs: Int32Array;
  /** Position of a kerb node among its block's kerbs (its extra-node number there). */
  readonly #kerbSlot: Int32Array;
  readonly #graphs: (VisibilityGraph | null)[];
  /** Per block: distances between its kerbs (row-major, kerbs × kerbs), once built. */
  readonly #kerbDistances: (Float64Array | null)[];
  readonly #queue = new FlatQueue<number>();
  readonly #distance: Float64Array;
  readonly #previous: Int32Array;
  readonly #done: Uint8Array;
  /** Walkable region of each kerb node (see {@linkcode BlockNetwork.regionAt}), once built. */
  #kerbRegion: Int32Array | null = null;
  #scratch = new Float64Array(64);
  #startCosts = new Float64Array(64);
  #goalCosts = new Float64Array(64);
  readonly #direct = new VisibilityPath();

  constructor(city: CityModel, options: Partial<BlockNetworkOptions> = {}) {
    const o = resolveOptions("block network", BLOCK_NETWORK_OPTIONS, options);
    if (!city.blocks) {
      throw new TypeError(
        `Cannot create block network as city '${city.name}' has no blocks: derive them first`,
      );
    }
    this.city = city;
    this.options = o;
    const blocks = city.blocks;
    this.blockCount = blocks.length;
    this.#blockBoxes = new Float64Array(4 * blocks.length);
    blocks.forEach((block, b) => {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const [x, y] of block.polygon[0]) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
      this.#blockBoxes.set([x0, y0, x1, y1], 4 * b);
    });
    this.#blockRings = blocks.map((block) => block.polygon.map((ring) => new BandedRing(ring)));
    const n = city.crossings.length;
    this.sideA = new Int32Array(n).fill(-1);
    this.sideB = new Int32Array(n).fill(-1);
    this.kerbs = new Float64Array(4 * n);
    this.crossingLength = new Float64Array(n);
    const inset = o.agentRadius + o.kerbInset;
    const perBlock: number[][] = blocks.map(() => []);
    city.crossings.forEach((crossing, c) => {
      const p = crossing.points;
      if (p.length < 2) return;
      const [x0, y0] = p[0], [x1, y1] = p[p.length - 1];
      const len = Math.hypot(x1 - x0, y1 - y0);
      if (!(len > 0)) return;
      const ux = (x1 - x0) / len, uy = (y1 - y0) / len;
      const ax = x0 - ux * inset, ay = y0 - uy * inset, bx = x1 + ux * inset, by = y1 + uy * inset;
      const a = this.blockAt(ax, ay), b = this.blockAt(bx, by);
      if (a < 0 || b < 0 || a === b) return;
      this.sideA[c] = a;
      this.sideB[c] = b;
      this.kerbs.set([ax, ay, bx, by], 4 * c);
      this.crossingLength[c] = Math.hypot(bx - ax, by - ay);
      perBlock[a].push(2 * c);
      perBlock[b].push(2 * c + 1);
    });
    [this.component, this.componentCount] = _components(blocks.length, this.sideA, this.sideB);
    this.#blockKerbStart = new Int32Array(blocks.length + 1);
    perBlock.forEach((k, b) => this.#blockKerbStart[b + 1] = this.#blockKerbStart[b] + k.length);
    this.#blockKerbs = Int32Array.from(perBlock.flat());
    this.#kerbSlot = new Int32Array(2 * n).fill(-1);
    perBlock.forEach((kerbs) => kerbs.forEach((node, slot) => this.#kerbSlot[node] = slot));
    this.#graphs = blocks.map(() => null);
    this.#kerbDistances = blocks.map(() => null);
    this.#distance = new Float64Array(2 * n + 2);
    this.#previous = new Int32Array(2 * n + 2);
    this.#done = new Uint8Array(2 * n + 2);
  }

  /** The block containing (`x`, `y`), or -1. */
  blockAt(x: number, y: number): number {
    const boxes = this.#blockBoxes, blocks = this.city.blocks!;
    for (let b = 0; b < blocks.length; b++) {
      if (
        x < boxes[4 * b] || y < boxes[4 * b + 1] || x > boxes[4 * b + 2] || y > boxes[4 * b + 3]
      ) {
        continue;
      }
      const rings = this.#blockRings[b];
      if (!rings[0].contains(x, y)) continue;
      let inHole = false;
      for (let h = 1; h < rings.length && !inHole; h++) inHole = rings[h].contains(x, y);
      if (!inHole) return b;
    }
    return -1;
  }

  /**
   * The walkable region of (`x`, `y`): places joined by paths inside blocks and by crossings
   * share a number (`0 …`); -1 off every block's free space or in a pocket of a block that no
   * crossing reaches. Finer than {@linkcode component}: a block that its buildings cut into
   * pieces has one region per piece. The first call builds every block's graph.
   */
  regionAt(x: number, y: number): number {
    const regions = this.#regions();
    const block = this.blockAt(x, y);
    if (block < 0) return -1;
    const graph = this.graph(block);
    if (!graph.contains(x, y) || graph.extraCount === 0) return -1;
    if (this.#scratch.length < graph.nodeCount) {
      this.#scratch = new Float64Array(2 * graph.nodeCount);
    }
    graph.distancesFrom([x, y], this.#scratch);
    const first = this.#blockKerbStart[block], count = graph.extraCount;
    for (let k = 0; k < count; k++) {
      if (this.#scratch[graph.nodeCount - count + k] < Infinity) {
        return regions[this.#blockKerbs[first + k]];
      }
    }
    return -1;
  }

  /** The walkable region with the most crossing ends (see {@linkcode BlockNetwork.regionAt}). */
  largestRegion(): number {
    const regions = this.#regions();
    const size = new Int32Array(regions.length + 1);
    let best = -1;
    for (let k = 0; k < regions.length; k++) {
      if (k % 2 === 0 && this.sideA[k >> 1] < 0) continue;
      size[regions[k]]++;
      if (best < 0 || size[regions[k]] > size[best]) best = regions[k];
    }
    return best;
  }

  #regions(): Int32Array {
    if (this.#kerbRegion) return this.#kerbRegion;
    const n = 2 * this.city.crossings.length;
    const parent = Int32Array.from({ length: n }, (_, k) => k);
    const find = (k: number): number => {
      while (parent[k] !== k) k = parent[k] = parent[parent[k]];
      return k;
    };
    const join = (p: number, q: number) => {
      const rp = find(p), rq = find(q);
      if (rp !== rq) parent[Math.max(rp, rq)] = Math.min(rp, rq);
    };
    for (let c = 0; c < this.sideA.length; c++) if (this.sideA[c] >= 0) join(2 * c, 2 * c + 1);
    for (let b = 0; b < this.blockCount; b++) {
      const first = this.#blockKerbStart[b], count = this.#blockKerbStart[b + 1] - first;
      if (count < 2) continue;
      const matrix = this.#kerbMatrix(b);
      for (let i = 0; i < count; i++) {
        for (let j = i + 1; j < count; j++) {
          if (matrix[i * count + j] < Infinity) {
            join(this.#blockKerbs[first + i], this.#blockKerbs[first + j]);
          }
        }
      }
    }
    const number = new Map<number, number>();
    const regions = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const root = find(k);
      if (!number.has(root)) number.set(root, number.size);
      regions[k] = number.get(root)!;
    }
    this.#kerbRegion = regions;
    return regions;
  }

  /** Kerb point (m) of crossing `crossing` on side 0 (its first point's) or 1 (its last's). */
  kerbPoint(crossing: number, side: 0 | 1): Point {
    return [this.kerbs[4 * crossing + 2 * side], this.kerbs[4 * crossing + 2 * side + 1]];
  }

  /**
   * The free space of block `block`: its outline minus the footprints of its buildings and of
   * the street furniture standing in it, shrunk by the agent radius with mitred corners.
   */
  freeSpace(block: number): PolygonWithHoles[] {
    const city = this.city, outline = city.blocks![block].polygon;
    const obstacles: PolygonWithHoles[] = city.blocks![block].buildings.map((k) =>
      city.buildings[k].polygon
    );
    for (const f of city.furniture) {
      const [x, y] = f.polygon[0];
      if (this.blockAt(x, y) === block) obstacles.push([f.polygon]);
    }
    const free = subtractAreas([outline], obstacles);
    return erodeWalkableArea(free, this.options.agentRadius, { join: "miter" });
  }

  /** The visibility graph of block `block` with its kerb points as extra nodes (built once). */
  graph(block: number): VisibilityGraph {
    let graph = this.#graphs[block];
    if (!graph) {
      const extra: Point[] = [];
      for (let k = this.#blockKerbStart[block]; k < this.#blockKerbStart[block + 1]; k++) {
        const node = this.#blockKerbs[k], c = node >> 1, side = (node & 1) as 0 | 1;
        extra.push(this.kerbPoint(c, side));
      }
      graph = new VisibilityGraph(this.freeSpace(block), extra);
      this.#graphs[block] = graph;
    }
    return graph;
  }

  /**
   * Exact shortest path inside one block between two of its points (`[x, y]`, m), written into
   * `out` (also returned). The block is the one holding `from` unless `options.block` says; a
   * point outside it gives the status `start-outside` or `goal-outside`.
   */
  pathInBlock(
    from: ArrayLike<number>,
    to: ArrayLike<number>,
    out: VisibilityPath,
    options: { block?: number } = {},
  ): VisibilityPath {
    const block = options.block ?? this.blockAt(from[0], from[1]);
    if (block < 0) {
      out.pointCount = 0;
      out.length = Infinity;
      out.status = "start-outside";
      return out;
    }
    return this.graph(block).shortestPath(from, to, out);
  }

  /**
   * The shortest route from `start` to `goal` (`[x, y]`, m), written into `out` (also
   * returned): the crosswalks to take and the blocks to walk through, avoiding the street edges
   * marked in `options.avoidEdges`.
   */
  route(
    start: ArrayLike<number>,
    goal: ArrayLike<number>,
    out: BlockRoute,
    options: BlockRouteOptions = {},
  ): BlockRoute {
    const ax = start[0], ay = start[1], bx = goal[0], by = goal[1];
    out.legCount = 0;
    out.length = Infinity;
    const startBlock = this.blockAt(ax, ay), goalBlock = this.blockAt(bx, by);
    if (startBlock < 0 || !this.graph(startBlock).contains(ax, ay)) {
      out.status = "start-outside";
      return out;
    }
    if (goalBlock < 0 || !this.graph(goalBlock).contains(bx, by)) {
      out.status = "goal-outside";
      return out;
    }
    const crossings = this.city.crossings.length;
    const source = 2 * crossings, target = source + 1;
    const startKerbs = this.#costsFrom(startBlock, start, "start");
    const goalKerbs = this.#costsFrom(goalBlock, goal, "goal");
    const distance = this.#distance, previous = this.#previous, done = this.#done;
    distance.fill(Infinity);
    done.fill(0);
    this.#queue.clear();
    distance[source] = 0;
    previous[source] = -1;
    if (startBlock === goalBlock) {
      const direct = this.graph(startBlock).shortestPath(start, goal, this.#direct);
      if (direct.status === "found") this.#relax(target, direct.length, source);
    }
    for (let k = this.#blockKerbStart[startBlock]; k < this.#blockKerbStart[startBlock + 1]; k++) {
      const slot = k - this.#blockKerbStart[startBlock];
      this.#relax(this.#blockKerbs[k], startKerbs[slot], source);
    }
    const avoid = options.avoidEdges;
    while (this.#queue.length > 0) {
      const node = this.#queue.pop()!;
      if (done[node]) continue;
      done[node] = 1;
      if (node === target) break;
      const d = distance[node], c = node >> 1, side = node & 1;
      // Across the street.
      const edge = this.city.crossings[c].edge;
      if (!(avoid && edge !== null && avoid[edge] === 1)) {
        this.#relax(node ^ 1, d + this.crossingLength[c], node);
      }
      // Within the block on this side.
      const block = side === 0 ? this.sideA[c] : this.sideB[c];
      const matrix = this.#kerbMatrix(block);
      const first = this.#blockKerbStart[block], count = this.#blockKerbStart[block + 1] - first;
      const row = this.#kerbSlot[node] * count;
      for (let k = 0; k < count; k++) {
        const other = this.#blockKerbs[first + k];
        if (other !== node) this.#relax(other, d + matrix[row + k], node);
      }
      if (block === goalBlock) this.#relax(target, d + goalKerbs[this.#kerbSlot[node]], node);
    }
    if (distance[target] === Infinity) {
      out.status = "unreachable";
      return out;
    }
    // Count the crossings on the way back, then fill them in order.
    let legs = 0;
    for (let node = previous[target]; node !== source; node = previous[node]) {
      if ((previous[node] ^ 1) === node) legs++;
    }
    out.reserve(legs);
    out.legCount = legs;
    out.length = distance[target];
    let k = legs;
    out.blocks[legs] = goalBlock;
    for (let node = previous[target]; node !== source; node = previous[node]) {
      const from = previous[node];
      if ((from ^ 1) !== node) continue;
      k--;
      out.crossings[k] = node >> 1;
      out.reversed[k] = from & 1; // entered at side 1: walked from the last point to the first
      out.blocks[k] = (from & 1) === 0 ? this.sideA[node >> 1] : this.sideB[node >> 1];
    }
    out.status = "found";
    return out;
  }

  #relax(node: number, d: number, from: number): void {
    if (d < this.#distance[node]) {
      this.#distance[node] = d;
      this.#previous[node] = from;
      this.#queue.push(node, d);
    }
  }

  /** Distances from `point` in block `block` to each of its kerb points (by slot). */
  #costsFrom(block: number, point: ArrayLike<number>, which: "start" | "goal"): Float64Array {
    const graph = this.graph(block);
    if (this.#scratch.length < graph.nodeCount) {
      this.#scratch = new Float64Array(2 * graph.nodeCount);
    }
    graph.distancesFrom(point, this.#scratch);
    const count = graph.extraCount, first = graph.nodeCount - count;
    let out = which === "start" ? this.#startCosts : this.#goalCosts;
    if (out.length < count) {
      out = new Float64Array(2 * count);
      if (which === "start") this.#startCosts = out;
      else this.#goalCosts = out;
    }
    for (let k = 0; k < count; k++) out[k] = this.#scratch[first + k];
    return out;
  }

  /** Distances between the kerb points of block `block` (built once). */
  #kerbMatrix(block: number): Float64Array {
    let matrix = this.#kerbDistances[block];
    if (!matrix) {
      const graph = this.graph(block);
      const count = graph.extraCount, first = graph.nodeCount - count;
      matrix = new Float64Array(count * count);
      const row = new Float64Array(graph.nodeCount);
      for (let k = 0; k < count; k++) {
        graph.distancesFrom([graph.nodeX[first + k], graph.nodeY[first + k]], row);
        for (let j = 0; j < count; j++) matrix[k * count + j] = row[first + j];
      }
      this.#kerbDistances[block] = matrix;
    }
    return matrix;
  }
}

/** Connected parts of `count` blocks joined by the crossings `a[c]`–`b[c]`, largest first. */
function _components(count: number, a: Int32Array, b: Int32Array): [Int32Array, number] {
  const parent = Int32Array.from({ length: count }, (_, k) => k);
  const find = (k: number): number => {
    while (parent[k] !== k) k = parent[k] = parent[parent[k]];
    return k;
  };
  for (let c = 0; c < a.length; c++) {
    if (a[c] < 0 || b[c] < 0) continue;
    const ra = find(a[c]), rb = find(b[c]);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const size = new Int32Array(count);
  for (let k = 0; k < count; k++) size[find(k)]++;
  // Number the parts by size (largest first), ties by their lowest block.
  const roots = [...new Set(Array.from({ length: count }, (_, k) => find(k)))];
  roots.sort((p, q) => size[q] - size[p] || p - q);
  const number = new Int32Array(count);
  roots.forEach((root, n) => number[root] = n);
  const component = new Int32Array(count);
  for (let k = 0; k < count; k++) component[k] = number[find(k)];
  return [component, roots.length];
}

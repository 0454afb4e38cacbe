/**
 * Shortest routes on the street network, as next-hop tables towards destinations: for a
 * destination node, Dijkstra's algorithm run outwards from it over the walkable streets that are
 * open (street lengths as weights) gives every node the street leaving it on a shortest route
 * there. A walker then reads one number at each junction.
 *
 * Tables are made when a destination is first asked for and kept in a pool of `maxTables`
 * (memory: 4 bytes per node per table); when the pool is full the oldest table is dropped and
 * made again when needed. Blocking or opening a street drops them all.
 *
 * Route spread: with `spread` σ > 0 there are `variants` tables per destination, each on street
 * lengths multiplied by their own log-normal factor exp(σ·z) (z standard normal, fixed per street
 * and variant): the Monte Carlo form of probit route choice (C. F. Daganzo and Y. Sheffi, On
 * stochastic models of traffic assignment, Transportation Science, 1977), in which each traveller
 * takes the shortest route under their own perceived street lengths. Walkers between the same two
 * places then spread over near-equal parallel streets instead of all taking one.
 *
 * @module
 */
import FlatQueue from "npm:flatqueue@3.1.0";

/** The street graph as slots (streets leaving each node), as {@linkcode JunctionAffordance} stores it. */
export interface StreetSlots {
  /** Number of nodes. */
  readonly nodeCount: number;
  /** Slots of node `i`: `slotStart[i] … slotStart[i+1]-1`. */
  readonly slotStart: Uint32Array;
  /** Street edge of each slot. */
  readonly slotEdge: Int32Array;
  /** Node at the other end of the slot's street. */
  readonly slotNeighbour: Int32Array;
  /** 1 where the slot's street is blocked. */
  readonly slotBlocked: Uint8Array;
}

/**
 * Next-hop tables towards destination nodes (see the module doc).
 *
 * @example The next street on the way to a node
 * ```ts
 * import { StreetRoutes } from "./street_routes.ts";
 * import { JunctionAffordance } from "./junction_affordance.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 3, blocksY: 1 });
 * const slots = JunctionAffordance.fromCity(city);
 * const lengths = Float64Array.from(city.streets.edges, (e) => e.length);
 * const routes = new StreetRoutes(slots, lengths);
 * const slot = routes.nextSlot(0, 3);
 * assert(slot >= 0);
 * assert.equal(routes.nextSlot(3, 3), -1); // already there
 * ```
 */
export class StreetRoutes {
  /** Tables made so far (a measure of the cost). */
  tablesMade = 0;
  readonly #slots: StreetSlots;
  readonly #lengths: Float64Array;
  readonly #maxTables: number;
  readonly #variants: number;
  readonly #spread: number;
  /** Street lengths of the variant being made (m). */
  readonly #perceived: Float64Array;
  /** Destination × variants + variant → table index, or -1. */
  readonly #tableOf: Int32Array;
  /** Table index → its destination × variants + variant, or -1. */
  readonly #destinationOf: Int32Array;
  /** Next slot per node, `nodeCount` entries per table; -1 where there is no route. */
  #tables: Int32Array | null = null;
  #oldest = 0;
  /** The slot at the far end of each slot's street. */
  readonly #reverse: Int32Array;
  readonly #dist: Float64Array;
  readonly #queue = new FlatQueue<number>();

  /**
   * @param slots the street graph
   * @param edgeLengths length of every street edge (m), by edge index
   * @param options `maxTables`: tables kept at most (default 1024, and at most 64 MiB of them);
   *   `spread`: σ of the street lengths' log-normal factor per variant (default 0: shortest
   *   routes); `variants`: route variants per destination when `spread` > 0 (default 8)
   */
  constructor(
    slots: StreetSlots,
    edgeLengths: Float64Array,
    options: { maxTables?: number; spread?: number; variants?: number } = {},
  ) {
    const maxTables = options.maxTables ?? 1024;
    if (!Number.isInteger(maxTables) || maxTables < 1) {
      throw new RangeError(
        `Cannot create street routes as 'maxTables' must be an integer >= 1: current value is ${maxTables}`,
      );
    }
    const spread = options.spread ?? 0, variants = options.variants ?? 8;
    if (!(spread >= 0 && spread <= 10)) {
      throw new RangeError(
        `Cannot create street routes as 'spread' must be a number in [0, 10]: current value is ${spread}`,
      );
    }
    if (!Number.isInteger(variants) || variants < 1 || variants > 256) {
      throw new RangeError(
        `Cannot create street routes as 'variants' must be an integer in [1, 256]: current value is ${variants}`,
      );
    }
    this.#slots = slots;
    this.#lengths = edgeLengths;
    this.#spread = spread;
    this.#variants = spread > 0 ? variants : 1;
    this.#perceived = new Float64Array(edgeLengths.length);
    const n = slots.nodeCount;
    this.#maxTables = Math.max(1, Math.min(maxTables, Math.floor((64 << 20) / (4 * n + 4))));
    this.#tableOf = new Int32Array(n * this.#variants).fill(-1);
    this.#destinationOf = new Int32Array(this.#maxTables).fill(-1);
    this.#dist = new Float64Array(n);
    const slotCount = slots.slotEdge.length;
    this.#reverse = new Int32Array(slotCount).fill(-1);
    const first = new Map<number, number>();
    for (let s = 0; s < slotCount; s++) {
      const e = slots.slotEdge[s], other = first.get(e);
      if (other === undefined) first.set(e, s);
      else {
        this.#reverse[s] = other;
        this.#reverse[other] = s;
      }
    }
  }

  /** Route variants per destination (1 without spread). */
  get variants(): number {
    return this.#variants;
  }

  /**
   * The slot at `node` on a shortest route to `destination` (under route variant `variant`,
   * taken modulo the number of variants), or -1 when `node` is the destination or no open street
   * leads there.
   */
  nextSlot(node: number, destination: number, variant = 0): number {
    if (node === destination) return -1;
    const key = destination * this.#variants + (variant % this.#variants);
    let t = this.#tableOf[key];
    if (t < 0) t = this.#make(key);
    return this.#tables![t * this.#slots.nodeCount + node];
  }

  /**
   * Length (m) of the route from `node` to `destination` under `variant` (true street lengths);
   * Infinity when there is none.
   */
  distance(node: number, destination: number, variant = 0): number {
    if (node === destination) return 0;
    let length = 0, at = node;
    for (let hops = 0; hops < this.#slots.nodeCount; hops++) {
      const s = this.nextSlot(at, destination, variant);
      if (s < 0) return Infinity;
      length += this.#lengths[this.#slots.slotEdge[s]];
      at = this.#slots.slotNeighbour[s];
      if (at === destination) return length;
    }
    return Infinity;
  }

  /** Drops every table (after streets were blocked or opened). */
  invalidate(): void {
    this.#tableOf.fill(-1);
    this.#destinationOf.fill(-1);
    this.#oldest = 0;
  }

  /** Makes the table of `key` (destination × variants + variant) in the oldest place of the pool. */
  #make(key: number): number {
    const destination = Math.floor(key / this.#variants), variant = key % this.#variants;
    const { nodeCount, slotStart, slotEdge, slotNeighbour, slotBlocked } = this.#slots;
    this.#tables ??= new Int32Array(this.#maxTables * nodeCount);
    const t = this.#oldest;
    this.#oldest = (this.#oldest + 1) % this.#maxTables;
    const previous = this.#destinationOf[t];
    if (previous >= 0) this.#tableOf[previous] = -1;
    this.#destinationOf[t] = key;
    this.#tableOf[key] = t;
    const lengths = this.#spread > 0 ? this.#perceivedLengths(variant) : this.#lengths;
    const next = this.#tables.subarray(t * nodeCount, (t + 1) * nodeCount);
    next.fill(-1);
    const dist = this.#dist.fill(Infinity);
    const queue = this.#queue;
    queue.clear();
    dist[destination] = 0;
    queue.push(destination, 0);
    while (queue.length > 0) {
      const d = queue.peekValue()!, v = queue.pop()!;
      if (d > dist[v]) continue;
      for (let s = slotStart[v]; s < slotStart[v + 1]; s++) {
        if (slotBlocked[s]) continue;
        const w = slotNeighbour[s], nd = d + lengths[slotEdge[s]];
        if (nd < dist[w]) {
          dist[w] = nd;
          next[w] = this.#reverse[s];
          queue.push(w, nd);
        }
      }
    }
    this.tablesMade++;
    return t;
  }

  /** Street lengths × exp(σ·z), z standard normal from a hash of (street, variant). */
  #perceivedLengths(variant: number): Float64Array {
    const out = this.#perceived, lengths = this.#lengths, sigma = this.#spread;
    for (let e = 0; e < lengths.length; e++) {
      const u1 = (hash32(e, 2 * variant) + 0.5) / 4294967296;
      const u2 = (hash32(e, 2 * variant + 1) + 0.5) / 4294967296;
      const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      out[e] = lengths[e] * Math.exp(sigma * z);
    }
    return out;
  }
}

/** An unsigned 32-bit hash of two integers (murmur3's finaliser). */
function hash32(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

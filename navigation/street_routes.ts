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
 * Route spread: with `distances: true` each table also keeps every node's route length to the
 * destination (4 more bytes per node), and {@linkcode StreetRoutes.spreadSlot} draws the next
 * street among those that bring the walker closer to the destination, by a logit in the detour
 * each adds: Dial's multipath assignment (R. B. Dial, A probabilistic multipath traffic
 * assignment model which obviates path enumeration, Transportation Research 5, 1971), in which
 * only "efficient" links, those that lead nearer, are taken, so a walker never loops. Walkers
 * between the same two places then spread over near-equal parallel streets.
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
  /** Destination → table index, or -1. */
  readonly #tableOf: Int32Array;
  /** Table index → its destination, or -1. */
  readonly #destinationOf: Int32Array;
  /** Next slot per node, `nodeCount` entries per table; -1 where there is no route. */
  #tables: Int32Array | null = null;
  /** Route length per node (m), `nodeCount` entries per table (with `distances`). */
  #lengthTables: Float32Array | null = null;
  readonly #keepDistances: boolean;
  #oldest = 0;
  /** The slot at the far end of each slot's street. */
  readonly #reverse: Int32Array;
  readonly #dist: Float64Array;
  readonly #queue = new FlatQueue<number>();

  /**
   * @param slots the street graph
   * @param edgeLengths length of every street edge (m), by edge index
   * @param options `maxTables`: tables kept at most (default 1024, and at most 64 MiB of them);
   *   `distances`: keep route lengths too, for {@linkcode StreetRoutes.spreadSlot} (default false)
   */
  constructor(
    slots: StreetSlots,
    edgeLengths: Float64Array,
    options: { maxTables?: number; distances?: boolean } = {},
  ) {
    const maxTables = options.maxTables ?? 1024;
    if (!Number.isInteger(maxTables) || maxTables < 1) {
      throw new RangeError(
        `Cannot create street routes as 'maxTables' must be an integer >= 1: current value is ${maxTables}`,
      );
    }
    this.#slots = slots;
    this.#lengths = edgeLengths;
    this.#keepDistances = options.distances === true;
    const n = slots.nodeCount, bytes = this.#keepDistances ? 8 : 4;
    this.#maxTables = Math.max(1, Math.min(maxTables, Math.floor((64 << 20) / (bytes * n + 4))));
    this.#tableOf = new Int32Array(n).fill(-1);
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

  /**
   * The slot at `node` on a shortest route to `destination`, or -1 when `node` is the
   * destination or no open street leads there.
   */
  nextSlot(node: number, destination: number): number {
    if (node === destination) return -1;
    let t = this.#tableOf[destination];
    if (t < 0) t = this.#make(destination);
    return this.#tables![t * this.#slots.nodeCount + node];
  }

  /**
   * A slot at `node` towards `destination` drawn by Dial's rule (see the module doc): among the
   * open streets to a node nearer the destination, street s with weight exp(−detour_s / `scaleM`),
   * detour_s = its length + the route length from its far end − the route length from `node`
   * (0 on a shortest route). `u` is a uniform draw in [0, 1). -1 at the destination or without a
   * route. Needs `distances: true`.
   */
  spreadSlot(node: number, destination: number, scaleM: number, u: number): number {
    if (node === destination) return -1;
    let t = this.#tableOf[destination];
    if (t < 0) t = this.#make(destination);
    const n = this.#slots.nodeCount, dist = this.#lengthTables!;
    const here = dist[t * n + node];
    if (here === Infinity || !(scaleM > 0)) return this.#tables![t * n + node];
    const { slotStart, slotEdge, slotNeighbour, slotBlocked } = this.#slots;
    let total = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (let s = slotStart[node]; s < slotStart[node + 1]; s++) {
        if (slotBlocked[s]) continue;
        const there = dist[t * n + slotNeighbour[s]];
        if (!(there < here)) continue;
        const w = Math.exp(-(this.#lengths[slotEdge[s]] + there - here) / scaleM);
        if (pass === 0) total += w;
        else if ((u -= w / total) < 0) return s;
      }
    }
    return this.#tables![t * n + node];
  }

  /** Route length from `node` to `destination` (m); Infinity when there is none. */
  distance(node: number, destination: number): number {
    if (node === destination) return 0;
    let length = 0, at = node;
    for (let hops = 0; hops < this.#slots.nodeCount; hops++) {
      const s = this.nextSlot(at, destination);
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

  /** Makes the table of `destination` in the oldest place of the pool; returns its index. */
  #make(destination: number): number {
    const { nodeCount, slotStart, slotEdge, slotNeighbour, slotBlocked } = this.#slots;
    this.#tables ??= new Int32Array(this.#maxTables * nodeCount);
    const t = this.#oldest;
    this.#oldest = (this.#oldest + 1) % this.#maxTables;
    const previous = this.#destinationOf[t];
    if (previous >= 0) this.#tableOf[previous] = -1;
    this.#destinationOf[t] = destination;
    this.#tableOf[destination] = t;
    const next = this.#tables.subarray(t * nodeCount, (t + 1) * nodeCount);
    next.fill(-1);
    if (this.#keepDistances) {
      this.#lengthTables ??= new Float32Array(this.#maxTables * nodeCount);
    }
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
        const w = slotNeighbour[s], nd = d + this.#lengths[slotEdge[s]];
        if (nd < dist[w]) {
          dist[w] = nd;
          next[w] = this.#reverse[s];
          queue.push(w, nd);
        }
      }
    }
    if (this.#lengthTables) this.#lengthTables.set(dist, t * nodeCount);
    this.tablesMade++;
    return t;
  }
}

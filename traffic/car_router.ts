/**
 * Shortest routes for cars over a {@linkcode LaneNetwork}: A* over links (lanes and connectors)
 * with the straight-line distance as its heuristic, using the `flatqueue` priority queue. A route
 * is the list of connectors to take, lane by lane. Queries reuse their buffers and allocate
 * nothing once the queue has grown.
 *
 * @module
 */
import FlatQueue from "npm:flatqueue@3.1.0";
import type { LaneNetwork } from "./lane_network.ts";

/**
 * Route planner for one lane network.
 *
 * @example The route between two lanes of a procedural city
 * ```ts
 * import { buildLaneNetwork } from "./lane_network.ts";
 * import { CarRouter } from "./car_router.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const network = buildLaneNetwork(generateProceduralCity({ blocksX: 2, blocksY: 2 }));
 * const router = new CarRouter(network);
 * const hops = router.route(0, network.laneCount - 1);
 * assert(hops > 0);
 * // Each connector leaves the lane the previous one entered.
 * assert.equal(network.fromLane[router.path[0]], 0);
 * assert.equal(network.toLane[router.path[hops - 1]], network.laneCount - 1);
 * ```
 */
export class CarRouter {
  /** Connectors of the last route found, in driving order; the first `route()` entries count. */
  readonly path: Int32Array;
  /** Length (m) of the last route found, from the end of the start lane to the end of the goal. */
  length = 0;
  readonly #network: LaneNetwork;
  readonly #g: Float64Array;
  readonly #previous: Int32Array;
  readonly #seen: Uint32Array;
  readonly #endX: Float64Array;
  readonly #endY: Float64Array;
  readonly #queue = new FlatQueue<number>();
  #stamp = 0;

  constructor(network: LaneNetwork) {
    const n = network.linkCount;
    this.#network = network;
    this.path = new Int32Array(Math.max(1, n));
    this.#g = new Float64Array(n);
    this.#previous = new Int32Array(n);
    this.#seen = new Uint32Array(n);
    this.#endX = new Float64Array(n);
    this.#endY = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const last = network.pointStart[k + 1] - 1;
      this.#endX[k] = network.px[last];
      this.#endY[k] = network.py[last];
    }
  }

  /**
   * Finds the shortest route from lane `from` to lane `to` and writes its connectors into
   * {@linkcode CarRouter.path}. Returns their number (0 when `from === to`), or -1 when `to`
   * cannot be reached.
   */
  route(from: number, to: number): number {
    const net = this.#network;
    if (from === to) {
      this.length = 0;
      return 0;
    }
    if (++this.#stamp === 0xffff_ffff) {
      this.#seen.fill(0);
      this.#stamp = 1;
    }
    const stamp = this.#stamp, g = this.#g, previous = this.#previous, seen = this.#seen;
    const endX = this.#endX, endY = this.#endY, goalX = endX[to], goalY = endY[to];
    const queue = this.#queue;
    queue.clear();
    g[from] = 0;
    previous[from] = -1;
    seen[from] = stamp;
    queue.push(from, Math.hypot(endX[from] - goalX, endY[from] - goalY));
    let found = false;
    while (queue.length > 0) {
      const u = queue.pop()!;
      if (u === to) {
        found = true;
        break;
      }
      const gu = g[u];
      if (net.kind[u] === 0) {
        for (let k = net.outStart[u]; k < net.outStart[u + 1]; k++) {
          this.#relax(u, net.outLinks[k], gu, goalX, goalY, stamp);
        }
      } else {
        this.#relax(u, net.toLane[u], gu, goalX, goalY, stamp);
      }
    }
    if (!found) return -1;
    this.length = g[to];
    let hops = 0;
    for (let k = previous[to]; k >= 0; k = previous[k]) if (net.kind[k] === 1) hops++;
    let at = hops;
    for (let k = previous[to]; k >= 0; k = previous[k]) if (net.kind[k] === 1) this.path[--at] = k;
    return hops;
  }

  #relax(u: number, v: number, gu: number, goalX: number, goalY: number, stamp: number): void {
    const gv = gu + this.#network.length[v];
    if (this.#seen[v] === stamp && this.#g[v] <= gv) return;
    this.#seen[v] = stamp;
    this.#g[v] = gv;
    this.#previous[v] = u;
    this.#queue.push(v, gv + Math.hypot(this.#endX[v] - goalX, this.#endY[v] - goalY));
  }
}

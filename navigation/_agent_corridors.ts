/**
 * The corridors the navmesh navigator's agents follow, per agent slot (slots are stable across
 * swap-removes): a buffer of triangles with a moving window, the route's end point, which
 * agent the corridor belongs to, and whether the cached steering corner is still valid.
 *
 * @module
 */
import type { NavMesh } from "./navmesh.ts";
import type { NavPath } from "./path_query.ts";

/** Triangles of the corridor searched for the agent's new triangle after a move. */
const CORRIDOR_LOOKAHEAD = 16;
/** Free entries kept in front of a stored corridor, so that stepping back is cheap. */
const FRONT_SLACK = 4;

/** Corridors of every agent slot, struct of arrays. */
export class AgentCorridors {
  /** Triangle buffer of each slot; the corridor is `buffers[s][head[s] … head[s]+length[s]-1]`. */
  readonly buffers: Int32Array[] = [];
  /** Start of the corridor in its buffer. */
  head: Int32Array = new Int32Array(0);
  /** Triangles in the corridor. */
  length: Int32Array = new Int32Array(0);
  /** End point of the route, x (m): the goal, or the point nearest it for partial paths. */
  endX: Float64Array = new Float64Array(0);
  /** End point of the route, y (m). */
  endY: Float64Array = new Float64Array(0);
  /** Goal the corridor was planned for, x (m): a new goal (arrival policy `next`) re-plans. */
  goalX: Float64Array = new Float64Array(0);
  /** Goal the corridor was planned for, y (m). */
  goalY: Float64Array = new Float64Array(0);
  /** Serial of the agent the corridor was planned for (a slot is reused after a removal). */
  owner: Uint32Array = new Uint32Array(0);
  /** 1 while the cached steering corner is valid for the corridor. */
  fresh: Uint8Array = new Uint8Array(0);
  readonly #neighbors: Int32Array;

  /** Corridors over `mesh`'s triangles. */
  constructor(mesh: NavMesh) {
    this.#neighbors = mesh.neighbors;
  }

  /** Makes room for slots `0 … capacity-1`. */
  ensure(capacity: number): void {
    if (this.head.length >= capacity) return;
    this.head = _grown(this.head, capacity);
    this.length = _grown(this.length, capacity);
    this.endX = _grown(this.endX, capacity);
    this.endY = _grown(this.endY, capacity);
    this.goalX = _grown(this.goalX, capacity);
    this.goalY = _grown(this.goalY, capacity);
    this.owner = _grown(this.owner, capacity);
    this.fresh = _grown(this.fresh, capacity);
    while (this.buffers.length < capacity) this.buffers.push(new Int32Array(0));
  }

  /** Copies `path`'s corridor into `slot` and marks its steering corner stale. */
  store(slot: number, path: NavPath): void {
    if (this.buffers[slot].length < path.corridorLength + 8) {
      this.buffers[slot] = new Int32Array(Math.max(2 * path.corridorLength, 32));
    }
    const buffer = this.buffers[slot];
    const offset = Math.min(FRONT_SLACK, buffer.length - path.corridorLength);
    buffer.set(path.corridor.subarray(0, path.corridorLength), offset);
    this.head[slot] = offset;
    this.length[slot] = path.corridorLength;
    this.fresh[slot] = 0;
  }

  /** First triangle of `slot`'s corridor. */
  first(slot: number): number {
    return this.buffers[slot][this.head[slot]];
  }

  /**
   * Moves the start of `slot`'s corridor to triangle `t`: to where `t` appears among the next
   * few triangles, or in front of the first of them that `t` touches. False when `t` is neither
   * in nor next to the corridor's start (the agent left it).
   */
  advance(slot: number, t: number): boolean {
    const buffer = this.buffers[slot];
    const h = this.head[slot], n = this.length[slot];
    const look = Math.min(n, CORRIDOR_LOOKAHEAD);
    for (let j = 0; j < look; j++) {
      if (buffer[h + j] === t) {
        this.head[slot] = h + j;
        this.length[slot] = n - j;
        return true;
      }
    }
    const nb = this.#neighbors;
    for (let j = 0; j < look; j++) {
      const u = buffer[h + j];
      if (nb[3 * t] !== u && nb[3 * t + 1] !== u && nb[3 * t + 2] !== u) continue;
      // t touches corridor triangle j: the corridor becomes t, then j onwards.
      if (h + j >= 1) {
        this.head[slot] = h + j - 1;
        buffer[h + j - 1] = t;
        this.length[slot] = n - j + 1;
        return true;
      }
      if (n + 1 > buffer.length) return false;
      buffer.copyWithin(1, 0, n);
      buffer[0] = t;
      this.head[slot] = 0;
      this.length[slot] = n + 1;
      return true;
    }
    return false;
  }
}

function _grown<A extends Int32Array | Float64Array | Uint32Array | Uint8Array>(
  a: A,
  capacity: number,
): A {
  const b = new (a.constructor as new (n: number) => A)(capacity);
  b.set(a);
  return b;
}

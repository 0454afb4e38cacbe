/**
 * Recent paths of the agents on the viewer page: a ring of the last positions of every agent,
 * matched across frames by trajectory id, flattened into line segments (deck.gl's line layer
 * draws them from binary attributes without the path layer's tessellation, which costs the
 * page far more for thousands of agents).
 *
 * @module
 */

/** Flattened trails: `x0, y0, x1, y1` per segment (m). */
export interface TrailPaths {
  /** Number of segments. */
  length: number;
  /** `x0, y0, x1, y1` of every segment (m), length `4·length`. */
  segments: Float32Array;
}

/**
 * Keeps the last `samples` positions of each agent (by id), one sample per
 * {@linkcode TrailBuffer.add} call, and forgets agents missing from a sample.
 *
 * @example Three samples of one agent make a trail of two segments
 * ```ts
 * import { TrailBuffer } from "./trail_buffer.ts";
 * import assert from "node:assert/strict";
 * const trails = new TrailBuffer(4);
 * trails.add(Uint32Array.of(7), Float32Array.of(0, 0), 1);
 * trails.add(Uint32Array.of(7), Float32Array.of(1, 0.5), 1);
 * trails.add(Uint32Array.of(7), Float32Array.of(2, 0.5), 1);
 * const paths = trails.paths();
 * assert.equal(paths.length, 2);
 * assert.deepEqual([...paths.segments], [0, 0, 1, 0.5, 1, 0.5, 2, 0.5]);
 * ```
 */
export class TrailBuffer {
  /** Positions kept per agent. */
  readonly samples: number;
  #slots = new Map<number, number>();
  #ring = new Float32Array(0);
  #filled = new Uint16Array(0);
  #head = new Uint16Array(0);
  #ids = new Uint32Array(0);
  #seen = new Uint32Array(0);
  #free: number[] = [];
  #generation = 0;
  #capacity = 0;

  /** @param samples positions kept per agent, 2–1000 */
  constructor(samples = 12) {
    if (!Number.isInteger(samples) || samples < 2 || samples > 1000) {
      throw new RangeError(
        `Cannot create TrailBuffer as 'samples' must be an integer in [2, 1000]: current value is ${samples}`,
      );
    }
    this.samples = samples;
  }

  /** Forgets every trail. */
  clear(): void {
    this.#slots.clear();
    this.#free = [];
    this.#capacity = 0;
  }

  /** Adds one sample: the `count` agents of `ids` at interleaved `positions` (m). */
  add(ids: Uint32Array, positions: Float32Array, count: number): void {
    const gen = ++this.#generation;
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      let slot = this.#slots.get(id);
      if (slot === undefined) {
        slot = this.#allocate();
        this.#slots.set(id, slot);
        this.#ids[slot] = id;
        this.#filled[slot] = 0;
        this.#head[slot] = 0;
      }
      this.#seen[slot] = gen;
      const h = this.#head[slot], o = 2 * (slot * this.samples + h);
      this.#ring[o] = positions[2 * i];
      this.#ring[o + 1] = positions[2 * i + 1];
      this.#head[slot] = (h + 1) % this.samples;
      if (this.#filled[slot] < this.samples) this.#filled[slot]++;
    }
    for (const [id, slot] of this.#slots) {
      if (this.#seen[slot] !== gen) {
        this.#slots.delete(id);
        this.#free.push(slot);
      }
    }
  }

  /** The trails of the agents of the last sample as segments, oldest first per agent. */
  paths(): TrailPaths {
    let count = 0;
    for (const slot of this.#slots.values()) count += Math.max(0, this.#filled[slot] - 1);
    const segments = new Float32Array(4 * count), ring = this.#ring, samples = this.samples;
    let at = 0;
    for (const slot of this.#slots.values()) {
      const filled = this.#filled[slot];
      const first = (this.#head[slot] - filled + samples) % samples;
      for (let k = 1; k < filled; k++) {
        const a = 2 * (slot * samples + ((first + k - 1) % samples));
        const b = 2 * (slot * samples + ((first + k) % samples));
        segments[at++] = ring[a];
        segments[at++] = ring[a + 1];
        segments[at++] = ring[b];
        segments[at++] = ring[b + 1];
      }
    }
    return { length: count, segments };
  }

  #allocate(): number {
    const free = this.#free.pop();
    if (free !== undefined) return free;
    const slot = this.#capacity++;
    if (slot >= this.#ids.length) {
      const size = Math.max(256, this.#ids.length * 2);
      const grow = <T extends Float32Array | Uint16Array | Uint32Array>(
        a: T,
        b: T,
      ): T => (b.set(a as never), b);
      this.#ring = grow(this.#ring, new Float32Array(2 * size * this.samples));
      this.#filled = grow(this.#filled, new Uint16Array(size));
      this.#head = grow(this.#head, new Uint16Array(size));
      this.#ids = grow(this.#ids, new Uint32Array(size));
      this.#seen = grow(this.#seen, new Uint32Array(size));
    }
    return slot;
  }
}

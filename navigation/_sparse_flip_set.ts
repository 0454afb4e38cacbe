/**
 * A drop-in replacement for Constrainautor's set of edges to re-check after a flip: it visits
 * only the bytes that hold set bits, where the original scans the whole bit array after every
 * constrained edge (quadratic in the edge count of a large piece: about 3 s of a city centre's
 * mesh). Iteration order and semantics are those of the original `BitSet8.forEach` — ids
 * ascending; a bit set during the iteration at a higher id is visited in the same pass, one at
 * a lower id in the next — so triangulations are bit-for-bit the same. Build-time only.
 *
 * @module
 */

const W = 8;

/** A set of edge ids (`0 ≤ id < length`) stored as bits, with a queue of non-empty bytes. */
export class SparseFlipSet {
  /** Bits, `W` per byte. */
  readonly bs: Uint8Array;
  /** Bits per byte. */
  readonly W = W;
  /** 1 while a byte is in the heap or the deferred list. */
  #queued: Uint8Array;
  /** Min-heap of byte indices that may hold set bits. */
  #heap: Int32Array;
  #size = 0;
  /** Bytes set at or below the current byte during a `forEach`, queued after it. */
  #deferred: number[] = [];
  /** Byte being visited by `forEach`, or -1. */
  #current = -1;

  /** @param length number of ids the set can hold */
  constructor(length: number) {
    const bytes = Math.ceil(length / W);
    this.bs = new Uint8Array(bytes);
    this.#queued = new Uint8Array(bytes);
    this.#heap = new Int32Array(Math.max(bytes, 1));
  }

  /** Adds `idx`. */
  add(idx: number): this {
    const byte = (idx / W) | 0;
    this.bs[byte] |= 1 << (idx % W);
    this.#mark(byte);
    return this;
  }

  /** Removes `idx`. */
  delete(idx: number): this {
    const byte = (idx / W) | 0;
    this.bs[byte] &= ~(1 << (idx % W));
    return this;
  }

  /** Adds `idx` when `val` is true, removes it otherwise; returns `val`. */
  set(idx: number, val: boolean): boolean {
    if (val) this.add(idx);
    else this.delete(idx);
    return val;
  }

  /** Whether `idx` is in the set. */
  has(idx: number): boolean {
    return (this.bs[(idx / W) | 0] & (1 << (idx % W))) !== 0;
  }

  /** Calls `fn` with every id in the set, ascending (see the module notes for changes during it). */
  forEach(fn: (idx: number) => void): this {
    const bs = this.bs;
    while (this.#size > 0) {
      const byte = this.#pop();
      this.#queued[byte] = 0;
      this.#current = byte;
      let bit = 0;
      while (bs[byte] && bit < W) {
        if (bs[byte] & (1 << bit)) fn(byte * W + bit);
        bit++;
      }
      this.#current = -1;
      if (bs[byte] !== 0 && this.#queued[byte] === 0) {
        this.#queued[byte] = 1;
        this.#deferred.push(byte);
      }
    }
    for (const byte of this.#deferred) this.#push(byte);
    this.#deferred.length = 0;
    return this;
  }

  #mark(byte: number): void {
    if (this.#queued[byte]) return;
    this.#queued[byte] = 1;
    if (this.#current >= 0 && byte <= this.#current) this.#deferred.push(byte);
    else this.#push(byte);
  }

  #push(byte: number): void {
    const h = this.#heap;
    let i = this.#size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p] <= byte) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = byte;
  }

  #pop(): number {
    const h = this.#heap;
    const top = h[0];
    const n = --this.#size;
    const last = h[n];
    let i = 0;
    while (true) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && h[c + 1] < h[c]) c++;
      if (h[c] >= last) break;
      h[i] = h[c];
      i = c;
    }
    if (n > 0) h[i] = last;
    return top;
  }
}

/**
 * A first-in first-out queue of agent handles (a growing ring buffer): agents waiting for a
 * path query.
 *
 * @module
 */

/** FIFO of agent handles; grows by doubling, never shrinks. */
export class HandleQueue {
  /** Handles waiting. */
  count = 0;
  // Handles are index plus generation and may exceed 2^32: stored as doubles.
  #items = new Float64Array(64);
  #start = 0;

  /** Appends a handle. */
  push(handle: number): void {
    if (this.count === this.#items.length) {
      const grown = new Float64Array(this.#items.length * 2);
      for (let k = 0; k < this.count; k++) {
        grown[k] = this.#items[(this.#start + k) % this.#items.length];
      }
      this.#items = grown;
      this.#start = 0;
    }
    this.#items[(this.#start + this.count) % this.#items.length] = handle;
    this.count++;
  }

  /** Removes and returns the oldest handle; call only while `count > 0`. */
  shift(): number {
    const handle = this.#items[this.#start];
    this.#start = (this.#start + 1) % this.#items.length;
    this.count--;
    return handle;
  }
}

/**
 * The gates (`via` segments) of every spawner, flattened into typed arrays for the per-agent
 * loop: spawner `g` owns gates `start[g] … start[g + 1] - 1`.
 *
 * @module
 */
import type { Gate } from "../core/population.ts";

/** Gates of all spawners, indexed by spawner (the agents' `group`) and route position. */
export class SpawnerGates {
  /** Gate start x (m). */
  ax: Float64Array = new Float64Array(0);
  /** Gate start y (m). */
  ay: Float64Array = new Float64Array(0);
  /** Gate end x (m). */
  bx: Float64Array = new Float64Array(0);
  /** Gate end y (m). */
  by: Float64Array = new Float64Array(0);
  #start = new Int32Array(1);
  #spawnerCount = -1;

  /** Total number of gates. */
  get count(): number {
    return this.#spawnerCount > 0 ? this.#start[this.#spawnerCount] : 0;
  }

  /** Re-reads the gates when the number of spawners changed. */
  refresh(spawners: readonly { readonly via: readonly Gate[] }[]): void {
    if (spawners.length === this.#spawnerCount) return;
    const n = this.#spawnerCount = spawners.length;
    this.#start = new Int32Array(n + 1);
    let total = 0;
    spawners.forEach((s, g) => {
      this.#start[g] = total;
      total += s.via.length;
    });
    this.#start[n] = total;
    this.ax = new Float64Array(total);
    this.ay = new Float64Array(total);
    this.bx = new Float64Array(total);
    this.by = new Float64Array(total);
    spawners.forEach((s, g) => {
      s.via.forEach((gate, k) => {
        const j = this.#start[g] + k;
        this.ax[j] = gate.ax;
        this.ay[j] = gate.ay;
        this.bx[j] = gate.bx;
        this.by[j] = gate.by;
      });
    });
  }

  /** Index of gate number `next` on spawner `group`'s route, or -1 past its last gate. */
  gateOf(group: number, next: number): number {
    if (group < 0 || group >= this.#spawnerCount) return -1;
    const j = this.#start[group] + next;
    return j < this.#start[group + 1] ? j : -1;
  }
}

/**
 * Counting gates: line segments across a street, like the screen lines of pedestrian counts, and
 * an observer that counts walkers crossing each of them in either direction.
 *
 * A walker crosses a gate when its step takes it from one side of the gate's line to the other
 * (a point on the line counts as the left side, so standing on it counts once) through the
 * segment. Gates are looked up in a grid, so each walker tests only the gates near it.
 *
 * @module
 */
import type { World, WorldObserver } from "../core/world.ts";

/** A counting gate (m). */
export interface CountGate {
  /** Name in results. */
  readonly id: string;
  /** One end (m). */
  readonly ax: number;
  /** One end (m). */
  readonly ay: number;
  /** The other end (m). */
  readonly bx: number;
  /** The other end (m). */
  readonly by: number;
}

/** Options of {@linkcode GateCounts}. */
export interface GateCountsOptions {
  /** First step counted (steps before it are a warm-up). @default 0 */
  fromStep?: number;
}

const PREV_X = "gates.prevX";
const PREV_Y = "gates.prevY";
/** 1 once an agent's previous position is known. */
const SEEN = "gates.seen";
/** Grid cell of the gate lookup (m). */
const CELL = 32;

/**
 * Counts crossings of gates (see the module doc).
 *
 * @example One walker through a doorway
 * ```ts
 * import { GateCounts } from "./count_gates.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1 });
 * const gates = new GateCounts([{ id: "door", ax: 5, ay: -1, bx: 5, by: 1 }]);
 * world.addObserver(gates);
 * while (!world.finished) world.step();
 * assert.equal(gates.counts[0], 1);
 * ```
 */
export class GateCounts implements WorldObserver {
  /** The gates. */
  readonly gates: readonly CountGate[];
  /** Crossings per gate. */
  readonly counts: Uint32Array;
  /** Steps counted so far. */
  steps = 0;
  readonly #fromStep: number;
  readonly #originX: number;
  readonly #originY: number;
  readonly #cols: number;
  readonly #rows: number;
  readonly #cellStart: Uint32Array;
  readonly #cellItems: Uint32Array;

  /** Counts crossings of `gates`. Throws a RangeError for a gate with non-finite ends. */
  constructor(gates: readonly CountGate[], options: GateCountsOptions = {}) {
    this.gates = gates;
    this.counts = new Uint32Array(gates.length);
    this.#fromStep = options.fromStep ?? 0;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const g of gates) {
      if (![g.ax, g.ay, g.bx, g.by].every(Number.isFinite)) {
        throw new RangeError(`Cannot count gate '${g.id}' as its ends must be finite numbers`);
      }
      minX = Math.min(minX, g.ax, g.bx);
      minY = Math.min(minY, g.ay, g.by);
      maxX = Math.max(maxX, g.ax, g.bx);
      maxY = Math.max(maxY, g.ay, g.by);
    }
    if (gates.length === 0) {
      minX =
        minY =
        maxX =
        maxY =
          0;
    }
    this.#originX = minX - CELL;
    this.#originY = minY - CELL;
    this.#cols = Math.floor((maxX - minX) / CELL) + 3;
    this.#rows = Math.floor((maxY - minY) / CELL) + 3;
    const cells = this.#cols * this.#rows;
    const lists: number[][] = Array.from({ length: cells }, () => []);
    gates.forEach((g, k) => {
      // Every cell the gate's box (grown by a cell, for walkers about to cross) overlaps.
      const c0 = this.#col(Math.min(g.ax, g.bx)) - 1, c1 = this.#col(Math.max(g.ax, g.bx)) + 1;
      const r0 = this.#row(Math.min(g.ay, g.by)) - 1, r1 = this.#row(Math.max(g.ay, g.by)) + 1;
      for (let r = Math.max(0, r0); r <= Math.min(this.#rows - 1, r1); r++) {
        for (let c = Math.max(0, c0); c <= Math.min(this.#cols - 1, c1); c++) {
          lists[r * this.#cols + c].push(k);
        }
      }
    });
    this.#cellStart = new Uint32Array(cells + 1);
    lists.forEach((l, c) => this.#cellStart[c + 1] = this.#cellStart[c] + l.length);
    this.#cellItems = Uint32Array.from(lists.flat());
  }

  /** Registers the previous-position columns. */
  attach(world: World): void {
    for (const name of [PREV_X, PREV_Y]) {
      world.agents.registerColumn({ name, type: "f64", doc: "position last step (m)" });
    }
    world.agents.registerColumn({ name: SEEN, type: "u8", doc: "1 once the position is known" });
  }

  /** Counts the crossings of the step. */
  afterStep(world: World): void {
    const a = world.agents;
    const prevX = a.column(PREV_X), prevY = a.column(PREV_Y);
    const seen = a.column<Uint8Array>(SEEN);
    const counting = world.stepIndex > this.#fromStep;
    if (counting) this.steps++;
    const gates = this.gates, start = this.#cellStart, items = this.#cellItems;
    for (let i = 0; i < a.count; i++) {
      const x1 = a.px[i], y1 = a.py[i], x0 = prevX[i], y0 = prevY[i];
      prevX[i] = x1;
      prevY[i] = y1;
      const known = seen[i] === 1;
      seen[i] = 1;
      if (!counting || !known) continue;
      const c = this.#col(x1), r = this.#row(y1);
      if (c < 0 || r < 0 || c >= this.#cols || r >= this.#rows) continue;
      const cell = r * this.#cols + c;
      for (let k = start[cell]; k < start[cell + 1]; k++) {
        const g = gates[items[k]];
        if (_crosses(g, x0, y0, x1, y1)) this.counts[items[k]]++;
      }
    }
  }

  #col(x: number): number {
    return Math.floor((x - this.#originX) / CELL);
  }

  #row(y: number): number {
    return Math.floor((y - this.#originY) / CELL);
  }
}

/** True when the move (x0, y0) → (x1, y1) goes from one side of `g` to the other through it. */
function _crosses(g: CountGate, x0: number, y0: number, x1: number, y1: number): boolean {
  const gx = g.bx - g.ax, gy = g.by - g.ay;
  const s0 = gx * (y0 - g.ay) - gy * (x0 - g.ax);
  const s1 = gx * (y1 - g.ay) - gy * (x1 - g.ax);
  if ((s0 < 0) === (s1 < 0)) return false;
  // Where the move meets the gate's line, as a fraction along the gate.
  const mx = x1 - x0, my = y1 - y0;
  const denom = gx * my - gy * mx;
  if (denom === 0) return false;
  const u = ((x0 - g.ax) * my - (y0 - g.ay) * mx) / denom;
  return u >= 0 && u <= 1;
}

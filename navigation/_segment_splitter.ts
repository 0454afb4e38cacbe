/**
 * T-junction detection: which vertices of a vertex table lie inside a segment. Build-time only.
 *
 * @module
 */

/** Finds the vertices lying on a segment (T-junctions) with a uniform grid over the vertices. */
export class SegmentSplitter {
  #coords: Float64Array;
  #tol: number;
  #cell: number;
  #minX = Infinity;
  #minY = Infinity;
  #cols = 1;
  #rows = 1;
  #start: Int32Array;
  #items: Int32Array;
  #stamp: Int32Array;
  #stampNow = 0;

  constructor(coords: Float64Array, count: number, tolerance: number) {
    this.#coords = coords;
    this.#tol = tolerance;
    let maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < count; i++) {
      this.#minX = Math.min(this.#minX, coords[2 * i]);
      this.#minY = Math.min(this.#minY, coords[2 * i + 1]);
      maxX = Math.max(maxX, coords[2 * i]);
      maxY = Math.max(maxY, coords[2 * i + 1]);
    }
    const w = Math.max(maxX - this.#minX, 1e-9), h = Math.max(maxY - this.#minY, 1e-9);
    this.#cell = Math.max(
      Math.sqrt((w * h) / Math.max(1, count)),
      tolerance * 4,
      w / 4000,
      h / 4000,
      1e-6,
    );
    this.#cols = Math.floor(w / this.#cell) + 1;
    this.#rows = Math.floor(h / this.#cell) + 1;
    const cells = this.#cols * this.#rows;
    const counts = new Int32Array(cells + 1);
    const cellOf = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      cellOf[i] = this.#cellIndex(coords[2 * i], coords[2 * i + 1]);
      counts[cellOf[i] + 1]++;
    }
    for (let c = 0; c < cells; c++) counts[c + 1] += counts[c];
    this.#start = counts.slice();
    this.#items = new Int32Array(count);
    const fill = counts.slice();
    for (let i = 0; i < count; i++) this.#items[fill[cellOf[i]]++] = i;
    this.#stamp = new Int32Array(count);
  }

  #cellIndex(x: number, y: number): number {
    const cx = Math.min(this.#cols - 1, Math.max(0, Math.floor((x - this.#minX) / this.#cell)));
    const cy = Math.min(this.#rows - 1, Math.max(0, Math.floor((y - this.#minY) / this.#cell)));
    return cy * this.#cols + cx;
  }

  /** Vertex ids strictly inside segment a–b (within the tolerance), ordered from a to b. */
  pointsOn(a: number, b: number): number[] {
    const c = this.#coords, tol = this.#tol;
    const ax = c[2 * a], ay = c[2 * a + 1], bx = c[2 * b], by = c[2 * b + 1];
    const ex = bx - ax, ey = by - ay, len2 = ex * ex + ey * ey;
    if (len2 === 0) return [];
    const len = Math.sqrt(len2);
    const found: { id: number; t: number }[] = [];
    const stamp = ++this.#stampNow;
    const steps = Math.ceil(len / (this.#cell * 0.5)) + 1;
    // A short segment: the cells of its box (grown by the tolerance), each once; a long one:
    // the 3 × 3 cells around points every half cell along it.
    const cell = this.#cell;
    const x0 = Math.floor((Math.min(ax, bx) - tol - this.#minX) / cell),
      x1 = Math.floor((Math.max(ax, bx) + tol - this.#minX) / cell);
    const y0 = Math.floor((Math.min(ay, by) - tol - this.#minY) / cell),
      y1 = Math.floor((Math.max(ay, by) + tol - this.#minY) / cell);
    if ((x1 - x0 + 1) * (y1 - y0 + 1) <= 9 * (steps + 1)) {
      for (let gy = Math.max(0, y0); gy <= Math.min(this.#rows - 1, y1); gy++) {
        for (let gx = Math.max(0, x0); gx <= Math.min(this.#cols - 1, x1); gx++) {
          this.#scanCell(gy * this.#cols + gx, a, b, stamp, found);
        }
      }
    } else {
      for (let s = 0; s <= steps; s++) {
        const px = ax + (ex * s) / steps, py = ay + (ey * s) / steps;
        const cx = Math.floor((px - this.#minX) / cell), cy = Math.floor((py - this.#minY) / cell);
        for (let gy = cy - 1; gy <= cy + 1; gy++) {
          if (gy < 0 || gy >= this.#rows) continue;
          for (let gx = cx - 1; gx <= cx + 1; gx++) {
            if (gx < 0 || gx >= this.#cols) continue;
            this.#scanCell(gy * this.#cols + gx, a, b, stamp, found);
          }
        }
      }
    }
    found.sort((p, q) => p.t - q.t);
    return found.map((f) => f.id);
  }

  /** Adds the vertices of `cell` lying inside segment a–b (not yet stamped) to `found`. */
  #scanCell(
    cell: number,
    a: number,
    b: number,
    stamp: number,
    found: { id: number; t: number }[],
  ): void {
    const c = this.#coords, tol = this.#tol;
    const ax = c[2 * a], ay = c[2 * a + 1], ex = c[2 * b] - ax, ey = c[2 * b + 1] - ay;
    const len2 = ex * ex + ey * ey, len = Math.sqrt(len2);
    for (let k = this.#start[cell]; k < this.#start[cell + 1]; k++) {
      const v = this.#items[k];
      if (v === a || v === b || this.#stamp[v] === stamp) continue;
      this.#stamp[v] = stamp;
      const vx = c[2 * v] - ax, vy = c[2 * v + 1] - ay;
      const t = (vx * ex + vy * ey) / len2;
      if (t * len <= tol || (1 - t) * len <= tol) continue;
      const dist = Math.abs(vx * ey - vy * ex) / len;
      if (dist <= tol) found.push({ id: v, t });
    }
  }

  /** The ring with every edge split at the vertices lying on it. */
  splitRing(ring: number[]): number[] {
    const out: number[] = [];
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i], b = ring[(i + 1) % ring.length];
      out.push(a);
      for (const v of this.pointsOn(a, b)) out.push(v);
    }
    return out;
  }
}

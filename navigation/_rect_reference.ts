/**
 * Test reference for paths in grid-city blocks, written independently of the visibility graph:
 * a block as a rectangle minus axis-aligned rectangles grown by the agent radius, and the exact
 * shortest path in it by an exhaustive visibility graph — every rectangle corner, every pair
 * tested against every rectangle, Dijkstra without a heap. Tests allow 0.2 mm of slack: the
 * free space under test is rounded to 0.1 mm.
 *
 * @module
 */
import type { CityModel, CityRing } from "../geo/city_model.ts";

type Box = [number, number, number, number];

/** Tolerance (m) of the inside tests. */
const SLACK = 2e-4;

function box(ring: CityRing): Box {
  const xs = ring.map((p) => p[0]), ys = ring.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** A block of a generated city as rectangles. */
export class RectBlock {
  /** Walkable rectangle: the block shrunk by the radius. */
  readonly outer: Box;
  /** Obstacles grown by the radius. */
  readonly holes: Box[];

  constructor(city: CityModel, block: number, radius: number) {
    const b = city.blocks![block];
    const [x0, y0, x1, y1] = box(b.polygon[0]);
    this.outer = [x0 + radius, y0 + radius, x1 - radius, y1 - radius];
    const grow = ([a, b, c, d]: Box): Box => [a - radius, b - radius, c + radius, d + radius];
    this.holes = b.buildings.map((k) => grow(box(city.buildings[k].polygon[0])));
    for (const f of city.furniture) {
      const fb = box(f.polygon);
      if (fb[0] >= x0 && fb[2] <= x1 && fb[1] >= y0 && fb[3] <= y1) this.holes.push(grow(fb));
    }
  }

  /** In the walkable rectangle and not inside any grown obstacle by more than 0.2 mm. */
  free(x: number, y: number): boolean {
    const e = SLACK, [x0, y0, x1, y1] = this.outer;
    if (x < x0 - e || x > x1 + e || y < y0 - e || y > y1 + e) return false;
    return !this.holes.some(([a, b, c, d]) => x > a + e && x < c - e && y > b + e && y < d - e);
  }

  /** The segment does not pass through the open interior of any obstacle (Liang–Barsky). */
  clear(ax: number, ay: number, bx: number, by: number): boolean {
    if (!this.free(ax, ay) || !this.free(bx, by)) return false;
    const dx = bx - ax, dy = by - ay, e = SLACK;
    for (const [x0, y0, x1, y1] of this.holes) {
      let t0 = 0, t1 = 1;
      const clip = (p: number, q: number) => {
        if (p === 0) return q >= 0;
        const r = q / p;
        if (p < 0) t0 = Math.max(t0, r);
        else t1 = Math.min(t1, r);
        return t0 <= t1;
      };
      if (
        clip(-dx, ax - x0) && clip(dx, x1 - ax) && clip(-dy, ay - y0) && clip(dy, y1 - ay) &&
        t1 - t0 > 1e-9
      ) {
        const t = (t0 + t1) / 2, x = ax + t * dx, y = ay + t * dy;
        if (x > x0 + e && x < x1 - e && y > y0 + e && y < y1 - e) return false;
      }
    }
    return true;
  }

  /** Length of the shortest path from a to b, Infinity when there is none. */
  shortest(ax: number, ay: number, bx: number, by: number): number {
    const nodes: [number, number][] = [[ax, ay], [bx, by]];
    for (const [x0, y0, x1, y1] of [...this.holes, this.outer]) {
      for (const p of [[x0, y0], [x1, y0], [x1, y1], [x0, y1]] as [number, number][]) {
        if (this.free(p[0], p[1])) nodes.push(p);
      }
    }
    const n = nodes.length, dist = new Float64Array(n).fill(Infinity), done = new Uint8Array(n);
    dist[0] = 0;
    for (;;) {
      let u = -1;
      for (let k = 0; k < n; k++) if (!done[k] && (u < 0 || dist[k] < dist[u])) u = k;
      if (u < 0 || dist[u] === Infinity) return Infinity;
      if (u === 1) return dist[1];
      done[u] = 1;
      for (let v = 0; v < n; v++) {
        if (done[v]) continue;
        const d = dist[u] + Math.hypot(nodes[v][0] - nodes[u][0], nodes[v][1] - nodes[u][1]);
        if (d < dist[v] && this.clear(nodes[u][0], nodes[u][1], nodes[v][0], nodes[v][1])) {
          dist[v] = d;
        }
      }
    }
  }
}

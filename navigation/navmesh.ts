/**
 * The navigation mesh: triangles over the walkable area, each on one surface, with the
 * clearance band along walls marked off, border edges for the strategies, and the queries
 * navigation needs in its hot loops (point location, walking across edges, heights).
 *
 * A mesh is built once by {@linkcode buildNavMesh} and then read-only: every array is frozen
 * in place by convention (they are typed arrays, shared by all agents and queries).
 *
 * Layout, Detour style: triangle `t` has vertices `triangles[3t + k]` (counter-clockwise) and
 * edge `k` runs from vertex `k` to vertex `k + 1 (mod 3)`; `neighbors[3t + k]` is the triangle
 * across edge `k` or -1 at a border, `twins[3t + k]` the index of the same edge in that
 * neighbour. Triangles inside the walkable area eroded by the clearance are `clear`: paths are
 * planned over clear triangles only, through `planNeighbors`.
 *
 * @module
 */
import type { StaticObstacles } from "../core/obstacles.ts";
import { passageWidths } from "./_passage_width.ts";
import type { BorderEdges } from "./border_edges.ts";
import type { Surface } from "./surface.ts";
import type { PolygonWithHoles } from "./walkable_area.ts";

/** Everything a {@linkcode NavMesh} is made of; produced by the builder. */
export interface NavMeshData {
  /** Vertex coordinates `[x0, y0, …]` (m). */
  readonly coords: Float64Array;
  /** Vertex indices, three per triangle, counter-clockwise. */
  readonly triangles: Uint32Array;
  /** Triangle across each edge, -1 at a border. */
  readonly neighbors: Int32Array;
  /** Index of each edge in the neighbouring triangle, -1 at a border. */
  readonly twins: Int8Array;
  /** Surface of each triangle. */
  readonly surfaceOf: Int32Array;
  /** 1 for triangles inside the clearance-eroded area (plannable). */
  readonly clear: Uint8Array;
  /** The surfaces. */
  readonly surfaces: readonly Surface[];
  /** Merged border edges of the walkable area. */
  readonly border: BorderEdges;
  /** Erosion distance of the clear area (m). */
  readonly clearance: number;
  /** The walkable area after clean-up (m). */
  readonly walkableArea: readonly PolygonWithHoles[];
  /** The walkable area eroded by the clearance (m): where paths run. */
  readonly clearArea: readonly PolygonWithHoles[];
}

/**
 * A built navigation mesh. See the module doc for the array layout.
 *
 * @example Locate a point and read its height
 * ```ts
 * import { buildNavMesh } from "./navmesh_builder.ts";
 * import assert from "node:assert/strict";
 * const mesh = buildNavMesh({ walkable: [[[[0, 0], [10, 0], [10, 10], [0, 10]]]] }, { clearance: 0 });
 * const t = mesh.locate(2, 3);
 * assert(t >= 0);
 * assert.equal(mesh.heightAt(t, 2, 3), 0);
 * ```
 */
export class NavMesh {
  /** Vertex coordinates `[x0, y0, …]` (m). */
  readonly coords: Float64Array;
  /** Number of vertices. */
  readonly vertexCount: number;
  /** Vertex indices, three per triangle, counter-clockwise. */
  readonly triangles: Uint32Array;
  /** Number of triangles. */
  readonly triangleCount: number;
  /** Triangle across each edge, -1 at a border. */
  readonly neighbors: Int32Array;
  /** Index of each edge in the neighbouring triangle, -1 at a border. */
  readonly twins: Int8Array;
  /** Like `neighbors`, but -1 unless both triangles are clear: the graph paths use. */
  readonly planNeighbors: Int32Array;
  /** Surface of each triangle. */
  readonly surfaceOf: Int32Array;
  /** 1 for clear (plannable) triangles. */
  readonly clear: Uint8Array;
  /** Connected component of each clear triangle in the plan graph, -1 for the others. */
  readonly planComponent: Int32Array;
  /** 1 for vertices on the border of the plan graph (where a shortest path may turn). */
  readonly corner: Uint8Array;
  /** Passage width (m) through clear triangle `t` between the two edges at vertex `k`: `widths[3t + k]`. */
  readonly widths: Float64Array;
  /** The surfaces, indexed by `surfaceOf`. */
  readonly surfaces: readonly Surface[];
  /** Merged border edges of the walkable area: the obstacles strategies see. */
  readonly border: BorderEdges;
  /** Erosion of the clear area (m). */
  readonly clearance: number;
  /** The walkable area after clean-up (m). */
  readonly walkableArea: readonly PolygonWithHoles[];
  /** The walkable area eroded by the clearance (m). */
  readonly clearArea: readonly PolygonWithHoles[];
  /** Number of edges joining triangles of different surfaces (counted once each). */
  readonly connectingEdgeCount: number;

  // Point location: uniform grid of triangle ids by bounding box.
  #minX = 0;
  #minY = 0;
  #cell = 1;
  #cols = 1;
  #rows = 1;
  #cellStart: Int32Array;
  #cellItems: Int32Array;
  #stamp: Int32Array;
  #stampNow = 0;
  #bordersAddedTo = new WeakSet<StaticObstacles>();

  constructor(data: NavMeshData) {
    this.coords = data.coords;
    this.vertexCount = data.coords.length >> 1;
    this.triangles = data.triangles;
    this.triangleCount = data.triangles.length / 3;
    this.neighbors = data.neighbors;
    this.twins = data.twins;
    this.surfaceOf = data.surfaceOf;
    this.clear = data.clear;
    this.surfaces = data.surfaces;
    this.border = data.border;
    this.clearance = data.clearance;
    this.walkableArea = data.walkableArea;
    this.clearArea = data.clearArea;
    const T = this.triangleCount;
    this.planNeighbors = new Int32Array(3 * T);
    let connecting = 0;
    for (let t = 0; t < T; t++) {
      for (let k = 0; k < 3; k++) {
        const n = data.neighbors[3 * t + k];
        this.planNeighbors[3 * t + k] = n >= 0 && data.clear[t] && data.clear[n] ? n : -1;
        if (n > t && data.surfaceOf[n] !== data.surfaceOf[t]) connecting++;
      }
    }
    this.connectingEdgeCount = connecting;
    this.corner = new Uint8Array(this.vertexCount);
    for (let t = 0; t < T; t++) {
      if (!data.clear[t]) continue;
      for (let k = 0; k < 3; k++) {
        if (this.planNeighbors[3 * t + k] >= 0) continue;
        this.corner[data.triangles[3 * t + k]] = 1;
        this.corner[data.triangles[3 * t + (k + 1) % 3]] = 1;
      }
    }
    this.widths = passageWidths(
      this.coords,
      this.triangles,
      this.planNeighbors,
      this.twins,
      this.clear,
      this.corner,
    );
    this.planComponent = new Int32Array(T).fill(-1);
    const stack: number[] = [];
    let component = 0;
    for (let t = 0; t < T; t++) {
      if (!data.clear[t] || this.planComponent[t] >= 0) continue;
      this.planComponent[t] = component;
      stack.push(t);
      while (stack.length) {
        const u = stack.pop()!;
        for (let k = 0; k < 3; k++) {
          const n = this.planNeighbors[3 * u + k];
          if (n >= 0 && this.planComponent[n] < 0) {
            this.planComponent[n] = component;
            stack.push(n);
          }
        }
      }
      component++;
    }
    [this.#cellStart, this.#cellItems] = this.#buildLocator();
    this.#stamp = new Int32Array(T);
  }

  /** Bounding box `[minX, minY, maxX, maxY]` of the mesh (m). */
  get bounds(): [number, number, number, number] {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < this.coords.length; i += 2) {
      minX = Math.min(minX, this.coords[i]);
      maxX = Math.max(maxX, this.coords[i]);
      minY = Math.min(minY, this.coords[i + 1]);
      maxY = Math.max(maxY, this.coords[i + 1]);
    }
    return [minX, minY, maxX, maxY];
  }

  /** Area of triangle `t` (m²). */
  triangleArea(t: number): number {
    const c = this.coords, v = this.triangles;
    const a = v[3 * t], b = v[3 * t + 1], d = v[3 * t + 2];
    return ((c[2 * b] - c[2 * a]) * (c[2 * d + 1] - c[2 * a + 1]) -
      (c[2 * b + 1] - c[2 * a + 1]) * (c[2 * d] - c[2 * a])) / 2;
  }

  /** True when (`x`, `y`) lies in triangle `t` or on its edges (within `eps` m). */
  contains(t: number, x: number, y: number, eps = 1e-9): boolean {
    const c = this.coords, v = this.triangles;
    for (let k = 0; k < 3; k++) {
      const a = v[3 * t + k], b = v[3 * t + (k + 1) % 3];
      const ax = c[2 * a], ay = c[2 * a + 1], ex = c[2 * b] - ax, ey = c[2 * b + 1] - ay;
      const cross = ex * (y - ay) - ey * (x - ax);
      if (cross < -eps * Math.sqrt(ex * ex + ey * ey)) return false;
    }
    return true;
  }

  /** The triangle containing (`x`, `y`), or -1 when the point is off the mesh. */
  locate(x: number, y: number): number {
    const cx = Math.floor((x - this.#minX) / this.#cell),
      cy = Math.floor((y - this.#minY) / this.#cell);
    if (cx < 0 || cy < 0 || cx >= this.#cols || cy >= this.#rows) return -1;
    const cell = cy * this.#cols + cx;
    for (let k = this.#cellStart[cell]; k < this.#cellStart[cell + 1]; k++) {
      const t = this.#cellItems[k];
      if (this.contains(t, x, y)) return t;
    }
    return -1;
  }

  /**
   * Walks from triangle `from` towards (`x`, `y`) across shared edges, at most `maxSteps`
   * triangles. Returns the triangle containing the point; or `~t` (a negative number) where `t`
   * is the last triangle reached when a border edge, or the step limit, stops the walk. A walk
   * only ever crosses edges of the mesh, so surfaces change only across connecting edges.
   */
  walk(from: number, x: number, y: number, maxSteps = 64): number {
    const c = this.coords, v = this.triangles, nb = this.neighbors;
    let t = from;
    for (let step = 0; step < maxSteps; step++) {
      // Leave through the open edge the point lies furthest beyond.
      let exit = -1, worst = -1e-9, blocked = false;
      for (let k = 0; k < 3; k++) {
        const a = v[3 * t + k], b = v[3 * t + (k + 1) % 3];
        const ax = c[2 * a], ay = c[2 * a + 1], ex = c[2 * b] - ax, ey = c[2 * b + 1] - ay;
        const side = (ex * (y - ay) - ey * (x - ax)) / Math.sqrt(ex * ex + ey * ey);
        if (side >= -1e-9) continue;
        if (nb[3 * t + k] < 0) blocked = true;
        else if (side < worst) {
          worst = side;
          exit = k;
        }
      }
      if (exit < 0) return blocked ? ~t : t;
      const n = nb[3 * t + exit];
      t = n;
    }
    return ~t;
  }

  /** Distance (m) from (`x`, `y`) to triangle `t`; 0 inside it. */
  distanceToTriangle(t: number, x: number, y: number): number {
    if (this.contains(t, x, y)) return 0;
    const c = this.coords, v = this.triangles;
    let best = Infinity;
    for (let e = 0; e < 3; e++) {
      const a = v[3 * t + e], b = v[3 * t + (e + 1) % 3];
      const ax = c[2 * a], ay = c[2 * a + 1], ex = c[2 * b] - ax, ey = c[2 * b + 1] - ay;
      const len2 = ex * ex + ey * ey;
      let s = len2 > 0 ? ((x - ax) * ex + (y - ay) * ey) / len2 : 0;
      s = s < 0 ? 0 : s > 1 ? 1 : s;
      const dx = ax + s * ex - x, dy = ay + s * ey - y;
      best = Math.min(best, dx * dx + dy * dy);
    }
    return Math.sqrt(best);
  }

  /**
   * Writes into `out[0]`, `out[1]` the point of a clear triangle nearest to (`x`, `y`) within
   * `maxDistance` (m), and returns that triangle, or -1 when there is none.
   */
  nearestClearPoint(x: number, y: number, maxDistance: number, out: Float64Array): number {
    const inside = this.locate(x, y);
    if (inside >= 0 && this.clear[inside]) {
      out[0] = x;
      out[1] = y;
      return inside;
    }
    const c = this.coords, v = this.triangles;
    const x0 = Math.max(0, Math.floor((x - maxDistance - this.#minX) / this.#cell));
    const x1 = Math.min(this.#cols - 1, Math.floor((x + maxDistance - this.#minX) / this.#cell));
    const y0 = Math.max(0, Math.floor((y - maxDistance - this.#minY) / this.#cell));
    const y1 = Math.min(this.#rows - 1, Math.floor((y + maxDistance - this.#minY) / this.#cell));
    const stamp = ++this.#stampNow;
    let best = -1, bestD2 = maxDistance * maxDistance;
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const cell = cy * this.#cols + cx;
        for (let k = this.#cellStart[cell]; k < this.#cellStart[cell + 1]; k++) {
          const t = this.#cellItems[k];
          if (!this.clear[t] || this.#stamp[t] === stamp) continue;
          this.#stamp[t] = stamp;
          // Nearest point of the triangle: the point itself when inside, else of an edge.
          if (this.contains(t, x, y)) {
            out[0] = x;
            out[1] = y;
            return t;
          }
          for (let e = 0; e < 3; e++) {
            const a = v[3 * t + e], b = v[3 * t + (e + 1) % 3];
            const ax = c[2 * a], ay = c[2 * a + 1], ex = c[2 * b] - ax, ey = c[2 * b + 1] - ay;
            const len2 = ex * ex + ey * ey;
            let s = len2 > 0 ? ((x - ax) * ex + (y - ay) * ey) / len2 : 0;
            s = s < 0 ? 0 : s > 1 ? 1 : s;
            const px = ax + s * ex, py = ay + s * ey;
            const d2 = (px - x) * (px - x) + (py - y) * (py - y);
            if (d2 <= bestD2) {
              bestD2 = d2;
              best = t;
              out[0] = px;
              out[1] = py;
            }
          }
        }
      }
    }
    if (best >= 0) {
      // Pull the point a hair into the triangle so that it locates there.
      const a = v[3 * best], b = v[3 * best + 1], d = v[3 * best + 2];
      const gx = (c[2 * a] + c[2 * b] + c[2 * d]) / 3,
        gy = (c[2 * a + 1] + c[2 * b + 1] + c[2 * d + 1]) / 3;
      out[0] += (gx - out[0]) * 1e-6;
      out[1] += (gy - out[1]) * 1e-6;
    }
    return best;
  }

  /** Height (m) at (`x`, `y`) on the surface of triangle `t`. */
  heightAt(t: number, x: number, y: number): number {
    return this.surfaces[this.surfaceOf[t]].heightAt(x, y);
  }

  /**
   * Adds the merged border edges to `obstacles`: closed rings around holes become solid
   * polygons, every other chain a two-sided wall. Adding them to the same obstacles again does
   * nothing (a navigator and a scenario builder may both offer them).
   */
  addBordersTo(obstacles: StaticObstacles): void {
    if (this.#bordersAddedTo.has(obstacles)) return;
    this.#bordersAddedTo.add(obstacles);
    const b = this.border;
    for (const chain of b.chains) {
      const points: [number, number][] = [];
      for (let s = chain.start; s < chain.end; s++) points.push([b.ax[s], b.ay[s]]);
      if (!chain.closed) points.push([b.bx[chain.end - 1], b.by[chain.end - 1]]);
      if (chain.closed && chain.area < 0 && points.length >= 3) obstacles.addPolygon(points);
      else if (chain.closed && points.length >= 3) obstacles.addWall(points, true);
      else if (points.length >= 2) obstacles.addWall(points, false);
    }
  }

  #buildLocator(): [Int32Array, Int32Array] {
    const T = this.triangleCount, c = this.coords, v = this.triangles;
    const [minX, minY, maxX, maxY] = T > 0 ? this.bounds : [0, 0, 1, 1];
    const w = Math.max(maxX - minX, 1e-6), h = Math.max(maxY - minY, 1e-6);
    // About two triangles per cell, at most 4M cells.
    this.#cell = Math.max(Math.sqrt((w * h) / Math.max(1, T / 2)), Math.sqrt((w * h) / (1 << 22)));
    this.#minX = minX;
    this.#minY = minY;
    this.#cols = Math.floor(w / this.#cell) + 1;
    this.#rows = Math.floor(h / this.#cell) + 1;
    const cells = this.#cols * this.#rows;
    const start = new Int32Array(cells + 1);
    const range = (t: number, out: Int32Array): void => {
      const a = v[3 * t], b = v[3 * t + 1], d = v[3 * t + 2];
      const tx0 = Math.min(c[2 * a], c[2 * b], c[2 * d]),
        tx1 = Math.max(c[2 * a], c[2 * b], c[2 * d]);
      const ty0 = Math.min(c[2 * a + 1], c[2 * b + 1], c[2 * d + 1]);
      const ty1 = Math.max(c[2 * a + 1], c[2 * b + 1], c[2 * d + 1]);
      out[0] = Math.max(0, Math.floor((tx0 - 1e-9 - minX) / this.#cell));
      out[1] = Math.min(this.#cols - 1, Math.floor((tx1 + 1e-9 - minX) / this.#cell));
      out[2] = Math.max(0, Math.floor((ty0 - 1e-9 - minY) / this.#cell));
      out[3] = Math.min(this.#rows - 1, Math.floor((ty1 + 1e-9 - minY) / this.#cell));
    };
    const r = new Int32Array(4);
    for (let t = 0; t < T; t++) {
      range(t, r);
      for (let cy = r[2]; cy <= r[3]; cy++) {
        for (let cx = r[0]; cx <= r[1]; cx++) start[cy * this.#cols + cx + 1]++;
      }
    }
    for (let i = 0; i < cells; i++) start[i + 1] += start[i];
    const items = new Int32Array(start[cells]);
    const fill = start.slice(0, cells);
    for (let t = 0; t < T; t++) {
      range(t, r);
      for (let cy = r[2]; cy <= r[3]; cy++) {
        for (let cx = r[0]; cx <= r[1]; cx++) items[fill[cy * this.#cols + cx]++] = t;
      }
    }
    return [start, items];
  }
}

/**
 * Landmarks for the ALT lower bound of path queries (Goldberg & Harrelson 2005, "Computing the
 * shortest path: A* search meets graph theory"). For any landmark L and points u, v, the
 * shortest-path distance obeys d(u, v) ≥ |d(L, v) − d(L, u)|; with a few landmarks spread to the
 * edges of the map this bound sees the buildings between two points, which the straight line
 * does not, and a city search explores a corridor instead of the whole ellipse around start and
 * goal.
 *
 * Landmarks are chosen by farthest-point selection in the largest connected part of the mesh:
 * the first is the vertex farthest from an arbitrary point, each next one the vertex farthest
 * from all chosen so far (the "farthest" rule of the paper). Each costs one exhaustive distance
 * field over the mesh.
 *
 * @module
 */
import type { NavMesh } from "./navmesh.ts";

/** Meshes with fewer triangles than this are searched without landmarks (fast already). */
export const LANDMARK_MIN_TRIANGLES = 5000;

/**
 * Search nodes per triangle a landmark's distance field may take. Street networks take about
 * two; open areas strewn with obstacles, where every corner sees hundreds of others, take tens,
 * and there the straight line is a good bound already: such meshes go without landmarks.
 */
export const LANDMARK_FIELD_NODES_PER_TRIANGLE = 4;

/** Landmark distance tables of one mesh. */
export interface PathLandmarks {
  /** Number of landmarks. */
  readonly count: number;
  /** Landmark positions `[x0, y0, x1, y1, …]` (m). */
  readonly points: Float64Array;
  /**
   * Shortest-path distance (m) from landmark L to vertex u at `u * count + L` (a vertex's
   * distances side by side, so a bound reads one cache line), through passages of any width;
   * Infinity where the landmark does not reach.
   */
  readonly distances: Float64Array;
  /** Time spent choosing the landmarks and computing their tables (ms). */
  readonly buildMs: number;
}

/**
 * Writes the distance (m) from (x, y) to every vertex into `out`, Infinity where unreached;
 * returns false when it gave up (too costly), and the landmarks are then abandoned.
 */
export type DistanceFieldFn = (x: number, y: number, out: Float64Array) => boolean;

/**
 * Chooses `count` landmarks on `mesh` by farthest-point selection and computes their distance
 * tables with `fieldFrom`.
 */
export function selectLandmarks(
  mesh: NavMesh,
  count: number,
  fieldFrom: DistanceFieldFn,
): PathLandmarks {
  const t0 = performance.now();
  const V = mesh.vertexCount, c = mesh.coords;
  const points = new Float64Array(2 * count);
  const distances = new Float64Array(count * V).fill(Infinity);
  const seed = largestComponentTriangle(mesh);
  const none = () => ({
    count: 0,
    points: points.subarray(0, 0),
    distances: distances.subarray(0, 0),
    buildMs: performance.now() - t0,
  });
  if (seed < 0) return none();
  const v = mesh.triangles;
  const sx = (c[2 * v[3 * seed]] + c[2 * v[3 * seed + 1]] + c[2 * v[3 * seed + 2]]) / 3;
  const sy = (c[2 * v[3 * seed] + 1] + c[2 * v[3 * seed + 1] + 1] + c[2 * v[3 * seed + 2] + 1]) /
    3;
  // Distance of each vertex to the nearest landmark chosen so far (first: to the seed point).
  const nearest = new Float64Array(V), table = new Float64Array(V);
  const tables: Float64Array[] = [];
  if (!fieldFrom(sx, sy, nearest)) return none();
  let chosen = 0;
  for (; chosen < count; chosen++) {
    let far = -1, farD = 0;
    for (let u = 0; u < V; u++) {
      const d = nearest[u];
      if (d !== Infinity && d > farD) {
        farD = d;
        far = u;
      }
    }
    if (far < 0) break; // everything reached is a landmark already
    points[2 * chosen] = c[2 * far];
    points[2 * chosen + 1] = c[2 * far + 1];
    if (!fieldFrom(c[2 * far], c[2 * far + 1], table)) return none();
    for (let u = 0; u < V; u++) {
      if (chosen === 0 || table[u] < nearest[u]) nearest[u] = table[u];
    }
    tables.push(table.slice());
  }
  // Vertex-major: the landmarks' distances of a vertex side by side.
  const packed = distances.subarray(0, chosen * V);
  for (let L = 0; L < chosen; L++) {
    const table = tables[L];
    for (let u = 0; u < V; u++) packed[u * chosen + L] = table[u];
  }
  return {
    count: chosen,
    points: points.subarray(0, 2 * chosen),
    distances: distances.subarray(0, chosen * V),
    buildMs: performance.now() - t0,
  };
}

/** A clear triangle of the largest connected part of the mesh, or -1 when none is clear. */
function largestComponentTriangle(mesh: NavMesh): number {
  const sizes = new Map<number, number>();
  let best = -1, bestSize = 0;
  for (let t = 0; t < mesh.triangleCount; t++) {
    const k = mesh.planComponent[t];
    if (k < 0) continue;
    const size = (sizes.get(k) ?? 0) + 1;
    sizes.set(k, size);
    if (size > bestSize) {
      bestSize = size;
      best = t;
    }
  }
  return best;
}

/**
 * The ALT lower bound towards one goal (Goldberg & Harrelson 2005): for a mesh vertex u, by the
 * triangle inequality d(u, goal) ≥ |d(L, goal) − d(L, u)| for every landmark L. Set the goal
 * with {@linkcode LandmarkBound.setGoal}, then read vertex bounds; each is computed once per goal.
 */
export class LandmarkBound {
  /** The landmark tables. */
  readonly landmarks: PathLandmarks;
  #mesh: NavMesh;
  #goalLo: Float64Array;
  #goalHi: Float64Array;
  #bound: Float64Array;
  #stamp: Int32Array;
  #goal = 0;
  #count: number;
  #distances: Float64Array;

  constructor(mesh: NavMesh, landmarks: PathLandmarks) {
    this.#mesh = mesh;
    this.landmarks = landmarks;
    this.#goalLo = new Float64Array(landmarks.count);
    this.#goalHi = new Float64Array(landmarks.count);
    this.#bound = new Float64Array(mesh.vertexCount);
    this.#stamp = new Int32Array(mesh.vertexCount);
    this.#count = landmarks.count;
    this.#distances = landmarks.distances;
  }

  /**
   * Sets the goal (`gx`, `gy`, m) in clear triangle `goalTri`. Its distance range from each
   * landmark comes from the triangle's vertices: the straight segment from a vertex to the goal
   * is clear, so the goal is at most that much nearer or further than the vertex.
   */
  setGoal(goalTri: number, gx: number, gy: number): void {
    this.#goal++;
    const lm = this.landmarks, count = lm.count, v = this.#mesh.triangles, c = this.#mesh.coords;
    for (let L = 0; L < count; L++) {
      let lo = -Infinity, hi = Infinity;
      for (let j = 0; j < 3; j++) {
        const u = v[3 * goalTri + j], d = lm.distances[u * count + L];
        if (d === Infinity) continue;
        const ex = c[2 * u] - gx, ey = c[2 * u + 1] - gy, e = Math.sqrt(ex * ex + ey * ey);
        if (d - e > lo) lo = d - e;
        if (d + e < hi) hi = d + e;
      }
      this.#goalLo[L] = lo;
      this.#goalHi[L] = hi;
    }
  }

  /** Lower bound (m) of the shortest-path distance from vertex `u` to the goal. */
  vertex(u: number): number {
    if (this.#stamp[u] === this.#goal) return this.#bound[u];
    const count = this.#count, o = u * count, dist = this.#distances;
    const lo = this.#goalLo, hi = this.#goalHi;
    let b = 0;
    for (let L = 0; L < count; L++) {
      const d = dist[o + L];
      if (d === Infinity) continue;
      if (lo[L] - d > b) b = lo[L] - d;
      if (d - hi[L] > b) b = d - hi[L];
    }
    this.#stamp[u] = this.#goal;
    this.#bound[u] = b;
    return b;
  }
}

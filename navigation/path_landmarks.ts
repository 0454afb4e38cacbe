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
   * Shortest-path distance (m) from landmark L to vertex u at `L * vertexCount + u`, through
   * passages of any width; Infinity where the landmark does not reach.
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
  const nearest = new Float64Array(V);
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
    const table = distances.subarray(chosen * V, (chosen + 1) * V);
    if (!fieldFrom(c[2 * far], c[2 * far + 1], table)) return none();
    for (let u = 0; u < V; u++) {
      if (chosen === 0 || table[u] < nearest[u]) nearest[u] = table[u];
    }
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

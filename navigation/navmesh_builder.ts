/**
 * Building a {@linkcode NavMesh} from a walkable area given as polygons with holes — scenario
 * geometry today, OpenStreetMap areas later — in the steps of the navigation-mesh crowd
 * simulation for 3-D indoor and outdoor spaces (a paper built on a Unity navigation mesh with
 * stair classification, heightmaps and border extraction, 2021), adapted to 2-D input:
 *
 * 1. clean each surface (weld within 1 mm, merge overlaps, cut out obstacles and walls);
 * 2. find where surfaces meet: a shared boundary whose heights agree (within `maxStepHeight`)
 *    is a connection, one whose heights differ (a landing above a floor) becomes a border;
 * 3. erode the walkable area by the clearance (the agent radius) to get the area paths use;
 * 4. triangulate surface by surface, clear area and clearance band apart (constrained
 *    Delaunay, no added points), and join the triangles across shared edges;
 * 5. keep the largest connected component (by area; that paper takes the one with most
 *    vertices) unless told to keep all;
 * 6. extract and merge the border edges.
 *
 * Storeys must not overlap in plan: the world's agent grid and obstacle segments are 2-D, so
 * agents on one storey would see agents and walls of another. Overlapping surfaces are
 * rejected with an error naming them.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import { extractBorderEdges } from "./border_edges.ts";
import { NavMesh } from "./navmesh.ts";
import { Surface, type SurfaceInput } from "./surface.ts";
import { triangulatePieces, type TriangulationPiece } from "./triangulation.ts";
import {
  cleanWalkableArea,
  erodeWalkableArea,
  intersectAreas,
  polygonsArea,
  type PolygonWithHoles,
  type Polyline,
  unionAreas,
} from "./walkable_area.ts";

/** What the mesh is built from. Give `surfaces`, or `walkable` for one flat surface at z = 0. */
export interface NavMeshInput {
  /** Walkable polygons (m) of a single flat surface at height 0. */
  readonly walkable?: readonly PolygonWithHoles[];
  /** Walkable surfaces (floors, ramps, stairs); they may touch but not overlap in plan. */
  readonly surfaces?: readonly SurfaceInput[];
  /** Solid polygons cut out of every surface (m). */
  readonly obstacles?: readonly PolygonWithHoles[];
  /** Walls (zero-thickness polylines) cut out of every surface (m). */
  readonly walls?: readonly Polyline[];
}

/** Options of {@linkcode buildNavMesh}. */
export interface NavMeshOptions {
  /** Erosion of the area paths use (m): the agent radius. Range [0, 5]. @default 0.25 */
  clearance: number;
  /** Keep every connected component instead of the largest only. @default false */
  keepAllComponents: boolean;
  /** Weld distance for vertices (m). Range [0, 0.1]. @default 0.001 */
  weldTolerance: number;
  /** Width of the strip a wall cuts out of the walkable area (m). Range [0.001, 1]. @default 0.02 */
  wallThickness: number;
  /** Merge angle for border edges (degrees). Range [0, 45]. @default 3 */
  mergeAngleDeg: number;
  /** Largest height difference at a connection between surfaces (m). Range [0, 2]. @default 0.1 */
  maxStepHeight: number;
  /** Height-grid cell of sloped surfaces (m). Range [0.01, 10]. @default 0.24 */
  heightCellSize: number;
  /** How the clear area goes around obstacle corners. @default "square" */
  cornerJoin: "square" | "round";
  /** Largest deviation of a rounded corner's polygon from its arc (m). Range [0.001, 1]. @default 0.02 */
  arcTolerance: number;
}

/** Descriptors of {@linkcode NavMeshOptions}. */
export const NAVMESH_OPTIONS: OptionSpecs<NavMeshOptions> = {
  clearance: {
    type: "number",
    default: 0.25,
    min: 0,
    max: 5,
    unit: "m",
    doc:
      "agent radius the path area is eroded by (Unity and Recast bake the same offset); passages narrower than twice this close",
  },
  keepAllComponents: {
    type: "boolean",
    default: false,
    doc:
      "keep unconnected walkable pieces; by default only the largest connected area remains (as in the 3-D navigation-mesh crowd simulation paper)",
  },
  weldTolerance: {
    type: "number",
    default: 0.001,
    min: 0,
    max: 0.1,
    unit: "m",
    doc:
      "vertices closer than this are merged (1 mm, as in the 3-D navigation-mesh crowd simulation paper)",
  },
  wallThickness: {
    type: "number",
    default: 0.02,
    min: 0.001,
    max: 1,
    unit: "m",
    doc: "width of the strip a wall polyline cuts out of the walkable area",
  },
  mergeAngleDeg: {
    type: "number",
    default: 3,
    min: 0,
    max: 45,
    unit: "deg",
    doc:
      "connected border edges in line within this angle merge into one obstacle segment (3°, as in the 3-D navigation-mesh crowd simulation paper)",
  },
  maxStepHeight: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 2,
    unit: "m",
    doc:
      "surfaces meeting in plan connect where their heights differ by at most this; elsewhere their shared edge is a border",
  },
  heightCellSize: {
    type: "number",
    default: 0.24,
    min: 0.01,
    max: 10,
    unit: "m",
    doc:
      "cell of the height grid of sloped surfaces (0.24 m, the minimum tread depth, as in the 3-D navigation-mesh crowd simulation paper)",
  },
  cornerJoin: {
    type: "enum",
    values: ["square", "round"],
    default: "square",
    doc:
      "clear area around obstacle corners: 'square' cuts corners at exactly the clearance (2 vertices a corner, faster queries), 'round' follows the arc",
  },
  arcTolerance: {
    type: "number",
    default: 0.02,
    min: 0.001,
    max: 1,
    unit: "m",
    doc:
      "with cornerJoin 'round': how far a corner's polygon may stray from its arc; smaller adds vertices",
  },
};

/**
 * Builds a navigation mesh. Throws a RangeError naming the bad field for invalid input (no
 * walkable area, overlapping surfaces, a staircase whose slope contradicts its steps).
 *
 * @example A room with a pillar and a 0.25 m clearance
 * ```ts
 * import { buildNavMesh } from "./navmesh_builder.ts";
 * import assert from "node:assert/strict";
 * const mesh = buildNavMesh({
 *   walkable: [[[[0, 0], [10, 0], [10, 10], [0, 10]]]],
 *   obstacles: [[[[4, 4], [6, 4], [6, 6], [4, 6]]]],
 * });
 * assert.equal(mesh.border.count, 8); // the room's 4 walls and the pillar's 4 sides
 * assert.equal(mesh.clearance, 0.25);
 * ```
 */
export function buildNavMesh(input: NavMeshInput, options: Partial<NavMeshOptions> = {}): NavMesh {
  const o = resolveOptions("navigation mesh", NAVMESH_OPTIONS, options);
  const { outlines, surfaceInputs } = _surfaceOutlines(input);
  // 1. Clean surfaces and build their height fields.
  const areas = outlines.map((list, i) =>
    _attempt(i, () => cleanWalkableArea(list, input.obstacles ?? [], input.walls ?? [], o))
  );
  const surfaces = surfaceInputs.map((s, i) =>
    _attempt(i, () => new Surface(i, s, boundsOf(outlines[i]), { cellSize: o.heightCellSize }))
  );
  // 2. Where surfaces meet: connections or borders (cliffs).
  const pieces = _cutCliffs(areas, surfaces, o);
  const walkableArea = pieces.length === 1 ? pieces[0] : unionAreas(pieces.flat());
  if (walkableArea.length === 0) {
    _fail("no walkable area is left after cutting out obstacles and walls");
  }
  // 3. The clear area and the band along borders.
  const clearArea = o.clearance > 0
    ? erodeWalkableArea(walkableArea, o.clearance, {
      join: o.cornerJoin,
      arcTolerance: o.arcTolerance,
    })
    : walkableArea;
  // 4. Triangulate and join.
  const joined = _triangulateAndJoin(_clearPieces(pieces, clearArea, o.clearance), surfaces, o);
  // 5. Components.
  const mesh = o.keepAllComponents ? joined : compact(joined, largestComponent(joined));
  // 6. Border edges.
  const border = extractBorderEdges(mesh.coords, mesh.triangles, {
    weldTolerance: 0,
    mergeAngleDeg: o.mergeAngleDeg,
  });
  return new NavMesh({
    ...mesh,
    surfaces,
    border,
    clearance: o.clearance,
    walkableArea,
    clearArea,
  });
}

/** Triangle arrays of a mesh under construction. */
interface MeshArrays {
  coords: Float64Array;
  triangles: Uint32Array;
  neighbors: Int32Array;
  twins: Int8Array;
  surfaceOf: Int32Array;
  clear: Uint8Array;
}

/** A piece of the walkable area to triangulate, with its clear part and its surface. */
type SurfacePiece = TriangulationPiece & { surface: number };

function _fail(problem: string): never {
  throw new RangeError(`Cannot build navigation mesh as ${problem}`);
}

/** Runs a step on surface `i`, reporting its error as the surface's. */
function _attempt<T>(i: number, step: () => T): T {
  try {
    return step();
  } catch (error) {
    return _fail(`surfaces[${i}] is invalid: ${(error as Error).message}`);
  }
}

/** The outline polygons and the surface description of each surface of the input. */
function _surfaceOutlines(
  input: NavMeshInput,
): { outlines: PolygonWithHoles[][]; surfaceInputs: SurfaceInput[] } {
  if (input.surfaces && input.walkable) {
    _fail("it was given both 'walkable' and 'surfaces': give one");
  }
  const outlines: PolygonWithHoles[][] = input.surfaces
    ? input.surfaces.map((s) => [s.polygon])
    : [input.walkable ? [...input.walkable] : []];
  const surfaceInputs: SurfaceInput[] = input.surfaces
    ? [...input.surfaces]
    : [{ name: "walkable", polygon: input.walkable?.[0] ?? [], z: 0 }];
  if (outlines.every((list) => list.length === 0)) {
    _fail("it has no walkable area: give 'walkable' or 'surfaces'");
  }
  return { outlines, surfaceInputs };
}

/**
 * Checks that surfaces do not overlap in plan and cuts every boundary two surfaces share at
 * heights more than `maxStepHeight` apart (a landing above a floor) out of both, as a border.
 */
function _cutCliffs(
  areas: PolygonWithHoles[][],
  surfaces: readonly Surface[],
  o: NavMeshOptions,
): PolygonWithHoles[][] {
  const cliffs: Polyline[] = [];
  for (let i = 0; i < areas.length; i++) {
    for (let j = i + 1; j < areas.length; j++) {
      if (!boxesTouch(areas[i], areas[j], o.weldTolerance)) continue;
      const overlap = polygonsArea(intersectAreas(areas[i], areas[j]));
      if (overlap > 1e-6) {
        _fail(
          `surfaces '${surfaces[i].name}' and '${surfaces[j].name}' overlap in plan (${
            overlap.toFixed(3)
          } m²): ` +
            "storeys must not overlap where agents walk, as agents and walls are seen in 2-D",
        );
      }
      for (const [p, q] of sharedSegments(areas[i], areas[j], Math.max(o.weldTolerance, 1e-6))) {
        let worst = 0;
        for (const t of [0, 0.5, 1]) {
          const x = p[0] + t * (q[0] - p[0]), y = p[1] + t * (q[1] - p[1]);
          worst = Math.max(
            worst,
            Math.abs(surfaces[i].heightAt(x, y) - surfaces[j].heightAt(x, y)),
          );
        }
        if (worst > o.maxStepHeight) cliffs.push({ points: [p, q] });
      }
    }
  }
  return cliffs.length ? areas.map((a) => cleanWalkableArea(a, [], cliffs, o)) : areas;
}

/** Each walkable polygon of each surface with the part of the clear area inside it. */
function _clearPieces(
  pieces: readonly PolygonWithHoles[][],
  clearArea: readonly PolygonWithHoles[],
  clearance: number,
): SurfacePiece[] {
  const tagged: SurfacePiece[] = [];
  pieces.forEach((area, s) => {
    for (const polygon of area) {
      let inner: readonly PolygonWithHoles[] = [];
      if (clearance > 0) {
        inner = pieces.length === 1 && area.length === 1
          ? clearArea
          : pieces.length === 1
          ? _clearInside(polygon, clearArea)
          : intersectAreas([polygon], clearArea);
      }
      tagged.push({ polygon, inner, surface: s });
    }
  });
  return tagged;
}

/**
 * Triangulates the pieces, tags each triangle with its surface and whether it is clear, and
 * joins triangles across shared edges, except where two surfaces meet at different heights.
 */
function _triangulateAndJoin(
  tagged: readonly SurfacePiece[],
  surfaces: readonly Surface[],
  o: NavMeshOptions,
): MeshArrays {
  let tri;
  try {
    tri = triangulatePieces(tagged, o.weldTolerance);
  } catch (error) {
    return _fail((error as Error).message.replace(/^Cannot triangulate the walkable area: /, ""));
  }
  const T = tri.triangleCount;
  const surfaceOf = new Int32Array(T), clear = new Uint8Array(T);
  for (let t = 0; t < T; t++) {
    surfaceOf[t] = tagged[tri.piece[t]].surface;
    clear[t] = o.clearance === 0 || tri.inner[t] ? 1 : 0;
  }
  const { neighbors, twins } = joinTriangles(tri.triangles, tri.vertexCount);
  const mesh = { coords: tri.coords, triangles: tri.triangles, neighbors, twins, surfaceOf, clear };
  cutMismatchedConnections(mesh, { surfaces, maxStep: o.maxStepHeight });
  return mesh;
}

/** The clear polygons whose first vertex lies inside `polygon` (outside its holes). */
function _clearInside(
  polygon: PolygonWithHoles,
  clearArea: readonly PolygonWithHoles[],
): PolygonWithHoles[] {
  const [x0, y0, x1, y1] = boundsOf([polygon]);
  return clearArea.filter((e) => {
    const p = e[0][0];
    if (p[0] < x0 || p[0] > x1 || p[1] < y0 || p[1] > y1) return false;
    return insideRing(polygon[0], p) && !polygon.slice(1).some((h) => insideRing(h, p));
  });
}

/** True when `p` lies inside the ring (even-odd). */
function insideRing(ring: readonly Point[], p: Point): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) {
      inside = !inside;
    }
  }
  return inside;
}

function boundsOf(polygons: readonly PolygonWithHoles[]): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of polygons) {
    for (const ring of p) {
      for (const [x, y] of ring) {
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
    }
  }
  return minX <= maxX ? [minX, minY, maxX, maxY] : [0, 0, 1, 1];
}

function boxesTouch(
  a: readonly PolygonWithHoles[],
  b: readonly PolygonWithHoles[],
  tol: number,
): boolean {
  const [ax0, ay0, ax1, ay1] = boundsOf(a), [bx0, by0, bx1, by1] = boundsOf(b);
  return ax0 <= bx1 + tol && bx0 <= ax1 + tol && ay0 <= by1 + tol && by0 <= ay1 + tol;
}

/** Boundary pieces (m) that two areas share: collinear overlapping ring edges. */
function sharedSegments(
  a: readonly PolygonWithHoles[],
  b: readonly PolygonWithHoles[],
  tol: number,
): [Point, Point][] {
  const edges = (area: readonly PolygonWithHoles[]): [Point, Point][] =>
    area.flatMap((p) =>
      p.flatMap((ring) => ring.map((pt, i) => [pt, ring[(i + 1) % ring.length]] as [Point, Point]))
    );
  const out: [Point, Point][] = [];
  const eb = edges(b);
  for (const [p, q] of edges(a)) {
    const ex = q[0] - p[0], ey = q[1] - p[1], len = Math.hypot(ex, ey);
    if (len === 0) continue;
    for (const [r, s] of eb) {
      if (
        Math.max(r[0], s[0]) < Math.min(p[0], q[0]) - tol ||
        Math.min(r[0], s[0]) > Math.max(p[0], q[0]) + tol
      ) continue;
      if (
        Math.max(r[1], s[1]) < Math.min(p[1], q[1]) - tol ||
        Math.min(r[1], s[1]) > Math.max(p[1], q[1]) + tol
      ) continue;
      const dr = Math.abs(ex * (r[1] - p[1]) - ey * (r[0] - p[0])) / len;
      const ds = Math.abs(ex * (s[1] - p[1]) - ey * (s[0] - p[0])) / len;
      if (dr > tol || ds > tol) continue;
      const tr = ((r[0] - p[0]) * ex + (r[1] - p[1]) * ey) / len,
        ts = ((s[0] - p[0]) * ex + (s[1] - p[1]) * ey) / len;
      const lo = Math.max(0, Math.min(tr, ts)), hi = Math.min(len, Math.max(tr, ts));
      if (hi - lo <= tol) continue;
      out.push([[p[0] + (ex * lo) / len, p[1] + (ey * lo) / len], [
        p[0] + (ex * hi) / len,
        p[1] + (ey * hi) / len,
      ]]);
    }
  }
  return out;
}

/** Links triangles that share an edge (same two vertices). */
function joinTriangles(
  triangles: Uint32Array,
  vertexCount: number,
): { neighbors: Int32Array; twins: Int8Array } {
  const T = triangles.length / 3;
  const neighbors = new Int32Array(3 * T).fill(-1), twins = new Int8Array(3 * T).fill(-1);
  const open = new Map<number, number>();
  for (let t = 0; t < T; t++) {
    for (let k = 0; k < 3; k++) {
      const a = triangles[3 * t + k], b = triangles[3 * t + (k + 1) % 3];
      const key = a < b ? a * vertexCount + b : b * vertexCount + a;
      const other = open.get(key);
      if (other === undefined) {
        open.set(key, 3 * t + k);
        continue;
      }
      open.delete(key);
      const u = Math.floor(other / 3), j = other % 3;
      neighbors[3 * t + k] = u;
      twins[3 * t + k] = j;
      neighbors[other] = t;
      twins[other] = k;
    }
  }
  return { neighbors, twins };
}

/** Unlinks edges between surfaces whose heights differ there by more than `maxStep` (m). */
function cutMismatchedConnections(
  mesh: MeshArrays,
  heights: { surfaces: readonly Surface[]; maxStep: number },
): void {
  const { coords, triangles, neighbors, twins, surfaceOf } = mesh;
  const { surfaces, maxStep } = heights;
  for (let e = 0; e < neighbors.length; e++) {
    const n = neighbors[e], t = Math.floor(e / 3);
    if (n < 0 || surfaceOf[n] === surfaceOf[t]) continue;
    const s = surfaces[surfaceOf[t]], r = surfaces[surfaceOf[n]];
    for (const v of [triangles[e], triangles[3 * t + (e % 3 + 1) % 3]]) {
      const x = coords[2 * v], y = coords[2 * v + 1];
      if (Math.abs(s.heightAt(x, y) - r.heightAt(x, y)) > maxStep + 1e-9) {
        neighbors[3 * n + twins[e]] = -1;
        twins[3 * n + twins[e]] = -1;
        neighbors[e] = -1;
        twins[e] = -1;
        break;
      }
    }
  }
}

/** Marks the triangles of the connected component with the largest area. */
function largestComponent(mesh: MeshArrays): Uint8Array {
  const { coords, triangles, neighbors } = mesh;
  const T = triangles.length / 3;
  const component = new Int32Array(T).fill(-1);
  const areas: number[] = [];
  const stack: number[] = [];
  for (let t0 = 0; t0 < T; t0++) {
    if (component[t0] >= 0) continue;
    const id = areas.length;
    let area = 0;
    component[t0] = id;
    stack.push(t0);
    while (stack.length) {
      const t = stack.pop()!;
      const a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
      area += ((coords[2 * b] - coords[2 * a]) * (coords[2 * c + 1] - coords[2 * a + 1]) -
        (coords[2 * b + 1] - coords[2 * a + 1]) * (coords[2 * c] - coords[2 * a])) / 2;
      for (let k = 0; k < 3; k++) {
        const n = neighbors[3 * t + k];
        if (n >= 0 && component[n] < 0) {
          component[n] = id;
          stack.push(n);
        }
      }
    }
    areas.push(area);
  }
  let best = 0;
  for (let i = 1; i < areas.length; i++) if (areas[i] > areas[best]) best = i;
  const keep = new Uint8Array(T);
  for (let t = 0; t < T; t++) keep[t] = component[t] === best ? 1 : 0;
  return keep;
}

/** Drops triangles not kept and vertices no longer used, renumbering the rest. */
function compact(mesh: MeshArrays, keep: Uint8Array): MeshArrays {
  const { coords, triangles, neighbors, twins, surfaceOf, clear } = mesh;
  const T = triangles.length / 3;
  const newTri = new Int32Array(T).fill(-1);
  let count = 0;
  for (let t = 0; t < T; t++) if (keep[t]) newTri[t] = count++;
  const newVertex = new Int32Array(coords.length >> 1).fill(-1);
  let vertices = 0;
  for (let t = 0; t < T; t++) {
    if (!keep[t]) continue;
    for (let k = 0; k < 3; k++) {
      const v = triangles[3 * t + k];
      if (newVertex[v] < 0) newVertex[v] = vertices++;
    }
  }
  const out: MeshArrays = {
    coords: new Float64Array(2 * vertices),
    triangles: new Uint32Array(3 * count),
    neighbors: new Int32Array(3 * count),
    twins: new Int8Array(3 * count),
    surfaceOf: new Int32Array(count),
    clear: new Uint8Array(count),
  };
  for (let v = 0; v < newVertex.length; v++) {
    if (newVertex[v] < 0) continue;
    out.coords[2 * newVertex[v]] = coords[2 * v];
    out.coords[2 * newVertex[v] + 1] = coords[2 * v + 1];
  }
  for (let t = 0; t < T; t++) {
    const u = newTri[t];
    if (u < 0) continue;
    out.surfaceOf[u] = surfaceOf[t];
    out.clear[u] = clear[t];
    for (let k = 0; k < 3; k++) {
      out.triangles[3 * u + k] = newVertex[triangles[3 * t + k]];
      const n = neighbors[3 * t + k];
      out.neighbors[3 * u + k] = n >= 0 ? newTri[n] : -1;
      out.twins[3 * u + k] = n >= 0 && newTri[n] >= 0 ? twins[3 * t + k] : -1;
    }
  }
  return out;
}

/**
 * Constrained Delaunay triangulation of polygons with holes that tile a plane region (pieces of
 * a walkable area: surfaces, the clearance band), with shared vertices so that the pieces'
 * triangles join edge to edge. Delaunator triangulates the points, Constrainautor forces every
 * ring edge into the triangulation.
 *
 * Before triangulating, vertices are welded within a tolerance and every ring edge that passes
 * through another ring's vertex (a T-junction, e.g. where a staircase meets a longer wall) is
 * split there, so neighbouring pieces share their boundary edges exactly.
 *
 * @module
 */
import Constrainautor from "npm:@kninnug/constrainautor@4.1.0";
import Delaunator from "npm:delaunator@5.1.0";
import { SegmentSplitter } from "./_segment_splitter.ts";
import { SparseFlipSet } from "./_sparse_flip_set.ts";
import { weldPoints } from "./_weld.ts";
import type { PolygonWithHoles } from "./walkable_area.ts";

/**
 * One piece to triangulate: a polygon with holes, and optionally areas inside it (touching its
 * boundary at most) whose rings are kept as edges too, so that each triangle lies either inside
 * or outside them (the clear area within a surface, say).
 */
export interface TriangulationPiece {
  /** The piece (m). */
  readonly polygon: PolygonWithHoles;
  /** Areas within the piece whose boundaries become triangle edges (m). @default [] */
  readonly inner?: readonly PolygonWithHoles[];
}

/** Triangles of several pieces over one shared vertex table. */
export interface Triangulation {
  /** Vertex coordinates `[x0, y0, x1, y1, …]` (m). */
  readonly coords: Float64Array;
  /** Number of vertices. */
  readonly vertexCount: number;
  /** Vertex indices, three per triangle, counter-clockwise. */
  readonly triangles: Uint32Array;
  /** Number of triangles. */
  readonly triangleCount: number;
  /** Index of the piece each triangle belongs to. */
  readonly piece: Int32Array;
  /** 1 for triangles inside their piece's `inner` areas. */
  readonly inner: Uint8Array;
}

/**
 * Triangulates each piece (pieces must not overlap; they may share boundaries) without adding
 * points. The triangles of each piece cover it exactly.
 *
 * @example Two squares sharing an edge, the right one with a marked inner square
 * ```ts
 * import { triangulatePieces } from "./triangulation.ts";
 * import assert from "node:assert/strict";
 * const t = triangulatePieces([
 *   { polygon: [[[0, 0], [1, 0], [1, 1], [0, 1]]] },
 *   { polygon: [[[1, 0], [3, 0], [3, 2], [1, 2]]], inner: [[[[1.5, 0.5], [2.5, 0.5], [2.5, 1.5], [1.5, 1.5]]]] },
 * ]);
 * assert.equal(t.vertexCount, 11); // (1, 1) splits the right square's left edge
 * const innerCount = t.inner.reduce((a, b) => a + b, 0);
 * assert.equal(innerCount, 2); // the inner square, in two triangles
 * ```
 */
export function triangulatePieces(
  pieces: readonly TriangulationPiece[],
  weldTolerance = 0.001,
): Triangulation {
  // 1. One vertex table for all rings, welded.
  const allRings = pieces.map((p) => [...p.polygon, ...(p.inner ?? []).flat()]);
  let n = 0;
  for (const rings of allRings) for (const r of rings) n += r.length;
  const raw = new Float64Array(2 * n);
  let k = 0;
  for (const rings of allRings) {
    for (const r of rings) {
      for (const [x, y] of r) {
        raw[k++] = x;
        raw[k++] = y;
      }
    }
  }
  const welded = weldPoints(raw, weldTolerance);
  const remap = new Int32Array(n).fill(-1);
  let vertexCount = 0;
  for (let i = 0; i < n; i++) if (welded[i] === i) remap[i] = vertexCount++;
  const coords = new Float64Array(2 * vertexCount);
  for (let i = 0; i < n; i++) {
    if (welded[i] !== i) continue;
    coords[2 * remap[i]] = raw[2 * i];
    coords[2 * remap[i] + 1] = raw[2 * i + 1];
  }
  // 2. Rings as vertex-id lists, consecutive duplicates dropped, split at T-junctions.
  const splitter = new SegmentSplitter(coords, vertexCount, Math.max(weldTolerance, 1e-9));
  k = 0;
  const idRings = allRings.map((rings) =>
    rings.map((r) => {
      const ids: number[] = [];
      for (let i = 0; i < r.length; i++, k++) {
        const id = remap[welded[k]];
        if (ids.length === 0 || ids[ids.length - 1] !== id) ids.push(id);
      }
      while (ids.length > 1 && ids[0] === ids[ids.length - 1]) ids.pop();
      return ids.length >= 3 ? splitter.splitRing(ids) : [];
    })
  );
  // 3. Triangulate every piece.
  const tris: number[] = [];
  const owner: number[] = [];
  const innerFlags: number[] = [];
  idRings.forEach((rings, pieceIndex) => {
    const outerCount = pieces[pieceIndex].polygon.length;
    const outer = rings.slice(0, outerCount).filter((r) => r.length >= 3);
    const inner = rings.slice(outerCount).filter((r) => r.length >= 3);
    if (outer.length === 0) return;
    triangulateRings(coords, { outer, inner }, (a, b, c, isInner) => {
      tris.push(a, b, c);
      owner.push(pieceIndex);
      innerFlags.push(isInner ? 1 : 0);
    });
  });
  return {
    coords,
    vertexCount,
    triangles: Uint32Array.from(tris),
    triangleCount: owner.length,
    piece: Int32Array.from(owner),
    inner: Uint8Array.from(innerFlags),
  };
}

/** A piece's rings as global vertex ids: the polygon's rings, then the inner areas' rings. */
interface PieceRings {
  outer: number[][];
  inner: number[][];
}

/** The vertices of one piece, numbered locally for Delaunator. */
interface LocalVertices {
  /** Local index of each global vertex id. */
  local: Map<number, number>;
  /** Global vertex id of each local index. */
  globalOf: number[];
  /** Local coordinates `[x0, y0, …]` (m). */
  pts: Float64Array;
}

/**
 * Triangulates one polygon with holes (`outer` rings) and inner rings, given as global vertex
 * ids; emits the triangles inside the polygon, flagged when inside the inner rings.
 */
function triangulateRings(
  coords: Float64Array,
  rings: PieceRings,
  emit: (a: number, b: number, c: number, inner: boolean) => void,
): void {
  const verts = _localVertices(coords, [...rings.outer, ...rings.inner]);
  const { pts, globalOf } = verts;
  const del = new Delaunator(pts);
  const con = new Constrainautor(del);
  // Same flips, visited without rescanning every edge after each constraint.
  (con as unknown as { flips: SparseFlipSet }).flips = new SparseFlipSet(del.triangles.length);
  const bits = _constrainRings(con, verts, rings);
  const state = _floodParity(del, bits, globalOf.length);
  const triangles = del.triangles;
  for (let t = 0; t < state.length; t++) {
    if ((state[t] & 1) === 0) continue;
    const a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
    const cross = (pts[2 * b] - pts[2 * a]) * (pts[2 * c + 1] - pts[2 * a + 1]) -
      (pts[2 * b + 1] - pts[2 * a + 1]) * (pts[2 * c] - pts[2 * a]);
    const isInner = (state[t] & 2) !== 0;
    if (cross > 0) emit(globalOf[a], globalOf[b], globalOf[c], isInner);
    else if (cross < 0) emit(globalOf[a], globalOf[c], globalOf[b], isInner);
  }
}

/** Numbers the vertices of `rings` locally, in order of first appearance. */
function _localVertices(coords: Float64Array, rings: readonly number[][]): LocalVertices {
  const local = new Map<number, number>();
  const globalOf: number[] = [];
  for (const ring of rings) {
    for (const id of ring) {
      if (!local.has(id)) {
        local.set(id, globalOf.length);
        globalOf.push(id);
      }
    }
  }
  const m = globalOf.length;
  const pts = new Float64Array(2 * m);
  for (let i = 0; i < m; i++) {
    pts[2 * i] = coords[2 * globalOf[i]];
    pts[2 * i + 1] = coords[2 * globalOf[i] + 1];
  }
  return { local, globalOf, pts };
}

/** Key of the undirected edge between local vertices `a` and `b` of `m`. */
function _edgeKey(a: number, b: number, m: number): number {
  return a < b ? a * m + b : b * m + a;
}

/**
 * Forces every ring edge into the triangulation and returns the parity bits of each ring edge:
 * bit 0 flips inside-the-piece (outer rings), bit 1 inside-the-inner-area (inner rings).
 */
function _constrainRings(
  con: Constrainautor,
  verts: LocalVertices,
  rings: PieceRings,
): Map<number, number> {
  const bits = new Map<number, number>();
  const { local, pts } = verts, m = verts.globalOf.length;
  const addRings = (list: number[][], bit: number): void => {
    for (const ring of list) {
      for (let i = 0; i < ring.length; i++) {
        const a = local.get(ring[i])!, b = local.get(ring[(i + 1) % ring.length])!;
        if (a === b) continue;
        const kk = _edgeKey(a, b, m);
        bits.set(kk, (bits.get(kk) ?? 0) ^ bit);
        try {
          con.constrainOne(a, b);
        } catch (error) {
          const [ax, ay, bx, by] = [pts[2 * a], pts[2 * a + 1], pts[2 * b], pts[2 * b + 1]];
          throw new RangeError(
            `Cannot triangulate the walkable area: its edge (${ax}, ${ay})–(${bx}, ${by}) could not be kept (${
              (error as Error).message
            }); the input has crossing or nearly coincident edges`,
          );
        }
      }
    }
  };
  addRings(rings.outer, 1);
  addRings(rings.inner, 2);
  return bits;
}

/**
 * Parity state of every triangle, flooding from the hull: crossing a ring edge flips its
 * parity bits (`bits`, keyed by {@linkcode _edgeKey} over `m` vertices).
 */
function _floodParity(
  del: Delaunator<Float64Array>,
  bits: Map<number, number>,
  m: number,
): Int8Array {
  const triangles = del.triangles, halfedges = del.halfedges;
  const edgeBits = (e: number): number => {
    const a = triangles[e], b = triangles[e % 3 === 2 ? e - 2 : e + 1];
    return bits.get(_edgeKey(a, b, m)) ?? 0;
  };
  const state = new Int8Array(triangles.length / 3).fill(-1);
  const stack: number[] = [];
  for (let e = 0; e < halfedges.length; e++) {
    if (halfedges[e] !== -1) continue;
    const t = Math.floor(e / 3);
    if (state[t] !== -1) continue;
    state[t] = edgeBits(e);
    stack.push(t);
    while (stack.length) {
      const u = stack.pop()!;
      for (let j = 0; j < 3; j++) {
        const e2 = 3 * u + j, o = halfedges[e2];
        if (o < 0) continue;
        const w = Math.floor(o / 3);
        if (state[w] !== -1) continue;
        state[w] = state[u] ^ edgeBits(e2);
        stack.push(w);
      }
    }
  }
  return state;
}

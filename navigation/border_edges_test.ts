import assert from "node:assert/strict";
import { extractBorderEdges } from "./border_edges.ts";

/**
 * A 4 × 4 m square tiled in 1 m tiles the way tile-based mesh builders leave them: even tiles
 * split in two triangles, odd tiles in four around their centre, so tile seams carry
 * T-junctions; optionally without the tiles in `holes`.
 */
function tiledSquare(holes: Set<string> = new Set()): { coords: number[]; triangles: number[] } {
  const coords: number[] = [], triangles: number[] = [];
  const vertex = (x: number, y: number): number => {
    coords.push(x, y);
    return coords.length / 2 - 1;
  };
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      if (holes.has(`${i},${j}`)) continue;
      const a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1), d = vertex(i, j + 1);
      if ((i + j) % 2 === 0) triangles.push(a, b, c, a, c, d);
      else {
        // Four triangles around the centre, with the bottom edge split at its midpoint.
        const m = vertex(i + 0.5, j + 0.5), e = vertex(i + 0.5, j);
        triangles.push(a, e, m, e, b, m, b, c, m, c, d, m, d, a, m);
      }
    }
  }
  return { coords, triangles };
}

function segmentLength(b: ReturnType<typeof extractBorderEdges>, s: number): number {
  return Math.hypot(b.bx[s] - b.ax[s], b.by[s] - b.ay[s]);
}

Deno.test("border-edge merging reduces the edge count of a tiled square to its 4 sides, keeping the boundary", () => {
  const { coords, triangles } = tiledSquare();
  const border = extractBorderEdges(coords, triangles);
  assert(border.unmergedCount >= 16, `${border.unmergedCount} border edges before merging`);
  assert.equal(border.count, 4);
  let length = 0;
  for (let s = 0; s < border.count; s++) length += segmentLength(border, s);
  assert(Math.abs(length - 16) < 1e-12, `perimeter ${length}`);
  // Every corner of the square is an end of a merged segment; the ring is counter-clockwise.
  const ends = new Set<string>();
  for (let s = 0; s < border.count; s++) ends.add(`${border.ax[s]},${border.ay[s]}`);
  assert.deepEqual([...ends].sort(), ["0,0", "0,4", "4,0", "4,4"]);
  assert.equal(border.chains.length, 1);
  assert(border.chains[0].closed);
  assert.equal(border.chains[0].area, 16);
});

Deno.test("tile seams with T-junctions do not become border edges", () => {
  const { coords, triangles } = tiledSquare();
  // Without the T-junction split, the seams of split tiles would count as used once.
  const border = extractBorderEdges(coords, triangles, { mergeAngleDeg: 0 });
  for (let s = 0; s < border.count; s++) {
    const onBoundary = [border.ax[s], border.bx[s]].every((x) => x === 0 || x === 4) ||
      [border.ay[s], border.by[s]].every((y) => y === 0 || y === 4);
    assert(onBoundary, `segment ${s} lies inside the square`);
  }
});

Deno.test("a hole in a tiled square gives a second, clockwise ring of 4 merged segments", () => {
  const { coords, triangles } = tiledSquare(new Set(["1,1", "1,2", "2,1", "2,2"]));
  const border = extractBorderEdges(coords, triangles);
  assert.equal(border.count, 8);
  const areas = border.chains.map((c) => c.area).sort((a, b) => a - b);
  assert.deepEqual(areas, [-4, 16]);
});

Deno.test("edges in line within 3 degrees merge, sharper bends stay", () => {
  // A strip of two quads whose top edge bends by `deg` at x = 1.
  const strip = (deg: number) => {
    const h = Math.tan((deg * Math.PI) / 180);
    const coords = [0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1 + h];
    const triangles = [0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4];
    return extractBorderEdges(coords, triangles).count;
  };
  assert.equal(strip(2), 4, "a 2° bend merges");
  assert.equal(strip(5), 5, "a 5° bend stays");
});

Deno.test("border extraction rejects a merge angle outside [0, 90) naming it", () => {
  assert.throws(
    () => extractBorderEdges([0, 0, 1, 0, 0, 1], [0, 1, 2], { mergeAngleDeg: 95 }),
    /'mergeAngleDeg' must be in \[0, 90\): current value is 95/,
  );
});

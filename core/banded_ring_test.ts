import assert from "node:assert/strict";
import { BandedRing } from "./banded_ring.ts";
import { type Point, pointInPolygon } from "./geometry.ts";
import { Rng } from "./rng.ts";

/** A star-shaped ring of `n` points around (cx, cy), radii in [r0, r1], on a 0.5 m lattice. */
function starRing(rng: Rng, n: number, cx: number, cy: number, r0: number, r1: number): Point[] {
  const ring: Point[] = [];
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n, r = rng.range(r0, r1);
    // Snapped, so that many points share a height with others and with the test points.
    ring.push([
      Math.round(2 * (cx + r * Math.cos(a))) / 2,
      Math.round(2 * (cy + r * Math.sin(a))) / 2,
    ]);
  }
  return ring;
}

Deno.test("BandedRing answers exactly as pointInPolygon, on vertices and edge heights too", () => {
  const rng = new Rng(3);
  let inside = 0, tested = 0;
  for (let round = 0; round < 40; round++) {
    const n = [5, 31, 32, 100, 600][round % 5];
    const ring = round % 7 === 6
      // Random points: a self-crossing ring, which the even-odd rule still defines.
      ? Array.from({ length: n }, (): Point => [rng.range(-50, 50), rng.range(-50, 50)])
      : starRing(rng, n, rng.range(-100, 100), rng.range(-100, 100), 5, 60);
    const banded = new BandedRing(ring);
    const probe = (x: number, y: number) => {
      tested++;
      const expected = pointInPolygon(x, y, ring);
      if (expected) inside++;
      assert.equal(banded.contains(x, y), expected, `(${x}, ${y}) in ring ${round} of ${n}`);
    };
    for (let q = 0; q < 2000; q++) probe(rng.range(-170, 170), rng.range(-170, 170));
    for (const [x, y] of ring) {
      probe(x, y); // on a vertex
      probe(x + rng.range(-3, 3), y); // at a vertex's height
      probe(Math.round(2 * x + rng.range(-6, 6)) / 2, Math.round(2 * y + rng.range(-6, 6)) / 2);
    }
    probe(NaN, 0);
    probe(0, NaN);
  }
  assert.ok(inside > 0.1 * tested && inside < 0.9 * tested, `${inside} of ${tested} inside`);
});

Deno.test("BandedRing reads a few edges per test on a ring of thousands", () => {
  // A circle of 4,000 points: a horizontal line crosses it twice.
  const ring: Point[] = Array.from({ length: 4000 }, (_, k): Point => {
    const a = (2 * Math.PI * k) / 4000;
    return [100 * Math.cos(a), 100 * Math.sin(a)];
  });
  const banded = new BandedRing(ring);
  assert.equal(banded.contains(0, 0), true);
  assert.equal(banded.contains(99, 10), true);
  assert.equal(banded.contains(101, 0), false);
  assert.ok(banded.edgesRead(0) <= 32, `${banded.edgesRead(0)} edges read`);
  assert.ok(banded.edgesRead(99.9) <= 200, `${banded.edgesRead(99.9)} edges read`);
});

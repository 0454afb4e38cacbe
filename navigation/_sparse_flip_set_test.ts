import assert from "node:assert/strict";
import Constrainautor from "npm:@kninnug/constrainautor@4.1.0";
import Delaunator from "npm:delaunator@5.1.0";
import { Rng } from "../core/rng.ts";
import { SparseFlipSet } from "./_sparse_flip_set.ts";

/** Random points and random non-crossing constraint edges (a chain of x-sorted points). */
function constrained(seed: number, sparse: boolean): Uint32Array {
  const rng = new Rng(seed);
  const n = 400;
  const pts = new Float64Array(2 * n);
  for (let i = 0; i < 2 * n; i++) pts[i] = rng.next() * 100;
  // A monotone chain in x never crosses itself: its edges are valid constraints.
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => pts[2 * a] - pts[2 * b]);
  const del = new Delaunator(pts);
  const con = new Constrainautor(del);
  if (sparse) {
    (con as unknown as { flips: SparseFlipSet }).flips = new SparseFlipSet(del.triangles.length);
  }
  for (let i = 0; i + 7 < n; i += 7) con.constrainOne(order[i], order[i + 7]);
  return Uint32Array.from(del.triangles);
}

Deno.test("the sparse flip set gives Constrainautor's triangulation bit for bit", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const own = constrained(seed, false), sparse = constrained(seed, true);
    assert.equal(sparse.length, own.length);
    assert.deepEqual(sparse, own, `seed ${seed}`);
  }
});

Deno.test("the sparse flip set visits ids ascending, later additions above in the same pass", () => {
  const set = new SparseFlipSet(100);
  for (const i of [70, 3, 41, 9]) set.add(i);
  const seen: number[] = [];
  set.forEach((i) => {
    seen.push(i);
    set.delete(i);
    if (i === 9) set.add(60); // above: visited now
    if (i === 41) set.add(5); // below: left for the next pass
  });
  assert.deepEqual(seen, [3, 9, 41, 60, 70]);
  assert(set.has(5));
  const next: number[] = [];
  set.forEach((i) => {
    next.push(i);
    set.delete(i);
  });
  assert.deepEqual(next, [5]);
  assert(!set.has(5));
});

import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { weldPoints, weldPointsByMap } from "./_weld.ts";

Deno.test("welding with the cell table matches the Map of cells, point for point", () => {
  const rng = new Rng(3);
  for (const tolerance of [0, 0.001, 0.05]) {
    // Clusters of near-coincident points, exact repeats and scattered points.
    const n = 5000;
    const xy = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const base = rng.int(800);
      xy[2 * i] = (base % 40) * 0.037 - 0.5 + (rng.chance(0.5) ? rng.next() * 0.002 : 0);
      xy[2 * i + 1] = Math.floor(base / 40) * 0.041 - 0.3 +
        (rng.chance(0.5) ? rng.next() * 0.002 : 0);
    }
    const fast = weldPoints(xy, tolerance), reference = weldPointsByMap(xy, tolerance);
    assert.deepEqual(fast, reference);
    const representatives = fast.filter((r, i) => r === i).length;
    assert(representatives > 100 && representatives < n, `${representatives} of ${n}`);
  }
});

Deno.test("points too far out for integer cells are welded all the same", () => {
  const xy = new Float64Array([1e12, 5, 1e12 + 0.0005, 5, 3, 4]);
  assert.deepEqual(Array.from(weldPoints(xy, 0.001)), [0, 0, 2]);
});

import assert from "node:assert/strict";
import { hypot2, hypotAtMost } from "./geometry.ts";
import { Rng } from "./rng.ts";

Deno.test("hypot2 equals Math.hypot bit for bit on 2 million pairs of every magnitude", () => {
  const rng = new Rng(3);
  let checked = 0;
  for (let k = 0; k < 250_000; k++) {
    const x = (rng.next() - 0.5) * 10 ** Math.floor(rng.range(-12, 12));
    const y = (rng.next() - 0.5) * 10 ** Math.floor(rng.range(-12, 12));
    const pairs = [[x, y], [y, x], [-x, y], [x, 0], [0, y], [Math.round(x * 100) / 100, 0.25]];
    pairs.push([x * 1e-300, y], [x * 1e300, y * 1e-10]);
    for (const [p, q] of pairs) {
      assert.ok(Object.is(hypot2(p, q), Math.hypot(p, q)), `hypot2(${p}, ${q})`);
      checked++;
    }
  }
  assert.equal(checked, 2_000_000);
  for (const [p, q] of [[0, 0], [-0, 0], [Infinity, NaN], [NaN, 1], [-Infinity, 2]]) {
    assert.ok(Object.is(hypot2(p, q), Math.hypot(p, q)), `hypot2(${p}, ${q})`);
  }
});

Deno.test("hypotAtMost answers Math.hypot(dx, dy) <= r, near the boundary too", () => {
  const rng = new Rng(4);
  for (let k = 0; k < 200_000; k++) {
    const dx = rng.range(-3, 3), dy = rng.range(-3, 3);
    const d = Math.hypot(dx, dy);
    // Radii exactly at, one ulp around, and far from the distance.
    for (const r of [d, d * (1 + 2 ** -52), d * (1 - 2 ** -52), rng.range(0, 4), -1, NaN]) {
      assert.equal(hypotAtMost(dx, dy, r), Math.hypot(dx, dy) <= r, `(${dx}, ${dy}) r ${r}`);
    }
  }
  assert.equal(hypotAtMost(1e-170, 0, 1e-170), true);
  assert.equal(hypotAtMost(1e200, 1e200, 1e200), false);
});

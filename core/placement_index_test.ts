import assert from "node:assert/strict";
import { PlacementIndex } from "./placement_index.ts";
import { Rng } from "./rng.ts";

Deno.test("placement index answers 'is this spot free?' like brute force, at negative coordinates", () => {
  const rng = new Rng(12);
  const index = new PlacementIndex();
  index.reset(1.2, 500);
  const discs: [number, number, number][] = [];
  for (let i = 0; i < 500; i++) {
    const d: [number, number, number] = [
      rng.range(-80, -60),
      rng.range(-15, 5),
      rng.range(0.1, 0.6),
    ];
    discs.push(d);
    index.insert(...d);
  }
  let free = 0;
  for (let q = 0; q < 5000; q++) {
    const x = rng.range(-82, -58),
      y = rng.range(-17, 7),
      r = rng.range(0.05, 0.5),
      gap = rng.chance(0.5) ? 0.02 : 0;
    const want = discs.every(([dx, dy, dr]) =>
      (dx - x) ** 2 + (dy - y) ** 2 >= (dr + r + gap) ** 2
    );
    assert.equal(index.isFree(x, y, r, gap), want, `(${x}, ${y}) r=${r} gap=${gap}`);
    if (want) free++;
  }
  assert(free > 500 && free < 4500, `${free} free spots: the test needs both answers`);
});

Deno.test("placement index forgets everything on reset and rejects a bad cell size", () => {
  const index = new PlacementIndex();
  index.reset(1);
  index.insert(0, 0, 0.5);
  assert.equal(index.isFree(0, 0, 0.1), false);
  index.reset(1);
  assert.equal(index.isFree(0, 0, 0.1), true);
  assert.throws(() => index.reset(0), /'cellSize' must be a finite number > 0: current value is 0/);
});

Deno.test("placement index refuses spots at 1e300 m instead of looping over cells forever", () => {
  const index = new PlacementIndex();
  index.reset(1);
  index.insert(0, 0, 0.25);
  assert.throws(() => index.isFree(1e300, 1e300, 0.25), /coordinates too large/);
  assert.throws(() => index.isFree(NaN, 0, 0.25), /coordinates too large/);
  assert(index.isFree(9e6, -9e6, 0.25));
});

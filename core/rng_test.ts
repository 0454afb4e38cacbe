import assert from "node:assert/strict";
import { MAX_SEED, Rng, RngStream } from "./rng.ts";

function draws(rng: Rng, n: number): number[] {
  return Array.from({ length: n }, () => rng.next());
}

Deno.test("rng gives the same numbers for the same seed and stream", () => {
  assert.deepEqual(draws(new Rng(123), 1000), draws(new Rng(123), 1000));
  assert.deepEqual(draws(new Rng(123, 2), 1000), draws(new Rng(123, 2), 1000));
  const a = new Rng(5), b = new Rng(5);
  for (let i = 0; i < 500; i++) assert.equal(a.normal(1, 2), b.normal(1, 2));
});

Deno.test("rng streams and seeds give different sequences", () => {
  const sequences = [
    draws(new Rng(1, RngStream.spawn), 50),
    draws(new Rng(1, RngStream.strategy), 50),
    draws(new Rng(1, RngStream.navigation), 50),
    draws(new Rng(1, RngStream.user), 50),
    draws(new Rng(2), 50),
    draws(new Rng(0), 50),
    draws(new Rng(MAX_SEED), 50),
    draws(new Rng(2 ** 31), 50),
  ];
  const values = new Set(sequences.flat());
  assert.equal(values.size, 8 * 50, "no value repeats within or across the sequences");
});

Deno.test("rng draws uniform numbers in [0, 1) and in the requested ranges", () => {
  const rng = new Rng(77);
  let sum = 0, min = Infinity, max = -Infinity;
  const buckets = new Array(10).fill(0);
  const n = 100_000;
  for (let i = 0; i < n; i++) {
    const u = rng.next();
    sum += u;
    min = Math.min(min, u);
    max = Math.max(max, u);
    buckets[Math.floor(u * 10)]++;
  }
  assert(min >= 0 && max < 1);
  assert(Math.abs(sum / n - 0.5) < 0.004, `mean ${sum / n}`); // 4 standard errors
  for (const b of buckets) assert(Math.abs(b - n / 10) < 500, `bucket of ${b}`);
  for (let i = 0; i < 1000; i++) {
    const r = rng.range(-3, -1);
    assert(r >= -3 && r < -1);
    const k = rng.int(7);
    assert(Number.isInteger(k) && k >= 0 && k < 7);
  }
  let heads = 0;
  for (let i = 0; i < 10_000; i++) if (rng.chance(0.3)) heads++;
  assert(Math.abs(heads - 3000) < 200, `${heads} of 10000 at p = 0.3`);
});

Deno.test("rng normal draws have the requested mean and standard deviation over 100k draws", () => {
  const rng = new Rng(2024, RngStream.user);
  const n = 100_000, mean = 1.34, sd = 0.26;
  let sum = 0, sumSq = 0, beyond2sd = 0;
  for (let i = 0; i < n; i++) {
    const v = rng.normal(mean, sd);
    sum += v;
    sumSq += v * v;
    if (Math.abs(v - mean) > 2 * sd) beyond2sd++;
  }
  const m = sum / n, s = Math.sqrt(sumSq / n - m * m);
  // Standard errors: sd/√n = 0.0008 for the mean, sd/√(2n) = 0.0006 for the deviation.
  assert(Math.abs(m - mean) < 0.004, `mean ${m}`);
  assert(Math.abs(s - sd) < 0.003, `sd ${s}`);
  // 4.55% of a normal lies beyond 2 sd.
  assert(Math.abs(beyond2sd / n - 0.0455) < 0.003, `${beyond2sd / n} beyond 2 sd`);
});

Deno.test("rng rejects seeds and streams outside their range naming them", () => {
  for (const seed of [-1, 1.5, MAX_SEED + 1, NaN]) {
    assert.throws(() => new Rng(seed), (e: Error) => {
      assert(e instanceof RangeError);
      assert.match(e.message, /'seed' must be an integer in \[0, 4294967295\]: current value is/);
      return true;
    });
  }
  assert.throws(
    () => new Rng(1, -1),
    /'stream' must be an integer in \[0, 1024\]: current value is -1/,
  );
  assert.throws(() => new Rng(1, 2000), /'stream' must be an integer in \[0, 1024\]/);
  new Rng(MAX_SEED, 1024);
});

import assert from "node:assert/strict";
import {
  DEFAULT_DESIRED_SPEED,
  type Distribution,
  distributionMax,
  distributionMean,
  sampleDistribution,
  validateDistribution,
} from "./distribution.ts";
import { Rng } from "./rng.ts";

Deno.test("distributions sample within their limits with the expected mean", () => {
  const rng = new Rng(8);
  const n = 50_000;
  let sum = 0, atMin = 0;
  for (let i = 0; i < n; i++) {
    const v = sampleDistribution(DEFAULT_DESIRED_SPEED, rng);
    assert(v >= 0.5 && v <= 2.0);
    if (v === 0.5) atMin++;
    sum += v;
  }
  // Clamping at 0.5 = mean - 3.2 sd touches about 0.07% of draws and barely moves the mean.
  assert(Math.abs(sum / n - 1.34) < 0.005, `mean ${sum / n}`);
  assert(atMin < n * 0.002, `${atMin} clamped`);
  let uniform = 0;
  for (let i = 0; i < n; i++) {
    uniform += sampleDistribution({ kind: "uniform", min: 1, max: 3 }, rng);
  }
  assert(Math.abs(uniform / n - 2) < 0.01);
  assert.equal(sampleDistribution({ kind: "constant", value: 0.3 }, rng), 0.3);
  const clampedHigh: Distribution = { kind: "normal", mean: 5, sd: 0.1, min: 0, max: 1 };
  assert.equal(sampleDistribution(clampedHigh, rng), 1);
  assert.equal(distributionMax(clampedHigh), 1);
  assert.equal(distributionMean({ kind: "uniform", min: 1, max: 2 }), 1.5);
});

Deno.test("distribution validation names the field and the rule", () => {
  const check = (d: unknown, min = -Infinity, exclusive = false) => () =>
    validateDistribution(d as Distribution, "add spawner 'x'", "agent.radius", min, exclusive);
  check({ kind: "constant", value: 0.25 }, 0, true)();
  check(DEFAULT_DESIRED_SPEED, 0)();
  assert.throws(
    check({ kind: "constant", value: 0 }, 0, true),
    /'agent.radius.value' must be > 0: current value is 0/,
  );
  assert.throws(
    check({ kind: "uniform", min: -1, max: 1 }, 0),
    /'agent.radius.min' must be >= 0: current value is -1/,
  );
  assert.throws(
    check({ kind: "normal", mean: NaN, sd: 1, min: 0, max: 1 }),
    /'agent.radius.mean' must be a finite number/,
  );
  assert.throws(
    check({ kind: "uniform", min: 2, max: 1 }),
    /'agent.radius.max' must be >= min \(2\): current value is 1/,
  );
  assert.throws(
    check({ kind: "gamma" }),
    /'agent.radius.kind' must be one of constant, normal, uniform/,
  );
});

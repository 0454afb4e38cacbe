import assert from "node:assert/strict";
import { ballisticDistance, brakingDistance, IntelligentDriver } from "./idm.ts";

Deno.test("idm: a car on a free road accelerates at a from standstill and levels off at v0", () => {
  const idm = new IntelligentDriver({ maxAcceleration: 1, accelerationExponent: 4 });
  assert.equal(idm.acceleration(0, 15, Infinity, 0), 1);
  // a [1 − (v/v0)^4] at half the desired speed: 1 − 1/16.
  assert.equal(idm.acceleration(7.5, 15, Infinity, 0), 1 - 1 / 16);
  assert.equal(idm.acceleration(15, 15, Infinity, 0), 0);
  // Integrated for a minute with the ballistic update, the car gets within 2 % of v0 and no
  // further than v0.
  let v = 0, x = 0;
  for (let k = 0; k < 1200; k++) {
    const acc = idm.acceleration(v, 15, Infinity, 0);
    x += ballisticDistance(v, acc, 0.05);
    v = Math.max(0, v + acc * 0.05);
  }
  assert(v > 0.98 * 15 && v <= 15, `speed after 60 s: ${v}`);
  assert(x > 600 && x < 900, `distance after 60 s: ${x}`);
});

Deno.test("idm: following at the equilibrium gap is steady; closer brakes, further accelerates", () => {
  const idm = new IntelligentDriver(); // T = 1 s, s0 = 2 m, δ = 4
  const v = 10, v0 = 13.9;
  const gap = idm.equilibriumGap(v, v0);
  // (s0 + v T) / sqrt(1 − (v/v0)^4) = 12 / sqrt(1 − 0.2679…) = 14.03 m
  assert(Math.abs(gap - 12 / Math.sqrt(1 - Math.pow(10 / 13.9, 4))) < 1e-12);
  assert(Math.abs(gap - 14.025) < 0.01, `gap ${gap}`);
  assert(Math.abs(idm.acceleration(v, v0, gap, 0)) < 1e-12);
  assert(idm.acceleration(v, v0, gap - 1, 0) < -0.1);
  assert(idm.acceleration(v, v0, gap + 1, 0) > 0.05);
  // A follower starting far behind a leader at 10 m/s settles at that gap.
  let xf = 0, vf = 13.9, xl = 200;
  for (let k = 0; k < 4000; k++) {
    const acc = idm.acceleration(vf, v0, xl - 4.5 - xf, vf - v);
    xf += ballisticDistance(vf, acc, 0.05);
    vf = Math.max(0, vf + acc * 0.05);
    xl += v * 0.05;
  }
  assert(Math.abs(xl - 4.5 - xf - gap) < 0.05, `settled gap ${xl - 4.5 - xf}`);
  assert(Math.abs(vf - v) < 1e-3);
});

Deno.test("idm: a car from 50 km/h stops about s0 short of a standing obstacle, never touching it", () => {
  const idm = new IntelligentDriver({ minimumGap: 2 });
  let x = 0, v = 13.9, closest = Infinity;
  for (let k = 0; k < 2000; k++) {
    const gap = 100 - x;
    closest = Math.min(closest, gap);
    const acc = idm.acceleration(v, 13.9, gap, v);
    x += ballisticDistance(v, acc, 0.05);
    v = Math.max(0, v + acc * 0.05);
  }
  assert(v < 0.01);
  assert(closest > 1.5 && 100 - x < 2.2, `stopped ${100 - x} m short, closest ${closest} m`);
  // Overlap brakes at the limit.
  assert.equal(idm.acceleration(5, 13.9, -0.1, 0), -9);
});

Deno.test("idm: braking distance and parameters out of range", () => {
  assert.equal(brakingDistance(13.9, 1.5), 13.9 * 13.9 / 3);
  assert.throws(
    () => new IntelligentDriver({ comfortableDeceleration: 0 }),
    /'comfortableDeceleration' must be >= 0.01: current value is 0/,
  );
});

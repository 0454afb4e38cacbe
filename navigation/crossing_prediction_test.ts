import assert from "node:assert/strict";
import { CrossingAssessment, UnsignalledCrossing } from "./crossing_prediction.ts";

function cars(rows: [number, number, number][]) {
  return {
    count: rows.length,
    distance: Float64Array.from(rows.map((r) => r[0])),
    maxSpeed: Float64Array.from(rows.map((r) => r[1])),
    length: new Float64Array(rows.length).fill(4.5),
    holdTime: Float64Array.from(rows.map((r) => r[2])),
  };
}

// A 14 m street (four lanes), crosswalk 3 m wide, a pedestrian walking at 1.34 m/s: crossing
// at 1.8 × 1.34 = 2.412 m/s takes 5.80 s, plus 1 s: 6.80 s. A car at 13.9 m/s covers 94.5 m in
// that time, 96.5 m with the 2 m margin.
const street = { length: 14, width: 3, walkingSpeed: 1.34 };

Deno.test("unsignalled crossing: a car is a threat when its stretch at full speed reaches the crosswalk", () => {
  const check = new UnsignalledCrossing();
  const out = new CrossingAssessment();
  assert(Math.abs(check.crossingTime(14, 1.34) - (14 / 2.412 + 1)) < 1e-12);
  check.assess(cars([[100, 13.9, 0]]), street, out);
  assert.equal(out.safe, true);
  assert(Math.abs(out.reach[0] - (13.9 * (14 / 2.412 + 1) + 2)) < 1e-9);
  check.assess(cars([[90, 13.9, 0]]), street, out);
  assert.equal(out.safe, false);
  // The current speed is not even asked: a car standing 90 m away may be at full speed soon.
  // Cars coming from either side count: one threat among safe cars makes it unsafe.
  check.assess(cars([[150, 13.9, 0], [90, 13.9, 0], [200, 13.9, 0]]), street, out);
  assert.deepEqual([...out.threats.subarray(0, 3)], [0, 1, 0]);
  assert.equal(out.threatCount, 1);
});

Deno.test("unsignalled crossing: cars held by a red light count only for the time after it turns green", () => {
  const check = new UnsignalledCrossing();
  const out = new CrossingAssessment();
  // 5 m away, held for 10 s (> 6.80 s): it cannot move before the pedestrian is across.
  check.assess(cars([[5, 13.9, 10]]), street, out);
  assert.equal(out.safe, true);
  assert.equal(out.reach[0], 2);
  // Held for 3 s only: 3.80 s at 13.9 m/s is 52.8 m: a threat.
  check.assess(cars([[5, 13.9, 3]]), street, out);
  assert.equal(out.safe, false);
  // Held, but already touching the margin (1.5 m away): a threat.
  check.assess(cars([[1.5, 13.9, 60]]), street, out);
  assert.equal(out.safe, false);
});

Deno.test("unsignalled crossing: cars on the crosswalk are threats, cars past it are not", () => {
  const check = new UnsignalledCrossing();
  const out = new CrossingAssessment();
  // Front 1 m onto the crosswalk: a threat even if it were held.
  check.assess(cars([[-1, 13.9, 60]]), street, out);
  assert.equal(out.safe, false);
  // Front 10 m past the near edge: the rear (4.5 m behind) is 2.5 m past the far edge (3 m).
  check.assess(cars([[-10, 13.9, 0]]), street, out);
  assert.equal(out.safe, true);
  // Rear still on the crosswalk (front 7 m past, rear 2.5 m past the near edge).
  check.assess(cars([[-7, 13.9, 0]]), street, out);
  assert.equal(out.safe, false);
  // A slower walker needs a bigger gap: at 0.8 m/s the 100 m car becomes a threat.
  check.assess(cars([[100, 13.9, 0]]), { ...street, walkingSpeed: 0.8 }, out);
  assert.equal(out.safe, false);
  assert.throws(() => check.assess(cars([]), { ...street, walkingSpeed: 0 }, out), /walkingSpeed/);
});

import assert from "node:assert/strict";
import { stairSpeedFactor } from "./stair_speed.ts";

/** Weidmann (1993): mean horizontal speeds on stairs of gradient 1:2 and on the flat (m/s). */
const WEIDMANN = { flat: 1.34, upstairs: 0.610, downstairs: 0.694 };

Deno.test("on Weidmann's 1:2 reference stair the horizontal speeds are his table's 0.610 and 0.694 m/s", () => {
  for (const [tread, riser] of [[0.30, 0.15], [0.34, 0.17]]) {
    const up = WEIDMANN.flat * stairSpeedFactor(tread, riser, true);
    const down = WEIDMANN.flat * stairSpeedFactor(tread, riser, false);
    assert.ok(Math.abs(up - WEIDMANN.upstairs) < 1e-9, `upstairs ${up} m/s`);
    assert.ok(Math.abs(down - WEIDMANN.downstairs) < 1e-9, `downstairs ${down} m/s`);
  }
});

Deno.test("steeper stairs are slower, shallower ones faster, and no stair is faster than the flat", () => {
  // A 0.28 m × 0.17 m stair (31°, steeper than 1:2): 0.502 m/s up and 0.572 m/s down.
  assert.ok(Math.abs(1.34 * stairSpeedFactor(0.28, 0.17, true) - 0.5024) < 1e-4);
  assert.ok(Math.abs(1.34 * stairSpeedFactor(0.28, 0.17, false) - 0.5715) < 1e-4);
  // A 0.40 m × 0.10 m stair (1:4): 1.220 m/s up, and down capped at the flat speed.
  assert.ok(Math.abs(1.34 * stairSpeedFactor(0.40, 0.10, true) - 1.220) < 1e-9);
  assert.equal(stairSpeedFactor(0.40, 0.10, false), 1);
  assert.throws(() => stairSpeedFactor(0, 0.17, true), /'treadDepth' must be a finite number > 0/);
});

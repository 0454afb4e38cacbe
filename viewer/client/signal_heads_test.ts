import assert from "node:assert/strict";
import type { TrafficSceneInfo } from "../frame_protocol.ts";
import { allocateTrafficFrame, decodeTrafficFrame } from "../traffic_frame.ts";
import {
  signalDrawing,
  VEHICLE_LIGHT_COLORS,
  WALK_FLASH_PERIOD_S,
  WALK_SIGNAL_COLORS,
  WALK_SIGNAL_DARK,
} from "./signal_heads.ts";

/** A scene with one vehicle light and two walk signals, and a message with their states. */
function _scene(states: number[]) {
  const scene: TrafficSceneInfo = {
    signals: [
      { position: [0, 0], kind: "vehicle" },
      { position: [5, 0], kind: "walk" },
      { position: [10, 0], kind: "walk" },
    ],
    stripes: [],
    sidewalks: [],
    crossingStates: [],
  };
  const frame = allocateTrafficFrame({ view: 0, step: 7, cars: 0, signals: 3, states: 0 });
  const decoded = decodeTrafficFrame(frame.buffer);
  decoded.signalState.set(states);
  return { scene, frame: decoded };
}

function _rgb(colors: Uint8Array, k: number): number[] {
  return [...colors.subarray(4 * k, 4 * k + 3)];
}

Deno.test("a flashing walk signal blinks once a second; steady states do not", () => {
  // Vehicle light red, one walk signal flashing, one showing "don't walk".
  const { scene, frame } = _scene([2, 1, 2]);
  let lit = 0, dark = 0;
  const samples = 40;
  for (let k = 0; k < samples; k++) {
    const time = 12 + k * 0.1; // 4 s in 0.1 s steps
    const drawn = signalDrawing(scene, frame, time);
    assert.deepEqual(_rgb(drawn.vehicle.colors, 0), [...VEHICLE_LIGHT_COLORS[2]]);
    assert.deepEqual(_rgb(drawn.walk.colors, 1), [...WALK_SIGNAL_COLORS[2]]);
    const flashing = _rgb(drawn.walk.colors, 0);
    if (flashing.join() === WALK_SIGNAL_COLORS[1].join()) lit++;
    else if (flashing.join() === WALK_SIGNAL_DARK.join()) dark++;
    else assert.fail(`flashing head drawn ${flashing}`);
  }
  // Half lit, half dark, and the phase changes every half period.
  assert.equal(lit, samples / 2);
  assert.equal(dark, samples / 2);
  const a = signalDrawing(scene, frame, 20.1), b = signalDrawing(scene, frame, 20.6);
  assert.notDeepEqual(_rgb(a.walk.colors, 0), _rgb(b.walk.colors, 0));
  const c = signalDrawing(scene, frame, 20.1 + WALK_FLASH_PERIOD_S);
  assert.deepEqual(_rgb(a.walk.colors, 0), _rgb(c.walk.colors, 0));
});

Deno.test("signal heads are grey before the first traffic message", () => {
  const { scene } = _scene([0, 0, 0]);
  const drawn = signalDrawing(scene, null, 0);
  assert.deepEqual(_rgb(drawn.vehicle.colors, 0), [128, 128, 128]);
  assert.deepEqual(_rgb(drawn.walk.colors, 1), [128, 128, 128]);
});

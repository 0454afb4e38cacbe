import assert from "node:assert/strict";
import {
  allocateTrafficFrame,
  carCentreLines,
  decodeTrafficFrame,
  TRAFFIC_HEADER_BYTES,
  trafficFrameBytes,
} from "./traffic_frame.ts";
import { encodeDebugSegments, FRAME_PROTOCOL_VERSION, MessageKind } from "./frame_protocol.ts";

/** A message of 3 cars, 5 signal heads and 7 crossing states with known values. */
function sample(): ArrayBuffer {
  const f = allocateTrafficFrame({ view: 2, step: 1234, cars: 3, signals: 5, states: 7 });
  f.centres.set([1.5, -2, 30, 4.25, -100.5, 0]);
  f.heading.set([0, Math.PI / 2, -Math.PI]);
  f.speed.set([0, 8.5, 13.9]);
  f.length.set([4.5, 4.2, 12]);
  f.width.set([1.8, 1.7, 2.5]);
  f.signalState.set([0, 1, 2, 0, 2]);
  f.crossingState.set([0, 1, 2, 3, 4, 5, 6]);
  return f.buffer;
}

Deno.test("a traffic message carries every car, signal state and crossing state unchanged", () => {
  const buffer = sample();
  // 24 header + 24 per car + 1 per signal + 1 per state, padded to 4: 24 + 72 + 5 + 7 = 108.
  assert.equal(buffer.byteLength, 108);
  assert.equal(trafficFrameBytes(3, 5, 7), 108);
  const t = decodeTrafficFrame(buffer);
  assert.deepEqual(
    [t.view, t.step, t.cars, t.signals, t.states],
    [2, 1234, 3, 5, 7],
  );
  assert.deepEqual([...t.centres], [1.5, -2, 30, 4.25, -100.5, 0]);
  assert.deepEqual([...t.speed], [0, 8.5, Math.fround(13.9)]);
  assert.deepEqual([...t.length], [4.5, Math.fround(4.2), 12]);
  assert.deepEqual([...t.width], [Math.fround(1.8), Math.fround(1.7), 2.5]);
  assert.deepEqual([...t.signalState], [0, 1, 2, 0, 2]);
  assert.deepEqual([...t.crossingState], [0, 1, 2, 3, 4, 5, 6]);
  const bytes = new Uint8Array(buffer);
  assert.deepEqual([...bytes.subarray(0, 4)], [MessageKind.traffic, FRAME_PROTOCOL_VERSION, 2, 0]);
});

Deno.test("a traffic message's columns are views of the message, each on a 4-byte boundary", () => {
  const buffer = sample();
  const t = decodeTrafficFrame(buffer);
  for (const column of [t.centres, t.heading, t.speed, t.length, t.width, t.signalState]) {
    assert.equal(column.buffer, buffer);
    assert.equal(column.byteOffset % 4, 0);
  }
  assert.equal(t.centres.byteOffset, TRAFFIC_HEADER_BYTES);
  // Writing through the view writes the message (no copy).
  t.centres[0] = 9;
  assert.equal(decodeTrafficFrame(buffer).centres[0], 9);
});

Deno.test("a message of no cars, no signals and no states is the bare header", () => {
  const { buffer } = allocateTrafficFrame({ view: 0, step: 0, cars: 0, signals: 0, states: 0 });
  const t = decodeTrafficFrame(buffer);
  assert.equal(buffer.byteLength, 24);
  assert.deepEqual([t.cars, t.signals, t.states], [0, 0, 0]);
  assert.equal(carCentreLines(t, new Float32Array(0)).length, 0);
});

Deno.test("malformed traffic messages are refused with what is wrong", () => {
  const buffer = sample();
  assert.throws(() => decodeTrafficFrame(buffer.slice(0, 104)), /104 bytes but 3 cars, 5 signal/);
  assert.throws(() => decodeTrafficFrame(buffer.slice(0, 10)), /shorter than its 24-byte header/);
  assert.throws(() => decodeTrafficFrame(new ArrayBuffer(0)), /kind -1 is not traffic/);
  const debug = encodeDebugSegments(0, 0, new Float32Array(0), new Uint8Array(0));
  assert.throws(() => decodeTrafficFrame(debug), /kind 2 is not traffic/);
  const old = buffer.slice(0);
  new Uint8Array(old)[1] = FRAME_PROTOCOL_VERSION + 1;
  assert.throws(() => decodeTrafficFrame(old), /protocol version/);
  assert.throws(
    () => allocateTrafficFrame({ view: 0, step: 0, cars: -1, signals: 0, states: 0 }),
    /'cars' must be an integer >= 0: current value is -1/,
  );
});

Deno.test("each car is drawn as its centre line: rear to front along its heading, its length long", () => {
  const t = decodeTrafficFrame(sample());
  const lines = carCentreLines(t, new Float32Array(12));
  for (let k = 0; k < 3; k++) {
    const [rx, ry, fx, fy] = lines.subarray(4 * k, 4 * k + 4);
    assert.ok(Math.abs(Math.hypot(fx - rx, fy - ry) - t.length[k]) < 1e-4);
    assert.ok(Math.abs((rx + fx) / 2 - t.centres[2 * k]) < 1e-4);
    assert.ok(Math.abs((ry + fy) / 2 - t.centres[2 * k + 1]) < 1e-4);
    const heading = Math.atan2(fy - ry, fx - rx);
    const diff = Math.abs(
      Math.atan2(Math.sin(heading - t.heading[k]), Math.cos(heading - t.heading[k])),
    );
    assert.ok(diff < 1e-5, `car ${k}: heading ${heading} vs ${t.heading[k]}`);
  }
  // The second car heads +y: its front is 2.1 m north of its centre.
  assert.ok(Math.abs(lines[7] - (4.25 + 2.1)) < 1e-5);
});

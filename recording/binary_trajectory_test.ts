import assert from "node:assert/strict";
import { _buildWorld } from "./_test_world.ts";
import {
  BINARY_TRAJECTORY_MAGIC,
  binaryFrameBytes,
  BinaryTrajectoryWriter,
  decodeBinaryTrajectory,
  readBinaryTrajectory,
} from "./binary_trajectory.ts";
import { TrajectoryRecorder } from "./recorder.ts";
import { createTrajectoryHeader } from "./trajectory.ts";

const AGENTS = {
  serial: Uint32Array.of(7, 3, 12),
  px: Float64Array.of(1.5, -2.25, 100),
  py: Float64Array.of(0.5, 3, -7.75),
  pz: Float64Array.of(0, 0.5, 1),
  vx: Float64Array.of(1, -1, 0),
  vy: Float64Array.of(0, 0.5, 0),
  flags: Uint8Array.of(0, 1, 2),
  radius: Float64Array.of(0.25, 0.5, 0.75),
};

/** Records `steps` steps of the fixture world into `path`. */
function recordFixture(path: string, steps: number): void {
  const world = _buildWorld();
  const recorder = new TrajectoryRecorder({ path });
  world.addObserver(recorder);
  for (let i = 0; i < steps; i++) world.step();
  recorder.close();
}

Deno.test("the binary layout matches the documented byte offsets", async () => {
  const path = await Deno.makeTempFile({ suffix: ".bin" });
  try {
    const writer = new BinaryTrajectoryWriter(path);
    writer.writeHeader(createTrajectoryHeader({ frameRate: 20, scenario: "ab" }));
    writer.beginFrame(4, 1.25, 3);
    writer.writeAgents(AGENTS, 0, 2); // two ranges fill one frame
    writer.writeAgents(AGENTS, 2, 3);
    writer.endFrame();
    writer.close();
    const bytes = Deno.readFileSync(path);
    const view = new DataView(bytes.buffer);
    assert.deepEqual(bytes.subarray(0, 8), BINARY_TRAJECTORY_MAGIC);
    assert.equal(view.getUint32(8, true), 2);
    const h = view.getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + h)));
    assert.equal(json.frameRate, 20);
    assert.equal(json.scenario, "ab");
    const f = 16 + h + ((4 - (h % 4)) % 4);
    for (let i = 16 + h; i < f; i++) assert.equal(bytes[i], 0x20);
    assert.equal(f % 4, 0);
    assert.equal(view.getUint32(f, true), 108); // 20 + 29 · 3 = 107, padded to 108
    assert.equal(bytes.length, f + 108);
    assert.equal(view.getUint32(f + 4, true), 4);
    assert.equal(view.getFloat64(f + 8, true), 1.25);
    assert.equal(view.getUint32(f + 16, true), 3);
    const n = 3, column = (k: number, i: number) => f + 20 + 4 * n * k + 4 * i;
    assert.deepEqual([0, 1, 2].map((i) => view.getUint32(column(0, i), true)), [7, 3, 12]);
    assert.deepEqual([0, 1, 2].map((i) => view.getFloat32(column(1, i), true)), [1.5, -2.25, 100]);
    assert.deepEqual([0, 1, 2].map((i) => view.getFloat32(column(2, i), true)), [0.5, 3, -7.75]);
    assert.deepEqual([0, 1, 2].map((i) => view.getFloat32(column(3, i), true)), [0, 0.5, 1]);
    assert.deepEqual([0, 1, 2].map((i) => view.getFloat32(column(4, i), true)), [1, -1, 0]);
    assert.deepEqual([0, 1, 2].map((i) => view.getFloat32(column(5, i), true)), [0, 0.5, 0]);
    assert.deepEqual([0, 1, 2].map((i) => view.getFloat32(column(6, i), true)), [0.25, 0.5, 0.75]);
    assert.deepEqual([...bytes.subarray(f + 20 + 28 * n, f + 108)], [0, 1, 2, 0]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a binary file cut anywhere inside its last frame reads every complete frame", async () => {
  const path = await Deno.makeTempFile({ suffix: ".bin" });
  try {
    recordFixture(path, 12);
    const full = readBinaryTrajectory(path);
    assert.equal(full.frames.length, 13);
    const bytes = Deno.readFileSync(path);
    const lastStart = bytes.length - binaryFrameBytes(full.frames[12].count);
    const atBoundary = decodeBinaryTrajectory(bytes.subarray(0, lastStart), path);
    assert.equal(atBoundary.frames.length, 12);
    assert.equal(atBoundary.incomplete, false);
    for (let cut = lastStart + 1; cut < bytes.length; cut++) {
      const data = decodeBinaryTrajectory(bytes.subarray(0, cut), path);
      assert.equal(data.frames.length, 12, `cut at byte ${cut}`);
      assert.equal(data.incomplete, true);
    }
    // The same through the file system: truncate the file in the middle of its last frame.
    await Deno.truncate(path, lastStart + Math.floor((bytes.length - lastStart) / 2));
    const cut = readBinaryTrajectory(path);
    assert.equal(cut.incomplete, true);
    assert.equal(cut.frames.length, 12);
    for (let k = 0; k < 12; k++) {
      assert.deepEqual(cut.frames[k].ids, full.frames[k].ids);
      assert.deepEqual(cut.frames[k].x, full.frames[k].x);
      assert.deepEqual(cut.frames[k].y, full.frames[k].y);
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a header-only binary file has no frames and is complete", async () => {
  const path = await Deno.makeTempFile({ suffix: ".bin" });
  try {
    const writer = new BinaryTrajectoryWriter(path);
    writer.writeHeader(createTrajectoryHeader({ frameRate: 5 }));
    writer.close();
    const data = readBinaryTrajectory(path);
    assert.deepEqual(data.frames, []);
    assert.equal(data.incomplete, false);
    assert.equal(data.frameRate, 5);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a corrupt frame length is an error naming the file and the frame's byte offset", async () => {
  const path = await Deno.makeTempFile({ suffix: ".bin" });
  try {
    recordFixture(path, 5);
    const bytes = Deno.readFileSync(path);
    const view = new DataView(bytes.buffer);
    let offset = 16 + ((view.getUint32(12, true) + 3) & ~3);
    offset += view.getUint32(offset, true); // frame 1
    const length = view.getUint32(offset, true), count = view.getUint32(offset + 16, true);
    view.setUint32(offset, length + 4, true);
    Deno.writeFileSync(path, bytes);
    assert.throws(() => readBinaryTrajectory(path), {
      name: "TrajectoryFileError",
      message:
        `Cannot read trajectory file '${path}' at byte ${offset}: corrupt frame: its length field says ${
          length + 4
        } bytes but a frame of ${count} agents takes ${length}`,
    });
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a wrong magic, an unknown version and a bad header are errors at their byte offset", async () => {
  const path = await Deno.makeTempFile({ suffix: ".bin" });
  try {
    Deno.writeTextFileSync(path, "# framerate: 25\n1 0 1 2 0\n");
    assert.throws(() => readBinaryTrajectory(path), {
      message:
        `Cannot read trajectory file '${path}' at byte 0: not a binary trajectory: the magic is ` +
        "'23 20 66 72 61 6d 65 72', expected '89 54 48 52 4f 4e 47 0a' (\\x89THRONG\\n)",
    });
    const writer = new BinaryTrajectoryWriter(path);
    writer.writeHeader(createTrajectoryHeader({ frameRate: 5 }));
    writer.close();
    const good = Deno.readFileSync(path);
    const version = good.slice();
    new DataView(version.buffer).setUint32(8, 3, true);
    assert.throws(
      () => decodeBinaryTrajectory(version, "v3.bin"),
      /^TrajectoryFileError: Cannot read trajectory file 'v3.bin' at byte 8: format version 3 is not supported \(this reader reads versions 1 and 2\)/,
    );
    const json = new TextEncoder().encode(JSON.stringify({ frameRate: -1 }));
    const badHeader = new Uint8Array(16 + json.length);
    badHeader.set(BINARY_TRAJECTORY_MAGIC);
    new DataView(badHeader.buffer).setUint32(8, 1, true);
    new DataView(badHeader.buffer).setUint32(12, json.length, true);
    badHeader.set(json, 16);
    assert.throws(
      () => decodeBinaryTrajectory(badHeader, "h.bin"),
      /^TrajectoryFileError: Cannot read trajectory file 'h.bin' at byte 16: header field 'frameRate' is invalid/,
    );
    assert.throws(
      () => decodeBinaryTrajectory(good.subarray(0, 20), "short.bin"),
      /at byte 12: the header length \d+ runs past the end of the file \(20 bytes\)/,
    );
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("the writer refuses frames whose agent count does not match", async () => {
  const path = await Deno.makeTempFile({ suffix: ".bin" });
  try {
    const writer = new BinaryTrajectoryWriter(path);
    assert.throws(() => writer.beginFrame(0, 0, 1), /a frame was begun before the header/);
    writer.writeHeader(createTrajectoryHeader({ frameRate: 5 }));
    writer.beginFrame(0, 0, 3);
    writer.writeAgents(AGENTS, 0, 2);
    assert.throws(() => writer.endFrame(), {
      message:
        `Cannot write trajectory file '${path}': frame 0 was declared with 3 agents but 2 were written`,
    });
    assert.throws(
      () => writer.writeAgents(AGENTS, 0, 2),
      /declared with 3 agents but more were written/,
    );
    writer.close();
    assert.equal(readBinaryTrajectory(path).frames.length, 0); // the unfinished frame was dropped
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a version 1 file (no radius column) reads with its flags and a null radius", () => {
  // Version 1 by hand: header, then one frame of 2 agents, 20 + 25 · 2 = 70 bytes padded to 72.
  const json = new TextEncoder().encode(JSON.stringify({ frameRate: 10, scenario: "old" }));
  const start = 16 + ((json.length + 3) & ~3);
  const bytes = new Uint8Array(start + 72);
  const view = new DataView(bytes.buffer);
  bytes.set(BINARY_TRAJECTORY_MAGIC);
  view.setUint32(8, 1, true);
  view.setUint32(12, json.length, true);
  bytes.set(json, 16);
  bytes.fill(0x20, 16 + json.length, start);
  view.setUint32(start, 72, true);
  view.setUint32(start + 4, 0, true);
  view.setFloat64(start + 8, 0.5, true);
  view.setUint32(start + 16, 2, true);
  const column = (k: number, i: number) => start + 20 + 8 * k + 4 * i;
  [5, 6].forEach((id, i) => view.setUint32(column(0, i), id, true));
  [1.5, -2].forEach((x, i) => view.setFloat32(column(1, i), x, true));
  [0.25, 4].forEach((y, i) => view.setFloat32(column(2, i), y, true));
  bytes.set([1, 2], start + 20 + 24 * 2);
  const data = decodeBinaryTrajectory(bytes, "v1.bin");
  assert.equal(binaryFrameBytes(2, 1), 72);
  assert.equal(data.frames.length, 1);
  assert.equal(data.incomplete, false);
  assert.deepEqual([...data.frames[0].ids], [5, 6]);
  assert.deepEqual([...data.frames[0].x], [1.5, -2]);
  assert.deepEqual([...data.frames[0].y], [0.25, 4]);
  assert.deepEqual([...data.frames[0].flags!], [1, 2]);
  assert.equal(data.frames[0].radius, null);
});

Deno.test("a recorded world stores each agent's radius, and NaN for columns without one", async () => {
  const path = await Deno.makeTempFile({ suffix: ".bin" });
  try {
    const world = _buildWorld();
    const recorder = new TrajectoryRecorder({ path });
    world.addObserver(recorder);
    world.step();
    recorder.close();
    const data = readBinaryTrajectory(path);
    const frame = data.frames[1];
    assert.ok(frame.count > 0);
    for (let i = 0; i < frame.count; i++) {
      const index = world.agents.serial.subarray(0, world.agents.count).indexOf(frame.ids[i]);
      if (index >= 0) assert.equal(frame.radius![i], Math.fround(world.agents.radius[index]));
    }
    const { radius: _, ...withoutRadius } = AGENTS;
    const writer = new BinaryTrajectoryWriter(path);
    writer.writeHeader(createTrajectoryHeader({ frameRate: 5 }));
    writer.beginFrame(0, 0, 3);
    writer.writeAgents(withoutRadius, 0, 3);
    writer.endFrame();
    writer.close();
    assert.ok(readBinaryTrajectory(path).frames[0].radius!.every(Number.isNaN));
  } finally {
    await Deno.remove(path);
  }
});

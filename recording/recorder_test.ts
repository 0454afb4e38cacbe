import assert from "node:assert/strict";
import { AgentFlags } from "../core/agent_store.ts";
import { World } from "../core/world.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { _buildWorld, _ReferenceObserver, type _Snapshot } from "./_test_world.ts";
import { readTrajectory } from "./read_trajectory.ts";
import { TrajectoryRecorder, type TrajectoryRecorderOptions } from "./recorder.ts";
import type { TrajectoryData } from "./trajectory.ts";

const STEPS = 80;

/** Runs the fixture world for `steps` steps with a recorder and a reference observer. */
function record(
  options: TrajectoryRecorderOptions,
  steps = STEPS,
): { world: World; reference: _ReferenceObserver } {
  const world = _buildWorld();
  const recorder = new TrajectoryRecorder(options);
  const reference = new _ReferenceObserver();
  world.addObserver(recorder);
  world.addObserver(reference);
  for (let i = 0; i < steps; i++) world.step();
  recorder.close();
  return { world, reference };
}

/** Asserts that every frame holds the reference rows, positions within `tolerance` (m). */
function assertFramesMatch(
  data: TrajectoryData,
  expected: _Snapshot[],
  position: (value: number) => number,
  tolerance: number,
): void {
  assert.equal(data.frames.length, expected.length);
  for (let k = 0; k < expected.length; k++) {
    const frame = data.frames[k], want = expected[k];
    assert.equal(frame.frame, k);
    assert.ok(
      Math.abs(frame.time - want.time) < 1e-9,
      `time of frame ${k}: ${frame.time} vs ${want.time}`,
    );
    assert.deepEqual([...frame.ids], want.rows.map((r) => r.id), `ids of frame ${k}`);
    for (let i = 0; i < frame.count; i++) {
      const r = want.rows[i];
      for (const [got, value] of [[frame.x[i], r.x], [frame.y[i], r.y], [frame.z[i], r.z]]) {
        assert.ok(
          Math.abs(got - position(value)) <= tolerance,
          `frame ${k}, agent ${r.id}: ${got} vs ${value}`,
        );
      }
    }
  }
}

Deno.test("binary recording round-trips ids, positions, velocities and flags at f32 precision", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/run.bin`;
    const { world, reference } = record({ path, scenario: "fixture" });
    assert.ok(reference.departures >= 3, "the fixture's spawner agents leave during the run");
    const data = readTrajectory(path);
    assert.equal(data.format, "binary");
    assert.equal(data.incomplete, false);
    assert.equal(data.frameRate, 20);
    assert.equal(data.header.dt, 0.05);
    assert.equal(data.header.every, 1);
    assert.equal(data.header.scenario, "fixture");
    assert.equal(data.header.strategy, "none");
    assert.equal(data.header.seed, 7);
    assert.equal(data.frames.length, STEPS + 1);
    assertFramesMatch(data, reference.snapshots, Math.fround, 0);
    for (let k = 0; k <= STEPS; k++) {
      const frame = data.frames[k], rows = reference.snapshots[k].rows;
      assert.deepEqual([...frame.vx!], rows.map((r) => Math.fround(r.vx)));
      assert.deepEqual([...frame.vy!], rows.map((r) => Math.fround(r.vy)));
      assert.deepEqual([...frame.flags!], rows.map((r) => r.flags));
    }
    assert.equal(data.frames[STEPS].time, world.time);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("text recording round-trips ids and positions within 1e-4 m", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/run.txt`;
    const { reference } = record({ path });
    const data = readTrajectory(path);
    assert.equal(data.format, "text");
    assert.equal(data.sourceUnit, "m");
    assert.equal(data.frameRate, 20);
    assert.equal(data.header.seed, 7);
    assert.equal(data.frames.length, STEPS + 1);
    assertFramesMatch(data, reference.snapshots, (v) => v, 0.5e-4 + 1e-12);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a .csv recording is comma-separated values with a header row, and round-trips within 1e-4 m", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/run.csv`;
    const { reference } = record({ path, every: 2 });
    const lines = (await Deno.readTextFile(path)).trimEnd().split("\n");
    assert.equal(lines[0], "id,frame,time_s,x_m,y_m,z_m");
    for (const line of lines.slice(1)) {
      assert.match(line, /^\d+,\d+,\d+(\.\d+)?,-?\d+\.\d{4},-?\d+\.\d{4},-?\d+\.\d{4}$/);
    }
    assert.ok(lines.some((line) => /^\d+,1,0\.1,/.test(line)), "frame 1 is at 0.1 s");
    const data = readTrajectory(path);
    assert.equal(data.format, "csv");
    assert.equal(data.frameRate, 10);
    assertFramesMatch(
      data,
      reference.snapshots.filter((_, k) => k % 2 === 0),
      (v) => v,
      0.5e-4 + 1e-12,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agents that leave appear once more, at their arrival point, in the frame of that step", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/run.bin`;
    const { world } = record({ path });
    const data = readTrajectory(path);
    const lastFrame = new Map<number, number>();
    for (const f of data.frames) for (const id of f.ids) lastFrame.set(id, f.frame);
    const live = new Set(Array.from(world.agents.serial.subarray(0, world.agents.count)));
    const gone = [...lastFrame.keys()].filter((id) => !live.has(id));
    assert.equal(gone.length, 3); // the three spawner agents
    for (const id of gone) {
      const f = data.frames[lastFrame.get(id)!];
      const i = f.ids.indexOf(id);
      assert.ok(
        Math.hypot(f.x[i] - 8, f.y[i] - 4) <= world.arrivalRadius + 1e-6,
        `agent ${id} ends at its goal`,
      );
      assert.equal(f.flags![i] & AgentFlags.arrived, AgentFlags.arrived);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every: 5 records frames 0, 1, 2, … at 5-step intervals with a quarter of the frame rate", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const name of ["run.bin", "run.txt"]) {
      const path = `${dir}/${name}`;
      const { reference } = record({ path, every: 5 }, 23);
      const data = readTrajectory(path);
      assert.equal(data.frameRate, 4); // 1 / (0.05 s · 5)
      assert.equal(data.header.every, 5);
      assert.deepEqual(data.frames.map((f) => f.frame), [0, 1, 2, 3, 4]); // steps 0, 5, 10, 15, 20
      for (const f of data.frames) {
        assert.ok(Math.abs(f.time - f.frame * 0.25) < 1e-9, `${name} frame ${f.frame}`);
      }
      const expected = reference.snapshots.filter((s) => s.step % 5 === 0);
      assert.deepEqual(expected.map((s) => s.step), [0, 5, 10, 15, 20]);
      assertFramesMatch(data, expected, Math.fround, 1e-4);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the binary header holds the geometry, bounds, anchor and meta", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/run.bin`;
    record({ path, anchor: { lon: 6.9603, lat: 50.9375 }, meta: { agentRadius: 0.25 } }, 1);
    const { header } = readTrajectory(path);
    assert.deepEqual(header.polygons, [[[4, 4], [5, 4], [5, 5], [4, 5]]]);
    assert.deepEqual(header.walls, [[[-1, -3], [12, -3]], [[20, 20], [21, 20], [21, 21], [
      20,
      20,
    ]]]);
    assert.deepEqual(header.anchor, { lon: 6.9603, lat: 50.9375 });
    assert.deepEqual(header.meta, { agentRadius: 0.25 });
    assert.deepEqual(header.bounds, { minX: -1.2345678, minY: -3, maxX: 21, maxY: 21 });
    assert.equal(header.startTime, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the text header round-trips scenario, strategy, seed, dt, every and anchor", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/run.txt`;
    record({
      path,
      scenario: "two lines\nof name",
      anchor: { lon: -0.1276, lat: 51.5072 },
      every: 2,
    }, 4);
    const { header } = readTrajectory(path);
    assert.equal(header.scenario, "two lines of name");
    assert.equal(header.strategy, "none");
    assert.equal(header.seed, 7);
    assert.equal(header.dt, 0.05);
    assert.equal(header.every, 2);
    assert.equal(header.frameRate, 10);
    assert.deepEqual(header.anchor, { lon: -0.1276, lat: 51.5072 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a recorder streams whole frames: a file read mid-run holds complete frames only", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/run.bin`;
    const world = _buildWorld();
    const recorder = new TrajectoryRecorder({ path, bufferBytes: 300 });
    world.addObserver(recorder);
    let sizes = 0;
    for (let i = 0; i < 30; i++) {
      world.step();
      const data = readTrajectory(path);
      assert.equal(data.incomplete, false);
      assert.ok(
        data.frames.length <= i + 2 && data.frames.length >= i,
        `${data.frames.length} frames after ${i + 1} steps`,
      );
      sizes += Deno.statSync(path).size > 0 ? 1 : 0;
    }
    assert.equal(sizes, 30);
    recorder.close();
    assert.equal(readTrajectory(path).frames.length, 31);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("flush writes buffered frames; close is idempotent and ends recording", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/run.txt`;
    const world = _buildWorld();
    const recorder = new TrajectoryRecorder({ path });
    world.addObserver(recorder);
    world.step();
    assert.equal(Deno.statSync(path).size, 0); // still in the 1 MiB buffer
    recorder.flush();
    assert.equal(readTrajectory(path).frames.length, 2);
    recorder.close();
    recorder.close();
    const size = Deno.statSync(path).size;
    world.step();
    recorder.flush();
    assert.equal(recorder.framesWritten, 2);
    assert.equal(Deno.statSync(path).size, size);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("frame 0 holds the agents spawned at time 0", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/run.bin`;
    const world = new World({ strategy: createNoneStrategy() });
    world.population.addSpawner({
      name: "crowd",
      area: { kind: "rect", minX: 0, minY: 0, maxX: 10, maxY: 10 },
      count: 12,
      goal: { kind: "area", area: { kind: "point", x: 20, y: 5 } },
    });
    const recorder = new TrajectoryRecorder({ path });
    world.addObserver(recorder);
    recorder.close();
    const data = readTrajectory(path);
    assert.equal(data.frames.length, 1);
    assert.equal(data.frames[0].count, 12);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("recorder options are checked with one-line errors", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.throws(() => new TrajectoryRecorder({ path: `${dir}/run.dat` }), {
      name: "RangeError",
      message:
        `Cannot create TrajectoryRecorder for '${dir}/run.dat' as its extension '.dat' is unknown: ` +
        "use .bin (binary), .txt (text), .csv (comma-separated) or .geojson (GeoJSON lines), or pass 'format'",
    });
    const missing = `${dir}/no/such/dir/run.bin`;
    assert.throws(() => new TrajectoryRecorder({ path: missing }), {
      message: `Cannot write trajectory file '${missing}': No such file or directory`,
    });
    assert.throws(() => new TrajectoryRecorder({ path: `${dir}/a.bin`, every: 0 }), {
      name: "RangeError",
      message:
        `Cannot create TrajectoryRecorder for '${dir}/a.bin' as 'every' must be an integer >= 1: current value is 0`,
    });
    assert.throws(
      () => new TrajectoryRecorder({ path: `${dir}/a.bin`, anchor: { lon: 200, lat: 0 } }),
      {
        message: /'anchor.lon' must be in \[-180, 180\] degrees: current value is 200/,
      },
    );
    // An explicit format overrides the extension.
    const recorder = new TrajectoryRecorder({ path: `${dir}/run.dat`, format: "binary" });
    const world = new World({ strategy: createNoneStrategy() });
    world.addObserver(recorder);
    assert.throws(
      () => new World({ strategy: createNoneStrategy() }).addObserver(recorder),
      /already attached/,
    );
    recorder.close();
    assert.equal(readTrajectory(`${dir}/run.dat`).format, "binary");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { measureRecording } from "./recorded_metrics.ts";
import { MetricsCollector } from "../metrics/collector.ts";
import { readTrajectory } from "../recording/read_trajectory.ts";
import { TrajectoryRecorder } from "../recording/recorder.ts";
import { buildScenario } from "../scenarios/build.ts";
import { BUILTIN_SCENARIOS } from "../scenarios/builtin/mod.ts";
import { strategies } from "../strategies/mod.ts";

Deno.test("a run recorded every step measures the live collisions and about the live salsa", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const built = buildScenario(BUILTIN_SCENARIOS.crossing.create(60), {
      registry: strategies,
      strategy: { name: "raycast-cluster" },
      seed: 1,
    });
    const live = new MetricsCollector();
    const recorder = new TrajectoryRecorder({ path: `${dir}/run.bin`, scenario: "crossing" });
    built.world.addObserver(live);
    built.world.addObserver(recorder);
    for (let k = 0; k < 600; k++) built.world.step();
    recorder.close();
    const { collisions, salsa } = live.result();
    const measured = measureRecording(readTrajectory(`${dir}/run.bin`));
    assert.equal(measured.collisions.length, 601);
    // Running totals: they never go down.
    for (let k = 1; k < 601; k++) {
      assert.ok(measured.collisions[k] >= measured.collisions[k - 1]);
      assert.ok(measured.salsa[k] >= measured.salsa[k - 1]);
    }
    assert.ok(collisions > 20 && salsa > 20, `live: ${collisions} collisions, ${salsa} salsa`);
    // f32 positions move a few borderline overlaps across the 1 mm tolerance.
    assert.ok(Math.abs(measured.collisions[600] - collisions) <= 0.05 * collisions + 1);
    // Salsa measures steering against the straight line to where each trip ends.
    assert.ok(Math.abs(measured.salsa[600] - salsa) <= 0.25 * salsa, `${measured.salsa[600]}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agents that come and go, in a text recording without velocities, are counted", async () => {
  const path = await Deno.makeTempFile({ suffix: ".txt" });
  try {
    // Agents 1 and 2 overlap in frames 0 and 1; 2 leaves; 3 arrives on top of 1 in frame 3.
    await Deno.writeTextFile(
      path,
      "# framerate: 10\n# id frame x/m y/m z/m\n" +
        "1 0 0 0 0\n2 0 0.3 0 0\n1 1 0.1 0 0\n2 1 0.4 0 0\n1 2 0.2 0 0\n" +
        "1 3 0.3 0 0\n3 3 0.35 0 0\n",
    );
    const measured = measureRecording(readTrajectory(path));
    assert.deepEqual([...measured.collisions], [1, 2, 2, 3]);
    assert.deepEqual([...measured.salsa], [0, 0, 0, 0]);
  } finally {
    await Deno.remove(path);
  }
});

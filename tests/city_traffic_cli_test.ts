/**
 * `sim` and `compare` with the scenarios with cars: what they print, and bad flags.
 */
import assert from "node:assert/strict";
import { runCli } from "./_cli.ts";
import { buildCityTraffic } from "../scenarios/city_traffic.ts";
import { ReplayFrameSource } from "../viewer/replay_source.ts";
import { decodeAgentFrame } from "../viewer/frame_protocol.ts";
import { decodeTrafficFrame } from "../viewer/traffic_frame.ts";
import { readTrafficTrack } from "../viewer/traffic_track.ts";

Deno.test("sim --scenario crosswalk --preset light --json prints the city metrics and the phase split", async () => {
  const r = await runCli("sim", [
    "--scenario",
    "crosswalk",
    "--preset",
    "light",
    "--strategy",
    "boxcast",
    "--steps",
    "100",
    "--json",
  ], ["--allow-read", "--allow-write", "--allow-env"]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.scenario, "crosswalk");
  assert.equal(out.agents, 40);
  assert.equal(out.cars, 40);
  assert.equal(out.steps, 100);
  for (
    const key of [
      "contacts",
      "nearMisses",
      "redLightCrossings",
      "meanKerbWait",
      "p95KerbWait",
      "tripsPerMinute",
      "replans",
      "stuckPedestrians",
      "gridlockedCars",
    ]
  ) {
    assert.equal(typeof out.metrics[key], "number", key);
  }
  for (const phase of ["traffic", "navigation", "strategy", "cars.lights"]) {
    assert.ok(out.msPerStep[phase] >= 0, phase);
  }
});

Deno.test("sim and compare with cars refuse a bad preset or a flag they cannot honour, in one line", async () => {
  const preset = await runCli("sim", ["--scenario", "crosswalk", "--preset", "packed"]);
  assert.equal(preset.code, 2);
  assert.match(preset.stderr, /--preset must be one of light, average, crowded: got 'packed'/);
  assert.equal(preset.stderr.trim().split("\n").length, 1);
  const every = await runCli("sim", ["--scenario", "city-grid", "--every", "2"]);
  assert.equal(every.code, 2);
  assert.match(every.stderr, /--every needs --out/);
  const navigator = await runCli("sim", ["--scenario", "city-grid", "--navigator", "goal"]);
  assert.equal(navigator.code, 2);
  assert.match(navigator.stderr, /--navigator is not available for the scenario 'city-grid'/);
  const plot = await runCli("compare", ["--scenario", "crosswalk", "--plot", "x.svg"]);
  assert.equal(plot.code, 2);
  assert.match(plot.stderr, /--plot is not available for the scenario 'crosswalk'/);
});

Deno.test("compare --scenario crosswalk prints one column of city metrics per strategy", async () => {
  const r = await runCli("compare", [
    "--scenario",
    "crosswalk",
    "--strategies",
    "none,repulsion",
    "--agents",
    "20",
    "--seeds",
    "1",
    "--steps",
    "60",
  ], ["--allow-read", "--allow-write", "--allow-env"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^scenario crosswalk: 20 pedestrians, 80 cars, 60 steps, seeds 1/m);
  assert.match(r.stdout, /^\s+none\s+repulsion$/m);
  assert.match(r.stdout, /^red-light crossings\s+0\s+0$/m);
});

Deno.test("sim --out records a run with cars, and its replay draws the cars, lights and crossing states where the run had them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/crosswalk.bin`;
    const r = await runCli("sim", [
      "--scenario",
      "crosswalk",
      "--preset",
      "light",
      "--strategy",
      "boxcast",
      "--steps",
      "300",
      "--every",
      "3",
      "--seed",
      "4",
      "--out",
      path,
      "--json",
    ], ["--allow-read", "--allow-write", "--allow-env"]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout).out;
    assert.equal(out.frames, 101);
    assert.equal(out.traffic, `${path}.traffic`);

    // The same run again, in this process: frame k is 3·k steps in.
    const run = buildCityTraffic("crosswalk", { preset: "light", strategy: "boxcast", seed: 4 });
    const cars: Float32Array[] = [];
    for (let step = 0; step <= 300; step++) {
      if (step % 3 === 0) {
        cars.push(Float32Array.from(run.cars.cars.x.subarray(0, run.cars.cars.count)));
      }
      if (step < 300) run.world.step();
    }

    const source = ReplayFrameSource.load([path]);
    const info = source.recordings[0];
    assert.ok(info.traffic, "the replay found the traffic track");
    const scene = (await source.open({ frames() {}, error() {}, statusChanged() {} })).info().scene;
    assert.ok(scene.traffic && scene.traffic.signals.length >= 2, "the scene has its signal heads");
    assert.ok(scene.traffic.stripes.length > 0, "and its crosswalk stripes");
    const sent: { agents: number; cars: Float32Array; states: number; signals: number[] }[] = [];
    const playback = await source.open({
      frames(frames, traffic) {
        assert.equal(traffic.length, 1, "one traffic message per view");
        const t = decodeTrafficFrame(traffic[0]);
        sent.push({
          agents: decodeAgentFrame(frames[0]).count,
          cars: Float32Array.from({ length: t.cars }, (_, k) => t.centres[2 * k]),
          states: t.states,
          signals: [...t.signalState],
        });
      },
      error() {},
      statusChanged() {},
    });
    for (const k of [0, 40, 100]) {
      playback.seek(info.data.frames[k].time);
      const last = sent[sent.length - 1];
      assert.deepEqual(last.cars, cars[k], `frame ${k}: cars where the run had them`);
      assert.equal(last.states, last.agents, `frame ${k}: a crossing state per pedestrian`);
    }
    // The lights change over the 15 s recorded.
    assert.ok(new Set(sent.map((s) => s.signals.join())).size > 1, "the signal heads change");
    playback.close();
    source.close();

    // A killed run leaves a partial last record: the reader keeps every whole one.
    const bytes = await Deno.readFile(`${path}.traffic`);
    await Deno.writeFile(`${dir}/cut.traffic`, bytes.subarray(0, bytes.length - 10));
    assert.equal(readTrafficTrack(`${dir}/cut.traffic`).frames.length, 100);
    await Deno.writeFile(`${dir}/bad.traffic`, new TextEncoder().encode("not a track"));
    assert.throws(
      () => readTrafficTrack(`${dir}/bad.traffic`),
      /traffic track '.*bad\.traffic': expected a file starting with 'THRTRAF1'/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

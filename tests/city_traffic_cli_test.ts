/**
 * `sim` and `compare` with the scenarios with cars: what they print, and bad flags.
 */
import assert from "node:assert/strict";
import { runCli } from "./_cli.ts";

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
  const out = await runCli("sim", ["--scenario", "city-grid", "--out", "x.bin"]);
  assert.equal(out.code, 2);
  assert.match(out.stderr, /--out is not available for the scenario 'city-grid'/);
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

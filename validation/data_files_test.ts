import assert from "node:assert/strict";
import { bottleneckTables, empiricalRange } from "./bottleneck_flow.ts";
import { measuredLaneOrder } from "./counter_flow.ts";
import {
  DataFileError,
  dataPath,
  ETH_UCY_SCENES,
  JUELICH_RUNS,
  readEthUcyScene,
  readJuelichRun,
  readPointTables,
} from "./data_files.ts";
import { fdData } from "./fundamental_diagram.ts";

Deno.test("the Jülich bidirectional run reads in metres at 16 fps with its 118 people walking ±y", () => {
  const data = readJuelichRun(JUELICH_RUNS.bo050);
  assert.equal(data.frameRate, 16);
  const ids = new Set<number>();
  let maxY = 0;
  for (const f of data.frames) {
    for (let i = 0; i < f.count; i++) {
      ids.add(f.ids[i]);
      maxY = Math.max(maxY, Math.abs(f.y[i]));
    }
  }
  assert.equal(ids.size, 118);
  assert.ok(maxY > 5 && maxY < 10, `|y| up to ${maxY} m`);
  // People in the low-density run walk in clean lanes.
  assert.ok(measuredLaneOrder(data)! > 0.9);
});

Deno.test("bottleneck flows measured from the trajectories match the experiments' reports", () => {
  const tables = bottleneckTables();
  const narrow = tables.find((t) => t.name === "Wuppertal-2018-0.5m")!.points[0];
  const wide = tables.find((t) => t.name === "HERMES-AO-3.0m")!.points[0];
  assert.ok(Math.abs(narrow[1] - 1.16) < 0.05, `0.5 m: ${narrow[1]} /s`);
  assert.ok(Math.abs(wide[1] - 7.2) < 0.15, `3.0 m: ${wide[1]} /s`);
  const r = empiricalRange(tables, 1)!;
  assert.ok(r[0] > 1.5 && r[1] < 2.9, `J/b at 1 m: ${r}`);
});

Deno.test("the measured range at 2 m counts Daamen's doors of 1.65 and 2.75 m by their trend", () => {
  const tables = bottleneckTables();
  const [low, high] = empiricalRange(tables, 2)!;
  // EG measured 1.77 /(m·s) at 2.0 m; Daamen's repeats lie at 2.17–2.36 and 2.07–2.35.
  assert.ok(Math.abs(low - 1.77) < 0.01, `low ${low}`);
  assert.ok(high > 2.3 && high < 2.4, `high ${high}`);
  // Without Daamen's series only the two points at 2.0 m remain (EG 1.77, Nagai 1.94).
  const [, narrowHigh] = empiricalRange(tables.filter((t) => t.name !== "2010Daamen"), 2)!;
  assert.ok(Math.abs(narrowHigh - 1.94) < 0.01, `without Daamen ${narrowHigh}`);
});

Deno.test("ETH/UCY scenes read with their sample steps: ETH's people walk about 1.45 m/s at 0.667 s", () => {
  const eth = ETH_UCY_SCENES.find((s) => s.name === "eth")!;
  assert.ok(Math.abs(eth.sampleSeconds - 2 / 3) < 1e-12);
  const samples = readEthUcyScene(eth);
  const last = new Map<number, [number, number, number]>();
  const speeds: number[] = [];
  for (let k = 0; k < samples.id.length; k++) {
    const prev = last.get(samples.id[k]);
    if (prev && samples.sample[k] === prev[0] + 1) {
      speeds.push(Math.hypot(samples.x[k] - prev[1], samples.y[k] - prev[2]) / eth.sampleSeconds);
    }
    last.set(samples.id[k], [samples.sample[k], samples.x[k], samples.y[k]]);
  }
  speeds.sort((a, b) => a - b);
  const median = speeds[Math.floor(speeds.length / 2)];
  assert.ok(median > 1.3 && median < 1.7, `median ${median} m/s`);
});

Deno.test("fundamental-diagram point clouds read, and a missing file names its path", () => {
  const uni = fdData("unidirectional");
  assert.equal(uni.length, 434);
  assert.ok(uni.every(([rho, v]) => rho >= 0 && rho < 7 && v > -0.5 && v < 3));
  assert.equal(readPointTables(dataPath("empirical/no-such-folder")), null);
  assert.throws(
    () => readJuelichRun({ file: "trajectories/juelich/missing.txt", unit: "m", frameRate: 16 }),
    (e: Error) =>
      e instanceof DataFileError && e.message.includes("missing.txt") &&
      e.message.includes("not found"),
  );
});

/**
 * Bottleneck flow against experiments through a thin door (see bottleneck_flow.ts for the set-up;
 * `deno task validate --tests bottleneck` for the full table): orca validated at door widths 1 m
 * and 2 m, mean of seeds 1–3; social-force pinned where it is (below the experiments) as a
 * regression guard; raycast-cluster and boxcast checked not to clog a 0.8 m door. The crowds
 * have shoulder-width bodies (`SHOULDER_RADIUS`: radius 0.215 m on average, 0.18–0.24 m).
 *
 * The measured specific flow J/b of real crowds at these widths spans 1.70–2.77 (m·s)⁻¹ at
 * b = 1 m (Kretz 2006 1.71–2.02, Seyfried 2009 1.90, EG 1.83, Daamen 2010 2.54–2.77) and
 * 1.77–2.36 at b = 2 m (EG 1.77, Nagai 1.94, Daamen 2010 2.14–2.36 between its 1.65 and 2.75 m
 * doors); data sets disagree by up to a quarter at the same
 * width (set-up, participants, motivation). Across 0.8–2.5 m the tables give 1.6–2.8 and grow
 * about linearly with b (J(2 m) / J(1 m) ≈ 1.9–2.1).
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { strategies } from "../strategies/mod.ts";
import { DATA_ROOT, useDataRoot } from "./data_files.ts";
import {
  BOTTLENECK_WIDTHS,
  type BottleneckFlowResult,
  bottleneckTables,
  bottleneckTest,
  CHANNEL_LENGTH,
  empiricalRange,
  measureBottleneckFlow,
  validationAgents,
} from "./bottleneck_flow.ts";

/** Seeds averaged: one run's flow varies by about ±20 % from seed to seed. */
const SEEDS = [1, 2, 3];

/** Mean flow over {@linkcode SEEDS} (null if any run clogged). */
function meanFlow(strategy: string, width: number) {
  const runs = SEEDS.map((seed) =>
    measureBottleneckFlow({ strategy, width, seed, registry: strategies })
  );
  const clogged = runs.find((r) => r.flow === null);
  const flow = clogged ? null : runs.reduce((sum, r) => sum + r.flow!, 0) / runs.length;
  return {
    width,
    flow,
    specificFlow: flow === null ? null : flow / width,
    crossed: clogged?.crossed ?? 0,
  };
}

const orca1 = () => meanFlow("orca", 1);
const orca2 = () => meanFlow("orca", 2);

Deno.test("orca's bottleneck flow is within 1.0–3.0 persons/(m·s) at 1 m and 2 m and grows with the width", () => {
  // Measured (seeds 1–3, shoulder-width bodies): J/b 1.91, 1.75, 1.50 at b = 1 m (mean J 1.72
  // /s), 2.43, 2.36, 2.37 at 2 m (mean J 4.77 /s; above the measured 1.77–2.36). With 0.5 m
  // discs it was J 1.11 /s at 1 m and 3.60 /s at 2 m. The band is the empirical 1.6–2.8 widened
  // by about 40 % downwards (discs that never touch, no shoulder rotation, and the spread between
  // data sets) and 10 % upwards. Without the right
  // of way (`stepAside: false`) orca deadlocks at 1 m: the flow stops once an arch of wedged
  // agents has formed in front of the door.
  const one = orca1(), two = orca2();
  for (const r of [one, two]) {
    assert.ok(
      r.specificFlow !== null,
      `b = ${r.width} m: the crowd clogged (${r.crossed} crossed)`,
    );
    assert.ok(
      r.specificFlow >= 1.0 && r.specificFlow <= 3.0,
      `b = ${r.width} m: J/b ${r.specificFlow.toFixed(2)} (m·s)⁻¹`,
    );
  }
  // The experiments roughly double J from 1 m to 2 m; at least half as much again.
  assert.ok(two.flow! > 1.5 * one.flow!, `J ${one.flow!.toFixed(2)} → ${two.flow!.toFixed(2)} /s`);
});

Deno.test("regression pin, not validation: social-force's bottleneck flow stays at its measured 0.8–1.8 /(m·s) at 1 m and 2 m, below the experiments, and grows with the width", () => {
  // This pins what the model gives today so that a change shows up; it does not validate it.
  // The experiments give J/b 1.70–2.77 at 1 m and 1.77–2.36 at 2 m: social-force with HFV's
  // parameters stays below them. Measured (seeds 1–3, shoulder-width bodies): J/b 1.06, 1.07,
  // 1.00 at b = 1 m (mean J 1.05 /s), 1.48, 1.47, 1.43 at 2 m (mean J 2.92 /s): about 0.6 of
  // the experiments at 1 m and 0.8 at 2 m (with 0.5 m discs it was 0.77 and 1.17).
  // HFV's repulsion (A = 2000 N, B = 0.08 m) is made for escape panic; at a normal desired speed
  // (1.34 m/s, τ = 0.5 s: a drive of 214 N) it keeps everyone 0.18 m apart, and with the
  // anisotropic field of view (λ = 0.5) three agents at a 1 m door form an arch of balanced
  // social forces. Stronger drives or weaker repulsion raise the flow but break the model's
  // tested head-on, lane, jam and circle behaviour. A change that moves the flow out of
  // 0.8–1.8 fails here on purpose: re-measure, and update this band and the README's table.
  const one = meanFlow("social-force", 1);
  const two = meanFlow("social-force", 2);
  for (const r of [one, two]) {
    assert.ok(
      r.specificFlow !== null,
      `b = ${r.width} m: the crowd clogged (${r.crossed} crossed)`,
    );
    assert.ok(
      r.specificFlow >= 0.8 && r.specificFlow <= 1.8,
      `b = ${r.width} m: J/b ${r.specificFlow.toFixed(2)} (m·s)⁻¹`,
    );
  }
  assert.ok(two.flow! > 1.5 * one.flow!, `J ${one.flow!.toFixed(2)} → ${two.flow!.toFixed(2)} /s`);
});

Deno.test("social-force's bottleneck-fitted set passes the 1.1 m channel inside the measured J/b at every width from 0.5 to 2.5 m", () => {
  // Measured (seeds 1–3, channel): J/b 2.11 / 1.96 / 2.03 / 2.16 / 2.02 / 2.04 / 2.07 at
  // 0.5 / 0.8 / 1 / 1.2 / 1.6 / 2 / 2.5 m; measured ranges 1.87–2.47, 1.61–2.77, 1.70–2.77,
  // 1.69–2.38, 1.78–2.38, 1.77–2.36 and 2.05–2.42. The escape-panic default gives
  // 1.57 / 0.89 / 1.09 / 1.12 / 1.38 / 1.42 / 1.44. 2.5 m sits near the range's lower end.
  const tables = bottleneckTables();
  assert.ok(tables.length >= 7, `measured tables: ${tables.length}`);
  for (const width of BOTTLENECK_WIDTHS) {
    const [low, high] = empiricalRange(tables, width)!;
    const runs = SEEDS.map((seed) =>
      measureBottleneckFlow({
        strategy: "social-force",
        strategyOptions: { parameters: "bottleneck-fitted" },
        width,
        seed,
        channelLength: CHANNEL_LENGTH,
        registry: strategies,
      })
    );
    const clogged = runs.find((r) => r.specificFlow === null);
    assert.ok(!clogged, `b = ${width} m: clogged (${clogged?.crossed} crossed)`);
    const jb = runs.reduce((sum, r) => sum + r.specificFlow!, 0) / runs.length;
    assert.ok(
      jb >= low && jb <= high,
      `b = ${width} m: J/b ${jb.toFixed(2)} (m·s)⁻¹ against ${low.toFixed(2)}–${high.toFixed(2)}`,
    );
  }
});

Deno.test("raycast-cluster and boxcast empty the room through a 0.8 m door without clogging", () => {
  // A 0.8 m door leaves 0.3–0.44 m beside a body. With rigid discs, two agents at the door
  // posts and one between them used to lock into an arch for good (seed 2 for both; 3 of seeds
  // 1–10 for raycast-cluster and 6 of 10 for boxcast): every one touching three others, none able
  // to give way. A pinned agent now turns its shoulders after half a second (SQUEEZE_SHARE) and
  // slips by. Measured, seeds 1–3, shoulder-width bodies: J/b 1.30, 1.25, 1.28 raycast-cluster,
  // 1.59, 1.52, 1.57 boxcast (with 0.5 m discs: mean 0.77 and 0.97).
  for (const strategy of ["raycast-cluster", "boxcast"]) {
    const r = meanFlow(strategy, 0.8);
    assert.ok(r.specificFlow !== null, `${strategy}: the crowd clogged (${r.crossed} crossed)`);
    assert.ok(r.specificFlow >= 0.6, `${strategy}: J/b ${r.specificFlow.toFixed(2)} (m·s)⁻¹`);
  }
});

Deno.test("the measured data are looked for in the shared data folder beside the checkout", () => {
  const checkout = dirname(fileURLToPath(new URL("../deno.json", import.meta.url)));
  assert.equal(fileURLToPath(DATA_ROOT), `${dirname(checkout)}/shared/data/`);
});

Deno.test("the bottleneck picture draws the criterion's range at each width run, as J", () => {
  const test = bottleneckTest("channel");
  const runAt = (width: number, specificFlow: number): BottleneckFlowResult => ({
    width,
    channelLength: CHANNEL_LENGTH,
    seed: 1,
    agents: validationAgents(width),
    crossed: validationAgents(width),
    flow: specificFlow * width,
    specificFlow,
    seconds: 60,
  });
  const [picture] = test.pictures!(
    [{ strategy: "model", runs: [[runAt(1, 2), runAt(2, 2)]] }],
    false,
  );
  assert.match(picture.svg, /criterion: lowest measured/);
  assert.match(picture.svg, /criterion: highest measured/);
  // EG's 1.77 /(m·s) at 2 m is the lowest there: J = 3.54 /s.
  const [low2] = empiricalRange(bottleneckTables(), 2)!;
  assert.ok(Math.abs(low2 * 2 - 3.54) < 0.01, `lowest J at 2 m: ${low2 * 2}`);
});

Deno.test("without measured tables in the data folder the bottleneck test reports no data instead of failing", () => {
  const empty = Deno.makeTempDirSync();
  useDataRoot(empty);
  try {
    const run: BottleneckFlowResult = {
      width: 1,
      channelLength: 0,
      seed: 1,
      agents: 180,
      crossed: 180,
      flow: 2,
      specificFlow: 2,
      seconds: 90,
    };
    const verdict = bottleneckTest("door").judge([[run]], false);
    assert.equal(verdict.status, "not-run");
    assert.match(verdict.summary, /no measured tables in .*bottleneck-flow-vs-width/);
  } finally {
    useDataRoot(DATA_ROOT);
    Deno.removeSync(empty, { recursive: true });
  }
  assert.ok(bottleneckTables().length >= 7, "the shared tables are read again");
});

Deno.test("the bottleneck verdict shows each width's mean, its lowest and highest seed and the measured range", () => {
  const run = (seed: number, width: number, jb: number): BottleneckFlowResult => ({
    width,
    channelLength: 0,
    seed,
    agents: 180,
    crossed: 180,
    flow: jb * width,
    specificFlow: jb,
    seconds: 90,
  });
  const test = bottleneckTest("door");
  const seeds = test.judge(
    [[run(1, 1, 1.9), run(1, 2, 2.0)], [run(2, 1, 2.3), run(2, 2, 2.2)]],
    false,
  );
  // At 1 m the measured range is 1.70–2.77, at 2 m 1.77–2.36 (the shared tables).
  assert.equal(seeds.status, "pass");
  assert.match(
    seeds.summary,
    /1 m: 2\.10 \(1\.90–2\.30\) \[1\.70–2\.77\], 2 m: 2\.10 \(2\.00–2\.20\) \[1\.77–2\.36\]/,
  );
  const one = test.judge([[run(1, 1, 1.9)]], false);
  assert.match(one.summary, /^J\/b 1 m: 1\.90 \[1\.70–2\.77\]$/);
});

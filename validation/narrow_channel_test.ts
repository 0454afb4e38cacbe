/**
 * A 0.5 m wide, 1.1 m long channel (the Wuppertal 2018 bottleneck of J. Adrian, A. Seyfried,
 * A. Sieben, J. R. Soc. Interface 17 (2020) 20190871: 75 people, measured specific flow J/b
 * 1.87–2.47 /(m·s) with the other tables at 0.4–0.6 m) must flow for `orca` and `social-force`
 * with shoulder-width bodies (`SHOULDER_RADIUS`, radius 0.18–0.24 m). Both used to clog
 * completely. The set-up is `bottleneckFlowScenario` (a room of 75 at 1.5 /m² in front of it).
 *
 * Measured (seeds 1–3): social-force passes its 60th person after 84, 81 and 79 s (J/b 1.46,
 * 1.41, 1.51) — below the experiments, but flowing; the bounds leave about a quarter of margin.
 * orca, whose people turn their shoulders in the channel (strategies/orca.ts), passes its 60th
 * after 49, 56 and 49 s at J/b 2.45, 2.22 and 2.49 (mean 2.39; the experiment's own run gives
 * 2.32): inside the measured range. Before the turn: 94, 119 and 98 s, J/b 1.41, 0.99 and 1.14.
 */
import assert from "node:assert/strict";
import { strategies } from "../strategies/mod.ts";
import { CHANNEL_LENGTH, measureBottleneckFlow } from "./bottleneck_flow.ts";

/** People in the room, as in the experiment. */
const PEOPLE = 75;
/** People that must have crossed the channel's exit line (the run's 80 % mark). */
const THROUGH = 60;
/** Seconds within which they must have crossed. */
const WITHIN = 150;
/** Lowest specific flow accepted in any run ((m·s)⁻¹). */
const MIN_SPECIFIC_FLOW = 0.8;
/** The measured range of J/b at 0.5 m ((m·s)⁻¹; see the module doc). */
const MEASURED_RANGE = [1.87, 2.47];

const runs = new Map<string, ReturnType<typeof measureBottleneckFlow>>();
/** The experiment's run for `strategy` and `seed`, measured once for every test that asks. */
function channelRun(strategy: string, seed: number) {
  const key = `${strategy}/${seed}`;
  let run = runs.get(key);
  if (run === undefined) {
    run = measureBottleneckFlow({
      strategy,
      width: 0.5,
      agents: PEOPLE,
      channelLength: CHANNEL_LENGTH,
      seed,
      registry: strategies,
    });
    runs.set(key, run);
  }
  return run;
}

for (const strategy of ["orca", "social-force"]) {
  Deno.test(`${strategy} passes ${THROUGH} of ${PEOPLE} people through a 0.5 m × ${CHANNEL_LENGTH} m channel within ${WITHIN} s at J/b ≥ ${MIN_SPECIFIC_FLOW} /(m·s)`, () => {
    for (const seed of [1, 2, 3]) {
      const r = channelRun(strategy, seed);
      assert.ok(
        r.crossed >= THROUGH && r.seconds <= WITHIN,
        `seed ${seed}: ${r.crossed} crossed in ${r.seconds.toFixed(1)} s`,
      );
      assert.ok(
        r.specificFlow !== null && r.specificFlow >= MIN_SPECIFIC_FLOW,
        `seed ${seed}: J/b ${r.specificFlow?.toFixed(2) ?? "clogged"} (m·s)⁻¹`,
      );
    }
  });
}

Deno.test(`orca turns its shoulders through the 0.5 m channel: mean J/b of seeds 1–3 inside the measured ${MEASURED_RANGE[0]}–${MEASURED_RANGE[1]} /(m·s), ${THROUGH} of ${PEOPLE} through within 80 s in each`, () => {
  let sum = 0;
  for (const seed of [1, 2, 3]) {
    const r = channelRun("orca", seed);
    assert.ok(
      r.crossed >= THROUGH && r.seconds <= 80 && r.specificFlow !== null,
      `seed ${seed}: ${r.crossed} crossed in ${r.seconds.toFixed(1)} s`,
    );
    sum += r.specificFlow;
  }
  const mean = sum / 3;
  assert.ok(
    mean >= MEASURED_RANGE[0] && mean <= MEASURED_RANGE[1],
    `mean J/b ${mean.toFixed(2)} (m·s)⁻¹`,
  );
});

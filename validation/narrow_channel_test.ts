/**
 * A 0.5 m wide, 1.1 m long channel (the Wuppertal 2018 bottleneck of J. Adrian, A. Seyfried,
 * A. Sieben, J. R. Soc. Interface 17 (2020) 20190871: 75 people, measured specific flow J/b
 * 1.87–2.47 /(m·s) with the other tables at 0.4–0.6 m) must flow for `orca` and `social-force`
 * with shoulder-width bodies (`SHOULDER_RADIUS`, radius 0.18–0.24 m). Both used to clog
 * completely. The set-up is `bottleneckFlowScenario` (a room of 75 at 1.5 /m² in front of it).
 *
 * Measured (seeds 1–3): orca passes its 60th person after 94, 119 and 98 s (J/b 1.41, 0.99,
 * 1.14); social-force after 84, 81 and 79 s (J/b 1.46, 1.41, 1.51) — below the experiments, but
 * flowing. The bounds leave about a quarter of margin.
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

for (const strategy of ["orca", "social-force"]) {
  Deno.test(`${strategy} passes ${THROUGH} of ${PEOPLE} people through a 0.5 m × ${CHANNEL_LENGTH} m channel within ${WITHIN} s at J/b ≥ ${MIN_SPECIFIC_FLOW} /(m·s)`, () => {
    for (const seed of [1, 2, 3]) {
      const r = measureBottleneckFlow({
        strategy,
        width: 0.5,
        agents: PEOPLE,
        channelLength: CHANNEL_LENGTH,
        seed,
        registry: strategies,
      });
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

/**
 * `boxcast`'s headway speed rule (time gap 1 s, Tordeux, Chraibi and Seyfried 2016) in the
 * closed ring corridor of the fundamental diagram.
 */
import assert from "node:assert/strict";
import { strategies } from "../strategies/mod.ts";
import { measureFundamentalDiagram } from "./fundamental_diagram.ts";
import { weidmannSpeed } from "./weidmann.ts";

const ring = (strategyOptions: Record<string, unknown>) =>
  measureFundamentalDiagram({
    strategy: "boxcast",
    seed: 1,
    registry: strategies,
    densities: [1, 2, 3],
    warmUpSeconds: 10,
    measureSeconds: 5,
    strategyOptions,
  });

Deno.test("boxcast walks the one-way ring near Weidmann's speed at 1, 2 and 3 /m² with its time gap, forwards; without it far too fast when dense", () => {
  // Measured (seed 1, 10 s settling, 5 s measured): 0.92 m/s at 1.15 /m² (Weidmann 0.98), 0.62
  // at 1.79 (0.69), 0.29 at 3.12 (0.31), 0.6 % of samples backwards at 3 /m². Without the rule
  // 0.71 m/s at 3.20 /m² (0.29): followers walk up to the back of the person ahead.
  for (const p of ring({})) {
    const expected = weidmannSpeed(p.density!);
    assert.ok(
      Math.abs(p.speed! - expected) < 0.1,
      `${p.density} /m²: ${p.speed} m/s, Weidmann ${expected}`,
    );
    assert.ok(p.backwards < 0.01, `${p.target} /m²: ${(100 * p.backwards).toFixed(1)} % backwards`);
  }
  const dense = ring({ timeGap: 0 })[2];
  assert.ok(
    dense.speed! > weidmannSpeed(dense.density!) + 0.25,
    `without the time gap at ${dense.density} /m²: ${dense.speed} m/s`,
  );
});

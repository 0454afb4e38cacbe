/**
 * `orca`'s speed from density (`densitySpeed`: Weidmann's share for the density ahead, as
 * DenseSense filters the preferred velocity) in the closed ring corridor of the fundamental
 * diagram.
 */
import assert from "node:assert/strict";
import { strategies } from "../strategies/mod.ts";
import { measureFundamentalDiagram } from "./fundamental_diagram.ts";
import { weidmannSpeed } from "./weidmann.ts";

const ring = (densitySpeed: boolean) =>
  measureFundamentalDiagram({
    strategy: "orca",
    seed: 1,
    registry: strategies,
    densities: [1, 2, 3],
    warmUpSeconds: 10,
    measureSeconds: 5,
    strategyOptions: { densitySpeed },
  });

Deno.test("orca with densitySpeed walks the one-way ring near Weidmann's speed at 2 and 3 /m², forwards; plain orca far too fast", () => {
  // Measured (seed 1, 10 s settling, 5 s measured): 0.80 m/s at 1.08 /m² (Weidmann 1.01), 0.59
  // at 1.85 (0.66), 0.35 at 3.08 (0.31). Plain orca: 1.04 at 0.88 (1.12), 0.97 at 2.17 (0.55),
  // 0.78 at 3.19 (0.29). At 1 /m² the filtered crowd walks 0.2 m/s below Weidmann (plain orca
  // 0.08 below); a likely cause, not checked: the count in a 7 m² disc varies around its mean,
  // and a disc that happens to hold more slows the walker for a moment.
  const filtered = ring(true), plain = ring(false);
  filtered.forEach((p, k) => {
    const expected = weidmannSpeed(p.density!);
    assert.ok(
      Math.abs(p.speed! - expected) < (k === 0 ? 0.3 : 0.1),
      `${p.density} /m²: ${p.speed} m/s, Weidmann ${expected}`,
    );
    assert.ok(p.backwards < 0.01, `${p.target} /m²: ${(100 * p.backwards).toFixed(1)} % backwards`);
  });
  for (const p of plain.slice(1)) {
    assert.ok(
      p.speed! > weidmannSpeed(p.density!) + 0.35,
      `plain orca at ${p.density} /m²: ${p.speed} m/s`,
    );
  }
});

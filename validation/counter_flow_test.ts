import assert from "node:assert/strict";
import { strategies } from "../strategies/mod.ts";
import { COUNTER_FLOW_GROUP, measureCounterFlow } from "./counter_flow.ts";

function through(strategy: string, seed: number, density: number): number {
  return measureCounterFlow({ strategy, seed, quick: false, registry: strategies }, density)
    .through;
}

Deno.test("boxcast gets at least 99 % through the counter-flow corridor at 2 /m² (seed 1)", () => {
  // Without the shoulder turn in a counter-flow press the interface locked: 13 of 120 through.
  const share = through("boxcast", 1, 2);
  assert.ok(share >= 0.99, `${Math.round(share * 2 * COUNTER_FLOW_GROUP)} of 120 through`);
});

Deno.test("raycast-cluster gets at least 99 % through the counter-flow corridor at 2 /m² (seed 3)", () => {
  // Without the shoulder turn in a counter-flow press: 55 of 120 through.
  const share = through("raycast-cluster", 3, 2);
  assert.ok(share >= 0.99, `${Math.round(share * 2 * COUNTER_FLOW_GROUP)} of 120 through`);
});

Deno.test("boxcast still gets everyone through the counter-flow corridor at 1 /m² (seed 2)", () => {
  const share = through("boxcast", 2, 1);
  assert.ok(share >= 0.99, `${Math.round(share * 2 * COUNTER_FLOW_GROUP)} of 120 through`);
});

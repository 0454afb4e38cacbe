import assert from "node:assert/strict";
import { AgentStore } from "../core/agent_store.ts";
import type { StepContext } from "../core/strategy.ts";
import { createNoneStrategy } from "./none.ts";

Deno.test("none strategy copies preferred velocities of its range and nothing else", () => {
  const agents = new AgentStore();
  for (let i = 0; i < 6; i++) agents.add({ x: i, y: 0 });
  for (let i = 0; i < 6; i++) {
    agents.prefVx[i] = i + 0.5;
    agents.prefVy[i] = -i;
    agents.newVx[i] = agents.newVy[i] = 99;
  }
  const strategy = createNoneStrategy();
  strategy.computeNewVelocities({ agents } as unknown as StepContext, 2, 5);
  assert.deepEqual(Array.from(agents.newVx.subarray(0, 6)), [99, 99, 2.5, 3.5, 4.5, 99]);
  assert.deepEqual(Array.from(agents.newVy.subarray(0, 6)), [99, 99, -2, -3, -4, 99]);
  assert.equal(strategy.neighborRadius, 0);
});

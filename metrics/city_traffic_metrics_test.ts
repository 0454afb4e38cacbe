import assert from "node:assert/strict";
import { AgentFlags } from "../core/agent_store.ts";
import { World } from "../core/world.ts";
import type { Vehicles } from "../core/vehicles.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { CityTrafficMetrics } from "./city_traffic_metrics.ts";

/** A car 4.5 × 1.8 m standing with its centre at `x(step)`, 0, heading +x. */
function standingCar(x: (step: number) => number) {
  let step = 0;
  return {
    step() {
      step++;
    },
    writeVehicles(out: Vehicles) {
      out.setCount(1);
      out.set(0, x(step), 0, 1, 0, 4.5, 1.8, 0, 0);
      out.finish();
    },
  };
}

Deno.test("city metrics: a contact lasting many steps is many pedestrian-steps but one encounter; touching again is another", () => {
  // The car stands over a still pedestrian at the origin for steps 1–10, away for 11–20, over
  // it again for 21–25.
  const over = (k: number) => (k <= 10 || k > 20) && k <= 25;
  const world = new World({
    strategy: createNoneStrategy(),
    traffic: standingCar((k) => (over(k) ? 0 : 50)),
  });
  // Held in place (a pedestrian free to move would step out from under the car).
  const held = world.addAgent({ x: 0, y: 0.5, goalX: 0, goalY: 0.5 });
  world.agents.flags[world.agents.indexOf(held)] |= AgentFlags.frozen;
  const metrics = new CityTrafficMetrics({ crossings: [] } as never);
  world.addObserver(metrics);
  for (let k = 0; k < 30; k++) world.step();
  const m = metrics.summary();
  assert.equal(m.contacts, 15, "pedestrian-steps in contact");
  assert.equal(m.contactEncounters, 2);
  assert.equal(m.signalledContacts, 0);
});

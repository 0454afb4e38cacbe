/**
 * A {@linkcode CarSystem} as the world's traffic: the world steps the cars (lights included)
 * at the start of each of its steps, with the pedestrians as they stand, and every strategy then
 * sees the cars as moving rectangles in `ctx.vehicles`.
 *
 * @module
 */
import type { AgentStore } from "../core/agent_store.ts";
import type { Vehicles } from "../core/vehicles.ts";
import type { WorldTraffic } from "../core/world.ts";
import type { CarSystem } from "./car_system.ts";

/**
 * Adapts a car system to the world's traffic interface.
 *
 * @example Cars driving through a small city while pedestrians see them
 * ```ts
 * import { buildLaneNetwork, buildTrafficLights, CarSystem } from "./mod.ts";
 * import { CarTraffic } from "./world_traffic.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const network = buildLaneNetwork(city);
 * const cars = new CarSystem(network, { lights: buildTrafficLights(network, city), seed: 3 });
 * cars.populate(20);
 * const world = new World({ strategy: createNoneStrategy(), traffic: new CarTraffic(cars) });
 * for (let k = 0; k < 20; k++) world.step();
 * assert.equal(world.vehicles.count, 20);
 * assert(Math.abs(cars.time - world.time) < 1e-9);
 * ```
 */
export class CarTraffic implements WorldTraffic {
  /** The cars. */
  readonly system: CarSystem;

  /** @param system cars on their lanes, with their lights */
  constructor(system: CarSystem) {
    this.system = system;
  }

  /** Wall-clock milliseconds per car phase (lights, index, pedestrians, decide, drive, …). */
  get phaseMs(): Readonly<Record<string, number>> {
    return this.system.phaseMs;
  }

  /** Advances the cars by `dt` seconds; they brake for the pedestrians on their paths. */
  step(dt: number, pedestrians: AgentStore): void {
    this.system.step(dt, pedestrians);
  }

  /**
   * Publishes every car's rectangle, velocity (speed along its heading) and sweep (how far its
   * turning body strays from the straight course).
   */
  writeVehicles(out: Vehicles): void {
    const c = this.system.cars, n = c.count;
    out.setCount(n);
    for (let k = 0; k < n; k++) {
      const dx = c.dirX[k], dy = c.dirY[k], v = c.speed[k];
      out.set(k, c.x[k], c.y[k], dx, dy, c.length[k], c.width[k], v * dx, v * dy, c.sweep[k]);
    }
    out.finish();
  }
}

/**
 * City traffic: lanes built from a city model, traffic lights as fixed-time state machines that
 * can be asked about any time, and cars that follow each other with the Intelligent Driver
 * Model, stop for lights and pedestrians, and never block a junction.
 *
 * Cars are their own agents with their own store, stepped by a {@linkcode CarSystem}; they do not
 * live in the pedestrian {@linkcode World}. Pedestrians see them as moving obstacles, and cars
 * brake for pedestrians handed to them each step.
 *
 * @example Lanes and lights of a small procedural city
 * ```ts
 * import { buildLaneNetwork, buildTrafficLights, SignalColor } from "./mod.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 3, blocksY: 3 });
 * const lanes = buildLaneNetwork(city);
 * const lights = buildTrafficLights(lanes, city);
 * const colour = lights.movementColor(lanes.laneCount, 12.5);
 * assert(colour === SignalColor.green || colour === SignalColor.yellow || colour === SignalColor.red);
 * ```
 *
 * @module
 */
export {
  ballisticDistance,
  brakingDistance,
  IDM_OPTIONS,
  type IdmOptions,
  IntelligentDriver,
} from "./idm.ts";
export {
  buildLaneNetwork,
  LANE_NETWORK_OPTIONS,
  LaneNetwork,
  type LaneNetworkOptions,
  LinkKind,
  TurnKind,
} from "./lane_network.ts";
export {
  SignalColor,
  SignalCycle,
  SimpleTrafficLight,
  type SimpleTrafficLightOptions,
  WalkSignal,
} from "./signal_cycle.ts";
export {
  buildTrafficLights,
  TRAFFIC_LIGHT_OPTIONS,
  type TrafficLightOptions,
  TrafficLights,
} from "./traffic_lights.ts";
export {
  CAR_PHASES,
  CAR_SYSTEM_OPTIONS,
  type CarInit,
  type CarPhase,
  type CarStats,
  CarSystem,
  type CarSystemInit,
  type CarSystemOptions,
  type CrosswalkSpot,
  type PedestrianView,
} from "./car_system.ts";
export { CarApproaches } from "./car_approaches.ts";
export { CarFlags, CarStore } from "./car_store.ts";
export { CarRouter } from "./car_router.ts";
export { CarTraffic } from "./world_traffic.ts";

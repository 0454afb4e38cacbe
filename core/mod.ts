/**
 * The core of throng: agent storage, the world and its step loop, the strategy and navigator
 * plugin interfaces, spatial indices, spawners and seeded randomness.
 *
 * @example A world with one agent walking to its goal
 * ```ts
 * import { World } from "./mod.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0 });
 * while (!world.finished) world.step();
 * ```
 *
 * @module
 */
export * from "./agent_store.ts";
export * from "./agent_grid.ts";
export * from "./area.ts";
export * from "./distribution.ts";
export * from "./geometry.ts";
export * from "./named_registry.ts";
export * from "./navigator.ts";
export * from "./neighbour_query.ts";
export * from "./obstacles.ts";
export * from "./options.ts";
export * from "./placement_index.ts";
export * from "./population.ts";
export * from "./registry.ts";
export * from "./rng.ts";
export * from "./segment_grid.ts";
export * from "./speed_density.ts";
export * from "./strategy.ts";
export * from "./world.ts";
export * from "./vehicles.ts";

/**
 * throng: crowd simulation for Deno.
 *
 * Agents live in typed-array columns of a {@linkcode World}; a navigator writes where each agent
 * wants to go (its preferred velocity), an avoidance {@linkcode Strategy} turns that into a safe
 * velocity, and the world integrates in fixed steps. Every run is reproducible from its seed.
 *
 * @example Compose a world and a strategy in a script
 * ```ts
 * import { createGoalSeeker, MetricsCollector, strategies, World } from "./mod.ts";
 *
 * const world = new World({
 *   strategy: strategies.create("none"),
 *   navigator: createGoalSeeker(),
 *   seed: 42,
 * });
 * world.obstacles.addWall([[-10, -2], [10, -2]]);
 * world.population.addSpawner({
 *   name: "west",
 *   area: { kind: "rect", minX: -10, minY: -1.5, maxX: -6, maxY: 1.5 },
 *   count: 20,
 *   goal: { kind: "area", area: { kind: "rect", minX: 8, minY: -1.5, maxX: 10, maxY: 1.5 } },
 * });
 * const metrics = new MetricsCollector();
 * world.addObserver(metrics);
 * while (!world.finished && world.time < 60) world.step();
 * console.log(metrics.result().meanTimeToGoal);
 * ```
 *
 * @module
 */
export * from "./core/mod.ts";
export * from "./strategies/mod.ts";
export * from "./navigation/mod.ts";
export * from "./scenarios/mod.ts";
export * from "./metrics/mod.ts";
export * from "./recording/mod.ts";
export * from "./geo/mod.ts";
export * from "./traffic/mod.ts";

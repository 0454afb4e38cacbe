/**
 * Pictures of runs: trajectories coloured by speed over the geometry, and density maps, as SVG;
 * and small x–y charts for validation plots.
 *
 * @example Plot a run
 * ```ts
 * import { renderTrajectorySvg, TrajectorySampler } from "./mod.ts";
 * import { buildScenario, bottleneckScenario } from "../scenarios/mod.ts";
 * import { strategies } from "../strategies/mod.ts";
 * const built = buildScenario(bottleneckScenario(20), { registry: strategies });
 * const sampler = new TrajectorySampler();
 * built.world.addObserver(sampler);
 * while (!built.world.finished) built.world.step();
 * const { polygons, walls } = built.world.obstacles;
 * const svg = renderTrajectorySvg([{ title: "none", samples: sampler.samples(), polygons, walls }], {
 *   title: "bottleneck",
 * });
 * ```
 *
 * @module
 */
export * from "./trajectory_plot.ts";
export * from "./svg_plot.ts";
export * from "./xy_chart.ts";

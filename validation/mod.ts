/**
 * Validation against real crowds: RiMEA 3.0 tests 1–15, the fundamental diagram in a closed
 * ring corridor (Voronoi density, Weidmann's curve, Jülich data), bottleneck flow against width,
 * counter-flow with lane order, and trajectory prediction on ETH/UCY — each a
 * {@linkcode ValidationTest} with a stated pass criterion, run for every strategy and seed by
 * {@linkcode runSuite} and written as a report by {@linkcode writeReport}. The measurement
 * methods (measurement areas, line crossings, lane order, displacement errors) and the data
 * readers are exported for scripts. `deno task validate` runs it from the command line.
 *
 * @example One RiMEA test for one strategy
 * ```ts
 * import { formatReport, runSuite, validationTests } from "./mod.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const tests = validationTests().filter((t) => t.id === "rimea-1");
 * const result = runSuite({ strategies: ["orca"], seeds: [1], registry: strategies, tests });
 * assert.match(formatReport(result), /rimea-1/);
 * ```
 *
 * @module
 */
export * from "./bottleneck_flow.ts";
export * from "./counter_flow.ts";
export * from "./data_files.ts";
export * from "./displacement_error.ts";
export * from "./fundamental_diagram.ts";
export * from "./lane_order_of.ts";
export * from "./line_crossings.ts";
export * from "./measurement_area.ts";
export * from "./report.ts";
export * from "./rimea_scenarios.ts";
export * from "./rimea_tests.ts";
export * from "./ring_corridor.ts";
export * from "./strategy_variants.ts";
export * from "./suite.ts";
export * from "./trajectory_prediction.ts";
export * from "./validation_test_spec.ts";
export * from "./weidmann.ts";

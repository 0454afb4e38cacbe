/**
 * Avoidance strategies and the registry that finds them by name.
 *
 * Importing this module registers every built-in strategy in {@linkcode strategies}. A script
 * adds its own with `strategies.register(factory)`; it then works in scenario files and in
 * `compare` like the built-in ones.
 *
 * @example List the registered strategies
 * ```ts
 * import { strategies } from "./mod.ts";
 * import assert from "node:assert/strict";
 * assert(strategies.names().includes("none"));
 * ```
 *
 * @module
 */
import { StrategyRegistry } from "../core/registry.ts";
import { noneStrategy } from "./none.ts";

export { createNoneStrategy, type NoneOptions, noneStrategy } from "./none.ts";

/** The default registry, holding every built-in strategy. */
export const strategies: StrategyRegistry = new StrategyRegistry();

strategies.register(noneStrategy);

/**
 * Finding strategies by name.
 *
 * The command-line tools, scenario files and scripts look strategies up here. Built-in strategies
 * are registered by `strategies/mod.ts`; a script adds its own with
 * {@linkcode StrategyRegistry.register}.
 *
 * @module
 */
import { NamedRegistry, unknownNameMessage } from "./named_registry.ts";
import { resolveOptions } from "./options.ts";
import type { Strategy, StrategyFactory } from "./strategy.ts";

/** Thrown when a strategy name is not registered. */
export class UnknownStrategyError extends RangeError {
  constructor(name: string, known: readonly string[]) {
    super(unknownNameMessage(name, { kind: "strategy", plural: "strategies", known }));
    this.name = "UnknownStrategyError";
  }
}
/**
 * A name → factory table.
 *
 * @example Register a strategy of your own
 * ```ts
 * import { StrategyRegistry } from "./registry.ts";
 * import assert from "node:assert/strict";
 * const registry = new StrategyRegistry();
 * registry.register({
 *   name: "stand-still",
 *   description: "Everyone stays where they are",
 *   options: {},
 *   create: () => ({
 *     name: "stand-still",
 *     neighborRadius: 0,
 *     computeNewVelocities(ctx, begin, end) {
 *       ctx.agents.newVx.fill(0, begin, end);
 *       ctx.agents.newVy.fill(0, begin, end);
 *     },
 *   }),
 * });
 * assert.deepEqual(registry.names(), ["stand-still"]);
 * ```
 */
export class StrategyRegistry extends NamedRegistry<StrategyFactory<object>> {
  constructor() {
    super("strategy", {
      plural: "strategies",
      unknown: (name, known) => new UnknownStrategyError(name, known),
    });
  }

  /**
   * Creates a strategy by name. Options are validated against the factory's descriptors first,
   * so unknown names and out-of-range values give errors such as
   * `Cannot create orca strategy as 'timeHorizon' must be > 0: current value is -1`.
   */
  create(name: string, options: Record<string, unknown> = {}): Strategy {
    const factory = this.get(name);
    return factory.create(resolveOptions(`${name} strategy`, factory.options, options));
  }
}

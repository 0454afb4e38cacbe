/**
 * Finding strategies by name.
 *
 * The command-line tools, scenario files and scripts look strategies up here. Built-in strategies
 * are registered by `strategies/mod.ts`; a script adds its own with
 * {@linkcode StrategyRegistry.register}.
 *
 * @module
 */
import { resolveOptions } from "./options.ts";
import type { Strategy, StrategyFactory } from "./strategy.ts";

/** Thrown when a strategy name is not registered. */
export class UnknownStrategyError extends RangeError {
  constructor(name: string, known: readonly string[]) {
    super(
      known.length > 0
        ? `Unknown strategy '${name}': registered strategies are ${known.join(", ")}`
        : `Unknown strategy '${name}': no strategies are registered`,
    );
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
export class StrategyRegistry {
  #factories = new Map<string, StrategyFactory<object>>();

  /** Adds a factory. Throws when the name is taken or malformed. */
  // deno-lint-ignore no-explicit-any
  register(factory: StrategyFactory<any>): void {
    if (!/^[a-z][a-z0-9-]*$/.test(factory.name)) {
      throw new TypeError(
        `Cannot register strategy '${factory.name}': names are lower-case letters, digits and dashes`,
      );
    }
    if (this.#factories.has(factory.name)) {
      throw new Error(`Cannot register strategy '${factory.name}': the name is already registered`);
    }
    this.#factories.set(factory.name, factory);
  }

  /** True when `name` is registered. */
  has(name: string): boolean {
    return this.#factories.has(name);
  }

  /** The factory registered as `name`; throws {@linkcode UnknownStrategyError} otherwise. */
  get(name: string): StrategyFactory<object> {
    const factory = this.#factories.get(name);
    if (!factory) throw new UnknownStrategyError(name, this.names());
    return factory;
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

  /** Registered names in registration order. */
  names(): string[] {
    return [...this.#factories.keys()];
  }

  /** Registered factories in registration order. */
  list(): StrategyFactory<object>[] {
    return [...this.#factories.values()];
  }
}

/**
 * Strategy variants for the validation: `name:option=value:option=value` names a registered
 * strategy run with some options changed, e.g. `social-force:parameters=corridor-fitted`, so
 * that one report can set a model's parameter sets side by side.
 *
 * @module
 */
import { resolveOptions } from "../core/options.ts";
import type { OptionSpec, OptionSpecs } from "../core/options.ts";
import { StrategyRegistry } from "../core/registry.ts";
import type { StrategyFactory } from "../core/strategy.ts";

/**
 * A registry holding every strategy of `base` and, for each name of `names` of the form
 * `strategy:option=value…`, that strategy with those options as its defaults, registered under
 * the full name. Values are read by the option's type (numbers, `true`/`false`, enum names);
 * a wrong strategy, option or value throws a one-line error naming it.
 *
 * @example
 * ```ts
 * import { withStrategyVariants } from "./strategy_variants.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const name = "social-force:parameters=normal-walking";
 * const registry = withStrategyVariants(strategies, [name, "orca"]);
 * assert.equal(registry.create(name).neighborRadius, 3); // the normal-walking set's 3 m
 * assert.equal(registry.create("social-force").neighborRadius, 1.25);
 * ```
 */
export function withStrategyVariants(
  base: StrategyRegistry,
  names: readonly string[],
): StrategyRegistry {
  const registry = new VariantRegistry();
  for (const factory of base.list()) registry.register(factory);
  for (const full of names) {
    if (!full.includes(":") || registry.has(full)) continue;
    const [name, ...settings] = full.split(":");
    const factory = base.get(name);
    const specs = { ...(factory.options as Record<string, OptionSpec>) };
    const given: Record<string, unknown> = {};
    for (const setting of settings) {
      const eq = setting.indexOf("=");
      const key = setting.slice(0, eq), text = setting.slice(eq + 1);
      const spec = specs[key];
      if (eq <= 0 || spec === undefined) {
        throw new RangeError(
          `Cannot run strategy variant '${full}' as '${setting}' is not option=value of one of ${name}'s options: ${
            Object.keys(specs).join(", ")
          }`,
        );
      }
      given[key] = spec.type === "number"
        ? Number(text)
        : spec.type === "boolean"
        ? (text === "true" ? true : text === "false" ? false : text)
        : text;
    }
    // Checks the values (throws naming the option), then makes them the variant's defaults.
    const values = resolveOptions<Record<string, unknown>>(
      `${name} strategy`,
      specs as OptionSpecs<Record<string, unknown>>,
      given,
    );
    for (const key of Object.keys(given)) {
      specs[key] = { ...specs[key], default: values[key] } as OptionSpec;
    }
    registry.addVariant(full, { ...factory, options: specs });
  }
  return registry;
}

/** A registry that also answers to variant names (which the name rule of `register` forbids). */
class VariantRegistry extends StrategyRegistry {
  readonly #variants = new Map<string, StrategyFactory<object>>();

  /** Adds `factory` under the variant name `name`. */
  addVariant(name: string, factory: StrategyFactory<object>): void {
    this.#variants.set(name, factory);
  }

  override has(name: string): boolean {
    return this.#variants.has(name) || super.has(name);
  }

  override get(name: string): StrategyFactory<object> {
    return this.#variants.get(name) ?? super.get(name);
  }
}

/**
 * Finding navigators by name.
 *
 * Scenario files, the command-line tools and scripts look navigators up here. The built-in
 * navigators are registered in `navigation/mod.ts`'s {@linkcode navigators}; a script adds its
 * own with {@linkcode NavigatorRegistry.register}, and it then works in scenario files like the
 * built-in ones.
 *
 * @module
 */
import { NamedRegistry, unknownNameMessage } from "../core/named_registry.ts";
import type { Navigator } from "../core/navigator.ts";
import { resolveOptions } from "../core/options.ts";
import {
  NAVIGATOR_RESOURCE_NAMES,
  type NavigatorFactory,
  type NavigatorResources,
} from "./navigator_factory.ts";

/** Thrown when a navigator name is not registered. */
export class UnknownNavigatorError extends RangeError {
  constructor(name: string, known: readonly string[]) {
    super(unknownNameMessage(name, { kind: "navigator", plural: "navigators", known }));
    this.name = "UnknownNavigatorError";
  }
}

/**
 * A name → navigator factory table.
 *
 * @example Register a navigator of your own and create it by name
 * ```ts
 * import { NavigatorRegistry } from "./navigator_registry.ts";
 * import assert from "node:assert/strict";
 * const registry = new NavigatorRegistry();
 * registry.register({
 *   name: "stand-still",
 *   description: "nobody wants to go anywhere",
 *   options: {},
 *   create: () => ({
 *     name: "stand-still",
 *     updatePreferredVelocities(ctx, begin, end) {
 *       ctx.agents.prefVx.fill(0, begin, end);
 *       ctx.agents.prefVy.fill(0, begin, end);
 *     },
 *   }),
 * });
 * assert.equal(registry.create("stand-still").name, "stand-still");
 * assert.throws(() => registry.create("walk"), /Unknown navigator 'walk'/);
 * ```
 */
export class NavigatorRegistry extends NamedRegistry<NavigatorFactory<object>> {
  constructor() {
    super("navigator", { unknown: (name, known) => new UnknownNavigatorError(name, known) });
  }

  /**
   * Creates a navigator by name. Options are validated against the factory's descriptors, so
   * unknown names and out-of-range values give errors such as
   * `Cannot create navmesh navigator as 'minWidth' must be >= 0: current value is -1`; missing
   * world data gives `Cannot create navmesh navigator as it needs a navigation mesh (navMesh)`.
   */
  create(
    name: string,
    options: Record<string, unknown> = {},
    resources: NavigatorResources = {},
  ): Navigator {
    const factory = this.get(name);
    const resolved = resolveOptions<object>(`${name} navigator`, factory.options, options);
    const missing = missingResources(factory, resources);
    if (missing.length > 0) {
      const what = missing.map((r) => `${NAVIGATOR_RESOURCE_NAMES[r]} (${r})`).join(" and ");
      throw new TypeError(`Cannot create ${name} navigator as it needs ${what}`);
    }
    return factory.create(resolved, resources);
  }
}

/**
 * The world data `factory` requires that `resources` lacks, in the factory's order.
 *
 * @example
 * ```ts
 * import { missingResources } from "./navigator_registry.ts";
 * import assert from "node:assert/strict";
 * const factory = { name: "x", description: "", options: {}, requires: ["navMesh"] as const, create: () => { throw 0; } };
 * assert.deepEqual(missingResources(factory, {}), ["navMesh"]);
 * ```
 */
export function missingResources(
  factory: Pick<NavigatorFactory<object>, "requires">,
  resources: NavigatorResources,
): (keyof NavigatorResources)[] {
  return (factory.requires ?? []).filter((r) => resources[r] === undefined);
}

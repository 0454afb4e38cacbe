/**
 * The built-in steering behaviours by name, and name resolution for compositions: a name is a
 * built-in behaviour or, failing that, a registered strategy wrapped as a behaviour.
 *
 * @module
 */
import type { StrategyRegistry } from "../../core/registry.ts";
import { arriveBehaviour } from "./arrive.ts";
import { avoidVolumeBehaviour } from "./avoid_volume.ts";
import type { BehaviourFactory, SteeringBehaviour } from "./behaviour.ts";
import { dragBehaviour } from "./drag.ts";
import { separationBehaviour } from "./separation.ts";
import { seekBehaviour } from "./seek.ts";
import { wrapStrategy } from "./wrap_strategy.ts";

/**
 * Built-in behaviours by name: `seek`, `arrive`, `separation`, `drag`, `boxcast` (the
 * volume-adaptive avoidance). A built-in name wins over a strategy of the same name.
 *
 * @example
 * ```ts
 * import { BUILTIN_BEHAVIOURS } from "./catalogue.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(Object.keys(BUILTIN_BEHAVIOURS), ["seek", "arrive", "separation", "drag", "boxcast"]);
 * ```
 */
export const BUILTIN_BEHAVIOURS: Readonly<Record<string, BehaviourFactory<object>>> = {
  seek: seekBehaviour as BehaviourFactory<object>,
  arrive: arriveBehaviour as BehaviourFactory<object>,
  separation: separationBehaviour as BehaviourFactory<object>,
  drag: dragBehaviour as BehaviourFactory<object>,
  boxcast: avoidVolumeBehaviour as BehaviourFactory<object>,
};

/**
 * True when `name` resolves: a built-in behaviour or a strategy in `registry`.
 *
 * @example
 * ```ts
 * import { isBehaviourName } from "./catalogue.ts";
 * import assert from "node:assert/strict";
 * assert.ok(isBehaviourName("seek"));
 * assert.ok(!isBehaviourName("sek"));
 * ```
 */
export function isBehaviourName(name: string, registry?: StrategyRegistry): boolean {
  return Object.hasOwn(BUILTIN_BEHAVIOURS, name) || (registry?.has(name) ?? false);
}

/**
 * The names a composition may use, for error messages: `seek, arrive, …; or a registered
 * strategy: none, …`.
 *
 * @example
 * ```ts
 * import { knownBehaviourNames } from "./catalogue.ts";
 * import assert from "node:assert/strict";
 * assert.equal(knownBehaviourNames(), "seek, arrive, separation, drag, boxcast");
 * ```
 */
export function knownBehaviourNames(registry?: StrategyRegistry): string {
  const builtins = Object.keys(BUILTIN_BEHAVIOURS).join(", ");
  const wrapped = registry?.names().filter((name) => !Object.hasOwn(BUILTIN_BEHAVIOURS, name)) ??
    [];
  return wrapped.length > 0
    ? `${builtins}; or a registered strategy: ${wrapped.join(", ")}`
    : builtins;
}

/**
 * Creates the behaviour called `name` with `options`: a built-in one, or the strategy of that
 * name from `registry` wrapped with {@linkcode wrapStrategy}. Throws a RangeError for an
 * unknown name and the factory's error for bad options.
 *
 * @example
 * ```ts
 * import { createBehaviour } from "./catalogue.ts";
 * import { strategies } from "../mod.ts";
 * import assert from "node:assert/strict";
 * assert.equal(createBehaviour("separation", { range: 1 }).name, "separation");
 * assert.equal(createBehaviour("none", {}, strategies).name, "none"); // a wrapped strategy
 * assert.throws(() => createBehaviour("sek"), /unknown behaviour 'sek'/);
 * ```
 */
export function createBehaviour(
  name: string,
  options: Record<string, unknown> = {},
  registry?: StrategyRegistry,
): SteeringBehaviour {
  if (Object.hasOwn(BUILTIN_BEHAVIOURS, name)) return BUILTIN_BEHAVIOURS[name].create(options);
  if (registry?.has(name)) return wrapStrategy(registry.create(name, options));
  throw new RangeError(`unknown behaviour '${name}' (known: ${knownBehaviourNames(registry)})`);
}

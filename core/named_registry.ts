/**
 * A name → factory table, the part every plugin registry shares (strategies, navigators).
 *
 * Names are lower-case letters, digits and dashes, registered once; lookups of unknown names
 * throw an error that lists the registered ones. Each plugin kind adds its own `create` on top.
 *
 * @module
 */

/** Anything registered by name, with a one-line description for listings. */
export interface NamedFactory {
  /** Registry name, lower-case with dashes, e.g. `"raycast-cluster"`. */
  readonly name: string;
  /** One line for listings. */
  readonly description: string;
}

/** Builds the error thrown for an unregistered name (`known`: the registered names). */
export type UnknownNameError = (name: string, known: readonly string[]) => Error;

/**
 * Factories of one plugin kind by name, in registration order.
 *
 * @example A registry of greetings
 * ```ts
 * import { NamedRegistry } from "./named_registry.ts";
 * import assert from "node:assert/strict";
 * const registry = new NamedRegistry<{ name: string; description: string }>("greeting");
 * registry.register({ name: "hello", description: "says hello" });
 * assert.deepEqual(registry.names(), ["hello"]);
 * assert.throws(() => registry.get("bye"), /Unknown greeting 'bye': registered greetings are hello/);
 * ```
 */
export class NamedRegistry<F extends NamedFactory> {
  /** What is registered, singular, for messages: `"strategy"`, `"navigator"`. */
  readonly kind: string;
  #factories = new Map<string, F>();
  #unknown: UnknownNameError;

  /**
   * @param kind singular noun for messages, e.g. `"navigator"`
   * @param options.plural plural noun for messages. @default `${kind}s`
   * @param options.unknown error for unregistered names. @default a RangeError listing the names
   */
  constructor(kind: string, options: { plural?: string; unknown?: UnknownNameError } = {}) {
    this.kind = kind;
    const plural = options.plural ?? `${kind}s`;
    this.#unknown = options.unknown ??
      ((name, known) => new RangeError(unknownNameMessage(name, { kind, plural, known })));
  }

  /** Adds a factory. Throws when the name is taken or malformed. */
  register(factory: F): void {
    if (!/^[a-z][a-z0-9-]*$/.test(factory.name)) {
      throw new TypeError(
        `Cannot register ${this.kind} '${factory.name}': names are lower-case letters, digits and dashes`,
      );
    }
    if (this.#factories.has(factory.name)) {
      throw new Error(
        `Cannot register ${this.kind} '${factory.name}': the name is already registered`,
      );
    }
    this.#factories.set(factory.name, factory);
  }

  /** True when `name` is registered. */
  has(name: string): boolean {
    return this.#factories.has(name);
  }

  /** The factory registered as `name`; throws the registry's unknown-name error otherwise. */
  get(name: string): F {
    const factory = this.#factories.get(name);
    if (!factory) throw this.#unknown(name, this.names());
    return factory;
  }

  /** Registered names in registration order. */
  names(): string[] {
    return [...this.#factories.keys()];
  }

  /** Registered factories in registration order. */
  list(): F[] {
    return [...this.#factories.values()];
  }
}

/**
 * `Unknown navigator 'x': registered navigators are a, b` (or `… no navigators are registered`).
 *
 * @example
 * ```ts
 * import { unknownNameMessage } from "./named_registry.ts";
 * import assert from "node:assert/strict";
 * assert.equal(
 *   unknownNameMessage("orca", { kind: "strategy", plural: "strategies", known: [] }),
 *   "Unknown strategy 'orca': no strategies are registered",
 * );
 * ```
 */
export function unknownNameMessage(
  name: string,
  registry: { kind: string; plural: string; known: readonly string[] },
): string {
  const { kind, plural, known } = registry;
  return known.length > 0
    ? `Unknown ${kind} '${name}': registered ${plural} are ${known.join(", ")}`
    : `Unknown ${kind} '${name}': no ${plural} are registered`;
}

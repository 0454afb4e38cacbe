/**
 * Typed option descriptors with defaults and limits, and their validation.
 *
 * Model-wide parameters of a strategy or navigator are declared once as descriptors (type,
 * default, unit, range, one-line doc). The same descriptors validate options from scripts,
 * scenario files and the command line, document the parameters in `--help`, and produce errors
 * that name the owner, the option, the limit and the value.
 *
 * @module
 */

/** A numeric option. */
export interface NumberOption {
  /** Discriminant. */
  readonly type: "number";
  /** Value when the option is not given. */
  readonly default: number;
  /** Smallest allowed value (inclusive unless `exclusiveMin`). */
  readonly min?: number;
  /** Largest allowed value (inclusive unless `exclusiveMax`). */
  readonly max?: number;
  /** Make `min` exclusive. */
  readonly exclusiveMin?: boolean;
  /** Make `max` exclusive. */
  readonly exclusiveMax?: boolean;
  /** Require an integer. */
  readonly integer?: boolean;
  /** Unit, e.g. `"m"`, `"s"`, `"m/s"`, `"deg"`. */
  readonly unit?: string;
  /** What it does, and the cost of larger or smaller values. */
  readonly doc: string;
}

/** A boolean option. */
export interface BooleanOption {
  /** Discriminant. */
  readonly type: "boolean";
  /** Value when the option is not given. */
  readonly default: boolean;
  /** What it does. */
  readonly doc: string;
}

/** An option that takes one of a fixed set of strings. */
export interface EnumOption<T extends string = string> {
  /** Discriminant. */
  readonly type: "enum";
  /** Allowed values. */
  readonly values: readonly T[];
  /** Value when the option is not given. */
  readonly default: T;
  /** What it does. */
  readonly doc: string;
}

/**
 * An option with a structured value (for example the behaviour groups of a steering
 * composition). `parse` checks a value from a script or a scenario file and returns it typed;
 * it throws an Error whose message says what is wrong, and `resolveOptions` prefixes the owner
 * and option name.
 */
export interface ObjectOption<T = unknown> {
  /** Discriminant. */
  readonly type: "object";
  /** Value when the option is not given. */
  readonly default: T;
  /** Validates and converts a given value. */
  readonly parse: (value: unknown) => T;
  /** What it is, with the expected shape. */
  readonly doc: string;
}

/** Any option descriptor. */
export type OptionSpec = NumberOption | BooleanOption | EnumOption | ObjectOption;

/** Descriptors for every field of an options object `O`. */
export type OptionSpecs<O> = {
  readonly [K in keyof O]-?: O[K] extends number ? NumberOption
    : O[K] extends boolean ? BooleanOption
    : O[K] extends string ? EnumOption<O[K]>
    : O[K] extends object ? ObjectOption<O[K]>
    : never;
};

/**
 * Fills defaults and validates `given` against `specs`. `owner` names what is being created,
 * e.g. `"orca strategy"`. Throws a TypeError for unknown options or wrong types and a RangeError
 * for values outside their limits, e.g.
 * `Cannot create orca strategy as 'timeHorizon' must be > 0: current value is -1`.
 *
 * @example
 * ```ts
 * import { type OptionSpecs, resolveOptions } from "./options.ts";
 * import assert from "node:assert/strict";
 * interface DemoOptions { gain: number }
 * const specs: OptionSpecs<DemoOptions> = {
 *   gain: { type: "number", default: 1, min: 0, unit: "1/s", doc: "steer gain" },
 * };
 * assert.deepEqual(resolveOptions("demo strategy", specs, {}), { gain: 1 });
 * assert.throws(() => resolveOptions("demo strategy", specs, { gain: -2 }), RangeError);
 * ```
 */
export function resolveOptions<O>(
  owner: string,
  specs: OptionSpecs<O>,
  given: unknown = {},
): O {
  if (given === null || typeof given !== "object" || Array.isArray(given)) {
    throw new TypeError(
      `Cannot create ${owner} as its options must be an object: got ${describe(given)}`,
    );
  }
  const input = given as Record<string, unknown>;
  const table = specs as Record<string, OptionSpec>;
  for (const key of Object.keys(input)) {
    // Own keys only: names such as `toString`, `constructor` or `__proto__` are not options.
    if (!Object.hasOwn(table, key)) {
      const known = Object.keys(table);
      throw new TypeError(
        `Cannot create ${owner} as '${key}' is not one of its options: ${
          known.length ? known.join(", ") : "it takes none"
        }`,
      );
    }
  }
  const result: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    const value = Object.hasOwn(input, key) && input[key] !== undefined ? input[key] : spec.default;
    result[key] = checkOption(owner, key, spec, value);
  }
  return result as O;
}

/**
 * Gives resolved options a named parameter set's values: each option the set names takes the
 * set's value unless it was given another value than its default (a registry passes every
 * option, resolved to its default, so "left at the default" is all that can be told). Returns a
 * new object; `resolved` is not changed.
 *
 * @example
 * ```ts
 * import { resolveOptions, withParameterSet, type OptionSpecs } from "./options.ts";
 * import assert from "node:assert/strict";
 * interface Demo { gain: number; range: number }
 * const specs: OptionSpecs<Demo> = {
 *   gain: { type: "number", default: 1, doc: "gain" },
 *   range: { type: "number", default: 2, unit: "m", doc: "range" },
 * };
 * const set = { gain: 3, range: 4 };
 * const given = resolveOptions("demo", specs, { range: 5 });
 * assert.deepEqual(withParameterSet(given, specs, set), { gain: 3, range: 5 });
 * ```
 */
export function withParameterSet<O>(resolved: O, specs: OptionSpecs<O>, set: Partial<O>): O {
  const out = { ...resolved } as Record<string, unknown>;
  const table = specs as Record<string, OptionSpec>;
  for (const [key, value] of Object.entries(set as Record<string, unknown>)) {
    if (out[key] === table[key].default) out[key] = value;
  }
  return out as O;
}

function checkOption(owner: string, key: string, spec: OptionSpec, value: unknown): unknown {
  const fail = (rule: string, Err: typeof TypeError | typeof RangeError = RangeError) => {
    throw new Err(
      `Cannot create ${owner} as '${key}' must be ${rule}: current value is ${describe(value)}`,
    );
  };
  switch (spec.type) {
    case "object":
      try {
        return spec.parse(value);
      } catch (error) {
        throw new TypeError(
          `Cannot create ${owner} as '${key}' is invalid: ${(error as Error).message}`,
        );
      }
    case "boolean":
      if (typeof value !== "boolean") fail("true or false", TypeError);
      return value;
    case "enum":
      if (typeof value !== "string" || !spec.values.includes(value)) {
        fail(
          `one of ${spec.values.map((v) => `"${v}"`).join(", ")}`,
          typeof value === "string" ? RangeError : TypeError,
        );
      }
      return value;
    case "number": {
      if (typeof value !== "number") fail("a number", TypeError);
      const v = value as number;
      if (Number.isNaN(v)) fail("a number, not NaN");
      if (spec.integer && !Number.isInteger(v)) fail("an integer");
      if (spec.min !== undefined && (spec.exclusiveMin ? !(v > spec.min) : !(v >= spec.min))) {
        fail(`${spec.exclusiveMin ? ">" : ">="} ${spec.min}`);
      }
      if (spec.max !== undefined && (spec.exclusiveMax ? !(v < spec.max) : !(v <= spec.max))) {
        fail(`${spec.exclusiveMax ? "<" : "<="} ${spec.max}`);
      }
      if (!Number.isFinite(v)) fail("finite");
      return v;
    }
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return String(value);
  if (value === undefined) return "undefined";
  return JSON.stringify(value) ?? String(value);
}

/** One line per option: `name  default  unit  range  doc`, for help texts. */
export function describeOptions(specs: Record<string, OptionSpec>): string[] {
  return Object.entries(specs).map(([key, spec]) => {
    let range = "";
    if (spec.type === "number") {
      const lo = spec.min === undefined ? "" : `${spec.exclusiveMin ? "(" : "["}${spec.min}`;
      const hi = spec.max === undefined ? "" : `${spec.max}${spec.exclusiveMax ? ")" : "]"}`;
      range = lo || hi ? `${lo || "(-inf"}, ${hi || "inf)"}` : "";
    } else if (spec.type === "enum") {
      range = spec.values.join("|");
    }
    if (spec.type === "object") return `${key}  ${spec.doc}`;
    const unit = spec.type === "number" && spec.unit ? ` ${spec.unit}` : "";
    return `${key} = ${spec.default}${unit}${range ? `  ${range}` : ""}  ${spec.doc}`;
  });
}

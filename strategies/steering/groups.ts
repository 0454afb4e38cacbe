/**
 * Priority groups of weighted behaviours as written in scripts and scenario files, and their
 * validation.
 *
 * A composition is a list of groups in priority order; a group is a list of entries; an entry
 * names a behaviour, its blending weight and, optionally, its options. Either form may be used:
 *
 * ```json
 * [[["boxcast", 1.0]], [["seek", 1.0], ["separation", 0.6, { "range": 0.8 }], ["drag", 0.3]]]
 * [[{ "behaviour": "boxcast", "weight": 1, "options": { "preset": "crowded" } }], [{ "behaviour": "seek", "weight": 1 }]]
 * ```
 *
 * @module
 */
import type { StrategyRegistry } from "../../core/registry.ts";
import { createBehaviour, isBehaviourName, knownBehaviourNames } from "./catalogue.ts";

/** One weighted behaviour of a group. */
export interface BehaviourEntry {
  /** Built-in behaviour (`seek`, `arrive`, `separation`, `drag`, `boxcast`) or strategy name. */
  behaviour: string;
  /** Blending weight (dimensionless, > 0). */
  weight: number;
  /** Options of the behaviour (or of the wrapped strategy). */
  options?: Record<string, unknown>;
}

/** Groups in priority order; the first whose blended acceleration exceeds epsilon decides. */
export type BehaviourGroups = BehaviourEntry[][];

/**
 * The composition of the "Crossing citizens" report: avoidance first, then seek, separation and
 * drag blended.
 */
export const DEFAULT_GROUPS: BehaviourGroups = [
  [{ behaviour: "boxcast", weight: 1 }],
  [{ behaviour: "seek", weight: 1 }, { behaviour: "separation", weight: 0.6 }, {
    behaviour: "drag",
    weight: 0.3,
  }],
];

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Validates a composition from a script or scenario file and returns it in object form. Every
 * name must resolve (see {@linkcode createBehaviour}), every weight be a finite number > 0,
 * every behaviour's options be valid, and a behaviour that keeps per-agent state (declares
 * columns) may appear only once. Errors name the entry, e.g.
 * `groups[1][0].behaviour: unknown behaviour 'sek' (known: seek, arrive, …)`.
 *
 * @example
 * ```ts
 * import { parseGroups } from "./groups.ts";
 * import assert from "node:assert/strict";
 * const groups = parseGroups([[["boxcast", 1]], [["seek", 1], ["separation", 0.6]]]);
 * assert.deepEqual(groups[1][1], { behaviour: "separation", weight: 0.6, options: {} });
 * assert.throws(() => parseGroups([[["sek", 1]]]), /groups\[0\]\[0\]\.behaviour: unknown behaviour 'sek'/);
 * ```
 */
export function parseGroups(value: unknown, registry?: StrategyRegistry): BehaviourGroups {
  if (!Array.isArray(value) || value.length === 0) {
    throw new TypeError(
      `groups: expected a non-empty array of groups: current value is ${show(value)}`,
    );
  }
  const stateful = new Map<string, string>();
  return value.map((group, g) => {
    if (!Array.isArray(group) || group.length === 0) {
      throw new TypeError(
        `groups[${g}]: expected a non-empty array of [behaviour, weight] entries: current value is ${
          show(group)
        }`,
      );
    }
    return group.map((raw, e) => {
      const where = `groups[${g}][${e}]`;
      const entry = _normalizeEntry(raw, where);
      if (!isBehaviourName(entry.behaviour, registry)) {
        throw new RangeError(
          `${where}.behaviour: unknown behaviour '${entry.behaviour}' (known: ${
            knownBehaviourNames(registry)
          })`,
        );
      }
      if (
        typeof entry.weight !== "number" || !Number.isFinite(entry.weight) || !(entry.weight > 0)
      ) {
        throw new RangeError(
          `${where}.weight: must be a finite number > 0: current value is ${show(entry.weight)}`,
        );
      }
      let columns = 0;
      try {
        columns = createBehaviour(entry.behaviour, entry.options, registry).columns?.length ?? 0;
      } catch (error) {
        throw new RangeError(`${where}.options: ${(error as Error).message}`);
      }
      if (columns > 0) {
        const first = stateful.get(entry.behaviour);
        if (first !== undefined) {
          throw new RangeError(
            `${where}.behaviour: '${entry.behaviour}' already appears at ${first}; a behaviour that keeps per-agent state may appear once`,
          );
        }
        stateful.set(entry.behaviour, where);
      }
      return entry;
    });
  });
}

/** Tuple or object form → object form with `options` filled. */
function _normalizeEntry(raw: unknown, where: string): Required<BehaviourEntry> {
  let behaviour: unknown, weight: unknown, options: unknown;
  if (Array.isArray(raw)) {
    if (raw.length < 2 || raw.length > 3) {
      throw new TypeError(
        `${where}: expected [behaviour, weight] or [behaviour, weight, options]: current value is ${
          show(raw)
        }`,
      );
    }
    [behaviour, weight, options] = raw;
  } else if (isPlainObject(raw)) {
    for (const key of Object.keys(raw)) {
      if (key !== "behaviour" && key !== "weight" && key !== "options") {
        throw new TypeError(
          `${where}: unknown field '${key}' (fields: behaviour, weight, options)`,
        );
      }
    }
    ({ behaviour, weight, options } = raw);
  } else {
    throw new TypeError(
      `${where}: expected [behaviour, weight] or { behaviour, weight, options }: current value is ${
        show(raw)
      }`,
    );
  }
  if (typeof behaviour !== "string") {
    throw new TypeError(`${where}.behaviour: expected a name: current value is ${show(behaviour)}`);
  }
  if (options !== undefined && !isPlainObject(options)) {
    throw new TypeError(`${where}.options: expected an object: current value is ${show(options)}`);
  }
  return { behaviour, weight: weight as number, options: { ...(options ?? {}) } };
}

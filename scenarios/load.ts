/**
 * Reading scenario files: JSON parsing with line and column in errors, schema validation with
 * the field path and the offending value in errors.
 *
 * @module
 */
import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import type { z } from "zod";
import { ScenarioSchema, type ScenarioSpec } from "./schema.ts";

/**
 * A problem with a scenario: names the source (file or built-in), the field path and what was
 * expected. `message` is one line, ready to show to a user.
 */
export class ScenarioError extends Error {
  constructor(
    /** File path or `built-in scenario 'name'`. */
    readonly source: string,
    /** Field path such as `spawners[0].count`, or `line 3, column 5` for syntax errors. */
    readonly where: string,
    /** What is wrong. */
    readonly problem: string,
  ) {
    super(`${source}: ${where ? `${where}: ` : ""}${problem}`);
    this.name = "ScenarioError";
  }
}

/** Formats a field path the way it would be written in JavaScript: `spawners[0].area.rect`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function show(value: unknown): string {
  if (typeof value === "number") return String(value);
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): { path: string; problem: string } {
  const path = formatPath(issue.path);
  const value = valueAt(input, issue.path);
  const current = value === undefined ? "it is missing" : `current value is ${show(value)}`;
  switch (issue.code) {
    case "unrecognized_keys":
      return {
        path,
        problem: `unknown field${issue.keys.length > 1 ? "s" : ""} ${
          issue.keys.map((k) => `'${k}'`).join(", ")
        }`,
      };
    case "invalid_type": {
      if (value === undefined) return { path, problem: `required field is missing` };
      if (typeof value === "number" && !Number.isFinite(value)) {
        return { path, problem: `must be a finite number: ${current}` };
      }
      const expected = issue.expected === "int" ? "an integer" : `a ${issue.expected}`;
      return { path, problem: `expected ${expected}: ${current}` };
    }
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
      if (issue.origin === "array" || issue.origin === "string") {
        const what = issue.origin === "array" ? "items" : "characters";
        const rule = issue.code === "too_small" ? "at least" : "at most";
        return { path, problem: `expected ${rule} ${bound} ${what}: ${current}` };
      }
      const op = issue.code === "too_small"
        ? (issue.inclusive ? ">=" : ">")
        : (issue.inclusive ? "<=" : "<");
      return { path, problem: `must be ${op} ${bound}: ${current}` };
    }
    case "invalid_value":
      return {
        path,
        problem: `must be one of ${issue.values.map((v) => show(v)).join(", ")}: ${current}`,
      };
    default: {
      const message = issue.message.replace(/^Invalid input: /, "");
      return { path, problem: `${message}: ${current}` };
    }
  }
}

/**
 * Validates a parsed scenario object. Throws a {@linkcode ScenarioError} naming the first bad
 * field, e.g. `corridor.json: spawners[0].count: must be >= 0: current value is -3`.
 *
 * @example
 * ```ts
 * import { validateScenario } from "./load.ts";
 * import assert from "node:assert/strict";
 * assert.throws(
 *   () => validateScenario({ name: "x", spawners: [] }, "x.json"),
 *   /x\.json: spawners: expected at least 1 items/,
 * );
 * ```
 */
export function validateScenario(input: unknown, source: string): ScenarioSpec {
  const result = ScenarioSchema.safeParse(input);
  if (result.success) return result.data;
  // Report the most specific problem first (the deepest path).
  const issues = [...result.error.issues].sort((a, b) => b.path.length - a.path.length);
  const { path, problem } = describeIssue(issues[0], input);
  throw new ScenarioError(source, path, problem);
}

/** Parses scenario JSON text; syntax errors name the line and column. */
export function parseScenario(text: string, source: string): ScenarioSpec {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { disallowComments: false, allowTrailingComma: false });
  if (errors.length > 0) {
    const { error, offset } = errors[0];
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    throw new ScenarioError(
      source,
      `line ${line}, column ${column}`,
      `invalid JSON (${printParseErrorCode(error)})`,
    );
  }
  return validateScenario(value, source);
}

/** Reads and validates a scenario file. Unreadable files give a one-line ScenarioError. */
export async function loadScenarioFile(path: string): Promise<ScenarioSpec> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "file not found"
      : error instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : error instanceof Deno.errors.IsADirectory
      ? "is a directory"
      : (error as Error).message;
    throw new ScenarioError(path, "", `cannot read scenario file: ${reason}`);
  }
  return parseScenario(text, path);
}

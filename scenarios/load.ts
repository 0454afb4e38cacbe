/**
 * Reading scenario files: JSON parsing with line and column in errors, schema validation with
 * the field path and the offending value in errors.
 *
 * @module
 */
import { createScanner, parse, type ParseError, printParseErrorCode } from "npm:jsonc-parser@3.3.1";
import type { z } from "npm:zod@4.6.7";
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

/** How zod's expected types read in a message. */
const _EXPECTED: Record<string, string> = {
  int: "an integer",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  record: "an object",
  array: "a list",
  tuple: "a list",
};

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
      const expected = _EXPECTED[issue.expected] ?? `a ${issue.expected}`;
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

/**
 * Deepest nesting of arrays and objects a scenario file may have. The deepest field of the format
 * (a navigation surface's ring point, or a steering group) sits about eight levels down; the
 * limit keeps a hostile file from exhausting the parser's stack.
 */
export const MAX_SCENARIO_NESTING = 64;

/** Largest scenario file read (bytes): 64 MiB, far more than a city's walls take. */
export const MAX_SCENARIO_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Parses scenario JSON text (comments allowed; a leading UTF-8 byte order mark is ignored);
 * syntax errors, nesting deeper than {@linkcode MAX_SCENARIO_NESTING} and `__proto__` keys name
 * the line and column.
 *
 * @example
 * ```ts
 * import { parseScenario } from "./load.ts";
 * import assert from "node:assert/strict";
 * const text = '\uFEFF{"name": "x", "spawners": [{"area": {"point": [0, 0]}, "count": 1, "goal": {"point": [5, 0]}}]}';
 * assert.equal(parseScenario(text, "x.json").name, "x");
 * assert.throws(() => parseScenario('{"name": "x",, }', "x.json"), /x\.json: line 1, column 14: invalid JSON/);
 * ```
 */
export function parseScenario(text: string, source: string): ScenarioSpec {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const where = (offset: number) => {
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    return `line ${line}, column ${offset - before.lastIndexOf("\n")}`;
  };
  const unsafe = _findUnsafeStructure(text);
  if (unsafe) throw new ScenarioError(source, where(unsafe.offset), unsafe.problem);
  const errors: ParseError[] = [];
  const value = parse(text, errors, { disallowComments: false, allowTrailingComma: false });
  if (errors.length > 0) {
    const { error, offset } = errors[0];
    throw new ScenarioError(source, where(offset), `invalid JSON (${printParseErrorCode(error)})`);
  }
  return validateScenario(value, source);
}

/** jsonc-parser token kinds (its `SyntaxKind`, a const enum that cannot be imported). */
const _TOKEN = {
  openBrace: 1,
  closeBrace: 2,
  openBracket: 3,
  closeBracket: 4,
  colon: 6,
  string: 10,
  eof: 17,
};

/**
 * Scans the tokens once (no recursion) for what the recursive parser cannot take safely:
 * nesting deeper than {@linkcode MAX_SCENARIO_NESTING}, and `__proto__` as a key (the parser
 * would set an object's prototype instead of a field). Returns the first problem and its offset.
 */
function _findUnsafeStructure(text: string): { offset: number; problem: string } | null {
  const scanner = createScanner(text, true);
  let depth = 0;
  let previousProto = -1;
  for (let token = scanner.scan(); token !== _TOKEN.eof; token = scanner.scan()) {
    if (token === _TOKEN.openBrace || token === _TOKEN.openBracket) {
      if (++depth > MAX_SCENARIO_NESTING) {
        return {
          offset: scanner.getTokenOffset(),
          problem: `nested deeper than ${MAX_SCENARIO_NESTING} levels of arrays and objects`,
        };
      }
    } else if (token === _TOKEN.closeBrace || token === _TOKEN.closeBracket) {
      depth = Math.max(0, depth - 1);
    } else if (token === _TOKEN.colon && previousProto >= 0) {
      return { offset: previousProto, problem: `'__proto__' is not allowed as a field name` };
    }
    previousProto = token === _TOKEN.string && scanner.getTokenValue() === "__proto__"
      ? scanner.getTokenOffset()
      : -1;
  }
  return null;
}

/**
 * Reads and validates a scenario file. Unreadable files, and anything but a regular file of at
 * most {@linkcode MAX_SCENARIO_FILE_BYTES} (a FIFO would block, a device never end), give a
 * one-line ScenarioError.
 */
export async function loadScenarioFile(path: string): Promise<ScenarioSpec> {
  const cannot = (reason: string) =>
    new ScenarioError(path, "", `cannot read scenario file: ${reason}`);
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) throw cannot("is a directory");
    if (!info.isFile) {
      const kind = info.isFifo
        ? "a FIFO"
        : info.isCharDevice || info.isBlockDevice
        ? "a device"
        : info.isSocket
        ? "a socket"
        : null;
      throw cannot(kind ? `it is ${kind}, not a regular file` : "not a regular file");
    }
    if (info.size > MAX_SCENARIO_FILE_BYTES) {
      throw cannot(
        `it holds ${(info.size / 2 ** 20).toFixed(0)} MiB, more than the ${
          MAX_SCENARIO_FILE_BYTES / 2 ** 20
        } MiB a scenario may take`,
      );
    }
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof ScenarioError) throw error;
    const reason = error instanceof Deno.errors.NotFound
      ? "file not found"
      : error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable
      ? "permission denied"
      : error instanceof Deno.errors.IsADirectory
      ? "is a directory"
      : (error as Error).message.split("\n")[0];
    throw cannot(reason);
  }
  return parseScenario(text, path);
}

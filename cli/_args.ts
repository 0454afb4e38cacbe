/**
 * Command-line flag parsing shared by the tools: `node:util` `parseArgs` plus checks that name
 * the flag and the expected value.
 *
 * @module
 */
import { parseArgs as nodeParseArgs } from "node:util";
import { UsageError } from "./_errors.ts";

/** Declaration of one flag. */
export interface FlagSpec {
  /** `string` flags take a value, `boolean` flags do not. */
  type: "string" | "boolean";
  /** One-letter alias. */
  short?: string;
  /** May be given several times (values collected in an array). */
  multiple?: boolean;
  /** Value name and meaning, for `--help`. */
  help: string;
}

/**
 * Parses `args` against `flags`; unknown flags and missing values are {@linkcode UsageError}s.
 * Returns the flag values and the positional arguments.
 */
export function parseFlags(
  args: string[],
  flags: Record<string, FlagSpec>,
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  const options: Record<
    string,
    { type: "string" | "boolean"; short?: string; multiple?: boolean }
  > = {};
  for (const [name, spec] of Object.entries(flags)) {
    options[name] = {
      type: spec.type,
      ...(spec.short ? { short: spec.short } : {}),
      ...(spec.multiple ? { multiple: true } : {}),
    };
  }
  try {
    const { values, positionals } = nodeParseArgs({
      args: _attachNegativeValues(args, flags),
      options,
      allowPositionals: true,
      strict: true,
    });
    return {
      values: values as Record<string, string | boolean | string[] | undefined>,
      positionals,
    };
  } catch (error) {
    const message = (error as Error).message
      .replace(/^Unknown option '([^']+)'.*$/s, "unknown flag '$1' (see --help)")
      .replace(/^Option '([^']+)' argument missing$/s, "flag '$1' needs a value");
    throw new UsageError(message.split("\n")[0]);
  }
}

/**
 * Joins a value-taking flag and a following negative number (`--agents -5` → `--agents=-5`), which
 * `parseArgs` would otherwise read as a short flag, so the value reaches the range check and its
 * message.
 */
function _attachNegativeValues(args: string[], flags: Record<string, FlagSpec>): string[] {
  const takesValue = new Set<string>();
  for (const [name, spec] of Object.entries(flags)) {
    if (spec.type !== "string") continue;
    takesValue.add(`--${name}`);
    if (spec.short) takesValue.add(`-${spec.short}`);
  }
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--") {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    if (takesValue.has(args[i]) && next !== undefined && /^-(\d|\.\d|Infinity)/.test(next)) {
      out.push(args[i].startsWith("--") ? `${args[i]}=${next}` : `${args[i]}${next}`);
      i++;
    } else {
      out.push(args[i]);
    }
  }
  return out;
}

/** A `--help` text: usage line, then one line per flag. */
export function helpText(usage: string, flags: Record<string, FlagSpec>, extra = ""): string {
  const lines = Object.entries(flags).map(([name, spec]) => {
    const left = `  ${spec.short ? `-${spec.short}, ` : "    "}--${name}${
      spec.type === "string" ? " <value>" : ""
    }`;
    return `${left.padEnd(30)} ${spec.help}`;
  });
  return `${usage}\n\n${lines.join("\n")}${extra ? `\n\n${extra}` : ""}\n`;
}

/** Parses a non-negative integer flag value, or throws a UsageError naming the flag. */
export function integerFlag(
  name: string,
  value: string | boolean | string[] | undefined,
  min = 0,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (
    typeof value !== "string" || !/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min
  ) {
    throw new UsageError(`--${name} must be an integer >= ${min}: got '${value}'`);
  }
  return n;
}

/**
 * Parses a seed list: `3`, `1-5`, `1,2,7` or a mix such as `1-3,10`. Seeds are unsigned 32-bit
 * integers; at most 1000 seeds.
 */
export function seedListFlag(value: string): number[] {
  const seeds: number[] = [];
  for (const part of value.split(",")) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new UsageError(`--seeds must look like 3, 1-5 or 1,2,7: got '${value}'`);
    const from = Number(m[1]), to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) throw new UsageError(`--seeds range '${part.trim()}' runs backwards`);
    if (to > 0xffff_ffff) {
      throw new UsageError(`--seeds must be <= 4294967295: got '${part.trim()}'`);
    }
    if (seeds.length + (to - from + 1) > 1000) {
      throw new UsageError(`--seeds gives more than 1000 seeds`);
    }
    for (let s = from; s <= to; s++) seeds.push(s);
  }
  return seeds;
}

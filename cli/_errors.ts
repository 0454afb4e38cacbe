/**
 * How command-line tools end: one line on standard error and an exit code, never a stack trace
 * for a user's mistake.
 *
 * @module
 */
import { ScenarioError } from "../scenarios/load.ts";
import { UnknownStrategyError } from "../core/registry.ts";
import { NonFiniteVelocityError } from "../core/world.ts";
import { MapImportError } from "../geo/map_import_error.ts";

/** Exit code for bad input (flags, scenario and map files, unreadable or unwritable files). */
export const EXIT_BAD_INPUT = 2;
/** Exit code when a run fails (a strategy produced a non-finite velocity). */
export const EXIT_RUN_FAILED = 1;
/** Exit code after Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/** A mistake in the command line; the message says which flag and what was expected. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** An input or output file problem; the message names the file. */
export class FileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileError";
  }
}

/**
 * The exit code a failure ends with: 2 for bad input (flags, scenario files, unreadable or
 * unwritable files), 1 for a failed run, undefined for anything else (a bug).
 *
 * @example
 * ```ts
 * import { exitCodeOf, UsageError } from "./_errors.ts";
 * import assert from "node:assert/strict";
 * assert.equal(exitCodeOf(new UsageError("--agents must be an integer >= 0: got '-5'")), 2);
 * assert.equal(exitCodeOf(new TypeError("x is undefined")), undefined);
 * ```
 */
export function exitCodeOf(error: unknown): number | undefined {
  if (
    error instanceof UsageError || error instanceof ScenarioError || error instanceof FileError ||
    error instanceof UnknownStrategyError || error instanceof MapImportError
  ) {
    return EXIT_BAD_INPUT;
  }
  if (error instanceof NonFiniteVelocityError) return EXIT_RUN_FAILED;
  return undefined;
}

/**
 * Runs `main` and turns known failures into a one-line message and an exit code: bad input →
 * 2, a failed run → 1. Unknown errors are bugs and keep their stack trace.
 */
export async function runMain(main: () => Promise<number | void>): Promise<never> {
  let code = 0;
  try {
    code = (await main()) ?? 0;
  } catch (error) {
    const known = exitCodeOf(error);
    if (known === EXIT_BAD_INPUT) {
      console.error(`error: ${(error as Error).message}`);
    } else if (known === EXIT_RUN_FAILED) {
      console.error(
        `error: ${(error as Error).message}; the run was stopped before positions were updated`,
      );
    } else {
      throw error;
    }
    code = known;
  }
  Deno.exit(code);
}

/**
 * Worker of the fuzz test: runs `deno task sim` in-process on one scenario text and flag list at a
 * time and reports how it ended, so that the test can stop a case that hangs.
 *
 * @module
 */
import { simMain } from "../cli/sim.ts";
import { exitCodeOf } from "../cli/_errors.ts";

/** One case: the scenario file's text and the flags after `--scenario <file>`. */
export interface FuzzCase {
  /** Scenario file contents, or null to pass a built-in name in `args`. */
  text: string | null;
  /** Flags. */
  args: string[];
}

/** How a case ended. */
export interface FuzzOutcome {
  /** Exit code the command line would end with; null for an error that is a bug. */
  code: number | null;
  /** The error message (one line for bad input), or the stack of a bug. */
  message: string;
  /** What the tool printed on standard error (warnings). */
  stderr: string;
}

const dir = Deno.makeTempDirSync();
const scope = self as unknown as Worker;

scope.onmessage = async (event: MessageEvent<FuzzCase>) => {
  const { text, args } = event.data;
  const file = `${dir}/scenario.json`;
  const stderr: string[] = [];
  const log = console.log, error = console.error;
  console.log = () => {};
  console.error = (...parts: unknown[]) => stderr.push(parts.join(" "));
  let outcome: FuzzOutcome;
  try {
    if (text !== null) Deno.writeTextFileSync(file, text);
    const code = await simMain(text === null ? args : ["--scenario", file, ...args]);
    outcome = { code, message: "", stderr: stderr.join("\n") };
  } catch (caught) {
    const code = exitCodeOf(caught);
    outcome = {
      code: code ?? null,
      message: code === undefined
        ? String((caught as Error)?.stack ?? caught)
        : (caught as Error).message,
      stderr: stderr.join("\n"),
    };
  } finally {
    console.log = log;
    console.error = error;
  }
  scope.postMessage(outcome);
};

// Loaded (and, under `deno test`, type-checked): the cases may start.
scope.postMessage("ready");

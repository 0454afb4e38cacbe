/**
 * Test helper: runs a file of viewer checks with `deno test` in a subprocess with the given
 * permissions, and reports the outcome of each named test or step.
 *
 * @module
 */

/** Outcome of a checks run. */
export interface ChecksRun {
  /** Exit code of `deno test`. */
  code: number;
  /** Its standard output and error, without colours. */
  output: string;
  /** `"ok"`, `"FAILED"` or `"missing"` for the test or step called `name`. */
  result(name: string): string;
}

/**
 * Runs `deno test <permissions> <file>` from the repository root, with `env` added to the
 * environment.
 */
export async function runChecks(
  file: string,
  permissions: string[],
  env: Record<string, string> = {},
): Promise<ChecksRun> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["test", ...permissions, file],
    cwd: new URL("../", import.meta.url),
    env: { ...env, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  const output = decoder.decode(stdout) + decoder.decode(stderr); // NO_COLOR: no escapes
  return {
    code,
    output,
    result(name: string): string {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      // Deno's "has been running for over (1m0s)" notice may cut the line before its result.
      const match = new RegExp(
        `^\\s*${escaped} \\.\\.\\.(?:'[^\\n]*has been running for over[^\\n]*\\n)* (ok|FAILED)`,
        "m",
      ).exec(output);
      return match ? match[1] : "missing";
    },
  };
}

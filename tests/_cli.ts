/**
 * Test helper: runs a throng command-line tool in a subprocess and captures its output.
 *
 * @module
 */

/** Output of one command run. */
export interface CliResult {
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

const ROOT = new URL("../", import.meta.url);

/** Runs `deno run <permissions> cli/<tool>.ts <args>` from the repository root. */
export async function runCli(
  tool: "sim" | "compare" | "demo" | "city",
  args: string[],
  permissions: string[] = ["--allow-read", "--allow-write"],
): Promise<CliResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, `cli/${tool}.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout, stderr } = await command.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

/** Starts a tool without waiting; the caller reads, signals and awaits it. */
export function spawnCli(tool: "sim" | "compare", args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", `cli/${tool}.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

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

/**
 * `stderr` without the lines Deno itself prints while it fetches an npm package a command needs
 * for the first time on this machine (`Download https://registry.npmjs.org/…`): they are the
 * runtime's, not the tool's, and appear only on a fresh machine.
 */
export function withoutDownloads(stderr: string): string {
  return stderr.replace(/^Download https?:\/\/\S+\n?/gm, "");
}

/** Longest a tool may run in a test before it counts as hanging (ms). */
export const CLI_TIMEOUT_MS = 30_000;

/**
 * Runs `deno run <permissions> cli/<tool>.ts <args>` from the repository root. A run that takes
 * longer than {@linkcode CLI_TIMEOUT_MS} is killed and throws, naming the command.
 */
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
  return await _output(command.spawn(), `${tool} ${args.join(" ")}`);
}

/**
 * Runs `deno task --config <repository>/deno.json <task> <args>` from `cwd`, as a user in another
 * folder would.
 */
export async function runTask(task: string, args: string[], cwd: string): Promise<CliResult> {
  // Through `env -u`: under `deno task test` the variable `deno task` sets (INIT_CWD, the
  // user's folder) is already set to the checkout, and a nested `deno task` keeps it.
  const command = new Deno.Command("env", {
    args: [
      "-u",
      "INIT_CWD",
      Deno.execPath(),
      "task",
      "--quiet",
      "--config",
      new URL("deno.json", ROOT).pathname,
      task,
      ...args,
    ],
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  });
  return await _output(command.spawn(), `task ${task} ${args.join(" ")}`);
}

async function _output(child: Deno.ChildProcess, what: string): Promise<CliResult> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, CLI_TIMEOUT_MS);
  try {
    const { code, stdout, stderr } = await child.output();
    if (timedOut) throw new Error(`'${what}' still ran after ${CLI_TIMEOUT_MS / 1000} s`);
    const decoder = new TextDecoder();
    return {
      code,
      stdout: decoder.decode(stdout),
      stderr: withoutDownloads(decoder.decode(stderr)),
    };
  } finally {
    clearTimeout(timer);
  }
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

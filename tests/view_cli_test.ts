/**
 * `deno task view` as a user runs it (the task's own command line from deno.json): one to four
 * strategies, one-line errors with exit code 2 for bad flags and files, and a clean stop on
 * Ctrl-C.
 *
 * @module
 */
import assert from "node:assert/strict";
import { withoutDownloads } from "./_cli.ts";

const ROOT = new URL("../", import.meta.url);
const TASK = (JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).tasks.view as string)
  .split(/\s+/);
assert.equal(TASK[0], "deno");

/** The view task with `args`, started; the caller reads, signals and awaits it. */
function spawnView(args: string[], env: Record<string, string> = {}): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [...TASK.slice(1), ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Runs the view task to its end. */
async function runView(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await spawnView(args).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: withoutDownloads(decoder.decode(stderr)) };
}

/**
 * Starts the view task with `args`, reads its output until it prints the page's address, stops
 * it with Ctrl-C and returns what it printed and its exit code.
 */
async function serveUntilOpen(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ text: string; code: number; stderr: string }> {
  const child = spawnView(args, env);
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (!/^open http:\/\/127\.0\.0\.1:\d+\//m.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
    child.kill("SIGINT");
  }
  const status = await child.status;
  await child.stdout.cancel();
  const stderr = new TextDecoder().decode(
    new Uint8Array(await new Response(child.stderr).arrayBuffer()),
  );
  return { text, code: status.code, stderr: withoutDownloads(stderr) };
}

function assertOneLineError(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`);
  assert.match(lines[0], /^error: /);
  assert.match(lines[0], pattern);
}

Deno.test("view serves one strategy alone, prints its address and stops on Ctrl-C", async () => {
  const { text, code, stderr } = await serveUntilOpen([
    "--strategies",
    "none",
    "--agents",
    "10",
    "--port",
    "0",
  ]);
  assert.match(text, /throng viewer \(live crossing: none, 10 agents, seed 1; each page runs/);
  assert.match(text, /^open http:\/\/127\.0\.0\.1:\d+\//m);
  assert.equal(code, 130, stderr);
  assert.equal(stderr, "");
});

Deno.test("view reads a scenario file relative to the folder the command was run in", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/walk.json`,
      JSON.stringify({
        name: "walk",
        spawners: [{ area: { rect: [0, 0, 2, 2] }, count: 2, goal: { point: [4, 1] } }],
      }),
    );
    // deno task passes the user's folder as INIT_CWD; the task itself runs in the checkout.
    const { text, stderr } = await serveUntilOpen([
      "--scenario",
      "walk.json",
      "--strategies",
      "none",
      "--port",
      "0",
    ], { INIT_CWD: dir });
    assert.match(text, /live walk: none, 2 agents/, stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("view runs the crosswalk with cars: the light preset's crowd", async () => {
  const { text, stderr } = await serveUntilOpen([
    "--scenario",
    "crosswalk",
    "--preset",
    "light",
    "--cars",
    "12",
    "--strategies",
    "none",
    "--port",
    "0",
  ]);
  // The light preset: 40 pedestrians.
  assert.match(text, /live crosswalk: none, 40 agents, seed 1/, stderr);
});

Deno.test("view runs city-traffic: the map's pedestrians and cars", async () => {
  const { text, stderr } = await serveUntilOpen([
    "--scenario",
    "city-traffic",
    "--agents",
    "30",
    "--cars",
    "10",
    "--strategies",
    "none",
    "--port",
    "0",
  ]);
  assert.match(text, /live \S+: none, 30 agents, seed 1/, stderr);
});

Deno.test("view --help offers one to four strategies and every flag", async () => {
  const r = await runView(["--help"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /--strategies <value>\s+1-4 strategies side by side/);
  for (
    const flag of [
      "--scenario",
      "--agents",
      "--seed",
      "--host",
      "--port",
      "--max-pages",
      "--cars",
      "--preset",
    ]
  ) {
    assert.match(r.stdout, new RegExp(`${flag} `));
  }
});

Deno.test("view refuses bad flags and files with one line and exit code 2", async (t) => {
  const cases: [string, string[], RegExp][] = [
    ["five strategies", ["--strategies", "none,none,none,none,none"], /1 to 4 strategies: got 5/],
    ["an unknown strategy", ["--strategies", "nope"], /unknown strategy 'nope'/],
    ["a port out of range", ["--port", "70000"], /--port must be <= 65535/],
    ["tiles without {z}", ["--tiles", "http://x/{x}/{y}.png"], /--tiles must contain/],
    ["live flags on a replay", ["run.bin", "--seed", "3"], /--seed does not apply to a replay/],
    ["a missing recording", ["missing.bin"], /missing\.bin/],
    ["no page allowed", ["--max-pages", "0"], /--max-pages must be an integer >= 1/],
    [
      "cars without cars",
      ["--cars", "20"],
      /--cars applies to city-grid, crosswalk and city-traffic only/,
    ],
    [
      "a preset of another scenario",
      ["--scenario", "city-grid", "--preset", "light"],
      /--preset must be one of light, average, crowded with the scenario crosswalk: got 'light'/,
    ],
    [
      "an unknown preset",
      ["--scenario", "crosswalk", "--preset", "packed"],
      /--preset must be one of light, average, crowded .*got 'packed'/,
    ],
  ];
  for (const [name, args, pattern] of cases) {
    await t.step(name, async () => {
      const r = await runView(args);
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      assertOneLineError(r.stderr, pattern);
    });
  }
});

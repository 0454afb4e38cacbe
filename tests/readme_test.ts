/**
 * The README's examples as a reader copies them, and the example scenario files.
 *
 * The TypeScript blocks run in `deno task test` itself (`deno test --doc … README.md`). Here:
 * every JSON block is a shipped example file or a part of one, every command names a task and
 * flags that exist (and the first comparison runs as written), the flag lists name exactly the
 * tools' flags, and every file in `examples/` builds without a warning and runs to its end with
 * everyone arriving.
 */
import { CITY_TRAFFIC_SCENARIOS } from "../scenarios/city_traffic.ts";
import assert from "node:assert/strict";
import { parse, type ParseError } from "npm:jsonc-parser@3.3.1";
import { parseFlags } from "../cli/_args.ts";
import { COMPARE_FLAGS, compareMain } from "../cli/compare.ts";
import { SIM_FLAGS } from "../cli/sim.ts";
import { buildScenario } from "../scenarios/build.ts";
import { BUILTIN_SCENARIOS } from "../scenarios/builtin/mod.ts";
import { loadScenarioFile } from "../scenarios/load.ts";
import { runScenario } from "../scenarios/run.ts";
import { strategies } from "../strategies/mod.ts";

const ROOT = new URL("../", import.meta.url);
const README = await Deno.readTextFile(new URL("README.md", ROOT));
const EXAMPLES = new URL("examples/", ROOT);

/** A fenced block of the README: its info string, text and first line number. */
interface Block {
  info: string;
  text: string;
  line: number;
}

function _blocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    blocks.push({ info: open[1].trim(), text: lines.slice(start, end).join("\n"), line: i + 1 });
    i = end;
  }
  return blocks;
}

const BLOCKS = _blocks(README);

async function _exampleFiles(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(EXAMPLES)) {
    if (entry.isFile && /\.jsonc?$/.test(entry.name)) names.push(entry.name);
  }
  return names.sort();
}

function _parseJsonc(text: string, where: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: false });
  assert.deepEqual(errors, [], `${where} is valid JSON with comments`);
  return value;
}

Deno.test("the README's TypeScript blocks run in deno task test", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).tasks;
  assert.match(tasks.test, /deno test (--parallel )?--doc .* README\.md/);
  const ts = BLOCKS.filter((b) => /^(ts|typescript)\b/.test(b.info));
  assert.ok(ts.length >= 2, "the script examples are TypeScript blocks");
  for (const block of ts.filter((b) => /\bignore\b/.test(b.info))) {
    // Only the import from another project is not run here: it names a path outside the
    // checkout. tests/external_import_test.ts runs the same import from a temporary folder.
    assert.match(
      block.text,
      /^import \{[^}]+\} from "\.\.\/throng\/mod\.ts";$/,
      `line ${block.line}`,
    );
  }
});

Deno.test("every JSON block of the README is a shipped example file, or a part of one", async () => {
  const files = new Map<string, string>();
  for (const name of await _exampleFiles()) {
    files.set(name, await Deno.readTextFile(new URL(name, EXAMPLES)));
  }
  const json = BLOCKS.filter((b) => /^jsonc?$/.test(b.info));
  assert.ok(json.length >= 3);
  let wholeFiles = 0, sections = 0;
  for (const block of json) {
    const where = `README.md line ${block.line}`;
    if (block.text.startsWith("{\n")) {
      // A whole scenario: the file it came from, character for character.
      const match = [...files].find(([, text]) => text === `${block.text}\n`);
      assert.ok(match, `${where}: the scenario is one of examples/${[...files.keys()].join(", ")}`);
      wholeFiles++;
    } else if (block.text.startsWith('"')) {
      // Sections of a scenario: each as written in one of the example files.
      const section = _parseJsonc(`{${block.text}}`, where) as Record<string, unknown>;
      for (const [key, value] of Object.entries(section)) {
        const found = [...files].some(([name, text]) => {
          const example = _parseJsonc(text, name) as Record<string, unknown>;
          try {
            assert.deepEqual(example[key], value);
            return true;
          } catch {
            return false;
          }
        });
        assert.ok(found, `${where}: "${key}" is written so in one of the example files`);
      }
      sections++;
    } else {
      // The import map of a project that uses a checkout.
      const config = _parseJsonc(block.text, where) as { imports: Record<string, string> };
      assert.match(config.imports["throng/"], /^\.\.\/.*\/$/, `${where}: a folder mapping`);
    }
  }
  assert.deepEqual([wholeFiles, sections], [1, 2]);
});

/** The commands of the README's shell blocks, one array of words each, comments removed. */
function _commands(): { words: string[]; line: number }[] {
  const out: { words: string[]; line: number }[] = [];
  for (const block of BLOCKS.filter((b) => b.info === "sh")) {
    block.text.split("\n").forEach((text, k) => {
      const command = text.replace(/\s+#.*$/, "").trim();
      if (command) out.push({ words: command.split(/\s+/), line: block.line + 1 + k });
    });
  }
  return out;
}

Deno.test("every command in the README names a task, flags and names that exist", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).tasks;
  const commands = _commands();
  assert.ok(commands.length >= 6);
  for (const { words, line } of commands) {
    const where = `README.md line ${line}: ${words.join(" ")}`;
    assert.equal(words[0], "deno", where);
    if (words[1] === "run") {
      const file = words.find((w) => w.endsWith(".ts"));
      assert.ok(file, where);
      assert.ok((await Deno.stat(new URL(file, ROOT))).isFile, `${where}: ${file} exists`);
      continue;
    }
    assert.equal(words[1], "task", where);
    assert.ok(Object.hasOwn(tasks, words[2]), `${where}: task '${words[2]}' exists`);
    const flags = words[2] === "sim" ? SIM_FLAGS : words[2] === "compare" ? COMPARE_FLAGS : null;
    if (!flags) continue;
    const { values } = parseFlags(words.slice(3), flags);
    const scenario = values.scenario as string | undefined;
    if (scenario) {
      assert.ok(
        Object.hasOwn(BUILTIN_SCENARIOS, scenario) ||
          (CITY_TRAFFIC_SCENARIOS as readonly string[]).includes(scenario) ||
          (await Deno.stat(new URL(scenario, ROOT))).isFile,
        `${where}: scenario '${scenario}'`,
      );
    }
    for (const name of String(values.strategies ?? values.strategy ?? "").split(",")) {
      if (name) assert.ok(strategies.has(name), `${where}: strategy '${name}'`);
    }
  }
});

Deno.test("the README's first comparison runs as written", async () => {
  const command = _commands().find((c) => c.words[2] === "compare")!;
  assert.deepEqual(command.words.slice(3), [
    "--scenario",
    "corridor",
    "--strategies",
    "none",
    "--agents",
    "200",
    "--seeds",
    "1-5",
  ]);
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => printed.push(args.join(" "));
  let code;
  try {
    code = await compareMain([...command.words.slice(3), "--quiet"]);
  } finally {
    console.log = log;
  }
  assert.equal(code, 0);
  const output = printed.join("\n");
  assert.match(output, /^scenario corridor: 200 agents, \d+ steps of 0\.05 s, seeds 1,2,3,4,5/);
  assert.match(output, /^arrivedFraction\s+1\.000/m);
});

Deno.test("the README's flag lists of sim and compare name exactly the tools' flags", () => {
  for (const [tool, flags] of [["sim", SIM_FLAGS], ["compare", COMPARE_FLAGS]] as const) {
    const heading = README.indexOf(`\`${tool}\`:\n\n\`\`\``);
    assert.ok(heading >= 0, `a flag list follows \`${tool}\`:`);
    const block = BLOCKS.find((b) => b.line > README.slice(0, heading).split("\n").length)!;
    const listed = [...block.text.matchAll(/^--([a-z-]+)(?:, -([a-z]))?/gm)].map((m) =>
      m[2] ? `${m[1]} -${m[2]}` : m[1]
    ).sort();
    const actual = Object.entries(flags).map(([name, spec]) =>
      "short" in spec && spec.short ? `${name} -${spec.short}` : name
    ).sort();
    assert.deepEqual(listed, actual, `README's \`${tool}\` flags`);
  }
});

Deno.test("every example scenario builds without a warning and runs with everyone arriving", async () => {
  const names = await _exampleFiles();
  assert.ok(names.length >= 3, names.join(", "));
  for (const name of names) {
    const path = new URL(name, EXAMPLES).pathname;
    const spec = await loadScenarioFile(path);
    const built = buildScenario(spec, { registry: strategies, source: name });
    assert.deepEqual(built.warnings, [], name);
    const agents = spec.spawners.reduce((sum, s) => sum + s.count, 0);
    assert.equal(built.world.agents.count, agents, `${name}: everyone is placed at the start`);
    const outcome = await runScenario(built);
    const m = outcome.metrics;
    if (spec.spawners.some((s) => s.onArrival === "respawn")) {
      assert.ok(m.arrivals > agents, `${name}: ${m.arrivals} arrivals, more than one round`);
    } else {
      assert.ok(outcome.finished, `${name}: everyone arrived within ${outcome.steps} steps`);
    }
    assert.equal(m.wallCrossings, 0, `${name}: nobody walks through a wall`);
    // Overlap at most a fifth of a body diameter, the conformance suite's bound for crowds.
    assert.ok(m.maxPenetration <= 0.1, `${name}: overlap up to ${m.maxPenetration} m`);
  }
});

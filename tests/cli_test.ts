/**
 * The command-line tools as a user runs them: output shapes, recordings, Ctrl-C, and one-line
 * errors with exit code 2 for bad input.
 */
import assert from "node:assert/strict";
import { runCli, runTask, spawnCli } from "./_cli.ts";
import { readTrajectory } from "../recording/read_trajectory.ts";
import { METRIC_NAMES } from "../metrics/run_metrics.ts";
import { strategies } from "../strategies/mod.ts";
import { navigators } from "../navigation/mod.ts";

/** A one-line error: `error: …` on stderr, no stack trace. */
function assertOneLineError(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`);
  assert.match(lines[0], /^error: /);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(stderr, /^\s+at /m, "no stack trace");
}

Deno.test("compare --json prints the scenario and one result per strategy with every metric", async () => {
  const r = await runCli("compare", [
    "--scenario",
    "bottleneck",
    "--strategies",
    "none",
    "--agents",
    "20",
    "--seeds",
    "1-2",
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.scenario, "bottleneck");
  assert.deepEqual(report.seeds, [1, 2]);
  assert.equal(report.agents, 20);
  assert.equal(report.results.length, 1);
  assert.equal(report.results[0].strategy, "none");
  assert.deepEqual(Object.keys(report.results[0].metrics), [...METRIC_NAMES]);
  assert.equal(report.results[0].metrics.arrivedFraction, 1);
  assert.equal(report.results[0].metrics.trips, 20);
  assert.ok(report.results[0].metrics.collisions > 0, "walking through each other collides");
  assert.equal(typeof report.results[0].sd.collisions, "number");
});

Deno.test("compare lists every registered strategy by default and prints a table", async () => {
  const r = await runCli("compare", ["--scenario", "circle", "--agents", "12", "--seeds", "1"]);
  assert.equal(r.code, 0, r.stderr);
  const header = r.stdout.split("\n").find((line) => line.startsWith("metric"))!;
  for (const name of strategies.names()) assert.match(header, new RegExp(`\\b${name}\\b`));
  assert.match(r.stdout, /arrivedFraction\s+1\.000/);
});

Deno.test("compare --csv writes one row per run", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const csv = `${dir}/runs.csv`;
    const r = await runCli("compare", [
      "--scenario",
      "corridor",
      "--agents",
      "10",
      "--strategies",
      "none",
      "--seeds",
      "1,2,3",
      "--csv",
      csv,
      "--quiet",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const rows = (await Deno.readTextFile(csv)).trim().split("\n");
    assert.equal(rows.length, 4);
    assert.match(rows[0], /^strategy,seed,collisions,/);
    assert.deepEqual(rows.slice(1).map((row) => row.split(",").slice(0, 2).join(",")), [
      "none,1",
      "none,2",
      "none,3",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sim --json --out records a trajectory that reads back with every frame", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const name of ["run.bin", "run.txt"]) {
      const out = `${dir}/${name}`;
      const r = await runCli("sim", [
        "--scenario",
        "circle",
        "--agents",
        "8",
        "--out",
        out,
        "--json",
        "--every",
        "2",
      ]);
      assert.equal(r.code, 0, r.stderr);
      const result = JSON.parse(r.stdout);
      assert.equal(result.metrics.arrivedFraction, 1);
      const data = readTrajectory(out);
      assert.equal(data.frames.length, result.out.frames);
      assert.equal(data.frameRate, 10, "every second step of 0.05 s");
      assert.equal(data.frames[0].count, 8, "frame 0 holds the initial agents");
      assert.ok(!data.incomplete);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sim stopped with SIGINT exits 130 and leaves a readable recording of whole frames", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/long.bin`;
    // The crossing loops forever (arrivals respawn), so only the signal can end this run.
    const child = spawnCli("sim", [
      "--scenario",
      "crossing",
      "--agents",
      "300",
      "--steps",
      "200000",
      "--out",
      out,
    ]);
    // Wait until frames are being written, then interrupt.
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const size = await Deno.stat(out).then((s) => s.size, () => 0);
      if (size > 2_000_000) break;
    }
    child.kill("SIGINT");
    const { code, stdout, stderr } = await child.output();
    const text = new TextDecoder().decode(stdout);
    assert.equal(
      code,
      130,
      `exit code; stdout:\n${text}\nstderr:\n${new TextDecoder().decode(stderr)}`,
    );
    assert.match(text, /\(interrupted\)/);
    const frames = Number(/wrote (\d+) frames/.exec(text)?.[1]);
    const data = readTrajectory(out);
    assert.ok(frames > 10 && frames < 200001, `${frames} frames written before the interrupt`);
    assert.equal(data.frames.length, frames);
    assert.ok(!data.incomplete, "the recorder closed the file after the last whole frame");
    for (const frame of data.frames) assert.equal(frame.ids.length, frame.count);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bad input gives one line naming what and where, and exit code 2", async (t) => {
  const dir = await Deno.makeTempDir();
  const file = async (name: string, text: string) => {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    return `${dir}/${name}`;
  };
  try {
    const cases: [string, () => string[] | Promise<string[]>, RegExp][] = [
      [
        "unknown strategy",
        () => ["--scenario", "corridor", "--strategy", "nope"],
        /unknown strategy 'nope'/,
      ],
      [
        "unknown scenario",
        () => ["--scenario", "atlantis"],
        /scenario 'atlantis': not a built-in/,
      ],
      [
        "malformed JSON",
        async () => [
          "--scenario",
          await file("broken.json", '{\n  "name": "x",\n  "spawners": [,]\n}'),
        ],
        /broken\.json: line 3, column \d+: invalid JSON/,
      ],
      [
        "out-of-range field",
        async () => [
          "--scenario",
          await file(
            "neg.json",
            JSON.stringify({
              name: "x",
              spawners: [{ area: { rect: [0, 0, 5, 5] }, count: -3, goal: { point: [9, 9] } }],
            }),
          ),
        ],
        /neg\.json: spawners\[0\]\.count: must be >= 0: current value is -3/,
      ],
      [
        "non-finite field",
        async () => [
          "--scenario",
          await file(
            "inf.json",
            '{"name": "x", "dt": 1e999, "spawners": [{"area": {"point": [0, 0]}, "count": 1, "goal": {"point": [1, 1]}}]}',
          ),
        ],
        /inf\.json: dt: .*finite/,
      ],
      [
        "unreadable file",
        () => ["--scenario", `${dir}/missing.json`],
        /missing\.json: cannot read scenario file: file not found/,
      ],
      [
        "unwritable output",
        () => [
          "--scenario",
          "bottleneck",
          "--agents",
          "5",
          "--out",
          `${dir}/no/such/dir/run.bin`,
        ],
        /Cannot write trajectory file '.*run\.bin'/,
      ],
      [
        "bad flag value",
        () => ["--scenario", "corridor", "--agents", "many"],
        /--agents must be an integer >= 0: got 'many'/,
      ],
      [
        "unknown flag",
        () => ["--scenario", "corridor", "--warp", "9"],
        /unknown flag '--warp'/,
      ],
      [
        "bad strategy option",
        () => ["--scenario", "corridor", "--strategy", "none", "--option", "speed=2"],
        /Cannot create none strategy as 'speed' is not one of its options/,
      ],
      [
        "navigator without the world data it needs",
        () => ["--scenario", "corridor", "--navigator", "navmesh"],
        /--navigator: navigator 'navmesh' needs a navigation mesh: add a "navigation" section/,
      ],
      [
        "bad navigator option",
        () => ["--scenario", "corridor", "--navigator", "goal-seeker", "--navigator-option", "x=1"],
        /--navigator-option: Cannot create goal-seeker navigator as 'x' is not one of its options/,
      ],
      [
        "negative number",
        () => ["--scenario", "corridor", "-n", "-5"],
        /^error: --agents must be an integer >= 0: got '-5'$/,
      ],
      [
        "prototype name as option",
        () => ["--scenario", "corridor", "--strategy", "orca", "--option", "__proto__=1"],
        /--strategy\.options: Cannot create orca strategy as '__proto__' is not one of its options/,
      ],
      [
        "JSON nested 10,000 deep",
        async () => [
          "--scenario",
          await file("deep.json", `{"name": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`),
        ],
        /deep\.json: line 1, column 73: nested deeper than 64 levels of arrays and objects$/,
      ],
      [
        "FIFO as scenario file",
        async () => {
          const fifo = `${dir}/fifo.json`;
          await new Deno.Command("mkfifo", { args: [fifo] }).output();
          return ["--scenario", fifo];
        },
        /fifo\.json: cannot read scenario file: it is a FIFO, not a regular file$/,
      ],
      [
        "spawn area at 1e300 m",
        async () => [
          "--scenario",
          await file(
            "far.json",
            JSON.stringify({
              name: "far",
              spawners: [{
                area: { rect: [1e300, 1e300, 1.1e300, 1.1e300] },
                count: 3,
                goal: { point: [0, 0] },
              }],
            }),
          ),
          "--steps",
          "0",
        ],
        /far\.json: spawners\[0\]\.area\.rect\[0\]: must be within ±10000000 m of the origin/,
      ],
      [
        "more agents than memory",
        () => ["--scenario", "corridor", "--agents", "100000000"],
        /^error: built-in scenario 'corridor': --agents: 100000000 agents would need about \d+\.\d GB of memory, more than/,
      ],
    ];
    for (const [name, args, pattern] of cases) {
      await t.step(name, async () => {
        const r = await runCli("sim", await args());
        assert.equal(r.code, 2, `exit code for ${name}: ${r.stderr}`);
        assertOneLineError(r.stderr, pattern);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sim --list shows every navigator with its options, defaults, units and ranges", async () => {
  const r = await runCli("sim", ["--list"]);
  assert.equal(r.code, 0, r.stderr);
  const section = r.stdout.slice(r.stdout.indexOf("Navigators:"), r.stdout.indexOf("Metrics:"));
  for (const factory of navigators.list()) {
    const line = section.split("\n").find((l) => l.startsWith(`  ${factory.name} `));
    assert.ok(
      line?.includes(factory.description),
      `${factory.name} is listed with its description`,
    );
  }
  assert.match(section, /navmesh .*\(needs a navigation mesh\)/);
  assert.match(section, /^ +minWidth = 1\.1 m {2}\[0, 100\] {2}routes avoid passages narrower/m);
  assert.match(section, /^ +slowingDistance = 0 m {2}\[0, 100\] {2}braking distance/m);
  assert.match(section, /^ +maxQueriesPerStep = 64 {2}\[1, 1000000\]/m);
});

Deno.test("demo runs without any permission and prints the comparison table", async () => {
  const r = await runCli(
    "demo",
    ["--table", "--agents", "10", "--seeds", "1", "--steps", "100"],
    [],
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /scenario crossing: 10 agents/);
  assert.match(r.stdout, /^collisions\s/m);
});

Deno.test("sim prints what a build repaired as warnings and still runs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/pillar.json`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        name: "pillar",
        obstacles: [[[-1, -2], [1, -2], [1, 2], [-1, 2]]],
        spawners: [{ area: { rect: [0, -1, 2, 1] }, count: 3, goal: { point: [9, 0] } }],
      }),
    );
    const r = await runCli("sim", ["--scenario", path, "--steps", "10", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^warning: .*pillar\.json: spawners\[0\]\.area: \d+% of it is under obstacles or too close to a wall: agents are placed in the rest\n$/,
    );
    assert.equal(JSON.parse(r.stdout).agents, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task sim and compare resolve relative paths against the folder they were run in", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/runs`);
    await Deno.writeTextFile(
      `${dir}/walk.json`,
      JSON.stringify({
        name: "walk",
        spawners: [{ area: { rect: [0, 0, 2, 2] }, count: 2, goal: { point: [4, 1] } }],
      }),
    );
    const sim = await runTask("sim", [
      "--scenario",
      "walk.json",
      "--out",
      "runs/walk.csv",
      "--plot",
      "runs/walk.svg",
      "-q",
    ], dir);
    assert.equal(sim.code, 0, sim.stderr);
    assert.equal(readTrajectory(`${dir}/runs/walk.csv`).format, "csv");
    assert.ok((await Deno.stat(`${dir}/runs/walk.svg`)).size > 0);
    const compare = await runTask("compare", [
      "--scenario",
      "walk.json",
      "--strategies",
      "none",
      "--seeds",
      "1",
      "--csv",
      "runs/compare.csv",
      "-q",
    ], dir);
    assert.equal(compare.code, 0, compare.stderr);
    assert.match(await Deno.readTextFile(`${dir}/runs/compare.csv`), /^strategy,seed,/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

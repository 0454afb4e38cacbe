import assert from "node:assert/strict";
import { _buildWorld } from "./_test_world.ts";
import { TrajectoryRecorder } from "./recorder.ts";
import {
  decodeTextTrajectory,
  formatTextHeader,
  readTextTrajectory,
  TextTrajectoryWriter,
} from "./text_trajectory.ts";
import { createTrajectoryHeader } from "./trajectory.ts";

/** PedPy's `_load_trajectory_meta_data` rules, as PedPy 1.x applies them. */
function pedpyMeta(text: string): { frameRate: number | null; unit: "m" | "cm" | null } {
  let frameRate: number | null = null, unit: "m" | "cm" | null = null;
  for (const line of text.split("\n")) {
    if (!line.startsWith("#")) break;
    if (line.includes("framerate")) {
      for (const token of line.split(/\s+/)) {
        if (frameRate === null && token !== "" && !Number.isNaN(Number(token))) {
          frameRate = Number(token);
        }
      }
    }
    const lower = line.toLowerCase();
    if (lower.includes("x/cm") || lower.includes("in cm")) unit = "cm";
    if (lower.includes("x/m") || lower.includes("in m")) unit = "m";
  }
  return { frameRate, unit };
}

Deno.test("the text header states the run and reads as 20 fps metres in PedPy, whatever the free text says", () => {
  const header = createTrajectoryHeader({
    frameRate: 20,
    dt: 0.05,
    every: 1,
    scenario: "hall, units x/cm",
    strategy: "orca",
    seed: 7,
    description: "measured in cm at framerate 99",
    anchor: { lon: 6.9603, lat: 50.9375 },
  });
  const text = formatTextHeader(header);
  assert.equal(
    text,
    [
      "# throng trajectory, text format 1: one row per agent and frame",
      "# framerate: 20.00",
      "# description: measured in cm at framerate 99",
      "# scenario: hall, units x/cm",
      "# strategy: orca",
      "# seed: 7",
      "# dt: 0.05 s",
      "# recorded every: 1 step",
      "# start time: 0 s",
      "# anchor: lon 6.9603 lat 50.9375 (WGS84 degrees of the local origin)",
      "# id frame x/m y/m z/m",
      "",
    ].join("\n"),
  );
  assert.deepEqual(pedpyMeta(text), { frameRate: 20, unit: "m" });
  const data = decodeTextTrajectory(text, "h.txt");
  assert.equal(data.frameRate, 20);
  assert.equal(data.sourceUnit, "m");
  assert.equal(data.header.description, "measured in cm at framerate 99");
  // A frame rate that is not an integer keeps its full precision.
  const rate = 1 / 0.15;
  assert.deepEqual(
    pedpyMeta(formatTextHeader(createTrajectoryHeader({ frameRate: rate }))).frameRate,
    rate,
  );
  // Without a description, the writer describes scenario, strategy and seed.
  assert.match(formatTextHeader(header).split("\n")[2], /^# description: /);
  assert.match(
    formatTextHeader({ ...header, description: null }).split("\n")[2],
    /^# description: throng simulation: scenario hall, units x\/cm, strategy orca, seed 7$/,
  );
});

Deno.test("rows are written with 4 decimals, rounded, without negative zero", async () => {
  const path = await Deno.makeTempFile({ suffix: ".txt" });
  try {
    const writer = new TextTrajectoryWriter(path);
    writer.writeHeader(createTrajectoryHeader({ frameRate: 10 }));
    writer.beginFrame(4294967295, 0, 3);
    writer.writeAgents(
      {
        serial: Uint32Array.of(0, 4294967295, 12),
        px: Float64Array.of(-0.00001, 1.23456, 99999999999.99994),
        py: Float64Array.of(-12.34567, 0.99995, -0.5),
        pz: Float64Array.of(0, 1.76, 1e-5),
        vx: new Float64Array(3),
        vy: new Float64Array(3),
        flags: new Uint8Array(3),
      },
      0,
      3,
    );
    writer.endFrame();
    writer.beginFrame(1, 0, 1);
    assert.throws(
      () =>
        writer.writeAgents(
          {
            serial: Uint32Array.of(5),
            px: Float64Array.of(NaN),
            py: Float64Array.of(0),
            pz: Float64Array.of(0),
            vx: Float64Array.of(0),
            vy: Float64Array.of(0),
            flags: Uint8Array.of(0),
          },
          0,
          1,
        ),
      {
        message:
          `Cannot write trajectory file '${path}': agent 5 in frame 1 is at (NaN, 0, 0) m: coordinates must be finite and within ±100000000000 m`,
      },
    );
    writer.close();
    const rows = Deno.readTextFileSync(path).split("\n").filter((l) => l && !l.startsWith("#"));
    assert.deepEqual(rows, [
      "0 4294967295 0.0000 -12.3457 0.0000",
      "4294967295 4294967295 1.2346 1.0000 1.7600",
      "12 4294967295 99999999999.9999 -0.5000 0.0000",
    ]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a text file cut mid-line reads every complete row", async () => {
  const path = await Deno.makeTempFile({ suffix: ".txt" });
  try {
    const world = _buildWorld();
    const recorder = new TrajectoryRecorder({ path });
    world.addObserver(recorder);
    for (let i = 0; i < 10; i++) world.step();
    recorder.close();
    const text = Deno.readTextFileSync(path);
    const rowCount = (t: string) =>
      decodeTextTrajectory(t, path).frames.reduce((n, f) => n + f.count, 0);
    const allRows = text.split("\n").filter((l) => l && !l.startsWith("#")).length;
    assert.equal(rowCount(text), allRows);
    // Cut in the middle of the last line, and in the middle of a line half-way through the file.
    for (const at of [text.length - 8, text.indexOf("\n", text.length >> 1) + 6]) {
      await Deno.truncate(path, new TextEncoder().encode(text.slice(0, at)).length);
      const data = readTextTrajectory(path);
      assert.equal(data.incomplete, true);
      const complete = text.slice(0, at).split("\n").slice(0, -1).filter((l) =>
        l && !l.startsWith("#")
      );
      assert.equal(data.frames.reduce((n, f) => n + f.count, 0), complete.length);
      const last = data.frames.at(-1)!;
      const [id, frame, x] = complete.at(-1)!.split(" ").map(Number);
      assert.deepEqual([last.ids[last.count - 1], last.frame, last.x[last.count - 1]], [
        id,
        frame,
        x,
      ]);
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a malformed line before the end is an error naming the file and the line", () => {
  const head = "# framerate: 10\n# id frame x/m y/m z/m\n1 0 1 2 3\n";
  const cases: [string, string][] = [
    ["1 1 abc 2 3", `field 'x' is not a number: "abc" in "1 1 abc 2 3"`],
    ["1 1 2 3", `expected 5 fields 'id frame x y z', found 4: "1 1 2 3"`],
    ["-1 1 2 3 4", `field 'id' must be an integer in [0, 4294967295]: "-1" in "-1 1 2 3 4"`],
    ["1 1.5 2 3 4", `field 'frame' must be an integer in [0, 4294967295]: "1.5" in "1 1.5 2 3 4"`],
    ["1 2 0x10 3 4", `field 'x' is not a number: "0x10" in "1 2 0x10 3 4"`],
  ];
  for (const [line, reason] of cases) {
    assert.throws(() => decodeTextTrajectory(`${head}${line}\n1 3 1 2 3\n`, "bad.txt"), {
      name: "TrajectoryFileError",
      message: `Cannot read trajectory file 'bad.txt' at line 4: ${reason}`,
    });
  }
  // The same malformed piece as an unterminated last line is an interrupted write: ignored.
  const data = decodeTextTrajectory(`${head}1 1 ab`, "cut.txt");
  assert.equal(data.frames.length, 1);
  assert.equal(data.incomplete, true);
});

Deno.test("frame rate and unit come from PeTrack and JuPedSim headers, else from the caller", () => {
  const petrack = decodeTextTrajectory(
    "# PeTrack project: bi_corr.pet\n# framerate: 25 fps\n# id frame x/cm y/cm z/cm\n2 10 -554.56 309.452 176\n",
    "petrack.txt",
  );
  assert.deepEqual([petrack.frameRate, petrack.sourceUnit], [25, "cm"]);
  const f0 = petrack.frames[0];
  for (const [got, want] of [[f0.x[0], -5.5456], [f0.y[0], 3.09452], [f0.z[0], 1.76]]) {
    assert.ok(Math.abs(got - want) < 1e-12, `${got} m vs ${want} m`);
  }
  assert.equal(petrack.frames[0].time, 10 / 25);
  const jupedsim = decodeTextTrajectory(
    "#description: 2009_AO_300\r\n#framerate: 16\r\n#X,Y,Z: the agents coordinates (in metres)\r\n\r\n" +
      "#ID\tFR\tX\tY\tZ\r\n1\t0\t-1.8891\t-3.7952\t1.7790\t0.2\t0.3\r\n",
    "jupedsim.txt",
  );
  assert.deepEqual([jupedsim.frameRate, jupedsim.sourceUnit, jupedsim.frames[0].x[0]], [
    16,
    "m",
    -1.8891,
  ]);
  assert.equal(jupedsim.header.description, "2009_AO_300");
  const noUnit = "# framerate: 25.00\n# PersID\tFrame\tX\tY\tZ\n1\t98\t4.6012\t1.8909\t1.7600\n";
  assert.throws(() => decodeTextTrajectory(noUnit, "uni.txt"), {
    message:
      "Cannot read trajectory file 'uni.txt': the file declares no unit (no header line with 'x/m', " +
      "'x/cm', 'in m' or 'in cm'): pass 'unit' (\"m\" or \"cm\") in the options",
  });
  assert.equal(decodeTextTrajectory(noUnit, "uni.txt", { unit: "m" }).frames[0].x[0], 4.6012);
  const bare = "1 84 154.087 679.016 175.434\n1 85 152.938 670.079 175.434\n";
  assert.throws(() => decodeTextTrajectory(bare, "bo.txt", { unit: "cm" }), {
    message:
      "Cannot read trajectory file 'bo.txt': the file declares no frame rate (no '# framerate: …' " +
      "header line): pass 'frameRate' in the options",
  });
  const hermes = decodeTextTrajectory(bare, "bo.txt", { frameRate: 16, unit: "cm" });
  assert.deepEqual(hermes.frames.map((f) => f.time), [84 / 16, 85 / 16]);
  assert.ok(Math.abs(hermes.frames[1].y[0] - 6.70079) < 1e-12);
  // What the file declares wins over the caller's fallback.
  assert.equal(
    decodeTextTrajectory(petrack.comments.map((c) => `# ${c}\n`).join(""), "p", { frameRate: 10 })
      .frameRate,
    25,
  );
  assert.throws(() => decodeTextTrajectory(bare, "bo.txt", { frameRate: 0 }), RangeError);
});

Deno.test("rows in id order are regrouped into ascending frames, keeping file order within a frame", () => {
  const data = decodeTextTrajectory(
    "# framerate: 10\n# id frame x/m y/m z/m\n2 5 0 0 0\n2 6 0.1 0 0\n1 6 5 0 0\n1 7 5.1 0 0\n3 6 9 0 0\n",
    "ids.txt",
  );
  assert.deepEqual(data.frames.map((f) => f.frame), [5, 6, 7]);
  assert.deepEqual([...data.frames[1].ids], [2, 1, 3]);
  assert.deepEqual([...data.frames[1].x], [0.1, 5, 9]);
  assert.deepEqual(data.frames.map((f) => f.time), [0.5, 0.6, 0.7]);
});

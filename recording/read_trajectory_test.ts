import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { groupByAgent } from "./agent_tracks.ts";
import { readTrajectory } from "./read_trajectory.ts";

/** A measured PeTrack file from the shared data folder beside the checkout (`../shared/data`). */
const JUELICH = fileURLToPath(
  new URL(
    "../../shared/data/trajectories/juelich/basigo-2013-corridors/bi_corr_400_b_03.txt",
    import.meta.url,
  ),
);
const juelichPresent = (() => {
  try {
    return Deno.statSync(JUELICH).isFile;
  } catch {
    return false;
  }
})();
Deno.test({
  name: "a Jülich PeTrack file reads at 25 fps with centimetres converted to metres",
  fn() {
    assert.ok(
      juelichPresent,
      `${JUELICH} is missing: put the shared data folder beside the checkout, as ../shared/data`,
    );
    const data = readTrajectory(JUELICH);
    assert.equal(data.format, "text");
    assert.equal(data.frameRate, 25);
    assert.equal(data.sourceUnit, "cm");
    assert.equal(data.incomplete, false);
    assert.equal(data.frames.length, 3247);
    assert.deepEqual([data.frames[0].frame, data.frames.at(-1)!.frame], [94, 3340]);
    assert.equal(data.frames[0].time, 94 / 25);
    let rows = 0, minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (const f of data.frames) {
      rows += f.count;
      for (let i = 0; i < f.count; i++) {
        minX = Math.min(minX, f.x[i]);
        maxX = Math.max(maxX, f.x[i]);
        minY = Math.min(minY, f.y[i]);
        maxY = Math.max(maxY, f.y[i]);
        assert.ok(Math.abs(f.z[i] - 1.76) < 0.5, `head height ${f.z[i]} m`);
      }
    }
    assert.equal(rows, 120790);
    // The corridor is about 11 m long and 4.4 m wide: metres, not centimetres.
    for (
      const [got, want] of [[minX, -5.62465], [maxX, 4.54517], [minY, -0.0847374], [maxY, 4.27222]]
    ) {
      assert.ok(Math.abs(got - want) < 1e-9, `${got} m vs ${want} m`);
    }
    const frame500 = data.frames.find((f) => f.frame === 500)!;
    assert.equal(frame500.count, 38);
    const tracks = groupByAgent(data);
    assert.equal(tracks.size, 480);
    const first = tracks.get(1)!;
    assert.equal(first.frames[0], 94);
    assert.ok(Math.abs(first.x[0] + 5.5456) < 1e-12 && Math.abs(first.y[0] - 3.09452) < 1e-12);
    for (const track of tracks.values()) {
      for (let k = 1; k < track.count; k++) assert.ok(track.frames[k] > track.frames[k - 1]);
    }
  },
});

Deno.test("readTrajectory tells the formats apart by magic and by the .bin extension", async () => {
  const dir = await Deno.makeTempDir();
  try {
    Deno.writeTextFileSync(`${dir}/a.bin`, "# framerate: 10\n# id frame x/m y/m z/m\n1 0 1 2 0\n");
    assert.throws(
      () => readTrajectory(`${dir}/a.bin`),
      /^TrajectoryFileError: Cannot read trajectory file '.*a\.bin' at byte 0: not a binary trajectory/,
    );
    Deno.renameSync(`${dir}/a.bin`, `${dir}/a.dat`);
    assert.equal(readTrajectory(`${dir}/a.dat`).format, "text");
    Deno.writeFileSync(`${dir}/empty.txt`, new Uint8Array(0));
    assert.throws(() => readTrajectory(`${dir}/empty.txt`), {
      message: `Cannot read trajectory file '${dir}/empty.txt': the file is empty`,
    });
    assert.throws(() => readTrajectory(`${dir}/missing.txt`), {
      message: `Cannot read trajectory file '${dir}/missing.txt': No such file or directory`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

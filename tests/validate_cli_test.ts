import assert from "node:assert/strict";
import { validateMain } from "../cli/validate.ts";
import { UsageError } from "../cli/_errors.ts";
import { DATA_ROOT, useDataRoot } from "../validation/data_files.ts";

Deno.test("validate writes the report folder of a quick RiMEA test and names bad flags", () => {
  const dir = Deno.makeTempDirSync();
  const log = console.log;
  console.log = () => {};
  try {
    assert.equal(
      validateMain(["--quick", "--strategies", "orca", "--tests", "rimea-1", "--out", dir, "-q"]),
      0,
    );
  } finally {
    console.log = log;
  }
  const report = Deno.readTextFileSync(`${dir}/report.md`);
  assert.match(report, /\| rimea-1 +\| pass 3\d.\d\d +\|/);
  const json = JSON.parse(Deno.readTextFileSync(`${dir}/results.json`));
  assert.equal(json.rows[0].verdict.status, "pass");
  assert.ok(json.rows[0].verdict.figures["time (s)"] > 29);
  assert.throws(() => validateMain(["--strategies", "nope"]), UsageError);
  assert.throws(() => validateMain(["--tests", "rimea-99"]), /no test matches 'rimea-99'/);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("validate --data reads another folder's measured tables, and names a folder that is not there", () => {
  const data = Deno.makeTempDirSync(), out = Deno.makeTempDirSync();
  Deno.mkdirSync(`${data}/empirical/bottleneck-flow-vs-width`, { recursive: true });
  // One experiment, J/b 2.0 at 0.5 m and 1 m, 1.5 at 2 m: the range at 2 m is 1.5–1.5.
  Deno.writeTextFileSync(
    `${data}/empirical/bottleneck-flow-vs-width/other.txt`,
    "0.5 1.0\n1.0 2.0\n2.0 3.0\n",
  );
  const log = console.log;
  console.log = () => {};
  try {
    const args = ["--quick", "--seeds", "1", "--strategies", "orca", "--tests", "bottleneck-door"];
    assert.equal(validateMain([...args, "--data", data, "--out", out, "-q"]), 0);
  } finally {
    console.log = log;
    useDataRoot(DATA_ROOT);
  }
  const report = Deno.readTextFileSync(`${out}/report.md`);
  assert.ok(report.includes(`Measured data from ${data}/`), report.slice(0, 300));
  assert.match(report, /2 m: \d\.\d\d \[1\.50–1\.50\]/);
  assert.throws(
    () => validateMain(["--data", `${data}/missing`, "--tests", "rimea-1"]),
    (e: Error) => e instanceof UsageError && e.message.includes(`${data}/missing: not a folder`),
  );
  useDataRoot(DATA_ROOT);
  Deno.removeSync(data, { recursive: true });
  Deno.removeSync(out, { recursive: true });
});

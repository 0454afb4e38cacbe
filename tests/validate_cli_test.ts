import assert from "node:assert/strict";
import { validateMain } from "../cli/validate.ts";
import { UsageError } from "../cli/_errors.ts";

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

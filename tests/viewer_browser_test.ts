/**
 * The viewer page in a real browser (tests/viewer_browser_checks.ts): headless Chromium from
 * Debian's `chromium` package (`.ci/run` installs it), run in a `deno test` subprocess with the
 * permissions a browser and the bundler need, which the project's test task does not grant.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runChecks } from "./viewer_checks_runner.ts";

Deno.test("viewer page in headless Chromium", async (t) => {
  const run = await runChecks("tests/viewer_browser_checks.ts", [
    "--unstable-bundle",
    "--allow-all",
  ]);
  for (
    const name of [
      "offline, the map falls back to a plain background with a visible note",
      "each frame matches a fresh simulation of the same strategy and seed",
      "agents are drawn at their simulated positions in their view's colour",
      "each side-by-side view shows its own strategy",
      "clicking an agent shows its state and its strategy's internals",
      "agents move between screenshots",
      "restart with a new seed starts the runs of that seed",
      "a configured tile server shows as the basemap",
    ]
  ) {
    await t.step(name, () => assert.equal(run.result(name), "ok", run.output));
  }
  assert.equal(run.code, 0, run.output);
});

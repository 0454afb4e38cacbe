/**
 * What tests/viewer_browser_test.ts does on a machine without a browser: ignored with one line
 * saying how to get one, unless `THRONG_REQUIRE_BROWSER=1` (CI) makes it a failure; a
 * `THRONG_CHROMIUM` that names no executable is a failure too, never a skip.
 *
 * @module
 */
import assert from "node:assert/strict";

/** Runs the browser test file as the test task would, with `env` over the environment. */
async function runBrowserTest(env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--allow-read",
      "--allow-write",
      "--allow-run",
      "--allow-env=NO_COLOR,TERM,PATH,THRONG_CHROMIUM,THRONG_REQUIRE_BROWSER",
      "tests/viewer_browser_test.ts",
    ],
    cwd: new URL("../", import.meta.url),
    env: { NO_COLOR: "1", THRONG_CHROMIUM: "", THRONG_REQUIRE_BROWSER: "", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, output: decoder.decode(stdout) + decoder.decode(stderr) };
}

Deno.test("without a browser the page tests are ignored with one line on how to install one", async (t) => {
  const empty = await Deno.makeTempDir();
  try {
    await t.step("ignored, with one line", async () => {
      const run = await runBrowserTest({ PATH: empty });
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, /ok \| 0 passed \| 0 failed \| 1 ignored/);
      const notes = run.output.split("\n").filter((line) => /chromium/i.test(line));
      assert.deepEqual(
        notes.filter((line) => !/^viewer page in headless Chromium \.\.\. ignored/.test(line)),
        [
          "viewer browser tests ignored: no Chromium found (THRONG_CHROMIUM unset; none of " +
          "chromium, chromium-browser, google-chrome on the PATH): install Chromium " +
          "(Debian/Ubuntu: apt-get install chromium) or set THRONG_CHROMIUM to a Chromium or " +
          "Chrome executable",
        ],
      );
    });
    await t.step("a failure when CI requires the browser", async () => {
      const run = await runBrowserTest({ PATH: empty, THRONG_REQUIRE_BROWSER: "1" });
      assert.notEqual(run.code, 0);
      assert.match(run.output, /no Chromium found .* \(THRONG_REQUIRE_BROWSER=1 requires/);
      assert.match(run.output, /FAILED \| 0 passed \| 1 failed/);
    });
    await t.step("a failure when THRONG_CHROMIUM names no executable", async () => {
      const run = await runBrowserTest({ PATH: empty, THRONG_CHROMIUM: `${empty}/chrome` });
      assert.notEqual(run.code, 0);
      assert.match(run.output, /THRONG_CHROMIUM='[^']*\/chrome' is not an executable file/);
    });
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

/**
 * The viewer server's checks over real sockets (tests/viewer_server_checks.ts), run in a
 * `deno test` subprocess that has the network permission (127.0.0.1 only), `--allow-run` (to
 * start `deno task view`) and `--v8-flags=--expose-gc` that the project's test task does not
 * grant.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runChecks } from "./viewer_checks_runner.ts";

Deno.test("viewer server", async (t) => {
  const run = await runChecks("tests/viewer_server_checks.ts", [
    "--allow-read",
    "--allow-write",
    "--allow-net=127.0.0.1",
    "--allow-run",
    "--v8-flags=--expose-gc",
  ]);
  for (
    const name of [
      "frames of 10 000 agents arrive at the advertised rate",
      "200 pages that come and go leave no page, run or heap behind",
      "the view command's memory stays flat over 2,400 connections",
      "requests for paths outside the served files are refused",
      "only the viewer's own names and pages are answered",
      "each page plays its own runs: speed, pause and seed",
      "a page beyond the live page limit is told why",
      "a page that stops reading gets frames dropped instead of buffered without bound",
      "a page that fell behind and then paused ends on the paused frame once it reads again",
      "a recorded run replays with seek and step, frame for frame, with its collisions",
    ]
  ) {
    await t.step(name, () => assert.equal(run.result(name), "ok", run.output));
  }
  assert.equal(run.code, 0, run.output);
});

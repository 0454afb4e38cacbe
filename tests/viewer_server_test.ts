/**
 * The viewer server's checks over real sockets (tests/viewer_server_checks.ts), run in a
 * `deno test` subprocess that has the network permission (127.0.0.1 only) and
 * `--v8-flags=--expose-gc` that the project's test task does not grant.
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
    "--v8-flags=--expose-gc",
  ]);
  for (
    const name of [
      "frames of 10 000 agents arrive at the advertised rate",
      "200 WebSocket connect/disconnect cycles leave the server serving with flat memory",
      "requests for paths outside the served files are refused",
      "a page that stops reading gets frames dropped instead of buffered without bound",
      "a recorded run replays with seek and step, frame for frame",
    ]
  ) {
    await t.step(name, () => assert.equal(run.result(name), "ok", run.output));
  }
  assert.equal(run.code, 0, run.output);
});

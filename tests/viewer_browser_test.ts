/**
 * The viewer page in a real browser (tests/viewer_browser_checks.ts), run in a `deno test`
 * subprocess with the permissions a browser and the bundler need, which the project's test task
 * does not grant.
 *
 * The browser is found as `viewer/tools/headless_chromium.ts` says (`THRONG_CHROMIUM`, then
 * `chromium`, `chromium-browser`, `google-chrome` on the PATH). Without one these tests are
 * reported as ignored, with one line saying how to install one, unless `THRONG_REQUIRE_BROWSER=1`
 * (as `.ci/run` sets), which makes a missing browser a failure.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CHROMIUM_ENV, findChromium } from "../viewer/tools/find_chromium.ts";
import { runChecks } from "./viewer_checks_runner.ts";

/** Environment variable that makes a missing browser fail these tests instead of skipping them. */
const REQUIRE_ENV = "THRONG_REQUIRE_BROWSER";

const browser = await findChromium();
const required = _env(REQUIRE_ENV) === "1";
const skip = browser.status === "missing" && !required;
if (skip) console.log(`viewer browser tests ignored: ${browser.message}`);

/** The checks of tests/viewer_browser_checks.ts, in the order they run. */
const BROWSER_CHECKS: readonly string[] = [
  "offline, the map falls back to a plain background with a visible note",
  "each frame matches a fresh simulation of the same strategy and seed",
  "agents are drawn at their simulated positions in their strategy's colour",
  "each side-by-side view shows its own strategy",
  "clicking an agent shows its state and its strategy's internals in a corner",
  "agents move between screenshots",
  "restart with a new seed starts the runs of that seed",
  "a configured tile server shows as the basemap",
  "switching the tiles off and on brings the basemap back at once",
  "every control fits in the toolbar at 1,280 and 1,024 px",
  "the legend, the offline note and the attribution never overlap",
  "resizing the window refits the scene",
  "a strategy keeps its colour whatever view it is in",
  "the badge counts every agent the scenario will place",
  "each page plays at its own speed",
  "replay shows collisions and salsa like live runs",
  "the page loads without a failed request",
  "a city scene draws its buildings, streets, crossings and signals with a legend entry each",
  "the camera frames the crowd at zoom 19 or less",
  "every city layer has its legend entry and the attribution",
  "offline, the buildings and streets alone show the city",
  "the navigation mesh layer can be switched on",
  "the paths overlay shows an agent's route on the mesh, corner by corner",
  "the README's picture of the city",
  "a crosswalk scene draws its cars, traffic lights, walk signals and crosswalk stripes",
  "cars are drawn as rectangles of their size where the simulation puts them",
  "traffic lights and walk signals show their current colour",
  "pedestrians are coloured by crossing state, one legend entry per state",
  "a picked pedestrian shows the cars' predicted paths and its route",
];

Deno.test({
  name: "viewer page in headless Chromium",
  ignore: skip,
  async fn(t) {
    if (browser.status !== "found") {
      assert.fail(`${browser.message} (${REQUIRE_ENV}=1 requires the browser tests)`);
    }
    const run = await runChecks(
      "tests/viewer_browser_checks.ts",
      ["--unstable-bundle", "--allow-all"],
      { [CHROMIUM_ENV]: browser.path, PATH: _env("PATH") ?? "" },
    );
    for (const name of BROWSER_CHECKS) {
      await t.step(name, () => assert.equal(run.result(name), "ok", run.output));
    }
    assert.equal(run.code, 0, run.output);
  },
});

function _env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/// <reference lib="dom" />
/**
 * Takes the README's picture of the viewer: four strategies side by side on `crossing` (200
 * agents, seed 1, after 20 simulated seconds), in headless Chromium, saved as
 * `viewer/docs/side_by_side.png` (1280 × 720). The map is the plain background: there is no
 * network here, so the offline note is hidden for the picture.
 *
 * ```sh
 * deno run --unstable-bundle -A viewer/tools/readme_screenshot.ts
 * ```
 *
 * @module
 */
import { buildClientBundle } from "../client_bundle.ts";
import { LiveFrameSource } from "../live_source.ts";
import { startViewerServer } from "../server.ts";
import { launchHeadlessChromium } from "./headless_chromium.ts";

/** Where the picture goes. */
export const README_SCREENSHOT: URL = new URL("../docs/side_by_side.png", import.meta.url);

if (import.meta.main) {
  const names = ["raycast-cluster", "boxcast", "orca", "social-force"];
  const source = await LiveFrameSource.start({
    scenario: "crossing",
    strategies: names,
    agents: 200,
    seed: 1,
    paused: true,
  });
  const server = await startViewerServer({
    source,
    bundle: (await buildClientBundle()).code,
    port: 0,
  });
  const browser = await launchHeadlessChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(server.url);
    await page.waitForTimeout(1000);
    await page.selectOption("#speed", "4");
    await page.click("#play");
    // deno-lint-ignore no-explicit-any
    const time = () => page.evaluate(() => (globalThis as any).__throng.state().views[0].time);
    while ((await time()) < 20) await page.waitForTimeout(200);
    await page.click("#play");
    await page.selectOption("#color-by", "state");
    await page.evaluate(() => document.getElementById("tile-note")!.hidden = true);
    await page.waitForTimeout(800);
    await page.screenshot({ path: README_SCREENSHOT.pathname });
    console.log(`wrote ${README_SCREENSHOT.pathname}`);
  } finally {
    await browser.close();
    await server.close();
    source.close();
  }
}

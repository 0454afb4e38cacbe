/**
 * Headless Chromium for the viewer's browser tests and measurements, driven by playwright-core.
 *
 * The browser is the one {@linkcode findChromium} finds (`THRONG_CHROMIUM`, then `chromium`,
 * `chromium-browser` and `google-chrome` on the `PATH`). It starts with
 * {@linkcode CHROMIUM_ARGS} (no GPU: WebGL runs on Chromium's software renderer) and a fresh
 * temporary profile per launch (playwright passes a new `--user-data-dir` and removes it on close).
 *
 * @module
 */
import { type Browser, chromium } from "playwright-core";
import { findChromium } from "./find_chromium.ts";

/**
 * Chromium flags: headless, no sandbox (tests may run as root), no GPU, and no network traffic
 * of its own (QUIC, background networking, component updates, sync).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launches headless Chromium with {@linkcode CHROMIUM_ARGS}: the one at `path`, else the one
 * {@linkcode findChromium} finds. Throws a one-line error saying how to get a browser when there
 * is none.
 *
 * @example
 * ```ts ignore
 * import { launchHeadlessChromium } from "./headless_chromium.ts";
 * const browser = await launchHeadlessChromium();
 * await browser.close();
 * ```
 */
export async function launchHeadlessChromium(path?: string): Promise<Browser> {
  let executable = path;
  if (executable === undefined) {
    const lookup = await findChromium();
    if (lookup.status !== "found") throw new Error(lookup.message);
    executable = lookup.path;
  }
  return await chromium.launch({
    executablePath: executable,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}

/**
 * Headless Chromium for the viewer's browser tests and measurements: Debian's `chromium` package
 * (`.ci/run` installs it with `libegl-mesa0 libgl1-mesa-dri`) driven by playwright-core, with
 * WebGL from Mesa's llvmpipe through ANGLE's EGL back end.
 *
 * Without `--disable-gpu`: with it, Chromium 156 falls back to SwiftShader, 3–5× slower here.
 *
 * @module
 */
import { type Browser, chromium } from "playwright-core";

/** Where the browser must be: Debian's `chromium` package. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Chromium flags: no sandbox (root), no network side traffic, Mesa's software GL via ANGLE. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--use-angle=gl-egl",
  "--ignore-gpu-blocklist",
];

/**
 * Launches headless Chromium (playwright adds `--headless` and a fresh temporary
 * `--user-data-dir` per launch). Throws a one-line error saying how to install the browser when
 * {@linkcode CHROMIUM_PATH} is missing.
 *
 * @example
 * ```ts ignore
 * import { launchHeadlessChromium } from "./headless_chromium.ts";
 * const browser = await launchHeadlessChromium();
 * await browser.close();
 * ```
 */
export async function launchHeadlessChromium(): Promise<Browser> {
  try {
    await Deno.stat(CHROMIUM_PATH);
  } catch {
    throw new Error(
      `${CHROMIUM_PATH} is missing: the viewer's browser tests need Debian's chromium package ` +
        "(.ci/run installs it: apt-get install -y chromium libegl-mesa0 libgl1-mesa-dri)",
    );
  }
  return await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}

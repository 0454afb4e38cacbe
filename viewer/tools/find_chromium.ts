/**
 * Finding a Chromium (or Chrome) executable for the viewer's browser tests and measurements: the
 * one named by the environment variable {@linkcode CHROMIUM_ENV} (`THRONG_CHROMIUM`), else
 * `chromium`, `chromium-browser` or `google-chrome` on the `PATH`.
 *
 * @module
 */

/** Environment variable naming the Chromium (or Chrome) executable to use. */
export const CHROMIUM_ENV = "THRONG_CHROMIUM";

/** Executable names looked up on the `PATH`, in order, when {@linkcode CHROMIUM_ENV} is unset. */
export const CHROMIUM_NAMES: readonly string[] = ["chromium", "chromium-browser", "google-chrome"];

/** How to get a browser, for messages. */
export const CHROMIUM_INSTALL_HINT =
  `install Chromium (Debian/Ubuntu: apt-get install chromium) or set ${CHROMIUM_ENV} to a Chromium or Chrome executable`;

/** Where the browser is, or why there is none. */
export type ChromiumLookup =
  | { status: "found"; path: string; source: "env" | "path" }
  | { status: "missing"; message: string }
  | { status: "invalid"; message: string };

/** Reads an environment variable; unreadable (no permission) reads as unset. */
export type EnvironmentReader = (name: string) => string | undefined;

/**
 * Finds the browser: `THRONG_CHROMIUM` when set (`invalid` when it names no executable file),
 * else the first of {@linkcode CHROMIUM_NAMES} found on the `PATH` (`missing` when none is).
 * `env` reads the environment (injected for tests).
 *
 * @example A PATH without any browser
 * ```ts
 * import { findChromium } from "./find_chromium.ts";
 * import assert from "node:assert/strict";
 * const empty = await Deno.makeTempDir();
 * const lookup = await findChromium((name) => name === "PATH" ? empty : undefined);
 * assert.equal(lookup.status, "missing");
 * await Deno.remove(empty);
 * ```
 */
export async function findChromium(env: EnvironmentReader = _readEnv): Promise<ChromiumLookup> {
  const named = env(CHROMIUM_ENV);
  if (named !== undefined && named !== "") {
    if (await _isExecutable(named)) return { status: "found", path: named, source: "env" };
    return {
      status: "invalid",
      message: `${CHROMIUM_ENV}='${named}' is not an executable file: ${CHROMIUM_INSTALL_HINT}`,
    };
  }
  const windows = Deno.build.os === "windows";
  const dirs = (env("PATH") ?? "").split(windows ? ";" : ":").filter((d) => d !== "");
  for (const name of CHROMIUM_NAMES) {
    for (const dir of dirs) {
      const path = `${dir.replace(/[\\/]+$/, "")}/${name}${windows ? ".exe" : ""}`;
      if (await _isExecutable(path)) return { status: "found", path, source: "path" };
    }
  }
  return {
    status: "missing",
    message: `no Chromium found (${CHROMIUM_ENV} unset; none of ${
      CHROMIUM_NAMES.join(", ")
    } on the PATH): ${CHROMIUM_INSTALL_HINT}`,
  };
}

function _readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // not permitted: as if unset
  }
}

async function _isExecutable(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return false;
    return Deno.build.os === "windows" || info.mode === null || (info.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

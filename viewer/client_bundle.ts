/**
 * Building the page's JavaScript: `viewer/client/main.ts` and the npm deck.gl packages it
 * imports (through deno.json's imports map) bundled into one browser module with Deno's
 * bundler, so the page needs no CDN. The result is cached under `out/viewer-bundle/<hash>/`,
 * keyed by a SHA-256 of the viewer's sources, deno.json and deno.lock, so only the first start
 * after a change pays for the build (a few seconds).
 *
 * The bundler is `Deno.bundle` (run Deno with `--unstable-bundle`, as `deno task view` does);
 * without it, `deno bundle` runs as a subprocess when `--allow-run` permits.
 *
 * @module
 */

/** The bundle's entry point. */
export const CLIENT_ENTRY: URL = new URL("./client/main.ts", import.meta.url);

/** The repository root (deno.json, deno.lock). */
const ROOT = new URL("../", import.meta.url);

/** Default cache folder (git-ignored through `out/`). */
export const DEFAULT_BUNDLE_CACHE: URL = new URL("../out/viewer-bundle/", import.meta.url);

/** A built bundle. */
export interface ClientBundle {
  /** The JavaScript. */
  code: Uint8Array;
  /** Content hash of the inputs (hex). */
  hash: string;
  /** True when it came from the cache. */
  cached: boolean;
  /** Wall-clock time spent (ms). */
  ms: number;
}

/** The bundle could not be built; the message is one line naming the cause. */
export class BundleError extends Error {
  /** Creates the error with a one-line message. */
  constructor(message: string) {
    super(message);
    this.name = "BundleError";
  }
}

interface BundleApi {
  bundle?: (options: Record<string, unknown>) => Promise<{
    success: boolean;
    errors: { text: string; location?: { file?: string; line?: number } | null }[];
    outputFiles?: { path: string; contents?: Uint8Array; text?: () => string }[];
  }>;
}

/**
 * Returns the client bundle: from the cache when the inputs are unchanged, else built now (and
 * written to the cache when it is writable). Throws a {@linkcode BundleError} with one line when
 * bundling fails.
 *
 * @example The second call is served from the cache
 * ```ts ignore
 * import { buildClientBundle } from "./client_bundle.ts";
 * const first = await buildClientBundle();
 * const second = await buildClientBundle();
 * console.log(first.ms, second.cached); // a few seconds, true
 * ```
 */
export async function buildClientBundle(
  options: { cacheDir?: URL } = {},
): Promise<ClientBundle> {
  const t0 = performance.now();
  const cacheDir = options.cacheDir ?? DEFAULT_BUNDLE_CACHE;
  const hash = await clientSourceHash();
  const cachedFile = new URL(`${hash}/app.js`, cacheDir);
  try {
    const code = await Deno.readFile(cachedFile);
    return { code, hash, cached: true, ms: performance.now() - t0 };
  } catch {
    // Not cached yet.
  }
  const code = await _bundle();
  try {
    const dir = new URL(`${hash}/`, cacheDir);
    await Deno.mkdir(dir, { recursive: true });
    const temporary = new URL(`app.js.${Deno.pid}.tmp`, dir);
    await Deno.writeFile(temporary, code);
    await Deno.rename(temporary, cachedFile);
  } catch {
    // A read-only cache only costs the next start another build.
  }
  return { code, hash, cached: false, ms: performance.now() - t0 };
}

/**
 * SHA-256 (hex) of the files the bundle depends on: every `.ts` file under `viewer/` and the
 * repository's deno.json and deno.lock.
 *
 * @example The hash is stable
 * ```ts
 * import { clientSourceHash } from "./client_bundle.ts";
 * import assert from "node:assert/strict";
 * assert.equal(await clientSourceHash(), await clientSourceHash());
 * ```
 */
export async function clientSourceHash(): Promise<string> {
  const files: URL[] = [new URL("deno.json", ROOT), new URL("deno.lock", ROOT)];
  const walk = async (dir: URL) => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(dir)) entries.push(entry);
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (entry.isDirectory) await walk(new URL(`${entry.name}/`, dir));
      else if (entry.isFile && entry.name.endsWith(".ts")) files.push(new URL(entry.name, dir));
    }
  };
  await walk(new URL("./", import.meta.url));
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (const file of files) {
    parts.push(encoder.encode(`\0${file.pathname.slice(ROOT.pathname.length)}\0`));
    try {
      parts.push(await Deno.readFile(file));
    } catch {
      parts.push(encoder.encode("(missing)"));
    }
  }
  const total = parts.reduce((sum, p) => sum + p.length, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 32);
}

async function _bundle(): Promise<Uint8Array> {
  const api = Deno as unknown as BundleApi;
  if (typeof api.bundle === "function") {
    let result;
    try {
      result = await api.bundle({
        entrypoints: [CLIENT_ENTRY.href],
        platform: "browser",
        format: "esm",
        minify: true,
        write: false,
        outputDir: new URL("viewer-bundle-output/", DEFAULT_BUNDLE_CACHE).pathname,
      });
    } catch (error) {
      throw new BundleError(`Cannot bundle the viewer page: ${_oneLine(error)}`);
    }
    if (!result.success || !result.outputFiles?.length) {
      const first = result.errors[0];
      const where = first?.location?.file ? ` (${first.location.file}:${first.location.line})` : "";
      throw new BundleError(
        `Cannot bundle the viewer page: ${
          first ? first.text + where : "the bundler produced no output"
        }`,
      );
    }
    const file = result.outputFiles.find((f) => f.path.endsWith(".js")) ?? result.outputFiles[0];
    return file.contents ?? new TextEncoder().encode(file.text?.() ?? "");
  }
  // No Deno.bundle (run without --unstable-bundle): try `deno bundle` as a subprocess.
  const out = await Deno.makeTempFile({ suffix: ".js" });
  try {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--platform", "browser", "--minify", "-o", out, CLIENT_ENTRY.pathname],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      const text = new TextDecoder().decode(stderr);
      const line = text.split("\n").find((l) => /error/i.test(l)) ?? text.split("\n")[0];
      throw new BundleError(`Cannot bundle the viewer page: ${line.trim()}`);
    }
    return await Deno.readFile(out);
  } catch (error) {
    if (error instanceof BundleError) throw error;
    throw new BundleError(
      `Cannot bundle the viewer page: ${
        _oneLine(error)
      } (run Deno with --unstable-bundle, as 'deno task view' does)`,
    );
  } finally {
    await Deno.remove(out).catch(() => {});
  }
}

function _oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}

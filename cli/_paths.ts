/**
 * Paths given on the command line, resolved against the folder the user ran the command in.
 *
 * `deno task` runs a tool in the folder of `deno.json` and passes the folder the user typed the
 * command in as `INIT_CWD`. A relative path such as `--scenario my.json` or `--out run.bin`
 * means the user's folder, so it is resolved against `INIT_CWD` (read only when the `env`
 * permission for it is granted, never prompted for); run directly (`deno run cli/sim.ts`), the
 * current folder is the user's folder and paths stay as given.
 *
 * @module
 */
import { isAbsolute, join } from "node:path";

/**
 * The folder the user ran the command in when it differs from the current one (`INIT_CWD` set by
 * `deno task`), else undefined.
 */
export function userFolder(): string | undefined {
  try {
    const state = Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" }).state;
    if (state !== "granted") return undefined;
    const folder = Deno.env.get("INIT_CWD");
    if (!folder || !isAbsolute(folder)) return undefined;
    return folder === Deno.cwd() ? undefined : folder;
  } catch {
    return undefined;
  }
}

/**
 * `path` resolved against the user's folder: unchanged when it is absolute or when the user's
 * folder is the current one, else joined to `folder` (default {@linkcode userFolder}).
 *
 * @example
 * ```ts
 * import { resolveUserPath } from "./_paths.ts";
 * import assert from "node:assert/strict";
 * assert.equal(resolveUserPath("runs/a.bin", "/home/ana/study"), "/home/ana/study/runs/a.bin");
 * assert.equal(resolveUserPath("/tmp/a.bin", "/home/ana/study"), "/tmp/a.bin");
 * ```
 */
export function resolveUserPath(path: string, folder: string | undefined = userFolder()): string {
  if (folder === undefined || path === "" || isAbsolute(path)) return path;
  return join(folder, path);
}

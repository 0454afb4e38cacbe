/**
 * Mapping request paths to the viewer's static files without ever leaving their folder: a path
 * with `..`, `.`, a backslash, a NUL or an undecodable escape is refused (403), and a file is
 * served only when its real path (symbolic links resolved) lies inside the real static root.
 *
 * @module
 */

/** Where a request path leads. */
export type StaticLookup =
  | { status: 200; path: string; contentType: string }
  | { status: 403 | 404 };

/** Content types by file extension. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  png: "image/png",
  svg: "image/svg+xml",
  json: "application/json; charset=utf-8",
};

/**
 * Checks a request path (the URL's raw, still percent-encoded `pathname`) below `prefix` and
 * returns the file path under `root` it names, or 403 for an attempt to leave the folder and 404
 * for anything else that is not a plain file name path. The caller still confirms the real path
 * with {@linkcode insideRoot} before reading.
 *
 * @example
 * ```ts
 * import { resolveStaticPath } from "./static_files.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(resolveStaticPath("/srv/static", "/static/style.css", "/static/"), {
 *   status: 200, path: "/srv/static/style.css", contentType: "text/css; charset=utf-8",
 * });
 * assert.equal(resolveStaticPath("/srv/static", "/static/%2e%2e/deno.json", "/static/").status, 403);
 * assert.equal(resolveStaticPath("/srv/static", "/static/a/../../x", "/static/").status, 403);
 * ```
 */
export function resolveStaticPath(root: string, rawPath: string, prefix: string): StaticLookup {
  if (!rawPath.startsWith(prefix)) return { status: 404 };
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath.slice(prefix.length));
  } catch {
    return { status: 403 };
  }
  if (decoded.length === 0) return { status: 404 };
  if (/[\\\0]/.test(decoded) || decoded.startsWith("/")) return { status: 403 };
  const segments = decoded.split("/");
  if (segments.some((s) => s === ".." || s === "." || s === "")) return { status: 403 };
  if (segments.some((s) => !/^[A-Za-z0-9_\-.]+$/.test(s))) return { status: 404 };
  const extension = /\.([a-z0-9]+)$/i.exec(decoded)?.[1]?.toLowerCase() ?? "";
  const contentType = CONTENT_TYPES[extension];
  if (!contentType) return { status: 404 };
  return { status: 200, path: `${root.replace(/\/+$/, "")}/${segments.join("/")}`, contentType };
}

/**
 * True when `path`'s real location (symbolic links resolved) is inside `realRoot` (itself a
 * real path). False when the file does not exist.
 *
 * @example
 * ```ts
 * import { insideRoot } from "./static_files.ts";
 * import assert from "node:assert/strict";
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.writeTextFile(`${root}/a.css`, "");
 * assert.equal(await insideRoot(root, `${root}/a.css`), true);
 * assert.equal(await insideRoot(root, "/etc/hostname"), false);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function insideRoot(realRoot: string, path: string): Promise<boolean> {
  try {
    const real = await Deno.realPath(path);
    return real.startsWith(realRoot.replace(/\/+$/, "") + "/");
  } catch {
    return false;
  }
}

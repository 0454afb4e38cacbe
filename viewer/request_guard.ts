/**
 * Which requests the viewer server answers: only those addressed to one of its own names (the
 * `Host` header), and WebSocket upgrades only from its own pages (the `Origin` header). A page on
 * another site can then neither open the viewer's socket from the user's browser (its origin is
 * not the viewer's) nor reach it under a name of its own that it points at 127.0.0.1 (DNS
 * rebinding: its `Host` is not a local name).
 *
 * On a loopback interface the names are the local ones (`localhost`, `*.localhost`, `127.0.0.1`,
 * `[::1]`); listening on a given address adds that address; listening on every interface
 * (`0.0.0.0`, `::`) is opening the viewer on purpose and any name is answered, while the origin
 * check stays.
 *
 * @module
 */

/** Host names a server answers to, or every name. */
export type HostPolicy = { kind: "any" } | { kind: "names"; names: readonly string[] };

/** Names of the local machine, always answered. */
export const LOCAL_HOST_NAMES: readonly string[] = ["localhost", "127.0.0.1", "::1"];

/** Why a request is refused, or null when it may be served. */
export type Refusal = { status: 403; reason: string } | null;

/**
 * The host policy of a server listening on `hostname`: every name for a wildcard address, else
 * the local names plus `hostname`.
 *
 * @example
 * ```ts
 * import { hostPolicyFor } from "./request_guard.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(hostPolicyFor("0.0.0.0"), { kind: "any" });
 * assert.deepEqual(hostPolicyFor("192.168.1.20"), {
 *   kind: "names", names: ["localhost", "127.0.0.1", "::1", "192.168.1.20"],
 * });
 * ```
 */
export function hostPolicyFor(hostname: string): HostPolicy {
  const name = _bare(hostname);
  if (name === "0.0.0.0" || name === "::") return { kind: "any" };
  const names = [...LOCAL_HOST_NAMES];
  if (!_isLocalName(name, names)) names.push(name);
  return { kind: "names", names };
}

/**
 * Checks a request's `Host` (against `policy`) and, for a WebSocket upgrade, its `Origin`: a
 * browser sends one, and it must be the page's own (`http://` or `https://` and the same host and
 * port as `Host`). A client without `Origin` is not a web page and is let through.
 *
 * @example A page of another site may not open the socket
 * ```ts
 * import { checkRequest, hostPolicyFor } from "./request_guard.ts";
 * import assert from "node:assert/strict";
 * const local = hostPolicyFor("127.0.0.1");
 * const upgrade = (origin: string) => new Request("http://127.0.0.1:8080/ws", {
 *   headers: { host: "127.0.0.1:8080", upgrade: "websocket", origin },
 * });
 * assert.equal(checkRequest(upgrade("http://127.0.0.1:8080"), local), null);
 * assert.equal(checkRequest(upgrade("https://example.com"), local)?.status, 403);
 * ```
 */
export function checkRequest(request: Request, policy: HostPolicy): Refusal {
  const host = request.headers.get("host")?.trim().toLowerCase() ?? "";
  const name = _hostName(host);
  if (name === null) return { status: 403, reason: `malformed Host header '${host}'` };
  if (policy.kind === "names" && !_isLocalName(name, policy.names)) {
    return { status: 403, reason: `host '${name}' is not one of this viewer's names` };
  }
  const upgrade = request.headers.get("upgrade")?.toLowerCase() === "websocket";
  const origin = request.headers.get("origin");
  if (upgrade && origin !== null) {
    const lower = origin.trim().toLowerCase();
    if (lower !== `http://${host}` && lower !== `https://${host}`) {
      return { status: 403, reason: `WebSocket from origin '${origin}', not this viewer's page` };
    }
  }
  return null;
}

/** The host name of a `Host` header value (port removed, IPv6 brackets removed); null if bad. */
function _hostName(host: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.\-_]+)(:\d{1,5})?$/.exec(host);
  return match ? _bare(match[1]) : null;
}

function _bare(name: string): string {
  return name.toLowerCase().replace(/^\[(.*)\]$/, "$1");
}

function _isLocalName(name: string, names: readonly string[]): boolean {
  return names.includes(name) || name.endsWith(".localhost");
}

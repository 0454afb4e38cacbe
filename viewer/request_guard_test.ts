import assert from "node:assert/strict";
import { checkRequest, hostPolicyFor } from "./request_guard.ts";

const get = (host: string, headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1:8080/", { headers: { host, ...headers } });

Deno.test("a loopback viewer answers local names only, whatever the port", () => {
  const policy = hostPolicyFor("127.0.0.1");
  for (
    const host of ["127.0.0.1:8080", "localhost", "LOCALHOST:80", "[::1]:8080", "app.localhost"]
  ) {
    assert.equal(checkRequest(get(host), policy), null, host);
  }
  for (const host of ["example.com", "127.0.0.1.nip.io:8080", "localhost.example.com", "[::2]"]) {
    assert.match(checkRequest(get(host), policy)!.reason, /is not one of this viewer's names/);
  }
  assert.match(checkRequest(get("a b"), policy)!.reason, /malformed Host header/);
});

Deno.test("a viewer on a given address also answers that address; a wildcard answers any", () => {
  assert.equal(checkRequest(get("10.0.0.7:8080"), hostPolicyFor("10.0.0.7")), null);
  assert.equal(checkRequest(get("10.0.0.8:8080"), hostPolicyFor("10.0.0.7"))?.status, 403);
  assert.equal(checkRequest(get("viewer.lan:8080"), hostPolicyFor("::")), null);
  assert.deepEqual(hostPolicyFor("localhost"), hostPolicyFor("127.0.0.1"));
});

Deno.test("a socket is let through from the page's own origin or from no page at all", () => {
  const policy = hostPolicyFor("0.0.0.0");
  const upgrade = (origin?: string) =>
    get("viewer.lan:8080", { upgrade: "websocket", ...(origin ? { origin } : {}) });
  assert.equal(checkRequest(upgrade("http://viewer.lan:8080"), policy), null);
  assert.equal(checkRequest(upgrade("https://viewer.lan:8080"), policy), null);
  assert.equal(checkRequest(upgrade(), policy), null);
  for (const origin of ["http://viewer.lan:8081", "http://attacker.example", "null", "file://"]) {
    assert.match(checkRequest(upgrade(origin), policy)!.reason, /not this viewer's page/);
  }
  // A plain request from another page is not refused for its origin: it cannot read the answer.
  const plain = get("viewer.lan:8080", { origin: "http://attacker.example" });
  assert.equal(checkRequest(plain, policy), null);
});

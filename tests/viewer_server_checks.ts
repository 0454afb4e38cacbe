/**
 * Checks of the viewer server over real sockets on 127.0.0.1. They need network and
 * `--v8-flags=--expose-gc`, which the project's test task does not grant, so
 * tests/viewer_server_test.ts runs this file in a `deno test` subprocess with those permissions:
 *
 * ```sh
 * deno test --allow-read --allow-write --allow-net=127.0.0.1 --v8-flags=--expose-gc tests/viewer_server_checks.ts
 * ```
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  agentFrameBytes,
  decodeAgentFrame,
  type HelloMessage,
  MessageKind,
  messageKind,
} from "../viewer/frame_protocol.ts";
import { LiveSimulation } from "../viewer/live_simulation.ts";
import { loadRecordings } from "../viewer/replay_player.ts";
import { startViewerServer, type ViewerServer } from "../viewer/server.ts";
import { TrajectoryRecorder } from "../recording/recorder.ts";
import { buildScenario } from "../scenarios/build.ts";
import { BUILTIN_SCENARIOS } from "../scenarios/builtin/mod.ts";
import { strategies } from "../strategies/mod.ts";

/** The page script is not needed here: a stub bundle keeps these checks fast. */
const STUB_BUNDLE = new TextEncoder().encode("// stub\n");

/** A WebSocket client that collects what the server sends. */
class Probe {
  socket: WebSocket;
  hello = Promise.withResolvers<HelloMessage>();
  frames: { at: number; bytes: number; view: number; step: number; count: number }[] = [];
  opened = Promise.withResolvers<void>();
  closed = Promise.withResolvers<void>();

  constructor(url: string) {
    this.socket = new WebSocket(url.replace(/^http/, "ws") + "ws");
    this.socket.binaryType = "arraybuffer";
    this.socket.onopen = () => this.opened.resolve();
    this.socket.onclose = () => this.closed.resolve();
    this.socket.onerror = () => this.opened.reject(new Error("WebSocket error"));
    this.socket.onmessage = (event) => {
      if (typeof event.data === "string") {
        const message = JSON.parse(event.data);
        if (message.type === "hello") this.hello.resolve(message);
        return;
      }
      const buffer = event.data as ArrayBuffer;
      if (messageKind(buffer) !== MessageKind.frame) return;
      const frame = decodeAgentFrame(buffer);
      this.frames.push({
        at: performance.now(),
        bytes: buffer.byteLength,
        view: frame.view,
        step: frame.step,
        count: frame.count,
      });
    };
  }

  async close(): Promise<void> {
    this.socket.close();
    await this.closed.promise;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Sends a raw HTTP request (the path exactly as given) and returns status line and body. */
async function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      ),
    );
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(65536);
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
    }
    const text = new TextDecoder().decode(
      chunks.reduce((a, b) => {
        const c = new Uint8Array(a.length + b.length);
        c.set(a);
        c.set(b, a.length);
        return c;
      }, new Uint8Array(0)),
    );
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
    return { status, body: text.slice(text.indexOf("\r\n\r\n") + 4) };
  } finally {
    try {
      conn.close();
    } catch {
      // closed by the server
    }
  }
}

async function liveServer(agents: number, names: string[]): Promise<{
  server: ViewerServer;
  live: LiveSimulation;
}> {
  const live = await LiveSimulation.start({
    scenario: "crossing",
    strategies: names,
    agents,
    seed: 1,
  });
  const server = await startViewerServer({
    source: { kind: "live", live },
    bundle: STUB_BUNDLE,
    port: 0,
  });
  live.resume();
  return { server, live };
}

Deno.test("frames of 10 000 agents arrive at the advertised rate", async () => {
  const { server, live } = await liveServer(10_000, ["none"]);
  const probe = new Probe(server.url);
  try {
    const hello = await probe.hello.promise;
    assert.equal(hello.frameRate, 20); // crossing steps 0.05 s: one frame per step at speed 1
    await sleep(1000); // warm-up
    const from = probe.frames.length, t0 = performance.now();
    await sleep(3000);
    const frames = probe.frames.slice(from);
    const seconds = (performance.now() - t0) / 1000;
    const rate = frames.length / seconds;
    const stepMs = live.stepMs[0];
    console.log(
      `10k agents: ${rate.toFixed(1)} frames/s (advertised ${hello.frameRate}), ` +
        `${frames[0].bytes} bytes per frame, server ${stepMs.toFixed(1)} ms per step`,
    );
    assert.ok(rate >= 0.8 * hello.frameRate, `only ${rate.toFixed(1)} frames/s`);
    assert.ok(
      rate <= 1.2 * hello.frameRate,
      `${rate.toFixed(1)} frames/s is faster than real time`,
    );
    for (const f of frames) {
      assert.equal(f.count, 10_000);
      assert.equal(f.bytes, agentFrameBytes(10_000));
    }
    // Consecutive frames are consecutive steps: nothing was dropped for a client that keeps up.
    for (let k = 1; k < frames.length; k++) assert.equal(frames[k].step, frames[k - 1].step + 1);
  } finally {
    await probe.close();
    await server.close();
    live.close();
  }
});

Deno.test("200 WebSocket connect/disconnect cycles leave the server serving with flat memory", async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  assert.ok(gc, "run with --v8-flags=--expose-gc");
  const { server, live } = await liveServer(2_000, ["none", "none"]);
  const cycle = async () => {
    const probe = new Probe(server.url);
    await probe.hello.promise;
    await waitFor("a frame", () => probe.frames.length >= 2);
    await probe.close();
  };
  const heap = () => {
    gc!();
    return Deno.memoryUsage();
  };
  try {
    for (let k = 0; k < 20; k++) await cycle(); // warm-up: code paths compiled, pools grown
    await waitFor("the server to forget the clients", () => server.stats().clients === 0);
    const before = heap();
    for (let k = 0; k < 200; k++) await cycle();
    await waitFor("the server to forget the clients", () => server.stats().clients === 0);
    await sleep(200);
    const after = heap();
    const stats = server.stats();
    const heapGrowth = after.heapUsed - before.heapUsed, rssGrowth = after.rss - before.rss;
    console.log(
      `220 cycles: heap ${(before.heapUsed / 1e6).toFixed(1)} -> ${
        (after.heapUsed / 1e6).toFixed(1)
      } MB, ` +
        `rss ${(before.rss / 1e6).toFixed(1)} -> ${(after.rss / 1e6).toFixed(1)} MB`,
    );
    assert.equal(stats.connections, 220);
    // A leaked page would keep its socket and at least one 50 KB frame per view (2 000 agents):
    // 200 leaks hold >= 20 MB. 4 MB of heap and 48 MB of RSS (allocator and JIT noise) cannot
    // hide that.
    assert.ok(heapGrowth < 4e6, `heap grew by ${(heapGrowth / 1e6).toFixed(1)} MB`);
    assert.ok(rssGrowth < 48e6, `RSS grew by ${(rssGrowth / 1e6).toFixed(1)} MB`);
    // Still serving: a new page gets the hello and frames, the page itself loads.
    const probe = new Probe(server.url);
    const hello = await probe.hello.promise;
    assert.equal(hello.views.length, 2);
    await waitFor("frames after the cycles", () => probe.frames.length >= 4);
    await probe.close();
    const page = await fetch(server.url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script type="module" src="\/app.js">/);
  } finally {
    await server.close();
    live.close();
  }
});

Deno.test("requests for paths outside the served files are refused", async () => {
  const { server, live } = await liveServer(10, ["none"]);
  try {
    const secret = await Deno.readTextFile(new URL("../deno.json", import.meta.url));
    assert.match(secret, /"tasks"/);
    for (
      const path of [
        "/static/../deno.json",
        "/static/%2e%2e/deno.json",
        "/static/..%2fdeno.json",
        "/static/..%2f..%2fdeno.json",
        "/static/%2e%2e%2fdeno.json",
        "/static/..%5cdeno.json",
        "/../../../etc/passwd",
        "/static//etc/passwd",
        "/static/%00style.css",
        "/deno.json",
        "/viewer/server.ts",
      ]
    ) {
      const { status, body } = await rawGet(server.port, path);
      assert.ok(status === 403 || status === 404, `${path} answered ${status}`);
      assert.doesNotMatch(body, /"tasks"|root:/, `${path} leaked a file`);
    }
    assert.equal((await rawGet(server.port, "/static/..%2fdeno.json")).status, 403);
    const css = await rawGet(server.port, "/static/style.css");
    assert.equal(css.status, 200);
    assert.match(css.body, /#toolbar/);
  } finally {
    await server.close();
    live.close();
  }
});

Deno.test("a page that stops reading gets frames dropped instead of buffered without bound", async () => {
  const { server, live } = await liveServer(10_000, ["none"]);
  // A raw WebSocket handshake, then never read: the server's unsent bytes pile up.
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
  try {
    await conn.write(new TextEncoder().encode(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        `Sec-WebSocket-Key: ${btoa("0123456789abcdef")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    ));
    const head = new Uint8Array(256);
    await conn.read(head);
    assert.match(new TextDecoder().decode(head), /^HTTP\/1\.1 101/);
    const before = Deno.memoryUsage().rss;
    await waitFor("dropped frames", () => server.stats().framesDropped > 0, 20_000);
    await sleep(2000);
    const stats = server.stats();
    const sent = stats.framesSent, dropped = stats.framesDropped;
    const growth = Deno.memoryUsage().rss - before;
    console.log(
      `stalled page: ${sent} frames sent, ${dropped} dropped, rss +${(growth / 1e6).toFixed(1)} MB`,
    );
    // At 250 KB a frame, what was sent is bounded by the kernel buffers plus the 4 MiB limit.
    assert.ok(dropped >= 20, `only ${dropped} frames dropped`);
    assert.ok(growth < 64e6, `RSS grew by ${(growth / 1e6).toFixed(1)} MB`);
  } finally {
    conn.close();
    await server.close();
    live.close();
  }
});

Deno.test("a recorded run replays with seek and step, frame for frame", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/run.bin`;
  try {
    const built = buildScenario(BUILTIN_SCENARIOS.corridor.create(20), {
      registry: strategies,
      strategy: { name: "none" },
    });
    const recorder = new TrajectoryRecorder({ path, scenario: "corridor" });
    built.world.addObserver(recorder);
    for (let k = 0; k < 40; k++) built.world.step();
    recorder.close();
    const server = await startViewerServer({
      source: { kind: "replay", recordings: loadRecordings([path, path]) },
      bundle: STUB_BUNDLE,
      port: 0,
    });
    const probe = new Probe(server.url);
    try {
      const hello = await probe.hello.promise;
      assert.equal(hello.mode, "replay");
      assert.deepEqual(hello.timeline?.frames, [41, 41]);
      assert.ok(Math.abs(hello.timeline!.endTime - 2) < 1e-9);
      await waitFor("the first frame", () => probe.frames.length >= 2);
      assert.deepEqual(probe.frames.slice(0, 2).map((f) => [f.view, f.step]), [[0, 0], [1, 0]]);
      probe.socket.send(JSON.stringify({ type: "seek", time: 1 }));
      await waitFor("the seek", () => probe.frames.length >= 4);
      assert.deepEqual(probe.frames.slice(2, 4).map((f) => f.step), [20, 20]);
      probe.socket.send(JSON.stringify({ type: "step", delta: 1 }));
      await waitFor("the step", () => probe.frames.length >= 6);
      assert.deepEqual(probe.frames.slice(4, 6).map((f) => f.step), [21, 21]);
      probe.socket.send(JSON.stringify({ type: "pause", paused: false }));
      await waitFor("playback", () => probe.frames.length >= 16);
      const steps = probe.frames.slice(6).filter((f) => f.view === 0).map((f) => f.step);
      assert.ok(steps.every((s, k) => k === 0 || s >= steps[k - 1]), `steps ${steps}`);
      assert.ok(steps[steps.length - 1] > 21);
    } finally {
      await probe.close();
      await server.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

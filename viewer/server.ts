/**
 * The viewer's HTTP and WebSocket server: the page (`viewer/static/`), its bundled script, and
 * one WebSocket per page carrying the binary frames of `viewer/frame_protocol.ts`.
 *
 * Routes: `/` the page, `/static/<file>` its static files, `/favicon.ico` its icon, `/app.js` the
 * bundle, `/ws` the WebSocket, `/stats` counters as JSON. Anything else is 404; a path that tries
 * to leave the static folder is 403, and so is a request to a name that is not the viewer's or a
 * WebSocket from another site's page (`viewer/request_guard.ts`).
 *
 * Each page gets its own {@linkcode Playback} from the {@linkcode FrameSource} (live runs or
 * recordings) and its commands go to that playback only. Frames are sent latest-frame-wins: when
 * a page's socket still holds more than eight ticks unsent (at least 256 KiB, at most
 * `maxBufferedBytes`), the frames of that tick are held back for that page (counted as dropped in
 * its status) and only the latest tick held back is sent once the socket drains, so a slow page never makes the server buffer without bound and
 * still ends on the newest frame (a pause, a step or a seek made while it was behind included).
 *
 * @module
 */
import {
  type ClientCommand,
  FRAME_PROTOCOL_VERSION,
  parseClientCommand,
  type ServerMessage,
} from "./frame_protocol.ts";
import type { FrameSource, PageSink, Playback } from "./frame_source.ts";
import { checkRequest, type HostPolicy, hostPolicyFor } from "./request_guard.ts";
import { insideRoot, resolveStaticPath } from "./static_files.ts";

/** The default basemap: the OpenStreetMap standard tile server. */
export const DEFAULT_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";

/** Attribution shown with the default basemap. */
export const OSM_ATTRIBUTION = "© OpenStreetMap contributors";

/** Default for {@linkcode ViewerServerOptions.maxBufferedBytes}: 4 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 << 20;

/** Options of {@linkcode startViewerServer}. */
export interface ViewerServerOptions {
  /** What to show: live runs or recordings, one playback per page. */
  source: FrameSource;
  /** The page's bundled script. */
  bundle: Uint8Array;
  /** Interface to listen on. @default "127.0.0.1" */
  hostname?: string;
  /** Port; 0 picks a free one. @default 8080 */
  port?: number;
  /** Basemap XYZ URL template. @default {@linkcode DEFAULT_TILE_URL} */
  tiles?: string;
  /** Basemap attribution. @default {@linkcode OSM_ATTRIBUTION} for the default tiles, else "" */
  attribution?: string;
  /**
   * Most unsent bytes a page may have before its frames are held back (bytes); the limit a page
   * gets is eight ticks' worth, at least 256 KiB, at most this. @default 4 MiB
   */
  maxBufferedBytes?: number;
  /** Folder of the static files. @default viewer/static */
  staticRoot?: string;
  /**
   * Host names answered (the `Host` header). @default the local names, plus `hostname`; any name
   * when `hostname` is a wildcard address (`0.0.0.0`, `::`)
   */
  hosts?: HostPolicy;
}

/** Counters of a running server (`/stats`). */
export interface ViewerServerStats {
  /** Pages connected now. */
  clients: number;
  /** WebSocket connections accepted since start. */
  connections: number;
  /** Frames sent, over all pages (a tick of all views counts once). */
  framesSent: number;
  /** Frames dropped for pages that were behind. */
  framesDropped: number;
  /** Requests refused for their `Host` or `Origin`. */
  refused: number;
  /** `Deno.memoryUsage()` (bytes). */
  memory: { rss: number; heapUsed: number; heapTotal: number; external: number };
}

/** A running viewer server. */
export interface ViewerServer {
  /** `http://host:port/`. */
  url: string;
  /** The port listened on. */
  port: number;
  /** Counters. */
  stats(): ViewerServerStats;
  /** Closes the pages' sockets and stops listening (the source is the caller's to close). */
  close(): Promise<void>;
  /** Settles when the server has stopped. */
  finished: Promise<void>;
}

/** Milliseconds between status messages. */
const STATUS_EVERY_MS = 1000;

/**
 * The least a page may have unsent before its ticks are held back (bytes). Above it, a page may
 * have up to eight ticks unsent (capped by `maxBufferedBytes`): a page that renders slowly then
 * lags by a fraction of a second, not by the seconds that megabytes of small frames would take.
 */
const MIN_BUDGET_BYTES = 256 << 10;

/** Milliseconds between checks of a behind page's socket for room to send its held-back tick. */
const DRAIN_CHECK_MS = 50;

/**
 * Starts serving the viewer. Resolves once listening.
 *
 * @example Serve a recording and fetch the page
 * ```ts ignore
 * import { startViewerServer } from "./server.ts";
 * import { ReplayFrameSource } from "./replay_source.ts";
 * import { buildClientBundle } from "./client_bundle.ts";
 * const server = await startViewerServer({
 *   source: ReplayFrameSource.load(["run.bin"]),
 *   bundle: (await buildClientBundle()).code,
 *   port: 0,
 * });
 * console.log(`open ${server.url}`);
 * ```
 */
export async function startViewerServer(options: ViewerServerOptions): Promise<ViewerServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const port = options.port ?? 8080;
  const staticRoot = await Deno.realPath(
    options.staticRoot ?? new URL("./static/", import.meta.url).pathname,
  );
  const tiles = options.tiles ?? DEFAULT_TILE_URL;
  const site = new _ViewerSite({
    source: options.source,
    bundle: options.bundle,
    staticRoot,
    tiles: { url: tiles, attribution: options.attribution ?? _defaultAttribution(tiles) },
    maxBuffered: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    hosts: options.hosts ?? hostPolicyFor(hostname),
  });
  const { server, address } = await _listen(hostname, port, (request) => site.handle(request));
  const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    stats: () => site.stats(),
    finished: server.finished,
    async close() {
      site.close();
      await server.shutdown();
    },
  };
}

/** What the site serves. */
interface _SiteOptions {
  source: FrameSource;
  bundle: Uint8Array;
  staticRoot: string;
  tiles: { url: string; attribution: string };
  maxBuffered: number;
  hosts: HostPolicy;
}

/** The requests of one server: checked, then routed to the page, its files or a socket. */
class _ViewerSite {
  readonly #options: _SiteOptions;
  readonly #pages = new Set<_PageConnection>();
  readonly #counters = { connections: 0, framesSent: 0, framesDropped: 0, refused: 0 };
  readonly #statusTimer: ReturnType<typeof setInterval>;

  constructor(options: _SiteOptions) {
    this.#options = options;
    this.#statusTimer = setInterval(() => {
      for (const page of this.#pages) page.postStatus();
    }, STATUS_EVERY_MS);
  }

  /** Answers one request: refuse it, or route it. */
  handle(request: Request): Response | Promise<Response> {
    if (request.method !== "GET" && request.method !== "HEAD") return _plain(405);
    const refusal = checkRequest(request, this.#options.hosts);
    if (refusal) {
      this.#counters.refused++;
      return _plain(refusal.status, refusal.reason);
    }
    return this.#route(request);
  }

  stats(): ViewerServerStats {
    const m = Deno.memoryUsage();
    return {
      clients: this.#pages.size,
      ...this.#counters,
      memory: { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external },
    };
  }

  /** Stops the status messages and closes every page's socket. */
  close(): void {
    clearInterval(this.#statusTimer);
    for (const page of this.#pages) page.close(1001, "server closing");
    this.#pages.clear();
  }

  #route(request: Request): Response | Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    if (/(^|\/)\.\.?(\/|$)|%2e|%2f|%5c|\\/i.test(path)) {
      // Dot segments (raw or escaped) and escaped separators are never part of a served path.
      return path.startsWith("/static/") ? this.#serveStatic(path) : _plain(403);
    }
    switch (path) {
      case "/ws":
        return this.#acceptPage(request);
      case "/":
      case "/index.html":
        return this.#serveStatic("/static/index.html");
      case "/favicon.ico":
        return this.#serveStatic("/static/favicon.svg");
      case "/app.js":
        return new Response(this.#options.bundle.slice(), {
          headers: {
            "content-type": "text/javascript; charset=utf-8",
            "cache-control": "no-cache",
          },
        });
      case "/stats":
        if (url.searchParams.has("gc")) (globalThis as { gc?: () => void }).gc?.();
        return Response.json(this.stats());
    }
    return path.startsWith("/static/") ? this.#serveStatic(path) : _plain(404);
  }

  async #serveStatic(path: string): Promise<Response> {
    const root = this.#options.staticRoot;
    const lookup = resolveStaticPath(root, path, "/static/");
    if (lookup.status !== 200) return _plain(lookup.status);
    if (!(await insideRoot(root, lookup.path))) return _plain(404);
    const body = await Deno.readFile(lookup.path);
    return new Response(body, {
      headers: { "content-type": lookup.contentType, "cache-control": "no-cache" },
    });
  }

  #acceptPage(request: Request): Response {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return _plain(426);
    const { socket, response } = Deno.upgradeWebSocket(request);
    this.#counters.connections++;
    const page = new _PageConnection(socket, this.#options, this.#counters, () => {
      this.#pages.delete(page);
    });
    this.#pages.add(page);
    return response;
  }
}

/**
 * One page's socket and playback: opens the playback when the socket opens, sends it the hello,
 * frames and status, applies its commands, and closes the playback when the socket closes.
 */
class _PageConnection implements PageSink {
  readonly #socket: WebSocket;
  readonly #options: _SiteOptions;
  readonly #counters: { framesSent: number; framesDropped: number };
  readonly #onClosed: () => void;
  #playback: Playback | null = null;
  #closed = false;
  #sent = 0;
  #dropped = 0;
  /** The latest tick held back while the socket was full; sent once it drains. */
  #heldBack: { frames: ArrayBuffer[]; debug: ArrayBuffer[] } | null = null;
  #drainTimer: ReturnType<typeof setTimeout> | null = null;
  /** Unsent bytes above which this page's ticks are held back (see {@linkcode MIN_BUDGET_BYTES}). */
  #budget = 0;

  constructor(
    socket: WebSocket,
    options: _SiteOptions,
    counters: { framesSent: number; framesDropped: number },
    onClosed: () => void,
  ) {
    this.#socket = socket;
    this.#options = options;
    this.#counters = counters;
    this.#onClosed = onClosed;
    socket.binaryType = "arraybuffer";
    socket.onopen = () => void this.#open();
    socket.onmessage = (event) => this.#receive(event.data);
    socket.onclose = () => this.#drop();
    socket.onerror = () => this.#drop();
  }

  // PageSink: what the playback sends.

  frames(frames: ArrayBuffer[], debug: ArrayBuffer[]): void {
    const socket = this.#socket;
    if (socket.readyState !== WebSocket.OPEN) return;
    const tickBytes = _bytesOf(frames) + _bytesOf(debug);
    this.#budget = Math.min(this.#options.maxBuffered, Math.max(MIN_BUDGET_BYTES, 8 * tickBytes));
    if (socket.bufferedAmount > this.#budget) {
      this.#dropped++;
      this.#counters.framesDropped++;
      this.#heldBack = { frames, debug };
      this.#drainTimer ??= setTimeout(() => this.#sendHeldBack(), DRAIN_CHECK_MS);
      return;
    }
    this.#heldBack = null;
    this.#send(frames, debug);
  }

  #send(frames: ArrayBuffer[], debug: ArrayBuffer[]): void {
    for (const frame of frames) this.#socket.send(frame);
    for (const d of debug) this.#socket.send(d);
    this.#sent++;
    this.#counters.framesSent++;
  }

  /** Sends the held-back tick once the socket has room; checks again later while it has none. */
  #sendHeldBack(): void {
    this.#drainTimer = null;
    const held = this.#heldBack;
    if (!held || this.#closed || this.#socket.readyState !== WebSocket.OPEN) return;
    if (this.#socket.bufferedAmount > this.#budget) {
      this.#drainTimer = setTimeout(() => this.#sendHeldBack(), DRAIN_CHECK_MS);
      return;
    }
    this.#heldBack = null;
    this.#send(held.frames, held.debug);
  }

  error(message: string): void {
    this.#post({ type: "error", message });
  }

  statusChanged(): void {
    this.postStatus();
  }

  /** Sends the playback state and this page's frame counts. */
  postStatus(): void {
    const playback = this.#playback;
    if (!playback) return;
    this.#post({
      type: "status",
      paused: playback.paused,
      speed: playback.speed,
      dropped: this.#dropped,
      sent: this.#sent,
    });
  }

  /** Closes the socket (the playback closes with it). */
  close(code: number, reason: string): void {
    try {
      this.#socket.close(code, reason);
    } catch {
      // Already closing.
    }
    this.#drop();
  }

  async #open(): Promise<void> {
    let playback: Playback;
    try {
      playback = await this.#options.source.open(this);
    } catch (error) {
      this.error((error as Error).message.split("\n")[0]);
      this.close(1013, "no playback available");
      return;
    }
    if (this.#closed) {
      playback.close();
      return;
    }
    this.#playback = playback;
    this.#postHello();
    this.postStatus();
  }

  #receive(data: unknown): void {
    if (typeof data !== "string" || !this.#playback) return;
    const command = parseClientCommand(data);
    if (!command) return;
    this.#apply(this.#playback, command).catch((error) =>
      this.error((error as Error).message.split("\n")[0])
    );
  }

  /** Applies a page's command to its playback and tells the page the new state. */
  async #apply(playback: Playback, command: ClientCommand): Promise<void> {
    switch (command.type) {
      case "pause":
        playback.setPaused(command.paused);
        break;
      case "speed":
        playback.setSpeed(command.speed);
        break;
      case "step":
        playback.step(command.delta);
        break;
      case "seek":
        playback.seek(command.time);
        return;
      case "restart":
        await playback.restart(command.seed);
        this.#postHello();
        break;
      case "overlays":
        playback.setOverlays(command.names, command.focus);
        return;
      case "inspect":
        this.#post({
          type: "inspect",
          view: command.view,
          id: command.id,
          state: await playback.inspect(command.view, command.id),
        });
        return;
    }
    this.postStatus();
  }

  #postHello(): void {
    if (!this.#playback) return;
    this.#post({
      type: "hello",
      protocol: FRAME_PROTOCOL_VERSION,
      ...this.#playback.info(),
      tiles: this.#options.tiles,
    });
  }

  #post(message: ServerMessage): void {
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(message));
  }

  #drop(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#drainTimer !== null) clearTimeout(this.#drainTimer);
    this.#drainTimer = null;
    this.#heldBack = null;
    this.#playback?.close();
    this.#playback = null;
    this.#onClosed();
  }
}

/** Total bytes of `buffers`. */
function _bytesOf(buffers: ArrayBuffer[]): number {
  let total = 0;
  for (const b of buffers) total += b.byteLength;
  return total;
}

/** Starts `Deno.serve` and waits until it listens; throws a one-line error when it cannot. */
async function _listen(
  hostname: string,
  port: number,
  handler: (request: Request) => Response | Promise<Response>,
): Promise<{ server: Deno.HttpServer<Deno.NetAddr>; address: Deno.NetAddr }> {
  const listening = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname,
    port,
    onListen: (address) => listening.resolve(address as Deno.NetAddr),
    onError: (error) => {
      console.error(`viewer: ${(error as Error).message.split("\n")[0]}`);
      return _plain(500);
    },
  }, handler);
  const address = await Promise.race([
    listening.promise,
    server.finished.then(() => {
      throw new Error(`Cannot listen on ${hostname}:${port}`);
    }),
  ]);
  return { server, address };
}

function _defaultAttribution(tiles: string): string {
  return tiles === DEFAULT_TILE_URL ? OSM_ATTRIBUTION : "";
}

function _plain(status: number, detail?: string): Response {
  const text: Record<number, string> = {
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    426: "Upgrade Required",
    500: "Internal Server Error",
  };
  return new Response(`${text[status] ?? status}${detail ? `: ${detail}` : ""}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

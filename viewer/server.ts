/**
 * The viewer's HTTP and WebSocket server: the page (`viewer/static/`), its bundled script, and
 * one WebSocket per page carrying the binary frames of `viewer/frame_protocol.ts`.
 *
 * Routes: `/` the page, `/static/<file>` its static files, `/app.js` the bundle, `/ws` the
 * WebSocket, `/stats` counters as JSON. Anything else is 404; a path that tries to leave the
 * static folder is 403.
 *
 * Frames are sent latest-frame-wins: when a page's socket still holds more than
 * `maxBufferedBytes` unsent, the frames of that tick are dropped for that page (counted in its
 * status), so a slow page never makes the server buffer without bound.
 *
 * @module
 */
import {
  type ClientCommand,
  FRAME_PROTOCOL_VERSION,
  type HelloMessage,
  parseClientCommand,
  type ServerMessage,
  type StatusMessage,
} from "./frame_protocol.ts";
import type { LiveSimulation, LiveTick } from "./live_simulation.ts";
import {
  type Recording,
  ReplayPlayer,
  replayScene,
  replayTimeline,
  replayViews,
} from "./replay_player.ts";
import { insideRoot, resolveStaticPath } from "./static_files.ts";

/** The default basemap: the OpenStreetMap standard tile server. */
export const DEFAULT_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";

/** Attribution shown with the default basemap. */
export const OSM_ATTRIBUTION = "© OpenStreetMap contributors";

/** Default for {@linkcode ViewerServerOptions.maxBufferedBytes}: 4 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 << 20;

/** What the server shows. */
export type ViewerSource =
  | { kind: "live"; live: LiveSimulation }
  | { kind: "replay"; recordings: Recording[] };

/** Options of {@linkcode startViewerServer}. */
export interface ViewerServerOptions {
  /** What to show. */
  source: ViewerSource;
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
  /** Unsent bytes above which a page's frames are dropped (bytes). @default 4 MiB */
  maxBufferedBytes?: number;
  /** Folder of the static files. @default viewer/static */
  staticRoot?: string;
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

/** Seconds between status messages. */
const STATUS_EVERY_MS = 1000;

/**
 * Starts serving the viewer. Resolves once listening.
 *
 * @example Serve a recording and fetch the page
 * ```ts ignore
 * import { startViewerServer } from "./server.ts";
 * import { loadRecordings } from "./replay_player.ts";
 * import { buildClientBundle } from "./client_bundle.ts";
 * const server = await startViewerServer({
 *   source: { kind: "replay", recordings: loadRecordings(["run.bin"]) },
 *   bundle: (await buildClientBundle()).code,
 *   port: 0,
 * });
 * console.log(`open ${server.url}`);
 * ```
 */
export async function startViewerServer(options: ViewerServerOptions): Promise<ViewerServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const staticRoot = await Deno.realPath(
    options.staticRoot ?? new URL("./static/", import.meta.url).pathname,
  );
  const tiles = options.tiles ?? DEFAULT_TILE_URL;
  const attribution = options.attribution ??
    (tiles === DEFAULT_TILE_URL ? OSM_ATTRIBUTION : "");
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const source = options.source;
  const clients = new Set<_Client>();
  const counters = { connections: 0, framesSent: 0, framesDropped: 0 };

  const hello = (): HelloMessage => {
    if (source.kind === "live") {
      const live = source.live;
      return {
        type: "hello",
        protocol: FRAME_PROTOCOL_VERSION,
        mode: "live",
        scene: live.scene,
        views: live.views,
        seed: live.seed,
        agents: live.agents,
        dt: live.dt,
        frameRate: live.frameRate,
        timeline: null,
        tiles: { url: tiles, attribution },
      };
    }
    const recordings = source.recordings;
    const first = recordings[0].data;
    return {
      type: "hello",
      protocol: FRAME_PROTOCOL_VERSION,
      mode: "replay",
      scene: replayScene(recordings),
      views: replayViews(recordings),
      seed: first.header.seed,
      agents: first.frames[0]?.count ?? 0,
      dt: first.header.dt ?? 1 / first.frameRate,
      frameRate: first.frameRate,
      timeline: replayTimeline(recordings),
      tiles: { url: tiles, attribution },
    };
  };

  const sendFrames = (client: _Client, frames: ArrayBuffer[], debug: ArrayBuffer[]) => {
    const socket = client.socket;
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > maxBuffered) {
      client.dropped++;
      counters.framesDropped++;
      return;
    }
    for (const frame of frames) socket.send(frame);
    for (const d of debug) socket.send(d);
    client.sent++;
    counters.framesSent++;
  };

  const status = (client: _Client): StatusMessage => ({
    type: "status",
    paused: source.kind === "live" ? source.live.paused : client.player?.paused ?? true,
    speed: source.kind === "live" ? source.live.speed : client.player?.speed ?? 1,
    dropped: client.dropped,
    sent: client.sent,
  });

  const broadcastStatus = () => {
    for (const c of clients) c.post(status(c));
  };

  if (source.kind === "live") {
    const live = source.live;
    live.onTick = (tick: LiveTick) => {
      for (const c of clients) sendFrames(c, tick.frames, tick.debug);
    };
    live.onReset = () => {
      for (const c of clients) {
        c.post(hello());
        c.post(status(c));
      }
    };
    live.onError = (message) => {
      for (const c of clients) c.post({ type: "error", message });
      broadcastStatus();
    };
  }
  const statusTimer = setInterval(broadcastStatus, STATUS_EVERY_MS);

  const handleCommand = async (client: _Client, command: ClientCommand) => {
    if (source.kind === "live") {
      const live = source.live;
      switch (command.type) {
        case "pause":
          if (command.paused) live.pause();
          else live.resume();
          return broadcastStatus();
        case "speed":
          live.setSpeed(command.speed);
          return broadcastStatus();
        case "step":
          if (command.delta > 0) live.step(command.delta);
          return;
        case "restart":
          await live.restart(command.seed);
          return;
        case "inspect":
          return client.post({
            type: "inspect",
            view: command.view,
            id: command.id,
            state: await live.inspect(command.view, command.id),
          });
        case "overlays":
          return live.setOverlays(command.names, command.focus);
        case "seek":
          return;
      }
    }
    const player = client.player!;
    switch (command.type) {
      case "pause":
        player.setPaused(command.paused);
        return client.post(status(client));
      case "speed":
        player.setSpeed(command.speed);
        return client.post(status(client));
      case "step":
        player.step(command.delta);
        return client.post(status(client));
      case "seek":
        player.seek(command.time);
        return;
      case "inspect":
        return client.post({
          type: "inspect",
          view: command.view,
          id: command.id,
          state: player.inspect(command.view, command.id),
        });
      case "restart":
      case "overlays":
        return;
    }
  };

  const accept = (request: Request): Response => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.binaryType = "arraybuffer";
    const client = new _Client(socket);
    counters.connections++;
    socket.onopen = () => {
      clients.add(client);
      client.post(hello());
      if (source.kind === "replay") {
        client.player = new ReplayPlayer(
          source.recordings,
          (frames) => sendFrames(client, frames, []),
        );
        client.player.emit();
      } else if (source.live.latest) {
        sendFrames(client, source.live.latest.frames, source.live.latest.debug);
      }
      client.post(status(client));
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      const command = parseClientCommand(event.data);
      if (!command) return;
      handleCommand(client, command).catch((error) =>
        client.post({ type: "error", message: (error as Error).message.split("\n")[0] })
      );
    };
    const drop = () => {
      clients.delete(client);
      client.player?.close();
      client.player = null;
    };
    socket.onclose = drop;
    socket.onerror = drop;
    return response;
  };

  const serveStatic = async (path: string): Promise<Response> => {
    const lookup = resolveStaticPath(staticRoot, path, "/static/");
    if (lookup.status !== 200) return _plain(lookup.status);
    if (!(await insideRoot(staticRoot, lookup.path))) return _plain(404);
    const body = await Deno.readFile(lookup.path);
    return new Response(body, {
      headers: { "content-type": lookup.contentType, "cache-control": "no-cache" },
    });
  };

  const handler = (request: Request): Response | Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    if (request.method !== "GET" && request.method !== "HEAD") return _plain(405);
    if (/(^|\/)\.\.?(\/|$)|%2e|%2f|%5c|\\/i.test(path)) {
      // Dot segments (raw or escaped) and escaped separators are never part of a served path.
      return path.startsWith("/static/") ? serveStatic(path) : _plain(403);
    }
    if (path === "/ws") {
      if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return _plain(426);
      return accept(request);
    }
    if (path === "/" || path === "/index.html") return serveStatic("/static/index.html");
    if (path === "/app.js") {
      return new Response(options.bundle.slice(), {
        headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
      });
    }
    if (path === "/stats") {
      if (url.searchParams.has("gc")) {
        (globalThis as { gc?: () => void }).gc?.();
      }
      return Response.json(stats());
    }
    if (path.startsWith("/static/")) return serveStatic(path);
    return _plain(404);
  };

  const stats = (): ViewerServerStats => {
    const m = Deno.memoryUsage();
    return {
      clients: clients.size,
      ...counters,
      memory: { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external },
    };
  };

  const listening = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname,
    port: options.port ?? 8080,
    onListen: (address) => listening.resolve(address as Deno.NetAddr),
    onError: (error) => {
      console.error(`viewer: ${(error as Error).message.split("\n")[0]}`);
      return _plain(500);
    },
  }, handler);
  const address = await Promise.race([
    listening.promise,
    server.finished.then(() => {
      throw new Error(`Cannot listen on ${hostname}:${options.port ?? 8080}`);
    }),
  ]);
  const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    stats,
    finished: server.finished,
    async close() {
      clearInterval(statusTimer);
      for (const c of clients) {
        c.player?.close();
        try {
          c.socket.close(1001, "server closing");
        } catch {
          // Already closing.
        }
      }
      clients.clear();
      await server.shutdown();
    },
  };
}

/** One connected page. */
class _Client {
  readonly socket: WebSocket;
  sent = 0;
  dropped = 0;
  player: ReplayPlayer | null = null;

  constructor(socket: WebSocket) {
    this.socket = socket;
  }

  post(message: ServerMessage): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }
}

function _plain(status: number): Response {
  const text: Record<number, string> = {
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    426: "Upgrade Required",
    500: "Internal Server Error",
  };
  return new Response(`${text[status] ?? status}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

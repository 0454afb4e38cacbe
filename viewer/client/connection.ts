/// <reference lib="dom" />
/**
 * The page's WebSocket to the viewer server: binary agent frames, debug geometry and traffic (decoded
 * without copying, see `viewer/frame_protocol.ts`), JSON control messages, and commands back.
 * Reconnects after a second when the server goes away.
 *
 * @module
 */
import {
  type AgentFrame,
  type ClientCommand,
  type DebugSegments,
  decodeAgentFrame,
  decodeDebugSegments,
  MessageKind,
  messageKind,
  type ServerMessage,
} from "../frame_protocol.ts";
import { decodeTrafficFrame, type TrafficFrame } from "../traffic_frame.ts";

/** What the connection reports to the page. */
export interface ConnectionHandlers {
  /** A JSON message from the server. */
  onMessage(message: ServerMessage): void;
  /** An agent frame. */
  onFrame(frame: AgentFrame, bytes: number): void;
  /** Debug overlay geometry. */
  onDebug(debug: DebugSegments): void;
  /** Cars, signal states and crossing states (scenes with cars). */
  onTraffic(traffic: TrafficFrame): void;
  /** The socket opened (true) or closed (false). */
  onConnected(connected: boolean): void;
}

/** A reconnecting WebSocket to `/ws` of the page's origin. */
export class ViewerConnection {
  #socket: WebSocket | null = null;
  #handlers: ConnectionHandlers;
  #url: string;

  /** Connects to `url` (default: `ws(s)://<page host>/ws`). */
  constructor(handlers: ConnectionHandlers, url?: string) {
    this.#handlers = handlers;
    this.#url = url ?? `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    this.#open();
  }

  /** Sends a command; dropped while disconnected. */
  send(command: ClientCommand): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(command));
  }

  #open(): void {
    const socket = new WebSocket(this.#url);
    socket.binaryType = "arraybuffer";
    this.#socket = socket;
    socket.onopen = () => this.#handlers.onConnected(true);
    socket.onclose = () => {
      this.#handlers.onConnected(false);
      setTimeout(() => this.#open(), 1000);
    };
    socket.onmessage = (event) => {
      if (typeof event.data === "string") {
        this.#handlers.onMessage(JSON.parse(event.data) as ServerMessage);
        return;
      }
      const buffer = event.data as ArrayBuffer;
      const kind = messageKind(buffer);
      if (kind === MessageKind.frame) {
        this.#handlers.onFrame(decodeAgentFrame(buffer), buffer.byteLength);
      } else if (kind === MessageKind.debug) this.#handlers.onDebug(decodeDebugSegments(buffer));
      else if (kind === MessageKind.traffic) this.#handlers.onTraffic(decodeTrafficFrame(buffer));
    };
  }
}

/**
 * The viewer's wire protocol between the server (`deno task view`) and the page, shared by both
 * sides. Per-agent data travels only as binary WebSocket messages whose columns the page hands
 * to deck.gl as binary attributes without copying; small control messages (hello, status,
 * inspection results, page commands) are JSON text messages.
 *
 * ## Binary messages
 *
 * Little-endian. Every binary message starts with the same 4 bytes: message kind (u8), protocol
 * version (u8, {@linkcode FRAME_PROTOCOL_VERSION}), view index (u8, 0–3: which side-by-side view
 * it belongs to), flags (u8).
 *
 * **Agent frame** (kind {@linkcode MessageKind.frame} = 1): the agents of one view at one step.
 * `n` agents take `56 + 25·n` bytes rounded up to a multiple of 4:
 *
 * | offset | size | type | field |
 * | --- | --- | --- | --- |
 * | 0 | 1 | u8 | kind = 1 |
 * | 1 | 1 | u8 | protocol version |
 * | 2 | 1 | u8 | view index |
 * | 3 | 1 | u8 | flags: bit 0 paused, bit 1 replay, bit 2 finished |
 * | 4 | 4 | u32 | `n`, agent count |
 * | 8 | 4 | u32 | step index (live) or frame index (replay) |
 * | 12 | 4 | f32 | wall-clock ms of the last step (NaN in replay) |
 * | 16 | 8 | f64 | simulation time (s) |
 * | 24 | 8 | f64 | collisions so far (the metrics collector's count) |
 * | 32 | 4 | u32 | arrivals so far |
 * | 36 | 4 | u32 | trips started so far |
 * | 40 | 4 | f32 | mean speed of the agents not yet arrived, now (m/s) |
 * | 44 | 4 | f32 | salsa count so far (NaN when the run has no `salsa` metric) |
 * | 48 | 4 | f32 | time factor: simulated seconds per wall-clock second, recently |
 * | 52 | 4 | u32 | reserved (0) |
 * | 56 | 8`n` | f32 | positions `x0, y0, x1, y1, …` (m, local frame of the scenario) |
 * | 56 + 8`n` | 8`n` | f32 | velocities `vx0, vy0, …` (m/s) |
 * | 56 + 16`n` | 4`n` | u32 | trajectory ids (unique per trip) |
 * | 56 + 20`n` | 4`n` | f32 | body radius (m) |
 * | 56 + 24`n` | `n` | u8 | state code ({@linkcode AgentStateCode}) |
 * | 56 + 25`n` | 0–3 | zero | padding |
 *
 * Every column starts at a multiple of 4 (8 for positions and velocities), so a receiver views
 * them as typed arrays of the message's `ArrayBuffer` without copying.
 *
 * **Debug geometry** (kind {@linkcode MessageKind.debug} = 2): line segments of the debug
 * overlays (rays, chosen cluster, swept box, neighbour links, paths) of one view. `m` segments
 * take `16 + 20·m` bytes:
 *
 * | offset | size | type | field |
 * | --- | --- | --- | --- |
 * | 0 | 4 | u8 ×4 | kind = 2, version, view index, flags (0) |
 * | 4 | 4 | u32 | `m`, segment count |
 * | 8 | 4 | u32 | step index the geometry belongs to |
 * | 12 | 4 | u32 | reserved (0) |
 * | 16 | 16`m` | f32 | segments `x0, y0, x1, y1` (m) |
 * | 16 + 16`m` | 4`m` | u8 | RGBA colour of each segment |
 *
 * **Traffic state** (kind {@linkcode MessageKind.traffic} = 3): the cars, the signal heads' states
 * and the pedestrians' crossing states of one view at one step, sent with each agent frame of a
 * scene with traffic (layout in `viewer/traffic_frame.ts`). The signal heads and the crosswalk
 * stripes themselves are static: they come once, in the hello's {@linkcode TrafficSceneInfo}.
 *
 * ## JSON messages
 *
 * Server to page: {@linkcode HelloMessage} once per connection (and after a restart), then
 * {@linkcode StatusMessage}s and {@linkcode InspectResultMessage}s. Page to server:
 * {@linkcode ClientCommand}s.
 *
 * @module
 */

/** Version of the binary layout written in byte 1 of every binary message. */
export const FRAME_PROTOCOL_VERSION = 1;

/** Kinds of binary message (byte 0). */
export const MessageKind = {
  /** Agents of one view at one step. */
  frame: 1,
  /** Debug overlay segments of one view. */
  debug: 2,
  /** Cars, signal states and crossing states of one view (`viewer/traffic_frame.ts`). */
  traffic: 3,
} as const;

/** Flag bits of byte 3 of an agent frame. */
export const FrameFlags = {
  /** The simulation (or playback) is paused. */
  paused: 1,
  /** The frame comes from a recording. */
  replay: 2,
  /** Every agent has arrived and no spawner will emit again. */
  finished: 4,
} as const;

/**
 * Agent state codes of the frame's state column, for colouring by state.
 * `avoiding` and `blocked` come from strategies that expose them (see `viewer/agent_state.ts`).
 */
export const AgentStateCode = {
  /** Walking at more than half its desired speed. */
  walking: 0,
  /** Walking at less than half its desired speed. */
  slowed: 1,
  /** Slower than 0.1 m/s. */
  stopped: 2,
  /** Reached its goal. */
  arrived: 3,
  /** Held in place by the scenario. */
  frozen: 4,
  /** The strategy is steering around something. */
  avoiding: 5,
  /** The strategy finds no way through. */
  blocked: 6,
} as const;

/** Names of the state codes, indexed by code. */
export const AGENT_STATE_NAMES: readonly string[] = [
  "walking",
  "slowed",
  "stopped",
  "arrived",
  "frozen",
  "avoiding",
  "blocked",
];

/** Bytes of the agent frame header. */
export const FRAME_HEADER_BYTES = 56;

/** Bytes of the debug message header. */
export const DEBUG_HEADER_BYTES = 16;

/**
 * Byte length of an agent frame of `count` agents: `56 + 25·count` rounded up to 4.
 *
 * @example
 * ```ts
 * import { agentFrameBytes } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * assert.equal(agentFrameBytes(0), 56);
 * assert.equal(agentFrameBytes(10_000), 250_056);
 * ```
 */
export function agentFrameBytes(count: number): number {
  return (FRAME_HEADER_BYTES + 25 * count + 3) & ~3;
}

/**
 * Byte length of a debug message of `segments` segments: `16 + 20·segments`.
 *
 * @example
 * ```ts
 * import { debugMessageBytes } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * assert.equal(debugMessageBytes(2), 56);
 * ```
 */
export function debugMessageBytes(segments: number): number {
  return DEBUG_HEADER_BYTES + 20 * segments;
}

/** The scalar fields of an agent frame (everything but the columns). */
export interface FrameHeader {
  /** View index (0–3). */
  view: number;
  /** {@linkcode FrameFlags} bits. */
  flags: number;
  /** Agent count. */
  count: number;
  /** Step index (live) or frame index (replay). */
  step: number;
  /** Wall-clock ms of the last step; NaN in replay. */
  msPerStep: number;
  /** Simulation time (s). */
  time: number;
  /** Collisions so far. */
  collisions: number;
  /** Arrivals so far. */
  arrivals: number;
  /** Trips started so far. */
  trips: number;
  /** Mean speed of the walking agents now (m/s). */
  meanSpeed: number;
  /** Salsa count so far; NaN when unknown. */
  salsa: number;
  /** Simulated seconds per wall-clock second, recently. */
  timeFactor: number;
}

/** An agent frame: header fields plus typed-array views of its columns. */
export interface AgentFrame extends FrameHeader {
  /** Interleaved positions `x, y` (m), length `2·count`. */
  positions: Float32Array;
  /** Interleaved velocities `vx, vy` (m/s), length `2·count`. */
  velocities: Float32Array;
  /** Trajectory ids. */
  ids: Uint32Array;
  /** Body radius (m). */
  radius: Float32Array;
  /** {@linkcode AgentStateCode} of each agent. */
  state: Uint8Array;
}

/**
 * Allocates an agent frame of `count` agents and returns it with its column views, for the
 * sender to fill: `positions`, `velocities`, `ids`, `radius` and `state` are views of `buffer`.
 * Write the header with {@linkcode writeFrameHeader}.
 *
 * @example Allocate, fill and decode a frame of two agents
 * ```ts
 * import { allocateAgentFrame, decodeAgentFrame, writeFrameHeader } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * const frame = allocateAgentFrame(2);
 * frame.positions.set([1, 2, -3, 4.5]);
 * frame.ids.set([7, 9]);
 * writeFrameHeader(frame.buffer, {
 *   view: 1, flags: 0, count: 2, step: 40, msPerStep: 1.5, time: 2, collisions: 3, arrivals: 1,
 *   trips: 4, meanSpeed: 1.2, salsa: NaN, timeFactor: 1,
 * });
 * const decoded = decodeAgentFrame(frame.buffer);
 * assert.equal(decoded.view, 1);
 * assert.equal(decoded.step, 40);
 * assert.deepEqual([...decoded.positions], [1, 2, -3, 4.5]);
 * assert.deepEqual([...decoded.ids], [7, 9]);
 * ```
 */
export function allocateAgentFrame(count: number): Omit<AgentFrame, keyof FrameHeader> & {
  buffer: ArrayBuffer;
} {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(
      `Cannot allocate an agent frame as 'count' must be an integer >= 0: current value is ${count}`,
    );
  }
  const buffer = new ArrayBuffer(agentFrameBytes(count));
  return { buffer, ..._columnViews(buffer, count) };
}

/** Writes the header fields of an agent frame into `buffer` (kind and version included). */
export function writeFrameHeader(buffer: ArrayBuffer, header: FrameHeader): void {
  const view = new DataView(buffer);
  view.setUint8(0, MessageKind.frame);
  view.setUint8(1, FRAME_PROTOCOL_VERSION);
  view.setUint8(2, header.view);
  view.setUint8(3, header.flags);
  view.setUint32(4, header.count, true);
  view.setUint32(8, header.step >>> 0, true);
  view.setFloat32(12, header.msPerStep, true);
  view.setFloat64(16, header.time, true);
  view.setFloat64(24, header.collisions, true);
  view.setUint32(32, header.arrivals >>> 0, true);
  view.setUint32(36, header.trips >>> 0, true);
  view.setFloat32(40, header.meanSpeed, true);
  view.setFloat32(44, header.salsa, true);
  view.setFloat32(48, header.timeFactor, true);
  view.setUint32(52, 0, true);
}

/**
 * Rewrites the view index and flags of an encoded agent frame (a replay frame is sent to
 * several pages with their own pause state).
 */
export function setFrameViewAndFlags(buffer: ArrayBuffer, view: number, flags: number): void {
  const bytes = new Uint8Array(buffer, 0, 4);
  bytes[2] = view;
  bytes[3] = flags;
}

/**
 * Reads an agent frame; the columns are views of `buffer` (no copy). Throws a RangeError naming
 * the problem when the message is not an agent frame of this protocol version or its length
 * does not match its agent count.
 *
 * @example A debug message is not an agent frame
 * ```ts
 * import { decodeAgentFrame, encodeDebugSegments } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * const debug = encodeDebugSegments(0, 0, new Float32Array(0), new Uint8Array(0));
 * assert.throws(() => decodeAgentFrame(debug), /kind 2 is not an agent frame/);
 * ```
 */
export function decodeAgentFrame(buffer: ArrayBuffer): AgentFrame {
  const view = new DataView(buffer);
  const kind = buffer.byteLength > 0 ? view.getUint8(0) : -1;
  if (kind !== MessageKind.frame) {
    throw new RangeError(`Cannot decode agent frame: message kind ${kind} is not an agent frame`);
  }
  if (buffer.byteLength < FRAME_HEADER_BYTES) {
    throw new RangeError(
      `Cannot decode agent frame: ${buffer.byteLength} bytes is shorter than its 56-byte header`,
    );
  }
  const version = view.getUint8(1);
  if (version !== FRAME_PROTOCOL_VERSION) {
    throw new RangeError(
      `Cannot decode agent frame: protocol version ${version} is not ${FRAME_PROTOCOL_VERSION}`,
    );
  }
  const count = view.getUint32(4, true);
  if (buffer.byteLength !== agentFrameBytes(count)) {
    throw new RangeError(
      `Cannot decode agent frame: ${buffer.byteLength} bytes but ${count} agents take ${
        agentFrameBytes(count)
      }`,
    );
  }
  return {
    view: view.getUint8(2),
    flags: view.getUint8(3),
    count,
    step: view.getUint32(8, true),
    msPerStep: view.getFloat32(12, true),
    time: view.getFloat64(16, true),
    collisions: view.getFloat64(24, true),
    arrivals: view.getUint32(32, true),
    trips: view.getUint32(36, true),
    meanSpeed: view.getFloat32(40, true),
    salsa: view.getFloat32(44, true),
    timeFactor: view.getFloat32(48, true),
    ..._columnViews(buffer, count),
  };
}

/** Debug overlay segments of one view. */
export interface DebugSegments {
  /** View index (0–3). */
  view: number;
  /** Step the geometry belongs to. */
  step: number;
  /** Segment count. */
  count: number;
  /** `x0, y0, x1, y1` per segment (m), length `4·count`. */
  segments: Float32Array;
  /** RGBA per segment, length `4·count`. */
  colors: Uint8Array;
}

/**
 * Encodes debug overlay segments (`segments`: `x0, y0, x1, y1` each; `colors`: RGBA each).
 *
 * @example Round trip of one red segment
 * ```ts
 * import { decodeDebugSegments, encodeDebugSegments } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * const buffer = encodeDebugSegments(2, 17, Float32Array.of(0, 0, 1, 0), Uint8Array.of(255, 0, 0, 255));
 * const debug = decodeDebugSegments(buffer);
 * assert.equal(debug.view, 2);
 * assert.equal(debug.count, 1);
 * assert.deepEqual([...debug.segments], [0, 0, 1, 0]);
 * ```
 */
export function encodeDebugSegments(
  view: number,
  step: number,
  segments: Float32Array,
  colors: Uint8Array,
): ArrayBuffer {
  const count = segments.length >> 2;
  if (segments.length !== 4 * count || colors.length < 4 * count) {
    throw new RangeError(
      `Cannot encode debug segments: ${segments.length} coordinates and ${colors.length} colour bytes do not make whole segments`,
    );
  }
  const buffer = new ArrayBuffer(debugMessageBytes(count));
  const header = new DataView(buffer);
  header.setUint8(0, MessageKind.debug);
  header.setUint8(1, FRAME_PROTOCOL_VERSION);
  header.setUint8(2, view);
  header.setUint32(4, count, true);
  header.setUint32(8, step >>> 0, true);
  new Float32Array(buffer, DEBUG_HEADER_BYTES, 4 * count).set(segments);
  new Uint8Array(buffer, DEBUG_HEADER_BYTES + 16 * count, 4 * count).set(
    colors.subarray(0, 4 * count),
  );
  return buffer;
}

/** Reads a debug message; the arrays are views of `buffer`. Throws a RangeError when malformed. */
export function decodeDebugSegments(buffer: ArrayBuffer): DebugSegments {
  const view = new DataView(buffer);
  if (buffer.byteLength < DEBUG_HEADER_BYTES || view.getUint8(0) !== MessageKind.debug) {
    throw new RangeError("Cannot decode debug segments: not a debug message");
  }
  const count = view.getUint32(4, true);
  if (buffer.byteLength !== debugMessageBytes(count)) {
    throw new RangeError(
      `Cannot decode debug segments: ${buffer.byteLength} bytes but ${count} segments take ${
        debugMessageBytes(count)
      }`,
    );
  }
  return {
    view: view.getUint8(2),
    step: view.getUint32(8, true),
    count,
    segments: new Float32Array(buffer, DEBUG_HEADER_BYTES, 4 * count),
    colors: new Uint8Array(buffer, DEBUG_HEADER_BYTES + 16 * count, 4 * count),
  };
}

/**
 * The kind of a binary message (byte 0), or -1 when it is empty.
 *
 * @example
 * ```ts
 * import { allocateAgentFrame, messageKind, MessageKind, writeFrameHeader } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * const frame = allocateAgentFrame(0);
 * writeFrameHeader(frame.buffer, {
 *   view: 0, flags: 0, count: 0, step: 0, msPerStep: 0, time: 0, collisions: 0, arrivals: 0,
 *   trips: 0, meanSpeed: 0, salsa: NaN, timeFactor: 1,
 * });
 * assert.equal(messageKind(frame.buffer), MessageKind.frame);
 * ```
 */
export function messageKind(buffer: ArrayBuffer): number {
  return buffer.byteLength === 0 ? -1 : new Uint8Array(buffer, 0, 1)[0];
}

function _columnViews(buffer: ArrayBuffer, n: number) {
  const at = FRAME_HEADER_BYTES;
  return {
    positions: new Float32Array(buffer, at, 2 * n),
    velocities: new Float32Array(buffer, at + 8 * n, 2 * n),
    ids: new Uint32Array(buffer, at + 16 * n, n),
    radius: new Float32Array(buffer, at + 20 * n, n),
    state: new Uint8Array(buffer, at + 24 * n, n),
  };
}

// ---------------------------------------------------------------------------------------------
// JSON messages

/** A point `[x, y]` in metres. */
export type MetrePoint = [number, number];

/** Static scene description sent in the hello message. */
export interface SceneInfo {
  /** Scenario name (or the recording's). */
  name: string;
  /** WGS84 position of the local origin. */
  anchor: { lon: number; lat: number };
  /** True when the scenario had no anchor and the viewer's default square is used. */
  defaultAnchor: boolean;
  /** Region to frame at start (m). */
  bounds: { minX: number; minY: number; maxX: number; maxY: number };
  /** Solid obstacle polygons (m), counter-clockwise. */
  polygons: MetrePoint[][];
  /** Heights of the polygons (m), or null when unknown (drawn flat). */
  polygonHeights: (number | null)[];
  /** Wall polylines (m). */
  walls: MetrePoint[][];
  /** The city under the crowd (scenarios on a map), drawn as its own layers. @default none */
  city?: CitySceneLayers;
  /** Traffic lights, walk signals and crosswalk stripes (scenes with cars). @default none */
  traffic?: TrafficSceneInfo;
}

/** Kinds of signal heads of a {@linkcode TrafficSceneInfo}. */
export type SignalHeadKind = "vehicle" | "walk";

/**
 * The static traffic geometry of a scene with cars (local metres, see `viewer/traffic_scene.ts`).
 * The state of each signal head changes with time and travels in the traffic messages, one byte
 * per head in this order: a `SignalColor` (0 green, 1 yellow, 2 red) for a vehicle light, a
 * `WalkSignal` (0 walk, 1 flashing, 2 don't walk) for a walk signal.
 */
export interface TrafficSceneInfo {
  /** Signal heads: where they stand (m) and what they show. */
  signals: { position: MetrePoint; kind: SignalHeadKind }[];
  /** Crosswalk stripes, each a quadrilateral of four corners (m). */
  stripes: MetrePoint[][];
  /** Sidewalks: the outer ring of each block between the streets (m). */
  sidewalks: MetrePoint[][];
  /** Names of the pedestrians' crossing states, by code (empty without crossing states). */
  crossingStates: string[];
}

/** How a street is drawn. */
export type StreetKind = "road" | "footway" | "pedestrian" | "steps" | "crossing";

/** A city's layers in a scene (local metres; see `viewer/city_scene.ts`). */
export interface CitySceneLayers {
  /** The city's name. */
  name: string;
  /** Attribution the page must show (e.g. "© OpenStreetMap contributors"), or null. */
  attribution: string | null;
  /** Building footprints (outer ring, then holes) and heights (m). */
  buildings: { rings: MetrePoint[][]; height: number }[];
  /** Street centre lines with their width (m) and kind. */
  streets: { path: MetrePoint[]; width: number; kind: StreetKind }[];
  /** Crossings, kerb to kerb, with their width (m); `signalled` when a light controls them. */
  crossings: { path: MetrePoint[]; width: number; signalled: boolean }[];
  /** Traffic signals. */
  signals: MetrePoint[];
  /** The navigation mesh: six coordinates per triangle `[ax, ay, bx, by, cx, cy, …]`, or null. */
  navmesh: number[] | null;
}

/** One side-by-side view. */
export interface ViewInfo {
  /** View index (0–3), as in the binary messages. */
  index: number;
  /** Strategy name (live) or the recording's strategy or file name (replay). */
  strategy: string;
  /** Heading of the view's panel. */
  label: string;
  /** Debug overlays this view can draw. */
  overlays: OverlayName[];
}

/** Names of the debug overlays. */
export type OverlayName =
  | "rays"
  | "cluster"
  | "box"
  | "links"
  | "paths"
  | "streets"
  | "crossing";

/** Every debug overlay, in menu order. */
export const OVERLAY_NAMES: readonly OverlayName[] = [
  "rays",
  "cluster",
  "box",
  "links",
  "paths",
  "streets",
  "crossing",
];

/** First message of every connection, and again after a restart. */
export interface HelloMessage {
  /** Message type. */
  type: "hello";
  /** {@linkcode FRAME_PROTOCOL_VERSION}. */
  protocol: number;
  /** Live simulation or replay of recordings. */
  mode: "live" | "replay";
  /** The scene. */
  scene: SceneInfo;
  /** The views, two to four (one is allowed for a single recording). */
  views: ViewInfo[];
  /** Seed of the live runs (null in replay). */
  seed: number | null;
  /** Agents requested (live) or in the first frame (replay). */
  agents: number;
  /** Simulation time step (s). */
  dt: number;
  /** Frames per second the server sends at speed 1 (Hz). */
  frameRate: number;
  /** Replay timeline: first and last time (s) and frame counts per view; null when live. */
  timeline: { startTime: number; endTime: number; frames: number[] } | null;
  /** Basemap: XYZ URL template and its attribution. */
  tiles: { url: string; attribution: string };
}

/** Playback state, sent on every change and about once a second. */
export interface StatusMessage {
  /** Message type. */
  type: "status";
  /** Paused? */
  paused: boolean;
  /** Speed multiplier (1 = real time). */
  speed: number;
  /** Frames not sent to this page because it was still receiving earlier ones. */
  dropped: number;
  /** Frames sent to this page. */
  sent: number;
}

/** Answer to an inspect command. */
export interface InspectResultMessage {
  /** Message type. */
  type: "inspect";
  /** View index. */
  view: number;
  /** Trajectory id asked for. */
  id: number;
  /** The agent's state and its strategy's internals, or null when it is gone. */
  state: Record<string, number | string | boolean> | null;
}

/** An error the page should show. */
export interface ErrorMessage {
  /** Message type. */
  type: "error";
  /** One line. */
  message: string;
}

/** Any JSON message from the server. */
export type ServerMessage = HelloMessage | StatusMessage | InspectResultMessage | ErrorMessage;

/** Commands the page sends. */
export type ClientCommand =
  | { type: "pause"; paused: boolean }
  | { type: "speed"; speed: number }
  | { type: "step"; delta: number }
  | { type: "seek"; time: number }
  | { type: "restart"; seed: number }
  | { type: "inspect"; view: number; id: number }
  | { type: "overlays"; names: OverlayName[]; focus: number | null };

/** Speed multipliers the page offers. */
export const SPEEDS: readonly number[] = [0.25, 0.5, 1, 2, 4, 8];

/**
 * Parses a command from the page; returns null for anything malformed (the server ignores it).
 *
 * @example
 * ```ts
 * import { parseClientCommand } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseClientCommand('{"type":"pause","paused":true}'), { type: "pause", paused: true });
 * assert.equal(parseClientCommand('{"type":"speed","speed":-1}'), null);
 * assert.equal(parseClientCommand("not json"), null);
 * ```
 */
export function parseClientCommand(text: string): ClientCommand | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== "object") return null;
  const o = value as Record<string, unknown>;
  const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
  const uint = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;
  switch (o.type) {
    case "pause":
      return typeof o.paused === "boolean" ? { type: "pause", paused: o.paused } : null;
    case "speed":
      return finite(o.speed) && o.speed > 0 && o.speed <= 64
        ? { type: "speed", speed: o.speed }
        : null;
    case "step":
      return Number.isInteger(o.delta) && Math.abs(o.delta as number) <= 1000
        ? { type: "step", delta: o.delta as number }
        : null;
    case "seek":
      return finite(o.time) ? { type: "seek", time: o.time } : null;
    case "restart":
      return uint(o.seed) && o.seed <= 0xffff_ffff ? { type: "restart", seed: o.seed } : null;
    case "inspect":
      return uint(o.view) && uint(o.id) ? { type: "inspect", view: o.view, id: o.id } : null;
    case "overlays": {
      if (!Array.isArray(o.names)) return null;
      const names = o.names.filter((n): n is OverlayName => OVERLAY_NAMES.includes(n));
      const focus = o.focus === null || o.focus === undefined ? null : o.focus;
      if (focus !== null && !uint(focus)) return null;
      return { type: "overlays", names, focus };
    }
    default:
      return null;
  }
}

/**
 * The traffic message of the viewer protocol (kind {@linkcode MessageKind.traffic} = 3): the cars
 * of one view at one step as oriented rectangles, the state of every signal head of the scene's
 * {@linkcode TrafficSceneInfo}, and each pedestrian's crossing state. Shared by the server, which
 * encodes it beside each agent frame, and the page, which hands the columns to deck.gl.
 *
 * Little-endian. `c` cars, `s` signal heads and `n` pedestrians take `24 + 24·c + s + n` bytes
 * rounded up to a multiple of 4:
 *
 * | offset | size | type | field |
 * | --- | --- | --- | --- |
 * | 0 | 4 | u8 ×4 | kind = 3, protocol version, view index, flags (0) |
 * | 4 | 4 | u32 | `c`, car count |
 * | 8 | 4 | u32 | `s`, signal head count |
 * | 12 | 4 | u32 | `n`, crossing states (the agent frame's count, or 0 when the run has none) |
 * | 16 | 4 | u32 | step index the state belongs to |
 * | 20 | 4 | u32 | reserved (0) |
 * | 24 | 8`c` | f32 | car centres `x0, y0, x1, y1, …` (m) |
 * | 24 + 8`c` | 4`c` | f32 | heading of each car (radians from +x, counter-clockwise) |
 * | 24 + 12`c` | 4`c` | f32 | speed (m/s) |
 * | 24 + 16`c` | 4`c` | f32 | length, bumper to bumper (m) |
 * | 24 + 20`c` | 4`c` | f32 | width (m) |
 * | 24 + 24`c` | `s` | u8 | state of each signal head (`SignalColor` or `WalkSignal`) |
 * | 24 + 24`c` + `s` | `n` | u8 | crossing state of each pedestrian, in the agent frame's order |
 * | … | 0–3 | zero | padding |
 *
 * Every column starts at a multiple of 4, so the page views them as typed arrays of the message
 * without copying.
 *
 * @module
 */
import { FRAME_PROTOCOL_VERSION, MessageKind, type TrafficSceneInfo } from "./frame_protocol.ts";

/** Bytes of the traffic message header. */
export const TRAFFIC_HEADER_BYTES = 24;

/**
 * Byte length of a traffic message of `cars` cars, `signals` signal heads and `states` crossing
 * states: `24 + 24·cars + signals + states` rounded up to 4.
 *
 * @example
 * ```ts
 * import { trafficFrameBytes } from "./traffic_frame.ts";
 * import assert from "node:assert/strict";
 * assert.equal(trafficFrameBytes(0, 0, 0), 24);
 * assert.equal(trafficFrameBytes(2_000, 196, 10_000), 58_220);
 * ```
 */
export function trafficFrameBytes(cars: number, signals: number, states: number): number {
  return (TRAFFIC_HEADER_BYTES + 24 * cars + signals + states + 3) & ~3;
}

/** A traffic message: counts plus typed-array views of its columns. */
export interface TrafficFrame {
  /** View index (0–3). */
  view: number;
  /** Step the state belongs to. */
  step: number;
  /** Car count. */
  cars: number;
  /** Signal head count. */
  signals: number;
  /** Crossing states (0 when the run has none). */
  states: number;
  /** Car centres `x, y` (m), length `2·cars`. */
  centres: Float32Array;
  /** Car headings (radians from +x, counter-clockwise). */
  heading: Float32Array;
  /** Car speeds (m/s). */
  speed: Float32Array;
  /** Car lengths (m). */
  length: Float32Array;
  /** Car widths (m). */
  width: Float32Array;
  /** State of each signal head (`SignalColor` for vehicle lights, `WalkSignal` for walk signals). */
  signalState: Uint8Array;
  /** Crossing state of each pedestrian (`CrossingAction` codes), in the agent frame's order. */
  crossingState: Uint8Array;
}

/**
 * Allocates a traffic message with its header written and its columns zero, for the sender to
 * fill through the returned views.
 *
 * @example Round trip of one car and two signal heads
 * ```ts
 * import { allocateTrafficFrame, decodeTrafficFrame } from "./traffic_frame.ts";
 * import assert from "node:assert/strict";
 * const frame = allocateTrafficFrame({ view: 1, step: 30, cars: 1, signals: 2, states: 0 });
 * frame.centres.set([4, -1.75]);
 * frame.length[0] = 4.5;
 * frame.signalState.set([0, 2]);
 * const decoded = decodeTrafficFrame(frame.buffer);
 * assert.equal(decoded.view, 1);
 * assert.deepEqual([...decoded.centres], [4, -1.75]);
 * assert.deepEqual([...decoded.signalState], [0, 2]);
 * ```
 */
export function allocateTrafficFrame(
  counts: { view: number; step: number; cars: number; signals: number; states: number },
): TrafficFrame & { buffer: ArrayBuffer } {
  for (const key of ["cars", "signals", "states"] as const) {
    const v = counts[key];
    if (!Number.isInteger(v) || v < 0) {
      throw new RangeError(
        `Cannot allocate a traffic frame as '${key}' must be an integer >= 0: current value is ${v}`,
      );
    }
  }
  const buffer = new ArrayBuffer(trafficFrameBytes(counts.cars, counts.signals, counts.states));
  const header = new DataView(buffer);
  header.setUint8(0, MessageKind.traffic);
  header.setUint8(1, FRAME_PROTOCOL_VERSION);
  header.setUint8(2, counts.view);
  header.setUint32(4, counts.cars, true);
  header.setUint32(8, counts.signals, true);
  header.setUint32(12, counts.states, true);
  header.setUint32(16, counts.step >>> 0, true);
  return { buffer, ...decodeTrafficFrame(buffer) };
}

/**
 * Reads a traffic message; the columns are views of `buffer` (no copy). Throws a RangeError
 * naming the problem when it is not a traffic message of this protocol version or its length
 * does not match its counts.
 *
 * @example A truncated message names both lengths
 * ```ts
 * import { allocateTrafficFrame, decodeTrafficFrame } from "./traffic_frame.ts";
 * import assert from "node:assert/strict";
 * const { buffer } = allocateTrafficFrame({ view: 0, step: 0, cars: 3, signals: 0, states: 0 });
 * assert.throws(() => decodeTrafficFrame(buffer.slice(0, 60)), /60 bytes but 3 cars/);
 * ```
 */
export function decodeTrafficFrame(buffer: ArrayBuffer): TrafficFrame {
  const view = new DataView(buffer);
  const kind = buffer.byteLength > 0 ? view.getUint8(0) : -1;
  if (kind !== MessageKind.traffic) {
    throw new RangeError(`Cannot decode traffic frame: message kind ${kind} is not traffic`);
  }
  if (buffer.byteLength < TRAFFIC_HEADER_BYTES) {
    throw new RangeError(
      `Cannot decode traffic frame: ${buffer.byteLength} bytes is shorter than its 24-byte header`,
    );
  }
  const version = view.getUint8(1);
  if (version !== FRAME_PROTOCOL_VERSION) {
    throw new RangeError(
      `Cannot decode traffic frame: protocol version ${version} is not ${FRAME_PROTOCOL_VERSION}`,
    );
  }
  const c = view.getUint32(4, true), s = view.getUint32(8, true), n = view.getUint32(12, true);
  const expected = trafficFrameBytes(c, s, n);
  if (buffer.byteLength !== expected) {
    throw new RangeError(
      `Cannot decode traffic frame: ${buffer.byteLength} bytes but ${c} cars, ${s} signal heads and ${n} crossing states take ${expected}`,
    );
  }
  const at = TRAFFIC_HEADER_BYTES;
  return {
    view: view.getUint8(2),
    step: view.getUint32(16, true),
    cars: c,
    signals: s,
    states: n,
    centres: new Float32Array(buffer, at, 2 * c),
    heading: new Float32Array(buffer, at + 8 * c, c),
    speed: new Float32Array(buffer, at + 12 * c, c),
    length: new Float32Array(buffer, at + 16 * c, c),
    width: new Float32Array(buffer, at + 20 * c, c),
    signalState: new Uint8Array(buffer, at + 24 * c, s),
    crossingState: new Uint8Array(buffer, at + 24 * c + s, n),
  };
}

/**
 * Writes the two end points of each car's centre line (rear, then front; m) into `out`
 * (length ≥ 4·cars): drawn as a line as wide as the car, that is the car's oriented rectangle.
 * Returns `out`.
 *
 * @example A 4 m car heading +y
 * ```ts
 * import { allocateTrafficFrame, carCentreLines } from "./traffic_frame.ts";
 * import assert from "node:assert/strict";
 * const frame = allocateTrafficFrame({ view: 0, step: 0, cars: 1, signals: 0, states: 0 });
 * frame.centres.set([10, 0]);
 * frame.heading[0] = Math.PI / 2;
 * frame.length[0] = 4;
 * const line = carCentreLines(frame, new Float32Array(4));
 * assert.deepEqual([...line].map((v) => Math.round(v * 1e6) / 1e6), [10, -2, 10, 2]);
 * ```
 */
export function carCentreLines(frame: TrafficFrame, out: Float32Array): Float32Array {
  const c = frame.cars, p = frame.centres, h = frame.heading, l = frame.length;
  for (let k = 0, o = 0; k < c; k++, o += 4) {
    const half = 0.5 * l[k], dx = Math.cos(h[k]) * half, dy = Math.sin(h[k]) * half;
    const x = p[2 * k], y = p[2 * k + 1];
    out[o] = x - dx;
    out[o + 1] = y - dy;
    out[o + 2] = x + dx;
    out[o + 3] = y + dy;
  }
  return out;
}

/** The scene's signal heads of `kind`, as indices into the traffic message's states. */
export function signalIndices(scene: TrafficSceneInfo, kind: "vehicle" | "walk"): number[] {
  const out: number[] = [];
  scene.signals.forEach((s, i) => s.kind === kind && out.push(i));
  return out;
}

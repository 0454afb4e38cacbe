/**
 * Binary trajectory files (`.bin`): compact, columnar and streamable, for replay in the viewer.
 *
 * ## Layout, version 2
 *
 * All numbers are little-endian. Offsets are in bytes.
 *
 * **Preamble and header**
 *
 * | offset | size | type | field |
 * | --- | --- | --- | --- |
 * | 0 | 8 | bytes | magic `89 54 48 52 4F 4E 47 0A` (`\x89THRONG\n`) |
 * | 8 | 4 | u32 | format version, `2` (readers also read version 1, below) |
 * | 12 | 4 | u32 | `H`, byte length of the header JSON |
 * | 16 | `H` | UTF-8 | header JSON (below) |
 * | 16 + `H` | `P` | spaces | `P = (4 - H % 4) % 4` bytes `0x20`, so frames start at a multiple of 4 |
 *
 * The header JSON is an object with these keys (readers ignore unknown keys; a missing key reads
 * as its null or empty value):
 *
 * - `frameRate` (number > 0, Hz), required: frames per second, `1 / (dt · every)`;
 * - `dt` (number, s, or null): simulation time step; `every` (integer or null): one frame every
 *   `every` steps; `startTime` (number, s): time of frame 0;
 * - `scenario`, `strategy`, `description` (string or null); `seed` (integer or null);
 * - `anchor`: `{ "lon": degrees, "lat": degrees }` (WGS84 position of the local origin) or null;
 * - `bounds`: `{ "minX", "minY", "maxX", "maxY" }` (m) of the geometry and the initial agents, or
 *   null;
 * - `polygons`: solid obstacles, an array of polygons, each an array of `[x, y]` points (m),
 *   counter-clockwise;
 * - `walls`: an array of polylines of `[x, y]` points (m); a closed wall repeats its first point at
 *   the end;
 * - `meta`: a free JSON object.
 *
 * **Frames** follow the padding, back to back until the end of the file. A frame holding `n`
 * agents takes `L = 20 + 29·n` bytes rounded up to a multiple of 4:
 *
 * | offset in frame | size | type | field |
 * | --- | --- | --- | --- |
 * | 0 | 4 | u32 | `L`, byte length of the whole frame, this field included |
 * | 4 | 4 | u32 | frame number (0, 1, 2, …: frame `k` is step `k · every` after recording began) |
 * | 8 | 8 | f64 | time (s) |
 * | 16 | 4 | u32 | `n`, agent count |
 * | 20 | 4`n` | u32 | trajectory ids (unique per trip, never reused in a run) |
 * | 20 + 4`n` | 4`n` | f32 | x (m) |
 * | 20 + 8`n` | 4`n` | f32 | y (m) |
 * | 20 + 12`n` | 4`n` | f32 | z, height of the walking surface (m) |
 * | 20 + 16`n` | 4`n` | f32 | vx (m/s) |
 * | 20 + 20`n` | 4`n` | f32 | vy (m/s) |
 * | 20 + 24`n` | 4`n` | f32 | body radius (m); NaN when the writer was given none |
 * | 20 + 28`n` | `n` | u8 | flags: bit 0 (1) arrived at the goal, bit 1 (2) frozen by the scenario |
 * | 20 + 29`n` | 0–3 | zero | padding to `L` |
 *
 * Every column starts at a multiple of 4 from the start of the file, so a reader holding the
 * file in an `ArrayBuffer` can view the columns as `Uint32Array` / `Float32Array` without
 * copying (the time field is only 4-aligned: read it with a `DataView`).
 *
 * **Reading rules.** A file that ends less than 20 bytes after the last complete frame, or
 * inside a frame whose `L` runs past its end, ends with a frame cut by an interrupted run: that
 * frame is ignored. A frame whose `L` differs from `20 + 29·n` (version 1: `20 + 25·n`) rounded
 * up to 4 is corrupt: the reader stops with an error naming the file and the frame's byte offset.
 *
 * **Version 1** files are the same without the radius column: flags follow vy at `20 + 24n` and
 * a frame takes `20 + 25·n` bytes rounded up to 4. They read with a null `radius`.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { _FrameProtocol, _OutputFile, _readFileBytes } from "./_file_io.ts";
import {
  type AgentColumns,
  type TrajectoryData,
  TrajectoryFileError,
  type TrajectoryFrame,
  type TrajectoryHeader,
  type TrajectoryWriter,
} from "./trajectory.ts";

/** The 8 bytes every binary trajectory file starts with: `\x89THRONG\n`. */
export const BINARY_TRAJECTORY_MAGIC: Uint8Array = Uint8Array.of(
  0x89,
  0x54,
  0x48,
  0x52,
  0x4f,
  0x4e,
  0x47,
  0x0a,
);

/** The binary format version this module writes; it reads this one and version 1. */
export const BINARY_TRAJECTORY_VERSION = 2;

/** Bytes per agent in a frame of each format version (index = version). */
const AGENT_BYTES: readonly number[] = [0, 25, 29];

/** Bytes before the first column of a frame: length, frame number, time, count. */
const FRAME_FIXED_BYTES = 20;

/**
 * Byte length of a binary frame holding `count` agents: `20 + 29·count` rounded up to 4 (format
 * version 2; `20 + 25·count` for `version` 1).
 *
 * @example
 * ```ts
 * import { binaryFrameBytes } from "./binary_trajectory.ts";
 * import assert from "node:assert/strict";
 * assert.equal(binaryFrameBytes(0), 20);
 * assert.equal(binaryFrameBytes(3), 108); // 20 + 87 = 107, padded to 108
 * assert.equal(binaryFrameBytes(3, 1), 96); // 20 + 75 = 95, padded to 96
 * ```
 */
export function binaryFrameBytes(
  count: number,
  version: number = BINARY_TRAJECTORY_VERSION,
): number {
  return (FRAME_FIXED_BYTES + AGENT_BYTES[version] * count + 3) & ~3;
}

/** True on little-endian hosts (every platform Deno runs on); typed-array views assume it. */
const LITTLE_ENDIAN_HOST = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Options of {@linkcode BinaryTrajectoryWriter}. */
export interface BinaryTrajectoryWriterOptions {
  /** Encoded frames kept before a write (bytes). @default 1048576 (1 MiB) */
  bufferBytes?: number;
}

/**
 * Streams a binary trajectory file (layout in the module doc).
 *
 * Each frame is encoded whole into a reused buffer (columns are copied with typed-array `set`,
 * nothing is allocated per agent) and only whole frames are written, so an interrupted run
 * leaves at most one partial frame, which the reader ignores. The radius column is written from
 * `columns.radius` (an `AgentStore` has it), or NaN when the columns have none.
 *
 * @example Write one frame of two agents and read it back
 * ```ts
 * import { BinaryTrajectoryWriter, readBinaryTrajectory } from "./binary_trajectory.ts";
 * import { createTrajectoryHeader } from "./trajectory.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".bin" });
 * const writer = new BinaryTrajectoryWriter(path);
 * writer.writeHeader(createTrajectoryHeader({ frameRate: 20, walls: [[[0, 0], [10, 0]]] }));
 * const agents = {
 *   serial: new Uint32Array([4, 9]),
 *   px: new Float64Array([1.5, -2]), py: new Float64Array([0, 3.25]), pz: new Float64Array(2),
 *   vx: new Float64Array([1, 0]), vy: new Float64Array(2), flags: new Uint8Array([0, 1]),
 *   radius: new Float64Array([0.25, 0.3]),
 * };
 * writer.beginFrame(0, 0, 2);
 * writer.writeAgents(agents, 0, 2);
 * writer.endFrame();
 * writer.close();
 * const data = readBinaryTrajectory(path);
 * assert.deepEqual(data.header.walls, [[[0, 0], [10, 0]]]);
 * assert.deepEqual([...data.frames[0].x], [1.5, -2]);
 * assert.deepEqual([...data.frames[0].flags!], [0, 1]);
 * assert.deepEqual([...data.frames[0].radius!], [0.25, Math.fround(0.3)]);
 * await Deno.remove(path);
 * ```
 */
export class BinaryTrajectoryWriter implements TrajectoryWriter {
  /** The file being written. */
  readonly path: string;
  /** The file format. */
  readonly format = "binary" as const;
  #out: _OutputFile;
  #protocol: _FrameProtocol;
  #bytes: Uint8Array = new Uint8Array(0);
  #u32: Uint32Array = new Uint32Array(0);
  #f32: Float32Array = new Float32Array(0);
  #view: DataView = new DataView(new ArrayBuffer(0));
  #start = 0;
  #count = 0;

  /** Creates (or truncates) `path`; throws a one-line error naming it when that fails. */
  constructor(path: string, options: BinaryTrajectoryWriterOptions = {}) {
    if (!LITTLE_ENDIAN_HOST) {
      throw new Error(
        `Cannot write trajectory file '${path}': binary trajectories need a little-endian host`,
      );
    }
    this.path = path;
    this.#protocol = new _FrameProtocol(path);
    this.#out = new _OutputFile(path, options.bufferBytes);
  }

  /** Writes magic, version and the JSON header; must come first, once. */
  writeHeader(header: TrajectoryHeader): void {
    this.#protocol.header(header);
    const json = new TextEncoder().encode(JSON.stringify(header));
    const total = 16 + ((json.length + 3) & ~3);
    const bytes = this.#out.reserve(total), at = this.#out.length;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    bytes.set(BINARY_TRAJECTORY_MAGIC, at);
    view.setUint32(at + 8, BINARY_TRAJECTORY_VERSION, true);
    view.setUint32(at + 12, json.length, true);
    bytes.set(json, at + 16);
    bytes.fill(0x20, at + 16 + json.length, at + total);
    this.#out.commit(at + total);
  }

  /** Starts frame number `frame` (u32) at `time` (s) holding `count` agents. */
  beginFrame(frame: number, time: number, count: number): void {
    this.#protocol.begin(frame, time, count);
    const size = binaryFrameBytes(count);
    const bytes = this.#out.reserve(size);
    if (bytes !== this.#bytes) {
      this.#bytes = bytes;
      this.#u32 = new Uint32Array(bytes.buffer, 0, bytes.length >> 2);
      this.#f32 = new Float32Array(bytes.buffer, 0, bytes.length >> 2);
      this.#view = new DataView(bytes.buffer);
    }
    const at = this.#out.length;
    if ((at & 3) !== 0) {
      throw new TrajectoryFileError(this.path, `frame ${frame} is not 4-byte aligned`, {
        writing: true,
      });
    }
    this.#start = at;
    this.#count = count;
    this.#view.setUint32(at, size, true);
    this.#view.setUint32(at + 4, frame, true);
    this.#view.setFloat64(at + 8, time, true);
    this.#view.setUint32(at + 16, count, true);
  }

  /** Copies the columns of agents `begin … end-1` into the current frame. */
  writeAgents(columns: AgentColumns, begin: number, end: number): void {
    const row = this.#protocol.add(columns, begin, end);
    const n = this.#count, word = ((this.#start + FRAME_FIXED_BYTES) >> 2) + row;
    this.#u32.set(columns.serial.subarray(begin, end), word);
    this.#f32.set(columns.px.subarray(begin, end), word + n);
    this.#f32.set(columns.py.subarray(begin, end), word + 2 * n);
    this.#f32.set(columns.pz.subarray(begin, end), word + 3 * n);
    this.#f32.set(columns.vx.subarray(begin, end), word + 4 * n);
    this.#f32.set(columns.vy.subarray(begin, end), word + 5 * n);
    if (columns.radius) this.#f32.set(columns.radius.subarray(begin, end), word + 6 * n);
    else this.#f32.fill(NaN, word + 6 * n, word + 6 * n + end - begin);
    this.#bytes.set(
      columns.flags.subarray(begin, end),
      this.#start + FRAME_FIXED_BYTES + 28 * n + row,
    );
  }

  /** Completes the frame; throws unless exactly the declared number of agents was added. */
  endFrame(): void {
    this.#protocol.end();
    const end = this.#start + binaryFrameBytes(this.#count);
    this.#bytes.fill(0, this.#start + FRAME_FIXED_BYTES + 29 * this.#count, end);
    this.#out.commit(end);
  }

  /** Writes every completed frame still buffered. */
  flush(): void {
    this.#out.flush();
  }

  /** Flushes and closes the file (a frame begun but not ended is dropped); later calls do nothing. */
  close(): void {
    this.#protocol.abandon();
    this.#out.close();
  }
}

const point = z.tuple([z.number(), z.number()]);
const HEADER_SCHEMA = z.object({
  frameRate: z.number().positive(),
  dt: z.number().positive().nullable().default(null),
  every: z.number().int().positive().nullable().default(null),
  startTime: z.number().default(0),
  scenario: z.string().nullable().default(null),
  strategy: z.string().nullable().default(null),
  seed: z.number().int().nullable().default(null),
  description: z.string().nullable().default(null),
  anchor: z.object({ lon: z.number().min(-180).max(180), lat: z.number().min(-90).max(90) })
    .nullable().default(
      null,
    ),
  bounds: z.object({ minX: z.number(), minY: z.number(), maxX: z.number(), maxY: z.number() })
    .nullable().default(
      null,
    ),
  polygons: z.array(z.array(point)).default([]),
  walls: z.array(z.array(point)).default([]),
  meta: z.record(z.string(), z.unknown()).default({}),
});

/**
 * Reads a binary trajectory file (layout in the module doc). Frame columns are views into the
 * file's bytes. A frame cut by an interrupted run is ignored and flagged as `incomplete`; a
 * wrong magic, an unknown version, a bad header or a corrupt frame length throws a
 * {@linkcode TrajectoryFileError} naming the file and the byte offset.
 *
 * @example A file that is not a binary trajectory
 * ```ts
 * import { readBinaryTrajectory } from "./binary_trajectory.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".bin" });
 * await Deno.writeTextFile(path, "# framerate: 25\n1 0 1 2 0\n");
 * assert.throws(() => readBinaryTrajectory(path), /at byte 0: not a binary trajectory/);
 * await Deno.remove(path);
 * ```
 */
export function readBinaryTrajectory(path: string): TrajectoryData {
  return decodeBinaryTrajectory(_readFileBytes(path), path);
}

/**
 * Decodes the bytes of a binary trajectory file; `path` only names it in errors and in the
 * result. See {@linkcode readBinaryTrajectory}.
 *
 * @example The frames before a cut are kept
 * ```ts
 * import { BinaryTrajectoryWriter, decodeBinaryTrajectory } from "./binary_trajectory.ts";
 * import { createTrajectoryHeader } from "./trajectory.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".bin" });
 * const writer = new BinaryTrajectoryWriter(path);
 * writer.writeHeader(createTrajectoryHeader({ frameRate: 10 }));
 * const one = {
 *   serial: Uint32Array.of(0), px: Float64Array.of(1), py: Float64Array.of(2), pz: Float64Array.of(0),
 *   vx: Float64Array.of(0), vy: Float64Array.of(0), flags: Uint8Array.of(0),
 * };
 * for (let k = 0; k < 3; k++) {
 *   writer.beginFrame(k, k / 10, 1);
 *   writer.writeAgents(one, 0, 1);
 *   writer.endFrame();
 * }
 * writer.close();
 * const bytes = await Deno.readFile(path);
 * const data = decodeBinaryTrajectory(bytes.subarray(0, bytes.length - 10), path);
 * assert.equal(data.frames.length, 2);
 * assert.equal(data.incomplete, true);
 * await Deno.remove(path);
 * ```
 */
export function decodeBinaryTrajectory(bytes: Uint8Array, path: string): TrajectoryData {
  if (!LITTLE_ENDIAN_HOST) {
    throw new Error(
      `Cannot read trajectory file '${path}': binary trajectories need a little-endian host`,
    );
  }
  const fail = (offset: number, reason: string): never => {
    throw new TrajectoryFileError(path, reason, { offset });
  };
  const magic = BINARY_TRAJECTORY_MAGIC;
  if (bytes.length < magic.length || magic.some((b, i) => bytes[i] !== b)) {
    const found = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    fail(
      0,
      `not a binary trajectory: the magic is '${found}', expected '89 54 48 52 4f 4e 47 0a' (\\x89THRONG\\n)`,
    );
  }
  // Typed-array views need the columns 4-aligned in memory: copy the rare unaligned input.
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 16) fail(8, `the file ends inside the preamble (${bytes.length} bytes)`);
  const version = view.getUint32(8, true);
  if (version !== 1 && version !== 2) {
    fail(
      8,
      `format version ${version} is not supported (this reader reads versions 1 and ${BINARY_TRAJECTORY_VERSION})`,
    );
  }
  const flagsAt = version === 1 ? 24 : 28;
  const jsonLength = view.getUint32(12, true);
  if (16 + jsonLength > bytes.length) {
    fail(
      12,
      `the header length ${jsonLength} runs past the end of the file (${bytes.length} bytes)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(16, 16 + jsonLength)),
    );
  } catch (error) {
    fail(16, `the header is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = HEADER_SCHEMA.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(16, `header field '${issue.path.join(".") || "(root)"}' is invalid: ${issue.message}`);
  }
  const header: TrajectoryHeader = parsed.data!;
  const frames: TrajectoryFrame[] = [];
  const base = bytes.byteOffset, buffer = bytes.buffer;
  let offset = 16 + ((jsonLength + 3) & ~3);
  let incomplete = false;
  while (offset < bytes.length) {
    const remaining = bytes.length - offset;
    if (remaining < FRAME_FIXED_BYTES) {
      incomplete = true;
      break;
    }
    const length = view.getUint32(offset, true);
    const n = view.getUint32(offset + 16, true);
    if (length !== binaryFrameBytes(n, version)) {
      fail(
        offset,
        `corrupt frame: its length field says ${length} bytes but a frame of ${n} agents takes ${
          binaryFrameBytes(n, version)
        }`,
      );
    }
    if (length > remaining) {
      incomplete = true;
      break;
    }
    const at = base + offset + FRAME_FIXED_BYTES;
    frames.push({
      frame: view.getUint32(offset + 4, true),
      time: view.getFloat64(offset + 8, true),
      count: n,
      ids: new Uint32Array(buffer, at, n),
      x: new Float32Array(buffer, at + 4 * n, n),
      y: new Float32Array(buffer, at + 8 * n, n),
      z: new Float32Array(buffer, at + 12 * n, n),
      vx: new Float32Array(buffer, at + 16 * n, n),
      vy: new Float32Array(buffer, at + 20 * n, n),
      radius: version === 1 ? null : new Float32Array(buffer, at + 24 * n, n),
      flags: new Uint8Array(buffer, at + flagsAt * n, n),
    });
    offset += length;
  }
  return {
    format: "binary",
    path,
    frameRate: header.frameRate,
    sourceUnit: "m",
    header,
    comments: [],
    frames,
    incomplete,
  };
}

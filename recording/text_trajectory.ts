/**
 * Text trajectory files in the format of the Jülich pedestrian experiments (PeTrack, JuPedSim),
 * which PedPy's `load_trajectory_from_txt` reads: `#` header lines, then one row per agent and
 * frame, `id frame x y z`, separated by white space.
 *
 * Files written here look like this (metres, 4 decimals, rows grouped by frame):
 *
 * ```text
 * # throng trajectory, text format 1: one row per agent and frame
 * # framerate: 20.00
 * # description: throng simulation: scenario corridor, strategy none, seed 7
 * # scenario: corridor
 * # strategy: none
 * # seed: 7
 * # dt: 0.05 s
 * # recorded every: 1 step
 * # start time: 0 s
 * # anchor: lon 6.9603 lat 50.9375 (WGS84 degrees of the local origin)
 * # id frame x/m y/m z/m
 * 0 0 1.5000 -2.0000 0.0000
 * ```
 *
 * The header follows PedPy's rules: the first line containing `framerate` gives the frame rate
 * (its first number, so the writer puts it first and writes no other number on it); a line
 * containing `x/m` or `in m` means metres, `x/cm` or `in cm` centimetres, the last such line
 * winning (the writer's column line `id frame x/m y/m z/m` comes last). The time of frame `k` is
 * `start time + k / framerate`. A text file carries no geometry, velocities or flags: use the
 * binary format (`binary_trajectory.ts`) for replay.
 *
 * The reader takes the same rules, so it also reads measured data: PeTrack files
 * (`# framerate: 25 fps`, `# id frame x/cm y/cm z/cm`), JuPedSim files (`#framerate: 16`,
 * `(in metres)`), and header-less files given a frame rate and unit by the caller. Rows may come
 * in any order (PeTrack sorts them by id) and may have extra columns after `z`.
 *
 * @module
 */
import { _FrameProtocol, _OutputFile, _readFileBytes } from "./_file_io.ts";
import {
  type AgentColumns,
  type GeoAnchor,
  type TrajectoryData,
  TrajectoryFileError,
  type TrajectoryFrame,
  type TrajectoryHeader,
  type TrajectoryWriter,
} from "./trajectory.ts";

/** Options of {@linkcode TextTrajectoryWriter}. */
export interface TextTrajectoryWriterOptions {
  /** Encoded frames kept before a write (bytes). @default 1048576 (1 MiB) */
  bufferBytes?: number;
}

/** Upper bound of one encoded row (bytes): two u32 (10 digits each), 3 × ±11.4 digits, 5 separators. */
const ROW_BYTES = 80;
/** Largest |coordinate| the text writer accepts (m); keeps rows within {@linkcode ROW_BYTES}. */
const MAX_COORDINATE = 1e11;
const SPACE = 0x20, NEWLINE = 0x0a, MINUS = 0x2d, DOT = 0x2e, ZERO = 0x30;

/**
 * Streams a text trajectory file (PedPy-compatible, metres, 4 decimals).
 *
 * Rows are encoded straight into a reused byte buffer (no strings per agent); frames are written
 * whole, so an interrupted run leaves at most one partial line, which the reader ignores.
 *
 * @example Write one frame of two agents and read it back
 * ```ts
 * import { readTextTrajectory, TextTrajectoryWriter } from "./text_trajectory.ts";
 * import { createTrajectoryHeader } from "./trajectory.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".txt" });
 * const writer = new TextTrajectoryWriter(path);
 * writer.writeHeader(createTrajectoryHeader({ frameRate: 10, scenario: "demo" }));
 * const agents = {
 *   serial: new Uint32Array([4, 9]),
 *   px: new Float64Array([1.5, -2]), py: new Float64Array([0, 3.25]), pz: new Float64Array(2),
 *   vx: new Float64Array(2), vy: new Float64Array(2), flags: new Uint8Array(2),
 * };
 * writer.beginFrame(0, 0, 2);
 * writer.writeAgents(agents, 0, 2);
 * writer.endFrame();
 * writer.close();
 * const data = readTextTrajectory(path);
 * assert.equal(data.frameRate, 10);
 * assert.equal(data.header.scenario, "demo");
 * assert.deepEqual([...data.frames[0].ids], [4, 9]);
 * assert.deepEqual([...data.frames[0].y], [0, 3.25]);
 * await Deno.remove(path);
 * ```
 */
export class TextTrajectoryWriter implements TrajectoryWriter {
  /** The file being written. */
  readonly path: string;
  /** The file format. */
  readonly format = "text" as const;
  #out: _OutputFile;
  #protocol: _FrameProtocol;
  #frame = 0;
  #pos = 0;

  /** Creates (or truncates) `path`; throws a one-line error naming it when that fails. */
  constructor(path: string, options: TextTrajectoryWriterOptions = {}) {
    this.path = path;
    this.#protocol = new _FrameProtocol(path);
    this.#out = new _OutputFile(path, options.bufferBytes);
  }

  /** Writes the `#` header ({@linkcode formatTextHeader}); must come first, once. */
  writeHeader(header: TrajectoryHeader): void {
    this.#protocol.header(header);
    const bytes = new TextEncoder().encode(formatTextHeader(header));
    this.#out.reserve(bytes.length).set(bytes, this.#out.length);
    this.#out.commit(this.#out.length + bytes.length);
  }

  /** Starts frame number `frame` (u32) holding `count` agents; a text file does not store `time`. */
  beginFrame(frame: number, time: number, count: number): void {
    this.#protocol.begin(frame, time, count);
    this.#out.reserve(count * ROW_BYTES);
    this.#frame = frame;
    this.#pos = this.#out.length;
  }

  /** Adds one row per agent `begin … end-1` of `columns` to the current frame. */
  writeAgents(columns: AgentColumns, begin: number, end: number): void {
    this.#protocol.add(columns, begin, end);
    const bytes = this.#out.bytes, frame = this.#frame;
    const serial = columns.serial, px = columns.px, py = columns.py, pz = columns.pz;
    let pos = this.#pos;
    for (let i = begin; i < end; i++) {
      const x = px[i], y = py[i], z = pz[i];
      if (
        !(Math.abs(x) < MAX_COORDINATE && Math.abs(y) < MAX_COORDINATE &&
          Math.abs(z) < MAX_COORDINATE)
      ) {
        throw new TrajectoryFileError(
          this.path,
          `agent ${
            serial[i]
          } in frame ${frame} is at (${x}, ${y}, ${z}) m: coordinates must be finite and within ±${MAX_COORDINATE} m`,
          { writing: true },
        );
      }
      pos = _writeUint(bytes, pos, serial[i]);
      bytes[pos++] = SPACE;
      pos = _writeUint(bytes, pos, frame);
      bytes[pos++] = SPACE;
      pos = _writeFixed4(bytes, pos, x);
      bytes[pos++] = SPACE;
      pos = _writeFixed4(bytes, pos, y);
      bytes[pos++] = SPACE;
      pos = _writeFixed4(bytes, pos, z);
      bytes[pos++] = NEWLINE;
    }
    this.#pos = pos;
  }

  /** Completes the frame; throws unless exactly the declared number of agents was added. */
  endFrame(): void {
    this.#protocol.end();
    this.#out.commit(this.#pos);
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

/**
 * The `#` header a {@linkcode TextTrajectoryWriter} writes for `header` (every line ends with a
 * newline). Free text is kept to one line.
 *
 * @example The frame rate comes first, the unit line last
 * ```ts
 * import { formatTextHeader } from "./text_trajectory.ts";
 * import { createTrajectoryHeader } from "./trajectory.ts";
 * import assert from "node:assert/strict";
 * const lines = formatTextHeader(createTrajectoryHeader({ frameRate: 25 })).trimEnd().split("\n");
 * assert.equal(lines[1], "# framerate: 25.00");
 * assert.equal(lines.at(-1), "# id frame x/m y/m z/m");
 * ```
 */
export function formatTextHeader(header: TrajectoryHeader): string {
  const h = header;
  const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ");
  const rate = Number.isInteger(h.frameRate) ? h.frameRate.toFixed(2) : String(h.frameRate);
  const description = h.description ??
    `throng simulation: scenario ${h.scenario ?? "unnamed"}, strategy ${
      h.strategy ?? "unknown"
    }, seed ${h.seed ?? "unknown"}`;
  const lines = [
    "throng trajectory, text format 1: one row per agent and frame",
    `framerate: ${rate}`,
    `description: ${oneLine(description)}`,
  ];
  if (h.scenario !== null) lines.push(`scenario: ${oneLine(h.scenario)}`);
  if (h.strategy !== null) lines.push(`strategy: ${oneLine(h.strategy)}`);
  if (h.seed !== null) lines.push(`seed: ${h.seed}`);
  if (h.dt !== null) lines.push(`dt: ${h.dt} s`);
  if (h.every !== null) {
    lines.push(`recorded every: ${h.every} ${h.every === 1 ? "step" : "steps"}`);
  }
  lines.push(`start time: ${h.startTime} s`);
  if (h.anchor !== null) {
    lines.push(
      `anchor: lon ${h.anchor.lon} lat ${h.anchor.lat} (WGS84 degrees of the local origin)`,
    );
  }
  if (Object.keys(h.meta).length > 0) lines.push(`meta: ${JSON.stringify(h.meta)}`);
  lines.push("id frame x/m y/m z/m");
  return lines.map((line) => `# ${line}\n`).join("");
}

/** Options of {@linkcode readTextTrajectory}: fallbacks for files that do not declare them. */
export interface TextTrajectoryReadOptions {
  /** Frame rate (Hz) used when the file has no `framerate` line. @default none: such files throw */
  frameRate?: number;
  /** Coordinate unit used when the file declares none. @default none: such files throw */
  unit?: "m" | "cm";
}

/**
 * Reads a text trajectory file (see the module doc for the format). Coordinates come back in
 * metres. An unterminated last line (a run killed mid-write) is ignored and flagged as
 * `incomplete`; any other malformed line throws a {@linkcode TrajectoryFileError} naming the file
 * and line.
 *
 * @example A PeTrack file in centimetres
 * ```ts
 * import { readTextTrajectory } from "./text_trajectory.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".txt" });
 * await Deno.writeTextFile(path, "# framerate: 25 fps\n# id frame x/cm y/cm z/cm\n1 94 -554.5 309 176\n");
 * const data = readTextTrajectory(path);
 * assert.equal(data.frameRate, 25);
 * assert.equal(data.frames[0].x[0], -5.545);
 * assert.equal(data.frames[0].time, 94 / 25);
 * await Deno.remove(path);
 * ```
 */
export function readTextTrajectory(
  path: string,
  options: TextTrajectoryReadOptions = {},
): TrajectoryData {
  return decodeTextTrajectory(_readFileBytes(path), path, options);
}

/**
 * Decodes the bytes (or text) of a text trajectory file; `path` only names it in errors and in
 * the result. See {@linkcode readTextTrajectory}.
 *
 * @example Header-less data with the unit and frame rate given by the caller
 * ```ts
 * import { decodeTextTrajectory } from "./text_trajectory.ts";
 * import assert from "node:assert/strict";
 * const data = decodeTextTrajectory("1 84 154 679 175\n1 85 152 670 175\n", "bo.txt", {
 *   frameRate: 16,
 *   unit: "cm",
 * });
 * assert.equal(data.frames.length, 2);
 * assert.equal(data.frames[1].y[0], 6.7);
 * ```
 */
export function decodeTextTrajectory(
  input: Uint8Array | string,
  path: string,
  options: TextTrajectoryReadOptions = {},
): TrajectoryData {
  if (
    options.frameRate !== undefined &&
    !(options.frameRate > 0 && Number.isFinite(options.frameRate))
  ) {
    throw new RangeError(
      `Cannot read trajectory file '${path}' as 'frameRate' must be a finite number > 0: current value is ${options.frameRate}`,
    );
  }
  if (options.unit !== undefined && options.unit !== "m" && options.unit !== "cm") {
    throw new RangeError(
      `Cannot read trajectory file '${path}' as 'unit' must be "m" or "cm": current value is ${
        JSON.stringify(options.unit)
      }`,
    );
  }
  const text = typeof input === "string"
    ? input.replace(/^\uFEFF/, "")
    : new TextDecoder().decode(input);
  const fail = (line: number, reason: string): never => {
    throw new TrajectoryFileError(path, reason, { line });
  };
  const rows = new _Rows();
  const comments: string[] = [];
  const fields = new Map<string, { value: string; line: number }>();
  let declaredRate: number | null = null;
  let declaredUnit: "m" | "cm" | null = null;
  let inHeader = true;
  let incomplete = false;
  let lineNo = 0;
  for (let pos = 0; pos < text.length;) {
    const newline = text.indexOf("\n", pos);
    const terminated = newline >= 0;
    const end = terminated ? newline : text.length;
    const line = text.slice(pos, end).trim();
    pos = end + 1;
    lineNo++;
    if (!terminated) {
      // The last line has no newline: a run killed mid-write. Ignore it, whatever it holds.
      incomplete = line.length > 0;
      break;
    }
    if (line.length === 0) continue;
    if (line[0] === "#") {
      if (!inHeader) continue;
      const content = line.replace(/^#+\s*/, "");
      comments.push(content);
      const lower = content.toLowerCase();
      if (declaredRate === null && lower.includes("framerate")) {
        declaredRate = _firstNumber(content);
      }
      if (lower.includes("x/cm") || lower.includes("in cm")) declaredUnit = "cm";
      if (lower.includes("x/m") || lower.includes("in m")) declaredUnit = "m";
      const kv = /^([a-z][a-z0-9 _-]*?)\s*:\s*(.*)$/i.exec(content);
      if (kv && !fields.has(kv[1].toLowerCase())) {
        fields.set(kv[1].toLowerCase(), { value: kv[2], line: lineNo });
      }
      continue;
    }
    inHeader = false;
    const error = rows.parse(line);
    if (error !== null) fail(lineNo, error);
  }
  const frameRate = declaredRate ?? options.frameRate;
  if (frameRate === undefined) {
    throw new TrajectoryFileError(
      path,
      "the file declares no frame rate (no '# framerate: …' header line): pass 'frameRate' in the options",
    );
  }
  if (!(frameRate > 0) || !Number.isFinite(frameRate)) {
    throw new TrajectoryFileError(
      path,
      `the declared frame rate must be a number > 0: found ${frameRate}`,
    );
  }
  const unit = declaredUnit ?? options.unit;
  if (unit === undefined) {
    throw new TrajectoryFileError(
      path,
      "the file declares no unit (no header line with 'x/m', 'x/cm', 'in m' or 'in cm'): pass 'unit' (\"m\" or \"cm\") in the options",
    );
  }
  const header = _headerFromFields(fields, frameRate, fail);
  return {
    format: "text",
    path,
    frameRate,
    sourceUnit: unit,
    header,
    comments,
    frames: rows.toFrames(unit === "cm" ? 100 : 1, header.startTime, frameRate),
    incomplete,
  };
}

/** Strictly a decimal number (no hex, no `Infinity`, no empty string). */
export const _NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The first white-space separated token of `s` that is a number, or null. */
function _firstNumber(s: string): number | null {
  for (const token of s.split(/\s+/)) {
    if (_NUMBER.test(token)) return Number(token);
  }
  return null;
}

/** Builds the header from `key: value` comment lines (the ones a throng file writes). */
function _headerFromFields(
  fields: Map<string, { value: string; line: number }>,
  frameRate: number,
  fail: (line: number, reason: string) => never,
): TrajectoryHeader {
  const text = (key: string) => fields.get(key)?.value ?? null;
  const number = (key: string) => {
    const field = fields.get(key);
    if (field === undefined) return null;
    const value = _firstNumber(field.value);
    if (value === null) fail(field.line, `header field '${key}' has no number: "${field.value}"`);
    return value;
  };
  let anchor: GeoAnchor | null = null;
  const anchorField = fields.get("anchor");
  if (anchorField !== undefined) {
    const m = /lon\s+(\S+)\s+lat\s+(\S+)/.exec(anchorField.value);
    if (!m || !_NUMBER.test(m[1]) || !_NUMBER.test(m[2])) {
      fail(
        anchorField.line,
        `header field 'anchor' must read 'lon <degrees> lat <degrees>': "${anchorField.value}"`,
      );
    }
    anchor = { lon: Number(m![1]), lat: Number(m![2]) };
  }
  let meta: Record<string, unknown> = {};
  const metaField = fields.get("meta");
  if (metaField !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(metaField.value);
    } catch (error) {
      fail(metaField.line, `header field 'meta' is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      fail(metaField.line, `header field 'meta' must be a JSON object: "${metaField.value}"`);
    }
    meta = parsed as Record<string, unknown>;
  }
  return {
    frameRate,
    dt: number("dt"),
    every: number("recorded every"),
    startTime: number("start time") ?? 0,
    scenario: text("scenario"),
    strategy: text("strategy"),
    seed: number("seed"),
    description: text("description"),
    anchor,
    bounds: null,
    polygons: [],
    walls: [],
    meta,
  };
}

/** Growable columns of parsed rows. */
class _Rows {
  count = 0;
  ids = new Uint32Array(1024);
  frames = new Uint32Array(1024);
  x = new Float64Array(1024);
  y = new Float64Array(1024);
  z = new Float64Array(1024);

  /** Parses one data line into a new row; returns why it is malformed, or null. */
  parse(line: string): string | null {
    const tokens = line.split(/\s+/);
    const shown = line.length > 80 ? `${line.slice(0, 77)}...` : line;
    if (tokens.length < 5) {
      return `expected 5 fields 'id frame x y z', found ${tokens.length}: "${shown}"`;
    }
    const names = ["id", "frame", "x", "y", "z"];
    for (let k = 0; k < 5; k++) {
      if (!_NUMBER.test(tokens[k])) {
        return `field '${names[k]}' is not a number: "${tokens[k]}" in "${shown}"`;
      }
    }
    const id = Number(tokens[0]), frame = Number(tokens[1]);
    for (const [name, value] of [["id", id], ["frame", frame]] as const) {
      if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
        return `field '${name}' must be an integer in [0, 4294967295]: "${value}" in "${shown}"`;
      }
    }
    if (this.count === this.ids.length) this.#grow();
    const i = this.count++;
    this.ids[i] = id;
    this.frames[i] = frame;
    this.x[i] = Number(tokens[2]);
    this.y[i] = Number(tokens[3]);
    this.z[i] = Number(tokens[4]);
    return null;
  }

  /** Sorts the rows by frame (stably) and cuts them into frames; coordinates divided by `divisor`. */
  toFrames(divisor: number, startTime: number, frameRate: number): TrajectoryFrame[] {
    const n = this.count, frames = this.frames;
    let order: Uint32Array | null = null;
    for (let i = 1; i < n; i++) {
      if (frames[i] < frames[i - 1]) {
        order = new Uint32Array(n);
        for (let k = 0; k < n; k++) order[k] = k;
        order.sort((a, b) => frames[a] - frames[b] || a - b);
        break;
      }
    }
    const ids = new Uint32Array(n),
      x = new Float64Array(n),
      y = new Float64Array(n),
      z = new Float64Array(n);
    const frameOf = new Uint32Array(n);
    for (let k = 0; k < n; k++) {
      const i = order === null ? k : order[k];
      ids[k] = this.ids[i];
      frameOf[k] = frames[i];
      x[k] = this.x[i] / divisor;
      y[k] = this.y[i] / divisor;
      z[k] = this.z[i] / divisor;
    }
    const out: TrajectoryFrame[] = [];
    for (let begin = 0; begin < n;) {
      const frame = frameOf[begin];
      let end = begin + 1;
      while (end < n && frameOf[end] === frame) end++;
      out.push({
        frame,
        time: startTime + frame / frameRate,
        count: end - begin,
        ids: ids.subarray(begin, end),
        x: x.subarray(begin, end),
        y: y.subarray(begin, end),
        z: z.subarray(begin, end),
        vx: null,
        vy: null,
        flags: null,
      });
      begin = end;
    }
    return out;
  }

  #grow(): void {
    const size = this.ids.length * 2;
    const grow = <T extends Uint32Array | Float64Array>(a: T, b: T): T => (b.set(a), b);
    this.ids = grow(this.ids, new Uint32Array(size));
    this.frames = grow(this.frames, new Uint32Array(size));
    this.x = grow(this.x, new Float64Array(size));
    this.y = grow(this.y, new Float64Array(size));
    this.z = grow(this.z, new Float64Array(size));
  }
}

/** Writes the decimal digits of a non-negative integer (< 2^53) at `pos`; returns the end. */
export function _writeUint(bytes: Uint8Array, pos: number, value: number): number {
  let digits = 1;
  for (let t = 10; value >= t; t *= 10) digits++;
  const end = pos + digits;
  let p = end;
  do {
    const q = Math.floor(value / 10);
    bytes[--p] = ZERO + value - q * 10;
    value = q;
  } while (value > 0);
  return end;
}

/** Writes `value` with 4 decimals (`-12.3457`, never `-0.0000`) at `pos`; returns the end. */
export function _writeFixed4(bytes: Uint8Array, pos: number, value: number): number {
  const scaled = Math.round(Math.abs(value) * 10000);
  if (value < 0 && scaled !== 0) bytes[pos++] = MINUS;
  const whole = Math.floor(scaled / 10000);
  let frac = scaled - whole * 10000;
  pos = _writeUint(bytes, pos, whole);
  bytes[pos++] = DOT;
  for (let p = pos + 3; p >= pos; p--) {
    const q = Math.floor(frac / 10);
    bytes[p] = ZERO + frac - q * 10;
    frac = q;
  }
  return pos + 4;
}

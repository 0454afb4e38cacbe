/**
 * Trajectory files as comma-separated values (RFC 4180): one header row naming the columns with
 * their units, then one row per agent and frame, ready for spreadsheets, pandas or R.
 *
 * ```text
 * id,frame,time_s,x_m,y_m,z_m
 * 0,0,0,1.5000,-2.0000,0.0000
 * 1,0,0,3.2500,0.7500,0.0000
 * 0,1,0.05,1.5650,-2.0000,0.0000
 * ```
 *
 * `time_s` is the simulation time of the frame (s), `x_m`, `y_m`, `z_m` the position (m, 4
 * decimals). When the run is placed on the globe (its header has an `anchor`: a scenario with a
 * `map` or an `anchor`), two more columns give the position as `lon` and `lat` (WGS84 degrees,
 * 7 decimals, about 1 cm), through the anchor's {@linkcode LocalProjection}; the reader takes
 * either layout and keeps the metres. CSV has no comment lines, so the run's description stays with the other formats:
 * PedPy's text layout (`.txt`, `text_trajectory.ts`) and the binary form (`.bin`). The frame
 * rate is read back from the frame numbers and times.
 *
 * @module
 */
import { LocalProjection } from "../geo/local_projection.ts";
import { _FrameProtocol, _OutputFile, _readFileBytes } from "./_file_io.ts";
import { _NUMBER, _writeFixed4, _writeUint } from "./text_trajectory.ts";
import {
  type AgentColumns,
  createTrajectoryHeader,
  type TrajectoryData,
  TrajectoryFileError,
  type TrajectoryFrame,
  type TrajectoryHeader,
  type TrajectoryWriter,
} from "./trajectory.ts";

/** The header row of a CSV trajectory file. */
export const CSV_TRAJECTORY_COLUMNS: readonly string[] = [
  "id",
  "frame",
  "time_s",
  "x_m",
  "y_m",
  "z_m",
];

/** The two columns added for runs placed on the globe: WGS84 degrees. */
export const CSV_LONLAT_COLUMNS: readonly string[] = ["lon", "lat"];

/** Upper bound of one row (bytes): two u32, a time, three coordinates, lon/lat, commas, newline. */
const ROW_BYTES = 112 + 32;
/** Largest |coordinate| written (m); keeps rows within {@linkcode ROW_BYTES}. */
const MAX_COORDINATE = 1e11;
const COMMA = 0x2c, NEWLINE = 0x0a;

/** Options of {@linkcode CsvTrajectoryWriter}. */
export interface CsvTrajectoryWriterOptions {
  /** Encoded frames kept before a write (bytes). @default 1048576 (1 MiB) */
  bufferBytes?: number;
}

/**
 * Streams a CSV trajectory file (metres, seconds). Rows are encoded into a reused byte buffer and
 * frames are written whole, so an interrupted run leaves at most one partial line, which
 * {@linkcode readCsvTrajectory} ignores.
 *
 * @example Write two frames and read them back
 * ```ts
 * import { CsvTrajectoryWriter, readCsvTrajectory } from "./csv_trajectory.ts";
 * import { createTrajectoryHeader } from "./trajectory.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".csv" });
 * const writer = new CsvTrajectoryWriter(path);
 * writer.writeHeader(createTrajectoryHeader({ frameRate: 20 }));
 * const agents = {
 *   serial: new Uint32Array([4]), px: new Float64Array([1.5]), py: new Float64Array([-2]),
 *   pz: new Float64Array(1), vx: new Float64Array(1), vy: new Float64Array(1), flags: new Uint8Array(1),
 * };
 * for (const frame of [0, 1]) {
 *   writer.beginFrame(frame, frame * 0.05, 1);
 *   writer.writeAgents(agents, 0, 1);
 *   writer.endFrame();
 * }
 * writer.close();
 * assert.equal((await Deno.readTextFile(path)).split("\n")[2], "4,1,0.05,1.5000,-2.0000,0.0000");
 * const data = readCsvTrajectory(path);
 * assert.equal(data.frameRate, 20);
 * assert.deepEqual(data.frames.map((f) => f.time), [0, 0.05]);
 * await Deno.remove(path);
 * ```
 */
export class CsvTrajectoryWriter implements TrajectoryWriter {
  /** The file being written. */
  readonly path: string;
  /** The file format. */
  readonly format = "csv" as const;
  #out: _OutputFile;
  #protocol: _FrameProtocol;
  #prefix = new Uint8Array(0);
  #frame = 0;
  #pos = 0;
  #projection: LocalProjection | null = null;
  #encoder = new TextEncoder();

  /** Creates (or truncates) `path`; throws a one-line error naming it when that fails. */
  constructor(path: string, options: CsvTrajectoryWriterOptions = {}) {
    this.path = path;
    this.#protocol = new _FrameProtocol(path);
    this.#out = new _OutputFile(path, options.bufferBytes);
  }

  /** Writes the header row; must come first, once. The header's fields are not stored. */
  writeHeader(header: TrajectoryHeader): void {
    this.#protocol.header(header);
    this.#projection = header.anchor ? new LocalProjection(header.anchor) : null;
    const columns = this.#projection
      ? [...CSV_TRAJECTORY_COLUMNS, ...CSV_LONLAT_COLUMNS]
      : CSV_TRAJECTORY_COLUMNS;
    const bytes = new TextEncoder().encode(`${columns.join(",")}\n`);
    this.#out.reserve(bytes.length).set(bytes, this.#out.length);
    this.#out.commit(this.#out.length + bytes.length);
  }

  /** Starts frame number `frame` (u32) at `time` (s) holding `count` agents. */
  beginFrame(frame: number, time: number, count: number): void {
    this.#protocol.begin(frame, time, count);
    // The frame and time are the same on every row of the frame: encode them once.
    this.#prefix = new TextEncoder().encode(`,${frame},${_formatTime(time)},`);
    this.#out.reserve(count * ROW_BYTES);
    this.#frame = frame;
    this.#pos = this.#out.length;
  }

  /** Adds one row per agent `begin … end-1` of `columns` to the current frame. */
  writeAgents(columns: AgentColumns, begin: number, end: number): void {
    this.#protocol.add(columns, begin, end);
    const bytes = this.#out.bytes, prefix = this.#prefix;
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
          } in frame ${this.#frame} is at (${x}, ${y}, ${z}) m: coordinates must be finite and within ±${MAX_COORDINATE} m`,
          { writing: true },
        );
      }
      pos = _writeUint(bytes, pos, serial[i]);
      bytes.set(prefix, pos);
      pos += prefix.length;
      pos = _writeFixed4(bytes, pos, x);
      bytes[pos++] = COMMA;
      pos = _writeFixed4(bytes, pos, y);
      bytes[pos++] = COMMA;
      pos = _writeFixed4(bytes, pos, z);
      if (this.#projection) {
        const { lon, lat } = this.#projection.toLonLat(x, y);
        pos += this.#encoder.encodeInto(`,${lon.toFixed(7)},${lat.toFixed(7)}`, bytes.subarray(pos))
          .written;
      }
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

/** Options of {@linkcode readCsvTrajectory}. */
export interface CsvTrajectoryReadOptions {
  /** Frame rate (Hz) of a file holding a single frame, which cannot tell it. @default none */
  frameRate?: number;
}

/**
 * Reads a CSV trajectory file written by {@linkcode CsvTrajectoryWriter} (columns
 * {@linkcode CSV_TRAJECTORY_COLUMNS}). The frame rate comes from the first and last frame's
 * numbers and times. An unterminated last line (a run killed mid-write) is ignored and flagged
 * as `incomplete`; anything else malformed throws a {@linkcode TrajectoryFileError} naming the
 * line.
 */
export function readCsvTrajectory(
  path: string,
  options: CsvTrajectoryReadOptions = {},
): TrajectoryData {
  return decodeCsvTrajectory(_readFileBytes(path), path, options);
}

/**
 * Decodes the bytes (or text) of a CSV trajectory file; `path` only names it in errors and in the
 * result. See {@linkcode readCsvTrajectory}.
 *
 * @example
 * ```ts
 * import { decodeCsvTrajectory } from "./csv_trajectory.ts";
 * import assert from "node:assert/strict";
 * const text = "id,frame,time_s,x_m,y_m,z_m\n1,0,0,0.5,0,0\n1,2,0.2,0.7,0,0\n";
 * const data = decodeCsvTrajectory(text, "run.csv");
 * assert.equal(data.frameRate, 10);
 * assert.equal(data.frames[1].x[0], 0.7);
 * ```
 */
export function decodeCsvTrajectory(
  input: Uint8Array | string,
  path: string,
  options: CsvTrajectoryReadOptions = {},
): TrajectoryData {
  const text = (typeof input === "string" ? input : new TextDecoder().decode(input))
    .replace(/^\uFEFF/, "");
  const fail = (line: number, reason: string): never => {
    throw new TrajectoryFileError(path, reason, { line });
  };
  const ids: number[] = [], frameOf: number[] = [], times: number[] = [];
  const xs: number[] = [], ys: number[] = [], zs: number[] = [];
  let header = false, incomplete = false, lineNo = 0, width = CSV_TRAJECTORY_COLUMNS.length;
  const names = [...CSV_TRAJECTORY_COLUMNS, ...CSV_LONLAT_COLUMNS];
  for (let pos = 0; pos < text.length;) {
    const newline = text.indexOf("\n", pos);
    const end = newline >= 0 ? newline : text.length;
    const line = text.slice(pos, end).replace(/\r$/, "").trim();
    pos = end + 1;
    lineNo++;
    if (newline < 0) {
      incomplete = line.length > 0;
      break;
    }
    if (line.length === 0) continue;
    const cells = line.split(",").map((c) => c.trim());
    if (!header) {
      if (cells.join(",") === names.join(",")) width = names.length;
      else if (cells.join(",") !== CSV_TRAJECTORY_COLUMNS.join(",")) {
        fail(
          lineNo,
          `expected the header row '${CSV_TRAJECTORY_COLUMNS.join(",")}' (then ',${
            CSV_LONLAT_COLUMNS.join(",")
          }' on the globe): "${line}"`,
        );
      }
      header = true;
      continue;
    }
    if (cells.length !== width) {
      fail(lineNo, `expected ${width} values, found ${cells.length}`);
    }
    for (let k = 0; k < cells.length; k++) {
      if (!_NUMBER.test(cells[k])) {
        fail(lineNo, `'${names[k]}' is not a number: "${cells[k]}"`);
      }
    }
    const id = Number(cells[0]), frame = Number(cells[1]);
    if (!Number.isInteger(id) || id < 0 || id > 0xffffffff) {
      fail(lineNo, `'id' must be an integer in [0, 4294967295]: ${cells[0]}`);
    }
    if (!Number.isInteger(frame) || frame < 0 || frame > 0xffffffff) {
      fail(lineNo, `'frame' must be an integer in [0, 4294967295]: ${cells[1]}`);
    }
    if (frameOf.length > 0 && frame < frameOf[frameOf.length - 1]) {
      fail(lineNo, `frames must not go backwards: ${frame} after ${frameOf[frameOf.length - 1]}`);
    }
    ids.push(id);
    frameOf.push(frame);
    times.push(Number(cells[2]));
    xs.push(Number(cells[3]));
    ys.push(Number(cells[4]));
    zs.push(Number(cells[5]));
  }
  if (!header) throw new TrajectoryFileError(path, "the file has no header row");
  const n = ids.length;
  const first = 0, last = n - 1;
  let frameRate = options.frameRate;
  if (n > 0 && frameOf[last] !== frameOf[first]) {
    // Times carry 6 decimals: 9 significant digits of the rate are exact for any dt ≥ 1 ms.
    frameRate = Number(
      ((frameOf[last] - frameOf[first]) / (times[last] - times[first])).toPrecision(9),
    );
  }
  if (frameRate === undefined && n > 0) {
    throw new TrajectoryFileError(
      path,
      "a file with a single frame does not tell its frame rate: pass 'frameRate' in the options",
    );
  }
  if (n > 0 && !(frameRate! > 0 && Number.isFinite(frameRate))) {
    throw new TrajectoryFileError(
      path,
      `the frame numbers and times give no frame rate > 0: found ${frameRate}`,
    );
  }
  const rate = frameRate ?? 1;
  const frames: TrajectoryFrame[] = [];
  const idColumn = new Uint32Array(ids), x = new Float64Array(xs);
  const y = new Float64Array(ys), z = new Float64Array(zs);
  for (let begin = 0; begin < n;) {
    let end = begin + 1;
    while (end < n && frameOf[end] === frameOf[begin]) end++;
    frames.push({
      frame: frameOf[begin],
      time: times[begin],
      count: end - begin,
      ids: idColumn.subarray(begin, end),
      x: x.subarray(begin, end),
      y: y.subarray(begin, end),
      z: z.subarray(begin, end),
      vx: null,
      vy: null,
      flags: null,
    });
    begin = end;
  }
  return {
    format: "csv",
    path,
    frameRate: rate,
    sourceUnit: "m",
    header: createTrajectoryHeader({
      frameRate: rate,
      startTime: n > 0 ? times[first] - frameOf[first] / rate : 0,
    }),
    comments: [],
    frames,
    incomplete,
  };
}

/** A frame time for the file: at most 6 decimals, no trailing zeros (`0.05`, `12`). */
function _formatTime(time: number): string {
  return String(Number(time.toFixed(6)));
}

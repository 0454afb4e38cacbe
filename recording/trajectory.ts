/**
 * The in-memory shape of a recorded trajectory file, shared by the text and binary formats, and
 * the error their readers and writers throw.
 *
 * A file holds one {@linkcode TrajectoryHeader} and a sequence of {@linkcode TrajectoryFrame}s.
 * Positions are always in metres and times in seconds, whatever unit the file used.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";

/** Geographic position of the local origin (0, 0) of the simulation plane, WGS84 degrees. */
export interface GeoAnchor {
  /** Longitude of the local origin (degrees east, -180 … 180). */
  lon: number;
  /** Latitude of the local origin (degrees north, -90 … 90). */
  lat: number;
}

/** An axis-aligned rectangle in the simulation plane (m). */
export interface TrajectoryBounds {
  /** Smallest x (m). */
  minX: number;
  /** Smallest y (m). */
  minY: number;
  /** Largest x (m). */
  maxX: number;
  /** Largest y (m). */
  maxY: number;
}

/** What a trajectory file says about the run that produced it. Unknown values are null. */
export interface TrajectoryHeader {
  /** Frames per second of the recording (Hz): `1 / (dt · every)` for a simulation. */
  frameRate: number;
  /** Simulation time step (s), or null for measured data. */
  dt: number | null;
  /** A frame was recorded every `every` steps, or null for measured data. */
  every: number | null;
  /** Time of frame 0 (s); the time of frame `k` is `startTime + k / frameRate`. */
  startTime: number;
  /** Scenario name. */
  scenario: string | null;
  /** Avoidance strategy name. */
  strategy: string | null;
  /** Seed of the run (unsigned 32-bit integer). */
  seed: number | null;
  /** One line of free text. */
  description: string | null;
  /** Geographic anchor of the local origin. */
  anchor: GeoAnchor | null;
  /** Extent of the static geometry and the initial agents (m); agents may leave it later. */
  bounds: TrajectoryBounds | null;
  /** Solid obstacle polygons, counter-clockwise, as [x, y] points (m). */
  polygons: Point[][];
  /** Walls as polylines of [x, y] points (m); a closed wall repeats its first point at the end. */
  walls: Point[][];
  /** Free JSON-compatible data (scenario parameters, agent radius, …). */
  meta: Record<string, unknown>;
}

/**
 * One recorded frame: the agents present at that time, as parallel columns.
 *
 * Binary files give `Float32Array` positions and the velocity and flag columns (views into the
 * file's bytes: copy them to keep them beyond the trajectory object); text files give
 * `Float64Array` positions and null velocities and flags.
 */
export interface TrajectoryFrame {
  /** Frame number (0 at the first recorded frame of a simulation). */
  frame: number;
  /** Time (s). */
  time: number;
  /** Number of agents in this frame (length of every column). */
  count: number;
  /** Trajectory id of each agent (unique per trip). */
  ids: Uint32Array;
  /** Position x (m). */
  x: Float32Array | Float64Array;
  /** Position y (m). */
  y: Float32Array | Float64Array;
  /** Height (m). */
  z: Float32Array | Float64Array;
  /** Velocity x (m/s), or null when the file has none. */
  vx: Float32Array | null;
  /** Velocity y (m/s), or null when the file has none. */
  vy: Float32Array | null;
  /** `AgentFlags` bits (1 arrived, 2 frozen), or null when the file has none. */
  flags: Uint8Array | null;
  /**
   * Body radius (m) of binary files of format version 2 (NaN where the writer had none); null
   * or absent otherwise.
   */
  radius?: Float32Array | null;
}

/** Everything read from one trajectory file. */
export interface TrajectoryData {
  /** Which format the file was in. */
  format: "text" | "csv" | "binary";
  /** The file read. */
  path: string;
  /** Frames per second (Hz); same as `header.frameRate`. */
  frameRate: number;
  /** Unit of the file's coordinates; the frames are converted to metres. */
  sourceUnit: "m" | "cm";
  /** Run description; for text files the parts the header declares, the rest null or empty. */
  header: TrajectoryHeader;
  /** Header comment lines of a text file, without the leading `#` (empty for binary files). */
  comments: string[];
  /** Frames in ascending frame order. */
  frames: TrajectoryFrame[];
  /**
   * True when the file ended inside a frame (binary) or inside a line (text), as a run killed
   * mid-write leaves it; that partial piece was ignored.
   */
  incomplete: boolean;
}

/**
 * A trajectory file could not be read or written. The message names the file and, where known,
 * the line (text) or byte offset (binary).
 *
 * @example Catching a read error
 * ```ts
 * import { TrajectoryFileError } from "./trajectory.ts";
 * import assert from "node:assert/strict";
 * const error = new TrajectoryFileError("run.txt", "expected 'id frame x y z'", { line: 7 });
 * assert.equal(error.message, "Cannot read trajectory file 'run.txt' at line 7: expected 'id frame x y z'");
 * assert.equal(error.line, 7);
 * ```
 */
export class TrajectoryFileError extends Error {
  /** The file. */
  readonly path: string;
  /** 1-based line of a text file, if the problem is on one line. */
  readonly line: number | undefined;
  /** Byte offset in a binary file, if the problem is at one place. */
  readonly offset: number | undefined;

  /**
   * Builds the message `Cannot read|write trajectory file '<path>'[ at line N| at byte N]: <reason>`.
   *
   * @param path the file
   * @param reason what is wrong, without a trailing period
   * @param where line (text) or byte offset (binary), and whether writing (default reading)
   */
  constructor(
    path: string,
    reason: string,
    where: { line?: number; offset?: number; writing?: boolean } = {},
  ) {
    const place = where.line !== undefined
      ? ` at line ${where.line}`
      : where.offset !== undefined
      ? ` at byte ${where.offset}`
      : "";
    const verb = where.writing ? "write" : "read";
    super(`Cannot ${verb} trajectory file '${path}'${place}: ${reason}`);
    this.name = "TrajectoryFileError";
    this.path = path;
    this.line = where.line;
    this.offset = where.offset;
  }
}

/**
 * The agent columns a {@linkcode TrajectoryWriter} reads. The world's `AgentStore` is one; so is
 * any object with these typed arrays.
 */
export interface AgentColumns {
  /** Trajectory id of each agent. */
  readonly serial: Uint32Array;
  /** Position x (m). */
  readonly px: Float64Array;
  /** Position y (m). */
  readonly py: Float64Array;
  /** Height (m). */
  readonly pz: Float64Array;
  /** Velocity x (m/s). */
  readonly vx: Float64Array;
  /** Velocity y (m/s). */
  readonly vy: Float64Array;
  /** `AgentFlags` bits. */
  readonly flags: Uint8Array;
  /** Body radius (m); binary files store it (NaN when absent), text files do not. */
  readonly radius?: Float64Array;
}

/**
 * Streams one trajectory file: a header, then frames. A frame is declared with its agent count,
 * filled from one or more column ranges, and ended; only ended frames reach the file.
 */
export interface TrajectoryWriter {
  /** The file being written. */
  readonly path: string;
  /** The file format. */
  readonly format: "text" | "csv" | "binary" | "geojson";
  /** Writes the header; must come first, once. */
  writeHeader(header: TrajectoryHeader): void;
  /** Starts frame number `frame` at `time` (s) holding `count` agents. */
  beginFrame(frame: number, time: number, count: number): void;
  /** Adds agents `begin … end-1` of `columns` to the current frame. */
  writeAgents(columns: AgentColumns, begin: number, end: number): void;
  /** Completes the current frame; throws unless exactly `count` agents were added. */
  endFrame(): void;
  /** Writes every completed frame still buffered. */
  flush(): void;
  /** Flushes and closes the file; later calls do nothing. */
  close(): void;
}

/**
 * A complete {@linkcode TrajectoryHeader} from the fields given; the others are null or empty
 * (`startTime` 0).
 *
 * @example A header for measured data at 25 frames per second
 * ```ts
 * import { createTrajectoryHeader } from "./trajectory.ts";
 * import assert from "node:assert/strict";
 * const header = createTrajectoryHeader({ frameRate: 25, description: "bottleneck" });
 * assert.equal(header.dt, null);
 * assert.deepEqual(header.polygons, []);
 * ```
 */
export function createTrajectoryHeader(
  fields: Partial<TrajectoryHeader> & Pick<TrajectoryHeader, "frameRate">,
): TrajectoryHeader {
  return {
    dt: null,
    every: null,
    startTime: 0,
    scenario: null,
    strategy: null,
    seed: null,
    description: null,
    anchor: null,
    bounds: null,
    polygons: [],
    walls: [],
    meta: {},
    ...fields,
  };
}

/**
 * One entry point for reading trajectory files of either format.
 *
 * @module
 */
import { _readFileBytes } from "./_file_io.ts";
import { BINARY_TRAJECTORY_MAGIC, decodeBinaryTrajectory } from "./binary_trajectory.ts";
import { CSV_TRAJECTORY_COLUMNS, decodeCsvTrajectory } from "./csv_trajectory.ts";
import { decodeTextTrajectory, type TextTrajectoryReadOptions } from "./text_trajectory.ts";
import { type TrajectoryData, TrajectoryFileError } from "./trajectory.ts";

/**
 * Options of {@linkcode readTrajectory}; they only matter for text files that lack the values
 * (and single-frame CSV files, for the frame rate).
 */
export type ReadTrajectoryOptions = TextTrajectoryReadOptions;

/**
 * Reads a trajectory file in any format: binary when it starts with the binary magic (or its
 * name ends in `.bin`), comma-separated when it starts with the CSV header row (or its name ends
 * in `.csv`), text otherwise. Both give the same {@linkcode TrajectoryData}: frames in
 * ascending order, each with parallel columns `ids`, `x`, `y`, `z` in metres (binary files add
 * `vx`, `vy`, `flags`). A frame or line cut by an interrupted run is ignored and flagged as
 * `incomplete`; anything else wrong throws a {@linkcode TrajectoryFileError} naming the file and
 * the line or byte offset.
 *
 * @example Read a measured PeTrack file (centimetres) as metres
 * ```ts
 * import { readTrajectory } from "./read_trajectory.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".txt" });
 * await Deno.writeTextFile(path, "# framerate: 25 fps\n# id frame x/cm y/cm z/cm\n1 0 100 -50 176\n");
 * const data = readTrajectory(path);
 * assert.equal(data.format, "text");
 * assert.deepEqual([data.frames[0].x[0], data.frames[0].y[0]], [1, -0.5]);
 * await Deno.remove(path);
 * ```
 */
export function readTrajectory(path: string, options: ReadTrajectoryOptions = {}): TrajectoryData {
  const bytes = _readFileBytes(path);
  if (bytes.length === 0) throw new TrajectoryFileError(path, "the file is empty");
  const magic = BINARY_TRAJECTORY_MAGIC;
  const isBinary = bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
  if (isBinary || /\.bin$/i.test(path)) return decodeBinaryTrajectory(bytes, path);
  const csvHeader = new TextEncoder().encode(`${CSV_TRAJECTORY_COLUMNS[0]},`);
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const isCsv = csvHeader.every((b, i) => bytes[start + i] === b);
  if (isCsv || /\.csv$/i.test(path)) return decodeCsvTrajectory(bytes, path, options);
  return decodeTextTrajectory(bytes, path, options);
}

/**
 * Recording: streamed trajectory files and their readers.
 *
 * - {@linkcode TrajectoryRecorder} observes a world and writes a frame every `every` steps, in
 *   one of three formats chosen by the file extension:
 *   - **text** (`.txt`): `#` header lines and rows `id frame x y z` in metres, the format
 *     of the Jülich experiments that PedPy's `load_trajectory_from_txt` reads
 *     (`text_trajectory.ts`);
 *   - **CSV** (`.csv`): comma-separated values with a header row `id,frame,time_s,x_m,y_m,z_m`
 *     (`csv_trajectory.ts`);
 *   - **binary** (`.bin`): a compact columnar format with velocities, flags and the static
 *     geometry, for replay; its byte layout is documented in `binary_trajectory.ts`.
 * - {@linkcode readTrajectory} reads every format, and measured data of the same text family
 *   (PeTrack files in centimetres, JuPedSim files), into one {@linkcode TrajectoryData} shape;
 *   {@linkcode groupByAgent} regroups its rows per trajectory id.
 *
 * Writes are synchronous and whole-frame, so an interrupted run leaves a file whose complete
 * frames all read back.
 *
 * @example Record a run as text and analyse it per agent
 * ```ts
 * import { groupByAgent, readTrajectory, TrajectoryRecorder } from "./mod.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * world.addAgent({ x: 0, y: 0, goalX: 0, goalY: 5, desiredSpeed: 1.25 });
 * {
 *   using recorder = new TrajectoryRecorder({ path: `${dir}/run.txt`, scenario: "demo", seed: 3 });
 *   world.addObserver(recorder);
 *   for (let i = 0; i < 20; i++) world.step();
 * } // closed here
 * const data = readTrajectory(`${dir}/run.txt`);
 * assert.equal(data.frameRate, 20);
 * assert.equal(data.header.seed, 3);
 * const track = groupByAgent(data).get(0)!;
 * assert.equal(track.count, 21); // frame 0 and one frame per step
 * assert.equal(track.y[20], 1.25); // 1 s at 1.25 m/s
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
export { type AgentTrack, groupByAgent } from "./agent_tracks.ts";
export {
  BINARY_TRAJECTORY_MAGIC,
  BINARY_TRAJECTORY_VERSION,
  binaryFrameBytes,
  BinaryTrajectoryWriter,
  type BinaryTrajectoryWriterOptions,
  decodeBinaryTrajectory,
  readBinaryTrajectory,
} from "./binary_trajectory.ts";
export {
  CSV_LONLAT_COLUMNS,
  CSV_TRAJECTORY_COLUMNS,
  type CsvTrajectoryReadOptions,
  CsvTrajectoryWriter,
  type CsvTrajectoryWriterOptions,
  decodeCsvTrajectory,
  readCsvTrajectory,
} from "./csv_trajectory.ts";
export { GeoJsonTrajectoryWriter } from "./geojson_trajectory.ts";
export { readTrajectory, type ReadTrajectoryOptions } from "./read_trajectory.ts";
export {
  type TrajectoryFormat,
  TrajectoryRecorder,
  type TrajectoryRecorderOptions,
} from "./recorder.ts";
export {
  decodeTextTrajectory,
  formatTextHeader,
  readTextTrajectory,
  type TextTrajectoryReadOptions,
  TextTrajectoryWriter,
  type TextTrajectoryWriterOptions,
} from "./text_trajectory.ts";
export {
  type AgentColumns,
  createTrajectoryHeader,
  type GeoAnchor,
  type TrajectoryBounds,
  type TrajectoryData,
  TrajectoryFileError,
  type TrajectoryFrame,
  type TrajectoryHeader,
  type TrajectoryWriter,
} from "./trajectory.ts";

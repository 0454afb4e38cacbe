/**
 * The traffic track of a recording: the cars, signal heads and crossing states of a run with
 * cars (`city-grid`, `crosswalk`), frame by frame beside its trajectory file, so that a replay
 * draws them as a live run does. `deno task sim --scenario crosswalk --out run.bin` writes
 * `run.bin` and `run.bin.traffic`; `deno task view run.bin` finds the track by that name.
 *
 * Little-endian:
 *
 * | offset | size | field |
 * | --- | --- | --- |
 * | 0 | 8 | magic `THRTRAF1` |
 * | 8 | 4 | u32 `j`, bytes of the scene's JSON (the viewer's `SceneInfo`: city, stripes, signals) |
 * | 12 | `j` | UTF-8 JSON, then zero padding to a multiple of 4 |
 * | … | | records: u32 frame index, u32 byte length `b`, `b` bytes of a traffic message |
 *
 * Records are written whole and synchronously as the run goes, so a killed run leaves at most a
 * partial last record, which the reader drops. The traffic messages are those of the live viewer
 * (`viewer/traffic_frame.ts`), of view 0; the replay sets each view's index.
 *
 * @module
 */
import type { World, WorldObserver } from "../core/world.ts";
import type { TrajectoryRecorder } from "../recording/recorder.ts";
import { MessageKind, type SceneInfo } from "./frame_protocol.ts";
import type { TrafficScene } from "./traffic_scene.ts";

/** The file's first 8 bytes. */
const MAGIC = "THRTRAF1";

/** The traffic track that belongs to the recording at `path`: `<path>.traffic`. */
export function trafficTrackPath(path: string): string {
  return `${path}.traffic`;
}

/** Options of {@linkcode TrafficTrackRecorder}. */
export interface TrafficTrackRecorderOptions {
  /** File to create (or truncate). */
  path: string;
  /** The scene of the run (the viewer's hello: city layers, stripes, signal heads). */
  scene: SceneInfo;
  /** The run's traffic, encoded each recorded frame. */
  traffic: TrafficScene;
  /**
   * The trajectory recorder this track goes with: a traffic record is written for each of its
   * frames, with as many crossing states as that frame has agents. Attach it to the world first.
   */
  trajectory: TrajectoryRecorder;
}

/**
 * Writes a run's traffic track as a {@linkcode WorldObserver}: one record for each frame its
 * trajectory recorder writes. Add it to the world after that recorder.
 *
 * @example
 * ```ts ignore
 * const recorder = new TrajectoryRecorder({ path: "run.bin" });
 * const track = new TrafficTrackRecorder({ path: trafficTrackPath("run.bin"), scene, traffic, trajectory: recorder });
 * world.addObserver(recorder);
 * world.addObserver(track);
 * ```
 */
export class TrafficTrackRecorder implements WorldObserver, Disposable {
  /** The file. */
  readonly path: string;
  /** Records written so far. */
  framesWritten = 0;
  readonly #file: Deno.FsFile;
  readonly #traffic: TrafficScene;
  readonly #trajectory: TrajectoryRecorder;
  #closed = false;

  /** Creates the file and writes its header (throws a one-line error naming it if it cannot). */
  constructor(options: TrafficTrackRecorderOptions) {
    this.path = options.path;
    this.#traffic = options.traffic;
    this.#trajectory = options.trajectory;
    const json = new TextEncoder().encode(JSON.stringify(options.scene));
    const head = new Uint8Array(12 + ((json.length + 3) & ~3));
    head.set(new TextEncoder().encode(MAGIC), 0);
    new DataView(head.buffer).setUint32(8, json.length, true);
    head.set(json, 12);
    try {
      this.#file = Deno.openSync(this.path, { write: true, create: true, truncate: true });
      _writeAll(this.#file, head);
    } catch (error) {
      throw new Error(`cannot write the traffic track '${this.path}': ${(error as Error).message}`);
    }
  }

  /** Writes frame 0's record (the trajectory recorder wrote frame 0 when it was attached). */
  attach(world: World): void {
    this.afterStep(world);
  }

  /** Writes a record when the trajectory recorder has written a frame since the last one. */
  afterStep(world: World): void {
    if (this.#closed || this.#trajectory.framesWritten <= this.framesWritten) return;
    const message = this.#traffic.encode(world, 0, this.#trajectory.lastFrameCount);
    const record = new Uint8Array(8 + message.byteLength);
    const view = new DataView(record.buffer);
    view.setUint32(0, this.#trajectory.framesWritten - 1, true);
    view.setUint32(4, message.byteLength, true);
    record.set(new Uint8Array(message), 8);
    _writeAll(this.#file, record);
    this.framesWritten = this.#trajectory.framesWritten;
  }

  /** Closes the file; later calls do nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#file.close();
  }

  /** Same as {@linkcode TrafficTrackRecorder.close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }
}

/** A traffic track read back: the run's scene and one traffic message per recorded frame. */
export interface TrafficTrack {
  /** The scene of the run. */
  scene: SceneInfo;
  /** Traffic message of each frame by frame index (null where none was recorded). */
  frames: (ArrayBuffer | null)[];
}

/**
 * Reads a traffic track; a partial last record (a killed run) is dropped. Throws an error naming
 * the file and what is wrong with it.
 */
export function readTrafficTrack(path: string): TrafficTrack {
  const bytes = Deno.readFileSync(path);
  const fail = (what: string): never => {
    throw new Error(`traffic track '${path}': ${what}`);
  };
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) {
    fail(`expected a file starting with '${MAGIC}'`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(8, true);
  if (12 + jsonLength > bytes.length) fail("the scene is cut short");
  let scene: SceneInfo;
  try {
    scene = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + jsonLength)));
  } catch (error) {
    return fail(`the scene is not JSON (${(error as Error).message})`);
  }
  if (!scene || typeof scene !== "object" || !Array.isArray(scene.polygons)) {
    fail("the scene has no 'polygons'");
  }
  const frames: (ArrayBuffer | null)[] = [];
  let at = 12 + ((jsonLength + 3) & ~3);
  while (at + 8 <= bytes.length) {
    const index = view.getUint32(at, true), length = view.getUint32(at + 4, true);
    if (at + 8 + length > bytes.length) break;
    if (length < 4 || bytes[at + 8] !== MessageKind.traffic) {
      fail(`the record at byte ${at} is not a traffic message`);
    }
    frames[index] = bytes.slice(at + 8, at + 8 + length).buffer;
    at += 8 + length;
  }
  for (let k = 0; k < frames.length; k++) frames[k] ??= null;
  return { scene, frames };
}

function _writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
}

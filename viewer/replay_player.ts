/**
 * The replay side of the viewer: recorded runs (`.bin`, or text trajectories) played back in
 * sync, one view per recording, with the same agent frames as live mode. Each page has its own
 * {@linkcode ReplayPlayer}: play, pause, step, seek and speed are per page.
 *
 * @module
 */
import { AgentFlags } from "../core/agent_store.ts";
import { readTrajectory } from "../recording/read_trajectory.ts";
import type { TrajectoryData } from "../recording/trajectory.ts";
import {
  AgentStateCode,
  allocateAgentFrame,
  FrameFlags,
  type SceneInfo,
  type ViewInfo,
  writeFrameHeader,
} from "./frame_protocol.ts";
import { sceneFromHeader } from "./scene_info.ts";
import { readTrafficTrack, type TrafficTrack, trafficTrackPath } from "./traffic_track.ts";
import { readSceneFile, sceneFilePath } from "./scene_file.ts";
import { SLOWED_SHARE, STOPPED_SPEED } from "./agent_state.ts";
import {
  DEFAULT_RECORDED_RADIUS,
  measureRecording,
  type RecordedMetrics,
} from "./recorded_metrics.ts";

/** Desired speed assumed when classifying recorded agents as slowed (m/s). */
const NOMINAL_SPEED = 1.34;

/** A recording loaded for replay. */
export interface Recording {
  /** The file. */
  path: string;
  /** Its contents. */
  data: TrajectoryData;
  /** Heading of its view: the strategy, else the file name. */
  label: string;
  /** Arrivals up to and including each frame (distinct ids flagged arrived). */
  arrivals: Uint32Array;
  /** Distinct ids seen up to and including each frame. */
  trips: Uint32Array;
  /** Collisions and salsa up to and including each frame, measured from the recording. */
  metrics: RecordedMetrics;
  /** The cars, lights and crossing states of a run with cars (`<path>.traffic`), else null. */
  traffic: TrafficTrack | null;
  /** The scene of a run on a map (`<path>.scene.json`: the city's layers), else null. */
  scene: SceneInfo | null;
}

/**
 * Reads recordings for replay and measures their collisions and salsa frame by frame
 * (`viewer/recorded_metrics.ts`); a file that cannot be read throws the reader's one-line error
 * naming it.
 *
 * @example
 * ```ts
 * import { loadRecordings } from "./replay_player.ts";
 * import { TrajectoryRecorder } from "../recording/recorder.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".bin" });
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * world.addAgent({ x: 0, y: 0, goalX: 0.6, goalY: 0, desiredSpeed: 1 });
 * const recorder = new TrajectoryRecorder({ path, scenario: "walk" });
 * world.addObserver(recorder);
 * while (!world.finished) world.step();
 * recorder.close();
 * const [recording] = loadRecordings([path]);
 * assert.equal(recording.label, "none");
 * assert.equal(recording.arrivals[recording.arrivals.length - 1], 1);
 * await Deno.remove(path);
 * ```
 */
export function loadRecordings(paths: string[]): Recording[] {
  return paths.map((path) => {
    const data = readTrajectory(path);
    const name = path.split(/[\\/]/).pop() ?? path;
    const { arrivals, trips } = _prefixCounts(data);
    const metrics = measureRecording(data);
    const track = trafficTrackPath(path);
    const traffic = _exists(track) ? readTrafficTrack(track) : null;
    const sceneFile = sceneFilePath(path);
    const scene = _exists(sceneFile) ? readSceneFile(sceneFile) : null;
    const label = data.header.strategy ?? name;
    return { path, data, label, arrivals, trips, metrics, traffic, scene };
  });
}

/**
 * The scene of the first recording: its traffic track's (a run with cars), else its scene file's
 * (a run on a map), else the one its header describes.
 */
export function replayScene(recordings: Recording[]): SceneInfo {
  if (recordings[0].traffic) return recordings[0].traffic.scene;
  if (recordings[0].scene) return recordings[0].scene;
  const data = recordings[0].data, first = data.frames[0];
  return sceneFromHeader(data.header, first?.x ?? [], first?.y ?? []);
}

/** One view per recording. */
export function replayViews(recordings: Recording[]): ViewInfo[] {
  return recordings.map((r, index) => ({
    index,
    strategy: r.data.header.strategy ?? r.label,
    label: r.label,
    overlays: [],
  }));
}

/** Time span (s) of the recordings together, and their frame counts. */
export function replayTimeline(
  recordings: Recording[],
): { startTime: number; endTime: number; frames: number[] } {
  let startTime = Infinity, endTime = -Infinity;
  for (const r of recordings) {
    const frames = r.data.frames;
    if (frames.length === 0) continue;
    startTime = Math.min(startTime, frames[0].time);
    endTime = Math.max(endTime, frames[frames.length - 1].time);
  }
  if (!(startTime <= endTime)) startTime = endTime = 0;
  return { startTime, endTime, frames: recordings.map((r) => r.data.frames.length) };
}

/**
 * Encodes frame `index` of a recording as an agent frame of the viewer protocol (velocities 0
 * when the file has none; radius from the file, else {@linkcode DEFAULT_RECORDED_RADIUS};
 * collisions and salsa as measured from the recording; ms per step NaN: recordings do not hold
 * the cost of their steps).
 *
 * @example
 * ```ts
 * import { encodeRecordedFrame, loadRecordings } from "./replay_player.ts";
 * import { decodeAgentFrame } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".txt" });
 * await Deno.writeTextFile(path, "# framerate: 10\n# id frame x/m y/m z/m\n1 0 1.5 2 0\n2 0 -1 0 0\n1 1 1.6 2 0\n");
 * const [recording] = loadRecordings([path]);
 * const frame = decodeAgentFrame(encodeRecordedFrame(recording, 0, 1, 0));
 * assert.equal(frame.count, 2);
 * assert.deepEqual([...frame.positions], [1.5, 2, -1, 0]);
 * assert.equal(frame.radius[0], 0.25);
 * await Deno.remove(path);
 * ```
 */
export function encodeRecordedFrame(
  recording: Recording,
  index: number,
  view: number,
  flags: number,
): ArrayBuffer {
  const source = recording.data.frames[index];
  const n = source?.count ?? 0;
  const frame = allocateAgentFrame(n);
  if (!source) {
    writeFrameHeader(frame.buffer, {
      view,
      flags: flags | FrameFlags.replay,
      count: 0,
      step: index,
      msPerStep: NaN,
      time: 0,
      collisions: NaN,
      arrivals: 0,
      trips: 0,
      meanSpeed: NaN,
      salsa: NaN,
      timeFactor: 0,
    });
    return frame.buffer;
  }
  const { positions, velocities, state, radius } = frame;
  const x = source.x, y = source.y, vx = source.vx, vy = source.vy, f = source.flags;
  const r = source.radius ?? null;
  let speedSum = 0, walking = 0;
  for (let i = 0, j = 0; i < n; i++, j += 2) {
    positions[j] = x[i];
    positions[j + 1] = y[i];
    const u = vx ? vx[i] : 0, w = vy ? vy[i] : 0;
    velocities[j] = u;
    velocities[j + 1] = w;
    radius[i] = r !== null && r[i] > 0 ? r[i] : DEFAULT_RECORDED_RADIUS;
    const bits = f ? f[i] : 0;
    if ((bits & AgentFlags.frozen) !== 0) state[i] = AgentStateCode.frozen;
    else if ((bits & AgentFlags.arrived) !== 0) state[i] = AgentStateCode.arrived;
    else {
      const speed = Math.sqrt(u * u + w * w);
      speedSum += speed;
      walking++;
      state[i] = !vx
        ? AgentStateCode.walking
        : speed < STOPPED_SPEED
        ? AgentStateCode.stopped
        : speed < SLOWED_SHARE * NOMINAL_SPEED
        ? AgentStateCode.slowed
        : AgentStateCode.walking;
    }
  }
  frame.ids.set(source.ids.subarray(0, n));
  writeFrameHeader(frame.buffer, {
    view,
    flags: flags | FrameFlags.replay,
    count: n,
    step: index,
    msPerStep: NaN,
    time: source.time,
    collisions: recording.metrics.collisions[index],
    arrivals: recording.arrivals[index],
    trips: recording.trips[index],
    meanSpeed: vx && walking > 0 ? speedSum / walking : NaN,
    salsa: recording.metrics.salsa[index],
    timeFactor: 0,
  });
  return frame.buffer;
}

/** Options of {@linkcode ReplayPlayer}. */
export interface ReplayPlayerOptions {
  /** Most frames sent per second (Hz). @default 30 */
  maxFps?: number;
  /** Called when playback reaches the end and pauses by itself. @default none */
  onEnd?: () => void;
}

/**
 * Plays recordings back in sync for one page: at `speed` × real time, the views show the frame
 * of each recording nearest the playback time. `send` gets the frames of every view at once, and
 * the traffic messages of the views whose recording has a traffic track.
 *
 * @example Seek, then step one frame
 * ```ts
 * import { loadRecordings, ReplayPlayer } from "./replay_player.ts";
 * import { decodeAgentFrame } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".txt" });
 * await Deno.writeTextFile(path, "# framerate: 10\n# id frame x/m y/m z/m\n1 0 0 0 0\n1 1 0.1 0 0\n1 2 0.2 0 0\n1 3 0.3 0 0\n");
 * const sent: number[] = [];
 * const player = new ReplayPlayer(loadRecordings([path]), (frames) => {
 *   sent.push(decodeAgentFrame(frames[0]).step);
 * });
 * player.seek(0.1);
 * player.step(1);
 * player.close();
 * assert.deepEqual(sent, [1, 2]);
 * await Deno.remove(path);
 * ```
 */
export class ReplayPlayer {
  /** Playback time (s). */
  time: number;
  /** Paused? Starts paused. */
  paused = true;
  /** Speed multiplier. */
  speed = 1;
  readonly #recordings: Recording[];
  readonly #send: (frames: ArrayBuffer[], traffic: ArrayBuffer[]) => void;
  readonly #maxFps: number;
  readonly #onEnd: (() => void) | undefined;
  readonly #start: number;
  readonly #end: number;
  readonly #frameRate: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastWall = 0;
  #closed = false;

  /** Starts paused at the first frame (sent at once). */
  constructor(
    recordings: Recording[],
    send: (frames: ArrayBuffer[], traffic: ArrayBuffer[]) => void,
    options: ReplayPlayerOptions = {},
  ) {
    this.#recordings = recordings;
    this.#send = send;
    this.#maxFps = options.maxFps ?? 30;
    this.#onEnd = options.onEnd;
    const timeline = replayTimeline(recordings);
    this.#start = timeline.startTime;
    this.#end = timeline.endTime;
    this.#frameRate = Math.max(...recordings.map((r) => r.data.frameRate));
    this.time = this.#start;
  }

  /** Plays or pauses; sends the current frames. */
  setPaused(paused: boolean): void {
    this.paused = paused;
    if (!paused && this.time >= this.#end) this.time = this.#start;
    this.#lastWall = performance.now();
    this.#schedule();
    this.#emit();
  }

  /** Sets the speed multiplier. */
  setSpeed(speed: number): void {
    if (!(speed > 0)) {
      throw new RangeError(
        `Cannot set the replay speed as it must be > 0: current value is ${speed}`,
      );
    }
    this.speed = speed;
  }

  /** Jumps to `time` (s, clamped to the recordings) and sends its frames. */
  seek(time: number): void {
    this.time = Math.min(this.#end, Math.max(this.#start, time));
    this.#emit();
  }

  /** Moves `delta` frames (of the fastest recording) and pauses. */
  step(delta: number): void {
    this.paused = true;
    this.#schedule();
    this.seek(this.time + delta / this.#frameRate + 1e-9);
  }

  /** Stops playback; later calls do nothing. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  /** Sends the frames at the current time. */
  emit(): void {
    this.#emit();
  }

  /** What recording `view` holds about agent `id` at the current time; null when absent. */
  inspect(view: number, id: number): Record<string, number | string | boolean> | null {
    const r = this.#recordings[view];
    if (!r) return null;
    const frame = r.data.frames[this.#frameIndex(r)];
    const i = frame ? frame.ids.subarray(0, frame.count).indexOf(id) : -1;
    if (!frame || i < 0) return null;
    const vx = frame.vx ? frame.vx[i] : NaN, vy = frame.vy ? frame.vy[i] : NaN;
    const flags = frame.flags ? frame.flags[i] : 0;
    return {
      id,
      x: frame.x[i],
      y: frame.y[i],
      vx,
      vy,
      speed: Math.hypot(vx, vy),
      headingDeg: (Math.atan2(vy, vx) * 180) / Math.PI,
      radius: frame.radius && frame.radius[i] > 0 ? frame.radius[i] : DEFAULT_RECORDED_RADIUS,
      state: (flags & AgentFlags.frozen) !== 0
        ? "frozen"
        : (flags & AgentFlags.arrived) !== 0
        ? "arrived"
        : "walking",
      time: frame.time,
      frame: frame.frame,
      file: r.path,
    };
  }

  #frameIndex(r: Recording): number {
    const frames = r.data.frames;
    const first = frames.length > 0 ? frames[0].time : 0;
    const index = Math.round((this.time - first) * r.data.frameRate + 1e-9);
    return Math.max(0, Math.min(frames.length - 1, index));
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.paused || this.#closed) return;
    const interval = Math.max(1000 / this.#maxFps, 1000 / (this.#frameRate * this.speed));
    this.#timer = setTimeout(() => {
      const now = performance.now();
      this.time += ((now - this.#lastWall) / 1000) * this.speed;
      this.#lastWall = now;
      const ended = this.time >= this.#end;
      if (ended) {
        this.time = this.#end;
        this.paused = true;
      }
      this.#emit();
      this.#schedule();
      if (ended) this.#onEnd?.();
    }, interval);
  }

  #emit(): void {
    if (this.#closed) return;
    const flags = this.paused ? FrameFlags.paused : 0;
    const traffic: ArrayBuffer[] = [];
    this.#recordings.forEach((r, view) => {
      const message = r.traffic?.frames[this.#frameIndex(r)];
      if (!message) return;
      const copy = message.slice(0);
      new Uint8Array(copy)[2] = view;
      traffic.push(copy);
    });
    this.#send(
      this.#recordings.map((r, view) => encodeRecordedFrame(r, this.#frameIndex(r), view, flags)),
      traffic,
    );
  }
}

function _exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function _prefixCounts(data: TrajectoryData): { arrivals: Uint32Array; trips: Uint32Array } {
  const frames = data.frames;
  const arrivals = new Uint32Array(frames.length), trips = new Uint32Array(frames.length);
  let maxId = 0;
  for (const f of frames) for (let i = 0; i < f.count; i++) maxId = Math.max(maxId, f.ids[i]);
  const seen = new Uint8Array(maxId + 1); // bit 1 seen, bit 2 arrived
  let tripCount = 0, arrivalCount = 0;
  frames.forEach((f, k) => {
    for (let i = 0; i < f.count; i++) {
      const id = f.ids[i];
      if ((seen[id] & 1) === 0) {
        seen[id] |= 1;
        tripCount++;
      }
      if (f.flags && (f.flags[i] & AgentFlags.arrived) !== 0 && (seen[id] & 2) === 0) {
        seen[id] |= 2;
        arrivalCount++;
      }
    }
    arrivals[k] = arrivalCount;
    trips[k] = tripCount;
  });
  return { arrivals, trips };
}

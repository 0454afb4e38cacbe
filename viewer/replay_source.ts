/**
 * Recordings as a {@linkcode FrameSource}: each page plays them back with its own
 * {@linkcode ReplayPlayer}, so its play, pause, speed, step and position are its own.
 *
 * @module
 */
import type { FrameSource, PageSink, Playback, PlaybackInfo } from "./frame_source.ts";
import type { InspectResultMessage, OverlayName } from "./frame_protocol.ts";
import {
  loadRecordings,
  type Recording,
  ReplayPlayer,
  replayScene,
  replayTimeline,
  replayViews,
} from "./replay_player.ts";

/**
 * Recorded runs played back in sync, one view per recording (1–4).
 *
 * @example A page seeks, then steps one frame
 * ```ts
 * import { ReplayFrameSource } from "./replay_source.ts";
 * import { decodeAgentFrame } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".txt" });
 * await Deno.writeTextFile(path, "# framerate: 10\n# id frame x/m y/m z/m\n1 0 0 0 0\n1 1 0.1 0 0\n1 2 0.2 0 0\n");
 * const source = ReplayFrameSource.load([path]);
 * const steps: number[] = [];
 * const page = { frames: (f: ArrayBuffer[]) => steps.push(decodeAgentFrame(f[0]).step), error() {}, statusChanged() {} };
 * const playback = await source.open(page);
 * playback.seek(0.1);
 * playback.step(1);
 * playback.close();
 * assert.deepEqual(steps, [0, 1, 2]);
 * await Deno.remove(path);
 * ```
 */
export class ReplayFrameSource implements FrameSource {
  /** Always `replay`. */
  readonly mode = "replay" as const;
  /** The recordings, one view each. */
  readonly recordings: readonly Recording[];
  readonly #info: PlaybackInfo;

  /** Serves `recordings` (1–4; throws a RangeError otherwise). */
  constructor(recordings: Recording[]) {
    if (recordings.length < 1 || recordings.length > 4) {
      throw new RangeError(
        `Cannot replay as 'recordings' must hold 1 to 4 recordings: current value is ${recordings.length}`,
      );
    }
    this.recordings = recordings;
    const first = recordings[0].data;
    this.#info = {
      mode: "replay",
      scene: replayScene(recordings),
      views: replayViews(recordings),
      seed: first.header.seed,
      agents: Math.max(...recordings.map((r) => r.trips[r.trips.length - 1] ?? 0)),
      dt: first.header.dt ?? 1 / first.frameRate,
      frameRate: first.frameRate,
      timeline: replayTimeline(recordings),
    };
  }

  /** Reads the recording files (see {@linkcode loadRecordings}) and serves them. */
  static load(paths: string[]): ReplayFrameSource {
    return new ReplayFrameSource(loadRecordings(paths));
  }

  /** Starts a page's playback, paused at the first frame (sent at once). */
  open(page: PageSink): Promise<Playback> {
    return Promise.resolve(new _ReplayPlayback(this.recordings, this.#info, page));
  }

  /** Nothing to free: each playback stops with its page. */
  close(): void {}
}

/** One page's playback of the recordings. */
class _ReplayPlayback implements Playback {
  readonly #player: ReplayPlayer;
  readonly #info: PlaybackInfo;

  constructor(recordings: readonly Recording[], info: PlaybackInfo, page: PageSink) {
    this.#info = info;
    this.#player = new ReplayPlayer(
      [...recordings],
      (frames, traffic) => page.frames(frames, traffic),
      {
        onEnd: () => page.statusChanged(),
      },
    );
    this.#player.emit();
  }

  get paused(): boolean {
    return this.#player.paused;
  }

  get speed(): number {
    return this.#player.speed;
  }

  info(): PlaybackInfo {
    return this.#info;
  }

  setPaused(paused: boolean): void {
    this.#player.setPaused(paused);
  }

  setSpeed(speed: number): void {
    this.#player.setSpeed(speed);
  }

  step(delta: number): void {
    this.#player.step(delta);
  }

  seek(time: number): void {
    this.#player.seek(time);
  }

  restart(_seed: number): Promise<void> {
    this.#player.seek(-Infinity);
    return Promise.resolve();
  }

  setOverlays(_names: OverlayName[], _focus: number | null): void {
    // Recordings carry no debug geometry.
  }

  inspect(view: number, id: number): Promise<InspectResultMessage["state"]> {
    return Promise.resolve(this.#player.inspect(view, id));
  }

  close(): void {
    this.#player.close();
  }
}

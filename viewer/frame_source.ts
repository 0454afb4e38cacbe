/**
 * What the viewer server shows, behind one interface: a {@linkcode FrameSource} opens one
 * {@linkcode Playback} per connected page, and the page's commands (play, pause, speed, step,
 * seek, restart, overlays, inspect) go to that playback only. Live simulations
 * (`viewer/live_source.ts`) and recordings (`viewer/replay_source.ts`) are the two sources; the
 * server (`viewer/server.ts`) never asks which one it serves.
 *
 * A playback sends what the page draws to its {@linkcode PageSink}: agent frames and debug
 * geometry as binary messages in the layout of `viewer/frame_protocol.ts`, errors as messages,
 * and a nudge when its playback state changed on its own (a live run that failed and paused, a
 * replay that reached its end).
 *
 * @module
 */
import type { HelloMessage, InspectResultMessage, OverlayName } from "./frame_protocol.ts";

/** What a page is told first: everything of the hello message the source decides. */
export type PlaybackInfo = Omit<HelloMessage, "type" | "protocol" | "tiles">;

/** Where a playback sends what its page shows. */
export interface PageSink {
  /**
   * Agent frames of every view at one time, then debug geometry and traffic messages (possibly
   * none).
   */
  frames(frames: ArrayBuffer[], debug: ArrayBuffer[]): void;
  /** A one-line error the page should show. */
  error(message: string): void;
  /** The playback paused, resumed or changed speed by itself: the page should be told. */
  statusChanged(): void;
}

/** One page's playback: its own clock, pause state, speed and (live) seed. */
export interface Playback {
  /** Paused? */
  readonly paused: boolean;
  /** Speed multiplier (1 = real time). */
  readonly speed: number;
  /** The page's hello (again after a restart: the seed changes). */
  info(): PlaybackInfo;
  /** Plays or pauses. */
  setPaused(paused: boolean): void;
  /** Sets the speed multiplier (0 < speed ≤ 64). */
  setSpeed(speed: number): void;
  /** Moves `delta` steps (live: forward only) or frames (replay) and pauses. */
  step(delta: number): void;
  /** Jumps to `time` (s); live runs cannot and ignore it. */
  seek(time: number): void;
  /** Starts again from time 0: live runs with `seed`, a replay from its first frame. */
  restart(seed: number): Promise<void>;
  /** Chooses the debug overlays and the focused agent (recordings carry no debug geometry). */
  setOverlays(names: OverlayName[], focus: number | null): void;
  /** The state of agent `id` in view `view`, or null when it is not there. */
  inspect(view: number, id: number): Promise<InspectResultMessage["state"]>;
  /** Stops sending; later calls do nothing. */
  close(): void;
}

/** Opens a playback per page. */
export interface FrameSource {
  /** `live` or `replay`, for logs. */
  readonly mode: "live" | "replay";
  /**
   * Starts a playback for one page, sending to `page`. Rejects with a one-line error when no
   * playback can start (a live source at its page limit).
   */
  open(page: PageSink): Promise<Playback>;
  /** Stops every playback and frees the source. */
  close(): void;
}

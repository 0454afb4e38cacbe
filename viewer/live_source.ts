/**
 * Live simulations as a {@linkcode FrameSource}: every page gets its own runs (one world per
 * strategy, stepped in workers by a {@linkcode LiveSimulation}), so its play, pause, speed, step
 * and seed are its own, as in a replay.
 *
 * Starting a simulation costs its workers' start-up (about a second), so the source keeps one
 * built, paused simulation in reserve: a page that connects takes it at once, and a page that
 * leaves hands its simulation back, rebuilt from time 0 with the source's seed, when the reserve
 * is empty. At most `maxPages` pages run simulations at once; another page is refused with a
 * message saying so.
 *
 * @module
 */
import type { FrameSource, PageSink, Playback, PlaybackInfo } from "./frame_source.ts";
import type { InspectResultMessage, OverlayName, SceneInfo, ViewInfo } from "./frame_protocol.ts";
import { LiveSimulation, type LiveSimulationOptions } from "./live_simulation.ts";

/** Default for {@linkcode LiveFrameSourceOptions.maxPages}. */
export const DEFAULT_MAX_LIVE_PAGES = 4;

/** Options of {@linkcode LiveFrameSource.start}. */
export interface LiveFrameSourceOptions extends LiveSimulationOptions {
  /** Start every page's runs paused. @default false */
  paused?: boolean;
  /**
   * Most pages running their own simulations at once (each steps one world per strategy on the
   * server's cores). @default 4
   */
  maxPages?: number;
}

/**
 * Live runs, one set per page.
 *
 * @example Two pages, each with its own speed
 * ```ts
 * import { LiveFrameSource } from "./live_source.ts";
 * import assert from "node:assert/strict";
 * const source = await LiveFrameSource.start({ scenario: "corridor", strategies: ["none"], agents: 4, paused: true });
 * const page = { frames() {}, error() {}, statusChanged() {} };
 * const a = await source.open(page), b = await source.open(page);
 * a.setSpeed(4);
 * assert.deepEqual([a.speed, b.speed], [4, 1]);
 * a.close();
 * b.close();
 * source.close();
 * ```
 */
export class LiveFrameSource implements FrameSource {
  /** Always `live`. */
  readonly mode = "live" as const;
  /** The scene (the same for every page). */
  readonly scene: SceneInfo;
  /** One view per strategy. */
  readonly views: ViewInfo[];
  /** Agents the scenario places over a run. */
  readonly agents: number;
  /** Seed each page starts with. */
  readonly seed: number;
  readonly #options: LiveFrameSourceOptions;
  readonly #maxPages: number;
  #spare: LiveSimulation | null;
  #recycling: Promise<void> | null = null;
  #recycled: LiveSimulation | null = null;
  #pages = 0;
  #closed = false;

  private constructor(options: LiveFrameSourceOptions, first: LiveSimulation) {
    this.#options = options;
    this.#maxPages = options.maxPages ?? DEFAULT_MAX_LIVE_PAGES;
    this.#spare = first;
    this.scene = first.scene;
    this.views = first.views;
    this.agents = first.agents;
    this.seed = first.seed;
  }

  /**
   * Builds the first simulation (so a bad scenario or strategy fails here, with its one-line
   * error) and returns the source. Throws a RangeError when `maxPages` is not an integer ≥ 1.
   */
  static async start(options: LiveFrameSourceOptions): Promise<LiveFrameSource> {
    const maxPages = options.maxPages ?? DEFAULT_MAX_LIVE_PAGES;
    if (!Number.isInteger(maxPages) || maxPages < 1) {
      throw new RangeError(
        `Cannot start live runs as 'maxPages' must be an integer >= 1: current value is ${maxPages}`,
      );
    }
    return new LiveFrameSource(options, await LiveSimulation.start(options));
  }

  /** Pages running simulations now. */
  get pages(): number {
    return this.#pages;
  }

  /** Starts a page's runs: the reserve simulation, or a new one when there is none. */
  async open(page: PageSink): Promise<Playback> {
    if (this.#closed) throw new Error("the live source is closed");
    if (this.#pages >= this.#maxPages) {
      throw new RangeError(
        `at most ${this.#maxPages} pages can run live simulations at once: close one and reload`,
      );
    }
    this.#pages++;
    try {
      if (!this.#spare && this.#recycling) await this.#recycling;
      let simulation = this.#spare;
      this.#spare = null;
      simulation ??= await LiveSimulation.start(this.#options);
      if (this.#closed) {
        simulation.close();
        throw new Error("the live source is closed");
      }
      return new _LivePlayback(
        simulation,
        page,
        this.#options.paused ?? false,
        (s) => this.#release(s),
      );
    } catch (error) {
      this.#pages--;
      throw error;
    }
  }

  /** Stops every simulation. */
  close(): void {
    this.#closed = true;
    this.#spare?.close();
    this.#spare = null;
    this.#recycled?.close();
  }

  /** A page left: keep its simulation, rebuilt, as the reserve if there is none. */
  #release(simulation: LiveSimulation): void {
    this.#pages--;
    if (this.#closed || this.#spare || this.#recycling) {
      simulation.close();
      return;
    }
    simulation.pause();
    simulation.setOverlays([], null);
    simulation.setSpeed(1);
    this.#recycled = simulation;
    this.#recycling = simulation.restart(this.seed).then(
      () => {
        if (this.#closed || this.#spare) simulation.close();
        else this.#spare = simulation;
      },
      () => simulation.close(),
    ).finally(() => {
      this.#recycling = null;
      this.#recycled = null;
    });
  }
}

/** One page's live runs. */
class _LivePlayback implements Playback {
  readonly #simulation: LiveSimulation;
  readonly #release: (simulation: LiveSimulation) => void;
  #closed = false;

  constructor(
    simulation: LiveSimulation,
    page: PageSink,
    paused: boolean,
    release: (simulation: LiveSimulation) => void,
  ) {
    this.#simulation = simulation;
    this.#release = release;
    simulation.onTick = (tick) => page.frames(tick.frames, tick.debug);
    simulation.onError = (message) => {
      page.error(message);
      page.statusChanged();
    };
    simulation.onReset = null;
    if (paused) simulation.refresh();
    else simulation.resume();
  }

  get paused(): boolean {
    return this.#simulation.paused;
  }

  get speed(): number {
    return this.#simulation.speed;
  }

  info(): PlaybackInfo {
    const s = this.#simulation;
    return {
      mode: "live",
      scene: s.scene,
      views: s.views,
      seed: s.seed,
      agents: s.agents,
      dt: s.dt,
      frameRate: s.frameRate,
      timeline: null,
    };
  }

  setPaused(paused: boolean): void {
    if (paused) this.#simulation.pause();
    else this.#simulation.resume();
  }

  setSpeed(speed: number): void {
    this.#simulation.setSpeed(speed);
  }

  step(delta: number): void {
    if (delta > 0) this.#simulation.step(delta);
  }

  seek(_time: number): void {
    // A live run cannot go back in time.
  }

  async restart(seed: number): Promise<void> {
    await this.#simulation.restart(seed);
  }

  setOverlays(names: OverlayName[], focus: number | null): void {
    this.#simulation.setOverlays(names, focus);
  }

  inspect(view: number, id: number): Promise<InspectResultMessage["state"]> {
    return this.#simulation.inspect(view, id);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const s = this.#simulation;
    s.onTick = s.onError = s.onReset = null;
    this.#release(s);
  }
}

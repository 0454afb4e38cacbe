/**
 * The live side of the viewer: one simulation per strategy, each in its own worker
 * (`viewer/simulation_worker.ts`), stepped in lockstep so every view shows the same simulated
 * time, paced to real time times the speed multiplier (or as fast as the slowest strategy
 * allows; the frames then carry the achieved time factor).
 *
 * @module
 */
import type { OverlayName, SceneInfo, ViewInfo } from "./frame_protocol.ts";
import type { WorkerReply, WorkerRequest } from "./simulation_worker.ts";
import type { CrosswalkPreset } from "../scenarios/city_traffic.ts";

/** Options of {@linkcode LiveSimulation.start}. */
export interface LiveSimulationOptions {
  /** Built-in scenario name or scenario file. */
  scenario: string;
  /** Strategy names, one view each (1–4). */
  strategies: string[];
  /** Total agent count. @default the scenario's */
  agents?: number;
  /** Seed of every run. @default 1 */
  seed?: number;
  /** Most frames sent per second; faster speeds advance several steps per frame (Hz). @default 30 */
  maxFps?: number;
  /** Cars of a scenario with cars (`city-grid`, `crosswalk`). @default the scenario's */
  cars?: number;
  /** Crowd preset of `crosswalk`. @default "average" */
  preset?: CrosswalkPreset;
}

/**
 * What a tick produced: one agent frame per view, and debug geometry where asked for and traffic
 * state in scenes with cars.
 */
export interface LiveTick {
  /** Agent frames, in view order. */
  frames: ArrayBuffer[];
  /** Debug and traffic messages (may be empty). */
  debug: ArrayBuffer[];
}

/** Most views side by side. */
export const MAX_VIEWS = 4;

/** Window (ms of wall clock) over which the time factor is measured. */
const TIME_FACTOR_WINDOW_MS = 1000;

/**
 * Runs the live simulations. Listeners get every tick's frames ({@linkcode LiveSimulation.onTick})
 * and a notice after a restart ({@linkcode LiveSimulation.onReset}).
 *
 * @example Two strategies side by side, two ticks
 * ```ts
 * import { LiveSimulation } from "./live_simulation.ts";
 * import { decodeAgentFrame } from "./frame_protocol.ts";
 * import assert from "node:assert/strict";
 * const live = await LiveSimulation.start({ scenario: "corridor", strategies: ["none", "none"], agents: 10 });
 * const ticks: number[] = [];
 * live.onTick = (tick) => ticks.push(decodeAgentFrame(tick.frames[1]).step);
 * live.resume();
 * while (ticks.length < 2) await new Promise((r) => setTimeout(r, 10));
 * live.close();
 * assert.ok(ticks[1] > ticks[0]);
 * ```
 */
export class LiveSimulation {
  /** The scene (from the first view's world). */
  scene!: SceneInfo;
  /** One view per strategy. */
  views: ViewInfo[] = [];
  /** Simulation time step (s). */
  dt = 0.05;
  /** Agents the scenario places over the run (every spawner's count). */
  agents = 0;
  /** Seed of the current runs. */
  seed: number;
  /** Paused? */
  paused = true;
  /** Speed multiplier. */
  speed = 1;
  /** Latest tick (sent to pages that connect later). */
  latest: LiveTick | null = null;
  /** Called with every tick. */
  onTick: ((tick: LiveTick) => void) | null = null;
  /** Called after a restart, once the new worlds are built. */
  onReset: (() => void) | null = null;
  /** Called when a simulation fails (the simulation pauses). */
  onError: ((message: string) => void) | null = null;
  /** Wall-clock ms of the last tick's slowest step, per view. */
  stepMs: number[] = [];

  readonly #options: LiveSimulationOptions;
  readonly #maxFps: number;
  #workers: _WorkerHandle[] = [];
  #overlays: OverlayName[] = [];
  #focus: number | null = null;
  #pendingSteps = 0;
  #refresh = true;
  #wake: (() => void) | null = null;
  #closed = false;
  #loop: Promise<void> | null = null;
  #history: { wall: number; sim: number }[] = [];
  #timeFactor = 1;
  #simTime = 0;

  private constructor(options: LiveSimulationOptions) {
    this.#options = options;
    this.seed = options.seed ?? 1;
    this.#maxFps = options.maxFps ?? 30;
  }

  /**
   * Builds one world per strategy (in workers) and returns the paused simulation; call
   * {@linkcode LiveSimulation.resume} to start it. Throws with the first build error (an unknown
   * strategy or scenario names it).
   */
  static async start(options: LiveSimulationOptions): Promise<LiveSimulation> {
    const n = options.strategies.length;
    if (n < 1 || n > MAX_VIEWS) {
      throw new RangeError(
        `Cannot start the live view as 'strategies' must name 1 to ${MAX_VIEWS} strategies: current value is ${n}`,
      );
    }
    const live = new LiveSimulation(options);
    live.#workers = options.strategies.map(() => new _WorkerHandle());
    try {
      await live.#build();
    } catch (error) {
      live.close();
      throw error;
    }
    live.#loop = live.#run();
    return live;
  }

  /** Frames sent per second at speed 1 (Hz). */
  get frameRate(): number {
    return 1 / this.#frameInterval(1).seconds;
  }

  /** Simulated seconds per wall-clock second over the last second. */
  get timeFactor(): number {
    return this.#timeFactor;
  }

  /** Starts or continues stepping. */
  resume(): void {
    this.paused = false;
    this.#history = [];
    this.#kick();
  }

  /** Stops stepping after the current tick. */
  pause(): void {
    this.paused = true;
    this.#refresh = true;
    this.#kick();
  }

  /** Sets the speed multiplier (0 < speed ≤ 64). */
  setSpeed(speed: number): void {
    if (!(speed > 0 && speed <= 64)) {
      throw new RangeError(
        `Cannot set the speed as it must be in (0, 64]: current value is ${speed}`,
      );
    }
    this.speed = speed;
    this.#history = [];
    this.#kick();
  }

  /** Advances `count` steps while paused (one frame each). */
  step(count = 1): void {
    this.#pendingSteps += Math.max(0, Math.floor(count));
    this.#kick();
  }

  /** Sends the current frames again (one tick of no steps), paused or not. */
  refresh(): void {
    this.#refresh = true;
    this.#kick();
  }

  /** Chooses the debug overlays and the focused agent (trajectory id) of every view. */
  setOverlays(names: OverlayName[], focus: number | null): void {
    this.#overlays = [...names];
    this.#focus = focus;
    this.#refresh = true;
    this.#kick();
  }

  /** The state of agent `id` in view `view`, with its strategy's internals; null when gone. */
  inspect(view: number, id: number): Promise<Record<string, number | string | boolean> | null> {
    const worker = this.#workers[view];
    if (!worker) return Promise.resolve(null);
    return worker.inspect(id);
  }

  /** Rebuilds every world with `seed` and starts again from time 0 (keeps pause and speed). */
  async restart(seed: number): Promise<void> {
    this.seed = seed;
    const loop = this.#loop;
    this.#closed = true;
    this.#kick();
    await loop;
    this.#closed = false;
    this.latest = null;
    await this.#build();
    this.#history = [];
    this.#refresh = true;
    this.#loop = this.#run();
    this.onReset?.();
  }

  /** Stops the loop and the workers. */
  close(): void {
    this.#closed = true;
    this.#kick();
    for (const w of this.#workers) w.terminate();
  }

  async #build(): Promise<void> {
    const o = this.#options;
    const built = await Promise.all(this.#workers.map((w, view) =>
      w.build({
        type: "build",
        scenario: o.scenario,
        agents: o.agents,
        strategy: o.strategies[view],
        seed: this.seed,
        view,
        cars: o.cars,
        preset: o.preset,
      })
    ));
    this.scene = built[0].scene;
    this.dt = built[0].dt;
    this.agents = built[0].agents;
    this.#simTime = 0;
    this.views = built.map((b, index) => ({
      index,
      strategy: b.strategy,
      label: b.strategy,
      overlays: b.overlays,
    }));
    this.stepMs = built.map(() => 0);
  }

  /** Steps per frame and wall seconds per frame at `speed`. */
  #frameInterval(speed: number): { steps: number; seconds: number } {
    const steps = Math.max(1, Math.ceil((speed / this.dt) / this.#maxFps - 1e-9));
    return { steps, seconds: (steps * this.dt) / speed };
  }

  #kick(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = null;
        resolve();
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async #run(): Promise<void> {
    while (!this.#closed) {
      let steps = 0;
      const interval = this.#frameInterval(this.speed);
      if (!this.paused) steps = interval.steps;
      else if (this.#pendingSteps > 0) {
        this.#pendingSteps--;
        steps = 1;
      } else if (!this.#refresh) {
        await this.#sleep(1000);
        continue;
      }
      this.#refresh = false;
      const t0 = performance.now();
      let replies;
      try {
        replies = await Promise.all(this.#workers.map((w) =>
          w.step({
            type: "step",
            steps,
            paused: this.paused,
            timeFactor: this.#timeFactor,
            overlays: this.#overlays,
            focus: this.#focus,
          })
        ));
      } catch (error) {
        if (this.#closed) return;
        this.paused = true;
        this.onError?.((error as Error).message);
        continue;
      }
      if (this.#closed) return;
      this.#simTime += steps * this.dt;
      this.#measure(t0);
      replies.forEach((r, i) => this.stepMs[i] = r.stepMs);
      const tick: LiveTick = {
        frames: replies.map((r) => r.frame),
        debug: replies.flatMap((r) => [r.traffic, r.debug].filter((m) => m !== null)),
      };
      this.latest = tick;
      this.onTick?.(tick);
      if (!this.paused) {
        const wait = t0 + interval.seconds * 1000 - performance.now();
        await this.#sleep(Math.max(0, wait));
      }
    }
  }

  #measure(now: number): void {
    const h = this.#history;
    h.push({ wall: now, sim: this.#simTime });
    while (h.length > 2 && now - h[0].wall > TIME_FACTOR_WINDOW_MS) h.shift();
    if (h.length >= 2 && !this.paused) {
      const wall = (h[h.length - 1].wall - h[0].wall) / 1000;
      if (wall > 0) this.#timeFactor = (h[h.length - 1].sim - h[0].sim) / wall;
    } else if (this.paused) this.#timeFactor = 0;
  }
}

/** One worker and the replies it owes, in request order. */
class _WorkerHandle {
  #worker: Worker;
  #waiting: {
    kind: "built" | "frame";
    resolve: (reply: never) => void;
    reject: (error: Error) => void;
  }[] = [];
  #inspections = new Map<
    number,
    (state: Record<string, number | string | boolean> | null) => void
  >();
  #nextRequest = 0;

  constructor() {
    this.#worker = new Worker(new URL("./simulation_worker.ts", import.meta.url).href, {
      type: "module",
    });
    this.#worker.onmessage = (event: MessageEvent<WorkerReply>) => this.#receive(event.data);
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#failAll(new Error(`simulation worker failed: ${event.message}`));
    };
  }

  build(
    request: Extract<WorkerRequest, { type: "build" }>,
  ): Promise<Extract<WorkerReply, { type: "built" }>> {
    return this.#ask("built", request);
  }

  step(
    request: Extract<WorkerRequest, { type: "step" }>,
  ): Promise<Extract<WorkerReply, { type: "frame" }>> {
    return this.#ask("frame", request);
  }

  inspect(id: number): Promise<Record<string, number | string | boolean> | null> {
    const request = this.#nextRequest++;
    return new Promise((resolve) => {
      this.#inspections.set(request, resolve);
      this.#worker.postMessage({ type: "inspect", id, request } satisfies WorkerRequest);
    });
  }

  terminate(): void {
    this.#worker.terminate();
    this.#failAll(new Error("the simulation was closed"));
  }

  #ask<T>(kind: "built" | "frame", request: WorkerRequest): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ kind, resolve: resolve as (reply: never) => void, reject });
      this.#worker.postMessage(request);
    });
  }

  #receive(reply: WorkerReply): void {
    if (reply.type === "inspect") {
      const resolve = this.#inspections.get(reply.request);
      this.#inspections.delete(reply.request);
      resolve?.(reply.state);
      return;
    }
    const waiting = this.#waiting.shift();
    if (!waiting) return;
    if (reply.type === "error") waiting.reject(new Error(reply.message));
    else waiting.resolve(reply as never);
  }

  #failAll(error: Error): void {
    for (const w of this.#waiting.splice(0)) w.reject(error);
    for (const resolve of this.#inspections.values()) resolve(null);
    this.#inspections.clear();
  }
}

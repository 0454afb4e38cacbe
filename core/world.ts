/**
 * The world: agents, static obstacles, spawners, one strategy, one navigator, and a fixed-step
 * loop of named phases.
 *
 * Each {@linkcode World.step} runs, in order:
 *
 * 0. **traffic** — with {@linkcode WorldOptions.traffic}, vehicles (cars) advance one step and
 *    their rectangles are published in {@linkcode World.vehicles} for navigators and strategies;
 * 1. **navigation** — the navigator writes preferred velocities;
 * 2. **strategy** — the strategy writes new velocities from the frozen state (every agent sees
 *    the same positions, so the result does not depend on agent order);
 * 3. **integration** — new velocities are checked (a non-finite one stops the run with a
 *    {@linkcode NonFiniteVelocityError}), limited by each agent's acceleration and speed caps,
 *    and positions advance by `v · dt`;
 * 4. **bookkeeping** — time advances, arrivals are detected and handled (leave, respawn, stay),
 *    due spawns are placed;
 * 5. **indexing** — the agent grid is rebuilt for the next step and for observers.
 *
 * Wall-clock time of each phase accumulates in {@linkcode World.phaseMs}. The static geometry is
 * locked while a step runs.
 *
 * @module
 */
import { AgentFlags, type AgentHandle, type AgentInit, AgentStore } from "./agent_store.ts";
import { AgentGrid } from "./agent_grid.ts";
import type { NavigationContext, Navigator } from "./navigator.ts";
import { StaticObstacles } from "./obstacles.ts";
import { Population } from "./population.ts";
import { MAX_SEED, Rng, RngStream } from "./rng.ts";
import type { StepContext, Strategy, WalkingSide } from "./strategy.ts";
import { Vehicles } from "./vehicles.ts";

/**
 * Moving vehicles the world steps with its pedestrians (cars on lanes with traffic lights).
 * Each step, before navigation, the world calls {@linkcode WorldTraffic.step} with the
 * pedestrians' frozen state and then {@linkcode WorldTraffic.writeVehicles} to publish the
 * vehicles' poses to every strategy. It must be deterministic given its own seed.
 */
export interface WorldTraffic {
  /** Advances the vehicles by `dt` seconds, seeing the pedestrians as they stand. */
  step(dt: number, pedestrians: AgentStore): void;
  /** Writes every vehicle's rectangle and velocity into `out` (then calls `out.finish()`). */
  writeVehicles(out: Vehicles): void;
  /** Accumulated wall-clock milliseconds per named sub-phase (for benchmarks). */
  readonly phaseMs?: Readonly<Record<string, number>>;
}

/** The same object type with writable fields (the world updates its contexts in place). */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Options of a {@linkcode World}. */
export interface WorldOptions {
  /** The avoidance strategy. */
  strategy: Strategy;
  /**
   * Writes preferred velocities each step. Without one, preferred velocities are whatever the
   * caller writes into `agents.prefVx`/`prefVy` (as with RVO2).
   */
  navigator?: Navigator;
  /** Fixed time step (s); Aleksandrov et al. (2021) use 0.05 s. @default 0.05 */
  dt?: number;
  /** Seed of every random stream (unsigned 32-bit integer). @default 1 */
  seed?: number;
  /** Cultural walking side used by strategies that have a directional bias. @default "right" */
  walkingSide?: WalkingSide;
  /** An agent has arrived when its centre is this close to its goal (m). @default 0.5 */
  arrivalRadius?: number;
  /**
   * Agent grid cell size (m). @default twice the strategy's `neighborRadius`, or 2.5 m (twice
   * the 1.25 m pedestrian search radius of Aleksandrov et al. 2021) when the strategy reads no neighbours
   */
  gridCellSize?: number;
  /** Obstacle grid cell size (m): twice the 1.05 m obstacle search radius of Aleksandrov et al. (2021). @default 2.1 */
  obstacleCellSize?: number;
  /** Initial agent capacity (rows); grows as needed. @default 1024 */
  capacity?: number;
  /** Vehicles stepped with the pedestrians and seen by the strategy as moving obstacles. */
  traffic?: WorldTraffic;
}

/** Names of the step phases, in execution order. */
export const PHASES = [
  "traffic",
  "navigation",
  "strategy",
  "integration",
  "bookkeeping",
  "indexing",
] as const;

/** A step phase. */
export type PhaseName = typeof PHASES[number];

/** Reacts to world events; used by metrics and recorders. Every hook is optional. */
export interface WorldObserver {
  /** Called once when added. */
  attach?(world: World): void;
  /** Agent `index` just reached its goal (before its arrival policy applies). */
  onArrival?(world: World, index: number): void;
  /** Agent `index` is about to leave the world (arrived and removed, respawned, or removed). */
  onRemove?(world: World, index: number): void;
  /** The step is complete: positions advanced, bookkeeping done, grid rebuilt. */
  afterStep?(world: World): void;
}

/** Counts of what happened in the last step. */
export interface StepEvents {
  /** Agents that reached their goal. */
  arrived: number;
  /** Agents placed by spawners. */
  spawned: number;
  /** Agents that left the world. */
  removed: number;
}

/** One agent's state as a plain object (for scripts and tests; not for hot loops). */
export interface AgentSnapshot {
  /** Stable handle. */
  handle: AgentHandle;
  /** Current index (changes when others are removed). */
  index: number;
  /** Trajectory id. */
  serial: number;
  /** Position (m). */
  x: number;
  /** Position (m). */
  y: number;
  /** Height (m). */
  z: number;
  /** Velocity (m/s). */
  vx: number;
  /** Velocity (m/s). */
  vy: number;
  /** Goal (m). */
  goalX: number;
  /** Goal (m). */
  goalY: number;
  /** Body radius (m). */
  radius: number;
  /** Unobstructed speed (m/s). */
  desiredSpeed: number;
  /** Reached its goal. */
  arrived: boolean;
}

/** Thrown when a strategy writes a NaN or infinite velocity; the step is abandoned. */
export class NonFiniteVelocityError extends Error {
  constructor(
    /** Strategy name. */
    readonly strategy: string,
    /** Trajectory id of the agent. */
    readonly agentSerial: number,
    /** Step number (0-based). */
    readonly step: number,
    vx: number,
    vy: number,
  ) {
    super(
      `Strategy '${strategy}' produced a non-finite velocity (${vx}, ${vy}) for agent ${agentSerial} at step ${step}`,
    );
    this.name = "NonFiniteVelocityError";
  }
}

/**
 * A simulated world.
 *
 * @example Two agents swap places
 * ```ts
 * import { World } from "./world.ts";
 * import assert from "node:assert/strict";
 * // A strategy that walks at the preferred velocity (see strategies/none.ts).
 * const strategy = {
 *   name: "direct",
 *   neighborRadius: 0,
 *   computeNewVelocities(ctx: import("./strategy.ts").StepContext, begin: number, end: number) {
 *     ctx.agents.newVx.set(ctx.agents.prefVx.subarray(begin, end), begin);
 *     ctx.agents.newVy.set(ctx.agents.prefVy.subarray(begin, end), begin);
 *   },
 * };
 * const world = new World({ strategy });
 * const a = world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0 });
 * world.agents.prefVx[world.agents.indexOf(a)] = 1; // no navigator: the caller steers
 * for (let i = 0; i < 20; i++) world.step();
 * assert(Math.abs(world.agent(a)!.x - 1) < 1e-9); // 20 steps of 0.05 s at 1 m/s
 * ```
 */
export class World {
  /** Agent columns. */
  readonly agents: AgentStore;
  /** Static obstacles. */
  readonly obstacles: StaticObstacles;
  /** Agent grid, rebuilt at the end of every step. */
  readonly grid: AgentGrid;
  /** Spawners. */
  readonly population: Population = new Population();
  /** The avoidance strategy. */
  readonly strategy: Strategy;
  /** The navigator, if any. */
  readonly navigator: Navigator | undefined;
  /** Vehicles stepped with the pedestrians, if any. */
  readonly traffic: WorldTraffic | undefined;
  /** The vehicles' rectangles as of this step (empty without traffic). */
  readonly vehicles: Vehicles = new Vehicles();
  /** Time step (s). */
  readonly dt: number;
  /** Seed of the random streams. */
  readonly seed: number;
  /** Cultural walking side. */
  readonly walkingSide: WalkingSide;
  /** Arrival distance (m). */
  readonly arrivalRadius: number;
  /** Simulation time (s). */
  time = 0;
  /** Steps completed. */
  stepIndex = 0;
  /** Accumulated wall-clock milliseconds per phase. */
  readonly phaseMs: Record<PhaseName, number> = {
    traffic: 0,
    navigation: 0,
    strategy: 0,
    integration: 0,
    bookkeeping: 0,
    indexing: 0,
  };
  /** Wall-clock milliseconds of the last step. */
  lastStepMs = 0;
  /** What happened in the last step. */
  readonly events: StepEvents = { arrived: 0, spawned: 0, removed: 0 };
  /** Scratch buffer for segment queries outside the strategy phase (do not keep references). */
  readonly scratchSegments: Uint32Array = new Uint32Array(256);

  #spawnRng: Rng;
  #stepContext: Mutable<StepContext>;
  #navContext: Mutable<NavigationContext>;
  #observers: WorldObserver[] = [];
  #prepared = false;
  #phase: PhaseName | null = null;
  #gridVersion = -1;
  #arrivedScratch = new Int32Array(64);

  constructor(options: WorldOptions) {
    const dt = options.dt ?? 0.05;
    if (!(dt > 0) || !Number.isFinite(dt)) {
      throw new RangeError(
        `Cannot create World as 'dt' must be a finite number > 0: current value is ${dt}`,
      );
    }
    const arrivalRadius = options.arrivalRadius ?? 0.5;
    if (!(arrivalRadius > 0) || !Number.isFinite(arrivalRadius)) {
      throw new RangeError(
        `Cannot create World as 'arrivalRadius' must be a finite number > 0: current value is ${arrivalRadius}`,
      );
    }
    const walkingSide = options.walkingSide ?? "right";
    if (walkingSide !== "right" && walkingSide !== "left") {
      throw new RangeError(
        `Cannot create World as 'walkingSide' must be "right" or "left": current value is ${
          JSON.stringify(walkingSide)
        }`,
      );
    }
    if (!options.strategy || typeof options.strategy.computeNewVelocities !== "function") {
      throw new TypeError("Cannot create World as 'strategy' must be a Strategy");
    }
    if (options.navigator && typeof options.navigator.updatePreferredVelocities !== "function") {
      throw new TypeError("Cannot create World as 'navigator' must be a Navigator");
    }
    const seed = options.seed ?? 1;
    if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
      throw new RangeError(
        `Cannot create World as 'seed' must be an integer in [0, ${MAX_SEED}]: current value is ${seed}`,
      );
    }
    for (const key of ["gridCellSize", "obstacleCellSize"] as const) {
      const value = options[key];
      if (value !== undefined && (!(value > 0) || !Number.isFinite(value))) {
        throw new RangeError(
          `Cannot create World as '${key}' must be a finite number > 0: current value is ${value}`,
        );
      }
    }
    const capacity = options.capacity ?? 1024;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(
        `Cannot create World as 'capacity' must be an integer >= 1: current value is ${capacity}`,
      );
    }
    this.#spawnRng = new Rng(seed, RngStream.spawn);
    this.dt = dt;
    this.seed = seed;
    this.walkingSide = walkingSide;
    this.arrivalRadius = arrivalRadius;
    this.strategy = options.strategy;
    this.navigator = options.navigator;
    this.traffic = options.traffic;
    this.agents = new AgentStore(capacity);
    this.obstacles = new StaticObstacles({ cellSize: options.obstacleCellSize });
    const radius = this.strategy.neighborRadius;
    if (!(radius >= 0) || !Number.isFinite(radius)) {
      throw new RangeError(
        `Cannot create World as strategy '${this.strategy.name}' has 'neighborRadius' ${radius}: expected a finite number >= 0`,
      );
    }
    this.grid = new AgentGrid({
      cellSize: options.gridCellSize ?? 2 * (radius > 0 ? radius : 1.25),
    });
    for (const spec of this.strategy.columns ?? []) this.agents.registerColumn(spec);
    for (const spec of this.navigator?.columns ?? []) this.agents.registerColumn(spec);
    // Context objects are created once; their time fields are updated in place every step.
    this.#stepContext = {
      agents: this.agents,
      grid: this.grid,
      obstacles: this.obstacles,
      dt,
      time: 0,
      stepIndex: 0,
      rng: new Rng(seed, RngStream.strategy),
      walkingSide,
      vehicles: this.vehicles,
    };
    this.#navContext = {
      agents: this.agents,
      obstacles: this.obstacles,
      dt,
      time: 0,
      stepIndex: 0,
      rng: new Rng(seed, RngStream.navigation),
    };
    this.strategy.attach?.(this);
    this.navigator?.attach?.(this);
  }

  /** The phase running now, or null between steps. */
  get phase(): PhaseName | null {
    return this.#phase;
  }

  /**
   * True when nothing is left to do: every agent has arrived (or left) and no spawner will emit
   * again.
   */
  get finished(): boolean {
    if (!this.population.exhausted) return false;
    const flags = this.agents.flags;
    for (let i = 0; i < this.agents.count; i++) {
      if ((flags[i] & AgentFlags.arrived) === 0) return false;
    }
    return true;
  }

  /** Adds an agent between steps (or from spawners during bookkeeping); returns its handle. */
  addAgent(init: AgentInit): AgentHandle {
    if (this.#phase !== null && this.#phase !== "bookkeeping") {
      throw new Error(`Cannot add agents during the ${this.#phase} phase of a step`);
    }
    const handle = this.agents.add(init);
    this.agents.spawnTime[this.agents.indexOf(handle)] = this.time;
    if (this.#phase === "bookkeeping") this.events.spawned++;
    return handle;
  }

  /** Removes an agent between steps. Returns false when the handle is stale. */
  removeAgent(handle: AgentHandle): boolean {
    if (this.#phase !== null) {
      throw new Error(`Cannot remove agents during the ${this.#phase} phase of a step`);
    }
    const index = this.agents.indexOf(handle);
    if (index < 0) return false;
    this.#removeAt(index);
    return true;
  }

  /** The agent's state as a plain object, or undefined when the handle is stale. */
  agent(handle: AgentHandle): AgentSnapshot | undefined {
    const i = this.agents.indexOf(handle);
    if (i < 0) return undefined;
    const a = this.agents;
    return {
      handle,
      index: i,
      serial: a.serial[i],
      x: a.px[i],
      y: a.py[i],
      z: a.pz[i],
      vx: a.vx[i],
      vy: a.vy[i],
      goalX: a.goalX[i],
      goalY: a.goalY[i],
      radius: a.radius[i],
      desiredSpeed: a.desiredSpeed[i],
      arrived: (a.flags[i] & AgentFlags.arrived) !== 0,
    };
  }

  /** Adds an observer (metrics, recorder); its `attach` runs now. */
  addObserver(observer: WorldObserver): void {
    this.#observers.push(observer);
    observer.attach?.(this);
  }

  /**
   * Places the agents due at time 0 and builds the grids. Called by the first
   * {@linkcode World.step}; call it yourself to see the initial state (frame 0).
   */
  prepare(): void {
    if (this.#prepared) return;
    this.#prepared = true;
    this.#phase = "bookkeeping";
    try {
      this.population.spawnDue(this, this.time, this.#spawnRng);
    } finally {
      this.#phase = null;
    }
    this.events.spawned = 0;
    this.reindex();
  }

  /** Rebuilds the agent grid now (after moving agents by hand between steps). */
  reindex(): void {
    this.grid.rebuild(this.agents.px, this.agents.py, this.agents.count);
    this.#gridVersion = this.agents.version;
  }

  /** Advances the simulation by one time step `dt`. */
  step(): void {
    if (this.#phase !== null) throw new Error("Cannot start a step inside a step");
    this.prepare();
    if (this.#gridVersion !== this.agents.version) this.reindex();
    const t0 = performance.now();
    this.obstacles.lock(`during step ${this.stepIndex}: change it between steps`);
    try {
      const n = this.agents.count;
      this.events.arrived = this.events.spawned = this.events.removed = 0;
      this.#navContext.time = this.#stepContext.time = this.time;
      this.#navContext.stepIndex = this.#stepContext.stepIndex = this.stepIndex;
      let t = t0;
      if (this.traffic) {
        this.#phase = "traffic";
        this.traffic.step(this.dt, this.agents);
        this.traffic.writeVehicles(this.vehicles);
        t = this.#lap("traffic", t);
      }
      if (this.navigator) {
        this.#phase = "navigation";
        this.navigator.updatePreferredVelocities(this.#navContext, 0, n);
        t = this.#lap("navigation", t);
      }
      this.#phase = "strategy";
      this.strategy.computeNewVelocities(this.#stepContext, 0, n);
      t = this.#lap("strategy", t);
      this.#phase = "integration";
      this.#checkFinite(n);
      this.#integrate(n);
      this.navigator?.afterMove?.(this.#navContext, 0, n);
      t = this.#lap("integration", t);
      this.#phase = "bookkeeping";
      this.time = (this.stepIndex + 1) * this.dt;
      this.stepIndex++;
      this.#handleArrivals();
      this.population.spawnDue(this, this.time, this.#spawnRng);
      t = this.#lap("bookkeeping", t);
      this.#phase = "indexing";
      this.reindex();
      this.#lap("indexing", t);
    } finally {
      this.#phase = null;
      this.obstacles.unlock();
    }
    this.lastStepMs = performance.now() - t0;
    for (const observer of this.#observers) observer.afterStep?.(this);
  }

  #lap(phase: PhaseName, since: number): number {
    const now = performance.now();
    this.phaseMs[phase] += now - since;
    return now;
  }

  #checkFinite(n: number): void {
    const nvx = this.agents.newVx, nvy = this.agents.newVy;
    // v - v is 0 for a finite v and NaN otherwise: one branch-free pass, then find the culprit.
    let check = 0;
    for (let i = 0; i < n; i++) check += nvx[i] - nvx[i] + (nvy[i] - nvy[i]);
    if (check === 0) return;
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(nvx[i]) || !Number.isFinite(nvy[i])) {
        throw new NonFiniteVelocityError(
          this.strategy.name,
          this.agents.serial[i],
          this.stepIndex,
          nvx[i],
          nvy[i],
        );
      }
    }
  }

  #integrate(n: number): void {
    const a = this.agents, dt = this.dt;
    const px = a.px, py = a.py, vx = a.vx, vy = a.vy, nvx = a.newVx, nvy = a.newVy;
    const maxSpeed = a.maxSpeed, maxAcc = a.maxAcceleration, flags = a.flags;
    for (let i = 0; i < n; i++) {
      if ((flags[i] & AgentFlags.frozen) !== 0) {
        vx[i] = vy[i] = 0;
        continue;
      }
      let ux = nvx[i], uy = nvy[i];
      const dvx = ux - vx[i], dvy = uy - vy[i];
      const dvMax = maxAcc[i] * dt;
      const dv2 = dvx * dvx + dvy * dvy;
      if (dv2 > dvMax * dvMax) {
        const f = dvMax / Math.sqrt(dv2);
        ux = vx[i] + dvx * f;
        uy = vy[i] + dvy * f;
      }
      const s2 = ux * ux + uy * uy, sMax = maxSpeed[i];
      if (s2 > sMax * sMax) {
        const f = sMax / Math.sqrt(s2);
        ux *= f;
        uy *= f;
      }
      vx[i] = ux;
      vy[i] = uy;
      px[i] += ux * dt;
      py[i] += uy * dt;
    }
  }

  #handleArrivals(): void {
    const a = this.agents, r2 = this.arrivalRadius * this.arrivalRadius;
    const px = a.px, py = a.py, gx = a.goalX, gy = a.goalY, flags = a.flags;
    let found = 0;
    for (let i = 0; i < a.count; i++) {
      if ((flags[i] & AgentFlags.arrived) !== 0) continue;
      const dx = gx[i] - px[i], dy = gy[i] - py[i];
      if (dx * dx + dy * dy <= r2) {
        flags[i] |= AgentFlags.arrived;
        if (found === this.#arrivedScratch.length) {
          const grown = new Int32Array(found * 2);
          grown.set(this.#arrivedScratch);
          this.#arrivedScratch = grown;
        }
        this.#arrivedScratch[found++] = i;
      }
    }
    this.events.arrived = found;
    // Highest index first: a swap-remove only moves agents already handled.
    for (let k = found - 1; k >= 0; k--) {
      const i = this.#arrivedScratch[k];
      for (const observer of this.#observers) observer.onArrival?.(this, i);
      const group = a.group[i];
      const policy = this.population.arrivalPolicy(group);
      if (policy === "stay") continue;
      if (policy === "next") {
        this.population.redirect(this, i, group, this.#spawnRng);
        continue;
      }
      this.#removeAt(i);
      if (policy === "respawn") this.population.queueRespawn(group);
    }
  }

  #removeAt(index: number): void {
    for (const observer of this.#observers) observer.onRemove?.(this, index);
    this.agents.removeAt(index);
    this.events.removed++;
  }
}

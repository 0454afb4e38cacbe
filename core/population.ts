/**
 * Spawners: where agents appear, how many and how fast, where they head, what they are like, and
 * what happens when they arrive (leave, loop back to the spawn area as in the "Crossing citizens" report, or stay).
 *
 * @module
 */
import { type Area, areaSize, sampleArea, validateArea } from "./area.ts";
import {
  DEFAULT_DESIRED_SPEED,
  DEFAULT_RADIUS,
  type Distribution,
  distributionMax,
  sampleDistribution,
  validateDistribution,
} from "./distribution.ts";
import { pointInPolygon } from "./geometry.ts";
import { AgentFlags } from "./agent_store.ts";
import { PlacementIndex } from "./placement_index.ts";
import type { Rng } from "./rng.ts";
import type { World } from "./world.ts";

/** What happens to an agent that reaches its goal. */
export type ArrivalPolicy =
  /** It leaves the world. */
  | "remove"
  /** It leaves and a new agent appears in its spawner's area (a continuous flow, as in the "Crossing citizens" report). */
  | "respawn"
  /** It stays where it is, flagged as arrived, and keeps blocking others. */
  | "stay"
  /**
   * It walks on to a new goal drawn from its spawner's goal area (a stroll from building to
   * building); the same agent, so its trajectory goes on.
   */
  | "next";

/** Where a spawned agent is sent. */
export type GoalSpec =
  /** A point drawn uniformly from an area (a base destination with a random offset). */
  | { readonly kind: "area"; readonly area: Area }
  /** The point opposite the spawn point through the centre of a ring spawner. */
  | { readonly kind: "antipodal" };

/** Per-agent parameters of spawned agents. */
export interface AgentTemplate {
  /** Body radius (m). @default constant 0.25 */
  readonly radius: Distribution;
  /** Unobstructed walking speed (m/s). @default normal 1.34, sd 0.26, clamped to [0.5, 2.0] */
  readonly desiredSpeed: Distribution;
  /** Speed cap as a multiple of the desired speed. @default 1.3 */
  readonly maxSpeedFactor: number;
  /** Acceleration cap (m/s²). @default Infinity */
  readonly maxAcceleration: number;
  /** Values for plugin columns by column name (strategy parameters such as a bias). */
  readonly columns: Readonly<Record<string, Distribution>>;
}

/** Default {@linkcode AgentTemplate}. */
export const DEFAULT_AGENT_TEMPLATE: AgentTemplate = {
  radius: DEFAULT_RADIUS,
  desiredSpeed: DEFAULT_DESIRED_SPEED,
  maxSpeedFactor: 1.3,
  maxAcceleration: Infinity,
  columns: {},
};

/** A spawner as configured. */
export interface SpawnerConfig {
  /** Name used in messages and results. */
  readonly name: string;
  /** Spawn area. A `ring` places agents evenly on a circle. */
  readonly area: Area;
  /** Number of agents to emit. */
  readonly count: number;
  /** Agents per second; 0 emits all at `startTime`. @default 0 */
  readonly rate?: number;
  /** Simulation time of the first emission (s). @default 0 */
  readonly startTime?: number;
  /** Where agents go. */
  readonly goal: GoalSpec;
  /** What arriving agents do. @default "remove" */
  readonly onArrival?: ArrivalPolicy;
  /** Height of the spawn surface (m). @default 0 */
  readonly z?: number;
  /** Agent parameters; missing fields take {@linkcode DEFAULT_AGENT_TEMPLATE}'s. */
  readonly agent?: Partial<AgentTemplate>;
  /**
   * Gates to pass on the way, in order: segments such as doorways. A navigator that follows
   * routes (the goal seeker does) heads for the nearest point of the next gate until the agent
   * has crossed it, then for the following one, then for the goal. @default []
   */
  readonly via?: readonly Gate[];
}

/** A line segment (m) that agents must cross, from (`ax`, `ay`) to (`bx`, `by`). */
export interface Gate {
  /** Start x (m). */
  readonly ax: number;
  /** Start y (m). */
  readonly ay: number;
  /** End x (m). */
  readonly bx: number;
  /** End y (m). */
  readonly by: number;
}

interface SpawnerState {
  config: Required<Omit<SpawnerConfig, "agent">> & { agent: AgentTemplate };
  /** Agents emitted so far (first appearances, not respawns). */
  emitted: number;
  /** Agents placed so far (first appearances and respawns). */
  placed: number;
  /** Agents due but not yet placed (no free spot yet, or waiting respawns). */
  pending: number;
  /** How many of `pending` are respawns. */
  pendingRespawns: number;
}

const ARRIVAL_POLICIES: readonly ArrivalPolicy[] = ["remove", "respawn", "stay", "next"];

/** Minimum free gap (m) between a newly placed agent and others, and between it and walls. */
export const SPAWN_GAP_M = 0.02;
/** Gap (m) required around a ring slot: touching is allowed, up to rounding. */
const RING_GAP = -1e-9;
/** Placement attempts per agent per step before it waits for the next step. */
const SPAWN_TRIES = 40;

/**
 * The spawners of a world and their bookkeeping.
 *
 * @example A spawner of 10 agents crossing a room
 * ```ts
 * import { World } from "./world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: { name: "passive", neighborRadius: 0, computeNewVelocities() {} } });
 * world.population.addSpawner({
 *   name: "west",
 *   area: { kind: "rect", minX: 0, minY: 0, maxX: 4, maxY: 4 },
 *   count: 10,
 *   goal: { kind: "area", area: { kind: "point", x: 20, y: 2 } },
 * });
 * world.prepare();
 * assert.deepEqual(world.agents.count, 10);
 * ```
 */
export class Population {
  #spawners: SpawnerState[] = [];
  #placement = new PlacementIndex();
  #point: [number, number] = [0, 0];
  #goal: [number, number] = [0, 0];

  /** Spawner configurations in the order they were added (index = agents' `group`). */
  get spawners(): readonly SpawnerState["config"][] {
    return this.#spawners.map((s) => s.config);
  }

  /** Agents waiting for a free spot, per spawner. */
  get pending(): number[] {
    return this.#spawners.map((s) => s.pending);
  }

  /** Adds a spawner and returns its index. Throws a RangeError naming the bad field. */
  addSpawner(config: SpawnerConfig): number {
    const where = `spawner '${config.name}'`;
    const agent: AgentTemplate = { ...DEFAULT_AGENT_TEMPLATE, ...config.agent };
    const full = {
      name: config.name,
      area: config.area,
      count: config.count,
      rate: config.rate ?? 0,
      startTime: config.startTime ?? 0,
      goal: config.goal,
      onArrival: config.onArrival ?? "remove",
      z: config.z ?? 0,
      agent,
      via: config.via ?? [],
    };
    const action = `add ${where}`;
    full.via.forEach((gate, k) => {
      const values = [gate?.ax, gate?.ay, gate?.bx, gate?.by];
      if (!values.every(Number.isFinite)) {
        throw new RangeError(
          `Cannot ${action} as 'via[${k}]' must have finite ax, ay, bx, by: current value is ${
            JSON.stringify(gate)
          }`,
        );
      }
      if (gate.ax === gate.bx && gate.ay === gate.by) {
        throw new RangeError(`Cannot ${action} as 'via[${k}]' has zero length`);
      }
    });
    if (typeof config.name !== "string") {
      throw new TypeError(
        `Cannot add spawner as 'name' must be a string: current value is ${config.name}`,
      );
    }
    validateArea(full.area, action, "area");
    if (full.goal === null || typeof full.goal !== "object") {
      throw new TypeError(
        `Cannot ${action} as 'goal' must be an object: current value is ${full.goal}`,
      );
    }
    if (full.goal.kind === "area") {
      validateArea(full.goal.area, action, "goal.area");
    } else if (full.goal.kind !== "antipodal") {
      throw new TypeError(
        `Cannot ${action} as 'goal.kind' must be "area" or "antipodal": current value is ${
          JSON.stringify((full.goal as { kind: unknown }).kind)
        }`,
      );
    }
    if (!ARRIVAL_POLICIES.includes(full.onArrival)) {
      throw new RangeError(
        `Cannot ${action} as 'onArrival' must be one of ${
          ARRIVAL_POLICIES.join(", ")
        }: current value is ${JSON.stringify(full.onArrival)}`,
      );
    }
    if (!Number.isFinite(full.z)) {
      throw new RangeError(
        `Cannot ${action} as 'z' must be a finite number: current value is ${full.z}`,
      );
    }
    validateDistribution(agent.radius, action, "agent.radius", 0, true);
    validateDistribution(agent.desiredSpeed, action, "agent.desiredSpeed", 0);
    if (!(agent.maxAcceleration > 0)) {
      throw new RangeError(
        `Cannot ${action} as 'agent.maxAcceleration' must be > 0 (Infinity for none): current value is ${agent.maxAcceleration}`,
      );
    }
    for (const [name, dist] of Object.entries(agent.columns)) {
      validateDistribution(dist, action, `agent.columns.${name}`);
    }
    if (!Number.isInteger(full.count) || full.count < 0) {
      throw new RangeError(
        `Cannot add ${where} as 'count' must be an integer >= 0: current value is ${full.count}`,
      );
    }
    if (!(full.rate >= 0) || !Number.isFinite(full.rate)) {
      throw new RangeError(
        `Cannot add ${where} as 'rate' must be a finite number >= 0: current value is ${full.rate}`,
      );
    }
    if (!(full.startTime >= 0) || !Number.isFinite(full.startTime)) {
      throw new RangeError(
        `Cannot add ${where} as 'startTime' must be a finite number >= 0: current value is ${full.startTime}`,
      );
    }
    if (!(agent.maxSpeedFactor >= 1)) {
      throw new RangeError(
        `Cannot add ${where} as 'agent.maxSpeedFactor' must be >= 1: current value is ${agent.maxSpeedFactor}`,
      );
    }
    if (full.goal.kind === "antipodal" && full.area.kind !== "ring") {
      throw new RangeError(
        `Cannot add ${where} as an 'antipodal' goal needs a ring area: area is a ${full.area.kind}`,
      );
    }
    const maxRadius = distributionMax(agent.radius);
    if (full.area.kind === "ring" && full.count > 1) {
      const spacing = 2 * full.area.radius * Math.sin(Math.PI / full.count);
      if (spacing < 2 * maxRadius) {
        throw new RangeError(
          `Cannot add ${where} as its ring of radius ${full.area.radius} m puts ${full.count} agents ${
            spacing.toFixed(3)
          } m apart, closer than one body diameter (${2 * maxRadius} m)`,
        );
      }
    } else if (
      full.area.kind !== "point" && full.area.kind !== "ring" && full.area.kind !== "points" &&
      full.rate === 0
    ) {
      // Random placement of a whole batch jams above ~50% packing; say so instead of waiting.
      const capacity = Math.floor(
        (0.5 * areaSize(full.area)) / (Math.PI * (maxRadius + SPAWN_GAP_M) ** 2),
      );
      if (full.count > capacity) {
        throw new RangeError(
          `Cannot add ${where} as ${full.count} agents of radius ${maxRadius} m do not fit in its ${
            areaSize(full.area).toFixed(1)
          } m² ${full.area.kind} (at most about ${capacity}); enlarge the area or use a 'rate'`,
        );
      }
    }
    this.#spawners.push({ config: full, emitted: 0, placed: 0, pending: 0, pendingRespawns: 0 });
    return this.#spawners.length - 1;
  }

  /** What an agent of group `group` does on arrival (`stay` for agents outside spawners). */
  arrivalPolicy(group: number): ArrivalPolicy {
    return group >= 0 && group < this.#spawners.length
      ? this.#spawners[group].config.onArrival
      : "stay";
  }

  /**
   * Sends agent `index` (of spawner `group`, just arrived) to a new goal drawn from its
   * spawner's goal area, away from where it stands when the area allows, and clears its arrived
   * flag. Agents of antipodal goals turn back to their start side.
   */
  redirect(world: World, index: number, group: number, rng: Rng): void {
    const s = this.#spawners[group];
    if (!s) return;
    const a = world.agents, goal = this.#goal;
    const x = a.px[index], y = a.py[index], near = 2 * world.arrivalRadius;
    if (s.config.goal.kind === "area") {
      for (let attempt = 0; attempt < SPAWN_TRIES; attempt++) {
        sampleArea(s.config.goal.area, rng, goal);
        if (isUnreachableGoal(world, goal[0], goal[1])) continue;
        if (Math.hypot(goal[0] - x, goal[1] - y) > near) break;
      }
    } else if (s.config.area.kind === "ring") {
      goal[0] = 2 * s.config.area.x - a.goalX[index];
      goal[1] = 2 * s.config.area.y - a.goalY[index];
    } else return;
    a.goalX[index] = goal[0];
    a.goalY[index] = goal[1];
    a.flags[index] &= ~AgentFlags.arrived;
  }

  /** Queues a new agent in spawner `group` to replace one that arrived. */
  queueRespawn(group: number): void {
    const s = this.#spawners[group];
    s.pending++;
    s.pendingRespawns++;
  }

  /** True when no spawner will ever emit again (respawning spawners never finish). */
  get exhausted(): boolean {
    for (const s of this.#spawners) {
      if (s.pending > 0 || s.emitted < s.config.count || s.config.onArrival === "respawn") {
        return false;
      }
    }
    return true;
  }

  /**
   * Emits the agents that are due at simulation time `time` and places as many as fit. Agents
   * that do not fit wait for a later step. Returns the number placed.
   */
  spawnDue(world: World, time: number, rng: Rng): number {
    let due = 0;
    for (const s of this.#spawners) {
      const c = s.config;
      if (time + 1e-9 < c.startTime || s.emitted >= c.count) continue;
      // A rate spawner has emitted floor(rate · (t - start)) + 1 agents by time t.
      const target = c.rate > 0
        ? Math.min(c.count, Math.floor(c.rate * (time - c.startTime) + 1e-9) + 1)
        : c.count;
      const emit = target - s.emitted;
      s.emitted += emit;
      s.pending += emit;
    }
    for (const s of this.#spawners) due += s.pending;
    if (due === 0) return 0;
    this.#indexSurroundings(world, due);
    let placed = 0;
    for (let g = 0; g < this.#spawners.length; g++) {
      const s = this.#spawners[g];
      while (s.pending > 0) {
        if (!this.#placeOne(world, g, s, rng)) break;
        s.pending--;
        if (s.pendingRespawns > 0) s.pendingRespawns--;
        placed++;
      }
    }
    return placed;
  }

  #indexSurroundings(world: World, due: number): void {
    const agents = world.agents;
    let maxR = 0.25;
    for (const s of this.#spawners) maxR = Math.max(maxR, distributionMax(s.config.agent.radius));
    for (let i = 0; i < agents.count; i++) maxR = Math.max(maxR, agents.radius[i]);
    this.#placement.reset(4 * maxR, agents.count + due);
    for (let i = 0; i < agents.count; i++) {
      this.#placement.insert(agents.px[i], agents.py[i], agents.radius[i]);
    }
  }

  #placeOne(world: World, g: number, s: SpawnerState, rng: Rng): boolean {
    const c = s.config, p = this.#point;
    const radius = sampleDistribution(c.agent.radius, rng);
    const ring = c.area.kind === "ring";
    let found = false;
    for (let attempt = 0; attempt < (ring ? 1 : SPAWN_TRIES); attempt++) {
      // Ring slots are fixed by the agent's number; respawns cycle through the slots again. A
      // ring's own neighbours may touch (its spacing was checked against the diameter), but a
      // slot that is still occupied, or blocked by an obstacle, waits for a later step.
      sampleArea(c.area, rng, p, s.placed % Math.max(1, c.count), c.count);
      if (this.#isFree(world, p[0], p[1], radius, ring ? RING_GAP : SPAWN_GAP_M)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
    const desiredSpeed = sampleDistribution(c.agent.desiredSpeed, rng);
    if (c.goal.kind === "antipodal" && c.area.kind === "ring") {
      this.#goal[0] = 2 * c.area.x - p[0];
      this.#goal[1] = 2 * c.area.y - p[1];
    } else if (c.goal.kind === "area") {
      // A goal drawn deep inside a solid obstacle could never be reached: draw again (the
      // first draw is kept whenever it is reachable, so areas clear of obstacles draw as before).
      for (let attempt = 0; attempt < SPAWN_TRIES; attempt++) {
        sampleArea(c.goal.area, rng, this.#goal);
        if (!isUnreachableGoal(world, this.#goal[0], this.#goal[1])) break;
      }
    }
    const handle = world.addAgent({
      x: p[0],
      y: p[1],
      z: c.z,
      radius,
      desiredSpeed,
      maxSpeed: desiredSpeed * c.agent.maxSpeedFactor,
      maxAcceleration: c.agent.maxAcceleration,
      goalX: this.#goal[0],
      goalY: this.#goal[1],
      goalZ: c.z,
      group: g,
    });
    const index = world.agents.indexOf(handle);
    for (const [name, dist] of Object.entries(c.agent.columns)) {
      world.agents.column(name)[index] = sampleDistribution(dist, rng);
    }
    this.#placement.insert(p[0], p[1], radius);
    s.placed++;
    return true;
  }

  #isFree(world: World, x: number, y: number, r: number, gap: number): boolean {
    if (!this.#placement.isFree(x, y, r, gap)) return false;
    return isClearOfObstacles(world, x, y, r);
  }
}

/**
 * True when an agent of radius `r` (m) at (`x`, `y`) would keep {@linkcode SPAWN_GAP_M} from
 * every wall and obstacle edge and stand outside every solid polygon: where spawners may place
 * it (other agents aside).
 *
 * @example
 * ```ts
 * import { isClearOfObstacles } from "./population.ts";
 * import { World } from "./world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: { name: "still", neighborRadius: 0, computeNewVelocities() {} } });
 * world.obstacles.addPolygon([[0, 0], [2, 0], [2, 2], [0, 2]]);
 * assert(!isClearOfObstacles(world, 1, 1, 0.25)); // inside the pillar
 * assert(!isClearOfObstacles(world, 2.1, 1, 0.25)); // too close to its edge
 * assert(isClearOfObstacles(world, 3, 1, 0.25));
 * ```
 */
export function isClearOfObstacles(world: World, x: number, y: number, r: number): boolean {
  const obstacles = world.obstacles;
  if (obstacles.segmentCount === 0) return true;
  if (obstacles.queryRadius(x, y, r + SPAWN_GAP_M, world.scratchSegments) > 0) return false;
  return !isInsideObstacle(world, x, y);
}

/**
 * True when a goal at (`x`, `y`) can never be reached: inside a solid polygon and farther than
 * the world's arrival radius from every obstacle edge (an agent arrives within the arrival
 * radius of its goal, so a goal just inside an edge still counts as reached from outside).
 */
export function isUnreachableGoal(world: World, x: number, y: number): boolean {
  return isInsideObstacle(world, x, y) &&
    world.obstacles.queryRadius(x, y, world.arrivalRadius, world.scratchSegments) === 0;
}

/** True when (`x`, `y`) lies inside one of the world's solid polygons. */
export function isInsideObstacle(world: World, x: number, y: number): boolean {
  for (const polygon of world.obstacles.polygons) {
    if (pointInPolygon(x, y, polygon)) return true;
  }
  return false;
}

/**
 * Straight-line goal seeking with optional gates: the preferred velocity points at the agent's
 * next target at its desired speed, slowing down inside a braking distance before the goal.
 *
 * A spawner's `via` gates (segments such as doorways) are passed in order: while a gate is
 * ahead, the agent heads for the nearest point of the gate, kept a body radius plus a margin
 * away from the gate's ends, the way JuPedSim routes pedestrians to the closest point of an
 * exit line; an agent already in front of the opening walks straight through it. Once the agent
 * is on the far side of the gate (the side where its next target lies), it moves on to the next
 * gate or its goal.
 *
 * The goal seeker does not plan: walls between an agent and its goal are left to the avoidance
 * strategy (or to gates placed in the doorways).
 *
 * @module
 */
import { AgentFlags, type AgentStore, type ColumnSpec } from "../core/agent_store.ts";
import type { NavigationContext, Navigator } from "../core/navigator.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { World } from "../core/world.ts";
import { SpawnerGates } from "./_spawner_gates.ts";
import { SLOWING_DISTANCE_OPTION } from "./navigation_options.ts";
import type { NavigatorFactory } from "./navigator_factory.ts";

/** Options of {@linkcode GoalSeeker}. */
export interface GoalSeekerOptions {
  /**
   * Distance to the goal (m) inside which the preferred speed falls linearly to zero
   * (Reynolds' "arrive"). 0 keeps full speed up to the goal. Range [0, 100]. @default 0
   */
  slowingDistance: number;
  /** Clearance (m) kept from a gate's ends, on top of the agent's radius. Range [0, 5]. @default 0.1 */
  gateMargin: number;
}

/** Descriptors of {@linkcode GoalSeekerOptions}. */
export const GOAL_SEEKER_OPTIONS: OptionSpecs<GoalSeekerOptions> = {
  slowingDistance: SLOWING_DISTANCE_OPTION,
  gateMargin: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 5,
    unit: "m",
    doc: "clearance from a gate's ends on top of the body radius",
  },
};

/** Column holding the index of each agent's next gate. */
export const ROUTE_NEXT_COLUMN = "route.next";

const ROUTE_COLUMNS: readonly ColumnSpec[] = [{
  name: ROUTE_NEXT_COLUMN,
  type: "i32",
  default: 0,
  kind: "state",
  doc: "next gate of the route",
}];

/**
 * The goal-seeking navigator. Phases: aim (at the goal, or through the next gate), steer (seek
 * and arrive), and after the move, advance past crossed gates. The per-agent loop keeps the
 * common case (no gate) inline; the gate geometry is its own method.
 *
 * @example Gates in a spawner's route
 * ```ts
 * import { GoalSeeker } from "./goal_seeker.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy(), navigator: new GoalSeeker() });
 * world.population.addSpawner({
 *   name: "through the door",
 *   area: { kind: "point", x: 0, y: -3 },
 *   count: 1,
 *   goal: { kind: "area", area: { kind: "point", x: 0, y: 6 } },
 *   via: [{ ax: 2, ay: 0, bx: 4, by: 0 }], // a doorway off to the right
 * });
 * world.prepare();
 * world.step();
 * assert(world.agents.vx[0] > 0, "heads for the doorway first");
 * ```
 */
export class GoalSeeker implements Navigator {
  /** Registry name. */
  readonly name = "goal-seeker";
  /** Options in force. */
  readonly options: Readonly<GoalSeekerOptions>;
  /** The route column. */
  readonly columns: readonly ColumnSpec[] = ROUTE_COLUMNS;
  #world: World | undefined;
  #gates = new SpawnerGates();
  /** The point aimed at through a gate (m). */
  #aim = new Float64Array(2);

  /** Validates `options` (see {@linkcode GOAL_SEEKER_OPTIONS}). */
  constructor(options: Partial<GoalSeekerOptions> = {}) {
    this.options = resolveOptions("goal seeker", GOAL_SEEKER_OPTIONS, options);
  }

  /** Remembers the world, whose spawners hold the gates. */
  attach(world: World): void {
    this.#world = world;
  }

  /** Aims every walking agent at its goal or next gate and steers there; arrived agents stop. */
  updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
    this.#gates.refresh(this.#world?.population.spawners ?? []);
    const a = ctx.agents, flags = a.flags, px = a.px, py = a.py, speed = a.desiredSpeed;
    const goalX = a.goalX, goalY = a.goalY, prefVx = a.prefVx, prefVy = a.prefVy;
    const slowingDistance = this.options.slowingDistance, aim = this.#aim;
    const next = this.#routeColumn(a);
    for (let i = begin; i < end; i++) {
      if ((flags[i] & AgentFlags.arrived) !== 0) {
        prefVx[i] = prefVy[i] = 0;
        continue;
      }
      // Aim: the goal, braking before it, or a point of the next gate, without braking.
      let tx = goalX[i], ty = goalY[i], braking = slowingDistance;
      if (next && this.#aimThroughGate(a, i, next, aim)) {
        tx = aim[0];
        ty = aim[1];
        braking = 0;
      }
      // Steer: seek the aim; arrive (Reynolds): inside the braking distance the speed falls
      // linearly to zero. Written out: as a function call this loop runs markedly slower.
      const dx = tx - px[i], dy = ty - py[i];
      const d = Math.sqrt(dx * dx + dy * dy);
      if (d === 0) {
        prefVx[i] = prefVy[i] = 0;
        continue;
      }
      let v = speed[i];
      if (d < braking) v *= d / braking;
      prefVx[i] = (dx / d) * v;
      prefVy[i] = (dy / d) * v;
    }
  }

  /** Moves agents that have crossed their current gate on to the next one. */
  afterMove(ctx: NavigationContext, begin: number, end: number): void {
    const a = ctx.agents;
    const next = this.#routeColumn(a);
    if (!next) return;
    const gates = this.#gates;
    for (let i = begin; i < end; i++) {
      const j = gates.gateOf(a.group[i], next[i]);
      if (j < 0) continue;
      // The gate is passed once the agent stands on the side where its next target lies.
      const ex = gates.bx[j] - gates.ax[j], ey = gates.by[j] - gates.ay[j];
      const sideAgent = ex * (a.py[i] - gates.ay[j]) - ey * (a.px[i] - gates.ax[j]);
      if (sideAgent * this.#sideOfNextTarget(a, i, j, next[i]) > 0) next[i]++;
    }
  }

  /** The route column, or undefined when no spawner has gates (or the store has no column). */
  #routeColumn(agents: AgentStore): Int32Array | undefined {
    return this.#gates.count > 0 && agents.hasColumn(ROUTE_NEXT_COLUMN)
      ? agents.column<Int32Array>(ROUTE_NEXT_COLUMN)
      : undefined;
  }

  /**
   * Writes to `aim` the point agent `i` heads for through its next gate on `route`: straight
   * across when the agent is in front of the opening, else the nearest point of the opening,
   * whose ends are pulled in by the body radius plus the gate margin. False (and nothing
   * written) when the agent has passed all its gates.
   */
  #aimThroughGate(a: AgentStore, i: number, route: Int32Array, aim: Float64Array): boolean {
    const g = this.#gates, next = route[i];
    const j = g.gateOf(a.group[i], next);
    if (j < 0) return false;
    const ex = g.bx[j] - g.ax[j], ey = g.by[j] - g.ay[j];
    const len = Math.sqrt(ex * ex + ey * ey);
    const inset = Math.min(0.5, (a.radius[i] + this.options.gateMargin) / len);
    const t = ((a.px[i] - g.ax[j]) * ex + (a.py[i] - g.ay[j]) * ey) / (len * len);
    if (t >= inset && t <= 1 - inset) {
      // In front of the opening: walk straight through it, towards the far side.
      const side = this.#sideOfNextTarget(a, i, j, next) >= 0 ? 1 : -1;
      aim[0] = g.ax[j] + t * ex - (side * ey) / len;
      aim[1] = g.ay[j] + t * ey + (side * ex) / len;
    } else {
      const c = t < inset ? inset : 1 - inset;
      aim[0] = g.ax[j] + c * ex;
      aim[1] = g.ay[j] + c * ey;
    }
    return true;
  }

  /**
   * Which side of gate `j`'s line agent `i`'s next target (the following gate's middle, or the
   * goal) lies on: the cross product (gate direction × target offset), positive to the left.
   */
  #sideOfNextTarget(a: AgentStore, i: number, j: number, next: number): number {
    const g = this.#gates;
    const k = g.gateOf(a.group[i], next + 1);
    const nx = k >= 0 ? (g.ax[k] + g.bx[k]) / 2 : a.goalX[i],
      ny = k >= 0 ? (g.ay[k] + g.by[k]) / 2 : a.goalY[i];
    const ex = g.bx[j] - g.ax[j], ey = g.by[j] - g.ay[j];
    return ex * (ny - g.ay[j]) - ey * (nx - g.ax[j]);
  }
}

/**
 * Creates the goal-seeking navigator.
 *
 * @example
 * ```ts
 * import { createGoalSeeker } from "./goal_seeker.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * const h = world.addAgent({ x: 0, y: 0, goalX: 3, goalY: 4, desiredSpeed: 1 });
 * world.step();
 * assert(Math.abs(world.agent(h)!.vx - 0.6) < 1e-12);
 * ```
 */
export function createGoalSeeker(options: Partial<GoalSeekerOptions> = {}): GoalSeeker {
  return new GoalSeeker(options);
}

/** Registry entry of the goal seeker. */
export const goalSeekerNavigator: NavigatorFactory<GoalSeekerOptions> = {
  name: "goal-seeker",
  description: "walk straight at the goal, through the spawner's gates in order (no planning)",
  options: GOAL_SEEKER_OPTIONS,
  create: (options) => new GoalSeeker(options),
};

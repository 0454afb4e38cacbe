/**
 * The `exit-choice` navigator: people choose among several exits by the time each would take
 * them, distance and the queue in front of it, and walk there on the navigation mesh. It is the
 * "quickest path" of Kemloh Wagoum, Seyfried and Holl ("Modelling the dynamic route choice of
 * pedestrians to assess the criticality of building evacuation", Advances in Complex Systems
 * 15, 2012), in a simple form: the time to exit e is
 *
 *   T_e = d_e / v + Q_e / J_e,
 *
 * d_e the agent's distance to the exit (straight, m), v its desired speed, Q_e the number of
 * people who chose e and are nearer to it than the agent, and J_e the exit's flow (persons/s;
 * `exitFlow`, by default 1.3 /s: a 1 m door at the specific flow of Weidmann's fundamental
 * diagram at capacity, about 1.3 /(m·s)). Each agent starts with the exit nearest to it and
 * reconsiders every `decisionInterval` seconds (staggered over agents); it changes its mind when
 * another exit saves more than `switchMargin` seconds, so that a crowd does not swing between
 * exits.
 *
 * Exits are areas given as rectangles `[x0, y0, x1, y1]` (m) in the option `exits`; an agent
 * chooses among them when its own goal lies in one of them, and keeps any other goal: persons
 * allocated to an exit that is not among the choices keep it (RiMEA 3.0 test 10), and with no
 * `exits` the navigator is the `navmesh` navigator. A chosen exit becomes the agent's goal (the
 * middle of its rectangle), planned for afresh on the mesh. Other options are the `navmesh`
 * navigator's.
 *
 * ```json
 * "navigator": { "name": "exit-choice", "options": { "exits": [[32, 1.5, 34, 4.5], [32, 5.5, 34, 8.5]] } }
 * ```
 *
 * @module
 */
import { AgentFlags, type AgentStore, type ColumnSpec } from "../core/agent_store.ts";
import type { NavigationContext, Navigator } from "../core/navigator.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { World } from "../core/world.ts";
import type { NavigatorFactory } from "./navigator_factory.ts";
import type { NavMesh } from "./navmesh.ts";
import { NavAgentStatus, NAVMESH_STATUS_COLUMN } from "./navmesh_agent_columns.ts";
import {
  NAVMESH_NAVIGATOR_OPTIONS,
  NavMeshNavigator,
  type NavMeshNavigatorOptions,
} from "./navmesh_navigator.ts";

/** An exit area: `[x0, y0, x1, y1]` (m). */
export type ExitRect = readonly [number, number, number, number];

/** Options of {@linkcode ExitChoiceNavigator}: its own, and the `navmesh` navigator's. */
export interface ExitChoiceOptions extends NavMeshNavigatorOptions {
  /** The exits to choose among. @default [] */
  exits: ExitRect[];
  /** Flow through each exit (persons/s). Range (0, 100]. @default 1.3 */
  exitFlow: number;
  /** Seconds between an agent's decisions. Range [0.05, 3600]. @default 2 */
  decisionInterval: number;
  /** Time (s) another exit must save before an agent changes to it. Range [0, 3600]. @default 5 */
  switchMargin: number;
}

function _parseExits(value: unknown): ExitRect[] {
  if (!Array.isArray(value)) throw new Error("expected a list of rectangles [x0, y0, x1, y1]");
  return value.map((r, k) => {
    if (
      !Array.isArray(r) || r.length !== 4 || !r.every((v) => typeof v === "number" && isFinite(v))
    ) {
      throw new Error(`exits[${k}] must be a rectangle [x0, y0, x1, y1] of 4 finite numbers (m)`);
    }
    if (!(r[2] > r[0] && r[3] > r[1])) {
      throw new Error(`exits[${k}] must have x1 > x0 and y1 > y0: current value is [${r}]`);
    }
    return [r[0], r[1], r[2], r[3]] as const;
  });
}

/** Descriptors of {@linkcode ExitChoiceOptions}. */
export const EXIT_CHOICE_OPTIONS: OptionSpecs<ExitChoiceOptions> = {
  ...NAVMESH_NAVIGATOR_OPTIONS,
  exits: {
    type: "object",
    default: [],
    parse: _parseExits,
    doc: "exit areas to choose among, each a rectangle [x0, y0, x1, y1] (m); agents whose goal " +
      "lies in one choose, others keep their goal",
  },
  exitFlow: {
    type: "number",
    default: 1.3,
    min: 0.01,
    max: 100,
    unit: "1/s",
    doc: "persons per second through each exit (1.3: a 1 m door at capacity, Weidmann 1993)",
  },
  decisionInterval: {
    type: "number",
    default: 2,
    min: 0.05,
    max: 3600,
    unit: "s",
    doc: "how often each agent reconsiders its exit",
  },
  switchMargin: {
    type: "number",
    default: 5,
    min: 0,
    max: 3600,
    unit: "s",
    doc: "time another exit must save before an agent changes to it; larger keeps choices",
  },
};

/** Agent column: the exit an agent has chosen (index into `exits`; -1: keeps its own goal). */
export const EXIT_CHOICE_COLUMN = "exit.choice";

const EXIT_COLUMNS: readonly ColumnSpec[] = [{
  name: EXIT_CHOICE_COLUMN,
  type: "i32",
  default: -2,
  kind: "state",
  doc: "chosen exit (index into the navigator's exits; -1 keeps its goal, -2 not yet decided)",
}];

/**
 * Chooses exits for agents and follows the `navmesh` navigator to them (see the module doc).
 *
 * @example 20 people near one exit (1.3 /s) and 6 m from another: the queue sends some to the other
 * ```ts
 * import { buildNavMesh } from "./navmesh_builder.ts";
 * import { ExitChoiceNavigator, EXIT_CHOICE_COLUMN } from "./exit_choice.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const mesh = buildNavMesh({ walkable: [[[[0, 0], [20, 0], [20, 10], [0, 10]]]] });
 * const exits = [[18, 0, 20, 2], [18, 8, 20, 10]] as const;
 * const nav = new ExitChoiceNavigator(mesh, { exits: exits.map((e) => [...e] as [number, number, number, number]) });
 * const world = new World({ strategy: createNoneStrategy(), navigator: nav });
 * for (let k = 0; k < 20; k++) world.addAgent({ x: 2 + k * 0.3, y: 3, goalX: 19, goalY: 1 });
 * for (let s = 0; s < 41; s++) world.step(); // each decides once in its first 2 s
 * const choice = world.agents.column<Int32Array>(EXIT_CHOICE_COLUMN);
 * const far = Array.from(choice.subarray(0, 20)).filter((c) => c === 1).length;
 * assert.ok(far >= 5 && far <= 15, `${far} chose the far exit`);
 * ```
 */
export class ExitChoiceNavigator implements Navigator {
  /** Registry name. */
  readonly name = "exit-choice";
  /** Options in force. */
  readonly options: Readonly<ExitChoiceOptions>;
  /** Per-agent state columns: the navmesh navigator's and the chosen exit. */
  readonly columns: readonly ColumnSpec[];
  /** The navigator that walks agents to their exits. */
  readonly walker: NavMeshNavigator;
  #exits: ExitRect[];
  #chosen = new Int32Array(0);
  #distance = new Float64Array(0);

  /** A navigator planning on `mesh`; `options` are validated (see the descriptors). */
  constructor(mesh: NavMesh, options: Partial<ExitChoiceOptions> = {}) {
    this.options = resolveOptions("exit-choice navigator", EXIT_CHOICE_OPTIONS, options);
    const { exits: _e, exitFlow: _f, decisionInterval: _d, switchMargin: _s, ...walk } =
      this.options;
    this.walker = new NavMeshNavigator(mesh, walk);
    this.#exits = this.options.exits;
    this.columns = [...this.walker.columns, ...EXIT_COLUMNS];
  }

  /** Adds the mesh's borders to the world's obstacles, as the navmesh navigator does. */
  attach(world: World): void {
    this.walker.attach(world);
  }

  /** Decides the exits due this step, then lets the navmesh navigator steer. */
  updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
    if (this.#exits.length > 0) this.#decide(ctx, begin, end);
    this.walker.updatePreferredVelocities(ctx, begin, end);
  }

  /** Follows each agent's move across the mesh. */
  afterMove(ctx: NavigationContext, begin: number, end: number): void {
    this.walker.afterMove(ctx, begin, end);
  }

  #decide(ctx: NavigationContext, begin: number, end: number): void {
    const a = ctx.agents, exits = this.#exits, m = exits.length, flags = a.flags;
    const choice = a.column<Int32Array>(EXIT_CHOICE_COLUMN);
    const status = a.column<Uint8Array>(NAVMESH_STATUS_COLUMN);
    if (this.#distance.length < m * a.count) this.#distance = new Float64Array(2 * m * a.count);
    if (this.#chosen.length < m) this.#chosen = new Int32Array(m);
    const dist = this.#distance;
    // Distances of everyone to every exit, for the queues.
    for (let i = begin; i < end; i++) {
      for (let e = 0; e < m; e++) dist[i * m + e] = _distanceToRect(exits[e], a.px[i], a.py[i]);
    }
    for (let i = begin; i < end; i++) {
      if (choice[i] !== -2) continue;
      // A new agent choosing among the exits starts for the nearest.
      let c = _exitHolding(exits, a.goalX[i], a.goalY[i]);
      if (c >= 0) {
        for (let e = 0; e < m; e++) if (dist[i * m + e] < dist[i * m + c]) c = e;
        this.#goTo(a, status, i, c);
      }
      choice[i] = c;
    }
    const every = Math.max(1, Math.round(this.options.decisionInterval / ctx.dt));
    for (let i = begin; i < end; i++) {
      if ((flags[i] & AgentFlags.arrived) !== 0) continue;
      const current = choice[i];
      if (current < 0 || (ctx.stepIndex + a.serial[i]) % every !== 0) continue;
      const best = this.#quickest(a, i, current, begin, end, choice);
      if (best !== current) {
        choice[i] = best;
        this.#goTo(a, status, i, best);
      }
    }
  }

  /** Makes exit `e` agent `i`'s goal (the middle of its rectangle), to be planned for afresh. */
  #goTo(a: AgentStore, status: Uint8Array, i: number, e: number): void {
    const r = this.#exits[e], x = 0.5 * (r[0] + r[2]), y = 0.5 * (r[1] + r[3]);
    if (a.goalX[i] === x && a.goalY[i] === y) return;
    a.goalX[i] = x;
    a.goalY[i] = y;
    status[i] = NavAgentStatus.unplanned;
  }

  /**
   * The exit agent `i` should take: the quickest by the module doc's estimate if it saves more
   * than `switchMargin` over `current`, else `current`.
   */
  #quickest(
    a: AgentStore,
    i: number,
    current: number,
    begin: number,
    end: number,
    choice: Int32Array,
  ): number {
    const m = this.#exits.length, dist = this.#distance, ahead = this.#chosen;
    ahead.fill(0, 0, m);
    for (let j = begin; j < end; j++) {
      const c = choice[j];
      if (j === i || c < 0 || (a.flags[j] & AgentFlags.arrived) !== 0) continue;
      if (dist[j * m + c] < dist[i * m + c]) ahead[c]++;
    }
    const v = a.desiredSpeed[i] > 0 ? a.desiredSpeed[i] : 1;
    const flow = this.options.exitFlow;
    let best = current, bestTime = Infinity, currentTime = Infinity;
    for (let e = 0; e < m; e++) {
      const t = dist[i * m + e] / v + ahead[e] / flow;
      if (e === current) currentTime = t;
      if (t < bestTime) {
        bestTime = t;
        best = e;
      }
    }
    const margin = this.options.switchMargin;
    return best !== current && bestTime < currentTime - margin ? best : current;
  }
}

/** Index of the exit whose rectangle holds (`x`, `y`), or -1. */
function _exitHolding(exits: readonly ExitRect[], x: number, y: number): number {
  for (let e = 0; e < exits.length; e++) {
    const r = exits[e];
    if (x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3]) return e;
  }
  return -1;
}

/** Distance (m) from (`x`, `y`) to the rectangle `r` (0 inside). */
function _distanceToRect(r: ExitRect, x: number, y: number): number {
  const dx = x < r[0] ? r[0] - x : x > r[2] ? x - r[2] : 0;
  const dy = y < r[1] ? r[1] - y : y > r[3] ? y - r[3] : 0;
  return Math.sqrt(dx * dx + dy * dy);
}

/** Registry entry of the `exit-choice` navigator. */
export const exitChoiceNavigator: NavigatorFactory<ExitChoiceOptions> = {
  name: "exit-choice",
  description:
    "choose among exits by distance and the queue in front of each (quickest path), then walk there on the navigation mesh",
  options: EXIT_CHOICE_OPTIONS,
  requires: ["navMesh"],
  plansAroundObstacles: true,
  create(options, { navMesh }) {
    if (!navMesh) {
      throw new TypeError(
        "Cannot create exit-choice navigator as it needs a navigation mesh (navMesh)",
      );
    }
    return new ExitChoiceNavigator(navMesh, options);
  },
};

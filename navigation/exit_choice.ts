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
 * Route choice (RiMEA 3.0 test 14) uses the same rule on gateways: with the option `via`, every
 * agent chooses one of the `via` rectangles (the openings its routes pass: a stair, a corridor),
 * walks through it and then on to its own goal. Its time by gateway g is
 *
 *   T_g = (d(p, g) + d(g, goal)) / v + Q_g / J,
 *
 * with walking distances on the mesh (from a distance field of each gateway and exit, computed
 * once), Q_g the people who chose g and are nearer to it, J the `exitFlow`.
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
import { NavMeshQuery } from "./path_query.ts";
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
  /** Gateways every agent chooses among on its way to its goal (route choice). @default [] */
  via: ExitRect[];
}

function _rectangles(field: string): (value: unknown) => ExitRect[] {
  return (value) => {
    if (!Array.isArray(value)) throw new Error("expected a list of rectangles [x0, y0, x1, y1]");
    return value.map((r, k) => {
      if (
        !Array.isArray(r) || r.length !== 4 ||
        !r.every((v) => typeof v === "number" && isFinite(v))
      ) {
        throw new Error(
          `${field}[${k}] must be a rectangle [x0, y0, x1, y1] of 4 finite numbers (m)`,
        );
      }
      if (!(r[2] > r[0] && r[3] > r[1])) {
        throw new Error(`${field}[${k}] must have x1 > x0 and y1 > y0: current value is [${r}]`);
      }
      return [r[0], r[1], r[2], r[3]] as const;
    });
  };
}

/** Descriptors of {@linkcode ExitChoiceOptions}. */
export const EXIT_CHOICE_OPTIONS: OptionSpecs<ExitChoiceOptions> = {
  ...NAVMESH_NAVIGATOR_OPTIONS,
  exits: {
    type: "object",
    default: [],
    parse: _rectangles("exits"),
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
  via: {
    type: "object",
    default: [],
    parse: _rectangles("via"),
    doc:
      "gateways [x0, y0, x1, y1] (m) of alternative routes: every agent chooses one by walking distance and queue, passes it, then goes on to its goal (route choice)",
  },
};

/** Agent column: the exit an agent has chosen (index into `exits`; -1: keeps its own goal). */
export const EXIT_CHOICE_COLUMN = "exit.choice";

/** Agent column: the gateway an agent has chosen (index into `via`; -1 passed, -2 undecided). */
export const VIA_CHOICE_COLUMN = "exit.via";

const EXIT_COLUMNS: readonly ColumnSpec[] = [{
  name: EXIT_CHOICE_COLUMN,
  type: "i32",
  default: -2,
  kind: "state",
  doc: "chosen exit (index into the navigator's exits; -1 keeps its goal, -2 not yet decided)",
}];

const VIA_COLUMNS: readonly ColumnSpec[] = [
  {
    name: VIA_CHOICE_COLUMN,
    type: "i32",
    default: -2,
    kind: "state",
    doc: "chosen gateway (index into the navigator's via; -1 passed, -2 not yet decided)",
  },
  { name: "exit.finalX", type: "f64", kind: "state", doc: "goal after the gateway, x (m)" },
  { name: "exit.finalY", type: "f64", kind: "state", doc: "goal after the gateway, y (m)" },
];

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
  #via: ExitRect[];
  #mesh: NavMesh;
  /** Walking distance (m) from each gateway's middle to every mesh vertex. */
  #fields: Float64Array[];
  #chosen = new Int32Array(0);
  #distance = new Float64Array(0);
  /** Walking distance from each gateway to the deciding agent's goal (m), scratch. */
  #after = new Float64Array(0);

  /** A navigator planning on `mesh`; `options` are validated (see the descriptors). */
  constructor(mesh: NavMesh, options: Partial<ExitChoiceOptions> = {}) {
    this.options = resolveOptions("exit-choice navigator", EXIT_CHOICE_OPTIONS, options);
    const {
      exits: _e,
      exitFlow: _f,
      decisionInterval: _d,
      switchMargin: _s,
      via: _v,
      ...walk
    } = this.options;
    this.walker = new NavMeshNavigator(mesh, walk);
    this.#mesh = mesh;
    this.#exits = this.options.exits;
    this.#via = this.options.via;
    const query = new NavMeshQuery(mesh, { minWidth: walk.minWidth, maxSnapDistance: 50 });
    // Distance fields for the gateways (exits are compared by straight distance).
    this.#fields = this.#via.map((r) => {
      const field = new Float64Array(mesh.vertexCount);
      query.distanceField(0.5 * (r[0] + r[2]), 0.5 * (r[1] + r[3]), field);
      return field;
    });
    this.columns = [
      ...this.walker.columns,
      ...EXIT_COLUMNS,
      ...(this.#via.length > 0 ? VIA_COLUMNS : []),
    ];
  }

  /**
   * Walking distance (m) from (`x`, `y`) to the middle of gateway `k` (index into `via`),
   * through the vertices of the triangle holding the point; straight distance off the mesh.
   */
  walkingDistance(k: number, x: number, y: number): number {
    const mesh = this.#mesh, t = mesh.locate(x, y), r = this.#via[k];
    const straight = Math.hypot(0.5 * (r[0] + r[2]) - x, 0.5 * (r[1] + r[3]) - y);
    if (t < 0) return straight;
    const field = this.#fields[k], v = mesh.triangles, c = mesh.coords;
    let best = Infinity;
    for (let j = 0; j < 3; j++) {
      const u = v[3 * t + j];
      const d = field[u] + Math.hypot(c[2 * u] - x, c[2 * u + 1] - y);
      if (d < best) best = d;
    }
    return best === Infinity ? straight : Math.max(best, straight);
  }

  /** Adds the mesh's borders to the world's obstacles, as the navmesh navigator does. */
  attach(world: World): void {
    this.walker.attach(world);
  }

  /** Decides the exits and gateways due this step, then lets the navmesh navigator steer. */
  updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
    if (this.#via.length > 0) this.#route(ctx, begin, end);
    if (this.#exits.length > 0) this.#decide(ctx, begin, end);
    this.walker.updatePreferredVelocities(ctx, begin, end);
  }

  /** Gateway choice: choose, reconsider, and on passing the gateway go on to the goal. */
  #route(ctx: NavigationContext, begin: number, end: number): void {
    const a = ctx.agents, via = this.#via, m = via.length;
    const choice = a.column<Int32Array>(VIA_CHOICE_COLUMN);
    const finalX = a.column<Float64Array>("exit.finalX"),
      finalY = a.column<Float64Array>("exit.finalY");
    const status = a.column<Uint8Array>(NAVMESH_STATUS_COLUMN);
    const dist = this.#scratch(m, a.count);
    for (let i = begin; i < end; i++) {
      if (choice[i] === -1) continue;
      for (let g = 0; g < m; g++) {
        dist[i * m + g] = this.walkingDistance(g, a.px[i], a.py[i]);
      }
    }
    const every = Math.max(1, Math.round(this.options.decisionInterval / ctx.dt));
    for (let i = begin; i < end; i++) {
      const current = choice[i];
      if (current === -1 || (a.flags[i] & AgentFlags.arrived) !== 0) continue;
      if (current === -2) {
        finalX[i] = a.goalX[i];
        finalY[i] = a.goalY[i];
      } else if (_distanceToRect(via[current], a.px[i], a.py[i]) === 0) {
        // Through the gateway: on to the goal.
        choice[i] = -1;
        _aimAt(a, status, i, finalX[i], finalY[i]);
        continue;
      } else if ((ctx.stepIndex + a.serial[i]) % every !== 0) continue;
      const best = this.#quickestRoute(a, i, current, begin, end, choice, finalX[i], finalY[i]);
      if (best !== current) {
        choice[i] = best;
        _aimAtRect(a, status, i, via[best]);
      }
    }
  }

  /** The gateway of least estimated time (module doc) for agent `i`, with the switch margin. */
  #quickestRoute(
    a: AgentStore,
    i: number,
    current: number,
    begin: number,
    end: number,
    choice: Int32Array,
    gx: number,
    gy: number,
  ): number {
    const m = this.#via.length;
    if (this.#after.length < m) this.#after = new Float64Array(m);
    for (let g = 0; g < m; g++) this.#after[g] = this.walkingDistance(g, gx, gy);
    return this.#quickestOf(a, i, current, begin, end, choice, m, this.#after);
  }

  /** Follows each agent's move across the mesh. */
  afterMove(ctx: NavigationContext, begin: number, end: number): void {
    this.walker.afterMove(ctx, begin, end);
  }

  #decide(ctx: NavigationContext, begin: number, end: number): void {
    const a = ctx.agents, exits = this.#exits, m = exits.length, flags = a.flags;
    const choice = a.column<Int32Array>(EXIT_CHOICE_COLUMN);
    const status = a.column<Uint8Array>(NAVMESH_STATUS_COLUMN);
    const dist = this.#scratch(m, a.count);
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
        _aimAtRect(a, status, i, exits[c]);
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
        _aimAtRect(a, status, i, exits[best]);
      }
    }
  }

  /** The scratch distances of `count` agents to `m` options (grown as needed). */
  #scratch(m: number, count: number): Float64Array {
    if (this.#distance.length < m * count) this.#distance = new Float64Array(2 * m * count);
    if (this.#chosen.length < m) this.#chosen = new Int32Array(m);
    return this.#distance;
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
    return this.#quickestOf(a, i, current, begin, end, choice, this.#exits.length, null);
  }

  /**
   * Of `m` options (exits or gateways, with everyone's distances to them in the scratch
   * distances), the quickest for agent `i` by T = (d + `after`) / v + Q / J, Q the others who
   * chose the option and are nearer to it; `current` is kept unless another saves more than
   * `switchMargin` (an undecided agent, `current` < 0, takes the quickest).
   */
  #quickestOf(
    a: AgentStore,
    i: number,
    current: number,
    begin: number,
    end: number,
    choice: Int32Array,
    m: number,
    after: Float64Array | null,
  ): number {
    const dist = this.#distance, ahead = this.#chosen;
    ahead.fill(0, 0, m);
    for (let j = begin; j < end; j++) {
      const c = choice[j];
      if (j === i || c < 0 || (a.flags[j] & AgentFlags.arrived) !== 0) continue;
      if (dist[j * m + c] < dist[i * m + c]) ahead[c]++;
    }
    const v = a.desiredSpeed[i] > 0 ? a.desiredSpeed[i] : 1, flow = this.options.exitFlow;
    let best = current, bestTime = Infinity, currentTime = Infinity;
    for (let e = 0; e < m; e++) {
      const t = (dist[i * m + e] + (after ? after[e] : 0)) / v + ahead[e] / flow;
      if (e === current) currentTime = t;
      if (t < bestTime) {
        bestTime = t;
        best = e;
      }
    }
    if (current < 0) return best;
    return best !== current && bestTime < currentTime - this.options.switchMargin ? best : current;
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

/** Makes (x, y) agent `i`'s goal, to be planned for afresh (nothing when it is the goal already). */
function _aimAt(a: AgentStore, status: Uint8Array, i: number, x: number, y: number): void {
  if (a.goalX[i] === x && a.goalY[i] === y) return;
  a.goalX[i] = x;
  a.goalY[i] = y;
  status[i] = NavAgentStatus.unplanned;
}

/** Makes the middle of rectangle `r` (`[minX, minY, maxX, maxY]`, m) agent `i`'s goal. */
function _aimAtRect(a: AgentStore, status: Uint8Array, i: number, r: ArrayLike<number>): void {
  _aimAt(a, status, i, 0.5 * (r[0] + r[2]), 0.5 * (r[1] + r[3]));
}

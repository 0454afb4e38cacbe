/**
 * Priority steering ("Crossing citizens: a simple simulation of pedestrian crossing", project
 * report, Section "Priority steering", after
 * Millington & Funge 2009, §3.4): steering behaviours blended in weighted groups taken in
 * priority order. For each agent, the first group whose blended acceleration (the weighted sum
 * of its behaviours' accelerations) exceeds `epsilon` decides, and the groups after it are not
 * evaluated. The new velocity is `v + a·dt`, capped at the agent's maximum speed and by every
 * behaviour's speed rule (`limitVelocity`: `boxcast`'s time gap to the person ahead), then passed
 * through contact handling ({@linkcode ContactConstraint}) that stands in for the physics
 * engine's colliders of the original.
 *
 * Behaviours are the built-in ones (`seek`, `arrive`, `separation`, `drag`, `boxcast`) or any
 * registered strategy, wrapped (its acceleration is `(v_strategy − v) / dt`). The group that
 * decided is kept per agent in the `steering.group` column (−1 when none exceeded epsilon) and
 * shown by `inspect`.
 *
 * In a scenario file:
 *
 * ```json
 * "strategy": {
 *   "name": "priority-steering",
 *   "options": { "groups": [[["boxcast", 1.0]], [["seek", 1.0], ["separation", 0.6], ["drag", 0.3]]] }
 * }
 * ```
 *
 * @module
 */
import { avoidVehicles } from "../core/vehicles.ts";
import type { ColumnSpec } from "../core/agent_store.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { StrategyRegistry } from "../core/registry.ts";
import type { StepContext, Strategy, StrategyFactory } from "../core/strategy.ts";
import type { World } from "../core/world.ts";
import type { SteeringBehaviour } from "./steering/behaviour.ts";
import { createBehaviour } from "./steering/catalogue.ts";
import { ContactConstraint, PINNED_COLUMN, TURN_COLUMN } from "./steering/contact.ts";
import { type BehaviourGroups, DEFAULT_GROUPS, parseGroups } from "./steering/groups.ts";
import { Neighbourhood } from "./steering/neighbourhood.ts";
import { BLOCKED_PROGRESS, nextPinnedTime, squeezeOf } from "./_right_of_way.ts";

/** Options of {@linkcode createPriorityStrategy}. */
export interface PrioritySteeringOptions {
  /**
   * Behaviour groups in priority order. @default the "Crossing citizens" report's: boxcast,
   * then seek + separation + drag
   */
  groups: BehaviourGroups;
  /** A group decides when its blended acceleration exceeds this (m/s²). @default 0.001 */
  epsilon: number;
  /** Keep bodies from interpenetrating (stands in for the original's physics colliders). @default true */
  contact: boolean;
}

/** A behaviour instance with its blending weight. */
export interface WeightedBehaviour {
  /** The behaviour. */
  behaviour: SteeringBehaviour;
  /** Blending weight (dimensionless). */
  weight: number;
}

/** Settings of {@linkcode composeBehaviours}. */
export interface ComposeSettings {
  /** A group decides when its blended acceleration exceeds this (m/s²). */
  epsilon: number;
  /** Apply contact handling to the steered velocity. */
  contact: boolean;
}

/** Name of the per-agent column holding the group that decided (−1: none). */
export const STEERING_GROUP_COLUMN = "steering.group";

/**
 * State column with the seconds each agent has stood pinned (when contact handling is on); past
 * half a second the agent turns its shoulders to squeeze by (see `squeezeOf` in
 * strategies/_right_of_way.ts).
 */
export const STEERING_PINNED_COLUMN = PINNED_COLUMN;

/**
 * State column with the share of the combined radii each agent gives up towards people coming
 * the other way, its shoulders turned in a counter-flow press (when contact handling is on; see
 * `passingTurnOf` in strategies/_right_of_way.ts).
 */
export const STEERING_TURN_COLUMN = TURN_COLUMN;

/** Radius (m) contact handling reads: two body radii plus a step of closing at running speed. */
const CONTACT_RADIUS = 0.75;

/**
 * Option descriptors of priority steering; `registry` resolves strategy names in `groups`
 * (a function so that the registry holding this strategy can be passed while it is filled).
 *
 * @example
 * ```ts
 * import { prioritySteeringOptions } from "./priority_steering.ts";
 * import { resolveOptions } from "../core/options.ts";
 * import assert from "node:assert/strict";
 * const specs = prioritySteeringOptions();
 * assert.throws(
 *   () => resolveOptions("priority-steering strategy", specs, { groups: [[["sek", 1]]] }),
 *   /'groups' is invalid: groups\[0\]\[0\]\.behaviour: unknown behaviour 'sek'/,
 * );
 * ```
 */
export function prioritySteeringOptions(
  registry?: StrategyRegistry | (() => StrategyRegistry),
): OptionSpecs<PrioritySteeringOptions> {
  const lookup = () => (typeof registry === "function" ? registry() : registry);
  return {
    groups: {
      type: "object",
      default: DEFAULT_GROUPS,
      parse: (value) => parseGroups(value, lookup()),
      doc: "behaviour groups in priority order, each a list of [behaviour, weight] or " +
        "[behaviour, weight, options] (or { behaviour, weight, options }); behaviours: seek, " +
        "arrive, separation, drag, boxcast or any registered strategy. Default " +
        '[[["boxcast", 1]], [["seek", 1], ["separation", 0.6], ["drag", 0.3]]]',
    },
    epsilon: {
      type: "number",
      default: 0.001,
      min: 0,
      max: 10,
      unit: "m/s²",
      doc:
        'a group decides when its blended acceleration exceeds this ("Crossing citizens": 0.001)',
    },
    contact: {
      type: "boolean",
      default: true,
      doc: "keep bodies from interpenetrating (the physics colliders of the original)",
    },
  };
}

class PriorityStrategy implements Strategy {
  readonly name: string;
  readonly neighborRadius: number;
  readonly columns: readonly ColumnSpec[];
  readonly #behaviours: SteeringBehaviour[];
  /** The behaviours that cap the velocity (`limitVelocity`), in composition order. */
  readonly #limiters: SteeringBehaviour[];
  readonly #members: SteeringBehaviour[];
  readonly #weights: Float64Array;
  readonly #groupStart: Int32Array;
  readonly #groupCount: number;
  readonly #epsilonSq: number;
  readonly #contact: ContactConstraint | null;
  readonly #out = new Float64Array(2);
  readonly #vel = new Float64Array(2);

  constructor(
    name: string,
    groups: readonly (readonly WeightedBehaviour[])[],
    settings: ComposeSettings,
  ) {
    this.name = name;
    this.#members = groups.flat().map((m) => m.behaviour);
    this.#weights = Float64Array.from(groups.flat(), (m) => m.weight);
    this.#groupStart = new Int32Array(groups.length + 1);
    groups.forEach((g, k) => (this.#groupStart[k + 1] = this.#groupStart[k] + g.length));
    this.#groupCount = groups.length;
    this.#behaviours = [...new Set(this.#members)];
    this.#limiters = this.#behaviours.filter((b) => b.limitVelocity !== undefined);
    this.#epsilonSq = settings.epsilon * settings.epsilon;
    // One neighbour list per agent, shared by separation-like behaviours and contact handling.
    const near = new Neighbourhood(0);
    for (const b of this.#behaviours) b.shareNeighbourhood?.(near);
    this.#contact = settings.contact ? new ContactConstraint(near) : null;
    const radii = this.#behaviours.map((b) => b.neighborRadius);
    this.neighborRadius = Math.max(settings.contact ? CONTACT_RADIUS : 0, ...radii);
    const columns = new Map<string, ColumnSpec>();
    columns.set(STEERING_GROUP_COLUMN, {
      name: STEERING_GROUP_COLUMN,
      type: "i32",
      default: -1,
      kind: "state",
      doc: "priority group that decided the last step (0 first; -1 none exceeded epsilon)",
    });
    if (settings.contact) {
      columns.set(STEERING_PINNED_COLUMN, {
        name: STEERING_PINNED_COLUMN,
        type: "f64",
        default: 0,
        kind: "state",
        doc: "seconds stood pinned; past 0.5 s the agent turns its shoulders to neighbours",
      });
      columns.set(STEERING_TURN_COLUMN, {
        name: STEERING_TURN_COLUMN,
        type: "f64",
        default: 0,
        kind: "state",
        doc: "share of the combined radii given up towards people coming head-on " +
          "(shoulders turned in a counter-flow press)",
      });
    }
    for (const b of this.#behaviours) for (const c of b.columns ?? []) columns.set(c.name, c);
    this.columns = [...columns.values()];
  }

  attach(world: World): void {
    for (const b of this.#behaviours) b.attach?.(world);
  }

  computeNewVelocities(ctx: StepContext, begin: number, end: number): void {
    for (const b of this.#behaviours) b.prepare?.(ctx, begin, end);
    const contact = this.#contact;
    contact?.prepare(ctx);
    const a = ctx.agents, dt = ctx.dt, eps2 = this.#epsilonSq;
    const decided = a.column<Int32Array>(STEERING_GROUP_COLUMN);
    const members = this.#members, weights = this.#weights, starts = this.#groupStart;
    const groups = this.#groupCount, out = this.#out, vel = this.#vel;
    const limiters = this.#limiters;
    const vx = a.vx, vy = a.vy, maxSpeed = a.maxSpeed, newVx = a.newVx, newVy = a.newVy;
    const prefVx = a.prefVx, prefVy = a.prefVy;
    const pinned = contact !== null ? a.column(STEERING_PINNED_COLUMN) : null;
    const turns = contact !== null ? a.column(STEERING_TURN_COLUMN) : null;
    for (let i = begin; i < end; i++) {
      let ax = 0, ay = 0, won = -1;
      for (let g = 0; g < groups; g++) {
        let gx = 0, gy = 0;
        for (let m = starts[g]; m < starts[g + 1]; m++) {
          members[m].accelerate(ctx, i, out);
          gx += weights[m] * out[0];
          gy += weights[m] * out[1];
        }
        if (gx * gx + gy * gy > eps2) {
          ax = gx;
          ay = gy;
          won = g;
          break;
        }
      }
      decided[i] = won;
      let ux = vx[i] + ax * dt, uy = vy[i] + ay * dt;
      const s2 = ux * ux + uy * uy, cap = maxSpeed[i];
      if (s2 > cap * cap) {
        const f = cap / Math.sqrt(s2);
        ux *= f;
        uy *= f;
      }
      let progressCap = Infinity;
      if (limiters.length > 0) {
        vel[0] = ux;
        vel[1] = uy;
        for (let k = 0; k < limiters.length; k++) {
          const c = limiters[k].limitVelocity!(ctx, i, vel);
          if (c < progressCap) progressCap = c;
        }
        ux = vel[0];
        uy = vel[1];
      }
      if (contact !== null) {
        vel[0] = ux;
        vel[1] = uy;
        turns![i] = contact.apply(
          ctx,
          i,
          vel,
          squeezeOf(pinned![i]),
          pinned,
          turns,
          progressCap,
        );
        ux = vel[0];
        uy = vel[1];
        // Pinned (less than a tenth of the preferred progress, capped by the speed rules) for
        // long: the shoulders turn.
        const pvx = prefVx[i], pvy = prefVy[i], wantSq = pvx * pvx + pvy * pvy;
        const want = progressCap < Infinity ? Math.sqrt(wantSq) : 0;
        const least = BLOCKED_PROGRESS * (progressCap < want ? want * progressCap : wantSq);
        pinned![i] = nextPinnedTime(pinned![i], wantSq > 0 && ux * pvx + uy * pvy < least, dt);
      }
      newVx[i] = ux;
      newVy[i] = uy;
    }
    avoidVehicles(a, ctx.vehicles, begin, end);
  }

  inspect(world: World, index: number): Record<string, number | string | boolean> {
    const result: Record<string, number | string | boolean> = {
      group: world.agents.column<Int32Array>(STEERING_GROUP_COLUMN)[index],
    };
    for (const b of this.#behaviours) {
      for (const [key, value] of Object.entries(b.inspect?.(world, index) ?? {})) {
        result[`${b.name}.${key}`] = value;
      }
    }
    return result;
  }
}

/**
 * Composes behaviour instances into a strategy named `name` (the engine behind
 * {@linkcode createPriorityStrategy} and the `boxcast` strategy).
 *
 * @example With a clear way, the second group (seek) decides
 * ```ts
 * import { composeBehaviours, STEERING_GROUP_COLUMN } from "./priority_steering.ts";
 * import { createAvoidVolumeBehaviour } from "./steering/avoid_volume.ts";
 * import { createSeekBehaviour } from "./steering/seek.ts";
 * import { World } from "../core/world.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const strategy = composeBehaviours("demo", [
 *   [{ behaviour: createAvoidVolumeBehaviour(), weight: 1 }],
 *   [{ behaviour: createSeekBehaviour(), weight: 1 }],
 * ], { epsilon: 0.001, contact: true });
 * const world = new World({ strategy, navigator: createGoalSeeker() });
 * world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0 });
 * world.step();
 * assert.equal(world.agents.column<Int32Array>(STEERING_GROUP_COLUMN)[0], 1);
 * ```
 */
export function composeBehaviours(
  name: string,
  groups: readonly (readonly WeightedBehaviour[])[],
  settings: ComposeSettings,
): Strategy {
  if (groups.length === 0 || groups.some((g) => g.length === 0)) {
    throw new RangeError(
      `Cannot create ${name} strategy as every group must hold at least one behaviour`,
    );
  }
  return new PriorityStrategy(name, groups, settings);
}

/**
 * Creates the `priority-steering` strategy from behaviour names. `registry` resolves names that
 * are not built-in behaviours to strategies (wrapped); without it only built-ins resolve.
 *
 * @example The document's composition, written out
 * ```ts
 * import { createPriorityStrategy } from "./priority_steering.ts";
 * import assert from "node:assert/strict";
 * const strategy = createPriorityStrategy({
 *   groups: [
 *     [{ behaviour: "boxcast", weight: 1 }],
 *     [{ behaviour: "seek", weight: 1 }, { behaviour: "separation", weight: 0.6 }, { behaviour: "drag", weight: 0.3 }],
 *   ],
 *   epsilon: 0.001,
 * });
 * assert.equal(strategy.name, "priority-steering");
 * ```
 */
export function createPriorityStrategy(
  options: Partial<PrioritySteeringOptions> = {},
  registry?: StrategyRegistry,
): Strategy {
  const o = resolveOptions(
    "priority-steering strategy",
    prioritySteeringOptions(registry),
    options,
  );
  const groups = o.groups.map((group) =>
    group.map((entry) => ({
      behaviour: createBehaviour(entry.behaviour, entry.options ?? {}, registry),
      weight: entry.weight,
    }))
  );
  return composeBehaviours("priority-steering", groups, { epsilon: o.epsilon, contact: o.contact });
}

/**
 * The registry entry of `priority-steering`, resolving strategy names in `groups` through
 * `registry` (pass a function to hand over the registry that will hold this entry).
 *
 * @example
 * ```ts
 * import { createPrioritySteeringFactory } from "./priority_steering.ts";
 * import { StrategyRegistry } from "../core/registry.ts";
 * import { noneStrategy } from "./none.ts";
 * import assert from "node:assert/strict";
 * const registry = new StrategyRegistry();
 * registry.register(noneStrategy);
 * registry.register(createPrioritySteeringFactory(() => registry));
 * const s = registry.create("priority-steering", { groups: [[["none", 1]]] });
 * assert.equal(s.name, "priority-steering");
 * ```
 */
export function createPrioritySteeringFactory(
  registry: StrategyRegistry | (() => StrategyRegistry),
): StrategyFactory<PrioritySteeringOptions> {
  const lookup = () => (typeof registry === "function" ? registry() : registry);
  return {
    name: "priority-steering",
    description:
      'steering behaviours blended in weighted priority groups ("Crossing citizens", Millington)',
    options: prioritySteeringOptions(registry),
    create: (options) => createPriorityStrategy(options, lookup()),
  };
}

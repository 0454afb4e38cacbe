/**
 * The `raycast-cluster` strategy's step: per agent, the bias, the ray check on its interval, the
 * eased turn, the speed dampener and adaptive reach, then contact constraints, right of way and
 * side-step. The model follows "The Sidewalk Salsa and Cultural Sensitivities" (blog post on
 * the avoidance of the game Stop Shoving!, "the post" below); strategies/raycast_cluster.ts
 * describes it with its options. Each concern lives in its own module:
 *
 * - strategies/_raycast_scan.ts: which rays form each cluster, in which order they are tried;
 * - strategies/_raycast_rays.ts: the fan of rays and one ray check (neighbours and walls);
 * - strategies/_raycast_walls.ts: wall geometry for the rays;
 * - strategies/_raycast_salsa.ts: cultural bias, committed turns and side-steps;
 * - strategies/_raycast_contacts.ts: contact constraints and right of way;
 * - strategies/_raycast_columns.ts: the per-agent columns.
 *
 * @module
 */
import { avoidVehicles } from "../core/vehicles.ts";
import type { ColumnSpec } from "../core/agent_store.ts";
import type { StepContext, Strategy } from "../core/strategy.ts";
import type { World } from "../core/world.ts";
import { BLOCKED_PROGRESS, nextPinnedTime, SQUEEZE_SHARE, squeezeOf } from "./_right_of_way.ts";
import {
  ALL_BLOCKED,
  CENTRE_BLOCKED,
  INITIALISED,
  PHASED,
  RaycastColumns,
  raycastColumnSpecs,
  RUDE_UNDECIDED,
} from "./_raycast_columns.ts";
import { ContactConstraints, type Vector2 } from "./_raycast_contacts.ts";
import { RayCheck } from "./_raycast_rays.ts";
import { Salsa, Walk } from "./_raycast_salsa.ts";
import { effectiveRayCount, MAX_MARGIN, scanTable } from "./_raycast_scan.ts";
import type { RaycastClusterOptions } from "./raycast_cluster.ts";

/** Below this preferred speed an agent stands still (m/s). */
const MIN_SPEED = 1e-9;

/**
 * Neighbourhood read every step by the contact constraints (m): two body radii of 0.25 m plus the
 * distance covered at 1.34 m/s in the default `brakeTimeS`, rounded up. Sizes the grid cells.
 */
const CONTACT_NEIGHBOURHOOD = 1.25;

/** Backing-off speed of an agent giving way, as a share of its desired speed. */
const GIVE_WAY_SPEED = 0.5;

/**
 * The `raycast-cluster` strategy with validated options `o` (made by
 * `createRaycastClusterStrategy`, which validates them).
 *
 * @example Two agents head-on: the check sees the other, and each turns to its walking side
 * ```ts
 * import { RaycastClusterStrategy } from "./_raycast_cluster_strategy.ts";
 * import { RAYCAST_CLUSTER_OPTIONS } from "./raycast_cluster.ts";
 * import { resolveOptions } from "../core/options.ts";
 * import { World } from "../core/world.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const o = resolveOptions("raycast-cluster strategy", RAYCAST_CLUSTER_OPTIONS, {});
 * const world = new World({ strategy: new RaycastClusterStrategy(o), navigator: createGoalSeeker() });
 * world.addAgent({ x: -3, y: 0, goalX: 6, goalY: 0 });
 * world.addAgent({ x: 3, y: 0, goalX: -6, goalY: 0 });
 * world.step();
 * assert.ok(world.agents.newVy[0] < 0 && world.agents.newVy[1] > 0); // both keep right
 * ```
 */
export class RaycastClusterStrategy implements Strategy {
  /** Registry name. */
  readonly name = "raycast-cluster";
  /** Neighbourhood every agent reads every step (m); it sizes the grid cells. */
  readonly neighborRadius: number = CONTACT_NEIGHBOURHOOD;
  /** Per-agent parameter and state columns (`raycast.*`). */
  readonly columns: readonly ColumnSpec[];
  readonly #o: RaycastClusterOptions;
  readonly #c = new RaycastColumns();
  readonly #salsa: Salsa;
  readonly #rays: RayCheck;
  readonly #contacts: ContactConstraints;
  // The agent being stepped, the direction it backs off in when giving way, and its velocity
  // after the contact constraints.
  readonly #walk = new Walk();
  readonly #away: Vector2 = { x: 0, y: 0 };
  readonly #velocity: Vector2 = { x: 0, y: 0 };

  /** Builds the strategy from options `o`, already validated. */
  constructor(o: RaycastClusterOptions) {
    this.#o = o;
    this.columns = raycastColumnSpecs(o);
    this.#salsa = new Salsa(o, this.#c);
    this.#rays = new RayCheck(o);
    this.#contacts = new ContactConstraints(o.brakeTimeS, this.#rays.walls);
  }

  /** Writes the new velocity (m/s) of agents `begin` … `end - 1` from the frozen state. */
  computeNewVelocities(ctx: StepContext, begin: number, end: number): void {
    this.#beginStep(ctx);
    const a = ctx.agents, o = this.#o, c = this.#c, dt = ctx.dt;
    const salsa = this.#salsa, contacts = this.#contacts, walk = this.#walk;
    const velocity = this.#velocity, away = this.#away;
    const prefVx = a.prefVx, prefVy = a.prefVy, newVx = a.newVx, newVy = a.newVy;
    const status = c.status, checkCountdown = c.checkCountdown, pinnedTime = c.pinned;
    for (let i = begin; i < end; i++) {
      const pvx = prefVx[i], pvy = prefVy[i];
      const speed = Math.sqrt(pvx * pvx + pvy * pvy);
      if (!(speed > MIN_SPEED)) {
        newVx[i] = newVy[i] = 0;
        continue;
      }
      if ((status[i] & INITIALISED) === 0) this.#initialise(ctx, i);
      salsa.updateBias(i);
      const hx = pvx / speed, hy = pvy / speed;
      if (--checkCountdown[i] <= 0) this.#check(ctx, i, hx, hy, speed);
      salsa.relaxTurn(i);
      const cos = c.turnCos[i], sin = c.turnSin[i];
      const dx = hx * cos - hy * sin, dy = hx * sin + hy * cos;
      this.#updateFactors(i, dt);
      const v = speed * c.speedFactor[i];
      // Towards neighbours, a pinned agent's body is narrower by its squeeze (shoulders turned).
      const squeeze = squeezeOf(pinnedTime[i]);
      contacts.gather(
        ctx,
        i,
        squeeze,
        (v + o.sidestepShare * speed) * o.brakeTimeS,
        pinnedTime,
      );
      const cornered = (status[i] & ALL_BLOCKED) !== 0;
      // Pinned for the last two seconds even with the shoulders turned: also a right-of-way case,
      // whatever the rays see beyond the neighbours it is wedged against.
      const pinned = squeeze >= SQUEEZE_SHARE;
      if ((cornered || pinned) && contacts.givesWay(a, i, hx, hy, away)) {
        // Cornered, and wedged against a standing neighbour with the right of way: back off
        // from it at half the desired speed so that the arch they form opens.
        c.side[i] = 0;
        const backX = away.x * GIVE_WAY_SPEED * speed, backY = away.y * GIVE_WAY_SPEED * speed;
        contacts.project(backX, backY, velocity);
      } else {
        walk.hx = hx;
        walk.hy = hy;
        walk.dx = dx;
        walk.dy = dy;
        walk.speed = speed;
        const target = cornered && salsa.wantsSidestep(ctx, i, contacts)
          ? salsa.sidestepTarget(i, walk, contacts)
          : 0;
        const side = salsa.easeSidestep(i, target) * speed;
        // Right of the heading is (hy, -hx); side > 0 steps right.
        contacts.project(dx * v + hy * side, dy * v - hx * side, velocity);
      }
      const outVx = velocity.x, outVy = velocity.y;
      newVx[i] = outVx;
      newVy[i] = outVy;
      // Pinned (less than a tenth of the preferred progress) for long: the shoulders turn.
      const progress = outVx * pvx + outVy * pvy;
      pinnedTime[i] = nextPinnedTime(
        pinnedTime[i],
        progress < BLOCKED_PROGRESS * speed * speed,
        dt,
      );
    }
    avoidVehicles(a, ctx.vehicles, begin, end);
  }

  /** The agent's parameters and working state, for the viewer's inspector. */
  inspect(world: World, index: number): Record<string, number | string | boolean> {
    const a = world.agents;
    const value = (name: string) => a.column<Float64Array>(`raycast.${name}`)[index];
    const bias = value("bias"), status = value("status"), rude = value("rude");
    return {
      rays: effectiveRayCount(value("rayCount")),
      arcDeg: value("arcDeg"),
      rayLengthM: value("length"),
      clusterMargin: value("clusterMargin"),
      rude: rude === RUDE_UNDECIDED ? "undecided" : rude === 1,
      confusion: value("confusion"),
      bias: bias < 0 ? "right" : bias > 0 ? "left" : "none",
      centreBlocked: (status & CENTRE_BLOCKED) !== 0,
      allBlocked: (status & ALL_BLOCKED) !== 0,
      targetTurnDeg: (Math.atan2(value("targetSin"), value("targetCos")) * 180) / Math.PI,
      turnDeg: (Math.atan2(value("turnSin"), value("turnCos")) * 180) / Math.PI,
      speedFactor: value("speedFactor"),
      sidestep: value("side"),
      reachM: value("reach"),
      raysCast: value("raysCast"),
      checkCountdown: value("checkCountdown"),
      biasCountdown: value("biasCountdown"),
    };
  }

  /** Binds this step's columns and hands the step's constants to the parts. */
  #beginStep(ctx: StepContext): void {
    const a = ctx.agents, radius = a.radius;
    this.#c.bind(a);
    let maxRadius = 0;
    for (let i = 0; i < a.count; i++) if (radius[i] > maxRadius) maxRadius = radius[i];
    this.#contacts.beginStep(maxRadius);
    this.#rays.beginStep(maxRadius);
    this.#salsa.beginStep(ctx);
  }

  /** First step of a trip: draws the rude flag if undecided and starts the reach at full length. */
  #initialise(ctx: StepContext, i: number): void {
    const c = this.#c;
    if (c.rude[i] === RUDE_UNDECIDED) c.rude[i] = ctx.rng.chance(this.#o.rudeShare) ? 1 : 0;
    c.checkParameters(ctx.agents, i);
    c.reach[i] = c.length[i];
    c.checkCountdown[i] = 0; // check at once; the phase is drawn after the first clear check
    c.biasCountdown[i] = 0;
    c.status[i] |= INITIALISED;
  }

  /** Speed dampener and adaptive reach of agent `i`, per step of `dt` (s), from its last check. */
  #updateFactors(i: number, dt: number): void {
    const o = this.#o, c = this.#c, bits = c.status[i], length = c.length[i];
    let f = c.speedFactor[i], reach = c.reach[i];
    if ((bits & ALL_BLOCKED) !== 0) {
      f -= o.dampingRate * dt;
      if (f < o.minSpeedFactor) f = o.minSpeedFactor;
      reach -= o.reachDecayRate * dt;
      const floor = o.minRayLengthM < length ? o.minRayLengthM : length;
      if (reach < floor) reach = floor;
    } else {
      f += o.recoveryRate * dt;
      if (f > 1) f = 1;
      if ((bits & CENTRE_BLOCKED) === 0) {
        reach += o.reachGrowthRate * dt;
        if (reach > length) reach = length;
      }
    }
    c.speedFactor[i] = f;
    c.reach[i] = reach;
  }

  /**
   * One ray check of agent `i` with unit preferred heading (`hx`, `hy`) and preferred `speed`
   * (m/s) (the post's `get_avoidance_vector()`): gathers the neighbours and walls in the arc,
   * scans the clusters and sets the target turn, the status bits and the next check.
   */
  #check(ctx: StepContext, i: number, hx: number, hy: number, speed: number): void {
    const c = this.#c, rays = this.#rays;
    c.checkParameters(ctx.agents, i);
    const n = effectiveRayCount(c.rayCount[i]);
    const margin = c.margin[i] > MAX_MARGIN ? MAX_MARGIN : c.margin[i];
    rays.fan.aim(n, c.arcDeg[i], hx, hy);
    rays.start(ctx, i, c.originAhead[i], speed, c.reach[i]);
    const table = scanTable(n, margin, c.bias[i]);
    c.status[i] = this.#decide(ctx, i, table, rays.firstClearCluster(table));
    c.raysCast[i] = rays.raysCast;
  }

  /**
   * Acts on a scan of `table` whose first clear cluster is at table offset `chosen` (-1 when
   * every cluster collides): sets the target turn and the next check, and returns the new status
   * bits of agent `i`.
   */
  #decide(ctx: StepContext, i: number, table: Int32Array, chosen: number): number {
    const o = this.#o, c = this.#c;
    let bits = c.status[i] & ~(CENTRE_BLOCKED | ALL_BLOCKED);
    let target = table[0];
    if (chosen === 0) {
      const k = o.checkIntervalSteps;
      // After the first clear check of a trip a random phase in 1…k spreads agents over steps.
      c.checkCountdown[i] = k <= 1 ? 1 : (bits & PHASED) !== 0 ? k : 1 + ctx.rng.int(k);
      bits |= PHASED;
    } else {
      bits |= CENTRE_BLOCKED;
      c.checkCountdown[i] = 1;
      if (chosen > 0) {
        target = table[chosen];
      } else {
        bits |= ALL_BLOCKED;
        if (o.allBlockedTurn === "openest") target = table[this.#rays.openestCluster(table)];
      }
    }
    this.#salsa.turnTo(i, this.#rays.fan.cos[target], this.#rays.fan.sin[target]);
    return bits;
  }
}

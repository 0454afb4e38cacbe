/**
 * The `raycast-cluster` strategy: a fan of rays ahead of every agent, scanned in overlapping
 * clusters with a cultural directional bias, after "The Sidewalk Salsa and Cultural
 * Sensitivities" (blog post on the avoidance of the game Stop Shoving!).
 *
 * What the document describes, with its parameters as defaults:
 *
 * - `rayCount` rays (forced odd and clamped to 3…21, default 13) fan evenly over `rayArcDeg`
 *   (60°, from the right-most to the left-most ray), each `rayLengthM` long (7.5 m), from an
 *   origin slightly ahead of the agent. Ray 0 is the right-most, the middle ray points along the
 *   preferred velocity.
 * - A cluster is a ray plus `clusterMargin` rays (2) to each side; a cluster collides when any
 *   of its rays does. The centre cluster is checked first: clear means no adjustment. Otherwise
 *   the offsets 1, 1, 2, 2, … up to half the rays plus the margin are tried, the side flipping at
 *   every try starting with the directional bias; cluster ranges are clamped to the ray array,
 *   so the edge clusters shrink down to a single ray. The first clear cluster gives the turn:
 *   the angle of its centre ray. When every cluster collides there is no turn and a speed
 *   dampener slows the agent until a way opens; the speed then recovers to the desired speed.
 * - The directional bias is the world's walking side (right or left), inverted for "rude"
 *   agents and replaced by a coin flip with each agent's confusion probability; it is
 *   re-evaluated only every `biasIntervalSteps` steps (12), so agents can dance the salsa.
 * - The document's proposed optimisations: avoidance is evaluated every `checkIntervalSteps`
 *   steps per agent with a random per-agent phase, and every step while the centre cluster
 *   collides; rays are cast lazily (the centre cluster's rays first, the others only when it
 *   collides) and each ray's result is cached within the step.
 *
 * What it fixes of the weaknesses the document admits (each fix can be switched off or tuned):
 *
 * - A ray is one-dimensional and can slip through a sliver between two bodies that the walker's
 *   body would not fit through; clusters only fake width. Here rays are intersected analytically
 *   with neighbour discs inflated by the agent's own radius: exactly the "shapecast with a
 *   lateral dimension equivalent to the NPC's collision size" the document prefers but cannot
 *   afford in a physics engine (`inflateRays`).
 * - Rays ignore motion: a walker following another at the same speed keeps swerving, and two
 *   walkers converging on the same point do not see it coming. With `motionAware` each ray is cast
 *   along the agent's path relative to each moving neighbour (walking the ray at its preferred
 *   speed, does it meet that neighbour before it has walked the ray length?). A standing
 *   neighbour sees exactly the document's ray.
 * - A fixed 7.5 m ray in a dense crowd always collides, so the dampener never lets go. As with
 *   the adaptive forward volume of "Crossing citizens: a simple simulation of pedestrian crossing"
 *   (project report), the ray length shrinks while every cluster collides and
 *   grows back while the centre is clear (`minRayLengthM`, `reachDecayRate`, `reachGrowthRate`).
 * - "No turn and a speed dampener" walks the agent on into whatever blocks it, and when everyone
 *   is blocked (the circle swap) nobody ever gets out: pure ray casting jams all 24 agents of the
 *   circle in its centre. Two short-range terms fix it. Contact constraints, every step and all
 *   around the body: the closing speed on any neighbour or wall is at most the gap over
 *   `brakeTimeS` (plus what the neighbour moves away), and an overlap is pushed out. And a
 *   cornered agent side-steps at right angles to its bias side (to the other side when the bias
 *   side is shut and it cannot go on), which turns a jam into a roundabout (`sidestepShare`) —
 *   when walls alone corner it or it stands in a counter-flow (someone ahead within its ray
 *   length wants to go the other way): in a crowd going one way, side-stepping would only shift
 *   everyone to the walking side and press them against the wall there.
 *   `allBlockedTurn: "openest"` also turns towards the cluster that stays clear longest.
 * - Contact constraints hold bodies strictly apart, so agents that touch and all want to move
 *   into each other stand for ever: across a doorway, one agent at each door post and one
 *   between form an arch no pressure from behind can break. A cornered agent wedged against a
 *   standing neighbour that wants to go where it stands settles the right of way: the one that
 *   has the other more squarely in its way backs off at half its speed (see
 *   strategies/_right_of_way.ts). And the dampener slows a cornered agent to a tenth of its
 *   speed (`minSpeedFactor`), not the quarter that would pack a waiting crowd solid. Where
 *   giving way cannot open the arch either (at a 0.8 m door everyone in it touches three
 *   others), an agent pinned for more than half a second turns its shoulders: towards its
 *   neighbours its body narrows by up to a fifth over the next two seconds, and squares up again
 *   once it walks (`squeezeOf` in strategies/_right_of_way.ts; state column `raycast.pinned`).
 *   A fully squeezed agent also settles the right of way as a cornered one does.
 * - The returned angle is applied at once, so agents snap between headings; here the heading
 *   and the side-step ease towards their targets with time constant `turnTimeS`. Smoothing alone
 *   would blur the salsa into a 20 Hz jitter (two mirrored agents re-decide every step), so a
 *   side, once turned to, is kept for `commitTimeS` before a check may turn to the other side:
 *   each twist of the dance lasts.
 * - Walls alongside are hit by the slanted rays and would push walkers off them to the middle of
 *   a corridor; rays see walls only within `wallRayLengthM`, and only where they meet a wall at
 *   more than 30° to its surface: a ray that grazes a wall or a door post is not in the way (the
 *   contact constraints slide the body along), so walkers neither turn away from a wall they
 *   follow nor from the opening beside it.
 *
 * Per-agent parameters are columns (`raycast.rayCount`, `raycast.arcDeg`, `raycast.length`,
 * `raycast.clusterMargin`, `raycast.originAhead`, `raycast.rude`, `raycast.confusion`) whose
 * defaults are the options; per-agent working state is in `raycast.*` state columns. Random
 * draws (rude assignment, check phase, confusion) use `ctx.rng` in agent index order, so a run is
 * reproducible from its seed: an agent whose `raycast.rude` column is 2 (the default) is made
 * rude with probability `rudeShare` at its first step, and keeps that across respawns.
 *
 * @example Two agents meet head-on and both keep right
 * ```ts
 * import { createRaycastClusterStrategy } from "./raycast_cluster.ts";
 * import { World } from "../core/world.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const world = new World({
 *   strategy: createRaycastClusterStrategy(),
 *   navigator: createGoalSeeker(),
 *   walkingSide: "right",
 * });
 * const east = world.addAgent({ x: -6, y: 0, goalX: 6, goalY: 0 });
 * const west = world.addAgent({ x: 6, y: 0, goalX: -6, goalY: 0 });
 * let eastY = 0, westY = 0;
 * for (let k = 0; k < 200 && !world.finished; k++) {
 *   world.step();
 *   const a = world.agent(east), b = world.agent(west);
 *   if (a && b && Math.abs(a.x - b.x) < 0.2) [eastY, westY] = [a.y, b.y];
 * }
 * assert.ok(eastY < 0 && westY > 0); // east-bound on the south side: each on its right
 * ```
 *
 * @module
 */
import type { ColumnSpec } from "../core/agent_store.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { StepContext, Strategy, StrategyFactory } from "../core/strategy.ts";
import type { World } from "../core/world.ts";
import {
  BLOCKED_PROGRESS,
  counterflowAhead,
  CounterflowQuery,
  nextPinnedTime,
  SQUEEZE_SHARE,
  squeezeOf,
} from "./_right_of_way.ts";
import {
  effectiveRayCount,
  MAX_MARGIN,
  MAX_RAYS,
  type RayCluster,
  rayClusterOffsets,
  rayClusterScan,
  scanTable,
} from "./_raycast_scan.ts";
import { RayCheck } from "./_raycast_rays.ts";
import { ContactConstraints, type Vector2 } from "./_raycast_contacts.ts";

export { effectiveRayCount, MAX_RAYS, type RayCluster, rayClusterOffsets, rayClusterScan };

/** Model-wide parameters of {@linkcode createRaycastClusterStrategy}. */
export interface RaycastClusterOptions {
  /** Rays per agent, forced odd: an even count loses one (`num_rays`). @default 13 */
  rayCount: number;
  /** Angle from the right-most to the left-most ray (deg) (`ray_arc`). @default 60 */
  rayArcDeg: number;
  /** Length of every ray (m) (`ray_len`). @default 7.5 */
  rayLengthM: number;
  /** Rays on each side of a cluster's centre ray (`ray_cluster_margin`). @default 2 */
  clusterMargin: number;
  /** Distance of the common ray origin ahead of the agent's centre (m). @default 0.1 */
  rayOriginAheadM: number;
  /** Steps between re-evaluations of an agent's directional bias. @default 12 */
  biasIntervalSteps: number;
  /** Share of agents that invert the walking side ("rude"), drawn per agent. @default 0 */
  rudeShare: number;
  /** Probability that a bias evaluation is a coin flip instead of the custom. @default 0 */
  confusion: number;
  /** Steps between ray checks while the centre cluster is clear (1 = every step). @default 3 */
  checkIntervalSteps: number;
  /**
   * Lowest speed factor of the dampener. A cornered agent that kept walking at a quarter of its
   * speed would press into a waiting crowd until it is packed solid, centimetres apart, and an
   * arch of wedged agents in front of a door could no longer open. @default 0.1
   */
  minSpeedFactor: number;
  /** Rate at which the dampener lowers the speed factor while every cluster collides (1/s). @default 2 */
  dampingRate: number;
  /** Rate at which the speed factor recovers to 1 otherwise (1/s). @default 1 */
  recoveryRate: number;
  /** Time constant with which the heading follows the chosen turn (s); 0 turns at once. @default 0.2 */
  turnTimeS: number;
  /** Time a side, once turned to, is kept before a check may turn to the other side (s). @default 0.3 */
  commitTimeS: number;
  /** Intersect rays with neighbour discs inflated by the agent's own radius. @default true */
  inflateRays: boolean;
  /** Cast each ray along the agent's path relative to each moving neighbour. @default true */
  motionAware: boolean;
  /** Shortest ray length the adaptive reach shrinks to (m). @default 0.5 */
  minRayLengthM: number;
  /** Rate at which the ray length shrinks while every cluster collides (m/s). @default 4 */
  reachDecayRate: number;
  /** Rate at which the ray length grows back while the centre cluster is clear (m/s). @default 2 */
  reachGrowthRate: number;
  /**
   * Heading when every cluster collides: `"straight"` keeps the preferred heading (the
   * document), `"openest"` turns to the cluster that stays clear longest, preferring the scan
   * order (bias side first) among near-equals. @default "straight"
   */
  allBlockedTurn: "straight" | "openest";
  /** Side-step speed towards the bias side while every cluster collides, as a share of the desired speed. @default 0.5 */
  sidestepShare: number;
  /** Rays see walls only this far (m). @default 1.5 */
  wallRayLengthM: number;
  /** Closing speed on a neighbour or wall is at most the gap / this time (s). @default 0.5 */
  brakeTimeS: number;
}

/** Option descriptors of the `raycast-cluster` strategy. */
export const RAYCAST_CLUSTER_OPTIONS: OptionSpecs<RaycastClusterOptions> = {
  rayCount: {
    type: "number",
    default: 13,
    min: 3,
    max: 21,
    integer: true,
    doc: "rays per agent (num_rays), forced odd: more rays resolve gaps finer and cost more",
  },
  rayArcDeg: {
    type: "number",
    default: 60,
    min: 0,
    exclusiveMin: true,
    max: 180,
    unit: "deg",
    doc: "angle from the right-most to the left-most ray (ray_arc): wider sees and turns more",
  },
  rayLengthM: {
    type: "number",
    default: 7.5,
    min: 0,
    exclusiveMin: true,
    max: 50,
    unit: "m",
    doc: "ray length (ray_len): longer reacts earlier and queries more neighbours",
  },
  clusterMargin: {
    type: "number",
    default: 2,
    min: 0,
    max: 20,
    integer: true,
    doc:
      "rays on each side of a cluster's centre ray (ray_cluster_margin): wider clusters fake wider bodies",
  },
  rayOriginAheadM: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 1,
    unit: "m",
    doc: "distance of the common ray origin ahead of the agent's centre",
  },
  biasIntervalSteps: {
    type: "number",
    default: 12,
    min: 1,
    max: 100000,
    integer: true,
    doc:
      "steps between re-evaluations of the directional bias: 1 lets confused agents change sides every step",
  },
  rudeShare: {
    type: "number",
    default: 0,
    min: 0,
    max: 1,
    doc: "share of agents that invert the walking side, drawn per agent at its first step",
  },
  confusion: {
    type: "number",
    default: 0,
    min: 0,
    max: 1,
    doc: "probability that a bias evaluation picks a side at random (default of raycast.confusion)",
  },
  checkIntervalSteps: {
    type: "number",
    default: 3,
    min: 1,
    max: 100,
    integer: true,
    doc:
      "steps between ray checks while the way is clear (every step while blocked): larger is cheaper and reacts later",
  },
  minSpeedFactor: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 1,
    doc: "lowest fraction of the desired speed the dampener slows to while every cluster " +
      "collides; larger packs a waiting crowd solid",
  },
  dampingRate: {
    type: "number",
    default: 2,
    min: 0,
    max: 100,
    unit: "1/s",
    doc: "how fast the dampener lowers the speed factor while every cluster collides",
  },
  recoveryRate: {
    type: "number",
    default: 1,
    min: 0,
    exclusiveMin: true,
    max: 100,
    unit: "1/s",
    doc: "how fast the speed factor recovers to 1 once a cluster is clear",
  },
  turnTimeS: {
    type: "number",
    default: 0.2,
    min: 0,
    max: 10,
    unit: "s",
    doc:
      "time constant of the heading following the chosen turn; 0 snaps (the document), larger is smoother and later",
  },
  commitTimeS: {
    type: "number",
    default: 0.3,
    min: 0,
    max: 10,
    unit: "s",
    doc:
      "a side, once turned to, is kept this long before turning to the other side: 0 re-decides every check",
  },
  inflateRays: {
    type: "boolean",
    default: true,
    doc:
      "inflate neighbour discs by the agent's radius (a body-wide shapecast); false casts thin rays",
  },
  motionAware: {
    type: "boolean",
    default: true,
    doc:
      "cast rays along the agent's path relative to each moving neighbour; false treats neighbours as standing",
  },
  minRayLengthM: {
    type: "number",
    default: 0.5,
    min: 0,
    max: 50,
    unit: "m",
    doc:
      "shortest ray length while every cluster keeps colliding (minSightRange of the Crossing citizens report)",
  },
  reachDecayRate: {
    type: "number",
    default: 4,
    min: 0,
    max: 1000,
    unit: "m/s",
    doc:
      "shrinking rate of the ray length while every cluster collides (sightDecay of the Crossing citizens report); 0 keeps it fixed",
  },
  reachGrowthRate: {
    type: "number",
    default: 2,
    min: 0,
    max: 1000,
    unit: "m/s",
    doc:
      "growth rate of the ray length while the centre cluster is clear (sightRegrowth of the Crossing citizens report)",
  },
  allBlockedTurn: {
    type: "enum",
    values: ["straight", "openest"],
    default: "straight",
    doc:
      "heading while every cluster collides: straight (the document) or the cluster that stays clear longest",
  },
  sidestepShare: {
    type: "number",
    default: 0.5,
    min: 0,
    max: 2,
    doc:
      "side-step speed to the bias side while every cluster collides, as a share of the desired speed; 0 disables",
  },
  wallRayLengthM: {
    type: "number",
    default: 1.5,
    min: 0,
    exclusiveMin: true,
    max: 50,
    unit: "m",
    doc: "rays see walls only this far, so walls alongside do not push walkers off them",
  },
  brakeTimeS: {
    type: "number",
    default: 0.5,
    min: 0,
    exclusiveMin: true,
    max: 10,
    unit: "s",
    doc:
      "closing speed on any neighbour or wall is at most the gap / this time: larger keeps more distance",
  },
};

/** `raycast.rude` value meaning "not drawn yet": drawn from `rudeShare` at the agent's first step. */
export const RUDE_UNDECIDED = 2;
/** A side-step goes to the bias side while it allows at least this share of the side-step speed. */
const SIDESTEP_OPEN = 0.5;
/** Below this preferred speed an agent stands still (m/s). */
const MIN_SPEED = 1e-9;
/**
 * Neighbourhood read every step by the contact constraints (m): two body radii of 0.25 m plus the
 * distance covered at 1.34 m/s in the default `brakeTimeS`, rounded up. Sizes the grid cells.
 */
const CONTACT_NEIGHBOURHOOD = 1.25;
/** Backing-off speed of an agent giving way, as a share of its desired speed. */
const GIVE_WAY_SPEED = 0.5;

// Bits of `raycast.status`.
const INITIALISED = 1;
const CENTRE_BLOCKED = 2;
const ALL_BLOCKED = 4;
const PHASED = 8;

/**
 * Creates the `raycast-cluster` strategy. Options are validated; the per-agent columns take
 * their defaults from them.
 *
 * @example A lone agent walks straight at its desired speed
 * ```ts
 * import { createRaycastClusterStrategy } from "./raycast_cluster.ts";
 * import { World } from "../core/world.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const world = new World({
 *   strategy: createRaycastClusterStrategy({ rayCount: 9, rayArcDeg: 90 }),
 *   navigator: createGoalSeeker(),
 * });
 * const h = world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1.2 });
 * world.step();
 * assert.equal(world.agent(h)!.vx, 1.2);
 * assert.equal(world.agent(h)!.vy, 0);
 * ```
 */
export function createRaycastClusterStrategy(
  options: Partial<RaycastClusterOptions> = {},
): Strategy {
  const resolved = resolveOptions("raycast-cluster strategy", RAYCAST_CLUSTER_OPTIONS, options);
  return new _RaycastCluster(resolved);
}

/** Registry entry of the `raycast-cluster` strategy. */
export const raycastClusterStrategy: StrategyFactory<RaycastClusterOptions> = {
  name: "raycast-cluster",
  description:
    "fan of rays scanned in clusters with a walking-side bias (the Sidewalk Salsa of Stop Shoving!)",
  options: RAYCAST_CLUSTER_OPTIONS,
  create: createRaycastClusterStrategy,
};

/** The per-agent columns of a strategy created with `o`. */
function _columns(o: RaycastClusterOptions): ColumnSpec[] {
  const parameter = (
    name: string,
    type: ColumnSpec["type"],
    value: number,
    doc: string,
  ): ColumnSpec => ({ name: `raycast.${name}`, type, kind: "parameter", default: value, doc });
  const state = (name: string, type: ColumnSpec["type"], doc: string, value = 0): ColumnSpec => ({
    name: `raycast.${name}`,
    type,
    kind: "state",
    default: value,
    doc,
  });
  return [
    parameter("rayCount", "u8", o.rayCount, "rays (forced odd, clamped to 3…21)"),
    parameter(
      "arcDeg",
      "f64",
      o.rayArcDeg,
      "ray arc from the right-most to the left-most ray (deg), (0, 180]",
    ),
    parameter("length", "f64", o.rayLengthM, "ray length (m), (0, 50]"),
    parameter(
      "clusterMargin",
      "u8",
      o.clusterMargin,
      "rays on each side of a cluster's centre ray",
    ),
    parameter(
      "originAhead",
      "f64",
      o.rayOriginAheadM,
      "ray origin ahead of the centre (m), [0, 1]",
    ),
    parameter(
      "rude",
      "u8",
      RUDE_UNDECIDED,
      "1 inverts the walking side, 0 keeps it, 2 = draw from rudeShare",
    ),
    parameter(
      "confusion",
      "f64",
      o.confusion,
      "probability that a bias evaluation is a coin flip, [0, 1]",
    ),
    state(
      "status",
      "u8",
      "bits: initialised, centre cluster blocked, every cluster blocked, phase drawn",
    ),
    state("bias", "i32", "directional bias: -1 right, 1 left, 0 not yet evaluated"),
    state("biasCountdown", "i32", "steps until the bias is re-evaluated"),
    state("checkCountdown", "i32", "steps until the next ray check"),
    state("targetCos", "f64", "cosine of the turn chosen by the last check", 1),
    state("targetSin", "f64", "sine of the turn chosen by the last check (left positive)"),
    state("turnCos", "f64", "cosine of the turn applied now, relaxing towards the target", 1),
    state("turnSin", "f64", "sine of the turn applied now"),
    state("speedFactor", "f64", "speed dampener factor, 1 = desired speed", 1),
    state("side", "f64", "side-step speed as a share of the desired speed, right positive"),
    state("sideSince", "f64", "time the current side of the target turn was taken (s)"),
    state("reach", "f64", "current ray length (m); 0 until the first step"),
    state(
      "pinned",
      "f64",
      "seconds stood pinned; past 0.5 s the agent turns its shoulders to neighbours (see squeezeOf)",
    ),
    state(
      "raysCast",
      "u8",
      "rays cast by the last check (lazy evaluation casts only what the scan needs)",
    ),
  ];
}

class _RaycastCluster implements Strategy {
  readonly name = "raycast-cluster";
  readonly neighborRadius: number;
  readonly columns: readonly ColumnSpec[];
  readonly #o: RaycastClusterOptions;

  // Columns of the current step (fetched once per call).
  #rayCount!: Uint8Array;
  #arcDeg!: Float64Array;
  #length!: Float64Array;
  #margin!: Uint8Array;
  #originAhead!: Float64Array;
  #rude!: Uint8Array;
  #confusion!: Float64Array;
  #status!: Uint8Array;
  #bias!: Int32Array;
  #biasCountdown!: Int32Array;
  #checkCountdown!: Int32Array;
  #targetCos!: Float64Array;
  #targetSin!: Float64Array;
  #turnCos!: Float64Array;
  #turnSin!: Float64Array;
  #speedFactor!: Float64Array;
  #pinned!: Float64Array;
  #side!: Float64Array;
  #sideSince!: Float64Array;
  #reach!: Float64Array;
  #raysCast!: Uint8Array;
  #obstacles!: StepContext["obstacles"];

  // The ray check of the agent being stepped.
  readonly #rays: RayCheck;
  // Contact constraints of the agent being stepped, the direction it backs off in when giving
  // way, and its velocity after the constraints.
  readonly #contacts: ContactConstraints;
  readonly #away: Vector2 = { x: 0, y: 0 };
  readonly #velocity: Vector2 = { x: 0, y: 0 };
  readonly #counterflow = new CounterflowQuery();

  constructor(o: RaycastClusterOptions) {
    this.#o = o;
    this.columns = _columns(o);
    this.#rays = new RayCheck(o);
    this.#contacts = new ContactConstraints(o.brakeTimeS, this.#rays.walls);
    // What every agent reads every step is its contact neighbourhood; ray checks query further
    // on the same grid, whose cells this only sizes.
    this.neighborRadius = CONTACT_NEIGHBOURHOOD;
  }

  computeNewVelocities(ctx: StepContext, begin: number, end: number): void {
    this.#bind(ctx);
    const a = ctx.agents, o = this.#o, dt = ctx.dt;
    let maxRadius = 0;
    const radius = a.radius;
    for (let i = 0; i < a.count; i++) if (radius[i] > maxRadius) maxRadius = radius[i];
    const contacts = this.#contacts, velocity = this.#velocity, away = this.#away;
    contacts.beginStep(maxRadius);
    this.#rays.beginStep(maxRadius);
    const cultural = ctx.walkingSide === "right" ? -1 : 1;
    const blend = o.turnTimeS > 0 ? 1 - Math.exp(-dt / o.turnTimeS) : 1;
    const prefVx = a.prefVx, prefVy = a.prefVy, newVx = a.newVx, newVy = a.newVy;
    const status = this.#status, checkCountdown = this.#checkCountdown;
    for (let i = begin; i < end; i++) {
      const pvx = prefVx[i], pvy = prefVy[i];
      const speed = Math.sqrt(pvx * pvx + pvy * pvy);
      if (!(speed > MIN_SPEED)) {
        newVx[i] = newVy[i] = 0;
        continue;
      }
      if ((status[i] & INITIALISED) === 0) this.#initialise(ctx, i);
      this.#updateBias(ctx, i, cultural);
      const hx = pvx / speed, hy = pvy / speed;
      if (--checkCountdown[i] <= 0) this.#check(ctx, i, hx, hy, speed);
      this.#relaxTurn(i, blend);
      const c = this.#turnCos[i], s = this.#turnSin[i];
      const dx = hx * c - hy * s, dy = hx * s + hy * c;
      this.#updateFactors(i, dt);
      const v = speed * this.#speedFactor[i];
      // Towards neighbours, a pinned agent's body is narrower by its squeeze (shoulders turned).
      const squeeze = squeezeOf(this.#pinned[i]);
      contacts.gather(ctx, i, squeeze, (v + o.sidestepShare * speed) * o.brakeTimeS);
      const cornered = (status[i] & ALL_BLOCKED) !== 0;
      // Pinned for the last two seconds even with the shoulders turned: also a right-of-way case,
      // whatever the rays see beyond the neighbours it is wedged against.
      const pinned = squeeze >= SQUEEZE_SHARE;
      if ((cornered || pinned) && contacts.givesWay(ctx.agents, i, hx, hy, away)) {
        // Cornered, and wedged against a standing neighbour with the right of way: back off
        // from it at half the desired speed so that the arch they form opens.
        this.#side[i] = 0;
        contacts.project(
          away.x * GIVE_WAY_SPEED * speed,
          away.y * GIVE_WAY_SPEED * speed,
          velocity,
        );
      } else {
        const sidestepping = cornered && this.#sidestepWanted(ctx, i);
        const side = this.#sidestep(i, hx, hy, dx, dy, speed, blend, sidestepping) * speed;
        // Right of the heading is (hy, -hx); side > 0 steps right.
        contacts.project(dx * v + hy * side, dy * v - hx * side, velocity);
      }
      const outVx = velocity.x, outVy = velocity.y;
      newVx[i] = outVx;
      newVy[i] = outVy;
      // Pinned (less than a tenth of the preferred progress) for long: the shoulders turn.
      this.#pinned[i] = nextPinnedTime(
        this.#pinned[i],
        outVx * pvx + outVy * pvy < BLOCKED_PROGRESS * speed * speed,
        dt,
      );
    }
  }

  /**
   * The heading relaxes towards the chosen turn with the blend factor of `turnTimeS`, kept as a
   * unit vector (cosine, sine of the turn) so that no step needs trigonometry.
   */
  #relaxTurn(i: number, blend: number): void {
    let c = this.#turnCos[i], s = this.#turnSin[i];
    const tc = this.#targetCos[i], ts = this.#targetSin[i];
    if (c === tc && s === ts) return;
    c += (tc - c) * blend;
    s += (ts - s) * blend;
    const norm = Math.sqrt(c * c + s * s);
    if (norm > 1e-6 && blend < 1 && Math.abs(c - tc) + Math.abs(s - ts) > 1e-9) {
      c /= norm;
      s /= norm;
    } else {
      c = tc;
      s = ts;
    }
    this.#turnCos[i] = c;
    this.#turnSin[i] = s;
  }

  /**
   * Whether a cornered agent side-steps: when what corners it is walls alone (no neighbour
   * among its contacts), or a counter-flow (someone ahead within its ray length wants to go the
   * other way), where stepping to the walking side lets both streams pass. Not in a crowd going
   * one way — a queue at a door —, where side-stepping would only shift everyone to the
   * walking side and press them against the wall there. Needs this step's contacts.
   */
  #sidestepWanted(ctx: StepContext, i: number): boolean {
    if (this.#contacts.agentCount === 0) return true;
    return counterflowAhead(ctx.agents, ctx.grid, i, this.#length[i], this.#counterflow);
  }

  /**
   * Side-step speed (share of the desired speed, right positive) of agent `i` with preferred
   * heading (hx, hy) walking along (dx, dy). Cornered (every cluster collides) by walls or in a
   * counter-flow (`sidestepping`), it side-steps to its bias side, or to the other side when the
   * bias side is shut and it cannot go on (the document's side flip, at right angles); it eases
   * in and out with the blend factor of `turnTimeS`. The contact constraints keep it safe.
   * Needs this step's contacts.
   */
  #sidestep(
    i: number,
    hx: number,
    hy: number,
    dx: number,
    dy: number,
    speed: number,
    blend: number,
    sidestepping: boolean,
  ): number {
    const share = this.#o.sidestepShare;
    let target = 0;
    if (sidestepping && share > 0) {
      const open = SIDESTEP_OPEN * share * speed, right = -this.#bias[i]; // +1 steps right
      const free = this.#contacts.freeSpeed(hy * right, -hx * right);
      const shut = free < open && this.#contacts.freeSpeed(dx, dy) < open &&
        this.#contacts.freeSpeed(-hy * right, hx * right) > free;
      target = shut ? -share * right : share * right;
    }
    let side = this.#side[i];
    if (side !== target) {
      side += (target - side) * blend;
      if (Math.abs(side - target) < 1e-6) side = target;
      this.#side[i] = side;
    }
    return side;
  }

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

  #bind(ctx: StepContext): void {
    const a = ctx.agents;
    this.#rayCount = a.column<Uint8Array>("raycast.rayCount");
    this.#arcDeg = a.column("raycast.arcDeg");
    this.#length = a.column("raycast.length");
    this.#margin = a.column<Uint8Array>("raycast.clusterMargin");
    this.#originAhead = a.column("raycast.originAhead");
    this.#rude = a.column<Uint8Array>("raycast.rude");
    this.#confusion = a.column("raycast.confusion");
    this.#status = a.column<Uint8Array>("raycast.status");
    this.#bias = a.column<Int32Array>("raycast.bias");
    this.#biasCountdown = a.column<Int32Array>("raycast.biasCountdown");
    this.#checkCountdown = a.column<Int32Array>("raycast.checkCountdown");
    this.#targetCos = a.column("raycast.targetCos");
    this.#targetSin = a.column("raycast.targetSin");
    this.#turnCos = a.column("raycast.turnCos");
    this.#turnSin = a.column("raycast.turnSin");
    this.#speedFactor = a.column("raycast.speedFactor");
    this.#pinned = a.column("raycast.pinned");
    this.#side = a.column("raycast.side");
    this.#sideSince = a.column("raycast.sideSince");
    this.#reach = a.column("raycast.reach");
    this.#raysCast = a.column<Uint8Array>("raycast.raysCast");
  }

  /** First step of a trip: draws the rude flag if undecided and starts the reach at full length. */
  #initialise(ctx: StepContext, i: number): void {
    if (this.#rude[i] === RUDE_UNDECIDED) this.#rude[i] = ctx.rng.chance(this.#o.rudeShare) ? 1 : 0;
    this.#checkParameters(ctx, i);
    this.#reach[i] = this.#length[i];
    this.#checkCountdown[i] = 0; // check at once; the phase is drawn after the first clear check
    this.#biasCountdown[i] = 0;
    this.#status[i] |= INITIALISED;
  }

  /** The document's `get_directional_bias()`, re-evaluated every `biasIntervalSteps` steps. */
  #updateBias(ctx: StepContext, i: number, cultural: number): void {
    if (--this.#biasCountdown[i] > 0) return;
    this.#biasCountdown[i] = this.#o.biasIntervalSteps;
    let bias = this.#rude[i] === 1 ? -cultural : cultural;
    const confusion = this.#confusion[i];
    if (confusion > 0 && ctx.rng.next() < confusion) bias = ctx.rng.next() < 0.5 ? -1 : 1;
    this.#bias[i] = bias;
  }

  /** Throws a RangeError naming the column, the agent and the value when a parameter is invalid. */
  #checkParameters(ctx: StepContext, i: number): void {
    const arc = this.#arcDeg[i], length = this.#length[i], ahead = this.#originAhead[i];
    const confusion = this.#confusion[i], rude = this.#rude[i];
    let column = "", value = 0, rule = "";
    if (!(arc > 0 && arc <= 180)) [column, value, rule] = ["arcDeg", arc, "in (0, 180]"];
    else if (!(length > 0 && length <= 50)) {
      [column, value, rule] = ["length", length, "in (0, 50]"];
    } else if (!(ahead >= 0 && ahead <= 1)) {
      [column, value, rule] = ["originAhead", ahead, "in [0, 1]"];
    } else if (!(confusion >= 0 && confusion <= 1)) {
      [column, value, rule] = ["confusion", confusion, "in [0, 1]"];
    } else if (rude > RUDE_UNDECIDED) [column, value, rule] = ["rude", rude, "0, 1 or 2"];
    else return;
    throw new RangeError(
      `Cannot step raycast-cluster strategy as column 'raycast.${column}' of agent ${
        ctx.agents.serial[i]
      } must be ${rule}: current value is ${value}`,
    );
  }

  /** Speed dampener and adaptive reach, per step, from the last check's outcome. */
  #updateFactors(i: number, dt: number): void {
    const o = this.#o, bits = this.#status[i], length = this.#length[i];
    let f = this.#speedFactor[i], reach = this.#reach[i];
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
    this.#speedFactor[i] = f;
    this.#reach[i] = reach;
  }

  /**
   * One ray check (the document's `get_avoidance_vector()`): gathers the neighbours and walls in
   * the arc, scans the clusters and sets the target turn, the status bits and the next check.
   */
  #check(ctx: StepContext, i: number, hx: number, hy: number, speed: number): void {
    this.#checkParameters(ctx, i);
    const n = effectiveRayCount(this.#rayCount[i]);
    const margin = this.#margin[i] > MAX_MARGIN ? MAX_MARGIN : this.#margin[i];
    const rays = this.#rays;
    rays.fan.aim(n, this.#arcDeg[i], hx, hy);
    rays.start(ctx, i, this.#originAhead[i], speed, this.#reach[i]);
    const table = scanTable(n, margin, this.#bias[i]);
    this.#status[i] = this.#decide(ctx, i, table, rays.firstClearCluster(table));
    this.#raysCast[i] = rays.raysCast;
  }

  /**
   * Acts on a scan whose first clear cluster is at table offset `chosen` (-1 when every cluster
   * collides): sets the target turn and the next check, and returns the new status bits.
   */
  #decide(ctx: StepContext, i: number, table: Int32Array, chosen: number): number {
    const o = this.#o;
    let bits = this.#status[i] & ~(CENTRE_BLOCKED | ALL_BLOCKED);
    let target = table[0];
    if (chosen === 0) {
      const k = o.checkIntervalSteps;
      // After the first clear check of a trip a random phase in 1…k spreads agents over steps.
      this.#checkCountdown[i] = k <= 1 ? 1 : (bits & PHASED) !== 0 ? k : 1 + ctx.rng.int(k);
      bits |= PHASED;
    } else {
      bits |= CENTRE_BLOCKED;
      this.#checkCountdown[i] = 1;
      if (chosen > 0) {
        target = table[chosen];
      } else {
        bits |= ALL_BLOCKED;
        if (o.allBlockedTurn === "openest") target = table[this.#rays.openestCluster(table)];
      }
    }
    this.#turnTo(ctx.time, i, target);
    return bits;
  }

  /**
   * Makes ray `k` the target turn of agent `i` at `time` (s), unless that reverses a side taken
   * less than `commitTimeS` ago: each twist of the salsa lasts.
   */
  #turnTo(time: number, i: number, k: number): void {
    const previous = this.#targetSin[i], next = this.#rays.fan.sin[k];
    const newSide = next !== 0 && (previous === 0 || (previous > 0) !== (next > 0));
    if (newSide && previous !== 0 && time - this.#sideSince[i] < this.#o.commitTimeS - 1e-9) return;
    if (newSide) this.#sideSince[i] = time;
    this.#targetCos[i] = this.#rays.fan.cos[k];
    this.#targetSin[i] = next;
  }
}

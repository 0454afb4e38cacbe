/**
 * The `raycast-cluster` strategy: a fan of rays ahead of every agent, scanned in overlapping
 * clusters with a cultural directional bias, after "The Sidewalk Salsa and Cultural
 * Sensitivities" (blog post on the avoidance of the game Stop Shoving!).
 *
 * What the post describes, with its parameters as defaults:
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
 * - The post's proposed optimisations: avoidance is evaluated every `checkIntervalSteps`
 *   steps per agent with a random per-agent phase, and every step while the centre cluster
 *   collides; rays are cast lazily (the centre cluster's rays first, the others only when it
 *   collides) and each ray's result is cached within the step.
 *
 * What it fixes of the weaknesses the post admits (each fix can be switched off or tuned):
 *
 * - A ray is one-dimensional and can slip through a sliver between two bodies that the walker's
 *   body would not fit through; clusters only fake width. Here rays are intersected analytically
 *   with neighbour discs inflated by the agent's own radius: exactly the "shapecast with a
 *   lateral dimension equivalent to the NPC's collision size" the post prefers but cannot
 *   afford in a physics engine (`inflateRays`).
 * - Rays ignore motion: a walker following another at the same speed keeps swerving, and two
 *   walkers converging on the same point do not see it coming. With `motionAware` each ray is cast
 *   along the agent's path relative to each moving neighbour (walking the ray at its preferred
 *   speed, does it meet that neighbour before it has walked the ray length?). A standing
 *   neighbour sees exactly the post's ray.
 * - A fixed 7.5 m ray in a dense crowd always collides, so the dampener never lets go. As with
 *   the adaptive forward volume of "Crossing citizens: a simple simulation of pedestrian
 *   crossing" (project report), the ray length shrinks while every cluster collides and grows
 *   back while the centre is clear (`minRayLengthM`, `reachDecayRate`, `reachGrowthRate`).
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
 *   A fully squeezed agent also settles the right of way as a cornered one does. Pinned against
 *   two or more people coming head-on (two crowds meeting wall to wall), the pair turns its
 *   shoulders at once: their distance shrinks by up to 0.4 of the combined radii within a
 *   quarter second of the more pinned of them standing (`PASSING_TURN_SHARE` in
 *   strategies/_right_of_way.ts), so the interface of the crowds does not lock; in the
 *   validation suite's counter-flow corridor at 2 /m² 46 % got through in 120 s in the worst
 *   of seeds 1–3 without it, everyone with it.
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
 * The code is split by concern, each part in a private module beside this one (their map is in
 * strategies/_raycast_cluster_strategy.ts): the cluster scan, the rays, the walls, the bias and
 * salsa, the contact constraints and right of way, and the columns.
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
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { Strategy, StrategyFactory } from "../core/strategy.ts";
import { RaycastClusterStrategy } from "./_raycast_cluster_strategy.ts";

export { RUDE_UNDECIDED } from "./_raycast_columns.ts";
export {
  effectiveRayCount,
  MAX_RAYS,
  type RayCluster,
  rayClusterOffsets,
  rayClusterScan,
} from "./_raycast_scan.ts";

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
   * Heading when every cluster collides: `"straight"` keeps the preferred heading (the post),
   * `"openest"` turns to the cluster that stays clear longest, preferring the scan order (bias
   * side first) among near-equals. @default "straight"
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
      "time constant of the heading following the chosen turn; 0 snaps (the post), larger is smoother and later",
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
      "heading while every cluster collides: straight (the post) or the cluster that stays clear longest",
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
  return new RaycastClusterStrategy(resolved);
}

/** Registry entry of the `raycast-cluster` strategy. */
export const raycastClusterStrategy: StrategyFactory<RaycastClusterOptions> = {
  name: "raycast-cluster",
  description:
    "fan of rays scanned in clusters with a walking-side bias (the Sidewalk Salsa of Stop Shoving!)",
  options: RAYCAST_CLUSTER_OPTIONS,
  create: createRaycastClusterStrategy,
};

/**
 * The `raycast-cluster` strategy: a fan of rays ahead of every agent, scanned in overlapping
 * clusters with a cultural directional bias, after seed 000 ("The Sidewalk Salsa and Cultural
 * Sensitivities", the avoidance of the game Stop Shoving!).
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
 *   seed 002's adaptive forward volume, the ray length shrinks while every cluster collides and
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
import type { ColumnLimits, ColumnSpec } from "../core/agent_store.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { StepContext, Strategy, StrategyFactory, WalkingSide } from "../core/strategy.ts";
import type { World } from "../core/world.ts";
import { segmentParameter } from "../core/geometry.ts";
import {
  BLOCKED_PROGRESS,
  counterflowAhead,
  CounterflowQuery,
  mustGiveWay,
  nextPinnedTime,
  SQUEEZE_SHARE,
  squeezeOf,
  WEDGE_GAP,
} from "./_right_of_way.ts";

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
    doc: "shortest ray length while every cluster keeps colliding (seed 002's minSightRange)",
  },
  reachDecayRate: {
    type: "number",
    default: 4,
    min: 0,
    max: 1000,
    unit: "m/s",
    doc:
      "shrinking rate of the ray length while every cluster collides (seed 002's sightDecay); 0 keeps it fixed",
  },
  reachGrowthRate: {
    type: "number",
    default: 2,
    min: 0,
    max: 1000,
    unit: "m/s",
    doc:
      "growth rate of the ray length while the centre cluster is clear (seed 002's sightRegrowth)",
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

/** Largest ray count (the document's `clamp(…, 3, 21)`). */
export const MAX_RAYS = 21;
/** Largest cluster margin that changes the scan (with 21 rays, a margin of 20 spans them all). */
const MAX_MARGIN = 20;
/** `raycast.rude` value meaning "not drawn yet": drawn from `rudeShare` at the agent's first step. */
export const RUDE_UNDECIDED = 2;
/** Gap kept to every neighbour and wall by the contact constraints (m). */
const BRAKE_MARGIN = 0.02;
/** Share of the longest clear length a cluster needs to be taken before later ones in scan order. */
const OPENEST_SHARE = 0.8;
/** A side-step goes to the bias side while it allows at least this share of the side-step speed. */
const SIDESTEP_OPEN = 0.5;
/** Passes over the contact constraints per step (each projects onto every violated one). */
const CONTACT_PASSES = 40;
/** Time in which an overlap with a neighbour is pushed out (s). */
const CONTACT_TIME = 0.1;
/** Below this preferred speed an agent stands still (m/s). */
const MIN_SPEED = 1e-9;
/**
 * Neighbourhood read every step by the contact constraints (m): two body radii of 0.25 m plus the
 * distance covered at 1.34 m/s in the default `brakeTimeS`, rounded up. Sizes the grid cells.
 */
const CONTACT_NEIGHBOURHOOD = 1.25;
/**
 * A ray meeting a wall at less than this angle (30°) to its surface grazes it and is not blocked
 * (sine and cosine): the contact constraints slide the body along instead.
 */
const WALL_GLANCE_SIN = 0.5;
const WALL_GLANCE_COS = Math.sqrt(3) / 2;
/** Backing-off speed of an agent giving way, as a share of its desired speed. */
const GIVE_WAY_SPEED = 0.5;
/** Numbers kept per gathered wall segment (see `#gatherWalls`). */
const WALL_FIELDS = 9;

// Bits of `raycast.status`.
const INITIALISED = 1;
const CENTRE_BLOCKED = 2;
const ALL_BLOCKED = 4;
const PHASED = 8;

/**
 * Effective ray count of a requested one, as the document's setter computes it:
 * `clamp(n + (n % 2) - 1, 3, 21)` (an even count loses one ray; non-integers are floored).
 *
 * @example
 * ```ts
 * import { effectiveRayCount } from "./raycast_cluster.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual([12, 13, 2, 40].map(effectiveRayCount), [11, 13, 3, 21]);
 * ```
 */
export function effectiveRayCount(requested: number): number {
  const n = Math.floor(requested);
  if (!(n >= 3)) return 3; // also NaN
  const odd = n + (n % 2) - 1;
  return odd > MAX_RAYS ? MAX_RAYS : odd;
}

/**
 * The cluster offsets of the document, `[1, 1, 2, 2, …, h, h]` with h = floor(rays / 2) +
 * margin: each offset is tried once to each side.
 *
 * @example The document's worked example
 * ```ts
 * import { rayClusterOffsets } from "./raycast_cluster.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(rayClusterOffsets(5, 1), [1, 1, 2, 2, 3, 3]);
 * ```
 */
export function rayClusterOffsets(rayCount: number, clusterMargin: number): number[] {
  const n = effectiveRayCount(rayCount), margin = _checkMargin(clusterMargin);
  const offsets: number[] = [];
  for (let i = 1; i <= Math.floor(n / 2) + margin; i++) offsets.push(i, i);
  return offsets;
}

/** One cluster of a scan: its centre ray and its (clamped) range of rays, indices from the right. */
export interface RayCluster {
  /** Offset from the middle ray (0 for the centre cluster), signed: negative is to the right. */
  readonly offset: number;
  /** Centre ray index after clamping (0 = right-most). */
  readonly centre: number;
  /** First ray of the cluster, clamped to 0. */
  readonly first: number;
  /** Last ray of the cluster, clamped to rays - 1. */
  readonly last: number;
}

/**
 * The clusters in the order the strategy scans them: the centre cluster, then the document's
 * offsets with the side flipping at every try, starting with `bias`. Ray 0 is the right-most.
 * This is the same table the strategy uses.
 *
 * @example Five rays, margin 1, right-hand bias: the edge clusters shrink to one ray
 * ```ts
 * import { rayClusterScan } from "./raycast_cluster.ts";
 * import assert from "node:assert/strict";
 * const ranges = rayClusterScan(5, 1, "right").map((c) => [c.first, c.last]);
 * assert.deepEqual(ranges, [[1, 3], [0, 2], [2, 4], [0, 1], [3, 4], [0, 0], [4, 4]]);
 * ```
 */
export function rayClusterScan(
  rayCount: number,
  clusterMargin: number,
  bias: WalkingSide,
): RayCluster[] {
  if (bias !== "right" && bias !== "left") {
    throw new RangeError(
      `Cannot scan ray clusters as 'bias' must be "right" or "left": current value is ${
        JSON.stringify(bias)
      }`,
    );
  }
  const n = effectiveRayCount(rayCount), margin = _checkMargin(clusterMargin);
  const table = _scanTable(n, margin, bias === "right" ? -1 : 1);
  const clusters: RayCluster[] = [];
  for (let t = 0; t < table.length; t += 4) {
    clusters.push({
      offset: table[t + 3],
      centre: table[t],
      first: table[t + 1],
      last: table[t + 2],
    });
  }
  return clusters;
}

function _checkMargin(margin: number): number {
  if (!Number.isInteger(margin) || margin < 0) {
    throw new RangeError(
      `Cannot scan ray clusters as 'clusterMargin' must be an integer >= 0: current value is ${margin}`,
    );
  }
  return margin;
}

/**
 * Scan tables by (rays, margin, bias), built on first use: [centre, first, last, offset] × tries.
 * Margins up to `MAX_MARGIN` are cached; the strategy clamps larger ones to it, which scans the
 * same distinct clusters in the same order (only repeats of the all-ray cluster drop out).
 */
const _scanTables: (Int32Array | undefined)[] = [];

function _scanTable(n: number, margin: number, bias: number): Int32Array {
  const key = ((n - 3) / 2 * (MAX_MARGIN + 1) + margin) * 2 + (bias > 0 ? 1 : 0);
  const cached = margin <= MAX_MARGIN ? _scanTables[key] : undefined;
  if (cached !== undefined) return cached;
  const half = Math.floor(n / 2), hi = n - 1;
  const tries = 1 + 2 * (half + margin);
  const table = new Int32Array(4 * tries);
  const clamp = (k: number) => (k < 0 ? 0 : k > hi ? hi : k);
  table[0] = half;
  table[1] = clamp(half - margin);
  table[2] = clamp(half + margin);
  table[3] = 0;
  let side = bias, t = 4;
  for (let i = 1; i <= half + margin; i++) {
    for (let twice = 0; twice < 2; twice++) {
      const cur = half + i * side;
      table[t] = clamp(cur);
      table[t + 1] = clamp(cur - margin);
      table[t + 2] = clamp(cur + margin);
      table[t + 3] = i * side;
      side = -side;
      t += 4;
    }
  }
  if (margin <= MAX_MARGIN) _scanTables[key] = table;
  return table;
}

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
    limits: ColumnLimits,
  ): ColumnSpec => ({
    name: `raycast.${name}`,
    type,
    kind: "parameter",
    default: value,
    doc,
    limits,
  });
  const state = (name: string, type: ColumnSpec["type"], doc: string, value = 0): ColumnSpec => ({
    name: `raycast.${name}`,
    type,
    kind: "state",
    default: value,
    doc,
  });
  const options = RAYCAST_CLUSTER_OPTIONS;
  return [
    parameter("rayCount", "u8", o.rayCount, "rays (forced odd), 3…21", options.rayCount),
    parameter(
      "arcDeg",
      "f64",
      o.rayArcDeg,
      "ray arc from the right-most to the left-most ray (deg), (0, 180]",
      options.rayArcDeg,
    ),
    parameter("length", "f64", o.rayLengthM, "ray length (m), (0, 50]", options.rayLengthM),
    parameter(
      "clusterMargin",
      "u8",
      o.clusterMargin,
      "rays on each side of a cluster's centre ray",
      options.clusterMargin,
    ),
    parameter(
      "originAhead",
      "f64",
      o.rayOriginAheadM,
      "ray origin ahead of the centre (m), [0, 1]",
      options.rayOriginAheadM,
    ),
    parameter(
      "rude",
      "u8",
      RUDE_UNDECIDED,
      "1 inverts the walking side, 0 keeps it, 2 = draw from rudeShare",
      { min: 0, max: 2, integer: true },
    ),
    parameter(
      "confusion",
      "f64",
      o.confusion,
      "probability that a bias evaluation is a coin flip, [0, 1]",
      options.confusion,
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

/** Sizes neighbour scratch buffers before the first query; they grow when a query overflows. */
const INITIAL_NEIGHBOURS = 256;

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

  // Ray angles and directions (agent frame) for the last (count, arc) seen; world frame per check.
  #tableCount = 0;
  #tableArc = NaN;
  #localCos = new Float64Array(MAX_RAYS);
  #localSin = new Float64Array(MAX_RAYS);
  #dirX = new Float64Array(MAX_RAYS);
  #dirY = new Float64Array(MAX_RAYS);
  #halfArc = 0;
  #cosHalf = 1;
  #sinHalf = 0;
  /** Rays cast in the current check (bit k for ray k), and those of them that hit. */
  #castMask = 0;
  #hitMask = 0;
  /** Clear length per ray and per cluster for the `openest` fallback (m). */
  #free = new Float64Array(MAX_RAYS);
  #clusterFree = new Float64Array(1 + 2 * (MAX_RAYS + MAX_MARGIN));

  // Neighbours in the arc's wedge: position relative to the ray origin, velocity, |p|² - R².
  #query = new Uint32Array(INITIAL_NEIGHBOURS);
  #nbCount = 0;
  #nbX = new Float64Array(INITIAL_NEIGHBOURS);
  #nbY = new Float64Array(INITIAL_NEIGHBOURS);
  #nbVx = new Float64Array(INITIAL_NEIGHBOURS);
  #nbVy = new Float64Array(INITIAL_NEIGHBOURS);
  #nbC0 = new Float64Array(INITIAL_NEIGHBOURS);
  // Wall segments near the ray origin, with WALL_FIELDS numbers of geometry each.
  #segments = new Uint32Array(64);
  #segCount = 0;
  #wallGeometry = new Float64Array(64 * WALL_FIELDS);
  /** Agent whose check gathered the walls in `#segments` this step (-1: none), and its origin offset (m). */
  #wallsOf = -1;
  #wallsAhead = 0;

  // The agent being checked.
  #ox = 0;
  #oy = 0;
  #speed = 0;
  #reachNow = 0;
  #wallReach = 0;
  #rayRadius = 0;
  // Contact constraints gathered this step (neighbours first, their indices in
  // `#contactIndex`, then walls), and the velocity after them.
  #contacts = 0;
  #agentContacts = 0;
  #contactIndex = new Uint32Array(INITIAL_NEIGHBOURS);
  // Direction to back off in when giving way.
  #awayX = 0;
  #awayY = 0;
  readonly #counterflow = new CounterflowQuery();
  #outVx = 0;
  #outVy = 0;

  constructor(o: RaycastClusterOptions) {
    this.#o = o;
    this.columns = _columns(o);
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
      if (--checkCountdown[i] <= 0) this.#check(ctx, i, hx, hy, speed, maxRadius);
      this.#relaxTurn(i, blend);
      const c = this.#turnCos[i], s = this.#turnSin[i];
      const dx = hx * c - hy * s, dy = hx * s + hy * c;
      this.#updateFactors(i, dt);
      const v = speed * this.#speedFactor[i];
      this.#gatherContacts(ctx, i, (v + o.sidestepShare * speed) * o.brakeTimeS, maxRadius);
      const cornered = (status[i] & ALL_BLOCKED) !== 0;
      // Pinned for the last two seconds even with the shoulders turned: also a right-of-way case,
      // whatever the rays see beyond the neighbours it is wedged against.
      const pinned = squeezeOf(this.#pinned[i]) >= SQUEEZE_SHARE;
      if ((cornered || pinned) && this.#givesWay(ctx.agents, i, hx, hy)) {
        // Cornered, and wedged against a standing neighbour with the right of way: back off
        // from it at half the desired speed so that the arch they form opens.
        this.#side[i] = 0;
        this.#project(this.#awayX * GIVE_WAY_SPEED * speed, this.#awayY * GIVE_WAY_SPEED * speed);
      } else {
        const sidestepping = cornered && this.#sidestepWanted(ctx, i);
        const side = this.#sidestep(i, hx, hy, dx, dy, speed, blend, sidestepping) * speed;
        // Right of the heading is (hy, -hx); side > 0 steps right.
        this.#project(dx * v + hy * side, dy * v - hx * side);
      }
      const outVx = this.#outVx, outVy = this.#outVy;
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
    if (this.#agentContacts === 0) return true;
    return counterflowAhead(ctx.agents, ctx.grid, i, this.#length[i], this.#counterflow);
  }

  /**
   * Whether blocked agent `i` with preferred heading (hx, hy) must give way to a neighbour it
   * is wedged against (within `WEDGE_GAP`, see {@linkcode mustGiveWay}): then the unit
   * direction away from all such neighbours is in `#awayX`, `#awayY`. Needs this step's
   * contacts.
   */
  #givesWay(agents: StepContext["agents"], i: number, hx: number, hy: number): boolean {
    const px = agents.px, py = agents.py, radius = agents.radius, index = this.#contactIndex;
    const x = px[i], y = py[i], ri = radius[i];
    let ax = 0, ay = 0;
    for (let k = 0; k < this.#agentContacts; k++) {
      const j = index[k];
      const qx = px[j] - x, qy = py[j] - y, near = ri + radius[j] + WEDGE_GAP;
      const d2 = qx * qx + qy * qy;
      if (d2 >= near * near) continue;
      const d = Math.sqrt(d2), ux = qx / d, uy = qy / d;
      if (mustGiveWay(hx, hy, ux, uy, agents, i, j)) {
        ax -= ux;
        ay -= uy;
      }
    }
    const len = Math.sqrt(ax * ax + ay * ay);
    if (!(len > 1e-9)) return false;
    this.#awayX = ax / len;
    this.#awayY = ay / len;
    return true;
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
      const free = this.#freeSpeed(hy * right, -hx * right);
      const shut = free < open && this.#freeSpeed(dx, dy) < open &&
        this.#freeSpeed(-hy * right, hx * right) > free;
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
    this.#obstacles = ctx.obstacles;
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
  #check(
    ctx: StepContext,
    i: number,
    hx: number,
    hy: number,
    speed: number,
    maxRadius: number,
  ): void {
    const a = ctx.agents, o = this.#o;
    this.#checkParameters(ctx, i);
    const n = effectiveRayCount(this.#rayCount[i]);
    const margin = this.#margin[i] > MAX_MARGIN ? MAX_MARGIN : this.#margin[i];
    const arcDeg = this.#arcDeg[i];
    if (n !== this.#tableCount || arcDeg !== this.#tableArc) this.#buildRayTable(n, arcDeg);
    const cos = this.#localCos, sin = this.#localSin, dirX = this.#dirX, dirY = this.#dirY;
    for (let k = 0; k < n; k++) {
      dirX[k] = hx * cos[k] - hy * sin[k];
      dirY[k] = hx * sin[k] + hy * cos[k];
    }
    this.#castMask = 0;
    this.#hitMask = 0;
    const ahead = this.#originAhead[i], ri = a.radius[i];
    this.#ox = a.px[i] + hx * ahead;
    this.#oy = a.py[i] + hy * ahead;
    this.#speed = speed;
    this.#reachNow = this.#reach[i];
    this.#wallReach = this.#reachNow < o.wallRayLengthM ? this.#reachNow : o.wallRayLengthM;
    this.#rayRadius = o.inflateRays ? ri : 0;
    this.#gatherNeighbours(ctx, i, hx, hy, maxRadius);
    this.#gatherWalls();
    this.#wallsOf = i;
    this.#wallsAhead = ahead;

    const table = _scanTable(n, margin, this.#bias[i]);
    let chosen = -1;
    for (let t = 0; t < table.length; t += 4) {
      if (!this.#clusterHits(table[t + 1], table[t + 2])) {
        chosen = t;
        break;
      }
    }
    this.#status[i] = this.#decide(ctx, i, table, n, chosen);
    this.#raysCast[i] = _bitCount(this.#castMask);
  }

  /**
   * Acts on a scan whose first clear cluster is at table offset `chosen` (-1 when every cluster
   * collides): sets the target turn and the next check, and returns the new status bits.
   */
  #decide(ctx: StepContext, i: number, table: Int32Array, n: number, chosen: number): number {
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
        if (o.allBlockedTurn === "openest") target = table[this.#openestCluster(table, n)];
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
    const previous = this.#targetSin[i], next = this.#localSin[k];
    const newSide = next !== 0 && (previous === 0 || (previous > 0) !== (next > 0));
    if (newSide && previous !== 0 && time - this.#sideSince[i] < this.#o.commitTimeS - 1e-9) return;
    if (newSide) this.#sideSince[i] = time;
    this.#targetCos[i] = this.#localCos[k];
    this.#targetSin[i] = next;
  }

  #buildRayTable(n: number, arcDeg: number): void {
    const arc = (arcDeg * Math.PI) / 180, start = -arc / 2, step = arc / (n - 1);
    const middle = (n - 1) / 2;
    for (let k = 0; k < n; k++) {
      const angle = k === middle ? 0 : start + step * k;
      this.#localCos[k] = Math.cos(angle);
      this.#localSin[k] = Math.sin(angle);
    }
    this.#halfArc = arc / 2;
    this.#cosHalf = Math.cos(arc / 2);
    this.#sinHalf = Math.sin(arc / 2);
    this.#tableCount = n;
    this.#tableArc = arcDeg;
  }

  /**
   * Collects the neighbours whose disc, inflated by the agent's radius, reaches into the arc's
   * wedge within the current reach of the ray origin: one grid query around the wedge's
   * enclosing circle, then a wedge test.
   */
  #gatherNeighbours(ctx: StepContext, i: number, hx: number, hy: number, maxRadius: number): void {
    const a = ctx.agents, ox = this.#ox, oy = this.#oy, ri = a.radius[i], range = this.#reachNow;
    // Smallest circle around the sector: centred ahead for arcs under 120°.
    const cosHalf = this.#cosHalf, sinHalf = this.#sinHalf, narrow = this.#halfArc < Math.PI / 3;
    const ahead = narrow ? range / (2 * cosHalf) : 0;
    const rho = (narrow ? ahead : range) + ri + maxRadius;
    const qx = ox + hx * ahead, qy = oy + hy * ahead;
    let count = ctx.grid.queryRadius(qx, qy, rho, this.#query, i);
    if (count > this.#query.length) {
      this.#growQuery(count);
      count = ctx.grid.queryRadius(qx, qy, rho, this.#query, i);
    }
    if (count > this.#nbX.length) this.#growScratch(count);
    // Edge rays: right e_R = h rotated by -halfArc, left e_L = h rotated by +halfArc.
    const erx = hx * cosHalf + hy * sinHalf, ery = hy * cosHalf - hx * sinHalf;
    const elx = hx * cosHalf - hy * sinHalf, ely = hy * cosHalf + hx * sinHalf;
    const px = a.px, py = a.py, vx = a.vx, vy = a.vy, radius = a.radius, query = this.#query;
    const nbX = this.#nbX, nbY = this.#nbY, nbVx = this.#nbVx, nbVy = this.#nbVy, c0 = this.#nbC0;
    const rayRadius = this.#rayRadius, motion = this.#o.motionAware;
    let kept = 0;
    for (let k = 0; k < count; k++) {
      const j = query[k];
      const dx = px[j] - ox, dy = py[j] - oy, rj = radius[j];
      const body = ri + rj, reach = range + body, d2 = dx * dx + dy * dy, hit = rayRadius + rj;
      // Always store, keep only a neighbour within reach, not behind the origin and between the
      // right-most and left-most rays (bitwise: the outcome is unpredictable).
      nbX[kept] = dx;
      nbY[kept] = dy;
      nbVx[kept] = motion ? vx[j] : 0;
      nbVy[kept] = motion ? vy[j] : 0;
      c0[kept] = d2 - hit * hit;
      kept += +(d2 < reach * reach) & +(dx * hx + dy * hy > -body) &
        +(erx * dy - ery * dx > -body) &
        +(elx * dy - ely * dx < body);
    }
    this.#nbCount = kept;
  }

  /**
   * Collects the walls within the wall range of the ray origin, with what every ray test needs:
   * the segment's direction and length, the origin's coordinates along and across it, and its
   * end points relative to the origin.
   */
  #gatherWalls(): void {
    this.#segCount = 0;
    const o = this.#obstacles;
    if (o.segmentCount === 0) return;
    const ox = this.#ox, oy = this.#oy, r = this.#rayRadius;
    let count = o.queryRadius(ox, oy, this.#wallReach + r, this.#segments);
    if (count > this.#segments.length) {
      this.#segments = new Uint32Array(_capacityFor(count));
      count = o.queryRadius(ox, oy, this.#wallReach + r, this.#segments);
    }
    if (count > this.#wallGeometry.length / WALL_FIELDS) {
      this.#wallGeometry = new Float64Array(_capacityFor(count) * WALL_FIELDS);
    }
    const g = this.#wallGeometry, segments = this.#segments;
    for (let k = 0; k < count; k++) {
      const s = segments[k], b = k * WALL_FIELDS;
      const ax = o.ax[s] - ox, ay = o.ay[s] - oy, bx = o.bx[s] - ox, by = o.by[s] - oy;
      const ex = bx - ax, ey = by - ay, length = Math.sqrt(ex * ex + ey * ey);
      const ux = length > 0 ? ex / length : 1, uy = length > 0 ? ey / length : 0;
      g[b] = ux;
      g[b + 1] = uy;
      g[b + 2] = length;
      g[b + 3] = -(ax * ux + ay * uy); // origin's coordinate along the segment from a
      g[b + 4] = ax * uy - ay * ux; // origin's coordinate across (left of a→b positive)
      g[b + 5] = ax;
      g[b + 6] = ay;
      g[b + 7] = bx;
      g[b + 8] = by;
    }
    this.#segCount = count;
  }

  /** Grows the query buffer (its content is lost) to hold `count` indices. */
  #growQuery(count: number): void {
    this.#query = new Uint32Array(_capacityFor(count));
  }

  /** Grows the neighbour scratch (its content is lost) to hold `count` entries. */
  #growScratch(count: number): void {
    const size = _capacityFor(count);
    this.#nbX = new Float64Array(size);
    this.#nbY = new Float64Array(size);
    this.#nbVx = new Float64Array(size);
    this.#nbVy = new Float64Array(size);
    this.#nbC0 = new Float64Array(size);
  }

  /** True when a ray of `first … last` hits; casts uncached rays in order and stops at a hit. */
  #clusterHits(first: number, last: number): boolean {
    for (let k = first; k <= last; k++) {
      const bit = 1 << k;
      if ((this.#castMask & bit) === 0) {
        this.#castMask |= bit;
        if (this.#castRay(k)) this.#hitMask |= bit;
      }
      if ((this.#hitMask & bit) !== 0) return true;
    }
    return false;
  }

  /**
   * Casts ray `k`: true when the agent walking along it at its preferred speed meets a
   * neighbour before it has walked the reach (with `motionAware` each neighbour moves with its
   * velocity, so the ray is cast along the agent's path relative to it; a standing neighbour
   * sees exactly the document's ray), or when a wall lies within the wall range.
   */
  #castRay(k: number): boolean {
    const speed = this.#speed, dx = this.#dirX[k], dy = this.#dirY[k];
    const sx = dx * speed, sy = dy * speed;
    const horizon = this.#reachNow / speed; // s
    const nbX = this.#nbX, nbY = this.#nbY, nbVx = this.#nbVx, nbVy = this.#nbVy, c0 = this.#nbC0;
    const count = this.#nbCount;
    for (let m = 0; m < count; m++) {
      // Relative path p - w t against the disc |q| <= R: ww t² - 2 b t + c0 = 0.
      const wx = sx - nbVx[m], wy = sy - nbVy[m];
      const b = nbX[m] * wx + nbY[m] * wy, c = c0[m];
      const ww = wx * wx + wy * wy;
      const disc = b * b - ww * c;
      // Entry time (b - sqrt(disc)) / ww <= horizon, without the square root.
      const e = b - horizon * ww;
      // Closing in (b > 0) and either inside (c <= 0) or meeting the disc within the horizon.
      // Bitwise, not short-circuit: the outcome is unpredictable, a branch would mispredict.
      if ((+(b > 0) & (+(c <= 0) | (+(disc >= 0) & (+(e <= 0) | +(e * e <= disc))))) !== 0) {
        return true;
      }
    }
    return this.#segCount > 0 && this.#wallHit(dx, dy, this.#wallReach);
  }

  /**
   * True when the ray along (dx, dy) runs into a gathered wall's capsule (the segment inflated
   * by the ray radius) within `reach` (m), or starts inside one heading deeper — at more than
   * `WALL_GLANCE` to its surface. A ray that only grazes a wall (a heading along it, or past a
   * door post) is not in the way: the contact constraints slide the body along the wall, and
   * counting such rays would turn walkers away from a wall they follow and from the opening
   * beside it.
   */
  #wallHit(dx: number, dy: number, reach: number): boolean {
    const g = this.#wallGeometry, r = this.#rayRadius, r2 = r * r;
    for (let k = 0; k < this.#segCount; k++) {
      const b = k * WALL_FIELDS;
      const ux = g[b], uy = g[b + 1], length = g[b + 2], along = g[b + 3], across = g[b + 4];
      // Origin inside the capsule: a hit when the ray heads steeply towards the segment.
      const clamped = along < 0 ? 0 : along > length ? length : along;
      const cx = -(g[b + 5] + ux * clamped), cy = -(g[b + 6] + uy * clamped); // closest → origin
      const c2 = cx * cx + cy * cy;
      if (c2 < r2) {
        const into = -(cx * dx + cy * dy);
        if (into > 0 && into * into > WALL_GLANCE_SIN * WALL_GLANCE_SIN * c2) return true;
        continue;
      }
      // The side of the capsule facing the origin.
      const rate = dy * ux - dx * uy; // change of `across` per metre along the ray
      if (rate > WALL_GLANCE_SIN || rate < -WALL_GLANCE_SIN) {
        const t = ((across > 0 ? r : -r) - across) / rate;
        if (t >= 0 && t <= reach) {
          const s = along + t * (dx * ux + dy * uy);
          if (s >= 0 && s <= length) return true;
        }
      }
      // The end caps.
      if (
        r > 0 &&
        (_discHit(g[b + 5], g[b + 6], dx, dy, r2, reach) ||
          _discHit(g[b + 7], g[b + 8], dx, dy, r2, reach))
      ) {
        return true;
      }
    }
    return false;
  }

  /**
   * The `openest` fallback when every cluster collides: the first cluster in scan order whose
   * rays stay clear for at least `OPENEST_SHARE` of the longest clear length any cluster offers.
   * Returns its table offset.
   */
  #openestCluster(table: Int32Array, n: number): number {
    const free = this.#free, clusterFree = this.#clusterFree;
    for (let k = 0; k < n; k++) free[k] = this.#freeLength(k);
    let best = 0;
    for (let t = 0; t < table.length; t += 4) {
      let f = Infinity;
      for (let k = table[t + 1]; k <= table[t + 2]; k++) if (free[k] < f) f = free[k];
      clusterFree[t >> 2] = f;
      if (f > best) best = f;
    }
    if (best > 0) {
      for (let t = 0; t < table.length; t += 4) {
        if (clusterFree[t >> 2] >= OPENEST_SHARE * best) return t;
      }
    }
    return 0;
  }

  /**
   * The longest reach ray `k` could have and still hit nothing (m): the earliest time the agent
   * walking along it meets a neighbour, times its speed, and no more than the distance at which
   * it would see a wall.
   */
  #freeLength(k: number): number {
    const speed = this.#speed, dx = this.#dirX[k], dy = this.#dirY[k];
    const sx = dx * speed, sy = dy * speed;
    const nbX = this.#nbX, nbY = this.#nbY, nbVx = this.#nbVx, nbVy = this.#nbVy, c0 = this.#nbC0;
    let first = Infinity; // s
    for (let m = 0; m < this.#nbCount; m++) {
      const wx = sx - nbVx[m], wy = sy - nbVy[m];
      const b = nbX[m] * wx + nbY[m] * wy;
      if (b <= 0) continue;
      if (c0[m] <= 0) return 0;
      const ww = wx * wx + wy * wy;
      const disc = b * b - ww * c0[m];
      if (disc < 0) continue;
      const t = (b - Math.sqrt(disc)) / ww;
      if (t < first) first = t;
    }
    const free = first * speed;
    if (this.#segCount > 0 && this.#wallHit(dx, dy, this.#wallReach)) {
      // Bisect the wall entry to a few centimetres; only the cornered pay for it.
      let lo = 0, hi = this.#wallReach;
      while (hi - lo > 0.02) {
        const mid = (lo + hi) / 2;
        if (this.#wallHit(dx, dy, mid)) hi = mid;
        else lo = mid;
      }
      return lo < free ? lo : free;
    }
    return free;
  }

  /**
   * Short-range contact constraints, every step: for each neighbour and wall within `range` (m)
   * of the body, the velocity component towards it is at most what it moves away plus the gap /
   * `brakeTimeS` (negative gaps push out within `CONTACT_TIME`). Fills `#contacts` constraints:
   * unit normal towards the neighbour in `#nbX`/`#nbY`, limit (m/s) in `#nbC0`.
   */
  #gatherContacts(ctx: StepContext, i: number, range: number, maxRadius: number): void {
    const a = ctx.agents, x = a.px[i], y = a.py[i], tau = this.#o.brakeTimeS;
    // Towards neighbours, a pinned agent's body is narrower by its squeeze (shoulders turned).
    const rw = a.radius[i], ri = rw * (1 - squeezeOf(this.#pinned[i]));
    range += BRAKE_MARGIN; // gaps beyond never bind
    const reach = ri + maxRadius + range;
    let count = ctx.grid.queryRadius(x, y, reach, this.#query, i);
    if (count > this.#query.length) {
      this.#growQuery(count);
      count = ctx.grid.queryRadius(x, y, reach, this.#query, i);
    }
    const o = this.#obstacles;
    let walls = 0;
    if (this.#wallsOf === i && this.#wallsAhead + range <= this.#wallReach) {
      walls = this.#segCount; // this step's check already gathered every wall in reach
    } else if (o.segmentCount > 0) {
      walls = o.queryRadius(x, y, rw + range, this.#segments);
      if (walls > this.#segments.length) {
        this.#segments = new Uint32Array(_capacityFor(walls));
        walls = o.queryRadius(x, y, rw + range, this.#segments);
      }
    }
    this.#wallsOf = -1;
    if (count + walls > this.#nbX.length) this.#growScratch(count + walls);
    if (count > this.#contactIndex.length) {
      this.#contactIndex = new Uint32Array(_capacityFor(count));
    }
    const px = a.px, py = a.py, nvx = a.vx, nvy = a.vy, radius = a.radius, query = this.#query;
    const contactIndex = this.#contactIndex;
    // The ray check of this agent is done: its neighbour scratch holds the constraints now.
    const cnx = this.#nbX, cny = this.#nbY, limit = this.#nbC0;
    let m = 0;
    for (let k = 0; k < count; k++) {
      const j = query[k];
      const qx = px[j] - x, qy = py[j] - y, body = ri + radius[j];
      const d2 = qx * qx + qy * qy, near = body + range;
      const d = Math.sqrt(d2), nx = qx / d, ny = qy / d;
      const away = nvx[j] * nx + nvy[j] * ny;
      // Always store, keep only neighbours near enough to bind (bitwise: unpredictable).
      cnx[m] = nx;
      cny[m] = ny;
      limit[m] = (away > 0 ? away : 0) + _gapSpeed(d - body, tau);
      contactIndex[m] = j;
      m += +(d2 < near * near) & +(d2 > 0);
    }
    this.#agentContacts = m;
    for (let k = 0; k < walls; k++) {
      const s = this.#segments[k];
      const t = segmentParameter(x, y, o.ax[s], o.ay[s], o.bx[s], o.by[s]);
      const qx = o.ax[s] + t * (o.bx[s] - o.ax[s]) - x, qy = o.ay[s] + t * (o.by[s] - o.ay[s]) - y;
      const d2 = qx * qx + qy * qy;
      if (d2 === 0) continue;
      const d = Math.sqrt(d2);
      cnx[m] = qx / d;
      cny[m] = qy / d;
      limit[m++] = _gapSpeed(d - rw, tau);
    }
    this.#contacts = m;
  }

  /** Highest speed (m/s) along unit (ux, uy) that the gathered contact constraints allow. */
  #freeSpeed(ux: number, uy: number): number {
    const cnx = this.#nbX, cny = this.#nbY, limit = this.#nbC0;
    let free = Infinity;
    for (let k = 0; k < this.#contacts; k++) {
      const along = ux * cnx[k] + uy * cny[k];
      if (along > 1e-9) {
        const v = limit[k] > 0 ? limit[k] / along : 0;
        if (v < free) free = v;
      }
    }
    return free;
  }

  /**
   * Projects (vx, vy) onto the gathered contact constraints one after another, for up to
   * `CONTACT_PASSES` passes while any is violated; the result is in `#outVx`, `#outVy`.
   */
  #project(vx: number, vy: number): void {
    const cnx = this.#nbX, cny = this.#nbY, limit = this.#nbC0, m = this.#contacts;
    for (let pass = 0; pass < CONTACT_PASSES; pass++) {
      let violated = false;
      for (let k = 0; k < m; k++) {
        const excess = vx * cnx[k] + vy * cny[k] - limit[k];
        if (excess > 1e-12) {
          vx -= excess * cnx[k];
          vy -= excess * cny[k];
          violated = true;
        }
      }
      if (!violated) break;
    }
    this.#outVx = vx;
    this.#outVy = vy;
  }
}

/** Highest speed (m/s) at which a gap (m) may close: gap / tau, or a push-out when negative. */
function _gapSpeed(gap: number, tau: number): number {
  if (gap < 0) return gap / CONTACT_TIME;
  const free = gap - BRAKE_MARGIN;
  return free > 0 ? free / tau : 0;
}

/**
 * True when the ray from the origin along unit (dx, dy) enters the disc of squared radius `r2`
 * centred at (px, py) (relative to the origin) within `reach` (m), at more than `WALL_GLANCE` to
 * its surface (the ray passes the centre at less than cos(WALL_GLANCE) of the radius).
 */
function _discHit(
  px: number,
  py: number,
  dx: number,
  dy: number,
  r2: number,
  reach: number,
): boolean {
  const t = px * dx + py * dy;
  if (t <= 0) return false;
  const c = px * dy - py * dx;
  if (c * c >= WALL_GLANCE_COS * WALL_GLANCE_COS * r2) return false;
  const w2 = r2 - c * c;
  const e = t - reach; // entry t - sqrt(w2) <= reach
  return e <= 0 || e * e <= w2;
}

/** Number of set bits of a 32-bit integer. */
function _bitCount(mask: number): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count++;
  return count;
}

function _capacityFor(count: number): number {
  let size = 64;
  while (size < count) size *= 2;
  return size;
}

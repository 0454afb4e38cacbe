/**
 * Volume-adaptive collision avoidance ("Crossing citizens: a simple simulation of pedestrian
 * crossing", project report, Section "Collision
 * avoidance", `AvoidBehaviourVolumeAdaptive`): a box as wide as the agent is swept forward to a
 * sight range; while something is inside, the range shrinks by `sightDecay` towards
 * `minSightRange`, and when clear it regrows by `sightRegrowth` towards `maxSightRange`. A hit
 * steers the agent, scaled by the steer gain. Crowded scenes keep the range short and leave the
 * rest to separation; sparse ones look far and evade early.
 *
 * Boxes are intersected analytically ({@linkcode sweptBoxDiscContact},
 * {@linkcode sweptBoxSegmentContact}) with neighbour discs from the agent grid and obstacle
 * segments from the segment grid; no physics engine is involved.
 *
 * Changes to the document's method, each fixing a weakness it admits (agents "overturning" in
 * crowds, motion "still too bumpy"), measured with `deno task compare` (see the module doc of
 * strategies/boxcast.ts):
 * - the box is cast along the preferred direction (where the agent wants to go), not along the
 *   current velocity, so avoidance stays on until the intended way is clear instead of
 *   alternating with seek;
 * - a neighbour is in sight when the box would meet it within the time the agent needs to walk
 *   its sight range, using the neighbour's velocity along the heading: someone ahead walking as
 *   fast is no obstacle, someone oncoming is seen about twice as far away;
 * - the default decay (1 m/s) is below walking speed, so an approaching obstacle, once seen,
 *   stays in sight until passed (a faster decay loses it mid-manoeuvre and the avoidance
 *   flickers);
 * - the `"pass"` steer (default) replaces "push away from the nearest hit", which brakes head-on
 *   and deadlocks or turns walkers around. It steers towards the velocity that clears the hit
 *   sideways before contact at the preferred speed, slowing (never reversing) when a sidestep
 *   is too late. The side is one whose sidestep slot (the box shifted by a body width) stays
 *   clear longer than the hit; of two, the shorter way round unless the preferred side is only
 *   marginally longer. The preferred side is the one being passed on, else `ctx.walkingSide`,
 *   which breaks head-on symmetry the same way for both walkers. Boxed in on both sides, the
 *   agent follows what walks its way and squeezes past on the preferred side what does not.
 *   The document's steer is kept as `steer: "away"`.
 * - boxed in behind someone held up by a counter-flow (their box hit someone coming the other
 *   way within the last COUNTERFLOW_MEMORY = 0.2 s, or they queue behind such a one) who wants
 *   to go its way (preferred direction within 60°) and is not held up at a wall, the agent
 *   queues behind them instead of squeezing past. Squeezing past one's own stream wedges it into
 *   the oncoming one: in the validation suite's counter-flow corridor (3.6 m, 2 × 60 at 1 /m²)
 *   the fronts locked and 3–25 % got through in 120 s (seeds 1–3); queueing, everyone does
 *   (seeds 1–8), in lanes behind those that find a way through. Queues form only behind a
 *   counter-flow, so a crowd converging on a door or a point still presses on as before.
 * - in a counter-flow press, shoulders turned: when contact handling has turned an agent's
 *   shoulders towards people coming head-on (pinned against two or more of them, see
 *   `PASSING_TURN_SHARE` in strategies/_right_of_way.ts), or theirs towards it, the box and
 *   their discs are narrower by that share (the larger of the pair's), so the pass steer aims
 *   for the gaps a turned body fits through instead of ones only a square-on body would need.
 *   At 2 /m² in the counter-flow corridor (2 × 60) the two blocks fill it from wall to wall and
 *   the interface locked: 0–11 % through in 120 s (seeds 1–3); with the turn in contact handling
 *   alone 33–54 %, with the box turned as well everyone (seeds 1–3, in 70–84 s).
 *
 * Speed from the headway (option `timeGap`, T = 1 s; 0 turns it off): the speed rule of the
 * collision-free speed model (A. Tordeux, M. Chraibi and A. Seyfried, "Collision-free speed model
 * for pedestrian dynamics", Traffic and Granular Flow '15, 2016), v = min(v0, max(0, s / T)) with
 * s the free gap to the nearest person ahead in the agent's lane. The lane is the box's band
 * (people whose discs overlap it laterally, walking or standing; those coming the other way are
 * left to the pass steer), and the gap is how far the agent walks straight on before the bodies
 * touch, each body an ellipse as wide as its disc and {@linkcode BODY_DEPTH_SHARE} (0.6) of that
 * deep ({@linkcode headwayGap}): the radius of each agent is its own (the shoulder-width
 * distribution of the body model), and the depth share is the chest depth against the shoulder
 * breadth that contact handling already gives up between people who turn their shoulders. The
 * rule caps the velocity along the preferred heading after the groups have blended
 * (`limitVelocity`), so a sidestep keeps its sideways speed. No value was chosen against a
 * measured curve: T is the paper's and the depth share the body model's. Two consequences of
 * the rule are handled with it:
 * - lane choice: held back by the rule with the box clear, an agent drifts sideways (up to
 *   LATERAL_SHARE of the speed it is held back by) towards the lane, a quarter to a whole body
 *   width to the side and clear of walls, whose free gap is longest, when that gap is longer by
 *   COMFORT than its own. Without it people stay in file behind each other as the ring was
 *   filled and walk about 0.2 m/s slower at 1 /m² (one-way ring, seeds 1–3); with it they walk
 *   in the gaps between the people ahead, as the direction model of the paper spreads them. The
 *   side lanes' gaps count people coming the other way too: counting only those walking its
 *   way, agents drifted into the oncoming crowd, and on the crossing (300 agents, seed 3) 30–45
 *   stood jammed in the street instead of 5–12;
 * - a creep, not a halt: the cap is never below BLOCKED_PROGRESS (a tenth) of the preferred
 *   speed, and contact handling and the pinned time judge progress against the preferred speed so
 *   capped. Held back by the rule, an agent is waiting, not wedged: it neither backs off
 *   (giving way) nor turns its shoulders (judged against the uncapped speed, waiting agents
 *   backed off from the one ahead, and up to 2 % of the one-way ring's samples walked
 *   backwards). Pressed against someone, it still pushes at the creep, contact stops it, and it
 *   counts as blocked, so the arch at a 0.5 m door still opens (with the cap down to 0, one
 *   seed of three clogged there).
 *
 * @module
 */
import type { ColumnSpec } from "../../core/agent_store.ts";
import { NeighbourQuery } from "../../core/neighbour_query.ts";
import { type OptionSpecs, resolveOptions } from "../../core/options.ts";
import type { StepContext } from "../../core/strategy.ts";
import type { World } from "../../core/world.ts";
import type { BehaviourFactory, SteeringBehaviour } from "./behaviour.ts";
import { crowdExtent } from "./crowd_extent.ts";
import { preferredHeading } from "./heading.ts";
import { Neighbourhood } from "./neighbourhood.ts";
import { sweptBoxDiscContact, sweptBoxSegmentContact } from "./swept_box.ts";
import { BLOCKED_PROGRESS, comesHeadOn, comesTheOtherWay } from "../_right_of_way.ts";
import { TURN_COLUMN } from "./contact.ts";

/** Scene presets of the report ("Examples"): they differ in the minimum sight range. */
export type SightPreset = "light" | "average" | "crowded";

/** Minimum sight range (m) of each preset: the scenes "LightCrowd", "Average crowd", "Crowded". */
export const SIGHT_PRESETS: Readonly<Record<SightPreset, { minSightRange: number }>> = {
  light: { minSightRange: 0.5 },
  average: { minSightRange: 0.3 },
  crowded: { minSightRange: 0 },
};

/** How a hit turns into an acceleration. */
export type AvoidSteer = "pass" | "away";

/** Options of the volume-adaptive avoidance ({@linkcode createAvoidVolumeBehaviour}). */
export interface AvoidVolumeOptions {
  /** Scene preset giving `minSightRange` when that is not given. @default "average" */
  preset: SightPreset;
  /**
   * Shortest sight range (m), the report's `minSightRange`; −1 takes the preset's value.
   * @default -1
   */
  minSightRange: number;
  /** Longest sight range (m), the report's `maxSightRange`; new agents start with it. @default 2 */
  maxSightRange: number;
  /** Shrink rate while something is in the box (m/s), `sightDecay`. @default 1 */
  sightDecay: number;
  /** Regrowth rate while the box is clear (m/s), `sightRegrowth`. @default 0.5 */
  sightRegrowth: number;
  /** Largest steering acceleration (m/s²), the report's `steer`. @default 3 */
  steerGain: number;
  /** `"pass"`: sideways to the chosen side; `"away"`: the document's push from the hit. @default "pass" */
  steer: AvoidSteer;
  /**
   * Time gap T (s) of the headway speed rule: the speed along the heading is at most the free
   * gap to the nearest person ahead in the box divided by T (Tordeux, Chraibi and Seyfried 2016,
   * T = 1 s); 0 turns the rule off (the document's method). @default 1
   */
  timeGap: number;
}

/** Descriptors of {@linkcode AvoidVolumeOptions}. */
export const AVOID_VOLUME_OPTIONS: OptionSpecs<AvoidVolumeOptions> = {
  preset: {
    type: "enum",
    values: ["light", "average", "crowded"],
    default: "average",
    doc: 'scene preset of the "Crossing citizens" report: minSightRange 0.5 m (light), 0.3 m ' +
      "(average), 0 m (crowded)",
  },
  minSightRange: {
    type: "number",
    default: -1,
    min: -1,
    max: 1,
    unit: "m",
    doc: "minSightRange: shortest look-ahead while hits persist; -1 takes the preset's (0.5, " +
      "0.3, 0 m), 0 … 1 overrides it; smaller leaves crowds to separation, fewer get stuck",
  },
  maxSightRange: {
    type: "number",
    default: 2,
    min: 1,
    max: 10,
    unit: "m",
    doc: "maxSightRange: look-ahead when clear (about 1.5 s of walking); larger evades earlier " +
      "and costs more neighbours per query",
  },
  sightDecay: {
    type: "number",
    default: 1,
    min: 0,
    max: 100,
    unit: "m/s",
    doc: "sightDecay: shrink rate while something is in the box; below walking speed so that " +
      "an approaching obstacle stays in sight until passed; 0 keeps the range fixed",
  },
  sightRegrowth: {
    type: "number",
    default: 0.5,
    min: 0,
    max: 100,
    unit: "m/s",
    doc: "sightRegrowth: regrowth rate while clear (0 to the default max in 4 s)",
  },
  steerGain: {
    type: "number",
    default: 3,
    min: 0,
    max: 50,
    unit: "m/s²",
    doc: "steer: largest avoidance acceleration; larger dodges later and more abruptly",
  },
  steer: {
    type: "enum",
    values: ["pass", "away"],
    default: "pass",
    doc: "pass: sideways to a chosen side, braking only when needed; away: the push from the " +
      'nearest hit of the "Crossing citizens" report',
  },
  timeGap: {
    type: "number",
    default: 1,
    min: 0,
    max: 10,
    unit: "s",
    doc: "time gap T of the headway speed rule: walk along the heading no faster than the free " +
      "gap to the person ahead in the box over T (Tordeux, Chraibi and Seyfried 2016: 1 s); 0 off",
  },
};

/** Name of the per-agent sight range column (m). */
export const SIGHT_RANGE_COLUMN = "boxcast.sightRange";

/** Name of the per-agent column of the side being passed on (1 left, −1 right, 0 none). */
export const PASS_SIDE_COLUMN = "boxcast.side";

/**
 * Name of the per-agent column of how long (s) the agent still counts as held up by a
 * counter-flow: COUNTERFLOW_MEMORY after its box last hit someone coming the other way, or what
 * the one it queues behind has left.
 */
export const COUNTERFLOW_COLUMN = "boxcast.counterflow";

/** Share of the combined radii by which the preferred side may be the longer way round. */
const SIDE_MARGIN = 0.5;

/** A sidestep slot is open when it stays clear this long (s) after the hit itself. */
const OPEN_LEAD = 0.2;

/** Gap (m) the pass steer aims to keep beside what it passes (personal space). */
const COMFORT = 0.1;

/** Time (s) over which the pass steer moves the velocity to its target (before the gain cap). */
const RESPONSE_TIME = 0.2;

/** A boxed-in agent follows an obstacle walking its way at least this share of its speed. */
const FOLLOW_SHARE = 0.25;

/**
 * Share of the preferred speed kept along the heading while sidestepping too late: contact
 * handling turns the part that would press into the obstacle into sliding past it, where
 * stopping would leave two walkers facing each other for good.
 */
const CREEP_SHARE = 0.5;

/** cos 60°: a boxed-in agent queues behind one whose preferred direction is this close to its own. */
const QUEUE_COS = 0.5;

/** Time (s) an agent counts as held up by a counter-flow after its box last hit someone oncoming. */
const COUNTERFLOW_MEMORY = 0.2;

/** Gap (m) from a wall within which a held-up leader is passed rather than queued behind. */
const QUEUE_WALL_GAP = 0.1;

/** Time (s) a follower takes to close the distance to what it follows. */
const FOLLOW_HEADWAY = 1;

/** Largest sideways dodge speed as a share of the preferred speed (tan 35° ≈ 0.7). */
const LATERAL_SHARE = 0.7;

/**
 * Lane choice: the lanes compared lie LANE_STEP, 2·LANE_STEP, … LANES·LANE_STEP body radii to
 * either side (a quarter of a body width up to a whole one).
 */
const LANE_STEP = 0.5, LANES = 4;

/** A side lane is chosen when its free gap is longer than the current one's by this (m). */
const DRIFT_MARGIN = COMFORT;

/** `minSightRange` value meaning "the preset's". */
export const FROM_PRESET = -1;

/**
 * Resolves avoidance options: validates them, then replaces `minSightRange = -1` by the
 * preset's value (an explicit `minSightRange` in [0, 1] overrides the preset).
 *
 * @example
 * ```ts
 * import { resolveAvoidVolumeOptions } from "./avoid_volume.ts";
 * import assert from "node:assert/strict";
 * assert.equal(resolveAvoidVolumeOptions({ preset: "crowded" }).minSightRange, 0);
 * assert.equal(resolveAvoidVolumeOptions({ preset: "crowded", minSightRange: 0.2 }).minSightRange, 0.2);
 * assert.throws(() => resolveAvoidVolumeOptions({ minSightRange: -0.5 }), RangeError);
 * ```
 */
export function resolveAvoidVolumeOptions(
  given: Partial<AvoidVolumeOptions> = {},
  owner = "boxcast behaviour",
): AvoidVolumeOptions {
  const resolved = resolveOptions(owner, AVOID_VOLUME_OPTIONS, given);
  if (resolved.minSightRange === FROM_PRESET) {
    resolved.minSightRange = SIGHT_PRESETS[resolved.preset].minSightRange;
  } else if (resolved.minSightRange < 0) {
    throw new RangeError(
      `Cannot create ${owner} as 'minSightRange' must be -1 (the preset's) or in [0, 1]: current value is ${resolved.minSightRange}`,
    );
  }
  return resolved;
}

/** The behaviour; see the module doc. */
class AvoidVolume implements SteeringBehaviour {
  readonly name = "boxcast";
  readonly neighborRadius: number;
  readonly columns: readonly ColumnSpec[];
  readonly #min: number;
  readonly #max: number;
  readonly #decay: number;
  readonly #regrowth: number;
  readonly #gain: number;
  readonly #away: boolean;
  readonly #timeGap: number;
  #sight: Float64Array = new Float64Array(0);
  #side: Int32Array = new Int32Array(0);
  #counterflow: Float64Array = new Float64Array(0);
  #turns: Float64Array | null = null;
  #world: World | null = null;
  #agentQuery = new NeighbourQuery();
  #near = new Neighbourhood(0);
  #heading = new Float64Array(2);
  #extent = new Float64Array(2);
  // The earliest hit of the current cast: time to contact (s; Infinity when none), the agent
  // hit (−1: none or a wall), sweep
  // distance (m), its position in the agent's frame (m), closing speed (m/s), the sideways
  // distances (m) that clear it to the right and to the left, and the preferred side's margin.
  #hitT = Infinity;
  #hitJ = -1;
  #hitS = 0;
  #hitU = 0;
  #hitW = 0;
  #hitClosing = 0;
  #clearRight = 0;
  #clearLeft = 0;
  #margin = 0;
  // Time to contact (s) of the box shifted one body width to the left / right.
  #freeLeft = Infinity;
  #freeRight = Infinity;
  // Neighbours kept by the cast for the sidestep check: index, u, w (m), closing speed (m/s).
  #candidates = 0;
  #candJ = new Uint32Array(64);
  #candU = new Float64Array(64);
  #candW = new Float64Array(64);
  #candC = new Float64Array(64);
  // Segments found by the cast (in the neighbourhood's list).
  #segments = 0;
  // Headway of the last cast: the agent and step it is for, the free gap (m) to the nearest
  // person ahead in the box who does not come the other way (Infinity: none), and the heading.
  #gapAgent = -1;
  #gapStep = -1;
  #gap = Infinity;
  // Free gaps (m) of the side lanes (see #sideLaneGaps).
  #laneGaps = new Float64Array(2 * LANES);
  #gapHx = 0;
  #gapHy = 0;

  constructor(o: AvoidVolumeOptions) {
    this.#min = o.minSightRange;
    this.#max = o.maxSightRange;
    this.#decay = o.sightDecay;
    this.#regrowth = o.sightRegrowth;
    this.#gain = o.steerGain;
    this.#away = o.steer === "away";
    this.#timeGap = o.timeGap;
    // Typical query: a box of a standing neighbour at the full range, plus two radii.
    this.neighborRadius = o.maxSightRange + 0.5;
    this.columns = [{
      name: SIGHT_RANGE_COLUMN,
      type: "f64",
      default: o.maxSightRange,
      kind: "state",
      doc: "boxcast sight range: how far ahead the box is swept (m)",
    }, {
      name: PASS_SIDE_COLUMN,
      type: "i32",
      kind: "state",
      doc: "side the agent is passing on: 1 left, -1 right, 0 none",
    }, {
      name: COUNTERFLOW_COLUMN,
      type: "f64",
      kind: "state",
      doc: "seconds the agent still counts as held up by a counter-flow (oncoming in its box, " +
        "or queued behind one so held up)",
    }];
  }

  attach(world: World): void {
    this.#world = world;
  }

  shareNeighbourhood(near: Neighbourhood): void {
    this.#near = near;
  }

  prepare(ctx: StepContext, _begin: number, _end: number): void {
    this.#sight = ctx.agents.column(SIGHT_RANGE_COLUMN);
    this.#side = ctx.agents.column<Int32Array>(PASS_SIDE_COLUMN);
    this.#counterflow = ctx.agents.column(COUNTERFLOW_COLUMN);
    this.#turns = ctx.agents.hasColumn(TURN_COLUMN) ? ctx.agents.column(TURN_COLUMN) : null;
    crowdExtent(ctx.agents, this.#extent);
  }

  accelerate(ctx: StepContext, i: number, out: Float64Array): void {
    const sight = this.#sight, h = this.#heading;
    out[0] = out[1] = 0;
    const speed = preferredHeading(ctx.agents, i, h);
    const range = sight[i];
    this.#hitT = Infinity;
    this.#hitJ = -1;
    this.#candidates = this.#segments = 0;
    this.#gapAgent = i;
    this.#gapStep = ctx.stepIndex;
    this.#gap = Infinity;
    this.#gapHx = h[0];
    this.#gapHy = h[1];
    if (speed > 0) {
      const horizon = range / speed; // s: time to walk the sight range
      this.#castAgents(ctx, i, h[0], h[1], speed, horizon);
      if (ctx.obstacles.segmentCount > 0) this.#castSegments(ctx, i, h[0], h[1], speed, horizon);
    }
    if (this.#hitT === Infinity) {
      sight[i] = Math.min(this.#max, range + this.#regrowth * ctx.dt);
      if (!this.#away && this.#drift(ctx, i, h[0], h[1], speed, out)) return;
      this.#side[i] = 0;
      this.#forget(i, ctx.dt);
      return;
    }
    sight[i] = Math.max(this.#min, range - this.#decay * ctx.dt);
    if (this.#away) {
      this.#forget(i, ctx.dt);
      this.#awayFromHit(h[0], h[1], out);
    } else {
      this.#slots(ctx, i, h[0], h[1], speed, range / speed);
      this.#pass(ctx, i, h[0], h[1], speed, out);
    }
  }

  /**
   * Casts the box against neighbour discs, keeping the earliest hit, and remembers the
   * neighbours that could block a sidestep (for {@linkcode AvoidVolume.#slots}).
   */
  #castAgents(
    ctx: StepContext,
    i: number,
    hx: number,
    hy: number,
    speed: number,
    horizon: number,
  ): void {
    const a = ctx.agents, grid = ctx.grid;
    const px = a.px[i], py = a.py[i], b = a.radius[i];
    const rMax = this.#extent[0], vMax = this.#extent[1], shift = 2 * b;
    // Candidates lie in u ∈ [−back, ahead], |w| ≤ wide: a rectangle, queried by its circle. It
    // reaches as far as the time gap rule can bind (a free gap below speed · T).
    let ahead = horizon * (speed + vMax) + b + rMax;
    const follow = speed * this.#timeGap + b + rMax;
    if (follow > ahead) ahead = follow;
    const back = b + rMax, wide = b + shift + rMax;
    const mid = 0.5 * (ahead - back), half = 0.5 * (ahead + back);
    const cx = px + hx * mid, cy = py + hy * mid, qr = Math.sqrt(half * half + wide * wide);
    const n = this.#agentQuery.agents(grid, cx, cy, qr, i);
    if (n > this.#candU.length) this.#growCandidates(n);
    const buf = this.#agentQuery.found, ax = a.px, ay = a.py, avx = a.vx, avy = a.vy, ar = a.radius;
    const candJ = this.#candJ, candU = this.#candU, candW = this.#candW, candC = this.#candC;
    let kept = 0;
    for (let k = 0; k < n; k++) {
      const j = buf[k];
      const dx = ax[j] - px, dy = ay[j] - py;
      const u = dx * hx + dy * hy, w = dy * hx - dx * hy;
      const reach = b + ar[j];
      // Always store, keep only those in the rectangle: branch-free, as whether a neighbour
      // lies in it is a coin toss for the branch predictor.
      candJ[kept] = j;
      candU[kept] = u;
      candW[kept] = w;
      candC[kept] = speed - (avx[j] * hx + avy[j] * hy);
      kept += +!(u <= -reach) & +!(u > ahead) & +!(Math.abs(w) >= reach + shift);
    }
    let bestT = this.#hitT, bestJ = -1, bestU = 0, bestW = 0, bestClosing = 0;
    const turns = this.#turns, own = turns !== null ? turns[i] : 0;
    let bestF = 1;
    let gap = Infinity;
    const headway = this.#timeGap > 0;
    for (let c = 0; c < kept; c++) {
      const u = candU[c], w = candW[c], closing = candC[c];
      const j = candJ[c];
      // Headway: the free gap to the nearest person ahead in the box, walking or standing,
      // unless coming the other way (the pass steer handles those).
      if (headway && u > 0 && Math.abs(w) < b + ar[j] && !comesTheOtherWay(hx, hy, a, j)) {
        const g = headwayGap(u, w, b + ar[j]);
        if (g < gap) gap = g;
      }
      // Pressed against someone coming head-on: shoulders turned, the pair's turn being
      // the larger of the two (see contact handling).
      let f = 1;
      if (turns !== null && (own > 0 || turns[j] > 0) && comesHeadOn(hx, hy, a, j)) {
        f = 1 - (own > turns[j] ? own : turns[j]);
      }
      const rj = f * ar[j], bf = f * b;
      if (Math.abs(w) < bf + rj && u > 0 && closing > 0) {
        const t = sweptBoxDiscContact(u, w, bf, rj) / closing;
        if (t <= horizon && t < bestT) {
          bestT = t;
          bestJ = j;
          bestU = u;
          bestW = w;
          bestClosing = closing;
          bestF = f;
        }
      }
    }
    if (bestJ >= 0) {
      const reach = bestF * (b + ar[bestJ]);
      this.#hitT = bestT;
      this.#hitJ = bestJ;
      this.#hitS = bestT * bestClosing;
      this.#hitU = bestU;
      this.#hitW = bestW;
      this.#hitClosing = bestClosing;
      this.#clearRight = reach + COMFORT - bestW;
      this.#clearLeft = reach + COMFORT + bestW;
      this.#margin = SIDE_MARGIN * reach;
    }
    this.#candidates = kept;
    this.#gap = gap;
  }

  /**
   * Free gaps (m) of the side lanes into `#laneGaps` (left lanes first, nearest first), from
   * the neighbours the cast kept. They count everyone, also people coming the other way: a lane
   * with someone coming the other way in it is no way out.
   */
  #sideLaneGaps(b: number, radius: Float64Array): void {
    const lanes = this.#laneGaps;
    lanes.fill(Infinity);
    const candJ = this.#candJ, candU = this.#candU, candW = this.#candW;
    for (let c = 0; c < this.#candidates; c++) {
      const u = candU[c];
      if (!(u > 0)) continue;
      const w = candW[c], reach = b + radius[candJ[c]];
      for (let k = 0; k < LANES; k++) {
        const off = (k + 1) * LANE_STEP * b;
        if (Math.abs(w - off) < reach) {
          const g = headwayGap(u, w - off, reach);
          if (g < lanes[k]) lanes[k] = g;
        }
        if (Math.abs(w + off) < reach) {
          const g = headwayGap(u, w + off, reach);
          if (g < lanes[LANES + k]) lanes[LANES + k] = g;
        }
      }
    }
  }

  /**
   * Lane choice: held back by the headway rule with its box clear, the agent drifts sideways
   * towards the lane (a quarter to a whole body width to either side, not beyond a wall) whose
   * free gap is longest, when that is longer than its own by DRIFT_MARGIN. Returns false (no
   * acceleration written) otherwise.
   */
  #drift(
    ctx: StepContext,
    i: number,
    hx: number,
    hy: number,
    speed: number,
    out: Float64Array,
  ): boolean {
    const gap = this.#gap;
    if (!(gap < speed * this.#timeGap)) return false;
    const a = ctx.agents, b = a.radius[i];
    const lanes = this.#laneGaps;
    this.#sideLaneGaps(b, a.radius);
    const o = ctx.obstacles, segs = this.#near.segments, px = a.px[i], py = a.py[i];
    let best = gap + DRIFT_MARGIN, sign = 0;
    for (let side = 0; side < 2; side++) {
      for (let k = 0; k < LANES; k++) {
        const off = (side === 0 ? 1 : -1) * (k + 1) * LANE_STEP * b;
        // A wall within the shifted body closes that lane and those beyond it.
        let walled = false;
        for (let q = 0; q < this.#segments && !walled; q++) {
          const g = segs[q];
          const dx1 = o.ax[g] - px, dy1 = o.ay[g] - py, dx2 = o.bx[g] - px, dy2 = o.by[g] - py;
          const u1 = dx1 * hx + dy1 * hy, w1 = dy1 * hx - dx1 * hy;
          const u2 = dx2 * hx + dy2 * hy, w2 = dy2 * hx - dx2 * hy;
          walled = _segmentNear(u1, w1 - off, u2, w2 - off, b);
        }
        if (walled) break;
        const g = lanes[side * LANES + k];
        if (g > best) {
          best = g;
          sign = side === 0 ? 1 : -1;
        }
      }
    }
    if (sign === 0) return false;
    const held = speed - gap / this.#timeGap; // how much the headway rule holds the agent back
    _steerInFrame(
      a.vx[i],
      a.vy[i],
      hx,
      hy,
      speed,
      sign * LATERAL_SHARE * held,
      ctx.dt,
      this.#gain,
      out,
    );
    this.#side[i] = 0;
    this.#forget(i, ctx.dt);
    return true;
  }

  /**
   * The headway rule (see the module doc): caps the velocity's component along the preferred
   * heading at the free gap to the person ahead over the time gap. Uses the gap of this step's
   * cast when `accelerate` ran for agent `i`, else casts for the gap alone.
   */
  limitVelocity(ctx: StepContext, i: number, vel: Float64Array): number {
    if (this.#timeGap <= 0) return Infinity;
    let gap: number, hx: number, hy: number;
    if (this.#gapAgent === i && this.#gapStep === ctx.stepIndex) {
      gap = this.#gap;
      hx = this.#gapHx;
      hy = this.#gapHy;
    } else {
      const h = this.#heading, speed = preferredHeading(ctx.agents, i, h);
      if (speed <= 0) return Infinity;
      hx = h[0];
      hy = h[1];
      gap = this.#headwayGap(ctx, i, hx, hy, speed);
    }
    if (gap === Infinity) return Infinity;
    // Down to a creep, not a halt: pressed against someone, the agent still counts as blocked
    // when contact handling stops it (see the module doc).
    let cap = gap / this.#timeGap;
    const pvx = ctx.agents.prefVx[i], pvy = ctx.agents.prefVy[i];
    const creep = BLOCKED_PROGRESS * Math.sqrt(pvx * pvx + pvy * pvy);
    if (cap < creep) cap = creep;
    const along = vel[0] * hx + vel[1] * hy;
    if (along > cap) {
      vel[0] -= (along - cap) * hx;
      vel[1] -= (along - cap) * hy;
    }
    return cap;
  }

  /**
   * Free gap (m) from agent `i`'s box to the nearest person ahead in it who does not come the
   * other way, within the reach of the time gap rule (Infinity: none); the cast of
   * {@linkcode AvoidVolume.#castAgents} for the gap alone.
   */
  #headwayGap(ctx: StepContext, i: number, hx: number, hy: number, speed: number): number {
    const a = ctx.agents, px = a.px[i], py = a.py[i], b = a.radius[i], rMax = this.#extent[0];
    const ahead = speed * this.#timeGap + b + rMax, wide = b + rMax;
    const cx = px + 0.5 * ahead * hx, cy = py + 0.5 * ahead * hy;
    const n = this.#agentQuery.agents(
      ctx.grid,
      cx,
      cy,
      Math.sqrt(0.25 * ahead * ahead + wide * wide),
      i,
    );
    const buf = this.#agentQuery.found, ar = a.radius;
    let gap = Infinity;
    for (let k = 0; k < n; k++) {
      const j = buf[k];
      const dx = a.px[j] - px, dy = a.py[j] - py;
      const u = dx * hx + dy * hy, w = dy * hx - dx * hy;
      if (!comesTheOtherWay(hx, hy, a, j)) {
        const g = headwayGap(u, w, b + ar[j]);
        if (g < gap) gap = g;
      }
    }
    return gap;
  }

  /**
   * Casts the box against obstacle segments (static), keeping the earliest hit. Segments come
   * from the shared neighbourhood, gathered in a circle around the agent that holds the box and
   * its sidestep slots.
   */
  #castSegments(
    ctx: StepContext,
    i: number,
    hx: number,
    hy: number,
    speed: number,
    horizon: number,
  ): void {
    const a = ctx.agents, o = ctx.obstacles;
    const px = a.px[i], py = a.py[i], b = a.radius[i];
    const reach = horizon * speed + b, wide = 3 * b; // the sight range plus the box's front half
    const near = this.#near;
    near.gatherSegments(ctx, i, Math.sqrt(reach * reach + wide * wide));
    const m = near.segmentCount, segs = near.segments;
    this.#segments = m;
    for (let k = 0; k < m; k++) {
      const g = segs[k];
      const dx1 = o.ax[g] - px, dy1 = o.ay[g] - py, dx2 = o.bx[g] - px, dy2 = o.by[g] - py;
      const u1 = dx1 * hx + dy1 * hy, w1 = dy1 * hx - dx1 * hy;
      const u2 = dx2 * hx + dy2 * hy, w2 = dy2 * hx - dx2 * hy;
      const t = sweptBoxSegmentContact(u1, w1, u2, w2, b) / speed;
      if (t <= horizon && t < this.#hitT) {
        const wMin = w1 < w2 ? w1 : w2, wMax = w1 < w2 ? w2 : w1;
        this.#hitT = t;
        this.#hitJ = -1;
        this.#hitS = t * speed;
        this.#hitU = t * speed + b;
        this.#hitW = 0.5 * (wMin + wMax);
        this.#hitClosing = speed;
        this.#clearRight = b + COMFORT - wMin;
        this.#clearLeft = b + COMFORT + wMax;
        this.#margin = SIDE_MARGIN * b;
      }
    }
  }

  /**
   * Times to contact (s) of the box shifted one body width to the left and to the right (the
   * agent's place after a sidestep), from the neighbours and segments the casts kept.
   */
  #slots(
    ctx: StepContext,
    i: number,
    hx: number,
    hy: number,
    speed: number,
    horizon: number,
  ): void {
    const b = ctx.agents.radius[i], shift = 2 * b, ar = ctx.agents.radius;
    let left = Infinity, right = Infinity;
    const candJ = this.#candJ, candU = this.#candU, candW = this.#candW, candC = this.#candC;
    for (let k = 0; k < this.#candidates; k++) {
      const u = candU[k], w = candW[k], closing = candC[k], rj = ar[candJ[k]];
      const tl = _slotTime(u, w - shift, b, rj, closing, horizon);
      if (tl < left) left = tl;
      const tr = _slotTime(u, w + shift, b, rj, closing, horizon);
      if (tr < right) right = tr;
    }
    const o = ctx.obstacles, segs = this.#near.segments;
    const px = ctx.agents.px[i], py = ctx.agents.py[i];
    for (let k = 0; k < this.#segments; k++) {
      const g = segs[k];
      const dx1 = o.ax[g] - px, dy1 = o.ay[g] - py, dx2 = o.bx[g] - px, dy2 = o.by[g] - py;
      const u1 = dx1 * hx + dy1 * hy, w1 = dy1 * hx - dx1 * hy;
      const u2 = dx2 * hx + dy2 * hy, w2 = dy2 * hx - dx2 * hy;
      const tl = sweptBoxSegmentContact(u1, w1 - shift, u2, w2 - shift, b) / speed;
      if (tl <= horizon && tl < left) left = tl;
      const tr = sweptBoxSegmentContact(u1, w1 + shift, u2, w2 + shift, b) / speed;
      if (tr <= horizon && tr < right) right = tr;
    }
    this.#freeLeft = left;
    this.#freeRight = right;
  }

  /**
   * True when agent `j`'s body lies within QUEUE_WALL_GAP of a segment the cast gathered: held up
   * at a wall (rounding a pillar), it is no queue to wait in.
   */
  #nearWall(ctx: StepContext, j: number): boolean {
    const o = ctx.obstacles, segs = this.#near.segments, a = ctx.agents;
    const px = a.px[j], py = a.py[j], reach = a.radius[j] + QUEUE_WALL_GAP;
    for (let k = 0; k < this.#segments; k++) {
      const g = segs[k];
      const ex = o.bx[g] - o.ax[g], ey = o.by[g] - o.ay[g], len2 = ex * ex + ey * ey;
      let t = len2 > 0 ? ((px - o.ax[g]) * ex + (py - o.ay[g]) * ey) / len2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const dx = o.ax[g] + t * ex - px, dy = o.ay[g] + t * ey - py;
      if (dx * dx + dy * dy < reach * reach) return true;
    }
    return false;
  }

  /** Counts down agent `i`'s counter-flow memory by `dt` (s). */
  #forget(i: number, dt: number): void {
    const left = this.#counterflow[i] - dt;
    this.#counterflow[i] = left > 0 ? left : 0;
  }

  #growCandidates(n: number): void {
    const size = 2 * n;
    this.#candJ = new Uint32Array(size);
    this.#candU = new Float64Array(size);
    this.#candW = new Float64Array(size);
    this.#candC = new Float64Array(size);
  }

  /** The report's steer: push away from the hit, as seen from the agent, at the full gain. */
  #awayFromHit(hx: number, hy: number, out: Float64Array): void {
    const u = this.#hitU, w = this.#hitW, gain = this.#gain;
    const len = Math.sqrt(u * u + w * w);
    if (len > 0) {
      out[0] = (-gain * (u * hx - w * hy)) / len;
      out[1] = (-gain * (u * hy + w * hx)) / len;
    }
  }

  /**
   * The pass steer (see the module doc): picks a side, then steers towards the velocity that
   * clears the hit sideways before contact at the preferred speed (sideways at most
   * LATERAL_SHARE of it, slowing to no less than CREEP_SHARE when that is not enough), or,
   * following, towards no sideways motion and a speed that closes the distance over
   * FOLLOW_HEADWAY. Never backwards; the acceleration is capped at the gain.
   */
  #pass(
    ctx: StepContext,
    i: number,
    hx: number,
    hy: number,
    speed: number,
    out: Float64Array,
  ): void {
    const a = ctx.agents, dt = ctx.dt, gain = this.#gain, side = this.#side;
    const t = this.#hitT, s = this.#hitS, closing = this.#hitClosing;
    const openLeft = this.#freeLeft > t + OPEN_LEAD, openRight = this.#freeRight > t + OPEN_LEAD;
    const current = side[i];
    const preferLeft = current !== 0 ? current > 0 : ctx.walkingSide === "left";
    const obstacleAlong = speed - closing; // the obstacle's speed along the heading
    // Held up by a counter-flow: someone coming the other way in the box, or a queue behind such
    // of people who want to go our way.
    const j = this.#hitJ, flags = this.#counterflow;
    const queue = j >= 0 && flags[j] > 0 && _wantsOurWay(a, j, hx, hy);
    if (j >= 0 && comesTheOtherWay(hx, hy, a, j)) flags[i] = COUNTERFLOW_MEMORY;
    else if (queue) flags[i] = flags[j];
    else this.#forget(i, dt);
    let sign: number;
    if (openLeft !== openRight) sign = openLeft ? 1 : -1;
    else if (
      !openLeft &&
      (obstacleAlong >= FOLLOW_SHARE * speed || (queue && !this.#nearWall(ctx, this.#hitJ)))
    ) sign = 0; // boxed in behind someone walking, or held up by a counter-flow, our way: follow
    else {
      // Both open, or boxed in by something that does not walk our way: the shorter way round,
      // unless the preferred side is only marginally longer.
      const right = this.#clearRight, left = this.#clearLeft, margin = this.#margin;
      if (preferLeft) sign = right + margin < left ? -1 : 1;
      else sign = left + margin < right ? 1 : -1;
    }
    const clearance = sign > 0 ? this.#clearLeft : this.#clearRight;
    side[i] = sign;
    let targetLateral = 0, targetAlong: number;
    if (sign === 0) {
      targetAlong = obstacleAlong + s / FOLLOW_HEADWAY;
    } else {
      const lateralMax = LATERAL_SHARE * speed;
      targetLateral = s > 0 ? (clearance * closing) / s : Infinity; // clearance / time to contact
      if (targetLateral > lateralMax) {
        // Too late to clear sideways at full speed: arrive later, as if the sideways cap sufficed.
        targetLateral = lateralMax;
        targetAlong = obstacleAlong + (s * lateralMax) / clearance;
        // Oncoming: keep walking so that contact handling slides us past it.
        if (obstacleAlong < -FOLLOW_SHARE * speed && targetAlong < CREEP_SHARE * speed) {
          targetAlong = CREEP_SHARE * speed;
        }
      } else targetAlong = Infinity;
      // Turn the preferred velocity sideways, keeping the preferred speed.
      const turned = Math.sqrt(speed * speed - targetLateral * targetLateral);
      if (turned < targetAlong) targetAlong = turned;
    }
    if (targetAlong > speed) targetAlong = speed;
    if (targetAlong < 0) targetAlong = 0;
    // Sideways target: on the chosen side, or zero when following.
    _steerInFrame(a.vx[i], a.vy[i], hx, hy, targetAlong, targetLateral * sign, dt, gain, out);
  }

  inspect(world: World, index: number): Record<string, number> {
    const agents = (this.#world ?? world).agents;
    return {
      sightRange: agents.column(SIGHT_RANGE_COLUMN)[index],
      side: agents.column<Int32Array>(PASS_SIDE_COLUMN)[index],
      counterflow: agents.column(COUNTERFLOW_COLUMN)[index],
    };
  }
}

/**
 * True when agent `j` (−1: none) wants to walk within 60° of the unit heading (`hx`, `hy`): its
 * preferred velocity, not its velocity, so that one held up in a queue still counts.
 */
function _wantsOurWay(a: StepContext["agents"], j: number, hx: number, hy: number): boolean {
  if (j < 0) return false;
  const qx = a.prefVx[j], qy = a.prefVy[j], q = Math.sqrt(qx * qx + qy * qy);
  return q > 0 && qx * hx + qy * hy > QUEUE_COS * q;
}

/** True when the segment (agent frame) lies within the box of half-width `b` around the centre. */
function _segmentNear(u1: number, w1: number, u2: number, w2: number, b: number): boolean {
  return sweptBoxSegmentContact(u1 + b, w1, u2 + b, w2, b) === 0;
}

/**
 * Body depth front to back as a share of the shoulder breadth: chest depth about 0.25–0.28 m
 * against shoulder breadths of 0.40–0.47 m (S. Pheasant and C. M. Haslegrave, "Bodyspace", 3rd
 * ed., 2006), the share contact handling keeps between people who have turned their shoulders
 * (1 − `PASSING_TURN_SHARE` in strategies/_right_of_way.ts).
 */
export const BODY_DEPTH_SHARE = 0.6;

/**
 * Free gap (m) along the heading to a neighbour at (`u`, `w`) in the agent's frame (m; `u`
 * ahead, `w` to the left), or `Infinity` when it is not ahead in the agent's lane (`u ≤ 0` or
 * `|w| ≥ reach`): how far the agent walks straight on before their bodies touch, each body an
 * ellipse as wide as its disc (`reach` = the sum of the two radii) and {@linkcode BODY_DEPTH_SHARE}
 * of that deep, facing the heading. Two such ellipses touch where discs of the summed radius
 * would after compressing the heading axis by the depth share: `u − 0.6 · √(reach² − w²)`, ≥ 0.
 *
 * @example
 * ```ts
 * import { headwayGap } from "./avoid_volume.ts";
 * import assert from "node:assert/strict";
 * assert.ok(Math.abs(headwayGap(1, 0, 0.45) - 0.73) < 1e-12); // straight ahead: 1 − 0.6 · 0.45
 * assert.equal(headwayGap(1, 0.5, 0.45), Infinity); // beside the lane
 * assert.equal(headwayGap(-1, 0, 0.45), Infinity); // behind
 * ```
 */
export function headwayGap(u: number, w: number, reach: number): number {
  const q = reach * reach - w * w;
  if (!(u > 0) || !(q > 0)) return Infinity;
  const s = u - BODY_DEPTH_SHARE * Math.sqrt(q);
  return s > 0 ? s : 0;
}

/**
 * Time to contact (s) between a neighbour disc (radius `rj` at `u`, `w`, closing at `closing`)
 * and a box slot beside the agent (already shifted into `w`): 0 when the disc occupies the
 * slot now, `Infinity` when it never enters it within `horizon`.
 */
function _slotTime(
  u: number,
  w: number,
  b: number,
  rj: number,
  closing: number,
  horizon: number,
): number {
  const du = (u < 0 ? -u : u) - b, dw = (w < 0 ? -w : w) - b;
  const ex = du > 0 ? du : 0, ew = dw > 0 ? dw : 0;
  if (ex * ex + ew * ew < rj * rj) return 0;
  if (u <= 0 || closing <= 0) return Infinity;
  const t = sweptBoxDiscContact(u, w, b, rj) / closing;
  return t <= horizon ? t : Infinity;
}

/**
 * Creates the volume-adaptive avoidance behaviour (`boxcast` in compositions). Its
 * acceleration is zero while nothing is in the box, so a lower-priority group (seek,
 * separation) decides then.
 *
 * @example An agent walking at a pillar steers aside
 * ```ts
 * import { createAvoidVolumeBehaviour } from "./avoid_volume.ts";
 * import { World } from "../../core/world.ts";
 * import { createNoneStrategy } from "../none.ts";
 * import assert from "node:assert/strict";
 * const boxcast = createAvoidVolumeBehaviour();
 * const world = new World({ strategy: { ...createNoneStrategy(), columns: boxcast.columns } });
 * world.obstacles.addPolygon([[1.5, -0.5], [2.5, -0.5], [2.5, 0.5], [1.5, 0.5]]);
 * world.addAgent({ x: 0, y: 0, vx: 1.3 });
 * world.agents.prefVx[0] = 1.3;
 * world.prepare();
 * const ctx = { agents: world.agents, grid: world.grid, obstacles: world.obstacles, dt: 0.05,
 *   time: 0, stepIndex: 0, rng: null as never, walkingSide: "right" as const };
 * boxcast.prepare!(ctx, 0, 1);
 * const out = new Float64Array(2);
 * boxcast.accelerate(ctx, 0, out);
 * assert.ok(out[1] < 0); // sideways, to the right (walking side)
 * assert.ok(world.agents.column("boxcast.sightRange")[0] < 2); // the range shrinks
 * ```
 */
export function createAvoidVolumeBehaviour(
  options: Partial<AvoidVolumeOptions> = {},
): SteeringBehaviour {
  return new AvoidVolume(resolveAvoidVolumeOptions(options));
}

/** Catalogue entry of the volume-adaptive avoidance behaviour. */
export const avoidVolumeBehaviour: BehaviourFactory<AvoidVolumeOptions> = {
  name: "boxcast",
  description:
    'volume-adaptive box cast avoidance ("Crossing citizens"): steer around what the box hits',
  options: AVOID_VOLUME_OPTIONS,
  create: createAvoidVolumeBehaviour,
};

/**
 * The acceleration (m/s², into `out`) that takes velocity (`vx`, `vy`) to `along` m/s along the
 * heading (`hx`, `hy`, unit) and `lateral` m/s to its left within the response time (at least
 * one step of `dt` s), capped at `gain`.
 */
function _steerInFrame(
  vx: number,
  vy: number,
  hx: number,
  hy: number,
  along: number,
  lateral: number,
  dt: number,
  gain: number,
  out: Float64Array,
): void {
  const wx = -hy, wy = hx;
  const dAlong = along - (vx * hx + vy * hy), dLateral = lateral - (vx * wx + vy * wy);
  const rate = 1 / (RESPONSE_TIME > dt ? RESPONSE_TIME : dt);
  let ax = (hx * dAlong + wx * dLateral) * rate, ay = (hy * dAlong + wy * dLateral) * rate;
  const a2 = ax * ax + ay * ay;
  if (a2 > gain * gain) {
    const f = gain / Math.sqrt(a2);
    ax *= f;
    ay *= f;
  }
  out[0] = ax;
  out[1] = ay;
}

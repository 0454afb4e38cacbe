/** Share of the preferred speed under which the wall anticipation's fitted target is dropped. */
const MIN_FIT_SPEED_SHARE = 0.3;

/**
 * The `orca` strategy: Optimal Reciprocal Collision Avoidance (J. van den Berg, S. J. Guy,
 * M. Lin, D. Manocha, "Reciprocal n-body collision avoidance", Robotics Research, STAR 70,
 * 2011, pp. 3–19), the model of the RVO2 library.
 *
 * Each step, every agent A:
 *
 * 1. builds one half-plane of velocities per static obstacle segment within
 *    `horizon · maxSpeed + radius` (nearest first, skipping segments whose velocity obstacle
 *    earlier lines already cover; convex and concave vertices handled as in the paper's
 *    Section 6; chained pieces that continue each other in a straight line count as one
 *    segment, so a wall cut into many pieces costs what the whole wall costs): the velocities
 *    that stay clear of the obstacle for the horizon — first over `timeHorizonObst` (tau^O) to
 *    fit the preferred velocity to the walls ahead, then over the shorter
 *    `obstacleSafetyHorizon` for the hard constraints (see below);
 * 2. builds one half-plane `ORCA_A|B^tau` per neighbour B, for the `maxNeighbors` nearest within
 *    `neighborDist`: the velocities that, if B does its half of the avoidance, stay clear of B
 *    for `timeHorizon` (tau). Agents that already overlap get the half-plane of one time step,
 *    which separates them within the next step;
 * 3. picks the velocity closest to its (wall-fitted) preferred velocity inside every half-plane
 *    and its speed disc (`maxSpeed`) with a 2-D linear program; when no such velocity exists, a
 *    3-D linear program keeps the hard half-planes and minimises the largest violation of the
 *    agent half-planes;
 * 4. when blocked, steps aside or gives way (`stepAside`, below).
 *
 * Three additions, all on by default and all switchable:
 *
 * - **Contact safety** (`contactSafety`). The paper's guarantee holds only while every agent's
 *   program is feasible; in dense crowds the 3-D fallback lets neighbours overlap by a few
 *   centimetres. With contact safety every agent also obeys, as hard half-planes, "close in on
 *   each neighbour by at most half the gap during this step" (`v · h <= gap / (2 dt)`). When
 *   both agents of a pair keep theirs they cannot overlap after the step, and the zero velocity
 *   satisfies all of them, so the hard set is always feasible: no two agents that see each other
 *   ever overlap. The price: in packed counter-flows (the 80-agent corridor) the crowd can jam
 *   where the plain model squeezes through with overlaps.
 * - **Walking side and right of way** (`sidePreferenceAngle`, `stepAside`, the world's
 *   `walkingSide`). Oncoming encounters (preferred directions more than 90° apart) within this
 *   angle of head-on take the velocity-obstacle boundary on the walking side (the right leg, or
 *   the cut-off circle touched 10° to the right of its nearest point), so counter-flows pass on
 *   the right and form lanes and roundabouts. Both agents of a pair evaluate the same symmetric
 *   test, so their half-planes stay reciprocal and the guarantee is kept. Exactly symmetric
 *   encounters (within 1°) always follow the walking side, whatever the angle: rounding noise
 *   never decides. People going the same way are never pushed to a side (a crowd converging on
 *   a door would otherwise pile up in the corner on its walking side). A blocked agent (less
 *   than a tenth of its preferred progress) in a counter-flow takes the permitted velocity
 *   closest to its preferred velocity turned 90° to the walking side: it steps aside, as people
 *   squeeze past a jam on their side, instead of waiting forever in a jam that only overlaps
 *   would dissolve. Outside a counter-flow, agents wedged against each other where streams
 *   converge (an arch in front of a door, which contact safety would otherwise hold for ever)
 *   settle the right of way: the one that has the other more squarely in its way backs off; when it
 *   stands still instead (a door post or the crowd behind it leaves no room), the other backs off
 *   in its stead, so an arch of three across a doorway (one at each post, the one between with
 *   the right of way over both) opens.
 * - **Two obstacle horizons** (`timeHorizonObst`, `obstacleSafetyHorizon`). The paper's single
 *   tau^O serves two purposes: anticipation (seeing a pillar or a door post early and heading
 *   around it) and safety (never reaching a wall). As a hard constraint, a long tau^O forbids
 *   every heading whose straight path grazes a wall within tau^O — an agent beside a door may
 *   only head into it once the door post is out of its way for 6 m — so a crowd pressing
 *   through a 1 m door leaves only those straight in front of it a way in. Here the preferred
 *   velocity is first fitted to the walls over tau^O (5 s: the anticipation), and the hard
 *   half-planes use the short safety horizon (0.5 s). Setting both equal gives the paper's
 *   algorithm. A fit that keeps less than 30 % of the preferred speed is dropped (the
 *   preferred velocity stays the target): at a channel barely wider than the body only a
 *   perfectly aimed straight path clears the walls for the whole tau^O, so the fit would only
 *   slow the agent to a crawl at the entrance corners (a 0.5 m channel clogged); the safety
 *   half-planes still keep it off the walls.
 *
 * And one for narrow openings, always on: **turned shoulders**. In or just before an opening
 * narrower than its shoulders plus 0.2 m (`openingMargin`) on each side (two walls that do not
 * meet, on both sides of its walking line; strategies/_narrow_opening.ts, the test the force
 * models use), an agent turns its shoulders, as people do to slip through: against walls its
 * radius is the body's half-depth (`BODY_DEPTH_SHARE`, 0.6 of the shoulder radius: chest depth
 * against shoulder breadth, S. Pheasant and C. M. Haslegrave, "Bodyspace", 3rd ed., 2006), it
 * drops the wall anticipation, and towards its neighbours each body reaches as far as an ellipse
 * that wide across and a full radius along its walking direction (the neighbour at the same
 * opening turns too). People in file keep their full spacing; two people wedged side by side at the posts
 * slip past each other. With square-on discs a 0.5 m channel passed 0.6 persons/s in bursts
 * between stalls of up to 13 s; turned, 1.2 persons/s (measured: 1.16).
 *
 * Off by default: **speed from density** (`densitySpeed`). ORCA lets a dense crowd walk as fast
 * as its velocities fit, faster than people do; with this filter of the preferred velocity by a
 * fundamental diagram (A. Best, S. Narang, S. Curtis, D. Manocha, "DenseSense: interactive crowd
 * simulation using density-dependent filters", SCA 2014, which uses a diagram of its own; here
 * Weidmann's), each agent walks at most its preferred speed times Weidmann's share for the
 * density of the people in the disc of `DENSITY_RADIUS` ahead of it who walk its way or stand.
 * One grid query per agent and step.
 *
 * The strategy keeps no per-agent state; all scratch buffers are preallocated and grow only when
 * a query returns more items than ever before.
 *
 * @module
 */
import { avoidVehicles, VEHICLE_HORIZON } from "../core/vehicles.ts";
import { AgentFlags, type AgentStore } from "../core/agent_store.ts";
import { type OptionSpecs, resolveOptions, withParameterSet } from "../core/options.ts";
import { weidmannSpeedShare } from "../core/speed_density.ts";
import type { StepContext, Strategy, StrategyFactory } from "../core/strategy.ts";
import type { World } from "../core/world.ts";
import {
  type AgentLineSettings,
  HEAD_ON_SIN,
  OrcaNeighbors,
  pushAgentLines,
  pushContactLines,
} from "./_orca_half_planes.ts";
import { ObstacleQuery, OrcaObstacles } from "./_orca_obstacles.ts";
import { linearProgram2, linearProgram3, OrcaLines } from "./_orca_lp.ts";
import { BODY_DEPTH_SHARE } from "./steering/avoid_volume.ts";
import {
  BLOCKED_PROGRESS,
  counterflowAhead,
  counterflowAmong,
  CounterflowQuery,
  mustGiveWay,
  WEDGE_GAP,
} from "./_right_of_way.ts";

/**
 * Default `openingMargin` (m): openings narrower than the shoulders plus 0.2 m on each side
 * (about 0.84 m for a 0.22 m shoulder radius), where two people abreast no longer fit, make
 * people turn their shoulders. With the force models' 0.1 m (about 0.64 m) two people still met
 * square-on at the posts of a 0.7 m exit and wedged for good in 4 of 18 seeds.
 *
 * @example
 * ```ts
 * import { ORCA_OPENING_MARGIN } from "./orca.ts";
 * import assert from "node:assert/strict";
 * assert.equal(ORCA_OPENING_MARGIN, 0.2);
 * ```
 */
export const ORCA_OPENING_MARGIN = 0.2;

/** Model-wide parameters of ORCA. */
export interface OrcaOptions {
  /**
   * Largest distance to a neighbour that is considered (m). Larger is safer in fast crowds but
   * slower. @default 5
   */
  neighborDist: number;
  /** Most neighbours considered per agent; more is safer but slower. @default 10 */
  maxNeighbors: number;
  /**
   * tau: time horizon of agent avoidance (s). Larger reacts earlier to other agents but
   * restricts the choice of velocities more. @default 5
   */
  timeHorizon: number;
  /**
   * tau^O: time horizon of obstacle anticipation (s). The preferred velocity is first replaced
   * by the closest velocity that stays clear of the walls for tau^O, so agents head around a
   * pillar or a door post early. Larger reacts earlier to walls and reads more segments.
   * @default 5
   */
  timeHorizonObst: number;
  /**
   * Horizon (s) of the hard obstacle half-planes: no velocity may reach a wall within this
   * time (capped at tau^O). Walls do not move, so this only has to cover the time an agent
   * needs to turn away (it re-plans every step). As long as tau^O it forbids every heading
   * whose straight path grazes a door post within tau^O (the paper's single horizon, RVO2's
   * behaviour), which in a crowd pressing through a 1 m door leaves only those straight in
   * front of it a way in. Menge's ORCA agents use 0.15 s. @default 0.5
   */
  obstacleSafetyHorizon: number;
  /**
   * Oncoming encounters (preferred directions more than 90° apart) whose relative motion is
   * within this angle (deg) of head-on pass on the world's walking side: both agents take that
   * side of their velocity obstacle. Counter-flows then form lanes and roundabouts instead of
   * jams; 0 keeps pure ORCA except for exactly symmetric encounters (within 1°), which always
   * follow the walking side. People walking the same way are never pushed to one side, so a
   * crowd converging on a door stays centred on it. @default 30
   */
  sidePreferenceAngle: number;
  /**
   * Adds one-step contact half-planes as hard constraints: an agent closes in on a neighbour by
   * at most its half of their gap per step, so no two agents that count each other among their
   * neighbours ever overlap (as long as the world applies the new velocities: no acceleration
   * cap). false gives the plain model of the paper (small overlaps in dense crowds).
   * @default true
   */
  contactSafety: boolean;
  /**
   * A blocked agent, whose best velocity gives less than a tenth of the progress its preferred
   * velocity would, gets out of the way:
   *
   * - in a counter-flow (someone ahead within `neighborDist` wants to go the other way) and
   *   while the walls alone would allow more progress, it steps towards the world's walking
   *   side: it takes the permitted velocity closest to its preferred velocity turned 90° to that
   *   side, as people squeeze past a jam on their side;
   * - wedged against a standing neighbour that wants to go where it stands (two streams
   *   converging on a door), the one of the two that has the other more squarely in its way
   *   gives way: it backs off at half its preferred speed, so that the arch of wedged agents
   *   opens. The test is antisymmetric: of each such pair exactly one yields.
   *
   * The half-planes are the same (when the program was infeasible, the hard ones), so the
   * guarantees are kept. @default true
   */
  stepAside: boolean;
  /**
   * Slows each agent to the speed people keep at the density ahead of it: the target speed is
   * capped at its preferred speed times Weidmann's share for the density of the others within
   * {@linkcode DENSITY_RADIUS} of the point {@linkcode DENSITY_AHEAD} ahead along its preferred
   * direction (a disc from its centre to 3 m ahead) that walk its way or stand; oncoming people
   * do not count (they pass in lanes of their own). Plain ORCA keeps walking speed in a dense
   * crowd, as long as the velocities fit (0.97 m/s at 2 /m² where people walk 0.61), which
   * this filter of the preferred velocity by a fundamental diagram corrects, as DenseSense does
   * (Best et al. 2014). @default false
   */
  densitySpeed: boolean;
  /**
   * Margin (m) on each side of the shoulders under which an opening counts as narrow, so that
   * people in or just before it turn their shoulders (see the module doc). @default 0.2
   */
  openingMargin: number;
  /**
   * Named set giving its values to the options left at their default (see
   * {@linkcode ORCA_PARAMETER_SETS}). @default "default"
   */
  parameters: OrcaParameterSet;
}

/** Names of the parameter sets of {@linkcode createOrcaStrategy}. */
export type OrcaParameterSet = "default" | "bottleneck-fitted";

/**
 * The parameter sets chosen by {@linkcode OrcaOptions.parameters}: each gives its values to the
 * options left at their defaults.
 *
 * - `default`: the defaults above (RVO2's neighbour count and horizons, the additions on).
 * - `bottleneck-fitted`: `openingMargin` 0.3 m and `maxNeighbors` 15, chosen on the nine HERMES
 *   corridor runs with a narrow exit or entrance (0.5–1.8 m; validation/bottleneck_calibration.ts,
 *   seeds 1–18) as the lowest RMSE of J/b over a grid of margins 0.1–0.5 m and 10–30
 *   neighbours. More neighbours make a crowd pressing on a wide opening see the people beside
 *   it, so it walks less into the layer along the walls; the wider margin lets people turn
 *   their shoulders in openings where two abreast barely fit.
 *
 * @example
 * ```ts
 * import { ORCA_PARAMETER_SETS } from "./orca.ts";
 * import assert from "node:assert/strict";
 * assert.equal(ORCA_PARAMETER_SETS["bottleneck-fitted"].openingMargin, 0.3); // m
 * ```
 */
export const ORCA_PARAMETER_SETS: Readonly<
  Record<OrcaParameterSet, Readonly<Partial<OrcaOptions>>>
> = {
  "default": {},
  "bottleneck-fitted": { openingMargin: 0.3, maxNeighbors: 15 },
};

/**
 * Descriptors (default, unit, limits, doc) of {@linkcode OrcaOptions}.
 *
 * @example The documented defaults
 * ```ts
 * import { ORCA_OPTIONS } from "./orca.ts";
 * import assert from "node:assert/strict";
 * assert.equal(ORCA_OPTIONS.neighborDist.default, 5); // m
 * assert.equal(ORCA_OPTIONS.maxNeighbors.default, 10);
 * assert.equal(ORCA_OPTIONS.timeHorizon.default, 5); // s
 * assert.equal(ORCA_OPTIONS.timeHorizonObst.default, 5); // s
 * assert.equal(ORCA_OPTIONS.obstacleSafetyHorizon.default, 0.5); // s
 * ```
 */
export const ORCA_OPTIONS: OptionSpecs<OrcaOptions> = {
  neighborDist: {
    type: "number",
    default: 5,
    min: 0,
    exclusiveMin: true,
    max: 100,
    unit: "m",
    doc: "largest distance to a neighbour considered; larger is safer but slower",
  },
  maxNeighbors: {
    type: "number",
    default: 10,
    min: 0,
    max: 1000,
    integer: true,
    doc: "most (nearest) neighbours considered per agent; more is safer but slower",
  },
  timeHorizon: {
    type: "number",
    default: 5,
    min: 0,
    exclusiveMin: true,
    max: 100,
    unit: "s",
    doc: "tau: how far ahead agent collisions are avoided; larger reacts earlier but is stiffer",
  },
  timeHorizonObst: {
    type: "number",
    default: 5,
    min: 0,
    exclusiveMin: true,
    max: 100,
    unit: "s",
    doc: "tau^O: how far ahead walls are anticipated (the target velocity keeps clear of them " +
      "this long); larger reacts earlier but reads more segments",
  },
  obstacleSafetyHorizon: {
    type: "number",
    default: 0.5,
    min: 0,
    exclusiveMin: true,
    max: 100,
    unit: "s",
    doc: "hard constraint: no velocity reaches a wall within this time (capped at tau^O; equal " +
      "to tau^O: RVO2's single horizon, which narrows doors in a crowd; Menge: 0.15)",
  },
  sidePreferenceAngle: {
    type: "number",
    default: 30,
    min: 0,
    max: 90,
    unit: "deg",
    doc: "oncoming encounters within this angle of head-on pass on the walking side; 0: only " +
      "exactly symmetric ones",
  },
  contactSafety: {
    type: "boolean",
    default: true,
    doc: "hard one-step contact half-planes (no overlaps); false: the plain model of the paper",
  },
  stepAside: {
    type: "boolean",
    default: true,
    doc: "a blocked agent (< 10 % of its preferred progress) steps to the walking side in a " +
      "counter-flow, or backs off from a wedged neighbour with the right of way",
  },
  densitySpeed: {
    type: "boolean",
    default: false,
    doc:
      "slow to Weidmann's speed for the density ahead (people walking the same way or standing " +
      "within 1.5 m of a point 1.5 m ahead), as DenseSense filters ORCA's preferred velocity; " +
      "false: plain ORCA, which keeps its speed in dense crowds",
  },
  openingMargin: {
    type: "number",
    default: ORCA_OPENING_MARGIN,
    min: 0,
    max: 2,
    unit: "m",
    doc: "margin on each side of the shoulders under which an opening counts as narrow: people " +
      "in or just before it turn their shoulders",
  },
  parameters: {
    type: "enum",
    values: Object.keys(ORCA_PARAMETER_SETS) as OrcaParameterSet[],
    default: "default",
    doc: "named set giving its values to the options left at their default: default, or " +
      "bottleneck-fitted (openingMargin 0.3 m, maxNeighbors 15, chosen on the HERMES runs " +
      "with narrow exits and entrances)",
  },
};

/**
 * Radius (m) the world's agent grid is sized for (cells of twice this). The k-nearest search
 * still reaches `neighborDist`; cells of 2 m keep the rows it scans short in dense crowds.
 *
 * @example
 * ```ts
 * import { createOrcaStrategy, ORCA_GRID_RADIUS } from "./orca.ts";
 * import assert from "node:assert/strict";
 * assert.equal(createOrcaStrategy().neighborRadius, ORCA_GRID_RADIUS);
 * assert.equal(createOrcaStrategy({ neighborDist: 0.5 }).neighborRadius, 0.5);
 * ```
 */
export const ORCA_GRID_RADIUS = 1;

/**
 * Radius (m) of the disc whose density slows an agent with `densitySpeed`: about 7 m², which
 * holds seven people at 1 /m², so that a count is a density and not one neighbour more or less.
 */
export const DENSITY_RADIUS = 1.5;
/**
 * Distance (m) ahead of an agent, along its preferred direction, of the centre of that disc: the
 * disc reaches from the agent's centre to twice the radius ahead, the people it walks into.
 */
export const DENSITY_AHEAD = DENSITY_RADIUS;
const DENSITY_AREA = Math.PI * DENSITY_RADIUS * DENSITY_RADIUS;

/** Speed of backing off when giving way, as a share of the preferred speed. */
const GIVE_WAY_SPEED = 0.5;

/** What {@linkcode Strategy.inspect} reports for one agent. */
interface OrcaSolveStats {
  neighbors: number;
  obstacleLines: number;
  /** Obstacle segments the agent examined (visible and within tau^O · maxSpeed + r). */
  obstacleSegments: number;
  lines: number;
  /** Index of the line where the 2-D program failed, or -1 when it was feasible. */
  failedLine: number;
  /** Shoulders turned (in or just before an opening narrower than them). */
  turned: boolean;
}

/**
 * What the solver reads from a step: the frozen state and the world's settings. A
 * {@linkcode StepContext} is one, and so is a `World` (for inspection between steps).
 */
type OrcaContext = Pick<StepContext, "agents" | "grid" | "obstacles" | "dt" | "walkingSide">;

/** The agent being solved: what its steps hand to each other (scratch, refilled per agent). */
class _Solving {
  /** Agent index. */
  index = 0;
  /** Preferred velocity (m/s). */
  prefVx = 0;
  prefVy = 0;
  /** Target velocity: the preferred one fitted to the walls over tau^O (m/s). */
  targetX = 0;
  targetY = 0;
  /** Lines of each kind: obstacles first, then contact (both hard), then agents. */
  obstacleLines = 0;
  hardLines = 0;
  /** Obstacle segments examined: visible and within the range of the longer horizon. */
  obstacleSegments = 0;
  /** Neighbours gathered. */
  neighbours = 0;
  /** Where the 2-D program failed (`lines.count` when it did not). */
  failed = 0;
  /** Shoulders turned: in or just before an opening narrower than the shoulders. */
  turned = false;
}

/** The ORCA solver: options, scratch buffers and obstacle geometry of one strategy instance. */
class OrcaSolver {
  readonly neighborDist: number;
  readonly maxNeighbors: number;
  readonly timeHorizonObst: number;
  /** Horizon (s) of the hard obstacle half-planes: min(obstacleSafetyHorizon, tau^O). */
  readonly obstacleSafetyHorizon: number;
  /** Whether the target is fitted to the walls over the longer tau^O first. */
  readonly anticipates: boolean;
  readonly contactSafety: boolean;
  readonly stepAside: boolean;
  /** Margin (m) beside the shoulders under which an opening is narrow. */
  readonly openingMargin: number;
  readonly densitySpeed: boolean;
  readonly lines: OrcaLines;
  readonly projected: OrcaLines;
  readonly neighbors: OrcaNeighbors;
  readonly obstacles: OrcaObstacles = new OrcaObstacles();
  readonly stats: OrcaSolveStats = {
    neighbors: 0,
    obstacleLines: 0,
    obstacleSegments: 0,
    lines: 0,
    failedLine: -1,
    turned: false,
  };
  /** tau, 1/dt, walking side and side preference of the agent half-planes. */
  readonly #settings: AgentLineSettings;
  /** The agent being solved, as the obstacle half-planes see it. */
  readonly #query = new ObstacleQuery();
  readonly #agent = new _Solving();
  readonly #neighborIndex: Uint32Array;
  readonly #neighborDistSq: Float64Array;
  readonly #out = new Float64Array(2);
  readonly #temp = new Float64Array(2);
  readonly #away = new Float64Array(2);
  readonly #counterflow = new CounterflowQuery();
  /** Scratch of the density count, grown on demand. */
  #densityScratch = new Uint32Array(16);
  /** The step being solved (see {@linkcode OrcaSolver.beginStep}). */
  #ctx: OrcaContext | null = null;
  #hasObstacles = false;

  constructor(options: OrcaOptions) {
    this.neighborDist = options.neighborDist;
    this.maxNeighbors = options.maxNeighbors;
    this.timeHorizonObst = options.timeHorizonObst;
    this.obstacleSafetyHorizon = Math.min(options.obstacleSafetyHorizon, options.timeHorizonObst);
    this.anticipates = this.obstacleSafetyHorizon < this.timeHorizonObst;
    this.contactSafety = options.contactSafety;
    this.stepAside = options.stepAside;
    this.openingMargin = options.openingMargin;
    this.densitySpeed = options.densitySpeed;
    this.#settings = {
      invTau: 1 / options.timeHorizon,
      invDt: 20,
      side: 1,
      preferSin: Math.max(HEAD_ON_SIN, Math.sin((options.sidePreferenceAngle * Math.PI) / 180)),
    };
    this.lines = new OrcaLines(options.maxNeighbors + 16);
    this.projected = new OrcaLines(options.maxNeighbors + 16);
    this.neighbors = new OrcaNeighbors(options.maxNeighbors);
    this.#neighborIndex = new Uint32Array(Math.max(1, options.maxNeighbors));
    this.#neighborDistSq = new Float64Array(Math.max(1, options.maxNeighbors));
  }

  /** Binds the step `ctx`: obstacle geometry, 1/dt and the walking side. */
  beginStep(ctx: OrcaContext): void {
    this.#ctx = ctx;
    this.#hasObstacles = ctx.obstacles.segmentCount > 0;
    if (this.#hasObstacles) this.obstacles.update(ctx.obstacles);
    this.#settings.side = ctx.walkingSide === "left" ? -1 : 1;
    this.#settings.invDt = 1 / ctx.dt;
  }

  /** Writes the new velocity of every agent in `begin … end-1`. */
  solveRange(ctx: OrcaContext, begin: number, end: number): void {
    this.beginStep(ctx);
    const grid = ctx.grid;
    if (begin === 0 && end === ctx.agents.count && grid.count === end) {
      // Whole range: visit agents in grid order, so neighbours' data is likely still cached.
      const order = grid.sortedIndex;
      for (let k = 0; k < end; k++) this.solveAgent(order[k]);
    } else {
      for (let i = begin; i < end; i++) this.solveAgent(i);
    }
  }

  /**
   * Writes `newVx[i]`, `newVy[i]` and fills `stats` (after {@linkcode OrcaSolver.beginStep}),
   * in the named steps of the module doc.
   */
  solveAgent(i: number): void {
    const agents = this.#ctx!.agents;
    if ((agents.flags[i] & AgentFlags.frozen) !== 0) {
      agents.newVx[i] = 0;
      agents.newVy[i] = 0;
      return;
    }
    const a = this.#agent, nb = this.neighbors, out = this.#out, stats = this.stats;
    a.index = i;
    const pvx = a.prefVx = a.targetX = agents.prefVx[i];
    const pvy = a.prefVy = a.targetY = agents.prefVy[i];
    nb.ownVx = agents.vx[i];
    nb.ownVy = agents.vy[i];
    nb.ownMaxSpeed = agents.maxSpeed[i];
    this.lines.count = 0;
    // Step 1: the obstacle half-planes.
    if (this.#hasObstacles) {
      this.#fitTargetToWalls();
      this.#pushObstacleLines();
    } else {
      a.obstacleLines = a.obstacleSegments = 0;
    }
    this.#gatherNeighbours();
    if (this.densitySpeed) this.#slowToDensity();
    // Step 2b: the contact half-planes (hard, when on), then one ORCA half-plane per neighbour.
    const lines = this.lines, settings = this.#settings;
    if (this.contactSafety) pushContactLines(lines, nb, settings);
    a.hardLines = lines.count;
    pushAgentLines(lines, nb, settings);
    this.#solve();
    if (this.stepAside && _blocked(out, pvx, pvy)) this.#unblock();
    agents.newVx[i] = out[0];
    agents.newVy[i] = out[1];
    stats.neighbors = a.neighbours;
    stats.obstacleLines = a.obstacleLines;
    stats.obstacleSegments = a.obstacleSegments;
    stats.lines = lines.count;
    stats.failedLine = a.failed < lines.count ? a.failed : -1;
    stats.turned = a.turned;
  }

  /**
   * Step 1a (with obstacles): the agent as the obstacle half-planes see it, and the target, the
   * preferred velocity fitted to the walls over tau^O (anticipation).
   */
  #fitTargetToWalls(): void {
    const agents = this.#ctx!.agents, a = this.#agent, i = a.index, q = this.#query;
    q.x = agents.px[i];
    q.y = agents.py[i];
    q.vx = this.neighbors.ownVx;
    q.vy = this.neighbors.ownVy;
    q.radius = agents.radius[i];
    q.maxSpeed = this.neighbors.ownMaxSpeed;
    q.agent = i;
    a.turned = false;
    if (!this.anticipates) return;
    const lines = this.lines, out = this.#out;
    q.horizon = this.timeHorizonObst;
    const ahead = this.obstacles.pushLines(lines, q);
    a.obstacleSegments = this.obstacles.segmentsInRange;
    if (this.#turnShoulders()) {
      // Turned through a narrow opening: no anticipation (only a perfectly aimed path clears
      // its posts for tau^O); the safety half-planes keep the turned body off the walls.
      lines.count = 0;
      return;
    }
    if (ahead > 0 && linearProgram2(lines, q.maxSpeed, a.prefVx, a.prefVy, false, out) === ahead) {
      // A fit that mostly slows the agent down (a gap barely wider than the body, which only a
      // well-aimed straight path clears for the whole tau^O) is no anticipation: keep the
      // preferred velocity and leave the walls to the safety half-planes.
      const fit2 = out[0] * out[0] + out[1] * out[1];
      const pref2 = a.prefVx * a.prefVx + a.prefVy * a.prefVy;
      if (fit2 >= MIN_FIT_SPEED_SHARE * MIN_FIT_SPEED_SHARE * pref2) {
        a.targetX = out[0];
        a.targetY = out[1];
      }
    }
    lines.count = 0;
  }

  /**
   * After the obstacle segments were gathered: when the agent stands in or just before an
   * opening narrower than its shoulders (see strategies/_narrow_opening.ts), it turns them:
   * its radius against walls becomes the body's half-depth ({@linkcode BODY_DEPTH_SHARE}).
   */
  #turnShoulders(): boolean {
    const a = this.#agent, ps = Math.sqrt(a.prefVx * a.prefVx + a.prefVy * a.prefVy);
    if (
      !(ps > 0) ||
      !this.obstacles.inNarrowOpening(a.prefVx / ps, a.prefVy / ps, this.openingMargin)
    ) return false;
    a.turned = true;
    this.#query.radius *= BODY_DEPTH_SHARE;
    return true;
  }

  /**
   * Step 1b (with obstacles): the hard obstacle half-planes over the safety horizon; after the
   * anticipation pass, its segments are reused.
   */
  #pushObstacleLines(): void {
    const a = this.#agent, q = this.#query;
    q.horizon = this.obstacleSafetyHorizon;
    if (this.anticipates) {
      a.obstacleLines = this.obstacles.pushNearer(this.lines, q);
    } else {
      const before = this.lines.count;
      a.obstacleLines = this.obstacles.pushLines(this.lines, q);
      a.obstacleSegments = this.obstacles.segmentsInRange;
      if (this.#turnShoulders()) {
        this.lines.count = before;
        a.obstacleLines = this.obstacles.pushNearer(this.lines, q);
      }
    }
  }

  /** Step 2a: the `maxNeighbors` nearest within `neighborDist`, as the agent sees them. */
  #gatherNeighbours(): void {
    const ctx = this.#ctx!, agents = ctx.agents, a = this.#agent, i = a.index;
    const x = agents.px[i], y = agents.py[i], ri = agents.radius[i], pvx = a.prefVx, pvy = a.prefVy;
    const found = this.maxNeighbors > 0
      ? ctx.grid.queryKNearest(
        x,
        y,
        this.neighborDist,
        this.maxNeighbors,
        this.#neighborIndex,
        this.#neighborDistSq,
        i,
      )
      : 0;
    // Contiguous for the line builders.
    const idx = this.#neighborIndex, nb = this.neighbors;
    const nrpx = nb.rpx, nrpy = nb.rpy, nvx = nb.vx, nvy = nb.vy, nr = nb.combinedRadius;
    const nshare = nb.share, ntie = nb.tie, noncoming = nb.oncoming;
    const px = agents.px, py = agents.py, vx = agents.vx, vy = agents.vy, radius = agents.radius;
    const flags = agents.flags, prefVx = agents.prefVx, prefVy = agents.prefVy;
    const turned = a.turned;
    for (let m = 0; m < found; m++) {
      const j = idx[m];
      nrpx[m] = px[j] - x;
      nrpy[m] = py[j] - y;
      nvx[m] = vx[j];
      nvy[m] = vy[j];
      nr[m] = ri + radius[j];
      if (turned) {
        // Turned shoulders: each body reaches towards the other as far as an ellipse as deep as
        // BODY_DEPTH_SHARE of its width, shoulders along its walking direction (the neighbour
        // at the same opening turns too).
        nr[m] = ri * _turnedReach(pvx, pvy, nrpx[m], nrpy[m]) +
          radius[j] * _turnedReach(prefVx[j], prefVy[j], nrpx[m], nrpy[m]);
      }
      nshare[m] = (flags[j] & AgentFlags.frozen) !== 0 ? 1 : 0.5;
      // Branch-free (+1 or -1, 1 or 0): which way these go is a coin toss for the branch
      // predictor, and a mispredicted branch costs more than the arithmetic.
      ntie[m] = 2 * +(i < j) - 1;
      // Oncoming: preferred directions more than 90° apart (symmetric in i and j).
      noncoming[m] = +(pvx * prefVx[j] + pvy * prefVy[j] < 0);
    }
    nb.count = found;
    a.neighbours = found;
  }

  /**
   * Step 1c (`densitySpeed`): caps the target speed at the preferred speed times Weidmann's share
   * for the density of the others in the disc ahead that walk its way (preferred directions less
   * than 90° apart) or stand.
   */
  #slowToDensity(): void {
    const ctx = this.#ctx!, agents = ctx.agents, a = this.#agent, i = a.index;
    const pvx = a.prefVx, pvy = a.prefVy, ps = Math.sqrt(pvx * pvx + pvy * pvy);
    if (!(ps > 0)) return;
    const x = agents.px[i] + DENSITY_AHEAD * pvx / ps, y = agents.py[i] + DENSITY_AHEAD * pvy / ps;
    let found = ctx.grid.queryRadius(x, y, DENSITY_RADIUS, this.#densityScratch, i);
    if (found > this.#densityScratch.length) {
      this.#densityScratch = new Uint32Array(2 * found);
      found = ctx.grid.queryRadius(x, y, DENSITY_RADIUS, this.#densityScratch, i);
    }
    // Those walking its way or standing; oncoming people pass in their own lanes.
    const near = this.#densityScratch, qx = agents.prefVx, qy = agents.prefVy;
    let others = 0;
    for (let k = 0; k < found; k++) others += +(qx[near[k]] * pvx + qy[near[k]] * pvy >= 0);
    const cap = ps * weidmannSpeedShare(others / DENSITY_AREA);
    const tx = a.targetX, ty = a.targetY, ts = Math.sqrt(tx * tx + ty * ty);
    if (ts > cap) {
      a.targetX = tx * cap / ts;
      a.targetY = ty * cap / ts;
    }
  }

  /**
   * Step 3: the velocity closest to the target within every half-plane and the speed disc;
   * when there is none, the 3-D program keeps the hard half-planes and violates the agent
   * half-planes least.
   */
  #solve(): void {
    const a = this.#agent,
      lines = this.lines,
      out = this.#out,
      maxSpeed = this.neighbors.ownMaxSpeed;
    const failed = a.failed = linearProgram2(lines, maxSpeed, a.targetX, a.targetY, false, out);
    if (failed >= lines.count) return;
    if (failed >= a.hardLines) {
      // Keep obstacles and contact half-planes; violate the ORCA half-planes least.
      linearProgram3(lines, a.hardLines, failed, maxSpeed, out, this.projected, this.#temp);
    } else {
      // Agents already overlap from several sides: separate them as well as possible.
      lines.count = a.hardLines;
      linearProgram3(lines, a.obstacleLines, failed, maxSpeed, out, this.projected, this.#temp);
    }
  }

  /**
   * Step 4 (`stepAside`, for a blocked agent: see `_blocked`): in a counter-flow, step towards
   * the walking side; wedged against a standing neighbour with the right of way, back off from
   * it; wedged against neighbours that must give way to it but cannot, back off from them.
   */
  #unblock(): void {
    const ctx = this.#ctx!, agents = ctx.agents, a = this.#agent, i = a.index;
    const lines = this.lines, out = this.#out, maxSpeed = this.neighbors.ownMaxSpeed;
    const pvx = a.prefVx, pvy = a.prefVy, wantSq = pvx * pvx + pvy * pvy, failed = a.failed;
    if (
      failed === lines.count &&
      // The nearest neighbours usually settle it without reading everyone in range.
      (counterflowAmong(agents, i, this.#neighborIndex, a.neighbours) ||
        counterflowAhead(agents, ctx.grid, i, this.neighborDist, this.#counterflow))
    ) {
      // By someone coming the other way: step towards the walking side, solving again for the
      // preferred velocity turned 90° to that side (same half-planes).
      const wallsAllow = this.anticipates
        ? a.targetX * pvx + a.targetY * pvy >= BLOCKED_PROGRESS * wantSq
        : this.#freeOfWalls(pvx, pvy);
      const side = this.#settings.side;
      if (wallsAllow) linearProgram2(lines, maxSpeed, side * pvy, -side * pvx, false, out);
    } else if (
      failed >= a.hardLines &&
      (this.#backsOff(agents, i, pvx, pvy, true) || this.#backsOff(agents, i, pvx, pvy, false))
    ) {
      // By a standing neighbour with the right of way, or by neighbours that must let this one
      // pass but cannot move: back off from them (at half the preferred speed), keeping the
      // hard half-planes, so that the way opens. When the program was infeasible, the agent
      // half-planes are already violated: keep the hard ones.
      const back = GIVE_WAY_SPEED * Math.sqrt(wantSq);
      if (failed < lines.count) lines.count = a.hardLines;
      linearProgram2(lines, maxSpeed, back * this.#away[0], back * this.#away[1], false, out);
    }
  }

  /**
   * Whether agent i, blocked, backs off from the neighbours it is wedged against (within
   * `WEDGE_GAP`): with `yieldToThem`, from those it must give way to (see
   * {@linkcode mustGiveWay}); otherwise from those that must give way to it but stood still in
   * the last step instead of backing off (see {@linkcode _stoodInsteadOfYielding}), and only
   * when that direction points back against its preferred velocity. An arch of three across a
   * doorway is held the second way: the middle one has the right of way, the two at the posts
   * cannot back off. Writes the unit direction away from all such neighbours into `#away`;
   * returns false when there are none.
   */
  #backsOff(
    agents: AgentStore,
    i: number,
    pvx: number,
    pvy: number,
    yieldToThem: boolean,
  ): boolean {
    const nb = this.neighbors, idx = this.#neighborIndex;
    const ps = Math.sqrt(pvx * pvx + pvy * pvy), ex = pvx / ps, ey = pvy / ps;
    let ax = 0, ay = 0;
    for (let m = 0; m < nb.count; m++) {
      const rpx = nb.rpx[m], rpy = nb.rpy[m], near = nb.combinedRadius[m] + WEDGE_GAP;
      const dSq = rpx * rpx + rpy * rpy;
      if (dSq >= near * near || dSq === 0) continue;
      const d = Math.sqrt(dSq), hx = rpx / d, hy = rpy / d, j = idx[m];
      const from = yieldToThem
        ? mustGiveWay(ex, ey, hx, hy, agents, i, j)
        : _stoodInsteadOfYielding(agents, j, i, -hx, -hy);
      if (from) {
        ax -= hx;
        ay -= hy;
      }
    }
    const len = Math.sqrt(ax * ax + ay * ay);
    if (!(len > 1e-9) || (!yieldToThem && !(pvx * ax + pvy * ay < 0))) return false;
    this.#away[0] = ax / len;
    this.#away[1] = ay / len;
    return true;
  }

  /** True when the obstacle half-planes alone let the agent make its blocked-progress share. */
  #freeOfWalls(pvx: number, pvy: number): boolean {
    const lines = this.lines, numObstLines = this.#agent.obstacleLines;
    if (numObstLines === 0) return true;
    const count = lines.count, v = this.#temp;
    lines.count = numObstLines;
    linearProgram2(lines, this.neighbors.ownMaxSpeed, pvx, pvy, false, v);
    lines.count = count;
    return v[0] * pvx + v[1] * pvy >= BLOCKED_PROGRESS * (pvx * pvx + pvy * pvy);
  }
}

/**
 * Share of its radius a body with shoulders turned along (`ex`, `ey`) (not normalised) reaches
 * in the direction (`hx`, `hy`) (not normalised): the support distance of an ellipse with
 * semi-axes 1 along the walking direction and {@linkcode BODY_DEPTH_SHARE} across it; 1 when
 * the walking direction is unknown.
 */
function _turnedReach(ex: number, ey: number, hx: number, hy: number): number {
  const e2 = ex * ex + ey * ey, h2 = hx * hx + hy * hy;
  if (!(e2 > 0) || !(h2 > 0)) return 1;
  const c2 = ((ex * hx + ey * hy) * (ex * hx + ey * hy)) / (e2 * h2);
  return Math.sqrt(c2 + BODY_DEPTH_SHARE * BODY_DEPTH_SHARE * (1 - c2));
}

/**
 * Whether neighbour j must give way to agent i (see {@linkcode mustGiveWay}; (hx, hy) the unit
 * direction from j to i) yet stood still in the last step instead of backing off: slower than
 * `BLOCKED_PROGRESS` of its preferred speed (one that backs off walks at half of it), as when a
 * wall or the crowd behind leaves it no room.
 */
function _stoodInsteadOfYielding(
  agents: AgentStore,
  j: number,
  i: number,
  hx: number,
  hy: number,
): boolean {
  const qx = agents.prefVx[j], qy = agents.prefVy[j], qSq = qx * qx + qy * qy;
  if (!(qSq > 0)) return false;
  const vx = agents.vx[j], vy = agents.vy[j];
  if (vx * vx + vy * vy >= BLOCKED_PROGRESS * BLOCKED_PROGRESS * qSq) return false;
  const q = Math.sqrt(qSq);
  return mustGiveWay(qx / q, qy / q, hx, hy, agents, j, i);
}

/** Blocked: the chosen velocity `out` makes less than a tenth of the preferred progress. */
function _blocked(out: Float64Array, pvx: number, pvy: number): boolean {
  const wantSq = pvx * pvx + pvy * pvy;
  return wantSq > 0 && out[0] * pvx + out[1] * pvy < BLOCKED_PROGRESS * wantSq;
}

/**
 * Creates the ORCA strategy. Options are validated against {@linkcode ORCA_OPTIONS}; an
 * out-of-range value throws a RangeError naming it.
 *
 * Per-agent parameters come from the agent store: `radius` (r), `maxSpeed` (the radius of the
 * speed disc of the linear program) and the preferred velocity written by navigation.
 *
 * @example Two agents walking head-on pass each other on the right
 * ```ts
 * import { createOrcaStrategy } from "./orca.ts";
 * import { World } from "../core/world.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createOrcaStrategy(), navigator: createGoalSeeker() });
 * const a = world.addAgent({ x: -4, y: 0, goalX: 4, goalY: 0 });
 * const b = world.addAgent({ x: 4, y: 0, goalX: -4, goalY: 0 });
 * let closest = Infinity;
 * while (!world.finished) {
 *   world.step();
 *   const pa = world.agent(a), pb = world.agent(b);
 *   if (!pa || !pb) break;
 *   closest = Math.min(closest, Math.hypot(pa.x - pb.x, pa.y - pb.y));
 *   if (Math.abs(pa.x - pb.x) < 0.05) assert.ok(pa.y < pb.y); // a (heading +x) keeps right
 * }
 * assert.ok(closest >= 0.5 - 1e-3, `closest approach ${closest}`);
 * ```
 */
export function createOrcaStrategy(options: Partial<OrcaOptions> = {}): Strategy {
  const given = resolveOptions("orca strategy", ORCA_OPTIONS, options);
  const resolved = withParameterSet(given, ORCA_OPTIONS, ORCA_PARAMETER_SETS[given.parameters]);
  const solver = new OrcaSolver(resolved);
  return {
    name: "orca",
    neighborRadius: Math.min(resolved.neighborDist, ORCA_GRID_RADIUS),
    computeNewVelocities(ctx: StepContext, begin: number, end: number): void {
      solver.solveRange(ctx, begin, end);
      avoidVehicles(ctx.agents, ctx.vehicles, begin, end, VEHICLE_HORIZON, ctx.grid);
    },
    inspect(world: World, index: number): Record<string, number | string | boolean> {
      const agents = world.agents;
      if (!(Number.isInteger(index) && index >= 0 && index < agents.count)) {
        throw new RangeError(
          `Cannot inspect orca agent as 'index' must be an integer in [0, ${agents.count}): current value is ${index}`,
        );
      }
      const keepX = agents.newVx[index], keepY = agents.newVy[index];
      solver.beginStep(world);
      solver.solveAgent(index);
      const result = {
        neighbors: solver.stats.neighbors,
        obstacleLines: solver.stats.obstacleLines,
        obstacleSegments: solver.stats.obstacleSegments,
        agentLines: solver.stats.lines - solver.stats.obstacleLines,
        feasible: solver.stats.failedLine < 0,
        turned: solver.stats.turned,
        newVx: agents.newVx[index],
        newVy: agents.newVy[index],
      };
      agents.newVx[index] = keepX;
      agents.newVy[index] = keepY;
      return result;
    },
  };
}

/**
 * Registry entry of the `orca` strategy.
 *
 * @example Create it by name with options, as scenario files and `compare` do
 * ```ts
 * import { orcaStrategy } from "./orca.ts";
 * import { StrategyRegistry } from "../core/registry.ts";
 * import assert from "node:assert/strict";
 * const registry = new StrategyRegistry();
 * registry.register(orcaStrategy);
 * const strategy = registry.create("orca", { timeHorizon: 2, maxNeighbors: 6 });
 * assert.equal(strategy.name, "orca");
 * assert.throws(() => registry.create("orca", { timeHorizon: 0 }), RangeError);
 * ```
 */
export const orcaStrategy: StrategyFactory<OrcaOptions> = {
  name: "orca",
  description: "Optimal Reciprocal Collision Avoidance (van den Berg et al. 2011), as in RVO2",
  options: ORCA_OPTIONS,
  create: createOrcaStrategy,
};

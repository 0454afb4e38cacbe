/**
 * The force loop shared by the `social-force` and `repulsion` strategies.
 *
 * Both are force models of the form
 *
 * m dv/dt = m (v⁰ − v) / τ + Σ_j f_ij + Σ_W f_iW
 *
 * with a driving term towards the preferred velocity v⁰ (written by navigation), a pedestrian
 * interaction f_ij and obstacle forces f_iW from every segment within the obstacle search radius.
 * They differ only in the pedestrian interaction (the *kernel*): Helbing's exponential social
 * force, or the inverse-square ("gravity-like") repulsion of the procedural-city pedestrians with
 * its head-on rule and collision flag. Body compression k·g(r_ij − d_ij) and sliding friction
 * κ·g(r_ij − d_ij)·Δv^t (Helbing, Farkas and Vicsek 2000) act on contact in both.
 *
 * **Integration.** The contact terms of HFV 2000 are stiff: k/m = 1500 s⁻², so two agents in
 * contact oscillate at ω = √(2k/m) ≈ 55 rad/s and a forward step of 0.05 s (ω·dt ≈ 2.7 > 2)
 * diverges; the friction (κ·g/m ≈ 150 s⁻¹ at 5 cm overlap) overshoots by a factor of seven.
 * Sub-stepping one agent against frozen neighbours does not help: both agents of a pair still
 * correct the same overlap in the same step, and the pair diverges for any sub-step count.
 * The default step is therefore *linearly implicit in the agent's own velocity*: the driving
 * term, the friction and the normal stiffness K_j = dF_j/dd of every interaction are taken at
 * the new velocity,
 *
 * (m(1 + dt/τ) I + dt² Σ K_j n_j n_jᵀ + dt Σ κ_j t_j t_jᵀ) v' = m v + dt (m v⁰/τ + F),
 *
 * a 2×2 solve per agent (n_j the unit normal, t_j the tangent of interaction j). With the
 * neighbours' state frozen this is a block-Jacobi backward-Euler step, stable for every k, A/B
 * and dt: for a pair, the relative motion is multiplied each step by a matrix of determinant
 * m/(m + dt²k) < 1 and trace inside the stability triangle. The friction coefficient κ_j is the
 * pair's exact implicit rate κg/(1 + 2dt·κg/m): the relative sliding of an isolated pair decays
 * exactly as with both agents solved together, and a crowd moving as one is not held back by
 * the frozen velocities of its members. The forces themselves — the model — are unchanged.
 * `integration: "explicit"` gives the forward step v' = v + dt·F/m of reference codes.
 *
 * **Known side effect.** Unlike the friction, the normal stiffness is taken in the agent's own
 * velocity, not relative to its neighbour's: dt²·K·n nᵀ v' acts as a drag dt·K on the velocity
 * along n even when the neighbour moves the same way, so a dense crowd walking together is
 * braked by an amount that depends on dt. In the one-way ring at 3 /m² with an isotropic field
 * of view (λ = 1, where the social forces cancel on average) the crowd walks at 0.35 m/s, at
 * 1.22 m/s with the explicit step. Taking the social stiffness relative to the neighbours'
 * velocities (dt²·K·n nᵀ v_j on the right-hand side, limited to m in sum) removes it, but moves
 * every figure of `social-force` and `repulsion` (HFV's speed at 2 /m² rises from 0.59 to 0.98
 * m/s, Weidmann 0.61), so the parameter sets chosen on data (`corridor-fitted`, `range-fitted`)
 * are chosen with the step as it is.
 *
 * @module
 */
import { avoidVehicles, VEHICLE_HORIZON } from "../core/vehicles.ts";
import type { AgentStore } from "../core/agent_store.ts";
import type { AgentGrid } from "../core/agent_grid.ts";
import { segmentParameter } from "../core/geometry.ts";
import { NeighbourQuery } from "../core/neighbour_query.ts";
import type { StaticObstacles } from "../core/obstacles.ts";
import type { OptionSpecs } from "../core/options.ts";
import type { StepContext } from "../core/strategy.ts";
import { counterflowAhead, counterflowAmong } from "./_right_of_way.ts";
import { isNarrowOpening, NARROW_MARGIN } from "./_narrow_opening.ts";

export { NARROW_MARGIN };

/**
 * Half the depth of the body (m) that turned shoulders present to the posts of a narrow
 * opening and to the people beside ({@linkcode ForceKernel.turnShoulders}): half the chest depth of adults, about 250 mm
 * for men and women alike (S. Pheasant, C. M. Haslegrave, "Bodyspace", 3rd ed., 2006).
 */
export const TURNED_HALF_DEPTH = 0.125;

/** Whether a point equal to (`x`, `y`) is among the first `m` of `wx`, `wy`. */
function _seenPoint(wx: Float64Array, wy: Float64Array, m: number, x: number, y: number): boolean {
  for (let k = 0; k < m; k++) {
    if (Math.abs(wx[k] - x) < 1e-9 && Math.abs(wy[k] - y) < 1e-9) return true;
  }
  return false;
}

/** How the force is turned into the new velocity. */
export type ForceIntegration = "implicit" | "explicit";

/**
 * The options every force strategy takes (everything but the pedestrian kernel and its search
 * radius), declared once: `social-force` and `repulsion` extend it. Defaults are HFV's.
 */
export interface ForceModelOptions {
  /** τ (s): relaxation time of the driving term. @default 0.5 */
  relaxationTime: number;
  /** m (kg): mass of every agent. @default 80 */
  mass: number;
  /** k (kg/s²): body compression on contact, with pedestrians and obstacles. @default 120000 */
  bodyStiffness: number;
  /** κ (kg/(m·s)): sliding friction on contact, with pedestrians and obstacles. @default 240000 */
  friction: number;
  /** A_W (N): strength of the obstacle force. @default 2000 */
  wallStrength: number;
  /** B_W (m): range of the obstacle force. @default 0.08 */
  wallRange: number;
  /** λ: weight of the pedestrian interaction from behind; 1 is isotropic. @default 0.5 */
  anisotropy: number;
  /** σ: walking-side preference against someone ahead coming the other way; 0 is none. @default 0.3 */
  sidePreference: number;
  /** Obstacle search radius (m). @default 1.05 */
  obstacleRadius: number;
  /** Linearly implicit (stable at 0.05 s) or forward (reference) step. @default "implicit" */
  integration: ForceIntegration;
}

/**
 * Descriptors of {@linkcode ForceModelOptions}, shared by the force strategies.
 *
 * @example
 * ```ts
 * import { FORCE_MODEL_OPTIONS } from "./_force_model.ts";
 * import assert from "node:assert/strict";
 * assert.equal(FORCE_MODEL_OPTIONS.relaxationTime.default, 0.5); // s
 * assert.equal(FORCE_MODEL_OPTIONS.obstacleRadius.default, 1.05); // m
 * ```
 */
export const FORCE_MODEL_OPTIONS: OptionSpecs<ForceModelOptions> = {
  relaxationTime: {
    type: "number",
    default: 0.5,
    min: 0.05,
    max: 10,
    unit: "s",
    doc: "τ: relaxation time of the driving term m(v⁰ − v)/τ; smaller reacts faster (HFV: 0.5)",
  },
  mass: {
    type: "number",
    default: 80,
    min: 10,
    max: 500,
    unit: "kg",
    doc: "m: mass of every agent; forces are divided by it (HFV: 80)",
  },
  bodyStiffness: {
    type: "number",
    default: 1.2e5,
    min: 0,
    max: 1e6,
    unit: "kg/s²",
    doc: "k: body compression k·g(r − d) on contact with pedestrians and obstacles (HFV: 1.2·10⁵)",
  },
  friction: {
    type: "number",
    default: 2.4e5,
    min: 0,
    max: 1e6,
    unit: "kg/(m·s)",
    doc: "κ: sliding friction κ·g(r − d)·Δv^t on contact (HFV: 2.4·10⁵)",
  },
  wallStrength: {
    type: "number",
    default: 2000,
    min: 0,
    max: 1e5,
    unit: "N",
    doc: "A_W: strength of the obstacle force A_W·exp((r − d)/B_W) (HFV: 2000)",
  },
  wallRange: {
    type: "number",
    default: 0.08,
    min: 0.01,
    max: 0.5,
    unit: "m",
    doc: "B_W: range of the obstacle force; keep it under obstacleRadius / 10 (HFV: 0.08)",
  },
  anisotropy: {
    type: "number",
    default: 0.5,
    min: 0,
    max: 1,
    unit: "",
    doc: "λ: weight w = λ + (1 − λ)(1 + cos φ)/2 of the social force from behind; 1 is isotropic",
  },
  sidePreference: {
    type: "number",
    default: 0.3,
    min: 0,
    max: 1,
    unit: "",
    doc: "σ: sideways share of the pedestrian interaction from someone ahead coming the other " +
      "way (weighted by −ê_i·ê_j > 0), towards the world's walking side; breaks the head-on " +
      "deadlock of a symmetric force (0: none)",
  },
  obstacleRadius: {
    type: "number",
    default: 1.05,
    min: 0.1,
    max: 10,
    unit: "m",
    doc: "obstacle search radius: every segment this close pushes (Aleksandrov, Heslop and " +
      "Zlatanova 2021: 1.05 at 0.05 s)",
  },
  integration: {
    type: "enum",
    values: ["implicit", "explicit"],
    default: "implicit",
    doc: "implicit: driving, friction and contact stiffness at the new velocity (stable at " +
      "0.05 s); explicit: v' = v + dt·F/m as in reference codes (needs dt ≲ 0.01 s in contact)",
  },
};

/** Helbing's exponential social force A·exp((r_ij − d_ij)/B). */
export const KERNEL_EXPONENTIAL = 0;
/** Inverse-square repulsion G·((r_ij/d_ij)² − (r_ij/R)²), zero at the search radius R. */
export const KERNEL_INVERSE_SQUARE = 1;

/** Exponents of the exponential force are capped here (e^40 ≈ 2·10¹⁷ N: far beyond any push). */
const MAX_EXPONENT = 40;
/** Centres closer than this (m) count as coincident: the normal then follows the serial order. */
const COINCIDENT = 1e-9;
/** cos 60°: an oncoming neighbour within ±60° of the walking direction is a head-on encounter. */
const ENCOUNTER_COS = 0.5;
/** cos 45°: a neighbour or wall within ±45° of a side normal occupies that side. */
const BLOCK_COS = 0.7071;
/**
 * Radius (m) within which someone ahead coming the other way makes an agent keep to its walking
 * side with respect to everyone ahead (about four seconds of walking, ORCA's default neighbour
 * distance: people see an oncoming crowd before it reaches them).
 */
const COUNTERFLOW_RADIUS = 5;
/** cos² 45°: a neighbour whose desired direction is within ±45° of one's own walks the same way. */
const SAME_WAY_COS2 = 0.5;
/** Lateral offset (fraction of r_ij) under which an encounter counts as exactly head-on. */
const ALIGNED_FRACTION = 0.05;

/**
 * The head-on rule and collision flag of the procedural-city pedestrians (F. Gennari,
 * Procedural City: Pedestrian Updates + Navigation, 3DWorld blog, 2019): the lower serial dodges
 * head-on, blocked agents probe sideways.
 */
export interface HeadOnRule {
  /** Sideways force of the dodger as a multiple of the repulsion. */
  readonly dodgeGain: number;
  /** Surface gap (m) under which a neighbour or wall occupies a probing agent's side. */
  readonly blockDistance: number;
  /** Speed (m/s) under which an agent counts as standing. */
  readonly stopSpeed: number;
  /** Sideways probing speed as a fraction of the preferred speed. */
  readonly probeSpeedRatio: number;
  /** Name of the i32 column holding the collision flag (0 free, +1 left, −1 right). */
  readonly column: string;
}

/** What one force strategy puts on top of {@linkcode ForceModelOptions}: its pedestrian kernel. */
export interface ForceKernel {
  /** {@linkcode KERNEL_EXPONENTIAL} or {@linkcode KERNEL_INVERSE_SQUARE}. */
  readonly kernel: number;
  /** A (N): strength of the pedestrian interaction (G for the inverse-square kernel). */
  readonly strength: number;
  /** B (m): range of the exponential kernel (unused by the inverse-square kernel). */
  readonly range: number;
  /** Pedestrian search radius (m); R of the inverse-square kernel. */
  readonly neighborRadius: number;
  /** The head-on rule, or null for none. */
  readonly headOn: HeadOnRule | null;
  /**
   * The summed pedestrian interaction (without the contact forces) from people walking the same
   * way (desired directions within ±45°) may stop an agent but never make it walk backwards
   * against its desired direction: as much of its backward component is taken back as would give
   * the new velocity a backward component. Contact and wall forces, and the push of someone
   * coming the other way or crossing, are not limited. @default false
   */
  readonly noBackwardPush?: boolean;
  /**
   * Margin (m) on each side of the shoulders under which an opening counts as narrow (people
   * turn their shoulders and slip through; see `#walls`). @default NARROW_MARGIN (0.1)
   */
  readonly openingMargin?: number;
  /**
   * In a narrow opening the shoulders turn: the obstacle forces act on the body's half depth
   * ({@linkcode TURNED_HALF_DEPTH}) instead of its radius where that is smaller, the pedestrian
   * interactions on an ellipse (the radius along the walking direction, the half depth across
   * it), and only someone whose centre stands in front of the gap between the two posts (not
   * beside it) counts as in the opening. @default false
   */
  readonly turnShoulders?: boolean;
}

/** Resolved numeric parameters of the force model, flat for the force loop. */
export interface ForceModelParams {
  /** {@linkcode KERNEL_EXPONENTIAL} or {@linkcode KERNEL_INVERSE_SQUARE}. */
  readonly kernel: number;
  /** A (N): strength of the pedestrian interaction (G for the inverse-square kernel). */
  readonly strength: number;
  /** B (m): range of the exponential kernel (unused by the inverse-square kernel). */
  readonly range: number;
  /** A_W (N): strength of the obstacle force. */
  readonly wallStrength: number;
  /** B_W (m): range of the obstacle force. */
  readonly wallRange: number;
  /** k (kg/s²): body compression on contact. */
  readonly bodyStiffness: number;
  /** κ (kg/(m·s)): sliding friction on contact. */
  readonly friction: number;
  /** m (kg). */
  readonly mass: number;
  /** τ (s): relaxation time of the driving term. */
  readonly relaxationTime: number;
  /** λ: weight of interactions from behind (1 = isotropic). */
  readonly anisotropy: number;
  /** σ: walking-side preference against oncoming pedestrians (0 = none). */
  readonly sidePreference: number;
  /** Pedestrian search radius (m). */
  readonly neighborRadius: number;
  /** Obstacle search radius (m). */
  readonly obstacleRadius: number;
  /** Linearly implicit step (true) or forward step (false). */
  readonly implicit: boolean;
  /** The head-on rule (see {@linkcode HeadOnRule}) is on. */
  readonly headOnRule: boolean;
  /** Sideways force of the dodger as a multiple of the repulsion (head-on rule only). */
  readonly dodgeGain: number;
  /** Surface gap (m) under which a neighbour or wall occupies a probing agent's side. */
  readonly blockDistance: number;
  /** Speed (m/s) under which an agent counts as standing (head-on rule only). */
  readonly stopSpeed: number;
  /** Sideways probing speed as a fraction of the preferred speed (head-on rule only). */
  readonly probeSpeedRatio: number;
  /** The pedestrian interaction (without contact) never makes an agent walk backwards. */
  readonly noBackwardPush: boolean;
  /** Margin (m) on each side of the shoulders under which an opening counts as narrow. */
  readonly openingMargin: number;
  /** Shoulders turn in narrow openings (see {@linkcode ForceKernel.turnShoulders}). */
  readonly turnShoulders: boolean;
}

/**
 * The parameters of the force loop from the shared options and a strategy's kernel: the one
 * place where options become model parameters.
 *
 * @example The social force's parameters
 * ```ts
 * import { FORCE_MODEL_OPTIONS, forceModelParams, KERNEL_EXPONENTIAL } from "./_force_model.ts";
 * import { resolveOptions } from "../core/options.ts";
 * import assert from "node:assert/strict";
 * const options = resolveOptions("example", FORCE_MODEL_OPTIONS, { mass: 70 });
 * const kernel = { kernel: KERNEL_EXPONENTIAL, strength: 2000, range: 0.08, neighborRadius: 1.25, headOn: null };
 * const params = forceModelParams(options, kernel);
 * assert.equal(params.mass, 70);
 * assert.equal(params.implicit, true);
 * assert.equal(params.headOnRule, false);
 * ```
 */
export function forceModelParams(
  options: ForceModelOptions,
  kernel: ForceKernel,
): ForceModelParams {
  const headOn = kernel.headOn;
  return {
    kernel: kernel.kernel,
    strength: kernel.strength,
    range: kernel.range,
    wallStrength: options.wallStrength,
    wallRange: options.wallRange,
    bodyStiffness: options.bodyStiffness,
    friction: options.friction,
    mass: options.mass,
    relaxationTime: options.relaxationTime,
    anisotropy: options.anisotropy,
    sidePreference: options.sidePreference,
    neighborRadius: kernel.neighborRadius,
    obstacleRadius: options.obstacleRadius,
    implicit: options.integration === "implicit",
    headOnRule: headOn !== null,
    dodgeGain: headOn?.dodgeGain ?? 0,
    blockDistance: headOn?.blockDistance ?? 0,
    stopSpeed: headOn?.stopSpeed ?? 0,
    probeSpeedRatio: headOn?.probeSpeedRatio ?? 0,
    noBackwardPush: kernel.noBackwardPush ?? false,
    openingMargin: kernel.openingMargin ?? NARROW_MARGIN,
    turnShoulders: kernel.turnShoulders ?? false,
  };
}

/**
 * What the force loop reads from a step: the frozen state and the world's settings. A
 * {@linkcode StepContext} is one, and so is a `World` (for inspection between steps).
 */
export type ForceContext = Pick<
  StepContext,
  "agents" | "grid" | "obstacles" | "dt" | "walkingSide" | "vehicles"
>;

/** Slots of the per-agent accumulator. */
const FX = 0, FY = 1, DIAG = 2, SXX = 3, SXY = 4, SYY = 5;
/** Side occupancy for the head-on rule: nearest surface gaps to the left and to the right (m). */
const LEFT_GAP = 6, RIGHT_GAP = 7;
/**
 * Sum of the social (not contact) pedestrian interactions from people walking the same way:
 * the part the backward limit may take back (one steps back for someone oncoming or crossing).
 */
const SOCIAL_X = 8, SOCIAL_Y = 9;
const ACC_SIZE = 10;

/** The forces on one agent, split by origin (N), for inspection. */
export interface ForceBreakdown {
  /** Driving term m(v⁰ − v)/τ, x. */
  drivingX: number;
  /** Driving term, y. */
  drivingY: number;
  /** Sum of the pedestrian interactions, x. */
  pedestrianX: number;
  /** Sum of the pedestrian interactions, y. */
  pedestrianY: number;
  /** Sum of the obstacle forces, x. */
  obstacleX: number;
  /** Sum of the obstacle forces, y. */
  obstacleY: number;
  /** Neighbours within the pedestrian search radius. */
  neighbors: number;
  /** Segments within the obstacle search radius. */
  segments: number;
}

/**
 * The shared force loop. One instance per strategy instance; it owns its query buffers, so a
 * step allocates nothing once they have grown to the largest neighbourhood.
 *
 * @example A lone agent is driven towards its preferred velocity
 * ```ts
 * import { FORCE_MODEL_OPTIONS, ForceModel, KERNEL_EXPONENTIAL } from "./_force_model.ts";
 * import { resolveOptions } from "../core/options.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "./none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0 });
 * world.agents.prefVx[0] = 1.3;
 * world.prepare();
 * const options = resolveOptions("example", FORCE_MODEL_OPTIONS, {});
 * const kernel = { kernel: KERNEL_EXPONENTIAL, strength: 2000, range: 0.08, neighborRadius: 1.25, headOn: null };
 * const model = new ForceModel(options, kernel);
 * assert.ok(Math.abs(model.forcesOf(world, 0).drivingX - 80 * 1.3 / 0.5) < 1e-9); // m v⁰ / τ
 * ```
 */
export class ForceModel {
  /** The parameters. */
  readonly params: ForceModelParams;

  /** The options and kernel the parameters came from (`forcesOf` derives a model from them). */
  readonly #options: ForceModelOptions;
  readonly #kernel: ForceKernel;
  /** Name of the collision-flag column of the head-on rule, or null without the rule. */
  readonly #blockedColumn: string | null;
  #neighbors = new NeighbourQuery();
  #segments = new NeighbourQuery();
  /** Agent being computed stands in a narrow opening with turned shoulders (`#turnedIn`). */
  #turned = false;
  /**
   * Agent whose obstacle segments `#turnedIn` has just gathered (-1: none), with what it found:
   * `#walls` then reads them instead of gathering and testing them again.
   */
  #queried = -1;
  #queriedCount = 0;
  #queriedInside = -1;
  #queriedNarrow = false;
  /** Scratch: nearest wall point per segment found (m). */
  #wallX = new Float64Array(16);
  #wallY = new Float64Array(16);
  #counterflowQuery = new NeighbourQuery();
  #acc = new Float64Array(ACC_SIZE);
  #vehicleScratch = new Float64Array(2);
  /** Field of view of the current agent: ex, ey, wA, wB (see `#viewFrame`). */
  #frame = new Float64Array(4);
  /** 1/R² of the pedestrian search radius R (1/m²). */
  #invR2: number;
  // Bound at the start of every call: the store replaces its arrays when it grows.
  #agents!: AgentStore;
  #grid!: AgentGrid;
  #obstacles!: StaticObstacles;
  #dt = 0.05;
  /** +1 when the walking side is the left, −1 for the right (multiplies the left normal). */
  #sideSign = -1;
  /**
   * Whether the agent being solved stands in a counter-flow (see `#sideShare`): 1 yes, 0 no, −1
   * not looked up yet (looked up once per agent, and only when someone is ahead).
   */
  #counterflow = -1;

  /**
   * @param options the shared options, resolved
   * @param kernel the strategy's pedestrian interaction
   */
  constructor(options: ForceModelOptions, kernel: ForceKernel) {
    this.params = forceModelParams(options, kernel);
    this.#options = options;
    this.#kernel = kernel;
    this.#blockedColumn = kernel.headOn?.column ?? null;
    this.#invR2 = 1 / (kernel.neighborRadius * kernel.neighborRadius);
  }

  /** Writes `newVx`/`newVy` for agents `begin … end-1` (the strategy contract). */
  computeNewVelocities(ctx: ForceContext, begin: number, end: number): void {
    this.#bind(ctx);
    const blocked = this.#blockedColumn === null
      ? null
      : ctx.agents.column<Int32Array>(this.#blockedColumn);
    const p = this.params, acc = this.#acc, frame = this.#frame, dt = this.#dt;
    const agents = this.#agents, vx = agents.vx, vy = agents.vy;
    const prefVx = agents.prefVx,
      prefVy = agents.prefVy,
      newVx = agents.newVx,
      newVy = agents.newVy;
    const m = p.mass, invTau = 1 / p.relaxationTime;
    const implicit = p.implicit ? 1 : 0, explicitV = 1 - implicit;
    const hasWalls = this.#obstacles.segmentCount > 0;
    // Agents with no segment within the obstacle search radius skip the wall query.
    const wallGrid = this.#obstacles.grid, obstacleRadius = p.obstacleRadius;
    const mDiag = m * (1 + implicit * dt * invTau), noBackwardPush = p.noBackwardPush;
    const vehicles = ctx.vehicles, away = this.#vehicleScratch;
    const withVehicles = vehicles !== undefined && vehicles.count > 0;
    if (withVehicles) {
      // Cars push within 6 B_W of the body: map where that can be, skip the query elsewhere.
      let rMax = 0;
      for (let i = begin; i < end; i++) if (!(agents.radius[i] <= rMax)) rMax = agents.radius[i];
      vehicles.prepareReach(rMax + 6 * p.wallRange, 0);
    }
    // The whole range in grid order: neighbours' data is then likely still cached. Each agent's
    // velocity depends on the state before the step only, so the order does not change it.
    const grid = this.#grid;
    const order = begin === 0 && end === agents.count && grid.count === end
      ? grid.sortedIndex
      : null;
    for (let k = begin; k < end; k++) {
      const i = order === null ? k : order[k];
      const vxi = vx[i], vyi = vy[i];
      let tvx = prefVx[i], tvy = prefVy[i];
      this.#viewFrame(i, frame);
      const ex = frame[0], ey = frame[1];
      for (let k = 0; k < ACC_SIZE; k++) acc[k] = 0; // cheaper than fill() per agent
      acc[LEFT_GAP] = acc[RIGHT_GAP] = Infinity;
      this.#queried = -1;
      // One look-up in the walls' clearance map serves the shoulder test and the wall forces.
      const nearWall = hasWalls && !wallGrid.isClear(agents.px[i], agents.py[i], obstacleRadius);
      this.#turned = p.turnShoulders && nearWall && this.#turnedIn(i);
      this.#pedestrians(i, acc);
      if (blocked !== null) {
        // Held back: the pedestrian forces oppose at least half the driving force at rest.
        const preferredSpeed = Math.sqrt(tvx * tvx + tvy * tvy);
        const held = -(acc[FX] * ex + acc[FY] * ey) > 0.5 * m * preferredSpeed * invTau;
        if (nearWall) this.#walls(i, acc);
        const side = this.#updateBlocked(i, preferredSpeed, held, blocked, acc);
        if (side !== 0) {
          // Probe sideways along the line instead of pushing on.
          const s = p.probeSpeedRatio * preferredSpeed;
          tvx = -side * ey * s;
          tvy = side * ex * s;
        }
      } else if (nearWall) {
        this.#walls(i, acc);
      }
      if (withVehicles && vehicles.mayReach(agents.px[i], agents.py[i])) {
        // Cars push like walls, from the nearest point of their rectangle.
        const r = agents.radius[i];
        vehicles.repulsion(agents.px[i], agents.py[i], r, p.wallStrength, p.wallRange, acc, away);
      }
      // ((m(1 + dt/τ) + D) I + S) v' = m v + dt (m v⁰/τ + F); the forward step has D = S = 0.
      const rx = m * vxi + dt * (m * (tvx - explicitV * vxi) * invTau + acc[FX]);
      const ry = m * vyi + dt * (m * (tvy - explicitV * vyi) * invTau + acc[FY]);
      const d = mDiag + acc[DIAG];
      const a11 = d + acc[SXX], a12 = acc[SXY], a22 = d + acc[SYY];
      const inv = 1 / (a11 * a22 - a12 * a12);
      let nvx = (a22 * rx - a12 * ry) * inv, nvy = (a11 * ry - a12 * rx) * inv;
      const back = nvx * ex + nvy * ey, social = acc[SOCIAL_X] * ex + acc[SOCIAL_Y] * ey;
      if (noBackwardPush && back < 0 && social < 0 && (prefVx[i] !== 0 || prefVy[i] !== 0)) {
        // Walking backwards against the desired direction (ex, ey): take back as much of the
        // social force's backward component as brings the new velocity along it to zero. The
        // system is linear: adding δ·e to F changes v' by dt·δ·M⁻¹e.
        const ux = (a22 * ex - a12 * ey) * inv, uy = (a11 * ey - a12 * ex) * inv;
        const gain = dt * (ux * ex + uy * ey);
        if (gain > 0) {
          const delta = Math.min(-back / gain, -social);
          nvx += dt * delta * ux;
          nvy += dt * delta * uy;
        }
      }
      newVx[i] = nvx;
      newVy[i] = nvy;
    }
    avoidVehicles(agents, vehicles, begin, end, VEHICLE_HORIZON, grid);
  }

  /**
   * The forces on agent `index` split by origin, from the state in `ctx` (a world between
   * steps). For debug views and tests; allocates.
   */
  forcesOf(ctx: ForceContext, index: number): ForceBreakdown {
    const p = this.params, agents = ctx.agents;
    const vxi = agents.vx[index], vyi = agents.vy[index];
    // Forces proper, without the implicit treatment of the velocity terms.
    const model = new ForceModel({ ...this.#options, integration: "explicit" }, this.#kernel);
    model.#bind(ctx);
    model.#viewFrame(index, model.#frame);
    const ped = new Float64Array(ACC_SIZE);
    ped[LEFT_GAP] = ped[RIGHT_GAP] = Infinity;
    model.#queried = -1;
    model.#turned = p.turnShoulders && ctx.obstacles.segmentCount > 0 && model.#turnedIn(index);
    const neighbors = model.#pedestrians(index, ped);
    const wall = new Float64Array(ACC_SIZE);
    const segments = ctx.obstacles.segmentCount > 0 ? model.#walls(index, wall) : 0;
    const k = p.mass / p.relaxationTime;
    return {
      drivingX: k * (agents.prefVx[index] - vxi),
      drivingY: k * (agents.prefVy[index] - vyi),
      pedestrianX: ped[FX],
      pedestrianY: ped[FY],
      obstacleX: wall[FX],
      obstacleY: wall[FY],
      neighbors,
      segments,
    };
  }

  #bind(ctx: ForceContext): void {
    this.#agents = ctx.agents;
    this.#grid = ctx.grid;
    this.#obstacles = ctx.obstacles;
    this.#dt = ctx.dt;
    this.#sideSign = ctx.walkingSide === "left" ? 1 : -1;
  }

  /**
   * Writes agent `i`'s field of view into `out`: the unit direction (ex, ey) — the desired
   * direction, else the walking direction, else none (0, 0) — and wA, wB with
   * w(φ) = wB + wA·cos φ = λ + (1 − λ)(1 + cos φ)/2 (isotropic, w = 1, without a direction).
   */
  #viewFrame(i: number, out: Float64Array): void {
    const a = this.#agents;
    let ex = a.prefVx[i], ey = a.prefVy[i], es = Math.sqrt(ex * ex + ey * ey);
    if (!(es > 1e-9)) {
      ex = a.vx[i];
      ey = a.vy[i];
      es = Math.sqrt(ex * ex + ey * ey);
    }
    if (es > 1e-9) {
      const lambda = this.params.anisotropy;
      out[0] = ex / es;
      out[1] = ey / es;
      out[2] = 0.5 * (1 - lambda);
      out[3] = 0.5 * (1 + lambda);
    } else {
      out[0] = out[1] = out[2] = 0;
      out[3] = 1;
    }
  }

  /**
   * Adds the pedestrian interactions on agent `i` to `acc` (force, implicit matrix, blocking
   * information) and returns the number of neighbours. The field of view is `#frame` (see
   * `#viewFrame`): the unit direction (ex, ey), 0 when there is none, and w(φ) = wB + wA·cos φ.
   *
   * Longer than our usual functions, on purpose: it is the strategy's innermost loop, and its
   * per-pair terms (kernel, walking side, head-on rule, contact, implicit matrix) share a dozen
   * intermediate values (n, g, w·f, cos φ) that calls would pass back and forth for every pair.
   */
  #pedestrians(i: number, acc: Float64Array): number {
    const p = this.params, a = this.#agents, frame = this.#frame;
    const ex = frame[0], ey = frame[1], wA = frame[2], wB = frame[3];
    const px = a.px, py = a.py, vx = a.vx, vy = a.vy, radius = a.radius, serial = a.serial;
    const xi = px[i], yi = py[i], vxi = vx[i], vyi = vy[i], ri = radius[i], si = serial[i];
    const count = this.#neighbors.agents(this.#grid, xi, yi, p.neighborRadius, i);
    const nb = this.#neighbors.found;
    const exponential = p.kernel === KERNEL_EXPONENTIAL, headOnRule = p.headOnRule;
    const A = p.strength, invB = 1 / p.range, invR2 = this.#invR2;
    const k = p.bodyStiffness, kappa = p.friction;
    const dt = this.#dt, dt2 = dt * dt, dt2m = 2 * dt / p.mass;
    const implicit = p.implicit ? 1 : 0, explicitV = 1 - implicit;
    // Walking-side normal of the desired direction, scaled by σ (zero without a direction).
    const sideSign = this.#sideSign;
    const sideX = -sideSign * ey, sideY = sideSign * ex, sigma = p.sidePreference;
    this.#counterflow = -1;
    const blockDistance = p.blockDistance, stopSpeed = p.stopSpeed, dodgeGain = p.dodgeGain;
    const noBackwardPush = p.noBackwardPush;
    const turned = this.#turned && TURNED_HALF_DEPTH < ri, hd = TURNED_HALF_DEPTH;
    let fx = 0, fy = 0, diag = 0, sxx = 0, sxy = 0, syy = 0, socialX = 0, socialY = 0;
    for (let m = 0; m < count; m++) {
      const j = nb[m];
      const dx = xi - px[j], dy = yi - py[j];
      let d = Math.sqrt(dx * dx + dy * dy), nx: number, ny: number;
      if (d > COINCIDENT) {
        nx = dx / d;
        ny = dy / d;
      } else {
        // Coincident centres: push apart along x, the lower serial to the left.
        d = 0;
        nx = si < serial[j] ? -1 : 1;
        ny = 0;
      }
      let rij = ri + radius[j];
      if (turned) {
        // Turned shoulders: an ellipse, the shoulders' half breadth ri along the walking
        // direction and the half depth across it, seen in the direction of j.
        const c = nx * ex + ny * ey, s2 = 1 - c * c;
        rij = ri * hd / Math.sqrt(hd * hd * c * c + ri * ri * (s2 > 0 ? s2 : 0)) + radius[j];
      }
      const gap = rij - d, g = gap > 0 ? gap : 0;
      let fs: number, ks: number;
      if (exponential) {
        const x = gap * invB;
        fs = A * Math.exp(x < MAX_EXPONENT ? x : MAX_EXPONENT);
        ks = fs * invB;
      } else {
        // Inverse-square law shifted to vanish at R; capped at d = r_ij/10 (coincident centres).
        const de = d > 0.1 * rij ? d : 0.1 * rij,
          q = rij / de,
          q2 = q * q,
          shift = rij * rij * invR2;
        fs = q2 > shift ? A * (q2 - shift) : 0;
        ks = 2 * A * q2 / de;
      }
      const cosPhi = -(nx * ex + ny * ey);
      const wfs = fs * (wB + wA * cosPhi);
      let sx = wfs * nx, sy = wfs * ny;
      if (cosPhi > 0 && sigma > 0) {
        // Walking-side preference, strongest straight ahead (see `#sideShare`).
        const o = this.#sideShare(i, j, ex, ey);
        if (o > 0) {
          const f = sigma * wfs * cosPhi * o;
          sx += f * sideX;
          sy += f * sideY;
        }
      }
      if (headOnRule) {
        const vjx = vx[j], vjy = vy[j];
        if (cosPhi > ENCOUNTER_COS && vjx * ex + vjy * ey < -stopSpeed) {
          // j comes at i within ±60° ahead: the higher serial holds its line (only brakes), the
          // lower one dodges sideways, away from j, or to the walking side when exactly aligned.
          const lon = sx * ex + sy * ey;
          if (si > serial[j]) {
            sx = lon * ex;
            sy = lon * ey;
          } else {
            // Lateral offset of j from i's line (> 0: j is on the left).
            const lat = -(ex * dy - ey * dx), aligned = ALIGNED_FRACTION * rij;
            const dir = lat > aligned ? -1 : lat < -aligned ? 1 : sideSign;
            const dodge = dodgeGain * wfs;
            sx = lon * ex - dir * dodge * ey;
            sy = lon * ey + dir * dodge * ex;
          }
        }
        if (-gap < blockDistance) _occupySide(acc, -gap, nx, ny, ex, ey);
      }
      // Body compression along n and sliding friction along t = (−n_y, n_x).
      // Friction coefficient κ·g; the implicit step uses the pair's exact rate κg/(1 + 2dtκg/m),
      // so that one contact never holds more than half the agent's momentum against a neighbour
      // whose velocity is frozen (with the full κg a crowd moving together would lag behind).
      const kg = kappa * g, kf = implicit === 1 ? kg / (1 + dt2m * kg) : kg;
      const tx = -ny, ty = nx;
      const dvt = (vx[j] - explicitV * vxi) * tx + (vy[j] - explicitV * vyi) * ty;
      const fn = k * g, ft = kf * dvt;
      fx += sx + fn * nx + ft * tx;
      fy += sy + fn * ny + ft * ty;
      const pjx = a.prefVx[j], pjy = a.prefVy[j], along = pjx * ex + pjy * ey;
      if (noBackwardPush && along > 0 && along * along > SAME_WAY_COS2 * (pjx * pjx + pjy * pjy)) {
        // From someone walking the same way: the part the backward limit may take back.
        socialX += sx;
        socialY += sy;
      }
      // Implicit part: dt²·K·n nᵀ + dt·κ_f·(I − n nᵀ).
      const damp = dt * kf;
      const c = implicit * (dt2 * (ks * (wB + wA * cosPhi) + (g > 0 ? k : 0)) - damp);
      diag += implicit * damp;
      sxx += c * nx * nx;
      sxy += c * nx * ny;
      syy += c * ny * ny;
    }
    acc[FX] += fx;
    acc[FY] += fy;
    acc[DIAG] += diag;
    acc[SXX] += sxx;
    acc[SXY] += sxy;
    acc[SYY] += syy;
    acc[SOCIAL_X] += socialX;
    acc[SOCIAL_Y] += socialY;
    return count;
  }

  /**
   * o_ij of the walking-side preference of agent i (desired direction (ex, ey)) against a
   * neighbour j ahead: max(0, −ê_i·ê_j) of the two desired directions (1 head-on); in a
   * counter-flow (someone ahead within `COUNTERFLOW_RADIUS` comes the other way) 1 for everyone
   * ahead, as people keep to their side before the oncoming crowd reaches them. Otherwise people
   * walking the same way, crossing or standing do not count: a crowd converging on a door would
   * drift into the corner on its walking side.
   */
  #sideShare(i: number, j: number, ex: number, ey: number): number {
    if (this.#counterflow < 0) {
      // Someone among the neighbours found (all within the counter-flow radius) settles it.
      const nb = this.#neighbors;
      const ahead = (this.params.neighborRadius <= COUNTERFLOW_RADIUS &&
        counterflowAmong(this.#agents, i, nb.found, nb.count)) ||
        counterflowAhead(this.#agents, this.#grid, i, COUNTERFLOW_RADIUS, this.#counterflowQuery);
      this.#counterflow = ahead ? 1 : 0;
    }
    if (this.#counterflow === 1) return 1;
    const pjx = this.#agents.prefVx[j], pjy = this.#agents.prefVy[j];
    const along = pjx * ex + pjy * ey;
    return along < 0 ? -along / Math.sqrt(pjx * pjx + pjy * pjy) : 0;
  }

  /**
   * Adds the forces of every obstacle segment within the obstacle search radius of agent `i`
   * (nearest point on each segment) to `acc`; returns the number of segments. A vertex shared by
   * two chained segments counts once, so a straight wall split in pieces pushes like one wall,
   * and so does a wall end that another piece touches. In a narrow opening (`#narrowPassage`)
   * the exponential term loses its component against the desired direction.
   */
  #walls(i: number, acc: Float64Array): number {
    const p = this.params, a = this.#agents, o = this.#obstacles;
    const xi = a.px[i], yi = a.py[i], vxi = a.vx[i], vyi = a.vy[i], ri = a.radius[i];
    // Gathered already by `#turnedIn` for this agent, or the segment grid itself (`segments`
    // would reach it through two more calls per agent).
    const gathered = this.#queried === i;
    this.#queried = -1;
    const count = gathered
      ? this.#queriedCount
      : this.#segments.segments(o.grid, xi, yi, p.obstacleRadius);
    const segs = this.#segments.found;
    const ax = o.ax, ay = o.ay, bx = o.bx, by = o.by, prev = o.prev, solidLeft = o.solidLeft;
    const Aw = p.wallStrength, invBw = 1 / p.wallRange, k = p.bodyStiffness, kappa = p.friction;
    const dt = this.#dt, dt2 = dt * dt;
    const implicit = p.implicit ? 1 : 0, explicitV = 1 - implicit;
    const headOnRule = p.headOnRule, blockDistance = p.blockDistance;
    const pvx = a.prefVx[i], pvy = a.prefVy[i], ps = Math.sqrt(pvx * pvx + pvy * pvy);
    const ex = ps > 1e-9 ? pvx / ps : 0, ey = ps > 1e-9 ? pvy / ps : 0;
    const inside = gathered ? this.#queriedInside : this.#insideSolid(count, xi, yi);
    if (this.#wallX.length < count) {
      this.#wallX = new Float64Array(2 * count);
      this.#wallY = new Float64Array(2 * count);
    }
    const wx = this.#wallX, wy = this.#wallY;
    const narrow = gathered
      ? this.#queriedNarrow
      : this.#narrowPassage(count, xi, yi, ri, ex, ey, inside);
    // Turned shoulders present the body's half depth to the posts.
    const body = narrow && p.turnShoulders && TURNED_HALF_DEPTH < ri ? TURNED_HALF_DEPTH : ri;
    let fx = 0, fy = 0, diag = 0, sxx = 0, sxy = 0, syy = 0;
    for (let m = 0; m < count; m++) {
      wx[m] = NaN;
      const s = segs[m];
      const x0 = ax[s], y0 = ay[s], ux = bx[s] - x0, uy = by[s] - y0;
      const cross = ux * (yi - y0) - uy * (xi - x0); // > 0: the agent is on the left
      const backFacing = solidLeft[s] === 1 && cross > 0;
      if (backFacing && s !== inside) continue; // the far side of a solid polygon
      const t = segmentParameter(xi, yi, x0, y0, bx[s], by[s]);
      if (t === 0 && prev[s] >= 0 && !backFacing) continue; // the previous segment owns vertex a
      const qx = x0 + t * ux, qy = y0 + t * uy;
      // A wall end that another wall piece merely touches (a channel wall at a door post) counts
      // once: the nearest point of the corner, not one per piece.
      if ((t === 0 || t === 1) && !backFacing && _seenPoint(wx, wy, m, qx, qy)) continue;
      wx[m] = qx;
      wy[m] = qy;
      const dx = xi - qx, dy = yi - qy;
      let d = Math.sqrt(dx * dx + dy * dy), nx: number, ny: number;
      if (backFacing) {
        // Inside a solid polygon: push out through this edge (outward normal = right of it).
        const len = Math.sqrt(ux * ux + uy * uy);
        nx = uy / len;
        ny = -ux / len;
        d = -d;
      } else if (d > COINCIDENT) {
        nx = dx / d;
        ny = dy / d;
      } else {
        // On the line of a two-sided wall: back to the side the agent comes from.
        const len = Math.sqrt(ux * ux + uy * uy);
        nx = -uy / len;
        ny = ux / len;
        if (vxi * nx + vyi * ny > 0) {
          nx = -nx;
          ny = -ny;
        }
        d = 0;
      }
      const gap = body - d, g = gap > 0 ? gap : 0;
      const x = gap * invBw;
      const fw = Aw * Math.exp(x < MAX_EXPONENT ? x : MAX_EXPONENT);
      const tx = -ny, ty = nx;
      const ft = -kappa * g * explicitV * (vxi * tx + vyi * ty);
      const fn = fw + k * g;
      fx += fn * nx + ft * tx;
      fy += fn * ny + ft * ty;
      if (narrow) {
        // Shoulders turned into an opening barely wider than them: no distance kept against
        // the walking direction (contact and friction stay).
        const along = nx * ex + ny * ey;
        if (along < 0) {
          fx -= fw * along * ex;
          fy -= fw * along * ey;
        }
      }
      const damp = dt * kappa * g;
      const c = implicit * (dt2 * (fw * invBw + (g > 0 ? k : 0)) - damp);
      diag += implicit * damp;
      sxx += c * nx * nx;
      sxy += c * nx * ny;
      syy += c * ny * ny;
      if (headOnRule && -gap < blockDistance) _occupySide(acc, -gap, nx, ny, ex, ey);
    }
    acc[FX] += fx;
    acc[FY] += fy;
    acc[DIAG] += diag;
    acc[SXX] += sxx;
    acc[SXY] += sxy;
    acc[SYY] += syy;
    return count;
  }

  /**
   * Whether an agent at (`xi`, `yi`) of radius `ri` walking along (`ex`, `ey`) stands in or just
   * before an opening narrower than its shoulders plus the opening margin (default
   * {@linkcode NARROW_MARGIN}) on each side: the nearest points of two of the first `count`
   * segments found lie on either side of its walking line, neither behind its back, on segments
   * that do not share an end (which would be a corner), the first within 2·(ri + NARROW_MARGIN)
   * and both less than 2·(ri + margin) apart; with turned shoulders, its centre also stands in
   * front of the gap between them.
   * Fills the scratch nearest points, which `#walls` then rewrites.
   */
  #narrowPassage(
    count: number,
    xi: number,
    yi: number,
    ri: number,
    ex: number,
    ey: number,
    inside: number,
  ): boolean {
    if (inside >= 0) return false;
    return isNarrowOpening(
      this.#obstacles,
      this.#segments.found,
      count,
      xi,
      yi,
      ri,
      ex,
      ey,
      this.#wallX,
      this.#wallY,
      this.params.openingMargin,
      this.params.turnShoulders,
    );
  }

  /**
   * Whether agent `i` stands in or just before a narrow opening (`#narrowPassage`), from its
   * own query of the obstacle segments (before `#walls` runs, which reuses the query).
   */
  #turnedIn(i: number): boolean {
    const a = this.#agents, xi = a.px[i], yi = a.py[i];
    const pvx = a.prefVx[i], pvy = a.prefVy[i], ps = Math.sqrt(pvx * pvx + pvy * pvy);
    if (!(ps > 1e-9)) return false;
    const count = this.#segments.segments(this.#obstacles.grid, xi, yi, this.params.obstacleRadius);
    if (this.#wallX.length < count) {
      this.#wallX = new Float64Array(2 * count);
      this.#wallY = new Float64Array(2 * count);
    }
    const inside = this.#insideSolid(count, xi, yi);
    const narrow = this.#narrowPassage(count, xi, yi, a.radius[i], pvx / ps, pvy / ps, inside);
    this.#queried = i;
    this.#queriedCount = count;
    this.#queriedInside = inside;
    this.#queriedNarrow = narrow;
    return narrow;
  }

  /**
   * The solid segment among the first `count` found whose polygon holds (`xi`, `yi`), or -1.
   * Solid polygons are one-sided: the agent is inside one only when the nearest solid segment
   * has it on its solid (left) side. Far edges of a nearby pillar also have the agent on their
   * left, so that test alone would pull agents into small polygons; they are skipped instead.
   */
  #insideSolid(count: number, xi: number, yi: number): number {
    const o = this.#obstacles, segs = this.#segments.found;
    const ax = o.ax, ay = o.ay, bx = o.bx, by = o.by, solidLeft = o.solidLeft;
    let inside = -1, nearestSolid = Infinity;
    for (let m = 0; m < count; m++) {
      const s = segs[m];
      if (solidLeft[s] !== 1) continue;
      const x0 = ax[s], y0 = ay[s], ux = bx[s] - x0, uy = by[s] - y0;
      const t = segmentParameter(xi, yi, x0, y0, bx[s], by[s]);
      const dx = xi - (x0 + t * ux), dy = yi - (y0 + t * uy);
      const d2 = dx * dx + dy * dy;
      const left = ux * (yi - y0) - uy * (xi - x0) > 0;
      // On a tie (a shared vertex) the outside reading wins.
      if (d2 < nearestSolid - 1e-12 || (d2 <= nearestSolid + 1e-12 && !left)) {
        nearestSolid = d2;
        inside = left ? s : -1;
      }
    }
    return inside;
  }

  /**
   * The collision flag of the head-on rule. An agent that wants to move (preferred speed above
   * `stopSpeed`) but stands (speed below `stopSpeed`) while the pedestrian forces hold it back
   * (`held`: they oppose at least half its driving force at rest) raises the flag and probes
   * sideways to the walking side — the same side for everyone, so a blocked crowd starts to
   * circulate instead of pushing against itself; it turns to the other side when its side is
   * occupied (a neighbour or wall within `blockDistance`) and the other is free, and drops the
   * flag once nothing holds it back. Returns the probing side (+1 left, −1 right, 0 none).
   */
  #updateBlocked(
    i: number,
    preferredSpeed: number,
    held: boolean,
    blocked: Int32Array,
    acc: Float64Array,
  ): number {
    const p = this.params, a = this.#agents;
    let side = blocked[i];
    if (!held || preferredSpeed <= p.stopSpeed) {
      side = 0;
    } else if (side === 0) {
      const vxi = a.vx[i], vyi = a.vy[i];
      if (vxi * vxi + vyi * vyi < p.stopSpeed * p.stopSpeed) {
        side = this.#sideSign;
      }
    }
    if (side !== 0) {
      const mine = side > 0 ? acc[LEFT_GAP] : acc[RIGHT_GAP];
      const other = side > 0 ? acc[RIGHT_GAP] : acc[LEFT_GAP];
      if (mine < p.blockDistance && !(other < p.blockDistance)) side = -side;
    }
    blocked[i] = side;
    return side;
  }
}

/**
 * Side occupancy of the head-on rule: records a neighbour or wall at surface gap `surface` (m)
 * in direction (nx, ny) from the agent when it lies within ±45° of the left or right normal of
 * the desired direction (ex, ey).
 */
function _occupySide(
  acc: Float64Array,
  surface: number,
  nx: number,
  ny: number,
  ex: number,
  ey: number,
): void {
  // Left normal = (−ey, ex).
  const toLeft = -(ny * ex - nx * ey);
  if (toLeft > BLOCK_COS && surface < acc[LEFT_GAP]) acc[LEFT_GAP] = surface;
  if (toLeft < -BLOCK_COS && surface < acc[RIGHT_GAP]) acc[RIGHT_GAP] = surface;
}

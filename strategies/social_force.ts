/**
 * The `social-force` strategy: Helbing's social force model with the body and friction forces
 * of Helbing, Farkas and Vicsek (2000), "Simulating dynamical features of escape panic",
 * Nature 407, 487–490 (HFV), and the anisotropic field of view of Helbing and Molnár (1995),
 * Phys. Rev. E 51, 4282, in the cosine form of Johansson, Helbing and Shukla (2007).
 *
 * Each agent i of mass m feels
 *
 * - the driving term m (v⁰_i − v_i) / τ towards its preferred velocity v⁰_i;
 * - from every pedestrian j within the pedestrian search radius,
 *   f_ij = [w(φ_ij)·A·exp((r_ij − d_ij)/B) + k·g(r_ij − d_ij)] n_ij + κ·g(r_ij − d_ij)·Δv^t_ji t_ij,
 *   where r_ij is the sum of the radii, d_ij the centre distance, n_ij the unit vector from j to
 *   i, t_ij its normal, Δv^t_ji = (v_j − v_i)·t_ij, g(x) = max(x, 0), and
 *   w(φ) = λ + (1 − λ)(1 + cos φ)/2 weighs the social term by the angle φ between i's desired
 *   direction and the direction towards j;
 * - from every obstacle segment W within the obstacle search radius (the nearest point of each
 *   segment, not only of the closest one, as M. Aleksandrov, D. J. Heslop and S. Zlatanova,
 *   "3D Indoor Environment Abstraction for Crowd Simulations in Complex Buildings", Buildings
 *   11(10):445, 2021, require),
 *   f_iW = [A_W·exp((r_i − d_iW)/B_W) + k·g(r_i − d_iW)] n_iW − κ·g(r_i − d_iW)(v_i·t_iW) t_iW.
 *   A wall end that another piece only touches (a channel wall at a door post) counts once.
 *
 * Narrow openings (not part of HFV): in or just before an opening narrower than the shoulders
 * plus 0.1 m on each side (wall points on both sides of the walking line less than
 * 2(r_i + 0.1 m) apart), people turn their shoulders and slip through; there the term
 * A_W·exp(…) loses its component against the desired direction (contact and friction stay).
 * Summed over the two posts of a 0.5 m channel, HFV's term alone pushes a person in front of
 * the mouth back harder than the drive, so the channel clogged for any body size. The margin
 * is `openingMargin`; with `turnShoulders` only someone in front of the gap (not beside a post)
 * counts, and the turned body is an ellipse, half the chest depth (0.125 m) across the walking
 * direction, for the posts and for the people beside.
 *
 * One term is not part of HFV: a walking-side preference σ. The published forces are collinear
 * in an exactly head-on encounter, so two agents walking straight at each other stop face to
 * face for ever; σ adds σ·w·A·exp(…)·max(cos φ, 0)·o_ij along the walking-side normal of the
 * desired direction, which decides that case by the world's `walkingSide`. It acts only against
 * someone coming the other way: o_ij = max(0, −ê_i·ê_j) of the two desired directions is 1
 * head-on and 0 for anyone crossing at right angles or walking the same way — applied to
 * everyone ahead, it would push a crowd converging on a door into the corner on its walking
 * side. `sidePreference: 0` gives the published model.
 *
 * A second, optional one: `noBackwardPush` (see {@linkcode SocialForceOptions}) lets the social
 * force of people walking the same way stop someone but never make them walk backwards, which
 * the anisotropic field of view does in a uniformly dense crowd. `parameters` chooses among the
 * published escape-panic values (the default), the values Johansson, Helbing and Shukla (2007)
 * fitted to normal walking, HFV with a strength chosen on corridor experiments, and HFV with
 * turned shoulders at openings chosen on corridors with narrow exits
 * ({@linkcode SOCIAL_FORCE_PARAMETER_SETS}).
 *
 * The search radii default to Aleksandrov, Heslop and Zlatanova's values for a 0.05 s step:
 * 1.25 m for pedestrians and 1.05 m for obstacles; with B = 0.08 m the social force at the pedestrian search radius is
 * below 0.2 N (A·e^(−9.4)), so the cut-off changes nothing. The world caps every agent's speed
 * at its `maxSpeed` column. Integration is linearly implicit in the agent's own velocity (see
 * `integration`), which keeps the stiff contact forces stable at 0.05 s.
 *
 * @module
 */
import { type OptionSpecs, resolveOptions, withParameterSet } from "../core/options.ts";
import type { StepContext, Strategy, StrategyFactory } from "../core/strategy.ts";
import type { World } from "../core/world.ts";
import {
  FORCE_MODEL_OPTIONS,
  type ForceIntegration,
  ForceModel,
  type ForceModelOptions,
  KERNEL_EXPONENTIAL,
} from "./_force_model.ts";

export type { ForceIntegration };

/**
 * Model-wide parameters of {@linkcode createSocialForceStrategy}: the shared force-model options
 * (τ, m, k, κ, A_W, B_W, λ, σ, obstacle search radius, integration) and the social force's own.
 * Defaults are HFV's.
 */
export interface SocialForceOptions extends ForceModelOptions {
  /** A (N): strength of the social force between pedestrians. @default 2000 */
  socialStrength: number;
  /** B (m): range of the social force between pedestrians. @default 0.08 */
  socialRange: number;
  /** Pedestrian search radius (m). @default 1.25 */
  neighborRadius: number;
  /**
   * Which published parameter set supplies the values of the options left at their default
   * (see {@linkcode SOCIAL_FORCE_PARAMETER_SETS}). @default "escape-panic"
   */
  parameters: SocialForceParameterSet;
  /**
   * The summed social force (not the contact, friction or wall forces) may stop someone but
   * never make them walk backwards against their desired direction. @default false
   */
  noBackwardPush: boolean;
  /**
   * Margin (m) on each side of the shoulders under which an opening counts as narrow: there the
   * posts' A_W·exp(…) term loses its component against the desired direction. @default 0.1
   */
  openingMargin: number;
  /**
   * In a narrow opening people turn their shoulders: the obstacle forces act on half the
   * body's depth (0.125 m) instead of its radius, for someone standing in front of the gap.
   * @default false
   */
  turnShoulders: boolean;
}

/** Names of the published parameter sets of the social force. */
export type SocialForceParameterSet =
  | "escape-panic"
  | "normal-walking"
  | "corridor-fitted"
  | "range-fitted"
  | "bottleneck-fitted";

/**
 * The published parameter sets, chosen by {@linkcode SocialForceOptions.parameters}: each gives
 * its values to the options left at their (escape-panic) defaults.
 *
 * - `escape-panic`: D. Helbing, I. Farkas and T. Vicsek, "Simulating dynamical features of
 *   escape panic", Nature 407 (2000) 487–490: A = A_W = 2000 N, B = B_W = 0.08 m, τ = 0.5 s,
 *   m = 80 kg, k = 1.2·10⁵ kg/s², κ = 2.4·10⁵ kg/(m·s), with the anisotropy λ = 0.5 of
 *   Helbing and Molnár (1995).
 * - `normal-walking`: the circular specification fitted to video tracks of pedestrians walking
 *   normally by A. Johansson, D. Helbing and P. K. Shukla, "Specification of the social force
 *   pedestrian model by evolutionary adjustment to video tracking data", Advances in Complex
 *   Systems 10 (2007) 271–288: A = 0.42 m/s² (33.6 N for 80 kg), B = 1.65 m, λ = 0.12; the
 *   pedestrian search radius grows to 3 m (the force there is still 0.2·A). Walls keep HFV's
 *   form with A_W = A (the fitted strength) and a 0.1 m range; body and friction forces stay
 *   HFV's (they model physical contact).
 * - `corridor-fitted`: HFV's model with the backward limit ({@linkcode SocialForceOptions.noBackwardPush})
 *   and A = A_W = 1000 N, chosen on the unidirectional corridor runs of the HERMES experiments
 *   (Düsseldorf 2009; J. Zhang et al., "Transitions in pedestrian fundamental diagrams of
 *   straight corridors and T-junctions", J. Stat. Mech. (2011) P06004): the value among 250,
 *   500, 750, 1000, 1250 and 2000 N whose speed–density relation in the ring corridor comes
 *   closest to those runs' Voronoi speeds (RMSE 0.11 m/s over 0.5–3 /m²). The other values stay
 *   HFV's.
 * - `range-fitted`: HFV's model with the range of the social force for normal walking,
 *   B = 0.3 m (σ of D. Helbing and P. Molnár, "Social force model for pedestrian dynamics",
 *   Phys. Rev. E 51 (1995) 4282) instead of escape panic's 0.08 m, the backward limit, and
 *   A = 250 N, chosen as for `corridor-fitted` on the HERMES unidirectional runs: the value
 *   among 134 (Helbing and Molnár's m·(V⁰/σ)·e^(−d/σ), V⁰ = 2.1 m²/s², at the contact
 *   d = 0.43 m), 250, 375, 500 and 750 N closest to those runs' speeds (RMSE 0.125, 0.122,
 *   0.22, 0.31, 0.45 m/s).
 *   Why the range: from 1 to 3 /m² the gap between shoulder-width neighbours on a hexagonal
 *   lattice shrinks from about 0.64 to 0.19 m, so the anisotropic push of the people ahead
 *   grows e^(0.45/B)-fold: 280-fold with B = 0.08 m, which stops a one-way crowd at 3 /m², and
 *   4.5-fold with 0.3 m, close to the 3.6-fold that m(v⁰ − v)/τ needs for Weidmann's speeds.
 *   The search radius stays 1.25 m (the force there is about 16 N, 7 % of the drive at rest).
 *   σ = 1, as in `normal-walking`: with the weaker force, σ = 0.3 let two crowds meeting at 2 /m²
 *   in the counter-flow corridor deadlock (2 % through in 120 s; with σ = 1 all, lane order Φ
 *   0.84). Walls, body and friction forces stay HFV's. Like `corridor-fitted`, A was chosen
 *   with the implicit step at dt = 0.05 s, which also brakes a crowd walking together (see
 *   strategies/_force_model.ts): with the social stiffness taken relative to the neighbours'
 *   velocities the set walks 1.18, 0.89 and 0.38 m/s at 1, 2 and 3 /m².
 * - `bottleneck-fitted`: HFV's forces with an isotropic social force (λ = 1: the Nature paper
 *   has no field of view, which Helbing and Molnár's normal-walking model added), for a crowd
 *   pressing on an exit. Two things happen at openings: within an opening narrower than the
 *   shoulders plus 0.5 m on each side (`openingMargin`, 0.1 m in the other sets) the posts
 *   keep people off sideways but do not hold them back, and people turn their shoulders
 *   (`turnShoulders`): someone standing in front of the gap presents an ellipse to the posts
 *   and the people beside, the shoulders' half breadth along the walking direction and half the
 *   chest depth (0.125 m) across it. A = A_W = 1250 N and the 0.5 m margin were chosen on the
 *   three HERMES corridor runs with narrow exits (0.70, 0.95 and 1.20 m at the end of the 1.8 m
 *   corridor, validation/bottleneck_calibration.ts): among A of 1000–2000 N, A_W of 500–2000 N
 *   and margins of 0.1–0.7 m the one whose simulated J/b (seeds 1–3) comes closest to the
 *   measured 2.30, 1.85 and 1.90 (m·s)⁻¹ (RMSE 0.11; HFV's A = A_W = 2000 N with the same
 *   openings 0.39). As in every fitted set, `noBackwardPush` is on: nobody in a one-way crowd
 *   is pushed backwards (without it the two-way ring walked backwards in 3 % of its samples; the
 *   training fit is 0.112 with it, 0.107 without). The other values stay HFV's (B = B_W =
 *   0.08 m, τ = 0.5 s, σ = 0.3).
 *
 * @example
 * ```ts
 * import { SOCIAL_FORCE_PARAMETER_SETS } from "./social_force.ts";
 * import assert from "node:assert/strict";
 * assert.equal(SOCIAL_FORCE_PARAMETER_SETS["normal-walking"].socialRange, 1.65); // m
 * ```
 */
export const SOCIAL_FORCE_PARAMETER_SETS: Readonly<
  Record<SocialForceParameterSet, Readonly<Partial<SocialForceOptions>>>
> = {
  "escape-panic": {},
  "normal-walking": {
    socialStrength: 0.42 * 80,
    socialRange: 1.65,
    anisotropy: 0.12,
    neighborRadius: 3,
    wallStrength: 0.42 * 80,
    wallRange: 0.1,
    sidePreference: 1,
    noBackwardPush: true,
  },
  "corridor-fitted": {
    socialStrength: 1000,
    wallStrength: 1000,
    noBackwardPush: true,
  },
  "range-fitted": {
    socialStrength: 250,
    socialRange: 0.3,
    sidePreference: 1,
    noBackwardPush: true,
  },
  "bottleneck-fitted": {
    anisotropy: 1,
    socialStrength: 1250,
    wallStrength: 1250,
    openingMargin: 0.5,
    turnShoulders: true,
    noBackwardPush: true,
  },
};

/** Descriptors of {@linkcode SocialForceOptions}. */
export const SOCIAL_FORCE_OPTIONS: OptionSpecs<SocialForceOptions> = {
  ...FORCE_MODEL_OPTIONS,
  socialStrength: {
    type: "number",
    default: 2000,
    min: 0,
    max: 1e5,
    unit: "N",
    doc: "A: strength of the social force A·exp((r_ij − d_ij)/B) between pedestrians (HFV: 2000)",
  },
  socialRange: {
    type: "number",
    default: 0.08,
    min: 0.01,
    max: 5,
    unit: "m",
    doc: "B: range of the social force; keep it under (neighborRadius − r_ij) / 9 so the " +
      "cut-off is invisible (HFV: 0.08; Johansson et al. 2007: 1.65)",
  },
  neighborRadius: {
    type: "number",
    default: 1.25,
    min: 0.1,
    max: 10,
    unit: "m",
    doc: "pedestrian search radius (Aleksandrov, Heslop and Zlatanova 2021: 1.25 at 0.05 s); " +
      "larger is slower",
  },
  parameters: {
    type: "enum",
    values: Object.keys(SOCIAL_FORCE_PARAMETER_SETS) as SocialForceParameterSet[],
    default: "escape-panic",
    doc:
      "published parameter set giving its values to the options left at their default: escape-panic " +
      "(Helbing, Farkas and Vicsek 2000), normal-walking (Johansson, Helbing and Shukla 2007) " +
      "corridor-fitted (HFV with A = A_W = 1000 N and noBackwardPush, chosen on the HERMES " +
      "unidirectional corridor runs), range-fitted (HFV with Helbing and Molnár's 1995 range " +
      "B = 0.3 m, A = 250 N chosen on the same runs, σ = 1 and noBackwardPush) or " +
      "bottleneck-fitted (HFV with λ = 1, A = A_W = 1250 N, a 0.5 m opening margin and turned " +
      "shoulders and noBackwardPush, chosen on the HERMES runs with narrow exits)",
  },
  openingMargin: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 2,
    unit: "m",
    doc: "margin on each side of the shoulders under which an opening counts as narrow: its " +
      "posts keep people at a distance sideways only, not against the walking direction",
  },
  turnShoulders: {
    type: "boolean",
    default: false,
    doc: "in a narrow opening people turn their shoulders: the obstacle forces act on half the " +
      "body's depth (0.125 m) instead of its radius, for someone standing in front of the gap",
  },
  noBackwardPush: {
    type: "boolean",
    default: false,
    doc: "the summed social force may stop someone but never make them walk backwards against " +
      "their desired direction (contact, friction and wall forces still may); false: HFV as published",
  },
};

/**
 * Creates the `social-force` strategy. `inspect` reports the driving, pedestrian and obstacle
 * forces on an agent (N) and how many neighbours and segments it sees.
 *
 * @example A lone agent accelerates towards its desired speed with relaxation time τ
 * ```ts
 * import { createSocialForceStrategy } from "./social_force.ts";
 * import { World } from "../core/world.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createSocialForceStrategy(), navigator: createGoalSeeker() });
 * const h = world.addAgent({ x: 0, y: 0, goalX: 50, goalY: 0, desiredSpeed: 1.3 });
 * for (let i = 0; i < 60; i++) world.step(); // 3 s = 6 τ
 * assert.ok(Math.abs(world.agent(h)!.vx - 1.3) < 0.01);
 * ```
 */
export function createSocialForceStrategy(options: Partial<SocialForceOptions> = {}): Strategy {
  // Check the options as given, then give the chosen set's values to those left at their
  // (escape-panic) default.
  const given = resolveOptions("social-force strategy", SOCIAL_FORCE_OPTIONS, options);
  const resolved = withParameterSet(
    given,
    SOCIAL_FORCE_OPTIONS,
    SOCIAL_FORCE_PARAMETER_SETS[given.parameters],
  );
  const model = new ForceModel(resolved, {
    kernel: KERNEL_EXPONENTIAL,
    strength: resolved.socialStrength,
    range: resolved.socialRange,
    neighborRadius: resolved.neighborRadius,
    headOn: null,
    noBackwardPush: resolved.noBackwardPush,
    openingMargin: resolved.openingMargin,
    turnShoulders: resolved.turnShoulders,
  });
  return {
    name: "social-force",
    neighborRadius: resolved.neighborRadius,
    computeNewVelocities(ctx: StepContext, begin: number, end: number): void {
      model.computeNewVelocities(ctx, begin, end);
    },
    inspect(world: World, index: number): Record<string, number> {
      return { ...model.forcesOf(world, index) };
    },
  };
}

/** Registry entry of the `social-force` strategy. */
export const socialForceStrategy: StrategyFactory<SocialForceOptions> = {
  name: "social-force",
  description: "Helbing's social force with HFV 2000 body and friction forces and wall forces",
  options: SOCIAL_FORCE_OPTIONS,
  create: createSocialForceStrategy,
};

/**
 * The `repulsion` strategy: the gravity-like pedestrian repulsion of the procedural city
 * pedestrians of 3DWorld (F. Gennari, "Procedural City: Pedestrian Updates + Navigation",
 * 3DWorld blog, 2019), on the force loop it shares with `social-force`.
 *
 * Pedestrians push each other apart with a force that grows as their separation shrinks,
 * G·((r_ij/d_ij)² − (r_ij/R)²) along n_ij — an inverse-square law, shifted so it vanishes at the
 * search radius R — so passers-by drift to the side at a distance and dodge sharply when close;
 * on contact the body compression and sliding friction of HFV 2000 move them apart (the blog's
 * "collision force"). Two rules of the blog settle what a symmetric force gets wrong:
 *
 * - **head-on: the lower id dodges.** When j comes straight at i (within ±25° ahead, moving
 *   against i's desired direction faster than `stopSpeed`), the agent with the lower `serial`
 *   turns the repulsion sideways, `dodgeGain` times as strong, away from j (to the world's
 *   walking side when exactly aligned), while the other holds its line and only brakes — no
 *   dodging game where both step to the same side;
 * - **collision flag.** A dodger that just stands there does not get out of the way. An agent
 *   that wants to move but stands (speed under `stopSpeed`) while the repulsion holds it back
 *   raises its flag in the `repulsion.blocked` column and probes sideways along the line at
 *   `probeSpeedRatio` of its preferred speed, to the walking side (the other side when that one
 *   is occupied and the other free), until nothing holds it back.
 *
 * A walking-side preference σ, shared with `social-force`, tilts the repulsion from someone
 * ahead coming the other way towards the walking side (weighted by −ê_i·ê_j > 0 of the desired
 * directions: never for people walking the same way, who would drift to one side). Obstacles
 * push as in `social-force` (every segment within the obstacle search radius). The step is
 * linearly implicit in the agent's own velocity; see `integration`.
 *
 * @module
 */
import type { ColumnSpec } from "../core/agent_store.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { StepContext, Strategy, StrategyFactory } from "../core/strategy.ts";
import type { World } from "../core/world.ts";
import {
  FORCE_MODEL_OPTIONS,
  ForceModel,
  type ForceModelOptions,
  KERNEL_INVERSE_SQUARE,
} from "./_force_model.ts";

/** Name of the collision-flag column: 0 free, +1 probing to the left, −1 probing to the right. */
export const REPULSION_BLOCKED_COLUMN = "repulsion.blocked";

/**
 * Model-wide parameters of {@linkcode createRepulsionStrategy}: the shared force-model options
 * (τ, m, k, κ, A_W, B_W, λ, σ, obstacle search radius, integration) and the repulsion's own.
 */
export interface RepulsionOptions extends ForceModelOptions {
  /** G (N): repulsion at contact, G·((r_ij/d)² − (r_ij/R)²). @default 400 */
  repulsionStrength: number;
  /** λ: weight of the repulsion from behind; 1 is isotropic, like gravity. @default 1 */
  anisotropy: number;
  /** R (m): pedestrian search radius, where the repulsion reaches zero. @default 2.5 */
  neighborRadius: number;
  /** Sideways force of the dodger as a multiple of the repulsion it feels. @default 2 */
  dodgeGain: number;
  /** Surface gap (m) under which a neighbour or wall occupies a probing agent's side. @default 0.1 */
  blockDistance: number;
  /** Speed (m/s) under which a blocked agent counts as standing. @default 0.1 */
  stopSpeed: number;
  /** Sideways probing speed as a fraction of the preferred speed. @default 1 */
  probeSpeedRatio: number;
}

/** Descriptors of {@linkcode RepulsionOptions}. */
export const REPULSION_OPTIONS: OptionSpecs<RepulsionOptions> = {
  ...FORCE_MODEL_OPTIONS,
  repulsionStrength: {
    type: "number",
    default: 400,
    min: 0,
    max: 1e5,
    unit: "N",
    doc: "G: repulsion at contact; the force is G·((r_ij/d)² − (r_ij/R)²) at centre distance d",
  },
  anisotropy: {
    ...FORCE_MODEL_OPTIONS.anisotropy,
    default: 1,
  },
  neighborRadius: {
    type: "number",
    default: 2.5,
    min: 0.6,
    max: 10,
    unit: "m",
    doc: "R: pedestrian search radius, where the repulsion falls to zero; about 1 s of " +
      "closing at walking speed (larger sees head-on encounters earlier, and is slower)",
  },
  dodgeGain: {
    type: "number",
    default: 2,
    min: 0,
    max: 10,
    unit: "",
    doc: "sideways force of the lower id in a head-on encounter, as a multiple of the " +
      "repulsion it feels (the other only brakes)",
  },
  blockDistance: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 1,
    unit: "m",
    doc: "surface gap under which a neighbour or wall beside a probing agent occupies that side",
  },
  stopSpeed: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 1,
    unit: "m/s",
    doc: "speed under which an agent counts as standing; someone faster coming straight at an " +
      "agent is a head-on encounter",
  },
  probeSpeedRatio: {
    type: "number",
    default: 1,
    min: 0,
    max: 1,
    unit: "",
    doc: "sideways probing speed of a flagged agent as a fraction of its preferred speed",
  },
};

/** The per-agent collision flag. */
const BLOCKED_COLUMN: ColumnSpec = {
  name: REPULSION_BLOCKED_COLUMN,
  type: "i32",
  doc: "collision flag: 0 free, +1 probing to the left, -1 probing to the right",
};

/**
 * Creates the `repulsion` strategy. `inspect` reports the forces on an agent (N), its
 * neighbours and segments, and its collision flag.
 *
 * @example The lower id dodges, the higher one holds its line
 * ```ts
 * import { createRepulsionStrategy } from "./repulsion.ts";
 * import { World } from "../core/world.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createRepulsionStrategy(), navigator: createGoalSeeker() });
 * const low = world.addAgent({ x: -4, y: 0, goalX: 4, goalY: 0, vx: 1.3, desiredSpeed: 1.3 });
 * const high = world.addAgent({ x: 4, y: 0, goalX: -4, goalY: 0, vx: -1.3, desiredSpeed: 1.3 });
 * let dodged = 0, held = 0;
 * while (world.agent(low)!.x < world.agent(high)!.x) { // until they pass each other
 *   world.step();
 *   dodged = Math.max(dodged, Math.abs(world.agent(low)!.y));
 *   held = Math.max(held, Math.abs(world.agent(high)!.y));
 * }
 * assert.ok(dodged > 0.5 && held < dodged / 5);
 * ```
 */
export function createRepulsionStrategy(options: Partial<RepulsionOptions> = {}): Strategy {
  const o = resolveOptions("repulsion strategy", REPULSION_OPTIONS, options);
  const model = new ForceModel(o, {
    kernel: KERNEL_INVERSE_SQUARE,
    strength: o.repulsionStrength,
    range: 1,
    neighborRadius: o.neighborRadius,
    headOn: {
      dodgeGain: o.dodgeGain,
      blockDistance: o.blockDistance,
      stopSpeed: o.stopSpeed,
      probeSpeedRatio: o.probeSpeedRatio,
      column: REPULSION_BLOCKED_COLUMN,
    },
  });
  return {
    name: "repulsion",
    neighborRadius: o.neighborRadius,
    columns: [BLOCKED_COLUMN],
    computeNewVelocities(ctx: StepContext, begin: number, end: number): void {
      model.computeNewVelocities(ctx, begin, end);
    },
    inspect(world: World, index: number): Record<string, number> {
      const forces = model.forcesOf(world, index);
      const blocked = world.agents.column<Int32Array>(REPULSION_BLOCKED_COLUMN)[index];
      return { ...forces, blocked };
    },
  };
}

/** Registry entry of the `repulsion` strategy. */
export const repulsionStrategy: StrategyFactory<RepulsionOptions> = {
  name: "repulsion",
  description: "gravity-like repulsion; the lower id dodges head-on, blocked agents probe sideways",
  options: REPULSION_OPTIONS,
  create: createRepulsionStrategy,
};

/**
 * Steering behaviours ("Crossing citizens: a simple simulation of pedestrian crossing", project
 * report; Reynolds 1999; Millington & Funge 2009)
 * and the pieces priority steering is built from: one {@linkcode SteeringBehaviour} interface,
 * the built-in behaviours (`seek`, `arrive`, `separation`, `drag`, and `boxcast`, the
 * volume-adaptive avoidance), {@linkcode wrapStrategy} to use any strategy as a behaviour,
 * composition groups as written in scenario files, and the contact handling that keeps bodies
 * apart. strategies/priority_steering.ts blends behaviours in priority groups into a strategy.
 *
 * @example Compose a strategy from behaviours
 * ```ts
 * import { createSeekBehaviour, createSeparationBehaviour } from "./mod.ts";
 * import { composeBehaviours } from "../priority_steering.ts";
 * import { World } from "../../core/world.ts";
 * import { createGoalSeeker } from "../../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const strategy = composeBehaviours("seek-and-separate", [[
 *   { behaviour: createSeekBehaviour(), weight: 1 },
 *   { behaviour: createSeparationBehaviour(), weight: 0.6 },
 * ]], { epsilon: 0.001, contact: true });
 * const world = new World({ strategy, navigator: createGoalSeeker() });
 * world.addAgent({ x: 0, y: 0, goalX: 5, goalY: 0 });
 * for (let s = 0; s < 200 && !world.finished; s++) world.step();
 * assert.ok(world.finished);
 * ```
 *
 * @module
 */
export {
  ARRIVE_OPTIONS,
  arriveBehaviour,
  type ArriveOptions,
  createArriveBehaviour,
} from "./arrive.ts";
export {
  AVOID_VOLUME_OPTIONS,
  type AvoidSteer,
  avoidVolumeBehaviour,
  type AvoidVolumeOptions,
  BODY_DEPTH_SHARE,
  createAvoidVolumeBehaviour,
  FROM_PRESET,
  headwayGap,
  PASS_SIDE_COLUMN,
  resolveAvoidVolumeOptions,
  SIGHT_PRESETS,
  SIGHT_RANGE_COLUMN,
  type SightPreset,
} from "./avoid_volume.ts";
export type { BehaviourFactory, SteeringBehaviour } from "./behaviour.ts";
export {
  BUILTIN_BEHAVIOURS,
  createBehaviour,
  isBehaviourName,
  knownBehaviourNames,
} from "./catalogue.ts";
export { ContactConstraint } from "./contact.ts";
export { crowdExtent } from "./crowd_extent.ts";
export {
  createDragBehaviour,
  DRAG_COLUMNS,
  DRAG_OPTIONS,
  dragBehaviour,
  type DragOptions,
} from "./drag.ts";
export {
  type BehaviourEntry,
  type BehaviourGroups,
  DEFAULT_GROUPS,
  parseGroups,
} from "./groups.ts";
export { MIN_HEADING_SPEED, motionHeading, preferredHeading } from "./heading.ts";
export { Neighbourhood } from "./neighbourhood.ts";
export { createSeekBehaviour, SEEK_OPTIONS, seekBehaviour, type SeekOptions } from "./seek.ts";
export {
  createSeparationBehaviour,
  SEPARATION_OPTIONS,
  separationBehaviour,
  type SeparationFalloff,
  type SeparationOptions,
} from "./separation.ts";
export { sweptBoxDiscContact, sweptBoxSegmentContact } from "./swept_box.ts";
export { wrapStrategy } from "./wrap_strategy.ts";

/**
 * The `boxcast` strategy: the citizen steering of "Crossing citizens: a simple simulation of
 * pedestrian crossing" (project report) as one strategy.
 * Volume-adaptive box-cast avoidance has priority; when nothing is in the box, seek,
 * separation and drag are blended (weights 1, 0.6, 0.3), and contact handling keeps bodies
 * apart as the original's physics colliders did. See
 * {@linkcode createAvoidVolumeBehaviour} for the cast and the changes made to it, and
 * strategies/priority_steering.ts for the blending.
 *
 * A scenario picks a scene preset of the document and may override any option:
 *
 * ```json
 * "strategy": { "name": "boxcast", "options": { "preset": "crowded", "maxSightRange": 3 } }
 * ```
 *
 * Speed follows the free gap to the person ahead: at most the gap over a time gap of 1 s (the
 * collision-free speed model of Tordeux, Chraibi and Seyfried, 2016; option `timeGap`, 0 turns
 * it off), with a lane choice towards freer gaps beside. In the validation suite's one-way ring
 * (quick, seeds 1–3) the speed at 1 / 2 / 3 persons/m² went from 1.23 / 0.92 / 0.70 to
 * 0.97 / 0.52 / 0.28 m/s (Weidmann 1.06 / 0.61 / 0.33), RMSE against Weidmann from 0.29 to
 * 0.09 m/s. Crowds at doors flow more slowly (see the README's validation section).
 *
 * `{ "steer": "away", "contact": false, "timeGap": 0 }` is the document's method as written. It fails the
 * conformance bar: a head-on pair deadlocks (the push from a hit dead ahead is straight back)
 * and the circle of 24 overlaps by 0.49 m. The defaults fix both: the `pass` steer gets the pair
 * and the circle through, and contact handling keeps every overlap at 0. On the crossing with
 * 300 agents (seeds 1–3, 90 s) the document's steer leaves 250 trips stuck per seed, the default
 * 6 (3, 3 and 12; 22 with `timeGap: 0`).
 * Contact handling also settles the right of way between agents wedged against each other (an
 * arch across a doorway), see strategies/steering/contact.ts.
 *
 * @module
 */
import type { Strategy, StrategyFactory } from "../core/strategy.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import { composeBehaviours } from "./priority_steering.ts";
import {
  AVOID_VOLUME_OPTIONS,
  type AvoidVolumeOptions,
  createAvoidVolumeBehaviour,
  resolveAvoidVolumeOptions,
} from "./steering/avoid_volume.ts";
import { createDragBehaviour } from "./steering/drag.ts";
import { createSeekBehaviour } from "./steering/seek.ts";
import { createSeparationBehaviour } from "./steering/separation.ts";

/** Options of {@linkcode createBoxcastStrategy}: the avoidance's, plus contact handling. */
export interface BoxcastOptions extends AvoidVolumeOptions {
  /** Keep bodies from interpenetrating (the original's physics colliders). @default true */
  contact: boolean;
}

/** Descriptors of {@linkcode BoxcastOptions}. */
export const BOXCAST_OPTIONS: OptionSpecs<BoxcastOptions> = {
  ...AVOID_VOLUME_OPTIONS,
  contact: {
    type: "boolean",
    default: true,
    doc: "keep bodies from interpenetrating (the physics colliders of the original)",
  },
};

/** Blending weights of the lower-priority group: seek, separation, drag. */
const SEEK_WEIGHT = 1, SEPARATION_WEIGHT = 0.6, DRAG_WEIGHT = 0.3;

/**
 * Creates the `boxcast` strategy. `preset` (`"light"`, `"average"`, `"crowded"`) sets
 * `minSightRange` (0.5, 0.3, 0 m) unless that is given (a value in [0, 1] m).
 *
 * @example A head-on pair passes, each keeping to the right
 * ```ts
 * import { createBoxcastStrategy } from "./boxcast.ts";
 * import { World } from "../core/world.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createBoxcastStrategy({ preset: "light" }), navigator: createGoalSeeker() });
 * const a = world.addAgent({ x: -4, y: 0, goalX: 4, goalY: 0 });
 * const b = world.addAgent({ x: 4, y: 0, goalX: -4, goalY: 0 });
 * let closest = Infinity;
 * while (!world.finished && world.stepIndex < 400) {
 *   world.step();
 *   const p = world.agent(a), q = world.agent(b);
 *   if (p && q) closest = Math.min(closest, Math.hypot(p.x - q.x, p.y - q.y));
 * }
 * assert.ok(world.finished);
 * assert.ok(closest >= 0.5 - 1e-9); // never overlapped
 * ```
 */
export function createBoxcastStrategy(options: Partial<BoxcastOptions> = {}): Strategy {
  const { contact, ...avoid } = resolveOptions("boxcast strategy", BOXCAST_OPTIONS, options);
  const avoidOptions = resolveAvoidVolumeOptions(avoid, "boxcast strategy");
  return composeBehaviours("boxcast", [
    [{ behaviour: createAvoidVolumeBehaviour(avoidOptions), weight: 1 }],
    [
      { behaviour: createSeekBehaviour(), weight: SEEK_WEIGHT },
      { behaviour: createSeparationBehaviour(), weight: SEPARATION_WEIGHT },
      { behaviour: createDragBehaviour(), weight: DRAG_WEIGHT },
    ],
  ], { epsilon: 0.001, contact });
}

/** Registry entry of the `boxcast` strategy. */
export const boxcastStrategy: StrategyFactory<BoxcastOptions> = {
  name: "boxcast",
  description:
    'volume-adaptive box cast avoidance with seek, separation and drag ("Crossing citizens")',
  options: BOXCAST_OPTIONS,
  create: createBoxcastStrategy,
};

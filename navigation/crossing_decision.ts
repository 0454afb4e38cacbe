/**
 * What a pedestrian does at a signalled crosswalk: the decision tree of "Crossing citizens: a
 * simple simulation of pedestrian crossing" (project report), as a pure function of where the
 * pedestrian is, where it goes and what the pedestrian signal shows.
 *
 * The crossing is described by the pedestrian's two checkpoints: the **first** on the near kerb
 * (where it steps onto the crosswalk) and the **second** on the far kerb (where it steps off);
 * {@linkcode crossingCheckpoints} chooses them as the report does. Progress `t` along the
 * crossing is the projection of the position on first → second, 0 at the near kerb and 1 at
 * the far one. The report's decisions:
 *
 * - *hasCrossed*: `t >= 1`;
 * - *isGoalReached*: within `goalRadius` of the goal;
 * - *isNearCrossing*: within `nearDistance` of the crosswalk's area;
 * - *isBeforeCrossing*: not yet past the near kerb (`t · length <= kerbTolerance`);
 * - *isHalfPassed*: `t > 0.5`;
 * - the light: walk (green), flashing (yellow), don't walk (red).
 *
 * and the tree, most common actions nearest the root:
 *
 * ```
 * hasCrossed?            yes → isGoalReached? yes → despawn, no → arrive
 * isNearCrossing?        no  → approach (walk to the first checkpoint)
 * walk?                  yes → cross (walk to the second checkpoint)
 * isBeforeCrossing?      yes → wait (at the kerb; nobody starts on flashing or don't walk)
 * flashing?              yes → hasten (to the second checkpoint, `hastenFactor` × speed)
 * isHalfPassed?          yes → jog on (to the second checkpoint, `jogFactor` × speed)
 *                        no  → turn back (jog to the first checkpoint)
 * ```
 *
 * The report's figure leaves open what someone still on the kerb does at yellow; here they wait
 * (as the flashing hand means), so nobody starts crossing after walk has ended.
 *
 * @module
 */
import { hypot2, hypotAtMost } from "../core/geometry.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";

/** Actions of the crossing decision tree (numbers, so they fit a state column). */
export const CrossingAction = {
  /** Walk to the first checkpoint. */
  approach: 0,
  /** Stand at the kerb. */
  wait: 1,
  /** Walk across to the second checkpoint. */
  cross: 2,
  /** Walk across faster (the signal is flashing). */
  hasten: 3,
  /** Jog on across (don't walk came on past halfway). */
  jog: 4,
  /** Jog back to the near kerb (don't walk came on before halfway). */
  turnBack: 5,
  /** Across: walk to the goal. */
  arrive: 6,
  /** At the goal: the trip is over. */
  despawn: 7,
} as const;

/** A {@linkcode CrossingAction} value. */
export type CrossingAction = typeof CrossingAction[keyof typeof CrossingAction];

/** Names of the actions, by value. */
export const CROSSING_ACTION_NAMES: readonly string[] = Object.keys(CrossingAction);

/** Options of a {@linkcode CrossingDecisionTree}. */
export interface CrossingDecisionOptions {
  /** Closer than this to the crosswalk's area (m) counts as near it. @default 3 */
  nearDistance: number;
  /** Up to this far past the near kerb (m) counts as not started. @default 0.3 */
  kerbTolerance: number;
  /** Within this of the goal (m) counts as arrived. @default 0.5 */
  goalRadius: number;
  /** Speed factor when hastening at flashing. @default 1.3 */
  hastenFactor: number;
  /** Speed factor when jogging on or back at don't walk. @default 1.8 */
  jogFactor: number;
}

/** Descriptors of {@linkcode CrossingDecisionOptions}. */
export const CROSSING_DECISION_OPTIONS: OptionSpecs<CrossingDecisionOptions> = {
  nearDistance: {
    type: "number",
    default: 3,
    min: 0,
    max: 100,
    unit: "m",
    doc: "closer than this to the crosswalk's area counts as near it",
  },
  kerbTolerance: {
    type: "number",
    default: 0.3,
    min: 0,
    max: 10,
    unit: "m",
    doc: "up to this far past the near kerb counts as not started",
  },
  goalRadius: {
    type: "number",
    default: 0.5,
    min: 0,
    max: 100,
    unit: "m",
    doc: "within this of the goal counts as arrived",
  },
  hastenFactor: {
    type: "number",
    default: 1.3,
    min: 1,
    max: 5,
    doc: "speed factor when hastening at flashing",
  },
  jogFactor: {
    type: "number",
    default: 1.8,
    min: 1,
    max: 5,
    doc: "speed factor when jogging on or back at don't walk (the blog's crossing speed)",
  },
};

/**
 * One pedestrian at one crosswalk: positions in metres. The signal is a `WalkSignal`
 * (0 walk, 1 flashing, 2 don't walk; a `SignalColor` green, yellow, red reads the same).
 */
export interface CrossingSituation {
  /** Position (m). */
  x: number;
  /** Position (m). */
  y: number;
  /** Goal on the far side (m). */
  goalX: number;
  /** Goal on the far side (m). */
  goalY: number;
  /** First checkpoint, on the near kerb (m). */
  firstX: number;
  /** First checkpoint, on the near kerb (m). */
  firstY: number;
  /** Second checkpoint, on the far kerb (m). */
  secondX: number;
  /** Second checkpoint, on the far kerb (m). */
  secondY: number;
  /** Width of the crosswalk along the street (m). */
  width: number;
  /** The pedestrian signal: 0 walk, 1 flashing, 2 don't walk. */
  signal: number;
}

/** The decision, reused across calls: the action, where to head and how fast. */
export class CrossingDecision {
  /** The action. */
  action: CrossingAction = CrossingAction.approach;
  /** Where to head (m). */
  targetX = 0;
  /** Where to head (m). */
  targetY = 0;
  /** Multiple of the walking speed: 0 to stand, 1 to walk, more to hurry. */
  speedFactor = 1;
}

/**
 * The crossing decision tree with its thresholds (see the module doc). `decide` is a pure
 * function of its arguments.
 *
 * @example Caught by don't walk before and after halfway
 * ```ts
 * import { CrossingAction, CrossingDecision, CrossingDecisionTree } from "./crossing_decision.ts";
 * import assert from "node:assert/strict";
 * const tree = new CrossingDecisionTree();
 * // A 10 m crosswalk from (0, 0) to (0, 10), don't walk showing.
 * const at = { x: 0, y: 3, goalX: 0, goalY: 20, firstX: 0, firstY: 0, secondX: 0, secondY: 10, width: 3, signal: 2 };
 * const out = new CrossingDecision();
 * assert.equal(tree.decide(at, out), CrossingAction.turnBack);
 * assert.equal(tree.decide({ ...at, y: 6 }, out), CrossingAction.jog);
 * assert.equal(out.speedFactor, 1.8);
 * ```
 */
export class CrossingDecisionTree {
  /** Validated thresholds. */
  readonly options: Readonly<CrossingDecisionOptions>;

  constructor(options: Partial<CrossingDecisionOptions> = {}) {
    this.options = resolveOptions("crossing decision tree", CROSSING_DECISION_OPTIONS, options);
  }

  /** Decides what the pedestrian in `situation` does; writes it into `out` and returns the action. */
  decide(situation: CrossingSituation, out: CrossingDecision): CrossingAction {
    const o = this.options, s = situation;
    const dx = s.secondX - s.firstX, dy = s.secondY - s.firstY;
    const length = hypot2(dx, dy);
    const ux = length > 0 ? dx / length : 0, uy = length > 0 ? dy / length : 0;
    const along = (s.x - s.firstX) * ux + (s.y - s.firstY) * uy;
    const t = length > 0 ? along / length : 1;
    if (t >= 1) {
      if (hypotAtMost(s.goalX - s.x, s.goalY - s.y, o.goalRadius)) {
        return this.#set(out, CrossingAction.despawn, s.x, s.y, 0);
      }
      return this.#set(out, CrossingAction.arrive, s.goalX, s.goalY, 1);
    }
    const lateral = Math.abs((s.x - s.firstX) * uy - (s.y - s.firstY) * ux);
    const beyondSide = Math.max(0, lateral - s.width / 2);
    const beyondEnd = along < 0 ? -along : 0;
    if (!hypotAtMost(beyondSide, beyondEnd, o.nearDistance)) {
      return this.#set(out, CrossingAction.approach, s.firstX, s.firstY, 1);
    }
    if (s.signal === 0) return this.#set(out, CrossingAction.cross, s.secondX, s.secondY, 1);
    if (along <= o.kerbTolerance) return this.#set(out, CrossingAction.wait, s.firstX, s.firstY, 0);
    if (s.signal === 1) {
      return this.#set(out, CrossingAction.hasten, s.secondX, s.secondY, o.hastenFactor);
    }
    if (t > 0.5) return this.#set(out, CrossingAction.jog, s.secondX, s.secondY, o.jogFactor);
    return this.#set(out, CrossingAction.turnBack, s.firstX, s.firstY, o.jogFactor);
  }

  #set(out: CrossingDecision, action: CrossingAction, x: number, y: number, speed: number) {
    out.action = action;
    out.targetX = x;
    out.targetY = y;
    out.speedFactor = speed;
    return action;
  }
}

/** A crosswalk for {@linkcode crossingCheckpoints}. */
export interface CrosswalkShape {
  /** The ends of its centre line, one on each kerb (`[x, y]`, m). */
  readonly kerbs: readonly [ArrayLike<number>, ArrayLike<number>];
  /** Width along the street (m). */
  readonly width: number;
}

/** Where a pedestrian comes from and goes to (`[x, y]`, m). */
export interface CrossingTrip {
  /** Where it comes from. */
  readonly start: ArrayLike<number>;
  /** Where it goes. */
  readonly goal: ArrayLike<number>;
}

/** Options of {@linkcode crossingCheckpoints}. */
export interface CheckpointOptions {
  /** Share of the way from the closest kerb point to the crosswalk's centre line (0–1). @default 0.5 */
  skew?: number;
  /** Checkpoints keep this far from the crosswalk's sides (m). @default 0.3 */
  sideMargin?: number;
}

/**
 * The two checkpoints of a pedestrian making `trip` over `crosswalk`: the first on the kerb
 * nearer the start, at the point of the kerb closest to the start skewed towards the centre
 * line; the second on the other kerb, likewise towards the goal (the report's
 * firstCrossingCheckpoint and secondCrossingCheckpoint). Written into `out` as
 * `[firstX, firstY, secondX, secondY]`.
 *
 * @example Checkpoints of someone crossing diagonally
 * ```ts
 * import { crossingCheckpoints } from "./crossing_decision.ts";
 * import assert from "node:assert/strict";
 * const out = new Float64Array(4);
 * const crosswalk = { kerbs: [[0, 0], [0, 10]], width: 4 } as const;
 * crossingCheckpoints(crosswalk, { start: [3, -5], goal: [-3, 15] }, out);
 * // 1.7 m (half the width less the margin) towards each side, times 1 − skew = 0.5.
 * const expected = [0.85, 0, -0.85, 10];
 * expected.forEach((v, k) => assert(Math.abs(out[k] - v) < 1e-12));
 * ```
 */
export function crossingCheckpoints(
  crosswalk: CrosswalkShape,
  trip: CrossingTrip,
  out: Float64Array,
  options: CheckpointOptions = {},
): void {
  const skew = options.skew ?? 0.5, margin = options.sideMargin ?? 0.3;
  const { start, goal } = trip;
  let [a, b] = crosswalk.kerbs;
  if (Math.hypot(start[0] - a[0], start[1] - a[1]) > Math.hypot(start[0] - b[0], start[1] - b[1])) {
    [a, b] = [b, a];
  }
  const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
  // Unit vector along the kerb (across the crosswalk's centre line).
  const nx = -dy / len, ny = dx / len;
  const side = Math.max(0, crosswalk.width / 2 - margin);
  const first = _kerbOffset(start, a, nx, ny, side) * (1 - skew);
  const second = _kerbOffset(goal, b, nx, ny, side) * (1 - skew);
  out[0] = a[0] + nx * first;
  out[1] = a[1] + ny * first;
  out[2] = b[0] + nx * second;
  out[3] = b[1] + ny * second;
}

/** Offset of `p` from kerb point `k` along the kerb direction (`nx`, `ny`), within ±`side`. */
function _kerbOffset(
  p: ArrayLike<number>,
  k: ArrayLike<number>,
  nx: number,
  ny: number,
  side: number,
): number {
  const lateral = (p[0] - k[0]) * nx + (p[1] - k[1]) * ny;
  return Math.max(-side, Math.min(side, lateral));
}

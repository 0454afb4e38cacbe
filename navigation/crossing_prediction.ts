/**
 * Crossing a street without a light: the pedestrian predicts where every car on the street will
 * be during the time it needs to cross and goes only when none of them is a threat (F. Gennari,
 * Procedural City: Pedestrian Updates + Navigation, 3DWorld blog, 2019).
 *
 * The blog's rules, each a lesson from its pedestrians walking into cars:
 *
 * - look both ways: every car on the street counts, whichever way it drives (each car's distance
 *   is measured along its own path);
 * - assume each car may drive at its **maximum speed** the whole time, not its current one (a car
 *   speeding up from a standstill is otherwise missed);
 * - cross at **1.8 ×** the walking speed, which shortens the time exposed;
 * - a car held by a red light is not a threat while it is certain to stay held — ask the light
 *   for its state in the future (`holdTime`: how long the car will still stand), and count only
 *   the distance it can drive in the rest of the crossing time.
 *
 * A car is a threat when it is on the crosswalk now, or when the stretch it can cover in the
 * crossing time (plus a safety margin) reaches the crosswalk. Cars whose rear has passed the
 * crosswalk are no threat. The predicted stretches are written out for debug views (the blog's
 * red and green boxes).
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../core/options.ts";

/**
 * The cars on the street to cross, one entry per car (struct of arrays; the car system fills
 * one for a crosswalk).
 */
export interface ApproachingCars {
  /** Number of cars. */
  readonly count: number;
  /**
   * Distance (m) along the car's path from its front bumper to the near edge of the crosswalk;
   * negative once the front has passed that edge.
   */
  readonly distance: Float64Array;
  /** Fastest the car may drive (m/s). */
  readonly maxSpeed: Float64Array;
  /** Car length (m). */
  readonly length: Float64Array;
  /** Seconds the car will certainly still stand (held by a red light); 0 when it may move. */
  readonly holdTime: Float64Array;
}

/** Options of {@linkcode UnsignalledCrossing}. */
export interface UnsignalledCrossingOptions {
  /** The pedestrian crosses at this multiple of its walking speed. @default 1.8 */
  speedFactor: number;
  /** A car's predicted stretch is this much longer (m). @default 2 */
  safetyMargin: number;
  /** Added to the crossing time (s): stepping off, hesitating. @default 1 */
  timeMargin: number;
}

/** Descriptors of {@linkcode UnsignalledCrossingOptions}. */
export const UNSIGNALLED_CROSSING_OPTIONS: OptionSpecs<UnsignalledCrossingOptions> = {
  speedFactor: {
    type: "number",
    default: 1.8,
    min: 1,
    max: 5,
    doc: "the pedestrian crosses at this multiple of its walking speed (the blog's 1.8)",
  },
  safetyMargin: {
    type: "number",
    default: 2,
    min: 0,
    max: 100,
    unit: "m",
    doc: "each car's predicted stretch is this much longer; larger waits for bigger gaps",
  },
  timeMargin: {
    type: "number",
    default: 1,
    min: 0,
    max: 60,
    unit: "s",
    doc: "added to the crossing time: stepping off, hesitating",
  },
};

/** The crossing to assess. */
export interface CrossingGeometry {
  /** Kerb-to-kerb length of the crossing path (m). */
  length: number;
  /** Width of the crosswalk along the street, plus the pedestrian's body (m). */
  width: number;
  /** The pedestrian's walking speed (m/s). */
  walkingSpeed: number;
}

/** The outcome, reused across calls. */
export class CrossingAssessment {
  /** True when no car is a threat. */
  safe = true;
  /** Number of threatening cars. */
  threatCount = 0;
  /** Time needed to cross at the hurried speed, margin included (s). */
  crossingTime = 0;
  /** 1 where the car is a threat. */
  threats: Uint8Array = new Uint8Array(16);
  /** Distance (m) each car may cover before the pedestrian is across, margin included. */
  reach: Float64Array = new Float64Array(16);

  /** @internal Makes room for `count` cars. */
  reserve(count: number): void {
    if (count <= this.threats.length) return;
    let size = this.threats.length;
    while (size < count) size *= 2;
    this.threats = new Uint8Array(size);
    this.reach = new Float64Array(size);
  }
}

/**
 * The blog's threat test for crossing without a light (see the module doc).
 *
 * @example A car 80 m away at 50 km/h, and one stopped at a red light 5 m away
 * ```ts
 * import { CrossingAssessment, UnsignalledCrossing } from "./crossing_prediction.ts";
 * import assert from "node:assert/strict";
 * const cars = {
 *   count: 2,
 *   distance: new Float64Array([80, 5]),
 *   maxSpeed: new Float64Array([13.9, 13.9]),
 *   length: new Float64Array([4.5, 4.5]),
 *   holdTime: new Float64Array([0, 20]),
 * };
 * const check = new UnsignalledCrossing();
 * const out = check.assess(cars, { length: 7, width: 3.5, walkingSpeed: 1.34 }, new CrossingAssessment());
 * // 7 m at 1.8 × 1.34 m/s takes 2.9 s, plus 1 s: the first car covers 54 m (+ 2 m): safe.
 * assert.equal(out.safe, true);
 * ```
 */
export class UnsignalledCrossing {
  /** Validated options. */
  readonly options: Readonly<UnsignalledCrossingOptions>;

  constructor(options: Partial<UnsignalledCrossingOptions> = {}) {
    this.options = resolveOptions("unsignalled crossing", UNSIGNALLED_CROSSING_OPTIONS, options);
  }

  /** Time (s) to cross `length` m at `walkingSpeed` m/s, hurried, with the time margin. */
  crossingTime(length: number, walkingSpeed: number): number {
    return length / (this.options.speedFactor * walkingSpeed) + this.options.timeMargin;
  }

  /** Assesses crossing `crossing` among `cars`; writes the outcome into `out` and returns it. */
  assess(
    cars: ApproachingCars,
    crossing: CrossingGeometry,
    out: CrossingAssessment,
  ): CrossingAssessment {
    if (!(crossing.walkingSpeed > 0) || !(crossing.length >= 0) || !(crossing.width >= 0)) {
      throw new RangeError(
        `Cannot assess crossing as 'walkingSpeed' must be > 0 and 'length', 'width' >= 0: current values are ${crossing.walkingSpeed}, ${crossing.length}, ${crossing.width}`,
      );
    }
    const time = this.crossingTime(crossing.length, crossing.walkingSpeed);
    const margin = this.options.safetyMargin, band = crossing.width;
    out.reserve(cars.count);
    out.crossingTime = time;
    let threats = 0;
    for (let k = 0; k < cars.count; k++) {
      const d = cars.distance[k];
      const moving = time - cars.holdTime[k];
      const reach = (moving > 0 ? cars.maxSpeed[k] * moving : 0) + margin;
      out.reach[k] = reach;
      // Gone: the rear has passed the far edge of the crosswalk.
      const gone = d + cars.length[k] < -band;
      const threat = !gone && d <= reach;
      out.threats[k] = threat ? 1 : 0;
      if (threat) threats++;
    }
    out.threatCount = threats;
    out.safe = threats === 0;
    return out;
  }
}

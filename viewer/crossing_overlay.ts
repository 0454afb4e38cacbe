/**
 * The `crossing` debug overlay of a picked pedestrian in a scene with cars, after the debug view
 * of F. Gennari, "Procedural City: Pedestrian Updates + Navigation" (3DWorld blog, 2019):
 *
 * - **predicted car paths**: every car approaching the next crosswalk of the pedestrian's route,
 *   its rectangle and the stretch of its path it may cover before the pedestrian is across (at
 *   its top speed over the hurried crossing time, a red light's hold taken off, as the
 *   navigator's `UnsignalledCrossing` predicts it): red for the cars that are a threat, green for
 *   the others;
 * - **the route by leg**: the path to the next crosswalk, the crosswalk, and each later crosswalk
 *   of the stored route with the walk to it, one colour per leg ({@linkcode ROUTE_LEG_COLORS}),
 *   then the walk to the destination.
 *
 * Reading the cars and the agent's columns changes nothing in the run.
 *
 * @module
 */
import type { World } from "../core/world.ts";
import type { CityModel } from "../geo/city_model.ts";
import type { BlockNetwork } from "../navigation/block_network.ts";
import { CITY_COLUMNS } from "../navigation/city_block_navigator.ts";
import { CrossingAssessment, UnsignalledCrossing } from "../navigation/crossing_prediction.ts";
import { CarApproaches } from "../traffic/car_approaches.ts";
import type { CarSystem } from "../traffic/car_system.ts";
import { LinkKind } from "../traffic/lane_network.ts";
import { PREDICTION_COLORS, ROUTE_LEG_COLORS } from "./crossing_overlay_colors.ts";

export { PREDICTION_COLORS, ROUTE_LEG_COLORS };

/** Most links a predicted stretch is followed over. */
const MAX_LINKS = 3;
/** Spacing (m) of the points drawn along a predicted stretch. */
const SAMPLE_STEP = 2;
/** Route legs stored per agent by the city navigator (`city.leg0` …). */
const STORED_LEGS = 6;
/** Path corners stored per agent by the city navigator (`city.pathX0` …). */
const STORED_CORNERS = 8;

/** A sink for coloured segments (m). */
export type SegmentSink = (
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  color: readonly number[],
) => void;

/** What the overlay reads: the city, its cars and the navigator's blocks and crosswalks. */
export interface CrossingOverlaySource {
  /** The city (its crossings). */
  readonly city: CityModel;
  /** The cars. */
  readonly cars: CarSystem;
  /** The navigator's blocks and crosswalks (kerb points, crossing lengths). */
  readonly network: BlockNetwork;
  /** The navigator's prediction of crossings without a light. @default its defaults */
  readonly prediction?: UnsignalledCrossing;
}

/**
 * Builds the `crossing` overlay of one pedestrian (see the module doc).
 *
 * @example The overlay of someone about to cross the crosswalk scene's street
 * ```ts
 * import { CrossingOverlay } from "./crossing_overlay.ts";
 * import { buildCityTraffic } from "../scenarios/city_traffic.ts";
 * import assert from "node:assert/strict";
 * const run = buildCityTraffic("crosswalk", { agents: 10, cars: 20, strategy: "none" });
 * for (let k = 0; k < 40; k++) run.world.step();
 * const overlay = new CrossingOverlay({ ...run, network: run.navigator.network! });
 * const colours: number[][] = [];
 * const cars = overlay.build(run.world, 0, (_x0, _y0, _x1, _y1, c) => colours.push([...c]));
 * assert.ok(cars >= 0);
 * assert.ok(colours.length > 0);
 * ```
 */
export class CrossingOverlay {
  /** The last assessment (for tests and the inspector). */
  readonly assessment: CrossingAssessment = new CrossingAssessment();
  /** The cars of the last assessment. */
  readonly approaches: CarApproaches = new CarApproaches();
  readonly #source: CrossingOverlaySource;
  readonly #prediction: UnsignalledCrossing;
  readonly #point = new Float64Array(4);
  readonly #corners = new Float64Array(8);

  /** @param source the city, its cars and the navigator's network */
  constructor(source: CrossingOverlaySource) {
    this.#source = source;
    this.#prediction = source.prediction ?? new UnsignalledCrossing();
  }

  /**
   * Writes the overlay of agent `i` (an index into `world.agents`) to `push`: its route by leg,
   * then the predicted paths of the cars approaching its next crosswalk (not those driving away
   * from it). Returns how many cars were assessed (0 when the agent has no crosswalk ahead or
   * the world has no city columns).
   */
  build(world: World, i: number, push: SegmentSink): number {
    const a = world.agents;
    if (!a.hasColumn(CITY_COLUMNS.crossing) || i < 0 || i >= a.count) return 0;
    this.#route(world, i, push);
    const c = a.column<Int32Array>(CITY_COLUMNS.crossing)[i];
    const crossing = c >= 0 ? this.#source.city.crossings[c] : undefined;
    if (!crossing || crossing.edge === null) return 0;
    const { cars, network } = this.#source;
    const approaches = this.approaches, assessment = this.assessment;
    cars.approachingCars(
      { edge: crossing.edge, x: crossing.x, y: crossing.y, width: crossing.width },
      approaches,
    );
    this.#prediction.assess(approaches, {
      length: network.crossingLength[c],
      width: crossing.width + 2 * a.radius[i], // as the navigator assesses it
      walkingSpeed: a.desiredSpeed[i] > 0 ? a.desiredSpeed[i] : 1.34,
    }, assessment);
    const band = crossing.width + 2 * a.radius[i];
    for (let k = 0; k < approaches.count; k++) {
      // Cars whose rear has passed the crosswalk are driving away: nothing to draw.
      if (approaches.distance[k] + approaches.length[k] < -band) continue;
      const color = assessment.threats[k] === 1
        ? PREDICTION_COLORS.threat
        : PREDICTION_COLORS.clear;
      const car = approaches.car[k];
      this.#stretch(car, assessment.reach[k], color, push);
      cars.corners(car, this.#corners);
      const q = this.#corners;
      for (let e = 0; e < 4; e++) {
        const f = (e + 1) % 4;
        push(q[2 * e], q[2 * e + 1], q[2 * f], q[2 * f + 1], color);
      }
    }
    return approaches.count;
  }

  /** The route of agent `i` by leg. */
  #route(world: World, i: number, push: SegmentSink): void {
    const a = world.agents, net = this.#source.network;
    const col = <T extends Int32Array | Float64Array>(name: string) => a.column<T>(name)[i];
    let leg = 0, x = a.px[i], y = a.py[i];
    const to = (tx: number, ty: number) => {
      push(x, y, tx, ty, ROUTE_LEG_COLORS[leg % ROUTE_LEG_COLORS.length]);
      x = tx;
      y = ty;
    };
    // The in-block path to the next crosswalk (or to the destination).
    const corners = Math.min(col<Int32Array>(CITY_COLUMNS.cornerCount), STORED_CORNERS);
    for (let k = Math.max(0, col<Int32Array>(CITY_COLUMNS.cornerPos)); k < corners; k++) {
      to(col<Float64Array>(`city.pathX${k}`), col<Float64Array>(`city.pathY${k}`));
    }
    if (col<Int32Array>(CITY_COLUMNS.crossing) < 0) {
      to(a.goalX[i], a.goalY[i]);
      return;
    }
    to(col<Float64Array>(CITY_COLUMNS.firstX), col<Float64Array>(CITY_COLUMNS.firstY));
    to(col<Float64Array>(CITY_COLUMNS.secondX), col<Float64Array>(CITY_COLUMNS.secondY));
    // Later crosswalks of the stored route: the walk to each (straight), then across it.
    const count = col<Int32Array>(CITY_COLUMNS.legCount), stored = Math.abs(count);
    for (let p = col<Int32Array>(CITY_COLUMNS.legPos) + 1; p < Math.min(stored, STORED_LEGS); p++) {
      leg++;
      const code = col<Int32Array>(`city.leg${p}`), c = code >> 1, near = code & 1;
      const k = 4 * c;
      to(net.kerbs[k + 2 * near], net.kerbs[k + 2 * near + 1]);
      to(net.kerbs[k + 2 * (1 - near)], net.kerbs[k + 2 * (1 - near) + 1]);
    }
    // A whole route ends at the destination; a cut one is planned again on the way.
    if (count >= 0) {
      leg++;
      to(a.goalX[i], a.goalY[i]);
    }
  }

  /**
   * The stretch car `car` may cover: `reach` m along its path from its front (a light's hold
   * already taken off), over its link and the next ones it will take.
   */
  #stretch(car: number, reach: number, color: readonly number[], push: SegmentSink): void {
    const cars = this.#source.cars, network = cars.network, store = cars.cars, p = this.#point;
    let link = store.link[car], s = store.s[car], left = reach;
    network.pointAt(link, s, p);
    let x = p[0], y = p[1];
    for (let hop = 0; hop < MAX_LINKS && left > 0 && link >= 0; hop++) {
      const end = Math.min(network.length[link], s + left);
      for (let t = s + SAMPLE_STEP;; t += SAMPLE_STEP) {
        const at = Math.min(t, end);
        network.pointAt(link, at, p);
        push(x, y, p[0], p[1], color);
        x = p[0];
        y = p[1];
        if (at >= end) break;
      }
      if (end < network.length[link]) break; // the stretch ends on this link
      left -= end - s;
      s = 0;
      link = network.kind[link] === LinkKind.lane
        ? (hop === 0 ? cars.nextConnector(car) : -1)
        : network.toLane[link];
    }
  }
}

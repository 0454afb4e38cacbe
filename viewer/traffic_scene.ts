/**
 * Traffic as the viewer draws it: the static geometry of a scene with cars (signal heads at the
 * stop lines and at the kerbs, crosswalk stripes) once, in the hello's
 * {@linkcode TrafficSceneInfo}, and then at every step a traffic message
 * (`viewer/traffic_frame.ts`) with the cars, the colour of every signal head and each
 * pedestrian's crossing state.
 *
 * - **Vehicle lights**: one head per lane that ends at a signalled junction, at the lane's stop
 *   line on the kerb side of the lane, showing the colour of the lane's through movement (or its
 *   first controlled movement).
 * - **Walk signals**: two heads per signalled crosswalk, just beyond each kerb end.
 * - **Stripes**: zebra bars across every crosswalk, 0.5 m deep every metre, as wide as the
 *   crosswalk.
 * - **Sidewalks**: the city's blocks (the walkable ground between the streets).
 *
 * @module
 */
import type { World } from "../core/world.ts";
import type { CityModel } from "../geo/city_model.ts";
import { CITY_COLUMNS, CITY_STATE_NAMES } from "../navigation/city_block_navigator.ts";
import type { CityTrafficRun } from "../scenarios/city_traffic.ts";
import { type LaneNetwork, LinkKind, TurnKind } from "../traffic/lane_network.ts";
import type { TrafficLights } from "../traffic/traffic_lights.ts";
import type { CarStore } from "../traffic/car_store.ts";
import { citySceneLayers } from "./city_scene.ts";
import type { MetrePoint, SceneInfo, TrafficSceneInfo } from "./frame_protocol.ts";
import { DEFAULT_ANCHOR } from "./scene_info.ts";
import { allocateTrafficFrame } from "./traffic_frame.ts";

/** Depth of a zebra bar along the crosswalk, and the distance between two bars' starts (m). */
const STRIPE_DEPTH = 0.5, STRIPE_PERIOD = 1;
/** How far beyond its kerb end a walk signal stands (m). */
const WALK_SIGNAL_SETBACK = 0.6;
/** Margin (m) around the sidewalks framed at the start of a scene with cars. */
const FRAME_MARGIN = 4;

const _round = (v: number) => Math.round(v * 100) / 100;

/**
 * The traffic of a scene: its static geometry ({@linkcode TrafficScene.info}) and the encoder of
 * its per-step messages ({@linkcode TrafficScene.encode}).
 *
 * @example The crosswalk scene: two lanes with a light each, two walk signals
 * ```ts
 * import { TrafficScene } from "./traffic_scene.ts";
 * import { decodeTrafficFrame } from "./traffic_frame.ts";
 * import { buildCityTraffic } from "../scenarios/city_traffic.ts";
 * import assert from "node:assert/strict";
 * const run = buildCityTraffic("crosswalk", { agents: 10, cars: 6, strategy: "none" });
 * const traffic = TrafficScene.fromRun(run);
 * assert.deepEqual(traffic.info.signals.map((s) => s.kind), ["vehicle", "vehicle", "walk", "walk"]);
 * for (let k = 0; k < 10; k++) run.world.step();
 * const frame = decodeTrafficFrame(traffic.encode(run.world, 0));
 * assert.equal(frame.cars, 6);
 * assert.equal(frame.states, run.world.agents.count);
 * ```
 */
export class TrafficScene {
  /** The static geometry sent in the hello. */
  readonly info: TrafficSceneInfo;
  readonly #lights: TrafficLights | undefined;
  /** Per signal head: the connector (vehicle light) or crossing (walk signal) it shows. */
  readonly #source: Int32Array;
  readonly #walk: Uint8Array;
  readonly #cars: CarStore | undefined;

  /**
   * @param city the city (its crossings)
   * @param network the lanes (for vehicle lights)
   * @param lights the lights, if any (without, no signal heads)
   * @param crossingStates names of the pedestrians' crossing states by code (empty: none sent)
   * @param cars the cars' store, read for their poses (placed cars show before the first step);
   *   without, the world's `vehicles` are sent
   */
  constructor(
    city: CityModel,
    network: LaneNetwork,
    lights: TrafficLights | undefined,
    crossingStates: readonly string[] = CITY_STATE_NAMES,
    cars?: CarStore,
  ) {
    const signals: TrafficSceneInfo["signals"] = [], source: number[] = [], walk: number[] = [];
    if (lights) {
      for (let lane = 0; lane < network.laneCount; lane++) {
        const movement = _shownMovement(network, lights, lane);
        if (movement < 0) continue;
        signals.push({ position: _stopLineSide(network, lane), kind: "vehicle" });
        source.push(movement);
        walk.push(0);
      }
      city.crossings.forEach((crossing, c) => {
        if (c >= lights.crossingJunction.length || lights.crossingJunction[c] < 0) return;
        const p = crossing.points, n = p.length;
        if (n < 2) return;
        for (const [end, before] of [[0, 1], [n - 1, n - 2]]) {
          const dx = p[end][0] - p[before][0], dy = p[end][1] - p[before][1];
          const d = Math.hypot(dx, dy) || 1;
          signals.push({
            position: [
              _round(p[end][0] + (dx / d) * WALK_SIGNAL_SETBACK),
              _round(p[end][1] + (dy / d) * WALK_SIGNAL_SETBACK),
            ],
            kind: "walk",
          });
          source.push(c);
          walk.push(1);
        }
      });
    }
    this.info = {
      signals,
      stripes: crosswalkStripes(city),
      sidewalks: (city.blocks ?? []).map((b) =>
        b.polygon[0].map(([x, y]) => [_round(x), _round(y)])
      ),
      crossingStates: [...crossingStates],
    };
    this.#lights = lights;
    this.#cars = cars;
    this.#source = Int32Array.from(source);
    this.#walk = Uint8Array.from(walk);
  }

  /** The traffic of a built scenario with cars. */
  static fromRun(run: CityTrafficRun): TrafficScene {
    return new TrafficScene(
      run.city,
      run.cars.network,
      run.lights,
      CITY_STATE_NAMES,
      run.cars.cars,
    );
  }

  /**
   * Encodes the cars (from the car store, else from `world.vehicles`), the signal heads' states at
   * the world's time and, when the agents carry the city navigator's state column, their
   * crossing states, as a traffic message of view `view`. With `states` (a recorded frame that
   * also holds the agents that left during its step, after those present), the crossing states
   * run to that count, the departed ones `despawn`.
   */
  encode(world: World, view: number, states?: number): ArrayBuffer {
    const store = this.#cars, v = world.vehicles, a = world.agents;
    const c = store ? store.count : v.count;
    const hasStates = this.info.crossingStates.length > 0 && a.hasColumn(CITY_COLUMNS.state);
    const n = hasStates ? Math.max(a.count, states ?? 0) : 0;
    const s = this.#source.length;
    const frame = allocateTrafficFrame({
      view,
      step: world.stepIndex,
      cars: c,
      signals: s,
      states: n,
    });
    if (store) {
      for (let k = 0; k < c; k++) {
        frame.centres[2 * k] = store.x[k];
        frame.centres[2 * k + 1] = store.y[k];
        frame.heading[k] = Math.atan2(store.dirY[k], store.dirX[k]);
        frame.speed[k] = Math.abs(store.speed[k]);
        frame.length[k] = store.length[k];
        frame.width[k] = store.width[k];
      }
    } else {
      for (let k = 0; k < c; k++) {
        frame.centres[2 * k] = v.cx[k];
        frame.centres[2 * k + 1] = v.cy[k];
        frame.heading[k] = Math.atan2(v.dirY[k], v.dirX[k]);
        frame.speed[k] = Math.hypot(v.vx[k], v.vy[k]);
        frame.length[k] = 2 * v.halfLength[k];
        frame.width[k] = 2 * v.halfWidth[k];
      }
    }
    const lights = this.#lights, t = world.time;
    if (lights) {
      for (let k = 0; k < s; k++) {
        frame.signalState[k] = this.#walk[k] === 1
          ? lights.walkSignal(this.#source[k], t)
          : lights.movementColor(this.#source[k], t);
      }
    }
    if (n > 0) {
      frame.crossingState.set(a.column<Uint8Array>(CITY_COLUMNS.state).subarray(0, a.count));
      frame.crossingState.fill(Math.max(0, this.info.crossingStates.indexOf("despawn")), a.count);
    }
    return frame.buffer;
  }
}

/**
 * The scene of a built scenario with cars: the city's layers, the traffic's static geometry, and
 * the sidewalks (the city's blocks) framed. A city without a geographic anchor is placed at
 * {@linkcode DEFAULT_ANCHOR}.
 */
export function sceneFromCityTraffic(run: CityTrafficRun, traffic: TrafficScene): SceneInfo {
  const city = run.city;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const block of city.blocks ?? []) {
    for (const [x, y] of block.polygon[0]) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  if (!(minX <= maxX)) [minX, minY, maxX, maxY] = city.bounds;
  const anchored = city.anchor.lon !== 0 || city.anchor.lat !== 0;
  return {
    name: run.name,
    anchor: anchored ? { ...city.anchor } : { ...DEFAULT_ANCHOR },
    defaultAnchor: !anchored,
    bounds: {
      minX: minX - FRAME_MARGIN,
      minY: minY - FRAME_MARGIN,
      maxX: maxX + FRAME_MARGIN,
      maxY: maxY + FRAME_MARGIN,
    },
    polygons: [],
    polygonHeights: [],
    walls: [],
    // The signal heads in their colours stand in for the city's signal markers.
    city: { ...citySceneLayers(city), signals: [] },
    traffic: traffic.info,
  };
}

/**
 * Zebra bars of every crosswalk of `city` (quadrilaterals, m): across each straight piece of a
 * crosswalk's path, a bar 0.5 m deep every metre, centred on the piece, as wide as the crosswalk.
 *
 * @example A 7 m crosswalk gets seven bars
 * ```ts
 * import { crosswalkStripes } from "./traffic_scene.ts";
 * import { crosswalkCity } from "../scenarios/city_traffic.ts";
 * import assert from "node:assert/strict";
 * const stripes = crosswalkStripes(crosswalkCity(30));
 * assert.equal(stripes.length, 7);
 * assert.deepEqual(stripes[0], [[-2, -3.25], [-2, -2.75], [2, -2.75], [2, -3.25]]);
 * ```
 */
export function crosswalkStripes(city: CityModel): MetrePoint[][] {
  const out: MetrePoint[][] = [];
  for (const crossing of city.crossings) {
    const p = crossing.points, half = crossing.width / 2;
    for (let k = 0; k + 1 < p.length; k++) {
      const dx = p[k + 1][0] - p[k][0], dy = p[k + 1][1] - p[k][1], length = Math.hypot(dx, dy);
      if (length < STRIPE_DEPTH) continue;
      const ux = dx / length, uy = dy / length, nx = -uy * half, ny = ux * half;
      const bars = Math.max(1, Math.floor((length - STRIPE_DEPTH) / STRIPE_PERIOD) + 1);
      const start = (length - ((bars - 1) * STRIPE_PERIOD + STRIPE_DEPTH)) / 2;
      for (let b = 0; b < bars; b++) {
        const s0 = start + b * STRIPE_PERIOD, s1 = s0 + STRIPE_DEPTH;
        const ax = p[k][0] + ux * s0, ay = p[k][1] + uy * s0;
        const bx = p[k][0] + ux * s1, by = p[k][1] + uy * s1;
        out.push([
          [_round(ax + nx), _round(ay + ny)],
          [_round(bx + nx), _round(by + ny)],
          [_round(bx - nx), _round(by - ny)],
          [_round(ax - nx), _round(ay - ny)],
        ]);
      }
    }
  }
  return out;
}

/** The controlled movement a lane's light shows (its through movement first), or -1. */
function _shownMovement(network: LaneNetwork, lights: TrafficLights, lane: number): number {
  let shown = -1;
  for (let k = network.outStart[lane]; k < network.outStart[lane + 1]; k++) {
    const link = network.outLinks[k];
    if (network.kind[link] !== LinkKind.connector || !lights.controls(link)) continue;
    if (network.turn[link] === TurnKind.through) return link;
    if (shown < 0) shown = link;
  }
  return shown;
}

/** The kerb-side corner of a lane's stop line (m). */
function _stopLineSide(network: LaneNetwork, lane: number): MetrePoint {
  const end = network.pointStart[lane + 1] - 1, before = end - 1;
  const x = network.px[end], y = network.py[end];
  const dx = x - network.px[before], dy = y - network.py[before], d = Math.hypot(dx, dy) || 1;
  // Right of the direction of travel where vehicles keep right, else left.
  const side = network.drivingSide === "right" ? 1 : -1, half = network.width[lane] / 2;
  return [_round(x + (dy / d) * half * side), _round(y - (dx / d) * half * side)];
}

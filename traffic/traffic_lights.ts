/**
 * Traffic lights of a city: one fixed-time finite-state machine per signalled junction, with
 * vehicle signals per movement (green, yellow, red) and pedestrian signals per crosswalk (walk,
 * flashing, don't walk) in step with them.
 *
 * **Phases.** The approaches of a junction are grouped by axis (approaches within 30° of being
 * parallel or opposite share a group: north–south, east–west). Each group gets a main phase with
 * its through movements and kerbside turns. Farside turns (left turns where vehicles keep right)
 * either join it as *permissive* turns, which find a gap in the oncoming traffic through the car
 * system's conflict check (`turnPhases: "permissive"`, two phases at a 4-way junction), or, when
 * they cross the main phase's movements, get a *protected* turn phase of their own
 * (`"protected"`, four phases). Each phase runs green, yellow, then all-red. A crosswalk may be
 * walked during a phase when no green movement leaves from its arm (those cars cross it right
 * after their stop line) and every green movement into its arm is a turn whose drivers yield to
 * people on the crosswalk — kerbside turns, and permissive farside turns — as everywhere; a
 * crosswalk that no phase can serve (a signalled mid-block crossing) gets an extra pedestrian
 * phase with every car held.
 *
 * **Pedestrian signals.** During a phase that serves it, a crosswalk shows walk from the start of
 * green until `pedestrianClearance` seconds before the end of yellow, then flashing (do not
 * start, finish crossing), then don't walk through the all-red and the other phases.
 *
 * **Time.** Every query is a pure function of the simulation time `t` and the plan
 * ({@linkcode SignalCycle}): asking about `t + 10` is as cheap as asking about `t` and changes
 * nothing. Cars ask "how long until my movement turns red" to decide at a yellow light;
 * pedestrians ask "will the cars that stand at the line still be held when I am across".
 *
 * @module
 */
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import { Rng } from "../core/rng.ts";
import type { CityModel } from "../geo/city_model.ts";
import { type LaneNetwork, TurnKind } from "./lane_network.ts";
import { SignalColor, SignalCycle, WalkSignal } from "./signal_cycle.ts";

/** Options of {@linkcode buildTrafficLights}. */
export interface TrafficLightOptions {
  /** Green time of a main (through) phase (s). @default 20 */
  greenTime: number;
  /** Green time of a protected turn phase (s). @default 8 */
  turnGreenTime: number;
  /**
   * Farside turns: `"permissive"` (green with the main phase, yielding to oncoming cars and to
   * pedestrians) or `"protected"` (a phase of their own where they cross the main phase's
   * movements). Permissive halves the cycle of a 4-way junction. @default "permissive"
   */
  turnPhases: "permissive" | "protected";
  /** Yellow time (s); about 1 s per 10 km/h of the speed limit. @default 3 */
  yellowTime: number;
  /** All-red time after each phase, to clear the junction (s). @default 2 */
  allRedTime: number;
  /** Walk and flashing time of a pedestrian-only phase (s). @default 15 */
  pedestrianPhaseTime: number;
  /**
   * Flashing don't-walk time at the end of a phase that serves a crosswalk (s): time to finish
   * crossing. Must be shorter than every green + yellow. @default 10
   */
  pedestrianClearance: number;
  /**
   * Cycle offsets: `"random"` (seeded, each junction starts somewhere in its cycle) or `"zero"`
   * (all junctions in step). @default "random"
   */
  offsets: "random" | "zero";
  /** Seed of the random offsets. @default 1 */
  seed: number;
}

/** Descriptors of {@linkcode TrafficLightOptions}. */
export const TRAFFIC_LIGHT_OPTIONS: OptionSpecs<TrafficLightOptions> = {
  greenTime: {
    type: "number",
    default: 20,
    min: 1,
    max: 600,
    unit: "s",
    doc: "green time of a main phase; longer serves more cars per cycle, and waits longer",
  },
  turnGreenTime: {
    type: "number",
    default: 8,
    min: 1,
    max: 600,
    unit: "s",
    doc: "green time of a protected turn phase",
  },
  turnPhases: {
    type: "enum",
    values: ["permissive", "protected"],
    default: "permissive",
    doc:
      '"permissive": farside turns go with the main phase and yield; "protected": their own phase',
  },
  yellowTime: {
    type: "number",
    default: 3,
    min: 0,
    max: 30,
    unit: "s",
    doc: "yellow time; about 1 s per 10 km/h of the speed limit",
  },
  allRedTime: {
    type: "number",
    default: 2,
    min: 0,
    max: 30,
    unit: "s",
    doc: "all-red time after each phase, for the junction to clear",
  },
  pedestrianPhaseTime: {
    type: "number",
    default: 15,
    min: 1,
    max: 600,
    unit: "s",
    doc: "walk plus flashing time of a pedestrian-only phase",
  },
  pedestrianClearance: {
    type: "number",
    default: 10,
    min: 0,
    max: 600,
    unit: "s",
    doc: "flashing don't-walk time at the end of a phase serving a crosswalk",
  },
  offsets: {
    type: "enum",
    values: ["random", "zero"],
    default: "random",
    doc: '"random": each junction starts somewhere in its cycle; "zero": all in step',
  },
  seed: {
    type: "number",
    default: 1,
    min: 0,
    max: 0xffff_ffff,
    integer: true,
    doc: "seed of the random offsets",
  },
};

/** Stages per phase: green, yellow, all-red. */
const STAGES_PER_PHASE = 3;
/** Most phases a junction can have (phases are bits of a 32-bit mask). */
const MAX_PHASES = 32;
/** Approaches within this angle (deg) of parallel or opposite share an axis group. */
const AXIS_ANGLE = 30;

/**
 * The traffic lights of a lane network. Build with {@linkcode buildTrafficLights}. Movements
 * (connectors) at junctions without a light are always green: their cars rely on the car
 * system's conflict check alone.
 */
export class TrafficLights {
  /** Signalled junctions. */
  readonly junctionCount: number;
  /** Street-network node of each junction. */
  readonly junctionNode: Int32Array;
  /** Fixed-time cycle of each junction: stages green, yellow, all-red of phase 0, then 1, … */
  readonly cycles: readonly SignalCycle[];
  /** Junction controlling each link (connectors only), or -1. */
  readonly movementJunction: Int32Array;
  /** Bit `p` set: the movement is green in phase `p` of its junction. */
  readonly movementPhases: Uint32Array;
  /** Junction controlling each crossing of the city model, or -1. */
  readonly crossingJunction: Int32Array;
  /** Bit `p` set: the crossing may be walked in phase `p` of its junction. */
  readonly crossingPhases: Uint32Array;
  /** Flashing don't-walk time (s). */
  readonly pedestrianClearance: number;

  /** @internal Use {@linkcode buildTrafficLights}. */
  constructor(
    junctionNode: Int32Array,
    cycles: readonly SignalCycle[],
    movementJunction: Int32Array,
    movementPhases: Uint32Array,
    crossingJunction: Int32Array,
    crossingPhases: Uint32Array,
    pedestrianClearance: number,
  ) {
    this.junctionCount = junctionNode.length;
    this.junctionNode = junctionNode;
    this.cycles = cycles;
    this.movementJunction = movementJunction;
    this.movementPhases = movementPhases;
    this.crossingJunction = crossingJunction;
    this.crossingPhases = crossingPhases;
    this.pedestrianClearance = pedestrianClearance;
  }

  /** Phase of junction `junction` running at time `t` (s). */
  phaseAt(junction: number, t: number): number {
    return Math.floor(this.cycles[junction].stageAt(t) / STAGES_PER_PHASE);
  }

  /**
   * Writes the stage of every junction's cycle at time `t` (s) into `out` (one entry per
   * junction), for {@linkcode TrafficLights.colorInStage}: a step that asks about many movements
   * at one time folds the time into each cycle once.
   */
  stagesAt(t: number, out: Int32Array): void {
    for (let j = 0; j < this.junctionCount; j++) out[j] = this.cycles[j].stageAt(t);
  }

  /**
   * Colour of connector `link` when its junction is in stage `stage` (from
   * {@linkcode TrafficLights.stagesAt}); green when no light controls it.
   */
  colorInStage(link: number, stage: number): SignalColor {
    if (this.movementJunction[link] < 0) return SignalColor.green;
    return _stageColor(stage, this.movementPhases[link]);
  }

  /** True when a light controls connector `link`. */
  controls(link: number): boolean {
    return this.movementJunction[link] >= 0;
  }

  /** Colour of connector `link`'s signal at time `t` (s); green when no light controls it. */
  movementColor(link: number, t: number): SignalColor {
    const j = this.movementJunction[link];
    if (j < 0) return SignalColor.green;
    return _stageColor(this.cycles[j].stageAt(t), this.movementPhases[link]);
  }

  /** Seconds from `t` until connector `link` shows red; 0 while red, Infinity when never. */
  timeUntilRed(link: number, t: number): number {
    const j = this.movementJunction[link];
    if (j < 0) return Infinity;
    return _timeUntilColor(this.cycles[j], this.movementPhases[link], t, SignalColor.red);
  }

  /** Seconds from `t` until connector `link` shows green; 0 while green, Infinity when never. */
  timeUntilGreen(link: number, t: number): number {
    const j = this.movementJunction[link];
    if (j < 0) return 0;
    return _timeUntilColor(this.cycles[j], this.movementPhases[link], t, SignalColor.green);
  }

  /**
   * Pedestrian signal of crossing `crossing` (an index into the city model's crossings) at time
   * `t` (s); walk when no light controls it.
   */
  walkSignal(crossing: number, t: number): WalkSignal {
    const j = this.crossingJunction[crossing];
    if (j < 0) return WalkSignal.walk;
    return this.#walkSignal(this.cycles[j], this.crossingPhases[crossing], t);
  }

  /** Seconds from `t` until crossing `crossing` shows walk; 0 while it does. */
  timeUntilWalk(crossing: number, t: number): number {
    const j = this.crossingJunction[crossing];
    if (j < 0) return 0;
    const cycle = this.cycles[j], mask = this.crossingPhases[crossing];
    if (this.#walkSignal(cycle, mask, t) === WalkSignal.walk) return 0;
    // Walk starts with the green stage of a phase that serves the crossing.
    const n = cycle.stageCount;
    let k = cycle.stageAt(t), wait = cycle.timeLeftInStage(t);
    for (let step = 0; step < n; step++) {
      k = (k + 1) % n;
      if (k % STAGES_PER_PHASE === 0 && ((mask >>> (k / STAGES_PER_PHASE)) & 1) === 1) {
        return wait;
      }
      wait += cycle.durations[k];
    }
    return Infinity;
  }

  /**
   * Seconds from `t` until crossing `crossing` shows steady don't walk (the end of flashing):
   * the time left to finish crossing. 0 while it shows don't walk, Infinity when never.
   */
  timeUntilDontWalk(crossing: number, t: number): number {
    const j = this.crossingJunction[crossing];
    if (j < 0) return Infinity;
    const cycle = this.cycles[j];
    const k = cycle.stageAt(t), phase = Math.floor(k / STAGES_PER_PHASE);
    if (((this.crossingPhases[crossing] >>> phase) & 1) === 0) return 0;
    const sub = k % STAGES_PER_PHASE;
    if (sub === 2) return 0;
    const left = cycle.timeLeftInStage(t);
    return sub === 0 ? left + cycle.durations[k + 1] : left;
  }

  #walkSignal(cycle: SignalCycle, mask: number, t: number): WalkSignal {
    const k = cycle.stageAt(t), phase = Math.floor(k / STAGES_PER_PHASE);
    if (((mask >>> phase) & 1) === 0) return WalkSignal.dontWalk;
    const sub = k % STAGES_PER_PHASE;
    if (sub === 2) return WalkSignal.dontWalk;
    const left = cycle.timeLeftInStage(t) + (sub === 0 ? cycle.durations[k + 1] : 0);
    return left > this.pedestrianClearance ? WalkSignal.walk : WalkSignal.flashing;
  }
}

function _stageColor(stage: number, mask: number): SignalColor {
  const phase = Math.floor(stage / STAGES_PER_PHASE);
  if (((mask >>> phase) & 1) === 0) return SignalColor.red;
  return (stage % STAGES_PER_PHASE) as SignalColor;
}

function _timeUntilColor(cycle: SignalCycle, mask: number, t: number, color: SignalColor): number {
  let k = cycle.stageAt(t);
  if (_stageColor(k, mask) === color) return 0;
  const n = cycle.stageCount;
  let wait = cycle.timeLeftInStage(t);
  for (let step = 0; step < n; step++) {
    k = (k + 1) % n;
    if (cycle.durations[k] > 0 && _stageColor(k, mask) === color) return wait;
    wait += cycle.durations[k];
  }
  return Infinity;
}

/**
 * Builds a light at every signalled node of `city` that has movements in `network` (see the
 * module doc). A node is signalled when a {@linkcode CityModel.signals} entry stands on it or its
 * street node says so. Crossings that lie on an arm of a signalled node (`node` and `edge` set)
 * get pedestrian signals; the others have none. Throws a RangeError naming the option when
 * `pedestrianClearance` leaves no walk time.
 *
 * @example The lights of a 2 × 2 procedural city
 * ```ts
 * import { buildLaneNetwork, buildTrafficLights, SignalColor } from "./mod.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const network = buildLaneNetwork(city);
 * const lights = buildTrafficLights(network, city, { offsets: "zero" });
 * assert.equal(lights.junctionCount, 5);
 * // Movement colours at t = 30 s and 31 s are known now, and asking changes nothing.
 * const link = network.laneCount;
 * assert.equal(lights.movementColor(link, 30), lights.movementColor(link, 30));
 * assert(lights.movementColor(link, 31) <= SignalColor.red);
 * ```
 */
export function buildTrafficLights(
  network: LaneNetwork,
  city: CityModel,
  options: Partial<TrafficLightOptions> = {},
): TrafficLights {
  const o = resolveOptions("traffic lights", TRAFFIC_LIGHT_OPTIONS, options);
  for (const [key, green] of [["greenTime", o.greenTime], ["turnGreenTime", o.turnGreenTime]]) {
    if (o.pedestrianClearance >= (green as number) + o.yellowTime) {
      throw new RangeError(
        `Cannot create traffic lights as 'pedestrianClearance' must be < ${key} + yellowTime (${
          (green as number) + o.yellowTime
        } s): current value is ${o.pedestrianClearance}`,
      );
    }
  }
  if (o.pedestrianClearance >= o.pedestrianPhaseTime) {
    throw new RangeError(
      `Cannot create traffic lights as 'pedestrianClearance' must be < pedestrianPhaseTime (${o.pedestrianPhaseTime} s): current value is ${o.pedestrianClearance}`,
    );
  }
  const signalled = new Set<number>();
  for (const s of city.signals) if (s.node !== null) signalled.add(s.node);
  city.streets.nodes.forEach((n, i) => n.signal && signalled.add(i));
  const rng = new Rng(o.seed);
  const junctionNodes: number[] = [];
  const cycles: SignalCycle[] = [];
  const movementJunction = new Int32Array(network.linkCount).fill(-1);
  const movementPhases = new Uint32Array(network.linkCount);
  const crossingJunction = new Int32Array(city.crossings.length).fill(-1);
  const crossingPhases = new Uint32Array(city.crossings.length);
  const nodes = [...signalled].filter((n) =>
    n >= 0 && n < network.nodeCount && network.nodeStart[n + 1] > network.nodeStart[n]
  ).sort((a, b) => a - b);
  for (const node of nodes) {
    const j = junctionNodes.length;
    const phases = _phases(network, node, o.turnPhases === "protected");
    const crossings: number[] = [];
    city.crossings.forEach((c, k) => {
      if (c.node === node && c.edge !== null) crossings.push(k);
    });
    // Walk masks: a phase serves a crosswalk when its only movements on the arm yield to people.
    const yields = (m: number) =>
      network.turn[m] === TurnKind.kerbside ||
      (network.turn[m] === TurnKind.farside && o.turnPhases === "permissive");
    const masks = crossings.map((k) => {
      const edge = city.crossings[k].edge!;
      let mask = 0;
      phases.forEach((movements, p) => {
        // Cars leaving from the arm cross the crosswalk straight after their stop line: never
        // together with walk. Cars turning into the arm may, as they yield.
        const blocked = movements.some((m) =>
          network.edge[network.fromLane[m]] === edge ||
          (network.edge[network.toLane[m]] === edge && !yields(m))
        );
        if (!blocked) mask |= 1 << p;
      });
      return mask;
    });
    const durations: number[] = [];
    phases.forEach((movements) => {
      const turnPhase = movements.every((m) => network.turn[m] === TurnKind.farside);
      durations.push(turnPhase ? o.turnGreenTime : o.greenTime, o.yellowTime, o.allRedTime);
    });
    if (masks.some((m) => m === 0)) {
      // A pedestrian-only phase: every car held, every crosswalk walked.
      const p = phases.length;
      phases.push([]);
      durations.push(o.pedestrianPhaseTime, 0, o.allRedTime);
      masks.forEach((_, i) => masks[i] |= 1 << p);
    }
    if (phases.length > MAX_PHASES) {
      throw new RangeError(
        `Cannot create traffic lights as node ${node} needs ${phases.length} phases: at most ${MAX_PHASES}`,
      );
    }
    const period = durations.reduce((a, b) => a + b, 0);
    const offset = o.offsets === "random" ? rng.range(0, period) : 0;
    cycles.push(new SignalCycle(durations, { offset }));
    junctionNodes.push(node);
    phases.forEach((movements, p) => {
      for (const m of movements) {
        movementJunction[m] = j;
        movementPhases[m] |= 1 << p;
      }
    });
    crossings.forEach((k, i) => {
      crossingJunction[k] = j;
      crossingPhases[k] = masks[i];
    });
  }
  return new TrafficLights(
    Int32Array.from(junctionNodes),
    cycles,
    movementJunction,
    movementPhases,
    crossingJunction,
    crossingPhases,
    o.pedestrianClearance,
  );
}

/** The car phases of a junction: lists of connectors green together. */
function _phases(network: LaneNetwork, node: number, protectedTurns: boolean): number[][] {
  const movements: number[] = [];
  for (let k = network.nodeStart[node]; k < network.nodeStart[node + 1]; k++) {
    movements.push(network.nodeLinks[k]);
  }
  // Approaches (entry edges) with their direction of travel into the node.
  const approaches = new Map<number, [number, number]>();
  const direction = new Float64Array(4);
  for (const m of movements) {
    const lane = network.fromLane[m], edge = network.edge[lane];
    if (approaches.has(edge)) continue;
    network.pointAt(lane, network.length[lane], direction);
    approaches.set(edge, [direction[2], direction[3]]);
  }
  const cos = Math.cos((AXIS_ANGLE * Math.PI) / 180);
  const groups: { axis: [number, number]; edges: Set<number> }[] = [];
  for (const edge of [...approaches.keys()].sort((a, b) => a - b)) {
    const [dx, dy] = approaches.get(edge)!;
    const group = groups.find(({ axis }) => Math.abs(axis[0] * dx + axis[1] * dy) >= cos);
    if (group) group.edges.add(edge);
    else groups.push({ axis: [dx, dy], edges: new Set([edge]) });
  }
  const conflicts = (a: number, b: number) => {
    const k = a - network.laneCount;
    for (let i = network.conflictStart[k]; i < network.conflictStart[k + 1]; i++) {
      if (network.conflicts[i] === b) return true;
    }
    return false;
  };
  const phases: number[][] = [];
  for (const { edges } of groups) {
    const own = movements.filter((m) => edges.has(network.edge[network.fromLane[m]]));
    const main = own.filter((m) => network.turn[m] !== TurnKind.farside);
    const turns: number[] = [];
    for (const m of own) {
      if (network.turn[m] !== TurnKind.farside) continue;
      if (protectedTurns && main.some((other) => conflicts(m, other))) turns.push(m);
      else main.push(m);
    }
    phases.push(main);
    if (turns.length > 0) phases.push(turns);
  }
  return phases;
}

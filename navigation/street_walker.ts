/**
 * Street walkers: agents that walk a city's street network on their own, choosing a street at
 * every junction, after D. Michael and Y. Chrysanthou, Automatic high level avatar guidance
 * based on affordance of movement, Eurographics 2003.
 *
 * Along a street a walker follows the street's direction — that of its centre line, which the
 * guidance map's road cells hold — on its own lane (see {@linkcode StreetLanes}), aiming a little
 * way ahead (`lookAheadM`). Within a junction's radius it chooses the next street by one of five
 * rules, never the street back to the junction it came from (unless nothing else is open), never
 * a blocked street:
 *
 * - `affordance`: with probability in proportion to the share of the junction's viewshed inside
 *   the view frustum along each street ({@linkcode JunctionAffordance}); the paper's rule;
 * - `random-walk`: every open street alike; the paper's comparison;
 * - `shortest-path`: the street on a shortest route to a destination, a random building (the
 *   street node nearest its entrance, else its centre; a random street node in a city without
 *   buildings); on reaching it the walker picks the next building. Routes run on the same street
 *   network and lanes as the other rules, so that counts differ only by the choice.
 * - `attractors`: in proportion to the visible share times the pull of the attractors in view
 *   along each street, `share · (1 + β·a)^γ` ({@linkcode AttractorGuidance}); on squares the
 *   look weighs directions by the attractors in sight the same way;
 * - `trips`: the street on a shortest route to a trip's end, drawn by attractor weight: from
 *   public transport to a destination, from a destination to public transport (probability
 *   `transportShare`) or to another destination.
 *
 * Once it has chosen, the walker turns gradually (at most `turnRateDegPerS`) from its heading to
 * the start of the next street, as in the paper, and takes that street when it has passed the
 * junction. At a junction on an open square (a pedestrian area) the square is one more choice
 * (see {@linkcode OpenSquares}), taken by affordance and random walkers; on the square a walker
 * looks over `fieldOfViewDeg` every `stepsBetweenLooks` paces of `paceM` and heads for a direction
 * in proportion to the walkable distance it sees there (A. Turner and A. Penn, Encoding natural
 * movement as an agent-based system, Environment and Planning B, 2002), until it reaches a
 * junction or a street leaving the square.
 *
 * A walker starts on the street nearest to where it was placed, in the direction of its
 * velocity (a random one when it stands still). Goals are not used: each step the walker's goal
 * is set to the junction it is heading for, so that viewers and metrics see where it goes, and
 * it never arrives. The navigators add the buildings' outlines to the world's walls (option
 * `buildingWalls`) so that avoidance strategies keep people off the facades.
 *
 * @module
 */
import { AgentFlags, type ColumnSpec } from "../core/agent_store.ts";
import type { NavigationContext, Navigator } from "../core/navigator.ts";
import type { OptionSpecs } from "../core/options.ts";
import type { Rng } from "../core/rng.ts";
import type { World } from "../core/world.ts";
import { GuidanceCell } from "./guidance_map.ts";
import type { StreetGuidance, StreetGuidanceOptions } from "./street_guidance.ts";
import type { StreetSpot } from "./street_lanes.ts";
import { StreetRoutes } from "./street_routes.ts";
import { AttractorGuidance } from "./attractor_guidance.ts";
import { isTransportAttractor, parseAttractorWeights } from "./attractor_weights.ts";

/** How a street walker chooses the next street at a junction (see the module doc). */
export type StreetChoiceRule =
  | "affordance"
  | "random-walk"
  | "shortest-path"
  | "attractors"
  | "trips";

/** Options of {@linkcode StreetWalker}. */
export interface StreetWalkerOptions {
  /** Full angle of the view frustum along each street (deg), as the affordance's. @default 60 */
  frustumDeg: number;
  /** How far walkers see from a junction (m); 0 for no limit. @default 1000 */
  maxRangeM: number;
  /** Walkers choose their next street this close to a junction's centre (m). @default 5 */
  junctionRadiusM: number;
  /** Sidewalk width beside roads that cars use (m). @default 2.5 */
  sidewalkWidthM: number;
  /** Walkers aim this far ahead along their lane (m). @default 2 */
  lookAheadM: number;
  /** Fastest turn of the walking direction (deg/s). @default 120 */
  turnRateDegPerS: number;
  /** Walkers may enter open squares at junctions inside them. @default true */
  squares: boolean;
  /** Field of view of walkers on a square (deg). @default 170 */
  fieldOfViewDeg: number;
  /** Paces between two looks of a walker on a square. @default 3 */
  stepsBetweenLooks: number;
  /** Length of a pace (m). @default 0.75 */
  paceM: number;
  /** Add the buildings' outlines to the world's walls when attached. @default true */
  buildingWalls: boolean;
  /** Route tables kept (shortest-path walkers; 4 bytes per street node each). @default 1024 */
  maxRouteTables: number;
  /** β: pull of attractors in view relative to visibility (attractor walkers). @default 1 */
  attraction: number;
  /** γ: exponent of the attraction term (attractor walkers). @default 1 */
  attractionExponent: number;
  /** λ: an attractor's pull falls by e over this distance (m). @default 400 */
  attractionDecayM: number;
  /** Attractor weights by kind replacing the defaults (`{"shop": 3}`). @default {} */
  attractorWeights: Record<string, number>;
  /** Weight per m² of building floor area. @default 0.001 */
  floorAreaWeightPerM2: number;
  /** Share of trips from a destination that go to public transport (trip walkers). @default 0.5 */
  transportShare: number;
  /**
   * Route spread (m, trip walkers): at each junction a street that brings the walker nearer its
   * destination is taken with weight exp(−detour / routeSpread); 0: the shortest route. @default 20
   */
  routeSpread: number;
}

/** Descriptors of every {@linkcode StreetWalkerOptions} field. */
export const STREET_WALKER_OPTIONS: OptionSpecs<StreetWalkerOptions> = {
  frustumDeg: {
    type: "number",
    default: 60,
    min: 1,
    max: 360,
    unit: "deg",
    doc:
      "full angle of the view frustum along each street: the near-peripheral field where people read the scene; wider frustums overlap and flatten the choice",
  },
  maxRangeM: {
    type: "number",
    default: 1000,
    min: 0,
    max: 100_000,
    unit: "m",
    doc: "how far walkers see from a junction; 0 for the city's bounds; longer is slower to build",
  },
  junctionRadiusM: {
    type: "number",
    default: 5,
    min: 0.5,
    max: 50,
    unit: "m",
    doc: "walkers choose their next street this close to a junction's centre",
  },
  sidewalkWidthM: {
    type: "number",
    default: 2.5,
    min: 0.5,
    max: 20,
    unit: "m",
    doc: "sidewalk width beside roads that cars use; walkers keep within it",
  },
  lookAheadM: {
    type: "number",
    default: 2,
    min: 0.5,
    max: 50,
    unit: "m",
    doc: "walkers aim this far ahead along their lane; longer cuts bends, shorter weaves",
  },
  turnRateDegPerS: {
    type: "number",
    default: 120,
    min: 60,
    max: 3600,
    unit: "deg/s",
    doc:
      "fastest turn of the walking direction; a right-angle corner takes 0.75 s at 120; slower turns overshoot corners",
  },
  squares: {
    type: "boolean",
    default: true,
    doc: "walkers may enter open squares at junctions inside them and wander there",
  },
  fieldOfViewDeg: {
    type: "number",
    default: 170,
    min: 1,
    max: 360,
    unit: "deg",
    doc: "field of view of walkers on a square (Turner and Penn 2002: 170)",
  },
  stepsBetweenLooks: {
    type: "number",
    default: 3,
    min: 1,
    max: 100,
    integer: true,
    doc: "paces between two looks on a square (Turner and Penn 2002: 3); fewer wanders more",
  },
  paceM: {
    type: "number",
    default: 0.75,
    min: 0.1,
    max: 5,
    unit: "m",
    doc: "length of a pace on a square",
  },
  buildingWalls: {
    type: "boolean",
    default: true,
    doc: "add the buildings' outlines to the world's walls, for the avoidance strategy",
  },
  maxRouteTables: {
    type: "number",
    default: 1024,
    min: 1,
    max: 1_000_000,
    integer: true,
    doc: "shortest-route tables kept (4 bytes per street node each); fewer recomputes more",
  },
  attraction: {
    type: "number",
    default: 1,
    min: 0,
    max: 1000,
    doc:
      "beta: pull of the attractors in view along a street, relative to its visible share; 0 for visibility alone",
  },
  attractionExponent: {
    type: "number",
    default: 1,
    min: 0,
    max: 10,
    doc: "gamma: exponent of the attraction term, share * (1 + beta * attraction)^gamma",
  },
  attractionDecayM: {
    type: "number",
    default: 400,
    min: 1,
    max: 100_000,
    unit: "m",
    doc: "an attractor's pull falls by e over this distance (400 m: a five-minute walk)",
  },
  attractorWeights: {
    type: "object",
    default: {},
    parse: parseAttractorWeights,
    doc:
      'attractor weights by kind replacing the defaults, e.g. {"shop": 3, "railway=station": 50}',
  },
  floorAreaWeightPerM2: {
    type: "number",
    default: 0.001,
    min: 0,
    max: 1,
    unit: "1/m2",
    doc: "weight per m2 of building floor area (footprint x levels); 0 leaves buildings out",
  },
  transportShare: {
    type: "number",
    default: 0.5,
    min: 0,
    max: 1,
    doc: "share of trips from a destination that go to public transport (trip walkers)",
  },
  routeSpread: {
    type: "number",
    default: 20,
    min: 0,
    max: 10_000,
    unit: "m",
    doc:
      "trip walkers take, at each junction, a street that brings them nearer their destination with weight exp(-detour / routeSpread) (Dial 1971); 0: the shortest route",
  },
};

/** Column names of street walkers. */
export const STREET_COLUMNS = {
  /** Street edge walked, or -1 (not yet placed, or on a square). */
  edge: "street.edge",
  /** 1 when walking the edge from its `from` node to its `to` node. */
  forward: "street.forward",
  /** Point index (in {@linkcode StreetLanes}) of the segment walked. */
  segment: "street.segment",
  /** The junction the walker came from (last passed), or -1. */
  from: "street.from",
  /** Slot chosen at the junction ahead; -1 before choosing, -2 for the square there. */
  next: "street.next",
  /** Lane in [-1, 1]: negative left of travel, positive right. */
  lane: "street.lane",
  /** Offset of the lane on the current edge (m, positive left of `from` → `to`). */
  offset: "street.offset",
  /** Walking direction (unit x). */
  headingX: "street.headingX",
  /** Walking direction (unit y). */
  headingY: "street.headingY",
  /** Square walked on, or -1 on streets. */
  square: "street.square",
  /** Direction chosen on a square (unit x). */
  aimX: "street.aimX",
  /** Direction chosen on a square (unit y). */
  aimY: "street.aimY",
  /** Distance walked on the current square (m). */
  walked: "street.walked",
  /** Distance left until the next look on a square (m). */
  lookIn: "street.lookIn",
  /** Destination node of shortest-path walkers, or -1. */
  destination: "street.destination",
  /** 1 once the walker has reached its lane on this street (only then can it be pushed off). */
  onLane: "street.onLane",
  /** Where the chosen next street starts, on the walker's lane (m). */
  startX: "street.startX",
  /** Where the chosen next street starts (m). */
  startY: "street.startY",
} as const;

const COLUMNS: readonly ColumnSpec[] = [
  { name: STREET_COLUMNS.edge, type: "i32", default: -1, doc: "street edge walked, or -1" },
  { name: STREET_COLUMNS.forward, type: "u8", doc: "1 when walking from → to" },
  { name: STREET_COLUMNS.segment, type: "i32", doc: "point index of the segment walked" },
  { name: STREET_COLUMNS.from, type: "i32", default: -1, doc: "junction last passed" },
  { name: STREET_COLUMNS.next, type: "i32", default: -1, doc: "slot chosen ahead" },
  { name: STREET_COLUMNS.lane, type: "f32", doc: "lane in [-1, 1], positive right of travel" },
  { name: STREET_COLUMNS.offset, type: "f32", doc: "lane offset on the edge (m, left +)" },
  { name: STREET_COLUMNS.headingX, type: "f64", doc: "walking direction x" },
  { name: STREET_COLUMNS.headingY, type: "f64", doc: "walking direction y" },
  { name: STREET_COLUMNS.square, type: "i32", default: -1, doc: "square walked on, or -1" },
  { name: STREET_COLUMNS.aimX, type: "f64", doc: "direction chosen on a square x" },
  { name: STREET_COLUMNS.aimY, type: "f64", doc: "direction chosen on a square y" },
  { name: STREET_COLUMNS.walked, type: "f32", doc: "distance walked on the square (m)" },
  { name: STREET_COLUMNS.lookIn, type: "f32", doc: "distance to the next look (m)" },
  { name: STREET_COLUMNS.destination, type: "i32", default: -1, doc: "destination node" },
  { name: STREET_COLUMNS.onLane, type: "u8", doc: "1 once the walker has reached its lane" },
  { name: STREET_COLUMNS.startX, type: "f64", doc: "start of the next street x (m)" },
  { name: STREET_COLUMNS.startY, type: "f64", doc: "start of the next street y (m)" },
];

/** Slot value of the square at the junction ahead. */
const SQUARE_CHOICE = -2;
/**
 * A walker that has reached its lane and is then this far (m) from it was moved off it: it
 * starts afresh on the nearest street.
 */
const LOST_DISTANCE = 12;
/** A walker this close (m) to its lane has reached it. */
const ON_LANE = 2;
/** The start of the next street lies this far (m) into it. */
const STREET_START = 1;
/** A walker on a square leaves by the junction it came in by only after walking this far (m). */
const MIN_SQUARE_WALK = 20;
/** Destinations tried before a shortest-path walker falls back to a random street. */
const DESTINATION_TRIES = 8;

/** The street guidance options implied by walker options. */
export function streetGuidanceOptions(o: StreetWalkerOptions): StreetGuidanceOptions {
  return {
    affordance: { frustumDeg: o.frustumDeg, maxRangeM: o.maxRangeM },
    lanes: { junctionRadiusM: o.junctionRadiusM, sidewalkWidthM: o.sidewalkWidthM },
    field: { fieldOfViewDeg: o.fieldOfViewDeg },
  };
}

/**
 * A street-walking navigator (see the module doc). Each step runs, per agent: place (agents new
 * to the network, or pushed off it, start on the nearest street), then either follow the street
 * (choosing at junctions, turning towards the next street) or walk the square; after
 * integration, the goals are moved to where each walker is heading.
 *
 * @example Walkers choosing streets by affordance on a small city
 * ```ts
 * import { StreetGuidance } from "./street_guidance.ts";
 * import { StreetWalker, STREET_WALKER_OPTIONS } from "./street_walker.ts";
 * import { resolveOptions } from "../core/options.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 3, blocksY: 3 });
 * const options = resolveOptions("affordance", STREET_WALKER_OPTIONS, {});
 * const navigator = new StreetWalker(StreetGuidance.fromCity(city), "affordance", options);
 * const world = new World({ strategy: createNoneStrategy(), navigator });
 * const n = city.streets.nodes[5];
 * world.addAgent({ x: n.x + 3, y: n.y, desiredSpeed: 1.3 });
 * for (let i = 0; i < 2400; i++) world.step();
 * assert(navigator.junctionsPassed >= 1); // 2 min at 1.3 m/s over 100 m blocks
 * assert(!world.agent(world.agents.handleAt(0))!.arrived);
 * ```
 */
export class StreetWalker implements Navigator {
  /** Registry name: the rule. */
  readonly name: StreetChoiceRule;
  /** The choice rule. */
  readonly rule: StreetChoiceRule;
  /** Options in force. */
  readonly options: Readonly<StreetWalkerOptions>;
  /** What the walkers read. */
  readonly guidance: StreetGuidance;
  /** Per-agent columns. */
  readonly columns: readonly ColumnSpec[] = COLUMNS;
  /** Junctions passed by all walkers so far. */
  junctionsPassed = 0;
  /** Shortest routes (shortest-path and trip walkers only). */
  readonly routes: StreetRoutes | null;
  /** Attraction at junctions and on squares (attractor and trip walkers only). */
  readonly attractors: AttractorGuidance | null;
  /**
   * One line on what the walkers' rule found in the city, for attractor and trip walkers (for
   * example that it has no points of interest and they choose by visibility alone); else null.
   */
  readonly notice: string | null;
  /** 1 for the slot that walks its street from `from` to `to`. */
  readonly #slotForward: Uint8Array;
  /** Street node of each destination (shortest-path and trip walkers). */
  readonly #destinations: Int32Array;
  /** Cumulative weight of the destinations (trip walkers), and of the transport sources. */
  readonly #destinationCum: Float64Array;
  readonly #sources: Int32Array;
  readonly #sourceCum: Float64Array;
  /** 1 for street nodes of public transport (trip walkers). */
  readonly #nodeIsSource: Uint8Array;
  readonly #spot: StreetSpot = { edge: -1, segment: 0, along: 0, distance: 0 };
  readonly #point: [number, number] = [0, 0];
  readonly #weights: Float64Array;
  readonly #candidates: Int32Array;
  readonly #distances: Float64Array;
  #arrivalRadius = 0.5;
  // Columns, fetched once per step.
  #edge: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #forward: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  #segment: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #from: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #next: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #lane: Float32Array<ArrayBufferLike> = new Float32Array(0);
  #offset: Float32Array<ArrayBufferLike> = new Float32Array(0);
  #hx: Float64Array<ArrayBufferLike> = new Float64Array(0);
  #hy: Float64Array<ArrayBufferLike> = new Float64Array(0);
  #square: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #aimX: Float64Array<ArrayBufferLike> = new Float64Array(0);
  #aimY: Float64Array<ArrayBufferLike> = new Float64Array(0);
  #walked: Float32Array<ArrayBufferLike> = new Float32Array(0);
  #lookIn: Float32Array<ArrayBufferLike> = new Float32Array(0);
  #destination: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #onLane: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  #startX: Float64Array<ArrayBufferLike> = new Float64Array(0);
  #startY: Float64Array<ArrayBufferLike> = new Float64Array(0);
  // Per-step turn limit.
  #cosTurn = 1;
  #sinTurn = 0;

  /** A walker with `rule` on `guidance`'s city; `options` are resolved option values. */
  constructor(guidance: StreetGuidance, rule: StreetChoiceRule, options: StreetWalkerOptions) {
    this.name = rule;
    this.rule = rule;
    this.options = options;
    this.guidance = guidance;
    const a = guidance.affordance;
    const slots = a.slotEdge.length;
    this.#slotForward = new Uint8Array(slots);
    const firstOfEdge = new Int32Array(guidance.lanes.edgeCount).fill(-1);
    for (let v = 0; v < a.nodeCount; v++) {
      for (let s = a.slotStart[v]; s < a.slotStart[v + 1]; s++) {
        const e = a.slotEdge[s], first = firstOfEdge[e];
        // A street from a node back to itself has both slots there, its start slot first.
        this.#slotForward[s] = guidance.lanes.edgeFrom[e] === v && first < 0 ? 1 : 0;
        if (first < 0) firstOfEdge[e] = s;
      }
    }
    let widest = 1;
    for (let i = 0; i < a.nodeCount; i++) {
      widest = Math.max(widest, a.slotStart[i + 1] - a.slotStart[i]);
    }
    this.#weights = new Float64Array(widest + 1);
    this.#candidates = new Int32Array(widest + 1);
    this.#distances = new Float64Array(guidance.squares.field.rayOffsets.length);
    const routed = rule === "shortest-path" || rule === "trips";
    this.routes = routed
      ? new StreetRoutes(a, guidance.lanes.edgeLength, {
        maxTables: options.maxRouteTables,
        distances: rule === "trips" && options.routeSpread > 0,
      })
      : null;
    this.attractors = rule === "attractors" || rule === "trips"
      ? new AttractorGuidance(guidance.city, a, guidance.squares, {
        attraction: options.attraction,
        attractionExponent: options.attractionExponent,
        attractionDecayM: options.attractionDecayM,
        weights: options.attractorWeights,
        floorAreaWeightPerM2: options.floorAreaWeightPerM2,
      })
      : null;
    this.#nodeIsSource = new Uint8Array(rule === "trips" ? a.nodeCount : 0);
    let notice: string | null = null;
    if (rule === "trips") {
      const trips = this.#tripEnds(this.attractors!.weights);
      this.#destinations = trips.destinations;
      this.#destinationCum = trips.destinationCum;
      this.#sources = trips.sources;
      this.#sourceCum = trips.sourceCum;
      notice = trips.notice;
    } else {
      this.#destinations = rule === "shortest-path" ? this.#destinationNodes() : new Int32Array(0);
      this.#destinationCum = this.#sourceCum = new Float64Array(0);
      this.#sources = new Int32Array(0);
      if (this.attractors) {
        notice = `${guidance.city.name}: ${this.attractors.summary.notice}`;
      }
    }
    this.notice = notice;
  }

  /** Adds the buildings' outlines to the world's walls (option `buildingWalls`). */
  attach(world: World): void {
    this.#arrivalRadius = world.arrivalRadius;
    if (!this.options.buildingWalls) return;
    for (const b of this.guidance.city.buildings) {
      for (const ring of b.polygon) world.obstacles.addWall(ring, true);
    }
  }

  /**
   * Blocks street `edge` (see {@linkcode JunctionAffordance.blockStreet}): walkers no longer
   * choose it, the junctions that see the barrier get new shares, shortest routes are made anew.
   * Returns the junctions recomputed. Walkers already on it walk on.
   */
  blockStreet(edge: number): Uint32Array {
    const change = this.guidance.affordance.blockStreet(edge);
    this.routes?.invalidate();
    this.attractors?.refresh();
    return change.recomputed;
  }

  /** Opens a street blocked by {@linkcode StreetWalker.blockStreet}; returns the junctions recomputed. */
  openStreet(edge: number): Uint32Array {
    const change = this.guidance.affordance.openStreet(edge);
    this.routes?.invalidate();
    this.attractors?.refresh();
    return change.recomputed;
  }

  /** Writes preferred velocities: place, then follow the street or walk the square. */
  updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
    this.#fetchColumns(ctx);
    const turn = (this.options.turnRateDegPerS * Math.PI / 180) * ctx.dt;
    this.#cosTurn = Math.cos(Math.min(Math.PI, turn));
    this.#sinTurn = Math.sin(Math.min(Math.PI, turn));
    const a = ctx.agents, flags = a.flags, prefVx = a.prefVx, prefVy = a.prefVy;
    for (let i = begin; i < end; i++) {
      if ((flags[i] & AgentFlags.arrived) !== 0) {
        prefVx[i] = prefVy[i] = 0;
        continue;
      }
      if (this.#square[i] >= 0) this.#walkSquare(ctx, i);
      else {
        if (this.#edge[i] < 0) this.#place(ctx, i);
        if (this.#edge[i] >= 0) this.#followStreet(ctx, i);
      }
      const speed = a.desiredSpeed[i];
      prefVx[i] = this.#hx[i] * speed;
      prefVy[i] = this.#hy[i] * speed;
    }
  }

  /** Moves each walker's goal to where it is heading, always farther than the arrival radius. */
  afterMove(ctx: NavigationContext, begin: number, end: number): void {
    const a = ctx.agents, lanes = this.guidance.lanes;
    const margin = this.#arrivalRadius + 1;
    for (let i = begin; i < end; i++) {
      const e = this.#edge[i];
      let gx = a.px[i] + this.#hx[i] * margin, gy = a.py[i] + this.#hy[i] * margin;
      if (e >= 0) {
        const node = this.#forward[i] ? lanes.edgeTo[e] : lanes.edgeFrom[e];
        const nx = lanes.nodeX[node], ny = lanes.nodeY[node];
        if (Math.hypot(nx - a.px[i], ny - a.py[i]) > margin) {
          gx = nx;
          gy = ny;
        }
      }
      a.goalX[i] = gx;
      a.goalY[i] = gy;
    }
  }

  #fetchColumns(ctx: NavigationContext): void {
    const a = ctx.agents, c = STREET_COLUMNS;
    this.#edge = a.column<Int32Array>(c.edge);
    this.#forward = a.column<Uint8Array>(c.forward);
    this.#segment = a.column<Int32Array>(c.segment);
    this.#from = a.column<Int32Array>(c.from);
    this.#next = a.column<Int32Array>(c.next);
    this.#lane = a.column<Float32Array>(c.lane);
    this.#offset = a.column<Float32Array>(c.offset);
    this.#hx = a.column(c.headingX);
    this.#hy = a.column(c.headingY);
    this.#square = a.column<Int32Array>(c.square);
    this.#aimX = a.column(c.aimX);
    this.#aimY = a.column(c.aimY);
    this.#walked = a.column<Float32Array>(c.walked);
    this.#lookIn = a.column<Float32Array>(c.lookIn);
    this.#destination = a.column<Int32Array>(c.destination);
    this.#onLane = a.column<Uint8Array>(c.onLane);
    this.#startX = a.column(c.startX);
    this.#startY = a.column(c.startY);
  }

  /** Puts agent `i` on the nearest street, heading along it the way it moves (or at random). */
  #place(ctx: NavigationContext, i: number): void {
    const a = ctx.agents, lanes = this.guidance.lanes, rng = ctx.rng;
    this.#onLane[i] = 0;
    const spot = lanes.nearest(a.px[i], a.py[i], this.#spot);
    if (spot.edge < 0) {
      this.#hx[i] = this.#hy[i] = 0;
      return;
    }
    const k = lanes.pointStart[spot.edge] + spot.segment;
    const along = lanes.ux[k] * a.vx[i] + lanes.uy[k] * a.vy[i];
    const forward = along > 0 ? true : along < 0 ? false : rng.next() < 0.5;
    if (this.#lane[i] === 0) this.#lane[i] = rng.range(-1, 1);
    this.#enterEdge(i, spot.edge, forward, k);
    this.#from[i] = forward ? lanes.edgeFrom[spot.edge] : lanes.edgeTo[spot.edge];
    this.#hx[i] = forward ? lanes.ux[k] : -lanes.ux[k];
    this.#hy[i] = forward ? lanes.uy[k] : -lanes.uy[k];
    if (this.rule === "shortest-path") this.#destination[i] = this.#randomDestination(rng);
    else if (this.rule === "trips") {
      // A walker placed by public transport starts its trip there (to a destination).
      const u = lanes.edgeFrom[spot.edge], w = lanes.edgeTo[spot.edge];
      const at = this.#nodeIsSource[u] === 1 ? u : this.#nodeIsSource[w] === 1 ? w : -1;
      this.#destination[i] = this.#tripDestination(rng, at);
    }
  }

  /** Starts walking `edge` (forwards or backwards) at point index `k`. */
  #enterEdge(i: number, edge: number, forward: boolean, k: number): void {
    this.#edge[i] = edge;
    this.#forward[i] = forward ? 1 : 0;
    this.#segment[i] = k;
    this.#next[i] = -1;
    this.#offset[i] = this.guidance.lanes.laneOffset(edge, forward, this.#lane[i]);
    this.#onLane[i] = 0;
  }

  /** Road following, with the choice and the turn at the junction ahead. */
  #followStreet(ctx: NavigationContext, i: number, mayReplace = true): void {
    const lanes = this.guidance.lanes, a = ctx.agents;
    const x = a.px[i], y = a.py[i];
    let e = this.#edge[i];
    let forward = this.#forward[i] === 1;
    let k = this.#advance(i, x, y);
    let t = (x - lanes.px[k]) * lanes.ux[k] + (y - lanes.py[k]) * lanes.uy[k];
    const lateral = (x - lanes.px[k]) * -lanes.uy[k] + (y - lanes.py[k]) * lanes.ux[k];
    const offLane = Math.abs(lateral - this.#offset[i]);
    if (offLane < ON_LANE) this.#onLane[i] = 1;
    else if (mayReplace && this.#onLane[i] === 1 && offLane > LOST_DISTANCE) {
      this.#edge[i] = -1;
      this.#place(ctx, i);
      if (this.#edge[i] >= 0) this.#followStreet(ctx, i, false);
      return;
    }
    let along = lanes.cum[k] + Math.max(0, Math.min(lanes.cum[k + 1] - lanes.cum[k], t));
    let remaining = forward ? lanes.edgeLength[e] - along : along;
    let node = forward ? lanes.edgeTo[e] : lanes.edgeFrom[e];
    if (remaining < lanes.junctionRadius[node]) {
      if (this.#next[i] === -1) this.#choose(ctx, i, node);
      const next = this.#next[i];
      if (next === SQUARE_CHOICE) {
        const square = this.guidance.squares.nodeSquare[node];
        if (this.guidance.squares.squareAt(x, y) === square || remaining < STREET_START) {
          this.#enterSquare(i, node, square);
          return this.#walkSquare(ctx, i);
        }
        return this.#turnTowards(i, lanes.nodeX[node] - x, lanes.nodeY[node] - y);
      }
      // The start of the next street, on the walker's lane there (set when choosing).
      const e2 = this.guidance.affordance.slotEdge[next], f2 = this.#slotForward[next] === 1;
      const k2 = f2 ? lanes.pointStart[e2] : lanes.pointStart[e2 + 1] - 2;
      const sx = this.#startX[i] - x, sy = this.#startY[i] - y;
      const past = (x - lanes.nodeX[node]) * (f2 ? lanes.ux[k2] : -lanes.ux[k2]) +
        (y - lanes.nodeY[node]) * (f2 ? lanes.uy[k2] : -lanes.uy[k2]);
      if (past < 0 && sx * sx + sy * sy > STREET_START * STREET_START) {
        return this.#turnTowards(i, sx, sy);
      }
      // Past the junction: the next street is the current one.
      this.#enterEdge(i, e2, f2, k2);
      this.#from[i] = node;
      this.junctionsPassed++;
      e = e2;
      forward = f2;
      k = k2;
      t = (x - lanes.px[k]) * lanes.ux[k] + (y - lanes.py[k]) * lanes.uy[k];
      along = lanes.cum[k] + Math.max(0, Math.min(lanes.cum[k + 1] - lanes.cum[k], t));
      remaining = forward ? lanes.edgeLength[e] - along : along;
      node = forward ? lanes.edgeTo[e] : lanes.edgeFrom[e];
    }
    // Aim `lookAheadM` ahead on the lane.
    const ahead = Math.min(this.options.lookAheadM, remaining);
    const target = forward ? along + ahead : along - ahead;
    const p = lanes.pointAt(e, target, this.#offset[i], this.#point, k);
    const dx = p[0] - x, dy = p[1] - y;
    if (dx * dx + dy * dy > 1e-8) this.#turnTowards(i, dx, dy);
    else {this.#turnTowards(
        i,
        forward ? lanes.ux[k] : -lanes.ux[k],
        forward ? lanes.uy[k] : -lanes.uy[k],
      );}
  }

  /** Moves agent `i`'s segment along its edge to the one its position projects onto. */
  #advance(i: number, x: number, y: number): number {
    const lanes = this.guidance.lanes, e = this.#edge[i];
    const first = lanes.pointStart[e], last = lanes.pointStart[e + 1] - 2;
    let k = this.#segment[i];
    for (;;) {
      const t = (x - lanes.px[k]) * lanes.ux[k] + (y - lanes.py[k]) * lanes.uy[k];
      if (t > lanes.cum[k + 1] - lanes.cum[k] && k < last) k++;
      else if (t < 0 && k > first) {
        // Step back only when the walker projects onto the previous segment too.
        const j = k - 1;
        const tj = (x - lanes.px[j]) * lanes.ux[j] + (y - lanes.py[j]) * lanes.uy[j];
        if (tj > lanes.cum[j + 1] - lanes.cum[j]) break;
        k = j;
      } else break;
    }
    this.#segment[i] = k;
    return k;
  }

  /** Chooses the street after `node` by the walker's rule (see the module doc). */
  #choose(ctx: NavigationContext, i: number, node: number): void {
    const aff = this.guidance.affordance, squares = this.guidance.squares;
    const edge = this.#edge[i], cameFrom = this.#from[i];
    const start = aff.slotStart[node], end = aff.slotStart[node + 1];
    const routed = this.rule === "shortest-path" || this.rule === "trips";
    if (routed) {
      const s = this.#routeSlot(ctx.rng, i, node);
      if (s >= 0) return this.#setNext(i, s);
    }
    let n = 0, total = 0;
    const w = this.#weights, c = this.#candidates;
    const byShare = this.rule === "affordance" || this.rule === "attractors";
    const shares = this.rule === "attractors" ? this.attractors!.slotChoice : aff.slotShare;
    for (let pass = 0; pass < 2 && n === 0; pass++) {
      for (let s = start; s < end; s++) {
        if (aff.slotBlocked[s] || aff.slotEdge[s] === edge) continue;
        if (pass === 0 && aff.slotNeighbour[s] === cameFrom) continue;
        c[n] = s;
        w[n] = byShare ? shares[s] : 1;
        total += w[n++];
      }
    }
    if (
      this.options.squares && !routed && squares.nodeSquare[node] >= 0 &&
      squares.nodeShare[node] > 0
    ) {
      c[n] = SQUARE_CHOICE;
      w[n] = byShare
        ? squares.nodeShare[node] * (this.rule === "attractors" ? this.attractors!.squareFactor : 1)
        : 1;
      total += w[n++];
    }
    if (n === 0) {
      // A dead end (or every other street blocked): back along the same street.
      let back = -1;
      for (let s = start; s < end && back < 0; s++) if (aff.slotEdge[s] === edge) back = s;
      return this.#setNext(i, back >= 0 ? back : start);
    }
    let pick = n - 1;
    if (total > 0) {
      let r = ctx.rng.next() * total;
      for (let j = 0; j < n; j++) {
        r -= w[j];
        if (r < 0) {
          pick = j;
          break;
        }
      }
    } else pick = ctx.rng.int(n);
    this.#setNext(i, c[pick]);
  }

  /** Chooses slot `s` (or the square) ahead and notes where the next street starts. */
  #setNext(i: number, s: number): void {
    this.#next[i] = s;
    if (s < 0) return;
    const lanes = this.guidance.lanes;
    const e = this.guidance.affordance.slotEdge[s], forward = this.#slotForward[s] === 1;
    const offset = lanes.laneOffset(e, forward, this.#lane[i]);
    const len = lanes.edgeLength[e], into = Math.min(STREET_START, len);
    const p = lanes.pointAt(e, forward ? into : len - into, offset, this.#point);
    this.#startX[i] = p[0];
    this.#startY[i] = p[1];
  }

  /** The slot towards the walker's destination, choosing new destinations as needed; -1: none. */
  #routeSlot(rng: Rng, i: number, node: number): number {
    const routes = this.routes!;
    for (let tries = 0; tries < DESTINATION_TRIES; tries++) {
      let d = this.#destination[i];
      if (d < 0 || d === node) {
        d = this.#destination[i] = this.rule === "trips"
          ? this.#tripDestination(rng, d === node ? node : -1)
          : this.#randomDestination(rng);
      }
      const spread = this.rule === "trips" ? this.options.routeSpread : 0;
      const s = spread > 0
        ? routes.spreadSlot(node, d, spread, rng.next())
        : routes.nextSlot(node, d);
      if (s >= 0) return s;
      this.#destination[i] = -1;
    }
    return -1;
  }

  /**
   * The next trip's end: from public transport to a destination; from elsewhere to public
   * transport with probability `transportShare`, else to another destination; each drawn in
   * proportion to its attractors' weight.
   */
  #tripDestination(rng: Rng, reached: number): number {
    const toSource = this.#sources.length > 0 &&
      !(reached >= 0 && this.#nodeIsSource[reached] === 1) &&
      rng.next() < this.options.transportShare;
    return toSource
      ? _drawWeighted(this.#sources, this.#sourceCum, rng)
      : _drawWeighted(this.#destinations, this.#destinationCum, rng);
  }

  /**
   * Trip ends on street nodes, weighted: public transport (sources) and every other attractor
   * (destinations), each at the street node nearest to it. Without weighted attractors, every
   * building alike; without public transport, trips run between destinations.
   */
  #tripEnds(weights: Float64Array): {
    destinations: Int32Array;
    destinationCum: Float64Array;
    sources: Int32Array;
    sourceCum: Float64Array;
    notice: string;
  } {
    const { city, lanes } = this.guidance;
    const spot: StreetSpot = { edge: -1, segment: 0, along: 0, distance: 0 };
    const dest = new Map<number, number>(), src = new Map<number, number>();
    city.attractors.forEach((a, k) => {
      if (!(weights[k] > 0)) return;
      lanes.nearest(a.x, a.y, spot);
      if (spot.edge < 0) return;
      const node = spot.along < lanes.edgeLength[spot.edge] / 2
        ? lanes.edgeFrom[spot.edge]
        : lanes.edgeTo[spot.edge];
      const table = isTransportAttractor(a) ? src : dest;
      table.set(node, (table.get(node) ?? 0) + weights[k]);
    });
    const flat = (m: Map<number, number>) => {
      const nodes = Int32Array.from(m.keys()), cum = new Float64Array(nodes.length);
      let total = 0, k = 0;
      for (const w of m.values()) cum[k++] = total += w;
      return { nodes, cum };
    };
    let d: { nodes: Int32Array; cum: Float64Array } = flat(dest);
    const s = flat(src);
    for (const v of s.nodes) this.#nodeIsSource[v] = 1;
    const summary = this.attractors!.summary;
    let notice =
      `${city.name}: trips between ${d.nodes.length} destination and ${s.nodes.length} public transport nodes; ${summary.notice}`;
    if (d.nodes.length === 0) {
      const nodes = this.#destinationNodes();
      d = { nodes, cum: Float64Array.from(nodes, (_, k) => k + 1) };
      notice = `${city.name}: no weighted attractors: trips run between random buildings`;
    } else if (s.nodes.length === 0) {
      notice =
        `${city.name}: no public transport mapped: trips run between destinations; ${summary.notice}`;
    }
    return {
      destinations: d.nodes,
      destinationCum: d.cum,
      sources: s.nodes,
      sourceCum: s.cum,
      notice,
    };
  }

  #randomDestination(rng: Rng): number {
    const d = this.#destinations;
    return d.length > 0 ? d[rng.int(d.length)] : -1;
  }

  /** Street node of each building (nearest to its entrance, else its first corner). */
  #destinationNodes(): Int32Array {
    const { city, lanes } = this.guidance;
    const nodes: number[] = [];
    const spot: StreetSpot = { edge: -1, segment: 0, along: 0, distance: 0 };
    for (const b of city.buildings) {
      const [x, y] = b.entrance ?? _centroid(b.polygon[0]);
      lanes.nearest(x, y, spot);
      if (spot.edge < 0) continue;
      const toStart = spot.along < lanes.edgeLength[spot.edge] / 2;
      nodes.push(toStart ? lanes.edgeFrom[spot.edge] : lanes.edgeTo[spot.edge]);
    }
    if (nodes.length === 0) {
      const aff = this.guidance.affordance;
      for (let v = 0; v < aff.nodeCount; v++) {
        if (aff.slotStart[v + 1] > aff.slotStart[v]) nodes.push(v);
      }
    }
    return Int32Array.from(nodes);
  }

  /** Agent `i` steps onto `square` at junction `node`. */
  #enterSquare(i: number, node: number, square: number): void {
    this.#square[i] = square;
    this.#edge[i] = -1;
    this.#next[i] = -1;
    this.#from[i] = node;
    this.#walked[i] = 0;
    this.#lookIn[i] = 0;
    this.#aimX[i] = this.#hx[i];
    this.#aimY[i] = this.#hy[i];
    this.junctionsPassed++;
  }

  /** A walker on a square: leave at a junction or street, else look every few paces and walk. */
  #walkSquare(ctx: NavigationContext, i: number): void {
    const a = ctx.agents, g = this.guidance, map = g.map;
    const x = a.px[i], y = a.py[i];
    const moved = Math.hypot(a.vx[i], a.vy[i]) * ctx.dt;
    this.#walked[i] += moved;
    const c = map.cellAt(x, y);
    const node = c >= 0 ? map.node[c] : -1;
    const walked = this.#walked[i];
    if (
      node >= 0 && walked > STREET_START &&
      (node !== this.#from[i] || walked > MIN_SQUARE_WALK) && this.#leaveAt(i, node)
    ) return this.#followStreet(ctx, i);
    const here = c >= 0 ? g.squares.cellSquare[c] : -1;
    if (here !== this.#square[i]) {
      this.#square[i] = -1;
      const road = c >= 0 && map.kind[c] === GuidanceCell.road ? map.edge[c] : -1;
      if (road >= 0 && g.lanes.pointStart[road + 1] > g.lanes.pointStart[road]) {
        const k = g.lanes.segmentAt(road, 0);
        const forward = map.dirX[c] * this.#hx[i] + map.dirY[c] * this.#hy[i] >= 0;
        this.#enterEdge(i, road, forward, k);
        this.#from[i] = forward ? g.lanes.edgeFrom[road] : g.lanes.edgeTo[road];
        this.#advance(i, x, y);
      } else {
        this.#edge[i] = -1;
        this.#place(ctx, i);
      }
      if (this.#edge[i] >= 0) this.#followStreet(ctx, i);
      return;
    }
    this.#lookIn[i] -= moved;
    if (this.#lookIn[i] <= 0) {
      this.#look(ctx.rng, i, x, y);
      this.#lookIn[i] = this.options.stepsBetweenLooks * this.options.paceM;
    }
    this.#turnTowards(i, this.#aimX[i], this.#aimY[i]);
  }

  /** Leaves the square at `node` by the open street most nearly ahead; false when none. */
  #leaveAt(i: number, node: number): boolean {
    const aff = this.guidance.affordance, lanes = this.guidance.lanes;
    let best = -1, bestDot = -Infinity;
    for (let s = aff.slotStart[node]; s < aff.slotStart[node + 1]; s++) {
      if (aff.slotBlocked[s]) continue;
      const dot = aff.slotDirX[s] * this.#hx[i] + aff.slotDirY[s] * this.#hy[i];
      if (dot > bestDot) [best, bestDot] = [s, dot];
    }
    if (best < 0) return false;
    const e = aff.slotEdge[best], forward = this.#slotForward[best] === 1;
    this.#square[i] = -1;
    this.#enterEdge(i, e, forward, forward ? lanes.pointStart[e] : lanes.pointStart[e + 1] - 2);
    this.#from[i] = node;
    this.junctionsPassed++;
    return true;
  }

  /** Looks over the field of view and picks a direction in proportion to the distance seen. */
  #look(rng: Rng, i: number, x: number, y: number): void {
    const field = this.guidance.squares.field, d = this.#distances;
    const heading = Math.atan2(this.#hy[i], this.#hx[i]);
    let total = field.sample(x, y, heading, d);
    if (this.rule === "attractors") total = this.attractors!.weighRays(x, y, heading, d);
    let pick = d.length - 1;
    let r = rng.next() * total;
    for (let k = 0; k < d.length; k++) {
      r -= d[k];
      if (r < 0) {
        pick = k;
        break;
      }
    }
    const angle = heading + field.rayOffsets[pick];
    this.#aimX[i] = Math.cos(angle);
    this.#aimY[i] = Math.sin(angle);
  }

  /** Turns agent `i`'s heading towards (`dx`, `dy`) by at most the step's turn limit. */
  #turnTowards(i: number, dx: number, dy: number): void {
    const len = Math.sqrt(dx * dx + dy * dy);
    if (len === 0) return;
    const ux = dx / len, uy = dy / len;
    const hx = this.#hx[i], hy = this.#hy[i];
    if (hx === 0 && hy === 0) {
      this.#hx[i] = ux;
      this.#hy[i] = uy;
      return;
    }
    if (hx * ux + hy * uy >= this.#cosTurn) {
      this.#hx[i] = ux;
      this.#hy[i] = uy;
      return;
    }
    const side = hx * uy - hy * ux >= 0 ? 1 : -1;
    const c = this.#cosTurn, s = side * this.#sinTurn;
    const nx = hx * c - hy * s, ny = hx * s + hy * c;
    const n = Math.sqrt(nx * nx + ny * ny);
    this.#hx[i] = nx / n;
    this.#hy[i] = ny / n;
  }
}

/** A node drawn in proportion to its weight (cumulative weights `cum`); -1 when there are none. */
function _drawWeighted(nodes: Int32Array, cum: Float64Array, rng: Rng): number {
  const n = nodes.length;
  if (n === 0) return -1;
  const r = rng.next() * cum[n - 1];
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid] > r) hi = mid;
    else lo = mid + 1;
  }
  return nodes[lo];
}

function _centroid(ring: readonly (readonly [number, number])[]): [number, number] {
  let x = 0, y = 0;
  for (const [px, py] of ring) {
    x += px;
    y += py;
  }
  return [x / ring.length, y / ring.length];
}

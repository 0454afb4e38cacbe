/**
 * The lanes cars drive on, built from a city model's carriageways: lane centre lines along each
 * street edge and connectors that turn from one lane into another at each node.
 *
 * Every lane and every connector is a **link**: a polyline a car's front moves along, measured
 * in metres from its start. Lanes come first (`0 … laneCount-1`), connectors after them. A lane
 * ends at its stop line, just before the crosswalk and the intersection, and starts where the
 * intersection (and crosswalk) behind it ends; a connector joins the end of one lane to the start
 * of another across the node.
 *
 * - **Lanes.** A two-way edge with `lanes` lanes gets half of them in each direction (the
 *   forward direction gets the odd one); a `oneway` edge gets all of them forward; a carriageway
 *   without a lane count gets one each way. Lanes are numbered from the kerb (lane 0 is the
 *   kerbside lane) and are `width / lanes` wide; vehicles keep to `drivingSide`.
 * - **Trimming.** At a node where three or more carriageways meet, lanes stop half the widest
 *   road's width from the node; an arm with a crosswalk on it also leaves the crosswalk free;
 *   every lane end keeps `stopLineGap` more. Short edges are trimmed proportionally so each lane
 *   keeps a fifth of its edge.
 * - **Connectors.** Each turn is classed by its angle: through (within `throughAngle`, or the
 *   only way on at a node of two arms), kerbside (a right turn where vehicles keep right) or
 *   farside (across the oncoming traffic). Through movements join lanes of the same rank
 *   (stretched when the counts differ) and each lane to its neighbours (cars do not change
 *   lanes between junctions, so this is where they move over), kerbside turns leave from the
 *   kerbside lane and farside turns from the innermost lane, each into every lane of the exit.
 *   U-turns exist only at dead ends and where no other arm can be entered. A connector is a cubic
 *   Bézier curve tangent to both lanes.
 * - **Conflicts.** Two connectors of a node conflict when they end in the same lane (a merge) or
 *   their curves cross; connectors leaving the same lane are siblings and share the first metres
 *   of their curves (`siblingShared`), where their cars must follow each other.
 *
 * Everything is built once into typed arrays; nothing here changes after building.
 *
 * @module
 */
import { segmentsIntersect } from "../core/geometry.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { CityModel, StreetEdge } from "../geo/city_model.ts";

/** Kinds of links. */
export const LinkKind = {
  /** A lane along a street edge. */
  lane: 0,
  /** A connector across a node. */
  connector: 1,
} as const;

/** Kinds of turns a connector makes. */
export const TurnKind = {
  /** Straight on. */
  through: 0,
  /** Turn that does not cross oncoming traffic (right where vehicles keep right). */
  kerbside: 1,
  /** Turn across oncoming traffic (left where vehicles keep right). */
  farside: 2,
  /** Turning back at a dead end. */
  uTurn: 3,
} as const;

/** A {@linkcode TurnKind} value. */
export type TurnKind = typeof TurnKind[keyof typeof TurnKind];

/** Options of {@linkcode buildLaneNetwork}. */
export interface LaneNetworkOptions {
  /** Side of the road vehicles keep to. @default "right" */
  drivingSide: "right" | "left";
  /** Distance between a lane's stop line and the crosswalk or intersection ahead (m). @default 0.5 */
  stopLineGap: number;
  /** Width of a crosswalk whose city model gives none (m). @default 3 */
  crosswalkWidth: number;
  /** Turns within this angle of straight on are through movements (deg). @default 30 */
  throughAngle: number;
  /** Straight pieces per connector curve; more is smoother and slower. @default 8 */
  connectorSegments: number;
  /**
   * Two sibling connectors count as one road while their curves are closer than this (m); cars
   * on them follow each other there. About a car's width. @default 1.8
   */
  siblingDistance: number;
}

/** Descriptors of {@linkcode LaneNetworkOptions}. */
export const LANE_NETWORK_OPTIONS: OptionSpecs<LaneNetworkOptions> = {
  drivingSide: {
    type: "enum",
    values: ["right", "left"],
    default: "right",
    doc: "side of the road vehicles keep to",
  },
  stopLineGap: {
    type: "number",
    default: 0.5,
    min: 0,
    max: 20,
    unit: "m",
    doc: "gap between a stop line and the crosswalk or intersection ahead",
  },
  crosswalkWidth: {
    type: "number",
    default: 3,
    min: 0,
    max: 20,
    unit: "m",
    doc: "width of a crosswalk whose city model gives none",
  },
  throughAngle: {
    type: "number",
    default: 30,
    min: 0,
    max: 89,
    unit: "deg",
    doc: "turns within this angle of straight on are through movements",
  },
  connectorSegments: {
    type: "number",
    default: 8,
    min: 1,
    max: 64,
    integer: true,
    doc: "straight pieces per connector curve; more is smoother and slower",
  },
  siblingDistance: {
    type: "number",
    default: 1.8,
    min: 0,
    max: 10,
    unit: "m",
    doc: "sibling connectors count as one road while closer than this (about a car's width)",
  },
};

/** Shortest lane kept on a short edge, as a share of the edge's length. */
const MIN_LANE_SHARE = 0.2;
/** Smallest trim at any lane end (m), so a connector is never a point. */
const MIN_TRIM = 1;
/** Step (m) of the sampling that measures how long sibling connectors stay together. */
const SHARED_STEP = 0.25;

/** A lane while the network is built. */
interface _Lane {
  edge: number;
  forward: boolean;
  rank: number;
  width: number;
  startNode: number;
  endNode: number;
  points: [number, number][];
}

/** A connector while the network is built. */
interface _Connector {
  node: number;
  from: number;
  to: number;
  turn: TurnKind;
  points: [number, number][];
}

/** Where a carriageway edge meets a node. */
interface _Arm {
  edge: number;
  /** True when the node is the edge's `to` end. */
  atEnd: boolean;
  /** Unit direction pointing away from the node along the edge. */
  dx: number;
  dy: number;
}

/**
 * Lanes and connectors of a city, frozen into typed arrays. Build it with
 * {@linkcode buildLaneNetwork}.
 */
export class LaneNetwork {
  /** Lanes (links `0 … laneCount-1`). */
  readonly laneCount: number;
  /** Lanes and connectors. */
  readonly linkCount: number;
  /** Street-network nodes of the city. */
  readonly nodeCount: number;
  /** Side of the road vehicles keep to. */
  readonly drivingSide: "right" | "left";
  /** {@linkcode LinkKind} per link. */
  readonly kind: Uint8Array;
  /** Length per link (m). */
  readonly length: Float64Array;
  /** Lane width per link (m); a connector has its entry lane's. */
  readonly width: Float64Array;
  /** Polyline of link `k`: points `pointStart[k] … pointStart[k+1]-1`. */
  readonly pointStart: Int32Array;
  /** Polyline x (m). */
  readonly px: Float64Array;
  /** Polyline y (m). */
  readonly py: Float64Array;
  /** Arc length (m) from the link's start at each polyline point. */
  readonly arc: Float64Array;
  /** Street edge of a lane; -1 for connectors. */
  readonly edge: Int32Array;
  /** 1 when a lane runs from its edge's `from` node to its `to` node. */
  readonly forward: Uint8Array;
  /** Rank of a lane from the kerb (0 = kerbside); -1 for connectors. */
  readonly rank: Int32Array;
  /** Node where a link starts (a connector's node). */
  readonly startNode: Int32Array;
  /** Node where a link ends (a connector's node). */
  readonly endNode: Int32Array;
  /** Lane a connector leaves; -1 for lanes. */
  readonly fromLane: Int32Array;
  /** Lane a connector enters; -1 for lanes. */
  readonly toLane: Int32Array;
  /** {@linkcode TurnKind} of a connector; 0 for lanes. */
  readonly turn: Uint8Array;
  /** Connectors leaving lane `l`: `outLinks[outStart[l] … outStart[l+1]-1]`. */
  readonly outStart: Int32Array;
  /** See `outStart`. */
  readonly outLinks: Int32Array;
  /** Connectors entering lane `l`: `inLinks[inStart[l] … inStart[l+1]-1]`. */
  readonly inStart: Int32Array;
  /** See `inStart`. */
  readonly inLinks: Int32Array;
  /** Connectors conflicting with connector `c`, indexed by `c - laneCount`. */
  readonly conflictStart: Int32Array;
  /** See `conflictStart`. */
  readonly conflicts: Int32Array;
  /** Siblings (same entry lane) of connector `c`, indexed by `c - laneCount`. */
  readonly siblingStart: Int32Array;
  /** See `siblingStart`. */
  readonly siblings: Int32Array;
  /** Length (m) along connector `c` over which sibling `siblings[k]` runs beside it. */
  readonly siblingShared: Float64Array;
  /** Connectors at node `n`: `nodeLinks[nodeStart[n] … nodeStart[n+1]-1]`. */
  readonly nodeStart: Int32Array;
  /** See `nodeStart`. */
  readonly nodeLinks: Int32Array;
  /** Lanes of street edge `e`: `edgeLinks[edgeStart[e] … edgeStart[e+1]-1]`. */
  readonly edgeStart: Int32Array;
  /** See `edgeStart`. */
  readonly edgeLinks: Int32Array;

  /** @internal Use {@linkcode buildLaneNetwork}. */
  constructor(
    nodeCount: number,
    edgeCount: number,
    drivingSide: "right" | "left",
    lanes: readonly _Lane[],
    connectors: readonly _Connector[],
    siblingDistance: number,
  ) {
    const nl = lanes.length, nc = connectors.length, n = nl + nc;
    this.laneCount = nl;
    this.linkCount = n;
    this.nodeCount = nodeCount;
    this.drivingSide = drivingSide;
    this.kind = new Uint8Array(n);
    this.length = new Float64Array(n);
    this.width = new Float64Array(n);
    this.edge = new Int32Array(n).fill(-1);
    this.forward = new Uint8Array(n);
    this.rank = new Int32Array(n).fill(-1);
    this.startNode = new Int32Array(n);
    this.endNode = new Int32Array(n);
    this.fromLane = new Int32Array(n).fill(-1);
    this.toLane = new Int32Array(n).fill(-1);
    this.turn = new Uint8Array(n);
    const polylines: (readonly [number, number][])[] = [];
    lanes.forEach((lane, k) => {
      this.kind[k] = LinkKind.lane;
      this.width[k] = lane.width;
      this.edge[k] = lane.edge;
      this.forward[k] = lane.forward ? 1 : 0;
      this.rank[k] = lane.rank;
      this.startNode[k] = lane.startNode;
      this.endNode[k] = lane.endNode;
      polylines.push(lane.points);
    });
    connectors.forEach((c, j) => {
      const k = nl + j;
      this.kind[k] = LinkKind.connector;
      this.width[k] = lanes[c.from].width;
      this.startNode[k] = this.endNode[k] = c.node;
      this.fromLane[k] = c.from;
      this.toLane[k] = c.to;
      this.turn[k] = c.turn;
      polylines.push(c.points);
    });
    let points = 0;
    for (const p of polylines) points += p.length;
    this.pointStart = new Int32Array(n + 1);
    this.px = new Float64Array(points);
    this.py = new Float64Array(points);
    this.arc = new Float64Array(points);
    let at = 0;
    polylines.forEach((poly, k) => {
      this.pointStart[k] = at;
      let s = 0;
      poly.forEach(([x, y], i) => {
        if (i > 0) s += Math.hypot(x - poly[i - 1][0], y - poly[i - 1][1]);
        this.px[at] = x;
        this.py[at] = y;
        this.arc[at++] = s;
      });
      this.length[k] = s;
    });
    this.pointStart[n] = at;
    [this.outStart, this.outLinks] = _csr(nl, connectors.map((c, j) => [c.from, nl + j]));
    [this.inStart, this.inLinks] = _csr(nl, connectors.map((c, j) => [c.to, nl + j]));
    [this.nodeStart, this.nodeLinks] = _csr(nodeCount, connectors.map((c, j) => [c.node, nl + j]));
    [this.edgeStart, this.edgeLinks] = _csr(edgeCount, lanes.map((l, k) => [l.edge, k]));
    const conflictPairs: [number, number][] = [];
    const siblingTriples: [number, number, number][] = [];
    for (let node = 0; node < nodeCount; node++) {
      for (let a = this.nodeStart[node]; a < this.nodeStart[node + 1]; a++) {
        const ca = this.nodeLinks[a];
        for (let b = this.nodeStart[node]; b < this.nodeStart[node + 1]; b++) {
          const cb = this.nodeLinks[b];
          if (ca === cb) continue;
          if (this.fromLane[ca] === this.fromLane[cb]) {
            siblingTriples.push([ca - nl, cb, this.#sharedLength(ca, cb, siblingDistance)]);
          } else if (this.toLane[ca] === this.toLane[cb] || this.#curvesCross(ca, cb)) {
            conflictPairs.push([ca - nl, cb]);
          }
        }
      }
    }
    [this.conflictStart, this.conflicts] = _csr(nc, conflictPairs);
    this.siblingStart = new Int32Array(nc + 1);
    for (const [c] of siblingTriples) this.siblingStart[c + 1]++;
    for (let c = 0; c < nc; c++) this.siblingStart[c + 1] += this.siblingStart[c];
    this.siblings = new Int32Array(siblingTriples.length);
    this.siblingShared = new Float64Array(siblingTriples.length);
    const cursor = this.siblingStart.slice(0, nc);
    for (const [c, other, shared] of siblingTriples) {
      const k = cursor[c]++;
      this.siblings[k] = other;
      this.siblingShared[k] = shared;
    }
  }

  /** Number of connectors. */
  get connectorCount(): number {
    return this.linkCount - this.laneCount;
  }

  /**
   * Writes the point at arc length `s` (m, clamped to the link) of `link` into `out` as
   * `[x, y, unit direction x, unit direction y]` and returns the polyline segment it lies on.
   * `hint` is a segment to start searching from (the last answer for a moving car).
   */
  pointAt(link: number, s: number, out: Float64Array, hint = 0): number {
    const first = this.pointStart[link], last = this.pointStart[link + 1] - 1;
    const arc = this.arc, px = this.px, py = this.py;
    let k = first + hint;
    if (k < first || k >= last) k = first;
    while (k > first && arc[k] > s) k--;
    while (k < last - 1 && arc[k + 1] < s) k++;
    const len = arc[k + 1] - arc[k];
    const dx = px[k + 1] - px[k], dy = py[k + 1] - py[k];
    let t = len > 0 ? (s - arc[k]) / len : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    out[0] = px[k] + t * dx;
    out[1] = py[k] + t * dy;
    const inv = len > 0 ? 1 / len : 0;
    out[2] = dx * inv;
    out[3] = dy * inv;
    return k - first;
  }

  /** Arc length (m) along `link` of the point of its polyline closest to (`x`, `y`). */
  project(link: number, x: number, y: number): number {
    const px = this.px, py = this.py, arc = this.arc;
    let best = Infinity, bestS = 0;
    for (let k = this.pointStart[link]; k < this.pointStart[link + 1] - 1; k++) {
      const ex = px[k + 1] - px[k], ey = py[k + 1] - py[k], len2 = ex * ex + ey * ey;
      let t = len2 > 0 ? ((x - px[k]) * ex + (y - py[k]) * ey) / len2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const dx = px[k] + t * ex - x, dy = py[k] + t * ey - y, d2 = dx * dx + dy * dy;
      if (d2 < best) {
        best = d2;
        bestS = arc[k] + t * (arc[k + 1] - arc[k]);
      }
    }
    return bestS;
  }

  #curvesCross(a: number, b: number): boolean {
    const px = this.px, py = this.py;
    for (let i = this.pointStart[a]; i < this.pointStart[a + 1] - 1; i++) {
      for (let j = this.pointStart[b]; j < this.pointStart[b + 1] - 1; j++) {
        if (
          segmentsIntersect(
            px[i],
            py[i],
            px[i + 1],
            py[i + 1],
            px[j],
            py[j],
            px[j + 1],
            py[j + 1],
          )
        ) return true;
      }
    }
    return false;
  }

  /** Arc length along `a` until its curve leaves `b`'s by more than `distance`. */
  #sharedLength(a: number, b: number, distance: number): number {
    const point = new Float64Array(4);
    const d2 = distance * distance;
    for (let s = 0; s <= this.length[a]; s += SHARED_STEP) {
      this.pointAt(a, s, point);
      let best = Infinity;
      const px = this.px, py = this.py;
      for (let j = this.pointStart[b]; j < this.pointStart[b + 1] - 1; j++) {
        const ex = px[j + 1] - px[j], ey = py[j + 1] - py[j];
        const len2 = ex * ex + ey * ey;
        let t = len2 > 0 ? ((point[0] - px[j]) * ex + (point[1] - py[j]) * ey) / len2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const dx = px[j] + t * ex - point[0], dy = py[j] + t * ey - point[1];
        best = Math.min(best, dx * dx + dy * dy);
      }
      if (best > d2) return s;
    }
    return this.length[a];
  }
}

/**
 * Builds the lanes and connectors of `city`'s carriageways (see the module doc). Throws a
 * RangeError for bad options and a TypeError when an edge refers to a node that does not exist.
 *
 * @example The lanes of a 2 × 2 procedural city
 * ```ts
 * import { buildLaneNetwork, LinkKind } from "./lane_network.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2, lanes: 2, roadWidth: 7 });
 * const lanes = buildLaneNetwork(city);
 * assert.equal(lanes.laneCount, 2 * city.streets.edges.length); // one lane each way
 * assert.equal(lanes.kind[lanes.laneCount], LinkKind.connector);
 * ```
 */
export function buildLaneNetwork(
  city: CityModel,
  options: Partial<LaneNetworkOptions> = {},
): LaneNetwork {
  const o = resolveOptions("lane network", LANE_NETWORK_OPTIONS, options);
  const { nodes, edges } = city.streets;
  const arms: _Arm[][] = nodes.map(() => []);
  edges.forEach((edge, e) => {
    if (!edge.carriageway) return;
    for (const end of [edge.from, edge.to]) {
      if (!Number.isInteger(end) || end < 0 || end >= nodes.length) {
        throw new TypeError(
          `Cannot build lane network as street edge ${e} refers to node ${end}: expected an index in [0, ${nodes.length})`,
        );
      }
    }
    if (edge.points.length < 2 || !(edge.length > 0)) return;
    const p = edge.points, q = p.length - 1;
    arms[edge.from].push(_arm(e, false, p[0], p[1]));
    arms[edge.to].push(_arm(e, true, p[q], p[q - 1]));
  });
  const trims = _trims(city, arms, o);
  const lanes: _Lane[] = [];
  // Inbound and outbound lanes of each arm of each node, ranked from the kerb.
  const inbound: number[][][] = arms.map((a) => a.map(() => []));
  const outbound: number[][][] = arms.map((a) => a.map(() => []));
  edges.forEach((edge, e) => {
    if (!edge.carriageway || edge.points.length < 2 || !(edge.length > 0)) return;
    const fromArm = arms[edge.from].findIndex((a) => a.edge === e && !a.atEnd);
    const toArm = arms[edge.to].findIndex((a) => a.edge === e && a.atEnd);
    const [forwardCount, backwardCount] = _laneCounts(edge);
    const total = forwardCount + backwardCount;
    const width = edge.width / total;
    let trimFrom = trims[edge.from][fromArm], trimTo = trims[edge.to][toArm];
    const keep = edge.length * (1 - MIN_LANE_SHARE);
    if (trimFrom + trimTo > keep) {
      const f = keep / (trimFrom + trimTo);
      trimFrom *= f;
      trimTo *= f;
    }
    // Lateral offset (m, left of the edge's direction positive) of a lane's centre.
    const side = o.drivingSide === "right" ? -1 : 1;
    for (let r = 0; r < forwardCount; r++) {
      const offset = side * (edge.width / 2 - (r + 0.5) * width);
      const points = _trim(_offset(edge.points, offset), trimFrom, trimTo);
      inbound[edge.to][toArm].push(lanes.length);
      outbound[edge.from][fromArm].push(lanes.length);
      lanes.push({
        edge: e,
        forward: true,
        rank: r,
        width,
        startNode: edge.from,
        endNode: edge.to,
        points,
      });
    }
    for (let r = 0; r < backwardCount; r++) {
      // Backward lanes run against the edge: the same offset from their own direction.
      const offset = side * (edge.width / 2 - (r + 0.5) * width);
      const reversed = [...edge.points].reverse();
      const points = _trim(_offset(reversed, offset), trimTo, trimFrom);
      inbound[edge.from][fromArm].push(lanes.length);
      outbound[edge.to][toArm].push(lanes.length);
      lanes.push({
        edge: e,
        forward: false,
        rank: r,
        width,
        startNode: edge.to,
        endNode: edge.from,
        points,
      });
    }
  });
  const connectors: _Connector[] = [];
  const through = Math.cos((o.throughAngle * Math.PI) / 180);
  nodes.forEach((_, n) => {
    const at = arms[n];
    const connect = (from: number, to: number, turn: TurnKind) =>
      connectors.push({
        node: n,
        from,
        to,
        turn,
        points: _curve(lanes[from].points, lanes[to].points, o.connectorSegments),
      });
    for (let a = 0; a < at.length; a++) {
      const ins = inbound[n][a];
      if (ins.length === 0) continue;
      // U-turns at dead ends, and where no other arm can be entered (one-way streets all
      // coming in).
      const noOtherWay = at.every((_, b) => b === a || outbound[n][b].length === 0);
      const served = new Uint8Array(ins.length);
      for (let b = 0; b < at.length; b++) {
        if (a === b && !noOtherWay) continue;
        const outs = outbound[n][b];
        if (outs.length === 0) continue;
        const turn = a === b ? TurnKind.uTurn : _turnKind(at[a], at[b], at.length, through, o);
        for (const [i, j] of _lanePairs(ins.length, outs.length, turn)) {
          served[i] = 1;
          connect(ins[i], outs[j], turn);
        }
      }
      // A lane no movement leaves from (the middle lane of a road that bends past throughAngle
      // where another joins: kerbside turns leave from the kerbside lane, farside ones from the
      // innermost) goes on into the arm most nearly straight ahead, to the lane of its rank.
      const ahead = _straightestArm(at, a, outbound[n]);
      if (ahead < 0) continue;
      const outs = outbound[n][ahead];
      const turn = _turnKind(at[a], at[ahead], at.length, through, o);
      for (let i = 0; i < ins.length; i++) {
        if (served[i] === 1) continue;
        const j = ins.length === 1 ? 0 : Math.round((i * (outs.length - 1)) / (ins.length - 1));
        connect(ins[i], outs[j], turn);
      }
    }
  });
  return new LaneNetwork(
    nodes.length,
    edges.length,
    o.drivingSide,
    lanes,
    connectors,
    o.siblingDistance,
  );
}

/** The arm other than `a` with lanes out that is most nearly straight ahead of `a`'s, or -1. */
function _straightestArm(at: readonly _Arm[], a: number, outbound: readonly number[][]): number {
  let best = -1, bestCos = -Infinity;
  for (let b = 0; b < at.length; b++) {
    if (b === a || outbound[b].length === 0) continue;
    // Travel arriving is minus the inbound arm's outward direction.
    const cos = -at[a].dx * at[b].dx - at[a].dy * at[b].dy;
    if (cos > bestCos) {
      bestCos = cos;
      best = b;
    }
  }
  return best;
}

function _arm(
  edge: number,
  atEnd: boolean,
  at: readonly [number, number],
  next: readonly [number, number],
): _Arm {
  const dx = next[0] - at[0], dy = next[1] - at[1], len = Math.hypot(dx, dy) || 1;
  return { edge, atEnd, dx: dx / len, dy: dy / len };
}

/** Lanes forward and backward of an edge. */
function _laneCounts(edge: StreetEdge): [number, number] {
  const lanes = edge.lanes > 0 ? edge.lanes : edge.oneway ? 1 : 2;
  if (edge.oneway) return [lanes, 0];
  if (lanes === 1) return [1, 1];
  return [Math.ceil(lanes / 2), Math.floor(lanes / 2)];
}

/** Trim (m) of the lanes at each arm of each node. */
function _trims(city: CityModel, arms: readonly _Arm[][], o: LaneNetworkOptions): number[][] {
  const crosswalk = new Map<string, number>();
  for (const c of city.crossings) {
    if (c.node === null || c.edge === null) continue;
    const key = `${c.node}/${c.edge}`;
    const width = c.width > 0 ? c.width : o.crosswalkWidth;
    crosswalk.set(key, Math.max(crosswalk.get(key) ?? 0, width));
  }
  const atNode: number[][] = arms.map(() => []);
  city.crossings.forEach((c, k) => {
    if (c.node !== null && c.points.length >= 2 && c.node < atNode.length) atNode[c.node].push(k);
  });
  return arms.map((at, n) => {
    let widest = 0;
    for (const arm of at) widest = Math.max(widest, city.streets.edges[arm.edge].width);
    const box = at.length >= 3 ? widest / 2 : 0;
    return at.map((arm) => {
      // The far side of the crosswalks across this arm, where their lines cross it; a crossing
      // tied to the arm whose line misses it counts as lying just beyond the junction box.
      let reach = _crosswalkReach(city, atNode[n], n, arm, o.crosswalkWidth);
      const walk = crosswalk.get(`${n}/${arm.edge}`);
      if (walk !== undefined && reach < 0) reach = box + walk;
      return Math.max(MIN_TRIM, box + o.stopLineGap, reach + o.stopLineGap);
    });
  });
}

/**
 * How far from node `n` along `arm` (m) the crosswalks of `crossings` (indices) that cross the
 * arm's line reach: where a crossing's line meets the ray from the node along the arm, plus half
 * its width. -1 when none crosses the arm.
 */
function _crosswalkReach(
  city: CityModel,
  crossings: readonly number[],
  n: number,
  arm: _Arm,
  defaultWidth: number,
): number {
  const node = city.streets.nodes[n];
  let reach = -1;
  for (const k of crossings) {
    const c = city.crossings[k], p = c.points;
    const half = (c.width > 0 ? c.width : defaultWidth) / 2;
    for (let i = 0; i + 1 < p.length; i++) {
      // node + t·(dx, dy) = a + s·(b − a), t ≥ 0, s ∈ [0, 1].
      const ax = p[i][0] - node.x, ay = p[i][1] - node.y;
      const ex = p[i + 1][0] - p[i][0], ey = p[i + 1][1] - p[i][1];
      const det = arm.dx * -ey - arm.dy * -ex;
      if (Math.abs(det) < 1e-12) continue;
      const t = (ax * -ey - ay * -ex) / det, s = (arm.dx * ay - arm.dy * ax) / det;
      if (t >= -1e-9 && s >= -1e-9 && s <= 1 + 1e-9 && t + half > reach) reach = t + half;
    }
  }
  return reach;
}

function _turnKind(
  from: _Arm,
  to: _Arm,
  armCount: number,
  throughCos: number,
  o: LaneNetworkOptions,
): TurnKind {
  if (armCount === 2) return TurnKind.through;
  // Travel direction arriving (into the node) is minus the inbound arm's outward direction.
  const ix = -from.dx, iy = -from.dy;
  const dot = ix * to.dx + iy * to.dy, cross = ix * to.dy - iy * to.dx;
  if (dot >= throughCos) return TurnKind.through;
  const right = cross < 0;
  return right === (o.drivingSide === "right") ? TurnKind.kerbside : TurnKind.farside;
}

/** Pairs (inbound rank, outbound rank) joined by a movement. */
function _lanePairs(kin: number, kout: number, turn: TurnKind): [number, number][] {
  const pairs: [number, number][] = [];
  const add = (i: number, j: number) => {
    if (!pairs.some(([a, b]) => a === i && b === j)) pairs.push([i, j]);
  };
  if (turn === TurnKind.kerbside) {
    for (let j = 0; j < kout; j++) add(0, j);
  } else if (turn === TurnKind.farside) {
    for (let j = 0; j < kout; j++) add(kin - 1, j);
  } else {
    const scale = (k: number, from: number, to: number) =>
      from === 1 ? 0 : Math.round((k * (to - 1)) / (from - 1));
    for (let i = 0; i < kin; i++) add(i, kout === 1 ? 0 : scale(i, kin, kout));
    for (let j = 0; j < kout; j++) add(kin === 1 ? 0 : scale(j, kout, kin), j);
    // There are no lane changes along a lane: a car moves one lane over across a junction
    // instead, so that a car in a lane of a road with turns only to one side (a ring road) can
    // still leave it. Shifts cross or merge with other movements; the car system's conflict
    // check makes them wait for a gap, as a lane change does.
    for (let i = 0; i + 1 < Math.min(kin, kout); i++) {
      add(i, i + 1);
      add(i + 1, i);
    }
  }
  return pairs;
}

/** The polyline shifted `offset` (m) to its left (negative: right), with mitred joints. */
function _offset(
  points: readonly (readonly [number, number])[],
  offset: number,
): [number, number][] {
  const n = points.length;
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    // Left normals of the segments before and after point i.
    let nx = 0, ny = 0;
    for (const k of [i - 1, i]) {
      if (k < 0 || k + 1 >= n) continue;
      const dx = points[k + 1][0] - points[k][0], dy = points[k + 1][1] - points[k][1];
      const len = Math.hypot(dx, dy) || 1;
      nx += -dy / len;
      ny += dx / len;
    }
    const len = Math.hypot(nx, ny) || 1;
    nx /= len;
    ny /= len;
    // Mitre: the averaged normal is cos(half the turn) long against each segment's normal.
    let scale = 1;
    if (i > 0 && i < n - 1) {
      const dx = points[i][0] - points[i - 1][0], dy = points[i][1] - points[i - 1][1];
      const l = Math.hypot(dx, dy) || 1;
      const cosHalf = nx * (-dy / l) + ny * (dx / l);
      scale = 1 / Math.max(0.5, cosHalf);
    }
    out.push([points[i][0] + nx * offset * scale, points[i][1] + ny * offset * scale]);
  }
  return out;
}

/** The polyline without its first `from` and last `to` metres. */
function _trim(points: [number, number][], from: number, to: number): [number, number][] {
  const cum = [0];
  for (let i = 1; i < points.length; i++) {
    cum.push(
      cum[i - 1] + Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]),
    );
  }
  const total = cum[cum.length - 1];
  // A lane on the inside of a tight curve is shorter than its street edge: it too keeps a fifth.
  const keep = total * (1 - MIN_LANE_SHARE);
  if (from + to > keep) {
    const f = keep / (from + to);
    from *= f;
    to *= f;
  }
  const start = Math.min(from, total / 2), end = Math.max(total - to, start);
  const at = (s: number): [number, number] => {
    let k = 0;
    while (k < points.length - 2 && cum[k + 1] < s) k++;
    const len = cum[k + 1] - cum[k];
    const t = len > 0 ? (s - cum[k]) / len : 0;
    return [
      points[k][0] + t * (points[k + 1][0] - points[k][0]),
      points[k][1] + t * (points[k + 1][1] - points[k][1]),
    ];
  };
  const out: [number, number][] = [at(start)];
  for (let i = 1; i < points.length - 1; i++) {
    if (cum[i] > start && cum[i] < end) out.push(points[i]);
  }
  out.push(at(end));
  return out;
}

/** A cubic Bézier from the end of lane `a` to the start of lane `b`, tangent to both. */
function _curve(
  a: readonly [number, number][],
  b: readonly [number, number][],
  segments: number,
): [number, number][] {
  const p0 = a[a.length - 1], pa = a[a.length - 2], p3 = b[0], pb = b[1];
  let d0x = p0[0] - pa[0], d0y = p0[1] - pa[1];
  let d1x = pb[0] - p3[0], d1y = pb[1] - p3[1];
  const l0 = Math.hypot(d0x, d0y) || 1, l1 = Math.hypot(d1x, d1y) || 1;
  d0x /= l0;
  d0y /= l0;
  d1x /= l1;
  d1y /= l1;
  const chord = Math.hypot(p3[0] - p0[0], p3[1] - p0[1]);
  // 0.4 × chord approximates a circular arc for a right angle; U-turns need a wider swing.
  const k = Math.max(0.4 * chord, (d0x * d1x + d0y * d1y) < -0.5 ? 1.5 * chord : 0);
  const c1x = p0[0] + d0x * k, c1y = p0[1] + d0y * k;
  const c2x = p3[0] - d1x * k, c2y = p3[1] - d1y * k;
  const out: [number, number][] = [];
  for (let i = 0; i <= segments; i++) {
    const t = i / segments, u = 1 - t;
    const w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t;
    out.push([
      w0 * p0[0] + w1 * c1x + w2 * c2x + w3 * p3[0],
      w0 * p0[1] + w1 * c1y + w2 * c2y + w3 * p3[1],
    ]);
  }
  return out;
}

/** Compressed rows: `[start, items]` for `(row, item)` pairs, items in pair order per row. */
function _csr(
  rows: number,
  pairs: readonly (readonly [number, number])[],
): [Int32Array, Int32Array] {
  const start = new Int32Array(rows + 1);
  for (const [r] of pairs) start[r + 1]++;
  for (let r = 0; r < rows; r++) start[r + 1] += start[r];
  const items = new Int32Array(pairs.length);
  const cursor = start.slice(0, rows);
  for (const [r, item] of pairs) items[cursor[r]++] = item;
  return [start, items];
}

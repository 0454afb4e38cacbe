/**
 * ORCA half-planes of static obstacles (van den Berg, Guy, Lin, Manocha 2011, Section 6:
 * velocity obstacles of line segments with horizon `tau^O`), as in RVO2.
 *
 * Every half-plane is pushed into an {@linkcode OrcaLines} buffer as a directed line whose left
 * side is allowed. Obstacle geometry follows the convention of RVO2: solid polygons are
 * counter-clockwise, so an agent sees a polygon edge only from its right. A two-sided wall is
 * treated as a polygon of zero thickness that runs along the polyline and back (for each
 * segment the agent sees the direction it is on the right of); an open end of a wall is a convex
 * vertex where the outline turns around.
 *
 * @module
 */
import { pointSegmentDistanceSq } from "../core/geometry.ts";
import { capacityFor, NeighbourQuery } from "../core/neighbour_query.ts";
import type { StaticObstacles } from "../core/obstacles.ts";
import { SegmentGrid } from "../core/segment_grid.ts";
import type { OrcaLines } from "./_orca_lp.ts";
import { isNarrowOpening, NARROW_MARGIN } from "./_narrow_opening.ts";

/**
 * The segment grid is asked for this much more (m) than an agent needs, and the answer serves
 * the agents that follow as long as their discs lie inside.
 */
const CACHE_MARGIN = 1.5;

/**
 * An agent's own list of segments (see {@linkcode ObstacleQuery.agent}) holds those within its
 * range plus this margin (m) of where it was made, and serves until the agent has moved that
 * far: at walking speed, some twenty steps of 0.05 s.
 */
const LIST_MARGIN = 1.5;

/** Most segments an agent's own list holds; an agent with more near it asks the grid each step. */
const LIST_CAPACITY = 64;

/** Values kept per own list: centre x, y, radius, count. */
const LIST_FIELDS = 4;

/** Relative margin against rounding in the "disc inside the cached disc" test. */
const CACHE_SLACK = 1e-9;

/** Slack of the "already covered by a previous obstacle line" test (m/s), as in RVO2. */
const COVERED_EPSILON = 1e-5;

/** Turns at or above this det of unit directions count as convex (collinear joints are convex). */
const CONVEX_EPSILON = -1e-12;

/**
 * One agent's obstacle query: where it stands, how it moves and how far ahead it looks. The
 * solver keeps one and fills it per agent, so a query allocates nothing.
 *
 * @example
 * ```ts
 * import { ObstacleQuery } from "./_orca_obstacles.ts";
 * import assert from "node:assert/strict";
 * const query = new ObstacleQuery();
 * query.radius = 0.25;
 * query.maxSpeed = 1.5;
 * assert.equal(query.horizon * query.maxSpeed + query.radius, 7.75); // its range (m) over 5 s
 * ```
 */
export class ObstacleQuery {
  /** Position x (m). */
  x = 0;
  /** Position y (m). */
  y = 0;
  /** Velocity x (m/s). */
  vx = 0;
  /** Velocity y (m/s). */
  vy = 0;
  /** Radius (m). */
  radius = 0;
  /** Speed limit (m/s). */
  maxSpeed = 0;
  /** tau^O: how long the velocity must stay clear of the walls (s). @default 5 */
  horizon = 5;
  /**
   * Index of the agent asking (-1: none). The segments within its range plus a margin are kept
   * under its index and serve its next steps until it has moved as far as the margin (any query
   * whose disc lies inside the kept one may use them: a list found for another agent that had
   * this index is simply made anew where it no longer covers).
   */
  agent = -1;
}

/**
 * The obstacle segments as ORCA reads them, kept in step with a {@linkcode StaticObstacles}
 * (recomputed when its `version` changes): the world's segments with every run of chained,
 * collinear pieces joined into one segment (a straight wall drawn as 10,000 pieces is one wall
 * here, so the number of segments an agent examines does not grow with how finely a wall is
 * cut), each segment's direction and convexity, and the scratch buffers of the per-agent query.
 *
 * @example A wall 1 m ahead limits the approach speed to (1 m − r) / tau^O
 * ```ts
 * import { ObstacleQuery, OrcaObstacles } from "./_orca_obstacles.ts";
 * import { linearProgram2, OrcaLines } from "./_orca_lp.ts";
 * import { StaticObstacles } from "../core/obstacles.ts";
 * import assert from "node:assert/strict";
 * const obstacles = new StaticObstacles();
 * obstacles.addWall([[-5, 1], [5, 1]]);
 * const geometry = new OrcaObstacles();
 * geometry.update(obstacles);
 * const query = new ObstacleQuery(); // at the origin, standing
 * query.radius = 0.25;
 * query.maxSpeed = 1.5;
 * query.horizon = 5;
 * const lines = new OrcaLines();
 * assert.equal(geometry.pushLines(lines, query), 1);
 * const v = new Float64Array(2);
 * linearProgram2(lines, 1.5, 0, 1.5, false, v);
 * assert.ok(Math.abs(v[1] - 0.75 / 5) < 1e-12);
 * ```
 */
export class OrcaObstacles {
  /** Obstacle version the arrays describe; -1 before the first update. */
  version = -1;
  /** Number of segments (after joining collinear pieces). */
  segmentCount = 0;
  /** Segment start x (m). */
  ax: Float64Array = new Float64Array(0);
  /** Segment start y (m). */
  ay: Float64Array = new Float64Array(0);
  /** Segment end x (m). */
  bx: Float64Array = new Float64Array(0);
  /** Segment end y (m). */
  by: Float64Array = new Float64Array(0);
  /** Next segment of the same polygon or wall, or -1 at an open end. */
  next: Int32Array = new Int32Array(0);
  /** Previous segment of the same polygon or wall, or -1 at an open end. */
  prev: Int32Array = new Int32Array(0);
  /** 1 when the segment belongs to a solid polygon (solid on its left), 0 for a wall. */
  solidLeft: Uint8Array = new Uint8Array(0);
  /** Unit direction x of each segment (a → b). */
  ux: Float64Array = new Float64Array(0);
  /** Unit direction y of each segment (a → b). */
  uy: Float64Array = new Float64Array(0);
  /** 1 when vertex a is convex seen along a → b (the outline turns left or not at all there). */
  convexA: Uint8Array = new Uint8Array(0);
  /** 1 when vertex b is convex seen along b → a (walls only: their outline also runs back). */
  convexB: Uint8Array = new Uint8Array(0);

  /** Where segments near a point are looked up: the world's grid, or one of the joined ones. */
  #index: StaticObstacles | SegmentGrid | null = null;
  #order: Int32Array = new Int32Array(64);
  #orderDistSq: Float64Array = new Float64Array(64);
  #sortOrder: Int32Array = new Int32Array(64);
  #sortDistSq: Float64Array = new Float64Array(64);
  /** Number of segments in `#order` (visible, within the range of the last query). */
  #gathered = 0;
  /**
   * The last answer of the segment grid (see `#candidates`): a wide one for a crowd, or one made
   * for an agent's own list.
   */
  #cache = new NeighbourQuery(LIST_CAPACITY);
  /**
   * The set of segments the last query used (`#lastCount` of `#lastSource` from `#lastOffset`):
   * every segment within `#lastRange` (m) of (`#lastX`, `#lastY`), until the geometry changes
   * (`#lastValid`); and whether a later query used it too (`#lastServed`).
   */
  #lastSource: Uint32Array = new Uint32Array(0);
  #lastOffset = 0;
  #lastCount = 0;
  #lastX = 0;
  #lastY = 0;
  #lastRange = -Infinity;
  #lastValid = false;
  #lastServed = false;
  /**
   * Agents' own lists (see {@linkcode ObstacleQuery.agent}), by agent index: `LIST_FIELDS`
   * values each (the centre x and y (m) and radius (m) of the disc a list covers, and how many
   * segments it holds, -1 for none kept; together, so that one cache line holds them), and the
   * segments, `LIST_CAPACITY` per agent.
   */
  #lists: Float64Array = new Float64Array(0);
  #listItems: Uint32Array = new Uint32Array(0);
  /** Where `#candidates` left the segments to filter: an array and the offset of the first. */
  #candidateSource: Uint32Array = new Uint32Array(0);
  #candidateOffset = 0;
  /** The obstacles the per-segment arrays describe. */
  #source: StaticObstacles | null = null;
  /** The query being answered. */
  #query: ObstacleQuery = new ObstacleQuery();
  /** Scratch of {@linkcode OrcaObstacles.inNarrowOpening}. */
  #narrowSegs = new Uint32Array(8);
  #narrowX = new Float64Array(8);
  #narrowY = new Float64Array(8);

  /** Segments visible and within range in the last {@linkcode OrcaObstacles.pushLines}. */
  get segmentsInRange(): number {
    return this.#gathered;
  }

  /**
   * Whether the agent of the last {@linkcode OrcaObstacles.pushLines}, walking along the unit
   * direction (`ex`, `ey`), stands in or just before an opening narrower than its shoulders plus
   * `margin` (m, default `NARROW_MARGIN`) on each side (see strategies/_narrow_opening.ts), among
   * the segments that call gathered.
   */
  inNarrowOpening(ex: number, ey: number, margin = NARROW_MARGIN): boolean {
    const q = this.#query, r = q.radius, reach = 3 * r + 2 * Math.max(margin, NARROW_MARGIN);
    const lim = reach * reach;
    const order = this.#order, dist = this.#orderDistSq, gathered = this.#gathered;
    let count = 0;
    while (count < gathered && dist[count] <= lim) count++;
    if (count < 2) return false;
    if (this.#narrowSegs.length < count) {
      this.#narrowSegs = new Uint32Array(capacityFor(count));
      this.#narrowX = new Float64Array(capacityFor(count));
      this.#narrowY = new Float64Array(capacityFor(count));
    }
    const segs = this.#narrowSegs;
    for (let k = 0; k < count; k++) segs[k] = order[k] >> 1;
    return isNarrowOpening(
      this,
      segs,
      count,
      q.x,
      q.y,
      r,
      ex,
      ey,
      this.#narrowX,
      this.#narrowY,
      margin,
    );
  }

  /** Recomputes the segments, directions and convexity for other obstacles or changed geometry. */
  update(obstacles: StaticObstacles): void {
    if (obstacles === this.#source && obstacles.version === this.version) return;
    this.#join(obstacles);
    this.#measure();
    this.version = obstacles.version;
    this.#source = obstacles;
    this.#lastValid = false;
    // Lists made for other geometry hold other segment numbers.
    const lists = this.#lists;
    for (let k = LIST_FIELDS - 1; k < lists.length; k += LIST_FIELDS) lists[k] = -1;
  }

  /**
   * Pushes the half-planes of the obstacle segments within `horizon · maxSpeed + radius` of the
   * agent in `query`, nearest segment first, skipping those already covered by earlier obstacle
   * lines. Must run before any agent line is pushed (the coverage test reads every line in
   * `lines`), after {@linkcode OrcaObstacles.update}. Returns the number of lines pushed.
   */
  pushLines(lines: OrcaLines, query: ObstacleQuery): number {
    this.#query = query;
    const count = this.#gather(query.horizon * query.maxSpeed + query.radius);
    return this.#pushFirst(lines, count);
  }

  /**
   * {@linkcode OrcaObstacles.pushLines} for a shorter horizon (`query.horizon`, at most the
   * previous call's), right after a call of it for the same agent: the segments within the
   * shorter range are the first of those that call found, in the same order, so the segment
   * grid is not asked again.
   *
   * @example The safety horizon after the anticipation horizon
   * ```ts
   * import { ObstacleQuery, OrcaObstacles } from "./_orca_obstacles.ts";
   * import { OrcaLines } from "./_orca_lp.ts";
   * import { StaticObstacles } from "../core/obstacles.ts";
   * import assert from "node:assert/strict";
   * const obstacles = new StaticObstacles();
   * obstacles.addWall([[-5, 0.9], [5, 0.9]]); // 0.9 m away
   * obstacles.addWall([[-5, -4], [5, -4]]); // 4 m away
   * const geometry = new OrcaObstacles();
   * geometry.update(obstacles);
   * const query = new ObstacleQuery();
   * query.radius = 0.25;
   * query.maxSpeed = 1.5;
   * const lines = new OrcaLines();
   * assert.equal(geometry.pushLines(lines, query), 2);
   * lines.count = 0;
   * // Over 0.5 s only the wall within 0.5 s · 1.5 m/s + 0.25 m = 1 m counts.
   * query.horizon = 0.5;
   * assert.equal(geometry.pushNearer(lines, query), 1);
   * ```
   */
  pushNearer(lines: OrcaLines, query: ObstacleQuery): number {
    this.#query = query;
    const range = query.horizon * query.maxSpeed + query.radius, r2 = range * range;
    // Sorted by distance: those within range (the test of the segment grid) come first.
    const dist = this.#orderDistSq, gathered = this.#gathered;
    let count = 0;
    while (count < gathered && dist[count] <= r2) count++;
    return this.#pushFirst(lines, count);
  }

  /**
   * Copies the world's segments, joining every run of chained segments that continue each other
   * in a straight line (same direction within `JOIN_SIN`). Without such runs the world's arrays
   * and segment grid are used as they are.
   */
  #join(obstacles: StaticObstacles): void {
    const n = obstacles.segmentCount;
    const { ax, ay, bx, by, next, prev, solidLeft } = obstacles;
    const straight = new Uint8Array(n);
    let joined = n;
    for (let s = 0; s < n; s++) {
      if (prev[s] >= 0 && _continues(obstacles, prev[s], s)) {
        straight[s] = 1;
        joined--;
      }
    }
    this.segmentCount = n;
    this.ax = ax;
    this.ay = ay;
    this.bx = bx;
    this.by = by;
    this.next = next;
    this.prev = prev;
    this.solidLeft = solidLeft;
    this.#index = obstacles;
    if (joined === n) return;
    // Runs start at every segment whose start vertex is a corner (or an open end).
    const runOf = new Int32Array(n).fill(-1), first = new Int32Array(joined);
    const last = new Int32Array(joined);
    let m = 0;
    for (let s = 0; s < n && m < joined; s++) {
      if (straight[s] === 1) continue;
      let e = s;
      runOf[s] = m;
      while (next[e] >= 0 && next[e] !== s && straight[next[e]] === 1) {
        e = next[e];
        runOf[e] = m;
      }
      first[m] = s;
      last[m] = e;
      m++;
    }
    if (m !== joined || runOf.includes(-1)) return; // a closed chain without a corner: keep it
    this.segmentCount = m;
    this.ax = new Float64Array(m);
    this.ay = new Float64Array(m);
    this.bx = new Float64Array(m);
    this.by = new Float64Array(m);
    this.next = new Int32Array(m);
    this.prev = new Int32Array(m);
    this.solidLeft = new Uint8Array(m);
    for (let r = 0; r < m; r++) {
      const s = first[r], e = last[r];
      this.ax[r] = ax[s];
      this.ay[r] = ay[s];
      this.bx[r] = bx[e];
      this.by[r] = by[e];
      this.solidLeft[r] = solidLeft[s];
      this.next[r] = next[e] >= 0 ? runOf[next[e]] : -1;
      this.prev[r] = prev[s] >= 0 ? runOf[prev[s]] : -1;
    }
    const grid = new SegmentGrid(obstacles.grid.cellSize);
    grid.build(this.ax, this.ay, this.bx, this.by, m);
    this.#index = grid;
  }

  /** Directions and convexity of the (joined) segments. */
  #measure(): void {
    const n = this.segmentCount;
    if (this.ux.length < n) {
      this.ux = new Float64Array(n);
      this.uy = new Float64Array(n);
      this.convexA = new Uint8Array(n);
      this.convexB = new Uint8Array(n);
    }
    const { ax, ay, bx, by, next, prev } = this;
    const ux = this.ux, uy = this.uy;
    for (let s = 0; s < n; s++) {
      const ex = bx[s] - ax[s], ey = by[s] - ay[s];
      const len = Math.sqrt(ex * ex + ey * ey);
      ux[s] = ex / len;
      uy[s] = ey / len;
    }
    for (let s = 0; s < n; s++) {
      const p = prev[s], q = next[s];
      // Along a → b, vertex a is convex when the incoming edge turns left (or straight) into s.
      this.convexA[s] = p < 0 || ux[p] * uy[s] - uy[p] * ux[s] >= CONVEX_EPSILON ? 1 : 0;
      // Along b → a, the incoming edge at b is the reverse of the next segment.
      this.convexB[s] = q < 0 || ux[q] * uy[s] - uy[q] * ux[s] >= CONVEX_EPSILON ? 1 : 0;
    }
  }

  /**
   * Finds the visible segments within `range` (m) of the query among a superset of them
   * (`#candidates`): those whose outer side faces the agent, as `segment << 1 | backward` in
   * `#order`, nearest first, equally far ones by that code, with their squared distances in
   * `#orderDistSq`. The order is total, so any superset gives the answer of the segment grid's
   * own. Returns how many.
   */
  #gather(range: number): number {
    const px = this.#query.x, py = this.#query.y;
    const n = this.#candidates(range);
    const cached = this.#candidateSource, offset = this.#candidateOffset;
    if (this.#order.length < n) this.#growOrder(n);
    const { ax, ay, bx, by, solidLeft } = this;
    const ux = this.ux, uy = this.uy, r2 = range * range;
    const order = this.#order, dist = this.#orderDistSq;
    // A few segments (the usual case) are sorted by insertion as they come; many (a wall of
    // many pieces) are collected first and merge-sorted, so that they cost n log n, not n².
    const insert = n <= SORT_RUN;
    let count = 0;
    for (let c = offset, end = offset + n; c < end; c++) {
      const s = cached[c];
      const d2 = pointSegmentDistanceSq(px, py, ax[s], ay[s], bx[s], by[s]);
      if (!(d2 <= r2)) continue;
      // det(u, p - a) < 0: the agent is on the right of a → b.
      const side = ux[s] * (py - ay[s]) - uy[s] * (px - ax[s]);
      let code: number;
      if (solidLeft[s] === 1) {
        if (!(side < 0)) continue; // inside the polygon or on the line of this edge
        code = s << 1;
      } else {
        code = (s << 1) | (side > 0 ? 1 : 0);
      }
      let j = count++;
      if (insert) {
        while (j > 0 && (dist[j - 1] > d2 || (dist[j - 1] === d2 && order[j - 1] > code))) {
          dist[j] = dist[j - 1];
          order[j] = order[j - 1];
          j--;
        }
      }
      dist[j] = d2;
      order[j] = code;
    }
    if (!insert && count > 1) {
      _sortByDistance(dist, order, count, this.#sortDistSq, this.#sortOrder);
    }
    this.#gathered = count;
    return count;
  }

  /**
   * Every segment within `range` (m) of the query, and perhaps others, into
   * `#candidateSource` from `#candidateOffset`; returns how many. Any set that covers the disc
   * gives the same answer, so this only picks the cheapest at hand:
   *
   * 1. the set the previous query used, when its disc covers this one (agents are solved in grid
   *    order: in a crowd the next one stands close by, and that set is still in cache);
   * 2. where that set served others (a crowd), a new grid answer `CACHE_MARGIN` wider than the
   *    disc, for the agents that follow;
   * 3. elsewhere the agent's own list, when it has one that covers the disc (made anew, the range
   *    plus `LIST_MARGIN`, when it does not); without an agent, as 2.
   */
  #candidates(range: number): number {
    const q = this.#query, px = q.x, py = q.y, agent = q.agent;
    const slack = CACHE_SLACK * (1 + Math.abs(px) + Math.abs(py) + range);
    let dx = px - this.#lastX, dy = py - this.#lastY;
    if (this.#lastValid && Math.sqrt(dx * dx + dy * dy) + range <= this.#lastRange - slack) {
      this.#lastServed = true;
      this.#candidateSource = this.#lastSource;
      this.#candidateOffset = this.#lastOffset;
      return this.#lastCount;
    }
    if (agent < 0 || this.#lastServed) {
      const asked = range + CACHE_MARGIN;
      const found = this.#cache.segments(this.#index!, px, py, asked);
      return this.#use(this.#cache.found, 0, found, px, py, asked);
    }
    if (LIST_FIELDS * agent >= this.#lists.length) this.#growLists(agent + 1);
    const lists = this.#lists, at = LIST_FIELDS * agent;
    dx = px - lists[at];
    dy = py - lists[at + 1];
    if (!(lists[at + 3] >= 0 && Math.sqrt(dx * dx + dy * dy) + range <= lists[at + 2] - slack)) {
      const asked = range + LIST_MARGIN;
      // The previous set is not needed any more: the grid's answer may take its place.
      const found = this.#cache.segments(this.#index!, px, py, asked);
      lists[at] = px;
      lists[at + 1] = py;
      lists[at + 2] = asked;
      if (found > LIST_CAPACITY) {
        lists[at + 3] = -1;
        return this.#use(this.#cache.found, 0, found, px, py, asked);
      }
      const fresh = this.#cache.found, items = this.#listItems, first = agent * LIST_CAPACITY;
      for (let k = 0; k < found; k++) items[first + k] = fresh[k];
      lists[at + 3] = found;
    }
    const offset = agent * LIST_CAPACITY;
    return this.#use(
      this.#listItems,
      offset,
      lists[at + 3],
      lists[at],
      lists[at + 1],
      lists[at + 2],
    );
  }

  /**
   * Makes `count` segments of `source` from `offset`, all those within `range` (m) of (x, y),
   * the candidates of this query and the set the next one tries first; returns `count`.
   */
  #use(
    source: Uint32Array,
    offset: number,
    count: number,
    x: number,
    y: number,
    range: number,
  ): number {
    this.#candidateSource = this.#lastSource = source;
    this.#candidateOffset = this.#lastOffset = offset;
    this.#lastCount = count;
    this.#lastX = x;
    this.#lastY = y;
    this.#lastRange = range;
    this.#lastValid = true;
    this.#lastServed = false;
    return count;
  }

  /** Makes room for the own lists of agents `0 … count-1`, keeping those there are. */
  #growLists(count: number): void {
    const size = capacityFor(count), old = this.#lists.length / LIST_FIELDS;
    const lists = new Float64Array(LIST_FIELDS * size);
    lists.set(this.#lists);
    for (let k = old; k < size; k++) lists[LIST_FIELDS * k + 3] = -1;
    this.#lists = lists;
    const items = new Uint32Array(size * LIST_CAPACITY);
    items.set(this.#listItems);
    this.#listItems = items;
  }

  #growOrder(n: number): void {
    const size = capacityFor(n);
    this.#order = new Int32Array(size);
    this.#orderDistSq = new Float64Array(size);
    this.#sortOrder = new Int32Array(size);
    this.#sortDistSq = new Float64Array(size);
  }

  /** Pushes the half-planes of the first `count` gathered segments; returns how many. */
  #pushFirst(lines: OrcaLines, count: number): number {
    const before = lines.count;
    const order = this.#order;
    for (let k = 0; k < count; k++) this.#pushSegment(lines, order[k]);
    return lines.count - before;
  }

  /**
   * The half-plane of one directed obstacle edge (`segment << 1 | backward`) for the agent of
   * the current query, the core of Section 6 of the paper, in five steps: (1) see the edge from
   * the agent; (2) skip it when earlier lines cover its velocity obstacle; (3) forbid moving
   * further into it when the agent touches it; otherwise (4) bound its velocity obstacle by two
   * legs and a cut-off and (5) push the half-plane at the boundary point nearest the velocity.
   *
   * One function of about 200 lines, on purpose: the steps hand some twenty values to each
   * other for every segment of every agent; split into functions that pass them through a
   * scratch object, the walled corridor of the ORCA benchmark took 3–5 % longer per step.
   */
  #pushSegment(lines: OrcaLines, code: number): void {
    const q = this.#query, s = code >> 1, forward = (code & 1) === 0;
    const px = q.x, py = q.y, vx = q.vx, vy = q.vy, radius = q.radius, timeHorizonObst = q.horizon;
    const ux = this.ux, uy = this.uy;
    const next = this.next[s], prev = this.prev[s];
    // 1. The directed edge A → B with unit direction e; ePrev enters A, eNext leaves B. At an
    // open wall end the outline turns around, so the neighbouring edge is the reverse of this
    // one.
    let aX: number, aY: number, bX: number, bY: number, eX: number, eY: number;
    let ePrevX: number, ePrevY: number, eNextX: number, eNextY: number;
    let convexA: boolean, convexB: boolean;
    if (forward) {
      aX = this.ax[s];
      aY = this.ay[s];
      bX = this.bx[s];
      bY = this.by[s];
      eX = ux[s];
      eY = uy[s];
      ePrevX = prev >= 0 ? ux[prev] : -eX;
      ePrevY = prev >= 0 ? uy[prev] : -eY;
      eNextX = next >= 0 ? ux[next] : -eX;
      eNextY = next >= 0 ? uy[next] : -eY;
      convexA = this.convexA[s] === 1;
      convexB = next < 0 || this.convexA[next] === 1;
    } else {
      aX = this.bx[s];
      aY = this.by[s];
      bX = this.ax[s];
      bY = this.ay[s];
      eX = -ux[s];
      eY = -uy[s];
      ePrevX = next >= 0 ? -ux[next] : -eX;
      ePrevY = next >= 0 ? -uy[next] : -eY;
      eNextX = prev >= 0 ? -ux[prev] : -eX;
      eNextY = prev >= 0 ? -uy[prev] : -eY;
      convexA = this.convexB[s] === 1;
      convexB = prev < 0 || this.convexB[prev] === 1;
    }
    const invT = 1 / timeHorizonObst;
    const r1x = aX - px, r1y = aY - py, r2x = bX - px, r2y = bY - py;

    // 2. Skip the edge when both its end points, seen through the horizon, already lie beyond
    // one of the lines pushed so far (by the agent's radius): its velocity obstacle is covered.
    const lpx = lines.px, lpy = lines.py, ldx = lines.dx, ldy = lines.dy;
    const rT = invT * radius;
    for (let j = 0; j < lines.count; j++) {
      const c1 = (invT * r1x - lpx[j]) * ldy[j] - (invT * r1y - lpy[j]) * ldx[j] - rT;
      const c2 = (invT * r2x - lpx[j]) * ldy[j] - (invT * r2y - lpy[j]) * ldx[j] - rT;
      if (c1 >= -COVERED_EPSILON && c2 >= -COVERED_EPSILON) return;
    }

    const distSq1 = r1x * r1x + r1y * r1y, distSq2 = r2x * r2x + r2y * r2y;
    const rSq = radius * radius;
    const obx = bX - aX, oby = bY - aY;
    const sParam = -(r1x * obx + r1y * oby) / (obx * obx + oby * oby);
    const offX = -r1x - sParam * obx, offY = -r1y - sParam * oby;
    const distSqLine = offX * offX + offY * offY;

    // 3. Already touching the obstacle: forbid moving further into it (a line through the
    // origin).
    if (sParam < 0 && distSq1 <= rSq) {
      // Touching vertex A; a concave vertex is covered by the edges that meet there.
      if (convexA) _pushNormalized(lines, 0, 0, -r1y, r1x);
      return;
    }
    if (sParam > 1 && distSq2 <= rSq) {
      // Touching vertex B; the next edge handles it unless the agent is in front of that edge.
      if (convexB && r2x * eNextY - r2y * eNextX >= 0) _pushNormalized(lines, 0, 0, -r2y, r2x);
      return;
    }
    if (sParam >= 0 && sParam < 1 && distSqLine <= rSq) {
      lines.push(0, 0, -eX, -eY);
      return;
    }

    // 4. No collision: the velocity obstacle is bounded by two legs and the cut-off between the
    // vertices (scaled by 1/tau^O). Seen obliquely, one vertex defines both legs.
    let v1x: number, v1y: number, v2x: number, v2y: number;
    let convex1: boolean, convex2: boolean, single: boolean;
    let nbrX: number, nbrY: number; // direction of the edge entering vertex 1
    let dir1X: number, dir1Y: number; // direction of the edge leaving vertex 1
    let dir2X: number, dir2Y: number; // direction of the edge leaving vertex 2
    let leftX: number, leftY: number, rightX: number, rightY: number;
    if (sParam < 0 && distSqLine <= rSq) {
      if (!convexA) return; // seen past a concave vertex: the neighbouring edge handles it
      single = true;
      v1x = v2x = aX;
      v1y = v2y = aY;
      convex1 = convex2 = true;
      nbrX = ePrevX;
      nbrY = ePrevY;
      dir1X = dir2X = eX;
      dir1Y = dir2Y = eY;
      const leg = Math.sqrt(distSq1 - rSq);
      leftX = (r1x * leg - r1y * radius) / distSq1;
      leftY = (r1x * radius + r1y * leg) / distSq1;
      rightX = (r1x * leg + r1y * radius) / distSq1;
      rightY = (-r1x * radius + r1y * leg) / distSq1;
    } else if (sParam > 1 && distSqLine <= rSq) {
      if (!convexB) return;
      single = true;
      v1x = v2x = bX;
      v1y = v2y = bY;
      convex1 = convex2 = true;
      nbrX = eX;
      nbrY = eY;
      dir1X = dir2X = eNextX;
      dir1Y = dir2Y = eNextY;
      const leg = Math.sqrt(distSq2 - rSq);
      leftX = (r2x * leg - r2y * radius) / distSq2;
      leftY = (r2x * radius + r2y * leg) / distSq2;
      rightX = (r2x * leg + r2y * radius) / distSq2;
      rightY = (-r2x * radius + r2y * leg) / distSq2;
    } else {
      single = false;
      v1x = aX;
      v1y = aY;
      v2x = bX;
      v2y = bY;
      convex1 = convexA;
      convex2 = convexB;
      nbrX = ePrevX;
      nbrY = ePrevY;
      dir1X = eX;
      dir1Y = eY;
      dir2X = eNextX;
      dir2Y = eNextY;
      if (convexA) {
        const leg = Math.sqrt(distSq1 - rSq);
        leftX = (r1x * leg - r1y * radius) / distSq1;
        leftY = (r1x * radius + r1y * leg) / distSq1;
      } else {
        // Concave vertex A: the left leg continues the cut-off line.
        leftX = -eX;
        leftY = -eY;
      }
      if (convexB) {
        const leg = Math.sqrt(distSq2 - rSq);
        rightX = (r2x * leg + r2y * radius) / distSq2;
        rightY = (-r2x * radius + r2y * leg) / distSq2;
      } else {
        rightX = eX;
        rightY = eY;
      }
    }

    // A leg at a convex vertex never points into the neighbouring edge: use that edge's
    // direction instead, and add no constraint when the velocity projects onto such a
    // "foreign" leg (the neighbouring edge's own half-plane covers it).
    let leftForeign = false, rightForeign = false;
    if (convex1 && leftX * -nbrY - leftY * -nbrX >= 0) {
      leftX = -nbrX;
      leftY = -nbrY;
      leftForeign = true;
    }
    if (convex2 && rightX * dir2Y - rightY * dir2X <= 0) {
      rightX = dir2X;
      rightY = dir2Y;
      rightForeign = true;
    }

    const lcX = invT * (v1x - px), lcY = invT * (v1y - py); // left cut-off centre
    const rcX = invT * (v2x - px), rcY = invT * (v2y - py); // right cut-off centre
    const cvX = rcX - lcX, cvY = rcY - lcY;
    const t = single ? 0.5 : ((vx - lcX) * cvX + (vy - lcY) * cvY) / (cvX * cvX + cvY * cvY);
    const tLeft = (vx - lcX) * leftX + (vy - lcY) * leftY;
    const tRight = (vx - rcX) * rightX + (vy - rcY) * rightY;

    if ((t < 0 && tLeft < 0) || (single && tLeft < 0 && tRight < 0)) {
      _pushCircleTangent(lines, vx, vy, lcX, lcY, rT);
      return;
    }
    if (t > 1 && tRight < 0) {
      _pushCircleTangent(lines, vx, vy, rcX, rcY, rT);
      return;
    }

    // 5. The half-plane at the boundary point nearest the velocity: the tangent to a cut-off
    // circle, or the cut-off line or a leg, whichever is nearest.
    let distSqCutoff = Infinity, distSqLeft = Infinity, distSqRight = Infinity;
    if (!(t < 0 || t > 1 || single)) {
      const qx = vx - (lcX + t * cvX), qy = vy - (lcY + t * cvY);
      distSqCutoff = qx * qx + qy * qy;
    }
    if (!(tLeft < 0)) {
      const qx = vx - (lcX + tLeft * leftX), qy = vy - (lcY + tLeft * leftY);
      distSqLeft = qx * qx + qy * qy;
    }
    if (!(tRight < 0)) {
      const qx = vx - (rcX + tRight * rightX), qy = vy - (rcY + tRight * rightY);
      distSqRight = qx * qx + qy * qy;
    }
    let dX: number, dY: number, oX: number, oY: number;
    if (distSqCutoff <= distSqLeft && distSqCutoff <= distSqRight) {
      dX = -dir1X;
      dY = -dir1Y;
      oX = lcX;
      oY = lcY;
    } else if (distSqLeft <= distSqRight) {
      if (leftForeign) return;
      dX = leftX;
      dY = leftY;
      oX = lcX;
      oY = lcY;
    } else {
      if (rightForeign) return;
      dX = -rightX;
      dY = -rightY;
      oX = rcX;
      oY = rcY;
    }
    // The line is offset from the cut-off centre by the radius (scaled) to its right side.
    lines.push(oX - rT * dY, oY + rT * dX, dX, dY);
  }
}

/** Slack of the "continues in a straight line" test of joined segments (sine of the angle). */
const JOIN_SIN = 1e-9;

/** True when segment `s` (a → b) continues segment `p` in the same direction, within `JOIN_SIN`. */
function _continues(obstacles: StaticObstacles, p: number, s: number): boolean {
  const { ax, ay, bx, by } = obstacles;
  const px = bx[p] - ax[p], py = by[p] - ay[p], sx = bx[s] - ax[s], sy = by[s] - ay[s];
  const lengths = Math.sqrt((px * px + py * py) * (sx * sx + sy * sy));
  return px * sx + py * sy > 0 && Math.abs(px * sy - py * sx) <= JOIN_SIN * lengths;
}

/**
 * Sorts the first `count` entries of `dist` ascending, carrying `order` along; equal distances
 * by their `order` code (unique), so the result does not depend on the order the segments came
 * in. Small lists are sorted by insertion, longer ones by merging runs
 * through the scratch arrays (at least `count` long), so a wall of many pieces costs
 * n log n, not n².
 */
function _sortByDistance(
  dist: Float64Array,
  order: Int32Array,
  count: number,
  scratchDist: Float64Array,
  scratchOrder: Int32Array,
): void {
  if (count <= SORT_RUN) {
    if (count > 1) _insertionSort(dist, order, 0, count);
    return;
  }
  for (let lo = 0; lo < count; lo += SORT_RUN) {
    _insertionSort(dist, order, lo, Math.min(lo + SORT_RUN, count));
  }
  let fromDist = dist, fromOrder = order, toDist = scratchDist, toOrder = scratchOrder;
  for (let width = SORT_RUN; width < count; width *= 2) {
    for (let lo = 0; lo < count; lo += 2 * width) {
      const mid = Math.min(lo + width, count), hi = Math.min(lo + 2 * width, count);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        // Nearer first, equally far ones by their code (each code comes once).
        const dj = fromDist[j], di = fromDist[i];
        if (dj < di || (dj === di && fromOrder[j] < fromOrder[i])) {
          toDist[k] = fromDist[j];
          toOrder[k++] = fromOrder[j++];
        } else {
          toDist[k] = fromDist[i];
          toOrder[k++] = fromOrder[i++];
        }
      }
      while (i < mid) {
        toDist[k] = fromDist[i];
        toOrder[k++] = fromOrder[i++];
      }
      while (j < hi) {
        toDist[k] = fromDist[j];
        toOrder[k++] = fromOrder[j++];
      }
    }
    [fromDist, toDist] = [toDist, fromDist];
    [fromOrder, toOrder] = [toOrder, fromOrder];
  }
  if (fromDist !== dist) {
    for (let k = 0; k < count; k++) {
      dist[k] = fromDist[k];
      order[k] = fromOrder[k];
    }
  }
}

/** Runs this long are sorted by insertion before merging. */
const SORT_RUN = 32;

/** Insertion sort of `dist[lo … hi-1]` (equal ones by `order`), carrying `order` along. */
function _insertionSort(dist: Float64Array, order: Int32Array, lo: number, hi: number): void {
  for (let k = lo + 1; k < hi; k++) {
    const d = dist[k], code = order[k];
    let j = k;
    while (j > lo && (dist[j - 1] > d || (dist[j - 1] === d && order[j - 1] > code))) {
      dist[j] = dist[j - 1];
      order[j] = order[j - 1];
      j--;
    }
    dist[j] = d;
    order[j] = code;
  }
}

/** Pushes a line through (px, py) with direction (dx, dy) normalised. */
function _pushNormalized(lines: OrcaLines, px: number, py: number, dx: number, dy: number): void {
  const len = Math.sqrt(dx * dx + dy * dy);
  lines.push(px, py, dx / len, dy / len);
}

/**
 * Pushes the tangent to the cut-off circle of centre (cx, cy) and radius `r` at the point
 * nearest the velocity (vx, vy).
 */
function _pushCircleTangent(
  lines: OrcaLines,
  vx: number,
  vy: number,
  cx: number,
  cy: number,
  r: number,
): void {
  let wx = vx - cx, wy = vy - cy;
  const len = Math.sqrt(wx * wx + wy * wy);
  if (len > 0) {
    wx /= len;
    wy /= len;
  } else {
    // The velocity is the centre itself: take the side facing the agent's origin.
    const c = Math.sqrt(cx * cx + cy * cy);
    wx = c > 0 ? -cx / c : 1;
    wy = c > 0 ? -cy / c : 0;
  }
  lines.push(cx + r * wx, cy + r * wy, wy, -wx);
}

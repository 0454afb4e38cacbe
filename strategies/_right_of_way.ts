/**
 * Who gets out of whose way: the two tests the velocity-based strategies (`orca`,
 * `raycast-cluster`, `boxcast`) share to tell a counter-flow jam from a crowd going one way, and
 * to open the arch of wedged agents that forms where streams converge (in front of a door).
 *
 * A strategy that keeps bodies strictly apart (hard contact constraints, one-step braking) has
 * a fixed point that force models do not: agents that touch and all want to move into each
 * other stand still for ever, because every velocity towards a neighbour is forbidden and none
 * of them wants to move back. Across a doorway three such agents — one at each door post and
 * one between — form an arch that no pressure from behind can break. People resolve it by
 * right of way: the one that has the other more squarely in its way lets it pass.
 *
 * Stepping to the walking side resolves a jam of people coming the other way, and only that: in
 * a crowd converging on a door it shifts everyone to one side, where they pile up against the
 * wall.
 *
 * @module
 */
import type { AgentStore } from "../core/agent_store.ts";
import type { AgentGrid } from "../core/agent_grid.ts";
import { NeighbourQuery } from "../core/neighbour_query.ts";

/**
 * cos 60°: a neighbour that has the agent within ±60° straight behind it leads the agent's queue
 * (the agent waits behind it rather than backing off).
 */
const QUEUE_COS = 0.5;

/** −cos 120°: preferred directions more than 120° apart go opposite ways (a counter-flow). */
const COUNTER_COS = 0.5;
const COUNTER_COS_SQ = COUNTER_COS * COUNTER_COS;

/**
 * Surface gap (m) under which two blocked agents count as wedged against each other.
 *
 * @example
 * ```ts
 * import { WEDGE_GAP } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(WEDGE_GAP, 0.1);
 * ```
 */
export const WEDGE_GAP = 0.1;

/**
 * Below this share of its preferred progress (velocity · preferred velocity over the preferred
 * speed squared) an agent counts as standing or blocked.
 *
 * @example
 * ```ts
 * import { BLOCKED_PROGRESS } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(BLOCKED_PROGRESS, 0.1);
 * ```
 */
export const BLOCKED_PROGRESS = 0.1;

/**
 * Right of way between a blocked agent i and a neighbour j it is wedged against. They are in
 * conflict when j stands (its velocity gives less than `BLOCKED_PROGRESS` of its preferred
 * progress), j lies ahead of i along i's preferred direction (a_i = ê_i·h > 0, h the unit
 * vector from i to j), i does not stand in j's queue (a_j = −ê_j·h > −cos 60°: i is not
 * within ±60° straight behind j), and j does not come the other way (preferred directions less
 * than 120° apart: a counter-flow is settled by stepping aside). Then the one that has the other more squarely in its way — the
 * larger a; the lower serial on an exact tie — gives way. The test is antisymmetric: of a pair
 * that both see the conflict, exactly one yields, so an arch of wedged agents opens.
 *
 * @param ex i's preferred direction x (unit)
 * @param ey i's preferred direction y (unit)
 * @param hx unit vector from i to j, x
 * @param hy unit vector from i to j, y
 * @param agents the frozen state: j's preferred velocity, velocity and serial are read
 * @param i the agent
 * @param j the neighbour
 * @returns true when i must give way to j
 *
 * @example Two streams meet: the one that has the other straight ahead yields
 * ```ts
 * import { mustGiveWay } from "./_right_of_way.ts";
 * import { AgentStore } from "../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore(4);
 * agents.add({ x: 0, y: 0 }); // i, standing, heading east, with j straight ahead
 * agents.add({ x: 0.5, y: 0.1 }); // j, standing, heading north across i's way
 * agents.prefVx[0] = 1.3;
 * agents.prefVy[1] = 1.3;
 * const d = Math.hypot(0.5, 0.1), hx = 0.5 / d, hy = 0.1 / d;
 * assert.equal(mustGiveWay(1, 0, hx, hy, agents, 0, 1), true);
 * // Seen from j, i is beside and a little behind it: j keeps its way.
 * assert.equal(mustGiveWay(0, 1, -hx, -hy, agents, 1, 0), false);
 * ```
 */
export function mustGiveWay(
  ex: number,
  ey: number,
  hx: number,
  hy: number,
  agents: AgentStore,
  i: number,
  j: number,
): boolean {
  const ai = ex * hx + ey * hy;
  if (ai <= 0) return false;
  const qx = agents.prefVx[j], qy = agents.prefVy[j], qSq = qx * qx + qy * qy;
  if (qSq === 0 || agents.vx[j] * qx + agents.vy[j] * qy >= BLOCKED_PROGRESS * qSq) return false;
  const q = Math.sqrt(qSq);
  // Coming the other way: settled by stepping aside, not by yielding (see comesTheOtherWay).
  if (ex * qx + ey * qy < -COUNTER_COS * q) return false;
  const aj = -(qx * hx + qy * hy) / q;
  if (aj <= -QUEUE_COS) return false;
  return ai > aj || (ai === aj && agents.serial[i] < agents.serial[j]);
}

/**
 * True when neighbour j wants to go the other way from agent i: their preferred directions are
 * more than 120° apart (an oncoming encounter, settled by stepping to the walking side).
 *
 * @param ex i's preferred direction x (unit)
 * @param ey i's preferred direction y (unit)
 *
 * @example
 * ```ts
 * import { comesTheOtherWay } from "./_right_of_way.ts";
 * import { AgentStore } from "../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore(2);
 * agents.add({ x: 1, y: 0 });
 * agents.prefVx[0] = -1.3;
 * assert.equal(comesTheOtherWay(1, 0, agents, 0), true);
 * ```
 */
export function comesTheOtherWay(ex: number, ey: number, agents: AgentStore, j: number): boolean {
  const qx = agents.prefVx[j], qy = agents.prefVy[j];
  return ex * qx + ey * qy < -COUNTER_COS * Math.sqrt(qx * qx + qy * qy);
}

/**
 * Scratch buffer of {@linkcode counterflowAhead}: one per strategy instance, grown on demand. It
 * is the core {@linkcode NeighbourQuery}; the name says what it is used for.
 *
 * @example
 * ```ts
 * import { CounterflowQuery } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(new CounterflowQuery().found.length, 64);
 * ```
 */
export class CounterflowQuery extends NeighbourQuery {}

/**
 * True when someone within `radius` (m) ahead of agent i (in front of it along its preferred
 * velocity) wants to go the other way (preferred directions more than 120° apart, so that two
 * streams converging on a door from either side do not count): i stands in a
 * counter-flow, where stepping to the walking side lets both streams pass — also for those
 * behind the front row, who see the oncoming crowd over the heads of their own. In a crowd going
 * one way (a queue at a door) it is false. Reads every agent in range: call it only for blocked
 * agents.
 *
 * @example
 * ```ts
 * import { counterflowAhead, CounterflowQuery } from "./_right_of_way.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "./none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0 });
 * world.addAgent({ x: 3, y: 0.5 });
 * world.agents.prefVx[0] = 1.3;
 * world.agents.prefVx[1] = -1.3; // coming the other way, 3 m ahead
 * world.prepare();
 * const query = new CounterflowQuery();
 * assert.equal(counterflowAhead(world.agents, world.grid, 0, 5, query), true);
 * world.agents.prefVx[1] = 1.3; // walking the same way
 * assert.equal(counterflowAhead(world.agents, world.grid, 0, 5, query), false);
 * ```
 */
export function counterflowAhead(
  agents: AgentStore,
  grid: AgentGrid,
  i: number,
  radius: number,
  query: NeighbourQuery,
): boolean {
  const x = agents.px[i], y = agents.py[i], pvx = agents.prefVx[i], pvy = agents.prefVy[i];
  const count = query.agents(grid, x, y, radius, i);
  const px = agents.px, py = agents.py, prefVx = agents.prefVx, prefVy = agents.prefVy;
  const found = query.found;
  for (let k = 0; k < count; k++) {
    const j = found[k];
    if (_opposesAhead(pvx, pvy, px[j] - x, py[j] - y, prefVx[j], prefVy[j])) return true;
  }
  return false;
}

/**
 * The test of {@linkcode counterflowAhead} on a list of agents known to lie within its radius
 * of agent i (such as i's nearest neighbours): true when one of them is ahead of i and wants to
 * go the other way. A true answer here is the answer of `counterflowAhead` (which reads every
 * agent in range); on false, that one still has to be asked.
 *
 * @param neighbours agent indices (not i)
 * @param count how many of `neighbours` to read
 *
 * @example Someone coming the other way among the nearest neighbours
 * ```ts
 * import { counterflowAmong } from "./_right_of_way.ts";
 * import { AgentStore } from "../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore(3);
 * agents.add({ x: 0, y: 0 });
 * agents.add({ x: 2, y: 0.5 }); // ahead, coming the other way
 * agents.add({ x: -2, y: 0 }); // behind, coming the other way
 * agents.prefVx[0] = 1.3;
 * agents.prefVx[1] = agents.prefVx[2] = -1.3;
 * assert.equal(counterflowAmong(agents, 0, new Uint32Array([2, 1]), 2), true);
 * assert.equal(counterflowAmong(agents, 0, new Uint32Array([2, 1]), 1), false);
 * ```
 */
export function counterflowAmong(
  agents: AgentStore,
  i: number,
  neighbours: Uint32Array,
  count: number,
): boolean {
  const x = agents.px[i], y = agents.py[i], pvx = agents.prefVx[i], pvy = agents.prefVy[i];
  const px = agents.px, py = agents.py, prefVx = agents.prefVx, prefVy = agents.prefVy;
  for (let k = 0; k < count; k++) {
    const j = neighbours[k];
    if (_opposesAhead(pvx, pvy, px[j] - x, py[j] - y, prefVx[j], prefVy[j])) return true;
  }
  return false;
}

/**
 * True when an agent at (dx, dy) relative to one with preferred velocity (pvx, pvy), itself
 * with preferred velocity (qx, qy), is ahead of it and wants to go the other way (more than
 * 120°).
 */
function _opposesAhead(
  pvx: number,
  pvy: number,
  dx: number,
  dy: number,
  qx: number,
  qy: number,
): boolean {
  const dot = pvx * qx + pvy * qy;
  return dot < 0 && dot * dot > COUNTER_COS_SQ * (pvx * pvx + pvy * pvy) * (qx * qx + qy * qy) &&
    dx * pvx + dy * pvy > 0;
}

/**
 * Largest share of its radius a pinned agent gives up towards its neighbours (0.2: a 0.25 m
 * disc narrows to 0.2 m, about a walker turning the shoulders to slip through). Hard contact
 * between rigid discs has a fixed point a real crowd does not: at a narrow door, agents at
 * both posts and one between them lock into an arch with a centimetre or two of slack, every
 * one of them touching three others, and neither giving way nor side-stepping opens it. People
 * turn sideways and squeeze by; an agent pinned for longer than {@linkcode PINNED_PATIENCE_S}
 * does the same, a little more every step it stays pinned, and squares up again once it walks
 * (see {@linkcode squeezeOf}).
 *
 * @example
 * ```ts
 * import { SQUEEZE_SHARE } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(SQUEEZE_SHARE, 0.2);
 * ```
 */
export const SQUEEZE_SHARE = 0.2;

/**
 * Seconds an agent stands pinned (less than `BLOCKED_PROGRESS` of its preferred progress)
 * before it starts to squeeze: a brief stop in passing never narrows anyone.
 *
 * @example
 * ```ts
 * import { PINNED_PATIENCE_S } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(PINNED_PATIENCE_S, 0.5);
 * ```
 */
export const PINNED_PATIENCE_S = 0.5;

/** Growth of the squeeze past the patience (share of the radius per second): full in 2 s. */
const SQUEEZE_RATE = 0.1;

/** How much faster the pinned time runs down while the agent walks than it builds up. */
const UNPIN_SPEEDUP = 2;

/** Pinned time (s) at which the squeeze is full; the pinned time is capped there. */
const PINNED_FULL_S = PINNED_PATIENCE_S + SQUEEZE_SHARE / SQUEEZE_RATE;

/**
 * Share of the radius an agent pinned for `pinnedS` seconds gives up towards its neighbours:
 * 0 up to {@linkcode PINNED_PATIENCE_S}, then growing to {@linkcode SQUEEZE_SHARE} over 2 s.
 * Walls always see the whole body.
 *
 * @example
 * ```ts
 * import { squeezeOf } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(squeezeOf(0.4), 0);
 * assert.ok(Math.abs(squeezeOf(1.5) - 0.1) < 1e-12);
 * assert.equal(squeezeOf(10), 0.2);
 * ```
 */
export function squeezeOf(pinnedS: number): number {
  const s = (pinnedS - PINNED_PATIENCE_S) * SQUEEZE_RATE;
  return s <= 0 ? 0 : s < SQUEEZE_SHARE ? s : SQUEEZE_SHARE;
}

/**
 * The pinned time (s) after a step of `dt` seconds: it builds up while the agent is `blocked`
 * (capped where the squeeze is full) and runs down twice as fast while it walks, so that a
 * squeezed agent squares up over a second of walking.
 *
 * @example
 * ```ts
 * import { nextPinnedTime } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(nextPinnedTime(1, true, 0.5), 1.5);
 * assert.equal(nextPinnedTime(1, false, 0.25), 0.5);
 * assert.equal(nextPinnedTime(0.1, false, 0.25), 0);
 * ```
 */
export function nextPinnedTime(pinnedS: number, blocked: boolean, dt: number): number {
  if (blocked) return pinnedS + dt < PINNED_FULL_S ? pinnedS + dt : PINNED_FULL_S;
  const t = pinnedS - UNPIN_SPEEDUP * dt;
  return t > 0 ? t : 0;
}

/**
 * Share of their combined radii two people coming head-on give up towards each other in a
 * counter-flow press (0.4: bodies 0.6 of their shoulder widths apart, about an adult's chest
 * depth against the shoulder breadth).
 *
 * Where two crowds meet head-on in a corridor they fill from wall to wall, rigid discs lock the
 * interface: everyone is pinned against two or three people coming the other way, no row can
 * open a gap as wide as a body for the other crowd, and stepping to the walking side only shifts
 * whole rows against the walls (lanes form along the walls and nowhere else). People in that
 * press turn their torsos and slip past each other shoulder first, presenting their chest depth
 * rather than their shoulder width across the way: the rotating torso that lets simulated
 * walkers squeeze past each other in S. J. Stüvel, M. de Goeij, B. van Basten and A. Egges,
 * "Torso crowds", IEEE Transactions on Visualization and Computer Graphics, 2017. Once the turned
 * pairs have slipped past each other, lanes grow behind them as in the lane formation of
 * D. Helbing and P. Molnár, "Social force model for pedestrian dynamics", Physical Review E,
 * 1995.
 *
 * The turn is the pair's: the one of two that has turned the more sets their distance, so that
 * both contact rules agree on it. It is given up only towards people coming head-on
 * ({@linkcode comesHeadOn}: two crowds going opposite ways, not a crowd converging on a point
 * from all sides, where the bodies stay whole), and only in a press ({@linkcode PASSING_PRESS}),
 * so a queue stays a queue and a head-on pair in the open (which steps aside) never overlaps.
 *
 * @example
 * ```ts
 * import { PASSING_TURN_SHARE } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(PASSING_TURN_SHARE, 0.4);
 * ```
 */
export const PASSING_TURN_SHARE = 0.4;

/**
 * People coming head-on that a pinned agent must touch (surface gap under
 * {@linkcode WEDGE_GAP}) to turn its shoulders: two, as at the interface of two crowds, where
 * rows meet staggered; a lone oncoming walker is passed by stepping aside.
 *
 * @example
 * ```ts
 * import { PASSING_PRESS } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(PASSING_PRESS, 2);
 * ```
 */
export const PASSING_PRESS = 2;

/** −cos 162°: preferred directions within 18° of opposite come head-on. */
const HEAD_ON_COS = 0.95;

/**
 * True when neighbour j comes head-on towards agent i's preferred direction: their preferred
 * directions are within 18° of opposite (two crowds walking opposite ways along a corridor,
 * whose goals lie some metres off each walker's line).
 *
 * @param ex i's preferred direction x (unit)
 * @param ey i's preferred direction y (unit)
 *
 * @example
 * ```ts
 * import { comesHeadOn } from "./_right_of_way.ts";
 * import { AgentStore } from "../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const agents = new AgentStore(2);
 * agents.add({ x: 1, y: 0 });
 * agents.prefVx[0] = -1.3;
 * assert.equal(comesHeadOn(1, 0, agents, 0), true);
 * agents.prefVy[0] = 1.3; // 135° from i's direction: oncoming, not head-on
 * assert.equal(comesHeadOn(1, 0, agents, 0), false);
 * ```
 */
export function comesHeadOn(ex: number, ey: number, agents: AgentStore, j: number): boolean {
  const qx = agents.prefVx[j], qy = agents.prefVy[j];
  return ex * qx + ey * qy < -HEAD_ON_COS * Math.sqrt(qx * qx + qy * qy);
}

/** Seconds pinned over which the passing turn grows to {@linkcode PASSING_TURN_SHARE}. */
const PASSING_TURN_S = 0.25;

/**
 * Share of their combined radii an agent pinned for `pinnedS` seconds in a counter-flow press
 * gives up towards the people coming head-on: growing from 0 to
 * {@linkcode PASSING_TURN_SHARE} over a quarter of a second pinned (a turn of the torso, not
 * the slow squeeze of {@linkcode squeezeOf}).
 *
 * @example
 * ```ts
 * import { passingTurnOf } from "./_right_of_way.ts";
 * import assert from "node:assert/strict";
 * assert.equal(passingTurnOf(0), 0);
 * assert.ok(Math.abs(passingTurnOf(0.125) - 0.2) < 1e-12);
 * assert.equal(passingTurnOf(3), 0.4);
 * ```
 */
export function passingTurnOf(pinnedS: number): number {
  const s = (pinnedS / PASSING_TURN_S) * PASSING_TURN_SHARE;
  return s <= 0 ? 0 : s < PASSING_TURN_SHARE ? s : PASSING_TURN_SHARE;
}

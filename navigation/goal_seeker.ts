/**
 * Straight-line goal seeking with optional gates: the preferred velocity points at the agent's
 * next target at its desired speed, slowing down inside a braking distance before the goal.
 *
 * A spawner's `via` gates (segments such as doorways) are passed in order: while a gate is
 * ahead, the agent heads for the nearest point of the gate, kept a body radius plus a margin
 * away from the gate's ends, the way JuPedSim routes pedestrians to the closest point of an
 * exit line; an agent already in front of the opening walks straight through it. Once the agent
 * is on the far side of the gate (the side where its next target lies), it moves on to the next
 * gate or its goal.
 *
 * @module
 */
import { AgentFlags } from "../core/agent_store.ts";
import type { NavigationContext, Navigator } from "../core/navigator.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import type { World } from "../core/world.ts";

/** Options of {@linkcode createGoalSeeker}. */
export interface GoalSeekerOptions {
  /**
   * Distance to the goal (m) inside which the preferred speed falls linearly to zero
   * (Reynolds' "arrive"). 0 keeps full speed up to the goal.
   */
  slowingDistance: number;
  /** Clearance (m) kept from a gate's ends, on top of the agent's radius. */
  gateMargin: number;
}

/** Descriptors of {@linkcode GoalSeekerOptions}. */
export const GOAL_SEEKER_OPTIONS: OptionSpecs<GoalSeekerOptions> = {
  slowingDistance: {
    type: "number",
    default: 0,
    min: 0,
    max: 100,
    unit: "m",
    doc: "braking distance before the goal; 0 walks at full speed until arrival",
  },
  gateMargin: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 5,
    unit: "m",
    doc: "clearance from a gate's ends on top of the body radius",
  },
};

/** Column holding the index of each agent's next gate. */
export const ROUTE_NEXT_COLUMN = "route.next";

/**
 * Creates the goal-seeking navigator.
 *
 * @example
 * ```ts
 * import { createGoalSeeker } from "./goal_seeker.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * const h = world.addAgent({ x: 0, y: 0, goalX: 3, goalY: 4, desiredSpeed: 1 });
 * world.step();
 * assert(Math.abs(world.agent(h)!.vx - 0.6) < 1e-12);
 * ```
 */
export function createGoalSeeker(options: Partial<GoalSeekerOptions> = {}): Navigator {
  const { slowingDistance, gateMargin } = resolveOptions(
    "goal seeker",
    GOAL_SEEKER_OPTIONS,
    options,
  );
  let world: World | undefined;
  // Gates of every spawner, flattened: spawner g owns gates gateStart[g] … gateStart[g+1]-1.
  let spawnerCount = -1;
  let gateStart = new Int32Array(1);
  let gax = new Float64Array(0),
    gay = new Float64Array(0),
    gbx = new Float64Array(0),
    gby = new Float64Array(0);

  function refreshGates(): void {
    const spawners = world?.population.spawners ?? [];
    if (spawners.length === spawnerCount) return;
    spawnerCount = spawners.length;
    gateStart = new Int32Array(spawnerCount + 1);
    let total = 0;
    spawners.forEach((s, g) => {
      gateStart[g] = total;
      total += s.via.length;
    });
    gateStart[spawnerCount] = total;
    gax = new Float64Array(total);
    gay = new Float64Array(total);
    gbx = new Float64Array(total);
    gby = new Float64Array(total);
    spawners.forEach((s, g) => {
      s.via.forEach((gate, k) => {
        const j = gateStart[g] + k;
        gax[j] = gate.ax;
        gay[j] = gate.ay;
        gbx[j] = gate.bx;
        gby[j] = gate.by;
      });
    });
  }

  /** Index of agent i's current gate, or -1 when it heads for its goal. */
  function currentGate(group: number, next: number): number {
    if (group < 0 || group >= spawnerCount) return -1;
    const j = gateStart[group] + next;
    return j < gateStart[group + 1] ? j : -1;
  }

  return {
    name: "goal-seeker",
    columns: [{
      name: ROUTE_NEXT_COLUMN,
      type: "i32",
      default: 0,
      kind: "state",
      doc: "next gate of the route",
    }],
    attach(w: World): void {
      world = w;
    },
    updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
      refreshGates();
      const a = ctx.agents;
      const px = a.px, py = a.py, gx = a.goalX, gy = a.goalY, speed = a.desiredSpeed;
      const prefVx = a.prefVx,
        prefVy = a.prefVy,
        flags = a.flags,
        group = a.group,
        radius = a.radius;
      // Agents stores not attached to a world (no route column) have no gates.
      const routed = spawnerCount > 0 && gateStart[spawnerCount] > 0 &&
        a.hasColumn(ROUTE_NEXT_COLUMN);
      const next = routed ? a.column<Int32Array>(ROUTE_NEXT_COLUMN) : gateStart;
      for (let i = begin; i < end; i++) {
        if ((flags[i] & AgentFlags.arrived) !== 0) {
          prefVx[i] = prefVy[i] = 0;
          continue;
        }
        let tx = gx[i], ty = gy[i], braking = slowingDistance;
        const j = routed ? currentGate(group[i], next[i]) : -1;
        if (j >= 0) {
          // Nearest point of the gate, its ends pulled in by the body radius plus the margin.
          const ex = gbx[j] - gax[j], ey = gby[j] - gay[j];
          const len = Math.sqrt(ex * ex + ey * ey);
          const inset = Math.min(0.5, (radius[i] + gateMargin) / len);
          const t = ((px[i] - gax[j]) * ex + (py[i] - gay[j]) * ey) / (len * len);
          if (t >= inset && t <= 1 - inset) {
            // In front of the opening: walk straight through it, towards the far side.
            const k = currentGate(group[i], next[i] + 1);
            const nx = k >= 0 ? (gax[k] + gbx[k]) / 2 : gx[i],
              ny = k >= 0 ? (gay[k] + gby[k]) / 2 : gy[i];
            const side = ex * (ny - gay[j]) - ey * (nx - gax[j]) >= 0 ? 1 : -1;
            tx = gax[j] + t * ex - (side * ey) / len;
            ty = gay[j] + t * ey + (side * ex) / len;
          } else {
            const c = t < inset ? inset : 1 - inset;
            tx = gax[j] + c * ex;
            ty = gay[j] + c * ey;
          }
          braking = 0;
        }
        const dx = tx - px[i], dy = ty - py[i];
        const d = Math.sqrt(dx * dx + dy * dy);
        if (d === 0) {
          prefVx[i] = prefVy[i] = 0;
          continue;
        }
        let s = speed[i];
        if (d < braking) s *= d / braking;
        prefVx[i] = (dx / d) * s;
        prefVy[i] = (dy / d) * s;
      }
    },
    afterMove(ctx: NavigationContext, begin: number, end: number): void {
      const a = ctx.agents;
      if (spawnerCount <= 0 || gateStart[spawnerCount] === 0 || !a.hasColumn(ROUTE_NEXT_COLUMN)) {
        return;
      }
      const px = a.px, py = a.py, gx = a.goalX, gy = a.goalY, group = a.group;
      const next = a.column<Int32Array>(ROUTE_NEXT_COLUMN);
      for (let i = begin; i < end; i++) {
        const j = currentGate(group[i], next[i]);
        if (j < 0) continue;
        // The side of the gate's line where the next target lies; the gate is passed once the
        // agent stands on that side.
        const k = currentGate(group[i], next[i] + 1);
        const nx = k >= 0 ? (gax[k] + gbx[k]) / 2 : gx[i],
          ny = k >= 0 ? (gay[k] + gby[k]) / 2 : gy[i];
        const ex = gbx[j] - gax[j], ey = gby[j] - gay[j];
        const sideAgent = ex * (py[i] - gay[j]) - ey * (px[i] - gax[j]);
        const sideTarget = ex * (ny - gay[j]) - ey * (nx - gax[j]);
        if (sideAgent * sideTarget > 0) next[i]++;
      }
    },
  };
}

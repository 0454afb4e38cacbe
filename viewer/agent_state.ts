/**
 * The state code of each agent that the viewer colours by ({@linkcode AgentStateCode}): from the
 * core columns (flags, speed against desired speed) and, for strategies that keep such a
 * column, whether the strategy is steering around something or finds no way through.
 *
 * Strategy hints are read from the strategy's own columns when the world has them:
 *
 * | column | type | avoiding when | blocked when |
 * | --- | --- | --- | --- |
 * | `raycast.status` (raycast-cluster) | u8 | bit 2 (centre cluster blocked) | bit 4 (every cluster blocked) |
 * | `steering.group` (boxcast, priority-steering) | i32 | the first (avoidance) group decided: 0 | never |
 *
 * @module
 */
import { AgentFlags } from "../core/agent_store.ts";
import type { World } from "../core/world.ts";
import { AgentStateCode } from "./frame_protocol.ts";

/** Below this speed (m/s) an agent counts as stopped. */
export const STOPPED_SPEED = 0.1;

/** Below this share of its desired speed an agent counts as slowed. */
export const SLOWED_SHARE = 0.5;

/** Bits of the raycast-cluster strategy's `raycast.status` column (strategies/raycast_cluster.ts). */
const RAYCAST_CENTRE_BLOCKED = 2, RAYCAST_ALL_BLOCKED = 4;

/** Which strategy column, if any, gives avoiding / blocked hints. */
type Hint =
  | { kind: "none" }
  | { kind: "raycast"; status: Uint8Array }
  | { kind: "steering"; group: Int32Array };

/**
 * Writes the {@linkcode AgentStateCode} of agents `0 … count-1` into `out` and returns the mean
 * speed (m/s) of the agents that have not arrived (NaN when there are none).
 *
 * @example An agent standing still is "stopped", one walking at its desired speed "walking"
 * ```ts
 * import { classifyAgentStates } from "./agent_state.ts";
 * import { AgentStateCode } from "./frame_protocol.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 0, y: 0 });
 * world.addAgent({ x: 5, y: 0, vx: 1.34, goalX: 50, desiredSpeed: 1.34 });
 * const out = new Uint8Array(2);
 * const meanSpeed = classifyAgentStates(world, out);
 * assert.deepEqual([...out], [AgentStateCode.stopped, AgentStateCode.walking]);
 * assert.equal(meanSpeed, 0.67);
 * ```
 */
export function classifyAgentStates(world: World, out: Uint8Array): number {
  const a = world.agents, n = a.count;
  const hint = _hint(world);
  const vx = a.vx, vy = a.vy, flags = a.flags, desired = a.desiredSpeed;
  let speedSum = 0, walking = 0;
  for (let i = 0; i < n; i++) {
    const f = flags[i];
    if ((f & AgentFlags.frozen) !== 0) {
      out[i] = AgentStateCode.frozen;
      continue;
    }
    if ((f & AgentFlags.arrived) !== 0) {
      out[i] = AgentStateCode.arrived;
      continue;
    }
    const speed = Math.sqrt(vx[i] * vx[i] + vy[i] * vy[i]);
    speedSum += speed;
    walking++;
    let code: number = speed < STOPPED_SPEED
      ? AgentStateCode.stopped
      : speed < SLOWED_SHARE * desired[i]
      ? AgentStateCode.slowed
      : AgentStateCode.walking;
    if (hint.kind === "raycast") {
      const s = hint.status[i];
      if ((s & RAYCAST_ALL_BLOCKED) !== 0) code = AgentStateCode.blocked;
      else if ((s & RAYCAST_CENTRE_BLOCKED) !== 0) code = AgentStateCode.avoiding;
    } else if (hint.kind === "steering" && hint.group[i] === 0) {
      code = AgentStateCode.avoiding;
    }
    out[i] = code;
  }
  return walking > 0 ? speedSum / walking : NaN;
}

function _hint(world: World): Hint {
  const a = world.agents;
  if (a.hasColumn("raycast.status")) {
    const status = a.column("raycast.status");
    if (status instanceof Uint8Array) return { kind: "raycast", status };
  }
  if (a.hasColumn("steering.group")) {
    const group = a.column("steering.group");
    if (group instanceof Int32Array) return { kind: "steering", group };
  }
  return { kind: "none" };
}

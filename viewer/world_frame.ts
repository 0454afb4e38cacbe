/**
 * Encoding a world's agents as an agent frame of the viewer protocol (layout in
 * `viewer/frame_protocol.ts`).
 *
 * @module
 */
import type { World } from "../core/world.ts";
import { classifyAgentStates } from "./agent_state.ts";
import { allocateAgentFrame, FrameFlags, writeFrameHeader } from "./frame_protocol.ts";

/** Run-level numbers that go into a frame header beside the agents. */
export interface FrameMetrics {
  /** Collisions so far. */
  collisions: number;
  /** Arrivals so far. */
  arrivals: number;
  /** Trips started so far. */
  trips: number;
  /** Salsa count so far; NaN when unknown. */
  salsa: number;
}

/** Options of {@linkcode encodeWorldFrame}. */
export interface EncodeWorldFrameOptions {
  /** View index written into the frame. @default 0 */
  view?: number;
  /** Metrics of the run so far. @default zeros, salsa NaN */
  metrics?: FrameMetrics;
  /** Simulated seconds per wall-clock second. @default 1 */
  timeFactor?: number;
  /** Extra {@linkcode FrameFlags} bits (paused). @default 0 */
  flags?: number;
}

/**
 * Encodes the agents of `world` (positions, velocities, ids, radii, state codes) and the step's
 * numbers into a new agent frame. One pass over the agents; the only allocation is the frame.
 *
 * @example Two agents, read back with the protocol's decoder
 * ```ts
 * import { encodeWorldFrame } from "./world_frame.ts";
 * import { decodeAgentFrame } from "./frame_protocol.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 1, y: 2, radius: 0.3 });
 * world.addAgent({ x: -4, y: 0.5 });
 * const frame = decodeAgentFrame(encodeWorldFrame(world, { view: 1 }));
 * assert.equal(frame.count, 2);
 * assert.equal(frame.view, 1);
 * assert.deepEqual([...frame.positions], [1, 2, -4, 0.5]);
 * assert.ok(Math.abs(frame.radius[0] - 0.3) < 1e-6);
 * ```
 */
export function encodeWorldFrame(world: World, options: EncodeWorldFrameOptions = {}): ArrayBuffer {
  const a = world.agents, n = a.count;
  const frame = allocateAgentFrame(n);
  const positions = frame.positions, velocities = frame.velocities;
  const px = a.px, py = a.py, vx = a.vx, vy = a.vy;
  for (let i = 0, j = 0; i < n; i++, j += 2) {
    positions[j] = px[i];
    positions[j + 1] = py[i];
    velocities[j] = vx[i];
    velocities[j + 1] = vy[i];
  }
  frame.ids.set(a.serial.subarray(0, n));
  frame.radius.set(a.radius.subarray(0, n));
  const meanSpeed = classifyAgentStates(world, frame.state);
  const m = options.metrics ?? { collisions: 0, arrivals: 0, trips: 0, salsa: NaN };
  writeFrameHeader(frame.buffer, {
    view: options.view ?? 0,
    flags: (options.flags ?? 0) | (world.finished ? FrameFlags.finished : 0),
    count: n,
    step: world.stepIndex,
    msPerStep: world.lastStepMs,
    time: world.time,
    collisions: m.collisions,
    arrivals: m.arrivals,
    trips: m.trips,
    meanSpeed,
    salsa: m.salsa,
    timeFactor: options.timeFactor ?? 1,
  });
  return frame.buffer;
}

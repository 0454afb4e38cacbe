/**
 * Collisions and salsa of a recorded run, frame by frame, for the replay panels: the recorded
 * agents are put, frame after frame, into a world that never steps, and the project's
 * {@linkcode MetricsCollector} observes it as it observes a live run. The counts are those of the
 * live metrics (same definitions, same code), over the recorded frames instead of every step.
 *
 * What a recording does not hold is approximated: velocities come from the file (binary) or from
 * the move since the agent's previous frame (text); the direction navigation sent an agent, which
 * salsa measures steering against, is the straight line to where its trip ends in the recording.
 * So a run recorded every step gives the live collision count (to the rounding of its `f32`
 * positions), and salsa close to the live count for agents that walk straight to their goal.
 *
 * @module
 */
import { AgentFlags, type AgentHandle } from "../core/agent_store.ts";
import { World } from "../core/world.ts";
import { MetricsCollector } from "../metrics/collector.ts";
import type { TrajectoryData } from "../recording/trajectory.ts";
import { createNoneStrategy } from "../strategies/none.ts";

/** Body radius assumed for agents of recordings that store none (m). */
export const DEFAULT_RECORDED_RADIUS = 0.25;

/** Running totals of a recording, one entry per frame (including that frame). */
export interface RecordedMetrics {
  /** Overlapping pairs, summed over the frames so far. */
  collisions: Float64Array;
  /** Head-on encounters with a side reversal so far. */
  salsa: Float64Array;
}

/** Column of the measuring world holding each agent's trip (dense number of its recorded id). */
const TRIP_COLUMN = "replay.trip";

/**
 * Measures collisions and salsa of every frame of a recording.
 *
 * @example Two agents recorded overlapping in both frames
 * ```ts
 * import { measureRecording } from "./recorded_metrics.ts";
 * import { readTrajectory } from "../recording/read_trajectory.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".txt" });
 * await Deno.writeTextFile(path, "# framerate: 10\n# id frame x/m y/m z/m\n1 0 0 0 0\n2 0 0.3 0 0\n1 1 0.1 0 0\n2 1 0.4 0 0\n");
 * const metrics = measureRecording(readTrajectory(path));
 * assert.deepEqual([...metrics.collisions], [1, 2]);
 * await Deno.remove(path);
 * ```
 */
export function measureRecording(data: TrajectoryData): RecordedMetrics {
  const frames = data.frames;
  const collisions = new Float64Array(frames.length), salsa = new Float64Array(frames.length);
  const measure = new _RecordingMeasure(data);
  for (let k = 0; k < frames.length; k++) {
    const result = measure.frame(k);
    collisions[k] = result.collisions;
    salsa[k] = result.salsa;
  }
  return { collisions, salsa };
}

/** The recording replayed into a world that never steps, observed by a metrics collector. */
class _RecordingMeasure {
  readonly #data: TrajectoryData;
  readonly #world: World;
  readonly #collector = new MetricsCollector();
  /** Trip number of every row, frame by frame (trips number the distinct recorded ids). */
  readonly #tripOfRow: Uint32Array[];
  /** Per trip: where it ends, its agent's handle (-1 when not in the world), where it was. */
  readonly #endX: Float64Array;
  readonly #endY: Float64Array;
  readonly #handle: Float64Array;
  readonly #lastX: Float64Array;
  readonly #lastY: Float64Array;
  readonly #lastTime: Float64Array;
  readonly #seenIn: Int32Array;

  constructor(data: TrajectoryData) {
    this.#data = data;
    const trips: Record<number, number> = Object.create(null);
    let count = 0;
    this.#tripOfRow = data.frames.map((frame) => {
      const row = new Uint32Array(frame.count);
      for (let i = 0; i < frame.count; i++) row[i] = trips[frame.ids[i]] ??= count++;
      return row;
    });
    this.#endX = new Float64Array(count);
    this.#endY = new Float64Array(count);
    data.frames.forEach((frame, k) => {
      const row = this.#tripOfRow[k];
      for (let i = 0; i < frame.count; i++) {
        this.#endX[row[i]] = frame.x[i];
        this.#endY[row[i]] = frame.y[i];
      }
    });
    this.#handle = new Float64Array(count).fill(-1);
    this.#lastX = new Float64Array(count);
    this.#lastY = new Float64Array(count);
    this.#lastTime = new Float64Array(count);
    this.#seenIn = new Int32Array(count).fill(-1);
    this.#world = new World({ strategy: createNoneStrategy(), dt: 1 / data.frameRate });
    for (const polygon of data.header.polygons) this.#world.obstacles.addPolygon(polygon);
    for (const wall of data.header.walls) this.#world.obstacles.addWall(wall);
    this.#world.agents.registerColumn({ name: TRIP_COLUMN, type: "u32", kind: "parameter" });
    this.#world.addObserver(this.#collector);
  }

  /** Puts frame `k` into the world (frames in order) and returns the metrics so far. */
  frame(k: number): { collisions: number; salsa: number } {
    const frame = this.#data.frames[k], row = this.#tripOfRow[k];
    this.#world.time = frame.time;
    this.#world.stepIndex = k;
    for (let i = 0; i < frame.count; i++) this.#seenIn[row[i]] = k;
    this.#removeAbsent(k);
    for (let i = 0; i < frame.count; i++) this.#place(k, i);
    this.#world.reindex();
    this.#collector.afterStep(this.#world);
    const { collisions, salsa } = this.#collector.result();
    return { collisions, salsa };
  }

  /** Removes the agents whose trip is not in frame `k` (highest index first: swap-removes). */
  #removeAbsent(k: number): void {
    const a = this.#world.agents, trip = a.column<Uint32Array>(TRIP_COLUMN);
    for (let i = a.count - 1; i >= 0; i--) {
      if (this.#seenIn[trip[i]] === k) continue;
      this.#handle[trip[i]] = -1;
      this.#world.removeAgent(a.handleAt(i));
    }
  }

  /**
   * Writes row `i` of frame `k` into its trip's agent (added when new): position, velocity (the
   * file's, else the move since its previous frame), preferred velocity (towards where its trip
   * ends, at its speed) and arrival.
   */
  #place(k: number, i: number): void {
    const frame = this.#data.frames[k], trip = this.#tripOfRow[k][i];
    const world = this.#world, a = world.agents, x = frame.x[i], y = frame.y[i];
    const isNew = this.#handle[trip] < 0;
    if (isNew) {
      const radius = frame.radius && frame.radius[i] > 0 ? frame.radius[i] : undefined;
      const handle = world.addAgent({ x, y, radius: radius ?? DEFAULT_RECORDED_RADIUS });
      this.#handle[trip] = handle;
      a.column<Uint32Array>(TRIP_COLUMN)[a.indexOf(handle)] = trip;
    }
    const index = a.indexOf(this.#handle[trip] as AgentHandle);
    let vx = 0, vy = 0;
    if (frame.vx && frame.vy) {
      vx = frame.vx[i];
      vy = frame.vy[i];
    } else if (!isNew && frame.time > this.#lastTime[trip]) {
      const dt = frame.time - this.#lastTime[trip];
      vx = (x - this.#lastX[trip]) / dt;
      vy = (y - this.#lastY[trip]) / dt;
    }
    a.px[index] = x;
    a.py[index] = y;
    a.vx[index] = vx;
    a.vy[index] = vy;
    const ex = this.#endX[trip] - x, ey = this.#endY[trip] - y;
    const distance = Math.sqrt(ex * ex + ey * ey), speed = Math.sqrt(vx * vx + vy * vy);
    a.prefVx[index] = distance > 1e-9 ? (ex / distance) * speed : 0;
    a.prefVy[index] = distance > 1e-9 ? (ey / distance) * speed : 0;
    this.#lastX[trip] = x;
    this.#lastY[trip] = y;
    this.#lastTime[trip] = frame.time;
    if (frame.flags && (frame.flags[i] & AgentFlags.arrived) !== 0) {
      if ((a.flags[index] & AgentFlags.arrived) === 0) {
        a.flags[index] |= AgentFlags.arrived;
        this.#collector.onArrival(world, index);
      }
    }
  }
}

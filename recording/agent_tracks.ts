/**
 * Per-agent view of a trajectory: the rows of each trajectory id, in frame order.
 *
 * @module
 */
import type { TrajectoryData } from "./trajectory.ts";

/** The recorded path of one trajectory id. */
export interface AgentTrack {
  /** Trajectory id. */
  id: number;
  /** Number of rows (frames the agent appears in). */
  count: number;
  /** Frame numbers, ascending. */
  frames: Uint32Array;
  /** Times (s). */
  time: Float64Array;
  /** Positions x (m). */
  x: Float64Array;
  /** Positions y (m). */
  y: Float64Array;
  /** Heights (m). */
  z: Float64Array;
}

/**
 * Groups the rows of a trajectory by agent id (two passes over the rows, one allocation per
 * agent). The map iterates in order of first appearance.
 *
 * @example Two agents over two frames
 * ```ts
 * import { groupByAgent } from "./agent_tracks.ts";
 * import { decodeTextTrajectory } from "./text_trajectory.ts";
 * import assert from "node:assert/strict";
 * const data = decodeTextTrajectory(
 *   "# framerate: 10\n# id frame x/m y/m z/m\n1 0 0 0 0\n2 0 5 0 0\n1 1 0.1 0 0\n2 1 4.9 0 0\n",
 *   "two.txt",
 * );
 * const tracks = groupByAgent(data);
 * assert.deepEqual([...tracks.keys()], [1, 2]);
 * assert.deepEqual([...tracks.get(2)!.x], [5, 4.9]);
 * assert.deepEqual([...tracks.get(1)!.time], [0, 0.1]);
 * ```
 */
export function groupByAgent(data: TrajectoryData): Map<number, AgentTrack> {
  const counts = new Map<number, number>();
  for (const f of data.frames) {
    for (let i = 0; i < f.count; i++) counts.set(f.ids[i], (counts.get(f.ids[i]) ?? 0) + 1);
  }
  const tracks = new Map<number, AgentTrack>();
  for (const [id, n] of counts) {
    tracks.set(id, {
      id,
      count: 0,
      frames: new Uint32Array(n),
      time: new Float64Array(n),
      x: new Float64Array(n),
      y: new Float64Array(n),
      z: new Float64Array(n),
    });
  }
  for (const f of data.frames) {
    for (let i = 0; i < f.count; i++) {
      const t = tracks.get(f.ids[i])!, k = t.count++;
      t.frames[k] = f.frame;
      t.time[k] = f.time;
      t.x[k] = f.x[i];
      t.y[k] = f.y[i];
      t.z[k] = f.z[i];
    }
  }
  return tracks;
}

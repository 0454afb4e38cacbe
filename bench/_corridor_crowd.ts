/**
 * The two-way corridor crowd of the ORCA benchmark, built from whichever checkout's modules are
 * passed in, so that a side-by-side comparison (`bench/city_grid_ab.ts --scene corridor`) builds
 * the same crowd on both sides.
 *
 * @module
 */
import type { Rng } from "../core/rng.ts";
import type { Strategy } from "../core/strategy.ts";
import type { World, WorldOptions } from "../core/world.ts";
import type { Navigator } from "../core/navigator.ts";

/** The constructors a corridor is built with (those of one checkout). */
export interface CorridorKit {
  /** The world class. */
  World: new (options: WorldOptions) => World;
  /** The random number generator class. */
  Rng: new (seed: number) => Rng;
  /** The navigator walking every agent to its goal. */
  createGoalSeeker: () => Navigator;
}

/** Agents per m² of the corridor. */
const DENSITY = 1;

/**
 * A 10 m wide corridor between two walls holding `count` agents at 1 agent/m², each walking
 * east or west (a coin toss) at a desired speed of 1.34 ± 0.26 m/s clamped to [0.5, 2], with
 * `strategy`.
 */
export function buildCorridorCrowd(kit: CorridorKit, strategy: Strategy, count: number): World {
  const world = new kit.World({
    strategy,
    navigator: kit.createGoalSeeker(),
    capacity: count,
  });
  const rng = new kit.Rng(2011);
  const width = 10, length = count / (width * DENSITY);
  world.obstacles.addWall([[-length, -width / 2], [2 * length, -width / 2]]);
  world.obstacles.addWall([[-length, width / 2], [2 * length, width / 2]]);
  const cols = Math.ceil(Math.sqrt(count * length / width)), rows = Math.ceil(count / cols);
  for (let i = 0; i < count; i++) {
    const x = ((i % cols) + 0.5) * (length / cols);
    const y = -width / 2 + 0.4 + (Math.floor(i / cols) + 0.5) * ((width - 0.8) / rows);
    const east = rng.chance(0.5);
    world.addAgent({
      x,
      y,
      goalX: east ? 2 * length : -length,
      goalY: y,
      desiredSpeed: Math.min(2, Math.max(0.5, rng.normal(1.34, 0.26))),
    });
  }
  return world;
}

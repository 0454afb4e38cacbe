/**
 * Test fixtures of the recording folder: a small world with geometry, agents that stay and
 * agents that leave, and an observer that keeps what the world held after every step.
 *
 * @module
 */
import { World, type WorldObserver } from "../core/world.ts";
import type { AgentColumns } from "./trajectory.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";

/** One agent as the world held it. */
export interface _Row {
  id: number;
  x: number;
  y: number;
  z: number;
  vx: number;
  vy: number;
  flags: number;
}

/** What the world held at one recorded moment. */
export interface _Snapshot {
  step: number;
  time: number;
  rows: _Row[];
}

function _row(a: AgentColumns, i: number): _Row {
  return {
    id: a.serial[i],
    x: a.px[i],
    y: a.py[i],
    z: a.pz[i],
    vx: a.vx[i],
    vy: a.vy[i],
    flags: a.flags[i],
  };
}

/**
 * Keeps the agents present after every step plus those that left during it (the recorder's
 * contract), as plain objects: a test oracle, not for production.
 */
export class _ReferenceObserver implements WorldObserver {
  snapshots: _Snapshot[] = [];
  /** Agents that left during a step. */
  departures = 0;
  #departed: _Row[] = [];

  attach(world: World): void {
    world.prepare();
    this.#snap(world);
  }

  onRemove(world: World, index: number): void {
    if (world.phase === null) return;
    this.#departed.push(_row(world.agents, index));
    this.departures++;
  }

  afterStep(world: World): void {
    this.#snap(world);
  }

  #snap(world: World): void {
    const rows: _Row[] = [];
    for (let i = 0; i < world.agents.count; i++) rows.push(_row(world.agents, i));
    this.snapshots.push({
      step: world.stepIndex,
      time: world.time,
      rows: rows.concat(this.#departed),
    });
    this.#departed = [];
  }
}

/**
 * A world with a square pillar, an open and a closed wall, three agents placed by hand (they stay
 * on arrival) and a spawner of three agents that leave on arrival.
 */
export function _buildWorld(): World {
  const world = new World({
    strategy: createNoneStrategy(),
    navigator: createGoalSeeker(),
    seed: 7,
  });
  world.obstacles.addPolygon([[4, 4], [5, 4], [5, 5], [4, 5]]);
  world.obstacles.addWall([[-1, -3], [12, -3]]);
  world.obstacles.addWall([[20, 20], [21, 20], [21, 21]], true);
  world.addAgent({ x: 0, y: 0, goalX: 3, goalY: 0, desiredSpeed: 1.2 });
  world.addAgent({ x: -1.2345678, y: 2.5, z: 0.75, goalX: 3, goalY: -2 });
  world.addAgent({ x: 10, y: -1, goalX: 0, goalY: -1 });
  world.population.addSpawner({
    name: "east",
    area: { kind: "rect", minX: 7, minY: 0, maxX: 9, maxY: 1 },
    count: 3,
    rate: 2,
    goal: { kind: "area", area: { kind: "point", x: 8, y: 4 } },
    onArrival: "remove",
  });
  return world;
}

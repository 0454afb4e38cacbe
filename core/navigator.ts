/**
 * The navigation plugin interface: where each agent wants to go.
 *
 * A navigator writes preferred velocities (`agents.prefVx`/`prefVy`, m/s) — the seam between
 * navigation and avoidance strategies. It may also update per-agent surface state after agents
 * have moved (multi-level navigation).
 *
 * @module
 */
import type { AgentStore, ColumnSpec } from "./agent_store.ts";
import type { StaticObstacles } from "./obstacles.ts";
import type { Rng } from "./rng.ts";
import type { World } from "./world.ts";

/** What a navigator may read during one step. */
export interface NavigationContext {
  /** Agent columns; write `prefVx`/`prefVy` and the navigator's own columns. */
  readonly agents: AgentStore;
  /** Static obstacles. */
  readonly obstacles: StaticObstacles;
  /** Time step (s). */
  readonly dt: number;
  /** Simulation time at the start of the step (s). */
  readonly time: number;
  /** Number of steps completed before this one. */
  readonly stepIndex: number;
  /** The navigator's own random stream. */
  readonly rng: Rng;
}

/** Supplies preferred velocities. */
export interface Navigator {
  /** Short name, e.g. `"goal-seeker"`. */
  readonly name: string;
  /** Per-agent columns the navigator needs. */
  readonly columns?: readonly ColumnSpec[];
  /** Called once when the world adopts the navigator, after its columns exist. */
  attach?(world: World): void;
  /** Writes `prefVx`/`prefVy` for agents `begin … end-1`. Arrived agents get zero. */
  updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void;
  /** Called after integration moved agents `begin … end-1` (surface changes, heights). */
  afterMove?(ctx: NavigationContext, begin: number, end: number): void;
}

/**
 * The avoidance-strategy plugin interface.
 *
 * A strategy turns preferred velocities (written by navigation) into new velocities that avoid
 * other agents and obstacles. The contract, which makes results independent of agent order and
 * lets the phase run on several workers:
 *
 * - read positions, velocities and preferred velocities only from the frozen state of the
 *   current step (`agents.px`, `vx`, `prefVx`, …) and neighbours only from `ctx.grid` /
 *   `ctx.obstacles`;
 * - write only `agents.newVx` / `agents.newVy` and the strategy's own columns, and for agent `i`
 *   only row `i`;
 * - never move agents: integration is a separate phase run by the world.
 *
 * @module
 */
import type { AgentStore, ColumnSpec } from "./agent_store.ts";
import type { AgentGrid } from "./agent_grid.ts";
import type { StaticObstacles } from "./obstacles.ts";
import type { OptionSpecs } from "./options.ts";
import type { Rng } from "./rng.ts";
import type { World } from "./world.ts";
import type { Vehicles } from "./vehicles.ts";

/** Which side pedestrians keep to by custom ("right-hand" or "left-hand" walking). */
export type WalkingSide = "right" | "left";

/** Everything a strategy may read during one step. */
export interface StepContext {
  /** Agent columns: frozen state to read, `newVx`/`newVy` to write. */
  readonly agents: AgentStore;
  /** Agents indexed by the positions of this step. */
  readonly grid: AgentGrid;
  /** Static obstacles with their segment grid. */
  readonly obstacles: StaticObstacles;
  /** Time step (s). */
  readonly dt: number;
  /** Simulation time at the start of the step (s). */
  readonly time: number;
  /** Number of steps completed before this one. */
  readonly stepIndex: number;
  /** The strategy's own random stream. */
  readonly rng: Rng;
  /** The world's cultural walking side. */
  readonly walkingSide: WalkingSide;
  /**
   * Vehicles (cars) as moving oriented rectangles, for this step; empty without traffic. A
   * strategy must never steer an agent into one that keeps its course: run
   * `avoidVehicles` (core/vehicles.ts) on the velocities it wrote, and model them in its own
   * way too where it can.
   */
  readonly vehicles?: Vehicles;
}

/** An avoidance strategy instance, attached to one world. */
export interface Strategy {
  /** Registry name, e.g. `"orca"`. */
  readonly name: string;
  /**
   * Radius (m) of the neighbourhood the strategy reads; the world's agent grid uses cells of
   * twice this size unless told otherwise. 0 when it reads no neighbours.
   */
  readonly neighborRadius: number;
  /** Per-agent columns the strategy needs; the world registers them before the first step. */
  readonly columns?: readonly ColumnSpec[];
  /** Called once when the world adopts the strategy, after its columns exist. */
  attach?(world: World): void;
  /** Writes `newVx`/`newVy` for agents `begin … end-1` from the frozen state. */
  computeNewVelocities(ctx: StepContext, begin: number, end: number): void;
  /**
   * Internal state of one agent for inspection (debug views, tests), as plain named values.
   * Not called in the step loop.
   */
  inspect?(world: World, index: number): Record<string, number | string | boolean>;
}

/** A named, documented way to create a {@linkcode Strategy} from validated options. */
export interface StrategyFactory<O extends object = Record<string, never>> {
  /** Registry name, lower-case with dashes, e.g. `"raycast-cluster"`. */
  readonly name: string;
  /** One line for listings. */
  readonly description: string;
  /** Model-wide parameters with defaults, units and limits. */
  readonly options: OptionSpecs<O>;
  /**
   * False for strategies that do not try to avoid other agents (the `none` baseline); the
   * conformance suite then skips its no-overlap checks. @default true
   */
  readonly avoidsCollisions?: boolean;
  /** Creates an instance; options are validated against `options`. */
  create(options?: Partial<O>): Strategy;
}

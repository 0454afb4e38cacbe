/**
 * The per-agent state of the navmesh navigator: column names, their specs, the status values,
 * and a view that binds every column once per phase (no lookups per agent).
 *
 * @module
 */
import type { AgentStore, ColumnSpec } from "../core/agent_store.ts";

/** Agent column: the mesh triangle the agent stands on (-1 before it is located). */
export const NAVMESH_TRIANGLE_COLUMN = "navmesh.triangle";
/** Agent column: the surface the agent stands on (-1 before it is located). */
export const NAVMESH_SURFACE_COLUMN = "navmesh.surface";
/** Agent column: the agent's {@linkcode NavAgentStatus}. */
export const NAVMESH_STATUS_COLUMN = "navmesh.status";
/** Agent column: seconds the agent has been nearly still. */
export const NAVMESH_STUCK_COLUMN = "navmesh.stuckTime";
/** Agent column: simulation time of the next path attempt of an unreachable agent (s). */
export const NAVMESH_RETRY_COLUMN = "navmesh.retryAt";
/** Agent column: 1 when the agent stands off the mesh (pushed into a wall or obstacle). */
export const NAVMESH_OUTSIDE_COLUMN = "navmesh.outside";
/** Agent column: x of the point the agent steers at (m). */
export const NAVMESH_TARGET_X_COLUMN = "navmesh.targetX";
/** Agent column: y of the point the agent steers at (m). */
export const NAVMESH_TARGET_Y_COLUMN = "navmesh.targetY";

/** Agent column: the mesh vertex of the corner the agent steers round (-1: none). */
export const NAVMESH_CORNER_COLUMN = "navmesh.corner";

/** Agent column: the offset (m) from the inner corner the agent turns at (see corner_spread.ts). */
export const NAVMESH_SPREAD_COLUMN = "navmesh.spread";

/** Values of the status column. */
export const NavAgentStatus = {
  /** Needs a path. */
  unplanned: 0,
  /** Waiting for its path query. */
  queued: 1,
  /** Following a path to its goal. */
  following: 2,
  /** Following a path to the point nearest its goal (the goal is off the walkable area). */
  partial: 3,
  /** No route; retries every `retryInterval`. */
  unreachable: 4,
  /** Not on the mesh: walks straight at its goal. */
  offMesh: 5,
} as const;

/** Column specs of the navmesh navigator, registered by the world. */
export const NAVMESH_COLUMNS: readonly ColumnSpec[] = [
  {
    name: NAVMESH_TRIANGLE_COLUMN,
    type: "i32",
    default: -1,
    kind: "state",
    doc: "mesh triangle under the agent",
  },
  {
    name: NAVMESH_SURFACE_COLUMN,
    type: "i32",
    default: -1,
    kind: "state",
    doc: "surface under the agent",
  },
  { name: NAVMESH_STATUS_COLUMN, type: "u8", default: 0, kind: "state", doc: "NavAgentStatus" },
  {
    name: NAVMESH_STUCK_COLUMN,
    type: "f64",
    default: 0,
    kind: "state",
    doc: "seconds nearly still (s)",
  },
  {
    name: NAVMESH_RETRY_COLUMN,
    type: "f64",
    default: 0,
    kind: "state",
    doc: "time of the next path attempt (s)",
  },
  {
    name: NAVMESH_OUTSIDE_COLUMN,
    type: "u8",
    default: 0,
    kind: "state",
    doc: "1 when off the mesh",
  },
  {
    name: NAVMESH_TARGET_X_COLUMN,
    type: "f64",
    default: 0,
    kind: "state",
    doc: "steering point x (m)",
  },
  {
    name: NAVMESH_TARGET_Y_COLUMN,
    type: "f64",
    default: 0,
    kind: "state",
    doc: "steering point y (m)",
  },
  {
    name: NAVMESH_CORNER_COLUMN,
    type: "i32",
    default: -1,
    kind: "state",
    doc: "mesh vertex of the corner steered round (-1: none)",
  },
  {
    name: NAVMESH_SPREAD_COLUMN,
    type: "f64",
    default: 0,
    kind: "state",
    doc: "offset from the inner corner the agent turns at (m)",
  },
];

/**
 * The navmesh columns of one agent store, looked up once per phase with
 * {@linkcode NavMeshAgentColumns.bind} (the store replaces its arrays when it grows).
 */
export class NavMeshAgentColumns {
  /** See {@linkcode NAVMESH_TRIANGLE_COLUMN}. */
  triangle: Int32Array = new Int32Array(0);
  /** See {@linkcode NAVMESH_SURFACE_COLUMN}. */
  surface: Int32Array = new Int32Array(0);
  /** See {@linkcode NAVMESH_STATUS_COLUMN}. */
  status: Uint8Array = new Uint8Array(0);
  /** See {@linkcode NAVMESH_STUCK_COLUMN}. */
  stuckTime: Float64Array = new Float64Array(0);
  /** See {@linkcode NAVMESH_RETRY_COLUMN}. */
  retryAt: Float64Array = new Float64Array(0);
  /** See {@linkcode NAVMESH_OUTSIDE_COLUMN}. */
  outside: Uint8Array = new Uint8Array(0);
  /** See {@linkcode NAVMESH_TARGET_X_COLUMN}. */
  targetX: Float64Array = new Float64Array(0);
  /** See {@linkcode NAVMESH_TARGET_Y_COLUMN}. */
  targetY: Float64Array = new Float64Array(0);
  /** See {@linkcode NAVMESH_CORNER_COLUMN}. */
  corner: Int32Array = new Int32Array(0);
  /** See {@linkcode NAVMESH_SPREAD_COLUMN}. */
  spread: Float64Array = new Float64Array(0);

  /** Points every field at `agents`' current column arrays. */
  bind(agents: AgentStore): void {
    this.triangle = agents.column<Int32Array>(NAVMESH_TRIANGLE_COLUMN);
    this.surface = agents.column<Int32Array>(NAVMESH_SURFACE_COLUMN);
    this.status = agents.column<Uint8Array>(NAVMESH_STATUS_COLUMN);
    this.stuckTime = agents.column(NAVMESH_STUCK_COLUMN);
    this.retryAt = agents.column(NAVMESH_RETRY_COLUMN);
    this.outside = agents.column<Uint8Array>(NAVMESH_OUTSIDE_COLUMN);
    this.targetX = agents.column(NAVMESH_TARGET_X_COLUMN);
    this.targetY = agents.column(NAVMESH_TARGET_Y_COLUMN);
    this.corner = agents.column<Int32Array>(NAVMESH_CORNER_COLUMN);
    this.spread = agents.column(NAVMESH_SPREAD_COLUMN);
  }
}

/**
 * Per-agent columns of the `raycast-cluster` strategy: the parameters a scenario may set per
 * agent (`raycast.rayCount`, `raycast.arcDeg`, …), whose defaults are the strategy's options,
 * and the working state carried from step to step (`raycast.status`, `raycast.bias`, …).
 *
 * @module
 */
import type { AgentStore, ColumnLimits, ColumnSpec } from "../core/agent_store.ts";
import { RAYCAST_CLUSTER_OPTIONS, type RaycastClusterOptions } from "./raycast_cluster.ts";

/**
 * `raycast.rude` value meaning "not drawn yet": drawn from `rudeShare` at the agent's first
 * step.
 *
 * @example
 * ```ts
 * import { RUDE_UNDECIDED } from "./_raycast_columns.ts";
 * import assert from "node:assert/strict";
 * assert.equal(RUDE_UNDECIDED, 2);
 * ```
 */
export const RUDE_UNDECIDED = 2;

/** Bit of `raycast.status`: the agent's trip has started (its first step is done). */
export const INITIALISED = 1;
/** Bit of `raycast.status`: the last check found the centre cluster colliding. */
export const CENTRE_BLOCKED = 2;
/** Bit of `raycast.status`: the last check found every cluster colliding (cornered). */
export const ALL_BLOCKED = 4;
/** Bit of `raycast.status`: the agent's random check phase has been drawn. */
export const PHASED = 8;

/** The options that give the per-agent parameter columns their defaults. */
export type RaycastColumnDefaults = Pick<
  RaycastClusterOptions,
  "rayCount" | "rayArcDeg" | "rayLengthM" | "clusterMargin" | "rayOriginAheadM" | "confusion"
>;

/**
 * The column declarations of a strategy whose parameter columns default to `o`.
 *
 * @example
 * ```ts
 * import { raycastColumnSpecs } from "./_raycast_columns.ts";
 * import { RAYCAST_CLUSTER_OPTIONS } from "./raycast_cluster.ts";
 * import { resolveOptions } from "../core/options.ts";
 * import assert from "node:assert/strict";
 * const o = resolveOptions("raycast-cluster strategy", RAYCAST_CLUSTER_OPTIONS, { rayCount: 9 });
 * const rays = raycastColumnSpecs(o).find((c) => c.name === "raycast.rayCount");
 * assert.equal(rays?.default, 9);
 * ```
 */
export function raycastColumnSpecs(o: RaycastColumnDefaults): ColumnSpec[] {
  // Per-agent values obey the same ranges as the options that give their defaults.
  const limits = RAYCAST_CLUSTER_OPTIONS;
  return [
    _parameter("rayCount", "u8", o.rayCount, "rays (forced odd), 3…21", limits.rayCount),
    _parameter(
      "arcDeg",
      "f64",
      o.rayArcDeg,
      "ray arc from the right-most to the left-most ray (deg), (0, 180]",
      limits.rayArcDeg,
    ),
    _parameter("length", "f64", o.rayLengthM, "ray length (m), (0, 50]", limits.rayLengthM),
    _parameter(
      "clusterMargin",
      "u8",
      o.clusterMargin,
      "rays on each side of a cluster's centre ray",
      limits.clusterMargin,
    ),
    _parameter(
      "originAhead",
      "f64",
      o.rayOriginAheadM,
      "ray origin ahead of the centre (m), [0, 1]",
      limits.rayOriginAheadM,
    ),
    _parameter(
      "rude",
      "u8",
      RUDE_UNDECIDED,
      "1 inverts the walking side, 0 keeps it, 2 = draw from rudeShare",
      { min: 0, max: 2, integer: true },
    ),
    _parameter(
      "confusion",
      "f64",
      o.confusion,
      "probability that a bias evaluation is a coin flip, [0, 1]",
      limits.confusion,
    ),
    _state(
      "status",
      "u8",
      "bits: initialised, centre cluster blocked, every cluster blocked, phase drawn",
    ),
    _state("bias", "i32", "directional bias: -1 right, 1 left, 0 not yet evaluated"),
    _state("biasCountdown", "i32", "steps until the bias is re-evaluated"),
    _state("checkCountdown", "i32", "steps until the next ray check"),
    _state("targetCos", "f64", "cosine of the turn chosen by the last check", 1),
    _state("targetSin", "f64", "sine of the turn chosen by the last check (left positive)"),
    _state("turnCos", "f64", "cosine of the turn applied now, relaxing towards the target", 1),
    _state("turnSin", "f64", "sine of the turn applied now"),
    _state("speedFactor", "f64", "speed dampener factor, 1 = desired speed", 1),
    _state("side", "f64", "side-step speed as a share of the desired speed, right positive"),
    _state("sideSince", "f64", "time the current side of the target turn was taken (s)"),
    _state("reach", "f64", "current ray length (m); 0 until the first step"),
    _state(
      "pinned",
      "f64",
      "seconds stood pinned; past 0.5 s the agent turns its shoulders to neighbours (see squeezeOf)",
    ),
    _state(
      "raysCast",
      "u8",
      "rays cast by the last check (lazy evaluation casts only what the scan needs)",
    ),
  ];
}

function _parameter(
  name: string,
  type: ColumnSpec["type"],
  value: number,
  doc: string,
  limits: ColumnLimits,
): ColumnSpec {
  return { name: `raycast.${name}`, type, kind: "parameter", default: value, doc, limits };
}

function _state(name: string, type: ColumnSpec["type"], doc: string, value = 0): ColumnSpec {
  return { name: `raycast.${name}`, type, kind: "state", default: value, doc };
}

/**
 * The strategy's columns of one agent store, fetched once per step by
 * {@linkcode RaycastColumns.bind} so that the per-agent loop indexes typed arrays directly.
 * Field names are the column names without the `raycast.` prefix (`margin` is
 * `raycast.clusterMargin`, `originAhead` `raycast.originAhead`).
 *
 * @example
 * ```ts
 * import { RaycastColumns } from "./_raycast_columns.ts";
 * import { createRaycastClusterStrategy } from "./raycast_cluster.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createRaycastClusterStrategy({ rayLengthM: 5 }) });
 * world.addAgent({ x: 0, y: 0 });
 * const columns = new RaycastColumns();
 * columns.bind(world.agents);
 * assert.equal(columns.length[0], 5);
 * ```
 */
export class RaycastColumns {
  /** Requested rays (`raycast.rayCount`). */
  rayCount: Uint8Array = new Uint8Array(0);
  /** Ray arc (deg). */
  arcDeg: Float64Array = new Float64Array(0);
  /** Ray length (m). */
  length: Float64Array = new Float64Array(0);
  /** Cluster margin (rays, `raycast.clusterMargin`). */
  margin: Uint8Array = new Uint8Array(0);
  /** Ray origin ahead of the centre (m). */
  originAhead: Float64Array = new Float64Array(0);
  /** 1 rude, 0 not, {@linkcode RUDE_UNDECIDED} not drawn yet. */
  rude: Uint8Array = new Uint8Array(0);
  /** Probability that a bias evaluation is a coin flip. */
  confusion: Float64Array = new Float64Array(0);
  /** Status bits ({@linkcode INITIALISED}, {@linkcode CENTRE_BLOCKED}, …). */
  status: Uint8Array = new Uint8Array(0);
  /** Directional bias: -1 right, 1 left, 0 not evaluated yet. */
  bias: Int32Array = new Int32Array(0);
  /** Steps until the bias is re-evaluated. */
  biasCountdown: Int32Array = new Int32Array(0);
  /** Steps until the next ray check. */
  checkCountdown: Int32Array = new Int32Array(0);
  /** Cosine of the turn chosen by the last check. */
  targetCos: Float64Array = new Float64Array(0);
  /** Sine of the turn chosen by the last check (left positive). */
  targetSin: Float64Array = new Float64Array(0);
  /** Cosine of the turn applied now. */
  turnCos: Float64Array = new Float64Array(0);
  /** Sine of the turn applied now (left positive). */
  turnSin: Float64Array = new Float64Array(0);
  /** Speed dampener factor, 1 = desired speed. */
  speedFactor: Float64Array = new Float64Array(0);
  /** Time stood pinned (s). */
  pinned: Float64Array = new Float64Array(0);
  /** Side-step speed as a share of the desired speed, right positive. */
  side: Float64Array = new Float64Array(0);
  /** Time the current side of the target turn was taken (s). */
  sideSince: Float64Array = new Float64Array(0);
  /** Current ray length (m). */
  reach: Float64Array = new Float64Array(0);
  /** Rays cast by the last check. */
  raysCast: Uint8Array = new Uint8Array(0);

  /** Fetches the columns of `agents` (call once per step: a store that grows replaces them). */
  bind(agents: AgentStore): void {
    this.rayCount = agents.column<Uint8Array>("raycast.rayCount");
    this.arcDeg = agents.column("raycast.arcDeg");
    this.length = agents.column("raycast.length");
    this.margin = agents.column<Uint8Array>("raycast.clusterMargin");
    this.originAhead = agents.column("raycast.originAhead");
    this.rude = agents.column<Uint8Array>("raycast.rude");
    this.confusion = agents.column("raycast.confusion");
    this.status = agents.column<Uint8Array>("raycast.status");
    this.bias = agents.column<Int32Array>("raycast.bias");
    this.biasCountdown = agents.column<Int32Array>("raycast.biasCountdown");
    this.checkCountdown = agents.column<Int32Array>("raycast.checkCountdown");
    this.targetCos = agents.column("raycast.targetCos");
    this.targetSin = agents.column("raycast.targetSin");
    this.turnCos = agents.column("raycast.turnCos");
    this.turnSin = agents.column("raycast.turnSin");
    this.speedFactor = agents.column("raycast.speedFactor");
    this.pinned = agents.column("raycast.pinned");
    this.side = agents.column("raycast.side");
    this.sideSince = agents.column("raycast.sideSince");
    this.reach = agents.column("raycast.reach");
    this.raysCast = agents.column<Uint8Array>("raycast.raysCast");
  }

  /**
   * Throws a RangeError naming the column, the agent (by serial) and the value when a parameter
   * column of agent `i` of `agents` is out of range.
   */
  checkParameters(agents: AgentStore, i: number): void {
    const arc = this.arcDeg[i], length = this.length[i], ahead = this.originAhead[i];
    const confusion = this.confusion[i], rude = this.rude[i];
    let column = "", value = 0, rule = "";
    if (!(arc > 0 && arc <= 180)) [column, value, rule] = ["arcDeg", arc, "in (0, 180]"];
    else if (!(length > 0 && length <= 50)) {
      [column, value, rule] = ["length", length, "in (0, 50]"];
    } else if (!(ahead >= 0 && ahead <= 1)) {
      [column, value, rule] = ["originAhead", ahead, "in [0, 1]"];
    } else if (!(confusion >= 0 && confusion <= 1)) {
      [column, value, rule] = ["confusion", confusion, "in [0, 1]"];
    } else if (rude > RUDE_UNDECIDED) [column, value, rule] = ["rude", rude, "0, 1 or 2"];
    else return;
    throw new RangeError(
      `Cannot step raycast-cluster strategy as column 'raycast.${column}' of agent ${
        agents.serial[i]
      } must be ${rule}: current value is ${value}`,
    );
  }
}

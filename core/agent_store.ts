/**
 * Agent state as a struct of arrays.
 *
 * Every per-agent quantity is one typed-array column backed by a `SharedArrayBuffer`, indexed by
 * the agent's dense index `0 … count-1`. Removal is a swap-remove (the last agent moves into the
 * hole), so indices are not stable: code that must remember an agent keeps its
 * {@linkcode AgentHandle} (slot id plus generation) and resolves it with
 * {@linkcode AgentStore.indexOf}.
 *
 * Plugins (strategies, navigators, metrics) register their own columns with
 * {@linkcode AgentStore.registerColumn}; those columns grow, move and reset with the built-in
 * ones.
 *
 * @module
 */

/** Element type of a column. */
export type ColumnType = "f64" | "f32" | "i32" | "u32" | "u8";

/** A typed array that can back a column. */
export type ColumnArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;

/**
 * Declaration of a per-agent column.
 *
 * `kind: "parameter"` columns hold per-agent settings (radius, desired speed, bias) and keep their
 * value when an agent starts a new trip; `kind: "state"` columns hold working state that is reset
 * to `default` whenever an agent is spawned.
 */
export interface ColumnSpec {
  /** Unique name; plugins prefix theirs, e.g. `"boxcast.sightRange"`. */
  readonly name: string;
  /** Element type. */
  readonly type: ColumnType;
  /** Value a new agent gets. @default 0 */
  readonly default?: number;
  /** Parameter (kept) or state (reset on spawn). @default "state" */
  readonly kind?: "parameter" | "state";
  /** One line saying what the column holds, with its unit. */
  readonly doc?: string;
  /**
   * Values a parameter column accepts from scenarios, usually the limits of the strategy option
   * whose per-agent value it holds; the element type's own range always applies (0…255 whole
   * numbers for `u8`). @default the element type's range
   */
  readonly limits?: ColumnLimits;
}

/** The range of values a column accepts; a strategy option's descriptor fits here as it is. */
export interface ColumnLimits {
  /** Smallest value (inclusive unless `exclusiveMin`). */
  readonly min?: number;
  /** Largest value (inclusive unless `exclusiveMax`). */
  readonly max?: number;
  /** Make `min` exclusive. */
  readonly exclusiveMin?: boolean;
  /** Make `max` exclusive. */
  readonly exclusiveMax?: boolean;
  /** Whole numbers only. */
  readonly integer?: boolean;
}

/** Range of each element type: what a value must lie in to be stored unchanged. */
const TYPE_LIMITS: Record<ColumnType, ColumnLimits> = {
  f64: { min: -Number.MAX_VALUE, max: Number.MAX_VALUE },
  f32: { min: -3.4028234663852886e38, max: 3.4028234663852886e38 },
  i32: { min: -(2 ** 31), max: 2 ** 31 - 1, integer: true },
  u32: { min: 0, max: 2 ** 32 - 1, integer: true },
  u8: { min: 0, max: 255, integer: true },
};

/**
 * The limits of a column: its declared `limits` within its element type's range.
 *
 * @example A u8 column declared for 3…21 rays
 * ```ts
 * import { columnLimits } from "./agent_store.ts";
 * import assert from "node:assert/strict";
 * const limits = columnLimits({ name: "rays", type: "u8", limits: { min: 3, max: 21 } });
 * assert.deepEqual([limits.min, limits.max, limits.integer], [3, 21, true]);
 * assert.equal(columnLimits({ name: "bias", type: "i32" }).max, 2 ** 31 - 1);
 * ```
 */
export function columnLimits(spec: ColumnSpec): ColumnLimits {
  const type = TYPE_LIMITS[spec.type], own = spec.limits ?? {};
  const min = Math.max(own.min ?? -Infinity, type.min!);
  const max = Math.min(own.max ?? Infinity, type.max!);
  return {
    min,
    max,
    exclusiveMin: own.min === min && own.exclusiveMin === true,
    exclusiveMax: own.max === max && own.exclusiveMax === true,
    integer: type.integer === true || own.integer === true,
  };
}

/**
 * Stable reference to an agent: its slot id plus a generation that changes when the slot is
 * reused, so a handle to a removed agent never resolves to a newer one.
 */
export type AgentHandle = number & { readonly __agentHandle: unique symbol };

/** Bits of the agent `flags` column. */
export const AgentFlags = {
  /** The agent reached its goal (and stays, or is about to leave). */
  arrived: 1,
  /** The agent is held in place by the scenario (it still blocks others). */
  frozen: 2,
} as const;

/** Initial values for a new agent. Positions in metres, speeds in m/s. */
export interface AgentInit {
  /** Position x (m). */
  x: number;
  /** Position y (m). */
  y: number;
  /** Height of the walking surface (m). @default 0 */
  z?: number;
  /** Initial velocity x (m/s). @default 0 */
  vx?: number;
  /** Initial velocity y (m/s). @default 0 */
  vy?: number;
  /** Body radius (m). @default 0.25 */
  radius?: number;
  /** Speed the agent walks at when unobstructed (m/s). @default 1.34 */
  desiredSpeed?: number;
  /** Hard speed cap (m/s). @default 1.3 × desiredSpeed */
  maxSpeed?: number;
  /** Acceleration cap (m/s²); `Infinity` for none. @default Infinity */
  maxAcceleration?: number;
  /** Goal x (m). @default x */
  goalX?: number;
  /** Goal y (m). @default y */
  goalY?: number;
  /** Goal z (m). @default z */
  goalZ?: number;
  /** Group number (spawner index in scenarios; -1 for none). @default -1 */
  group?: number;
}

/** The built-in columns, in declaration order. */
export const CORE_COLUMNS: readonly ColumnSpec[] = [
  { name: "px", type: "f64", doc: "position x (m)" },
  { name: "py", type: "f64", doc: "position y (m)" },
  { name: "pz", type: "f64", doc: "height of the walking surface (m)" },
  { name: "vx", type: "f64", doc: "velocity x (m/s)" },
  { name: "vy", type: "f64", doc: "velocity y (m/s)" },
  { name: "prefVx", type: "f64", doc: "preferred velocity x written by navigation (m/s)" },
  { name: "prefVy", type: "f64", doc: "preferred velocity y written by navigation (m/s)" },
  { name: "newVx", type: "f64", doc: "new velocity x written by the strategy (m/s)" },
  { name: "newVy", type: "f64", doc: "new velocity y written by the strategy (m/s)" },
  { name: "radius", type: "f64", default: 0.25, kind: "parameter", doc: "body radius (m)" },
  { name: "desiredSpeed", type: "f64", default: 1.34, kind: "parameter", doc: "m/s" },
  { name: "maxSpeed", type: "f64", default: 1.3 * 1.34, kind: "parameter", doc: "m/s" },
  { name: "maxAcceleration", type: "f64", default: Infinity, kind: "parameter", doc: "m/s²" },
  { name: "goalX", type: "f64", doc: "goal x (m)" },
  { name: "goalY", type: "f64", doc: "goal y (m)" },
  { name: "goalZ", type: "f64", doc: "goal z (m)" },
  { name: "startX", type: "f64", doc: "x where the current trip started (m)" },
  { name: "startY", type: "f64", doc: "y where the current trip started (m)" },
  { name: "spawnTime", type: "f64", doc: "simulation time the current trip started (s)" },
  { name: "flags", type: "u8", doc: "AgentFlags bits" },
  { name: "group", type: "i32", default: -1, kind: "parameter", doc: "group or spawner index" },
  { name: "serial", type: "u32", doc: "trajectory id, unique per trip, never reused" },
  { name: "slot", type: "u32", doc: "handle slot id (internal)" },
];

interface Column {
  spec: Required<Omit<ColumnSpec, "doc" | "limits">> & { doc: string; limits?: ColumnLimits };
  array: ColumnArray;
}

const BYTES: Record<ColumnType, number> = { f64: 8, f32: 4, i32: 4, u32: 4, u8: 1 };

function allocate(type: ColumnType, capacity: number): ColumnArray {
  const buffer = new SharedArrayBuffer(Math.max(1, capacity) * BYTES[type]);
  switch (type) {
    case "f64":
      return new Float64Array(buffer);
    case "f32":
      return new Float32Array(buffer);
    case "i32":
      return new Int32Array(buffer);
    case "u32":
      return new Uint32Array(buffer);
    case "u8":
      return new Uint8Array(buffer);
  }
}

// handle = generation * 2^32 + slot. Generations wrap at 2^21 so that every handle is an exact
// integer (< 2^53); a stale handle could only alias after 2 097 152 reuses of its slot.
const HANDLE_GEN = 0x1_0000_0000;
const GENERATION_MASK = 0x1f_ffff;

/** Init fields that must be finite numbers (`maxAcceleration` may be Infinity). */
const FINITE_FIELDS = [
  "x",
  "y",
  "z",
  "vx",
  "vy",
  "radius",
  "desiredSpeed",
  "maxSpeed",
  "goalX",
  "goalY",
  "goalZ",
  "group",
] as const;

/** Per-agent parameters a restarted agent keeps unless its new init gives them. */
type KeptParameters = Pick<
  Required<AgentInit>,
  "radius" | "desiredSpeed" | "maxSpeed" | "maxAcceleration" | "group"
>;

const DEFAULT_PARAMETERS: KeptParameters = {
  radius: 0.25,
  desiredSpeed: 1.34,
  maxSpeed: 1.3 * 1.34,
  maxAcceleration: Infinity,
  group: -1,
};

/**
 * Fills defaults and checks every value; throws a RangeError naming the first bad field.
 * Missing parameters come from `kept` (the defaults for a new agent, the current values for a
 * restart); a new `desiredSpeed` without a `maxSpeed` gets the default 1.3 × desiredSpeed.
 */
function normalizeInit(
  init: AgentInit,
  kept: KeptParameters = DEFAULT_PARAMETERS,
): Required<AgentInit> {
  if (init === null || typeof init !== "object") {
    throw new TypeError(`Cannot add agent as its init must be an object: current value is ${init}`);
  }
  const z = init.z ?? 0;
  const desiredSpeed = init.desiredSpeed ?? kept.desiredSpeed;
  const v: Required<AgentInit> = {
    x: init.x,
    y: init.y,
    z,
    vx: init.vx ?? 0,
    vy: init.vy ?? 0,
    radius: init.radius ?? kept.radius,
    desiredSpeed,
    maxSpeed: init.maxSpeed ??
      (init.desiredSpeed === undefined ? kept.maxSpeed : 1.3 * desiredSpeed),
    maxAcceleration: init.maxAcceleration ?? kept.maxAcceleration,
    goalX: init.goalX ?? init.x,
    goalY: init.goalY ?? init.y,
    goalZ: init.goalZ ?? z,
    group: init.group ?? kept.group,
  };
  for (const field of FINITE_FIELDS) {
    if (!Number.isFinite(v[field])) {
      throw new RangeError(
        `Cannot add agent as '${field}' must be finite: current value is ${v[field]}`,
      );
    }
  }
  const fail = (field: keyof AgentInit, rule: string): never => {
    throw new RangeError(
      `Cannot add agent as '${field}' must be ${rule}: current value is ${v[field]}`,
    );
  };
  if (!(v.radius > 0)) fail("radius", "> 0");
  if (!(v.desiredSpeed >= 0)) fail("desiredSpeed", ">= 0");
  if (!(v.maxSpeed >= 0)) fail("maxSpeed", ">= 0");
  if (typeof v.maxAcceleration !== "number" || !(v.maxAcceleration > 0)) {
    fail("maxAcceleration", "a number > 0 (Infinity for none)");
  }
  if (!Number.isInteger(v.group)) fail("group", "an integer");
  return v;
}

/**
 * Struct-of-arrays storage for agents.
 *
 * Built-in columns are plain fields (`store.px`, `store.newVx`, …) so hot loops can hoist them;
 * they are replaced when the store grows, so read them again after adding agents.
 *
 * @example Add, address by handle, swap-remove
 * ```ts
 * import { AgentStore } from "./agent_store.ts";
 * import assert from "node:assert/strict";
 * const store = new AgentStore();
 * const a = store.add({ x: 0, y: 0 });
 * const b = store.add({ x: 5, y: 1 });
 * store.remove(a);
 * assert.deepEqual(store.count, 1);
 * assert.deepEqual(store.px[store.indexOf(b)], 5);
 * assert.deepEqual(store.indexOf(a), -1);
 * ```
 */
export class AgentStore {
  /** Number of live agents; valid indices are `0 … count-1`. */
  count = 0;
  /** Allocated rows. */
  capacity: number;

  /** Position x (m). */
  px!: Float64Array;
  /** Position y (m). */
  py!: Float64Array;
  /** Height of the walking surface (m). */
  pz!: Float64Array;
  /** Velocity x (m/s). */
  vx!: Float64Array;
  /** Velocity y (m/s). */
  vy!: Float64Array;
  /** Preferred velocity x, written by navigation (m/s). */
  prefVx!: Float64Array;
  /** Preferred velocity y, written by navigation (m/s). */
  prefVy!: Float64Array;
  /** New velocity x, written by the strategy (m/s). */
  newVx!: Float64Array;
  /** New velocity y, written by the strategy (m/s). */
  newVy!: Float64Array;
  /** Body radius (m). */
  radius!: Float64Array;
  /** Unobstructed walking speed (m/s). */
  desiredSpeed!: Float64Array;
  /** Speed cap applied by integration (m/s). */
  maxSpeed!: Float64Array;
  /** Acceleration cap applied by integration (m/s²). */
  maxAcceleration!: Float64Array;
  /** Goal x (m). */
  goalX!: Float64Array;
  /** Goal y (m). */
  goalY!: Float64Array;
  /** Goal z (m). */
  goalZ!: Float64Array;
  /** Trip start x (m). */
  startX!: Float64Array;
  /** Trip start y (m). */
  startY!: Float64Array;
  /** Trip start time (s). */
  spawnTime!: Float64Array;
  /** {@linkcode AgentFlags} bits. */
  flags!: Uint8Array;
  /** Group or spawner index (-1 for none). */
  group!: Int32Array;
  /** Trajectory id: unique per trip, never reused. */
  serial!: Uint32Array;
  /** Handle slot id of the agent at each index. */
  slot!: Uint32Array;

  #columns: Column[] = [];
  #byName = new Map<string, Column>();
  #slotIndex = new Int32Array(0); // slot -> index, -1 when free
  #slotGeneration = new Uint32Array(0);
  #freeSlots: number[] = [];
  #slotCount = 0;
  #nextSerial = 0;
  /** Incremented whenever agents are added, removed or reordered. */
  version = 0;

  /** @param capacity initial number of rows; the store grows as needed. @default 1024 */
  constructor(capacity = 1024) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(
        `Cannot create AgentStore as 'capacity' must be an integer >= 1: current value is ${capacity}`,
      );
    }
    this.capacity = capacity;
    for (const spec of CORE_COLUMNS) this.#addColumn(spec);
    this.#growSlots(capacity);
    this.#bindCoreColumns();
  }

  /** All column declarations, built-in first. */
  get columnSpecs(): readonly ColumnSpec[] {
    return this.#columns.map((c) => c.spec);
  }

  /**
   * Declares a plugin column. Registering the same name again with the same type is allowed and
   * returns the existing column; a different type throws.
   */
  registerColumn(spec: ColumnSpec): ColumnArray {
    const existing = this.#byName.get(spec.name);
    if (existing) {
      if (existing.spec.type !== spec.type) {
        throw new TypeError(
          `Cannot register column '${spec.name}' as type '${spec.type}': it exists as '${existing.spec.type}'`,
        );
      }
      return existing.array;
    }
    const column = this.#addColumn(spec);
    column.array.fill(column.spec.default, 0, this.count);
    return column.array;
  }

  /** The declaration of the column called `name`, or undefined when there is none. */
  columnSpec(name: string): ColumnSpec | undefined {
    return this.#byName.get(name)?.spec;
  }

  /** True when a column of that name exists. */
  hasColumn(name: string): boolean {
    return this.#byName.has(name);
  }

  /**
   * The typed array of a column. Fetch it once per step, not per agent: the array is replaced
   * when the store grows.
   */
  column<T extends ColumnArray = Float64Array>(name: string): T {
    const c = this.#byName.get(name);
    if (!c) {
      throw new RangeError(
        `Unknown agent column '${name}': known columns are ${[...this.#byName.keys()].join(", ")}`,
      );
    }
    return c.array as T;
  }

  /** Adds an agent and returns its handle. Values are validated (finite, radius > 0). */
  add(init: AgentInit): AgentHandle {
    const values = normalizeInit(init);
    const index = this.#appendRow();
    this.#write(index, values);
    return this.handleAt(index);
  }

  /**
   * Resets the agent at `index` for a new trip: state columns return to their defaults, the
   * serial changes, the trip start moves to the given values. Parameter columns (radius, speeds,
   * group, plugin parameters) keep their values unless `init` gives new ones. The handle stays.
   * `spawnTime` is a state column and returns to 0: the caller sets the trip's start time.
   */
  restart(index: number, init: AgentInit): void {
    this.#checkIndex(index);
    const values = normalizeInit(init, {
      radius: this.radius[index],
      desiredSpeed: this.desiredSpeed[index],
      maxSpeed: this.maxSpeed[index],
      maxAcceleration: this.maxAcceleration[index],
      group: this.group[index],
    });
    for (const c of this.#columns) {
      if (c.spec.kind === "state") c.array[index] = c.spec.default;
    }
    this.#write(index, values);
  }

  /** Removes the agent with this handle. Returns false when the handle is stale. */
  remove(handle: AgentHandle): boolean {
    const index = this.indexOf(handle);
    if (index < 0) return false;
    this.removeAt(index);
    return true;
  }

  /** Removes the agent at `index` by moving the last agent into its row (O(columns)). */
  removeAt(index: number): void {
    this.#checkIndex(index);
    const last = this.count - 1;
    const slot = this.slot[index];
    if (index !== last) {
      for (const c of this.#columns) c.array[index] = c.array[last];
      this.#slotIndex[this.slot[index]] = index;
    }
    this.#slotIndex[slot] = -1;
    this.#slotGeneration[slot] = (this.#slotGeneration[slot] + 1) & GENERATION_MASK;
    this.#freeSlots.push(slot);
    this.count = last;
    this.version++;
  }

  /** Index of the agent with this handle, or -1 when it was removed. */
  indexOf(handle: AgentHandle): number {
    const slot = handle % HANDLE_GEN;
    const generation = Math.floor(handle / HANDLE_GEN);
    if (slot >= this.#slotCount || this.#slotGeneration[slot] !== generation) return -1;
    return this.#slotIndex[slot];
  }

  /** Handle of the agent at `index`. */
  handleAt(index: number): AgentHandle {
    this.#checkIndex(index);
    const slot = this.slot[index];
    return (this.#slotGeneration[slot] * HANDLE_GEN + slot) as AgentHandle;
  }

  /** Removes every agent (capacity and columns stay). */
  clear(): void {
    while (this.count > 0) this.removeAt(this.count - 1);
  }

  /** Grows every column to at least `capacity` rows. */
  reserve(capacity: number): void {
    if (capacity <= this.capacity) return;
    let next = this.capacity;
    while (next < capacity) next *= 2;
    for (const c of this.#columns) {
      const array = allocate(c.spec.type, next);
      array.set(c.array.subarray(0, this.count) as never);
      c.array = array;
    }
    this.capacity = next;
    this.#growSlots(next);
    this.#bindCoreColumns();
  }

  #appendRow(): number {
    if (this.count === this.capacity) this.reserve(this.capacity * 2);
    const index = this.count++;
    for (const c of this.#columns) c.array[index] = c.spec.default;
    const slot = this.#freeSlots.length > 0 ? this.#freeSlots.pop()! : this.#slotCount++;
    this.slot[index] = slot;
    this.#slotIndex[slot] = index;
    this.version++;
    return index;
  }

  #write(index: number, v: Required<AgentInit>): void {
    this.px[index] = v.x;
    this.py[index] = v.y;
    this.pz[index] = v.z;
    this.vx[index] = v.vx;
    this.vy[index] = v.vy;
    this.newVx[index] = v.vx;
    this.newVy[index] = v.vy;
    this.prefVx[index] = 0;
    this.prefVy[index] = 0;
    this.radius[index] = v.radius;
    this.desiredSpeed[index] = v.desiredSpeed;
    this.maxSpeed[index] = v.maxSpeed;
    this.maxAcceleration[index] = v.maxAcceleration;
    this.goalX[index] = v.goalX;
    this.goalY[index] = v.goalY;
    this.goalZ[index] = v.goalZ;
    this.startX[index] = v.x;
    this.startY[index] = v.y;
    this.flags[index] = 0;
    this.group[index] = v.group;
    this.serial[index] = this.#nextSerial++;
    this.version++;
  }

  #checkIndex(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) {
      throw new RangeError(
        `Agent index must be an integer in [0, ${this.count - 1}]: current value is ${index}`,
      );
    }
  }

  #addColumn(spec: ColumnSpec): Column {
    if (typeof spec.name !== "string" || spec.name === "") {
      throw new TypeError("Cannot register a column without a name");
    }
    if (!Object.hasOwn(BYTES, spec.type)) {
      throw new TypeError(
        `Cannot register column '${spec.name}' as 'type' must be one of ${
          Object.keys(BYTES).join(", ")
        }: current value is ${JSON.stringify(spec.type)}`,
      );
    }
    if (spec.kind !== undefined && spec.kind !== "state" && spec.kind !== "parameter") {
      throw new TypeError(
        `Cannot register column '${spec.name}' as 'kind' must be "state" or "parameter": current value is ${
          JSON.stringify(spec.kind)
        }`,
      );
    }
    if (
      spec.default !== undefined && (typeof spec.default !== "number" || Number.isNaN(spec.default))
    ) {
      throw new TypeError(
        `Cannot register column '${spec.name}' as 'default' must be a number: current value is ${spec.default}`,
      );
    }
    const column: Column = {
      spec: {
        name: spec.name,
        type: spec.type,
        default: spec.default ?? 0,
        kind: spec.kind ?? "state",
        doc: spec.doc ?? "",
        ...(spec.limits ? { limits: { ...spec.limits } } : {}),
      },
      array: allocate(spec.type, this.capacity),
    };
    this.#columns.push(column);
    this.#byName.set(spec.name, column);
    return column;
  }

  #growSlots(capacity: number): void {
    if (this.#slotIndex.length >= capacity) return;
    const index = new Int32Array(capacity).fill(-1);
    index.set(this.#slotIndex);
    const generation = new Uint32Array(capacity);
    generation.set(this.#slotGeneration);
    this.#slotIndex = index;
    this.#slotGeneration = generation;
  }

  #bindCoreColumns(): void {
    const get = <T extends ColumnArray>(name: string) => this.#byName.get(name)!.array as T;
    this.px = get("px");
    this.py = get("py");
    this.pz = get("pz");
    this.vx = get("vx");
    this.vy = get("vy");
    this.prefVx = get("prefVx");
    this.prefVy = get("prefVy");
    this.newVx = get("newVx");
    this.newVy = get("newVy");
    this.radius = get("radius");
    this.desiredSpeed = get("desiredSpeed");
    this.maxSpeed = get("maxSpeed");
    this.maxAcceleration = get("maxAcceleration");
    this.goalX = get("goalX");
    this.goalY = get("goalY");
    this.goalZ = get("goalZ");
    this.startX = get("startX");
    this.startY = get("startY");
    this.spawnTime = get("spawnTime");
    this.flags = get("flags");
    this.group = get("group");
    this.serial = get("serial");
    this.slot = get("slot");
  }
}

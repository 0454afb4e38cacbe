/**
 * Records a running world to a trajectory file, as a {@linkcode WorldObserver}.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import type { World, WorldObserver } from "../core/world.ts";
import { BinaryTrajectoryWriter } from "./binary_trajectory.ts";
import { CsvTrajectoryWriter } from "./csv_trajectory.ts";
import { GeoJsonTrajectoryWriter } from "./geojson_trajectory.ts";
import { TextTrajectoryWriter } from "./text_trajectory.ts";
import type {
  AgentColumns,
  GeoAnchor,
  TrajectoryBounds,
  TrajectoryHeader,
  TrajectoryWriter,
} from "./trajectory.ts";

/**
 * A trajectory file format: `text` is PedPy's white-space separated layout with a `#` header,
 * `csv` comma-separated values with a header row (with `lon`, `lat` columns when the run has an
 * anchor), `binary` the compact columnar form, `geojson` one LineString per agent in
 * longitude/latitude (runs with an anchor).
 */
export type TrajectoryFormat = "text" | "csv" | "binary" | "geojson";

/** Options of {@linkcode TrajectoryRecorder}. */
export interface TrajectoryRecorderOptions {
  /** File to create (or truncate). */
  path: string;
  /**
   * File format. @default from the extension of `path`: `.bin` binary, `.txt` text (PedPy's
   * layout), `.csv` comma-separated values, `.geojson` GeoJSON LineStrings; any other
   * extension throws
   */
  format?: TrajectoryFormat;
  /** Record one frame every `every` steps (integer >= 1); the frame rate is `1 / (dt · every)`. @default 1 */
  every?: number;
  /** Scenario name. @default null */
  scenario?: string | null;
  /** Strategy name. @default the world's strategy name */
  strategy?: string | null;
  /** Seed of the run. @default the world's seed */
  seed?: number | null;
  /** One line of free text. @default null (text files then describe scenario, strategy and seed) */
  description?: string | null;
  /** Geographic position of the local origin (WGS84 degrees). @default null */
  anchor?: GeoAnchor | null;
  /** Extent of the scene (m). @default the box around the world's geometry and initial agents */
  bounds?: TrajectoryBounds | null;
  /** Free data stored in the header; must be JSON-serialisable. @default {} */
  meta?: Record<string, unknown>;
  /** Encoded frames kept before a write (bytes); larger means fewer system calls. @default 1048576 */
  bufferBytes?: number;
}

/**
 * Streams a world's trajectories to a file: frame 0 when attached (after `world.prepare()`, so
 * the agents due at time 0 are in it), then one frame after every `every`-th step. Frame `k` is
 * the state `k · every` steps after attaching, at the world's time.
 *
 * A frame holds the agents present at the end of the step, followed by those that left the world
 * during that step (arrived and removed, or respawned under a new id) at their last position, so
 * every trajectory ends where its agent arrived. Agents removed by hand between steps are not in
 * the next frame.
 *
 * Writes are synchronous. Frames are buffered (`bufferBytes`) and written whole, so a killed
 * process leaves at most one partial frame, which the readers ignore; call
 * {@linkcode TrajectoryRecorder.close} (or `using`) at the end. After `close`, steps are no longer
 * recorded.
 *
 * @example Record a short walk in binary and read it back
 * ```ts
 * import { TrajectoryRecorder } from "./recorder.ts";
 * import { readTrajectory } from "./read_trajectory.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import { createGoalSeeker } from "../navigation/goal_seeker.ts";
 * import assert from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
 * world.addAgent({ x: 0, y: 0, goalX: 10, goalY: 0, desiredSpeed: 1 });
 * const recorder = new TrajectoryRecorder({ path: `${dir}/walk.bin`, every: 2, scenario: "walk" });
 * world.addObserver(recorder);
 * for (let i = 0; i < 10; i++) world.step();
 * recorder.close();
 * const data = readTrajectory(`${dir}/walk.bin`);
 * assert.equal(data.frameRate, 10); // one frame every 2 steps of 0.05 s
 * assert.deepEqual(data.frames.map((f) => f.frame), [0, 1, 2, 3, 4, 5]);
 * assert.ok(Math.abs(data.frames[5].x[0] - 0.5) < 1e-6); // 10 steps at 1 m/s
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class TrajectoryRecorder implements WorldObserver, Disposable {
  /** The file. */
  readonly path: string;
  /** The file format. */
  readonly format: TrajectoryFormat;
  /** One frame every `every` steps. */
  readonly every: number;
  /** Frames written (or buffered) so far. */
  framesWritten = 0;
  /** Agents in the last frame written: those present, then those that left during its step. */
  lastFrameCount = 0;
  #options: TrajectoryRecorderOptions;
  #writer: TrajectoryWriter;
  #world: World | null = null;
  #startStep = 0;
  #closed = false;
  #departed = new _DepartedAgents();

  /**
   * Checks the options and creates the file. Throws a RangeError naming a bad option, and a
   * one-line error naming the path when the file cannot be created.
   */
  constructor(options: TrajectoryRecorderOptions) {
    const path = options.path;
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(
        `Cannot create TrajectoryRecorder as 'path' must be a non-empty string: current value is ${
          JSON.stringify(path)
        }`,
      );
    }
    const where = `Cannot create TrajectoryRecorder for '${path}'`;
    this.format = options.format ?? _formatFromExtension(path);
    if (
      this.format !== "text" && this.format !== "csv" && this.format !== "binary" &&
      this.format !== "geojson"
    ) {
      throw new RangeError(
        `${where} as 'format' must be "text", "csv", "binary" or "geojson": current value is ${
          JSON.stringify(this.format)
        }`,
      );
    }
    this.every = options.every ?? 1;
    if (!Number.isInteger(this.every) || this.every < 1) {
      throw new RangeError(
        `${where} as 'every' must be an integer >= 1: current value is ${this.every}`,
      );
    }
    _checkAnchor(where, options.anchor);
    if (this.format === "geojson" && !options.anchor) {
      throw new RangeError(
        `${where} as GeoJSON trajectories are in longitude/latitude: the scenario needs a "map" or an "anchor" (or write .csv, .txt or .bin)`,
      );
    }
    if (options.seed != null && (!Number.isInteger(options.seed) || options.seed < 0)) {
      throw new RangeError(
        `${where} as 'seed' must be an integer >= 0: current value is ${options.seed}`,
      );
    }
    try {
      JSON.stringify(options.meta ?? {});
    } catch (error) {
      throw new TypeError(
        `${where} as 'meta' is not JSON-serialisable: ${(error as Error).message}`,
      );
    }
    this.path = path;
    this.#options = options;
    const writerOptions = { bufferBytes: options.bufferBytes };
    this.#writer = this.format === "binary"
      ? new BinaryTrajectoryWriter(path, writerOptions)
      : this.format === "csv"
      ? new CsvTrajectoryWriter(path, writerOptions)
      : this.format === "geojson"
      ? new GeoJsonTrajectoryWriter(path)
      : new TextTrajectoryWriter(path, writerOptions);
  }

  /** Writes the header and frame 0 (after `world.prepare()`). A recorder observes one world. */
  attach(world: World): void {
    if (this.#closed) throw new Error(`TrajectoryRecorder for '${this.path}' is closed`);
    if (this.#world !== null) {
      throw new Error(`TrajectoryRecorder for '${this.path}' is already attached to a world`);
    }
    this.#world = world;
    world.prepare();
    this.#startStep = world.stepIndex;
    this.#writer.writeHeader(this.#header(world));
    this.#writeFrame(world, 0);
  }

  /** Keeps the last state of an agent that leaves during a recorded step. */
  onRemove(world: World, index: number): void {
    if (this.#closed || world !== this.#world || world.phase === null) return;
    if ((world.stepIndex - this.#startStep) % this.every !== 0) return;
    this.#departed.push(world.agents, index);
  }

  /** Writes a frame after every `every`-th step. */
  afterStep(world: World): void {
    if (this.#closed || world !== this.#world) return;
    const steps = world.stepIndex - this.#startStep;
    if (steps % this.every !== 0) return;
    this.#writeFrame(world, steps / this.every);
  }

  /** Writes the buffered frames to the file now. */
  flush(): void {
    if (!this.#closed) this.#writer.flush();
  }

  /** Writes the buffered frames and closes the file; later calls do nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#writer.close();
  }

  /** Same as {@linkcode TrajectoryRecorder.close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }

  #writeFrame(world: World, frame: number): void {
    const agents = world.agents, departed = this.#departed, writer = this.#writer;
    writer.beginFrame(frame, world.time, agents.count + departed.count);
    writer.writeAgents(agents, 0, agents.count);
    writer.writeAgents(departed, 0, departed.count);
    writer.endFrame();
    this.lastFrameCount = agents.count + departed.count;
    departed.count = 0;
    this.framesWritten++;
  }

  #header(world: World): TrajectoryHeader {
    const o = this.#options;
    const polygons = world.obstacles.polygons.map((p) => p.map(([x, y]): Point => [x, y]));
    const walls = world.obstacles.walls.map((w) => {
      const points = w.points.map(([x, y]): Point => [x, y]);
      if (w.closed) points.push([points[0][0], points[0][1]]);
      return points;
    });
    return {
      frameRate: 1 / (world.dt * this.every),
      dt: world.dt,
      every: this.every,
      startTime: world.time,
      scenario: o.scenario ?? null,
      strategy: o.strategy === undefined ? world.strategy.name : o.strategy,
      seed: o.seed === undefined ? world.seed : o.seed,
      description: o.description ?? null,
      anchor: o.anchor ? { lon: o.anchor.lon, lat: o.anchor.lat } : null,
      bounds: o.bounds === undefined ? _sceneBounds(world, polygons, walls) : o.bounds,
      polygons,
      walls,
      meta: o.meta ?? {},
    };
  }
}

/** The format a path's extension implies; throws for other extensions. */
function _formatFromExtension(path: string): TrajectoryFormat {
  const match = /\.([^./\\]+)$/.exec(path);
  const extension = match ? match[1].toLowerCase() : "";
  if (extension === "bin") return "binary";
  if (extension === "txt") return "text";
  if (extension === "csv") return "csv";
  if (extension === "geojson") return "geojson";
  throw new RangeError(
    `Cannot create TrajectoryRecorder for '${path}' as its extension ${
      extension ? `'.${extension}'` : "(none)"
    } is unknown: use .bin (binary), .txt (text), .csv (comma-separated) or .geojson (GeoJSON lines), or pass 'format'`,
  );
}

function _checkAnchor(where: string, anchor: GeoAnchor | null | undefined): void {
  if (anchor == null) return;
  if (!(Math.abs(anchor.lon) <= 180)) {
    throw new RangeError(
      `${where} as 'anchor.lon' must be in [-180, 180] degrees: current value is ${anchor.lon}`,
    );
  }
  if (!(Math.abs(anchor.lat) <= 90)) {
    throw new RangeError(
      `${where} as 'anchor.lat' must be in [-90, 90] degrees: current value is ${anchor.lat}`,
    );
  }
}

/** The box around the geometry and the current agents, or null when the world is empty. */
function _sceneBounds(
  world: World,
  polygons: Point[][],
  walls: Point[][],
): TrajectoryBounds | null {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const add = (x: number, y: number) => {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  };
  for (const shape of [...polygons, ...walls]) for (const [x, y] of shape) add(x, y);
  const a = world.agents;
  for (let i = 0; i < a.count; i++) add(a.px[i], a.py[i]);
  return minX <= maxX ? { minX, minY, maxX, maxY } : null;
}

/** Last state of the agents that left during the step being recorded (grows, never shrinks). */
class _DepartedAgents implements AgentColumns {
  count = 0;
  serial = new Uint32Array(16);
  px = new Float64Array(16);
  py = new Float64Array(16);
  pz = new Float64Array(16);
  vx = new Float64Array(16);
  vy = new Float64Array(16);
  flags = new Uint8Array(16);
  radius = new Float64Array(16);

  push(from: AgentColumns, index: number): void {
    if (this.count === this.serial.length) this.#grow();
    const k = this.count++;
    this.serial[k] = from.serial[index];
    this.px[k] = from.px[index];
    this.py[k] = from.py[index];
    this.pz[k] = from.pz[index];
    this.vx[k] = from.vx[index];
    this.vy[k] = from.vy[index];
    this.flags[k] = from.flags[index];
    this.radius[k] = from.radius ? from.radius[index] : NaN;
  }

  #grow(): void {
    const size = this.serial.length * 2;
    const grow = <T extends Uint32Array | Float64Array | Uint8Array>(
      a: T,
      b: T,
    ): T => (b.set(a as never), b);
    this.serial = grow(this.serial, new Uint32Array(size));
    this.px = grow(this.px, new Float64Array(size));
    this.py = grow(this.py, new Float64Array(size));
    this.pz = grow(this.pz, new Float64Array(size));
    this.vx = grow(this.vx, new Float64Array(size));
    this.vy = grow(this.vy, new Float64Array(size));
    this.flags = grow(this.flags, new Uint8Array(size));
    this.radius = grow(this.radius, new Float64Array(size));
  }
}

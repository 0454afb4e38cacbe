/**
 * Readers of the measured data the validation compares against: two-column tables (fundamental
 * diagram point clouds, bottleneck flow against width), Jülich laboratory trajectories and
 * ETH/UCY trajectories. Paths resolve against the data folder `../shared/data/` beside the
 * repository (see each folder's PROVENANCE.md); every reader names the file and line of bad
 * input.
 *
 * @module
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { readTrajectory } from "../recording/read_trajectory.ts";
import type { TrajectoryData } from "../recording/trajectory.ts";

/** The default data folder: `shared/data/` beside the repository root. */
export const DATA_ROOT: URL = new URL("../../shared/data/", import.meta.url);

let _root: URL = DATA_ROOT;

/**
 * The data folder the readers use now: {@linkcode DATA_ROOT} unless {@linkcode useDataRoot} set
 * another.
 */
export function dataRoot(): URL {
  return _root;
}

/**
 * Makes the readers use another data folder with the layout of `shared/data/` (for example
 * `empirical/bottleneck-flow-vs-width/` with other experiments' tables); tests whose files are
 * missing there report no measured data. `dir` is a path (relative to the working directory) or
 * a `file:` URL; a folder that does not exist throws a {@linkcode DataFileError}.
 *
 * @example
 * ```ts
 * import { DATA_ROOT, dataRoot, useDataRoot } from "./data_files.ts";
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * useDataRoot(dir);
 * assert.equal(dataRoot().href.endsWith("/"), true);
 * useDataRoot(DATA_ROOT);
 * assert.throws(() => useDataRoot(`${dir}/missing`), /missing: not a folder/);
 * ```
 */
export function useDataRoot(dir: string | URL): void {
  const path = typeof dir === "string" ? dir : fileURLToPath(dir);
  let isDirectory = false;
  try {
    isDirectory = Deno.statSync(path).isDirectory;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (!isDirectory) throw new DataFileError(path, "not a folder");
  const href = pathToFileURL(path).href; // absolute: relative paths resolve against the cwd
  _root = new URL(href.endsWith("/") ? href : `${href}/`);
}

/** The file-system path of `relative` inside the data folder ({@linkcode dataRoot}) or `root`. */
export function dataPath(relative: string, root: URL = _root): string {
  return fileURLToPath(new URL(relative, root));
}

/** A thrown error about a data file: names the file and, where known, the line. */
export class DataFileError extends Error {
  constructor(path: string, problem: string, line?: number) {
    super(`${path}${line === undefined ? "" : ` line ${line}`}: ${problem}`);
    this.name = "DataFileError";
  }
}

/** A named list of measured points `[x, y]`. */
export interface PointTable {
  /** File name without extension, e.g. `2009Seyfried` or `ug-180-030`. */
  name: string;
  /** Points, in file order. */
  points: [number, number][];
}

/**
 * Parses a whitespace-separated table of two numbers per line (more columns are ignored;
 * `#` lines and blank lines are skipped). `path` names the file in errors.
 *
 * @example
 * ```ts
 * import { parsePointTable } from "./data_files.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(parsePointTable("#rho v\n0.5\t1.3\n\n1 1.1 9\n", "t.dat"), [[0.5, 1.3], [1, 1.1]]);
 * assert.throws(() => parsePointTable("0.5 x\n", "t.dat"), /t.dat line 1: expected two numbers/);
 * ```
 */
export function parsePointTable(text: string, path: string): [number, number][] {
  const points: [number, number][] = [];
  text.split("\n").forEach((raw, k) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const fields = line.split(/\s+/);
    const a = Number(fields[0]), b = Number(fields[1]);
    if (fields.length < 2 || !Number.isFinite(a) || !Number.isFinite(b)) {
      throw new DataFileError(path, `expected two numbers, got '${line}'`, k + 1);
    }
    points.push([a, b]);
  });
  return points;
}

/**
 * Reads every table (`.txt` or `.dat`) of a folder, sorted by name; null when the folder does
 * not exist.
 *
 * @example
 * ```ts
 * import { readPointTables } from "./data_files.ts";
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/b.dat`, "1 2\n");
 * Deno.writeTextFileSync(`${dir}/a.txt`, "# x y\n3 4\n");
 * assert.deepEqual(readPointTables(dir), [{ name: "a", points: [[3, 4]] }, { name: "b", points: [[1, 2]] }]);
 * assert.equal(readPointTables(`${dir}/missing`), null);
 * ```
 */
export function readPointTables(dir: string): PointTable[] | null {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  return entries
    .filter((e) => e.isFile && /\.(txt|dat)$/.test(e.name))
    .map((e) => ({
      name: e.name.replace(/\.(txt|dat)$/, ""),
      points: parsePointTable(Deno.readTextFileSync(`${dir}/${e.name}`), `${dir}/${e.name}`),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A Jülich laboratory run and how to read it (PROVENANCE.md of `trajectories/juelich/`). */
export interface JuelichRun {
  /** Path inside the data folder. */
  file: string;
  /** Coordinate unit of the file. */
  unit: "m" | "cm";
  /** Frames per second. */
  frameRate: number;
}

/** The Jülich runs the validation reads. */
export const JUELICH_RUNS = {
  /** Bidirectional corridor 3.6 m, entrances 0.5 m each (HERMES 2009): low density. */
  bo050: {
    file: "trajectories/juelich/hermes-2009-corridor-bidirectional/bo-360-050-050.txt",
    unit: "cm",
    frameRate: 16,
  },
  /** Bidirectional corridor 3.6 m, entrances 0.9 m. */
  bo090: {
    file: "trajectories/juelich/hermes-2009-corridor-bidirectional/bo-360-090-090.txt",
    unit: "cm",
    frameRate: 16,
  },
  /** Bidirectional corridor 3.6 m, entrances 1.6 m: the densest run. */
  bo160: {
    file: "trajectories/juelich/hermes-2009-corridor-bidirectional/bo-360-160-160.txt",
    unit: "cm",
    frameRate: 16,
  },
  /** Entrance bottleneck 0.5 m wide, 1.1 m long (Wuppertal 2018), 75 persons. */
  bottleneck050: {
    file: "trajectories/juelich/bottleneck/040_c_56_h-.txt",
    unit: "m",
    frameRate: 25,
  },
  /** Wide bottleneck "AO", 3.0 m wide, 1.06 m long (HERMES 2009), 348 persons. */
  bottleneck300: {
    file: "trajectories/juelich/bottleneck/AO_300_traj.txt",
    unit: "m",
    frameRate: 16,
  },
} as const satisfies Record<string, JuelichRun>;

/**
 * One run of the HERMES unidirectional corridor series (Düsseldorf 2009), by file name without
 * extension (for example `uo-180-180-120`): centimetres, 16 frames per second. The training runs
 * of the calibrations; the suite does not read them.
 *
 * @example
 * ```ts
 * import { hermesUnidirectionalRun } from "./data_files.ts";
 * import assert from "node:assert/strict";
 * assert.equal(hermesUnidirectionalRun("uo-180-180-120").frameRate, 16);
 * ```
 */
export function hermesUnidirectionalRun(name: string): JuelichRun {
  return {
    file: `trajectories/juelich/hermes-2009-corridor-unidirectional/${name}.txt`,
    unit: "cm",
    frameRate: 16,
  };
}

/** Reads a Jülich run in metres (throws a {@linkcode DataFileError} when it is missing). */
export function readJuelichRun(run: JuelichRun, root: URL = _root): TrajectoryData {
  const path = dataPath(run.file, root);
  try {
    Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new DataFileError(path, "not found");
    throw error;
  }
  return readTrajectory(path, { unit: run.unit, frameRate: run.frameRate });
}

/** An ETH/UCY scene: file, time between samples and the walking side of its place. */
export interface EthUcyScene {
  /** Short name. */
  name: string;
  /** Path inside the data folder (SGAN format: `frame id x y`, metres). */
  file: string;
  /**
   * Seconds between two annotation samples. ETH's SGAN file is resampled to 0.667 s, not the
   * 0.4 s of the others (PROVENANCE.md).
   */
  sampleSeconds: number;
  /** Side people keep to in the scene's city. */
  walkingSide: "right" | "left";
  /**
   * `train`: kept out of the tests, for choosing parameters (ZARA03, the usual training-only
   * file of the benchmark); `test`: used only to test.
   */
  role: "test" | "train";
}

/**
 * The ETH/UCY scenes: ETH and HOTEL in Zurich (right-hand walking), ZARA in Nicosia, Cyprus
 * (left-hand traffic; walking side taken as left).
 */
export const ETH_UCY_SCENES: readonly EthUcyScene[] = [
  {
    name: "eth",
    role: "test",
    file: "trajectories/eth-ucy/sgan-format/biwi_eth.txt",
    sampleSeconds: 10 / 15,
    walkingSide: "right",
  },
  {
    name: "hotel",
    role: "test",
    file: "trajectories/eth-ucy/sgan-format/biwi_hotel.txt",
    sampleSeconds: 0.4,
    walkingSide: "right",
  },
  {
    name: "zara01",
    role: "test",
    file: "trajectories/eth-ucy/sgan-format/crowds_zara01.txt",
    sampleSeconds: 0.4,
    walkingSide: "left",
  },
  {
    name: "zara02",
    role: "test",
    file: "trajectories/eth-ucy/sgan-format/crowds_zara02.txt",
    sampleSeconds: 0.4,
    walkingSide: "left",
  },
  {
    name: "zara03",
    role: "train",
    file: "trajectories/eth-ucy/sgan-format/crowds_zara03.txt",
    sampleSeconds: 0.4,
    walkingSide: "left",
  },
];

/** The samples of one scene: one row per (sample, person), sorted by sample. */
export interface EthUcySamples {
  /** Sample index (frame id divided by the frame step of the file). */
  sample: Int32Array;
  /** Person id. */
  id: Int32Array;
  /** Position x (m). */
  x: Float64Array;
  /** Position y (m). */
  y: Float64Array;
}

/**
 * Parses an SGAN-format file (`frame id x y`, tab- or space-separated; frames advance by a fixed
 * step, 10 in the published files). `path` names the file in errors.
 *
 * @example
 * ```ts
 * import { parseSganTrajectories } from "./data_files.ts";
 * import assert from "node:assert/strict";
 * const s = parseSganTrajectories("0\t1\t1.0\t2.0\n10\t1\t1.5\t2.0\n10\t2\t0\t0\n", "t.txt");
 * assert.deepEqual([...s.sample], [0, 1, 1]);
 * assert.deepEqual([...s.x], [1, 1.5, 0]);
 * assert.throws(() => parseSganTrajectories("0 1 x 2\n", "t.txt"), /t.txt line 1/);
 * ```
 */
export function parseSganTrajectories(text: string, path: string): EthUcySamples {
  const rows: number[][] = [];
  text.split("\n").forEach((raw, k) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const f = line.split(/\s+/).map(Number);
    if (f.length < 4 || !f.slice(0, 4).every(Number.isFinite)) {
      throw new DataFileError(path, `expected 'frame id x y', got '${line}'`, k + 1);
    }
    rows.push(f);
  });
  rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const frames = [...new Set(rows.map((r) => r[0]))];
  let step = Infinity;
  for (let k = 1; k < frames.length; k++) step = Math.min(step, frames[k] - frames[k - 1]);
  if (!Number.isFinite(step)) step = 1;
  const first = frames.length > 0 ? frames[0] : 0;
  const out: EthUcySamples = {
    sample: new Int32Array(rows.length),
    id: new Int32Array(rows.length),
    x: new Float64Array(rows.length),
    y: new Float64Array(rows.length),
  };
  rows.forEach((r, k) => {
    out.sample[k] = Math.round((r[0] - first) / step);
    out.id[k] = r[1];
    out.x[k] = r[2];
    out.y[k] = r[3];
  });
  return out;
}

/** Reads an ETH/UCY scene (throws a {@linkcode DataFileError} when it is missing). */
export function readEthUcyScene(scene: EthUcyScene, root: URL = _root): EthUcySamples {
  const path = dataPath(scene.file, root);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new DataFileError(path, "not found");
    throw error;
  }
  return parseSganTrajectories(text, path);
}

/**
 * Trajectories as GeoJSON (RFC 7946) for GIS tools (QGIS, kepler.gl): one `LineString` feature
 * per agent with its positions in longitude/latitude (WGS84 degrees, 7 decimals, about 1 cm),
 * and the simulation time of each position in the feature's `times` property (s), in step with
 * the coordinates.
 *
 * ```json
 * {"type": "FeatureCollection", "features": [{"type": "Feature",
 *   "geometry": {"type": "LineString", "coordinates": [[24.9414, 60.1699], [24.94141, 60.1699]]},
 *   "properties": {"id": 0, "times": [0, 0.05], "startTime": 0, "endTime": 0.05}}]}
 * ```
 *
 * Positions are converted from the run's local metres through the anchor of the header (the
 * scenario's `map` or `anchor`); a run without an anchor cannot be written. An agent seen in a
 * single frame gets a `Point`. The tracks are kept in memory and the file is written whole when
 * the writer closes (to a temporary file renamed over the target).
 *
 * @module
 */
import { LocalProjection } from "../geo/local_projection.ts";
import {
  type AgentColumns,
  TrajectoryFileError,
  type TrajectoryHeader,
  type TrajectoryWriter,
} from "./trajectory.ts";

/** One agent's track: positions (m) and times (s), grown as frames come. */
interface _Track {
  x: Float64Array;
  y: Float64Array;
  t: Float64Array;
  n: number;
}

/**
 * Collects trajectories and writes them as a GeoJSON FeatureCollection of LineStrings (see the
 * module doc).
 *
 * @example
 * ```ts
 * import { GeoJsonTrajectoryWriter } from "./geojson_trajectory.ts";
 * import { createTrajectoryHeader } from "./trajectory.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".geojson" });
 * const writer = new GeoJsonTrajectoryWriter(path);
 * writer.writeHeader({ ...createTrajectoryHeader({ frameRate: 20 }), anchor: { lon: 24.94, lat: 60.17 } });
 * const agents = {
 *   serial: new Uint32Array([4]), px: new Float64Array([0]), py: new Float64Array([0]),
 *   pz: new Float64Array(1), vx: new Float64Array(1), vy: new Float64Array(1), flags: new Uint8Array(1),
 * };
 * for (const frame of [0, 1]) {
 *   agents.px[0] = frame;
 *   writer.beginFrame(frame, frame * 0.05, 1);
 *   writer.writeAgents(agents, 0, 1);
 *   writer.endFrame();
 * }
 * writer.close();
 * const feature = JSON.parse(await Deno.readTextFile(path)).features[0];
 * assert.deepEqual(feature.geometry.coordinates[0], [24.94, 60.17]);
 * assert.deepEqual(feature.properties.times, [0, 0.05]);
 * await Deno.remove(path);
 * ```
 */
export class GeoJsonTrajectoryWriter implements TrajectoryWriter {
  /** The file being written. */
  readonly path: string;
  /** The file format. */
  readonly format = "geojson" as const;
  #projection: LocalProjection | null = null;
  #header: TrajectoryHeader | null = null;
  #tracks = new Map<number, _Track>();
  #time = 0;
  #expected = 0;
  #added = 0;
  #open = false;
  #closed = false;

  /** Checks that `path` can be written (creates it); the content comes on close. */
  constructor(path: string) {
    this.path = path;
    try {
      Deno.writeTextFileSync(path, "");
    } catch (error) {
      throw new TrajectoryFileError(path, (error as Error).message.split("\n")[0], {
        writing: true,
      });
    }
  }

  /** Takes the header's anchor; throws when the run is not placed on the globe. */
  writeHeader(header: TrajectoryHeader): void {
    if (this.#header) throw new Error(`the header of '${this.path}' is already written`);
    if (!header.anchor) {
      throw new TrajectoryFileError(
        this.path,
        'GeoJSON trajectories are in longitude/latitude: the scenario needs a "map" or an "anchor" (or write .csv, .txt or .bin)',
        { writing: true },
      );
    }
    this.#header = header;
    this.#projection = new LocalProjection(header.anchor);
  }

  /** Starts frame number `frame` at `time` (s) holding `count` agents. */
  beginFrame(_frame: number, time: number, count: number): void {
    if (!this.#header) throw new Error(`write the header of '${this.path}' first`);
    this.#time = time;
    this.#expected = count;
    this.#added = 0;
    this.#open = true;
  }

  /** Adds agents `begin … end-1` of `columns` to the current frame. */
  writeAgents(columns: AgentColumns, begin: number, end: number): void {
    if (!this.#open) throw new Error(`no frame begun in '${this.path}'`);
    for (let i = begin; i < end; i++) {
      const x = columns.px[i], y = columns.py[i];
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        throw new TrajectoryFileError(
          this.path,
          `agent ${
            columns.serial[i]
          } at time ${this.#time} s is at (${x}, ${y}) m: coordinates must be finite`,
          { writing: true },
        );
      }
      let track = this.#tracks.get(columns.serial[i]);
      if (!track) {
        track = { x: new Float64Array(16), y: new Float64Array(16), t: new Float64Array(16), n: 0 };
        this.#tracks.set(columns.serial[i], track);
      }
      if (track.n === track.x.length) {
        for (const key of ["x", "y", "t"] as const) {
          const grown = new Float64Array(2 * track.n);
          grown.set(track[key]);
          track[key] = grown;
        }
      }
      track.x[track.n] = x;
      track.y[track.n] = y;
      track.t[track.n] = this.#time;
      track.n++;
    }
    this.#added += end - begin;
  }

  /** Completes the frame; throws unless exactly the declared number of agents was added. */
  endFrame(): void {
    if (this.#added !== this.#expected) {
      throw new Error(
        `frame of '${this.path}' declared ${this.#expected} agents but ${this.#added} were added`,
      );
    }
    this.#open = false;
  }

  /** Nothing to do: the file is written whole on close. */
  flush(): void {}

  /** Writes the FeatureCollection (temporary file, then renamed); later calls do nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const projection = this.#projection;
    if (!projection || !this.#header) return;
    const round7 = (v: number) => Math.round(v * 1e7) / 1e7;
    const features: string[] = [];
    const ids = [...this.#tracks.keys()].sort((a, b) => a - b);
    for (const id of ids) {
      const track = this.#tracks.get(id)!;
      const coordinates: [number, number][] = [];
      const times: number[] = [];
      for (let k = 0; k < track.n; k++) {
        const { lon, lat } = projection.toLonLat(track.x[k], track.y[k]);
        coordinates.push([round7(lon), round7(lat)]);
        times.push(Number(track.t[k].toFixed(6)));
      }
      const geometry = coordinates.length > 1
        ? { type: "LineString", coordinates }
        : { type: "Point", coordinates: coordinates[0] };
      features.push(JSON.stringify({
        type: "Feature",
        geometry,
        properties: { id, times, startTime: times[0], endTime: times[times.length - 1] },
      }));
    }
    const h = this.#header;
    const head = JSON.stringify({
      type: "FeatureCollection",
      name: h.scenario ?? "trajectories",
      properties: {
        scenario: h.scenario,
        strategy: h.strategy,
        seed: h.seed,
        dt: h.dt,
        frameRate: h.frameRate,
        anchor: h.anchor,
      },
    });
    const text = `${head.slice(0, -1)},"features":[\n${features.join(",\n")}\n]}\n`;
    const temp = `${this.path}.tmp-${Deno.pid}`;
    try {
      Deno.writeTextFileSync(temp, text);
      Deno.renameSync(temp, this.path);
    } catch (error) {
      try {
        Deno.removeSync(temp);
      } catch { /* already gone */ }
      throw new TrajectoryFileError(this.path, (error as Error).message.split("\n")[0], {
        writing: true,
      });
    }
  }
}

/**
 * Places on a city map as spawn areas and goals: a street by name, a building (one, or a random
 * one per agent), or the ground near a longitude/latitude. Every place is a piece of the city's
 * navigation mesh — clear triangles of its main region (the one with the largest area), cut
 * into pieces of at most a few metres so that the place's outline is followed — so that agents
 * are never placed inside a building or on a region cut off from the rest, and every goal can
 * be reached.
 *
 * A building is reached at its door: the mapped `entrance`, else the point of the walkable area
 * nearest to the middle of one of its outline's edges (the edge closest to walkable ground).
 *
 * @module
 */
import { pointSegmentDistanceSq } from "../core/geometry.ts";
import { type Area, trianglesArea } from "../core/area.ts";
import type { CityBuilding, CityModel } from "../geo/city_model.ts";
import { LocalProjection } from "../geo/local_projection.ts";
import type { NavMesh } from "../navigation/navmesh.ts";

/** Largest distance (m) from a building's outline to the walkable ground at its door. */
export const DOOR_SEARCH_RADIUS = 15;

/** Radius (m) of the ground around a door where agents leaving a building appear. */
export const DOOR_SPAWN_RADIUS = 6;

/** Ground either side of a street's carriageway (m) counted as the street (its sidewalks). */
export const STREET_SIDE_MARGIN = 5;

/** Default radius (m) of a `near` place. */
export const NEAR_DEFAULT_RADIUS = 20;

/** A place as a spawn area and as a goal. */
export interface MapPlace {
  /** Where agents appear: walkable ground (triangles). */
  readonly spawn: Area;
  /** Where agents head: points (doors) or walkable ground. */
  readonly goal: Area;
}

const _cache = new WeakMap<NavMesh, MapPlaces>();

/**
 * The places of one city on its navigation mesh. Build it once per mesh with
 * {@linkcode MapPlaces.of}; errors are one-line `RangeError`s naming the place.
 *
 * @example
 * ```ts
 * import { MapPlaces } from "./map_places.ts";
 * import { generateProceduralCity } from "../geo/procedural_city.ts";
 * import { buildCityNavMesh } from "../navigation/city_navmesh.ts";
 * import assert from "node:assert/strict";
 * const city = generateProceduralCity({ blocksX: 2, blocksY: 2 });
 * const places = MapPlaces.of(city, buildCityNavMesh(city).mesh);
 * assert(places.doorCount > 0);
 * assert.equal(places.building("random").goal.kind, "points");
 * ```
 */
export class MapPlaces {
  /** The city. */
  readonly city: CityModel;
  /** Its navigation mesh. */
  readonly mesh: NavMesh;
  /** Plan component of the mesh with the largest area: where places lie. */
  readonly mainComponent: number;
  /** Door of each building `[x, y]` (m), NaN when no walkable ground is near it. */
  readonly doors: Float64Array;
  readonly #projection: LocalProjection;
  #random: MapPlace | null = null;
  // Main-region clear triangles bucketed by bounding box in a uniform grid (cell `#cell` m).
  readonly #cell = 16;
  #gridX0 = 0;
  #gridY0 = 0;
  #cols = 0;
  #rows = 0;
  #cellStart = new Int32Array(1);
  #cellItems = new Int32Array(0);
  #stamp = new Uint32Array(0);
  #stampNow = 0;

  /** The places of `city` on `mesh`, computed once per mesh. */
  static of(city: CityModel, mesh: NavMesh): MapPlaces {
    let places = _cache.get(mesh);
    if (!places || places.city !== city) {
      places = new MapPlaces(city, mesh);
      _cache.set(mesh, places);
    }
    return places;
  }

  private constructor(city: CityModel, mesh: NavMesh) {
    this.city = city;
    this.mesh = mesh;
    this.#projection = new LocalProjection(city.anchor);
    const area = new Map<number, number>();
    for (let t = 0; t < mesh.triangleCount; t++) {
      const c = mesh.planComponent[t];
      if (c >= 0) area.set(c, (area.get(c) ?? 0) + mesh.triangleArea(t));
    }
    let main = -1, most = -1;
    for (const [c, a] of area) {
      if (a > most) {
        most = a;
        main = c;
      }
    }
    this.mainComponent = main;
    this.#buildGrid();
    this.doors = new Float64Array(2 * city.buildings.length).fill(NaN);
    city.buildings.forEach((b, i) => this.#findDoor(b, i));
  }

  /** Buildings with a door on the main region. */
  get doorCount(): number {
    let n = 0;
    for (let i = 0; i < this.doors.length; i += 2) if (!Number.isNaN(this.doors[i])) n++;
    return n;
  }

  /**
   * A building: `"random"` (a random building per agent: doors as goals, the ground around
   * every door as spawn area), or one building by `name` or feature id (`"way/123"`).
   */
  building(which: string): MapPlace {
    if (which === "random") {
      if (this.#random) return this.#random;
      const doors: number[] = [];
      for (let i = 0; i < this.doors.length; i += 2) {
        if (!Number.isNaN(this.doors[i])) doors.push(this.doors[i], this.doors[i + 1]);
      }
      if (doors.length === 0) {
        throw new RangeError(
          `no building of '${this.city.name}' (${this.city.buildings.length} in all) has walkable ground within ${DOOR_SEARCH_RADIUS} m of its outline`,
        );
      }
      const spawn = this.#ground(doors, DOOR_SPAWN_RADIUS);
      return this.#random = { spawn, goal: { kind: "points", coords: new Float64Array(doors) } };
    }
    const key = which.trim().toLowerCase();
    const index = this.city.buildings.findIndex((b) =>
      b.id === which || (b.name !== null && b.name.toLowerCase() === key)
    );
    if (index < 0) {
      const names = this.city.buildings.map((b) => b.name).filter((n): n is string => n !== null);
      throw new RangeError(
        `unknown building '${which}' (give "random", a building's name or an id such as "way/123")${
          _closeMatches(which, names)
        }`,
      );
    }
    const x = this.doors[2 * index], y = this.doors[2 * index + 1];
    if (Number.isNaN(x)) {
      throw new RangeError(
        `building '${which}' has no walkable ground within ${DOOR_SEARCH_RADIUS} m of its outline`,
      );
    }
    return {
      spawn: this.#ground([x, y], DOOR_SPAWN_RADIUS),
      goal: { kind: "point", x, y },
    };
  }

  /** A street by name (any case): its sidewalks and the walkable ground along it. */
  street(name: string): MapPlace {
    const key = name.trim().toLowerCase();
    const edges = this.city.streets.edges.filter((e) =>
      e.name !== null && e.name.toLowerCase() === key && !e.tunnel
    );
    if (edges.length === 0) {
      const names = [
        ...new Set(
          this.city.streets.edges.map((e) => e.name).filter((n): n is string => n !== null),
        ),
      ];
      throw new RangeError(
        `unknown street '${name}' on '${this.city.name}'${_closeMatches(name, names)}`,
      );
    }
    const segments: number[] = [];
    const reach: number[] = [];
    for (const e of edges) {
      for (let k = 1; k < e.points.length; k++) {
        segments.push(e.points[k - 1][0], e.points[k - 1][1], e.points[k][0], e.points[k][1]);
        reach.push(e.width / 2 + (e.carriageway ? STREET_SIDE_MARGIN : 1));
      }
    }
    const inside = (x: number, y: number) => {
      for (let k = 0; k < reach.length; k++) {
        const o = 4 * k;
        if (
          pointSegmentDistanceSq(
            x,
            y,
            segments[o],
            segments[o + 1],
            segments[o + 2],
            segments[o + 3],
          ) <=
            reach[k] * reach[k]
        ) {
          return true;
        }
      }
      return false;
    };
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    const far = Math.max(...reach);
    for (let k = 0; k < segments.length; k += 2) {
      x0 = Math.min(x0, segments[k] - far);
      x1 = Math.max(x1, segments[k] + far);
      y0 = Math.min(y0, segments[k + 1] - far);
      y1 = Math.max(y1, segments[k + 1] + far);
    }
    const coords = this.#collect([x0, y0, x1, y1], inside, 2);
    if (coords.length === 0) {
      throw new RangeError(`street '${name}' has no walkable ground on the map's main region`);
    }
    const area = trianglesArea(new Float64Array(coords));
    return { spawn: area, goal: area };
  }

  /** The walkable ground within `radius` (m) of a longitude/latitude. */
  near(lon: number, lat: number, radius = NEAR_DEFAULT_RADIUS): MapPlace {
    const [x, y] = this.#projection.toLocal(lon, lat);
    const [bx0, by0, bx1, by1] = this.city.bounds;
    if (x < bx0 - radius || x > bx1 + radius || y < by0 - radius || y > by1 + radius) {
      const sw = this.#projection.toLonLat(bx0, by0), ne = this.#projection.toLonLat(bx1, by1);
      throw new RangeError(
        `[${lon}, ${lat}] is off the map: '${this.city.name}' covers longitude ${
          sw.lon.toFixed(5)
        } to ${ne.lon.toFixed(5)}, latitude ${sw.lat.toFixed(5)} to ${ne.lat.toFixed(5)}`,
      );
    }
    const coords = this.#collect(
      [x - radius, y - radius, x + radius, y + radius],
      (px, py) => (px - x) ** 2 + (py - y) ** 2 <= radius * radius,
      Math.max(0.5, radius / 6),
    );
    if (coords.length === 0) {
      throw new RangeError(
        `no walkable ground within ${radius} m of [${lon}, ${lat}] (inside a building or off the streets): move the point or enlarge "radius"`,
      );
    }
    const area = trianglesArea(new Float64Array(coords));
    return { spawn: area, goal: area };
  }

  /** The ground within `radius` of each point `[x0, y0, …]`, as triangles. */
  #ground(points: readonly number[], radius: number): Area {
    const coords: number[] = [];
    const r2 = radius * radius;
    for (let k = 0; k < points.length; k += 2) {
      const x = points[k], y = points[k + 1];
      const inside = (px: number, py: number) => (px - x) ** 2 + (py - y) ** 2 <= r2;
      for (const c of this.#collect([x - radius, y - radius, x + radius, y + radius], inside, 3)) {
        coords.push(c);
      }
    }
    return trianglesArea(new Float64Array(coords));
  }

  /**
   * Pieces of the main region's clear triangles in box `[x0, y0, x1, y1]` whose centroid
   * satisfies `inside`: each triangle is split in four until its longest edge is at most
   * `maxEdge` (m) or the piece lies wholly in or out.
   */
  #collect(
    box: readonly number[],
    inside: (x: number, y: number) => boolean,
    maxEdge: number,
  ): number[] {
    const mesh = this.mesh, c = mesh.coords, v = mesh.triangles, out: number[] = [];
    const cell = this.#cell;
    const cx0 = Math.max(0, Math.floor((box[0] - this.#gridX0) / cell));
    const cx1 = Math.min(this.#cols - 1, Math.floor((box[2] - this.#gridX0) / cell));
    const cy0 = Math.max(0, Math.floor((box[1] - this.#gridY0) / cell));
    const cy1 = Math.min(this.#rows - 1, Math.floor((box[3] - this.#gridY0) / cell));
    const stamp = ++this.#stampNow;
    const split = (t: number[], depth: number) => {
      const [ax, ay, bx, by, cx, cy] = t;
      const longest = Math.max(
        Math.hypot(bx - ax, by - ay),
        Math.hypot(cx - bx, cy - by),
        Math.hypot(ax - cx, ay - cy),
      );
      if (longest <= maxEdge || depth >= 10) {
        if (inside((ax + bx + cx) / 3, (ay + by + cy) / 3)) out.push(...t);
        return;
      }
      const ins = [inside(ax, ay), inside(bx, by), inside(cx, cy)];
      if (ins.every((b) => b) && inside((ax + bx + cx) / 3, (ay + by + cy) / 3)) {
        // Wholly inside for the convex places used here (discs, unions of strips: nearly so).
        if (longest <= 8 * maxEdge) {
          out.push(...t);
          return;
        }
      }
      const mx = (ax + bx) / 2, my = (ay + by) / 2, nx = (bx + cx) / 2, ny = (by + cy) / 2;
      const ox = (cx + ax) / 2, oy = (cy + ay) / 2;
      split([ax, ay, mx, my, ox, oy], depth + 1);
      split([mx, my, bx, by, nx, ny], depth + 1);
      split([ox, oy, nx, ny, cx, cy], depth + 1);
      split([mx, my, nx, ny, ox, oy], depth + 1);
    };
    const candidates: number[] = [];
    for (let gy = cy0; gy <= cy1; gy++) {
      for (let gx = cx0; gx <= cx1; gx++) {
        const g = gy * this.#cols + gx;
        for (let k = this.#cellStart[g]; k < this.#cellStart[g + 1]; k++) {
          const t = this.#cellItems[k];
          if (this.#stamp[t] === stamp) continue;
          this.#stamp[t] = stamp;
          candidates.push(t);
        }
      }
    }
    // Mesh order, whatever the grid's.
    candidates.sort((a, b) => a - b);
    for (const t of candidates) {
      const a = v[3 * t], b = v[3 * t + 1], d = v[3 * t + 2];
      const ax = c[2 * a], ay = c[2 * a + 1], bx = c[2 * b], by = c[2 * b + 1];
      const cx = c[2 * d], cy = c[2 * d + 1];
      if (
        Math.max(ax, bx, cx) < box[0] || Math.min(ax, bx, cx) > box[2] ||
        Math.max(ay, by, cy) < box[1] || Math.min(ay, by, cy) > box[3]
      ) continue;
      split([ax, ay, bx, by, cx, cy], 0);
    }
    return out;
  }

  /** Buckets the main region's clear triangles by bounding box. */
  #buildGrid(): void {
    const mesh = this.mesh, c = mesh.coords, v = mesh.triangles, cell = this.#cell;
    const [x0, y0, x1, y1] = mesh.bounds;
    this.#gridX0 = x0;
    this.#gridY0 = y0;
    this.#cols = Math.max(1, Math.ceil((x1 - x0) / cell) + 1);
    this.#rows = Math.max(1, Math.ceil((y1 - y0) / cell) + 1);
    const counts = new Int32Array(this.#cols * this.#rows + 1);
    for (let pass = 0; pass < 2; pass++) {
      const fill = new Int32Array(counts.length);
      for (let t = 0; t < mesh.triangleCount; t++) {
        if (!mesh.clear[t] || mesh.planComponent[t] !== this.mainComponent) continue;
        let ax = Infinity, ay = Infinity, bx = -Infinity, by = -Infinity;
        for (let k = 0; k < 3; k++) {
          const p = v[3 * t + k];
          ax = Math.min(ax, c[2 * p]);
          bx = Math.max(bx, c[2 * p]);
          ay = Math.min(ay, c[2 * p + 1]);
          by = Math.max(by, c[2 * p + 1]);
        }
        const gx0 = Math.floor((ax - x0) / cell), gx1 = Math.floor((bx - x0) / cell);
        const gy0 = Math.floor((ay - y0) / cell), gy1 = Math.floor((by - y0) / cell);
        for (let gy = gy0; gy <= gy1; gy++) {
          for (let gx = gx0; gx <= gx1; gx++) {
            const g = gy * this.#cols + gx;
            if (pass === 0) counts[g + 1]++;
            else this.#cellItems[this.#cellStart[g] + fill[g]++] = t;
          }
        }
      }
      if (pass === 0) {
        for (let g = 1; g < counts.length; g++) counts[g] += counts[g - 1];
        this.#cellStart = counts;
        this.#cellItems = new Int32Array(counts[counts.length - 1]);
      }
    }
    this.#stamp = new Uint32Array(mesh.triangleCount);
  }

  /** Finds building `i`'s door (see the module doc). */
  #findDoor(b: CityBuilding, i: number): void {
    const mesh = this.mesh, out = new Float64Array(2);
    const candidates: number[] = [];
    if (b.entrance) candidates.push(b.entrance[0], b.entrance[1]);
    else {
      const ring = b.polygon[0];
      for (let k = 0; k < ring.length; k++) {
        const p = ring[k], q = ring[(k + 1) % ring.length];
        candidates.push((p[0] + q[0]) / 2, (p[1] + q[1]) / 2);
      }
    }
    let best = Infinity;
    for (let k = 0; k < candidates.length; k += 2) {
      const x = candidates[k], y = candidates[k + 1];
      const t = mesh.nearestClearPoint(x, y, DOOR_SEARCH_RADIUS, out);
      if (t < 0 || mesh.planComponent[t] !== this.mainComponent) continue;
      const d = Math.hypot(out[0] - x, out[1] - y);
      if (d < best) {
        best = d;
        this.doors[2 * i] = out[0];
        this.doors[2 * i + 1] = out[1];
      }
    }
  }
}

/** `: close matches: 'A', 'B'` for the names nearest `name` (edit distance), or a count. */
function _closeMatches(name: string, names: readonly string[]): string {
  if (names.length === 0) return ": the map names none";
  const key = name.toLowerCase();
  const scored = [...new Set(names)].map((n) => {
    const lower = n.toLowerCase();
    const bonus = lower.includes(key) || key.includes(lower) ? -100 : 0;
    return { n, d: _editDistance(key, lower) + bonus };
  }).sort((a, b) => a.d - b.d || a.n.localeCompare(b.n));
  return `: close matches: ${scored.slice(0, 4).map((s) => `'${s.n}'`).join(", ")}`;
}

/** Levenshtein edit distance. */
function _editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        prev[j] + 1,
        row[j - 1] + 1,
        prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[b.length];
}

/**
 * Density and speed in a measurement area, measured the way pedestrian experiments are analysed:
 * the Voronoi method of Steffen and Seyfried (2010) and the classical count.
 *
 * Voronoi method (B. Steffen, A. Seyfried, "Methods for measuring pedestrian density, flow,
 * speed and direction with minimal scatter", Physica A 389 (2010) 1902–1910; as in PedPy and
 * JuPedSim's analysis tool): each person i owns the Voronoi cell V_i of the crowd, clipped to the
 * walkable area (and, optionally, to a circle of `cutOffRadius` around the person). In the
 * measurement area A,
 *
 * ```
 * ρ_V = Σ_i |V_i ∩ A| / |V_i|  /  |A|        (persons/m²)
 * v_V = Σ_i v_i · |V_i ∩ A|    /  |A|        (m/s)
 * ```
 *
 * Classical method: ρ_C = N_A / |A| and v_C = mean speed of the N_A persons inside A.
 *
 * Voronoi cells come from d3-delaunay; clipping and areas from Clipper2 (clipper2-ts).
 *
 * @module
 */
import { Delaunay } from "npm:d3-delaunay@6.0.4";
import {
  areaPathsD,
  ellipseD,
  FillRule,
  intersectD,
  type PathD,
  type PathsD,
} from "npm:clipper2-ts@2.0.1";
import { type Point, pointInPolygon } from "../core/geometry.ts";

/** A polygon with holes (m): outer ring first, then holes; rings without a repeated end point. */
export type PolygonRings = readonly (readonly Point[])[];

/** Options of a {@linkcode MeasurementArea}. */
export interface MeasurementAreaOptions {
  /**
   * Radius (m) of the circle each Voronoi cell is cut to, so that a lone person in an open
   * area does not own the whole room (PedPy's `cut_off`); 0 for none. @default 0
   */
  cutOffRadius?: number;
  /** Sides of the polygon that approximates the cut-off circle. @default 24 */
  cutOffSides?: number;
}

/** Density and speed in a measurement area at one instant. */
export interface AreaMeasurement {
  /** Voronoi density ρ_V (persons/m²). */
  density: number;
  /** Voronoi speed v_V (m/s): speeds weighted by the share of each cell inside the area. */
  speed: number;
  /** Classical density N_A / |A| (persons/m²). */
  classicalDensity: number;
  /** Mean speed of the persons inside the area (m/s); NaN when nobody is inside. */
  classicalSpeed: number;
  /** Persons whose centre is inside the area. */
  inside: number;
}

const PRECISION = 4;

/**
 * A measurement area A inside a walkable area W. Build it once per geometry; call
 * {@linkcode MeasurementArea.measure} once per frame.
 *
 * @example A square lattice of spacing 0.5 m has 4 persons/m² everywhere
 * ```ts
 * import { MeasurementArea } from "./measurement_area.ts";
 * import assert from "node:assert/strict";
 * const walkable = [[[0, 0], [10, 0], [10, 10], [0, 10]]] as const;
 * const area = new MeasurementArea(walkable, [[4, 4], [6, 4], [6, 6], [4, 6]]);
 * const xs: number[] = [], ys: number[] = [], v: number[] = [];
 * for (let i = 0; i < 20; i++) {
 *   for (let j = 0; j < 20; j++) xs.push(0.25 + 0.5 * i), ys.push(0.25 + 0.5 * j), v.push(1.2);
 * }
 * const m = area.measure(xs, ys, v);
 * assert.ok(Math.abs(m.density - 4) < 1e-6);
 * assert.ok(Math.abs(m.speed - 1.2) < 1e-6);
 * assert.equal(m.classicalDensity, 4);
 * ```
 */
export class MeasurementArea {
  /** Area of A (m²). */
  readonly area: number;
  readonly #walkable: PathsD;
  readonly #region: PathsD;
  readonly #polygon: readonly Point[];
  readonly #bounds: [number, number, number, number];
  readonly #box: [number, number, number, number];
  readonly #cutOff: number;
  readonly #cutOffSides: number;

  /**
   * @param walkable the walkable area W (m), outer ring then holes
   * @param area the measurement area A (m), a simple polygon inside W
   */
  constructor(
    walkable: PolygonRings,
    area: readonly Point[],
    options: MeasurementAreaOptions = {},
  ) {
    if (walkable.length === 0 || walkable[0].length < 3) {
      throw new TypeError(
        "Cannot create MeasurementArea as 'walkable' needs an outer ring of at least 3 points",
      );
    }
    if (area.length < 3) {
      throw new TypeError(
        `Cannot create MeasurementArea as 'area' needs at least 3 points: current length is ${area.length}`,
      );
    }
    const cutOff = options.cutOffRadius ?? 0;
    if (!(cutOff >= 0) || !Number.isFinite(cutOff)) {
      throw new RangeError(
        `Cannot create MeasurementArea as 'cutOffRadius' must be a finite number >= 0: current value is ${cutOff}`,
      );
    }
    const sides = options.cutOffSides ?? 24;
    if (!Number.isInteger(sides) || sides < 6) {
      throw new RangeError(
        `Cannot create MeasurementArea as 'cutOffSides' must be an integer >= 6: current value is ${sides}`,
      );
    }
    this.#walkable = walkable.map(_toPath);
    this.#region = [_toPath(area)];
    this.#polygon = area;
    this.#cutOff = cutOff;
    this.#cutOffSides = sides;
    this.area = Math.abs(areaPathsD(this.#region));
    if (!(this.area > 0)) {
      throw new RangeError("Cannot create MeasurementArea as 'area' has no area");
    }
    this.#bounds = _bounds(walkable[0]);
    this.#box = _bounds(area);
  }

  /**
   * Density and speed of persons at (`x[i]`, `y[i]`) walking at `speed[i]` (m/s; give the
   * component along the corridor for a directed measurement). Persons outside the walkable
   * area's outer bounds are ignored.
   */
  measure(
    x: ArrayLike<number>,
    y: ArrayLike<number>,
    speed: ArrayLike<number>,
  ): AreaMeasurement {
    const n = x.length;
    if (y.length !== n || speed.length !== n) {
      throw new TypeError(
        `Cannot measure as 'x', 'y' and 'speed' must have the same length: ${n}, ${y.length}, ${speed.length}`,
      );
    }
    const [bx0, by0, bx1, by1] = this.#bounds;
    const points: [number, number][] = [];
    const owner: number[] = [];
    for (let i = 0; i < n; i++) {
      if (x[i] < bx0 || x[i] > bx1 || y[i] < by0 || y[i] > by1) continue;
      points.push([x[i], y[i]]);
      owner.push(i);
    }
    let inside = 0, insideSpeed = 0;
    for (let k = 0; k < points.length; k++) {
      if (pointInPolygon(points[k][0], points[k][1], this.#polygon)) {
        inside++;
        insideSpeed += speed[owner[k]];
      }
    }
    let density = 0, flux = 0;
    if (points.length > 0) {
      const voronoi = Delaunay.from(points).voronoi([bx0 - 1, by0 - 1, bx1 + 1, by1 + 1]);
      const [ax0, ay0, ax1, ay1] = this.#box;
      for (let k = 0; k < points.length; k++) {
        const ring = voronoi.cellPolygon(k) as [number, number][] | null;
        if (!ring) continue;
        const cb = _bounds(ring);
        if (cb[2] < ax0 || cb[0] > ax1 || cb[3] < ay0 || cb[1] > ay1) continue;
        let cell: PathsD = intersectD([_toPath(ring)], this.#walkable, FillRule.EvenOdd, PRECISION);
        if (this.#cutOff > 0) {
          const circle = ellipseD(
            { x: points[k][0], y: points[k][1] },
            this.#cutOff,
            this.#cutOff,
            this.#cutOffSides,
          );
          cell = intersectD(cell, [circle], FillRule.EvenOdd, PRECISION);
        }
        const whole = Math.abs(areaPathsD(cell));
        if (!(whole > 0)) continue;
        const part = Math.abs(
          areaPathsD(intersectD(cell, this.#region, FillRule.EvenOdd, PRECISION)),
        );
        if (!(part > 0)) continue;
        density += part / whole;
        flux += speed[owner[k]] * part;
      }
    }
    return {
      density: density / this.area,
      speed: flux / this.area,
      classicalDensity: inside / this.area,
      classicalSpeed: inside > 0 ? insideSpeed / inside : NaN,
      inside,
    };
  }
}

function _toPath(ring: readonly Point[] | readonly [number, number][]): PathD {
  return ring.map(([x, y]) => ({ x, y }));
}

function _bounds(ring: readonly (readonly [number, number])[]): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of ring) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
}

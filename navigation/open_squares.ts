/**
 * Open squares for street walkers: the city's pedestrian areas (squares, plazas, forecourts),
 * where there are no streets to follow and no junctions to choose at. D. Michael and
 * Y. Chrysanthou (Automatic high level avatar guidance based on affordance of movement,
 * Eurographics 2003) leave them for later; walkers here do what the visual agents of A. Turner
 * and A. Penn (Encoding natural movement as an agent-based system, Environment and Planning B,
 * 2002) do: every few steps they look over their field of view ({@linkcode VisualField}) and
 * head for a direction with probability in proportion to the walkable distance they see there.
 * The view ends at buildings and at the square's outline, so walkers stay on the square until
 * they reach one of the streets that leave it.
 *
 * A walker enters a square at a junction inside it: there the square is one more choice, whose
 * visible share is the part of the junction's viewshed that lies on the square. It leaves at a
 * junction of the guidance map other than the one it came in by (or by that one after walking
 * `minWalkM`), or where it steps onto a road cell outside the square, and then follows the
 * street that leaves there most nearly in the direction it is heading.
 *
 * @module
 */
import { pointInPolygon } from "../core/geometry.ts";
import type { CityModel } from "../geo/city_model.ts";
import type { GuidanceMap } from "./guidance_map.ts";
import type { JunctionAffordance } from "./junction_affordance.ts";
import { ObstacleSet } from "./obstacle_set.ts";
import { VisualField, type VisualFieldOptions } from "./visual_field.ts";
import { intersectAreas, polygonsArea, type PolygonWithHoles } from "./walkable_area.ts";

/**
 * The open squares of a city on a guidance map's grid (see the module doc).
 *
 * @example Squares of a map with one plaza
 * ```ts
 * import { OpenSquares } from "./open_squares.ts";
 * import { GuidanceMap } from "./guidance_map.ts";
 * import { JunctionAffordance } from "./junction_affordance.ts";
 * import { syntheticCity } from "./_synthetic_city.ts";
 * import assert from "node:assert/strict";
 * const base = syntheticCity({ sizeM: 400, spacingM: 80 });
 * const plaza = [[[-30, -30], [30, -30], [30, 30], [-30, 30]]] as const;
 * const city = { ...base, buildings: [], pedestrianAreas: [{ id: "way/1", polygon: plaza, kind: "place=square", name: null }] };
 * const squares = new OpenSquares(city, JunctionAffordance.fromCity(city), GuidanceMap.fromCity(city));
 * assert.equal(squares.count, 1);
 * assert.equal(squares.squareAt(0, 0), 0);
 * assert.equal(squares.squareAt(100, 100), -1);
 * ```
 */
export class OpenSquares {
  /** Number of squares. */
  readonly count: number;
  /** Square of each guidance-map cell, or -1. */
  readonly cellSquare: Int32Array;
  /** Square each street node lies in, or -1. */
  readonly nodeSquare: Int32Array;
  /** Share of each node's viewshed lying on its square, in [0, 1]; 0 outside squares. */
  readonly nodeShare: Float64Array;
  /** The walls a square walker sees: buildings and the squares' outlines. */
  readonly walls: ObstacleSet;
  /** The field of view of square walkers. */
  readonly field: VisualField;
  readonly #guidance: GuidanceMap;

  /** Rasterises `city`'s pedestrian areas onto `guidance`'s grid and measures entry shares. */
  constructor(
    city: CityModel,
    affordance: JunctionAffordance,
    guidance: GuidanceMap,
    options: Partial<VisualFieldOptions> = {},
  ) {
    this.#guidance = guidance;
    const areas = city.pedestrianAreas;
    this.count = areas.length;
    this.cellSquare = new Int32Array(guidance.cols * guidance.rows).fill(-1);
    areas.forEach((area, k) => this.#rasterise(area.polygon, k));
    const nodes = city.streets.nodes;
    this.nodeSquare = new Int32Array(nodes.length).fill(-1);
    this.nodeShare = new Float64Array(nodes.length);
    for (const n of nodes) {
      const k = this.squareAt(n.x, n.y);
      this.nodeSquare[n.index] = k;
      const v = affordance.viewshed(n.index);
      if (k < 0 || !v || v.area <= 0) continue;
      const flat = v.polygon();
      const ring: [number, number][] = [];
      for (let j = 0; j < flat.length; j += 2) ring.push([flat[j], flat[j + 1]]);
      const square = areas[k].polygon as PolygonWithHoles;
      const seen = polygonsArea(intersectAreas([[ring]], [square]));
      this.nodeShare[n.index] = Math.min(1, Math.max(0, seen / v.area));
    }
    this.walls = ObstacleSet.fromPolygons([
      ...city.buildings.map((b) => b.polygon),
      ...areas.map((a) => a.polygon),
    ]);
    this.field = new VisualField(this.walls, options);
  }

  /** The square at (`x`, `y`) (m), or -1. */
  squareAt(x: number, y: number): number {
    const c = this.#guidance.cellAt(x, y);
    return c < 0 ? -1 : this.cellSquare[c];
  }

  /** Marks the cells whose centre lies in `polygon` (outer ring, minus holes). */
  #rasterise(polygon: readonly (readonly (readonly [number, number])[])[], k: number): void {
    const g = this.#guidance, cs = g.cellSizeM;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const [x, y] of polygon[0]) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
    const c0 = Math.max(0, Math.floor((minX - g.originX) / cs));
    const c1 = Math.min(g.cols - 1, Math.floor((maxX - g.originX) / cs));
    const r0 = Math.max(0, Math.floor((minY - g.originY) / cs));
    const r1 = Math.min(g.rows - 1, Math.floor((maxY - g.originY) / cs));
    for (let r = r0; r <= r1; r++) {
      const y = g.originY + (r + 0.5) * cs;
      for (let c = c0; c <= c1; c++) {
        const x = g.originX + (c + 0.5) * cs;
        if (!pointInPolygon(x, y, polygon[0])) continue;
        let hole = false;
        for (let h = 1; h < polygon.length && !hole; h++) hole = pointInPolygon(x, y, polygon[h]);
        if (!hole) this.cellSquare[r * g.cols + c] = k;
      }
    }
  }
}

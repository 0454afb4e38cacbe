/**
 * Point-in-building queries over a city's footprints.
 *
 * @module
 */
import type { CityBuilding } from "./city_model.ts";

/**
 * Which building contains a point: building boxes in a uniform 50 m grid, then ring tests.
 *
 * @example
 * ```ts
 * import { BuildingFinder } from "./building_finder.ts";
 * import assert from "node:assert/strict";
 * const finder = new BuildingFinder([{
 *   id: "way/1", polygon: [[[0, 0], [10, 0], [10, 10], [0, 10]]], height: 9,
 *   heightSource: "default", levels: null, name: null, kind: "yes",
 * }]);
 * assert.equal(finder.at(5, 5), 0);
 * assert.equal(finder.at(15, 5), null);
 * ```
 */
export class BuildingFinder {
  #buildings: readonly CityBuilding[];
  #cell = 50;
  #cells = new Map<string, number[]>();

  constructor(buildings: readonly CityBuilding[]) {
    this.#buildings = buildings;
    buildings.forEach((b, i) => {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const [x, y] of b.polygon[0]) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
      for (let cx = Math.floor(x0 / this.#cell); cx <= Math.floor(x1 / this.#cell); cx++) {
        for (let cy = Math.floor(y0 / this.#cell); cy <= Math.floor(y1 / this.#cell); cy++) {
          const key = `${cx},${cy}`;
          const list = this.#cells.get(key);
          if (list) list.push(i);
          else this.#cells.set(key, [i]);
        }
      }
    });
  }

  /** Index of a building whose footprint (holes excluded) contains (x, y), or null. */
  at(x: number, y: number): number | null {
    const list = this.#cells.get(`${Math.floor(x / this.#cell)},${Math.floor(y / this.#cell)}`);
    if (!list) return null;
    for (const i of list) {
      const rings = this.#buildings[i].polygon;
      if (!insideRing(rings[0], x, y)) continue;
      if (rings.slice(1).some((h) => insideRing(h, x, y))) continue;
      return i;
    }
    return null;
  }
}

function insideRing(ring: readonly (readonly [number, number])[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

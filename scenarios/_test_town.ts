/**
 * Test helper: a small town written as OSM XML next to a scenario file that runs on it.
 *
 * @module
 */
import { join } from "node:path";
import { at, osmXml, type TestNode } from "../geo/_test_maps.ts";
import type { ScenarioSpec } from "./schema.ts";

/**
 * A small town: "Main Street" (east–west) and "Cross Road" (north–south) with sidewalks, a
 * crossing where they meet, and a building in each quadrant between them.
 */
export function townXml(): string {
  const nodes: TestNode[] = [
    [1, ...at(-150, 0)],
    [2, ...at(0, 0), { highway: "crossing", crossing: "marked" }],
    [3, ...at(150, 0)],
    [4, ...at(0, -150)],
    [5, ...at(0, 150)],
  ];
  const ways: [number, number[], Record<string, string>][] = [
    [100, [1, 2, 3], { highway: "residential", name: "Main Street", sidewalk: "both" }],
    [101, [4, 2, 5], { highway: "residential", name: "Cross Road", sidewalk: "both" }],
  ];
  let id = 10;
  for (const [sx, sy] of [[1, 1], [-1, 1], [-1, -1], [1, -1]]) {
    const ring = [[15, 15], [60, 15], [60, 60], [15, 60]].map(([x, y]) => at(sx * x, sy * y));
    const refs: number[] = [];
    for (const p of ring) {
      nodes.push([id, p[0], p[1]]);
      refs.push(id++);
    }
    refs.push(refs[0]);
    ways.push([200 + id, refs, { building: "yes", "building:levels": "4" }]);
  }
  return osmXml(nodes, ways);
}

/** Writes the town and a scenario next to it (the map in a subfolder); returns the scenario path. */
export async function writeTown(spec: Partial<ScenarioSpec>): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(join(dir, "maps"));
  await Deno.writeTextFile(join(dir, "maps", "town.osm"), townXml());
  const scenario = {
    name: "town",
    duration: 60,
    map: { osm: "maps/town.osm" },
    spawners: [{ area: { street: "Main Street" }, count: 40, goal: { building: "random" } }],
    ...spec,
  };
  const path = join(dir, "town.json");
  await Deno.writeTextFile(path, JSON.stringify(scenario));
  return path;
}

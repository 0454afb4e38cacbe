/**
 * The scene file of a recording on a map: the viewer's scene of the run (the city's buildings,
 * streets, crossings, signals and navigation mesh, at the map's position) as JSON beside its
 * trajectory file, so that a replay shows the city as the live run does, with or without map
 * tiles. `deno task sim --scenario city --out run.bin` writes `run.bin` and `run.bin.scene.json`;
 * `deno task view run.bin` finds the scene by that name. A trajectory file alone replays with the
 * obstacles its header holds.
 *
 * @module
 */
import type { SceneInfo } from "./frame_protocol.ts";

/** The scene file that belongs to the recording at `path`: `<path>.scene.json`. */
export function sceneFilePath(path: string): string {
  return `${path}.scene.json`;
}

/**
 * Writes `scene` to `path` through a temporary file and a rename, so the file is whole or absent.
 * Throws an error naming the file when it cannot.
 */
export function writeSceneFile(path: string, scene: SceneInfo): void {
  const temp = `${path}.tmp-${Date.now()}`;
  try {
    Deno.writeTextFileSync(temp, JSON.stringify(scene));
    Deno.renameSync(temp, path);
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch { /* never written */ }
    throw new Error(`cannot write the scene file '${path}': ${(error as Error).message}`);
  }
}

/**
 * Reads a scene file. Throws an error naming the file and what is wrong: not JSON, or no scene
 * (an object with an `anchor` and `polygons`).
 *
 * @example
 * ```ts
 * import { readSceneFile, sceneFilePath, writeSceneFile } from "./scene_file.ts";
 * import assert from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = sceneFilePath(`${dir}/run.bin`);
 * writeSceneFile(path, {
 *   name: "walk",
 *   anchor: { lon: 24.95, lat: 60.17 },
 *   defaultAnchor: false,
 *   bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 },
 *   polygons: [],
 *   polygonHeights: [],
 *   walls: [],
 * });
 * assert.equal(readSceneFile(path).anchor.lat, 60.17);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function readSceneFile(path: string): SceneInfo {
  let scene: SceneInfo;
  try {
    scene = JSON.parse(Deno.readTextFileSync(path));
  } catch (error) {
    throw new Error(`scene file '${path}': ${(error as Error).message.split("\n")[0]}`);
  }
  const s = scene as unknown as Record<string, unknown> | null;
  if (
    !s || typeof s !== "object" || !Array.isArray(s.polygons) || !s.anchor ||
    typeof s.anchor !== "object" || !s.bounds || typeof s.bounds !== "object"
  ) {
    throw new Error(
      `scene file '${path}': expected the viewer's scene (an object with 'anchor', 'bounds' and 'polygons')`,
    );
  }
  return scene;
}

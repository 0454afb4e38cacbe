import assert from "node:assert/strict";
import {
  areaD,
  booleanOpD,
  booleanOpDWithPolyTree,
  ClipType,
  FillRule,
  type PathsD,
  PolyTreeD,
} from "npm:clipper2-ts@2.0.1";
import { Rng } from "../core/rng.ts";
import { polygonsFromPaths } from "./_polygons_from_paths.ts";
import type { PolygonWithHoles } from "./walkable_area.ts";

/** Polygons as sorted text: each ring from its least vertex, holes sorted. */
function canonical(polygons: readonly PolygonWithHoles[]): string[] {
  const ring = (r: readonly (readonly number[])[]) => {
    const s = r.map((p) => `${p[0]},${p[1]}`);
    let k = 0;
    for (let i = 1; i < s.length; i++) if (s[i] < s[k]) k = i;
    return [...s.slice(k), ...s.slice(0, k)].join(" ");
  };
  return polygons.map((p) => [ring(p[0]), ...p.slice(1).map(ring).sort()].join(" | ")).sort();
}

/** Clipper's own polygon tree, flattened the same way. */
function fromTree(paths: PathsD, clip: PathsD): PolygonWithHoles[] {
  const tree = new PolyTreeD();
  booleanOpDWithPolyTree(ClipType.Difference, paths, clip, tree, FillRule.NonZero, 4);
  const out: PolygonWithHoles[] = [];
  const visit = (node: PolyTreeD | ReturnType<PolyTreeD["child"]>): void => {
    for (let i = 0; i < node.count; i++) {
      const outer = node.child(i);
      const rings: [number, number][][] = [outer.poly!.map((p) => [p.x, p.y])];
      for (let j = 0; j < outer.count; j++) {
        const hole = outer.child(j).poly!;
        const ring = hole.map((p): [number, number] => [p.x, p.y]);
        rings.push(areaD(hole) > 0 ? ring.reverse() : ring); // clockwise
        visit(outer.child(j));
      }
      out.push(rings);
    }
  };
  visit(tree);
  return out;
}

Deno.test("holes go to the same outer rings as in Clipper's polygon tree, islands in holes included", () => {
  const rng = new Rng(5);
  const square = (x: number, y: number, s: number) => [
    { x, y },
    { x: x + s, y },
    { x: x + s, y: y + s },
    { x, y: y + s },
  ];
  for (let round = 0; round < 20; round++) {
    // Frames (a square less a smaller one) with islands inside, overlapping at random.
    const subject: PathsD = [], clip: PathsD = [];
    for (let k = 0; k < 12; k++) {
      const x = rng.range(0, 100), y = rng.range(0, 100), s = rng.range(10, 40);
      subject.push(square(x, y, s));
      clip.push(square(x + s / 4, y + s / 4, s / 2));
      subject.push(square(x + (3 * s) / 8, y + (3 * s) / 8, s / 4)); // an island in the hole
    }
    const flat = booleanOpD(ClipType.Difference, subject, clip, FillRule.NonZero, 4);
    const ours = polygonsFromPaths(flat), theirs = fromTree(subject, clip);
    assert.deepEqual(canonical(ours), canonical(theirs));
    assert(ours.some((p) => p.length > 1), "some polygons have holes");
  }
});

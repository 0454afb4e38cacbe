import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { type ObstaclePolygon, ObstacleSet } from "./obstacle_set.ts";
import { VisualField } from "./visual_field.ts";

Deno.test("visual field distances match brute-force rays among random buildings", () => {
  const rng = new Rng(5);
  const polygons: ObstaclePolygon[] = [];
  for (let i = 0; i < 60; i++) {
    const x = rng.range(0, 100), y = rng.range(0, 100), w = rng.range(1, 8), h = rng.range(1, 8);
    polygons.push([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]]);
  }
  const field = new VisualField(ObstacleSet.fromPolygons(polygons, { cellSizeM: 7 }), {
    maxRangeM: 60,
  });
  assert.equal(field.rayOffsets.length, 35);
  assert(Math.abs(field.rayOffsets[34] - field.rayOffsets[0] - (170 * Math.PI) / 180) < 1e-12);
  const out = new Float64Array(35);
  for (let trial = 0; trial < 40; trial++) {
    const x = rng.range(-10, 110), y = rng.range(-10, 110), heading = rng.range(-4, 4);
    const total = field.sample(x, y, heading, out);
    let sum = 0;
    for (let k = 0; k < 35; k++) {
      const a = heading + field.rayOffsets[k], dx = Math.cos(a), dy = Math.sin(a);
      let best = 60;
      for (const [ring] of polygons) {
        for (let i = 0, j = 3; i < 4; j = i++) {
          const [ax, ay] = ring[j], [bx, by] = ring[i];
          const ex = bx - ax, ey = by - ay, denom = dx * ey - dy * ex;
          if (denom === 0) continue;
          const t = ((ax - x) * ey - (ay - y) * ex) / denom;
          const u = ((ax - x) * dy - (ay - y) * dx) / denom;
          if (t >= 0 && u >= 0 && u <= 1 && t < best) best = t;
        }
      }
      assert(Math.abs(out[k] - best) < 1e-9, `ray ${k} from (${x}, ${y}): ${out[k]} vs ${best}`);
      sum += best;
    }
    assert(Math.abs(total - sum) < 1e-6);
  }
  assert.throws(() => field.sample(0, 0, 0, new Float64Array(3)), /must hold 35 distances/);
});

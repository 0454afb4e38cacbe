import assert from "node:assert/strict";
import {
  type Area,
  areaContains,
  areaSize,
  sampleArea,
  trianglesArea,
  validateArea,
} from "./area.ts";
import { Rng } from "./rng.ts";

const AREAS: Area[] = [
  { kind: "point", x: -3, y: 4 },
  { kind: "rect", minX: -10, minY: -2, maxX: -4, maxY: 1 },
  { kind: "circle", x: 5, y: -5, radius: 2 },
  { kind: "capsule", ax: -1, ay: -1, bx: 3, by: 2, radius: 0.5 },
];

Deno.test("area samples always fall inside their area", () => {
  const rng = new Rng(3);
  const p: [number, number] = [0, 0];
  for (const area of AREAS) {
    for (let i = 0; i < 5000; i++) {
      sampleArea(area, rng, p);
      assert(areaContains(area, p[0], p[1]), `${area.kind}: (${p[0]}, ${p[1]})`);
    }
  }
});

Deno.test("area samples are uniform: the share in a sub-region matches its share of the area", () => {
  const rng = new Rng(4);
  const p: [number, number] = [0, 0];
  const n = 40_000;
  // Circle of radius 2: the inner disc of radius 1 holds a quarter of the area.
  let inner = 0;
  for (let i = 0; i < n; i++) {
    sampleArea({ kind: "circle", x: 0, y: 0, radius: 2 }, rng, p);
    if (Math.hypot(p[0], p[1]) < 1) inner++;
  }
  assert(Math.abs(inner / n - 0.25) < 0.01, `${inner / n} in the inner disc`);
  // Capsule along x from 0 to 4, radius 1: the end caps hold π / (8 + π) of the area.
  let caps = 0;
  for (let i = 0; i < n; i++) {
    sampleArea({ kind: "capsule", ax: 0, ay: 0, bx: 4, by: 0, radius: 1 }, rng, p);
    if (p[0] < 0 || p[0] > 4) caps++;
  }
  assert(Math.abs(caps / n - Math.PI / (8 + Math.PI)) < 0.01, `${caps / n} in the caps`);
});

Deno.test("ring sampling puts point i of n at angle 2πi/n", () => {
  const p: [number, number] = [0, 0];
  sampleArea({ kind: "ring", x: 1, y: 1, radius: 2 }, new Rng(1), p, 1, 4);
  assert(Math.abs(p[0] - 1) < 1e-15 && Math.abs(p[1] - 3) < 1e-15);
  assert(areaContains({ kind: "ring", x: 1, y: 1, radius: 2 }, p[0], p[1]));
});

Deno.test("area sizes are in square metres", () => {
  assert.equal(areaSize(AREAS[0]), 0);
  assert.equal(areaSize(AREAS[1]), 18);
  assert.equal(areaSize(AREAS[2]), 4 * Math.PI);
  assert(Math.abs(areaSize(AREAS[3]) - (5 * 1 + Math.PI * 0.25)) < 1e-12);
});

Deno.test("area validation names the field and the rule", () => {
  const check = (area: unknown) => () => validateArea(area as Area, "add spawner 'x'", "area");
  for (const area of AREAS) check(area)();
  assert.throws(
    check({ kind: "rect", minX: 0, minY: 3, maxX: 1, maxY: 3 }),
    /'area.maxY' must be > minY \(3\): current value is 3/,
  );
  assert.throws(check({ kind: "ring", x: 0, y: 0, radius: 0 }), /'area.radius' must be > 0/);
  assert.throws(
    check({ kind: "capsule", ax: 0, ay: 0, bx: Infinity, by: 0, radius: 1 }),
    /'area.bx' must be a finite number/,
  );
  assert.throws(
    check({ kind: "blob" }),
    /'area.kind' must be one of point, rect, circle, capsule, ring, triangles, points: current value is "blob"/,
  );
  assert.throws(check(null), TypeError);
});

Deno.test("triangles and points areas: uniform by area, inside their members", () => {
  const area = trianglesArea(new Float64Array([0, 0, 1, 0, 0, 1, 10, 0, 13, 0, 10, 3]));
  assert.equal(areaSize(area), 0.5 + 4.5);
  const rng = new Rng(3), p: [number, number] = [0, 0];
  let big = 0;
  for (let k = 0; k < 2000; k++) {
    sampleArea(area, rng, p);
    assert(areaContains(area, p[0], p[1]));
    if (p[0] >= 10) big++;
  }
  // 4.5 of the 5 m² lie in the second triangle: 90 % ± 2 %.
  assert(Math.abs(big / 2000 - 0.9) < 0.02, `share ${big / 2000}`);
  const points = { kind: "points" as const, coords: new Float64Array([1, 2, 5, 6]) };
  const seen = new Set<string>();
  for (let k = 0; k < 50; k++) {
    sampleArea(points, rng, p);
    seen.add(p.join(","));
  }
  assert.deepEqual([...seen].sort(), ["1,2", "5,6"]);
  assert.throws(
    () => validateArea({ kind: "points", coords: new Float64Array(0) }, "add spawner 'a'", "area"),
    /'area.coords' must be at least one point/,
  );
});

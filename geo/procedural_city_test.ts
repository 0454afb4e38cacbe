import assert from "node:assert/strict";
import { generateProceduralCity } from "./procedural_city.ts";
import type { CityRing } from "./city_model.ts";

type Box = [number, number, number, number];

function box(ring: CityRing): Box {
  const xs = ring.map((p) => p[0]), ys = ring.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Distance between two axis-aligned boxes (0 when they touch or overlap). */
function boxGap(a: Box, b: Box): number {
  const dx = Math.max(0, a[0] - b[2], b[0] - a[2]);
  const dy = Math.max(0, a[1] - b[3], b[1] - a[3]);
  return Math.hypot(dx, dy);
}

function inside(inner: Box, outer: Box): boolean {
  return inner[0] >= outer[0] - 1e-9 && inner[1] >= outer[1] - 1e-9 &&
    inner[2] <= outer[2] + 1e-9 && inner[3] <= outer[3] + 1e-9;
}

Deno.test("procedural city: the same seed gives the same city, another seed another", () => {
  const a = generateProceduralCity({ seed: 11, blocksX: 3, blocksY: 2 });
  const b = generateProceduralCity({ seed: 11, blocksX: 3, blocksY: 2 });
  const c = generateProceduralCity({ seed: 12, blocksX: 3, blocksY: 2 });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.buildings, c.buildings);
  // The street grid does not depend on the seed.
  assert.deepEqual(a.streets, c.streets);
});

Deno.test("procedural city: the default city has 6 × 6 blocks, 49 intersections, 84 streets", () => {
  const city = generateProceduralCity();
  assert.equal(city.blocks!.length, 36);
  assert.equal(city.streets.nodes.length, 49);
  assert.equal(city.streets.edges.length, 84);
  // Crosswalks on the arms with a block on both sides: 2 × 6 × 5 per direction.
  assert.equal(city.crossings.length, 120);
  // Lights wherever three or four streets meet: all but the four ring-road corners.
  assert.equal(city.signals.length, 45);
  for (const edge of city.streets.edges) {
    assert.equal(edge.lanes, 4);
    assert.equal(edge.width, 14);
    assert(edge.carriageway && !edge.oneway);
  }
  // Every building is on exactly one block, and every block lists its own.
  const owners = new Array(city.buildings.length).fill(0);
  for (const block of city.blocks!) {
    const outer = box(block.polygon[0]);
    for (const b of block.buildings) {
      owners[b]++;
      assert(inside(box(city.buildings[b].polygon[0]), outer));
    }
  }
  assert(owners.every((n) => n === 1));
  assert(city.buildings.length > 36 * 4, `only ${city.buildings.length} buildings`);
});

Deno.test("procedural city: buildings and furniture keep at least two pedestrian widths apart", () => {
  for (const seed of [1, 2, 3]) {
    const city = generateProceduralCity({
      seed,
      blocksX: 2,
      blocksY: 2,
      buildingGap: 1.2,
      pedestrianWidth: 0.6,
      treesPerSide: 8,
      benchesPerSide: 4,
    });
    const boxes = [
      ...city.buildings.map((b) => box(b.polygon[0])),
      ...city.furniture.map((f) => box(f.polygon)),
    ];
    let closest = Infinity;
    for (let a = 0; a < boxes.length; a++) {
      for (let b = a + 1; b < boxes.length; b++) {
        closest = Math.min(closest, boxGap(boxes[a], boxes[b]));
      }
    }
    assert(closest >= 1.2 - 1e-9, `seed ${seed}: two obstacles ${closest} m apart`);
    // Every building is at least the smallest size and at most the largest.
    for (const b of city.buildings) {
      const [x0, y0, x1, y1] = box(b.polygon[0]);
      assert(x1 - x0 >= 8 - 1e-9 && y1 - y0 >= 8 - 1e-9 && x1 - x0 <= 30 + 1e-9);
      const [ex, ey] = b.entrance!;
      assert(ex === x0 || ex === x1 || ey === y0 || ey === y1, "entrance on the outline");
    }
  }
});

Deno.test("procedural city: furniture stands in the kerb strip and leaves the sidewalk walkable", () => {
  const city = generateProceduralCity({ seed: 5, blocksX: 2, blocksY: 2 });
  const kinds = new Set(city.furniture.map((f) => f.kind));
  assert.deepEqual([...kinds].sort(), ["bench", "light", "signal", "tree"]);
  for (const block of city.blocks!) {
    const [x0, y0, x1, y1] = box(block.polygon[0]);
    for (const f of city.furniture) {
      const [fx0, fy0, fx1, fy1] = box(f.polygon);
      if (fx0 < x0 || fx1 > x1 || fy0 < y0 || fy1 > y1) continue; // another block
      // Within 1.4 m of some kerb, so 3.5 − 1.4 = 2.1 m of sidewalk stay clear.
      const fromKerb = Math.min(fx0 - x0, x1 - fx1, fy0 - y0, y1 - fy1);
      const depth = Math.max(fx1 - fx0, fy1 - fy0);
      assert(fromKerb >= 0.15 && fromKerb + Math.min(depth, 1.2) <= 1.4 + 1e-9, f.id);
    }
  }
  // Signal posts only at the 5 lit intersections' block corners: 4 + 4 × 2 (T-junctions) = 12.
  assert.equal(city.furniture.filter((f) => f.kind === "signal").length, 12);
});

Deno.test("procedural city: each crosswalk joins the kerbs of two blocks across its street", () => {
  const city = generateProceduralCity({ seed: 3, blocksX: 3, blocksY: 3 });
  const blocks = city.blocks!.map((b) => box(b.polygon[0]));
  const onKerb = (x: number, y: number) =>
    blocks.findIndex(([x0, y0, x1, y1]) =>
      x >= x0 - 1e-9 && x <= x1 + 1e-9 && y >= y0 - 1e-9 && y <= y1 + 1e-9
    );
  for (const c of city.crossings) {
    const [a, b] = c.points;
    const ka = onKerb(a[0], a[1]), kb = onKerb(b[0], b[1]);
    assert(ka >= 0 && kb >= 0 && ka !== kb, `${c.id} joins blocks ${ka} and ${kb}`);
    assert.equal(Math.hypot(b[0] - a[0], b[1] - a[1]), 14); // the road width
    const edge = city.streets.edges[c.edge!];
    assert(edge.from === c.node || edge.to === c.node, `${c.id} lies on an arm of its node`);
    // Just outside the intersection: 7 m (half the road) + 1.5 m (half the crosswalk).
    const node = city.streets.nodes[c.node!];
    const along = Math.max(Math.abs(c.x - node.x), Math.abs(c.y - node.y));
    assert.equal(along, 8.5);
  }
});

Deno.test("procedural city: inconsistent options are refused with the option's name", () => {
  assert.throws(
    () => generateProceduralCity({ buildingGap: 1, pedestrianWidth: 0.6 }),
    /'buildingGap' must be >= 2 × pedestrianWidth \(1.2 m\): current value is 1/,
  );
  assert.throws(() => generateProceduralCity({ lanes: 3 }), /'lanes' must be even/);
  assert.throws(() => generateProceduralCity({ lanes: 6, roadWidth: 12 }), /'roadWidth'/);
  assert.throws(() => generateProceduralCity({ sidewalkWidth: 2 }), /'sidewalkWidth'/);
  assert.throws(() => generateProceduralCity({ blocksX: 0 }), RangeError);
});

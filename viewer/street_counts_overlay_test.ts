import assert from "node:assert/strict";
import { World } from "../core/world.ts";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import { createStreetWalker } from "../navigation/street_navigators.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { availableOverlays, DebugOverlayBuilder } from "./debug_overlays.ts";
import { STREET_COUNT_RAMP, streetCountColor } from "./street_counts_overlay.ts";

Deno.test("the streets overlay colours every street by its live count, busiest darkest", () => {
  const city = generateProceduralCity({ blocksX: 3, blocksY: 3, furniture: false });
  const navigator = createStreetWalker("affordance", {}, { city });
  const world = new World({ strategy: createNoneStrategy(), navigator });
  // More walkers than the per-agent overlays draw: the heat map is drawn all the same.
  for (let k = 0; k < 400; k++) {
    const n = city.streets.nodes[k % city.streets.nodes.length];
    world.addAgent({ x: n.x + 2, y: n.y + 1 });
  }
  assert.ok(availableOverlays(world).includes("streets"));
  const builder = new DebugOverlayBuilder();
  builder.watchStreets(world);
  const walkable = city.streets.edges.filter((e) => e.walkable);
  const pieces = walkable.reduce((sum, e) => sum + e.points.length - 1, 0);
  const colours = () => {
    const n = builder.build(world, ["streets"], null);
    assert.equal(n, pieces);
    return Array.from(builder.colors.subarray(0, 4 * n));
  };
  const before = colours();
  // No walker counted yet: every street the ramp's first colour.
  for (let k = 0; k < before.length; k += 4) {
    assert.deepEqual(before.slice(k, k + 4), [...STREET_COUNT_RAMP[0]]);
  }
  for (let s = 0; s < 1200; s++) world.step();
  const after = colours();
  const busiest = streetCountColor(1);
  let dark = 0;
  for (let k = 0; k < after.length; k += 4) {
    if (after.slice(k, k + 4).every((v, c) => v === busiest[c])) dark++;
  }
  assert.ok(dark >= 1, "the busiest street has the ramp's last colour");
  assert.ok(new Set(after.map((_, k) => k % 4 === 0 ? after.slice(k, k + 4).join() : "")).size > 4);
  // Other navigators offer no street heat map.
  assert.ok(!availableOverlays(new World({ strategy: createNoneStrategy() })).includes("streets"));
});

Deno.test("the heat map's ramp runs from pale yellow to dark blue", () => {
  assert.deepEqual(streetCountColor(0), [...STREET_COUNT_RAMP[0]]);
  assert.deepEqual(streetCountColor(1), [...STREET_COUNT_RAMP[STREET_COUNT_RAMP.length - 1]]);
  assert.deepEqual(streetCountColor(2), streetCountColor(1));
  const mid = streetCountColor(0.5);
  assert.deepEqual(mid, [...STREET_COUNT_RAMP[2]]);
});

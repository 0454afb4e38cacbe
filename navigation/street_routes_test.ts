import assert from "node:assert/strict";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import { JunctionAffordance } from "./junction_affordance.ts";
import { StreetRoutes } from "./street_routes.ts";

// A 6 × 6 grid of equal blocks: between opposite corners every monotone staircase is shortest.
const city = generateProceduralCity({ seed: 1, blocksX: 6, blocksY: 6 });
const slots = JunctionAffordance.fromCity(city);
const lengths = Float64Array.from(city.streets.edges, (e) => e.length);

/** The street edges of the route from `from` to `to` under `variant`, in order. */
function route(routes: StreetRoutes, from: number, to: number, variant: number): number[] {
  const edges: number[] = [];
  for (let at = from; at !== to;) {
    const s = routes.nextSlot(at, to, variant);
    assert(s >= 0, `no route from ${from} to ${to}`);
    edges.push(slots.slotEdge[s]);
    at = slots.slotNeighbour[s];
  }
  return edges;
}

/** The grid's two opposite corner junctions. */
function corners(): [number, number] {
  let a = 0, b = 0;
  city.streets.nodes.forEach((n, i) => {
    const p = city.streets.nodes[a], q = city.streets.nodes[b];
    if (n.x + n.y < p.x + p.y) a = i;
    if (n.x + n.y > q.x + q.y) b = i;
  });
  return [a, b];
}

Deno.test("route variants spread trips over near-equal routes; without spread all take one", () => {
  const [from, to] = corners();
  const shortest = new StreetRoutes(slots, lengths);
  const best = shortest.distance(from, to);
  const one = new Set<string>();
  for (let v = 0; v < 8; v++) one.add(route(shortest, from, to, v).join(","));
  assert.equal(one.size, 1, "without spread every variant is the shortest route");

  const spread = new StreetRoutes(slots, lengths, { spread: 0.3, variants: 8 });
  assert.equal(spread.variants, 8);
  const routes = new Set<string>();
  for (let v = 0; v < 8; v++) {
    routes.add(route(spread, from, to, v).join(","));
    // Near-equal: on this grid every variant stays on a shortest staircase or close to it.
    assert(
      spread.distance(from, to, v) <= 1.2 * best,
      `variant ${v}: ${spread.distance(from, to, v)} vs ${best}`,
    );
  }
  assert(routes.size >= 5, `${routes.size} distinct routes of 8 variants`);
  // The same variant gives the same route again (a walker keeps its route for the trip).
  const again = new StreetRoutes(slots, lengths, { spread: 0.3, variants: 8 });
  for (let v = 0; v < 8; v++) {
    assert.equal(route(again, from, to, v).join(","), route(spread, from, to, v).join(","));
  }
});

Deno.test("bad route options are refused with the field's name", () => {
  assert.throws(() => new StreetRoutes(slots, lengths, { spread: -1 }), /'spread' must be/);
  assert.throws(() => new StreetRoutes(slots, lengths, { spread: 0.3, variants: 0 }), /'variants'/);
});

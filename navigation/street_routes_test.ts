import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import { JunctionAffordance } from "./junction_affordance.ts";
import { StreetRoutes } from "./street_routes.ts";

// A 6 × 6 grid of equal blocks: between opposite corners every monotone staircase is shortest.
const city = generateProceduralCity({ seed: 1, blocksX: 6, blocksY: 6 });
const slots = JunctionAffordance.fromCity(city);
const lengths = Float64Array.from(city.streets.edges, (e) => e.length);

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

/** Walks from `from` to `to` by `next` at each junction; the streets taken and the length. */
function walk(from: number, to: number, next: (at: number) => number): [string, number] {
  const edges: number[] = [];
  let length = 0;
  for (let at = from, hops = 0; at !== to; hops++) {
    assert(hops < slots.nodeCount, "the walk loops");
    const s = next(at);
    assert(s >= 0, `no street from ${at}`);
    edges.push(slots.slotEdge[s]);
    length += lengths[slots.slotEdge[s]];
    at = slots.slotNeighbour[s];
  }
  return [edges.join(","), length];
}

Deno.test("spread routes: walkers take many near-equal routes, never loop, and arrive", () => {
  const [from, to] = corners();
  const routes = new StreetRoutes(slots, lengths, { distances: true });
  const best = routes.distance(from, to);
  const [shortest] = walk(from, to, (at) => routes.nextSlot(at, to));
  const rng = new Rng(1);
  const seen = new Set<string>();
  for (let k = 0; k < 50; k++) {
    const [route, length] = walk(from, to, (at) => routes.spreadSlot(at, to, 20, rng.next()));
    seen.add(route);
    // On the grid every street that leads nearer is on a shortest staircase.
    assert(Math.abs(length - best) < 1e-6 * best, `${length} vs ${best}`);
  }
  assert(seen.size >= 20, `${seen.size} distinct routes of 50 walks`);
  // No spread: the shortest route's table.
  const [none] = walk(from, to, (at) => routes.spreadSlot(at, to, 0, rng.next()));
  assert.equal(none, shortest);
});

Deno.test("spread routes never take a street that leads away from the destination", () => {
  // From a corner to the middle of the far side: the detours differ.
  const [from] = corners();
  const to = slots.slotNeighbour[slots.slotStart[from]];
  const routes = new StreetRoutes(slots, lengths, { distances: true });
  const rng = new Rng(2);
  let direct = 0;
  for (let k = 0; k < 200; k++) {
    if (routes.spreadSlot(from, to, 20, rng.next()) === slots.slotStart[from]) direct++;
  }
  // The neighbour one block away: the other streets lead away from it, so never taken.
  assert.equal(direct, 200);
});

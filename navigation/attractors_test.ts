import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { World } from "../core/world.ts";
import type { CityAttractor, CityModel } from "../geo/city_model.ts";
import { StreetCounts } from "../metrics/street_counts.ts";
import { buildScenario } from "../scenarios/build.ts";
import { cityWalkScenario } from "../scenarios/city_walk.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { strategies } from "../strategies/mod.ts";
import { syntheticCity } from "./_synthetic_city.ts";
import { AttractorGuidance } from "./attractor_guidance.ts";
import {
  attractorSummary,
  attractorWeights,
  DEFAULT_ATTRACTOR_WEIGHTS,
} from "./attractor_weights.ts";
import { navigators } from "./mod.ts";
import { StreetGuidance } from "./street_guidance.ts";
import { createStreetWalker } from "./street_navigators.ts";
import { streetPlacement } from "./street_placement.ts";
import { STREET_COLUMNS, type StreetChoiceRule, type StreetWalker } from "./street_walker.ts";

const CITY = syntheticCity({ sizeM: 800, spacingM: 80, seed: 3 });
const UNEVEN = StreetGuidance.fromCity(CITY);

function walkers(
  guidance: StreetGuidance,
  rule: StreetChoiceRule,
  count: number,
  options: Record<string, unknown> = {},
): { world: World; navigator: StreetWalker } {
  const navigator = createStreetWalker(rule, options, {
    city: guidance.city,
    streetGuidance: guidance,
  });
  const world = new World({ strategy: createNoneStrategy(), navigator, seed: 1 });
  const points = streetPlacement(guidance, count, { mode: "uniform", rng: new Rng(1) });
  for (let k = 0; k < count; k++) world.addAgent({ x: points[2 * k], y: points[2 * k + 1] });
  return { world, navigator };
}

const base = { id: "n/1", x: 0, y: 0, name: null, floorArea: 0 };

Deno.test("attractor weights follow the table, key=value before key, and overrides win", () => {
  const w = attractorWeights([
    { ...base, key: "railway", value: "station" },
    { ...base, key: "railway", value: "level_crossing" },
    { ...base, key: "shop", value: "bakery" },
    { ...base, key: "shop", value: "department_store" },
    { ...base, key: "amenity", value: "cafe" },
    { ...base, key: "building", value: "office", floorArea: 5000 },
  ], { weights: { "shop": 3, "railway=station": 40 } });
  assert.deepEqual(Array.from(w), [40, 0, 3, 20, 1, 5]);
  assert.equal(DEFAULT_ATTRACTOR_WEIGHTS["railway=station"], 100);
  const none = attractorWeights([{ ...base, key: "building", value: "yes", floorArea: 5000 }], {
    floorAreaWeightPerM2: 0,
  });
  assert.equal(none[0], 0);
  assert.throws(
    () => attractorWeights([], { weights: { shop: -1 } }),
    /'shop' must be a number >= 0: current value is -1/,
  );
  assert.throws(
    () => navigators.create("attractors", { attractorWeights: { shop: "many" } }, { city: CITY }),
    /attractorWeights.*'shop' must be a number >= 0/,
  );
});

Deno.test("attractor walkers choose streets in proportion to share × (1 + β·attraction)^γ", () => {
  const { world, navigator } = walkers(UNEVEN, "attractors", 3000, { attraction: 2 });
  const g = navigator.attractors!, aff = UNEVEN.affordance;
  assert.ok(g.active);
  // The attraction differs between the streets of a junction, so the rule is not the share's.
  let differ = 0;
  for (let s = 0; s < aff.slotEdge.length; s++) {
    if (aff.slotShare[s] > 0 && Math.abs(g.slotChoice[s] / aff.slotShare[s] - 3) > 0.5) differ++;
  }
  assert.ok(differ > aff.slotEdge.length / 4, `${differ} slots far from the mean attraction`);
  const a = world.agents;
  const taken = new Float64Array(5), chance = new Float64Array(5), seen = new Float64Array(5);
  let choices = 0, llRule = 0, llShare = 0;
  const prob = (node: number, from: number, slot: number, w: Float64Array) => {
    if (aff.slotNeighbour[slot] === from) return 0;
    let total = 0, open = 0;
    for (let s = aff.slotStart[node]; s < aff.slotStart[node + 1]; s++) {
      if (aff.slotNeighbour[s] === from) continue;
      total += w[s];
      open++;
    }
    return total > 0 ? w[slot] / total : 1 / open;
  };
  for (let step = 0; step < 800; step++) {
    const before = Int32Array.from(a.column<Int32Array>(STREET_COLUMNS.from).subarray(0, a.count));
    world.step();
    const from = a.column<Int32Array>(STREET_COLUMNS.from);
    const edge = a.column<Int32Array>(STREET_COLUMNS.edge);
    for (let i = 0; i < a.count; i++) {
      const node = from[i];
      if (node === before[i] || before[i] < 0 || edge[i] < 0 || step === 0) continue;
      let slot = -1;
      for (let k = aff.slotStart[node]; k < aff.slotStart[node + 1]; k++) {
        if (aff.slotEdge[k] === edge[i]) slot = k;
      }
      if (slot < 0 || aff.slotStart[node + 1] - aff.slotStart[node] < 2) continue;
      choices++;
      for (let s = aff.slotStart[node]; s < aff.slotStart[node + 1]; s++) {
        const p = prob(node, before[i], s, g.slotChoice);
        if (p <= 0) continue;
        const bin = Math.min(4, Math.floor(p * 5));
        seen[bin]++;
        chance[bin] += p;
        if (s === slot) taken[bin]++;
      }
      llRule += Math.log(Math.max(1e-9, prob(node, before[i], slot, g.slotChoice)));
      llShare += Math.log(Math.max(1e-9, prob(node, before[i], slot, aff.slotShare)));
    }
  }
  assert.ok(choices > 1500, `${choices} choices`);
  let bins = 0;
  for (let b = 0; b < 5; b++) {
    if (seen[b] < 200) continue;
    bins++;
    const gap = Math.abs(taken[b] / seen[b] - chance[b] / seen[b]);
    assert.ok(gap < 0.05, `bin ${b}: taken ${taken[b] / seen[b]}, expected ${chance[b] / seen[b]}`);
  }
  assert.ok(bins >= 3, `${bins} probability bins`);
  assert.ok(llRule > llShare, `log-likelihood ${llRule} by the rule, ${llShare} by share alone`);
});

Deno.test("a city without points of interest falls back to visibility alone, and says so", () => {
  const city: CityModel = {
    ...CITY,
    attractors: CITY.attractors.filter((a) => a.key === "building"),
  };
  const guidance = StreetGuidance.fromCity(city);
  const navigator = createStreetWalker("attractors", {}, { city, streetGuidance: guidance });
  assert.match(navigator.notice!, /no points of interest mapped: .*visibility alone/);
  assert.equal(navigator.attractors!.active, false);
  assert.deepEqual(navigator.attractors!.slotChoice, guidance.affordance.slotShare);
  // β = 0 is the visibility rule too, on a city with points of interest.
  const g = new AttractorGuidance(CITY, UNEVEN.affordance, UNEVEN.squares, { attraction: 0 });
  assert.deepEqual(g.slotChoice, UNEVEN.affordance.slotShare);
  assert.ok(attractorSummary(CITY.attractors, g.weights).pointsOfInterest > 0);
});

Deno.test("square walkers weigh the directions of attractors in view more", () => {
  const plaza = [[[-30, -30], [30, -30], [30, 30], [-30, 30]]] as const;
  const kiosk: CityAttractor = { ...base, key: "shop", value: "kiosk", x: 20, y: 0 };
  const city: CityModel = {
    ...syntheticCity({ sizeM: 400, spacingM: 80 }),
    buildings: [],
    attractors: [kiosk],
    pedestrianAreas: [{ id: "way/1", polygon: plaza, kind: "place=square", name: null }],
  };
  const guidance = StreetGuidance.fromCity(city);
  const g = new AttractorGuidance(city, guidance.affordance, guidance.squares);
  const field = guidance.squares.field, rays = field.rayOffsets.length;
  const plain = new Float64Array(rays), weighed = new Float64Array(rays);
  field.sample(0, 0, 0, plain);
  field.sample(0, 0, 0, weighed);
  g.weighRays(0, 0, 0, weighed);
  const ahead = field.rayOffsets.reduce(
    (best, o, k) => Math.abs(o) < Math.abs(field.rayOffsets[best]) ? k : best,
    0,
  );
  assert.ok(weighed[ahead] > 1.5 * plain[ahead], `ahead ${weighed[ahead]} against ${plain[ahead]}`);
  for (let k = 0; k < rays; k++) {
    if (k !== ahead) assert.equal(weighed[k], plain[k]);
  }
  // Facing away, the kiosk is out of the field of view: nothing changes.
  field.sample(0, 0, Math.PI, plain);
  field.sample(0, 0, Math.PI, weighed);
  g.weighRays(0, 0, Math.PI, weighed);
  assert.deepEqual(weighed, plain);
});

Deno.test("trip walkers go between public transport and destinations drawn by weight", () => {
  // One station in the middle of the city: half the trips from a destination end there.
  const station: CityAttractor = { ...base, key: "railway", value: "station", x: 0, y: 0 };
  const city: CityModel = { ...CITY, attractors: [...CITY.attractors, station] };
  const guidance = StreetGuidance.fromCity(city);
  const count = 400;
  const { world, navigator } = walkers(guidance, "trips", count);
  assert.match(navigator.notice!, /1 public transport nodes/);
  const a = world.agents;
  const lanes = guidance.lanes;
  let stationNode = 0, best = Infinity;
  for (let v = 0; v < lanes.nodeCount; v++) {
    const d = Math.hypot(lanes.nodeX[v], lanes.nodeY[v]);
    if (d < best) [stationNode, best] = [v, d];
  }
  world.step();
  let last = Int32Array.from(a.column<Int32Array>(STREET_COLUMNS.destination).subarray(0, count));
  const first = last.filter((d) => d === stationNode).length / count;
  let legs = 0, toStation = 0, afterStation = 0, stationTwice = 0;
  for (let s = 0; s < 14400; s++) {
    world.step();
    const d = a.column<Int32Array>(STREET_COLUMNS.destination);
    for (let i = 0; i < count; i++) {
      if (d[i] === last[i]) continue;
      legs++;
      if (d[i] === stationNode) toStation++;
      if (last[i] === stationNode) {
        afterStation++;
        if (d[i] === stationNode) stationTwice++;
      }
    }
    last = Int32Array.from(d.subarray(0, count));
  }
  // First trips: to the station with probability transportShare = 0.5.
  assert.ok(Math.abs(first - 0.5) < 0.08, `first trips to the station ${first}`);
  // Afterwards legs alternate: p / (1 + p) = 1/3 of them end at the station.
  assert.ok(legs > 500, `${legs} legs`);
  assert.ok(Math.abs(toStation / legs - 1 / 3) < 0.08, `legs to the station ${toStation / legs}`);
  assert.ok(afterStation > 50 && stationTwice === 0, "from the station, trips go elsewhere");
  // The station's junction is far busier than under trips between random buildings.
  const passages = (rule: StreetChoiceRule) => {
    const w = walkers(guidance, rule, count).world;
    const counts = new StreetCounts(city, { fromStep: 600 });
    w.addObserver(counts);
    for (let s = 0; s < 7200; s++) w.step();
    return counts.nodeCounts[stationNode] / counts.total;
  };
  const trips = passages("trips"), random = passages("shortest-path");
  assert.ok(trips > 2 * random, `station's share of passages: trips ${trips}, shortest ${random}`);
});

Deno.test("a scenario file overrides attractor weights through the navigator's options", () => {
  const { spec, resources } = cityWalkScenario(UNEVEN, { agents: 20 });
  const withOptions = {
    ...spec,
    navigator: { name: "attractors", options: { attractorWeights: { shop: 0, office: 7 } } },
  };
  const built = buildScenario(withOptions, { registry: strategies, resources });
  const g = (built.world.navigator as StreetWalker).attractors!;
  CITY.attractors.forEach((a, k) => {
    if (a.key === "shop") assert.equal(g.weights[k], 0);
    if (a.key === "office") assert.equal(g.weights[k], 7);
  });
  assert.ok(CITY.attractors.some((a) => a.key === "shop" || a.key === "office"));
  const bad = { ...spec, navigator: { name: "attractors", options: { attraction: -1 } } };
  assert.throws(
    () => buildScenario(bad, { registry: strategies, resources }),
    /attraction.*>= 0/,
  );
});

Deno.test("walkers placed by attractors start near the heaviest attractors", () => {
  const station: CityAttractor = { ...base, key: "railway", value: "station", x: 0, y: 0 };
  const city: CityModel = { ...CITY, attractors: [...CITY.attractors, station] };
  const guidance = StreetGuidance.fromCity(city);
  const near = (mode: "attractors" | "uniform") => {
    const points = streetPlacement(guidance, 4000, { mode, rng: new Rng(5) });
    let n = 0;
    for (let k = 0; k < points.length; k += 2) {
      if (Math.hypot(points[k], points[k + 1]) < 60) n++;
    }
    return n / 4000;
  };
  const byAttractors = near("attractors"), uniform = near("uniform");
  assert.ok(byAttractors > 3 * uniform, `near the station: ${byAttractors} against ${uniform}`);
  // A city without weighted attractors: placed uniformly.
  const bare = StreetGuidance.fromCity({ ...CITY, attractors: [] });
  const a = streetPlacement(bare, 50, { mode: "attractors", rng: new Rng(2) });
  const u = streetPlacement(bare, 50, { mode: "uniform", rng: new Rng(2) });
  assert.deepEqual(a, u);
});

Deno.test("a morning peak: walkers placed by public transport start there and walk to destinations", () => {
  const station: CityAttractor = { ...base, key: "railway", value: "station", x: 0, y: 0 };
  const city: CityModel = { ...CITY, attractors: [...CITY.attractors, station] };
  const guidance = StreetGuidance.fromCity(city);
  const count = 300;
  const points = streetPlacement(guidance, count, { mode: "transport", rng: new Rng(4) });
  let near = 0;
  for (let k = 0; k < points.length; k += 2) {
    if (Math.hypot(points[k], points[k + 1]) < 60) near++;
  }
  assert.equal(near, count, `${near} of ${count} placed within 60 m of the only station`);
  const navigator = createStreetWalker("trips", {}, { city, streetGuidance: guidance });
  const world = new World({ strategy: createNoneStrategy(), navigator, seed: 1 });
  for (let k = 0; k < count; k++) world.addAgent({ x: points[2 * k], y: points[2 * k + 1] });
  world.step();
  const lanes = guidance.lanes;
  const d = world.agents.column<Int32Array>(STREET_COLUMNS.destination);
  let toStation = 0, far = 0;
  for (let i = 0; i < count; i++) {
    if (Math.hypot(lanes.nodeX[d[i]], lanes.nodeY[d[i]]) < 1) toStation++;
    if (Math.hypot(lanes.nodeX[d[i]], lanes.nodeY[d[i]]) > 150) far++;
  }
  // From the station every first trip goes to a destination elsewhere.
  assert.equal(toStation, 0);
  assert.ok(far > 0.8 * count, `${far} of ${count} head more than 150 m away`);
  // Without public transport mapped, the placement follows all attractors instead.
  const bare = StreetGuidance.fromCity(CITY);
  assert.deepEqual(
    streetPlacement(bare, 50, { mode: "transport", rng: new Rng(2) }),
    streetPlacement(bare, 50, { mode: "attractors", rng: new Rng(2) }),
  );
});

import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { World } from "../core/world.ts";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import { StreetCounts } from "../metrics/street_counts.ts";
import { correlateCounts } from "../metrics/count_correlation.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { syntheticCity } from "./_synthetic_city.ts";
import { StreetGuidance } from "./street_guidance.ts";
import { createStreetWalker } from "./street_navigators.ts";
import { type StreetPlacement, streetPlacement } from "./street_placement.ts";
import { STREET_COLUMNS, type StreetChoiceRule, type StreetWalker } from "./street_walker.ts";

/** A jittered city with avenues and missing streets: junctions with unequal views. */
const UNEVEN = StreetGuidance.fromCity(syntheticCity({ sizeM: 800, spacingM: 80, seed: 3 }));
/** A regular city of 40 m blocks. */
const GRID = StreetGuidance.fromCity(generateProceduralCity({ blockSize: 40, furniture: false }));

function walkers(
  guidance: StreetGuidance,
  rule: StreetChoiceRule,
  count: number,
  options: { placement?: StreetPlacement; seed?: number } = {},
): { world: World; navigator: StreetWalker } {
  const navigator = createStreetWalker(rule, {}, { city: guidance.city, streetGuidance: guidance });
  const world = new World({ strategy: createNoneStrategy(), navigator, seed: options.seed ?? 1 });
  const points = streetPlacement(guidance, count, {
    mode: options.placement ?? "uniform",
    rng: new Rng(options.seed ?? 1),
  });
  for (let k = 0; k < count; k++) world.addAgent({ x: points[2 * k], y: points[2 * k + 1] });
  return { world, navigator };
}

/**
 * Every junction passed, as the choice made there: the junction, the one come from, and the slot
 * of the street taken (read from the walkers' last-junction and street columns).
 */
function recordChoices(world: World, steps: number): [number, number, number][] {
  const a = world.agents, choices: [number, number, number][] = [];
  const aff = (world.navigator as StreetWalker).guidance.affordance;
  for (let s = 0; s < steps; s++) {
    const before = Int32Array.from(a.column<Int32Array>(STREET_COLUMNS.from).subarray(0, a.count));
    world.step();
    const from = a.column<Int32Array>(STREET_COLUMNS.from);
    const edge = a.column<Int32Array>(STREET_COLUMNS.edge);
    for (let i = 0; i < a.count; i++) {
      const node = from[i];
      if (node === before[i] || before[i] < 0 || edge[i] < 0 || s === 0) continue;
      for (let k = aff.slotStart[node]; k < aff.slotStart[node + 1]; k++) {
        if (aff.slotEdge[k] === edge[i]) {
          choices.push([node, before[i], k]);
          break;
        }
      }
    }
  }
  return choices;
}

/**
 * Calibration of observed choices against `expected` probabilities: every street a walker could
 * have taken is binned by its expected probability (bins 0.2 wide), and in each bin with 200
 * candidates or more the share actually taken is compared with the mean expected probability.
 * Returns the largest gap and the mean log-likelihood of the choices made.
 */
function calibration(
  choices: [number, number, number][],
  guidance: StreetGuidance,
  expected: (node: number, from: number, slot: number) => number,
): { worstGap: number; bins: number; logLikelihood: number } {
  const aff = guidance.affordance;
  const taken = new Float64Array(5), chance = new Float64Array(5), seen = new Float64Array(5);
  let logLikelihood = 0;
  for (const [node, from, slot] of choices) {
    for (let s = aff.slotStart[node]; s < aff.slotStart[node + 1]; s++) {
      const p = expected(node, from, s);
      if (p <= 0) continue;
      const bin = Math.min(4, Math.floor(p * 5));
      seen[bin]++;
      chance[bin] += p;
      if (s === slot) taken[bin]++;
    }
    logLikelihood += Math.log(Math.max(1e-9, expected(node, from, slot)));
  }
  let worstGap = 0, bins = 0;
  for (let b = 0; b < 5; b++) {
    if (seen[b] < 200) continue;
    bins++;
    worstGap = Math.max(worstGap, Math.abs(taken[b] / seen[b] - chance[b] / seen[b]));
  }
  return { worstGap, bins, logLikelihood: logLikelihood / choices.length };
}

/** Probability of each open street but the one back, by share or alike. */
function ruleProbability(guidance: StreetGuidance, byShare: boolean) {
  const aff = guidance.affordance;
  return (node: number, from: number, slot: number) => {
    if (aff.slotNeighbour[slot] === from) return 0;
    let total = 0, open = 0;
    for (let s = aff.slotStart[node]; s < aff.slotStart[node + 1]; s++) {
      if (aff.slotNeighbour[s] === from) continue;
      total += aff.slotShare[s];
      open++;
    }
    // Junctions without a viewshed (way splits) have no shares: every street alike.
    return byShare && total > 0 ? aff.slotShare[slot] / total : 1 / open;
  };
}

Deno.test("affordance walkers choose streets in proportion to their visible share, never back", () => {
  const { world } = walkers(UNEVEN, "affordance", 3000);
  const choices = recordChoices(world, 800);
  assert.ok(choices.length > 1500, `${choices.length} choices`);
  const aff = UNEVEN.affordance;
  for (const [node, from, slot] of choices) {
    if (aff.slotNeighbour[slot] !== from) continue;
    // Only where every other street is closed: a dead end.
    const degree = aff.slotStart[node + 1] - aff.slotStart[node];
    assert.equal(degree, 1, `turned back to ${from} at junction ${node} of ${degree} streets`);
  }
  const byShare = calibration(choices, UNEVEN, ruleProbability(UNEVEN, true));
  const alike = calibration(choices, UNEVEN, ruleProbability(UNEVEN, false));
  assert.ok(byShare.bins >= 3, `${byShare.bins} probability bins`);
  assert.ok(byShare.worstGap < 0.05, `taken against expected share: ${byShare.worstGap}`);
  assert.ok(byShare.logLikelihood > alike.logLikelihood, "shares explain the choices better");
});

Deno.test("random walkers choose every open street alike", () => {
  const { world } = walkers(UNEVEN, "random-walk", 3000);
  const choices = recordChoices(world, 800);
  const alike = calibration(choices, UNEVEN, ruleProbability(UNEVEN, false));
  const byShare = calibration(choices, UNEVEN, ruleProbability(UNEVEN, true));
  assert.ok(alike.bins >= 2, `${alike.bins} probability bins`);
  assert.ok(alike.worstGap < 0.05, `taken against equal chances: ${alike.worstGap}`);
  assert.ok(
    alike.logLikelihood > byShare.logLikelihood,
    "equal chances explain the choices better",
  );
});

Deno.test("walkers never choose a blocked street, and the block recomputes only nearby junctions", () => {
  const guidance = StreetGuidance.fromCity(
    generateProceduralCity({ blockSize: 40, furniture: false }),
  );
  const { world, navigator } = walkers(guidance, "affordance", 1500);
  const edge = guidance.city.streets.edges.find((e) =>
    guidance.affordance.hasViewshed[e.from] && guidance.affordance.hasViewshed[e.to]
  )!;
  const recomputed = navigator.blockStreet(edge.index);
  assert.ok(recomputed.length > 0 && recomputed.length < guidance.affordance.nodeCount);
  const blockedSlots = new Set<number>();
  const aff = guidance.affordance;
  for (let s = 0; s < aff.slotEdge.length; s++) {
    if (aff.slotEdge[s] === edge.index) blockedSlots.add(s);
  }
  const choices = recordChoices(world, 600);
  assert.ok(choices.length > 500);
  assert.ok(choices.every(([, , slot]) => !blockedSlots.has(slot)), "a blocked street was chosen");
  navigator.openStreet(edge.index);
  assert.ok(recordChoices(world, 600).some(([, , slot]) => blockedSlots.has(slot)), "open again");
});

Deno.test("shortest-path walkers reach their destinations one after another", () => {
  const { world } = walkers(GRID, "shortest-path", 200);
  const a = world.agents;
  const reached = new Set<number>();
  let last = Int32Array.from(a.column<Int32Array>(STREET_COLUMNS.destination).subarray(0, 200));
  for (let s = 0; s < 3600; s++) {
    world.step();
    const d = a.column<Int32Array>(STREET_COLUMNS.destination);
    for (let i = 0; i < 200; i++) if (last[i] >= 0 && d[i] !== last[i]) reached.add(i);
    last = Int32Array.from(d.subarray(0, 200));
  }
  // Three minutes at 1.34 m/s (240 m) in a city 330 m across: many walkers finish a trip.
  assert.ok(reached.size > 80, `${reached.size} of 200 walkers reached a destination`);
});

Deno.test("the relative distribution of counts does not depend on the number of walkers", () => {
  const shares = (count: number) => {
    const { world } = walkers(GRID, "affordance", count, { seed: count });
    const counts = new StreetCounts(GRID.city, { fromStep: 200 });
    world.addObserver(counts);
    for (let s = 0; s < 1400; s++) world.step();
    return Array.from(counts.nodeCounts, (c) => c / counts.total);
  };
  const few = shares(2500), many = shares(10000);
  const r = correlateCounts(many.map((v) => v * 1e6), few.map((v) => v * 1e6));
  assert.ok(r.pearsonLog! > 0.9, `log-count correlation ${r.pearsonLog}`);
  const gap = Math.max(...few.map((v, j) => Math.abs(v - many[j])));
  assert.ok(gap < 0.01, `largest difference in a junction's share of all passages ${gap}`);
});

Deno.test("affordance counts follow the junctions' viewshed areas, where random counts do not", () => {
  const junctions: number[] = [];
  for (let j = 0; j < UNEVEN.affordance.nodeCount; j++) {
    if (UNEVEN.affordance.hasViewshed[j]) junctions.push(j);
  }
  const area = junctions.map((j) => UNEVEN.affordance.viewshedArea[j]);
  const counts = (rule: StreetChoiceRule) => {
    const { world } = walkers(UNEVEN, rule, 3000, { placement: "viewshed", seed: 4 });
    const c = new StreetCounts(UNEVEN.city, { fromStep: 400 });
    world.addObserver(c);
    for (let s = 0; s < 3000; s++) world.step();
    return junctions.map((j) => c.nodeCounts[j]);
  };
  const affordance = correlateCounts(area, counts("affordance"));
  const random = correlateCounts(area, counts("random-walk"));
  assert.ok(affordance.spearman! > 0.2, `affordance ρ ${affordance.spearman}`);
  assert.ok(
    affordance.spearman! > random.spearman! + 0.1,
    `affordance ρ ${affordance.spearman} against random ρ ${random.spearman}`,
  );
});

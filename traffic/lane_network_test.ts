import assert from "node:assert/strict";
import { generateProceduralCity } from "../geo/procedural_city.ts";
import { buildLaneNetwork, type LaneNetwork, LinkKind, TurnKind } from "./lane_network.ts";
import { streetCity } from "./_test_cities.ts";
import { buildCityTraffic } from "../scenarios/city_traffic.ts";

function start(net: LaneNetwork, link: number): [number, number] {
  const k = net.pointStart[link];
  return [net.px[k], net.py[k]];
}

function end(net: LaneNetwork, link: number): [number, number] {
  const k = net.pointStart[link + 1] - 1;
  return [net.px[k], net.py[k]];
}

/** Lanes reachable from `lane` through connectors. */
function reachable(net: LaneNetwork, lane: number): Set<number> {
  const seen = new Set([lane]), queue = [lane];
  while (queue.length) {
    const l = queue.pop()!;
    for (let k = net.outStart[l]; k < net.outStart[l + 1]; k++) {
      const next = net.toLane[net.outLinks[k]];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

Deno.test("lane network: a 2 × 2 city with one lane each way has 44 connectors, all lanes joined", () => {
  const city = generateProceduralCity({ blocksX: 2, blocksY: 2, lanes: 2, roadWidth: 7 });
  const net = buildLaneNetwork(city);
  assert.equal(net.laneCount, 24); // 12 streets × 2
  // Centre 4-way: 4 × 3 movements; 4 T-junctions: 3 × 2; 4 bends: 2 each.
  assert.equal(net.connectorCount, 12 + 4 * 6 + 4 * 2);
  for (let c = net.laneCount; c < net.linkCount; c++) {
    assert.equal(net.kind[c], LinkKind.connector);
    // Connectors join the end of one lane to the start of the next without a gap.
    assert.deepEqual(start(net, c), end(net, net.fromLane[c]));
    assert.deepEqual(end(net, c), start(net, net.toLane[c]));
  }
  // Every lane reaches every other lane.
  for (let l = 0; l < net.laneCount; l++) assert.equal(reachable(net, l).size, net.laneCount);
  // Also with two lanes each way, where the kerbside lane of the ring road has no turn into
  // the city and leaves it by moving one lane inwards across a junction.
  const wide = buildLaneNetwork(generateProceduralCity({ blocksX: 3, blocksY: 2 }));
  for (let l = 0; l < wide.laneCount; l++) assert.equal(reachable(wide, l).size, wide.laneCount);
});

Deno.test("lane network: vehicles keep right and stop lines leave the crosswalk free", () => {
  const city = generateProceduralCity({ blocksX: 2, blocksY: 2 }); // 14 m roads, 4 lanes
  const net = buildLaneNetwork(city);
  const centre = city.streets.nodes[4]; // the 4-way at the origin
  for (let l = 0; l < net.laneCount; l++) {
    const e = city.streets.edges[net.edge[l]];
    const [ax, ay] = start(net, l), [bx, by] = end(net, l);
    const dx = bx - ax, dy = by - ay;
    // The lane centre lies right of its direction of travel, rank 0 nearest the kerb.
    const [ex, ey] = e.points[0];
    const side = dx * (ay - ey) - dy * (ax - ex); // < 0: the lane is right of the centre line
    const lateral = Math.abs(e.points[0][0] === e.points[1][0] ? ax - ex : ay - ey);
    assert(side < 0, `lane ${l} on the wrong side`);
    assert.equal(lateral, net.rank[l] === 0 ? 5.25 : 1.75);
    if (net.endNode[l] === 4) {
      // Half the road (7 m) + the crosswalk (3 m) + the stop-line gap (0.5 m).
      assert.equal(Math.max(Math.abs(bx - centre.x), Math.abs(by - centre.y)), 10.5);
    }
  }
});

Deno.test("lane network: a crosswalk across a mid-block node leaves the stop lines of both approaches short of its stripes", () => {
  // The crosswalk scenario's street: one node mid-block, the crossing tied to one of its two edges.
  const city =
    buildCityTraffic("crosswalk", { agents: 2, cars: 2, seed: 1, strategy: "none" }).city;
  const net = buildLaneNetwork(city);
  const crossing = city.crossings[0];
  const node = city.streets.nodes[crossing.node!];
  const ends: number[] = [];
  for (let l = 0; l < net.laneCount; l++) {
    if (net.endNode[l] !== crossing.node) continue;
    const [bx] = end(net, l);
    ends.push(Math.abs(bx - node.x));
  }
  assert.equal(ends.length, 2, "a lane each way ends at the crossing");
  // Half the crosswalk's width (4 m) plus the stop-line gap (0.5 m), on either side.
  for (const d of ends) {
    assert.ok(Math.abs(d - (crossing.width / 2 + 0.5)) < 1e-9, `stops ${d} m away`);
  }
});

Deno.test("lane network: turns across oncoming traffic conflict, kerbside turns do not", () => {
  const city = streetCity(
    [[0, 0], [100, 0], [-100, 0], [0, 100], [0, -100]],
    [{ from: 0, to: 1 }, { from: 0, to: 2 }, { from: 0, to: 3 }, { from: 0, to: 4 }],
  );
  const net = buildLaneNetwork(city);
  const movement = (fromEdge: number, toEdge: number) => {
    for (let c = net.laneCount; c < net.linkCount; c++) {
      if (net.edge[net.fromLane[c]] === fromEdge && net.edge[net.toLane[c]] === toEdge) return c;
    }
    throw new Error(`no movement ${fromEdge} → ${toEdge}`);
  };
  const conflicts = (a: number, b: number) => {
    const k = a - net.laneCount;
    return net.conflicts.subarray(net.conflictStart[k], net.conflictStart[k + 1]).includes(b);
  };
  // Edges: 0 east, 1 west, 2 north, 3 south. From the south, heading north:
  const sToN = movement(3, 2), sToE = movement(3, 0), sToW = movement(3, 1);
  const nToS = movement(2, 3), nToW = movement(2, 1);
  assert.equal(net.turn[sToN], TurnKind.through);
  assert.equal(net.turn[sToE], TurnKind.kerbside);
  assert.equal(net.turn[sToW], TurnKind.farside);
  assert(conflicts(sToW, nToS), "a left turn crosses the oncoming through movement");
  assert(!conflicts(sToE, nToS), "a right turn stays clear of the oncoming traffic");
  assert(!conflicts(sToN, nToS), "opposite through movements pass side by side");
  assert(conflicts(sToW, nToW), "two movements into the same lane merge");
  assert(conflicts(nToS, sToW), "conflicts are symmetric");
  // Siblings (same entry lane) share their first metres.
  const k = sToN - net.laneCount;
  const sib = [...net.siblings.subarray(net.siblingStart[k], net.siblingStart[k + 1])];
  assert.deepEqual(sib.sort(), [sToE, sToW].sort());
  for (let j = net.siblingStart[k]; j < net.siblingStart[k + 1]; j++) {
    assert(net.siblingShared[j] > 1 && net.siblingShared[j] < net.length[sToN]);
  }
});

Deno.test("lane network: one-way streets, dead ends and the driving side of any city model", () => {
  // A one-way loop 0 → 1 → 2 → 0 with a two-way spur 1 — 3 ending at a dead end.
  const city = streetCity(
    [[0, 0], [80, 0], [40, 60], [160, 0]],
    [
      { from: 0, to: 1, oneway: true, lanes: 2 },
      { from: 1, to: 2, oneway: true, lanes: 1 },
      { from: 2, to: 0, oneway: true, lanes: 1 },
      { from: 1, to: 3, lanes: 2 },
    ],
  );
  for (const drivingSide of ["right", "left"] as const) {
    const net = buildLaneNetwork(city, { drivingSide });
    assert.equal(net.laneCount, 2 + 1 + 1 + 2);
    // One-way edges only have forward lanes.
    for (let l = 0; l < net.laneCount; l++) if (net.edge[l] < 3) assert.equal(net.forward[l], 1);
    // The dead end turns cars back: a U-turn connector at node 3.
    const uTurns = [];
    for (let c = net.laneCount; c < net.linkCount; c++) {
      if (net.turn[c] === TurnKind.uTurn) uTurns.push(c);
    }
    assert.equal(uTurns.length, 1);
    assert.equal(net.startNode[uTurns[0]], 3);
    // Every lane still reaches every other.
    for (let l = 0; l < net.laneCount; l++) assert.equal(reachable(net, l).size, net.laneCount);
    // The spur's eastbound lane lies south of its centre line when vehicles keep right.
    const east = [...Array(net.laneCount).keys()].find((l) => net.edge[l] === 3 && net.forward[l])!;
    const [, y] = start(net, east);
    assert.equal(Math.sign(y), drivingSide === "right" ? -1 : 1);
  }
  assert.throws(() => buildLaneNetwork(city, { drivingSide: "middle" as "left" }), /drivingSide/);
});

Deno.test("lane network: every lane of a three-lane road that bends where a side street joins has a way on", () => {
  // A one-way three-lane road bends 60° at node 1, where a two-way side street joins: the bend
  // is a kerbside turn (from the kerbside lane), the side street a farside one (from the
  // innermost); the middle lane goes on along the bend.
  const city = streetCity(
    [[0, 0], [100, 0], [150, -86.6], [100, 100]],
    [
      { from: 0, to: 1, oneway: true, lanes: 3 },
      { from: 1, to: 2, oneway: true, lanes: 3 },
      { from: 1, to: 3, lanes: 2 },
    ],
  );
  const net = buildLaneNetwork(city);
  for (let l = 0; l < net.laneCount; l++) {
    if (net.edge[l] !== 0) continue;
    assert.ok(net.outStart[l + 1] > net.outStart[l], `lane of rank ${net.rank[l]} leads nowhere`);
  }
  // The middle lane goes on along the bend, into the middle lane.
  const middle = [...Array(net.laneCount).keys()].find((l) =>
    net.edge[l] === 0 && net.rank[l] === 1
  )!;
  const to = net.toLane[net.outLinks[net.outStart[middle]]];
  assert.equal(net.edge[to], 1);
  assert.equal(net.rank[to], 1);
});

import assert from "node:assert/strict";
import { buildCityTraffic } from "../scenarios/city_traffic.ts";
import { CITY_COLUMNS } from "../navigation/city_block_navigator.ts";
import { CrossingOverlay, PREDICTION_COLORS, ROUTE_LEG_COLORS } from "./crossing_overlay.ts";
import { availableOverlays, DebugOverlayBuilder } from "./debug_overlays.ts";
import { World } from "../core/world.ts";
import { createNoneStrategy } from "../strategies/none.ts";

type Segment = { x0: number; y0: number; x1: number; y1: number; color: number[] };

const same = (a: readonly number[], b: readonly number[]) => a.every((v, k) => v === b[k]);

/** The crosswalk without a light, stepped until someone faces a threat; the run and that agent. */
function facingThreat() {
  const run = buildCityTraffic("crosswalk", {
    agents: 30,
    cars: 40,
    strategy: "none",
    signalled: false,
    seed: 4,
  });
  const overlay = new CrossingOverlay({ ...run, network: run.navigator.network! });
  const crossing = () => run.world.agents.column<Int32Array>(CITY_COLUMNS.crossing);
  for (let k = 0; k < 4000; k++) {
    run.world.step();
    if (k % 10 !== 0) continue;
    for (let i = 0; i < run.world.agents.count; i++) {
      if (crossing()[i] < 0) continue;
      const segments: Segment[] = [];
      overlay.build(
        run.world,
        i,
        (x0, y0, x1, y1, c) => segments.push({ x0, y0, x1, y1, color: [...c] }),
      );
      if (
        overlay.assessment.threatCount > 0 &&
        overlay.approaches.count > overlay.assessment.threatCount
      ) {
        return { run, overlay, i, segments };
      }
    }
  }
  throw new Error("nobody faced a threat in 200 s");
}

Deno.test("the crossing overlay draws every approaching car red when it is a threat, green when not", () => {
  const { run, overlay, segments } = facingThreat();
  // Car segments in the order drawn: per car, its stretch in 2 m pieces, then its four sides.
  const drawn = segments.filter((s) =>
    same(s.color, PREDICTION_COLORS.threat) || same(s.color, PREDICTION_COLORS.clear)
  );
  const corners = new Float64Array(8);
  const a = overlay.approaches, assessment = overlay.assessment, c = run.cars.cars;
  let at = 0, threats = 0, clear = 0;
  for (let k = 0; k < a.count; k++) {
    const threat = assessment.threats[k] === 1;
    // Cars driving away from the crosswalk (rear past it) are left out.
    if (a.distance[k] + a.length[k] < -(4 + 2 * 0.25)) {
      assert.ok(!threat);
      continue;
    }
    if (threat) threats++;
    else clear++;
    const color = threat ? PREDICTION_COLORS.threat : PREDICTION_COLORS.clear, car = a.car[k];
    // The stretch: from the front bumper along its lanes, as long as the car's reach, up to its
    // rectangle (drawn from the rear right corner).
    run.cars.corners(car, corners);
    let pieces = 0;
    while (
      at + pieces < drawn.length &&
      Math.hypot(drawn[at + pieces].x0 - corners[0], drawn[at + pieces].y0 - corners[1]) > 1e-3
    ) pieces++;
    assert.ok(pieces >= Math.ceil(assessment.reach[k] / 2 - 1e-9), `car ${car}: ${pieces} pieces`);
    const stretch = drawn.slice(at, at + pieces);
    const fx = c.x[car] + c.dirX[car] * c.length[car] / 2;
    const fy = c.y[car] + c.dirY[car] * c.length[car] / 2;
    assert.ok(Math.hypot(stretch[0].x0 - fx, stretch[0].y0 - fy) < 0.01, `car ${car}'s front`);
    let length = 0;
    stretch.forEach((s, j) => {
      assert.deepEqual(s.color, [...color]);
      if (j > 0) assert.ok(Math.hypot(s.x0 - stretch[j - 1].x1, s.y0 - stretch[j - 1].y1) < 1e-6);
      length += Math.hypot(s.x1 - s.x0, s.y1 - s.y0);
    });
    assert.ok(
      Math.abs(length - assessment.reach[k]) < 0.01,
      `car ${car}: stretch ${length.toFixed(2)} m, reach ${assessment.reach[k].toFixed(2)} m`,
    );
    // Then its rectangle, corner to corner.
    for (let e = 0; e < 4; e++) {
      const s = drawn[at + pieces + e], f = (e + 1) % 4;
      assert.deepEqual(s.color, [...color]);
      assert.ok(
        Math.abs(s.x0 - corners[2 * e]) < 1e-3 && Math.abs(s.y0 - corners[2 * e + 1]) < 1e-3,
      );
      assert.ok(
        Math.abs(s.x1 - corners[2 * f]) < 1e-3 && Math.abs(s.y1 - corners[2 * f + 1]) < 1e-3,
      );
    }
    at += pieces + 4;
  }
  // Nothing else, and both kinds of car in the picture.
  assert.equal(at, drawn.length);
  assert.ok(threats > 0 && clear > 0, `${threats} threats, ${clear} clear`);
  // A threat is a car whose reach gets to the crosswalk; the others stop short of it.
  for (let k = 0; k < a.count; k++) {
    if (a.distance[k] + a.length[k] < -4.5) continue;
    assert.equal(assessment.threats[k] === 1, a.distance[k] <= assessment.reach[k]);
  }
});

Deno.test("the crossing overlay draws the route by leg: to the kerb, across, on to the goal", () => {
  const { run, i, segments } = facingThreat();
  const a = run.world.agents;
  const route = segments.filter((s) => ROUTE_LEG_COLORS.some((c) => same(s.color, c)));
  assert.ok(route.length >= 2);
  // One polyline from the agent.
  assert.ok(Math.abs(route[0].x0 - a.px[i]) < 1e-3 && Math.abs(route[0].y0 - a.py[i]) < 1e-3);
  for (let k = 1; k < route.length; k++) {
    assert.ok(Math.hypot(route[k].x0 - route[k - 1].x1, route[k].y0 - route[k - 1].y1) < 1e-3);
  }
  // The first leg (white) ends across the street at the far kerb checkpoint; the next leg
  // (another colour) goes from there to the goal.
  const col = (name: string) => a.column<Float64Array>(name)[i];
  const across = route.findIndex((s) =>
    Math.abs(s.x1 - col(CITY_COLUMNS.secondX)) < 1e-3 &&
    Math.abs(s.y1 - col(CITY_COLUMNS.secondY)) < 1e-3
  );
  assert.ok(across >= 1, "the route crosses to the far kerb checkpoint");
  assert.ok(route.slice(0, across + 1).every((s) => same(s.color, ROUTE_LEG_COLORS[0])));
  const last = route[route.length - 1];
  assert.ok(Math.abs(last.x1 - a.goalX[i]) < 1e-3 && Math.abs(last.y1 - a.goalY[i]) < 1e-3);
  assert.ok(same(last.color, ROUTE_LEG_COLORS[1]));
  // The far kerb is on the other side of the street from where the agent stands.
  assert.ok(Math.sign(col(CITY_COLUMNS.secondY)) !== Math.sign(a.py[i]));
});

Deno.test("the crossing overlay is offered with cars, and drawn for the picked agent only", () => {
  const run = buildCityTraffic("crosswalk", { agents: 20, cars: 20, strategy: "none" });
  for (let k = 0; k < 20; k++) run.world.step();
  assert.ok(availableOverlays(run.world).includes("crossing"));
  const builder = new DebugOverlayBuilder();
  builder.watchCrossings(new CrossingOverlay({ ...run, network: run.navigator.network! }));
  assert.equal(builder.build(run.world, ["crossing"], null), 0);
  assert.ok(builder.build(run.world, ["crossing"], run.world.agents.serial[0]) > 0);
  // A world without cars and crossings does not offer it.
  const plain = new World({ strategy: createNoneStrategy() });
  plain.addAgent({ x: 0, y: 0 });
  assert.ok(!availableOverlays(plain).includes("crossing"));
});

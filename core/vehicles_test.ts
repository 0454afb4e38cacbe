import assert from "node:assert/strict";
import { AgentGrid } from "./agent_grid.ts";
import { AgentStore } from "./agent_store.ts";
import { Rng } from "./rng.ts";
import { avoidVehicles, VEHICLE_HORIZON, VEHICLE_MARGIN, Vehicles } from "./vehicles.ts";

/** Cars of 4–6 m × 1.6–2.2 m at random headings and speeds (0–15 m/s) on a 200 m square. */
function randomVehicles(rng: Rng, count: number): Vehicles {
  const v = new Vehicles();
  v.setCount(count);
  for (let k = 0; k < count; k++) {
    const a = rng.range(0, 2 * Math.PI), s = rng.next() < 0.3 ? 0 : rng.range(0, 15);
    const dx = Math.cos(a), dy = Math.sin(a);
    v.set(
      k,
      rng.range(0, 200),
      rng.range(0, 200),
      dx,
      dy,
      rng.range(4, 6),
      rng.range(1.6, 2.2),
      s * dx,
      s * dy,
      rng.next() < 0.3 ? rng.range(0, 2) : 0,
    );
  }
  v.finish();
  return v;
}

Deno.test("reach map: no pedestrian outside it touches a vehicle within the horizon", () => {
  const rng = new Rng(11);
  let outside = 0, inside = 0;
  for (let round = 0; round < 10; round++) {
    const v = randomVehicles(rng, 40);
    const r = 0.35, speed = 2.5, horizon = VEHICLE_HORIZON;
    v.prepareReach(r * Math.SQRT2 + speed * horizon, horizon);
    for (let q = 0; q < 2000; q++) {
      const x = rng.range(-30, 230), y = rng.range(-30, 230);
      if (v.mayReach(x, y)) {
        inside++;
        continue;
      }
      outside++;
      const a = rng.range(0, 2 * Math.PI), s = rng.range(0, speed);
      for (let k = 0; k < v.count; k++) {
        const t = v.timeToContact(k, x, y, r, s * Math.cos(a), s * Math.sin(a), horizon, true);
        assert.equal(t, Infinity, `pedestrian at (${x}, ${y}) touches vehicle ${k} at ${t} s`);
        // Nor does a faster vehicle's nearest point come within the pedestrian's radius now.
        assert.ok(v.distance(k, x, y, new Float64Array(2)) > r);
      }
    }
  }
  // The map is useful: on a sparse street most points are out of reach.
  assert.ok(outside > 0.3 * (inside + outside), `${outside} of ${inside + outside} out of reach`);
});

Deno.test("queryTravel: lists every vehicle a pedestrian can touch within the horizon, and few others", () => {
  const rng = new Rng(12);
  const out = new Float64Array(2);
  let listed = 0, touching = 0, travelDisc = 0;
  for (let round = 0; round < 10; round++) {
    const v = randomVehicles(rng, 60);
    for (let q = 0; q < 1000; q++) {
      const x = rng.range(0, 200), y = rng.range(0, 200), r = rng.range(0.15, 0.35);
      const a = rng.range(0, 2 * Math.PI), speed = rng.range(0, 3);
      const horizon = [0.5, 1, 1.5][q % 3]; // more horizons than the two grids kept
      const vx = speed * Math.cos(a), vy = speed * Math.sin(a);
      const reach = r * Math.SQRT2 + speed * horizon;
      const n = v.queryTravel(x, y, reach, horizon);
      const near = new Set(v.near.subarray(0, n));
      assert.equal(near.size, n);
      listed += n;
      for (let k = 0; k < v.count; k++) {
        const t = v.timeToContact(k, x, y, r, vx, vy, horizon, true);
        const overlap = v.distance(k, x, y, out) < r;
        if (t < horizon || overlap) {
          touching++;
          assert.ok(near.has(k), `vehicle ${k} missed, touching ${t} s from (${x}, ${y})`);
        }
        // What a disc around the centre over the vehicle's whole travel would have listed.
        const d = reach + v.halfDiagonal[k] + v.speed[k] * horizon;
        if ((x - v.cx[k]) ** 2 + (y - v.cy[k]) ** 2 <= d * d) travelDisc++;
      }
    }
  }
  assert.ok(touching > 100, `${touching} touching pairs`);
  // The midpoint of the way travelled lists about half what the disc would (measured: 49 %).
  assert.ok(listed < 0.7 * travelDisc, `${listed} listed against ${travelDisc}`);
});

Deno.test("reach map: rebuilt after the vehicles move, answers 'maybe' without a map", () => {
  const v = new Vehicles();
  v.setCount(1);
  v.set(0, 0, 0, 1, 0, 4.5, 1.8, 0, 0);
  v.finish();
  assert.equal(v.mayReach(100, 0), true); // no map yet
  v.prepareReach(1, 1);
  assert.equal(v.mayReach(100, 0), false);
  assert.equal(v.mayReach(2, 0), true);
  v.set(0, 100, 0, 1, 0, 4.5, 1.8, 0, 0);
  v.finish();
  assert.equal(v.mayReach(100, 0), true); // stale map: not trusted
  v.prepareReach(1, 1);
  assert.equal(v.mayReach(100, 0), true);
  assert.equal(v.mayReach(0, 0), false);
  v.prepareReach(NaN, 1);
  assert.equal(v.mayReach(0, 0), true);
});

Deno.test("reach map: a smaller ask in the same step reuses the larger map, a larger one rebuilds it", () => {
  const car = () => {
    const v = new Vehicles();
    v.setCount(1);
    v.set(0, 0, 0, 1, 0, 4.5, 1.8, 12, 0); // 12 m/s along +x
    v.finish();
    return v;
  };
  // Alone, a map for a standing reach of 0.5 m ends a few metres ahead of the car.
  const small = car();
  small.prepareReach(0.5, 0);
  assert.equal(small.mayReach(18, 0), false);
  // Asked after a map over 1.5 s of travel, the same ask keeps that map (a superset of its own).
  const v = car();
  v.prepareReach(3, 1.5);
  assert.equal(v.mayReach(18, 0), true);
  assert.equal(v.mayReach(9, 9), false);
  v.prepareReach(0.5, 0);
  assert.equal(v.mayReach(18, 0), true);
  // A wider ask than the map covers builds a new one.
  v.prepareReach(7, 1.5);
  assert.equal(v.mayReach(9, 9), true);
  // So does any ask once the vehicles have moved.
  v.finish();
  v.prepareReach(0.5, 0);
  assert.equal(v.mayReach(18, 0), false);
});

Deno.test("reach map: a fast car reaches along its way, not behind or far beside it", () => {
  const v = new Vehicles();
  v.setCount(1);
  v.set(0, 0, 0, 1, 0, 4.5, 1.8, 12, 0); // 12 m/s along +x: 18 m in 1.5 s
  v.finish();
  v.prepareReach(1, 1.5); // half diagonal 2.42 m + 1 m around the 18 m its centre drives
  for (const x of [-3, 0, 9, 18, 21]) assert.equal(v.mayReach(x, 0), true, `ahead, x = ${x}`);
  assert.equal(v.mayReach(9, 3), true); // beside its way, within reach
  // A disc of the car's whole travel (21.4 m) would hold these; the way it drives does not.
  assert.equal(v.mayReach(-12, 0), false); // behind it
  assert.equal(v.mayReach(9, 12), false); // far beside its way
  assert.equal(v.mayReach(0, -12), false);
});
Deno.test("avoidVehicles: same velocities in grid order as in index order, a third of them or more skipped", () => {
  const rng = new Rng(5);
  const v = randomVehicles(rng, 30);
  const n = 3000;
  const make = () => {
    const agents = new AgentStore(n);
    const r2 = new Rng(9);
    for (let i = 0; i < n; i++) {
      agents.add({
        x: r2.range(-20, 220),
        y: r2.range(-20, 220),
        goalX: 0,
        goalY: 0,
        maxSpeed: 2.6,
      });
      const a = r2.range(0, 2 * Math.PI), s = r2.range(0, 2);
      agents.newVx[i] = s * Math.cos(a);
      agents.newVy[i] = s * Math.sin(a);
      agents.prefVx[i] = agents.newVx[i];
      agents.prefVy[i] = agents.newVy[i];
    }
    return agents;
  };
  const a = make(), b = make();
  const grid = new AgentGrid({ cellSize: 5 });
  grid.rebuild(b.px, b.py, n);
  const changedA = avoidVehicles(a, v, 0, n);
  const changedB = avoidVehicles(b, v, 0, n, VEHICLE_HORIZON, grid);
  assert.equal(changedA, changedB);
  assert.ok(changedA > 0);
  assert.deepEqual(a.newVx, b.newVx);
  assert.deepEqual(a.newVy, b.newVy);
  // Every changed velocity is now safe or the latest contact; every kept one was safe.
  let reachable = 0;
  for (let i = 0; i < n; i++) if (v.mayReach(a.px[i], a.py[i])) reachable++;
  assert.ok(reachable < (2 / 3) * n, `${reachable} of ${n} in reach`);
  for (let i = 0; i < n; i++) {
    if (v.mayReach(a.px[i], a.py[i])) continue;
    const r = a.radius[i] + VEHICLE_MARGIN;
    for (let k = 0; k < v.count; k++) {
      assert.equal(
        v.timeToContact(k, a.px[i], a.py[i], r, a.newVx[i], a.newVy[i], VEHICLE_HORIZON),
        Infinity,
      );
    }
  }
});

Deno.test("avoidVehicles: a pedestrian already overlapping a standing car steps straight out of it", () => {
  const agents = new AgentStore(2);
  // One half inside the car's side, one with its centre inside, near the rear; both standing.
  agents.add({ x: 0, y: -1.05, radius: 0.25, maxSpeed: 1.6 });
  agents.add({ x: -1.9, y: -0.5, radius: 0.25, maxSpeed: 1.6 });
  const v = new Vehicles();
  v.setCount(1);
  v.set(0, 0, 0, 1, 0, 4.5, 1.8, 0, 0);
  v.finish();
  assert.equal(avoidVehicles(agents, v, 0, 2), 2);
  // Out through the nearest face at top speed: the side (-y) for the first; for the second the
  // rear (0.35 m away) rather than the side (0.4 m), so -x.
  assert.ok(agents.newVy[0] < -1.5, `${agents.newVx[0]}, ${agents.newVy[0]}`);
  assert.ok(agents.newVx[1] < -1.5, `${agents.newVx[1]}, ${agents.newVy[1]}`);
});

Deno.test("avoidVehicles: a pedestrian keeps clear of where a turning car's body sweeps, not only of its straight course", () => {
  // A car at 2 m/s heading +x; a pedestrian 1.7 m beside its side walks slowly towards its
  // course. Carried straight, the car stays out of reach for the horizon; turning towards the
  // pedestrian, its body sweeps 1 m sideways within it.
  const x = -2, y = -2.6, vx = 1, vy = 0.6, r = 0.25 + VEHICLE_MARGIN;
  const car = (sweep: number) => {
    const v = new Vehicles();
    v.setCount(1);
    v.set(0, 0, 0, 1, 0, 4.5, 1.8, 2, 0, sweep);
    v.finish();
    return v;
  };
  const run = (sweep: number) => {
    const agents = new AgentStore(1);
    agents.add({ x, y, radius: 0.25, maxSpeed: 1.6 });
    agents.newVx[0] = vx;
    agents.newVy[0] = vy;
    const v = car(sweep);
    const changed = avoidVehicles(agents, v, 0, 1);
    const [ux, uy] = [agents.newVx[0], agents.newVy[0]];
    return { changed, t: v.timeToContact(0, x, y, r, ux, uy, VEHICLE_HORIZON, true) };
  };
  const straight = run(0), turning = run(1);
  assert.equal(straight.changed, 0); // nothing to avoid on the straight course
  assert.equal(turning.changed, 1);
  assert.equal(turning.t, Infinity); // the new velocity keeps out of the swept rectangle
  // Contacts and near misses are still measured on the rectangle itself.
  const v = car(1);
  assert.equal(v.timeToContact(0, x, y, r, vx, vy, VEHICLE_HORIZON), Infinity);
  assert.ok(v.timeToContact(0, x, y, r, vx, vy, VEHICLE_HORIZON, true) < 1);
});

Deno.test("avoidVehicles: a pedestrian following close behind a turning car falls back out of its sweep", () => {
  // Behind the rear of a car at 1.2 m/s (0.15 m between body and bumper), walking on at the
  // car's speed: clear of the straight rectangle, which draws away, but inside the 1 m the
  // turning body may swing.
  const agents = new AgentStore(1);
  agents.add({ x: -2.75, y: 0.3, radius: 0.25, maxSpeed: 1.6 });
  agents.newVx[0] = 1.2;
  const v = new Vehicles();
  v.setCount(1);
  v.set(0, 0, 0, 1, 0, 4.5, 1.8, 1.2, 0, 1);
  v.finish();
  const r = 0.25 + VEHICLE_MARGIN;
  assert.equal(v.timeToContact(0, -2.75, 0.3, r, 1.2, 0, VEHICLE_HORIZON), Infinity);
  assert.equal(v.timeToContact(0, -2.75, 0.3, r, 1.2, 0, VEHICLE_HORIZON, true), 0);
  assert.equal(avoidVehicles(agents, v, 0, 1), 1);
  // Now it leaves the swept rectangle within the horizon.
  const t = v.timeToContact(
    0,
    -2.75,
    0.3,
    r,
    agents.newVx[0],
    agents.newVy[0],
    VEHICLE_HORIZON,
    true,
  );
  assert.equal(t, Infinity, `${agents.newVx[0]}, ${agents.newVy[0]}`);
});

Deno.test("avoidVehicles: caught in a turning car's sweep beside a standing car, a pedestrian never steps into the standing one", () => {
  // A standing car 0.05 m beyond the pedestrian's body, and behind it a car at 1.3 m/s whose
  // turning body may swing 1 m: nowhere is clear of both sweeps, and the pedestrian, heading for
  // the standing car, must not take the way into it.
  const agents = new AgentStore(1);
  agents.add({ x: 0, y: -1.2, radius: 0.25, maxSpeed: 1.6 });
  agents.newVy[0] = 0.9;
  const v = new Vehicles();
  v.setCount(2);
  v.set(0, 0, 0, 1, 0, 4.5, 1.8, 0, 0); // standing
  v.set(1, 0.5, -2.6, 1, 0, 4.5, 1.8, 1.3, 0, 1); // turning past behind the pedestrian
  v.finish();
  const r = 0.25 + VEHICLE_MARGIN;
  // Not even standing still is clear of the swept rectangle.
  assert.equal(v.timeToContact(1, 0, -1.2, r, 0, 0, VEHICLE_HORIZON, true), 0);
  assert.equal(avoidVehicles(agents, v, 0, 1), 1);
  const [vx, vy] = [agents.newVx[0], agents.newVy[0]];
  for (let k = 0; k < 2; k++) {
    assert.equal(
      v.timeToContact(k, 0, -1.2, r, vx, vy, VEHICLE_HORIZON),
      Infinity,
      `car ${k}: ${vx}, ${vy}`,
    );
  }
});

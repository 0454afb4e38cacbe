import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { StaticObstacles } from "../core/obstacles.ts";
import { linearProgram2, linearProgram3, OrcaLines } from "./_orca_lp.ts";
import { OrcaNeighbors, pushAgentLines, pushContactLines } from "./_orca_half_planes.ts";
import { ObstacleQuery, OrcaObstacles } from "./_orca_obstacles.ts";

const DT = 0.05;
const TAU = 5;
const GRID_STEP = 0.01; // m/s
const EPS = 1e-9;

/** Distance (m/s) by which `(x, y)` lies on the forbidden side of line `k` (<= 0: satisfied). */
function violation(lines: OrcaLines, k: number, x: number, y: number): number {
  return lines.dx[k] * (lines.py[k] - y) - lines.dy[k] * (lines.px[k] - x);
}

interface Case {
  lines: OrcaLines;
  /** Lines 0 … numHard-1 are hard in the 3-D program. */
  numHard: number;
  maxSpeed: number;
  prefX: number;
  prefY: number;
}

/** A random agent at the origin with random neighbours (some overlapping) and maybe a wall. */
function randomCase(rng: Rng): Case {
  const maxSpeed = rng.range(0.8, 2);
  const angle = rng.range(0, 2 * Math.PI), speed = rng.range(0, maxSpeed);
  const vx = speed * Math.cos(angle), vy = speed * Math.sin(angle);
  const prefAngle = rng.range(0, 2 * Math.PI), prefSpeed = rng.range(0.5, 1.3) * maxSpeed;
  const lines = new OrcaLines(4);
  if (rng.chance(0.3)) {
    // A wall or a square pillar nearby, seen from outside.
    const obstacles = new StaticObstacles();
    const cx = rng.range(-3, 3), cy = rng.range(-3, 3);
    if (rng.chance(0.5)) {
      const h = rng.range(0.3, 1);
      if (Math.max(Math.abs(cx), Math.abs(cy)) > h + 0.3) {
        obstacles.addPolygon([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [
          cx - h,
          cy + h,
        ]]);
      }
    } else if (Math.abs(cy) > 0.35) {
      obstacles.addWall([[cx - 4, cy], [cx, cy + rng.range(-1, 1)], [cx + 4, cy]]);
    }
    const geometry = new OrcaObstacles();
    geometry.update(obstacles);
    const query = new ObstacleQuery();
    query.vx = vx;
    query.vy = vy;
    query.radius = 0.25;
    query.maxSpeed = maxSpeed;
    query.horizon = TAU;
    geometry.pushLines(lines, query);
  }
  const nb = new OrcaNeighbors(12);
  nb.count = 1 + rng.int(12);
  for (let m = 0; m < nb.count; m++) {
    const d = rng.range(0.3, 5), a = rng.range(0, 2 * Math.PI);
    const s = rng.range(0, 2), b = rng.range(0, 2 * Math.PI);
    nb.rpx[m] = d * Math.cos(a);
    nb.rpy[m] = d * Math.sin(a);
    nb.vx[m] = s * Math.cos(b);
    nb.vy[m] = s * Math.sin(b);
    nb.combinedRadius[m] = 0.5;
    nb.share[m] = rng.chance(0.1) ? 1 : 0.5;
    nb.tie[m] = 1;
  }
  nb.ownVx = vx;
  nb.ownVy = vy;
  nb.ownMaxSpeed = maxSpeed;
  const settings = {
    invTau: 1 / TAU,
    invDt: 1 / DT,
    side: rng.chance(0.5) ? 1 : -1,
    preferSin: Math.sin(Math.PI / 6),
  };
  pushContactLines(lines, nb, settings);
  const numHard = lines.count;
  pushAgentLines(lines, nb, settings);
  return {
    lines,
    numHard,
    maxSpeed,
    prefX: prefSpeed * Math.cos(prefAngle),
    prefY: prefSpeed * Math.sin(prefAngle),
  };
}

/**
 * Brute force over a grid of the speed disc: the feasible grid point closest to the preferred
 * velocity (distance or Infinity), and the least largest violation of the soft lines among grid
 * points that satisfy the hard lines.
 */
function bruteForce(c: Case): { closest: number; leastViolation: number } {
  const { lines, numHard, maxSpeed } = c;
  let closest = Infinity, leastViolation = Infinity;
  const steps = Math.ceil(maxSpeed / GRID_STEP);
  for (let a = -steps; a <= steps; a++) {
    const x = a * GRID_STEP;
    for (let b = -steps; b <= steps; b++) {
      const y = b * GRID_STEP;
      if (x * x + y * y > maxSpeed * maxSpeed) continue;
      let hardOk = true;
      for (let k = 0; k < numHard && hardOk; k++) hardOk = violation(lines, k, x, y) <= 0;
      if (!hardOk) continue;
      let worst = 0;
      for (let k = numHard; k < lines.count; k++) {
        worst = Math.max(worst, violation(lines, k, x, y));
      }
      if (worst < leastViolation) leastViolation = worst;
      if (worst <= 0) closest = Math.min(closest, Math.hypot(x - c.prefX, y - c.prefY));
    }
  }
  return { closest, leastViolation };
}

Deno.test("the 2-D program picks the feasible velocity closest to the preferred one (random neighbourhoods vs brute force)", () => {
  const rng = new Rng(20240611);
  const out = new Float64Array(2);
  let feasible = 0, infeasible = 0;
  for (let trial = 0; trial < 160; trial++) {
    const c = randomCase(rng);
    const failed = linearProgram2(c.lines, c.maxSpeed, c.prefX, c.prefY, false, out);
    const brute = bruteForce(c);
    if (failed === c.lines.count) {
      feasible++;
      const [x, y] = out;
      assert.ok(Math.hypot(x, y) <= c.maxSpeed + EPS, `trial ${trial}: inside the speed disc`);
      for (let k = 0; k < c.lines.count; k++) {
        assert.ok(violation(c.lines, k, x, y) <= 1e-9, `trial ${trial}: satisfies line ${k}`);
      }
      // No feasible grid point is closer to the preferred velocity than the solution.
      const distance = Math.hypot(x - c.prefX, y - c.prefY);
      assert.ok(
        distance <= brute.closest + EPS,
        `trial ${trial}: ${distance} vs grid ${brute.closest}`,
      );
      // And the grid finds a point about as close (it only misses slivers thinner than a cell).
      if (brute.closest < Infinity) {
        assert.ok(
          brute.closest <= distance + 3 * GRID_STEP,
          `trial ${trial}: grid ${brute.closest}`,
        );
      }
    } else {
      infeasible++;
      assert.equal(
        brute.closest,
        Infinity,
        `trial ${trial}: infeasible, yet a grid point satisfies every line`,
      );
    }
  }
  // The random neighbourhoods exercise both outcomes.
  assert.ok(feasible >= 40 && infeasible >= 10, `feasible ${feasible}, infeasible ${infeasible}`);
});

Deno.test("the 3-D program keeps the hard half-planes and violates the others least (random neighbourhoods vs brute force)", () => {
  const rng = new Rng(77);
  const out = new Float64Array(2), temp = new Float64Array(2);
  const scratch = new OrcaLines(4);
  let checked = 0;
  for (let trial = 0; checked < 40 && trial < 2000; trial++) {
    const c = randomCase(rng);
    const failed = linearProgram2(c.lines, c.maxSpeed, c.prefX, c.prefY, false, out);
    if (failed === c.lines.count || failed < c.numHard) continue;
    linearProgram3(c.lines, c.numHard, failed, c.maxSpeed, out, scratch, temp);
    checked++;
    const [x, y] = out;
    assert.ok(Math.hypot(x, y) <= c.maxSpeed + 1e-7, `trial ${trial}: inside the speed disc`);
    let worst = 0;
    for (let k = 0; k < c.lines.count; k++) {
      const v = violation(c.lines, k, x, y);
      if (k < c.numHard) assert.ok(v <= 1e-7, `trial ${trial}: keeps hard line ${k} (${v})`);
      else worst = Math.max(worst, v);
    }
    const brute = bruteForce(c);
    assert.ok(worst > 0, `trial ${trial}: the soft lines cannot all hold`);
    assert.ok(
      worst <= brute.leastViolation + 1e-7,
      `trial ${trial}: ${worst} vs grid ${brute.leastViolation}`,
    );
    assert.ok(
      brute.leastViolation <= worst + 3 * GRID_STEP,
      `trial ${trial}: grid ${brute.leastViolation}`,
    );
  }
  assert.equal(checked, 40);
});

Deno.test("the 1-D and 2-D programs handle parallel and opposite lines", () => {
  const out = new Float64Array(2);
  const lines = new OrcaLines(2);
  lines.push(0, 1, -1, 0); // y <= 1
  lines.push(0, 2, -1, 0); // y <= 2: parallel, looser
  assert.equal(linearProgram2(lines, 5, 0, 4, false, out), 2);
  assert.deepEqual([...out], [0, 1]);
  lines.push(0, 3, 1, 0); // y >= 3: contradicts y <= 1
  assert.equal(linearProgram2(lines, 5, 0, 4, false, out), 2);
  assert.deepEqual([...out], [0, 1]); // the optimum before the line that failed
});

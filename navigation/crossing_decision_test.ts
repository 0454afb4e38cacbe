import assert from "node:assert/strict";
import {
  CROSSING_ACTION_NAMES,
  CrossingAction,
  crossingCheckpoints,
  CrossingDecision,
  CrossingDecisionTree,
  type CrossingSituation,
} from "./crossing_decision.ts";

const WALK = 0, FLASHING = 1, DONT_WALK = 2;

/** A 14 m crosswalk, 3 m wide, from the south kerb (0, 0) to the north kerb (0, 14). */
function at(x: number, y: number, signal: number): CrossingSituation {
  return {
    x,
    y,
    goalX: 5,
    goalY: 30,
    firstX: 0,
    firstY: 0,
    secondX: 0,
    secondY: 14,
    width: 3,
    signal,
  };
}

Deno.test("crossing decision: the tree of the crossing report, position by position", () => {
  const tree = new CrossingDecisionTree();
  const out = new CrossingDecision();
  const name = (s: CrossingSituation) => CROSSING_ACTION_NAMES[tree.decide(s, out)];
  // Far from the crosswalk (10 m south): approach the first checkpoint at walking speed.
  assert.equal(name(at(0, -10, WALK)), "approach");
  assert.deepEqual([out.targetX, out.targetY, out.speedFactor], [0, 0, 1]);
  // Near the kerb (2 m short): cross on walk, wait on flashing and on don't walk.
  assert.equal(name(at(0, -2, WALK)), "cross");
  assert.deepEqual([out.targetX, out.targetY], [0, 14]);
  assert.equal(name(at(0, -2, FLASHING)), "wait");
  assert.equal(out.speedFactor, 0);
  assert.equal(name(at(0, -2, DONT_WALK)), "wait");
  // 0.2 m onto the road is still at the kerb (tolerance 0.3 m): nobody starts late.
  assert.equal(name(at(0, 0.2, DONT_WALK)), "wait");
  // On the crosswalk: hasten at flashing (1.3 ×) wherever they are.
  assert.equal(name(at(0, 3, FLASHING)), "hasten");
  assert.equal(out.speedFactor, 1.3);
  assert.equal(name(at(0, 11, FLASHING)), "hasten");
  // Don't walk comes on: before halfway (7 m) turn back to the near kerb, after it jog on.
  assert.equal(name(at(0, 6.9, DONT_WALK)), "turnBack");
  assert.deepEqual([out.targetX, out.targetY, out.speedFactor], [0, 0, 1.8]);
  assert.equal(name(at(0, 7.1, DONT_WALK)), "jog");
  assert.deepEqual([out.targetX, out.targetY, out.speedFactor], [0, 14, 1.8]);
  // Across: arrive at the goal, then despawn within 0.5 m of it.
  assert.equal(name(at(0, 14, DONT_WALK)), "arrive");
  assert.deepEqual([out.targetX, out.targetY, out.speedFactor], [5, 30, 1]);
  assert.equal(name(at(5, 29.6, WALK)), "despawn");
  // Straying beside the crosswalk (2 m off its side, within 3 m) still counts as near.
  assert.equal(name(at(3.5, 5, DONT_WALK)), "turnBack");
  assert.equal(name(at(5, 5, DONT_WALK)), "approach");
});

Deno.test("crossing decision: someone turning back ends up waiting at the kerb", () => {
  const tree = new CrossingDecisionTree();
  const out = new CrossingDecision();
  let y = 5;
  const seen: number[] = [];
  for (let step = 0; step < 100; step++) {
    const action = tree.decide(at(0, y, DONT_WALK), out);
    if (seen[seen.length - 1] !== action) seen.push(action);
    y += Math.sign(out.targetY - y) *
      Math.min(Math.abs(out.targetY - y), 1.34 * out.speedFactor * 0.1);
  }
  assert.deepEqual(seen, [CrossingAction.turnBack, CrossingAction.wait]);
  assert(y <= 0.3 && y >= 0, `waits at ${y} m`);
  // The same inputs always give the same decision.
  assert.equal(tree.decide(at(0, 5, DONT_WALK), out), tree.decide(at(0, 5, DONT_WALK), out));
});

Deno.test("crossing decision: checkpoints lie on the kerbs, skewed towards the centre line", () => {
  const out = new Float64Array(4);
  // A crosswalk 4 m wide from (10, 0) to (10, 7); start south-west, goal north-east.
  crossingCheckpoints(
    { kerbs: [[10, 7], [10, 0]], width: 4 },
    { start: [6, -3], goal: [15, 12] },
    out,
  );
  // The near kerb is the south one (the start is closer to it), whatever the order given.
  assert.equal(out[1], 0);
  assert.equal(out[3], 7);
  // 4 m and 5 m off to the side, clamped to 1.7 m, halved.
  assert(Math.abs(out[0] - 9.15) < 1e-12 && Math.abs(out[2] - 10.85) < 1e-12);
  // Skew 1 puts both on the centre line; a start in line with it stays there.
  crossingCheckpoints(
    { kerbs: [[10, 0], [10, 7]], width: 4 },
    { start: [6, -3], goal: [15, 12] },
    out,
    {
      skew: 1,
    },
  );
  assert.deepEqual([...out], [10, 0, 10, 7]);
  assert.throws(() => new CrossingDecisionTree({ jogFactor: 0.5 }), /'jogFactor' must be >= 1/);
});

import assert from "node:assert/strict";
import { buildScenario } from "../scenarios/build.ts";
import { strategies } from "../strategies/mod.ts";
import { RIMEA_SCENARIOS, rimeaTests } from "./rimea_tests.ts";
import { runSuite } from "./suite.ts";

Deno.test("every RiMEA scenario builds and places its people (tests 9 and 11: 90 % at once at 1.7 /m²)", () => {
  for (const [id, make] of Object.entries(RIMEA_SCENARIOS)) {
    const spec = make();
    const built = buildScenario(spec, { registry: strategies, strategy: { name: "none" } });
    const expected = spec.spawners.reduce((n, s) => n + s.count, 0);
    const placed = built.world.agents.count;
    if (id === "rimea-9" || id === "rimea-11") {
      assert.ok(placed >= 0.9 * expected, `${id}: ${placed} of ${expected}`);
    } else assert.equal(placed, expected, id);
  }
});

Deno.test("RiMEA tests 1–15 are all declared and all runnable", () => {
  const tests = rimeaTests();
  assert.deepEqual(tests.map((t) => t.id), Array.from({ length: 15 }, (_, k) => `rimea-${k + 1}`));
  assert.deepEqual(tests.filter((t) => t.needs).map((t) => t.id), []);
});

Deno.test("RiMEA test 14: people choose between the short route over stairs and the long level one", () => {
  const tests = rimeaTests().filter((t) => t.id === "rimea-14");
  const r = runSuite({ strategies: ["orca"], seeds: [1], registry: strategies, tests });
  const f = r.rows[0].verdict.figures;
  assert.equal(r.rows[0].verdict.status, "pass", r.rows[0].verdict.summary);
  assert.equal(f.arrivedShare, 1);
  // Most take the short route; its queue sends the rest round the long one.
  assert.ok(f.shortShare! > 0.5 && f.longShare! >= 0.1, `${f.shortShare} / ${f.longShare}`);
  assert.ok(Math.abs(f.shortShare! + f.longShare! - 1) < 1e-9);
  // Everyone on one route fails.
  assert.equal(tests[0].judge([{ short: 1, long: 0, arrived: 1, time: 60 }], false).status, "fail");
});

Deno.test("RiMEA test 1: orca walks 40 m in 26–34 s, and a strategy that stands still fails", () => {
  const tests = rimeaTests().filter((t) => t.id === "rimea-1");
  const r = runSuite({ strategies: ["orca"], seeds: [1], registry: strategies, tests });
  assert.equal(r.rows[0].verdict.status, "pass");
  const time = r.rows[0].verdict.figures["time (s)"]!;
  assert.ok(time > 29 && time < 32, `${time} s`);
  const test = tests[0];
  assert.equal(test.judge([null], false).status, "fail");
  assert.equal(test.judge([40], false).status, "fail");
});

Deno.test("RiMEA test 5: orca's ten people wait for their premovement times and then go", () => {
  const tests = rimeaTests().filter((t) => t.id === "rimea-5");
  const r = runSuite({ strategies: ["orca"], seeds: [2], registry: strategies, tests });
  assert.equal(r.rows[0].verdict.status, "pass", r.rows[0].verdict.summary);
  assert.equal(r.rows[0].verdict.figures.early, 0);
});

Deno.test("RiMEA test 7: orca's 50 people get speeds of their age group and walk at them", () => {
  const tests = rimeaTests().filter((t) => t.id === "rimea-7");
  const r = runSuite({ strategies: ["orca"], seeds: [1], registry: strategies, tests });
  assert.equal(r.rows[0].verdict.status, "pass", r.rows[0].verdict.summary);
  assert.deepEqual(r.rows[0].verdict.figures, { unallocated: 0, off: 0, notMeasured: 0 });
  // A speed outside its group, or one walked 5 % off, fails.
  const judge = tests[0].judge;
  assert.equal(judge([{ unallocated: 1, off: 0, measured: 50 }], false).status, "fail");
  assert.equal(judge([{ unallocated: 0, off: 1, measured: 50 }], false).status, "fail");
  assert.equal(judge([{ unallocated: 0, off: 0, measured: 49 }], false).status, "fail");
});

Deno.test("RiMEA test 10: with the exit-choice navigator everyone leaves by the allocated exit", () => {
  const tests = rimeaTests().filter((t) => t.id === "rimea-10");
  const r = runSuite({ strategies: ["orca"], seeds: [1], registry: strategies, tests });
  assert.equal(r.rows[0].verdict.status, "pass", r.rows[0].verdict.summary);
  assert.equal(r.rows[0].verdict.figures.byOtherExit, 0);
  const test = tests[0];
  assert.equal(
    test.judge([{ arrived: 1, wrong: 1, wallCrossings: 0, time: 30 }], false).status,
    "fail",
  );
});

Deno.test("RiMEA test 11: of 250, most leave by the exit nearest to their start, and both exits are used", () => {
  const tests = rimeaTests().filter((t) => t.id === "rimea-11");
  const r = runSuite({
    strategies: ["orca"],
    seeds: [1],
    registry: strategies,
    tests,
    quick: true,
  });
  const f = r.rows[0].verdict.figures;
  assert.equal(r.rows[0].verdict.status, "pass", r.rows[0].verdict.summary);
  assert.ok(f.nearestShare! >= 0.5, `nearest ${f.nearestShare}`);
  assert.ok(f.nearShare! > 0.1 && f.farShare! > 0.1, `${f.nearShare} / ${f.farShare}`);
  // Everyone by one exit fails.
  assert.equal(
    tests[0].judge([{ near: 1, far: 0, nearest: 0.3, time: 300 }], true).status,
    "fail",
  );
});

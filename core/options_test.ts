import assert from "node:assert/strict";
import { describeOptions, type OptionSpecs, resolveOptions } from "./options.ts";

interface DemoOptions {
  timeHorizon: number;
  neighbours: number;
  share: number;
  mirror: boolean;
  side: "left" | "right";
}

const SPECS: OptionSpecs<DemoOptions> = {
  timeHorizon: {
    type: "number",
    default: 2,
    min: 0,
    exclusiveMin: true,
    unit: "s",
    doc: "look-ahead",
  },
  neighbours: { type: "number", default: 10, min: 1, max: 64, integer: true, doc: "how many" },
  share: { type: "number", default: 0.5, min: 0, max: 1, exclusiveMax: true, doc: "fraction" },
  mirror: { type: "boolean", default: false, doc: "mirror it" },
  side: { type: "enum", values: ["left", "right"], default: "right", doc: "walking side" },
};

Deno.test("options fill defaults and keep given values", () => {
  assert.deepEqual(resolveOptions("demo strategy", SPECS, {}), {
    timeHorizon: 2,
    neighbours: 10,
    share: 0.5,
    mirror: false,
    side: "right",
  });
  assert.deepEqual(
    resolveOptions("demo strategy", SPECS, { neighbours: 64, side: "left", share: 0 }),
    {
      timeHorizon: 2,
      neighbours: 64,
      share: 0,
      mirror: false,
      side: "left",
    },
  );
});

Deno.test("option errors name the owner, the option, the rule and the value", () => {
  const cases: [unknown, ErrorConstructor, RegExp][] = [
    [
      { timeHorizon: 0 },
      RangeError,
      /^Cannot create demo strategy as 'timeHorizon' must be > 0: current value is 0$/,
    ],
    [
      { timeHorizon: Infinity },
      RangeError,
      /'timeHorizon' must be finite: current value is Infinity/,
    ],
    [{ timeHorizon: NaN }, RangeError, /'timeHorizon' must be a number, not NaN/],
    [{ timeHorizon: "2" }, TypeError, /'timeHorizon' must be a number: current value is "2"/],
    [{ neighbours: 2.5 }, RangeError, /'neighbours' must be an integer: current value is 2.5/],
    [{ neighbours: 65 }, RangeError, /'neighbours' must be <= 64: current value is 65/],
    [{ share: 1 }, RangeError, /'share' must be < 1: current value is 1/],
    [{ mirror: 1 }, TypeError, /'mirror' must be true or false: current value is 1/],
    [{ side: "up" }, RangeError, /'side' must be one of "left", "right": current value is "up"/],
    [{ side: 3 }, TypeError, /'side' must be one of/],
    [
      { horizon: 1 },
      TypeError,
      /'horizon' is not one of its options: timeHorizon, neighbours, share, mirror, side/,
    ],
    [[1], TypeError, /its options must be an object: got \[1\]/],
    [null, TypeError, /its options must be an object: got null/],
  ];
  for (const [given, type, message] of cases) {
    assert.throws(() => resolveOptions("demo strategy", SPECS, given), (e: Error) => {
      assert(e instanceof type, `${JSON.stringify(given)} gave ${e}`);
      assert.match(e.message, message);
      return true;
    });
  }
  assert.throws(() => resolveOptions("none strategy", {}, { x: 1 }), /it takes none/);
});

Deno.test("option descriptions give default, unit, range and doc", () => {
  assert.deepEqual(describeOptions(SPECS), [
    "timeHorizon = 2 s  (0, inf)  look-ahead",
    "neighbours = 10  [1, 64]  how many",
    "share = 0.5  [0, 1)  fraction",
    "mirror = false  mirror it",
    "side = right  left|right  walking side",
  ]);
});

Deno.test("names of Object.prototype members are not options", () => {
  for (const key of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
    // Object.fromEntries makes `__proto__` an own key, as a parsed command line does.
    const given = Object.fromEntries([[key, 1]]);
    assert.throws(
      () => resolveOptions("demo strategy", SPECS, given),
      (error: unknown) =>
        error instanceof TypeError &&
        error.message ===
          `Cannot create demo strategy as '${key}' is not one of its options: timeHorizon, neighbours, share, mirror, side`,
    );
  }
  // An inherited `toString` is never read as a value either.
  assert.equal(resolveOptions("demo strategy", SPECS, {}).side, "right");
});

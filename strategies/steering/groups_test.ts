import assert from "node:assert/strict";
import { strategies } from "../mod.ts";
import { DEFAULT_GROUPS, parseGroups } from "./groups.ts";

Deno.test("groups accept tuples and objects and keep each behaviour's options", () => {
  const groups = parseGroups([
    [["boxcast", 1, { preset: "crowded" }]],
    [{ behaviour: "seek", weight: 1 }, ["separation", 0.6], { behaviour: "none", weight: 0.5 }],
  ], strategies);
  assert.deepEqual(groups, [
    [{ behaviour: "boxcast", weight: 1, options: { preset: "crowded" } }],
    [
      { behaviour: "seek", weight: 1, options: {} },
      { behaviour: "separation", weight: 0.6, options: {} },
      { behaviour: "none", weight: 0.5, options: {} },
    ],
  ]);
  assert.equal(parseGroups(DEFAULT_GROUPS).length, 2);
});

Deno.test("groups reject what cannot run, naming the entry", () => {
  assert.throws(
    () => parseGroups([[["none", 1]]]),
    /unknown behaviour 'none' \(known: seek, arrive, separation, drag, boxcast\)/,
  );
  assert.throws(
    () => parseGroups([[["seek"]]]),
    /groups\[0\]\[0\]: expected \[behaviour, weight\]/,
  );
  assert.throws(
    () => parseGroups([[["seek", Infinity]]]),
    /groups\[0\]\[0\]\.weight: must be a finite number > 0/,
  );
  assert.throws(
    () => parseGroups([[["seek", 1, 5]]]),
    /groups\[0\]\[0\]\.options: expected an object/,
  );
  assert.throws(() => parseGroups([[]]), /groups\[0\]: expected a non-empty array/);
  assert.throws(
    () => parseGroups([[["boxcast", 1, { preset: "packed" }]]]),
    /groups\[0\]\[0\]\.options: Cannot create boxcast behaviour as 'preset' must be one of "light", "average", "crowded"/,
  );
});

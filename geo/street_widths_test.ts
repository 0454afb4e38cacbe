import assert from "node:assert/strict";
import type { CityBuilding, StreetEdge } from "./city_model.ts";
import { fitGuessedWidths, MIN_LANE_WIDTH } from "./_street_widths.ts";

/** A house (m) spanning x 0–40 between `y0` and `y1`. */
function house(y0: number, y1: number): CityBuilding {
  return {
    id: `way/${y0}`,
    polygon: [[[0, y0], [40, y0], [40, y1], [0, y1]]],
    height: 9,
    heightSource: "default",
    levels: null,
    name: null,
    kind: "yes",
  };
}

/** A residential street along y = 0 from x = 0 to 40, untagged unless `extra` says. */
function street(extra: Partial<StreetEdge> = {}): StreetEdge {
  return {
    index: 0,
    wayId: "way/9",
    from: 0,
    to: 1,
    points: [[0, 0], [40, 0]],
    length: 40,
    highway: "residential",
    name: null,
    oneway: false,
    lanes: 2,
    width: 5.5,
    widthSource: "default",
    sidewalk: "no",
    carriageway: true,
    walkable: true,
    steps: false,
    crossing: false,
    ...extra,
  };
}

Deno.test("street widths: a guessed width shrinks to the gap between the houses, a mapped one stays", () => {
  // Houses 6 m apart: a 5.5 m guess fits and stays; 4.8 m apart: 4.8 m.
  const wide = [house(3, 10), house(-10, -3)], narrow = [house(2.4, 10), house(-10, -2.4)];
  assert.equal(fitGuessedWidths([street()], wide)[0].width, 5.5);
  const [fitted] = fitGuessedWidths([street()], narrow);
  assert.equal(fitted.width, 4.8);
  assert.equal(fitted.widthSource, "fitted");
  assert.equal(fitted.lanes, 2);
  // Mapped widths and lane counts are the map's word.
  for (const source of ["width", "lanes"] as const) {
    const [kept] = fitGuessedWidths([street({ widthSource: source, width: 6 })], narrow);
    assert.equal(kept.width, 6);
    assert.equal(kept.widthSource, source);
  }
});

Deno.test("street widths: never narrower than its lanes; a one-way street drops the lanes that no longer fit", () => {
  const alley = [house(1.5, 10), house(-10, -1.5)]; // 3 m between the houses
  const [twoWay] = fitGuessedWidths([street()], alley);
  assert.equal(twoWay.width, 2 * MIN_LANE_WIDTH);
  assert.equal(twoWay.lanes, 2);
  const [oneWay] = fitGuessedWidths([street({ oneway: true })], alley);
  assert.equal(oneWay.width, 3);
  assert.equal(oneWay.lanes, 1);
});

Deno.test("street widths: the houses of the crossing streets do not narrow a street, nor houses under a bridge", () => {
  // Houses of the crossing streets, 1 m beyond each end (where the map puts the junction's
  // node in the middle of a narrow crossing), nearer than half the width to the end points.
  const corners: CityBuilding[] = [
    { ...house(-10, 10), polygon: [[[-6, -10], [-1, -10], [-1, 10], [-6, 10]]] },
    { ...house(-10, 10), id: "way/c2", polygon: [[[41, -10], [46, -10], [46, 10], [41, 10]]] },
  ];
  assert.equal(fitGuessedWidths([street()], corners)[0].width, 5.5);
  const bridge = street({ layer: 1 });
  assert.equal(fitGuessedWidths([bridge], [house(1, 10), house(-10, -1)])[0].width, 5.5);
});

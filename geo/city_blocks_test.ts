import assert from "node:assert/strict";
import { SHARED_MAPS, sharedCity } from "./_test_maps.ts";
import { type CityBlocks, deriveCityBlocks, drivenStreet, withCityBlocks } from "./city_blocks.ts";
import type { CityModel } from "./city_model.ts";
import { BlockNetwork } from "../navigation/block_network.ts";
import { intersectAreas, polygonsArea } from "../navigation/walkable_area.ts";
import { crosswalkCity } from "../scenarios/city_traffic.ts";

/** The shipped extract (the default map of `city-traffic`). */
const SHIPPED = new URL("../data/helsinki-centre/helsinki-centre.osm.pbf", import.meta.url)
  .pathname;

/** Each map once: its city and its blocks. */
const derived = new Map<string, Promise<{ city: CityModel; found: CityBlocks }>>();
function blocksOf(path: string): Promise<{ city: CityModel; found: CityBlocks }> {
  let entry = derived.get(path);
  if (!entry) {
    entry = sharedCity(path).then((city) => ({ city, found: deriveCityBlocks(city) }));
    derived.set(path, entry);
  }
  return entry;
}

/**
 * Maps and the least share of crossings (mapped and implied) that must join two different
 * blocks. The rest cross a street that does not split the land (a dead end, a driveway), or
 * end on a sliver or another carriageway.
 */
const MAPS: [string, string, number][] = [
  ["shipped Helsinki extract (PBF)", SHIPPED, 0.8],
  ["shared Helsinki extract (OSM XML)", SHARED_MAPS.helsinkiXml, 0.8],
  ["shared Monaco extract (PBF)", SHARED_MAPS.monacoPbf, 0.7],
];

for (const [name, path, joinedShare] of MAPS) {
  Deno.test(`city blocks, ${name}: every building is in exactly one block`, async () => {
    const { city, found } = await blocksOf(path);
    assert.ok(found.blocks.length > 50, `${found.blocks.length} blocks`);
    const seen = new Int32Array(city.buildings.length);
    found.blocks.forEach((block, b) => {
      for (const k of block.buildings) {
        seen[k]++;
        assert.equal(found.buildingBlock[k], b);
      }
    });
    const notOnce = [...seen].filter((n) => n !== 1).length;
    assert.equal(notOnce, 0, `${notOnce} of ${city.buildings.length} buildings not in one block`);
    // Buildings overlapping a carriageway are mapping conflicts (guessed widths are fitted
    // between the houses): they are reported, and few. Monaco: 124 of 3,199 (260 before the
    // fit); Helsinki 4 of 444.
    assert.ok(
      found.cut.length + found.unplaced.length <= 0.05 * city.buildings.length,
      `${found.cut.length} cut, ${found.unplaced.length} unplaced`,
    );
  });

  Deno.test(`city blocks, ${name}: no block overlaps a carriageway`, async () => {
    const { city, found } = await blocksOf(path);
    const overlap = polygonsArea(
      intersectAreas(found.blocks.map((b) => b.polygon), found.carriageways),
    );
    const land = polygonsArea(found.blocks.map((b) => b.polygon));
    // Clipper rounds to a millimetre: the shared edges may overlap by that much.
    assert.ok(overlap < 1e-4 * land, `blocks overlap carriageways by ${overlap.toFixed(2)} m²`);
    // Blocks and carriageways tile the map's extent, but for the slivers dropped.
    const [x0, y0, x1, y1] = city.bounds;
    const extent = [[[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]]] as const;
    const roads = polygonsArea(intersectAreas(found.carriageways, extent as never));
    const total = (x1 - x0) * (y1 - y0);
    assert.ok(roads > 0.05 * total, `carriageways ${roads.toFixed(0)} of ${total.toFixed(0)} m²`);
    assert.ok(
      land + roads > 0.99 * total && land + roads < total + 1,
      `blocks ${land.toFixed(0)} + carriageways ${roads.toFixed(0)} of ${total.toFixed(0)} m²`,
    );
  });

  Deno.test(`city blocks, ${name}: at least ${joinedShare * 100} % of crossings join two blocks`, async () => {
    const { city, found } = await blocksOf(path);
    const withBlocks = { ...city, blocks: found.blocks, crossings: found.crossings };
    const network = new BlockNetwork(withBlocks, { agentRadius: 0.3 });
    let joined = 0;
    for (let c = 0; c < found.crossings.length; c++) {
      if (network.sideA[c] >= 0) {
        joined++;
        assert.notEqual(network.sideA[c], network.sideB[c]);
      }
    }
    const share = joined / found.crossings.length;
    assert.ok(share >= joinedShare, `${joined} of ${found.crossings.length} (${share.toFixed(3)})`);
    // The builder's own count agrees with the block network's probes within a few crossings.
    assert.ok(Math.abs(found.joined - joined) <= 0.01 * found.crossings.length);
    // Fitting joins more crossings than the mapped points do.
    const unfitted = new BlockNetwork({ ...withBlocks, crossings: city.crossings }, {
      agentRadius: 0.3,
    });
    const before = [...unfitted.sideA].filter((s) => s >= 0).length;
    assert.ok(joined > before, `${joined} fitted, ${before} as mapped`);
    // The largest connected part of blocks holds most blocks with buildings.
    const built = found.blocks.filter((b) => b.buildings.length > 0).map((_, b) => b);
    const main = found.blocks.filter((b, k) =>
      b.buildings.length > 0 && network.component[k] === 0
    ).length;
    assert.ok(main >= 0.8 * built.length, `${main} of ${built.length} built blocks joined`);
  });
}

Deno.test("city blocks: a fitted crossing runs from kerb to kerb of the street it crosses", () => {
  // One street along x, 7 m wide; its crossing drawn 12 m long, reaching into both sidewalks.
  const city = crosswalkCity(50);
  const mapped = { ...city, crossings: [{ ...city.crossings[0], points: [[0, -6], [0, 6]] }] };
  const found = deriveCityBlocks(mapped as unknown as CityModel);
  assert.equal(found.blocks.length, 2);
  const [a, b] = found.crossings[0].points;
  assert.ok(Math.abs(a[1] + 3.5) < 0.01 && Math.abs(b[1] - 3.5) < 0.01, `${a} → ${b}`);
  assert.equal(found.joined, 1);
  // Too short to reach the kerbs: it reaches out up to kerbSearch.
  const short = { ...city, crossings: [{ ...city.crossings[0], points: [[0, -1], [0, 1]] }] };
  const fitted = deriveCityBlocks(short as unknown as CityModel).crossings[0].points;
  assert.ok(Math.abs(fitted[0][1] + 3.5) < 0.01 && Math.abs(fitted[1][1] - 3.5) < 0.01);
  assert.equal(deriveCityBlocks(short as unknown as CityModel, { kerbSearch: 1 }).joined, 0);
});

Deno.test("city blocks: a street cut off just inside the map's edge still splits the land", () => {
  // The street ends 10 m before the edge at x = 60: within edgeSnap it runs on to the edge.
  const city = crosswalkCity(60);
  const edges = city.streets.edges.map((e) => ({
    ...e,
    points: e.points.map(([x, y]) => [Math.max(-50, Math.min(50, x)), y]),
  }));
  const cut = {
    ...city,
    bounds: [-60, -9.5, 60, 9.5],
    streets: { ...city.streets, edges },
  } as unknown as CityModel;
  assert.ok(city.streets.edges.every(drivenStreet));
  assert.equal(deriveCityBlocks(cut).blocks.length, 2);
  assert.equal(deriveCityBlocks(cut, { edgeSnap: 5 }).blocks.length, 1);
});

Deno.test("city blocks: slivers below minBlockArea are dropped, buildings go to the block holding most of them", () => {
  const city = crosswalkCity(50);
  // A building mostly on the north sidewalk, reaching 0.5 m into the street.
  const building = {
    id: "gen/b",
    polygon: [[[-5, 3], [5, 3], [5, 9], [-5, 9]]],
    height: 10,
    heightSource: "default",
    levels: null,
    name: null,
    kind: "yes",
  };
  const withBuilding = { ...city, buildings: [building] } as unknown as CityModel;
  const found = deriveCityBlocks(withBuilding);
  const north = found.blocks.findIndex((b) => b.polygon[0].some(([, y]) => y > 5));
  assert.equal(found.buildingBlock[0], north);
  assert.deepEqual(found.cut, [0]);
  // The city with blocks reports it in one warning line naming it.
  const warned = withCityBlocks({ ...withBuilding, blocks: null }).warnings ?? [];
  assert.equal(warned.length, 1);
  assert.match(warned[0], /^blocks: 1 buildings reach into a carriageway .*: gen\/b$/);
  // Each side is 800 m × 6 m: dropped when the least area is larger.
  assert.equal(deriveCityBlocks(withBuilding, { minBlockArea: 4700 }).blocks.length, 2);
  assert.equal(deriveCityBlocks(withBuilding, { minBlockArea: 4900 }).blocks.length, 0);
});

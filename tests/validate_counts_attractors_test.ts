import assert from "node:assert/strict";
import { validateCountsMain } from "../cli/validate_counts.ts";
import { at, osmXml, type TestNode } from "../geo/_test_maps.ts";

/** A 4 × 4 grid of footways 100 m apart, with `pois` as tagged nodes; sites mid-street. */
async function grid(pois: Record<string, string>[]): Promise<{ map: string; sites: string }> {
  const nodes: TestNode[] = [], ways: [number, number[], Record<string, string>][] = [];
  const id = (i: number, j: number) => 1 + j * 4 + i;
  for (let j = 0; j < 4; j++) {
    for (let i = 0; i < 4; i++) nodes.push([id(i, j), ...at(i * 100, j * 100)]);
  }
  let way = 100;
  for (let j = 0; j < 4; j++) {
    for (let i = 0; i < 4; i++) {
      if (i < 3) ways.push([way++, [id(i, j), id(i + 1, j)], { highway: "footway" }]);
      if (j < 3) ways.push([way++, [id(i, j), id(i, j + 1)], { highway: "footway" }]);
    }
  }
  pois.forEach((tags, k) => nodes.push([1000 + k, ...at(52 + 100 * k, 2), tags]));
  const dir = await Deno.makeTempDir();
  const map = `${dir}/grid.osm`, sites = `${dir}/sites.csv`;
  await Deno.writeTextFile(map, osmXml(nodes, ways));
  const rows = [[50, 0], [150, 0], [0, 50], [100, 150], [250, 200], [300, 250]].map(([x, y], k) =>
    [`s${k}`, ...at(x, y), 100 * (k + 1)].join(",")
  );
  await Deno.writeTextFile(sites, ["id,lon,lat,count", ...rows].join("\n"));
  return { map, sites };
}

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [], log = console.log;
  console.log = (...v: unknown[]) => lines.push(v.join(" "));
  try {
    const code = await validateCountsMain(args);
    return { code, out: lines.join("\n") };
  } finally {
    console.log = log;
  }
}

const QUICK = ["--agents", "200", "--warmup", "100", "--steps", "600", "-q"];

Deno.test("validate-counts runs attractor and trip walkers and says what attractors the city has", async () => {
  const { map, sites } = await grid([{ shop: "bakery" }, { railway: "station" }]);
  const { code, out } = await run([
    "--city",
    map,
    "--sites",
    sites,
    "--navigators",
    "attractors,trips",
    ...QUICK,
    "--json",
  ]);
  assert.equal(code, 0);
  const json = JSON.parse(out);
  assert.deepEqual(json.results.map((r: { navigator: string }) => r.navigator), [
    "attractors",
    "trips",
  ]);
  assert.match(json.results[0].notice, /2 points of interest \(1 public transport\)/);
  assert.match(json.results[1].notice, /1 public transport nodes/);
  assert.ok(json.results.every((r: { counts: number[] }) => r.counts.some((c) => c > 0)));
});

Deno.test("validate-counts on a city without points of interest: visibility alone, said in one line", async () => {
  const { map, sites } = await grid([]);
  const { code, out } = await run([
    "--city",
    map,
    "--sites",
    sites,
    "--navigators",
    "affordance,attractors",
    "--navigator-option",
    "attraction=2",
    ...QUICK,
  ]);
  assert.equal(code, 0);
  assert.match(out, /^attractors: grid: no points of interest mapped: .*visibility alone$/m);
  await assert.rejects(
    () =>
      run([
        "--city",
        map,
        "--sites",
        sites,
        "--navigators",
        "affordance",
        "--navigator-option",
        "attraction=2",
      ]),
    /none of affordance has an option 'attraction'/,
  );
  await assert.rejects(
    () =>
      run([
        "--city",
        map,
        "--sites",
        sites,
        "--navigators",
        "attractors",
        "--navigator-option",
        'attractorWeights={"shop":-1}',
        ...QUICK,
      ]),
    /'shop' must be a number >= 0/,
  );
});

import assert from "node:assert/strict";
import { at, osmXml } from "../geo/_test_maps.ts";
import { runCli } from "./_cli.ts";
import { ReplayFrameSource } from "../viewer/replay_source.ts";
import { sceneFromWorld } from "../viewer/scene_info.ts";
import { resolveScenario } from "../scenarios/resolve.ts";
import { buildScenario } from "../scenarios/build.ts";
import { strategies } from "../strategies/mod.ts";

const SYDNEY =
  new URL("../../shared/data/cities/sydney-cbd/osm/sydneycbd_2023.osm.pbf", import.meta.url)
    .pathname;

Deno.test("city: bad map files and boxes end with one line and exit code 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bytes = await Deno.readFile(SYDNEY);
    const cut = `${dir}/cut.osm.pbf`;
    await Deno.writeFile(cut, bytes.subarray(0, 100_000));
    const notOsm = `${dir}/page.osm`;
    await Deno.writeTextFile(notOsm, "<html><body>not a map</body></html>");
    for (
      const [args, message] of [
        [[cut], /cut\.osm\.pbf: truncated or corrupt OSM PBF file/],
        [[notOsm], /page\.osm: not an OpenStreetMap XML file: the root element is <html>/],
        [[SYDNEY, "--bbox", "10,10,10.01,10.01"], /holds no map data/],
        [[SYDNEY, "--bbox", "151.21,-33.86,151.20,-33.85"], /--bbox' is empty/],
        [[`${dir}/missing.osm`], /cannot read .*missing\.osm.*no such file/],
      ] as const
    ) {
      const r = await runCli("city", [...args, "--no-mesh"]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert(!/\bat\s.*\.ts:\d+/.test(r.stderr), "no stack trace");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("city: --export writes the city and walkable area as GeoJSON and prints a summary", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const map = `${dir}/street.osm`;
    await Deno.writeTextFile(
      map,
      osmXml(
        [
          [1, ...at(-60, 0)],
          [2, ...at(0, 0), { highway: "crossing" }],
          [3, ...at(60, 0)],
          [
            4,
            ...at(-10, 12),
          ],
          [5, ...at(10, 12)],
          [6, ...at(10, 30)],
          [7, ...at(-10, 30)],
        ],
        [
          [10, [1, 2, 3], { highway: "residential", sidewalk: "both" }],
          [11, [4, 5, 6, 7, 4], { building: "yes", "building:levels": "5" }],
        ],
      ),
    );
    const out = `${dir}/city.geojson`;
    const r = await runCli("city", [map, "--export", out, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.buildings, 1);
    assert.equal(summary.streetEdges, 2);
    assert.equal(summary.crossings, 1);
    assert.equal(summary.walkableRegions, 1);
    assert.deepEqual(summary.unreachableNodes, {});
    const { rss, heapUsed } = summary.memoryMiB;
    assert(
      heapUsed > 0 && rss > heapUsed && rss < 2048,
      `${rss} MiB resident, ${heapUsed} MiB heap`,
    );
    const doc = JSON.parse(await Deno.readTextFile(out));
    assert.equal(doc.type, "FeatureCollection");
    const layers = doc.features.map((f: { properties: Record<string, unknown> }) =>
      f.properties["throng:layer"]
    );
    assert(layers.includes("building") && layers.includes("walkable"));
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "city.geojson",
      "street.osm",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sim --out on a city writes the city's layers beside the recording, and its replay draws them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/city.bin`;
    const r = await runCli("sim", [
      "--scenario",
      "city",
      "--agents",
      "50",
      "--steps",
      "10",
      "--out",
      path,
      "--json",
    ], ["--allow-read", "--allow-write", "--allow-env"]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout).out;
    assert.equal(out.scene, `${path}.scene.json`);

    const replay = (await ReplayFrameSource.load([path]).open({
      frames() {},
      error() {},
      statusChanged() {},
    })).info().scene;
    // The live run's scene of the same city, as the viewer builds it.
    const { spec, source, resources } = await resolveScenario("city", { agents: 50 });
    const built = buildScenario(spec, { registry: strategies, resources, source });
    const live = sceneFromWorld(built.world, built.spec, {
      city: resources!.city!,
      mesh: built.navMesh,
    });
    assert.ok(replay.city, "the replay has the city's layers");
    assert.equal(replay.city.buildings.length, live.city!.buildings.length);
    assert.equal(replay.city.streets.length, live.city!.streets.length);
    assert.ok(replay.city.buildings.length > 100, `${replay.city.buildings.length} buildings`);
    assert.deepEqual(replay.anchor, live.anchor);

    // Without the scene file, the recording alone replays with its header's obstacles only.
    await Deno.remove(`${path}.scene.json`);
    const bare = ReplayFrameSource.load([path]).recordings[0];
    assert.equal(bare.scene, null);
    // A damaged scene file is refused with its name.
    await Deno.writeTextFile(`${path}.scene.json`, '{"name": 1}');
    assert.throws(
      () => ReplayFrameSource.load([path]),
      /scene file '.*city\.bin\.scene\.json': expected the viewer's scene/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

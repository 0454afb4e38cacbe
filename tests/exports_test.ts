/**
 * The package's entry points as a user imports them (`@throng/throng`, `@throng/throng/steering`,
 * …): the front door holds what a script composes a run from and nothing of the internals, every
 * area has its own entry, and no library entry depends on the command-line tools.
 *
 * @module
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
  name: string;
  exports: Record<string, string>;
};

/** What each entry must offer: names a user of that area reaches for. */
const EXPECTED: Record<string, string[]> = {
  ".": [
    "World",
    "strategies",
    "createGoalSeeker",
    "createNavMeshNavigator",
    "MetricsCollector",
    "resolveScenario",
    "compareStrategies",
    "TrajectoryRecorder",
    "readTrajectory",
    "LocalProjection",
  ],
  "./core": ["World", "AgentGrid", "SegmentGrid", "cross", "pointSegmentDistanceSq", "Rng"],
  "./strategies": ["strategies", "orcaStrategy", "ORCA_OPTIONS", "createOrcaStrategy"],
  "./steering": ["createSeekBehaviour", "createSeparationBehaviour", "wrapStrategy"],
  "./scenarios": ["ScenarioSchema", "loadScenarioFile", "BUILTIN_SCENARIOS"],
  "./metrics": ["MetricsCollector", "formatCsvRow", "METRIC_NAMES"],
  "./recording": ["BinaryTrajectoryWriter", "readTrajectory", "BINARY_TRAJECTORY_MAGIC"],
  "./geo": ["LocalProjection", "generateProceduralCity"],
  "./traffic": ["CarSystem", "IntelligentDriver", "buildLaneNetwork", "buildTrafficLights"],
  "./navigation": ["buildNavMesh", "NavMeshQuery", "unionAreas", "stringPull", "navigators"],
  "./plots": ["renderTrajectorySvg", "TrajectorySampler"],
  "./viewer": ["startViewerServer", "LiveFrameSource", "ReplayFrameSource", "decodeAgentFrame"],
};

/** Helpers of one area that the front door must not carry (they stay in their area's entry). */
const NOT_IN_FRONT_DOOR = [
  "cross",
  "pointSegmentDistanceSq",
  "segmentsIntersect",
  "AgentGrid",
  "SegmentGrid",
  "PlacementIndex",
  "RngStream",
  "CORE_COLUMNS",
  "NAVMESH_STATUS_COLUMN",
  "NAVMESH_TRIANGLE_COLUMN",
  "REPULSION_BLOCKED_COLUMN",
  "stringPull",
  "extractBorderEdges",
  "EMPTY_CELL",
  "formatCsvRow",
  "ScenarioSchema",
  "BINARY_TRAJECTORY_MAGIC",
  "binaryFrameBytes",
];

Deno.test("every area has an entry point that offers what its users reach for", async () => {
  assert.deepEqual(Object.keys(config.exports).sort(), Object.keys(EXPECTED).sort());
  for (const [entry, names] of Object.entries(EXPECTED)) {
    const specifier = entry === "." ? config.name : `${config.name}/${entry.slice(2)}`;
    const module = await import(specifier);
    for (const name of names) {
      assert.ok(name in module, `${specifier} does not export '${name}'`);
    }
    const source = await Deno.readTextFile(new URL(config.exports[entry], ROOT));
    assert.match(source, /^\/\*\*[\s\S]*?@module/, `${config.exports[entry]} has no module doc`);
  }
});

Deno.test("the front door keeps each area's internals in that area's entry", async () => {
  const front = await import("@throng/throng");
  const core = await import("@throng/throng/core");
  const leaked = NOT_IN_FRONT_DOOR.filter((name) => name in front);
  assert.deepEqual(leaked, []);
  assert.ok(Object.keys(front).length <= 60, `${Object.keys(front).length} runtime names`);
  // Plugin writers still reach the helpers, through ./core.
  assert.equal(typeof core.cross, "function");
});

Deno.test("no library entry depends on the command-line tools", async () => {
  for (const [entry, file] of Object.entries(config.exports)) {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", file],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
      modules: { specifier: string }[];
    };
    const cli = graph.modules.map((m) => m.specifier).filter((s) => s.includes("/cli/"));
    assert.deepEqual(cli, [], `${entry} (${file}) imports command-line modules`);
  }
});

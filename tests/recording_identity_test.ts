/**
 * Refactoring guard: the same seed gives byte-identical recordings, for every registered strategy
 * on every built-in scenario, compared against SHA-256 digests of recordings made before the
 * change (`tests/fixtures/recording_digests.json`).
 *
 * When behaviour changes on purpose, regenerate the digests and say why in the commit:
 * `deno run --allow-read --allow-write tests/recording_identity_test.ts --update`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { BUILTIN_SCENARIOS } from "../scenarios/builtin/mod.ts";
import { buildScenario } from "../scenarios/build.ts";
import { strategies } from "../strategies/mod.ts";
import { TrajectoryRecorder } from "../recording/recorder.ts";

/** Agents per scenario and steps per run: small enough for the suite, long enough to interact. */
const AGENTS = 80;
const STEPS = 400;
const SEED = 7;
const FIXTURE = new URL("./fixtures/recording_digests.json", import.meta.url);

async function digestOf(scenario: string, strategy: string, dir: string): Promise<string> {
  const spec = BUILTIN_SCENARIOS[scenario].create(AGENTS);
  const built = buildScenario(spec, {
    registry: strategies,
    resources: BUILTIN_SCENARIOS[scenario].resources?.(),
    strategy: { name: strategy },
    seed: SEED,
    steps: STEPS,
  });
  const path = `${dir}/${scenario}-${strategy}.bin`;
  const recorder = new TrajectoryRecorder({ path, scenario, meta: {} });
  built.world.addObserver(recorder);
  for (let s = 0; s < STEPS; s++) built.world.step();
  recorder.close();
  const bytes = await Deno.readFile(path);
  return createHash("sha256").update(bytes).digest("hex");
}

async function allDigests(): Promise<Record<string, string>> {
  const dir = await Deno.makeTempDir();
  try {
    const out: Record<string, string> = {};
    // Map scenarios (the built-in city) load a city first; they are not pinned here.
    const pinned = Object.keys(BUILTIN_SCENARIOS).filter((n) =>
      !BUILTIN_SCENARIOS[n].create(1).map
    );
    for (const scenario of pinned.sort()) {
      for (const strategy of strategies.names().slice().sort()) {
        out[`${scenario}/${strategy}`] = await digestOf(scenario, strategy, dir);
      }
    }
    return out;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main && Deno.args.includes("--update")) {
  const digests = await allDigests();
  await Deno.writeTextFile(FIXTURE, JSON.stringify(digests, null, 2) + "\n");
  console.log(`wrote ${Object.keys(digests).length} digests to ${FIXTURE.pathname}`);
} else {
  Deno.test("the same seed gives byte-identical recordings to those made before the refactoring", async () => {
    const expected = JSON.parse(await Deno.readTextFile(FIXTURE)) as Record<string, string>;
    const actual = await allDigests();
    const changed = Object.keys(expected).filter((k) => k in actual && actual[k] !== expected[k]);
    assert.deepEqual(changed, [], `recordings changed for ${changed.join(", ")}`);
    for (const key of Object.keys(expected)) assert.ok(key in actual, `no run for ${key}`);
  });
}

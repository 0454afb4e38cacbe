import assert from "node:assert/strict";
import { strategies } from "../strategies/mod.ts";
import { measureFundamentalDiagram } from "./fundamental_diagram.ts";
import { runSuite, validationTests } from "./suite.ts";
import { DATA_ROOT, useDataRoot } from "./data_files.ts";

Deno.test("a suite run is the same from the same seed and differs with another seed", () => {
  const tests = validationTests().filter((t) => t.id === "rimea-5");
  const run = (seed: number) =>
    runSuite({ strategies: ["orca"], seeds: [seed], registry: strategies, tests }).rows;
  assert.deepEqual(run(3), run(3));
  assert.notDeepEqual(run(3)[0].verdict.figures, run(4)[0].verdict.figures);
});

Deno.test("the ring corridor's fundamental diagram repeats from its seed", () => {
  const measure = () =>
    measureFundamentalDiagram({
      strategy: "orca",
      seed: 5,
      registry: strategies,
      densities: [1],
      warmUpSeconds: 1,
      measureSeconds: 2,
    });
  const [a] = measure(), [b] = measure();
  assert.deepEqual(a, b);
  assert.equal(a.agents, Math.round(1 * 141.3));
  assert.ok(a.density! > 0.6 && a.density! < 1.6, `ρ_V ${a.density}`);
});

Deno.test("a test whose measured files are missing is reported as not run, naming the file, and the others still run", () => {
  const empty = Deno.makeTempDirSync();
  useDataRoot(empty);
  try {
    const tests = validationTests().filter((t) =>
      t.id === "eth-ucy-prediction" || t.id === "rimea-1"
    );
    const r = runSuite({
      strategies: ["none"],
      seeds: [1],
      registry: strategies,
      tests,
      quick: true,
    });
    const eth = r.rows.find((row) => row.test === "eth-ucy-prediction")!;
    assert.equal(eth.verdict.status, "not-run");
    assert.match(eth.verdict.summary, /cannot read the measured data: .*biwi_eth\.txt: not found/);
    assert.equal(r.rows.find((row) => row.test === "rimea-1")!.verdict.status, "pass");
  } finally {
    useDataRoot(DATA_ROOT);
    Deno.removeSync(empty, { recursive: true });
  }
});

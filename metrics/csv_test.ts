import assert from "node:assert/strict";
import { formatCsv, formatCsvHeader, formatCsvRow } from "./csv.ts";
import { METRIC_NAMES, type RunMetrics } from "./run_metrics.ts";

function run(value: number | null, overrides: Partial<RunMetrics> = {}): RunMetrics {
  const metrics = Object.fromEntries(METRIC_NAMES.map((name) => [name, value]));
  return { ...metrics, ...overrides } as RunMetrics;
}

Deno.test("csv header names strategy, seed and every metric in order", () => {
  assert.deepEqual(formatCsvHeader().split(","), ["strategy", "seed", ...METRIC_NAMES]);
});

Deno.test("csv rows keep full precision and leave null metrics empty", () => {
  const fields = formatCsvRow({
    strategy: "orca",
    seed: 42,
    metrics: run(0.1 + 0.2, { minDistance: null }),
  })
    .split(",");
  assert.equal(fields.length, 2 + METRIC_NAMES.length);
  assert.equal(fields[0], "orca");
  assert.equal(fields[1], "42");
  assert.equal(fields[2 + METRIC_NAMES.indexOf("collisions")], "0.30000000000000004");
  assert.equal(fields[2 + METRIC_NAMES.indexOf("minDistance")], "");
});

Deno.test("csv quotes strategy names with commas or quotes", () => {
  const row = formatCsvRow({ strategy: 'ray "cast", v2', seed: 1, metrics: run(0) });
  assert.ok(row.startsWith('"ray ""cast"", v2",1,0,'));
});

Deno.test("csv document is a header plus one line per run", () => {
  const csv = formatCsv([
    { strategy: "none", seed: 1, metrics: run(1) },
    { strategy: "orca", seed: 1, metrics: run(2) },
  ]);
  const lines = csv.split("\n");
  assert.equal(lines.length, 4);
  assert.equal(lines[0], formatCsvHeader());
  assert.ok(lines[2].startsWith("orca,1,2,2,"));
  assert.equal(lines[3], "");
});

Deno.test("csv rows carry the salsa count after the turn rate", () => {
  const header = formatCsvHeader().split(",");
  assert.equal(header[header.indexOf("meanTurnRate") + 1], "salsa");
  const fields = formatCsvRow({
    strategy: "raycast-cluster",
    seed: 3,
    metrics: run(0, { salsa: 17 }),
  }).split(",");
  assert.equal(fields[header.indexOf("salsa")], "17");
});

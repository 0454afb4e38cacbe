import assert from "node:assert/strict";
import { strategies } from "../strategies/mod.ts";
import { ETH_UCY_SCENES, readEthUcyScene } from "./data_files.ts";
import { withStrategyVariants } from "./strategy_variants.ts";
import {
  BODY_RADIUS,
  PREDICTION_ORCA,
  predictScene,
  sceneTracks,
} from "./trajectory_prediction.ts";

const registry = withStrategyVariants(strategies, [PREDICTION_ORCA]);

function scene(name: string) {
  const found = ETH_UCY_SCENES.find((s) => s.name === name);
  if (!found) throw new Error(`no ETH/UCY scene '${name}'`);
  return found;
}

Deno.test("the prediction starts in constant velocity's state: without avoidance it is the baseline", () => {
  const hotel = scene("hotel");
  const e = predictScene(hotel, sceneTracks(readEthUcyScene(hotel)), {
    strategy: "none",
    registry,
  });
  assert.ok(e.scored > 200, `${e.scored} people-windows`);
  assert.ok(Math.abs(e.ade! - e.cvAde!) < 1e-9, `ADE ${e.ade} against ${e.cvAde}`);
  assert.ok(Math.abs(e.fde! - e.cvFde!) < 1e-9, `FDE ${e.fde} against ${e.cvFde}`);
});

Deno.test("ORCA with a 0.25 s horizon beats constant velocity on the HOTEL and ETH test windows", () => {
  for (const name of ["hotel", "eth"]) {
    const s = scene(name);
    assert.equal(s.role, "test");
    const e = predictScene(s, sceneTracks(readEthUcyScene(s)), {
      strategy: PREDICTION_ORCA,
      registry,
    });
    // Measured: HOTEL 0.298 against 0.308 m, ETH 1.126 against 1.136 m (289 and 97 windows).
    assert.ok(e.ade! < e.cvAde!, `${name}: ADE ${e.ade} not below constant velocity's ${e.cvAde}`);
    assert.ok(e.fde! < e.cvFde!, `${name}: FDE ${e.fde} not below constant velocity's ${e.cvFde}`);
  }
});

Deno.test("a pair seen walking side by side closer than two body radii is not pushed apart", () => {
  // Two people 0.3 m apart (less than 2 × 0.215 m) walking together at 1.2 m/s, and someone
  // crossing far away: each is predicted on their straight line.
  const gap = 0.3, step = 1.2 * 0.4, n = 30;
  assert.ok(gap < 2 * BODY_RADIUS);
  const rows = { sample: [] as number[], id: [] as number[], x: [] as number[], y: [] as number[] };
  for (let s = 0; s < n; s++) {
    for (const [id, x, y] of [[1, s * step, 0], [2, s * step, gap], [3, 30, -20 + s * step]]) {
      rows.sample.push(s);
      rows.id.push(id);
      rows.x.push(x);
      rows.y.push(y);
    }
  }
  const tracks = sceneTracks({
    sample: Int32Array.from(rows.sample),
    id: Int32Array.from(rows.id),
    x: Float64Array.from(rows.x),
    y: Float64Array.from(rows.y),
  });
  const pair = {
    name: "pair",
    file: "",
    sampleSeconds: 0.4,
    walkingSide: "right" as const,
    role: "test" as const,
  };
  const e = predictScene(pair, tracks, { strategy: PREDICTION_ORCA, registry, stride: 2 });
  assert.ok(e.scored >= 3 * 5, `${e.scored} people-windows`);
  assert.ok(e.ade! < 0.005, `ADE ${e.ade} m: the pair was pushed apart`);
});

import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { strategies } from "../strategies/mod.ts";
import { binnedReference, referenceRmse } from "./fundamental_diagram.ts";
import { laneOrderOf } from "./lane_order_of.ts";
import { steadyFlow } from "./line_crossings.ts";
import { MeasurementArea } from "./measurement_area.ts";
import { predictScene, sceneTracks } from "./trajectory_prediction.ts";
import { weidmannRmse, weidmannSpeed } from "./weidmann.ts";

Deno.test("Voronoi density of a hexagonal lattice is 2/(√3 a²) in the middle of a room", () => {
  const a = 0.6, walkable = [[[0, 0], [12, 0], [12, 12], [0, 12]]] as const;
  const area = new MeasurementArea(walkable, [[5, 5], [7, 5], [7, 7], [5, 7]]);
  const x: number[] = [], y: number[] = [], v: number[] = [];
  for (let row = 0; row * a * Math.sqrt(3) / 2 < 12; row++) {
    for (let col = 0; col * a < 12; col++) {
      x.push(col * a + (row % 2) * a / 2 + 0.1);
      y.push(row * a * Math.sqrt(3) / 2 + 0.1);
      v.push(row % 2 ? 1 : 0.5);
    }
  }
  const m = area.measure(x, y, v);
  const expected = 2 / (Math.sqrt(3) * a * a); // 3.21 persons/m²
  // Clipping rounds to 0.1 mm.
  assert.ok(Math.abs(m.density - expected) < 1e-3, `ρ_V ${m.density} against ${expected}`);
  // Rows alternate 0.5 and 1 m/s and own equal areas: the area-weighted speed is 0.75 m/s.
  assert.ok(Math.abs(m.speed - 0.75) < 0.05, `v_V ${m.speed}`);
});

Deno.test("Voronoi cells are clipped by the walls: one file of walkers 1 m apart in a 1 m corridor is 1 /m²", () => {
  const walkable = [[[0, 0], [20, 0], [20, 1], [0, 1]]] as const;
  const area = new MeasurementArea(walkable, [[8, 0], [12, 0], [12, 1], [8, 1]]);
  const x = Array.from({ length: 20 }, (_, k) => k + 0.5), y = x.map(() => 0.5);
  const m = area.measure(x, y, x.map(() => 1.2));
  assert.ok(Math.abs(m.density - 1) < 1e-6, `ρ_V ${m.density}`);
  assert.ok(Math.abs(m.speed - 1.2) < 1e-6);
  assert.equal(m.classicalDensity, 1);
});

Deno.test("a cut-off radius bounds a lone walker's cell: 1/(π r²) inside its circle", () => {
  const walkable = [[[0, 0], [20, 0], [20, 20], [0, 20]]] as const;
  const area = new MeasurementArea(walkable, [[9.5, 9.5], [10.5, 9.5], [10.5, 10.5], [9.5, 10.5]], {
    cutOffRadius: 2,
    cutOffSides: 96,
  });
  const m = area.measure([10], [10], [1]);
  // The 1 m² area lies inside the lone walker's 2 m circle: its share is 1/(π·4) per m².
  assert.ok(Math.abs(m.density - 1 / (Math.PI * 4)) < 0.002, `ρ_V ${m.density}`);
  // Without a cut-off, the walker owns the whole 400 m² room.
  const open = new MeasurementArea(walkable, [[9.5, 9.5], [10.5, 9.5], [10.5, 10.5], [9.5, 10.5]]);
  assert.ok(Math.abs(open.measure([10], [10], [1]).density - 1 / 400) < 1e-9);
});

Deno.test("lane order is 1 for perfect lanes and low for a randomly mixed crowd", () => {
  const x: number[] = [], y: number[] = [], dx: number[] = [], dy: number[] = [];
  for (let lane = 0; lane < 6; lane++) {
    for (let k = 0; k < 10; k++) {
      x.push(k * 0.8);
      y.push(lane * 0.6);
      dx.push(lane % 2 ? -1 : 1);
      dy.push(0);
    }
  }
  assert.equal(laneOrderOf(x, y, dx, dy), 1);
  const rng = new Rng(7);
  const mixed = dx.map(() => (rng.next() < 0.5 ? 1 : -1));
  const phi = laneOrderOf(x, y, mixed, dy)!;
  assert.ok(phi < 0.35, `Φ of a random mix ${phi}`);
});

Deno.test("constant velocity predicts straight walkers exactly, and so does simulating them without avoidance", () => {
  const n = 30, walkers = [[0, 0, 0.5, 0], [0, 10, 0.4, 0.3], [20, 0, -0.45, 0.1]];
  const rows = { sample: [] as number[], id: [] as number[], x: [] as number[], y: [] as number[] };
  for (let s = 0; s < n; s++) {
    walkers.forEach(([x0, y0, dx, dy], k) => {
      rows.sample.push(s);
      rows.id.push(k + 1);
      rows.x.push(x0 + dx * s);
      rows.y.push(y0 + dy * s);
    });
  }
  const tracks = sceneTracks({
    sample: Int32Array.from(rows.sample),
    id: Int32Array.from(rows.id),
    x: Float64Array.from(rows.x),
    y: Float64Array.from(rows.y),
  });
  const scene = {
    name: "straight",
    file: "",
    sampleSeconds: 0.4,
    walkingSide: "right" as const,
    role: "test" as const,
  };
  const e = predictScene(scene, tracks, { strategy: "none", registry: strategies, stride: 2 });
  assert.ok(e.scored >= 3 * 5, `${e.scored} people-windows`);
  assert.ok(e.cvAde! < 1e-12 && e.cvFde! < 1e-12);
  assert.ok(e.ade! < 0.01, `simulated ADE ${e.ade}`);
});

Deno.test("Weidmann RMSE and the binned reference of measured points", () => {
  assert.equal(weidmannRmse([[0.5, weidmannSpeed(0.5)], [2, weidmannSpeed(2)]]), 0);
  assert.ok(
    Math.abs(
      weidmannRmse([[1, weidmannSpeed(1) - 0.2], [2, weidmannSpeed(2)]])! - Math.sqrt(0.02),
    ) < 1e-12,
  );
  const data: [number, number][] = [];
  for (let k = 0; k < 200; k++) {
    data.push([0.5 + (k % 100) / 100, 1.5 - (0.5 + (k % 100) / 100) * 0.5]);
  }
  const ref = binnedReference(data, { binWidth: 0.25, minPoints: 10 });
  assert.ok(referenceRmse([[1, 1.0]], ref)! < 0.02);
  assert.equal(referenceRmse([[4, 0.2]], ref), null);
});

Deno.test("steady flow counts the middle 60 % of the crossings", () => {
  const times = Array.from({ length: 100 }, (_, k) => (k < 20 ? 2 * k : 40 + (k - 20) * 0.5));
  assert.equal(steadyFlow(times, 100), 2);
  assert.equal(steadyFlow(times.slice(0, 50), 100), null);
});

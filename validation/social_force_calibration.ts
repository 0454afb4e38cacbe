/**
 * How the `corridor-fitted` and `range-fitted` social force sets were chosen, rerunnable: the
 * speed–density relation of the HERMES unidirectional corridor runs (Düsseldorf 2009, 1.8 m corridor; J. Zhang et al.,
 * "Transitions in pedestrian fundamental diagrams of straight corridors and T-junctions",
 * J. Stat. Mech. (2011) P06004), which the validation suite does not read, against the ring
 * corridor's speeds for candidate strengths A = A_W (and A at B = 0.3 m).
 *
 * ```sh
 * deno run --allow-read validation/social_force_calibration.ts
 * ```
 *
 * @module
 */
import { strategies } from "../strategies/mod.ts";
import { hermesUnidirectionalRun, readJuelichRun } from "./data_files.ts";
import { measureFundamentalDiagram } from "./fundamental_diagram.ts";
import { MeasurementArea } from "./measurement_area.ts";

/** The nine runs of the 1.8 m series with their steady frame ranges (PedPy's, see PROVENANCE). */
export const HERMES_UNIDIRECTIONAL_RUNS: readonly {
  name: string;
  from: number;
  to: number;
}[] = [
  { name: "uo-050-180-180", from: 211, to: 800 },
  { name: "uo-060-180-180", from: 243, to: 771 },
  { name: "uo-070-180-180", from: 203, to: 1113 },
  { name: "uo-100-180-180", from: 200, to: 790 },
  { name: "uo-145-180-180", from: 300, to: 1097 },
  { name: "uo-180-180-070", from: 500, to: 1399 },
  { name: "uo-180-180-095", from: 400, to: 1350 },
  { name: "uo-180-180-120", from: 300, to: 1099 },
  { name: "uo-180-180-180", from: 400, to: 1284 },
];

/** Walkable area of the runs (m, file coordinates; PROVENANCE). */
const WALKABLE: [number, number][] = [
  [2.8, -6.5],
  [2.8, -4],
  [1.8, -4],
  [1.8, 4],
  [2.8, 4],
  [2.8, 8],
  [-1, 8],
  [-1, 4],
  [0, 4],
  [0, -4],
  [-1, -4],
  [-1, -6.5],
];

/**
 * Mean Voronoi speed (m/s, along the walking direction −y) in density bins of 0.5 /m² with at
 * least 20 samples, as [bin centre (/m²), speed]: a 1.8 × 2 m measurement area in the middle of
 * the corridor, one sample every 0.5 s of each run's steady range, each person's speed from its
 * positions 5 frames before and after.
 */
export function hermesUnidirectionalSpeeds(): [number, number][] {
  const area = new MeasurementArea([WALKABLE], [[0, -1], [1.8, -1], [1.8, 1], [0, 1]]);
  const sums = new Map<number, { sum: number; n: number }>();
  const half = 5;
  for (const run of HERMES_UNIDIRECTIONAL_RUNS) {
    const source = hermesUnidirectionalRun(run.name), frameRate = source.frameRate;
    const data = readJuelichRun(source);
    const byFrame = new Map(data.frames.map((f) => [f.frame, f]));
    for (let frame = run.from + half; frame <= run.to - half; frame += frameRate / 2) {
      const f = byFrame.get(frame), a = byFrame.get(frame - half), b = byFrame.get(frame + half);
      if (!f || !a || !b) continue;
      const before = new Map<number, number>(), after = new Map<number, number>();
      for (let i = 0; i < a.count; i++) before.set(a.ids[i], a.y[i]);
      for (let i = 0; i < b.count; i++) after.set(b.ids[i], b.y[i]);
      const xs: number[] = [], ys: number[] = [], vs: number[] = [];
      for (let i = 0; i < f.count; i++) {
        const y0 = before.get(f.ids[i]), y1 = after.get(f.ids[i]);
        if (y0 === undefined || y1 === undefined) continue;
        xs.push(f.x[i]);
        ys.push(f.y[i]);
        vs.push(-(y1 - y0) / ((2 * half) / frameRate));
      }
      const m = area.measure(xs, ys, vs);
      if (!(m.density > 0)) continue;
      const bin = Math.floor(m.density / 0.5);
      const s = sums.get(bin) ?? { sum: 0, n: 0 };
      s.sum += m.speed;
      s.n++;
      sums.set(bin, s);
    }
  }
  return [...sums.entries()].filter(([, s]) => s.n >= 20).sort(([a], [b]) => a - b)
    .map(([bin, s]) => [bin * 0.5 + 0.25, s.sum / s.n]);
}

/** Linear interpolation of `points` at `x`; null outside their range (beyond the first: first). */
function interpolate(points: readonly [number, number][], x: number): number | null {
  if (x <= points[0][0]) return points[0][1];
  for (let i = 1; i < points.length; i++) {
    if (x <= points[i][0]) {
      const [x0, y0] = points[i - 1], [x1, y1] = points[i];
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    }
  }
  return null;
}

/**
 * RMSE (m/s) of the ring corridor's speeds at 0.5–3 /m² (seed 2, 10 s settling, 15 s measured)
 * for `social-force` with `options`, against `reference` (from
 * {@linkcode hermesUnidirectionalSpeeds}), over the densities inside the reference's range.
 */
export function ringRmseAgainst(
  reference: readonly [number, number][],
  options: Record<string, unknown>,
): number {
  const points = measureFundamentalDiagram({
    strategy: "social-force",
    seed: 2,
    registry: strategies,
    densities: [0.5, 1, 1.5, 2, 2.5, 3],
    warmUpSeconds: 10,
    measureSeconds: 15,
    strategyOptions: options,
  });
  let sum = 0, n = 0;
  for (const p of points) {
    const ref = p.density === null ? null : interpolate(reference, p.density);
    if (ref === null || p.speed === null) continue;
    sum += (p.speed - ref) ** 2;
    n++;
  }
  return Math.sqrt(sum / n);
}

/** Strengths A (N) tried for the `range-fitted` set, with B = 0.3 m and the backward limit. */
export const RANGE_FITTED_CANDIDATES: readonly number[] = [134, 250, 375, 500, 750];

if (import.meta.main) {
  const reference = hermesUnidirectionalSpeeds();
  console.log(
    "HERMES unidirectional:",
    reference.map(([d, v]) => `${d} /m²: ${v.toFixed(2)} m/s`).join(", "),
  );
  for (const strength of [250, 500, 750, 1000, 1250, 2000]) {
    for (const walls of [false, true]) {
      const options = {
        noBackwardPush: true,
        socialStrength: strength,
        ...(walls ? { wallStrength: strength } : {}),
      };
      console.log(JSON.stringify(options), "RMSE", ringRmseAgainst(reference, options).toFixed(3));
    }
  }
  // `range-fitted`: Helbing and Molnár's (1995) range B = 0.3 m; 134 N is their potential's
  // force m·(V⁰/σ)·e^(−d/σ) at the contact of two 0.215 m bodies (d = 0.43 m).
  for (const strength of RANGE_FITTED_CANDIDATES) {
    const options = { noBackwardPush: true, socialStrength: strength, socialRange: 0.3 };
    console.log(JSON.stringify(options), "RMSE", ringRmseAgainst(reference, options).toFixed(3));
  }
}

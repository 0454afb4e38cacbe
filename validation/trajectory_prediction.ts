/**
 * Trajectory prediction on the ETH/UCY test scenes (ETH, HOTEL, ZARA01, ZARA02): every person seen for 8 consecutive samples
 * (3.2 s at 0.4 s; 5.3 s in ETH's file at 0.667 s) is predicted for the next 12, by simulating
 * everyone present at the last observed sample forward with a strategy, and by the
 * constant-velocity baseline. Average (ADE) and final (FDE) displacement errors over the 12
 * predicted samples (the protocol of A. Alahi et al., Social LSTM, CVPR 2016).
 *
 * Each simulated person starts at their last observed position and velocity (the last observed
 * displacement), walks towards a goal far ahead along that velocity at their own mean observed
 * speed, on the walking side of the scene's city. No scene obstacles are modelled; nothing is
 * fitted to the data.
 *
 * @module
 */
import { distributionMean, SHOULDER_RADIUS } from "../core/distribution.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { World } from "../core/world.ts";
import type { StrategyRegistry } from "../core/registry.ts";
import { constantVelocityPrediction, displacementError } from "./displacement_error.ts";
import {
  ETH_UCY_SCENES,
  type EthUcySamples,
  type EthUcyScene,
  readEthUcyScene,
} from "./data_files.ts";
import { defineTest, fmt, meanOf, type ValidationTest } from "./validation_test_spec.ts";

/** Body radius of everyone (m): the mean shoulder radius (who is who is not known). */
const BODY_RADIUS = distributionMean(SHOULDER_RADIUS);

/** Samples observed. */
export const OBSERVED = 8;
/** Samples predicted. */
export const PREDICTED = 12;

/** Per-person tracks of a scene, indexed by sample. */
export interface SceneTracks {
  /** Person id → sample → [x, y]. */
  readonly tracks: Map<number, Map<number, [number, number]>>;
  /** Person ids present at each sample. */
  readonly present: Map<number, number[]>;
  /** Largest sample index. */
  readonly lastSample: number;
}

/** Groups the samples of a scene by person. */
export function sceneTracks(samples: EthUcySamples): SceneTracks {
  const tracks = new Map<number, Map<number, [number, number]>>();
  const present = new Map<number, number[]>();
  let lastSample = 0;
  for (let k = 0; k < samples.id.length; k++) {
    const id = samples.id[k], s = samples.sample[k];
    if (!tracks.has(id)) tracks.set(id, new Map());
    tracks.get(id)!.set(s, [samples.x[k], samples.y[k]]);
    if (!present.has(s)) present.set(s, []);
    present.get(s)!.push(id);
    if (s > lastSample) lastSample = s;
  }
  return { tracks, present, lastSample };
}

/** Errors of one scene: means over the scored people. */
export interface SceneErrors {
  /** Scene name. */
  scene: string;
  /** People scored (person-windows). */
  scored: number;
  /** Mean ADE of the simulation (m). */
  ade: number | null;
  /** Mean FDE of the simulation (m). */
  fde: number | null;
  /** Mean ADE of constant velocity (m). */
  cvAde: number | null;
  /** Mean FDE of constant velocity (m). */
  cvFde: number | null;
}

/** Options of {@linkcode predictScene}. */
export interface PredictSceneOptions {
  /** Strategy name. */
  strategy: string;
  /** Registry. */
  registry: StrategyRegistry;
  /** Seed of the simulations. @default 1 */
  seed?: number;
  /** Samples between two window starts. @default 4 */
  stride?: number;
  /** Simulation steps per sample. @default 8 */
  stepsPerSample?: number;
}

/**
 * Predicts every window of a scene with a strategy and with constant velocity.
 *
 * @example Synthetic walkers on straight lines: constant velocity is exact
 * ```ts
 * import { predictScene, sceneTracks } from "./trajectory_prediction.ts";
 * import { strategies } from "../strategies/mod.ts";
 * import assert from "node:assert/strict";
 * const n = 25, rows = { sample: new Int32Array(2 * n), id: new Int32Array(2 * n), x: new Float64Array(2 * n), y: new Float64Array(2 * n) };
 * for (let s = 0; s < n; s++) {
 *   rows.sample[2 * s] = rows.sample[2 * s + 1] = s;
 *   rows.id[2 * s] = 1; rows.x[2 * s] = 0.5 * s; rows.y[2 * s] = 0;
 *   rows.id[2 * s + 1] = 2; rows.x[2 * s + 1] = 0; rows.y[2 * s + 1] = 20 + 0.5 * s;
 * }
 * const scene = { name: "synthetic", file: "", sampleSeconds: 0.4, walkingSide: "right" as const, role: "test" as const };
 * const e = predictScene(scene, sceneTracks(rows), { strategy: "none", registry: strategies });
 * assert.equal(e.cvAde, 0);
 * assert.ok(e.ade! < 0.01);
 * ```
 */
export function predictScene(
  scene: EthUcyScene,
  data: SceneTracks,
  options: PredictSceneOptions,
): SceneErrors {
  const stride = options.stride ?? 4, perSample = options.stepsPerSample ?? 8;
  const dt = scene.sampleSeconds / perSample;
  const ades: number[] = [], fdes: number[] = [], cvAdes: number[] = [], cvFdes: number[] = [];
  for (let s0 = 0; s0 + OBSERVED + PREDICTED - 1 <= data.lastSample; s0 += stride) {
    const last = s0 + OBSERVED - 1;
    const scored: number[] = [];
    const starts: { id: number; x: number; y: number; vx: number; vy: number; speed: number }[] =
      [];
    for (const id of data.present.get(last) ?? []) {
      const t = data.tracks.get(id)!;
      const p = t.get(last), q = t.get(last - 1);
      if (!p || !q) continue;
      let dist = 0, n = 0;
      for (let s = last; s > s0 && t.has(s) && t.has(s - 1); s--) {
        const a = t.get(s)!, b = t.get(s - 1)!;
        dist += Math.hypot(a[0] - b[0], a[1] - b[1]);
        n++;
      }
      const vx = (p[0] - q[0]) / scene.sampleSeconds, vy = (p[1] - q[1]) / scene.sampleSeconds;
      starts.push({
        id,
        x: p[0],
        y: p[1],
        vx,
        vy,
        speed: n > 0 ? dist / (n * scene.sampleSeconds) : 0,
      });
      let full = true;
      for (let s = s0; s <= last + PREDICTED; s++) if (!t.has(s)) full = false;
      if (full) scored.push(id);
    }
    if (scored.length === 0) continue;
    const world = new World({
      strategy: options.registry.create(options.strategy, {}),
      navigator: createGoalSeeker(),
      dt,
      seed: options.seed ?? 1,
      walkingSide: scene.walkingSide,
    });
    const handles = new Map<number, ReturnType<World["addAgent"]>>();
    for (const st of starts) {
      const v = Math.hypot(st.vx, st.vy);
      const ux = v > 1e-6 ? st.vx / v : 1, uy = v > 1e-6 ? st.vy / v : 0;
      const speed = Math.min(st.speed, 3);
      handles.set(
        st.id,
        world.addAgent({
          x: st.x,
          y: st.y,
          vx: st.vx,
          vy: st.vy,
          desiredSpeed: speed,
          maxSpeed: Math.max(1.3 * speed, v, 0.01),
          goalX: st.x + ux * 1000,
          goalY: st.y + uy * 1000,
          radius: BODY_RADIUS,
        }),
      );
    }
    const predicted = new Map<number, Float64Array>(
      scored.map((id) => [id, new Float64Array(2 * PREDICTED)]),
    );
    for (let k = 0; k < PREDICTED; k++) {
      for (let m = 0; m < perSample; m++) world.step();
      for (const id of scored) {
        const snap = world.agent(handles.get(id)!)!;
        const out = predicted.get(id)!;
        out[2 * k] = snap.x;
        out[2 * k + 1] = snap.y;
      }
    }
    for (const id of scored) {
      const t = data.tracks.get(id)!;
      const actual = new Float64Array(2 * PREDICTED), observed = new Float64Array(2 * OBSERVED);
      for (let k = 0; k < PREDICTED; k++) {
        const p = t.get(last + 1 + k)!;
        actual[2 * k] = p[0];
        actual[2 * k + 1] = p[1];
      }
      for (let k = 0; k < OBSERVED; k++) {
        const p = t.get(s0 + k)!;
        observed[2 * k] = p[0];
        observed[2 * k + 1] = p[1];
      }
      const sim = displacementError(predicted.get(id)!, actual);
      const cv = displacementError(constantVelocityPrediction(observed, PREDICTED), actual);
      ades.push(sim.ade);
      fdes.push(sim.fde);
      cvAdes.push(cv.ade);
      cvFdes.push(cv.fde);
    }
  }
  return {
    scene: scene.name,
    scored: ades.length,
    ade: meanOf(ades),
    fde: meanOf(fdes),
    cvAde: meanOf(cvAdes),
    cvFde: meanOf(cvFdes),
  };
}

const _scenes = new Map<string, SceneTracks>();

function _tracksOf(scene: EthUcyScene): SceneTracks {
  if (!_scenes.has(scene.name)) _scenes.set(scene.name, sceneTracks(readEthUcyScene(scene)));
  return _scenes.get(scene.name)!;
}

/** The ETH/UCY prediction test over the four test scenes (windows every 4 samples; 16 when quick). */
export function trajectoryPredictionTest(): ValidationTest {
  return defineTest<SceneErrors[]>({
    id: "eth-ucy-prediction",
    group: "Trajectory prediction",
    title: "ETH/UCY: 12 samples predicted after 8 observed, against constant velocity",
    criterion:
      "mean ADE over the scenes below the constant-velocity baseline's (C. Schöller et al., IEEE RA-L 2020)",
    cost: (quick) => (quick ? 3 : 10),
    measure: (ctx) =>
      ETH_UCY_SCENES.filter((scene) => scene.role === "test").map((scene) =>
        predictScene(scene, _tracksOf(scene), {
          strategy: ctx.strategy,
          registry: ctx.registry,
          seed: ctx.seed,
          stride: ctx.quick ? 16 : 4,
        })
      ),
    judge(runs) {
      const scenes = runs[0].map((s) => s.scene);
      const ade = scenes.map((_, k) => meanOf(runs.map((r) => r[k].ade)));
      const fde = scenes.map((_, k) => meanOf(runs.map((r) => r[k].fde)));
      const cvAde = runs[0].map((s) => s.cvAde), cvFde = runs[0].map((s) => s.cvFde);
      const mAde = meanOf(ade), mFde = meanOf(fde), mCv = meanOf(cvAde), mCvF = meanOf(cvFde);
      const pass = mAde !== null && mCv !== null && mAde < mCv;
      return {
        status: pass ? "pass" : "fail",
        summary: `ADE ${fmt(mAde)} / FDE ${fmt(mFde)} m against constant velocity ${fmt(mCv)} / ${
          fmt(mCvF)
        } m (${scenes.map((s, k) => `${s} ${fmt(ade[k])}/${fmt(cvAde[k])}`).join(", ")}; ${
          runs[0].reduce((n, s) => n + s.scored, 0)
        } people-windows)`,
        figures: {
          "ade (m)": mAde,
          "fde (m)": mFde,
          "constantVelocityAde (m)": mCv,
          "constantVelocityFde (m)": mCvF,
          ...Object.fromEntries(scenes.map((s, k) => [`ade ${s} (m)`, ade[k]])),
        },
      };
    },
  });
}

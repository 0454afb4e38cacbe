/**
 * A Web Worker that owns one live simulation of the viewer (one strategy on the scenario), so
 * several strategies step on several cores and the server's event loop stays free for sockets.
 * Driven by {@linkcode LiveSimulation} with the messages typed below; frames come back as
 * transferred `ArrayBuffer`s in the layout of `viewer/frame_protocol.ts`.
 *
 * @module
 */
import type { World } from "../core/world.ts";
import { MetricsCollector } from "../metrics/collector.ts";
import { buildScenario } from "../scenarios/build.ts";
import {
  CITY_TRAFFIC_SCENARIOS,
  type CityTrafficScenario,
  type CrosswalkPreset,
  loadCityTraffic,
} from "../scenarios/city_traffic.ts";
import { resolveScenario } from "../scenarios/resolve.ts";
import { strategies } from "../strategies/mod.ts";
import { availableOverlays, DebugOverlayBuilder } from "./debug_overlays.ts";
import {
  encodeDebugSegments,
  FrameFlags,
  type OverlayName,
  type SceneInfo,
} from "./frame_protocol.ts";
import { sceneFromWorld } from "./scene_info.ts";
import { encodeWorldFrame, type FrameMetrics } from "./world_frame.ts";
import { inspectAgent } from "./inspect_agent.ts";
import { sceneFromCityTraffic, TrafficScene } from "./traffic_scene.ts";
import { CrossingOverlay } from "./crossing_overlay.ts";

/** Messages to the worker. */
export type WorkerRequest =
  | {
    type: "build";
    scenario: string;
    agents?: number;
    strategy: string;
    seed: number;
    view: number;
    /** Cars of a scenario with cars. @default the scenario's */
    cars?: number;
    /** Crowd preset of `crosswalk`. @default "average" */
    preset?: CrosswalkPreset;
  }
  | {
    type: "step";
    steps: number;
    paused: boolean;
    timeFactor: number;
    overlays: OverlayName[];
    focus: number | null;
  }
  | { type: "inspect"; id: number; request: number };

/** Messages from the worker. */
export type WorkerReply =
  | {
    type: "built";
    view: number;
    scene: SceneInfo;
    overlays: OverlayName[];
    dt: number;
    /** Agents the scenario places over the run (every spawner's count), not only at time 0. */
    agents: number;
    strategy: string;
  }
  | {
    type: "frame";
    view: number;
    frame: ArrayBuffer;
    debug: ArrayBuffer | null;
    /** Traffic message (scenes with cars), else null. */
    traffic: ArrayBuffer | null;
    stepMs: number;
  }
  | {
    type: "inspect";
    request: number;
    state: Record<string, number | string | boolean> | null;
  }
  | { type: "error"; message: string };

/** Steps between two reads of the metrics collector's result. */
const METRICS_EVERY = 5;

interface Run {
  world: World;
  metrics: MetricsCollector;
  view: number;
  last: FrameMetrics;
  sinceMetrics: number;
  /** The traffic of a scenario with cars, else null. */
  traffic: TrafficScene | null;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
};
let run: Run | null = null;
const overlays = new DebugOverlayBuilder();

scope.onmessage = (event) => {
  const message = event.data;
  try {
    if (message.type === "build") void _build(message);
    else if (message.type === "step") _step(message);
    else if (message.type === "inspect") _inspect(message.id, message.request);
  } catch (error) {
    scope.postMessage({ type: "error", message: (error as Error).message.split("\n")[0] });
  }
};

async function _build(m: Extract<WorkerRequest, { type: "build" }>): Promise<void> {
  try {
    if ((CITY_TRAFFIC_SCENARIOS as readonly string[]).includes(m.scenario)) {
      await _buildCityTraffic(m);
      return;
    }
    const { spec, source, resources } = await resolveScenario(m.scenario, { agents: m.agents });
    const built = buildScenario(spec, {
      registry: strategies,
      resources,
      strategy: { name: m.strategy },
      seed: m.seed,
      source,
    });
    const metrics = new MetricsCollector({ throughputLine: built.throughputLine });
    built.world.addObserver(metrics);
    overlays.watchStreets(built.world);
    overlays.watchCrossings(null);
    run = {
      world: built.world,
      metrics,
      view: m.view,
      last: { collisions: 0, arrivals: 0, trips: 0, salsa: NaN },
      sinceMetrics: 0,
      traffic: null,
    };
    _readMetrics(run);
    scope.postMessage({
      type: "built",
      view: m.view,
      scene: sceneFromWorld(
        built.world,
        built.spec,
        resources?.city ? { city: resources.city, mesh: built.navMesh } : undefined,
      ),
      overlays: availableOverlays(built.world),
      dt: built.world.dt,
      agents: Math.max(
        built.world.agents.count,
        built.spec.spawners.reduce((sum, spawner) => sum + spawner.count, 0),
      ),
      strategy: built.strategyName,
    });
  } catch (error) {
    scope.postMessage({ type: "error", message: (error as Error).message.split("\n")[0] });
  }
}

/** Builds `city-grid`, `crosswalk` or `city-traffic` (built in code, with cars and lights). */
async function _buildCityTraffic(m: Extract<WorkerRequest, { type: "build" }>): Promise<void> {
  const built = await loadCityTraffic(m.scenario as CityTrafficScenario, {
    agents: m.agents,
    cars: m.cars,
    preset: m.preset,
    seed: m.seed,
    strategy: m.strategy,
  });
  const metrics = new MetricsCollector({});
  built.world.addObserver(metrics);
  const traffic = TrafficScene.fromRun(built);
  const network = built.navigator.network;
  overlays.watchCrossings(network ? new CrossingOverlay({ ...built, network }) : null);
  run = {
    world: built.world,
    metrics,
    view: m.view,
    last: { collisions: 0, arrivals: 0, trips: 0, salsa: NaN },
    sinceMetrics: 0,
    traffic,
  };
  _readMetrics(run);
  const spawned = built.world.population.spawners.reduce((sum, s) => sum + s.count, 0);
  scope.postMessage({
    type: "built",
    view: m.view,
    scene: sceneFromCityTraffic(built, traffic),
    overlays: availableOverlays(built.world),
    dt: built.world.dt,
    agents: Math.max(built.world.agents.count, spawned),
    strategy: built.strategyName,
  });
}

function _step(m: Extract<WorkerRequest, { type: "step" }>): void {
  if (!run) throw new Error("the simulation is not built yet");
  const { world } = run;
  const t0 = performance.now();
  for (let k = 0; k < m.steps; k++) {
    world.step();
    if (++run.sinceMetrics >= METRICS_EVERY) _readMetrics(run);
  }
  const stepMs = m.steps > 0 ? (performance.now() - t0) / m.steps : world.lastStepMs;
  const frame = encodeWorldFrame(world, {
    view: run.view,
    metrics: run.last,
    timeFactor: m.timeFactor,
    flags: m.paused ? FrameFlags.paused : 0,
  });
  let debug: ArrayBuffer | null = null;
  if (m.overlays.length > 0) {
    const count = overlays.build(world, m.overlays, m.focus);
    debug = encodeDebugSegments(
      run.view,
      world.stepIndex,
      overlays.segments.subarray(0, 4 * count),
      overlays.colors,
    );
  }
  const traffic = run.traffic ? run.traffic.encode(world, run.view) : null;
  const transfer: Transferable[] = [frame];
  if (debug) transfer.push(debug);
  if (traffic) transfer.push(traffic);
  scope.postMessage({ type: "frame", view: run.view, frame, debug, traffic, stepMs }, transfer);
}

function _inspect(id: number, request: number): void {
  let state: Record<string, number | string | boolean> | null = null;
  try {
    state = run ? inspectAgent(run.world, id) : null;
  } catch (error) {
    state = { error: (error as Error).message.split("\n")[0] };
  }
  scope.postMessage({ type: "inspect", request, state });
}

function _readMetrics(r: Run): void {
  r.sinceMetrics = 0;
  const result = r.metrics.result() as unknown as Record<string, number | null>;
  const salsa = result.salsa;
  r.last = {
    collisions: result.collisions ?? 0,
    arrivals: result.arrivals ?? 0,
    trips: result.trips ?? 0,
    salsa: typeof salsa === "number" ? salsa : NaN,
  };
}

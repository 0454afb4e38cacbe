/**
 * Signal heads as the viewer draws them: the colours of vehicle lights and walk signals by state,
 * the blink of a flashing walk signal on the simulation's clock, and each head's position and
 * colour as binary attributes for deck.gl (made once per traffic message and blink phase).
 *
 * @module
 */
import type { TrafficSceneInfo } from "../frame_protocol.ts";
import { signalIndices, type TrafficFrame } from "../traffic_frame.ts";
import type { Rgb } from "./colors.ts";

/** Colour of a vehicle light by `SignalColor` (green, yellow, red). */
export const VEHICLE_LIGHT_COLORS: readonly Rgb[] = [
  [40, 214, 90],
  [255, 196, 30],
  [232, 36, 36],
];

/** Colour of a walk signal by `WalkSignal` (walk, flashing, don't walk). */
export const WALK_SIGNAL_COLORS: readonly Rgb[] = [
  [235, 245, 255],
  [255, 150, 30],
  [200, 60, 20],
];

/** Colour of a flashing walk signal in the dark half of its blink. */
export const WALK_SIGNAL_DARK: Rgb = [70, 45, 25];

/**
 * Period of a flashing walk signal's blink (s of simulation time): lit for the first half, dark
 * for the second, about the 50–60 flashes a minute that signal standards ask for (e.g. the US
 * Manual on Uniform Traffic Control Devices, 2009, §4E.06).
 */
export const WALK_FLASH_PERIOD_S = 1;

/** Whether a flashing walk signal is lit at simulation time `time` (s). */
export function walkSignalLit(time: number): boolean {
  const phase = time / WALK_FLASH_PERIOD_S - Math.floor(time / WALK_FLASH_PERIOD_S);
  return phase < 0.5;
}

/**
 * Colour a signal head is drawn in: its state's colour, except a flashing walk signal in the
 * dark half of its blink at simulation time `time` (s).
 */
export function signalHeadColor(kind: "vehicle" | "walk", state: number, time: number): Rgb {
  if (kind === "vehicle") return VEHICLE_LIGHT_COLORS[state] ?? [128, 128, 128];
  if (state === 1 && !walkSignalLit(time)) return WALK_SIGNAL_DARK;
  return WALK_SIGNAL_COLORS[state] ?? [128, 128, 128];
}

/** Signal heads of one kind as drawn: positions (m) and RGBA colours. */
export interface SignalHeads {
  /** Heads. */
  count: number;
  /** `x, y` per head (m). */
  positions: Float32Array;
  /** RGBA per head, in its current state (grey before the first traffic message). */
  colors: Uint8Array;
}

const _heads = new WeakMap<TrafficSceneInfo, { walk: number[]; vehicle: number[] }>();
const _signals = new WeakMap<
  TrafficFrame | TrafficSceneInfo,
  { walk: SignalHeads; vehicle: SignalHeads }[]
>();

/**
 * The scene's signal heads in the states of `frame` at simulation time `time` (s), which sets
 * the blink of flashing walk signals (made once per message and blink phase).
 */
export function signalDrawing(
  scene: TrafficSceneInfo,
  frame: TrafficFrame | null,
  time: number,
): { walk: SignalHeads; vehicle: SignalHeads } {
  const key = frame ?? scene;
  const lit = walkSignalLit(time) ? 1 : 0;
  let cached = _signals.get(key);
  if (!cached) _signals.set(key, cached = []);
  const found = cached[lit];
  if (found) return found;
  let heads = _heads.get(scene);
  if (!heads) {
    heads = { walk: signalIndices(scene, "walk"), vehicle: signalIndices(scene, "vehicle") };
    _heads.set(scene, heads);
  }
  const make = (indices: number[], kind: "vehicle" | "walk"): SignalHeads => {
    const positions = new Float32Array(2 * indices.length);
    const colors = new Uint8Array(4 * indices.length);
    indices.forEach((i, k) => {
      positions[2 * k] = scene.signals[i].position[0];
      positions[2 * k + 1] = scene.signals[i].position[1];
      const state = frame && i < frame.signals ? frame.signalState[i] : -1;
      const rgb = signalHeadColor(kind, state, time);
      colors.set([rgb[0], rgb[1], rgb[2], 255], 4 * k);
    });
    return { count: indices.length, positions, colors };
  };
  const drawn = { walk: make(heads.walk, "walk"), vehicle: make(heads.vehicle, "vehicle") };
  cached[lit] = drawn;
  return drawn;
}

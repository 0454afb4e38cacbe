/**
 * Agent colours of the viewer page: one colour per strategy (by its name, so a strategy looks the
 * same in every view and every run), a speed ramp, and one colour per state code. Per-agent
 * colours are written into a caller-supplied RGBA `Uint8Array` that the page hands to deck.gl as
 * a binary attribute.
 *
 * @module
 */
/** An RGB colour, components 0–255. */
export type Rgb = readonly [number, number, number];

/** Colours of the built-in strategies, chosen to be told apart side by side. */
export const STRATEGY_COLORS: Readonly<Record<string, Rgb>> = {
  "raycast-cluster": [255, 122, 26], // orange
  orca: [46, 149, 255], // blue
  "social-force": [54, 201, 104], // green
  boxcast: [203, 94, 255], // violet
  repulsion: [240, 200, 40], // yellow
  "priority-steering": [255, 84, 150], // pink
  none: [70, 215, 215], // cyan
};

/**
 * The colour of a strategy's agents: {@linkcode STRATEGY_COLORS} for the built-in ones, else a
 * hue picked from the name (the same name always gives the same colour).
 *
 * @example
 * ```ts
 * import { strategyColor } from "./colors.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(strategyColor("orca"), [46, 149, 255]);
 * assert.deepEqual(strategyColor("my-model"), strategyColor("my-model"));
 * ```
 */
export function strategyColor(name: string): Rgb {
  if (Object.hasOwn(STRATEGY_COLORS, name)) return STRATEGY_COLORS[name];
  let hash = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return _hsl(((hash >>> 0) % 360) / 360, 0.75, 0.6);
}

/** RGB of a hue (0–1), saturation and lightness. */
function _hsl(h: number, s: number, l: number): Rgb {
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
  const channel = (t: number) => {
    t = (t + 1) % 1;
    const v = t < 1 / 6
      ? p + (q - p) * 6 * t
      : t < 1 / 2
      ? q
      : t < 2 / 3
      ? p + (q - p) * (2 / 3 - t) * 6
      : p;
    return Math.round(255 * v);
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)];
}

/** Colour of each agent state code (`AgentStateCode` of frame_protocol.ts), by code. */
export const STATE_COLORS: readonly Rgb[] = [
  [70, 180, 255], // walking
  [255, 214, 60], // slowed
  [255, 70, 70], // stopped
  [150, 150, 150], // arrived
  [120, 120, 200], // frozen
  [60, 230, 150], // avoiding
  [255, 0, 200], // blocked
];

/** Speed (m/s) mapped to the top of the speed ramp. */
export const SPEED_RAMP_MAX = 2;

/** Stops of the speed ramp: slow (red) through yellow to fast (blue). */
const SPEED_RAMP: readonly Rgb[] = [
  [220, 40, 40],
  [250, 200, 50],
  [90, 210, 110],
  [40, 140, 255],
];

/**
 * Colour of a speed (m/s) on the speed ramp.
 *
 * @example
 * ```ts
 * import { speedColor } from "./colors.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(speedColor(0), [220, 40, 40]);
 * assert.deepEqual(speedColor(5), [40, 140, 255]); // clamped to the top
 * ```
 */
export function speedColor(speed: number): Rgb {
  const t = Math.min(1, Math.max(0, speed / SPEED_RAMP_MAX)) * (SPEED_RAMP.length - 1);
  const k = Math.min(SPEED_RAMP.length - 2, Math.floor(t)), f = t - k;
  const a = SPEED_RAMP[k], b = SPEED_RAMP[k + 1];
  return [
    Math.round(a[0] + (b[0] - a[0]) * f),
    Math.round(a[1] + (b[1] - a[1]) * f),
    Math.round(a[2] + (b[2] - a[2]) * f),
  ];
}

/**
 * Colour of each crossing state (the city navigator's `CrossingAction` codes: approach, wait,
 * cross, hasten, jog, turn back, arrive, despawn), by code.
 */
export const CROSSING_STATE_COLORS: readonly Rgb[] = [
  [110, 170, 255], // approach
  [255, 200, 40], // waiting at the kerb
  [60, 220, 120], // crossing
  [255, 140, 40], // hastening (flashing)
  [255, 60, 170], // jogging on (don't walk, past halfway)
  [225, 30, 30], // turning back (don't walk, before halfway)
  [175, 175, 190], // on the way to the destination
  [95, 95, 105], // arrived
];

/** Colour of agents without a crossing state. */
export const NO_CROSSING_STATE: Rgb = [128, 128, 128];

/**
 * Writes RGBA colours of `count` agents by crossing state into `out` (length ≥ 4·count): from
 * `states` when it holds one per agent, else all {@linkcode NO_CROSSING_STATE}. Returns `out`.
 *
 * @example
 * ```ts
 * import { CROSSING_STATE_COLORS, fillCrossingColors } from "./colors.ts";
 * import assert from "node:assert/strict";
 * const out = fillCrossingColors(2, Uint8Array.of(1, 5), new Uint8Array(8));
 * assert.deepEqual([...out.subarray(0, 3)], [...CROSSING_STATE_COLORS[1]]);
 * assert.deepEqual([...out.subarray(4, 7)], [...CROSSING_STATE_COLORS[5]]);
 * ```
 */
export function fillCrossingColors(
  count: number,
  states: Uint8Array | null,
  out: Uint8Array,
): Uint8Array {
  const known = states !== null && states.length === count;
  for (let i = 0, o = 0; i < count; i++, o += 4) {
    const c = known ? CROSSING_STATE_COLORS[states[i]] ?? NO_CROSSING_STATE : NO_CROSSING_STATE;
    out[o] = c[0];
    out[o + 1] = c[1];
    out[o + 2] = c[2];
    out[o + 3] = 255;
  }
  return out;
}

/** How agents are coloured. */
export type ColorMode = "strategy" | "speed" | "state" | "crossing";

/**
 * Writes RGBA colours of `count` agents into `out` (length ≥ 4·count): by speed from the
 * interleaved `velocities`, or by `state` code. Returns `out`.
 *
 * @example Two agents coloured by state
 * ```ts
 * import { fillAgentColors, STATE_COLORS } from "./colors.ts";
 * import assert from "node:assert/strict";
 * const out = fillAgentColors("state", 2, new Float32Array(4), Uint8Array.of(0, 3), new Uint8Array(8));
 * assert.deepEqual([...out.subarray(4, 7)], [...STATE_COLORS[3]]);
 * assert.equal(out[7], 255);
 * ```
 */
export function fillAgentColors(
  mode: "speed" | "state",
  count: number,
  velocities: Float32Array,
  state: Uint8Array,
  out: Uint8Array,
): Uint8Array {
  if (mode === "state") {
    for (let i = 0, o = 0; i < count; i++, o += 4) {
      const c = STATE_COLORS[state[i]] ?? STATE_COLORS[0];
      out[o] = c[0];
      out[o + 1] = c[1];
      out[o + 2] = c[2];
      out[o + 3] = 255;
    }
    return out;
  }
  // A 64-entry lookup table keeps the per-agent loop free of allocation.
  const lut = _speedLut();
  for (let i = 0, o = 0, j = 0; i < count; i++, o += 4, j += 2) {
    const vx = velocities[j], vy = velocities[j + 1];
    const s = Math.sqrt(vx * vx + vy * vy) / SPEED_RAMP_MAX;
    const k = 3 * Math.min(63, Math.max(0, Math.round(s * 63)));
    out[o] = lut[k];
    out[o + 1] = lut[k + 1];
    out[o + 2] = lut[k + 2];
    out[o + 3] = 255;
  }
  return out;
}

let _lut: Uint8Array | null = null;

function _speedLut(): Uint8Array {
  if (_lut) return _lut;
  _lut = new Uint8Array(64 * 3);
  for (let k = 0; k < 64; k++) _lut.set(speedColor((k / 63) * SPEED_RAMP_MAX), 3 * k);
  return _lut;
}

/**
 * Analytic box casts: where a box as wide as an agent, swept forward along its heading, first
 * touches a disc (another agent) or a segment (an obstacle edge). This is the 2-D, closed-form
 * counterpart of the physics engine's `BoxCast` used by the volume-adaptive avoidance of
 * "Crossing citizens: a simple simulation of pedestrian crossing" (project report).
 *
 * Coordinates are local to the casting agent: `u` along the heading (m, positive ahead), `w`
 * across it (m, positive to the left). The box is the agent's bounding square, `u, w ∈ [−b, b]`
 * for a half-width `b` (the body radius), and is swept to `u ∈ [s − b, s + b]` for sweep
 * distances `s ≥ 0`. Only what lies ahead of the agent's centre (`u > 0`) is seen: contacts
 * behind or beside the agent are left to separation and contact handling.
 *
 * @module
 */

/**
 * Sweep distance (m, ≥ 0) at which the box first touches a disc of radius `r` centred at
 * (`u`, `w`), or `Infinity` when it never does (the disc is behind the centre or off to the
 * side). A disc already touching the box gives 0.
 *
 * @example A disc 2 m straight ahead
 * ```ts
 * import { sweptBoxDiscContact } from "./swept_box.ts";
 * import assert from "node:assert/strict";
 * // box half-width 0.25 m, disc radius 0.25 m: front face meets the disc after 1.5 m
 * assert.equal(sweptBoxDiscContact(2, 0, 0.25, 0.25), 1.5);
 * assert.equal(sweptBoxDiscContact(2, 0.6, 0.25, 0.25), Infinity); // passes beside
 * ```
 */
export function sweptBoxDiscContact(u: number, w: number, halfWidth: number, r: number): number {
  if (!(u > 0)) return Infinity;
  const dw = (w < 0 ? -w : w) - halfWidth;
  let e = r;
  if (dw > 0) {
    if (dw >= r) return Infinity;
    // A front corner meets the disc: along u the disc reaches sqrt(r² − dw²) past the corner.
    e = Math.sqrt(r * r - dw * dw);
  }
  const s = u - halfWidth - e;
  return s > 0 ? s : 0;
}

/**
 * Sweep distance (m, ≥ 0) at which the box first touches the segment from (`u1`, `w1`) to
 * (`u2`, `w2`), or `Infinity` when it never does. The part of the segment inside the box's band
 * (`|w| ≤ b`) and ahead of the centre (`u ≥ 0`) is what the front face can meet.
 *
 * @example A wall across the path 3 m ahead, and one alongside
 * ```ts
 * import { sweptBoxSegmentContact } from "./swept_box.ts";
 * import assert from "node:assert/strict";
 * assert.equal(sweptBoxSegmentContact(3, -5, 3, 5, 0.25), 2.75);
 * assert.equal(sweptBoxSegmentContact(-5, 0.4, 5, 0.4, 0.25), Infinity);
 * ```
 */
export function sweptBoxSegmentContact(
  u1: number,
  w1: number,
  u2: number,
  w2: number,
  halfWidth: number,
): number {
  const du = u2 - u1, dw = w2 - w1;
  let t0 = 0, t1 = 1;
  // Liang–Barsky clipping of P(t) = P1 + t·(P2 − P1) against p·t ≤ q for each boundary.
  for (let k = 0; k < 3; k++) {
    const p = k === 0 ? dw : k === 1 ? -dw : -du;
    const q = k === 0 ? halfWidth - w1 : k === 1 ? halfWidth + w1 : u1;
    if (p === 0) {
      if (q < 0) return Infinity;
    } else {
      const t = q / p;
      if (p > 0) {
        if (t < t1) t1 = t;
      } else if (t > t0) t0 = t;
    }
  }
  if (t0 > t1) return Infinity;
  const ua = u1 + t0 * du, ub = u1 + t1 * du;
  const s = (ua < ub ? ua : ub) - halfWidth;
  return s > 0 ? s : 0;
}

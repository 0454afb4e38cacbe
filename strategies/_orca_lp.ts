/**
 * The linear programs of ORCA (van den Berg, Guy, Lin, Manocha 2011, Section 5.2): the new
 * velocity is the point of the intersection of the ORCA half-planes and the speed disc that is
 * closest to the preferred velocity (a 2-D program solved by randomised-incremental style
 * insertion, one line at a time); when the half-planes leave nothing, a 3-D program finds the
 * velocity that violates the agent half-planes least (the largest distance to a violated line is
 * minimised) while the obstacle half-planes stay hard.
 *
 * A half-plane is stored as a directed line: a point `p` and a unit direction `d`; the allowed
 * side is the left of `d` (where `det(d, v - p) >= 0`). Lines live in {@linkcode OrcaLines}, a
 * growable struct of typed arrays, so the programs never allocate.
 *
 * @module
 */

/**
 * Two unit directions with |det| at or below this are treated as parallel (as in RVO2).
 *
 * @example
 * ```ts
 * import { PARALLEL_EPSILON } from "./_orca_lp.ts";
 * import assert from "node:assert/strict";
 * assert.ok(PARALLEL_EPSILON > 0 && PARALLEL_EPSILON < 1e-3);
 * ```
 */
export const PARALLEL_EPSILON = 1e-5;

/**
 * A growable list of directed lines (half-planes): point (`px`, `py`) in m/s and unit direction
 * (`dx`, `dy`). The allowed side is the left of the direction.
 *
 * @example Two half-planes
 * ```ts
 * import { OrcaLines } from "./_orca_lp.ts";
 * import assert from "node:assert/strict";
 * const lines = new OrcaLines(1);
 * lines.push(0, 1, 1, 0); // through (0, 1) heading +x: the allowed left side is y >= 1
 * lines.push(1, 0, 0, -1); // through (1, 0) heading -y: the allowed left side is x >= 1
 * assert.equal(lines.count, 2);
 * assert.ok(lines.px.length >= 2);
 * ```
 */
export class OrcaLines {
  /** Number of lines. */
  count = 0;
  /** Point x (m/s). */
  px: Float64Array;
  /** Point y (m/s). */
  py: Float64Array;
  /** Unit direction x. */
  dx: Float64Array;
  /** Unit direction y. */
  dy: Float64Array;

  /** @param capacity initial number of lines the buffers hold (they grow as needed) */
  constructor(capacity = 16) {
    const n = Math.max(1, Math.floor(capacity));
    this.px = new Float64Array(n);
    this.py = new Float64Array(n);
    this.dx = new Float64Array(n);
    this.dy = new Float64Array(n);
  }

  /** Makes room for at least `capacity` lines, keeping the current ones. */
  reserve(capacity: number): void {
    if (capacity <= this.px.length) return;
    let n = this.px.length;
    while (n < capacity) n *= 2;
    this.px = _grow(this.px, n);
    this.py = _grow(this.py, n);
    this.dx = _grow(this.dx, n);
    this.dy = _grow(this.dy, n);
  }

  /** Appends a line through (`px`, `py`) with unit direction (`dx`, `dy`). */
  push(px: number, py: number, dx: number, dy: number): void {
    const k = this.count;
    if (k === this.px.length) this.reserve(k + 1);
    this.px[k] = px;
    this.py[k] = py;
    this.dx[k] = dx;
    this.dy[k] = dy;
    this.count = k + 1;
  }
}

function _grow(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}

/**
 * Solves the 1-D program on line `lineNo`: the best point of that line inside the disc of
 * `radius` (m/s) that satisfies lines `0 … lineNo-1`. With `directionOpt` the point furthest
 * along the unit direction (`optX`, `optY`) is taken, otherwise the point closest to it.
 * Writes the point to `out[0]`, `out[1]` and returns true, or returns false (leaving `out`
 * unchanged) when no point of the line qualifies.
 *
 * @example The point of the line y = 1 closest to (3, 0), within x <= 2
 * ```ts
 * import { linearProgram1, OrcaLines } from "./_orca_lp.ts";
 * import assert from "node:assert/strict";
 * const lines = new OrcaLines();
 * lines.push(2, 0, 0, 1); // x <= 2
 * lines.push(0, 1, 1, 0); // y >= 1, solved on its boundary y = 1
 * const out = new Float64Array(2);
 * assert.ok(linearProgram1(lines, 1, 5, 3, 0, false, out));
 * assert.deepEqual([...out], [2, 1]);
 * ```
 */
export function linearProgram1(
  lines: OrcaLines,
  lineNo: number,
  radius: number,
  optX: number,
  optY: number,
  directionOpt: boolean,
  out: Float64Array,
): boolean {
  const lpx = lines.px, lpy = lines.py, ldx = lines.dx, ldy = lines.dy;
  const px = lpx[lineNo], py = lpy[lineNo], dx = ldx[lineNo], dy = ldy[lineNo];
  const dot = px * dx + py * dy;
  const discriminant = dot * dot + radius * radius - (px * px + py * py);
  // The speed disc misses the line entirely.
  if (discriminant < 0) return false;
  const root = Math.sqrt(discriminant);
  let tLeft = -dot - root;
  let tRight = -dot + root;
  for (let i = 0; i < lineNo; i++) {
    const denominator = dx * ldy[i] - dy * ldx[i];
    const numerator = ldx[i] * (py - lpy[i]) - ldy[i] * (px - lpx[i]);
    if (Math.abs(denominator) <= PARALLEL_EPSILON) {
      // Parallel: line lineNo lies either wholly inside or wholly outside half-plane i.
      if (numerator < 0) return false;
      continue;
    }
    const t = numerator / denominator;
    if (denominator >= 0) {
      if (t < tRight) tRight = t; // half-plane i bounds the line on the right
    } else if (t > tLeft) {
      tLeft = t; // … or on the left
    }
    if (tLeft > tRight) return false;
  }
  let t: number;
  if (directionOpt) {
    t = optX * dx + optY * dy > 0 ? tRight : tLeft;
  } else {
    t = dx * (optX - px) + dy * (optY - py);
    if (t < tLeft) t = tLeft;
    else if (t > tRight) t = tRight;
  }
  out[0] = px + t * dx;
  out[1] = py + t * dy;
  return true;
}

/**
 * Solves the 2-D program over all lines: the point of the disc of `radius` (m/s) inside every
 * half-plane that is closest to (`optX`, `optY`), or with `directionOpt` the one furthest along
 * that unit direction. Writes the point to `out` and returns `lines.count`; when the program is
 * infeasible, returns the index of the first line that could not be satisfied and leaves in
 * `out` the optimum over the lines before it.
 *
 * @example The closest point to (2, 0) with x <= 1 in the disc of radius 3
 * ```ts
 * import { linearProgram2, OrcaLines } from "./_orca_lp.ts";
 * import assert from "node:assert/strict";
 * const lines = new OrcaLines();
 * lines.push(1, 0, 0, 1); // left of +y at x = 1: x <= 1
 * const out = new Float64Array(2);
 * assert.equal(linearProgram2(lines, 3, 2, 0, false, out), 1);
 * assert.deepEqual([...out], [1, 0]);
 * ```
 */
export function linearProgram2(
  lines: OrcaLines,
  radius: number,
  optX: number,
  optY: number,
  directionOpt: boolean,
  out: Float64Array,
): number {
  const optSq = optX * optX + optY * optY;
  let rx: number, ry: number;
  if (directionOpt) {
    rx = optX * radius;
    ry = optY * radius;
  } else if (optSq > radius * radius) {
    const f = radius / Math.sqrt(optSq);
    rx = optX * f;
    ry = optY * f;
  } else {
    rx = optX;
    ry = optY;
  }
  const n = lines.count;
  const lpx = lines.px, lpy = lines.py, ldx = lines.dx, ldy = lines.dy;
  for (let i = 0; i < n; i++) {
    // det(d_i, p_i - result) > 0: the current result is on the forbidden (right) side.
    if (ldx[i] * (lpy[i] - ry) - ldy[i] * (lpx[i] - rx) > 0) {
      out[0] = rx;
      out[1] = ry;
      if (!linearProgram1(lines, i, radius, optX, optY, directionOpt, out)) return i;
      rx = out[0];
      ry = out[1];
    }
  }
  out[0] = rx;
  out[1] = ry;
  return n;
}

/**
 * The 3-D fallback when the 2-D program fails at line `beginLine`: keeps lines
 * `0 … numObstLines-1` (obstacles) hard and finds the velocity in the disc of `radius` (m/s)
 * that minimises the largest distance by which it violates any of the other lines. `out` holds
 * the 2-D program's partial result on entry and the answer on return. `scratch` is a reusable
 * line buffer for the projected program and `tempOut` a 2-element scratch array.
 *
 * @example Two contradicting half-planes: the velocity between them violates both least
 * ```ts
 * import { linearProgram2, linearProgram3, OrcaLines } from "./_orca_lp.ts";
 * import assert from "node:assert/strict";
 * const lines = new OrcaLines();
 * lines.push(0, -1, -1, 0); // y <= -1
 * lines.push(0, 1, 1, 0); // y >= 1
 * const out = new Float64Array(2);
 * const failed = linearProgram2(lines, 2, 0, 0, false, out);
 * assert.equal(failed, 1);
 * linearProgram3(lines, 0, failed, 2, out, new OrcaLines(), new Float64Array(2));
 * assert.ok(Math.abs(out[1]) < 1e-12); // 1 m/s from each line
 * ```
 */
export function linearProgram3(
  lines: OrcaLines,
  numObstLines: number,
  beginLine: number,
  radius: number,
  out: Float64Array,
  scratch: OrcaLines,
  tempOut: Float64Array,
): void {
  const n = lines.count;
  const lpx = lines.px, lpy = lines.py, ldx = lines.dx, ldy = lines.dy;
  let distance = 0;
  for (let i = beginLine; i < n; i++) {
    const dix = ldx[i], diy = ldy[i], pix = lpx[i], piy = lpy[i];
    if (dix * (piy - out[1]) - diy * (pix - out[0]) <= distance) continue;
    // The result violates line i by more than the current optimum: project the program onto
    // line i. The obstacle lines stay as they are; every agent line j < i becomes the bisector
    // of lines i and j, the set of points violating both by the same distance.
    scratch.count = 0;
    scratch.reserve(numObstLines + i);
    for (let j = 0; j < numObstLines; j++) scratch.push(lpx[j], lpy[j], ldx[j], ldy[j]);
    for (let j = numObstLines; j < i; j++) {
      const djx = ldx[j], djy = ldy[j];
      const determinant = dix * djy - diy * djx;
      let qx: number, qy: number;
      if (Math.abs(determinant) <= PARALLEL_EPSILON) {
        // Same direction: line j is no tighter than line i along the projection.
        if (dix * djx + diy * djy > 0) continue;
        qx = 0.5 * (pix + lpx[j]);
        qy = 0.5 * (piy + lpy[j]);
      } else {
        const s = (djx * (piy - lpy[j]) - djy * (pix - lpx[j])) / determinant;
        qx = pix + s * dix;
        qy = piy + s * diy;
      }
      let ex = djx - dix, ey = djy - diy;
      const len = Math.sqrt(ex * ex + ey * ey);
      ex /= len;
      ey /= len;
      scratch.push(qx, qy, ex, ey);
    }
    tempOut[0] = out[0];
    tempOut[1] = out[1];
    // Optimise in the direction of the normal of line i (towards its allowed side).
    if (linearProgram2(scratch, radius, -diy, dix, true, out) < scratch.count) {
      // In exact arithmetic the previous result is feasible for this program; a failure can
      // only come from rounding, and then the previous result is kept.
      out[0] = tempOut[0];
      out[1] = tempOut[1];
    }
    distance = dix * (piy - out[1]) - diy * (pix - out[0]);
  }
}

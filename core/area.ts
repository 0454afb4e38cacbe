/**
 * Areas where agents appear or head to, and uniform sampling inside them.
 *
 * @module
 */
import { MAX_COORDINATE_M, segmentParameter } from "./geometry.ts";
import type { Rng } from "./rng.ts";

/** A region of the plane (metres). */
export type Area =
  /** A single point. */
  | { readonly kind: "point"; readonly x: number; readonly y: number }
  /** An axis-aligned rectangle. */
  | {
    readonly kind: "rect";
    readonly minX: number;
    readonly minY: number;
    readonly maxX: number;
    readonly maxY: number;
  }
  /** A disc. */
  | { readonly kind: "circle"; readonly x: number; readonly y: number; readonly radius: number }
  /**
   * A 2-D capsule: every point within `radius` of the segment a–b (the sidewalk spawn zone of
   * "Crossing citizens: a simple simulation of pedestrian crossing", project report, sampled
   * uniformly here rather than between two end discs).
   */
  | {
    readonly kind: "capsule";
    readonly ax: number;
    readonly ay: number;
    readonly bx: number;
    readonly by: number;
    readonly radius: number;
  }
  /** Points evenly spaced on a circle (deterministic; for the circle-swap benchmark). */
  | { readonly kind: "ring"; readonly x: number; readonly y: number; readonly radius: number }
  /**
   * A union of triangles, sampled uniformly by area: a piece of a navigation mesh (a street's
   * sidewalks, the walkable ground around a point). `coords` holds six numbers per triangle
   * `[ax, ay, bx, by, cx, cy, …]` (m); `cumulative[k]` is the area of triangles 0..k (m²).
   */
  | {
    readonly kind: "triangles";
    readonly coords: Float64Array;
    readonly cumulative: Float64Array;
  }
  /** One of a list of points `[x0, y0, x1, y1, …]` (m), each as likely (building doors). */
  | { readonly kind: "points"; readonly coords: Float64Array };

/**
 * A {@linkcode Area} of kind `triangles` from six coordinates per triangle `[ax, ay, bx, by,
 * cx, cy, …]` (m); triangles of zero area are never drawn.
 *
 * @example
 * ```ts
 * import { trianglesArea, areaSize } from "./area.ts";
 * import assert from "node:assert/strict";
 * const area = trianglesArea(new Float64Array([0, 0, 2, 0, 0, 2, 10, 10, 12, 10, 10, 12]));
 * assert.equal(areaSize(area), 4);
 * ```
 */
export function trianglesArea(coords: Float64Array): Area {
  const n = Math.floor(coords.length / 6);
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const o = 6 * k;
    const ex = coords[o + 2] - coords[o], ey = coords[o + 3] - coords[o + 1];
    const fx = coords[o + 4] - coords[o], fy = coords[o + 5] - coords[o + 1];
    sum += Math.abs(ex * fy - ey * fx) / 2;
    cumulative[k] = sum;
  }
  return { kind: "triangles", coords: coords.subarray(0, 6 * n), cumulative };
}

/**
 * Checks an area's shape and numbers (finite, within ±{@linkcode MAX_COORDINATE_M}); throws a
 * TypeError for an unknown kind and a RangeError naming the field for a bad value, e.g. `Cannot add spawner 'west' as 'area.radius' must be
 * > 0: current value is -1`.
 *
 * @param action what is being done, e.g. `"add spawner 'west'"`
 * @param field the area's name in messages, e.g. `"area"` or `"goal.area"`
 *
 * @example
 * ```ts
 * import { validateArea } from "./area.ts";
 * import assert from "node:assert/strict";
 * assert.throws(
 *   () => validateArea({ kind: "circle", x: 0, y: 0, radius: -1 }, "add spawner 'a'", "area"),
 *   /'area.radius' must be > 0/,
 * );
 * ```
 */
export function validateArea(area: Area, action: string, field: string): void {
  const fail = (name: string, rule: string, value: unknown): never => {
    throw new RangeError(
      `Cannot ${action} as '${field}.${name}' must be ${rule}: current value is ${value}`,
    );
  };
  const finite = (name: string, value: number) => {
    if (typeof value !== "number" || !(Math.abs(value) <= MAX_COORDINATE_M)) {
      fail(name, `a finite number within ±${MAX_COORDINATE_M} m`, value);
    }
  };
  if (area === null || typeof area !== "object") {
    throw new TypeError(
      `Cannot ${action} as '${field}' must be an area object: current value is ${area}`,
    );
  }
  switch (area.kind) {
    case "point":
      finite("x", area.x);
      finite("y", area.y);
      return;
    case "rect":
      finite("minX", area.minX);
      finite("minY", area.minY);
      finite("maxX", area.maxX);
      finite("maxY", area.maxY);
      if (!(area.maxX > area.minX)) fail("maxX", `> minX (${area.minX})`, area.maxX);
      if (!(area.maxY > area.minY)) fail("maxY", `> minY (${area.minY})`, area.maxY);
      return;
    case "circle":
    case "ring":
      finite("x", area.x);
      finite("y", area.y);
      finite("radius", area.radius);
      if (!(area.radius > 0)) fail("radius", "> 0", area.radius);
      return;
    case "capsule":
      finite("ax", area.ax);
      finite("ay", area.ay);
      finite("bx", area.bx);
      finite("by", area.by);
      finite("radius", area.radius);
      if (!(area.radius > 0)) fail("radius", "> 0", area.radius);
      return;
    case "triangles":
    case "points": {
      const per = area.kind === "points" ? 2 : 6;
      if (!(area.coords instanceof Float64Array) || area.coords.length % per !== 0) {
        fail("coords", `a Float64Array of ${per} numbers per ${area.kind.slice(0, -1)}`, "other");
      }
      if (area.coords.length === 0) fail("coords", `at least one ${area.kind.slice(0, -1)}`, 0);
      for (let k = 0; k < area.coords.length; k++) finite(`coords[${k}]`, area.coords[k]);
      if (area.kind === "triangles") {
        const c = area.cumulative;
        if (!(c instanceof Float64Array) || c.length * 6 !== area.coords.length) {
          fail("cumulative", "one running area per triangle", "other");
        }
        if (!(c[c.length - 1] > 0)) fail("cumulative", "> 0 m² in all", c[c.length - 1]);
      }
      return;
    }
    default:
      throw new TypeError(
        `Cannot ${action} as '${field}.kind' must be one of point, rect, circle, capsule, ring, triangles, points: current value is ${
          JSON.stringify((area as { kind: unknown }).kind)
        }`,
      );
  }
}

/** Area in m² (0 for points and rings). */
export function areaSize(area: Area): number {
  switch (area.kind) {
    case "point":
    case "ring":
    case "points":
      return 0;
    case "triangles":
      return area.cumulative.length > 0 ? area.cumulative[area.cumulative.length - 1] : 0;
    case "rect":
      return (area.maxX - area.minX) * (area.maxY - area.minY);
    case "circle":
      return Math.PI * area.radius * area.radius;
    case "capsule":
      return Math.hypot(area.bx - area.ax, area.by - area.ay) * 2 * area.radius +
        Math.PI * area.radius * area.radius;
  }
}

/**
 * Writes a point of `area` into `out` (`[x, y]`, m). Random areas are sampled uniformly; for a
 * ring, point `i` of `n` is at angle 2πi/n.
 *
 * @example
 * ```ts
 * import { sampleArea } from "./area.ts";
 * import { Rng } from "./rng.ts";
 * import assert from "node:assert/strict";
 * const p: [number, number] = [0, 0];
 * sampleArea({ kind: "rect", minX: 0, minY: 0, maxX: 2, maxY: 1 }, new Rng(1), p);
 * assert(p[0] >= 0 && p[0] <= 2 && p[1] >= 0 && p[1] <= 1);
 * ```
 */
export function sampleArea(area: Area, rng: Rng, out: [number, number], i = 0, n = 1): void {
  switch (area.kind) {
    case "point":
      out[0] = area.x;
      out[1] = area.y;
      return;
    case "rect":
      out[0] = rng.range(area.minX, area.maxX);
      out[1] = rng.range(area.minY, area.maxY);
      return;
    case "circle": {
      const r = area.radius * Math.sqrt(rng.next()), a = 2 * Math.PI * rng.next();
      out[0] = area.x + r * Math.cos(a);
      out[1] = area.y + r * Math.sin(a);
      return;
    }
    case "capsule": {
      // Rejection sampling in the capsule's oriented bounding box: uniform over the capsule.
      const ex = area.bx - area.ax, ey = area.by - area.ay;
      const len = Math.hypot(ex, ey);
      const ux = len > 0 ? ex / len : 1, uy = len > 0 ? ey / len : 0;
      const r = area.radius;
      for (;;) {
        const s = rng.range(-r, len + r), t = rng.range(-r, r);
        const over = s < 0 ? -s : s > len ? s - len : 0;
        if (over * over + t * t > r * r) continue;
        out[0] = area.ax + s * ux - t * uy;
        out[1] = area.ay + s * uy + t * ux;
        return;
      }
    }
    case "ring": {
      const a = (2 * Math.PI * i) / n;
      out[0] = area.x + area.radius * Math.cos(a);
      out[1] = area.y + area.radius * Math.sin(a);
      return;
    }
    case "points": {
      const k = rng.int(area.coords.length / 2);
      out[0] = area.coords[2 * k];
      out[1] = area.coords[2 * k + 1];
      return;
    }
    case "triangles": {
      // A triangle by area (binary search of the running sums), then a uniform point in it.
      const c = area.cumulative, target = rng.next() * c[c.length - 1];
      let lo = 0, hi = c.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (c[mid] > target) hi = mid;
        else lo = mid + 1;
      }
      let u = rng.next(), v = rng.next();
      if (u + v > 1) {
        u = 1 - u;
        v = 1 - v;
      }
      const o = 6 * lo, t = area.coords;
      out[0] = t[o] + u * (t[o + 2] - t[o]) + v * (t[o + 4] - t[o]);
      out[1] = t[o + 1] + u * (t[o + 3] - t[o + 1]) + v * (t[o + 5] - t[o + 1]);
      return;
    }
  }
}

/** True when (`x`, `y`) lies in `area` (rings and points: within 1e-9 m). */
export function areaContains(area: Area, x: number, y: number): boolean {
  switch (area.kind) {
    case "point":
      return Math.hypot(x - area.x, y - area.y) <= 1e-9;
    case "rect":
      return x >= area.minX && x <= area.maxX && y >= area.minY && y <= area.maxY;
    case "circle":
      return Math.hypot(x - area.x, y - area.y) <= area.radius;
    case "ring":
      return Math.abs(Math.hypot(x - area.x, y - area.y) - area.radius) <= 1e-9;
    case "capsule": {
      const ex = area.bx - area.ax, ey = area.by - area.ay;
      const t = segmentParameter(x, y, area.ax, area.ay, area.bx, area.by);
      return Math.hypot(area.ax + t * ex - x, area.ay + t * ey - y) <= area.radius;
    }
    case "points": {
      const c = area.coords;
      for (let k = 0; k < c.length; k += 2) {
        if (Math.hypot(x - c[k], y - c[k + 1]) <= 1e-9) return true;
      }
      return false;
    }
    case "triangles": {
      const t = area.coords, eps = 1e-9;
      for (let o = 0; o < t.length; o += 6) {
        const d1 = (t[o + 2] - t[o]) * (y - t[o + 1]) - (t[o + 3] - t[o + 1]) * (x - t[o]);
        const d2 = (t[o + 4] - t[o + 2]) * (y - t[o + 3]) - (t[o + 5] - t[o + 3]) * (x - t[o + 2]);
        const d3 = (t[o] - t[o + 4]) * (y - t[o + 5]) - (t[o + 1] - t[o + 5]) * (x - t[o + 4]);
        const neg = d1 < -eps || d2 < -eps || d3 < -eps, pos = d1 > eps || d2 > eps || d3 > eps;
        if (!(neg && pos)) return true;
      }
      return false;
    }
  }
}

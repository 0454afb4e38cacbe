/**
 * A closed ring corridor for fundamental-diagram measurements: an annulus walked round and round
 * (as the closed corridors of the Jülich experiments), filled at a chosen density on a jittered
 * hexagonal lattice, with a navigator that keeps each agent walking along the ring in its
 * direction. No seam: every agent always has neighbours ahead, unlike a straight corridor
 * whose ends are joined by moving agents.
 *
 * @module
 */
import { AgentFlags } from "../core/agent_store.ts";
import type { NavigationContext, Navigator } from "../core/navigator.ts";
import { Rng, RngStream } from "../core/rng.ts";
import {
  type Distribution,
  distributionMax,
  sampleDistribution,
  SHOULDER_RADIUS,
} from "../core/distribution.ts";
import type { Point } from "../core/geometry.ts";
import type { World } from "../core/world.ts";
import type { ScenarioSpec } from "../scenarios/schema.ts";

/** Geometry of a {@linkcode RingCorridor}. */
export interface RingCorridorOptions {
  /** Radius of the inner wall (m). @default 6 */
  innerRadius?: number;
  /** Corridor width (m). @default 3 */
  width?: number;
  /** Segments of the walls' polygons. @default 96 */
  segments?: number;
  /** Arc length of the measurement area along the corridor's centre line (m). @default 2 */
  measurementLength?: number;
}

/** Column with each agent's walking direction round the ring: +1 anticlockwise, −1 clockwise. */
export const RING_DIRECTION_COLUMN = "ring.direction";

/**
 * The ring: its scenario (walls only), walkable polygon, measurement area and a navigator.
 *
 * @example 3 m wide ring of inner radius 6 m
 * ```ts
 * import { RingCorridor } from "./ring_corridor.ts";
 * import assert from "node:assert/strict";
 * const ring = new RingCorridor();
 * assert.ok(Math.abs(ring.area - Math.PI * (81 - 36)) < 1);
 * assert.equal(ring.scenario().walls?.length, 1);
 * ```
 */
export class RingCorridor {
  /** Inner radius (m). */
  readonly innerRadius: number;
  /** Outer radius (m). */
  readonly outerRadius: number;
  /** Walkable area: outer ring, then the inner hole (m). */
  readonly walkable: Point[][];
  /** Measurement area: an annular sector across the corridor around angle 0 (m). */
  readonly measurementArea: Point[];
  /** Walkable area (m²) of the polygons. */
  readonly area: number;

  constructor(options: RingCorridorOptions = {}) {
    const inner = options.innerRadius ?? 6, width = options.width ?? 3;
    const segments = options.segments ?? 96, length = options.measurementLength ?? 2;
    if (!(inner > 0.5) || !(width > 0.5) || !(segments >= 12) || !(length > 0)) {
      throw new RangeError(
        `Cannot create RingCorridor: need innerRadius > 0.5 m, width > 0.5 m, segments >= 12, measurementLength > 0: got ${inner}, ${width}, ${segments}, ${length}`,
      );
    }
    this.innerRadius = inner;
    this.outerRadius = inner + width;
    const circle = (r: number): Point[] =>
      Array.from({ length: segments }, (_, k) => {
        const a = (2 * Math.PI * k) / segments;
        return [r * Math.cos(a), r * Math.sin(a)] as const;
      });
    this.walkable = [circle(this.outerRadius), circle(inner).reverse()];
    const half = length / (2 * (inner + width / 2));
    const arc = (r: number, from: number, to: number): Point[] =>
      Array.from({ length: 9 }, (_, k) => {
        const a = from + ((to - from) * k) / 8;
        return [r * Math.cos(a), r * Math.sin(a)] as const;
      });
    this.measurementArea = [...arc(inner, -half, half), ...arc(this.outerRadius, half, -half)];
    // The polygons' area: a regular n-gon of circumradius r has (n/2) r² sin(2π/n).
    const ngon = (r: number) => 0.5 * segments * r * r * Math.sin((2 * Math.PI) / segments);
    this.area = ngon(this.outerRadius) - ngon(inner);
  }

  /** The scenario: the two walls and an empty spawner (agents are placed by {@linkcode fill}). */
  scenario(name = "ring-corridor"): ScenarioSpec {
    const r = this.outerRadius + 0.5;
    return {
      name,
      dt: 0.05,
      bounds: [-r, -r, r, r],
      walls: [{ points: this.walkable[0].map(([x, y]) => [x, y]), closed: true }],
      obstacles: [this.walkable[1].map(([x, y]) => [x, y] as [number, number])],
      spawners: [{
        area: { rect: [0, this.innerRadius + 1, 0.1, this.innerRadius + 1.1] },
        count: 0,
        // Never used (the spawner places nobody), but it must be reachable: inside the corridor.
        goal: { point: [0, this.innerRadius + 1.05] },
      }],
    };
  }

  /**
   * Places `count` agents with radii drawn from `radius` (m; default {@linkcode SHOULDER_RADIUS},
   * or one number for everyone) on random sites of a hexagonal lattice of spacing
   * `2 · largest radius + 0.005` m that keep clear of the walls, with desired speeds drawn from
   * a normal distribution (mean 1.34 m/s, sd 0.26, clamped to 0.5–2 m/s, as the scenario
   * default). `bidirectional` sends a random half clockwise. Returns false, placing nobody,
   * when the lattice has fewer sites than `count`.
   */
  fill(
    world: World,
    count: number,
    options: { radius?: number | Distribution; bidirectional?: boolean; seed: number },
  ): boolean {
    const body: Distribution = typeof options.radius === "number"
      ? { kind: "constant", value: options.radius }
      : options.radius ?? SHOULDER_RADIUS;
    const radius = distributionMax(body);
    const a = 2 * radius + 0.005, rowStep = (a * Math.sqrt(3)) / 2;
    const sites: [number, number][] = [];
    const rMin = this.innerRadius + radius + 0.02, rMax = this.outerRadius - radius - 0.02;
    // Keep clear of the polygon edges, not only of the circles: the chords cut inwards.
    const chordSag = this.outerRadius * (1 - Math.cos(Math.PI / 96));
    for (let row = 0, y = -rMax; y <= rMax; row++, y += rowStep) {
      for (let x = -rMax + (row % 2) * (a / 2); x <= rMax; x += a) {
        const r = Math.hypot(x, y);
        if (r >= rMin + chordSag && r <= rMax - chordSag) sites.push([x, y]);
      }
    }
    if (sites.length < count) return false;
    const rng = new Rng(options.seed, RngStream.user);
    for (let k = sites.length - 1; k > 0; k--) {
      const j = rng.int(k + 1);
      [sites[k], sites[j]] = [sites[j], sites[k]];
    }
    const directions = world.agents.column<Int32Array>(RING_DIRECTION_COLUMN);
    for (let k = 0; k < count; k++) {
      const [x, y] = sites[k];
      let speed = 1.34 + 0.26 * rng.normal();
      speed = Math.min(2, Math.max(0.5, speed));
      const r = sampleDistribution(body, rng);
      const h = world.addAgent({ x, y, radius: r, desiredSpeed: speed, goalX: 1e6, goalY: 1e6 });
      directions[world.agents.indexOf(h)] = options.bidirectional && k % 2 === 1 ? -1 : 1;
    }
    world.reindex();
    return true;
  }

  /**
   * The navigator: each agent's preferred velocity follows the circle through its position at
   * its desired speed, in its direction (`ring.direction` column).
   */
  navigator(): Navigator {
    return {
      name: "ring",
      columns: [{
        name: RING_DIRECTION_COLUMN,
        type: "i32",
        default: 1,
        kind: "parameter",
        doc: "+1 anticlockwise, -1 clockwise",
      }],
      updatePreferredVelocities(ctx: NavigationContext, begin: number, end: number): void {
        const a = ctx.agents, dt = ctx.dt;
        const dir = a.column<Int32Array>(RING_DIRECTION_COLUMN);
        for (let i = begin; i < end; i++) {
          if ((a.flags[i] & AgentFlags.arrived) !== 0) {
            a.prefVx[i] = a.prefVy[i] = 0;
            continue;
          }
          const x = a.px[i], y = a.py[i], r = Math.sqrt(x * x + y * y);
          if (!(r > 0)) {
            a.prefVx[i] = a.prefVy[i] = 0;
            continue;
          }
          // The chord to where the agent would be after one step on its circle: no outward drift.
          const turn = (dir[i] * a.desiredSpeed[i] * dt) / r;
          const c = Math.cos(turn), s = Math.sin(turn);
          a.prefVx[i] = (x * c - y * s - x) / dt;
          a.prefVy[i] = (x * s + y * c - y) / dt;
        }
      },
    };
  }
}

/**
 * Speed of agent `i` along its walking direction round the ring (m/s; negative when it walks
 * backwards).
 */
export function ringSpeed(world: World, i: number): number {
  const a = world.agents, x = a.px[i], y = a.py[i], r = Math.hypot(x, y);
  if (!(r > 0)) return 0;
  const dir = a.column<Int32Array>(RING_DIRECTION_COLUMN)[i];
  return (dir * (-y * a.vx[i] + x * a.vy[i])) / r;
}

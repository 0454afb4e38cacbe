/**
 * Where agents can stand and where they can go: a scenario's spawn areas, goals and gates checked
 * against its walls and obstacles before the first agent is placed, so that agents never go
 * missing silently (an area under a pillar), never head for a goal inside a solid obstacle, and a
 * crowd that cannot fit is refused with the number that would.
 *
 * Areas are probed on a grid of up to {@linkcode PROBES_PER_SIDE}² points (ring spawners at
 * every place of the ring), with the same test the spawners use to place an agent.
 *
 * @module
 */
import { type Area, areaContains, areaSize } from "../core/area.ts";
import { distributionMax } from "../core/distribution.ts";
import { pointInPolygon } from "../core/geometry.ts";
import { isClearOfObstacles, isUnreachableGoal, SPAWN_GAP_M } from "../core/population.ts";
import type { World } from "../core/world.ts";
import type { ScenarioSpec } from "./schema.ts";

/** Probe points per side of an area's bounding box. */
export const PROBES_PER_SIDE = 24;

/** Share of a spawn area that may be blocked before a warning says so. */
const BLOCKED_SHARE_WARNING = 0.25;

/** Points probed along a gate. */
const GATE_PROBES = 64;

/** Most ring places probed one by one (larger rings are probed at evenly spread places). */
const MAX_RING_PROBES = 4096;

/** One finding: the field it concerns, what is wrong, and whether the scenario cannot run. */
export interface PlacementFinding {
  /** Field path, e.g. `spawners[0].area` or `goals.east`. */
  field: string;
  /** One line saying what is wrong (and, for warnings, what happens instead). */
  problem: string;
  /** True when the scenario cannot run as written; false for a warning. */
  fatal: boolean;
}

/**
 * Checks every spawner of a built world against its obstacles. `world.population.spawners[i]`
 * must come from `spec.spawners[i]` (as {@linkcode buildScenario} adds them). Fatal findings:
 * a spawn area, ring place or point with no clear spot; more agents than fit in the part of an
 * area left clear; a goal entirely inside solid obstacles. Warnings: a spawn area a quarter or
 * more blocked, a goal partly inside obstacles (goals are drawn from the rest), a gate through a
 * solid obstacle.
 *
 * @example A spawn area under a pillar
 * ```ts
 * import { checkPlacement } from "./placement_checks.ts";
 * import { World } from "../core/world.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: { name: "still", neighborRadius: 0, computeNewVelocities() {} } });
 * world.obstacles.addPolygon([[-1, -2], [3, -2], [3, 2], [-1, 2]]);
 * world.population.addSpawner({
 *   name: "west",
 *   area: { kind: "rect", minX: 0, minY: -1, maxX: 2, maxY: 1 },
 *   count: 3,
 *   goal: { kind: "area", area: { kind: "point", x: 9, y: 0 } },
 * });
 * const spec = {
 *   name: "x",
 *   obstacles: [[[-1, -2], [3, -2], [3, 2], [-1, 2]]] as [number, number][][],
 *   spawners: [{ area: { rect: [0, -1, 2, 1] as [number, number, number, number] }, count: 3, goal: { point: [9, 0] as [number, number] } }],
 * };
 * const [finding] = checkPlacement(world, spec);
 * assert.equal(finding.field, "spawners[0].area");
 * assert.match(finding.problem, /lies inside obstacles\[0\]/);
 * assert(finding.fatal);
 * ```
 */
export function checkPlacement(world: World, spec: ScenarioSpec): PlacementFinding[] {
  const findings: PlacementFinding[] = [];
  const configs = world.population.spawners;
  const checkedGoals = new Set<string>();
  // With a navigation mesh the world's polygons are the mesh's borders, not the file's list.
  const name = (k: number) => k >= 0 && !spec.navigation ? `obstacles[${k}]` : "a solid obstacle";
  configs.forEach((config, i) => {
    const where = `spawners[${i}]`;
    const radius = distributionMax(config.agent.radius);
    const written = spec.spawners[i];
    _checkSpawnArea(world, config, radius, { field: `${where}.area`, name })
      .forEach((f) => findings.push(f));
    if (config.goal.kind === "area") {
      const field = typeof written?.goal === "string" ? `goals.${written.goal}` : `${where}.goal`;
      if (!checkedGoals.has(field)) {
        checkedGoals.add(field);
        const finding = _checkGoal(world, config.goal.area, { field, name });
        if (finding) findings.push(finding);
      }
    }
    config.via.forEach((gate, k) => {
      const hit = _polygonCrossedBy(world, gate.ax, gate.ay, gate.bx, gate.by);
      if (hit >= 0) {
        findings.push({
          field: `${where}.via[${k}]`,
          problem: `the gate passes through ${
            name(hit)
          }: agents heading for the part inside it can get stuck; end the gate at the obstacle`,
          fatal: false,
        });
      }
    });
  });
  // Errors first: a fatal finding ends the build.
  return findings.sort((a, b) => Number(b.fatal) - Number(a.fatal));
}

/** Findings about one spawn area for agents of (largest) radius `radius` (m). */
function _checkSpawnArea(
  world: World,
  spawner: { area: Area; count: number; rate: number },
  radius: number,
  { field, name }: { field: string; name: (k: number) => string },
): PlacementFinding[] {
  const { area, count, rate } = spawner;
  if (count === 0 || world.obstacles.segmentCount === 0) return [];
  const probes = _probes(area, count);
  let clear = 0, insidePolygon = -1, allInside = true;
  for (let k = 0; k < probes.length; k += 2) {
    const x = probes[k], y = probes[k + 1];
    if (isClearOfObstacles(world, x, y, radius)) clear++;
    const inside = _polygonContaining(world, x, y);
    if (inside < 0) allInside = false;
    else if (insidePolygon < 0) insidePolygon = inside;
  }
  const total = probes.length / 2;
  const kind = area.kind;
  if (clear === 0) {
    const why = allInside && insidePolygon >= 0
      ? `it lies inside ${name(insidePolygon)}`
      : `no spot in it is ${radius + SPAWN_GAP_M} m clear of walls and obstacles`;
    return [{
      field,
      problem: `${why}: none of its ${count} agents (radius ${radius} m) could be placed`,
      fatal: true,
    }];
  }
  if (kind === "ring" || kind === "point") {
    if (clear < total) {
      return [{
        field,
        problem: `${total - clear} of its ${total} ${
          kind === "ring" ? "places on the ring" : "spots"
        } are blocked by walls or obstacles: agents there could never be placed`,
        fatal: true,
      }];
    }
    return [];
  }
  const share = clear / total;
  if (share < 1 && rate === 0 && kind !== "points") {
    const clearArea = share * areaSize(area);
    const capacity = Math.floor((0.5 * clearArea) / (Math.PI * (radius + SPAWN_GAP_M) ** 2));
    if (count > capacity) {
      return [{
        field,
        problem: `${count} agents of radius ${radius} m do not fit in the ${
          clearArea.toFixed(1)
        } m² of its ${
          areaSize(area).toFixed(1)
        } m² ${kind} left clear by walls and obstacles (at most about ${capacity}); enlarge the area, move it or use a 'rate'`,
        fatal: true,
      }];
    }
  }
  if (1 - share >= BLOCKED_SHARE_WARNING) {
    return [{
      field,
      problem: `${
        Math.round(100 * (1 - share))
      }% of it is under obstacles or too close to a wall: agents are placed in the rest`,
      fatal: false,
    }];
  }
  return [];
}

/**
 * A finding about a goal area partly or wholly unreachable (deeper inside solid obstacles than
 * the arrival radius), or null.
 */
function _checkGoal(
  world: World,
  area: Area,
  { field, name }: { field: string; name: (k: number) => string },
): PlacementFinding | null {
  if (world.obstacles.polygons.length === 0) return null;
  const probes = _probes(area, 1);
  let inside = 0, polygon = -1;
  for (let k = 0; k < probes.length; k += 2) {
    if (isUnreachableGoal(world, probes[k], probes[k + 1])) {
      inside++;
      if (polygon < 0) polygon = _polygonContaining(world, probes[k], probes[k + 1]);
    }
  }
  const total = probes.length / 2;
  const where = `${
    name(polygon)
  }, farther than the arrival radius (${world.arrivalRadius} m) from its edge`;
  if (inside === total) {
    return {
      field,
      problem: `the goal lies inside ${where}: no agent could reach it`,
      fatal: true,
    };
  }
  if (inside > 0) {
    return {
      field,
      problem: `${
        Math.max(1, Math.round((100 * inside) / total))
      }% of the goal lies inside ${where}: goals are drawn from the rest of it`,
      fatal: false,
    };
  }
  return null;
}

/** Probe points `[x0, y0, x1, y1, …]` of an area: a grid, or the places of a ring. */
function _probes(area: Area, count: number): number[] {
  const out: number[] = [];
  switch (area.kind) {
    case "point":
      return [area.x, area.y];
    case "ring": {
      const n = Math.max(1, count), step = Math.max(1, Math.ceil(n / MAX_RING_PROBES));
      for (let i = 0; i < n; i += step) {
        const angle = (2 * Math.PI * i) / n; // the spawner's ring places (see sampleArea)
        out.push(area.x + area.radius * Math.cos(angle), area.y + area.radius * Math.sin(angle));
      }
      return out;
    }
    case "points":
    case "triangles": {
      // Evenly spread members: the points, or the triangles' centroids.
      const per = area.kind === "points" ? 2 : 6, n = area.coords.length / per;
      const step = Math.max(1, Math.ceil(n / (PROBES_PER_SIDE * PROBES_PER_SIDE)));
      const c = area.coords;
      for (let k = 0; k < n; k += step) {
        const o = per * k;
        if (per === 2) out.push(c[o], c[o + 1]);
        else out.push((c[o] + c[o + 2] + c[o + 4]) / 3, (c[o + 1] + c[o + 3] + c[o + 5]) / 3);
      }
      return out;
    }
  }
  const [minX, minY, maxX, maxY] = _box(area);
  const side = PROBES_PER_SIDE;
  for (let j = 0; j < side; j++) {
    for (let i = 0; i < side; i++) {
      const x = minX + ((i + 0.5) / side) * (maxX - minX);
      const y = minY + ((j + 0.5) / side) * (maxY - minY);
      if (areaContains(area, x, y)) out.push(x, y);
    }
  }
  if (out.length === 0) {
    // A sliver thinner than the grid: probe its centre.
    out.push((minX + maxX) / 2, (minY + maxY) / 2);
  }
  return out;
}

/** Bounding box `[minX, minY, maxX, maxY]` (m) of a rect, circle or capsule. */
function _box(area: Area): [number, number, number, number] {
  switch (area.kind) {
    case "rect":
      return [area.minX, area.minY, area.maxX, area.maxY];
    case "circle":
      return [
        area.x - area.radius,
        area.y - area.radius,
        area.x + area.radius,
        area.y + area.radius,
      ];
    case "capsule":
      return [
        Math.min(area.ax, area.bx) - area.radius,
        Math.min(area.ay, area.by) - area.radius,
        Math.max(area.ax, area.bx) + area.radius,
        Math.max(area.ay, area.by) + area.radius,
      ];
    case "point":
    case "ring":
      return [area.x, area.y, area.x, area.y];
    default:
      return [0, 0, 0, 0];
  }
}

/** Index of the first solid polygon containing (`x`, `y`), or -1. */
function _polygonContaining(world: World, x: number, y: number): number {
  const polygons = world.obstacles.polygons;
  for (let k = 0; k < polygons.length; k++) if (pointInPolygon(x, y, polygons[k])) return k;
  return -1;
}

/**
 * Index of the first solid polygon whose inside the segment a–b passes through (one of
 * {@linkcode GATE_PROBES} points along it lies inside), or -1.
 */
function _polygonCrossedBy(world: World, ax: number, ay: number, bx: number, by: number): number {
  for (let k = 1; k < GATE_PROBES; k++) {
    const t = k / GATE_PROBES;
    const inside = _polygonContaining(world, ax + t * (bx - ax), ay + t * (by - ay));
    if (inside >= 0) return inside;
  }
  return -1;
}

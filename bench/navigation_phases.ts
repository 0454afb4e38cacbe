/**
 * Per-phase step times of the navigators, robust to a busy machine: runs a crowd for a number
 * of steps and prints, for the navigation phase (preferred velocities) and the integration phase
 * (which includes the navigator's `afterMove`), the fastest and the median step, in ms, from
 * the world's phase clocks. On a shared machine the fastest step is the figure to compare
 * between two checkouts, run one after the other.
 *
 * Crowds: `navmesh` — 10,000 agents following 150–300 m paths on the 1 km² map of
 * `navmesh_bench.ts` (2,000 rectangles); `seeker` — 100,000 agents (or `--agents`) walking
 * straight east with the goal seeker, as in `step_bench.ts`.
 *
 * ```sh
 * deno run -A bench/navigation_phases.ts --crowd navmesh --steps 100
 * deno run -A bench/navigation_phases.ts --crowd seeker --agents 100000 --steps 60
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Rng } from "../core/rng.ts";
import { World } from "../core/world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { buildNavMesh } from "../navigation/navmesh_builder.ts";
import { createNavMeshNavigator } from "../navigation/navmesh_navigator.ts";
import type { PolygonWithHoles } from "../navigation/walkable_area.ts";
import { createNoneStrategy } from "../strategies/none.ts";

const MAP_SIZE = 1000; // m

function navmeshCrowd(): World {
  const rng = new Rng(7);
  const obstacles: PolygonWithHoles[] = [];
  for (let i = 0; i < 2000; i++) {
    const w = rng.range(1, 12), h = rng.range(1, 12);
    const x = rng.range(1, MAP_SIZE - 1 - w), y = rng.range(1, MAP_SIZE - 1 - h);
    obstacles.push([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]]);
  }
  const square: PolygonWithHoles = [[[0, 0], [MAP_SIZE, 0], [MAP_SIZE, MAP_SIZE], [0, MAP_SIZE]]];
  const mesh = buildNavMesh({ walkable: [square], obstacles });
  const world = new World({
    strategy: createNoneStrategy(),
    navigator: createNavMeshNavigator(mesh, { maxQueriesPerStep: 100_000, exportBorders: false }),
    capacity: 10_000,
  });
  const clear = (x: number, y: number) => {
    const t = mesh.locate(x, y);
    return t >= 0 && mesh.clear[t] === 1;
  };
  const r = new Rng(13);
  for (let n = 0; n < 10_000;) {
    const sx = r.range(0, MAP_SIZE), sy = r.range(0, MAP_SIZE);
    const a = r.range(0, 2 * Math.PI), d = r.range(150, 300);
    const gx = sx + d * Math.cos(a), gy = sy + d * Math.sin(a);
    if (clear(sx, sy) && clear(gx, gy)) {
      world.addAgent({ x: sx, y: sy, goalX: gx, goalY: gy });
      n++;
    }
  }
  world.step(); // plans every path
  return world;
}

function seekerCrowd(count: number): World {
  const world = new World({
    strategy: createNoneStrategy(),
    navigator: createGoalSeeker(),
    capacity: count,
  });
  const side = Math.sqrt(count / 2);
  const rng = new Rng(7);
  for (let i = 0; i < count; i++) {
    const x = rng.range(0, side), y = rng.range(0, side);
    world.addAgent({ x, y, goalX: x + 1000, goalY: y, desiredSpeed: rng.range(1.1, 1.5) });
  }
  world.prepare();
  return world;
}

function integerFlag(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`error: --${name} must be an integer >= 1: got '${text}'`);
    Deno.exit(2);
  }
  return value;
}

const { values } = parseArgs({
  args: Deno.args,
  options: {
    crowd: { type: "string", default: "navmesh" },
    agents: { type: "string", default: "100000" },
    steps: { type: "string", default: "100" },
    warmup: { type: "string", default: "50" },
  },
});
if (values.crowd !== "navmesh" && values.crowd !== "seeker") {
  console.error(`error: --crowd must be navmesh or seeker: got '${values.crowd}'`);
  Deno.exit(2);
}
const steps = integerFlag("steps", values.steps), warmup = integerFlag("warmup", values.warmup);
const world = values.crowd === "navmesh"
  ? navmeshCrowd()
  : seekerCrowd(integerFlag("agents", values.agents));
for (let i = 0; i < warmup; i++) world.step();
const navigation: number[] = [], integration: number[] = [];
for (let i = 0; i < steps; i++) {
  const n0 = world.phaseMs.navigation, i0 = world.phaseMs.integration;
  world.step();
  navigation.push(world.phaseMs.navigation - n0);
  integration.push(world.phaseMs.integration - i0);
}
const summary = (times: number[]) => {
  const sorted = times.slice().sort((a, b) => a - b);
  return { fastestMs: +sorted[0].toFixed(4), medianMs: +sorted[sorted.length >> 1].toFixed(4) };
};
console.log(JSON.stringify({
  crowd: values.crowd,
  agents: world.agents.count,
  steps,
  navigation: summary(navigation),
  integration: summary(integration),
}));

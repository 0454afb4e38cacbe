/**
 * The `city-grid` step of two checkouts in one process, for a before/after comparison on a busy
 * machine: both worlds (10,000 pedestrians, 2,000 cars, one strategy) are built and warmed up,
 * then stepped alternately (in alternating order), and the CPU time of each phase is summed
 * per checkout (process CPU time: other processes distort it far less than the wall clock, and
 * alternating steps share out whatever load remains). At the end both worlds' states are
 * compared: a speed change that keeps behaviour leaves every position the same. With
 * `--scene corridor`, the worlds are the 10,000-agent two-way corridor of `bench/orca_bench.ts`
 * instead (no cars).
 *
 * ```sh
 * git worktree add ../throng-before <commit>
 * deno run -A bench/city_grid_ab.ts --base ../throng-before --strategy repulsion --steps 60
 * deno run -A bench/city_grid_ab.ts --base ../throng-before --scene corridor --strategy orca --warmup 200
 * ```
 *
 * @module
 */
import { timeCpu } from "./_cpu_time.ts";
import { parseArgs } from "node:util";
import { runMain, UsageError } from "../cli/_errors.ts";
import { buildCorridorCrowd } from "./_corridor_crowd.ts";

const PHASES = ["navigation", "traffic", "avoidance", "metrics", "step"] as const;
type Phase = typeof PHASES[number];

interface Side {
  name: string;
  world: { step(): void; agents: { count: number; px: Float64Array; py: Float64Array } };
  cpu: Record<Phase, number>;
}

async function side(name: string, root: URL, strategy: string, scene: string): Promise<Side> {
  if (scene === "corridor") return await corridorSide(name, root, strategy);
  const mod = await import(new URL("scenarios/city_traffic.ts", root).href);
  const run = mod.buildCityTraffic("city-grid", { strategy, seed: 1 });
  const cpu = { navigation: 0, traffic: 0, avoidance: 0, metrics: 0, step: 0 };
  const world = run.world;
  timeCpu(world.navigator, "updatePreferredVelocities", cpu, "navigation");
  timeCpu(world.traffic, "step", cpu, "traffic");
  timeCpu(world.strategy, "computeNewVelocities", cpu, "avoidance");
  timeCpu(run.metrics, "afterStep", cpu, "metrics");
  timeCpu(world, "step", cpu, "step");
  return { name, world, cpu };
}

/**
 * The 10,000-agent two-way corridor of `bench/orca_bench.ts` with `strategy`, built from the
 * checkout at `root` (its world, navigator and strategies; the crowd from this checkout's
 * builder). Cars and metrics stay at zero.
 */
async function corridorSide(name: string, root: URL, strategy: string): Promise<Side> {
  const at = (path: string) => import(new URL(path, root).href);
  const [{ World }, { Rng }, { createGoalSeeker }, { strategies }] = await Promise.all([
    at("core/world.ts"),
    at("core/rng.ts"),
    at("navigation/goal_seeker.ts"),
    at("strategies/mod.ts"),
  ]);
  const world = buildCorridorCrowd(
    { World, Rng, createGoalSeeker },
    strategies.create(strategy),
    10_000,
  );
  const cpu = { navigation: 0, traffic: 0, avoidance: 0, metrics: 0, step: 0 };
  timeCpu(world.navigator!, "updatePreferredVelocities", cpu, "navigation");
  timeCpu(world.strategy, "computeNewVelocities", cpu, "avoidance");
  timeCpu(world, "step", cpu, "step");
  return { name, world, cpu };
}

await runMain(async () => {
  const { values } = parseArgs({
    options: {
      base: { type: "string" },
      strategy: { type: "string", default: "repulsion" },
      warmup: { type: "string", default: "100" },
      steps: { type: "string", default: "60" },
      scene: { type: "string", default: "city-grid" },
    },
  });
  if (values.scene !== "city-grid" && values.scene !== "corridor") {
    throw new UsageError(`--scene: expected city-grid or corridor, got ${values.scene}`);
  }
  if (!values.base) {
    throw new UsageError("--base: expected the path of the checkout to compare with");
  }
  const warmup = Number(values.warmup), steps = Number(values.steps);
  if (!(Number.isInteger(warmup) && warmup >= 0)) {
    throw new UsageError(`--warmup: expected a whole number of steps, got ${values.warmup}`);
  }
  if (!(Number.isInteger(steps) && steps > 0)) {
    throw new UsageError(`--steps: expected a positive whole number of steps, got ${values.steps}`);
  }
  const baseRoot = new URL(`file://${await Deno.realPath(values.base)}/`);
  const sides = [
    await side("base", baseRoot, values.strategy!, values.scene),
    await side("this", new URL("../", import.meta.url), values.strategy!, values.scene),
  ];
  for (let k = 0; k < warmup; k++) for (const s of sides) s.world.step();
  for (const s of sides) for (const p of PHASES) s.cpu[p] = 0;
  for (let k = 0; k < steps; k++) {
    for (const s of k % 2 === 0 ? sides : [sides[1], sides[0]]) s.world.step();
  }
  for (const s of sides) {
    const c = s.cpu, per = (ms: number) => (ms / steps).toFixed(2);
    const rest = c.step - c.navigation - c.traffic - c.avoidance - c.metrics;
    console.log(
      `${s.name}: ${per(c.step)} ms CPU per step = navigation ${per(c.navigation)} + cars and ` +
        `lights ${per(c.traffic)} + avoidance ${per(c.avoidance)} + metrics ${per(c.metrics)} + ` +
        `rest ${per(rest)} (${values.strategy}, ${steps} steps after ${warmup})`,
    );
  }
  const [a, b] = sides.map((s) => s.world.agents);
  let same = a.count === b.count;
  for (let i = 0; same && i < a.count; i++) same = a.px[i] === b.px[i] && a.py[i] === b.py[i];
  console.log(same ? "same positions in both" : "positions differ");
});

/**
 * ORCA against Recast/Detour's crowd (`@recast-navigation/core`, the C++ library compiled to
 * WebAssembly), side by side in the same process: the same agents (radius 0.25 m, speed
 * 1.34 m/s), the same start positions and the same antipodal targets on a flat square navmesh.
 *
 * Crowds:
 * - **converged circle** (1k, 5k, 10k agents): the circle swap at the moment the crowd meets in
 *   the middle. Agents fill a disc at 1 agent/m² and walk radially, half inwards and half
 *   outwards, to antipodal points of a circle 30 m outside the disc; both engines run the same
 *   number of steps from that state.
 * - **full circle** (1k agents): the classic swap from a circle of radius 199 m (2.5 body
 *   diameters of circumference per agent) until everyone has arrived; arrived agents leave.
 *
 * Timed: `world.step()` (navigation, ORCA, integration, grid rebuild) against `crowd.update(dt)`
 * (Detour's neighbour grid, path corridors, steering, velocity-sampling avoidance, integration,
 * collision handling). Overlaps are counted the same way for both, outside the timed code: pairs
 * whose centre distance is below r_i + r_j − 1e-3 m after each step, summed over steps.
 *
 * Detour's agents use the settings of the Recast demo for a 0.25 m agent (collision query range
 * 12 r, path optimisation range 30 r, separation weight 2, every steering flag) with Detour's
 * default obstacle-avoidance parameters (adaptive velocity sampling, 7 divisions, 2 rings, depth
 * 5; at most 6 neighbours per agent, fixed in Detour) and an acceleration limit of 100 m/s², so
 * that, like ORCA's agents here, they can change velocity at will. ORCA runs with its defaults (neighborDist 5 m,
 * maxNeighbors 10, timeHorizon 5 s, contact safety and a 30° walking-side preference); its
 * agents' speed cap equals their preferred speed, as in Detour.
 *
 * Run with `deno run -A bench/orca_vs_detour.ts [--agents 1000,5000,10000] [--steps 300]
 * [--no-full]`.
 *
 * @module
 */
import { Crowd, type CrowdAgent, init } from "@recast-navigation/core";
import { generateSoloNavMesh } from "@recast-navigation/generators";
import { AgentGrid } from "../core/agent_grid.ts";
import { World } from "../core/world.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";
import { ringRadiusFor } from "../scenarios/build.ts";
import { createOrcaStrategy } from "../strategies/orca.ts";

const RADIUS = 0.25;
const SPEED = 1.34;
const DT = 0.05;
const TOLERANCE = 1e-3;
const ARRIVAL = 0.5;

/** Start positions and targets of one comparison. */
interface Setup {
  name: string;
  x: Float64Array;
  y: Float64Array;
  goalX: Float64Array;
  goalY: Float64Array;
  /** Half the side of the square navmesh (m). */
  extent: number;
  /** Steps to run; the full circle stops earlier once everyone has arrived. */
  steps: number;
  /** Arrived agents leave (full circle) or stay (converged circle). */
  leave: boolean;
}

/** The crowd meeting in the middle of the circle swap. */
function convergedCircle(count: number, steps: number): Setup {
  const disc = Math.sqrt(count / Math.PI);
  const ring = disc + 30;
  const golden = Math.PI * (3 - Math.sqrt(5));
  const s: Setup = {
    name: `converged circle, ${count} agents, ${steps} steps`,
    x: new Float64Array(count),
    y: new Float64Array(count),
    goalX: new Float64Array(count),
    goalY: new Float64Array(count),
    extent: ring + 5,
    steps,
    leave: false,
  };
  for (let i = 0; i < count; i++) {
    const r = disc * Math.sqrt((i + 0.5) / count), a = i * golden;
    s.x[i] = r * Math.cos(a);
    s.y[i] = r * Math.sin(a);
    const outwards = i % 2 === 0 ? 1 : -1;
    s.goalX[i] = outwards * ring * Math.cos(a);
    s.goalY[i] = outwards * ring * Math.sin(a);
  }
  return s;
}

/** The classic circle swap. */
function fullCircle(count: number): Setup {
  const ring = ringRadiusFor(count, RADIUS);
  const s: Setup = {
    name: `full circle, ${count} agents`,
    x: new Float64Array(count),
    y: new Float64Array(count),
    goalX: new Float64Array(count),
    goalY: new Float64Array(count),
    extent: ring + 5,
    steps: Math.ceil((4 * ring) / SPEED / DT),
    leave: true,
  };
  for (let i = 0; i < count; i++) {
    const a = (2 * Math.PI * i) / count;
    s.x[i] = ring * Math.cos(a);
    s.y[i] = ring * Math.sin(a);
    s.goalX[i] = -s.x[i];
    s.goalY[i] = -s.y[i];
  }
  return s;
}

/** What one engine did. */
interface Outcome {
  steps: number;
  /** Sum over steps of the wall-clock time of the step (ms). */
  ms: number;
  /** Sum over steps of the agents present during the step. */
  agentSteps: number;
  /** Overlapping pairs, summed over steps. */
  overlaps: number;
  /** Largest overlap (m). */
  maxOverlap: number;
  /** Agents that reached their target. */
  arrived: number;
}

/** Counts overlapping pairs among the first `count` positions. */
class OverlapCounter {
  #grid = new AgentGrid({ cellSize: 4 * RADIUS });
  #out = new Uint32Array(64);
  overlaps = 0;
  maxOverlap = 0;

  count(x: Float64Array, y: Float64Array, n: number): void {
    this.#grid.rebuild(x, y, n);
    for (let i = 0; i < n; i++) {
      const found = this.#grid.queryRadius(x[i], y[i], 2 * RADIUS, this.#out, i);
      for (let m = 0; m < Math.min(found, this.#out.length); m++) {
        const j = this.#out[m];
        if (j < i) continue;
        const overlap = 2 * RADIUS - Math.hypot(x[i] - x[j], y[i] - y[j]);
        if (overlap > TOLERANCE) this.overlaps++;
        if (overlap > this.maxOverlap) this.maxOverlap = overlap;
      }
    }
  }
}

function runOrca(s: Setup): Outcome {
  const n = s.x.length;
  const world = new World({
    strategy: createOrcaStrategy(),
    navigator: createGoalSeeker(),
    capacity: n,
  });
  const group = s.leave
    ? world.population.addSpawner({
      name: "none",
      area: { kind: "ring", x: 0, y: 0, radius: 1 },
      count: 0,
      goal: { kind: "antipodal" },
      onArrival: "remove",
    })
    : -1;
  for (let i = 0; i < n; i++) {
    world.addAgent({
      x: s.x[i],
      y: s.y[i],
      goalX: s.goalX[i],
      goalY: s.goalY[i],
      radius: RADIUS,
      desiredSpeed: SPEED,
      maxSpeed: SPEED,
      group,
    });
  }
  world.prepare();
  const counter = new OverlapCounter();
  const o: Outcome = { steps: 0, ms: 0, agentSteps: 0, overlaps: 0, maxOverlap: 0, arrived: 0 };
  while (o.steps < s.steps && world.agents.count > 0 && !(s.leave && world.finished)) {
    const agents = world.agents.count;
    const t0 = performance.now();
    world.step();
    o.ms += performance.now() - t0;
    o.agentSteps += agents;
    o.steps++;
    o.arrived += world.events.arrived;
    counter.count(world.agents.px, world.agents.py, world.agents.count);
  }
  o.overlaps = counter.overlaps;
  o.maxOverlap = counter.maxOverlap;
  return o;
}

function runDetour(s: Setup): Outcome {
  const n = s.x.length, e = s.extent;
  const mesh = generateSoloNavMesh([-e, 0, -e, e, 0, -e, e, 0, e, -e, 0, e], [0, 2, 1, 0, 3, 2], {
    cs: 0.5,
    ch: 0.2,
    walkableRadius: 0,
    maxEdgeLen: 0,
  });
  if (!mesh.success) throw new Error(`Detour could not build the navmesh: ${mesh.error}`);
  const crowd = new Crowd(mesh.navMesh, { maxAgents: n, maxAgentRadius: RADIUS });
  const agents: (CrowdAgent | null)[] = [];
  for (let i = 0; i < n; i++) {
    const agent = crowd.addAgent({ x: s.x[i], y: 0, z: s.y[i] }, {
      radius: RADIUS,
      height: 1.8,
      maxAcceleration: 100,
      maxSpeed: SPEED,
      collisionQueryRange: 12 * RADIUS,
      pathOptimizationRange: 30 * RADIUS,
      separationWeight: 2,
      updateFlags: 1 | 2 | 4 | 8 | 16,
      obstacleAvoidanceType: 3,
    });
    if (!agent.requestMoveTarget({ x: s.goalX[i], y: 0, z: s.goalY[i] })) {
      throw new Error(`Detour refused the target of agent ${i}`);
    }
    agents.push(agent);
  }
  const x = new Float64Array(n), y = new Float64Array(n);
  const counter = new OverlapCounter();
  const o: Outcome = { steps: 0, ms: 0, agentSteps: 0, overlaps: 0, maxOverlap: 0, arrived: 0 };
  const arrived = new Uint8Array(n);
  let present = n;
  while (o.steps < s.steps && present > 0) {
    const t0 = performance.now();
    crowd.update(DT);
    o.ms += performance.now() - t0;
    o.agentSteps += present;
    o.steps++;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const agent = agents[i];
      if (!agent) continue;
      const p = agent.position();
      if (!arrived[i] && Math.hypot(p.x - s.goalX[i], p.z - s.goalY[i]) <= ARRIVAL) {
        arrived[i] = 1;
        o.arrived++;
        if (s.leave) {
          crowd.removeAgent(agent);
          agents[i] = null;
          present--;
          continue;
        }
      }
      x[k] = p.x;
      y[k] = p.z;
      k++;
    }
    counter.count(x, y, k);
  }
  o.overlaps = counter.overlaps;
  o.maxOverlap = counter.maxOverlap;
  crowd.destroy();
  mesh.navMesh.destroy();
  return o;
}

function parseArgs(args: string[]): { agents: number[]; steps: number; full: boolean } {
  let agents = [1000, 5000, 10000], steps = 300, full = true;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--agents") agents = args[++i].split(",").map(Number);
    else if (args[i] === "--steps") steps = Number(args[++i]);
    else if (args[i] === "--no-full") full = false;
    else throw new Error(`unknown argument '${args[i]}'`);
  }
  return { agents, steps, full };
}

if (import.meta.main) {
  const { agents, steps, full } = parseArgs(Deno.args);
  await init();
  const setups = agents.map((n) => convergedCircle(n, steps));
  if (full) setups.push(fullCircle(1000));
  const rows = [
    "| crowd | ORCA µs/agent-step | Detour µs/agent-step | Detour / ORCA | ORCA overlaps (max, m) | Detour overlaps (max, m) | arrived ORCA / Detour |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const s of setups) {
    const orca = runOrca(s);
    const detour = runDetour(s);
    const perOrca = (1000 * orca.ms) / orca.agentSteps,
      perDetour = (1000 * detour.ms) / detour.agentSteps;
    rows.push(
      `| ${s.name} | ${perOrca.toFixed(2)} | ${perDetour.toFixed(2)} | ${
        (perDetour / perOrca).toFixed(2)
      } | ${orca.overlaps} (${orca.maxOverlap.toFixed(3)}) | ${detour.overlaps} (${
        detour.maxOverlap.toFixed(3)
      }) | ${orca.arrived} in ${orca.steps} steps / ${detour.arrived} in ${detour.steps} steps |`,
    );
    console.log(rows[rows.length - 1]);
  }
  console.log(["", ...rows].join("\n"));
}

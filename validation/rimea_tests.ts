/**
 * RiMEA 3.0 tests 1–15 (RiMEA e.V., Guideline for Microscopic Evacuation Analysis, version
 * 3.0.0, 2016) as validation tests, with their pass criteria. Where the guideline states no
 * numeric criterion, the criterion used is stated with its source (mostly JuPedSim's
 * implementation of the tests, PedestrianDynamics/jupedsim `Utest/rimea_tests/`). Test 4 is the
 * unidirectional fundamental diagram; tests 10, 11 and 14 need a navigator that chooses between
 * exits and routes, and are defined but not run yet.
 *
 * @module
 */
import { AgentFlags } from "../core/agent_store.ts";
import { Rng, RngStream } from "../core/rng.ts";
import type { World, WorldObserver } from "../core/world.ts";
import { MetricsCollector } from "../metrics/collector.ts";
import { stairSpeedFactor } from "../navigation/stair_speed.ts";
import { buildScenario } from "../scenarios/build.ts";
import type { ScenarioSpec } from "../scenarios/schema.ts";
import { LineCrossings, type MeasurementLine, steadyFlow } from "./line_crossings.ts";
import {
  RIMEA10_EXITS,
  rimea10Rooms,
  RIMEA11_EXITS,
  RIMEA11_PERSONS,
  rimea11Room,
  rimea12Rooms,
  rimea13Stairs,
  rimea14Routes,
  RIMEA15_CENTRE_LENGTH,
  RIMEA15_PERSONS,
  rimea15Corridors,
  rimea1Corridor,
  rimea5Room,
  rimea6Corner,
  rimea7Demography,
  rimea7GroupOf,
  rimea8Room,
  rimea9Room,
  RIMEA_RISER,
  RIMEA_SPEED_GROUPS,
  RIMEA_STAIR_LENGTH,
  RIMEA_TREAD,
  rimeaStairs,
} from "./rimea_scenarios.ts";
import { VIA_CHOICE_COLUMN } from "../navigation/exit_choice.ts";
import {
  defineTest,
  fmt,
  meanOf,
  type MeasureContext,
  notRunVerdict,
  type ValidationTest,
  type Verdict,
} from "./validation_test_spec.ts";

/** A scenario run: the world after the run and the observers' results. */
interface Run {
  world: World;
  lines: LineCrossings[];
  metrics: MetricsCollector;
  /** Time everyone had arrived (s), or null when the run ran out of time. */
  finishedAt: number | null;
}

/** Builds and runs `spec` with the context's strategy and seed until everyone arrived. */
export function runRimeaScenario(
  spec: ScenarioSpec,
  ctx: MeasureContext,
  options: { lines?: MeasurementLine[]; observers?: WorldObserver[] } = {},
): Run {
  const built = buildScenario(spec, {
    registry: ctx.registry,
    strategy: { name: ctx.strategy },
    seed: ctx.seed,
  });
  const world = built.world;
  const lines = (options.lines ?? []).map((l) => new LineCrossings(l));
  const metrics = new MetricsCollector();
  for (const o of [...lines, metrics, ...(options.observers ?? [])]) world.addObserver(o);
  while (world.stepIndex < built.steps && !world.finished) world.step();
  return { world, lines, metrics, finishedAt: world.finished ? world.time : null };
}

const verdict = (pass: boolean, summary: string, figures: Verdict["figures"]): Verdict => ({
  status: pass ? "pass" : "fail",
  summary,
  figures,
});

const line = (x: number, y0: number, y1: number): MeasurementLine => ({
  from: [x, y0],
  to: [x, y1],
});

/** Test 1: the time to walk 40 m at 1.33 m/s. */
function rimea1(): ValidationTest {
  return defineTest<number | null>({
    id: "rimea-1",
    group: "RiMEA 3.0",
    title: "one person keeps 1.33 m/s along a 40 m corridor",
    criterion: "40 m covered in 26–34 s (RiMEA 3.0 test 1)",
    measure: (ctx) =>
      runRimeaScenario(rimea1Corridor(), ctx, { lines: [line(40, -1, 1)] }).lines[0].times[0] ??
        null,
    judge: (runs) => {
      const ok = runs.every((t) => t !== null && t >= 26 && t <= 34);
      return verdict(ok, `${runs.map((t) => fmt(t, 1)).join(", ")} s`, {
        "time (s)": meanOf(runs),
      });
    },
  });
}

/** Tests 2 and 3: time on a 10 m staircase against the stair speed. */
function rimeaStairTest(ascending: boolean): ValidationTest {
  const expected = RIMEA_STAIR_LENGTH /
    (1.34 * stairSpeedFactor(RIMEA_TREAD, RIMEA_RISER, ascending));
  const low = (26 / 30.08) * expected, high = (34 / 30.08) * expected;
  return defineTest<number | null>({
    id: ascending ? "rimea-2" : "rimea-3",
    group: "RiMEA 3.0",
    title: `one person keeps the stair speed ${ascending ? "up" : "down"} a 10 m staircase`,
    criterion: `the 10 m (plan) take ${low.toFixed(1)}–${
      high.toFixed(1)
    } s: the stair speed of Weidmann (1993) for a 0.29 m × 0.17 m stair (${
      expected.toFixed(1)
    } s), with test 1's relative tolerance (26–34 s around 30 s)`,
    measure: (ctx) => {
      const r = runRimeaScenario(rimeaStairs(ascending), ctx, {
        lines: [line(0, -1, 1), line(RIMEA_STAIR_LENGTH, -1, 1)],
      });
      const [a, b] = r.lines.map((l) => l.times[0]);
      return a === undefined || b === undefined ? null : b - a;
    },
    judge: (runs) => {
      const ok = runs.every((t) => t !== null && t >= low && t <= high);
      return verdict(
        ok,
        `${runs.map((t) => fmt(t, 1)).join(", ")} s (expected ${expected.toFixed(1)})`,
        { "time (s)": meanOf(runs) },
      );
    },
  });
}

/** Holds every agent still until its premovement time, and records when it first moves. */
class PremovementHold implements WorldObserver {
  readonly release = new Map<number, number>();
  readonly moved = new Map<number, number>();
  #start = new Map<number, [number, number]>();
  constructor(readonly seed: number, readonly range: [number, number]) {}

  attach(world: World): void {
    world.prepare();
    const rng = new Rng(this.seed, RngStream.user), a = world.agents;
    for (let i = 0; i < a.count; i++) {
      a.flags[i] |= AgentFlags.frozen;
      this.release.set(a.serial[i], rng.range(this.range[0], this.range[1]));
      this.#start.set(a.serial[i], [a.px[i], a.py[i]]);
    }
  }

  afterStep(world: World): void {
    const a = world.agents;
    for (let i = 0; i < a.count; i++) {
      const s = a.serial[i];
      if ((a.flags[i] & AgentFlags.frozen) !== 0 && world.time >= this.release.get(s)! - 1e-9) {
        a.flags[i] &= ~AgentFlags.frozen;
      }
      const [x, y] = this.#start.get(s)!;
      if (!this.moved.has(s) && Math.hypot(a.px[i] - x, a.py[i] - y) > 0.05) {
        this.moved.set(s, world.time);
      }
    }
  }
}

/** Test 5: premovement times. */
function rimea5(): ValidationTest {
  return defineTest<{ worstDelay: number; early: number; never: number }>({
    id: "rimea-5",
    group: "RiMEA 3.0",
    title: "ten persons start after their premovement times (uniform 10–100 s)",
    criterion:
      "nobody moves before their premovement time, everyone within 1 s after it (RiMEA 3.0 test 5; the 1 s is ours)",
    measure: (ctx) => {
      const hold = new PremovementHold(ctx.seed, [10, 100]);
      runRimeaScenario(rimea5Room(), ctx, { observers: [hold] });
      let worstDelay = 0, early = 0, never = 0;
      for (const [s, t] of hold.release) {
        const m = hold.moved.get(s);
        if (m === undefined) never++;
        else if (m < t) early++;
        else worstDelay = Math.max(worstDelay, m - t);
      }
      return { worstDelay, early, never };
    },
    judge: (runs) => {
      const worst = Math.max(...runs.map((r) => r.worstDelay));
      const early = runs.reduce((n, r) => n + r.early, 0),
        never = runs.reduce((n, r) => n + r.never, 0);
      return verdict(
        worst <= 1 && early === 0 && never === 0,
        `latest start ${worst.toFixed(2)} s after release; ${early} early, ${never} never`,
        {
          "worstDelay (s)": worst,
          "early": early,
          "never": never,
        },
      );
    },
  });
}

/** Test 6: round a corner without crossing walls. */
function rimea6(): ValidationTest {
  return defineTest<{ arrived: number; wallCrossings: number; time: number | null }>({
    id: "rimea-6",
    group: "RiMEA 3.0",
    title: "20 persons walk round a corner on the navigation mesh",
    criterion: "everyone arrives within 120 s and nobody crosses a wall (RiMEA 3.0 test 6)",
    measure: (ctx) => {
      const r = runRimeaScenario(rimea6Corner(), ctx);
      const m = r.metrics.result();
      return {
        arrived: m.arrivedFraction ?? 0,
        wallCrossings: m.wallCrossings,
        time: r.finishedAt,
      };
    },
    judge: (runs) => {
      const arrived = Math.min(...runs.map((r) => r.arrived)),
        walls = Math.max(...runs.map((r) => r.wallCrossings));
      return verdict(
        arrived === 1 && walls === 0,
        `${(100 * arrived).toFixed(0)} % arrived (worst seed), ${walls} wall crossings, ${
          fmt(meanOf(runs.map((r) => r.time)), 1)
        } s`,
        {
          arrivedShare: arrived,
          wallCrossings: walls,
        },
      );
    },
  });
}

/** Test 7: allocated speeds inside the age groups' ranges, and walked at when free. */
function rimea7(): ValidationTest {
  return defineTest<{ unallocated: number; off: number; measured: number }>({
    id: "rimea-7",
    group: "RiMEA 3.0",
    title: "50 persons of four age groups get and walk speeds inside their group's range",
    criterion:
      "every allocated speed lies within its age group's range (RiMEA 3.0 test 7) and, walking free side by side, every person covers 20 m at its allocated speed ±5 % (ours: the model walks at the speed it is given)",
    measure: (ctx) => {
      const recorder = new GroupRecorder();
      const spec = rimea7Demography();
      const edge = spec.bounds![3];
      const r = runRimeaScenario(spec, ctx, {
        lines: [line(5, -edge, edge), line(25, -edge, edge)],
        observers: [recorder],
      });
      const t5 = new Map(r.lines[0].serials.map((s, k) => [s, r.lines[0].times[k]]));
      let unallocated = 0;
      for (const [serial, spawner] of recorder.groups) {
        const g = RIMEA_SPEED_GROUPS[rimea7GroupOf(spawner)];
        const v = recorder.speeds.get(serial)!;
        if (!(v >= g.min && v <= g.max)) unallocated++;
      }
      let off = 0, measured = 0;
      r.lines[1].serials.forEach((s, k) => {
        const t0 = t5.get(s), allocated = recorder.speeds.get(s);
        if (t0 === undefined || allocated === undefined) return;
        const v = 20 / (r.lines[1].times[k] - t0);
        measured++;
        if (Math.abs(v / allocated - 1) > 0.05) off++;
      });
      return { unallocated, off, measured };
    },
    judge: (runs) => {
      const sum = (f: (r: { unallocated: number; off: number; measured: number }) => number) =>
        runs.reduce((n, r) => n + f(r), 0);
      const unallocated = sum((r) => r.unallocated), off = sum((r) => r.off);
      const measured = sum((r) => r.measured), missing = runs.length * 50 - measured;
      return verdict(
        unallocated === 0 && off === 0 && missing === 0,
        `${unallocated} allocated speeds outside their group, ${off} of ${measured} walked speeds off by over 5 %, ${missing} not measured`,
        { unallocated, off, notMeasured: missing },
      );
    },
  });
}

/** Records the spawner index and the desired (allocated) speed of every agent by trajectory id. */
class GroupRecorder implements WorldObserver {
  readonly groups = new Map<number, number>();
  readonly speeds = new Map<number, number>();
  attach(world: World): void {
    world.prepare();
    this.afterStep(world);
  }
  afterStep(world: World): void {
    const a = world.agents;
    for (let i = 0; i < a.count; i++) {
      if (!this.groups.has(a.serial[i])) {
        this.groups.set(a.serial[i], a.group[i]);
        this.speeds.set(a.serial[i], a.desiredSpeed[i]);
      }
    }
  }
}

/** Test 8: evacuation time against the desired speed. */
function rimea8(): ValidationTest {
  const speeds = [0.8, 1.34, 1.6];
  return defineTest<(number | null)[]>({
    id: "rimea-8",
    group: "RiMEA 3.0",
    title:
      "parameter study: evacuation time of a room against the mean desired speed (0.8, 1.34, 1.6 m/s)",
    criterion:
      "evacuation time falls as the desired speed rises (RiMEA 3.0 test 8 asks only to document the effect; a monotone fall is our criterion)",
    cost: () => 3,
    measure: (ctx) => speeds.map((v) => runRimeaScenario(rimea8Room(v), ctx).finishedAt),
    judge: (runs) => {
      const t = speeds.map((_, k) => meanOf(runs.map((r) => r[k])));
      const ok = t.every((x) => x !== null) && t[0]! > t[1]! && t[1]! > t[2]!;
      return verdict(
        ok,
        speeds.map((v, k) => `${v} m/s: ${fmt(t[k], 1)} s`).join(", "),
        Object.fromEntries(speeds.map((v, k) => [`timeAt${v} (s)`, t[k]])),
      );
    },
  });
}

/** Test 9: four exits against two. */
function rimea9(): ValidationTest {
  return defineTest<{ four: number | null; two: number | null }>({
    id: "rimea-9",
    group: "RiMEA 3.0",
    title: "a crowd leaves a large room through four exits, then through two",
    criterion:
      "evacuation time with two exits 1.7–2.3 × that with four (RiMEA 3.0 test 9: about double; the ±15 % is ours)",
    cost: (quick) => (quick ? 4 : 16),
    measure: (ctx) => {
      const scale = ctx.quick ? 0.5 : 1;
      return {
        four: runRimeaScenario(rimea9Room(4, scale), ctx).finishedAt,
        two: runRimeaScenario(rimea9Room(2, scale), ctx).finishedAt,
      };
    },
    judge: (runs, quick) => {
      const four = meanOf(runs.map((r) => r.four)), two = meanOf(runs.map((r) => r.two));
      const ratio = four !== null && two !== null && runs.every((r) =>
          r.four !== null && r.two !== null
        )
        ? two / four
        : null;
      return verdict(
        ratio !== null && ratio >= 1.7 && ratio <= 2.3,
        `${quick ? 250 : 1000} persons: ${fmt(four, 0)} s with 4 exits, ${
          fmt(two, 0)
        } s with 2: ratio ${fmt(ratio)}`,
        {
          ratio,
          "timeFourExits (s)": four,
          "timeTwoExits (s)": two,
        },
      );
    },
  });
}

/** Test 12: no jam at the final exit behind a narrower corridor. */
function rimea12(): ValidationTest {
  return defineTest<{ corridor: number | null; exit: number | null }>({
    id: "rimea-12",
    group: "RiMEA 3.0",
    title: "a 1 m corridor limits the flow: no jam at the 1 m exit behind it",
    criterion:
      "flow at the exit ≥ flow out of the corridor − 0.05 /s, both over the middle 60 % of the crowd (RiMEA 3.0 test 12; tolerance of JuPedSim's test)",
    cost: () => 2,
    measure: (ctx) => {
      const r = runRimeaScenario(rimea12Rooms(), ctx, {
        lines: [line(15, -0.5, 0.5), line(25, -0.5, 0.5)],
      });
      return {
        corridor: steadyFlow(r.lines[0].times, 150),
        exit: steadyFlow(r.lines[1].times, 150),
      };
    },
    judge: (runs) => {
      const c = meanOf(runs.map((r) => r.corridor)), e = meanOf(runs.map((r) => r.exit));
      const ok = runs.every((r) =>
        r.corridor !== null && r.exit !== null && r.exit >= r.corridor - 0.05
      );
      return verdict(ok, `J corridor ${fmt(c)} /s, J exit ${fmt(e)} /s`, {
        "flowCorridor (1/s)": c,
        "flowExit (1/s)": e,
      });
    },
  });
}

/** Test 13: a queue before the stairs. */
function rimea13(): ValidationTest {
  return defineTest<{ room: number | null; stairs: number | null }>({
    id: "rimea-13",
    group: "RiMEA 3.0",
    title: "150 persons queue in front of a staircase going up",
    criterion:
      "flow onto the stairs < flow out of the room − 0.05 /s, both over the middle 60 % of the crowd (RiMEA 3.0 test 13; JuPedSim's tolerance)",
    cost: () => 3,
    measure: (ctx) => {
      const r = runRimeaScenario(rimea13Stairs(), ctx, { lines: [line(0, 0, 2), line(12, 0, 2)] });
      return { room: steadyFlow(r.lines[0].times, 150), stairs: steadyFlow(r.lines[1].times, 150) };
    },
    judge: (runs) => {
      const room = meanOf(runs.map((r) => r.room)), stairs = meanOf(runs.map((r) => r.stairs));
      const ok = runs.every((r) =>
        r.room !== null && r.stairs !== null && r.stairs < r.room - 0.05
      );
      return verdict(ok, `J room exit ${fmt(room)} /s, J stair foot ${fmt(stairs)} /s`, {
        "flowRoom (1/s)": room,
        "flowStairs (1/s)": stairs,
      });
    },
  });
}

/** Test 10: everyone leaves by the exit allocated to them. */
function rimea10(): ValidationTest {
  return defineTest<{ arrived: number; wrong: number; wallCrossings: number; time: number | null }>(
    {
      id: "rimea-10",
      group: "RiMEA 3.0",
      title: "persons in twelve rooms leave by their allocated exits",
      criterion:
        "every person leaves by the exit allocated to them (RiMEA 3.0 test 10), within 120 s and without crossing a wall (ours)",
      cost: () => 2,
      measure: (ctx) => {
        // The exit each person reached against the one allocated (its spawner's goal).
        let wrong = 0;
        const west = RIMEA10_EXITS.west[2];
        const observer = {
          onArrival: (world: World, i: number) => {
            const a = world.agents, byWest = a.px[i] <= west + 1, allocatedWest = a.goalX[i] < 15;
            if (byWest !== allocatedWest) wrong++;
          },
        };
        const r = runRimeaScenario(rimea10Rooms(), ctx, { observers: [observer] });
        const m = r.metrics.result();
        return {
          arrived: m.arrivedFraction ?? 0,
          wrong,
          wallCrossings: m.wallCrossings,
          time: r.finishedAt,
        };
      },
      judge: (runs) => {
        const arrived = Math.min(...runs.map((r) => r.arrived)),
          wrong = Math.max(...runs.map((r) => r.wrong)),
          walls = Math.max(...runs.map((r) => r.wallCrossings));
        return verdict(
          arrived === 1 && wrong === 0 && walls === 0,
          `${
            (100 * arrived).toFixed(0)
          } % out (worst seed), ${wrong} by another exit, ${walls} wall crossings, ${
            fmt(meanOf(runs.map((r) => r.time)), 1)
          } s`,
          { arrivedShare: arrived, byOtherExit: wrong, wallCrossings: walls },
        );
      },
    },
  );
}

/** Smallest share of persons through each exit of test 11 for "both used" (ours). */
const RIMEA11_MIN_SHARE = 0.05;

/** Test 11: a crowd chooses between two exits. */
function rimea11(): ValidationTest {
  return defineTest<{ near: number; far: number; nearest: number; time: number | null }>({
    id: "rimea-11",
    group: "RiMEA 3.0",
    title: "a crowd chooses between two exits",
    criterion:
      "at least half the persons leave by the exit nearest to where they started, and each exit is used by at least 5 % (RiMEA 3.0 test 11 asks that people mostly use the nearer exit and the other one too, without numbers; JuPedSim checks that both are used; the 50 % and 5 % are ours)",
    cost: (quick) => (quick ? 3 : 12),
    measure: (ctx) => {
      let near = 0, far = 0, nearest = 0;
      const split = 0.5 * (RIMEA11_EXITS[0][3] + RIMEA11_EXITS[1][1]);
      // Each person's nearest exit where they first stand (by serial).
      const start = new Map<number, number>();
      const exitOf = (x: number, y: number) =>
        _rectDistance(RIMEA11_EXITS[0], x, y) <= _rectDistance(RIMEA11_EXITS[1], x, y) ? 0 : 1;
      const observer = {
        afterStep: (world: World) => {
          const a = world.agents;
          for (let i = 0; i < a.count; i++) {
            if (!start.has(a.serial[i])) start.set(a.serial[i], exitOf(a.px[i], a.py[i]));
          }
        },
        onArrival: (world: World, i: number) => {
          const a = world.agents, used = a.goalY[i] < split ? 0 : 1;
          if (used === 0) near++;
          else far++;
          if (used === start.get(a.serial[i])) nearest++;
        },
      };
      const persons = ctx.quick ? 250 : RIMEA11_PERSONS;
      const r = runRimeaScenario(rimea11Room(persons), ctx, { observers: [observer] });
      return {
        near: near / persons,
        far: far / persons,
        nearest: nearest / persons,
        time: r.finishedAt,
      };
    },
    judge: (runs, quick) => {
      const near = Math.min(...runs.map((r) => r.near)), far = Math.min(...runs.map((r) => r.far));
      const nearest = Math.min(...runs.map((r) => r.nearest));
      const pct = (v: number | null) => v === null ? "–" : (100 * v).toFixed(0);
      return verdict(
        nearest >= 0.5 && near >= RIMEA11_MIN_SHARE && far >= RIMEA11_MIN_SHARE,
        `${quick ? 250 : RIMEA11_PERSONS} persons: ${
          pct(meanOf(runs.map((r) => r.nearest)))
        } % by the exit nearest to their start (worst seed ${
          pct(nearest)
        } %); exits at y 3 / 7 m: ${pct(meanOf(runs.map((r) => r.near)))} / ${
          pct(meanOf(runs.map((r) => r.far)))
        } %, ${fmt(meanOf(runs.map((r) => r.time)), 0)} s`,
        { nearestShare: nearest, nearShare: near, farShare: far },
      );
    },
  });
}

/** Distance (m) from (`x`, `y`) to the rectangle `r` = [x0, y0, x1, y1] (0 inside). */
function _rectDistance(r: readonly number[], x: number, y: number): number {
  const dx = x < r[0] ? r[0] - x : x > r[2] ? x - r[2] : 0;
  const dy = y < r[1] ? r[1] - y : y > r[3] ? y - r[3] : 0;
  return Math.sqrt(dx * dx + dy * dy);
}

/** Test 15: a large crowd round a corner against straight corridors of the inner and outer lengths. */
function rimea15(): ValidationTest {
  return defineTest<{ corner: number | null; short: number | null; long: number | null }>({
    id: "rimea-15",
    group: "RiMEA 3.0",
    title: "a large crowd round a 90° corner on the navigation mesh against straight corridors",
    criterion:
      "time round the corner between the times along straight corridors as long as its inner (50 m) and outer (81 m) edges (RiMEA 3.0 test 15 as JuPedSim checks it)",
    cost: (quick) => (quick ? 4 : 15),
    measure: (ctx) => {
      const n = ctx.quick ? 150 : RIMEA15_PERSONS;
      return {
        corner: runRimeaScenario(rimea15Corridors("corner", n), ctx).finishedAt,
        short: runRimeaScenario(rimea15Corridors("short", n), ctx).finishedAt,
        long: runRimeaScenario(rimea15Corridors("long", n), ctx).finishedAt,
      };
    },
    judge: (runs, quick) => {
      const c = meanOf(runs.map((r) => r.corner)), s = meanOf(runs.map((r) => r.short));
      const l = meanOf(runs.map((r) => r.long));
      const ok = runs.every((r) =>
        r.corner !== null && r.short !== null && r.long !== null && r.short <= r.corner &&
        r.corner <= r.long
      );
      // A straight corridor as long as the corner's centre line, by linear interpolation.
      const straight = s !== null && l !== null
        ? s + ((RIMEA15_CENTRE_LENGTH - 50) / (81 - 50)) * (l - s)
        : null;
      const ratio = c !== null && straight !== null ? c / straight : null;
      return verdict(
        ok,
        `${quick ? 150 : RIMEA15_PERSONS} persons: corner ${fmt(c, 0)} s, straight 50 m ${
          fmt(s, 0)
        } s, straight 81 m ${
          fmt(l, 0)
        } s; corner / straight of its ${RIMEA15_CENTRE_LENGTH} m centre line ${fmt(ratio)}`,
        {
          "timeCorner (s)": c,
          "timeShort (s)": s,
          "timeLong (s)": l,
          "cornerOverStraight": ratio,
        },
      );
    },
  });
}

/** A defined test that is not run yet. */
/** Smallest share of persons on each route of test 14 for "both used" (ours). */
const RIMEA14_MIN_SHARE = 0.05;

/** Test 14: route choice between a short route over stairs and a longer level one. */
function rimea14(): ValidationTest {
  return defineTest<{ short: number; long: number; arrived: number; time: number | null }>({
    id: "rimea-14",
    group: "RiMEA 3.0",
    title: "route choice between a short route over stairs and a longer level route",
    criterion:
      "everyone arrives; the routes chosen are reported, and with the crowd's congestion both are used, each by at least 5 % (RiMEA 3.0 test 14 asks to document the choice; the 5 % is ours)",
    cost: () => 2,
    measure: (ctx) => {
      // The gateway each person last chose before passing it.
      const route = new Map<number, number>();
      const observer = {
        afterStep: (world: World) => {
          const a = world.agents, choice = a.column<Int32Array>(VIA_CHOICE_COLUMN);
          for (let i = 0; i < a.count; i++) if (choice[i] >= 0) route.set(a.serial[i], choice[i]);
        },
      };
      const spec = rimea14Routes();
      const r = runRimeaScenario(spec, ctx, { observers: [observer] });
      const persons = spec.spawners.reduce((n, sp) => n + sp.count, 0);
      let short = 0, long = 0;
      for (const g of route.values()) {
        if (g === 0) short++;
        else long++;
      }
      return {
        short: short / persons,
        long: long / persons,
        arrived: r.metrics.result().arrivedFraction ?? 0,
        time: r.finishedAt,
      };
    },
    judge: (runs) => {
      const arrived = Math.min(...runs.map((r) => r.arrived));
      const short = Math.min(...runs.map((r) => r.short)),
        long = Math.min(...runs.map((r) => r.long));
      const pct = (v: number | null) => v === null ? "–" : (100 * v).toFixed(0);
      return verdict(
        arrived === 1 && short >= RIMEA14_MIN_SHARE && long >= RIMEA14_MIN_SHARE,
        `short route (stairs) ${pct(meanOf(runs.map((r) => r.short)))} %, long route ${
          pct(meanOf(runs.map((r) => r.long)))
        } %, ${pct(arrived)} % arrived (worst seed), ${fmt(meanOf(runs.map((r) => r.time)), 0)} s`,
        {
          shortShare: meanOf(runs.map((r) => r.short)),
          longShare: meanOf(runs.map((r) => r.long)),
          arrivedShare: arrived,
        },
      );
    },
  });
}

/** Test 4: the unidirectional fundamental diagram (measured by the `fd-unidirectional` test). */
function rimea4(): ValidationTest {
  return defineTest<null>({
    id: "rimea-4",
    group: "RiMEA 3.0",
    title: "fundamental diagram (see fd-unidirectional)",
    criterion: "as fd-unidirectional",
    sameAs: "fd-unidirectional",
    measure: () => null,
    judge: () => notRunVerdict("see fd-unidirectional"),
  });
}

/** The scenario builders of RiMEA tests 1–15 (test 4 is the ring corridor of fundamental_diagram.ts). */
export const RIMEA_SCENARIOS: Record<string, () => ScenarioSpec> = {
  "rimea-1": rimea1Corridor,
  "rimea-2": () => rimeaStairs(true),
  "rimea-3": () => rimeaStairs(false),
  "rimea-5": rimea5Room,
  "rimea-6": rimea6Corner,
  "rimea-7": rimea7Demography,
  "rimea-8": () => rimea8Room(1.34),
  "rimea-9": () => rimea9Room(4, 0.5),
  "rimea-10": rimea10Rooms,
  "rimea-11": rimea11Room,
  "rimea-12": rimea12Rooms,
  "rimea-13": rimea13Stairs,
  "rimea-14": rimea14Routes,
  "rimea-15": () => rimea15Corridors("corner", 150),
};

/** RiMEA tests 1–15 in order. */
export function rimeaTests(): ValidationTest[] {
  return [
    rimea1(),
    rimeaStairTest(true),
    rimeaStairTest(false),
    rimea4(),
    rimea5(),
    rimea6(),
    rimea7(),
    rimea8(),
    rimea9(),
    rimea10(),
    rimea11(),
    rimea12(),
    rimea13(),
    rimea14(),
    rimea15(),
  ];
}

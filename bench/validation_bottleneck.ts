/**
 * Validation of bottleneck flow against experiments: the flow J (persons/s) through a door of
 * width b, for b = 0.8 … 2.5 m, next to the measured tables of Kretz et al. 2006, Seyfried et
 * al. 2009, Daamen & Hoogendoorn 2010, Müller 1981, Nagai et al. 2006, the HERMES "AO" and
 * "EG" series (see `shared/data/empirical/PROVENANCE.md` beside the checkout). Real crowds give a specific
 * flow J/b of about 1.6–2.8 (m·s)⁻¹ over these widths, growing roughly linearly with b.
 *
 * Set-up: the built-in `bottleneck` (a 10 m wide room emptying through a door in a thin wall;
 * agents head for the nearest point of the doorway) with `doorWidth` b and
 * {@linkcode validationAgents} agents starting at 1.5 persons/m², so that a dense crowd keeps
 * pressing on the door while the flow is measured. The exit zone is moved to a 9 m wide strip
 * 6–8 m past the door, so that arrivals never back up to the door. J is measured as in the
 * experiments, J = (n − 1)/(t_n − t_1) over the steady part: the crossings of the door line
 * from the 20 % to the 80 % mark of the crowd (the first fifth is the start-up, the last the
 * thinning tail).
 *
 * ```sh
 * deno run -A bench/validation_bottleneck.ts [--strategies orca,social-force] [--widths 0.8,1]
 *   [--seeds 1,2] [--plot out.svg] [--data DIR]
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { StrategyRegistry } from "../core/registry.ts";
import type { World, WorldObserver } from "../core/world.ts";
import { renderXyChartSvg, type XySeries } from "../plots/xy_chart.ts";
import { buildScenario } from "../scenarios/build.ts";
import { bottleneckScenario } from "../scenarios/builtin/bottleneck.ts";
import type { ScenarioSpec } from "../scenarios/schema.ts";
import { strategies } from "../strategies/mod.ts";

/** Door widths (m) of the validation. */
export const VALIDATION_WIDTHS: readonly number[] = [0.8, 1.0, 1.2, 1.6, 2.0, 2.5];

/**
 * Where the measured tables live (`b [m]  J [1/s]` per line): the shared data folder beside the
 * checkout, `../shared/data/empirical/bottleneck-flow-vs-width` from the repository root
 * (`--data DIR` points elsewhere).
 */
export const DEFAULT_EMPIRICAL_DIR: string = fileURLToPath(
  new URL("../../shared/data/empirical/bottleneck-flow-vs-width", import.meta.url),
);

/**
 * Specific flow J/b ((m·s)⁻¹) a model should give under high-density inflow (PROVENANCE.md of
 * the tables: 1.8–2.4 over 0.8 ≤ b ≤ 5 m).
 */
export const EMPIRICAL_SPECIFIC_FLOW: readonly [number, number] = [1.8, 2.4];

/** Share of the crowd whose crossings bound the steady window. */
const STEADY: readonly [number, number] = [0.2, 0.8];

/** Slowest flow (persons/s) the run waits for before giving up on the steady window. */
const SLOWEST_FLOW = 0.4;

/**
 * Agents of a validation run for door width `b` (m): 100 plus 80 per metre of door, so that
 * the steady window (60 % of the crowd) lasts about 40 s at an empirical flow.
 *
 * @example
 * ```ts
 * import { validationAgents } from "./validation_bottleneck.ts";
 * import assert from "node:assert/strict";
 * assert.equal(validationAgents(1), 180);
 * assert.equal(validationAgents(2.5), 300);
 * ```
 */
export function validationAgents(b: number): number {
  return Math.round(100 + 80 * b);
}

/**
 * The validation scenario for door width `b` (m) and `agents` agents: the built-in bottleneck
 * with its exit zone moved to a strip 6–8 m past the door across the width of the room.
 *
 * @example
 * ```ts
 * import { validationScenario } from "./validation_bottleneck.ts";
 * import assert from "node:assert/strict";
 * const spec = validationScenario(2, 200);
 * assert.deepEqual(spec.metrics?.throughputLine?.to, [0, 1]);
 * assert.deepEqual(spec.goals?.exit, { rect: [6, -4.5, 8, 4.5] });
 * ```
 */
export function validationScenario(b: number, agents: number): ScenarioSpec {
  const spec = bottleneckScenario(agents, { doorWidth: b });
  const bounds = spec.bounds ?? [-20, -5.5, 9, 5.5];
  return {
    ...spec,
    name: `bottleneck-${b}m`,
    bounds: [bounds[0], bounds[1], 9, bounds[3]],
    goals: { exit: { rect: [6, -4.5, 8, 4.5] } },
  };
}

/** Options of {@linkcode measureBottleneckFlow}. */
export interface FlowOptions {
  /** Registered strategy name. */
  strategy: string;
  /** Door width b (m). */
  width: number;
  /** Seed. @default 1 */
  seed?: number;
  /** Agents. @default validationAgents(width) */
  agents?: number;
  /** Strategy options. @default {} */
  strategyOptions?: Record<string, unknown>;
  /** Where the strategy is looked up. @default the built-in registry */
  registry?: StrategyRegistry;
}

/** One measured flow. */
export interface FlowResult {
  /** Strategy name. */
  strategy: string;
  /** Door width b (m). */
  width: number;
  /** Seed. */
  seed: number;
  /** Agents in the room at the start. */
  agents: number;
  /** Agents that crossed the door line before the run ended. */
  crossed: number;
  /** J (persons/s) over the steady window, or null when the crowd never got that far (clogged). */
  flow: number | null;
  /** J/b ((m·s)⁻¹), or null. */
  specificFlow: number | null;
  /** Simulated seconds run. */
  seconds: number;
}

/** Records the time each agent first crosses the door line x = 0 (from the room side). */
class DoorCrossings implements WorldObserver {
  readonly times: number[] = [];
  #side = new Int8Array(0);

  attach(world: World): void {
    this.#mark(world);
  }

  afterStep(world: World): void {
    const a = world.agents;
    for (let i = 0; i < a.count; i++) {
      const s = a.serial[i];
      this.#grow(s + 1);
      if (this.#side[s] === -1 && a.px[i] >= 0) {
        this.#side[s] = 1;
        this.times.push(world.time);
      } else if (this.#side[s] === 0) {
        this.#side[s] = a.px[i] < 0 ? -1 : 1;
      }
    }
  }

  #mark(world: World): void {
    world.prepare();
    const a = world.agents;
    for (let i = 0; i < a.count; i++) {
      this.#grow(a.serial[i] + 1);
      this.#side[a.serial[i]] = a.px[i] < 0 ? -1 : 1;
    }
  }

  #grow(size: number): void {
    if (size <= this.#side.length) return;
    const next = new Int8Array(Math.max(size, 2 * this.#side.length, 64));
    next.set(this.#side);
    this.#side = next;
  }
}

/**
 * Runs one validation: the bottleneck of door width `width` with `strategy`, until the 80 %
 * mark of the crowd has crossed the door (or the crowd is clearly clogged), and returns J over
 * the steady window.
 *
 * @example
 * ```ts
 * import { measureBottleneckFlow } from "./validation_bottleneck.ts";
 * import assert from "node:assert/strict";
 * const r = measureBottleneckFlow({ strategy: "none", width: 1, agents: 40 });
 * assert.equal(r.crossed >= 32, true);
 * assert.ok(r.flow! > 0);
 * ```
 */
export function measureBottleneckFlow(options: FlowOptions): FlowResult {
  const b = options.width, seed = options.seed ?? 1;
  const agents = options.agents ?? validationAgents(b);
  const built = buildScenario(validationScenario(b, agents), {
    registry: options.registry ?? strategies,
    strategy: { name: options.strategy, options: options.strategyOptions ?? {} },
    seed,
  });
  const world = built.world;
  const crossings = new DoorCrossings();
  world.addObserver(crossings);
  const first = Math.floor(STEADY[0] * agents), last = Math.ceil(STEADY[1] * agents) - 1;
  const maxSteps = Math.ceil((agents / SLOWEST_FLOW + 60) / world.dt);
  const t = crossings.times;
  while (t.length <= last && world.stepIndex < maxSteps && !world.finished) world.step();
  const flow = t.length > last && t[last] > t[first] ? (last - first) / (t[last] - t[first]) : null;
  return {
    strategy: options.strategy,
    width: b,
    seed,
    agents,
    crossed: t.length,
    flow,
    specificFlow: flow === null ? null : flow / b,
    seconds: world.time,
  };
}

/** One measured table: its name (the file name) and points `[b (m), J (1/s)]`. */
export interface EmpiricalTable {
  /** Name, e.g. `2009Seyfried`. */
  name: string;
  /** Points `[b, J]`. */
  points: [number, number][];
}

/**
 * Reads every `*.txt` table of `dir` (two numbers per line: b in m, J in persons/s). Returns
 * null when the folder does not exist.
 *
 * @example
 * ```ts
 * import { readEmpiricalTables } from "./validation_bottleneck.ts";
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/2009Test.txt`, "0.8\t1.3\n1.0 1.9\n\n");
 * assert.deepEqual(readEmpiricalTables(dir), [{ name: "2009Test", points: [[0.8, 1.3], [1, 1.9]] }]);
 * assert.equal(readEmpiricalTables(`${dir}/missing`), null);
 * ```
 */
export function readEmpiricalTables(dir: string): EmpiricalTable[] | null {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const tables: EmpiricalTable[] = [];
  for (const entry of entries.filter((e) => e.isFile && e.name.endsWith(".txt"))) {
    const points: [number, number][] = [];
    const text = Deno.readTextFileSync(`${dir}/${entry.name}`);
    text.split("\n").forEach((line, k) => {
      const fields = line.trim().split(/\s+/).filter((f) => f !== "");
      if (fields.length === 0 || fields[0].startsWith("#")) return;
      const [b, j] = fields.map(Number);
      if (fields.length < 2 || !Number.isFinite(b) || !Number.isFinite(j)) {
        throw new TypeError(
          `Cannot read ${dir}/${entry.name} line ${k + 1}: expected 'b J', got '${line.trim()}'`,
        );
      }
      points.push([b, j]);
    });
    tables.push({ name: entry.name.replace(/\.txt$/, ""), points });
  }
  return tables.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Range of the measured specific flow J/b ((m·s)⁻¹) over all tables at widths within `tolerance`
 * (m) of `b`, or null when no table has such a width.
 *
 * @example
 * ```ts
 * import { empiricalRange } from "./validation_bottleneck.ts";
 * import assert from "node:assert/strict";
 * const tables = [{ name: "a", points: [[1, 1.8], [1.05, 2.1], [2, 3.6]] as [number, number][] }];
 * assert.deepEqual(empiricalRange(tables, 1), [1.8, 2]);
 * ```
 */
export function empiricalRange(
  tables: readonly EmpiricalTable[],
  b: number,
  tolerance = 0.1,
): [number, number] | null {
  let low = Infinity, high = -Infinity;
  for (const t of tables) {
    for (const [w, j] of t.points) {
      if (Math.abs(w - b) > tolerance + 1e-9) continue;
      low = Math.min(low, j / w);
      high = Math.max(high, j / w);
    }
  }
  return low <= high ? [low, high] : null;
}

const STRATEGY_COLOURS = [
  "#d62728",
  "#1f77b4",
  "#2ca02c",
  "#ff7f0e",
  "#9467bd",
  "#8c564b",
  "#e377c2",
];
const TABLE_MARKERS = ["circle", "square", "triangle", "diamond"] as const;

/**
 * The SVG chart of a validation: every table's points (greys), the empirical J/b band, and one
 * line per strategy (mean J over seeds at each width).
 *
 * @example
 * ```ts
 * import { validationChart } from "./validation_bottleneck.ts";
 * import assert from "node:assert/strict";
 * const svg = validationChart([{ name: "t", points: [[1, 1.9]] }], [
 *   { strategy: "orca", width: 1, seed: 1, agents: 10, crossed: 10, flow: 1.5, specificFlow: 1.5, seconds: 9 },
 * ]);
 * assert.match(svg, /orca/);
 * ```
 */
export function validationChart(
  tables: readonly EmpiricalTable[] | null,
  results: readonly FlowResult[],
): string {
  const series: XySeries[] = [];
  (tables ?? []).forEach((t, k) => {
    const grey = ["#555555", "#777777", "#999999", "#444444"][k % 4];
    series.push({
      name: t.name,
      points: t.points,
      style: "points",
      colour: grey,
      marker: TABLE_MARKERS[k % TABLE_MARKERS.length],
    });
  });
  const names = [...new Set(results.map((r) => r.strategy))];
  names.forEach((name, k) => {
    const widths = [...new Set(results.filter((r) => r.strategy === name).map((r) => r.width))];
    const points: [number, number][] = [];
    for (const w of widths.sort((a, b) => a - b)) {
      const flows = results.filter((r) => r.strategy === name && r.width === w && r.flow !== null)
        .map((r) => r.flow!);
      if (flows.length > 0) points.push([w, flows.reduce((s, v) => s + v, 0) / flows.length]);
    }
    // A strategy whose curve coincides with an earlier one (priority-steering composes
    // boxcast's behaviours) would hide it: say so in the legend.
    const twin = series.find((s) =>
      s.style === "line" && s.points.length === points.length &&
      s.points.every(([x, y], m) => x === points[m][0] && y === points[m][1])
    );
    series.push({
      name: twin ? `${name} (= ${twin.name})` : name,
      points,
      style: "line",
      colour: STRATEGY_COLOURS[k % STRATEGY_COLOURS.length],
    });
  });
  const [low, high] = EMPIRICAL_SPECIFIC_FLOW;
  return renderXyChartSvg({
    title: "Bottleneck flow against door width: experiments and strategies",
    xLabel: "door width b (m)",
    yLabel: "flow J (persons/s)",
    series,
    bands: [{ name: `J/b ${low}–${high} (m·s)⁻¹`, low, high, colour: "#e8f0fb" }],
    range: [0, 3, 0, 7],
  });
}

/** Formats the table printed by the script. */
function formatTable(
  results: readonly FlowResult[],
  widths: readonly number[],
  tables: readonly EmpiricalTable[] | null,
): string {
  const cell = (s: string) => s.padEnd(18);
  const lines: string[] = [];
  lines.push(cell("strategy") + widths.map((w) => cell(`b = ${w} m`)).join(""));
  lines.push(cell("") + widths.map(() => cell("J (1/s)  J/b")).join(""));
  if (tables) {
    lines.push(
      cell("experiments J/b") +
        widths.map((w) => {
          const r = empiricalRange(tables, w);
          return cell(r ? `${r[0].toFixed(2)}–${r[1].toFixed(2)}` : "–");
        }).join(""),
    );
  }
  for (const name of [...new Set(results.map((r) => r.strategy))]) {
    const row = widths.map((w) => {
      const runs = results.filter((r) => r.strategy === name && r.width === w);
      const flows = runs.filter((r) => r.flow !== null).map((r) => r.flow!);
      if (flows.length < runs.length) {
        return cell(`clog (${runs.length - flows.length}/${runs.length})`);
      }
      const j = flows.reduce((s, v) => s + v, 0) / flows.length;
      return cell(`${j.toFixed(2)}  ${(j / w).toFixed(2)}`);
    });
    lines.push(cell(name) + row.join(""));
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      strategies: { type: "string" },
      widths: { type: "string" },
      seeds: { type: "string" },
      plot: { type: "string" },
      data: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(
      "Usage: deno run -A bench/validation_bottleneck.ts [--strategies a,b] [--widths 0.8,1] " +
        "[--seeds 1,2] [--plot out.svg] [--data DIR]",
    );
    Deno.exit(0);
  }
  const list = (s: string | undefined) => s?.split(",").map((x) => x.trim()).filter((x) => x);
  const names = list(values.strategies) ??
    strategies.list().filter((f) => f.avoidsCollisions !== false).map((f) => f.name);
  for (const name of names) {
    if (!strategies.has(name)) {
      console.error(`unknown strategy '${name}': registered are ${strategies.names().join(", ")}`);
      Deno.exit(2);
    }
  }
  const widths = list(values.widths)?.map(Number) ?? [...VALIDATION_WIDTHS];
  const seeds = list(values.seeds)?.map(Number) ?? [1];
  for (const w of widths) {
    if (!(w > 0 && w <= 9)) {
      console.error(`--widths: every width must be in (0, 9] m: got ${w}`);
      Deno.exit(2);
    }
  }
  const dir = values.data ?? DEFAULT_EMPIRICAL_DIR;
  const tables = readEmpiricalTables(dir);
  if (!tables) {
    console.log(
      `No empirical tables at ${dir} (the shared data folder beside the checkout, or --data DIR): showing the simulated flows only.`,
    );
  }
  const results: FlowResult[] = [];
  for (const name of names) {
    for (const w of widths) {
      for (const seed of seeds) {
        const t0 = performance.now();
        const r = measureBottleneckFlow({ strategy: name, width: w, seed });
        results.push(r);
        console.error(
          `${name} b=${w} seed ${seed}: J ${r.flow?.toFixed(2) ?? "clogged"} ` +
            `(${r.crossed}/${r.agents} crossed in ${r.seconds.toFixed(0)} s; ` +
            `${((performance.now() - t0) / 1000).toFixed(1)} s)`,
        );
      }
    }
  }
  console.log(
    `\nBottleneck flow J = (n − 1)/(t_n − t_1) over the crossings of the 20–80 % of the crowd; ` +
      `seeds ${seeds.join(",")}; mean over seeds.\n`,
  );
  console.log(formatTable(results, widths, tables));
  console.log(
    `\nExperiments (PROVENANCE.md): J/b ≈ ${EMPIRICAL_SPECIFIC_FLOW.join("–")} (m·s)⁻¹ for ` +
      `0.8 ≤ b ≤ 5 m under high-density inflow.`,
  );
  if (values.plot) {
    Deno.writeTextFileSync(values.plot, validationChart(tables, results));
    console.log(`Chart written to ${values.plot}`);
  }
}

/**
 * Fuzzing the scenario format and the `sim` flags: seeded mutations of the built-in scenarios
 * (values swapped for extreme numbers, wrong types, prototype names, deep nesting; fields
 * dropped, added or duplicated; text cut, byte order marks; odd flags), each run in-process
 * through `deno task sim` for a few steps. Every case must end as the command line would with
 * exit 0, or with exit 2 and a one-line message naming the file or flag; never with a stack
 * trace, and never hang (a case still running after {@linkcode CASE_LIMIT_MS} fails the test).
 */
import assert from "node:assert/strict";
import { Rng } from "../core/rng.ts";
import { BUILTIN_SCENARIOS } from "../scenarios/builtin/mod.ts";
import { strategies } from "../strategies/mod.ts";
import type { FuzzCase, FuzzOutcome } from "./_fuzz_worker.ts";

/** Cases generated. */
const CASES = 300;
/** Seed of the generator. */
const SEED = 20_240_601;
/** Longest a case may run before it counts as a hang (ms); cases take well under a second. */
const CASE_LIMIT_MS = 10_000;
/** Steps each run takes unless a mutation changes `--steps`. */
const STEPS = "20";

const NUMBERS = [0, -1, 1, 2.5, -0.5, 1e-300, 1e9, -1e9, 1e300, -1e300, 4294967296, 1e308];
const STRINGS = ["", "toString", "constructor", "__proto__", "hasOwnProperty", "antipodal", "x"];
const KEYS = ["toString", "constructor", "__proto__", "valueOf", "nope", "count", "rect"];

/** A uniform integer in [lo, hi). */
function _int(rng: Rng, lo: number, hi: number): number {
  return lo + rng.int(hi - lo);
}

/** A value to put in place of another. */
function _replacement(rng: Rng): unknown {
  switch (_int(rng, 0, 8)) {
    case 0:
    case 1:
      return NUMBERS[_int(rng, 0, NUMBERS.length)];
    case 2:
      return STRINGS[_int(rng, 0, STRINGS.length)];
    case 3:
      return [null, true, false][_int(rng, 0, 3)];
    case 4:
      return [[], {}, [[0, 0], [0, 0]], [1, 2, 3]][_int(rng, 0, 4)];
    case 5:
      return { rect: [0, 0, 0, 0] };
    case 6:
      return { circle: { center: [0, 0], radius: NUMBERS[_int(rng, 0, NUMBERS.length)] } };
    default:
      return { normal: { mean: 1, sd: -1, min: 2, max: 0 } };
  }
}

/** Every path to a value inside `root` (arrays and objects included). */
function _paths(root: unknown, path: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(path);
  if (Array.isArray(root)) root.forEach((v, i) => _paths(v, [...path, i], out));
  else if (root !== null && typeof root === "object") {
    for (const [k, v] of Object.entries(root)) _paths(v, [...path, k], out);
  }
  return out;
}

function _parentOf(root: unknown, path: (string | number)[]): Record<string | number, unknown> {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  return node;
}

/** Applies one structural mutation to the scenario object in place. */
function _mutate(spec: Record<string, unknown>, rng: Rng): void {
  const all = _paths(spec).filter((p) => p.length > 0);
  // Half the mutations change a number, the rest anything.
  const numbers = all.filter((p) => typeof _parentOf(spec, p)[p[p.length - 1]] === "number");
  const paths = numbers.length > 0 && rng.next() < 0.5 ? numbers : all;
  const path = paths[_int(rng, 0, paths.length)];
  const parent = _parentOf(spec, path), key = path[path.length - 1];
  const value = parent[key];
  if (typeof value === "number" && paths === numbers) {
    parent[key] = [value * 1e6, -value, value + 0.5, value * 1e-9, 0, 1e300, value * 10][
      _int(rng, 0, 7)
    ];
    return;
  }
  switch (_int(rng, 0, 7)) {
    case 0:
    case 1:
      parent[key] = _replacement(rng);
      return;
    case 2: // a number made extreme
      parent[key] = typeof value === "number"
        ? [value * 1e6, -value, value + 0.5, value * 1e-9][_int(rng, 0, 4)]
        : _replacement(rng);
      return;
    case 3: // dropped
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      return;
    case 4: // duplicated or emptied
      if (Array.isArray(value)) {
        if (rng.next() < 0.5) value.length = 0;
        else value.push(...structuredClone(value));
      } else if (Array.isArray(parent)) parent.push(structuredClone(value));
      else parent[key] = [value, value];
      return;
    case 5: // a field added, prototype names included
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        Object.defineProperty(value, KEYS[_int(rng, 0, KEYS.length)], {
          value: _replacement(rng),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else parent[key] = _replacement(rng);
      return;
    default: { // nested deep
      let deep: unknown = 1;
      const depth = _int(rng, 5, 120);
      for (let i = 0; i < depth; i++) deep = [deep];
      parent[key] = deep;
    }
  }
}

/** Flags that may be added to a case. */
function _flags(rng: Rng): string[] {
  const strategy = strategies.list()[_int(rng, 0, strategies.names().length)];
  const options = Object.keys(strategy.options);
  const option = rng.next() < 0.3
    ? KEYS[_int(rng, 0, KEYS.length)]
    : options[_int(rng, 0, Math.max(1, options.length))] ?? "gain";
  const value = [...NUMBERS, ...STRINGS, "true", "{}", '[[["seek", 1]]]'][_int(rng, 0, 19)];
  switch (_int(rng, 0, 6)) {
    case 0:
      return ["--strategy", strategy.name];
    case 1:
      return ["--strategy", strategy.name, "--option", `${option}=${value}`];
    case 2:
      return [
        "--agents",
        String(["-5", "0", "1", "3", "100000000", "2.5", "many"][_int(rng, 0, 7)]),
      ];
    case 3:
      return ["--seed", String(["-1", "0", "4294967296", "7"][_int(rng, 0, 4)])];
    case 4:
      return ["--steps", String(["-1", "0", "1e3", "4294967296"][_int(rng, 0, 4)])];
    default:
      return [];
  }
}

/** The seeded cases: built-in scenarios, mutated as objects, as text, or through flags. */
function _cases(): FuzzCase[] {
  const rng = new Rng(SEED);
  // Map scenarios (the built-in city) read and mesh a city first, longer than a case may take;
  // scenarios/map_scenario_test.ts checks their errors.
  const names = Object.keys(BUILTIN_SCENARIOS).filter((n) => !BUILTIN_SCENARIOS[n].create(1).map);
  const cases: FuzzCase[] = [];
  for (let n = 0; n < CASES; n++) {
    const name = names[n % names.length];
    const spec = structuredClone(BUILTIN_SCENARIOS[name].create(12)) as unknown as Record<
      string,
      unknown
    >;
    const roll0 = rng.next();
    const mutations = roll0 < 0.6 ? 1 : roll0 < 0.9 ? 2 : 3;
    for (let m = 0; m < mutations; m++) _mutate(spec, rng);
    let text = JSON.stringify(spec);
    const roll = rng.next();
    if (roll < 0.05) text = `\uFEFF${text}`;
    else if (roll < 0.1) text = text.slice(0, _int(rng, 0, text.length));
    else if (roll < 0.13) text = text.replace('"name"', '"__proto__": {}, "name"');
    else if (roll < 0.16) text = `${text.slice(0, -1)}, // a comment\n}`;
    // A later --steps from the flags replaces the first, as on a command line.
    const args = ["--steps", STEPS, "--json", "--quiet", ..._flags(rng)];
    if (rng.next() < 0.05) {
      // A built-in scenario by name with odd flags only.
      cases.push({ text: null, args: ["--scenario", name, ...args] });
      continue;
    }
    cases.push({ text, args });
  }
  return cases;
}

/** A fuzz worker that has loaded its modules (the first load may take a while to type-check). */
async function _startWorker(): Promise<Worker> {
  const worker = new Worker(new URL("./_fuzz_worker.ts", import.meta.url), { type: "module" });
  await new Promise<void>((resolve, reject) => {
    worker.onmessage = () => resolve();
    worker.onerror = (event) =>
      reject(new Error(`the fuzz worker failed to load: ${event.message}`));
  });
  return worker;
}

Deno.test(`${CASES} mutated scenarios and flag lists end in exit 0 or a one-line exit 2, none hanging`, async () => {
  const cases = _cases();
  let worker = await _startWorker();
  const counts = { ok: 0, badInput: 0 };
  try {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[k];
      const what = `case ${k} (${c.args.join(" ")}): ${c.text?.slice(0, 300) ?? "built-in"}`;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const outcome = await Promise.race([
        new Promise<FuzzOutcome>((resolve) => {
          worker.onmessage = (event: MessageEvent<FuzzOutcome>) => resolve(event.data);
          worker.postMessage(c);
        }),
        new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), CASE_LIMIT_MS)),
      ]);
      clearTimeout(timer);
      if (outcome === null) {
        worker.terminate();
        worker = await _startWorker();
        assert.fail(`${what}\nstill ran after ${CASE_LIMIT_MS / 1000} s`);
      }
      assert.ok(outcome.code === 0 || outcome.code === 2, `${what}\nended with ${outcome.message}`);
      assert.doesNotMatch(outcome.stderr, /^\s+at /m, `${what}\nprinted a stack trace`);
      for (const line of outcome.stderr.split("\n").filter((l) => l)) {
        assert.match(line, /^warning: /, `${what}\nprinted ${line}`);
      }
      if (outcome.code === 2) {
        assert.ok(!outcome.message.includes("\n"), `${what}\none line: ${outcome.message}`);
        assert.match(
          outcome.message,
          /^(\/|built-in scenario|scenario '|--|unknown flag|Cannot write)/,
          `${what}\nnames the file or the flag: ${outcome.message}`,
        );
        counts.badInput++;
      } else counts.ok++;
    }
  } finally {
    worker.terminate();
  }
  // Both ends are exercised: the mutations are neither all harmless nor all fatal.
  assert.ok(counts.ok >= 30 && counts.badInput >= 100, JSON.stringify(counts));
});

/**
 * `deno task demo`: the live view of the built-in `city` scenario in the browser — 2,000
 * pedestrians walking between random buildings of Helsinki's centre, read from the OpenStreetMap
 * extract shipped in `data/helsinki-centre/` (© OpenStreetMap contributors), on the navigation
 * mesh of its walkable area, with ORCA avoidance. It takes the flags of `deno task view`
 * (`--strategies orca,social-force` puts up to four side by side, `--scenario crossing` the
 * street-crossing flocks) and prints the page's URL.
 *
 * `deno task demo --table [compare flags]` prints the comparison table of every registered
 * strategy on the built-in `crossing` scenario (two flocks crossing a street, after "Crossing
 * citizens: a simple simulation of pedestrian crossing" (project report)) instead (the flags of `compare`); a flag that only the table
 * has (`--seeds`, `--steps`, `--json`, `--csv`, `--quiet`) implies `--table`. The table needs no
 * permission.
 *
 * @module
 */
import { compareMain } from "./compare.ts";
import { runMain } from "./_errors.ts";
import { viewMain } from "./view.ts";

/** The scenario the demo runs when none is given. */
export const DEMO_SCENARIO = "city";

/** The scenario of the demo's comparison table (`--table`): quick for every strategy. */
export const DEMO_TABLE_SCENARIO = "crossing";

/**
 * Strategies the demo shows when `--strategies` is not given: one, as every view runs its own
 * city of 2,000 pedestrians.
 */
export const DEMO_STRATEGIES: readonly string[] = ["orca"];

/** Flags that only the comparison table takes: any of them selects the table. */
const TABLE_FLAGS = /^(--table|--seeds|--steps|--json|--csv|--quiet|-q)(=|$)/;

if (import.meta.main) {
  await runMain(() => {
    const args = Deno.args.filter((a) => a !== "--table");
    if (!Deno.args.some((a) => TABLE_FLAGS.test(a))) {
      return viewMain(args, { scenario: DEMO_SCENARIO, strategies: DEMO_STRATEGIES });
    }
    console.log("throng demo: every registered strategy on the same scenario and seeds\n");
    return compareMain(args, { scenario: DEMO_TABLE_SCENARIO });
  });
}

/**
 * `deno task demo`: the live side-by-side view of the built-in `crossing` scenario (two flocks
 * crossing a street, after "Crossing citizens: a simple simulation of pedestrian crossing"
 * (project report)) in the browser, up to four registered strategies at once. It takes the flags
 * of `deno task view` and prints the page's URL.
 *
 * `deno task demo --table [compare flags]` prints the comparison table of every registered
 * strategy on the same scenario instead (the flags of `compare`); a flag that only the table
 * has (`--seeds`, `--steps`, `--json`, `--csv`, `--quiet`) implies `--table`. The table needs no
 * permission.
 *
 * @module
 */
import { compareMain } from "./compare.ts";
import { runMain } from "./_errors.ts";
import { viewMain } from "./view.ts";

/** The scenario the demo runs when none is given. */
export const DEMO_SCENARIO = "crossing";

/** Flags that only the comparison table takes: any of them selects the table. */
const TABLE_FLAGS = /^(--table|--seeds|--steps|--json|--csv|--quiet|-q)(=|$)/;

if (import.meta.main) {
  await runMain(() => {
    const args = Deno.args.filter((a) => a !== "--table");
    if (!Deno.args.some((a) => TABLE_FLAGS.test(a))) {
      return viewMain(args, { scenario: DEMO_SCENARIO });
    }
    console.log("throng demo: every registered strategy on the same scenario and seeds\n");
    return compareMain(args, { scenario: DEMO_SCENARIO });
  });
}

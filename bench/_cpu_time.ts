/**
 * Process CPU time for benchmarks on a shared machine, where other processes distort the wall
 * clock far more.
 *
 * @module
 */
import process from "node:process";

/** CPU time (ms, user + system) used by this process so far. */
export function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

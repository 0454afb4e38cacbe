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

/**
 * Wraps `object[method]` so that the CPU time (ms) of every call adds to `cpu[phase]`: a phase
 * split of a whole step without touching the code it measures.
 */
export function timeCpu<P extends string>(
  object: object,
  method: string,
  cpu: Record<P, number>,
  phase: P,
): void {
  const o = object as Record<string, (...args: unknown[]) => unknown>;
  const f = o[method].bind(object);
  o[method] = (...args: unknown[]) => {
    const t = cpuMs();
    const result = f(...args);
    cpu[phase] += cpuMs() - t;
    return result;
  };
}

/**
 * How much memory a run will take, estimated before any agent is placed, so that a scenario of a
 * billion agents is refused with the figure instead of growing until the machine gives up.
 *
 * @module
 */
import type { ColumnSpec, ColumnType } from "../core/agent_store.ts";
import { METRICS_COLUMNS } from "../metrics/collector.ts";

/** Bytes of one element of each column type. */
const COLUMN_BYTES: Record<ColumnType, number> = { f64: 8, f32: 4, i32: 4, u32: 4, u8: 1 };

/**
 * Bytes per agent outside the agent columns: the agent grid's sorted copies and cell lists, the
 * spawn placement index, and strategy scratch (neighbour lists). Measured at 200,000 agents on
 * the built-in scenarios, the whole run took 450–610 bytes per agent; the estimate (columns
 * twice, as the store doubles its capacity, plus this) gives 800–1,050.
 */
const OTHER_BYTES_PER_AGENT = 256;

/**
 * Memory budget when the machine's free memory cannot be read (bytes): 4 GiB. Grant
 * `--allow-sys=systemMemoryInfo` to check against the memory actually available.
 */
export const DEFAULT_MEMORY_BUDGET_BYTES = 4 * 2 ** 30;

/**
 * Estimated bytes a run of `agents` agents at once needs, with the agent columns `columns` of
 * its world (the strategy's and navigator's included) and the metrics collector's.
 *
 * @example
 * ```ts
 * import { estimateRunBytes } from "./memory_estimate.ts";
 * import { CORE_COLUMNS } from "../core/agent_store.ts";
 * import assert from "node:assert/strict";
 * const bytes = estimateRunBytes(CORE_COLUMNS, 1_000_000);
 * assert(bytes > 500e6 && bytes < 2e9); // about a kilobyte per agent
 * ```
 */
export function estimateRunBytes(columns: readonly ColumnSpec[], agents: number): number {
  let perAgent = 0;
  const names = new Set<string>();
  for (const column of [...columns, ...METRICS_COLUMNS]) {
    if (names.has(column.name)) continue;
    names.add(column.name);
    perAgent += COLUMN_BYTES[column.type];
  }
  return agents * (2 * perAgent + OTHER_BYTES_PER_AGENT);
}

/**
 * Memory a run may use (bytes): what the system reports as available when the
 * `systemMemoryInfo` permission is granted (asking for nothing), else
 * {@linkcode DEFAULT_MEMORY_BUDGET_BYTES}.
 */
export function memoryBudgetBytes(): { bytes: number; source: "system" | "default" } {
  try {
    const state = Deno.permissions.querySync({ name: "sys", kind: "systemMemoryInfo" }).state;
    if (state === "granted") {
      const available = Deno.systemMemoryInfo().available;
      if (available > 0) return { bytes: available, source: "system" };
    }
  } catch {
    // No permission API or no reading: the default applies.
  }
  return { bytes: DEFAULT_MEMORY_BUDGET_BYTES, source: "default" };
}

/** A byte count for messages: `3.2 GB`, `410 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.round(bytes / 1e3)} kB`;
}

/// <reference lib="dom" />
/**
 * Small helpers of the viewer page's HTML widgets: looking up elements, formatting numbers,
 * colours as CSS.
 *
 * @module
 */
import type { Rgb } from "./colors.ts";

/** Looks up an element by id; throws when the page lacks it. */
export function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no element #${id}`);
  return found as T;
}

/**
 * Formats a number with `digits` decimals, or an en dash when it is not finite.
 *
 * @example
 * ```ts
 * import { formatNumber } from "./dom.ts";
 * import assert from "node:assert/strict";
 * assert.equal(formatNumber(1.25, 1), "1.3");
 * assert.equal(formatNumber(NaN), "–");
 * ```
 */
export function formatNumber(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "–";
}

/** A colour as CSS `rgb(…)`. */
export function cssColor(c: Rgb): string {
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

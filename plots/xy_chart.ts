/**
 * A small x–y chart as SVG: measured points as markers, model results as lines with markers,
 * and shaded bands between two lines through the origin (such as a range of specific flows
 * J/b). Used for validation plots such as flow against bottleneck width.
 *
 * @module
 */

/**
 * Line colours for model series, ten that stay apart from each other and from the grey markers
 * of measured data; series k takes `SERIES_COLOURS[k % 10]`.
 *
 * @example
 * ```ts
 * import { SERIES_COLOURS } from "./xy_chart.ts";
 * import assert from "node:assert/strict";
 * assert.equal(new Set(SERIES_COLOURS).size, 10);
 * ```
 */
export const SERIES_COLOURS: readonly string[] = [
  "#d62728",
  "#1f77b4",
  "#2ca02c",
  "#ff7f0e",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#17becf",
  "#bcbd22",
  "#393b79",
];

/** One data series of an {@linkcode XyChart}. */
export interface XySeries {
  /** Legend label. */
  name: string;
  /** Points `[x, y]` in data units. */
  points: readonly (readonly [number, number])[];
  /** `"points"`: markers only (measurements); `"line"`: markers joined in x order (a model). */
  style: "points" | "line";
  /** CSS colour. */
  colour: string;
  /** Marker shape. @default "circle" */
  marker?: "circle" | "square" | "triangle" | "diamond";
}

/** A shaded wedge between the lines y = low·x and y = high·x (e.g. a band of J/b). */
export interface XyBand {
  /** Legend label. */
  name: string;
  /** Lower slope (y per x). */
  low: number;
  /** Upper slope (y per x). */
  high: number;
  /** CSS colour of the fill. */
  colour: string;
}

/** An x–y chart. */
export interface XyChart {
  /** Heading. */
  title: string;
  /** x-axis label, with its unit. */
  xLabel: string;
  /** y-axis label, with its unit. */
  yLabel: string;
  /** Series, drawn in order (later on top). */
  series: readonly XySeries[];
  /** Bands, drawn below the series. @default none */
  bands?: readonly XyBand[];
  /** Axis ranges `[xMin, xMax, yMin, yMax]`. @default from the data, starting at 0 */
  range?: readonly [number, number, number, number];
  /** Plot area width in pixels. @default 640 */
  width?: number;
  /** Plot area height in pixels. @default 420 */
  height?: number;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const num = (v: number) => (Math.round(v * 10) / 10).toString();

/** A "nice" tick step (1, 2 or 5 × 10^k) giving about `count` ticks over `span`. */
function tickStep(span: number, count: number): number {
  const raw = span / count, mag = 10 ** Math.floor(Math.log10(raw)), f = raw / mag;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

function marker(shape: XySeries["marker"], x: number, y: number, colour: string): string {
  const r = 4;
  switch (shape) {
    case "square":
      return `<rect x="${num(x - r)}" y="${num(y - r)}" width="${2 * r}" height="${
        2 * r
      }" fill="${colour}"/>`;
    case "triangle":
      return `<polygon points="${num(x)},${num(y - r - 1)} ${num(x - r)},${num(y + r)} ${
        num(x + r)
      },${num(y + r)}" fill="${colour}"/>`;
    case "diamond":
      return `<polygon points="${num(x)},${num(y - r - 1)} ${num(x + r + 1)},${num(y)} ${num(x)},${
        num(y + r + 1)
      } ${num(x - r - 1)},${num(y)}" fill="${colour}"/>`;
    default:
      return `<circle cx="${num(x)}" cy="${num(y)}" r="${r}" fill="${colour}"/>`;
  }
}

/**
 * Renders `chart` as a self-contained SVG document (axes, ticks, grid, bands, series, legend).
 *
 * @example Two measured points and a model line
 * ```ts
 * import { renderXyChartSvg } from "./xy_chart.ts";
 * import assert from "node:assert/strict";
 * const svg = renderXyChartSvg({
 *   title: "flow", xLabel: "b (m)", yLabel: "J (1/s)",
 *   series: [
 *     { name: "measured", points: [[1, 1.9], [2, 3.8]], style: "points", colour: "#555" },
 *     { name: "model", points: [[1, 1.5], [2, 3.2]], style: "line", colour: "#d62728" },
 *   ],
 *   bands: [{ name: "J/b 1.8–2.4", low: 1.8, high: 2.4, colour: "#ddd" }],
 * });
 * assert.match(svg, /^<svg/);
 * assert.match(svg, /model/);
 * ```
 */
export function renderXyChartSvg(chart: XyChart): string {
  const w = chart.width ?? 640, h = chart.height ?? 420;
  // The legend's column is as wide as its longest label (12 px text: about 7 px a character).
  const names = [...(chart.bands ?? []), ...chart.series].map((e) => e.name.length);
  const left = 64, top = 44, right = Math.max(220, 40 + 7 * Math.max(0, ...names)), bottom = 52;
  let [x0, x1, y0, y1] = chart.range ?? [0, 0, 0, 0];
  if (!chart.range) {
    for (const s of chart.series) {
      for (const [x, y] of s.points) {
        if (Number.isFinite(x) && x > x1) x1 = x;
        if (Number.isFinite(y) && y > y1) y1 = y;
      }
    }
    x1 = x1 > 0 ? x1 * 1.05 : 1;
    y1 = y1 > 0 ? y1 * 1.08 : 1;
  }
  const sx = (x: number) => left + ((x - x0) / (x1 - x0)) * w;
  const sy = (y: number) => top + h - ((y - y0) / (y1 - y0)) * h;
  const parts: string[] = [];
  const totalW = left + w + right, totalH = top + h + bottom;
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${totalW}" height="${totalH}" ` +
      `viewBox="0 0 ${totalW} ${totalH}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${left}" y="26" font-size="16" font-weight="bold">${esc(chart.title)}</text>`,
    `<clipPath id="plot"><rect x="${left}" y="${top}" width="${w}" height="${h}"/></clipPath>`,
    // Markers on the frame stay whole; those beyond it are cut off.
    `<clipPath id="marks"><rect x="${left - 6}" y="${top - 6}" width="${w + 12}" height="${
      h + 12
    }"/></clipPath>`,
  );
  // Grid and ticks.
  const xs = tickStep(x1 - x0, 8), ys = tickStep(y1 - y0, 8);
  for (let t = Math.ceil(x0 / xs) * xs; t <= x1 + 1e-9; t += xs) {
    const x = sx(t);
    parts.push(
      `<line x1="${num(x)}" y1="${top}" x2="${num(x)}" y2="${top + h}" stroke="#eee"/>`,
      `<text x="${num(x)}" y="${top + h + 18}" font-size="12" text-anchor="middle">${
        Number(t.toFixed(6))
      }</text>`,
    );
  }
  for (let t = Math.ceil(y0 / ys) * ys; t <= y1 + 1e-9; t += ys) {
    const y = sy(t);
    parts.push(
      `<line x1="${left}" y1="${num(y)}" x2="${left + w}" y2="${num(y)}" stroke="#eee"/>`,
      `<text x="${left - 8}" y="${num(y + 4)}" font-size="12" text-anchor="end">${
        Number(t.toFixed(6))
      }</text>`,
    );
  }
  // Bands: the wedge between the two lines through the origin, clipped to the plot.
  const legend: string[] = [];
  for (const band of chart.bands ?? []) {
    const pts = [[x0, band.low * x0], [x1, band.low * x1], [x1, band.high * x1], [
      x0,
      band.high * x0,
    ]]
      .map(([x, y]) => `${num(sx(x))},${num(sy(y))}`).join(" ");
    parts.push(`<polygon points="${pts}" fill="${band.colour}" clip-path="url(#plot)"/>`);
    legend.push(
      `<rect x="0" y="-9" width="18" height="12" fill="${band.colour}"/>` +
        `<text x="26" y="2" font-size="12">${esc(band.name)}</text>`,
    );
  }
  // Series.
  for (const s of chart.series) {
    const pts = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    if (s.style === "line" && pts.length > 1) {
      const sorted = [...pts].sort((a, b) => a[0] - b[0]);
      parts.push(
        `<polyline points="${
          sorted.map(([x, y]) => `${num(sx(x))},${num(sy(y))}`).join(" ")
        }" fill="none" stroke="${s.colour}" stroke-width="2" clip-path="url(#plot)"/>`,
      );
    }
    const marks = pts.map(([x, y]) => marker(s.marker, sx(x), sy(y), s.colour)).join("");
    parts.push(`<g clip-path="url(#marks)">${marks}</g>`);
    legend.push(
      (s.style === "line"
        ? `<line x1="0" y1="-3" x2="18" y2="-3" stroke="${s.colour}" stroke-width="2"/>`
        : "") +
        marker(s.marker, 9, -3, s.colour) +
        `<text x="26" y="2" font-size="12">${esc(s.name)}</text>`,
    );
  }
  // Axes, labels, legend.
  parts.push(
    `<rect x="${left}" y="${top}" width="${w}" height="${h}" fill="none" stroke="#212121"/>`,
    `<text x="${left + w / 2}" y="${top + h + 42}" font-size="13" text-anchor="middle">${
      esc(chart.xLabel)
    }</text>`,
    `<text transform="translate(18 ${top + h / 2}) rotate(-90)" font-size="13" ` +
      `text-anchor="middle">${esc(chart.yLabel)}</text>`,
  );
  legend.forEach((entry, k) => {
    parts.push(`<g transform="translate(${left + w + 16} ${top + 12 + 20 * k})">${entry}</g>`);
  });
  parts.push("</svg>");
  return parts.join("\n");
}

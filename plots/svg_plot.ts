/**
 * Renders sampled trajectories as an SVG picture: one column per run (for example one per
 * strategy), paths coloured by speed over the geometry on top, the density map below.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import type { TrajectorySamples } from "./trajectory_plot.ts";

/** One run to draw. */
export interface PlotPanel {
  /** Column heading, e.g. the strategy name. */
  title: string;
  /** A line under the heading, e.g. key metrics. */
  subtitle?: string;
  /** Sampled positions. */
  samples: TrajectorySamples;
  /** Solid polygons (m). */
  polygons: readonly (readonly Point[])[];
  /** Walls (m). */
  walls: readonly { points: readonly Point[]; closed: boolean }[];
}

/** Options of {@linkcode renderTrajectorySvg}. */
export interface PlotOptions {
  /** Heading of the whole picture. */
  title: string;
  /** Region to show `[minX, minY, maxX, maxY]` (m). @default the extent of everything drawn */
  bounds?: readonly [number, number, number, number];
  /** Density map cell (m). @default 0.5 */
  densityCell?: number;
  /** Width of one column in pixels. @default 480 */
  panelWidth?: number;
  /** At most this many trips are drawn per panel (evenly chosen). @default 3000 */
  maxTrips?: number;
  /** Speed mapped to the top of the colour scale (m/s). @default 2 */
  maxSpeed?: number;
}

// A perceptually ordered scale (viridis control points), from slow (dark) to fast (yellow).
const VIRIDIS = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];
// Density: white to dark red.
const HEAT = [[255, 255, 255], [254, 224, 144], [253, 141, 60], [215, 48, 31], [127, 0, 0]];

function colour(scale: number[][], t: number): string {
  const u = Math.max(0, Math.min(1, t)) * (scale.length - 1);
  const k = Math.min(scale.length - 2, Math.floor(u)), f = u - k;
  const c = scale[k].map((v, i) => Math.round(v + f * (scale[k + 1][i] - v)));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const num = (v: number) => (Math.round(v * 100) / 100).toString();

function extent(panels: readonly PlotPanel[]): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const add = (x: number, y: number) => {
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  };
  for (const p of panels) {
    for (let k = 0; k < p.samples.count; k++) add(p.samples.x[k], p.samples.y[k]);
    for (const poly of p.polygons) for (const [x, y] of poly) add(x, y);
    for (const wall of p.walls) for (const [x, y] of wall.points) add(x, y);
  }
  if (!Number.isFinite(x0)) return [-1, -1, 1, 1];
  const pad = 0.02 * Math.max(x1 - x0, y1 - y0, 1);
  return [x0 - pad, y0 - pad, x1 + pad, y1 + pad];
}

/**
 * Returns the SVG document.
 *
 * @example
 * ```ts
 * import { renderTrajectorySvg } from "./svg_plot.ts";
 * import assert from "node:assert/strict";
 * const samples = {
 *   count: 2, serial: new Uint32Array([0, 0]), x: new Float32Array([0, 1]), y: new Float32Array([0, 0]),
 *   speed: new Float32Array([1, 1]), truncated: false, interval: 0.25, rounds: 2,
 * };
 * const svg = renderTrajectorySvg([{ title: "none", samples, polygons: [], walls: [] }], { title: "demo" });
 * assert.match(svg, /^<svg/);
 * ```
 */
export function renderTrajectorySvg(panels: readonly PlotPanel[], options: PlotOptions): string {
  const [bx0, by0, bx1, by1] = options.bounds ?? extent(panels);
  const width = options.panelWidth ?? 480;
  const scale = width / (bx1 - bx0);
  const height = Math.max(40, (by1 - by0) * scale);
  const cell = options.densityCell ?? 0.5;
  const maxTrips = options.maxTrips ?? 3000;
  const maxSpeed = options.maxSpeed ?? 2;
  const headerH = 34, titleH = 38, gap = 16, legendH = 46;
  const totalW = panels.length * (width + gap) + gap;
  const totalH = headerH + 2 * (titleH + height) + gap + legendH;
  // Map metres to pixels inside a panel (y up in metres, down in SVG).
  const px = (x: number) => num((x - bx0) * scale);
  const py = (y: number) => num((by1 - y) * scale);

  const geometry = (p: PlotPanel) => {
    const parts: string[] = [];
    for (const poly of p.polygons) {
      parts.push(
        `<polygon points="${poly.map(([x, y]) => `${px(x)},${py(y)}`).join(" ")}" fill="#9e9e9e"/>`,
      );
    }
    for (const wall of p.walls) {
      const pts = wall.points.map(([x, y]) => `${px(x)},${py(y)}`).join(" ");
      parts.push(
        `<${
          wall.closed ? "polygon" : "polyline"
        } points="${pts}" fill="none" stroke="#212121" stroke-width="2"/>`,
      );
    }
    return parts.join("");
  };

  const paths = (s: TrajectorySamples) => {
    // Sample indices grouped by trip, keeping time order within a trip.
    const order = Array.from({ length: s.count }, (_, k) => k).sort((a, b) =>
      s.serial[a] - s.serial[b] || a - b
    );
    const trips: [number, number][] = [];
    for (let k = 0; k < order.length;) {
      let end = k;
      while (end < order.length && s.serial[order[end]] === s.serial[order[k]]) end++;
      trips.push([k, end]);
      k = end;
    }
    const stride = Math.max(1, Math.ceil(trips.length / maxTrips));
    const out: string[] = [];
    for (let t = 0; t < trips.length; t += stride) {
      const [from, to] = trips[t];
      if (to - from < 2) continue;
      let sum = 0;
      const pts: string[] = [];
      for (let k = from; k < to; k++) {
        const j = order[k];
        sum += s.speed[j];
        pts.push(`${px(s.x[j])},${py(s.y[j])}`);
      }
      out.push(
        `<polyline points="${pts.join(" ")}" stroke="${
          colour(VIRIDIS, sum / (to - from) / maxSpeed)
        }"/>`,
      );
    }
    return { svg: out.join(""), drawn: Math.ceil(trips.length / stride), trips: trips.length };
  };

  const density = (s: TrajectorySamples, duration: number) => {
    const cols = Math.max(1, Math.ceil((bx1 - bx0) / cell)),
      rows = Math.max(1, Math.ceil((by1 - by0) / cell));
    const counts = new Float64Array(cols * rows);
    for (let k = 0; k < s.count; k++) {
      const c = Math.floor((s.x[k] - bx0) / cell), r = Math.floor((s.y[k] - by0) / cell);
      if (c >= 0 && c < cols && r >= 0 && r < rows) counts[r * cols + c]++;
    }
    // Mean persons per m² over the run: samples × interval / (cell area × duration).
    const toDensity = s.interval / (cell * cell * Math.max(duration, s.interval));
    let max = 0;
    for (const v of counts) max = Math.max(max, v * toDensity);
    const out: string[] = [];
    const size = num(cell * scale + 0.3);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const v = counts[r * cols + c] * toDensity;
        if (v <= 0) continue;
        out.push(
          `<rect x="${px(bx0 + c * cell)}" y="${
            py(by0 + (r + 1) * cell)
          }" width="${size}" height="${size}" fill="${colour(HEAT, 0.1 + 0.9 * v / max)}"/>`,
        );
      }
    }
    return { svg: out.join(""), max };
  };

  const body: string[] = [];
  body.push(
    `<text x="${gap}" y="22" font-size="16" font-weight="bold">${esc(options.title)}</text>`,
  );
  panels.forEach((p, i) => {
    const x = gap + i * (width + gap);
    const duration = p.samples.rounds * p.samples.interval;
    const t = paths(p.samples);
    const d = density(p.samples, duration);
    const note = t.drawn < t.trips
      ? `, ${t.drawn} of ${t.trips} trips drawn`
      : `, ${t.trips} trips`;
    const cut = p.samples.truncated ? ", sampling truncated" : "";
    let y = headerH;
    body.push(`<g transform="translate(${x},${y})">`);
    body.push(`<text y="16" font-size="14" font-weight="bold">${esc(p.title)}</text>`);
    body.push(
      `<text y="32" font-size="11" fill="#444">${esc((p.subtitle ?? "") + note + cut)}</text>`,
    );
    body.push(
      `<g transform="translate(0,${titleH})"><rect width="${width}" height="${
        num(height)
      }" fill="#fafafa" stroke="#ccc"/>`,
    );
    body.push(
      `<g fill="none" stroke-width="1" stroke-opacity="0.7">${t.svg}</g>${geometry(p)}</g>`,
    );
    y = titleH + height;
    body.push(
      `<text y="${num(y + 24)}" font-size="12">density (peak ${
        d.max.toFixed(2)
      } persons/m², ${cell} m cells)</text>`,
    );
    body.push(
      `<g transform="translate(0,${num(y + titleH)})"><rect width="${width}" height="${
        num(height)
      }" fill="#fff" stroke="#ccc"/>${d.svg}${geometry(p)}</g>`,
    );
    body.push(`</g>`);
  });
  // Legends.
  const ly = headerH + 2 * (titleH + height) + gap;
  const stops = (scale: number[][]) =>
    scale.map((c, k) =>
      `<stop offset="${k / (scale.length - 1)}" stop-color="rgb(${c.join(",")})"/>`
    ).join("");
  body.push(
    `<defs><linearGradient id="speed">${stops(VIRIDIS)}</linearGradient><linearGradient id="heat">${
      stops(HEAT)
    }</linearGradient></defs>`,
  );
  body.push(`<g transform="translate(${gap},${num(ly)})" font-size="11">`);
  body.push(
    `<rect width="160" height="10" fill="url(#speed)"/><text y="24">0</text><text x="160" y="24" text-anchor="end">${maxSpeed} m/s</text><text x="170" y="9">mean speed of the trip</text>`,
  );
  body.push(
    `<rect x="330" width="160" height="10" fill="url(#heat)"/><text x="330" y="24">low</text><text x="490" y="24" text-anchor="end">peak</text><text x="500" y="9">mean density</text>`,
  );
  body.push(`</g>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${num(totalW)}" height="${
    num(totalH)
  }" viewBox="0 0 ${num(totalW)} ${num(totalH)}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="white"/>${body.join("")}</svg>\n`;
}

/**
 * Measures the viewer end to end (not a test: figures are reported, never asserted): the live
 * server stepping `--agents` agents of `crossing` with each strategy, headless Chromium without
 * a GPU (`viewer/tools/headless_chromium.ts`) rendering the page, and prints frames per second
 * drawn by the page while streaming, render frames per second of a static frame, bytes per frame,
 * frames received per second and server milliseconds per step (as the frames report them).
 *
 * ```sh
 * deno run --unstable-bundle -A viewer/tools/measure_performance.ts --agents 10000 --strategies none
 * deno run --unstable-bundle -A viewer/tools/measure_performance.ts --agents 100000 --seconds 8
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { buildClientBundle } from "../client_bundle.ts";
import { LiveFrameSource } from "../live_source.ts";
import { startViewerServer } from "../server.ts";
import { launchHeadlessChromium } from "./headless_chromium.ts";

/** One measurement. */
export interface ViewerMeasurement {
  /** Agents per view. */
  agents: number;
  /** Strategies side by side. */
  strategies: string[];
  /** Page size (CSS pixels). */
  viewport: string;
  /** Frames per second the page drew while frames streamed in. */
  pageFps: number;
  /** Frames per second the page draws a static frame back to back. */
  renderFps: number;
  /** Mean CPU time of one deck.gl render (ms). */
  renderMs: number;
  /** Agent frames received per second and view. */
  framesPerSecond: number;
  /** Bytes of one agent frame. */
  bytesPerFrame: number;
  /** Server wall-clock ms per step (slowest view, including the metrics collector). */
  serverMsPerStep: number;
  /** Simulated seconds per wall-clock second achieved. */
  timeFactor: number;
}

/** Runs one measurement. */
export async function measureViewer(
  options: {
    agents: number;
    strategies: string[];
    seconds: number;
    width?: number;
    height?: number;
  },
): Promise<ViewerMeasurement> {
  const width = options.width ?? 1280, height = options.height ?? 720;
  const bundle = await buildClientBundle();
  const source = await LiveFrameSource.start({
    scenario: "crossing",
    strategies: options.strategies,
    agents: options.agents,
  });
  const server = await startViewerServer({ source, bundle: bundle.code, port: 0 });
  const browser = await launchHeadlessChromium();
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(server.url);
    // deno-lint-ignore no-explicit-any
    const state = () => page.evaluate(() => (globalThis as any).__throng.state());
    const end = Date.now() + 60_000;
    while ((await state()).renders < 5) {
      if (Date.now() > end) throw new Error("the page drew nothing within a minute");
      await page.waitForTimeout(200);
    }
    await page.waitForTimeout(1000);
    const a = await state(), t0 = performance.now();
    const stepMs: number[] = [];
    const sampler = setInterval(async () => {
      const views: { msPerStep: number }[] = (await state()).views;
      stepMs.push(Math.max(...views.map((v) => v.msPerStep)));
    }, 250);
    await page.waitForTimeout(options.seconds * 1000);
    clearInterval(sampler);
    const b = await state(), seconds = (performance.now() - t0) / 1000;
    const views = options.strategies.length;
    const timeFactor = b.views[0].timeFactor;
    await page.click("#play"); // pause
    await page.waitForTimeout(500);
    // deno-lint-ignore no-explicit-any
    const bench = await page.evaluate(() => (globalThis as any).__throng.benchmark(30));
    const frames = b.framesReceived - a.framesReceived;
    return {
      agents: options.agents,
      strategies: options.strategies,
      viewport: `${width}×${height}`,
      pageFps: (b.renders - a.renders) / seconds,
      renderFps: bench.fps,
      renderMs: bench.meanRenderMs,
      framesPerSecond: frames / views / seconds,
      bytesPerFrame: frames > 0 ? (b.bytesReceived - a.bytesReceived) / frames : NaN,
      serverMsPerStep: stepMs.reduce((x, y) => x + y, 0) / Math.max(1, stepMs.length),
      timeFactor,
    };
  } finally {
    await browser.close();
    await server.close();
    source.close();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      agents: { type: "string", default: "10000" },
      strategies: { type: "string", default: "none" },
      seconds: { type: "string", default: "6" },
    },
  });
  const result = await measureViewer({
    agents: Number(values.agents),
    strategies: String(values.strategies).split(","),
    seconds: Number(values.seconds),
  });
  console.log(JSON.stringify(result, null, 2));
}

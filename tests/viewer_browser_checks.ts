/// <reference lib="dom" />
/**
 * Browser checks of the viewer page: headless Chromium (found as
 * `viewer/tools/find_chromium.ts` says) driven by playwright-core, WebGL on Chromium's software
 * renderer. Screenshots are decoded and the agents are looked for, pixel by pixel, where the
 * simulation puts them; the page's widgets are measured where they are drawn. They need network,
 * a browser and the bundler, which the project's test task does not grant, so
 * tests/viewer_browser_test.ts runs this file in a `deno test` subprocess:
 *
 * ```sh
 * deno test --unstable-bundle --allow-all tests/viewer_browser_checks.ts
 * ```
 *
 * Screenshots are kept in `out/screenshots/` (git-ignored).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchHeadlessChromium } from "../viewer/tools/headless_chromium.ts";
import { decode, encode } from "fast-png";
import { buildClientBundle } from "../viewer/client_bundle.ts";
import { CROSSING_STATE_COLORS, type Rgb, strategyColor } from "../viewer/client/colors.ts";
import { TRAFFIC_COLORS } from "../viewer/client/traffic_layers.ts";
import { signalHeadColor } from "../viewer/client/signal_heads.ts";
import type { FrameSource } from "../viewer/frame_source.ts";
import { LiveFrameSource } from "../viewer/live_source.ts";
import { ReplayFrameSource } from "../viewer/replay_source.ts";
import {
  startViewerServer,
  type ViewerServer,
  type ViewerServerOptions,
} from "../viewer/server.ts";
import { MetricsCollector } from "../metrics/collector.ts";
import { TrajectoryRecorder } from "../recording/recorder.ts";
import { buildScenario } from "../scenarios/build.ts";
import { resolveScenario } from "../scenarios/resolve.ts";
import { strategies } from "../strategies/mod.ts";

const SCREENSHOTS = new URL("../out/screenshots/", import.meta.url);
const WIDTH = 1280, HEIGHT = 720;
/** The page's plain background (#20242c), shown where no tile loaded. */
const BACKGROUND = [0x20, 0x24, 0x2c] as const;
const SCENARIO = "crossing", AGENTS = 60, SEED = 1, NAMES = ["none", "orca"];
/** Pedestrians of the city check, and how long the city may take to load and plan (ms). */
const CITY_AGENTS = 300, CITY_TIMEOUT_MS = 240_000;
/** The README's picture of a real city with a crowd, made by the city check. */
const CITY_SCREENSHOT = new URL("../viewer/docs/city.png", import.meta.url);
/** The README's picture of the crosswalk with its cars, lights and a picked pedestrian. */
const CROSSWALK_SCREENSHOT = new URL("../viewer/docs/crosswalk.png", import.meta.url);
const bundle = await buildClientBundle();

/** An RGBA screenshot. */
interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number];
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function screenshot(page: Page, name: string): Promise<Pixels> {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  const png = await page.screenshot({ path: new URL(name, SCREENSHOTS).pathname });
  const image = decode(png);
  const channels = image.channels;
  const data = image.data as Uint8Array;
  return {
    width: image.width,
    height: image.height,
    at(x, y) {
      const o = (Math.round(y) * image.width + Math.round(x)) * channels;
      return [data[o], data[o + 1], data[o + 2]];
    },
  };
}

const near = (a: readonly number[], b: readonly number[], tolerance: number) =>
  Math.abs(a[0] - b[0]) <= tolerance && Math.abs(a[1] - b[1]) <= tolerance &&
  Math.abs(a[2] - b[2]) <= tolerance;

// deno-lint-ignore no-explicit-any
type ThrongHook = any;

async function state(page: Page): Promise<ThrongHook> {
  return await page.evaluate(() => (globalThis as ThrongHook).__throng.state());
}

async function waitForState(
  page: Page,
  what: string,
  condition: (s: ThrongHook) => boolean,
  timeoutMs = 20_000,
): Promise<ThrongHook> {
  const end = Date.now() + timeoutMs;
  while (true) {
    const s = await state(page).catch(() => null);
    if (s && condition(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(s)}`);
    await page.waitForTimeout(50);
  }
}

/** Rectangles of the HTML overlays (panels, toolbar, notes), where the map is hidden. */
async function overlayBoxes(page: Page): Promise<Box[]> {
  return await page.evaluate(() =>
    [...document.querySelectorAll(
      ".panel, #toolbar, #legend, #tile-note, #attribution, #inspector, #layer-menu",
    )]
      .filter((e) => !(e as HTMLElement).hidden)
      .map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      })
  );
}

/** The rectangle of an element, or null when it is hidden. */
async function boxOf(page: Page, selector: string): Promise<Box | null> {
  return await page.$eval(selector, (e) => {
    if ((e as HTMLElement).hidden) return null;
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
}

const covered = (boxes: Box[], x: number, y: number, margin: number) =>
  boxes.some((b) =>
    x >= b.x - margin && x <= b.x + b.width + margin && y >= b.y - margin &&
    y <= b.y + b.height + margin
  );

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The views' rectangles: side by side over the map. */
async function viewRegions(page: Page, views: number): Promise<Box[]> {
  const map = (await boxOf(page, "#map"))!;
  return Array.from({ length: views }, (_, v) => ({
    x: map.x + (v * map.width) / views,
    y: map.y,
    width: map.width / views,
    height: map.height,
  }));
}

/** Screen positions of the agents of a view, with their ids. */
async function agentsOnScreen(
  page: Page,
  view: number,
): Promise<{ x: number; y: number; id: number }[]> {
  return await page.evaluate((v) => (globalThis as ThrongHook).__throng.screenPositions(v), view);
}

/** How many of the visible agents of a view have their centre pixel in `color`. */
function agentsDrawn(
  pixels: Pixels,
  agents: { x: number; y: number }[],
  region: Box,
  boxes: Box[],
  color: readonly number[],
): { checked: number; matched: number } {
  let checked = 0, matched = 0;
  for (const a of agents) {
    if (a.x < region.x + 3 || a.x > region.x + region.width - 3) continue;
    if (a.y < region.y + 3 || a.y > region.y + region.height - 3) continue;
    if (covered(boxes, a.x, a.y, 6)) continue;
    checked++;
    if (near(pixels.at(a.x, a.y), color, 40)) matched++;
  }
  return { checked, matched };
}

/** Grid samples of a region that are at least `clearance` px from every agent and overlay. */
function openSamples(
  region: Box,
  agents: { x: number; y: number }[],
  boxes: Box[],
  clearance: number,
): [number, number][] {
  const out: [number, number][] = [];
  for (let y = region.y + 10; y < region.y + region.height - 10; y += 17) {
    for (let x = region.x + 10; x < region.x + region.width - 10; x += 17) {
      if (covered(boxes, x, y, 4)) continue;
      if (agents.some((a) => Math.hypot(a.x - x, a.y - y) < clearance)) continue;
      out.push([x, y]);
    }
  }
  return out;
}

/** The positions (by id) of a freshly built world stepped `steps` times. */
async function simulate(
  strategy: string,
  seed: number,
  steps: number,
): Promise<Map<number, [number, number]>> {
  const { spec, source } = await resolveScenario(SCENARIO, { agents: AGENTS });
  const built = buildScenario(spec, {
    registry: strategies,
    strategy: { name: strategy },
    seed,
    source,
  });
  for (let k = 0; k < steps; k++) built.world.step();
  const a = built.world.agents, out = new Map<number, [number, number]>();
  for (let i = 0; i < a.count; i++) out.set(a.serial[i], [a.px[i], a.py[i]]);
  return out;
}

async function pageFrame(
  page: Page,
  view: number,
): Promise<{ step: number; positions: number[]; ids: number[] }> {
  return await page.evaluate((v) => (globalThis as ThrongHook).__throng.frame(v), view);
}

/** Largest distance (m) between the page's frame and the simulation, by id. */
function largestError(
  frame: { positions: number[]; ids: number[] },
  truth: Map<number, [number, number]>,
): number {
  let worst = 0;
  frame.ids.forEach((id, i) => {
    const p = truth.get(id);
    worst = Math.max(
      worst,
      p ? Math.hypot(frame.positions[2 * i] - p[0], frame.positions[2 * i + 1] - p[1]) : Infinity,
    );
  });
  return worst;
}

async function setPaused(page: Page, paused: boolean): Promise<void> {
  const label = await page.textContent("#play");
  if ((label === "Pause") === paused) await page.click("#play");
  await waitForState(
    page,
    paused ? "paused frames" : "running frames",
    (s) => s.views.every((v: ThrongHook) => v.paused === paused),
  );
}

/**
 * Pauses or resumes a page that may render slowly (a city on the software renderer): the button
 * is pressed through the page and the frames may take up to the city's timeout to say so.
 */
async function pauseCity(page: Page, paused: boolean): Promise<void> {
  if (((await page.textContent("#play")) === "Pause") === paused) {
    await page.$eval("#play", (b) => (b as HTMLButtonElement).click());
  }
  await waitForState(
    page,
    paused ? "paused frames" : "running frames",
    (s) => s.views.every((v: ThrongHook) => v.paused === paused),
    CITY_TIMEOUT_MS,
  );
}

/** Switches a layer kind on or off through the layer menu. */
async function setLayer(page: Page, key: string, on: boolean): Promise<void> {
  if (!(await page.isVisible("#layer-menu"))) await page.click("#layers-button");
  await page.waitForSelector("#layer-menu", { state: "visible", timeout: CITY_TIMEOUT_MS });
  await page.setChecked(`#layer-${key}`, on, { timeout: CITY_TIMEOUT_MS });
  await page.keyboard.press("Escape");
  // Closed before the next call looks: on a page slowed by the suite's load the menu could
  // still show when the next call checked, and then close under it (a 30 s timeout waiting
  // for the next layer's box).
  await page.waitForSelector("#layer-menu", { state: "hidden", timeout: CITY_TIMEOUT_MS });
  await waitForState(page, `layer ${key} ${on}`, (s) => s.layers[key] === on);
}

/** Clicks a point of the map as a user does: the pointer gets there first, then clicks. */
async function clickMap(page: Page, x: number, y: number): Promise<void> {
  await page.mouse.move(x, y);
  await page.waitForTimeout(300);
  await page.mouse.click(x, y);
}

/** A viewer server of `source` on a free port; the caller closes both. */
async function serve(
  source: FrameSource,
  options: Partial<ViewerServerOptions> = {},
): Promise<ViewerServer> {
  return await startViewerServer({ source, bundle: bundle.code, port: 0, ...options });
}

/** A page of `url` at `width` × `height`, with its errors collected. */
async function openPage(
  browser: Browser,
  url: string,
  width = WIDTH,
  height = HEIGHT,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (/assert|INVALID_OPERATION|INVALID_VALUE/i.test(message.text())) {
      errors.push(message.text());
    }
  });
  await page.goto(url);
  await waitForState(page, "frames", (s) => s.framesReceived >= s.views.length && s.renders > 2);
  return { page, errors };
}

/** A check of the page: a step of the test below, with the browser all checks share. */
type PageCheck = (t: Deno.TestContext, browser: Browser) => Promise<void>;

/** A step without the pending-operation checks (see the test at the end). */
function step(
  t: Deno.TestContext,
  name: string,
  fn: (t: Deno.TestContext) => void | Promise<void>,
): Promise<boolean> {
  return t.step({ name, fn, sanitizeOps: false, sanitizeResources: false });
}

/** The checks, in order; defined below. */
const CHECKS: [string, PageCheck][] = [];

CHECKS.push([
  "the live page draws each strategy's agents where the simulation puts them",
  async (t, browser) => {
    const source = await LiveFrameSource.start({
      scenario: SCENARIO,
      strategies: NAMES,
      agents: AGENTS,
      seed: SEED,
    });
    const server = await serve(source);
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
    try {
      const errors: string[] = [];
      const failed: string[] = [];
      const served: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("response", (response) => {
        if (!response.url().startsWith(server.url)) return;
        served.push(new URL(response.url()).pathname);
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      page.on("requestfailed", (request) => {
        if (request.url().startsWith(server.url)) failed.push(`failed ${request.url()}`);
      });
      await page.goto(server.url);
      await waitForState(page, "frames", (s) => s.framesReceived > 10 && s.renders > 2);
      await setLayer(page, "trails", false);
      await setLayer(page, "headings", false);
      const regions = await viewRegions(page, 2);

      await step(
        t,
        "offline, the map falls back to a plain background with a visible note",
        async () => {
          const s = await waitForState(page, "the tile note", (s) => s.tileNote === true);
          assert.equal(s.tileLoads, 0);
          assert.ok(s.tileErrors > 0);
          assert.ok(await page.isVisible("#tile-note"));
          assert.match((await page.textContent("#tile-note"))!, /tiles could not be loaded/);
          assert.equal(await page.textContent("#attribution"), "© OpenStreetMap contributors");
        },
      );

      await setPaused(page, true);
      await page.waitForTimeout(400);
      const boxes = await overlayBoxes(page);
      const agentsA = [await agentsOnScreen(page, 0), await agentsOnScreen(page, 1)];
      const frameA = [await pageFrame(page, 0), await pageFrame(page, 1)];
      const shotA = await screenshot(page, "live-paused.png");

      await step(
        t,
        "each frame matches a fresh simulation of the same strategy and seed",
        async () => {
          for (const v of [0, 1]) {
            const truth = await simulate(NAMES[v], SEED, frameA[v].step);
            assert.equal(frameA[v].ids.length, truth.size);
            const error = largestError(frameA[v], truth);
            assert.ok(
              error < 1e-3,
              `view ${v} is ${error} m off the simulation at step ${frameA[v].step}`,
            );
          }
        },
      );

      await step(
        t,
        "agents are drawn at their simulated positions in their strategy's colour",
        () => {
          assert.equal(shotA.width, WIDTH);
          for (const v of [0, 1]) {
            const { checked, matched } = agentsDrawn(
              shotA,
              agentsA[v],
              regions[v],
              boxes,
              strategyColor(NAMES[v]),
            );
            assert.ok(checked >= 30, `only ${checked} agents of view ${v} are visible`);
            assert.ok(
              matched >= 0.9 * checked,
              `view ${v}: ${matched} of ${checked} agents found in the pixels`,
            );
            const open = openSamples(regions[v], agentsA[v], boxes, 18);
            const plain = open.filter(([x, y]) => near(shotA.at(x, y), BACKGROUND, 10)).length;
            assert.ok(open.length > 200);
            assert.ok(
              plain >= 0.95 * open.length,
              `view ${v}: ${plain} of ${open.length} open samples are background`,
            );
          }
        },
      );

      await step(t, "each side-by-side view shows its own strategy", async () => {
        assert.deepEqual(
          await page.$$eval(".panel .strategy-name", (e) => e.map((x) => x.textContent)),
          NAMES,
        );
        // No agent colour of one view appears on the other's map.
        for (const v of [0, 1]) {
          const other = strategyColor(NAMES[1 - v]);
          let foreign = 0;
          const r = regions[v];
          for (let y = r.y; y < r.y + r.height; y += 2) {
            for (let x = r.x; x < r.x + r.width; x += 2) {
              if (!covered(boxes, x, y, 2) && near(shotA.at(x, y), other, 30)) foreign++;
            }
          }
          assert.equal(foreign, 0, `view ${v} shows ${foreign} pixels of view ${1 - v}'s colour`);
        }
      });

      await step(
        t,
        "clicking an agent shows its state and its strategy's internals in a corner",
        async () => {
          const map = (await boxOf(page, "#map"))!;
          // The agent nearest the top right corner of the right view, where the box opens.
          const target = agentsA[1].filter((a) =>
            !covered(boxes, a.x, a.y, 12) && a.x > regions[1].x + 20 && a.x < map.x + map.width - 8
          ).sort((a, b) =>
            (a.y - b.y) - (a.x - b.x)
          )[0];
          await clickMap(page, target.x, target.y);
          await page.waitForSelector("#inspector:not([hidden])");
          await page.waitForFunction(
            (id) => document.querySelector("#inspector-table")?.textContent?.includes(`id${id}`),
            target.id,
          );
          const rows = Object.fromEntries(
            await page.$$eval(
              "#inspector-table tr",
              (trs) =>
                trs.map((tr) => [...(tr as HTMLTableRowElement).cells].map((c) => c.textContent)),
            ),
          );
          const i = frameA[1].ids.indexOf(target.id);
          assert.equal(rows.id, String(target.id));
          assert.equal(rows.strategy, "orca");
          assert.ok(Math.abs(Number(rows.x) - frameA[1].positions[2 * i]) < 0.01);
          assert.ok(Math.abs(Number(rows.y) - frameA[1].positions[2 * i + 1]) < 0.01);
          assert.match(
            await page.textContent("#inspector-title") ?? "",
            new RegExp(`agent ${target.id}`),
          );
          // The strategy's internals are folded below, one click away.
          const summary = await page.textContent("#inspector-internals-title") ?? "";
          const internals = Number(/\((\d+)\)/.exec(summary)?.[1] ?? 0);
          assert.ok(internals >= 3, summary);
          await page.click("#inspector-internals-title");
          assert.equal(
            await page.$$eval("#inspector-internals-table tr", (r) => r.length),
            internals,
          );
          // A box in a corner: small, clear of the metrics panels, never over the agent it shows.
          await page.waitForTimeout(300);
          const box = (await boxOf(page, "#inspector"))!;
          assert.ok(
            box.width * box.height <= 0.12 * map.width * map.height,
            `the inspector covers ${
              ((box.width * box.height) / (map.width * map.height) * 100).toFixed(0)
            } % of the map`,
          );
          assert.ok(box.x + box.width <= map.x + map.width && box.y >= map.y);
          for (
            const panel of await page.$$eval(".panel", (ps) =>
              ps.map((p) => {
                const r = p.getBoundingClientRect();
                return { x: r.x, y: r.y, width: r.width, height: r.height };
              }))
          ) {
            assert.ok(!overlap(box, panel), "the inspector covers a metrics panel");
          }
          const shown = (await agentsOnScreen(page, 1)).find((a) => a.id === target.id)!;
          assert.ok(!covered([box], shown.x, shown.y, 4), "the inspector hides its agent");
          // The paths overlay of the focused agent arrives as debug segments.
          await page.click("#layers-button");
          await page.check("#overlay-paths");
          await waitForState(page, "debug segments", (s) => s.views[1].debugSegments >= 1);
          await page.uncheck("#overlay-paths");
          await page.keyboard.press("Escape");
          await page.click("#inspector-close");
        },
      );

      await step(t, "agents move between screenshots", async () => {
        await setPaused(page, false);
        await page.waitForTimeout(1200);
        await setPaused(page, true);
        await page.waitForTimeout(400);
        const agentsB = [await agentsOnScreen(page, 0), await agentsOnScreen(page, 1)];
        const frameB = await pageFrame(page, 0);
        const shotB = await screenshot(page, "live-moved.png");
        assert.ok(frameB.step >= frameA[0].step + 10, `only ${frameB.step - frameA[0].step} steps`);
        let moved = 0, common = 0;
        frameB.ids.forEach((id, i) => {
          const j = frameA[0].ids.indexOf(id);
          if (j < 0) return;
          common++;
          const d = Math.hypot(
            frameB.positions[2 * i] - frameA[0].positions[2 * j],
            frameB.positions[2 * i + 1] - frameA[0].positions[2 * j + 1],
          );
          if (d > 0.3) moved++;
        });
        assert.ok(moved >= 0.8 * common, `${moved} of ${common} agents moved`);
        let changed = 0;
        for (let y = regions[0].y; y < HEIGHT; y += 2) {
          for (let x = 0; x < WIDTH; x += 2) {
            if (!near(shotA.at(x, y), shotB.at(x, y), 20)) changed++;
          }
        }
        assert.ok(changed > 500, `only ${changed} sampled pixels changed`);
        const boxesB = await overlayBoxes(page);
        for (const v of [0, 1]) {
          const { checked, matched } = agentsDrawn(
            shotB,
            agentsB[v],
            regions[v],
            boxesB,
            strategyColor(NAMES[v]),
          );
          assert.ok(
            matched >= 0.9 * checked,
            `view ${v}: ${matched} of ${checked} moved agents found`,
          );
          // Where an agent was and no agent is now, the background shows again.
          const vacated = openSamples(regions[v], agentsB[v], boxesB, 18).length;
          assert.ok(vacated > 200);
          const left = agentsA[v].filter((a) =>
            !covered(boxesB, a.x, a.y, 6) && agentsB[v].every((b) =>
              Math.hypot(a.x - b.x, a.y - b.y) > 18
            ) &&
            a.x > regions[v].x && a.x < regions[v].x + regions[v].width
          );
          const cleared = left.filter((a) => near(shotB.at(a.x, a.y), BACKGROUND, 10)).length;
          assert.ok(
            left.length >= 5 && cleared >= 0.9 * left.length,
            `${cleared} of ${left.length} vacated`,
          );
        }
      });

      await step(t, "restart with a new seed starts the runs of that seed", async () => {
        await page.fill("#seed", "7");
        await page.click("#restart");
        await waitForState(
          page,
          "the restart",
          (s) => s.views.every((v: ThrongHook) => v.step === 0),
        );
        for (const v of [0, 1]) {
          const frame = await pageFrame(page, v);
          assert.ok(largestError(frame, await simulate(NAMES[v], 7, 0)) < 1e-3);
          assert.ok(largestError(frame, await simulate(NAMES[v], SEED, 0)) > 0.1);
        }
      });

      await step(t, "the page loads without a failed request", () => {
        assert.deepEqual(failed, []);
        for (const path of ["/", "/static/style.css", "/app.js", "/static/favicon.svg"]) {
          assert.ok(served.includes(path), `${path} was not requested: ${served}`);
        }
      });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
      await server.close();
      source.close();
    }
  },
]);

CHECKS.push(["a configured tile server shows as the basemap", async (t, browser) => {
  const tile = encode({ width: 256, height: 256, data: _solid(256, 256, [200, 60, 160]) });
  let requests = 0;
  const tiles = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    requests++;
    if (!/^\/\d+\/\d+\/\d+\.png$/.test(new URL(request.url).pathname)) {
      return new Response("", { status: 404 });
    }
    return new Response(tile.slice(), {
      headers: { "content-type": "image/png", "access-control-allow-origin": "*" },
    });
  });
  const source = await LiveFrameSource.start({
    scenario: SCENARIO,
    strategies: ["none", "none"],
    agents: 30,
  });
  const server = await serve(source, {
    tiles: `http://127.0.0.1:${tiles.addr.port}/{z}/{x}/{y}.png`,
    attribution: "test tiles",
  });
  const { page, errors } = await openPage(browser, server.url);
  /** Share of the open map samples that show the tile colour (slightly desaturated). */
  const tinted = async (name: string) => {
    const boxes = await overlayBoxes(page);
    const agents = [...await agentsOnScreen(page, 0), ...await agentsOnScreen(page, 1)];
    const map = (await boxOf(page, "#map"))!;
    const shot = await screenshot(page, name);
    const open = openSamples(map, agents, boxes, 18);
    const shown = open.filter(([x, y]) => {
      const [r, g, b] = shot.at(x, y);
      return r > g + 60 && b > g + 40;
    }).length;
    return shown / open.length;
  };
  try {
    await waitForState(page, "tiles", (s) => s.tileLoads >= 2 && s.renders > 2);
    await page.waitForTimeout(500);
    const s = await state(page);
    assert.equal(s.tileNote, false);
    assert.equal(s.tileErrors, 0);
    assert.ok(requests >= 2);
    assert.equal(await page.textContent("#attribution"), "test tiles");
    const share = await tinted("tiles.png");
    assert.ok(share >= 0.9, `${(share * 100).toFixed(0)} % of open samples show the tiles`);

    await step(t, "switching the tiles off and on brings the basemap back at once", async () => {
      await setLayer(page, "tiles", false);
      await page.waitForTimeout(300);
      const off = await tinted("tiles-off.png");
      assert.ok(off < 0.02, `${(off * 100).toFixed(0)} % tinted with the tiles off`);
      await setLayer(page, "tiles", true);
      // Without touching the camera: the user does not have to pan for the map to return.
      await page.waitForTimeout(1000);
      const on = await tinted("tiles-on.png");
      assert.ok(on >= 0.9, `${(on * 100).toFixed(0)} % tinted after switching the tiles on`);
      assert.deepEqual(errors, []);
    });
  } finally {
    await page.close();
    await server.close();
    source.close();
    await tiles.shutdown();
  }
}]);

CHECKS.push([
  "the page's widgets fit the window and keep out of each other's way",
  async (t, browser) => {
    // The strategies in the other order than above: colours follow the names.
    const names = ["orca", "none"];
    const source = await LiveFrameSource.start({
      scenario: SCENARIO,
      strategies: names,
      agents: 60,
    });
    const server = await serve(source);
    const { page, errors } = await openPage(browser, server.url);
    try {
      await step(t, "a strategy keeps its colour whatever view it is in", async () => {
        await setLayer(page, "trails", false);
        await setLayer(page, "headings", false);
        await setPaused(page, true);
        await page.waitForTimeout(400);
        const regions = await viewRegions(page, 2);
        const boxes = await overlayBoxes(page);
        const shot = await screenshot(page, "colours.png");
        for (const v of [0, 1]) {
          const agents = await agentsOnScreen(page, v);
          const color = strategyColor(names[v]);
          const { checked, matched } = agentsDrawn(shot, agents, regions[v], boxes, color);
          assert.ok(checked >= 20 && matched >= 0.9 * checked, `${matched} of ${checked}`);
        }
        const swatches = await page.$$eval(
          ".panel .swatch",
          (s) => s.map((e) => (e as HTMLElement).style.background),
        );
        assert.deepEqual(swatches, names.map((n) => _css(strategyColor(n))));
      });

      await step(t, "every control fits in the toolbar at 1,280 and 1,024 px", async () => {
        for (const width of [1280, 1024]) {
          await page.setViewportSize({ width, height: HEIGHT });
          await page.waitForTimeout(200);
          const toolbar = (await boxOf(page, "#toolbar"))!;
          const fits = await page.$eval("#toolbar", (e) => e.scrollWidth <= e.clientWidth);
          assert.ok(fits, `the toolbar scrolls at ${width} px`);
          const controls = await page.$$eval(
            "#toolbar > *:not([hidden]), #toolbar .group:not([hidden]) > *",
            (es) =>
              es.map((e) => {
                const r = e.getBoundingClientRect();
                return { id: e.id || e.tagName, right: r.right, bottom: r.bottom, width: r.width };
              }),
          );
          for (const c of controls) {
            assert.ok(c.width > 0 && c.right <= width, `${c.id} ends at ${c.right} of ${width} px`);
            assert.ok(c.bottom <= toolbar.y + toolbar.height, `${c.id} is below the toolbar`);
          }
          if (width === 1280) assert.ok(toolbar.height <= 40, "one row at 1,280 px");
          await page.click("#layers-button");
          const switches = await page.$$eval("#layer-menu input", (es) =>
            es.map((e) => {
              const r = e.getBoundingClientRect();
              return { id: e.id, r: { x: r.x, y: r.y, width: r.width, height: r.height } };
            }));
          assert.ok(switches.length >= 6, `${switches.length} switches in the layer menu`);
          for (const { id, r } of switches) {
            assert.ok(
              r.width > 0 && r.x >= 0 && r.x + r.width <= width && r.y + r.height <= HEIGHT,
              id,
            );
            assert.ok(await page.isVisible(`#${id}`), `${id} is hidden`);
          }
          await page.keyboard.press("Escape");
          assert.equal(await page.isVisible("#layer-menu"), false);
        }
        await page.setViewportSize({ width: WIDTH, height: HEIGHT });
      });

      await step(t, "the legend, the offline note and the attribution never overlap", async () => {
        await waitForState(page, "the tile note", (s) => s.tileNote === true);
        await page.selectOption("#color-by", "state"); // the longest legend
        for (const width of [1280, 800, 560]) {
          await page.setViewportSize({ width, height: HEIGHT });
          await page.waitForTimeout(200);
          const boxes = await Promise.all(
            ["#legend", "#tile-note", "#attribution"].map((s) => boxOf(page, s)),
          );
          for (const b of boxes) {
            assert.ok(b && b.width > 0 && b.x >= 0 && b.x + b.width <= width + 0.5);
            assert.ok(b.y + b.height <= HEIGHT + 0.5);
          }
          for (let i = 0; i < 3; i++) {
            for (let j = i + 1; j < 3; j++) {
              assert.ok(
                !overlap(boxes[i]!, boxes[j]!),
                `boxes ${i} and ${j} overlap at ${width} px`,
              );
            }
          }
        }
        await page.selectOption("#color-by", "strategy");
        await page.setViewportSize({ width: WIDTH, height: HEIGHT });
      });

      await step(t, "resizing the window refits the scene", async () => {
        // deno-lint-ignore no-explicit-any
        const sceneBox = () => page.evaluate(() => (globalThis as any).__throng.sceneBox(0));
        const inside = (b: ThrongHook) =>
          b.scene.left >= b.view.left - 1 && b.scene.right <= b.view.right + 1 &&
          b.scene.top >= b.view.top - 1 && b.scene.bottom <= b.view.bottom + 1;
        await page.setViewportSize({ width: WIDTH, height: HEIGHT });
        await page.waitForTimeout(300);
        const before = await state(page);
        assert.ok(inside(await sceneBox()));
        await page.setViewportSize({ width: 760, height: 480 });
        await waitForState(page, "a smaller zoom", (s) => s.zoom < before.zoom - 0.3);
        assert.ok(inside(await sceneBox()), "the scene does not fit the smaller window");
        await page.setViewportSize({ width: 1600, height: 900 });
        await waitForState(page, "a larger zoom", (s) => s.zoom > before.zoom + 0.2);
        assert.ok(inside(await sceneBox()), "the scene does not fit the larger window");
        // Once the user has moved the camera, a resize keeps it where they put it.
        const map = (await boxOf(page, "#map"))!;
        await page.mouse.move(map.x + map.width / 4, map.y + map.height / 2);
        await page.mouse.down();
        await page.mouse.move(map.x + map.width / 4 + 120, map.y + map.height / 2 + 40, {
          steps: 6,
        });
        await page.mouse.up();
        const moved = await waitForState(page, "the user's camera", (s) => s.fitted === false);
        await page.setViewportSize({ width: WIDTH, height: HEIGHT });
        await page.waitForTimeout(400);
        assert.equal((await state(page)).zoom, moved.zoom);
        await page.click("#fit");
        await waitForState(page, "the fit", (s) => s.fitted === true);
        assert.ok(inside(await sceneBox()));
      });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
      await server.close();
      source.close();
    }
  },
]);

CHECKS.push(["the badge counts every agent the scenario will place", async (_t, browser) => {
  // The building lets its agents in over time: few are inside at the start.
  const source = await LiveFrameSource.start({
    scenario: "building",
    strategies: ["none"],
    agents: 40,
    paused: true,
  });
  const server = await serve(source);
  const { page } = await openPage(browser, server.url);
  try {
    assert.equal(await page.textContent("#mode"), "live · building · 40 agents");
    const s = await state(page);
    assert.ok(s.views[0].count < 40, `${s.views[0].count} agents placed at the start`);
  } finally {
    await page.close();
    await server.close();
    source.close();
  }
}]);

CHECKS.push(["each page plays at its own speed", async (_t, browser) => {
  const source = await LiveFrameSource.start({
    scenario: SCENARIO,
    strategies: ["none"],
    agents: 20,
  });
  const server = await serve(source);
  const a = await openPage(browser, server.url, 800, 500);
  const b = await openPage(browser, server.url, 800, 500);
  try {
    await a.page.selectOption("#speed", "4");
    await waitForState(a.page, "speed 4", (s) => s.views[0].timeFactor > 2.5, 10_000);
    const t0 = [(await state(a.page)).views[0].time, (await state(b.page)).views[0].time];
    await a.page.waitForTimeout(1500);
    const t1 = [(await state(a.page)).views[0].time, (await state(b.page)).views[0].time];
    const fast = t1[0] - t0[0], slow = t1[1] - t0[1];
    assert.equal(await b.page.inputValue("#speed"), "1");
    assert.equal(await a.page.inputValue("#speed"), "4");
    assert.ok(slow > 0.5 && fast > 2.5 * slow, `4x page ran ${fast} s, 1x page ${slow} s`);
  } finally {
    await a.page.close();
    await b.page.close();
    await server.close();
    source.close();
  }
}]);

CHECKS.push(["replay shows collisions and salsa like live runs", async (_t, browser) => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/run.bin`;
  const { spec, source: origin } = await resolveScenario(SCENARIO, { agents: AGENTS });
  const built = buildScenario(spec, {
    registry: strategies,
    strategy: { name: "raycast-cluster" },
    seed: SEED,
    source: origin,
  });
  const metrics = new MetricsCollector();
  const recorder = new TrajectoryRecorder({ path, scenario: SCENARIO });
  built.world.addObserver(metrics);
  built.world.addObserver(recorder);
  for (let k = 0; k < 400; k++) built.world.step();
  recorder.close();
  const live = metrics.result();
  const source = ReplayFrameSource.load([path]);
  const server = await serve(source);
  const { page } = await openPage(browser, server.url);
  try {
    const frames = source.recordings[0].data.frames, end = frames.at(-1)!.time;
    const seek = (time: number) =>
      page.$eval("#timeline", (e, t) => {
        (e as HTMLInputElement).value = String(t);
        e.dispatchEvent(new Event("input"));
      }, time);
    // Two jumps in quick succession, then nothing more (the replay is paused): the second frame
    // arrives between two panel refreshes, and the panel must still come to show it.
    const middle = frames[frames.length >> 1].time;
    await seek(middle);
    await waitForState(page, "the middle frame", (s) => Math.abs(s.views[0].time - middle) < 1e-6);
    await seek(end);
    await waitForState(page, "the last frame", (s) => Math.abs(s.views[0].time - end) < 1e-6);
    const measured = source.recordings[0].metrics;
    // The panels refresh five times a second: wait for the one after the jump (a busy machine may
    // take longer than a refresh or two), then read it.
    await page.waitForFunction(
      (want) => document.querySelector(".panel [data-metric=collisions]")?.textContent === want,
      String(measured.collisions.at(-1)),
      { timeout: 5_000 },
    ).catch(() => {}); // the assertion below names what the panel shows instead
    const cell = (metric: string) => page.textContent(`.panel [data-metric=${metric}]`);
    const collisions = Number(await cell("collisions")), salsa = Number(await cell("salsa"));
    assert.equal(collisions, measured.collisions.at(-1));
    assert.equal(salsa, measured.salsa.at(-1));
    // Counted on the recorded frames, as the live run counted them on its steps.
    assert.ok(live.collisions > 0 && live.salsa > 0, `${live.collisions}, ${live.salsa}`);
    assert.ok(Math.abs(collisions - live.collisions) <= 0.05 * live.collisions + 1);
    assert.ok(Math.abs(salsa - live.salsa) <= 0.25 * live.salsa + 2, `${salsa} vs ${live.salsa}`);
    assert.equal(await cell("ms"), "not recorded");
  } finally {
    await page.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}]);

CHECKS.push([
  "a city scene draws its buildings, streets, crossings and signals with a legend entry each",
  async (t, browser) => {
    // The built-in city: the shipped OpenStreetMap extract, a crowd walking between buildings.
    const source = await LiveFrameSource.start({
      scenario: "city",
      strategies: ["orca"],
      agents: CITY_AGENTS,
      seed: SEED,
    });
    const server = await serve(source);
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
    try {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(server.url);
      const city = ["buildings", "streets", "crossings", "signals"];
      const s = await waitForState(
        page,
        "the city's layers and the crowd",
        (s) =>
          s.framesReceived > 2 && s.views[0].count === CITY_AGENTS &&
          city.every((k) => s.drawnLayers.includes(`v0:${k}`)),
        CITY_TIMEOUT_MS,
      );
      await step(t, "the camera frames the crowd at zoom 19 or less", () => {
        assert.ok(s.fitted);
        assert.ok(s.zoom <= 19 && s.zoom > 12, `zoom ${s.zoom}`);
        // The navigation mesh is a switch, off at first.
        assert.equal(s.layers.navmesh, false);
        assert.ok(!s.drawnLayers.includes("v0:navmesh"));
      });
      await step(t, "every city layer has its legend entry and the attribution", async () => {
        const legend = (await page.textContent("#legend"))!;
        for (
          const entry of [/buildings \(\d+\)/, /roads/, /crossings \(\d+\)/, /traffic signals/]
        ) {
          assert.match(legend, entry);
        }
        assert.match((await page.textContent("#attribution"))!, /© OpenStreetMap contributors/);
      });
      await step(t, "offline, the buildings and streets alone show the city", async () => {
        await waitForState(page, "the tile note", (s) => s.tileNote === true);
        await page.evaluate(() => document.getElementById("tile-note")!.hidden = true);
        await pauseCity(page, true);
        await setLayer(page, "agents", false);
        await setLayer(page, "trails", false);
        const both = await screenshot(page, "city-layers.png");
        await setLayer(page, "buildings", false);
        const streets = await screenshot(page, "city-streets.png");
        await setLayer(page, "streets", false);
        await setLayer(page, "crossings", false);
        const bare = await screenshot(page, "city-bare.png");
        const share = (a: Pixels, b: Pixels) => {
          let differ = 0, total = 0;
          for (let y = 0; y < a.height; y += 4) {
            for (let x = 0; x < a.width; x += 4) {
              total++;
              if (!near(a.at(x, y), b.at(x, y), 6)) differ++;
            }
          }
          return differ / total;
        };
        const buildings = share(both, streets), streetsShare = share(streets, bare);
        assert.ok(
          buildings > 0.05,
          `buildings cover ${(100 * buildings).toFixed(1)} % of the page`,
        );
        assert.ok(streetsShare > 0.02, `streets cover ${(100 * streetsShare).toFixed(1)} %`);
        for (const key of ["buildings", "streets", "crossings", "agents", "trails"]) {
          await setLayer(page, key, true);
        }
      });
      await step(t, "the navigation mesh layer can be switched on", async () => {
        await pauseCity(page, true);
        const before = await screenshot(page, "city-no-mesh.png");
        await setLayer(page, "navmesh", true);
        await waitForState(page, "the mesh drawn", (s) => s.drawnLayers.includes("v0:navmesh"));
        await page.waitForTimeout(500);
        const after = await screenshot(page, "city-mesh.png");
        let differ = 0;
        for (let y = 0; y < after.height; y += 4) {
          for (let x = 0; x < after.width; x += 4) {
            if (!near(before.at(x, y), after.at(x, y), 6)) differ++;
          }
        }
        assert.ok(differ > 500, `the mesh changed ${differ} sampled pixels`);
        await setLayer(page, "navmesh", false);
      });
      await step(
        t,
        "the paths overlay shows an agent's route on the mesh, corner by corner",
        async () => {
          // Paused, the agents stay where the screen shows them while they are clicked, and the
          // page draws only when something changes.
          await pauseCity(page, true);
          await page.click("#layers-button");
          await page.check("#overlay-paths");
          await page.keyboard.press("Escape");
          const end = Date.now() + CITY_TIMEOUT_MS;
          let segments = 0;
          for (let k = 0; segments < 2 && Date.now() < end; k++) {
            const shown = await agentsOnScreen(page, 0);
            const target = shown[(k * 97) % shown.length];
            await clickMap(page, target.x, target.y);
            await page.waitForTimeout(1500);
            segments = (await state(page)).views[0].debugSegments;
          }
          assert.ok(segments >= 2, `the route has ${segments} segments`);
          // Back as it was, through the page (on a busy page the menu may sit under the
          // inspector).
          await page.evaluate(() => {
            const box = document.getElementById("overlay-paths") as HTMLInputElement;
            box.checked = false;
            box.dispatchEvent(new Event("change"));
            document.getElementById("inspector-close")?.click();
            document.getElementById("layer-menu")!.hidden = true;
          });
        },
      );
      await step(t, "the README's picture of the city", async () => {
        // A few seconds of walking, then paused.
        await pauseCity(page, false);
        await page.waitForTimeout(3000);
        await pauseCity(page, true);
        await page.evaluate(() => document.getElementById("tile-note")!.hidden = true);
        await page.waitForTimeout(600);
        await page.screenshot({ path: CITY_SCREENSHOT.pathname });
        assert.deepEqual(errors, []);
      });
    } finally {
      await page.close();
      await server.close();
      source.close();
    }
  },
]);

CHECKS.push([
  "a city walk's streets overlay draws the live street heat map with its legend",
  async (t, browser) => {
    const source = await LiveFrameSource.start({
      scenario: "city-walk",
      strategies: ["none"],
      agents: 300,
      seed: SEED,
    });
    const server = await serve(source);
    const { page, errors } = await openPage(browser, server.url);
    try {
      await step(t, "the overlay is offered, draws every street and shows its legend", async () => {
        await page.click("#layers-button");
        assert.ok(await page.isVisible("#overlay-streets"), "no streets overlay offered");
        await page.check("#overlay-streets");
        // One segment per piece of every walkable street, whatever the number of walkers.
        await waitForState(page, "street segments", (s) => s.views[0].debugSegments >= 50);
        assert.match(await page.textContent("#street-legend") ?? "", /street counts/);
        await page.keyboard.press("Escape");
        await screenshot(page, "live-street-counts.png");
        await page.click("#layers-button");
        await page.uncheck("#overlay-streets");
        await page.keyboard.press("Escape");
        assert.equal(await page.$("#street-legend"), null, "the legend stays without the overlay");
        assert.deepEqual(errors, []);
      });
    } finally {
      await page.close();
      await server.close();
      source.close();
    }
  },
]);

CHECKS.push([
  "a crosswalk scene draws its cars, traffic lights, walk signals and crosswalk stripes",
  async (t, browser) => {
    const cars = 30;
    const source = await LiveFrameSource.start({
      scenario: "crosswalk",
      strategies: ["orca"],
      agents: 40,
      cars,
      seed: SEED,
    });
    const server = await serve(source);
    const { page, errors } = await openPage(browser, server.url);
    const traffic = () => page.evaluate(() => (globalThis as ThrongHook).__throng.traffic(0));
    const project = (x: number, y: number) =>
      page.evaluate(([x, y]) => (globalThis as ThrongHook).__throng.project(0, x, y), [x, y]);
    try {
      const layers = ["v0:stripes", "v0:cars", "v0:lights-vehicle", "v0:lights-walk"];
      await waitForState(
        page,
        "the traffic layers",
        (s) => layers.every((id) => s.drawnLayers.includes(id)) && s.views[0].cars === cars,
      );
      // Until a car is in the picture (cars stop at the light, next to the crosswalk).
      const region = (await viewRegions(page, 1))[0];
      const end = Date.now() + 60_000;
      while (true) {
        const tr = await traffic();
        const inside = [];
        for (let k = 0; k < tr.cars; k++) {
          const p = await project(tr.centres[2 * k], tr.centres[2 * k + 1]);
          if (p.x > region.x + 250 && p.x < region.x + region.width - 40) inside.push(k);
        }
        if (inside.length > 0) break;
        if (Date.now() > end) throw new Error("no car came into the picture in 60 s");
        await page.waitForTimeout(250);
      }
      await setPaused(page, true);
      await page.evaluate(() => document.getElementById("tile-note")!.hidden = true);
      await setLayer(page, "agents", false);
      await setLayer(page, "trails", false);
      await page.waitForTimeout(300);
      const pixels = await screenshot(page, "crosswalk-traffic.png");
      const boxes = await overlayBoxes(page);
      const tr = await traffic();
      const visible = (p: { x: number; y: number }) =>
        p.x > region.x + 4 && p.x < region.x + region.width - 4 && p.y > region.y + 4 &&
        p.y < region.y + region.height - 4 && !covered(boxes, p.x, p.y, 4);
      await step(
        t,
        "cars are drawn as rectangles of their size where the simulation puts them",
        async () => {
          let checked = 0, matched = 0, outside = 0;
          for (let k = 0; k < tr.cars; k++) {
            const x = tr.centres[2 * k], y = tr.centres[2 * k + 1], h = tr.heading[k];
            const ux = Math.cos(h), uy = Math.sin(h);
            const want = tr.speed[k] < 0.3 ? TRAFFIC_COLORS.stoppedCar : TRAFFIC_COLORS.car;
            // Centre, near the front and near the rear: the car's colour; beyond its side: not.
            const inner = [0, 0.4, -0.4].map((
              f,
            ) => [x + ux * f * tr.length[k], y + uy * f * tr.length[k]]);
            const side = [x - uy * tr.width[k], y + ux * tr.width[k]];
            const points = await Promise.all([...inner, side].map(([px, py]) => project(px, py)));
            if (!points.every(visible)) continue;
            checked++;
            if (points.slice(0, 3).every((p) => near(pixels.at(p.x, p.y), want, 30))) matched++;
            if (!near(pixels.at(points[3].x, points[3].y), want, 30)) outside++;
          }
          assert.ok(checked >= 1, "no car on screen");
          assert.equal(matched, checked, `${matched} of ${checked} cars drawn in their colour`);
          assert.equal(outside, checked, `${outside} of ${checked} cars end at their sides`);
        },
      );
      await step(t, "traffic lights and walk signals show their current colour", async () => {
        // The page reports the states it draws, those of the latest traffic message.
        const shown = (await state(page)).views[0];
        assert.deepEqual(shown.signalStates, tr.signalStates);
        const heads: { position: [number, number]; kind: string }[] = await page.evaluate(
          () => (globalThis as ThrongHook).__throng.scene().traffic.signals,
        );
        assert.equal(heads.length, 4);
        let checked = 0;
        for (let i = 0; i < heads.length; i++) {
          const p = await project(heads[i].position[0], heads[i].position[1]);
          if (!visible(p)) continue;
          // A flashing walk signal blinks with the simulation's clock.
          const kind = heads[i].kind as "vehicle" | "walk";
          const want = signalHeadColor(kind, tr.signalStates[i], shown.time);
          assert.ok(
            near(pixels.at(p.x, p.y), want, 30),
            `${heads[i].kind} head ${i} (state ${tr.signalStates[i]}) drawn ${
              pixels.at(p.x, p.y)
            }, expected ${want}`,
          );
          checked++;
        }
        assert.ok(checked >= 3, `${checked} signal heads on screen`);
        // The crosswalk's stripes: white bars across the road.
        const stripes: [number, number][][] = await page.evaluate(
          () => (globalThis as ThrongHook).__throng.scene().traffic.stripes,
        );
        assert.equal(stripes.length, 7);
        let white = 0;
        for (const bar of stripes) {
          const cx = bar.reduce((s, q) => s + q[0], 0) / 4,
            cy = bar.reduce((s, q) => s + q[1], 0) / 4;
          const p = await project(cx, cy);
          if (visible(p) && near(pixels.at(p.x, p.y), TRAFFIC_COLORS.stripe, 30)) white++;
        }
        assert.ok(white >= 5, `${white} of 7 stripes drawn white`);
        const legend = (await page.textContent("#legend"))!;
        for (const entry of ["cars", "crosswalk stripes", "light red", "don't walk"]) {
          assert.ok(legend.includes(entry), `legend without '${entry}': ${legend}`);
        }
      });
      await step(
        t,
        "pedestrians are coloured by crossing state, one legend entry per state",
        async () => {
          await setLayer(page, "agents", true);
          await page.selectOption("#color-by", "crossing");
          await page.waitForTimeout(400);
          const legend = (await page.textContent("#legend"))!;
          for (const name of ["approach", "wait", "cross", "hasten", "jog", "turn-back"]) {
            assert.ok(legend.includes(name), `legend without '${name}'`);
          }
          const shot = await screenshot(page, "crosswalk-crossing-states.png");
          const states: number[] = (await state(page)).views[0].crossingStates;
          const agents = await agentsOnScreen(page, 0);
          assert.equal(states.length, agents.length);
          let checked = 0, matched = 0;
          agents.forEach((a, i) => {
            if (!visible(a)) return;
            // Alone within a body's width, so no neighbour is drawn over it.
            if (agents.some((b, j) => j !== i && Math.hypot(a.x - b.x, a.y - b.y) < 10)) return;
            checked++;
            if (near(shot.at(a.x, a.y), CROSSING_STATE_COLORS[states[i]], 40)) matched++;
          });
          assert.ok(checked >= 5, `${checked} agents checked`);
          assert.ok(matched >= 0.9 * checked, `${matched} of ${checked} in their state's colour`);
        },
      );
      await step(
        t,
        "a picked pedestrian shows the cars' predicted paths and its route",
        async () => {
          // Someone with a crosswalk ahead (approaching or waiting at it).
          const frame = await pageFrame(page, 0);
          const states: number[] = (await state(page)).views[0].crossingStates;
          const k = states.findIndex((s) => s === 0 || s === 1);
          assert.ok(k >= 0, `crossing states ${states}`);
          await page.evaluate(
            (id) => (globalThis as ThrongHook).__throng.select(0, id),
            frame.ids[k],
          );
          await page.click("#layers-button");
          assert.ok(await page.isVisible("#overlay-crossing"), "no crossing overlay offered");
          for (const key of ["sidewalks", "stripes", "cars", "lights"]) {
            assert.ok(await page.isVisible(`#layer-${key}`), `no '${key}' switch`);
          }
          await page.check("#overlay-crossing");
          await page.keyboard.press("Escape");
          // The route (at least to the kerb and across) and every car coming: 4 sides each.
          const s = await waitForState(
            page,
            "the crossing overlay",
            (s) => s.views[0].debugSegments >= 6,
          );
          assert.match(
            (await page.textContent("#crossing-legend")) ?? "",
            /cars that can reach it in time/,
          );
          await page.evaluate(() => document.getElementById("tile-note")!.hidden = true);
          await page.waitForTimeout(200);
          await page.screenshot({ path: CROSSWALK_SCREENSHOT.pathname });
          assert.ok(s.views[0].debugSegments >= 6);
          assert.deepEqual(errors, []);
        },
      );
    } finally {
      await page.close();
      await server.close();
      source.close();
    }
  },
]);

// One browser for every check: Chromium compiles deck.gl's shaders once for all its pages (on
// its software renderer that is most of a page's start). Playwright keeps reading its pipe to the
// browser, so the steps do not check for pending operations.
// THRONG_CHECK=<text> runs only the checks whose names contain the text.
Deno.test("the viewer page in headless Chromium", async (t) => {
  const only = Deno.env.get("THRONG_CHECK");
  const browser = await launchHeadlessChromium();
  try {
    for (const [name, check] of CHECKS) {
      if (only && !name.includes(only)) continue;
      await step(t, name, (s) => check(s, browser));
    }
  } finally {
    await browser.close();
  }
});

function _solid(width: number, height: number, rgb: [number, number, number]): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([rgb[0], rgb[1], rgb[2], 255], 4 * i);
  return data;
}

function _css(c: Rgb): string {
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

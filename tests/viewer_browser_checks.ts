/// <reference lib="dom" />
/**
 * Browser checks of the viewer page: headless Chromium (Debian's `chromium` package, installed by
 * `.ci/run`) driven by playwright-core, with Mesa's software WebGL. Screenshots are decoded and
 * the agents are looked for, pixel by pixel, where the simulation puts them. They need network,
 * a browser and the bundler, which the project's test task does not grant, so
 * tests/viewer_browser_test.ts runs this file in a `deno test` subprocess:
 *
 * ```sh
 * deno test --unstable-bundle --allow-read --allow-write --allow-net=127.0.0.1 --allow-env \
 *   --allow-sys --allow-run=/usr/bin/chromium tests/viewer_browser_checks.ts
 * ```
 *
 * Screenshots are kept in `out/screenshots/` (git-ignored).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchHeadlessChromium } from "../viewer/tools/headless_chromium.ts";
import { decode, encode } from "fast-png";
import { buildClientBundle } from "../viewer/client_bundle.ts";
import { VIEW_COLORS } from "../viewer/client/colors.ts";
import { LiveSimulation } from "../viewer/live_simulation.ts";
import { startViewerServer, type ViewerServer } from "../viewer/server.ts";
import { buildScenario } from "../scenarios/build.ts";
import { resolveScenario } from "../scenarios/resolve.ts";
import { strategies } from "../strategies/mod.ts";

const SCREENSHOTS = new URL("../out/screenshots/", import.meta.url);
const WIDTH = 1280, HEIGHT = 720;
/** The page's plain background (#20242c), shown where no tile loaded. */
const BACKGROUND = [0x20, 0x24, 0x2c] as const;
const SCENARIO = "crossing", AGENTS = 60, SEED = 1, NAMES = ["none", "orca"];

/** An RGBA screenshot. */
interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
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
    data,
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
      ".panel, #toolbar, #legend, #tile-note, #attribution, #inspector",
    )]
      .filter((e) => !(e as HTMLElement).hidden)
      .map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      })
  );
}

const covered = (boxes: Box[], x: number, y: number, margin: number) =>
  boxes.some((b) =>
    x >= b.x - margin && x <= b.x + b.width + margin && y >= b.y - margin &&
    y <= b.y + b.height + margin
  );

/** Screen positions of the agents of a view, with their ids. */
async function agentsOnScreen(
  page: Page,
  view: number,
): Promise<{ x: number; y: number; id: number }[]> {
  return await page.evaluate((v) => (globalThis as ThrongHook).__throng.screenPositions(v), view);
}

/** Share of the visible agents of `view` whose centre pixel has the view's colour. */
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

Deno.test("the live page draws each strategy's agents where the simulation puts them", async (t) => {
  const bundle = await buildClientBundle();
  const live = await LiveSimulation.start({
    scenario: SCENARIO,
    strategies: NAMES,
    agents: AGENTS,
    seed: SEED,
  });
  let server: ViewerServer | null = null;
  const browser = await launchHeadlessChromium();
  try {
    server = await startViewerServer({
      source: { kind: "live", live },
      bundle: bundle.code,
      port: 0,
    });
    live.resume();
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(server.url);
    await waitForState(page, "frames", (s) => s.framesReceived > 10 && s.renders > 2);
    await page.uncheck("#layer-trails");
    await page.uncheck("#layer-headings");
    const regions: Box[] = [0, 1].map((v) => ({
      x: (v * WIDTH) / 2,
      y: 37,
      width: WIDTH / 2,
      height: HEIGHT - 37,
    }));

    await t.step(
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

    await t.step(
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

    await t.step("agents are drawn at their simulated positions in their view's colour", () => {
      assert.equal(shotA.width, WIDTH);
      for (const v of [0, 1]) {
        const { checked, matched } = agentsDrawn(
          shotA,
          agentsA[v],
          regions[v],
          boxes,
          VIEW_COLORS[v],
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
    });

    await t.step("each side-by-side view shows its own strategy", async () => {
      assert.deepEqual(
        await page.$$eval(".panel .strategy-name", (e) => e.map((x) => x.textContent)),
        NAMES,
      );
      // No agent colour of one view appears on the other's map (the legend shows both).
      for (const v of [0, 1]) {
        const other = VIEW_COLORS[1 - v];
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

    await t.step("clicking an agent shows its state and its strategy's internals", async () => {
      const target = agentsA[1].find((a) =>
        !covered(boxes, a.x, a.y, 12) && a.x > regions[1].x + 20 && a.y < HEIGHT - 60
      )!;
      await page.mouse.click(target.x, target.y);
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
      // The paths overlay of the focused agent arrives as debug segments.
      await page.check("#overlay-paths");
      await waitForState(page, "debug segments", (s) => s.views[1].debugSegments >= 1);
      await page.uncheck("#overlay-paths");
      await page.click("#inspector-close");
    });

    await t.step("agents move between screenshots", async () => {
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
      for (let y = 37; y < HEIGHT; y += 2) {
        for (let x = 0; x < WIDTH; x += 2) if (!near(shotA.at(x, y), shotB.at(x, y), 20)) changed++;
      }
      assert.ok(changed > 500, `only ${changed} sampled pixels changed`);
      const boxesB = await overlayBoxes(page);
      for (const v of [0, 1]) {
        const { checked, matched } = agentsDrawn(
          shotB,
          agentsB[v],
          regions[v],
          boxesB,
          VIEW_COLORS[v],
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

    await t.step("restart with a new seed starts the runs of that seed", async () => {
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
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server?.close();
    live.close();
  }
});

Deno.test("a configured tile server shows as the basemap", async () => {
  const bundle = await buildClientBundle();
  const tile = encode({
    width: 256,
    height: 256,
    data: _solid(256, 256, [200, 60, 160]),
    channels: 4,
  });
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
  const live = await LiveSimulation.start({
    scenario: SCENARIO,
    strategies: ["none", "none"],
    agents: 30,
  });
  let server: ViewerServer | null = null;
  const browser = await launchHeadlessChromium();
  try {
    server = await startViewerServer({
      source: { kind: "live", live },
      bundle: bundle.code,
      port: 0,
      tiles: `http://127.0.0.1:${tiles.addr.port}/{z}/{x}/{y}.png`,
      attribution: "test tiles",
    });
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
    await page.goto(server.url);
    await waitForState(page, "tiles", (s) => s.tileLoads >= 2 && s.renders > 2);
    await page.waitForTimeout(500);
    const boxes = await overlayBoxes(page);
    const agents = [...await agentsOnScreen(page, 0), ...await agentsOnScreen(page, 1)];
    const shot = await screenshot(page, "tiles.png");
    const s = await state(page);
    assert.equal(s.tileNote, false);
    assert.equal(s.tileErrors, 0);
    assert.ok(requests >= 2);
    assert.equal(await page.textContent("#attribution"), "test tiles");
    const open = openSamples({ x: 0, y: 37, width: WIDTH, height: HEIGHT - 37 }, agents, boxes, 18);
    // The tile colour (200, 60, 160), slightly desaturated by the bitmap layer.
    const tinted = open.filter(([x, y]) => {
      const [r, g, b] = shot.at(x, y);
      return r > g + 60 && b > g + 40;
    }).length;
    assert.ok(
      tinted >= 0.9 * open.length,
      `${tinted} of ${open.length} open samples show the tiles`,
    );
  } finally {
    await browser.close();
    await server?.close();
    live.close();
    await tiles.shutdown();
  }
});

function _solid(width: number, height: number, rgb: [number, number, number]): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([rgb[0], rgb[1], rgb[2], 255], 4 * i);
  return data;
}

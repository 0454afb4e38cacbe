/// <reference lib="dom" />
/**
 * The viewer page: connects to the server, draws every view with deck.gl over the basemap and
 * keeps the panels, the inspector and the toolbar in step. Bundled for the browser by
 * `viewer/client_bundle.ts`.
 *
 * The page exposes `window.__throng` for tests and debugging: counters, the latest frame of each
 * view, screen positions of the agents, and a render benchmark.
 *
 * @module
 */
import { Deck, MapView, type MapViewState, WebMercatorViewport } from "@deck.gl/core";
import type { TileLayerProps } from "@deck.gl/geo-layers";
import type {
  AgentFrame,
  DebugSegments,
  HelloMessage,
  OverlayName,
  ServerMessage,
} from "../frame_protocol.ts";
import { FrameFlags } from "../frame_protocol.ts";
import {
  type ColorMode,
  fillAgentColors,
  fillCrossingColors,
  type Rgb,
  strategyColor,
} from "./colors.ts";
import type { TrafficFrame } from "../traffic_frame.ts";
import { ViewerConnection } from "./connection.ts";
import { DensityGrid } from "./density_grid.ts";
import { element } from "./dom.ts";
import { Inspector } from "./inspector.ts";
import { viewRects } from "./layout.ts";
import { buildViewLayers, type LayerSwitches, MAX_TILE_ZOOM, tileLayerProps } from "./layers.ts";
import { showLegend } from "./legend.ts";
import { showStreetCountLegend } from "./street_counts_legend.ts";
import { showCrossingLegend } from "./crossing_legend.ts";
import { MetricsPanels } from "./metrics_panels.ts";
import { Toolbar } from "./toolbar.ts";
import { TrailBuffer, type TrailPaths } from "./trail_buffer.ts";

/** Simulated seconds between two trail samples. */
const TRAIL_SAMPLE_S = 0.25;
/**
 * Above this many agents per view trails are not kept: eleven segments per agent, re-uploaded at
 * every sample, would dominate the page in software rendering.
 */
const TRAIL_MAX_AGENTS = 2_000;
/** Headings are drawn once a body radius of 0.25 m spans this many pixels. */
const HEADING_MIN_PIXELS = 4;
/** Seconds without any tile before the offline note shows. */
const TILE_TIMEOUT_S = 8;
/** Milliseconds between refreshes of the inspector and of the panels. */
const INSPECT_EVERY_MS = 500, PANELS_EVERY_MS = 200;

/** Per-view working state. */
interface ViewSlot {
  frame: AgentFrame | null;
  fresh: boolean;
  debug: DebugSegments | null;
  traffic: TrafficFrame | null;
  colors: Uint8Array;
  noses: Float32Array;
  trails: TrailBuffer;
  trailTime: number;
  trailPaths: TrailPaths | null;
  density: DensityGrid;
  color: Rgb;
  tiles: TileLayerProps<ImageBitmap | null>;
}

/** The page. */
class ViewerApp {
  hello: HelloMessage | null = null;
  readonly deck: Deck<MapView[]>;
  readonly connection: ViewerConnection;
  slots: ViewSlot[] = [];
  colorMode: ColorMode = "strategy";
  layers: LayerSwitches;
  overlays: OverlayName[] = [];
  selected: { view: number; id: number } | null = null;
  viewState = { longitude: 0, latitude: 0, zoom: 2, pitch: 0, bearing: 0, minZoom: 1, maxZoom: 24 };
  counters = { framesReceived: 0, bytesReceived: 0, renders: 0, tileLoads: 0, tileErrors: 0 };
  renderMs: number[] = [];
  renderTimes: number[] = [];
  #dirty = false;
  #lastPanels = 0;
  /** A frame arrived since the panels last showed their views' frames. */
  #panelsStale = false;
  #tileTimer: ReturnType<typeof setTimeout> | undefined;
  #renderStart = 0;
  /** The camera is where the last fit put it (the user has not moved it since). */
  #fitted = false;
  readonly panels = new MetricsPanels();
  readonly inspector: Inspector;
  readonly toolbar: Toolbar;

  constructor() {
    this.inspector = new Inspector(() => this.select(null));
    this.toolbar = new Toolbar({
      pause: (paused) => this.connection.send({ type: "pause", paused }),
      step: () => this.connection.send({ type: "step", delta: 1 }),
      speed: (speed) => this.connection.send({ type: "speed", speed }),
      seek: (time) => this.connection.send({ type: "seek", time }),
      restart: (seed) => this.connection.send({ type: "restart", seed }),
      colorBy: (mode) => {
        this.colorMode = mode;
        showLegend(mode, this.hello);
        this.#invalidate(true);
      },
      layers: (switches) => {
        this.layers = switches;
        for (const s of this.slots) {
          s.trails.clear();
          s.trailTime = -Infinity;
          s.trailPaths = null;
        }
        this.#invalidate(true);
      },
      overlays: (names) => {
        this.overlays = names;
        showStreetCountLegend(names.includes("streets"));
        showCrossingLegend(names.includes("crossing"));
        this.#sendOverlays();
        if (names.length === 0) { for (const s of this.slots) s.debug = null; }
        this.#invalidate(false);
      },
      fit: () => this.hello && this.#layout(true),
    });
    this.layers = { ...this.toolbar.layers };
    this.deck = new Deck<MapView[]>({
      parent: element("map"),
      views: [new MapView({ id: "v0", controller: true })],
      viewState: { v0: this.viewState },
      useDevicePixels: 1,
      layers: [],
      layerFilter: ({ layer, viewport }) => layer.id.startsWith(`${viewport.id}:`),
      onViewStateChange: ({ viewState }) => {
        const v = viewState as typeof this.viewState;
        this.viewState = { ...this.viewState, ...v };
        this.#fitted = false;
        this.deck.setProps({ viewState: this.#viewStates() });
        this.#invalidate(false);
      },
      onClick: (info) => {
        const layerId = info.layer?.id ?? "";
        const match = /^v(\d):agents$/.exec(layerId);
        const frame = match ? this.slots[Number(match[1])]?.frame : null;
        if (match && frame && info.index >= 0 && info.index < frame.count) {
          this.select({ view: Number(match[1]), id: frame.ids[info.index] });
        } else this.select(null);
      },
      getCursor: ({ isHovering, isDragging }) =>
        isDragging ? "grabbing" : isHovering ? "pointer" : "grab",
      onBeforeRender: () => this.#renderStart = performance.now(),
      onAfterRender: () => {
        const now = performance.now();
        this.counters.renders++;
        this.renderMs.push(now - this.#renderStart);
        this.renderTimes.push(now);
        if (this.renderTimes.length > 240) {
          this.renderTimes.splice(0, 120);
          this.renderMs.splice(0, 120);
        }
      },
    });
    this.connection = new ViewerConnection({
      onMessage: (m) => this.#message(m),
      onFrame: (frame, bytes) => this.#frame(frame, bytes),
      onDebug: (debug) => {
        const slot = this.slots[debug.view];
        if (slot) {
          slot.debug = this.overlays.length > 0 ? debug : null;
          this.#invalidate(false);
        }
      },
      onTraffic: (traffic) => {
        const slot = this.slots[traffic.view];
        if (slot) {
          slot.traffic = traffic;
          // Crossing states colour the agents of the frame they came with.
          if (this.colorMode === "crossing") slot.fresh = true;
          this.#invalidate(false);
        }
      },
      onConnected: (connected) => {
        if (!connected) element("mode").textContent = "disconnected: reconnecting…";
      },
    });
    setInterval(() => {
      if (this.selected) {
        this.connection.send({ type: "inspect", view: this.selected.view, id: this.selected.id });
      }
    }, INSPECT_EVERY_MS);
    // A resize (window, or the toolbar wrapping) frames the scene again unless the user has
    // moved the camera since it was last framed.
    new ResizeObserver(() => this.hello && this.#layout(this.#fitted)).observe(element("map"));
    const loop = () => {
      if (this.#dirty) this.#render();
      else if (this.#panelsStale && performance.now() - this.#lastPanels >= PANELS_EVERY_MS) {
        // The last frames came between two panel refreshes and nothing has been drawn since (a
        // paused replay after a seek): show their numbers now.
        this.#updatePanels(performance.now());
      }
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  /** Selects an agent (or none), asks for its state and focuses the debug overlays on it. */
  select(selection: { view: number; id: number } | null): void {
    this.selected = selection;
    if (selection) {
      this.connection.send({ type: "inspect", view: selection.view, id: selection.id });
    } else this.inspector.hide();
    this.#sendOverlays();
    this.#invalidate(false);
  }

  #sendOverlays(): void {
    this.connection.send({
      type: "overlays",
      names: this.overlays,
      focus: this.selected?.id ?? null,
    });
  }

  #message(message: ServerMessage): void {
    switch (message.type) {
      case "hello":
        this.#hello(message);
        break;
      case "status":
        this.toolbar.status(message);
        break;
      case "inspect":
        if (
          this.selected && message.view === this.selected.view && message.id === this.selected.id
        ) {
          this.inspector.show(
            message.id,
            this.hello?.views[message.view]?.label ?? "",
            message.state,
          );
          this.inspector.place(this.#selectedOnScreen());
        }
        break;
      case "error": {
        const box = element("error");
        box.textContent = message.message;
        box.hidden = false;
        setTimeout(() => box.hidden = true, 8000);
        break;
      }
    }
  }

  #hello(hello: HelloMessage): void {
    const first = this.hello === null || this.hello.scene.name !== hello.scene.name ||
      this.hello.views.length !== hello.views.length;
    const tilesChanged = this.hello?.tiles.url !== hello.tiles.url;
    this.hello = hello;
    this.slots = hello.views.map((_, view) => ({
      frame: null,
      fresh: false,
      debug: null,
      traffic: null,
      colors: new Uint8Array(0),
      noses: new Float32Array(0),
      trails: new TrailBuffer(12),
      trailTime: -Infinity,
      trailPaths: null,
      density: new DensityGrid(2),
      color: strategyColor(hello.views[view].strategy),
      tiles: tilesChanged || !this.slots[view]?.tiles
        ? tileLayerProps(view, hello.tiles.url, {
          onLoad: () => this.#tileLoaded(),
          onError: () => this.#tileFailed(),
        })
        : this.slots[view].tiles,
    }));
    const mapData = hello.scene.city?.attribution;
    element("attribution").textContent = mapData && !hello.tiles.attribution.includes(mapData)
      ? `${hello.tiles.attribution} · map data ${mapData}`
      : hello.tiles.attribution;
    this.toolbar.reset(hello);
    showLegend(this.colorMode, hello);
    this.#layout(first);
    this.#sendOverlays();
    if (tilesChanged) {
      clearTimeout(this.#tileTimer);
      this.#tileTimer = setTimeout(() => {
        if (this.counters.tileLoads === 0) element("tile-note").hidden = false;
      }, TILE_TIMEOUT_S * 1000);
    }
  }

  #tileLoaded(): void {
    this.counters.tileLoads++;
    element("tile-note").hidden = true;
  }

  #tileFailed(): void {
    this.counters.tileErrors++;
    if (this.counters.tileLoads === 0) element("tile-note").hidden = false;
  }

  /** Places the views (and, when `fit`, frames the scene's bounds in them). */
  #layout(fit: boolean): void {
    const hello = this.hello!;
    const rects = viewRects(hello.views.length);
    const map = element("map");
    const width = map.clientWidth || 800, height = map.clientHeight || 600;
    if (fit) {
      const b = hello.scene.bounds, anchor = hello.scene.anchor;
      const probe = new WebMercatorViewport({
        width: 512,
        height: 512,
        longitude: anchor.lon,
        latitude: anchor.lat,
        zoom: 16,
      });
      const sw = probe.addMetersToLngLat([anchor.lon, anchor.lat], [b.minX, b.minY]);
      const ne = probe.addMetersToLngLat([anchor.lon, anchor.lat], [b.maxX, b.maxY]);
      const fitted = new WebMercatorViewport({
        width: Math.max(64, width * rects[0].width),
        height: Math.max(64, height * rects[0].height),
      }).fitBounds([[sw[0], sw[1]], [ne[0], ne[1]]], {
        // Keep the scene clear of the metrics panel on the left when the view is wide enough.
        padding: { top: 24, bottom: 40, right: 24, left: width * rects[0].width > 560 ? 190 : 24 },
      });
      const extruded = hello.scene.polygonHeights.some((h) => h !== null) || !!hello.scene.city;
      this.viewState = {
        ...this.viewState,
        longitude: fitted.longitude,
        latitude: fitted.latitude,
        // A city starts no closer than the tiles' deepest zoom (19); closer, the tiles are scaled.
        zoom: Math.min(fitted.zoom, hello.scene.city ? MAX_TILE_ZOOM : 23),
        pitch: extruded ? (hello.scene.city ? 30 : 40) : 0,
        bearing: 0,
      };
      this.#fitted = true;
    }
    const views = rects.map((r, i) =>
      new MapView({
        id: `v${i}`,
        x: `${r.x * 100}%`,
        y: `${r.y * 100}%`,
        width: `${r.width * 100}%`,
        height: `${r.height * 100}%`,
        controller: true,
      })
    );
    this.deck.setProps({ views, viewState: this.#viewStates() });
    this.panels.reset(hello, rects);
    this.#panelsStale = true; // fresh panels are empty until they show a frame
    this.#invalidate(true);
  }

  /** Shows each view's latest frame in its panel. */
  #updatePanels(now: number): void {
    this.#lastPanels = now;
    this.#panelsStale = false;
    for (const slot of this.slots) if (slot.frame) this.panels.update(slot.frame);
  }

  #viewStates(): Record<string, MapViewState> {
    const states: Record<string, MapViewState> = {};
    (this.hello?.views ?? [{ index: 0 }]).forEach((_, i) => states[`v${i}`] = this.viewState);
    return states;
  }

  #frame(frame: AgentFrame, bytes: number): void {
    this.counters.framesReceived++;
    this.counters.bytesReceived += bytes;
    const slot = this.slots[frame.view];
    if (!slot) return;
    slot.frame = frame;
    slot.fresh = true;
    this.#panelsStale = true;
    this.#sampleTrails(slot, frame);
    if (frame.view === 0 && (frame.flags & FrameFlags.replay) !== 0) this.toolbar.time(frame.time);
    this.#invalidate(false);
  }

  #invalidate(recolor: boolean): void {
    if (recolor) { for (const s of this.slots) s.fresh = true; }
    this.#dirty = true;
  }

  /** Pixels per metre at the current zoom and latitude. */
  #pixelsPerMetre(): number {
    const lat = (this.viewState.latitude * Math.PI) / 180;
    return (512 * 2 ** this.viewState.zoom) / (40075016.686 * Math.cos(lat));
  }

  #render(): void {
    this.#dirty = false;
    const hello = this.hello;
    if (!hello) return;
    const on = this.layers;
    const headings = on.headings && this.#pixelsPerMetre() * 0.25 >= HEADING_MIN_PIXELS;
    const now = performance.now();
    if (now - this.#lastPanels >= PANELS_EVERY_MS) this.#updatePanels(now);
    const layers = this.slots.flatMap((slot, view) => {
      const frame = slot.frame;
      if (frame && slot.fresh) this.#prepare(slot, frame, headings);
      slot.fresh = false;
      return buildViewLayers({
        view,
        scene: hello.scene,
        frame,
        strategyColor: slot.color,
        colors: this.colorMode === "strategy" ? null : slot.colors,
        noses: headings ? slot.noses : null,
        trails: on.trails && frame && frame.count <= TRAIL_MAX_AGENTS
          ? (slot.trailPaths ??= slot.trails.paths())
          : null,
        density: on.density && frame ? slot.density.update(frame.positions, frame.count) : null,
        debug: slot.debug,
        traffic: slot.traffic,
        selected: this.#selectedIn(frame),
        tiles: slot.tiles,
        version: this.counters.framesReceived,
      }, on);
    });
    this.deck.setProps({ layers });
    if (this.selected) this.inspector.place(this.#selectedOnScreen());
  }

  /** Position (m) of the selected agent in `frame`, or null. */
  #selectedIn(frame: AgentFrame | null): [number, number] | null {
    if (!this.selected || !frame) return null;
    const i = frame.ids.indexOf(this.selected.id);
    return i >= 0 ? [frame.positions[2 * i], frame.positions[2 * i + 1]] : null;
  }

  /** Where the selected agent is on the page (CSS pixels), or null when it is not shown. */
  #selectedOnScreen(): { x: number; y: number } | null {
    if (!this.selected) return null;
    return this.screenPositions(this.selected.view).find((a) => a.id === this.selected!.id) ??
      null;
  }

  /** Per-frame derived arrays: colours, heading ticks, trail samples. */
  #prepare(slot: ViewSlot, frame: AgentFrame, headings: boolean): void {
    const n = frame.count;
    if (this.colorMode !== "strategy") {
      if (slot.colors.length < 4 * n) slot.colors = new Uint8Array(4 * Math.max(n, 1024));
      if (this.colorMode === "crossing") {
        const t = slot.traffic;
        // The states of the latest traffic message (it follows its agent frame).
        fillCrossingColors(n, t && t.states === n ? t.crossingState : null, slot.colors);
      } else fillAgentColors(this.colorMode, n, frame.velocities, frame.state, slot.colors);
    }
    if (headings) {
      if (slot.noses.length < 2 * n) slot.noses = new Float32Array(2 * Math.max(n, 1024));
      const p = frame.positions, v = frame.velocities, r = frame.radius, out = slot.noses;
      for (let i = 0, j = 0; i < n; i++, j += 2) {
        const speed = Math.sqrt(v[j] * v[j] + v[j + 1] * v[j + 1]);
        const k = speed > 1e-3 ? (1.6 * r[i]) / speed : 0;
        out[j] = p[j] + v[j] * k;
        out[j + 1] = p[j + 1] + v[j + 1] * k;
      }
    }
  }

  /** Samples the trails on arrival (not on render) so their length in time stays fixed. */
  #sampleTrails(slot: ViewSlot, frame: AgentFrame): void {
    if (!this.layers.trails || frame.count > TRAIL_MAX_AGENTS) return;
    if (frame.time < slot.trailTime || frame.time - slot.trailTime > 20 * TRAIL_SAMPLE_S) {
      slot.trails.clear(); // restart, seek back, or a jump
      slot.trailTime = -Infinity;
      slot.trailPaths = null;
    }
    if (frame.time - slot.trailTime >= TRAIL_SAMPLE_S - 1e-6) {
      slot.trails.add(frame.ids, frame.positions, frame.count);
      slot.trailTime = frame.time;
      slot.trailPaths = null; // rebuilt (and re-tessellated) once per sample, not per render
    }
  }

  /** Where the point (`x`, `y`) (m) of `view` is on the page (CSS pixels), or null. */
  project(view: number, x: number, y: number): { x: number; y: number } | null {
    const viewport = this.deck.getViewports().find((v) => v.id === `v${view}`) as
      | WebMercatorViewport
      | undefined;
    if (!viewport || !this.hello) return null;
    const rect = (this.deck.getCanvas() ?? element("map")).getBoundingClientRect();
    const anchor = this.hello.scene.anchor;
    const [px, py] = viewport.project(viewport.addMetersToLngLat([anchor.lon, anchor.lat], [x, y]));
    return { x: rect.left + viewport.x + px, y: rect.top + viewport.y + py };
  }

  /** Screen positions (CSS pixels, page coordinates) of the agents of `view`'s latest frame. */
  screenPositions(view: number): { x: number; y: number; id: number }[] {
    const frame = this.slots[view]?.frame;
    const viewport = this.deck.getViewports().find((v) => v.id === `v${view}`) as
      | WebMercatorViewport
      | undefined;
    if (!frame || !viewport || !this.hello) return [];
    const rect = (this.deck.getCanvas() ?? element("map")).getBoundingClientRect();
    const anchor = this.hello.scene.anchor;
    const out: { x: number; y: number; id: number }[] = [];
    for (let i = 0; i < frame.count; i++) {
      const lngLat = viewport.addMetersToLngLat([anchor.lon, anchor.lat], [
        frame.positions[2 * i],
        frame.positions[2 * i + 1],
      ]);
      const [px, py] = viewport.project(lngLat);
      out.push({ x: rect.left + viewport.x + px, y: rect.top + viewport.y + py, id: frame.ids[i] });
    }
    return out;
  }

  /** Redraws `frames` times back to back and returns the mean frames per second. */
  async benchmark(frames: number): Promise<{ fps: number; meanRenderMs: number }> {
    const startRenders = this.counters.renders;
    const t0 = performance.now();
    for (let k = 0; k < frames; k++) {
      this.deck.redraw("benchmark");
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    const elapsed = performance.now() - t0;
    const done = this.counters.renders - startRenders;
    const ms = this.renderMs.slice(-Math.max(1, done));
    return {
      fps: (1000 * done) / elapsed,
      meanRenderMs: ms.reduce((a, b) => a + b, 0) / ms.length,
    };
  }

  /** Counters and the latest frame of each view, for tests. */
  state(): Record<string, unknown> {
    const t = this.renderTimes;
    const recent = t.filter((x) => t[t.length - 1] - x <= 2000);
    return {
      ...this.counters,
      fps: recent.length > 1
        ? (1000 * (recent.length - 1)) / (recent[recent.length - 1] - recent[0])
        : 0,
      tileNote: !element("tile-note").hidden,
      selected: this.selected,
      inspector: !element("inspector").hidden,
      mode: this.hello?.mode ?? null,
      views: this.slots.map((s, i) => ({
        strategy: this.hello?.views[i]?.strategy ?? null,
        step: s.frame?.step ?? -1,
        time: s.frame?.time ?? 0,
        count: s.frame?.count ?? 0,
        paused: s.frame ? (s.frame.flags & FrameFlags.paused) !== 0 : null,
        debugSegments: s.debug?.count ?? 0,
        cars: s.traffic?.cars ?? 0,
        signalStates: s.traffic ? [...s.traffic.signalState] : [],
        crossingStates: s.traffic ? [...s.traffic.crossingState] : [],
        msPerStep: s.frame?.msPerStep ?? NaN,
        timeFactor: s.frame?.timeFactor ?? NaN,
        collisions: s.frame?.collisions ?? NaN,
        salsa: s.frame?.salsa ?? NaN,
      })),
      layers: { ...this.layers },
      fitted: this.#fitted,
      zoom: this.viewState.zoom,
      drawnLayers: ((this.deck.props.layers ?? []) as { id: string }[]).map((l) => l.id),
    };
  }

  /**
   * Where the scene's bounds and view `view` are on the page (CSS pixels): the box of the bounds'
   * corners, and the view's rectangle.
   */
  sceneBox(view: number): { scene: _Box; view: _Box } | null {
    const viewport = this.deck.getViewports().find((v) => v.id === `v${view}`) as
      | WebMercatorViewport
      | undefined;
    if (!viewport || !this.hello) return null;
    const rect = (this.deck.getCanvas() ?? element("map")).getBoundingClientRect();
    const { anchor, bounds: b } = this.hello.scene;
    const corners = [[b.minX, b.minY], [b.maxX, b.minY], [b.minX, b.maxY], [b.maxX, b.maxY]]
      .map((m) => viewport.project(viewport.addMetersToLngLat([anchor.lon, anchor.lat], m)));
    const xs = corners.map((c) => rect.left + viewport.x + c[0]);
    const ys = corners.map((c) => rect.top + viewport.y + c[1]);
    return {
      scene: {
        left: Math.min(...xs),
        top: Math.min(...ys),
        right: Math.max(...xs),
        bottom: Math.max(...ys),
      },
      view: {
        left: rect.left + viewport.x,
        top: rect.top + viewport.y,
        right: rect.left + viewport.x + viewport.width,
        bottom: rect.top + viewport.y + viewport.height,
      },
    };
  }
}

/** A rectangle on the page (CSS pixels). */
interface _Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const app = new ViewerApp();
(globalThis as unknown as { __throng: unknown }).__throng = {
  state: () => app.state(),
  screenPositions: (view: number) => app.screenPositions(view),
  frame: (view: number) => {
    const f = app.slots[view]?.frame;
    return f
      ? { step: f.step, time: f.time, count: f.count, positions: [...f.positions], ids: [...f.ids] }
      : null;
  },
  benchmark: (frames: number) => app.benchmark(frames),
  select: (view: number, id: number) => app.select({ view, id }),
  sceneBox: (view: number) => app.sceneBox(view),
  project: (view: number, x: number, y: number) => app.project(view, x, y),
  scene: () => app.hello?.scene ?? null,
  traffic: (view: number) => {
    const t = app.slots[view]?.traffic;
    return t
      ? {
        step: t.step,
        cars: t.cars,
        centres: [...t.centres],
        heading: [...t.heading],
        length: [...t.length],
        width: [...t.width],
        speed: [...t.speed],
        signalStates: [...t.signalState],
      }
      : null;
  },
};

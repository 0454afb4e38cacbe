/// <reference lib="dom" />
/**
 * The deck.gl layers of one side-by-side view, as a list of layer kinds
 * ({@linkcode VIEW_LAYER_KINDS}): basemap tiles, obstacles and walls, density, trails, agents,
 * headings, debug overlays and the selected agent, bottom to top. Each kind names itself (its key
 * is its switch in the page's layer menu and the end of its layer ids), says whether it starts
 * on, and builds its layers from the view's {@linkcode ViewLayerContext}. A new kind of layer
 * (buildings, streets, crossings, cars, heat maps) is one more entry.
 *
 * Layers are made anew at every render, as deck.gl expects: deck.gl matches them to the previous
 * ones by id and keeps their state. Everything is drawn in metre offsets around the scene's
 * anchor (`COORDINATE_SYSTEM.METER_OFFSETS`), and per-agent data goes in as binary attributes
 * (`data: {length, attributes}`). Layer ids start with `v<view>:` so each view draws only its own.
 *
 * @module
 */
import { COORDINATE_SYSTEM, type Layer } from "@deck.gl/core";
import {
  BitmapLayer,
  GridCellLayer,
  LineLayer,
  PathLayer,
  ScatterplotLayer,
  SolidPolygonLayer,
} from "@deck.gl/layers";
import { TileLayer, type TileLayerProps } from "@deck.gl/geo-layers";
import type { AgentFrame, DebugSegments, SceneInfo } from "../frame_protocol.ts";
import type { Rgb } from "./colors.ts";
import type { DensityCells } from "./density_grid.ts";
import type { TrailPaths } from "./trail_buffer.ts";
import { CITY_LAYER_KINDS } from "./city_layers.ts";
import { SIDEWALK_LAYER_KIND, TRAFFIC_LAYER_KINDS } from "./traffic_layers.ts";
import type { TrafficFrame } from "../traffic_frame.ts";

/** Everything one view's layers are made from, at one render. */
export interface ViewLayerContext {
  /** View index. */
  view: number;
  /** The scene. */
  scene: SceneInfo;
  /** Latest agent frame, or null before the first. */
  frame: AgentFrame | null;
  /** Colour of the view's strategy. */
  strategyColor: Rgb;
  /** Per-agent RGBA, or null to use the strategy's colour. */
  colors: Uint8Array | null;
  /** Heading tick end points (interleaved, m), or null when headings are not drawn. */
  noses: Float32Array | null;
  /** Trails, or null when not drawn. */
  trails: TrailPaths | null;
  /** Density cells, or null when not drawn. */
  density: DensityCells | null;
  /** Debug segments, or null when none. */
  debug: DebugSegments | null;
  /** Latest traffic message (cars, signal states), or null (scenes without cars). */
  traffic: TrafficFrame | null;
  /** Position of the selected agent in this view (m), or null. */
  selected: [number, number] | null;
  /** The view's basemap settings (one object per view, kept across renders). */
  tiles: TileLayerProps<ImageBitmap | null>;
  /** Frames seen so far (update trigger of the colours). */
  version: number;
}

/** One kind of layer of every view. */
export interface ViewLayerKind {
  /** Key of the kind: its switch in the layer menu, and the end of its layer ids. */
  key: string;
  /** Label in the layer menu; null for kinds that are always drawn. */
  label: string | null;
  /** Drawn when the page opens. */
  on: boolean;
  /** The kind's layers for one view, bottom to top (empty when there is nothing to draw). */
  build(context: ViewLayerContext): Layer[];
}

/** Deepest zoom the basemap's tile servers serve; closer views scale these tiles up. */
export const MAX_TILE_ZOOM = 19;

/** Handlers of the basemap's tile loads. */
export interface TileEvents {
  /** A tile loaded. */
  onLoad(): void;
  /** A tile failed to load. */
  onError(error: unknown): void;
}

/**
 * The basemap settings of view `view`: an XYZ tile template whose tiles are fetched with
 * `fetch` (CORS) and drawn as bitmaps; failures are reported to `events` (the page then shows
 * its offline note). Make it once per view and keep it: deck.gl compares the props of successive
 * layers, and new functions would make it rebuild every tile's layer.
 */
export function tileLayerProps(
  view: number,
  url: string,
  events: TileEvents,
): TileLayerProps<ImageBitmap | null> {
  return {
    id: `v${view}:tiles`,
    data: url,
    minZoom: 0,
    maxZoom: MAX_TILE_ZOOM,
    tileSize: 256,
    maxRequests: 6,
    getTileData: _fetchTile,
    onTileLoad: () => events.onLoad(),
    onTileError: (error: unknown) => events.onError(error),
    renderSubLayers: _tileBitmap,
  };
}

/** Which kinds are on, by key. */
export type LayerSwitches = Record<string, boolean>;

/** The layer kinds of a view, bottom to top. */
export const VIEW_LAYER_KINDS: readonly ViewLayerKind[] = [
  { key: "tiles", label: "map tiles", on: true, build: (c) => [new TileLayer(c.tiles)] },
  SIDEWALK_LAYER_KIND,
  ...CITY_LAYER_KINDS,
  { key: "obstacles", label: "obstacles", on: true, build: _obstacleLayers },
  ...TRAFFIC_LAYER_KINDS,
  { key: "density", label: "density", on: false, build: _densityLayers },
  { key: "trails", label: "trails", on: true, build: _trailLayers },
  { key: "agents", label: "agents", on: true, build: _agentLayers },
  { key: "headings", label: "headings", on: true, build: _headingLayers },
  { key: "debug", label: null, on: true, build: _debugLayers },
  { key: "selected", label: null, on: true, build: _selectedLayers },
];

/** The switches of {@linkcode VIEW_LAYER_KINDS} as the page opens. */
export function initialLayerSwitches(): LayerSwitches {
  return Object.fromEntries(VIEW_LAYER_KINDS.map((kind) => [kind.key, kind.on]));
}

/** The layers of one view, bottom to top: every kind that is switched on (or always drawn). */
export function buildViewLayers(context: ViewLayerContext, switches: LayerSwitches): Layer[] {
  return VIEW_LAYER_KINDS.flatMap((kind) =>
    kind.label === null || switches[kind.key] ? kind.build(context) : []
  );
}

/** Layer props placing a view's metre coordinates around the scene's anchor. */
function _geo(c: ViewLayerContext) {
  return {
    coordinateSystem: COORDINATE_SYSTEM.METER_OFFSETS,
    coordinateOrigin: [c.scene.anchor.lon, c.scene.anchor.lat, 0] as [number, number, number],
  };
}

function _id(c: ViewLayerContext, name: string): string {
  return `v${c.view}:${name}`;
}

function _obstacleLayers(c: ViewLayerContext): Layer[] {
  const extruded = c.scene.polygonHeights.some((h) => h !== null);
  return [
    new SolidPolygonLayer<{ points: [number, number][]; height: number | null }>({
      id: _id(c, "obstacles"),
      ..._geo(c),
      data: _polygonData(c.scene),
      getPolygon: (d) => d.points,
      getElevation: (d) => d.height ?? 0,
      extruded,
      getFillColor: [120, 126, 140, 235],
    }),
    new PathLayer<[number, number][]>({
      id: _id(c, "walls"),
      ..._geo(c),
      data: c.scene.walls,
      getPath: (d) => d,
      getWidth: 0.15,
      widthUnits: "meters",
      widthMinPixels: 1.5,
      getColor: [205, 210, 220, 255],
    }),
  ];
}

function _densityLayers(c: ViewLayerContext): Layer[] {
  const d = c.density;
  if (!d || d.count === 0) return [];
  return [
    new GridCellLayer({
      id: _id(c, "density"),
      ..._geo(c),
      data: {
        length: d.count,
        attributes: {
          getPosition: { value: d.positions.subarray(0, 2 * d.count), size: 2 },
          getFillColor: { value: d.colors.subarray(0, 4 * d.count), size: 4, normalized: true },
        },
      },
      cellSize: d.cellSize,
      extruded: false,
      updateTriggers: { getFillColor: c.version },
    }),
  ];
}

function _trailLayers(c: ViewLayerContext): Layer[] {
  const t = c.trails;
  if (!t || t.length === 0) return [];
  return [
    new LineLayer({
      id: _id(c, "trails"),
      ..._geo(c),
      data: {
        length: t.length,
        attributes: {
          getSourcePosition: { value: t.segments, size: 2, stride: 16, offset: 0 },
          getTargetPosition: { value: t.segments, size: 2, stride: 16, offset: 8 },
        },
      },
      getColor: [...c.strategyColor, 110] as [number, number, number, number],
      getWidth: 1.5,
      widthUnits: "pixels",
    }),
  ];
}

function _agentLayers(c: ViewLayerContext): Layer[] {
  const frame = c.frame;
  if (!frame || frame.count === 0) return [];
  const n = frame.count;
  const attributes: Record<
    string,
    { value: Float32Array | Uint8Array; size: number; normalized?: boolean }
  > = {
    getPosition: { value: frame.positions, size: 2 },
    getRadius: { value: frame.radius, size: 1 },
  };
  if (c.colors) {
    attributes.getFillColor = { value: c.colors.subarray(0, 4 * n), size: 4, normalized: true };
  }
  return [
    new ScatterplotLayer({
      id: _id(c, "agents"),
      ..._geo(c),
      data: { length: n, attributes },
      getFillColor: [...c.strategyColor, 255] as [number, number, number, number],
      radiusUnits: "meters",
      // To scale; on a city, at least a readable dot when the whole crowd is in view.
      radiusMinPixels: c.scene.city ? 2.5 : 1.5,
      stroked: true,
      getLineColor: [10, 12, 16, 180],
      lineWidthUnits: "meters",
      getLineWidth: 0.03,
      lineWidthMaxPixels: 1,
      pickable: true,
      updateTriggers: { getFillColor: c.colors ? c.version : -1 },
    }),
  ];
}

function _headingLayers(c: ViewLayerContext): Layer[] {
  const frame = c.frame;
  if (!frame || frame.count === 0 || !c.noses) return [];
  const n = frame.count;
  return [
    new LineLayer({
      id: _id(c, "headings"),
      ..._geo(c),
      data: {
        length: n,
        attributes: {
          getSourcePosition: { value: frame.positions, size: 2 },
          getTargetPosition: { value: c.noses.subarray(0, 2 * n), size: 2 },
        },
      },
      getColor: [15, 17, 22, 230],
      getWidth: 2,
      widthUnits: "pixels",
    }),
  ];
}

function _debugLayers(c: ViewLayerContext): Layer[] {
  const d = c.debug;
  if (!d || d.count === 0) return [];
  return [
    new LineLayer({
      id: _id(c, "debug"),
      ..._geo(c),
      data: {
        length: d.count,
        attributes: {
          getSourcePosition: { value: d.segments, size: 2, stride: 16, offset: 0 },
          getTargetPosition: { value: d.segments, size: 2, stride: 16, offset: 8 },
          getColor: { value: d.colors, size: 4, normalized: true },
        },
      },
      getWidth: 1.5,
      widthUnits: "pixels",
    }),
  ];
}

function _selectedLayers(c: ViewLayerContext): Layer[] {
  if (!c.selected) return [];
  return [
    new ScatterplotLayer<[number, number]>({
      id: _id(c, "selected"),
      ..._geo(c),
      data: [c.selected],
      getPosition: (d) => d,
      getRadius: 0.6,
      radiusUnits: "meters",
      radiusMinPixels: 7,
      filled: false,
      stroked: true,
      getLineColor: [255, 255, 255, 255],
      lineWidthUnits: "pixels",
      getLineWidth: 2,
    }),
  ];
}

async function _fetchTile(
  props: { url?: string | null; signal?: AbortSignal },
): Promise<ImageBitmap | null> {
  if (!props.url) return null;
  const response = await fetch(props.url, { signal: props.signal, mode: "cors" });
  if (!response.ok) throw new Error(`tile ${props.url}: HTTP ${response.status}`);
  return await createImageBitmap(await response.blob());
}

function _tileBitmap(
  props: { id: string; data: ImageBitmap | null; tile: { boundingBox: number[][] } },
): Layer | null {
  if (!props.data) return null;
  const [min, max] = props.tile.boundingBox;
  return new BitmapLayer({
    id: `${props.id}-bitmap`,
    image: props.data,
    bounds: [min[0], min[1], max[0], max[1]],
    desaturate: 0.2,
  });
}

const _polygonCache = new WeakMap<
  SceneInfo,
  { points: [number, number][]; height: number | null }[]
>();

function _polygonData(scene: SceneInfo): { points: [number, number][]; height: number | null }[] {
  let data = _polygonCache.get(scene);
  if (!data) {
    data = scene.polygons.map((points, i) => ({ points, height: scene.polygonHeights[i] ?? null }));
    _polygonCache.set(scene, data);
  }
  return data;
}

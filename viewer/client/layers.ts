/// <reference lib="dom" />
/**
 * The deck.gl layers of one side-by-side view: basemap tiles, obstacles and walls, density,
 * trails, agents with headings, debug overlays and the selected agent. Everything is drawn in
 * metre offsets around the scene's anchor (`COORDINATE_SYSTEM.METER_OFFSETS`), and per-agent
 * data goes in as binary attributes (`data: {length, attributes}`, a new wrapper per frame).
 * Layer ids start with `v<view>:` so each view draws only its own.
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
import { TileLayer } from "@deck.gl/geo-layers";
import type { AgentFrame, DebugSegments, SceneInfo } from "../frame_protocol.ts";
import type { DensityCells } from "./density_grid.ts";
import type { TrailPaths } from "./trail_buffer.ts";
import { VIEW_COLORS } from "./colors.ts";

/** Which layers are on. */
export interface LayerToggles {
  /** Basemap tiles. */
  tiles: boolean;
  /** Obstacles and walls. */
  obstacles: boolean;
  /** Density heat map. */
  density: boolean;
  /** Recent paths. */
  trails: boolean;
  /** Heading ticks (only drawn when zoomed in far enough). */
  headings: boolean;
}

/** Everything one view's layers are made from. */
export interface ViewLayerInputs {
  /** View index. */
  view: number;
  /** The scene. */
  scene: SceneInfo;
  /** Latest agent frame, or null before the first. */
  frame: AgentFrame | null;
  /** Per-agent RGBA, or null to use the view's strategy colour. */
  colors: Uint8Array | null;
  /** Heading tick end points (interleaved, m), or null when headings are hidden. */
  noses: Float32Array | null;
  /** Trails, or null when off. */
  trails: TrailPaths | null;
  /** Density cells, or null when off. */
  density: DensityCells | null;
  /** Debug segments, or null when none. */
  debug: DebugSegments | null;
  /** Position of the selected agent in this view (m), or null. */
  selected: [number, number] | null;
  /** Layer switches. */
  toggles: LayerToggles;
  /** Basemap layer (shared settings), or null when off. */
  tiles: TileLayer | null;
  /** Frames seen so far (update trigger of the colours). */
  version: number;
}

/** Handlers of the basemap's tile loads. */
export interface TileEvents {
  /** A tile loaded. */
  onLoad(): void;
  /** A tile failed to load. */
  onError(error: unknown): void;
}

/**
 * Creates the basemap layer of view `view`: an XYZ TileLayer whose tiles are fetched with
 * `fetch` (CORS) and drawn as bitmaps. Failures are reported to `events` (the page then shows
 * its offline note).
 */
export function createTileLayer(view: number, url: string, events: TileEvents): TileLayer {
  return new TileLayer<ImageBitmap | null>({
    id: `v${view}:tiles`,
    data: url,
    minZoom: 0,
    maxZoom: 19,
    tileSize: 256,
    maxRequests: 6,
    getTileData: _fetchTile,
    onTileLoad: () => events.onLoad(),
    onTileError: (error: unknown) => events.onError(error),
    renderSubLayers: (props) => {
      const tile = props.tile;
      if (!props.data) return null;
      const [min, max] = tile.boundingBox;
      return new BitmapLayer({
        id: `${props.id}-bitmap`,
        image: props.data,
        bounds: [min[0], min[1], max[0], max[1]],
        desaturate: 0.2,
      });
    },
  });
}

async function _fetchTile(
  props: { url?: string | null; signal?: AbortSignal },
): Promise<ImageBitmap | null> {
  if (!props.url) return null;
  const response = await fetch(props.url, { signal: props.signal, mode: "cors" });
  if (!response.ok) throw new Error(`tile ${props.url}: HTTP ${response.status}`);
  return await createImageBitmap(await response.blob());
}

/** The layers of one view, bottom to top. */
export function buildViewLayers(input: ViewLayerInputs): Layer[] {
  const { view, scene, frame, toggles } = input;
  const id = (name: string) => `v${view}:${name}`;
  const geo = {
    coordinateSystem: COORDINATE_SYSTEM.METER_OFFSETS,
    coordinateOrigin: [scene.anchor.lon, scene.anchor.lat, 0] as [number, number, number],
  };
  const layers: Layer[] = [];
  if (toggles.tiles && input.tiles) layers.push(input.tiles);
  if (toggles.obstacles) {
    const extruded = scene.polygonHeights.some((h) => h !== null);
    layers.push(
      new SolidPolygonLayer<{ points: [number, number][]; height: number | null }>({
        id: id("obstacles"),
        ...geo,
        data: _polygonData(scene),
        getPolygon: (d) => d.points,
        getElevation: (d) => d.height ?? 0,
        extruded,
        getFillColor: [120, 126, 140, 235],
      }),
      new PathLayer<[number, number][]>({
        id: id("walls"),
        ...geo,
        data: scene.walls,
        getPath: (d) => d,
        getWidth: 0.15,
        widthUnits: "meters",
        widthMinPixels: 1.5,
        getColor: [205, 210, 220, 255],
      }),
    );
  }
  if (toggles.density && input.density && input.density.count > 0) {
    const d = input.density;
    layers.push(
      new GridCellLayer({
        id: id("density"),
        ...geo,
        data: {
          length: d.count,
          attributes: {
            getPosition: { value: d.positions.subarray(0, 2 * d.count), size: 2 },
            getFillColor: { value: d.colors.subarray(0, 4 * d.count), size: 4, normalized: true },
          },
        },
        cellSize: d.cellSize,
        extruded: false,
        updateTriggers: { getFillColor: input.version },
      }),
    );
  }
  if (toggles.trails && input.trails && input.trails.length > 0) {
    const t = input.trails;
    layers.push(
      new LineLayer({
        id: id("trails"),
        ...geo,
        data: {
          length: t.length,
          attributes: {
            getSourcePosition: { value: t.segments, size: 2, stride: 16, offset: 0 },
            getTargetPosition: { value: t.segments, size: 2, stride: 16, offset: 8 },
          },
        },
        getColor: [...VIEW_COLORS[view], 110] as [number, number, number, number],
        getWidth: 1.5,
        widthUnits: "pixels",
      }),
    );
  }
  if (frame && frame.count > 0) {
    const n = frame.count;
    const attributes: Record<
      string,
      { value: Float32Array | Uint8Array; size: number; normalized?: boolean }
    > = {
      getPosition: { value: frame.positions, size: 2 },
      getRadius: { value: frame.radius, size: 1 },
    };
    if (input.colors) {
      attributes.getFillColor = {
        value: input.colors.subarray(0, 4 * n),
        size: 4,
        normalized: true,
      };
    }
    layers.push(
      new ScatterplotLayer({
        id: id("agents"),
        ...geo,
        data: { length: n, attributes },
        getFillColor: [...VIEW_COLORS[view], 255] as [number, number, number, number],
        radiusUnits: "meters",
        radiusMinPixels: 1.5,
        stroked: true,
        getLineColor: [10, 12, 16, 180],
        lineWidthUnits: "meters",
        getLineWidth: 0.03,
        lineWidthMaxPixels: 1,
        pickable: true,
        updateTriggers: { getFillColor: input.colors ? input.version : -1 },
      }),
    );
    if (toggles.headings && input.noses) {
      layers.push(
        new LineLayer({
          id: id("headings"),
          ...geo,
          data: {
            length: n,
            attributes: {
              getSourcePosition: { value: frame.positions, size: 2 },
              getTargetPosition: { value: input.noses.subarray(0, 2 * n), size: 2 },
            },
          },
          getColor: [15, 17, 22, 230],
          getWidth: 2,
          widthUnits: "pixels",
        }),
      );
    }
  }
  if (input.debug && input.debug.count > 0) {
    const d = input.debug;
    layers.push(
      new LineLayer({
        id: id("debug"),
        ...geo,
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
    );
  }
  if (input.selected) {
    layers.push(
      new ScatterplotLayer<[number, number]>({
        id: id("selected"),
        ...geo,
        data: [input.selected],
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
    );
  }
  return layers;
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

/// <reference lib="dom" />
/**
 * The layers of a city under the crowd (scenes on a map): the navigation mesh (off at first),
 * streets by kind, crossings, traffic signals and buildings extruded by their height, each its
 * own switch in the layer menu and its own legend entry. Scenes without a city draw none of
 * them. Without basemap tiles the buildings and streets alone show where the crowd walks.
 *
 * @module
 */
import { COORDINATE_SYSTEM, type Layer } from "@deck.gl/core";
import { LineLayer, PathLayer, ScatterplotLayer, SolidPolygonLayer } from "@deck.gl/layers";
import type { CitySceneLayers, StreetKind } from "../frame_protocol.ts";
import type { Rgb } from "./colors.ts";
import type { ViewLayerContext, ViewLayerKind } from "./layers.ts";

/** Colours of the city layers, for the layers and the legend. */
export const CITY_COLORS = {
  building: [176, 170, 160] as Rgb,
  road: [88, 92, 102] as Rgb,
  footway: [214, 204, 176] as Rgb,
  pedestrian: [226, 210, 160] as Rgb,
  steps: [196, 120, 90] as Rgb,
  crossing: [245, 245, 245] as Rgb,
  signal: [235, 60, 50] as Rgb,
  navmesh: [80, 170, 230] as Rgb,
} as const;

/** Legend entries of a scene's city: colour and text, one per layer. */
export function cityLegendEntries(city: CitySceneLayers | undefined): [Rgb, string][] {
  if (!city) return [];
  const entries: [Rgb, string][] = [];
  if (city.buildings.length > 0) {
    entries.push([CITY_COLORS.building, `buildings (${city.buildings.length})`]);
  }
  entries.push([CITY_COLORS.road, "roads"], [CITY_COLORS.footway, "footways, sidewalks"]);
  if (city.crossings.length > 0) {
    entries.push([CITY_COLORS.crossing, `crossings (${city.crossings.length})`]);
  }
  if (city.signals.length > 0) {
    entries.push([CITY_COLORS.signal, `traffic signals (${city.signals.length})`]);
  }
  if (city.navmesh) entries.push([CITY_COLORS.navmesh, "navigation mesh"]);
  return entries;
}

/** The city's layer kinds, bottom to top (see `VIEW_LAYER_KINDS`). */
export const CITY_LAYER_KINDS: readonly ViewLayerKind[] = [
  { key: "navmesh", label: "navigation mesh", on: false, build: _navmeshLayers },
  { key: "streets", label: "streets", on: true, build: _streetLayers },
  { key: "crossings", label: "crossings", on: true, build: _crossingLayers },
  { key: "signals", label: "traffic signals", on: true, build: _signalLayers },
  { key: "buildings", label: "buildings", on: true, build: _buildingLayers },
];

function _geo(c: ViewLayerContext) {
  return {
    coordinateSystem: COORDINATE_SYSTEM.METER_OFFSETS,
    coordinateOrigin: [c.scene.anchor.lon, c.scene.anchor.lat, 0] as [number, number, number],
  };
}

const STREET_ORDER: Readonly<Record<StreetKind, number>> = {
  road: 0,
  pedestrian: 1,
  footway: 2,
  steps: 3,
  crossing: 4,
};

function _streetLayers(c: ViewLayerContext): Layer[] {
  const city = c.scene.city;
  if (!city) return [];
  return [
    new PathLayer<CitySceneLayers["streets"][number]>({
      id: `v${c.view}:streets`,
      ..._geo(c),
      data: _sortedStreets(city),
      getPath: (d) => d.path,
      getWidth: (d) => d.width,
      widthUnits: "meters",
      widthMinPixels: 1,
      capRounded: true,
      jointRounded: true,
      getColor: (d) => [...CITY_COLORS[d.kind === "crossing" ? "footway" : d.kind], 255],
    }),
  ];
}

function _crossingLayers(c: ViewLayerContext): Layer[] {
  const city = c.scene.city;
  if (!city || city.crossings.length === 0) return [];
  return [
    new PathLayer<CitySceneLayers["crossings"][number]>({
      id: `v${c.view}:crossings`,
      ..._geo(c),
      data: city.crossings,
      getPath: (d) => d.path,
      getWidth: (d) => d.width,
      widthUnits: "meters",
      widthMinPixels: 2,
      getColor: (d) => d.signalled ? [255, 214, 120, 255] : [...CITY_COLORS.crossing, 255],
    }),
  ];
}

function _signalLayers(c: ViewLayerContext): Layer[] {
  const city = c.scene.city;
  if (!city || city.signals.length === 0) return [];
  return [
    new ScatterplotLayer<[number, number]>({
      id: `v${c.view}:signals`,
      ..._geo(c),
      data: city.signals,
      getPosition: (d) => d,
      getRadius: 1.2,
      radiusUnits: "meters",
      radiusMinPixels: 2.5,
      getFillColor: [...CITY_COLORS.signal, 255],
      stroked: true,
      getLineColor: [20, 20, 20, 255],
      lineWidthUnits: "pixels",
      getLineWidth: 1,
    }),
  ];
}

function _buildingLayers(c: ViewLayerContext): Layer[] {
  const city = c.scene.city;
  // No layer for no buildings: an empty extruded layer draws a negative instance count.
  if (!city || city.buildings.length === 0) return [];
  return [
    new SolidPolygonLayer<CitySceneLayers["buildings"][number]>({
      id: `v${c.view}:buildings`,
      ..._geo(c),
      data: city.buildings,
      getPolygon: (d) => d.rings,
      getElevation: (d) => d.height,
      extruded: true,
      getFillColor: [...CITY_COLORS.building, 230],
      material: { ambient: 0.55, diffuse: 0.5, shininess: 8 },
    }),
  ];
}

function _navmeshLayers(c: ViewLayerContext): Layer[] {
  const city = c.scene.city;
  if (!city?.navmesh) return [];
  // The triangles' edges as instanced lines: no tessellation, so tens of thousands of triangles
  // switch on at once.
  const edges = _edges(city);
  return [
    new LineLayer({
      id: `v${c.view}:navmesh`,
      ..._geo(c),
      data: {
        length: edges.length / 4,
        attributes: {
          getSourcePosition: { value: edges, size: 2, stride: 16, offset: 0 },
          getTargetPosition: { value: edges, size: 2, stride: 16, offset: 8 },
        },
      },
      getColor: [...CITY_COLORS.navmesh, 190],
      getWidth: 1,
      widthUnits: "pixels",
    }),
  ];
}

const _sorted = new WeakMap<CitySceneLayers, CitySceneLayers["streets"]>();

/** Streets drawn roads first, footways over them. */
function _sortedStreets(city: CitySceneLayers): CitySceneLayers["streets"] {
  let sorted = _sorted.get(city);
  if (!sorted) {
    sorted = [...city.streets].sort((a, b) => STREET_ORDER[a.kind] - STREET_ORDER[b.kind]);
    _sorted.set(city, sorted);
  }
  return sorted;
}

const _edgeCache = new WeakMap<CitySceneLayers, Float32Array>();

/** The mesh's triangle edges `[ax, ay, bx, by, …]` (m), three per triangle, made once per scene. */
function _edges(city: CitySceneLayers): Float32Array {
  let edges = _edgeCache.get(city);
  if (!edges) {
    const m = city.navmesh!, n = Math.floor(m.length / 6);
    edges = new Float32Array(12 * n);
    for (let t = 0; t < n; t++) {
      for (let k = 0; k < 3; k++) {
        const a = 6 * t + 2 * k, b = 6 * t + 2 * ((k + 1) % 3), o = 12 * t + 4 * k;
        edges[o] = m[a];
        edges[o + 1] = m[a + 1];
        edges[o + 2] = m[b];
        edges[o + 3] = m[b + 1];
      }
    }
    _edgeCache.set(city, edges);
  }
  return edges;
}

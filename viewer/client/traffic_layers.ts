/// <reference lib="dom" />
/**
 * The layers of a scene with cars: crosswalk stripes, cars as oriented rectangles (each a line
 * as wide as the car from its rear to its front) and the signal heads in their current colour
 * (vehicle lights at the stop lines, walk signals at the kerbs), each its own switch in the layer
 * menu and its own legend entry. Scenes without traffic draw none of them. Per-car and
 * per-signal data go to deck.gl as binary attributes, derived once per traffic message.
 *
 * @module
 */
import { COORDINATE_SYSTEM, type Layer } from "@deck.gl/core";
import { LineLayer, ScatterplotLayer, SolidPolygonLayer } from "@deck.gl/layers";
import type { MetrePoint, TrafficSceneInfo } from "../frame_protocol.ts";
import { carCentreLines, type TrafficFrame } from "../traffic_frame.ts";
import {
  signalDrawing,
  VEHICLE_LIGHT_COLORS,
  WALK_SIGNAL_COLORS,
  walkSignalLit,
} from "./signal_heads.ts";
import type { Rgb } from "./colors.ts";
import type { ViewLayerContext, ViewLayerKind } from "./layers.ts";

/** Colours of the traffic layers, for the layers and the legend. */
export const TRAFFIC_COLORS = {
  stripe: [246, 246, 240] as Rgb,
  sidewalk: [150, 146, 136] as Rgb,
  car: [206, 216, 232] as Rgb,
  stoppedCar: [122, 132, 156] as Rgb,
} as const;

/** Names of the signal states, as the legend shows them. */
const VEHICLE_LIGHT_NAMES = ["green", "yellow", "red"];
const WALK_SIGNAL_NAMES = ["walk", "flashing", "don't walk"];

/** Cars slower than this (m/s) are drawn as stopped. */
const STOPPED_SPEED = 0.3;

/** Legend entries of a scene's traffic: colour and text, one per layer and signal state. */
export function trafficLegendEntries(traffic: TrafficSceneInfo | undefined): [Rgb, string][] {
  if (!traffic) return [];
  const entries: [Rgb, string][] = [
    [TRAFFIC_COLORS.sidewalk, "sidewalks"],
    [TRAFFIC_COLORS.car, "cars"],
    [TRAFFIC_COLORS.stoppedCar, "stopped cars"],
  ];
  if (traffic.stripes.length > 0) entries.push([TRAFFIC_COLORS.stripe, "crosswalk stripes"]);
  if (traffic.signals.some((s) => s.kind === "vehicle")) {
    VEHICLE_LIGHT_COLORS.forEach((c, k) => entries.push([c, `light ${VEHICLE_LIGHT_NAMES[k]}`]));
  }
  if (traffic.signals.some((s) => s.kind === "walk")) {
    WALK_SIGNAL_COLORS.forEach((c, k) => entries.push([c, WALK_SIGNAL_NAMES[k]]));
  }
  return entries;
}

/** The sidewalks of a scene with cars, under everything but the basemap. */
export const SIDEWALK_LAYER_KIND: ViewLayerKind = {
  key: "sidewalks",
  label: "sidewalks",
  on: true,
  build: _sidewalkLayers,
};

/** The traffic's layer kinds, bottom to top (see `VIEW_LAYER_KINDS`). */
export const TRAFFIC_LAYER_KINDS: readonly ViewLayerKind[] = [
  { key: "stripes", label: "crosswalk stripes", on: true, build: _stripeLayers },
  { key: "cars", label: "cars", on: true, build: _carLayers },
  { key: "lights", label: "traffic lights", on: true, build: _lightLayers },
];

function _geo(c: ViewLayerContext) {
  return {
    coordinateSystem: COORDINATE_SYSTEM.METER_OFFSETS,
    coordinateOrigin: [c.scene.anchor.lon, c.scene.anchor.lat, 0] as [number, number, number],
  };
}

function _sidewalkLayers(c: ViewLayerContext): Layer[] {
  const sidewalks = c.scene.traffic?.sidewalks;
  if (!sidewalks || sidewalks.length === 0) return [];
  return [
    new SolidPolygonLayer<MetrePoint[]>({
      id: `v${c.view}:sidewalks`,
      ..._geo(c),
      data: sidewalks,
      getPolygon: (d) => d,
      getFillColor: [...TRAFFIC_COLORS.sidewalk, 255],
    }),
  ];
}

function _stripeLayers(c: ViewLayerContext): Layer[] {
  const stripes = c.scene.traffic?.stripes;
  if (!stripes || stripes.length === 0) return [];
  return [
    new SolidPolygonLayer<MetrePoint[]>({
      id: `v${c.view}:stripes`,
      ..._geo(c),
      data: stripes,
      getPolygon: (d) => d,
      getFillColor: [...TRAFFIC_COLORS.stripe, 235],
      // Paint on the road: over the crossings' band whatever the depth buffer says.
      parameters: { depthCompare: "always" },
    }),
  ];
}

function _carLayers(c: ViewLayerContext): Layer[] {
  const t = c.traffic;
  if (!c.scene.traffic || !t || t.cars === 0) return [];
  const drawn = carDrawing(t);
  return [
    new LineLayer({
      id: `v${c.view}:cars`,
      ..._geo(c),
      data: {
        length: t.cars,
        attributes: {
          getSourcePosition: { value: drawn.lines, size: 2, stride: 16, offset: 0 },
          getTargetPosition: { value: drawn.lines, size: 2, stride: 16, offset: 8 },
          getWidth: { value: t.width, size: 1 },
          getColor: { value: drawn.colors, size: 4, normalized: true },
        },
      },
      widthUnits: "meters",
      widthMinPixels: 2,
      // Flat on the road, over its markings whatever the depth buffer says.
      parameters: { depthCompare: "always" },
      updateTriggers: { getColor: t.step },
    }),
  ];
}

function _lightLayers(c: ViewLayerContext): Layer[] {
  const scene = c.scene.traffic, t = c.traffic;
  if (!scene || scene.signals.length === 0) return [];
  const time = c.frame?.time ?? 0;
  const drawn = signalDrawing(scene, t, time);
  const layers: Layer[] = [];
  for (const kind of ["walk", "vehicle"] as const) {
    const heads = drawn[kind];
    if (heads.count === 0) continue;
    layers.push(
      new ScatterplotLayer({
        id: `v${c.view}:lights-${kind}`,
        ..._geo(c),
        data: {
          length: heads.count,
          attributes: {
            getPosition: { value: heads.positions, size: 2 },
            getFillColor: { value: heads.colors, size: 4, normalized: true },
          },
        },
        getRadius: kind === "vehicle" ? 0.55 : 0.4,
        radiusUnits: "meters",
        radiusMinPixels: kind === "vehicle" ? 3 : 2.5,
        stroked: true,
        getLineColor: kind === "vehicle" ? [15, 15, 18, 255] : [240, 240, 240, 255],
        lineWidthUnits: "pixels",
        getLineWidth: 1,
        parameters: { depthCompare: "always" },
        updateTriggers: { getFillColor: `${t?.step ?? -1}:${walkSignalLit(time)}` },
      }),
    );
  }
  return layers;
}

/** Car centre lines and colours of a traffic message. */
export interface CarDrawing {
  /** Rear and front point of each car (m), 4 per car. */
  lines: Float32Array;
  /** RGBA per car: {@linkcode TRAFFIC_COLORS} car, or stopped car. */
  colors: Uint8Array;
}

const _cars = new WeakMap<TrafficFrame, CarDrawing>();

/** The cars of `frame` as drawn (made once per message). */
export function carDrawing(frame: TrafficFrame): CarDrawing {
  let drawn = _cars.get(frame);
  if (!drawn) {
    const n = frame.cars;
    drawn = {
      lines: carCentreLines(frame, new Float32Array(4 * n)),
      colors: new Uint8Array(4 * n),
    };
    for (let k = 0, o = 0; k < n; k++, o += 4) {
      const rgb = frame.speed[k] < STOPPED_SPEED ? TRAFFIC_COLORS.stoppedCar : TRAFFIC_COLORS.car;
      drawn.colors[o] = rgb[0];
      drawn.colors[o + 1] = rgb[1];
      drawn.colors[o + 2] = rgb[2];
      drawn.colors[o + 3] = 255;
    }
    _cars.set(frame, drawn);
  }
  return drawn;
}

/**
 * The city model: one typed structure for a city, whether read from OpenStreetMap or generated
 * procedurally, shared by everything that works on cities (the walkable area and its navigation
 * mesh, block routing with crossings and cars, viewshed affordance, attractors, the viewer).
 *
 * Coordinates are local metres (x east, y north) around `anchor`; {@linkcode CityModel.anchor}
 * and a {@linkcode LocalProjection} take any of them back to longitude and latitude. Polygons are
 * polygons with holes (outer ring first, then holes, first point not repeated). Identifiers of
 * features read from OpenStreetMap are `"node/123"`, `"way/456"` or `"relation/789"`; generated
 * features use `"gen/…"`.
 *
 * @module
 */
import type { Point } from "../core/geometry.ts";
import type { LonLat } from "./local_projection.ts";

/** A closed ring (m), first point not repeated. */
export type CityRing = readonly Point[];

/** A polygon with holes (m): outer ring, then holes. */
export type CityPolygon = readonly CityRing[];

/** Identifier of a feature: `"node/…"`, `"way/…"`, `"relation/…"` (OpenStreetMap) or `"gen/…"`. */
export type FeatureId = string;

/** Where a building's height came from. */
export type HeightSource = "height" | "levels" | "default";

/** A building: a solid footprint that nobody walks through. */
export interface CityBuilding {
  /** Feature id (a way or a multipolygon relation). */
  readonly id: FeatureId;
  /** Footprint (m), with courtyards as holes. */
  readonly polygon: CityPolygon;
  /** Height (m): `height`, else `building:levels` × 3 m, else a default. */
  readonly height: number;
  /** Where `height` came from. */
  readonly heightSource: HeightSource;
  /** Number of storeys above ground when mapped, else null. */
  readonly levels: number | null;
  /** `name`, or null. */
  readonly name: string | null;
  /** The `building` value (`"yes"`, `"office"`, …). */
  readonly kind: string;
  /**
   * Where people go in (m): a point on the footprint's outline (generated cities: the middle of
   * the side facing the nearest street; maps: an `entrance=*` node, when mapped). Absent when
   * unknown.
   */
  readonly entrance?: Point;
}

/** Where a street's width came from. */
export type WidthSource = "width" | "lanes" | "default" | "fitted";

/** The `sidewalk=*` value of a road (`"separate"`: mapped as its own footway). */
export type SidewalkTag = "both" | "left" | "right" | "no" | "separate" | "unknown";

/** A node of the street network: a junction, a dead end, or where a way is split. */
export interface StreetNode {
  /** Index in {@linkcode StreetNetwork.nodes}. */
  readonly index: number;
  /** OpenStreetMap node id, or null for generated nodes. */
  readonly osmId: number | null;
  /** Position (m). */
  readonly x: number;
  /** Position (m). */
  readonly y: number;
  /** Number of edges that meet here. */
  readonly degree: number;
  /** True where three or more edges meet (a junction in the street-network sense). */
  readonly junction: boolean;
  /** A traffic signal stands on this node. */
  readonly signal: boolean;
  /** A crossing is mapped on this node (its kind), else null. */
  readonly crossing: CrossingKind | null;
}

/**
 * An edge of the street network: a piece of one way between two network nodes (ways are split
 * at every node they share with another way).
 */
export interface StreetEdge {
  /** Index in {@linkcode StreetNetwork.edges}. */
  readonly index: number;
  /** The way it comes from. */
  readonly wayId: FeatureId;
  /** Start node index. */
  readonly from: number;
  /** End node index. */
  readonly to: number;
  /** Centre line from `from` to `to` (m), at least two points. */
  readonly points: readonly Point[];
  /** Length of `points` (m). */
  readonly length: number;
  /** The `highway` value: `"primary"`, `"residential"`, `"footway"`, `"steps"`, … */
  readonly highway: string;
  /** `name`, or null. */
  readonly name: string | null;
  /** Vehicles drive only from `from` to `to`. */
  readonly oneway: boolean;
  /** Motor-vehicle lanes (total, both directions); 0 for footways. */
  readonly lanes: number;
  /**
   * Width of the way (m): `width`, else lanes × 3.0 m, else a per-class default, narrowed to
   * the room between the buildings ("fitted").
   */
  readonly width: number;
  /** Where `width` came from. */
  readonly widthSource: WidthSource;
  /** The road's sidewalk tag. */
  readonly sidewalk: SidewalkTag;
  /** Cars drive on it (a carriageway). */
  readonly carriageway: boolean;
  /** People may walk along it (footway, path, pedestrian street, steps, or a road's sidewalk). */
  readonly walkable: boolean;
  /** It is a flight of steps. */
  readonly steps: boolean;
  /** `footway=crossing` or similar: the way crosses a carriageway. */
  readonly crossing: boolean;
  /**
   * People may walk on the whole width although cars drive on it (`living_street`, `track`).
   * @default false
   */
  readonly shared?: boolean;
  /**
   * Not on the ground surface: `tunnel=*`, `covered=yes`, `indoor=*`, or a negative `layer` or
   * `level`. Such ways stay in the network but are not part of the walkable surface.
   * @default false
   */
  readonly tunnel?: boolean;
  /** The OpenStreetMap `layer` (0 on the ground, 1 a bridge, -1 below ground). @default 0 */
  readonly layer?: number;
  /** The left side's sidewalk (relative to `from` → `to`), for carriageways. @default "unknown" */
  readonly sidewalkLeft?: SideSidewalk;
  /** The right side's sidewalk, for carriageways. @default "unknown" */
  readonly sidewalkRight?: SideSidewalk;
  /** Steps: `step_count`, or null when not mapped. @default null */
  readonly stepCount?: number | null;
  /**
   * Steps: the direction they rise, `"up"` from `from` to `to` or `"down"`, from `incline`;
   * null when not mapped. @default null
   */
  readonly incline?: "up" | "down" | null;
}

/**
 * What is known of a carriageway side's sidewalk: `"implied"` by the road's `sidewalk=*` tag (in
 * {@linkcode CityModel.sidewalks}, offset from the road), `"mapped"` as a separate footway
 * running along it, `"none"` (tagged `no`, or the sidewalk is tagged as mapped separately), or
 * `"unknown"` (the walkable area then adds an edge strip on that side).
 */
export type SideSidewalk = "implied" | "mapped" | "none" | "unknown";

/** The street network as a graph split at junctions. */
export interface StreetNetwork {
  /** Nodes. */
  readonly nodes: readonly StreetNode[];
  /** Edges. */
  readonly edges: readonly StreetEdge[];
}

/** Kinds of crossings (`crossing=*`), normalised. */
export type CrossingKind =
  | "traffic_signals"
  | "uncontrolled"
  | "marked"
  | "unmarked"
  | "zebra"
  | "island"
  | "no"
  | "unknown";

/** A place where pedestrians cross a carriageway. */
export interface CityCrossing {
  /** Feature id (a `highway=crossing` node or a `footway=crossing` way). */
  readonly id: FeatureId;
  /** Centre (m). */
  readonly x: number;
  /** Centre (m). */
  readonly y: number;
  /** Kind. */
  readonly kind: CrossingKind;
  /** Controlled by a traffic light. */
  readonly signalled: boolean;
  /** The crossing's path from kerb to kerb (m); two or more points. */
  readonly points: readonly Point[];
  /** Width of the crossing (m). */
  readonly width: number;
  /** The carriageway edge it crosses, or null when unknown. */
  readonly edge: number | null;
  /** The street-network node it sits on, or null. */
  readonly node: number | null;
  /**
   * Not mapped as a crossing: a footway crossing a road at a shared node, or a leg of a
   * junction where no crossing is mapped nearby (see the city builder's `junctionCrossings`).
   * @default false
   */
  readonly implied?: boolean;
}

/** A traffic signal. */
export interface TrafficSignal {
  /** Feature id. */
  readonly id: FeatureId;
  /** Position (m). */
  readonly x: number;
  /** Position (m). */
  readonly y: number;
  /** The street-network node it stands on, or null. */
  readonly node: number | null;
  /** It controls a pedestrian crossing (`crossing=traffic_signals`). */
  readonly pedestrian: boolean;
}

/** A sidewalk: mapped as a footway, or implied by a road's `sidewalk=*` tag. */
export interface CitySidewalk {
  /** Feature id (the footway, or the road it belongs to). */
  readonly id: FeatureId;
  /** Centre line (m). */
  readonly points: readonly Point[];
  /** Width (m). */
  readonly width: number;
  /** Mapped as its own way (`footway=sidewalk`), not implied by a road tag. */
  readonly mapped: boolean;
  /** The road edge it runs along, or null. */
  readonly edge: number | null;
  /** The side of the road (relative to the edge's direction), or null. */
  readonly side: "left" | "right" | null;
}

/** A pedestrian area or square (`highway=pedestrian` area, `area:highway`, `place=square`, …). */
export interface PedestrianArea {
  /** Feature id. */
  readonly id: FeatureId;
  /** Outline (m). */
  readonly polygon: CityPolygon;
  /** The tag that made it walkable, e.g. `"highway=pedestrian"`. */
  readonly kind: string;
  /** `name`, or null. */
  readonly name: string | null;
}

/** A barrier (`barrier=wall|fence|…`): a wall nobody walks through. */
export interface CityBarrier {
  /** Feature id. */
  readonly id: FeatureId;
  /** The `barrier` value. */
  readonly kind: string;
  /** Polyline (m). */
  readonly points: readonly Point[];
  /** The polyline is closed. */
  readonly closed: boolean;
}

/** Small street furniture (benches, trees, posts): solid obstacles. */
export interface StreetFurniture {
  /** Feature id. */
  readonly id: FeatureId;
  /** `"bench"`, `"tree"`, `"light"`, `"signal"`, … */
  readonly kind: string;
  /** Footprint (m). */
  readonly polygon: CityRing;
}

/** A place people go to: a shop, a station, an office, … */
export interface CityAttractor {
  /** Feature id. */
  readonly id: FeatureId;
  /** Representative point (m). */
  readonly x: number;
  /** Representative point (m). */
  readonly y: number;
  /** The key that made it an attractor: `"shop"`, `"amenity"`, `"railway"`, `"building"`, … */
  readonly key: string;
  /** Its value: `"supermarket"`, `"station"`, … */
  readonly value: string;
  /** `name`, or null. */
  readonly name: string | null;
  /** Floor area (m²) when it is a building or area, else 0. */
  readonly floorArea: number;
  /** Index of the building it is, or stands in, or null. @default null */
  readonly building?: number | null;
}

/** A city block: the land between streets, holding buildings. */
export interface CityBlock {
  /** Block id. */
  readonly id: FeatureId;
  /** Outline of the block (m), up to the kerb. */
  readonly polygon: CityPolygon;
  /** Indices of the buildings on it. */
  readonly buildings: readonly number[];
}

/** Where a city model came from. */
export interface CitySource {
  /** `"osm-xml"`, `"osm-pbf"`, `"geojson"`, `"overpass-json"` or `"procedural"`. */
  readonly format: string;
  /** File the data was read from, or null. */
  readonly path: string | null;
  /** Attribution that any display must show, e.g. `"© OpenStreetMap contributors"`. */
  readonly attribution: string | null;
}

/** A city: buildings, streets, sidewalks, crossings, signals, barriers and attractors. */
export interface CityModel {
  /** Name for listings. */
  readonly name: string;
  /** Longitude and latitude of the local origin (the crop box's centre). */
  readonly anchor: LonLat;
  /** Crop box `[west, south, east, north]` (degrees), or null when the city was generated. */
  readonly bbox: readonly [number, number, number, number] | null;
  /** Extent `[minX, minY, maxX, maxY]` (m) in the local frame. */
  readonly bounds: readonly [number, number, number, number];
  /** Buildings. */
  readonly buildings: readonly CityBuilding[];
  /** Street network. */
  readonly streets: StreetNetwork;
  /** Sidewalks. */
  readonly sidewalks: readonly CitySidewalk[];
  /** Pedestrian areas and squares. */
  readonly pedestrianAreas: readonly PedestrianArea[];
  /** Crossings. */
  readonly crossings: readonly CityCrossing[];
  /** Traffic signals. */
  readonly signals: readonly TrafficSignal[];
  /** Barriers. */
  readonly barriers: readonly CityBarrier[];
  /** Street furniture (generated cities; empty for maps unless mapped). */
  readonly furniture: readonly StreetFurniture[];
  /** Attractors (points of interest, weighted by kind). */
  readonly attractors: readonly CityAttractor[];
  /** City blocks, when known (generated cities); derive them for maps with the block builder. */
  readonly blocks: readonly CityBlock[] | null;
  /** Provenance. */
  readonly source: CitySource;
  /**
   * What the builder left out or guessed, one line each (features cut by an extract's edge,
   * unknown `highway` values). @default []
   */
  readonly warnings?: readonly string[];
}

/**
 * The walkable area of a city for pedestrians, from its {@linkcode CityModel}:
 *
 * - walkable ways (footways, paths, steps, pedestrian streets, shared streets) as strips of
 *   their width; sidewalks implied by road tags; pedestrian areas and squares;
 * - an edge strip (`edgeStripWidth`) just inside the kerb on each carriageway side whose
 *   sidewalk is unknown — neither tagged nor mapped as a footway running along it;
 * - minus every building, barrier wall (a strip `barrierThickness` wide, open where a way
 *   passes it at a shared node: a gate) and carriageway (its width less the edge strips) —
 *   carriageways are walkable only at crossings, unless `jaywalking` adds them whole; a
 *   carriageway cuts only the pieces on its own level (ground, or `layer` above 0), so
 *   footbridges cross roads and road bridges span footways;
 * - plus the crossings (their width, from kerb to kerb), minus buildings and walls.
 *
 * The pieces are offset and merged with Clipper2 (Angus Johnson). Of the connected regions
 * that result, those holding the street network are kept: a region with no walkable street
 * edge in it (a closed courtyard) is dropped. Roads on bridges join the streets below in plan;
 * tunnels and indoor ways are left out.
 *
 * @module
 */
import {
  booleanOpD,
  ClipType,
  EndType,
  FillRule,
  inflatePathsD,
  JoinType,
  type PathD,
  type PathsD,
  simplifyPathsD,
} from "npm:clipper2-ts@2.0.1";
import type { Point } from "../core/geometry.ts";
import { type OptionSpecs, resolveOptions } from "../core/options.ts";
import { SegmentGrid } from "../core/segment_grid.ts";
import type { CityModel, StreetEdge } from "../geo/city_model.ts";
import { offsetPolyline } from "../geo/offset_polyline.ts";
import { polygonsFromPaths } from "./_polygons_from_paths.ts";
import { polygonsArea, type PolygonWithHoles } from "./walkable_area.ts";

/** Decimal places kept by the clipping library: 4 = 0.1 mm. */
const PRECISION = 4;

/** Options of {@linkcode buildCityWalkableArea}. */
export interface CityWalkableOptions {
  /** Width of the strip walked along a carriageway side with no known sidewalk (m). */
  edgeStripWidth: number;
  /** People may walk on carriageways anywhere, not only at crossings. */
  jaywalking: boolean;
  /** Thickness of a barrier wall cut out of the walkable area (m). */
  barrierThickness: number;
  /** Largest deviation of a rounded strip end from its arc (m). */
  arcTolerance: number;
  /** Keep regions holding no street edge too (courtyards, islands). */
  keepIsolated: boolean;
  /** Outline vertices closer than this to the line through their neighbours are dropped (m). */
  simplifyTolerance: number;
}

/** Descriptors of {@linkcode CityWalkableOptions}. */
export const CITY_WALKABLE_OPTIONS: OptionSpecs<CityWalkableOptions> = {
  edgeStripWidth: {
    type: "number",
    default: 1.5,
    min: 0,
    max: 10,
    unit: "m",
    doc:
      "strip inside the kerb walked on a carriageway side with no known sidewalk (at most 40 % of the carriageway width); 0 leaves such streets without a walkable edge",
  },
  jaywalking: {
    type: "boolean",
    default: false,
    doc: "carriageways are walkable everywhere, not only at crossings",
  },
  barrierThickness: {
    type: "number",
    default: 0.2,
    min: 0.01,
    max: 5,
    unit: "m",
    doc: "a wall or fence cuts a strip this wide out of the walkable area",
  },
  arcTolerance: {
    type: "number",
    default: 0.1,
    min: 0.005,
    max: 1,
    unit: "m",
    doc:
      "how far a strip's rounded end may stray from its arc; smaller adds vertices (slower meshing)",
  },
  keepIsolated: {
    type: "boolean",
    default: false,
    doc:
      "keep walkable regions that hold no street edge (closed courtyards); by default only regions holding the street network remain",
  },
  simplifyTolerance: {
    type: "number",
    default: 0.1,
    min: 0,
    max: 1,
    unit: "m",
    doc:
      "outline vertices within this distance of the line through their neighbours are dropped: fewer triangles, faster meshing and path queries; 0 keeps every vertex",
  },
};

/** A flight of steps in the walkable area, for the stair speed model. */
export interface CityStairs {
  /** The street edge that is the flight. */
  readonly edge: number;
  /** Its footprint (m). */
  readonly polygon: PolygonWithHoles;
}

/** The walkable area of a city and how it was made. */
export interface CityWalkableArea {
  /** Disjoint walkable regions (m), counter-clockwise outer rings, clockwise holes. */
  readonly polygons: readonly PolygonWithHoles[];
  /** Total walkable area (m²). */
  readonly area: number;
  /** Flights of steps inside the walkable area. */
  readonly stairs: readonly CityStairs[];
  /** Regions dropped because they hold no street edge. */
  readonly droppedRegions: number;
  /** Their area (m²). */
  readonly droppedArea: number;
  /** Options in force. */
  readonly options: Readonly<CityWalkableOptions>;
}

/**
 * Builds the walkable area of a city.
 *
 * @example A street with sidewalks tagged on both sides and a building beside it
 * ```ts
 * import { buildCityWalkableArea } from "./city_walkable.ts";
 * import { buildCityModel, osmElementsToFeatures, readOsmXml } from "../geo/mod.ts";
 * import assert from "node:assert/strict";
 * const xml = `<osm version="0.6">
 *   <node id="1" lat="60.1700" lon="24.9400"/><node id="2" lat="60.1700" lon="24.9420"/>
 *   <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/>
 *     <tag k="sidewalk" v="both"/><tag k="width" v="6"/></way>
 * </osm>`;
 * const city = buildCityModel(osmElementsToFeatures(readOsmXml(xml), { file: "s.osm", format: "osm-xml" }));
 * const walkable = buildCityWalkableArea(city);
 * assert.equal(walkable.polygons.length, 2); // one sidewalk each side, no crossing
 * const length = city.streets.edges[0].length;
 * assert(Math.abs(walkable.area - 2 * (2 * length + Math.PI)) < 0.02 * walkable.area);
 * ```
 */
export function buildCityWalkableArea(
  city: CityModel,
  options: Partial<CityWalkableOptions> = {},
): CityWalkableArea {
  const o = resolveOptions("city walkable area", CITY_WALKABLE_OPTIONS, options);
  const edges = city.streets.edges;
  const surface = (e: StreetEdge) => !e.tunnel;
  const road = (e: StreetEdge) => e.carriageway && !e.shared && surface(e);
  const strip = (e: StreetEdge) => Math.min(o.edgeStripWidth, e.width * 0.4);

  // Pieces people walk on, on the ground and above it (bridges): a carriageway cuts only the
  // pieces on its own level, so a footbridge crosses a road and a road bridge spans a footway.
  const lines = new StripBatch(o.arcTolerance), raised = new StripBatch(o.arcTolerance);
  const level = (e: StreetEdge) => ((e.layer ?? 0) > 0 ? raised : lines);
  for (const e of edges) {
    if (!surface(e) || !e.walkable) continue;
    const batch = level(e);
    if (!e.carriageway || e.shared) batch.add(e.points, e.width);
    else if (o.jaywalking) batch.add(e.points, e.width);
    if (road(e) && strip(e) > 0) {
      const s = strip(e);
      if ((e.sidewalkLeft ?? "unknown") === "unknown") {
        batch.add(offsetPolyline(e.points, e.width / 2 - s / 2), s);
      }
      if ((e.sidewalkRight ?? "unknown") === "unknown") {
        batch.add(offsetPolyline(e.points, -(e.width / 2 - s / 2)), s);
      }
    }
  }
  for (const s of city.sidewalks) {
    if (s.mapped) continue;
    (s.edge !== null ? level(edges[s.edge]) : lines).add(s.points, s.width);
  }
  const pieces: PathsD = lines.polygons();
  for (const a of city.pedestrianAreas) pieces.push(...toPaths(a.polygon));

  // What nobody walks through: buildings, and walls less the gates where ways pass them.
  const solid: PathsD = [];
  for (const b of city.buildings) solid.push(...toPaths(b.polygon));
  const walls = new StripBatch(o.arcTolerance, EndType.Butt);
  for (const w of city.barriers) {
    walls.add(w.closed ? [...w.points, w.points[0]] : w.points, o.barrierThickness);
  }
  solid.push(...difference(walls.polygons(), gates(city, o.barrierThickness)));
  const cores = new StripBatch(o.arcTolerance), raisedCores = new StripBatch(o.arcTolerance);
  if (!o.jaywalking) {
    for (const e of edges) {
      if (!road(e)) continue;
      const half = e.width / 2 - (e.walkable ? strip(e) : 0);
      if (half > 0) ((e.layer ?? 0) > 0 ? raisedCores : cores).add(e.points, 2 * half);
    }
  }

  const crossings = new StripBatch(o.arcTolerance);
  for (const c of city.crossings) {
    if (c.kind === "no") continue;
    if (c.points.length >= 2) crossings.add(c.points, c.width);
  }

  // Simplify what people walk on before cutting: the cut edges then follow buildings exactly.
  const simple = (paths: PathsD) =>
    o.simplifyTolerance > 0 ? simplifyPathsD(paths, o.simplifyTolerance, true) : paths;
  const open = difference(simple(unionPaths(pieces)), [...solid, ...cores.polygons()]);
  const raisedPieces = raised.polygons();
  const above = raisedPieces.length > 0
    ? difference(simple(unionPaths(raisedPieces)), [...solid, ...raisedCores.polygons()])
    : [];
  const crossed = difference(simple(crossings.polygons()), solid);
  const all = union([...open, ...above, ...crossed]);

  // Keep the regions that hold the street network: those its strips' centre lines run through.
  const anchors: Point[] = [
    ...lines.centrePoints(),
    ...raised.centrePoints(),
    ...crossings.centrePoints(),
  ];
  let kept: PolygonWithHoles[] = all, droppedArea = 0, droppedRegions = 0;
  if (!o.keepIsolated) {
    kept = [];
    const hit = new RegionFinder(all).mark(anchors);
    all.forEach((p, i) => {
      if (hit[i]) kept.push(p);
      else {
        droppedRegions++;
        droppedArea += polygonsArea([p]);
      }
    });
  }

  const stairs: CityStairs[] = [];
  edges.forEach((e, i) => {
    if (!e.steps || !surface(e) || !e.walkable) return;
    const batch = new StripBatch(o.arcTolerance, EndType.Butt);
    batch.add(e.points, e.width);
    for (const polygon of union(batch.polygons())) stairs.push({ edge: i, polygon });
  });

  return {
    polygons: kept,
    area: polygonsArea(kept),
    stairs,
    droppedRegions,
    droppedArea,
    options: o,
  };
}

/**
 * Squares (paths) around the vertices of walkable ways that lie on a barrier — gates and gaps
 * where a way passes a wall or fence at a shared node — each as wide as the way.
 */
function gates(city: CityModel, thickness: number): PathsD {
  const barriers = city.barriers;
  let n = 0;
  for (const b of barriers) n += b.points.length - (b.closed ? 0 : 1);
  if (n === 0) return [];
  const ax = new Float64Array(n), ay = new Float64Array(n);
  const bx = new Float64Array(n), by = new Float64Array(n);
  let k = 0;
  for (const b of barriers) {
    const m = b.points.length;
    for (let i = 0; i < (b.closed ? m : m - 1); i++, k++) {
      [ax[k], ay[k]] = b.points[i];
      [bx[k], by[k]] = b.points[(i + 1) % m];
    }
  }
  const grid = new SegmentGrid(10);
  grid.build(ax, ay, bx, by, n);
  const out: PathsD = [];
  const hits = new Uint32Array(1);
  for (const e of city.streets.edges) {
    if (!e.walkable || e.tunnel) continue;
    const h = Math.max(0.75, e.carriageway && !e.shared ? e.width / 2 + 2.5 : e.width / 2);
    // Vertices of the way that lie on a barrier: where the way and the barrier share a node.
    for (const [x, y] of e.points) {
      if (grid.queryRadius(x, y, thickness / 2, hits) === 0) continue;
      out.push([{ x: x - h, y: y - h }, { x: x + h, y: y - h }, { x: x + h, y: y + h }, {
        x: x - h,
        y: y + h,
      }]);
    }
  }
  return out;
}

/** Open polylines grouped by width, offset in one Clipper call per width. */
class StripBatch {
  #byWidth = new Map<number, PathsD>();
  #arcTolerance: number;
  #end: EndType;

  constructor(arcTolerance: number, end: EndType = EndType.Square) {
    this.#arcTolerance = arcTolerance;
    this.#end = end;
  }

  /** Adds a polyline (m) to be widened to `width` (m). */
  add(points: readonly Point[], width: number): void {
    if (!(width > 0) || points.length < 2) return;
    const key = Math.round(width * 100) / 100;
    const path: PathD = points.map(([x, y]) => ({ x, y }));
    const list = this.#byWidth.get(key);
    if (list) list.push(path);
    else this.#byWidth.set(key, [path]);
  }

  /** Vertices and segment midpoints of every polyline added (m). */
  centrePoints(): Point[] {
    const out: Point[] = [];
    for (const paths of this.#byWidth.values()) {
      for (const path of paths) {
        for (let i = 0; i < path.length; i++) {
          out.push([path[i].x, path[i].y]);
          if (i + 1 < path.length) {
            out.push([(path[i].x + path[i + 1].x) / 2, (path[i].y + path[i + 1].y) / 2]);
          }
        }
      }
    }
    return out;
  }

  /** The strips as closed paths. */
  polygons(): PathsD {
    const out: PathsD = [];
    for (const [width, paths] of this.#byWidth) {
      const strips = inflatePathsD(
        paths,
        width / 2,
        JoinType.Miter,
        this.#end,
        2,
        PRECISION,
        this.#arcTolerance,
      );
      for (const s of strips) out.push(s);
    }
    return out;
  }
}

function toPaths(polygon: PolygonWithHoles): PathsD {
  return polygon.map((ring) => ring.map(([x, y]) => ({ x, y })));
}

/**
 * The part of `subject` outside `clip`, as flat paths (outer rings counter-clockwise, holes
 * clockwise): an intermediate result, so no polygon tree is built.
 */
function difference(subject: PathsD, clip: PathsD): PathsD {
  return booleanOpD(
    ClipType.Difference,
    subject,
    clip.length ? clip : null,
    FillRule.NonZero,
    PRECISION,
  );
}

/** The union of `paths`, as flat paths (see {@linkcode difference}). */
function unionPaths(paths: PathsD): PathsD {
  return booleanOpD(ClipType.Union, paths, null, FillRule.NonZero, PRECISION);
}

function union(paths: PathsD): PolygonWithHoles[] {
  return polygonsFromPaths(
    booleanOpD(ClipType.Union, paths, null, FillRule.NonZero, PRECISION),
  );
}

/** Which region (polygon with holes) contains a point: boxes in a grid, then ring tests. */
class RegionFinder {
  #polygons: readonly PolygonWithHoles[];
  #cell = 25;
  #cells = new Map<number, number[]>();

  constructor(polygons: readonly PolygonWithHoles[]) {
    this.#polygons = polygons;
    polygons.forEach((p, i) => {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const [x, y] of p[0]) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
      for (let cx = Math.floor(x0 / this.#cell); cx <= Math.floor(x1 / this.#cell); cx++) {
        for (let cy = Math.floor(y0 / this.#cell); cy <= Math.floor(y1 / this.#cell); cy++) {
          const key = cx * 1_000_003 + cy;
          const list = this.#cells.get(key);
          if (list) list.push(i);
          else this.#cells.set(key, [i]);
        }
      }
    });
  }

  /**
   * Marks the regions containing any of the points; regions already marked are not tested
   * again, so a large region is walked once rather than once per point.
   */
  mark(points: readonly Point[]): Uint8Array {
    const hit = new Uint8Array(this.#polygons.length);
    for (const [x, y] of points) {
      const list = this.#cells.get(
        Math.floor(x / this.#cell) * 1_000_003 + Math.floor(y / this.#cell),
      );
      if (!list) continue;
      for (const i of list) {
        if (hit[i]) continue;
        const p = this.#polygons[i];
        if (!inside(p[0], x, y)) continue;
        let inHole = false;
        for (let h = 1; h < p.length && !inHole; h++) inHole = inside(p[h], x, y);
        if (!inHole) {
          hit[i] = 1;
          break;
        }
      }
    }
    return hit;
  }
}

function inside(ring: readonly Point[], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

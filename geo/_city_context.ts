/**
 * What every stage of the city builder shares: the projection to local metres, the crop box
 * (degrees) and its outline in metres, projection of points with a cache, cropping of lines in
 * degrees (keeping node ids) and of even-odd ring sets in metres (Clipper2), and the warnings.
 *
 * @module
 */
import {
  booleanOpDWithPolyTree,
  ClipType,
  FillRule,
  type PathD,
  type PathsD,
  PolyTreeD,
} from "npm:clipper2-ts@2.0.1";
import type { Point } from "../core/geometry.ts";
import type { CityPolygon } from "./city_model.ts";
import type { GeoBBox } from "./geo_bbox.ts";
import type { LocalProjection } from "./local_projection.ts";

/** Decimal places Clipper keeps (0.1 mm). */
const PRECISION = 4;
/** Points per side of the crop box's outline in metres. */
const BOX_SIDE_POINTS = 32;

/** A piece of a line inside the crop box. */
export interface CroppedLine {
  /** Points (m). */
  readonly points: Point[];
  /** Node key per point: the OSM id, a `"lon,lat"` string for id-less vertices, or a cut mark. */
  readonly keys: (number | string)[];
  /** OSM node id per point, or null. */
  readonly osmIds: (number | null)[];
}

/** Shared state of one city build. */
export class CityContext {
  /** The file, for messages. */
  readonly file: string;
  /** Projection to local metres. */
  readonly projection: LocalProjection;
  /** Crop box (degrees), or null for no cropping. */
  readonly crop: GeoBBox | null;
  /** The crop box's outline (m), or null. */
  readonly cropPath: PathD | null;
  /** Warnings collected. */
  readonly warnings: string[] = [];
  #cache = new Map<string, Point>();

  constructor(file: string, projection: LocalProjection, crop: GeoBBox | null) {
    this.file = file;
    this.projection = projection;
    this.crop = crop;
    this.cropPath = crop ? this.#boxPath(crop) : null;
  }

  /** Local metres of (`lon`, `lat`), cached. */
  project(lon: number, lat: number): Point {
    const key = `${lon},${lat}`;
    let p = this.#cache.get(key);
    if (!p) {
      p = this.projection.toLocal(lon, lat);
      this.#cache.set(key, p);
    }
    return p;
  }

  /** True when (`lon`, `lat`) is inside the crop box (or there is none). */
  inside(lon: number, lat: number): boolean {
    const c = this.crop;
    return !c || (lon >= c[0] && lon <= c[2] && lat >= c[1] && lat <= c[3]);
  }

  /** True when the box `[w, s, e, n]` (degrees) meets the crop box. */
  meets(extent: GeoBBox): boolean {
    const c = this.crop;
    return !c || (extent[0] <= c[2] && extent[2] >= c[0] && extent[1] <= c[3] && extent[3] >= c[1]);
  }

  /**
   * The parts of a line inside the crop box (degrees), projected. Vertices keep their ids;
   * where the line crosses the box edge a new vertex without id is made.
   */
  cropLine(coords: Float64Array, nodeIds: readonly (number | null)[]): CroppedLine[] {
    const n = coords.length / 2;
    const key = (k: number): number | string =>
      nodeIds[k] ?? `${coords[2 * k]},${coords[2 * k + 1]}`;
    const c = this.crop;
    if (!c) {
      const points: Point[] = [], keys: (number | string)[] = [], osmIds: (number | null)[] = [];
      for (let k = 0; k < n; k++) {
        points.push(this.project(coords[2 * k], coords[2 * k + 1]));
        keys.push(key(k));
        osmIds.push(nodeIds[k]);
      }
      return [{ points, keys, osmIds }];
    }
    const out: CroppedLine[] = [];
    let cur: CroppedLine | null = null;
    const push = (lon: number, lat: number, k: number | null) => {
      cur ??= { points: [], keys: [], osmIds: [] };
      cur.points.push(this.project(lon, lat));
      cur.keys.push(k === null ? `cut:${lon},${lat}` : key(k));
      cur.osmIds.push(k === null ? null : nodeIds[k]);
    };
    for (let k = 0; k + 1 < n; k++) {
      const x0 = coords[2 * k], y0 = coords[2 * k + 1];
      const x1 = coords[2 * k + 2], y1 = coords[2 * k + 3];
      const t = clipSegment(x0, y0, x1, y1, c);
      if (t === null) {
        if (cur && (cur as CroppedLine).points.length >= 2) out.push(cur);
        cur = null;
        continue;
      }
      const [t0, t1] = t;
      if (!cur) {
        if (t0 === 0) push(x0, y0, k);
        else push(x0 + t0 * (x1 - x0), y0 + t0 * (y1 - y0), null);
      }
      if (t1 === 1) push(x1, y1, k + 1);
      else {
        push(x0 + t1 * (x1 - x0), y0 + t1 * (y1 - y0), null);
        if ((cur as CroppedLine | null) && cur!.points.length >= 2) out.push(cur!);
        cur = null;
      }
    }
    if (cur && (cur as CroppedLine).points.length >= 2) out.push(cur);
    return out.filter((l) => distinctPoints(l.points));
  }

  /**
   * The region an odd number of the rings (degrees) cover, cropped to the box and projected:
   * polygons with holes (m), outer rings counter-clockwise.
   */
  areaPolygons(rings: readonly Float64Array[]): CityPolygon[] {
    const paths: PathsD = [];
    for (const ring of rings) {
      const path: PathD = [];
      for (let k = 0; k < ring.length; k += 2) {
        const [x, y] = this.project(ring[k], ring[k + 1]);
        path.push({ x, y });
      }
      if (path.length >= 3) paths.push(path);
    }
    if (paths.length === 0) return [];
    const tree = new PolyTreeD();
    if (this.cropPath) {
      booleanOpDWithPolyTree(
        ClipType.Intersection,
        paths,
        [this.cropPath],
        tree,
        FillRule.EvenOdd,
        PRECISION,
      );
    } else {
      booleanOpDWithPolyTree(ClipType.Union, paths, null, tree, FillRule.EvenOdd, PRECISION);
    }
    return polygonsOfTree(tree);
  }

  /** Adds a warning line. */
  warn(message: string): void {
    this.warnings.push(message);
  }

  #boxPath([w, s, e, n]: GeoBBox): PathD {
    const path: PathD = [];
    const side = (lon0: number, lat0: number, lon1: number, lat1: number) => {
      for (let i = 0; i < BOX_SIDE_POINTS; i++) {
        const t = i / BOX_SIDE_POINTS;
        const [x, y] = this.projection.toLocal(lon0 + t * (lon1 - lon0), lat0 + t * (lat1 - lat0));
        path.push({ x, y });
      }
    };
    side(w, s, e, s);
    side(e, s, e, n);
    side(e, n, w, n);
    side(w, n, w, s);
    return path;
  }
}

/** Polygons with holes from a Clipper tree (islands in holes become polygons of their own). */
export function polygonsOfTree(tree: PolyTreeD): CityPolygon[] {
  const out: CityPolygon[] = [];
  const visit = (node: PolyTreeD | ReturnType<PolyTreeD["child"]>): void => {
    for (let i = 0; i < node.count; i++) {
      const outer = node.child(i);
      const rings: Point[][] = [ring(outer.poly!, true)];
      for (let j = 0; j < outer.count; j++) {
        const hole = outer.child(j);
        rings.push(ring(hole.poly!, false));
        visit(hole);
      }
      out.push(rings);
    }
  };
  visit(tree);
  return out;
}

function ring(path: PathD, ccw: boolean): Point[] {
  const r: Point[] = path.map((p) => [p.x, p.y] as Point);
  let a = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    a += r[j][0] * r[i][1] - r[i][0] * r[j][1];
  }
  if ((a > 0) !== ccw) r.reverse();
  return r;
}

function distinctPoints(points: readonly Point[]): boolean {
  for (let i = 1; i < points.length; i++) {
    if (points[i][0] !== points[0][0] || points[i][1] !== points[0][1]) return true;
  }
  return false;
}

/** Liang–Barsky: the parameter range [t0, t1] of a segment inside the box, or null. */
function clipSegment(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  [w, s, e, n]: GeoBBox,
): [number, number] | null {
  let t0 = 0, t1 = 1;
  const dx = x1 - x0, dy = y1 - y0;
  const p = [-dx, dx, -dy, dy], q = [x0 - w, e - x0, y0 - s, n - y0];
  for (let i = 0; i < 4; i++) {
    if (p[i] === 0) {
      if (q[i] < 0) return null;
      continue;
    }
    const r = q[i] / p[i];
    if (p[i] < 0) {
      if (r > t1) return null;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return null;
      if (r < t1) t1 = r;
    }
  }
  return t0 <= t1 ? [t0, t1] : null;
}

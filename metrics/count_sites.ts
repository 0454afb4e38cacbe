/**
 * Pedestrian count sites from CSV files, for validating simulated counts against real ones.
 *
 * Two layouts are read, with column names given by the caller (no city's own names are built
 * in):
 *
 * - a sites file alone, one row per site with its id, longitude, latitude and count;
 * - a sites file (id, longitude, latitude) and a surveys file with one row per survey (site id
 *   and count, and any other columns), whose rows are filtered (`Year>=2022`, `Period=weekday`)
 *   and averaged per site.
 *
 * Filters compare numbers as numbers when both sides read as numbers, else text, ignoring case;
 * the operators are `=`, `!=`, `>=`, `<=`, `>` and `<`. A byte-order mark before the header is
 * ignored. Problems are {@linkcode CountDataError}s naming the file, and the line or column.
 *
 * @module
 */
// @ts-types="npm:@types/d3-dsv@3.0.7"
import { csvParse, type DSVRowArray } from "npm:d3-dsv@3.0.2";

/** A count site. */
export interface CountSite {
  /** Site id. */
  readonly id: string;
  /** Longitude (degrees, WGS84). */
  readonly lon: number;
  /** Latitude (degrees, WGS84). */
  readonly lat: number;
  /** Count (mean over the surveys used, when counts come from surveys). */
  readonly count: number;
  /** Surveys averaged (1 when the count comes from the sites file). */
  readonly surveys: number;
}

/** A filter on survey rows, such as `Year>=2022`. */
export interface CountFilter {
  /** Column name. */
  readonly column: string;
  /** Comparison. */
  readonly op: "=" | "!=" | ">=" | "<=" | ">" | "<";
  /** Value compared with. */
  readonly value: string;
}

/** Options of {@linkcode readCountSites}. */
export interface ReadCountSitesOptions {
  /** Name of the sites file, for messages. @default "sites" */
  file?: string;
  /** Column of the site id. @default "id" */
  idColumn?: string;
  /** Column of the longitude. @default "lon" */
  lonColumn?: string;
  /** Column of the latitude. @default "lat" */
  latColumn?: string;
  /** Column of the count in the sites file (without surveys). @default "count" */
  countColumn?: string;
  /** Surveys to average per site instead of a count column. @default none */
  surveys?: {
    /** The surveys file's text. */
    text: string;
    /** Its name, for messages. @default "surveys" */
    file?: string;
    /** Column of the site id. @default "id" */
    siteColumn?: string;
    /** Column of the count. @default "count" */
    countColumn?: string;
    /** Rows kept (all must hold). @default all rows */
    where?: readonly CountFilter[];
  };
}

/** What was read, and the sites left out with the reason. */
export interface CountSitesRead {
  /** Sites with a count. */
  sites: CountSite[];
  /** Sites without surveys that pass the filters, by id. */
  withoutSurveys: string[];
  /** Survey rows kept. */
  surveysUsed: number;
}

/** Bad count data: names the file and the line or column. */
export class CountDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CountDataError";
  }
}

/**
 * Parses `Year>=2022`, `Period=weekday`, `Month!=Spring`. Throws a {@linkcode CountDataError}
 * for text without an operator.
 *
 * @example
 * ```ts
 * import { parseCountFilter } from "./count_sites.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseCountFilter("Year>=2022"), { column: "Year", op: ">=", value: "2022" });
 * ```
 */
export function parseCountFilter(text: string): CountFilter {
  const m = /^\s*([^=!<>]+?)\s*(!=|>=|<=|=|>|<)\s*(.*?)\s*$/.exec(text);
  if (!m || m[1] === "") {
    throw new CountDataError(
      `filter '${text}' must look like column=value (operators =, !=, >=, <=, >, <)`,
    );
  }
  return { column: m[1], op: m[2] as CountFilter["op"], value: m[3] };
}

/**
 * Reads count sites (see the module doc) from the sites file's text `sitesText`.
 *
 * @example Sites with counts averaged from surveys of 2022 on
 * ```ts
 * import { parseCountFilter, readCountSites } from "./count_sites.ts";
 * import assert from "node:assert/strict";
 * const sites = "id,lon,lat\n1,151.2,-33.86\n2,151.21,-33.87\n";
 * const surveys = "site,year,total\n1,2021,50\n1,2022,100\n1,2023,200\n2,2023,40\n";
 * const read = readCountSites(sites, {
 *   surveys: { text: surveys, siteColumn: "site", countColumn: "total", where: [parseCountFilter("year>=2022")] },
 * });
 * assert.deepEqual(read.sites.map((s) => [s.id, s.count, s.surveys]), [["1", 150, 2], ["2", 40, 1]]);
 * ```
 */
export function readCountSites(
  sitesText: string,
  options: ReadCountSitesOptions = {},
): CountSitesRead {
  const file = options.file ?? "sites";
  const rows = _parse(sitesText, file);
  const idColumn = options.idColumn ?? "id";
  const lonColumn = options.lonColumn ?? "lon", latColumn = options.latColumn ?? "lat";
  const countColumn = options.surveys ? null : options.countColumn ?? "count";
  for (const c of [idColumn, lonColumn, latColumn, ...(countColumn ? [countColumn] : [])]) {
    _needColumn(rows, c, file);
  }
  const means = options.surveys ? _surveyMeans(options.surveys) : null;
  const sites: CountSite[] = [], withoutSurveys: string[] = [];
  rows.forEach((row, k) => {
    const line = k + 2;
    const id = (row[idColumn] ?? "").trim();
    const lon = _number(row[lonColumn], file, line, lonColumn);
    const lat = _number(row[latColumn], file, line, latColumn);
    if (Math.abs(lon) > 180 || Math.abs(lat) > 90) {
      throw new CountDataError(`${file}:${line}: '${lonColumn}'/'${latColumn}' must be degrees`);
    }
    if (means) {
      const m = means.get(id);
      if (!m) withoutSurveys.push(id);
      else sites.push({ id, lon, lat, count: m.sum / m.n, surveys: m.n });
    } else {
      const count = _number(row[countColumn!], file, line, countColumn!);
      if (count < 0) throw new CountDataError(`${file}:${line}: '${countColumn}' must be >= 0`);
      sites.push({ id, lon, lat, count, surveys: 1 });
    }
  });
  const surveysUsed = means ? [...means.values()].reduce((s, m) => s + m.n, 0) : 0;
  return { sites, withoutSurveys, surveysUsed };
}

function _surveyMeans(
  s: NonNullable<ReadCountSitesOptions["surveys"]>,
): Map<string, { sum: number; n: number }> {
  const file = s.file ?? "surveys";
  const rows = _parse(s.text, file);
  const site = s.siteColumn ?? "id", count = s.countColumn ?? "count";
  const where = s.where ?? [];
  for (const c of [site, count, ...where.map((f) => f.column)]) _needColumn(rows, c, file);
  const means = new Map<string, { sum: number; n: number }>();
  rows.forEach((row, k) => {
    if (!where.every((f) => _holds(row[f.column] ?? "", f))) return;
    const value = _number(row[count], file, k + 2, count);
    const id = (row[site] ?? "").trim();
    const m = means.get(id) ?? { sum: 0, n: 0 };
    m.sum += value;
    m.n++;
    means.set(id, m);
  });
  return means;
}

function _holds(cell: string, f: CountFilter): boolean {
  const a = cell.trim(), b = f.value;
  const na = Number(a), nb = Number(b);
  const numeric = a !== "" && b !== "" && Number.isFinite(na) && Number.isFinite(nb);
  const cmp = numeric ? Math.sign(na - nb) : a.toLowerCase().localeCompare(b.toLowerCase());
  switch (f.op) {
    case "=":
      return cmp === 0;
    case "!=":
      return cmp !== 0;
    case ">=":
      return cmp >= 0;
    case "<=":
      return cmp <= 0;
    case ">":
      return cmp > 0;
    case "<":
      return cmp < 0;
  }
}

function _parse(text: string, file: string): DSVRowArray<string> {
  const rows = csvParse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (rows.columns.length === 0) throw new CountDataError(`${file}: no header row`);
  return rows;
}

function _needColumn(rows: DSVRowArray<string>, column: string, file: string): void {
  if (!rows.columns.includes(column)) {
    throw new CountDataError(
      `${file}: no column '${column}' (its columns are ${rows.columns.join(", ")})`,
    );
  }
}

function _number(text: string | undefined, file: string, line: number, column: string): number {
  const v = Number((text ?? "").trim());
  if (text === undefined || text.trim() === "" || !Number.isFinite(v)) {
    throw new CountDataError(
      `${file}:${line}: '${column}' must be a number: got '${text ?? ""}'`,
    );
  }
  return v;
}

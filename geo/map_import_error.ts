/**
 * The one error a map reader throws for a bad map file: a one-line message that names the file
 * and what is wrong, which the command-line tools print as `error: …` with exit code 2.
 *
 * @module
 */

/**
 * A map file that cannot be turned into a city: corrupt or truncated data, XML that is not
 * OpenStreetMap, coordinates out of range, an empty crop box, a box with no ways, a relation
 * with missing members (with `onIncomplete: "error"`). The message is `"<file>: <reason>"`.
 *
 * @example The message names the file
 * ```ts
 * import { MapImportError } from "./map_import_error.ts";
 * import assert from "node:assert/strict";
 * const error = new MapImportError("city.osm", "the root element is <html>, not <osm>");
 * assert.equal(error.message, "city.osm: the root element is <html>, not <osm>");
 * ```
 */
export class MapImportError extends Error {
  /** The file (or a label such as `"<memory>"`). */
  readonly file: string;
  /** What is wrong, without the file name. */
  readonly reason: string;

  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = "MapImportError";
    this.file = file;
    this.reason = reason;
  }
}

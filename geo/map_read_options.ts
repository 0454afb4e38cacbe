/**
 * Options shared by the map readers.
 *
 * @module
 */

/** Called while a reader works through a file: `done` of `total` units (bytes). */
export type MapReadProgress = (done: number, total: number) => void;

/** Options of the map readers. */
export interface MapReadOptions {
  /** The file name used in messages. @default "<memory>" */
  file?: string;
  /** Progress callback, called a few times per megabyte. @default none */
  onProgress?: MapReadProgress;
}

/**
 * Colours of the `crossing` debug overlay (`viewer/crossing_overlay.ts`), shared by the server,
 * which draws it, and the page, whose legend names them.
 *
 * @module
 */

/** Colours (RGBA) of the predicted car paths. */
export const PREDICTION_COLORS = {
  /** A car that may reach the crosswalk before the pedestrian is across. */
  threat: [240, 50, 50, 235],
  /** A car that cannot. */
  clear: [60, 225, 110, 220],
} as const;

/** Colours (RGBA) of the route's legs, in order (cycled). */
export const ROUTE_LEG_COLORS: readonly (readonly number[])[] = [
  [255, 255, 255, 230],
  [90, 200, 255, 230],
  [255, 170, 60, 230],
  [180, 130, 255, 230],
  [130, 235, 130, 230],
  [255, 110, 180, 230],
];

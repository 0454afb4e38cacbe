/**
 * Navigation: where agents want to go. Navigators write preferred velocities, the seam to the
 * avoidance strategies.
 *
 * @example
 * ```ts
 * import { createGoalSeeker } from "./mod.ts";
 * const navigator = createGoalSeeker({ slowingDistance: 1 });
 * ```
 *
 * @module
 */
export { createGoalSeeker, GOAL_SEEKER_OPTIONS, type GoalSeekerOptions } from "./goal_seeker.ts";

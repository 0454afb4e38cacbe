/**
 * Avoidance strategies and the registry that finds them by name.
 *
 * Importing this module registers every built-in strategy in {@linkcode strategies}. A script
 * adds its own with `strategies.register(factory)`; it then works in scenario files and in
 * `compare` like the built-in ones.
 *
 * @example List the registered strategies
 * ```ts
 * import { strategies } from "./mod.ts";
 * import assert from "node:assert/strict";
 * assert(strategies.names().includes("none"));
 * ```
 *
 * @module
 */
import { StrategyRegistry } from "../core/registry.ts";
import { boxcastStrategy } from "./boxcast.ts";
import { createPrioritySteeringFactory } from "./priority_steering.ts";
import { noneStrategy } from "./none.ts";
import { raycastClusterStrategy } from "./raycast_cluster.ts";
import { orcaStrategy } from "./orca.ts";
import { repulsionStrategy } from "./repulsion.ts";
import { socialForceStrategy } from "./social_force.ts";

export { createNoneStrategy, type NoneOptions, noneStrategy } from "./none.ts";
export { createOrcaStrategy, ORCA_OPTIONS, type OrcaOptions, orcaStrategy } from "./orca.ts";
export {
  createSocialForceStrategy,
  SOCIAL_FORCE_OPTIONS,
  type SocialForceOptions,
  socialForceStrategy,
} from "./social_force.ts";
export {
  createRepulsionStrategy,
  REPULSION_BLOCKED_COLUMN,
  REPULSION_OPTIONS,
  type RepulsionOptions,
  repulsionStrategy,
} from "./repulsion.ts";

export {
  BOXCAST_OPTIONS,
  type BoxcastOptions,
  boxcastStrategy,
  createBoxcastStrategy,
} from "./boxcast.ts";
export {
  composeBehaviours,
  createPrioritySteeringFactory,
  createPriorityStrategy,
  type PrioritySteeringOptions,
} from "./priority_steering.ts";
export {
  createRaycastClusterStrategy,
  RAYCAST_CLUSTER_OPTIONS,
  type RaycastClusterOptions,
  raycastClusterStrategy,
} from "./raycast_cluster.ts";

/** The default registry, holding every built-in strategy. */
export const strategies: StrategyRegistry = new StrategyRegistry();

strategies.register(noneStrategy);
strategies.register(orcaStrategy);
strategies.register(socialForceStrategy);
strategies.register(repulsionStrategy);
strategies.register(boxcastStrategy);
strategies.register(raycastClusterStrategy);
strategies.register(createPrioritySteeringFactory(() => strategies));

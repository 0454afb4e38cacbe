/**
 * The crowd viewer: deck.gl crowds over map tiles in the browser, live or replayed, with up to
 * four strategies side by side (`deno task view`, `deno task demo`).
 *
 * - Server side (Deno): a {@linkcode FrameSource} opens one {@linkcode Playback} per page —
 *   {@linkcode LiveFrameSource} (a {@linkcode LiveSimulation} per page, one world per strategy in
 *   workers) or {@linkcode ReplayFrameSource} (recordings, with collisions and salsa measured by
 *   {@linkcode measureRecording}); {@linkcode startViewerServer} serves the page, checks who asks
 *   (`Host`, `Origin`) and streams frames over a WebSocket; {@linkcode buildClientBundle} bundles
 *   the page script.
 * - The wire format, shared with the page: `frame_protocol.ts` (binary agent frames and debug
 *   geometry, JSON control messages).
 * - Browser side: `client/` (bundled, never imported by the simulation).
 *
 * Nothing in the simulation folders imports this folder.
 *
 * @example Encode a world's agents as a frame and read it back
 * ```ts
 * import { decodeAgentFrame, encodeWorldFrame } from "./mod.ts";
 * import { World } from "../core/world.ts";
 * import { createNoneStrategy } from "../strategies/none.ts";
 * import assert from "node:assert/strict";
 * const world = new World({ strategy: createNoneStrategy() });
 * world.addAgent({ x: 3, y: -1 });
 * const frame = decodeAgentFrame(encodeWorldFrame(world));
 * assert.deepEqual([...frame.positions], [3, -1]);
 * ```
 *
 * @module
 */
export * from "./frame_protocol.ts";
export {
  encodeWorldFrame,
  type EncodeWorldFrameOptions,
  type FrameMetrics,
} from "./world_frame.ts";
export { classifyAgentStates, SLOWED_SHARE, STOPPED_SPEED } from "./agent_state.ts";
export {
  availableOverlays,
  DebugOverlayBuilder,
  OVERLAY_ALL_AGENTS_LIMIT,
  OVERLAY_COLORS,
} from "./debug_overlays.ts";
export { inspectAgent } from "./inspect_agent.ts";
export {
  allocateTrafficFrame,
  carCentreLines,
  decodeTrafficFrame,
  signalIndices,
  TRAFFIC_HEADER_BYTES,
  type TrafficFrame,
  trafficFrameBytes,
} from "./traffic_frame.ts";
export { crosswalkStripes, sceneFromCityTraffic, TrafficScene } from "./traffic_scene.ts";
export { readSceneFile, sceneFilePath, writeSceneFile } from "./scene_file.ts";
export {
  readTrafficTrack,
  type TrafficTrack,
  trafficTrackPath,
  TrafficTrackRecorder,
  type TrafficTrackRecorderOptions,
} from "./traffic_track.ts";
export {
  CrossingOverlay,
  type CrossingOverlaySource,
  PREDICTION_COLORS,
  ROUTE_LEG_COLORS,
} from "./crossing_overlay.ts";
export { DEFAULT_ANCHOR, sceneFromHeader, sceneFromWorld } from "./scene_info.ts";
export type { FrameSource, PageSink, Playback, PlaybackInfo } from "./frame_source.ts";
export {
  DEFAULT_MAX_LIVE_PAGES,
  LiveFrameSource,
  type LiveFrameSourceOptions,
} from "./live_source.ts";
export { ReplayFrameSource } from "./replay_source.ts";
export {
  DEFAULT_RECORDED_RADIUS,
  measureRecording,
  type RecordedMetrics,
} from "./recorded_metrics.ts";
export { type HostPolicy, hostPolicyFor, LOCAL_HOST_NAMES } from "./request_guard.ts";
export {
  LiveSimulation,
  type LiveSimulationOptions,
  type LiveTick,
  MAX_VIEWS,
} from "./live_simulation.ts";
export {
  encodeRecordedFrame,
  loadRecordings,
  type Recording,
  ReplayPlayer,
  type ReplayPlayerOptions,
  replayScene,
  replayTimeline,
  replayViews,
} from "./replay_player.ts";
export {
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_TILE_URL,
  OSM_ATTRIBUTION,
  startViewerServer,
  type ViewerServer,
  type ViewerServerOptions,
  type ViewerServerStats,
} from "./server.ts";
export {
  buildClientBundle,
  BundleError,
  type ClientBundle,
  clientSourceHash,
} from "./client_bundle.ts";

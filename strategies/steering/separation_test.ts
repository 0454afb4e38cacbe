import assert from "node:assert/strict";
import type { StepContext } from "../../core/strategy.ts";
import { World } from "../../core/world.ts";
import { createNoneStrategy } from "../none.ts";
import { createSeparationBehaviour, type SeparationOptions } from "./separation.ts";

/** Acceleration of agent 0 (at the origin, walking east) with neighbours at `others`. */
function push(
  options: Partial<SeparationOptions>,
  others: [number, number][],
  wall?: [number, number][],
) {
  const world = new World({ strategy: createNoneStrategy() });
  if (wall) world.obstacles.addWall(wall);
  world.addAgent({ x: 0, y: 0, vx: 1 });
  for (const [x, y] of others) world.addAgent({ x, y });
  world.prepare();
  const ctx = {
    agents: world.agents,
    grid: world.grid,
    obstacles: world.obstacles,
    stepIndex: 0,
  } as StepContext;
  const separation = createSeparationBehaviour(options);
  separation.prepare!(ctx, 0, world.agents.count);
  const out = new Float64Array(2);
  separation.accelerate(ctx, 0, out);
  return [out[0], out[1]];
}

const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;

Deno.test("separation repels more strongly when closer, inverse square or inverse", () => {
  // Gaps 0.1 m and 0.2 m: 0.02/0.01 = 2 and 0.02/0.04 = 0.5 m/s², backwards.
  assert.ok(close(push({}, [[0.6, 0]])[0], -2));
  assert.ok(close(push({}, [[0.7, 0]])[0], -0.5));
  assert.ok(close(push({ falloff: "inverse" }, [[0.7, 0]])[0], -0.1));
  // Beyond the range: nothing.
  assert.deepEqual(push({ range: 0.15 }, [[0.7, 0]]), [0, 0]);
  // Capped.
  assert.ok(close(push({}, [[0.51, 0]])[0], -4));
});

Deno.test("separation ignores neighbours outside its field of view", () => {
  // Directly behind a walker heading east.
  assert.deepEqual(push({}, [[-0.6, 0]]), [0, 0]);
  assert.ok(close(push({ fieldOfViewDeg: 360 }, [[-0.6, 0]])[0], 2));
  // 90° to the side is inside the default 200° field of view.
  assert.ok(close(push({}, [[0, 0.6]])[1], -2));
});

Deno.test("separation repels from walls unless told not to", () => {
  const wall: [number, number][] = [[-5, 0.45], [5, 0.45]]; // 0.2 m from the body's surface
  assert.ok(close(push({}, [], wall)[1], -0.5));
  assert.deepEqual(push({ obstacles: false }, [], wall), [0, 0]);
});

import assert from "node:assert/strict";
import type { StepContext } from "../../core/strategy.ts";
import { World } from "../../core/world.ts";
import { createNoneStrategy } from "../none.ts";
import { createDragBehaviour, type DragOptions } from "./drag.ts";

/** Drag on an agent whose velocity went from `before` to `after` in one step of 0.05 s. */
function drag(options: Partial<DragOptions>, before: [number, number], after: [number, number]) {
  const behaviour = createDragBehaviour(options);
  const world = new World({ strategy: { ...createNoneStrategy(), columns: behaviour.columns } });
  world.addAgent({ x: 0, y: 0, vx: before[0], vy: before[1] });
  const ctx = { agents: world.agents, dt: 0.05 } as StepContext;
  behaviour.prepare!(ctx, 0, 1);
  world.agents.vx[0] = after[0];
  world.agents.vy[0] = after[1];
  behaviour.prepare!(ctx, 0, 1);
  const out = new Float64Array(2);
  behaviour.accelerate(ctx, 0, out);
  return [out[0], out[1]];
}

const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;

Deno.test("drag is zero at a steady walk", () => {
  assert.deepEqual(drag({}, [1.3, 0.2], [1.3, 0.2]).map(Math.abs), [0, 0]);
});

Deno.test("drag opposes linear and turning acceleration with their own shares", () => {
  // Sped up by 0.1 m/s along x (2 m/s²) and turned by 0.1 m/s along y (2 m/s²).
  const [ax, ay] = drag({ linearDrag: 0.5, angularDrag: 0.25 }, [1, 0], [1.1, 0.1]);
  // Split along the new velocity (1.1, 0.1): recombine and compare with the shares.
  const ux = 1.1 / Math.hypot(1.1, 0.1), uy = 0.1 / Math.hypot(1.1, 0.1);
  const dvx = 0.1 / 0.05, dvy = 0.1 / 0.05;
  const along = dvx * ux + dvy * uy, across = -dvx * uy + dvy * ux;
  assert.ok(close(ax * ux + ay * uy, -0.5 * along));
  assert.ok(close(-ax * uy + ay * ux, -0.25 * across));
});

import assert from "node:assert/strict";
import type { StepContext } from "../../core/strategy.ts";
import { World } from "../../core/world.ts";
import { createNoneStrategy } from "../none.ts";
import { ContactConstraint } from "./contact.ts";

/** A strategy that walks at the preferred velocity, limited by contact handling. */
function contactOnly() {
  const contact = new ContactConstraint();
  const vel = new Float64Array(2);
  return {
    ...createNoneStrategy(),
    name: "contact-only",
    neighborRadius: 1,
    computeNewVelocities(ctx: StepContext, begin: number, end: number) {
      contact.prepare(ctx);
      const a = ctx.agents;
      for (let i = begin; i < end; i++) {
        vel[0] = a.prefVx[i];
        vel[1] = a.prefVy[i];
        contact.apply(ctx, i, vel);
        a.newVx[i] = vel[0];
        a.newVy[i] = vel[1];
      }
    },
  };
}

function smallestGap(world: World): number {
  const a = world.agents;
  let gap = Infinity;
  for (let i = 0; i < a.count; i++) {
    for (let j = i + 1; j < a.count; j++) {
      gap = Math.min(
        gap,
        Math.hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]) - a.radius[i] - a.radius[j],
      );
    }
  }
  return gap;
}

Deno.test("contact handling stops a pair running into each other at contact, without overlap", () => {
  const world = new World({ strategy: contactOnly(), dt: 0.1 });
  world.addAgent({ x: -1, y: 0, maxSpeed: 5 });
  world.addAgent({ x: 1, y: 0.1, maxSpeed: 5 });
  let gap = Infinity;
  for (let s = 0; s < 40; s++) {
    world.agents.prefVx[0] = 3; // 3 m/s: 0.3 m per step, more than half the final gap
    world.agents.prefVx[1] = -3;
    world.step();
    gap = Math.min(gap, smallestGap(world));
  }
  assert.ok(gap >= 0, `smallest gap ${gap}`);
  // Tangential motion is kept: the pair slides past each other instead of stopping.
  assert.ok(world.agents.px[0] > 1, `x ${world.agents.px[0].toFixed(2)}`);
});

Deno.test("contact handling keeps a packed crowd pushing at one point from interpenetrating", () => {
  const world = new World({ strategy: contactOnly() });
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 6; c++) world.addAgent({ x: c * 0.55 + (r % 2) * 0.27, y: r * 0.5 });
  }
  for (let s = 0; s < 100; s++) {
    const a = world.agents;
    for (let i = 0; i < a.count; i++) {
      const dx = 1.4 - a.px[i], dy = 1.2 - a.py[i], d = Math.hypot(dx, dy) || 1;
      a.prefVx[i] = (1.3 * dx) / d;
      a.prefVy[i] = (1.3 * dy) / d;
    }
    world.step();
    assert.ok(smallestGap(world) > -1e-9, `step ${s}: gap ${smallestGap(world)}`);
  }
});

Deno.test("contact handling stops an agent at a wall", () => {
  const world = new World({ strategy: contactOnly() });
  world.obstacles.addWall([[2, -5], [2, 5]]);
  world.addAgent({ x: 0, y: 0 });
  for (let s = 0; s < 60; s++) {
    world.agents.prefVx[0] = 1.5;
    world.agents.prefVy[0] = 0.5;
    world.step();
  }
  const a = world.agents;
  assert.ok(a.px[0] <= 2 - 0.25 + 1e-12, `x ${a.px[0]}`);
  assert.ok(a.px[0] > 2 - 0.25 - 0.01, "it reaches the wall");
  assert.ok(a.py[0] > 1, "and slides along it");
});

/** Agent 0 pinned for `pinnedS` s, walking east against `oncoming` people walking west. */
function pressTurn(oncoming: number, pinnedS: number): { turn: number; gapAfter: number } {
  const world = new World({ strategy: createNoneStrategy() });
  world.addAgent({ x: 0, y: 0 });
  world.agents.prefVx[0] = 1.3;
  // Touching 0 ahead and diagonally ahead (surface gap 1 cm), as at the interface of two crowds.
  const places = [[0.51, 0], [0.36, 0.36], [0.36, -0.36]];
  for (let k = 0; k < oncoming; k++) {
    world.addAgent({ x: places[k][0], y: places[k][1] });
    world.agents.prefVx[k + 1] = -1.3;
  }
  world.prepare();
  const ctx = {
    agents: world.agents,
    grid: world.grid,
    obstacles: world.obstacles,
    dt: 0.05,
    walkingSide: "right",
  } as never;
  const contact = new ContactConstraint();
  contact.prepare(ctx);
  const pinned = new Float64Array(world.agents.count);
  pinned[0] = pinnedS;
  const turns = new Float64Array(world.agents.count);
  const vel = new Float64Array([1.3, 0]);
  const turn = contact.apply(ctx, 0, vel, 0, pinned, turns);
  // Where the head-on neighbour's surface is after one step at this velocity (m).
  return { turn, gapAfter: 0.51 - 0.5 - vel[0] * 0.05 };
}

Deno.test("contact: pinned against two people coming head-on, the shoulders turn", () => {
  const pressed = pressTurn(2, 1);
  assert.equal(pressed.turn, 0.4); // of the pair's combined radii
  // The pair may now close to 0.3 m apart: the agent walks into the room it gained, at most half
  // of it in one step (the neighbour closes the other half).
  assert.ok(pressed.gapAfter < 0, `surface gap after a step ${pressed.gapAfter.toFixed(3)} m`);
  assert.ok(pressed.gapAfter >= -0.1, `overlap ${(-pressed.gapAfter).toFixed(3)} m`);
});

Deno.test("contact: one person coming head-on, or not pinned, turns nobody", () => {
  for (const [oncoming, pinnedS] of [[1, 1], [2, 0]]) {
    const r = pressTurn(oncoming, pinnedS);
    assert.equal(r.turn, 0, `${oncoming} oncoming, pinned ${pinnedS} s`);
    assert.ok(r.gapAfter >= 0, `surface gap after a step ${r.gapAfter.toFixed(3)} m`);
  }
});

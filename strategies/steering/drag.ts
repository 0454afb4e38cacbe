/**
 * Drag (the `DragBehaviour` of "Crossing citizens: a simple simulation of pedestrian crossing",
 * project report): smooths linear and angular acceleration so that motion has no sudden jerks.
 * The original damps speed and turn rate of a physics body whose speed comes from a thrust/drag
 * balance; here velocities are set by seek, so damping the velocity itself would lower the
 * walking speed. Drag therefore opposes the last step's change of velocity: its component along
 * the walking direction (linear acceleration) scaled by `linearDrag`, and across it (turning)
 * scaled by `angularDrag`. At a steady walk it is zero.
 *
 * @module
 */
import type { ColumnSpec } from "../../core/agent_store.ts";
import { type OptionSpecs, resolveOptions } from "../../core/options.ts";
import type { StepContext } from "../../core/strategy.ts";
import type { BehaviourFactory, SteeringBehaviour } from "./behaviour.ts";

/** Options of {@linkcode createDragBehaviour}. */
export interface DragOptions {
  /** Share of the last step's linear acceleration opposed (dimensionless). @default 1 */
  linearDrag: number;
  /** Share of the last step's turning (sideways) acceleration opposed. @default 1 */
  angularDrag: number;
}

/** Descriptors of {@linkcode DragOptions}. */
export const DRAG_OPTIONS: OptionSpecs<DragOptions> = {
  linearDrag: {
    type: "number",
    default: 1,
    min: 0,
    max: 1,
    doc: "linearDrag: share of the last linear acceleration opposed; the group weight scales it",
  },
  angularDrag: {
    type: "number",
    default: 1,
    min: 0,
    max: 1,
    doc: "angularDrag: share of the last turning acceleration opposed",
  },
};

/** Per-agent columns: the velocity seen at the previous step, and whether there was one. */
export const DRAG_COLUMNS: readonly ColumnSpec[] = [
  { name: "drag.lastVx", type: "f64", kind: "state", doc: "velocity x at the previous step (m/s)" },
  { name: "drag.lastVy", type: "f64", kind: "state", doc: "velocity y at the previous step (m/s)" },
  {
    name: "drag.primed",
    type: "u8",
    kind: "state",
    doc: "1 once drag.lastVx/lastVy hold a velocity",
  },
];

class Drag implements SteeringBehaviour {
  readonly name = "drag";
  readonly neighborRadius = 0;
  readonly columns = DRAG_COLUMNS;
  readonly #linear: number;
  readonly #angular: number;
  #ax = new Float64Array(0);
  #ay = new Float64Array(0);

  constructor(o: DragOptions) {
    this.#linear = o.linearDrag;
    this.#angular = o.angularDrag;
  }

  prepare(ctx: StepContext, begin: number, end: number): void {
    const a = ctx.agents;
    if (this.#ax.length < a.count) {
      this.#ax = new Float64Array(a.capacity);
      this.#ay = new Float64Array(a.capacity);
    }
    const lastVx = a.column("drag.lastVx"), lastVy = a.column("drag.lastVy");
    const primed = a.column<Uint8Array>("drag.primed");
    const vx = a.vx, vy = a.vy, outX = this.#ax, outY = this.#ay;
    const kl = this.#linear / ctx.dt, ka = this.#angular / ctx.dt;
    for (let i = begin; i < end; i++) {
      const ux = vx[i], uy = vy[i];
      const dvx = ux - lastVx[i], dvy = uy - lastVy[i];
      lastVx[i] = ux;
      lastVy[i] = uy;
      if (primed[i] === 0) {
        // No previous step: nothing to oppose yet.
        primed[i] = 1;
        outX[i] = outY[i] = 0;
        continue;
      }
      const s2 = ux * ux + uy * uy;
      if (!(s2 > 0)) {
        // Standing: damp the change as a whole.
        outX[i] = -kl * dvx;
        outY[i] = -kl * dvy;
        continue;
      }
      const along = (dvx * ux + dvy * uy) / s2; // Δv = along·v + across
      const px = along * ux, py = along * uy;
      outX[i] = -kl * px - ka * (dvx - px);
      outY[i] = -kl * py - ka * (dvy - py);
    }
  }

  accelerate(_ctx: StepContext, i: number, out: Float64Array): void {
    out[0] = this.#ax[i];
    out[1] = this.#ay[i];
  }
}

/**
 * Creates the drag behaviour. It keeps the previous velocity in the `drag.lastVx`/`lastVy`
 * columns, updated for every agent every step.
 *
 * @example Opposes the speed-up of the last step
 * ```ts
 * import { createDragBehaviour } from "./drag.ts";
 * import { World } from "../../core/world.ts";
 * import { createNoneStrategy } from "../none.ts";
 * import assert from "node:assert/strict";
 * const drag = createDragBehaviour({ linearDrag: 0.5 });
 * const world = new World({ strategy: { ...createNoneStrategy(), columns: drag.columns } });
 * world.addAgent({ x: 0, y: 0, vx: 1 });
 * const ctx = { agents: world.agents, dt: 0.05 } as never;
 * drag.prepare!(ctx, 0, 1); // first step: nothing to oppose
 * world.agents.vx[0] = 1.1; // sped up by 0.1 m/s in one step (2 m/s²)
 * drag.prepare!(ctx, 0, 1);
 * const out = new Float64Array(2);
 * drag.accelerate(ctx, 0, out);
 * assert.ok(Math.abs(out[0] + 1) < 1e-9); // half of 2 m/s², opposed
 * ```
 */
export function createDragBehaviour(options: Partial<DragOptions> = {}): SteeringBehaviour {
  return new Drag(resolveOptions("drag behaviour", DRAG_OPTIONS, options));
}

/** Catalogue entry of the drag behaviour. */
export const dragBehaviour: BehaviourFactory<DragOptions> = {
  name: "drag",
  description: "smooth motion by opposing the last step's linear and turning acceleration",
  options: DRAG_OPTIONS,
  create: createDragBehaviour,
};

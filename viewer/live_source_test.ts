import assert from "node:assert/strict";
import { LiveFrameSource } from "./live_source.ts";
import { type AgentFrame, decodeAgentFrame, MessageKind, messageKind } from "./frame_protocol.ts";
import { decodeTrafficFrame, type TrafficFrame } from "./traffic_frame.ts";
import type { PageSink } from "./frame_source.ts";

/** A page that keeps the step of every frame it gets. */
function page(): PageSink & { steps: number[] } {
  const steps: number[] = [];
  return {
    steps,
    frames: (frames) => steps.push(decodeAgentFrame(frames[0]).step),
    error: () => {},
    statusChanged: () => {},
  };
}

async function until(condition: () => boolean): Promise<void> {
  const end = performance.now() + 10_000;
  while (!condition()) {
    if (performance.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("a page that leaves hands its run back, rebuilt from time 0 with the first seed and speed", async () => {
  const source = await LiveFrameSource.start({
    scenario: "corridor",
    strategies: ["none"],
    agents: 6,
    seed: 3,
  });
  try {
    const first = page();
    const a = await source.open(first);
    a.setSpeed(8);
    await a.restart(11);
    assert.equal(a.info().seed, 11);
    await until(() => first.steps.some((s) => s > 20));
    a.close();
    assert.equal(source.pages, 0);
    const second = page();
    const b = await source.open(second);
    await until(() => second.steps.length > 0);
    assert.equal(b.info().seed, 3);
    assert.equal(b.speed, 1);
    assert.equal(second.steps[0], 0);
    b.close();
  } finally {
    source.close();
  }
});

Deno.test("at most maxPages pages run at once; a page that leaves makes room", async () => {
  const source = await LiveFrameSource.start({
    scenario: "corridor",
    strategies: ["none"],
    agents: 4,
    maxPages: 1,
    paused: true,
  });
  try {
    const a = await source.open(page());
    await assert.rejects(
      () => source.open(page()),
      /at most 1 pages can run live simulations at once: close one and reload/,
    );
    assert.equal(a.paused, true);
    a.close();
    const b = await source.open(page());
    b.close();
    await assert.rejects(
      () => LiveFrameSource.start({ scenario: "corridor", strategies: ["none"], maxPages: 0 }),
      /'maxPages' must be an integer >= 1: current value is 0/,
    );
  } finally {
    source.close();
  }
});

Deno.test("a page of the crosswalk gets each view's cars and lights with its agents, step by step", async () => {
  const source = await LiveFrameSource.start({
    scenario: "crosswalk",
    strategies: ["none", "orca"],
    agents: 20,
    cars: 8,
  });
  try {
    const ticks: { agents: AgentFrame[]; traffic: TrafficFrame[] }[] = [];
    const playback = await source.open({
      frames: (frames, extra) =>
        ticks.push({
          agents: frames.map(decodeAgentFrame),
          traffic: extra.filter((m) => messageKind(m) === MessageKind.traffic).map(
            decodeTrafficFrame,
          ),
        }),
      error: () => {},
      statusChanged: () => {},
    });
    await until(() => ticks.length >= 5);
    playback.close();
    const scene = playback.info().scene;
    assert.equal(scene.traffic?.signals.length, 4);
    assert.equal(scene.traffic?.stripes.length, 7);
    for (const tick of ticks) {
      assert.deepEqual(tick.traffic.map((t) => t.view).sort(), [0, 1]);
      for (const t of tick.traffic) {
        const frame = tick.agents[t.view];
        assert.equal(t.step, frame.step);
        assert.equal(t.cars, 8);
        assert.equal(t.signals, 4);
        assert.equal(t.states, frame.count);
      }
    }
  } finally {
    source.close();
  }
});

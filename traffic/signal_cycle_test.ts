import assert from "node:assert/strict";
import { SignalColor, SignalCycle, SimpleTrafficLight } from "./signal_cycle.ts";

Deno.test("signal cycle: the stage at t is a pure, periodic function of t", () => {
  const cycle = new SignalCycle([20, 3, 2, 8, 3, 2], { offset: 13 });
  assert.equal(cycle.period, 38);
  for (let t = -100; t < 200; t += 0.37) {
    const k = cycle.stageAt(t);
    assert.equal(cycle.stageAt(t + 38), k);
    assert.equal(cycle.stageAt(t - 3 * 38), k);
    // Asking twice, or after asking about other times, changes nothing.
    cycle.stageAt(t + 5);
    assert.equal(cycle.stageAt(t), k);
    const left = cycle.timeLeftInStage(t), run = cycle.timeInStage(t);
    assert(Math.abs(left + run - cycle.durations[k]) < 1e-9);
    // Just before the stage ends it is still k; just after, the next stage.
    assert.equal(cycle.stageAt(t + left - 1e-6), k);
    assert.equal(cycle.stageAt(t + left + 1e-6), (k + 1) % 6);
  }
  // At t = 0 the cycle is 13 s in: stage 0 (0–20 s).
  assert.equal(cycle.stageAt(0), 0);
  assert.equal(cycle.timeLeftInStage(0), 7);
  assert.equal(cycle.timeUntilStage(3, 0), 12);
  assert.equal(cycle.timeUntilStage(0, 0), 0);
  assert.equal(cycle.timeUntilStage(0, 8), 38 - 21);
});

Deno.test("signal cycle: zero-length stages are never current", () => {
  const cycle = new SignalCycle([10, 0, 5]);
  for (let t = 0; t < 15; t += 0.5) assert.notEqual(cycle.stageAt(t), 1);
  assert.equal(cycle.stageAt(10), 2);
});

Deno.test("simple traffic light: colours follow green, yellow, red from the starting colour", () => {
  const light = new SimpleTrafficLight({
    greenTime: 10,
    yellowTime: 3,
    redTime: 12,
    startWith: "red",
  });
  assert.equal(light.colorAt(0), SignalColor.red);
  assert.equal(light.colorAt(11.9), SignalColor.red);
  assert.equal(light.colorAt(12), SignalColor.green);
  assert.equal(light.colorAt(22), SignalColor.yellow);
  assert.equal(light.colorAt(25), SignalColor.red);
  assert.equal(light.timeUntil(SignalColor.green, 5), 7);
  assert.equal(light.timeUntil(SignalColor.red, 5), 0);
  assert.throws(() => new SimpleTrafficLight({ yellowTime: -1 }), /'yellowTime' must be/);
  assert.throws(() => new SignalCycle([0, 0]), /add up to > 0/);
});

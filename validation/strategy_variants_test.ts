import assert from "node:assert/strict";
import type { OptionSpec } from "../core/options.ts";
import { strategies } from "../strategies/mod.ts";
import { withStrategyVariants } from "./strategy_variants.ts";

Deno.test("a strategy variant runs the strategy with the options it names, numbers and booleans read by type", () => {
  const name = "social-force:socialStrength=1000:noBackwardPush=true";
  const registry = withStrategyVariants(strategies, [name]);
  assert.ok(registry.has(name));
  const options = registry.get(name).options as Record<string, OptionSpec>;
  assert.equal(options.socialStrength.default, 1000);
  assert.equal(options.noBackwardPush.default, true);
  assert.equal(registry.create(name).name, "social-force");
  assert.equal(strategies.has(name), false, "the base registry is left alone");
});

Deno.test("a strategy variant with an unknown option or a bad value fails naming it", () => {
  assert.throws(
    () => withStrategyVariants(strategies, ["social-force:strength=3"]),
    /'strength=3' is not option=value of one of social-force's options/,
  );
  assert.throws(
    () => withStrategyVariants(strategies, ["social-force:parameters=calm"]),
    /parameters/,
  );
  assert.throws(() => withStrategyVariants(strategies, ["orca:timeHorizon=-1"]), /timeHorizon/);
});

import assert from "node:assert/strict";
import { StrategyRegistry, UnknownStrategyError } from "./registry.ts";
import { type OptionSpecs, resolveOptions } from "./options.ts";
import type { Strategy, StrategyFactory } from "./strategy.ts";

function factory(name: string): StrategyFactory<{ gain: number }> {
  const options: OptionSpecs<{ gain: number }> = {
    gain: { type: "number", default: 1, min: 0, doc: "gain" },
  };
  return {
    name,
    description: `${name} for tests`,
    options,
    create(given = {}): Strategy {
      const { gain } = resolveOptions<{ gain: number }>(`${name} strategy`, options, given);
      return { name, neighborRadius: gain, computeNewVelocities() {} };
    },
  };
}

Deno.test("registry creates strategies by name with validated options", () => {
  const registry = new StrategyRegistry();
  registry.register(factory("alpha"));
  registry.register(factory("beta-2"));
  assert.deepEqual(registry.names(), ["alpha", "beta-2"]);
  assert.equal(registry.has("alpha"), true);
  assert.equal(registry.has("gamma"), false);
  assert.equal(registry.create("beta-2", { gain: 3 }).neighborRadius, 3);
  assert.equal(registry.create("alpha").neighborRadius, 1);
  assert.throws(
    () => registry.create("alpha", { gain: -1 }),
    /Cannot create alpha strategy as 'gain' must be >= 0/,
  );
  assert.deepEqual(registry.list().map((f) => f.name), ["alpha", "beta-2"]);
});

Deno.test("registry errors name the strategy and list the registered ones", () => {
  const registry = new StrategyRegistry();
  assert.throws(
    () => registry.get("orca"),
    /Unknown strategy 'orca': no strategies are registered/,
  );
  registry.register(factory("alpha"));
  assert.throws(() => registry.get("orca"), (e: Error) => {
    assert(e instanceof UnknownStrategyError && e instanceof RangeError);
    assert.equal(e.message, "Unknown strategy 'orca': registered strategies are alpha");
    return true;
  });
  assert.throws(
    () => registry.register(factory("alpha")),
    /'alpha': the name is already registered/,
  );
  assert.throws(
    () => registry.register(factory("Bad Name")),
    /names are lower-case letters, digits and dashes/,
  );
});

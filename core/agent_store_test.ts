import assert from "node:assert/strict";
import { type AgentHandle, AgentStore, columnLimits, CORE_COLUMNS } from "./agent_store.ts";

Deno.test("agent store handles survive swap-remove of other agents", () => {
  const store = new AgentStore(4);
  const handles: AgentHandle[] = [];
  for (let i = 0; i < 6; i++) handles.push(store.add({ x: i, y: 10 * i }));
  assert(store.remove(handles[1])); // agent 5 moves into row 1
  assert(store.remove(handles[0])); // agent 4 moves into row 0
  assert.equal(store.count, 4);
  for (const i of [2, 3, 4, 5]) {
    const index = store.indexOf(handles[i]);
    assert(index >= 0 && index < 4);
    assert.equal(store.px[index], i);
    assert.equal(store.py[index], 10 * i);
    assert.equal(store.handleAt(index), handles[i]);
  }
  assert.equal(store.indexOf(handles[5]), 1);
  assert.equal(store.indexOf(handles[4]), 0);
  assert.equal(store.remove(handles[1]), false, "a second removal reports the stale handle");
});

Deno.test("agent store resolves a stale handle to -1 after its slot is reused", () => {
  const store = new AgentStore();
  const old = store.add({ x: 1, y: 1 });
  store.remove(old);
  const reused = store.add({ x: 2, y: 2 });
  assert.equal(store.slot[store.indexOf(reused)], store.slot[0], "the slot is reused");
  assert.notEqual(reused, old);
  assert.equal(store.indexOf(old), -1);
  assert.equal(store.indexOf(reused), 0);
  assert.equal(store.indexOf(12345 as AgentHandle), -1);
  assert.equal(store.indexOf(-1 as AgentHandle), -1);
});

Deno.test("agent store handles stay exact integers after millions of slot reuses", () => {
  const store = new AgentStore(4);
  store.add({ x: 0, y: 0 });
  store.add({ x: 0, y: 0 });
  let previous = store.add({ x: 0, y: 0 }); // slot 2: its bits must survive in the handle
  // Generations wrap at 2^21, so handles stay below 2^53 and never lose their slot bits.
  for (let i = 0; i < 2_200_000; i++) {
    store.removeAt(2);
    const h = store.add({ x: i, y: 0 });
    if (i % 100_000 === 0 || i > 2_097_000) {
      assert(Number.isSafeInteger(h), `handle ${h} after ${i} reuses`);
      assert.equal(store.indexOf(h), 2);
      assert.equal(store.indexOf(previous), -1);
    }
    previous = h;
  }
});

Deno.test("agent store growth keeps every column's data and replaces the arrays", () => {
  const store = new AgentStore(2);
  const bias = store.registerColumn({
    name: "test.bias",
    type: "f32",
    default: 0.5,
    kind: "parameter",
  });
  const before = store.px;
  for (let i = 0; i < 100; i++) {
    store.add({ x: i, y: -i, radius: 0.2 + i / 1000, group: i % 3 });
    store.column<Float32Array>("test.bias")[i] = i / 4;
  }
  assert(store.capacity >= 100);
  assert.notEqual(store.px, before, "the store grew");
  assert.notEqual(store.column("test.bias"), bias);
  for (let i = 0; i < 100; i++) {
    assert.equal(store.px[i], i);
    assert.equal(store.py[i], -i);
    assert.equal(store.radius[i], 0.2 + i / 1000);
    assert.equal(store.group[i], i % 3);
    assert.equal(store.serial[i], i);
    assert.equal(store.column<Float32Array>("test.bias")[i], i / 4);
  }
});

Deno.test("agent store plugin columns move with swap-remove", () => {
  const store = new AgentStore();
  store.registerColumn({ name: "test.tag", type: "i32", default: -7 });
  const tag = store.column<Int32Array>("test.tag");
  const handles = [0, 1, 2, 3].map((i) => store.add({ x: i, y: 0 }));
  assert.deepEqual(Array.from(tag.subarray(0, 4)), [-7, -7, -7, -7], "new agents get the default");
  handles.forEach((h, i) => tag[store.indexOf(h)] = 100 + i);
  store.remove(handles[0]);
  store.remove(handles[2]);
  for (const i of [1, 3]) {
    const index = store.indexOf(handles[i]);
    assert.equal(tag[index], 100 + i);
    assert.equal(store.px[index], i);
  }
});

Deno.test("agent store restart resets state columns and keeps parameter columns", () => {
  const store = new AgentStore();
  store.registerColumn({ name: "test.state", type: "f64", default: 3 });
  store.registerColumn({ name: "test.param", type: "f64", default: 9, kind: "parameter" });
  const h = store.add({
    x: 1,
    y: 2,
    radius: 0.4,
    desiredSpeed: 1.1,
    maxSpeed: 2,
    group: 5,
    goalX: 9,
  });
  const i = store.indexOf(h);
  store.column("test.state")[i] = 42;
  store.column("test.param")[i] = 0.75;
  store.flags[i] = 3;
  store.spawnTime[i] = 12;
  const serial = store.serial[i];
  store.restart(i, { x: -4, y: -5, goalX: 7, goalY: 8 });
  assert.equal(store.indexOf(h), i, "the handle still resolves");
  assert.equal(store.column("test.state")[i], 3);
  assert.equal(store.column("test.param")[i], 0.75);
  assert.equal(store.flags[i], 0);
  assert.equal(store.spawnTime[i], 0);
  assert.notEqual(store.serial[i], serial);
  assert.deepEqual([store.px[i], store.py[i], store.startX[i], store.startY[i]], [-4, -5, -4, -5]);
  assert.deepEqual([store.goalX[i], store.goalY[i]], [7, 8]);
  assert.deepEqual(
    [store.radius[i], store.desiredSpeed[i], store.maxSpeed[i], store.group[i]],
    [0.4, 1.1, 2, 5],
    "built-in parameters are kept too",
  );
  store.restart(i, { x: 0, y: 0, desiredSpeed: 1 });
  assert.deepEqual(
    [store.desiredSpeed[i], store.maxSpeed[i]],
    [1, 1.3],
    "a new speed brings its cap",
  );
});

Deno.test("agent store columns are backed by SharedArrayBuffer", () => {
  const store = new AgentStore();
  store.registerColumn({ name: "test.u8", type: "u8" });
  store.add({ x: 0, y: 0 });
  for (const spec of store.columnSpecs) {
    assert(store.column(spec.name).buffer instanceof SharedArrayBuffer, spec.name);
  }
  store.reserve(5000);
  assert(store.px.buffer instanceof SharedArrayBuffer);
  assert.equal(store.columnSpecs.length, CORE_COLUMNS.length + 1);
});

Deno.test("agent store rejects invalid init values with a RangeError naming the field", () => {
  const store = new AgentStore();
  const cases: [Record<string, number>, RegExp][] = [
    [{ x: NaN, y: 0 }, /'x' must be finite: current value is NaN/],
    [{ x: 0, y: Infinity }, /'y' must be finite/],
    [{ x: 0, y: 0, radius: 0 }, /'radius' must be > 0: current value is 0/],
    [{ x: 0, y: 0, radius: -1 }, /'radius' must be > 0: current value is -1/],
    [{ x: 0, y: 0, desiredSpeed: -0.1 }, /'desiredSpeed' must be >= 0/],
    [{ x: 0, y: 0, maxSpeed: -1 }, /'maxSpeed' must be >= 0/],
    [
      { x: 0, y: 0, maxAcceleration: 0 },
      /'maxAcceleration' must be a number > 0 \(Infinity for none\)/,
    ],
    [{ x: 0, y: 0, maxAcceleration: NaN }, /'maxAcceleration' must be a number > 0/],
    [{ x: 0, y: 0, group: 1.5 }, /'group' must be an integer/],
    [{ x: 0, y: 0, goalX: NaN }, /'goalX' must be finite/],
    [{ x: 0, y: 0, vx: Infinity }, /'vx' must be finite/],
  ];
  for (const [init, message] of cases) {
    assert.throws(() => store.add(init as { x: number; y: number }), (e: Error) => {
      assert(e instanceof RangeError, `${JSON.stringify(init)}: ${e}`);
      assert.match(e.message, message);
      return true;
    });
  }
  assert.throws(
    () => store.add({} as { x: number; y: number }),
    /'x' must be finite: current value is undefined/,
  );
  assert.equal(store.count, 0, "nothing was added");
  store.add({ x: 0, y: 0, maxAcceleration: Infinity });
  assert.equal(store.count, 1);
});

Deno.test("agent store rejects bad column declarations and unknown columns", () => {
  const store = new AgentStore();
  store.registerColumn({ name: "test.a", type: "f64" });
  assert.equal(store.registerColumn({ name: "test.a", type: "f64" }), store.column("test.a"));
  assert.throws(() => store.registerColumn({ name: "test.a", type: "u8" }), /exists as 'f64'/);
  assert.throws(
    () => store.registerColumn({ name: "test.b", type: "f16" as "f32" }),
    /'type' must be one of f64, f32, i32, u32, u8: current value is "f16"/,
  );
  assert.throws(() => store.registerColumn({ name: "", type: "f64" }), TypeError);
  assert.throws(() => store.column("nope"), /Unknown agent column 'nope'/);
  assert.throws(
    () => store.restart(0, { x: 0, y: 0 }),
    /Agent index must be an integer in \[0, -1\]/,
  );
  assert.throws(() => new AgentStore(0), /'capacity' must be an integer >= 1: current value is 0/);
});

Deno.test("agent store clear empties the store and every old handle goes stale", () => {
  const store = new AgentStore();
  const handles = [1, 2, 3].map((x) => store.add({ x, y: 0 }));
  const version = store.version;
  store.clear();
  assert.equal(store.count, 0);
  assert(store.version > version);
  for (const h of handles) assert.equal(store.indexOf(h), -1);
});

Deno.test("column limits combine a column's declared range with its element type's", () => {
  const store = new AgentStore();
  store.registerColumn({
    name: "demo.rays",
    type: "u8",
    kind: "parameter",
    limits: { min: 3, max: 21, integer: true },
  });
  assert.deepEqual(columnLimits(store.columnSpec("demo.rays")!), {
    min: 3,
    max: 21,
    exclusiveMin: false,
    exclusiveMax: false,
    integer: true,
  });
  const arc = columnLimits({
    name: "arc",
    type: "f64",
    limits: { min: 0, exclusiveMin: true, max: 180 },
  });
  assert.deepEqual([arc.min, arc.exclusiveMin, arc.max, arc.integer], [0, true, 180, false]);
  assert.deepEqual(columnLimits({ name: "flag", type: "u8", limits: { min: -5, max: 1e9 } }), {
    min: 0,
    max: 255,
    exclusiveMin: false,
    exclusiveMax: false,
    integer: true,
  });
  assert.equal(store.columnSpec("nope"), undefined);
});

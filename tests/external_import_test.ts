/**
 * Depending on throng from another project: a script in a folder of its own, with no access to
 * this repository's import map, imports the module and runs a scenario. Library code therefore
 * names its npm packages in full (`npm:zod@4.6.7`), at the versions of the import map.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

Deno.test("a script in another folder, without a configuration, imports mod.ts by path and runs a scenario", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // No configuration of its own: only the module's path.
    await Deno.writeTextFile(
      `${dir}/study.ts`,
      `import { buildScenario, BUILTIN_SCENARIOS, LocalProjection, parseScenario, runScenario, strategies } from "${
        new URL("mod.ts", ROOT).href
      }";
const spec = parseScenario(JSON.stringify(BUILTIN_SCENARIOS.building.create(6)), "building.json");
const built = buildScenario(spec, { registry: strategies, strategy: { name: "orca" }, steps: 40 });
const outcome = await runScenario(built);
console.log(JSON.stringify({ steps: outcome.steps, agents: built.world.agents.count, lon: new LocalProjection({ lon: 24.9, lat: 60.2 }).toLonLat(0, 0).lon }));
`,
    );
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "study.ts"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    assert.equal(code, 0, text.decode(stderr));
    const result = JSON.parse(text.decode(stdout));
    assert.equal(result.steps, 40);
    assert.equal(result.agents, 6);
    assert.ok(Math.abs(result.lon - 24.9) < 1e-9);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("library code pins the npm versions of the import map", async () => {
  const map = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).imports as Record<
    string,
    string
  >;
  const pinned = new Map<string, string>();
  for (const target of Object.values(map)) {
    const m = /^npm:\/?(@?[^@]+)@([^/]+)\/?$/.exec(target);
    if (m) pinned.set(m[1], m[2]);
  }
  let checked = 0;
  for (
    const folder of [
      "core",
      "strategies",
      "navigation",
      "scenarios",
      "metrics",
      "recording",
      "geo",
      "plots",
      "traffic",
      "validation",
    ]
  ) {
    for await (const entry of Deno.readDir(new URL(`${folder}/`, ROOT))) {
      if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
      const source = await Deno.readTextFile(new URL(`${folder}/${entry.name}`, ROOT));
      for (const m of source.matchAll(/from "([^".][^"]*)"/g)) {
        const specifier = m[1];
        if (specifier.startsWith("node:")) continue;
        const npm = /^npm:(@?[^@]+)@([^/]+)/.exec(specifier);
        assert.ok(
          npm,
          `${folder}/${entry.name} imports "${specifier}": use "npm:<name>@<version>"`,
        );
        assert.equal(
          npm[2],
          pinned.get(npm[1]),
          `${folder}/${entry.name} pins ${npm[1]}@${npm[2]}; the import map says ${
            pinned.get(npm[1])
          }`,
        );
        checked++;
      }
    }
  }
  assert.ok(checked >= 8, `${checked} npm imports checked`);
});

import assert from "node:assert/strict";
import { CHROMIUM_ENV, findChromium } from "./find_chromium.ts";

/** A folder holding fake executables (and non-executables) of the given names. */
async function fakeBin(names: string[], mode = 0o755): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const name of names) {
    await Deno.writeTextFile(`${dir}/${name}`, "#!/bin/sh\n");
    await Deno.chmod(`${dir}/${name}`, mode);
  }
  return dir;
}

const windows = Deno.build.os === "windows";

Deno.test({
  name: "the browser is found by the environment variable first, then by name on the PATH",
  ignore: windows,
  async fn() {
    const a = await fakeBin(["google-chrome"]);
    const b = await fakeBin(["chromium-browser", "chromium"]);
    const named = await fakeBin(["my-chrome"]);
    try {
      const env = (vars: Record<string, string>) => (name: string) => vars[name];
      // chromium comes before google-chrome whatever folder holds it.
      assert.deepEqual(await findChromium(env({ PATH: `${a}:${b}` })), {
        status: "found",
        path: `${b}/chromium`,
        source: "path",
      });
      assert.deepEqual(await findChromium(env({ PATH: a })), {
        status: "found",
        path: `${a}/google-chrome`,
        source: "path",
      });
      assert.deepEqual(
        await findChromium(env({ PATH: `${a}:${b}`, [CHROMIUM_ENV]: `${named}/my-chrome` })),
        { status: "found", path: `${named}/my-chrome`, source: "env" },
      );
    } finally {
      for (const dir of [a, b, named]) await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a browser that is not executable is not found, and a wrong variable says so",
  ignore: windows,
  async fn() {
    const dir = await fakeBin(["chromium"], 0o644);
    try {
      const missing = await findChromium((name) => name === "PATH" ? dir : undefined);
      assert.equal(missing.status, "missing");
      assert.match((missing as { message: string }).message, /apt-get install chromium/);
      const invalid = await findChromium((name) =>
        name === CHROMIUM_ENV ? `${dir}/chromium` : name === "PATH" ? dir : undefined
      );
      assert.equal(invalid.status, "invalid");
      assert.match(
        (invalid as { message: string }).message,
        new RegExp(`^${CHROMIUM_ENV}='${dir}/chromium' is not an executable file`),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

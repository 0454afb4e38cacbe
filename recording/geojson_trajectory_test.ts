import assert from "node:assert/strict";
import { join } from "node:path";
import { LocalProjection } from "../geo/local_projection.ts";
import { runCli } from "../tests/_cli.ts";
import { writeTown } from "../scenarios/_test_town.ts";
import { resolveScenario } from "../scenarios/resolve.ts";
import { readCsvTrajectory } from "./csv_trajectory.ts";

Deno.test("sim --out run.geojson and run.csv on a map: lon/lat round-trips to the metres within 1 cm", async () => {
  const path = await writeTown({
    spawners: [{ area: { street: "Main Street" }, count: 12, goal: { building: "random" } }],
  });
  const dir = await Deno.makeTempDir();
  const geojson = join(dir, "run.geojson"), csv = join(dir, "run.csv");
  for (const out of [geojson, csv]) {
    const r = await runCli("sim", ["--scenario", path, "--steps", "60", "--out", out]);
    assert.equal(r.code, 0, r.stderr);
  }
  const { spec } = await resolveScenario(path);
  const projection = new LocalProjection(spec.anchor!);
  // CSV: metres and lon/lat on every row, the same point.
  const text = await Deno.readTextFile(csv);
  const lines = text.trim().split("\n");
  assert.equal(lines[0], "id,frame,time_s,x_m,y_m,z_m,lon,lat");
  assert.equal(lines.length - 1, 12 * 61);
  for (const line of lines.slice(1)) {
    const [, , , x, y, , lon, lat] = line.split(",").map(Number);
    const [px, py] = projection.toLocal(lon, lat);
    assert(Math.hypot(px - x, py - y) < 0.01, `${line}: ${px}, ${py}`);
  }
  const data = readCsvTrajectory(csv);
  assert.equal(data.frames.length, 61);
  // GeoJSON: one LineString per agent, times in step with the coordinates, the same positions.
  const collection = JSON.parse(await Deno.readTextFile(geojson));
  assert.equal(collection.type, "FeatureCollection");
  assert.equal(collection.features.length, 12);
  for (const feature of collection.features) {
    assert.equal(feature.geometry.type, "LineString");
    const { id, times } = feature.properties;
    const coordinates: [number, number][] = feature.geometry.coordinates;
    assert.equal(coordinates.length, 61);
    assert.equal(times.length, 61);
    coordinates.forEach(([lon, lat], k) => {
      assert(Math.abs(lon - spec.anchor!.lon) < 0.01 && Math.abs(lat - spec.anchor!.lat) < 0.01);
      const frame = data.frames[k];
      assert(Math.abs(frame.time - times[k]) < 1e-9);
      const row = frame.ids.indexOf(id);
      assert(row >= 0, `agent ${id} in frame ${k}`);
      const [x, y] = projection.toLocal(lon, lat);
      assert(Math.hypot(x - frame.x[row], y - frame.y[row]) < 0.01, `agent ${id}, frame ${k}`);
    });
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("sim --out run.geojson without an anchor is a one-line error", async () => {
  const dir = await Deno.makeTempDir();
  const out = join(dir, "run.geojson");
  const r = await runCli("sim", [
    "--scenario",
    "corridor",
    "--agents",
    "4",
    "--steps",
    "5",
    "--out",
    out,
  ]);
  assert.equal(r.code, 2, r.stdout);
  assert.match(
    r.stderr,
    /GeoJSON trajectories are in longitude\/latitude: the scenario needs a "map" or an "anchor"/,
  );
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  await Deno.remove(dir, { recursive: true });
});

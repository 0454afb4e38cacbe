import assert from "node:assert/strict";
import { renderTrajectorySvg } from "./svg_plot.ts";
import { TrajectorySampler } from "./trajectory_plot.ts";
import { World } from "../core/world.ts";
import { createNoneStrategy } from "../strategies/none.ts";
import { createGoalSeeker } from "../navigation/goal_seeker.ts";

function sampledWorld() {
  const world = new World({ strategy: createNoneStrategy(), navigator: createGoalSeeker() });
  world.obstacles.addPolygon([[2, 2], [3, 2], [3, 3], [2, 3]]);
  world.obstacles.addWall([[-1, -1], [9, -1]]);
  world.addAgent({ x: 0, y: 0, goalX: 8, goalY: 0, desiredSpeed: 1 });
  world.addAgent({ x: 0, y: 4, goalX: 8, goalY: 4, desiredSpeed: 2 });
  world.addAgent({ x: 5.25, y: 5.25, desiredSpeed: 0 }); // stands still inside one cell
  const sampler = new TrajectorySampler({ every: 4 });
  world.addObserver(sampler);
  for (let i = 0; i < 200; i++) world.step();
  return { world, sampler };
}

Deno.test("the trajectory plot draws one path per trip, coloured by its speed, over the geometry", () => {
  const { sampler } = sampledWorld();
  const samples = sampler.samples();
  assert.equal(samples.rounds, 51, "the initial positions and every 4th of 200 steps");
  const svg = renderTrajectorySvg(
    [{ title: "none", samples, polygons: sampler.polygons, walls: sampler.walls }],
    { title: "test", bounds: [-1, -1, 9, 6] },
  );
  const paths = [...svg.matchAll(/<polyline points="[^"]*" stroke="(rgb\([^)]*\))"/g)].map((m) =>
    m[1]
  );
  // The standing agent's path is drawn too (a point repeated), the walkers' in distinct colours.
  assert.equal(paths.length, 3);
  assert.equal(new Set(paths).size, 3, "different speeds, different colours");
  assert.equal((svg.match(/<polygon points/g) ?? []).length, 2, "the pillar in both maps");
  assert.equal((svg.match(/stroke="#212121"/g) ?? []).length, 2, "the wall in both maps");
});

Deno.test("the density map gives persons per m²: one agent standing in a 0.5 m cell is 4 /m²", () => {
  const { sampler } = sampledWorld();
  const svg = renderTrajectorySvg(
    [{ title: "none", samples: sampler.samples(), polygons: [], walls: [] }],
    { title: "test", bounds: [-1, -1, 9, 6], densityCell: 0.5 },
  );
  assert.match(svg, /density \(peak 4\.00 persons\/m², 0\.5 m cells\)/);
});

Deno.test("compare --plot draws one column per strategy", async () => {
  const { runCli } = await import("../tests/_cli.ts");
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/p.svg`;
    const r = await runCli("compare", [
      "--scenario",
      "bottleneck",
      "--agents",
      "10",
      "--strategies",
      "none",
      "--seeds",
      "1",
      "--plot",
      out,
      "-q",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const svg = await Deno.readTextFile(out);
    assert.match(svg, /<text[^>]*>none<\/text>/);
    assert.equal(
      (svg.match(/<polyline points="[^"]*" stroke="rgb/g) ?? []).length,
      10,
      "ten trips",
    );
    const bad = await runCli("compare", ["--scenario", "bottleneck", "--plot", `${dir}/p.png`]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--plot writes SVG/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

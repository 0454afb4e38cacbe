import assert from "node:assert/strict";
import { LocalProjection } from "./local_projection.ts";

Deno.test("local metres and longitude/latitude round-trip to a millimetre over 5 km", () => {
  for (
    const anchor of [{ lon: 24.9414, lat: 60.1699 }, { lon: 7.4246, lat: 43.7384 }, {
      lon: -58.38,
      lat: -34.6,
    }]
  ) {
    const p = new LocalProjection(anchor);
    for (const [x, y] of [[0, 0], [5000, 0], [0, -5000], [-3500, 3500], [1234.5, -987.25]]) {
      const { lon, lat } = p.toLonLat(x, y);
      const [x2, y2] = p.toLocal(lon, lat);
      assert.ok(Math.hypot(x2 - x, y2 - y) < 1e-3, `(${x}, ${y}) came back as (${x2}, ${y2})`);
    }
  }
});

Deno.test("local distances match geodesic distances on the ellipsoid", () => {
  // One degree of latitude at 60° N is 111,412 m on WGS84; one degree of longitude is 55,800 m.
  const p = new LocalProjection({ lon: 25, lat: 60 });
  const [, north] = p.toLocal(25, 60.01);
  assert.ok(Math.abs(north - 1114.1) < 1, `0.01° north is ${north} m`);
  const [east] = p.toLocal(25.01, 60);
  assert.ok(Math.abs(east - 558.0) < 1, `0.01° east is ${east} m`);
});

Deno.test("an anchor outside the valid range is refused with the field named", () => {
  assert.throws(
    () => new LocalProjection({ lon: 181, lat: 0 }),
    /'lon' must be in \[-180, 180\]: current value is 181/,
  );
  assert.throws(() => new LocalProjection({ lon: 0, lat: NaN }), /'lat' must be in \[-85, 85\]/);
});

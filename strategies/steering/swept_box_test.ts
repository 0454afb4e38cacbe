import assert from "node:assert/strict";
import { sweptBoxDiscContact, sweptBoxSegmentContact } from "./swept_box.ts";

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

Deno.test("the swept box meets a disc with its front face or a front corner", () => {
  // Face: the disc centre within the box's half-width sideways.
  assert.equal(sweptBoxDiscContact(3, 0.2, 0.25, 0.25), 2.5);
  // Corner: 0.15 m beyond the half-width, the disc reaches sqrt(0.25² − 0.15²) = 0.2 m along u.
  assert.ok(close(sweptBoxDiscContact(3, 0.4, 0.25, 0.25), 3 - 0.25 - 0.2));
  assert.ok(close(sweptBoxDiscContact(3, -0.4, 0.25, 0.25), 3 - 0.25 - 0.2));
  // Just beyond reach sideways, or behind the centre: never.
  assert.equal(sweptBoxDiscContact(3, 0.5, 0.25, 0.25), Infinity);
  assert.equal(sweptBoxDiscContact(-0.1, 0, 0.25, 0.25), Infinity);
  // Already touching the box: 0.
  assert.equal(sweptBoxDiscContact(0.4, 0, 0.25, 0.25), 0);
});

Deno.test("the swept box meets a segment where its part inside the band is nearest", () => {
  // Oblique wall: from (1, -1) to (3, 1); inside |w| ≤ 0.25 it spans u ∈ [1.75, 2.25].
  assert.ok(close(sweptBoxSegmentContact(1, -1, 3, 1, 0.25), 1.5));
  assert.ok(close(sweptBoxSegmentContact(3, 1, 1, -1, 0.25), 1.5)); // either direction
  // A wall alongside, outside the band, and one behind: never.
  assert.equal(sweptBoxSegmentContact(0, 0.3, 9, 0.3, 0.25), Infinity);
  assert.equal(sweptBoxSegmentContact(-2, -1, -2, 1, 0.25), Infinity);
  // A wall alongside inside the band (the agent overlaps it): contact now.
  assert.equal(sweptBoxSegmentContact(-1, 0.2, 5, 0.2, 0.25), 0);
  // Only the part ahead of the centre counts: the nearest point ahead is at u = 0.
  assert.equal(sweptBoxSegmentContact(-1, 0, 2, 0, 0.25), 0);
});

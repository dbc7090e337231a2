import assert from "node:assert/strict";
import { LatestValues } from "./latest.ts";

Deno.test("LatestValues keeps p, q and f with u and i, and only from the newest value", () => {
  const latest = new LatestValues();
  latest.update(3, 20_000, 231, 12, 2.5, -0.75, 50.01);
  latest.update(3, 0, 200, 1, 9, 9, 49); // older: ignored
  assert.deepEqual(
    [latest.ts(3), latest.u(3), latest.i(3), latest.p(3), latest.q(3)],
    [20_000, 231, 12, 2.5, -0.75],
  );
  assert.ok(Math.abs(latest.f(3) - 50.01) < 1e-4);
  // A newer value without p, q, f clears them: they are not the newest measurement's.
  latest.update(3, 40_000, 232, 13);
  assert.ok([latest.p(3), latest.q(3), latest.f(3)].every(Number.isNaN));
  assert.equal(latest.version, 2);
});

Deno.test("LatestValues grows past its initial size without losing p, q, f", () => {
  const latest = new LatestValues();
  latest.update(1, 1, 230, 10, 1, 2, 50);
  latest.update(5000, 1, 231, 11, 3, 4, 60);
  assert.deepEqual([latest.p(1), latest.q(1), latest.f(1)], [1, 2, 50]);
  assert.deepEqual([latest.p(5000), latest.q(5000), latest.f(5000)], [3, 4, 60]);
  assert.ok(Number.isNaN(latest.p(4999)) && Number.isNaN(latest.f(99_999)));
});

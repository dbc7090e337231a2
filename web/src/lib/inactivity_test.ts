import assert from "node:assert/strict";
import { isInactive, watchInactivity } from "./inactivity.ts";

Deno.test("isInactive() is true from the limit on and never when the limit is 0", () => {
  assert.equal(isInactive(0, 29 * 60_000, 30), false);
  assert.equal(isInactive(0, 30 * 60_000, 30), true);
  assert.equal(isInactive(0, 10 * 24 * 3_600_000, 0), false);
});

Deno.test("watchInactivity() fires once per idle period and input restarts the period", async () => {
  let clock = 0;
  const target = new EventTarget();
  let fired = 0;
  const stop = watchInactivity(target as unknown as Window, 1, () => fired++, 5, () => clock);
  const tick = () => new Promise((r) => setTimeout(r, 15));
  clock = 61_000;
  await tick();
  assert.equal(fired, 1);
  clock = 200_000;
  await tick();
  assert.equal(fired, 1, "no second dialog while the first idle period lasts");
  target.dispatchEvent(new Event("keydown"));
  clock = 230_000;
  await tick();
  assert.equal(fired, 1, "30 s after the key press is not yet idle");
  clock = 261_000;
  await tick();
  assert.equal(fired, 2);
  stop();
});

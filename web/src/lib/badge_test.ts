import assert from "node:assert/strict";
import { badgeText } from "./badge.ts";

Deno.test("badgeText() shows no badge for zero or invalid counts", () => {
  assert.equal(badgeText(0), null);
  assert.equal(badgeText(-3), null);
  assert.equal(badgeText(Number.NaN), null);
});

Deno.test("badgeText() shows counts up to 9 as they are", () => {
  assert.equal(badgeText(1), "1");
  assert.equal(badgeText(9), "9");
});

Deno.test("badgeText() overflows at 9 to 9+", () => {
  assert.equal(badgeText(10), "9+");
  assert.equal(badgeText(250), "9+");
  assert.equal(badgeText(100, 99), "99+");
});

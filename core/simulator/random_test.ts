import assert from "node:assert/strict";
import { hashString, mix, Mulberry32, unit, valueNoise } from "./_random.ts";

Deno.test("Mulberry32 repeats its sequence for a seed and differs for another", () => {
  const a = new Mulberry32(42);
  const first = [a.next(), a.next(), a.next()];
  a.reseed(42);
  assert.deepEqual([a.next(), a.next(), a.next()], first);
  const b = new Mulberry32(43);
  assert.notDeepEqual([b.next(), b.next(), b.next()], first);
  for (let k = 0; k < 10_000; k++) {
    const x = a.next();
    assert.ok(x >= 0 && x < 1);
  }
});

Deno.test("mix() spreads neighbouring keys over [0, 1)", () => {
  const h = hashString("cell-1");
  const values = Array.from({ length: 10_000 }, (_, k) => unit(mix(h, k)));
  const mean = values.reduce((s, x) => s + x, 0) / values.length;
  assert.ok(Math.abs(mean - 0.5) < 0.02);
  assert.equal(new Set(values).size, values.length);
  assert.equal(mix(h, 2 ** 32 + 1), mix(h, 1), "keys wrap modulo 2^32");
});

Deno.test("valueNoise() stays in [-1, 1] and is continuous", () => {
  let previous = valueNoise(7, 0, 60_000);
  for (let t = 1_000; t < 3_600_000; t += 1_000) {
    const v = valueNoise(7, t, 60_000);
    assert.ok(v >= -1 && v <= 1);
    assert.ok(Math.abs(v - previous) < 0.1);
    previous = v;
  }
});

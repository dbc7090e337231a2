import assert from "node:assert/strict";
import {
  civilTime,
  clearSkyIndex,
  fillVoltageHarmonics,
  frequencyOffsetHz,
  loadFraction,
  loadShape,
  mvVariation,
  pvFraction,
  type Sky,
  skyOfDay,
  utcOffsetMs,
} from "./profiles.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

Deno.test("utcOffsetMs() follows Swiss summer time from the last Sunday of March to October", () => {
  assert.equal(utcOffsetMs(Date.UTC(2026, 0, 15)), HOUR);
  assert.equal(utcOffsetMs(Date.UTC(2026, 2, 29, 0, 59)), HOUR);
  assert.equal(utcOffsetMs(Date.UTC(2026, 2, 29, 1, 0)), 2 * HOUR);
  assert.equal(utcOffsetMs(Date.UTC(2026, 9, 25, 0, 59)), 2 * HOUR);
  assert.equal(utcOffsetMs(Date.UTC(2026, 9, 25, 1, 0)), HOUR);
});

Deno.test("civilTime() gives local hour, weekday and day of year", () => {
  const t = civilTime(Date.UTC(2026, 5, 15, 17, 30));
  assert.deepEqual([t.hour, t.dayOfWeek, t.dayOfYear], [19.5, 1, 166]);
  assert.equal(civilTime(Date.UTC(2026, 0, 4, 23, 30)).dayOfWeek, 1, "Monday 00:30 local");
});

Deno.test("loadShape() peaks residential in the evening, commercial at office hours, industrial on shifts", () => {
  const residential = (h: number) => loadShape("residential", h, 3);
  assert.ok(residential(19.5) > 3 * residential(3.5));
  assert.ok(residential(7.3) > residential(10));
  assert.ok(loadShape("commercial", 11, 2) > 3 * loadShape("commercial", 11, 0));
  assert.ok(loadShape("commercial", 11, 2) > 3 * loadShape("commercial", 23, 2));
  assert.ok(loadShape("industrial", 10, 2) > 2 * loadShape("industrial", 3, 2));
  assert.ok(loadShape("industrial", 10, 2) > loadShape("industrial", 10, 0));
  for (let h = 0; h < 24; h += 0.25) {
    for (const profile of ["residential", "commercial", "industrial", "mixed"] as const) {
      for (let dow = 0; dow < 7; dow++) {
        const v = loadShape(profile, h, dow);
        assert.ok(v > 0.1 && v < 0.8, `${profile} ${h} ${dow} ${v}`);
      }
    }
  }
});

Deno.test("loadFraction() draws more residential load in winter than in summer", () => {
  const winter = loadFraction("residential", Date.UTC(2026, 0, 14, 18));
  const summer = loadFraction("residential", Date.UTC(2026, 6, 15, 17));
  assert.ok(winter > 1.25 * summer);
});

Deno.test("pvFraction() is zero at night and highest around solar noon on clear days", () => {
  const seed = 5;
  const day = [...Array(200).keys()].map((k) => 20_600 + k).find((d) =>
    skyOfDay(d, seed) === "clear" && civilTime(d * DAY).dayOfYear > 150
  )!;
  const noon = day * DAY + 11.5 * HOUR;
  assert.equal(pvFraction(day * DAY + 1 * HOUR, seed), 0);
  assert.equal(pvFraction(day * DAY + 21 * HOUR, seed), 0);
  const peak = pvFraction(noon, seed);
  assert.ok(peak > 0.85, `${peak}`);
  assert.ok(peak > pvFraction(noon - 4 * HOUR, seed));
  assert.ok(peak > pvFraction(noon + 4 * HOUR, seed));
});

Deno.test("skyOfDay() gives every kind of day, deterministically", () => {
  const skies = new Set<Sky>();
  for (let d = 20_000; d < 20_100; d++) {
    skies.add(skyOfDay(d, 1));
    assert.equal(skyOfDay(d, 1), skyOfDay(d, 1));
  }
  assert.deepEqual([...skies].sort(), ["clear", "overcast", "partly"]);
  const t = Date.UTC(2026, 5, 1, 11);
  assert.ok(clearSkyIndex("clear", t, 1) > clearSkyIndex("overcast", t, 1));
});

Deno.test("frequencyOffsetHz() and mvVariation() stay small and wander smoothly", () => {
  const from = Date.UTC(2026, 3, 1);
  let previous = frequencyOffsetHz(from, 3);
  let steps = 0;
  let spread = 0;
  for (let t = from + 20_000; t < from + 2 * DAY; t += 20_000) {
    const f = frequencyOffsetHz(t, 3);
    assert.ok(Math.abs(f) <= 0.05);
    assert.ok(Math.abs(mvVariation(t, 3)) < 0.015);
    assert.ok(Math.abs(f - previous) < 0.03, "no jumps between windows");
    steps += Math.abs(f - previous);
    spread = Math.max(spread, Math.abs(f));
    previous = f;
  }
  assert.ok(steps / 8639 < 0.01, "small steps on average");
  assert.ok(spread > 0.03, "but it does wander");
});

Deno.test("fillVoltageHarmonics() matches THD with odd harmonics larger and 5th, 7th dominant", () => {
  const out = new Float64Array(30);
  fillVoltageHarmonics(3, 0.5, -0.5, 1, out, 3);
  const h = Array.from(out.subarray(3, 27));
  assert.ok(Math.abs(Math.sqrt(h.reduce((s, x) => s + x * x, 0)) - 3) < 1e-9);
  const order = (n: number) => h[n - 2]!;
  assert.ok(order(5) > order(7) && order(7) > order(3) && order(7) > order(11));
  for (let n = 2; n <= 24; n += 2) assert.ok(order(n) < order(n + 1), `${n}th below ${n + 1}th`);
  assert.equal(out[0], 0);
  assert.equal(out[27], 0);
});

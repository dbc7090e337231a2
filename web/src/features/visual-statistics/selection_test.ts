import assert from "node:assert/strict";
import {
  compareFromSearch,
  compareProblem,
  compareToSearch,
  maxFeedersFor,
  splitList,
  statisticsFromSearch,
  statisticsProblem,
  statisticsToSearch,
  toggleLimited,
} from "./selection.ts";

const now = Date.parse("2026-11-22T17:20:00Z");

Deno.test("statisticsFromSearch() reads feeders, parameters, chart, phase and a quick range", () => {
  assert.deepEqual(
    statisticsFromSearch({
      feeders: "a,b,a,,",
      parameters: "u,bogus,thd_u",
      chart: "histogram",
      phase: "L2",
      minmax: true,
      range: "7d",
    }),
    {
      feeders: ["a", "b"],
      parameters: ["u", "thd_u"],
      chart: "histogram",
      phase: "L2",
      minMax: true,
      period: { kind: "quick", range: "7d" },
    },
  );
});

Deno.test("statisticsFromSearch() falls back to time series, all phases and the last 24 h", () => {
  assert.deepEqual(statisticsFromSearch({ chart: "pie", phase: "L9" }), {
    feeders: [],
    parameters: [],
    chart: "time",
    phase: "all",
    minMax: false,
    period: { kind: "quick", range: "24h" },
  });
});

Deno.test("statisticsToSearch() round-trips a custom period as ISO instants", () => {
  const selection = {
    feeders: ["f1", "f2"],
    parameters: ["u" as const, "i" as const],
    chart: "time" as const,
    phase: "all" as const,
    minMax: false,
    period: { kind: "custom" as const, from: now - 3_600_000, to: now },
  };
  const search = statisticsToSearch(selection);
  assert.deepEqual(search, {
    feeders: "f1,f2",
    parameters: "u,i",
    chart: undefined,
    phase: undefined,
    minmax: undefined,
    range: undefined,
    from: "2026-11-22T16:20:00.000Z",
    to: "2026-11-22T17:20:00.000Z",
  });
  assert.deepEqual(statisticsFromSearch(search), selection);
});

Deno.test("statisticsFromSearch() keeps an unparsable custom period so the screen can explain it", () => {
  const period = statisticsFromSearch({ from: "soon", to: "2026-11-22T17:20:00Z" }).period;
  assert.equal(period.kind, "custom");
  assert.ok(period.kind === "custom" && Number.isNaN(period.from));
});

Deno.test("compareFromSearch() and compareToSearch() round-trip; u and all phases are defaults", () => {
  const selection = compareFromSearch({
    feeders: "x,y,z",
    parameter: "p",
    phase: "L3",
    range: "1y",
  });
  assert.deepEqual(selection, {
    feeders: ["x", "y", "z"],
    parameter: "p",
    phase: "L3",
    period: { kind: "quick", range: "1y" },
  });
  assert.deepEqual(compareFromSearch(compareToSearch(selection)), selection);
  assert.equal(compareFromSearch({ parameter: "nope" }).parameter, "u");
  assert.equal(
    compareToSearch({ ...selection, parameter: "u", phase: "all" }).parameter,
    undefined,
  );
});

Deno.test("splitList() ignores non-strings", () => {
  assert.deepEqual(splitList(undefined), []);
  assert.deepEqual(splitList(12), []);
  assert.deepEqual(splitList(" a , b "), ["a", "b"]);
});

Deno.test("statisticsProblem() reports period errors first, then empty parts, then the chart limit", () => {
  const base = statisticsFromSearch({ feeders: "a,b", parameters: "u,i" });
  assert.equal(statisticsProblem(base, 4, now), null);
  assert.deepEqual(statisticsProblem(base, 3, now), { kind: "limit", key: "limits.maxCharts" });
  assert.deepEqual(statisticsProblem({ ...base, feeders: [] }, 4, now), {
    kind: "empty",
    key: "empty.noFeeder",
  });
  assert.deepEqual(statisticsProblem({ ...base, parameters: [] }, 4, now), {
    kind: "empty",
    key: "empty.noParameter",
  });
  assert.deepEqual(
    statisticsProblem(
      { ...base, period: { kind: "custom", from: now - 300_000, to: now } },
      4,
      now,
    ),
    { kind: "period", key: "data.periodTooShort" },
  );
});

Deno.test("compareProblem() needs 2 to 10 feeders and a valid period", () => {
  const feeders = (n: number) => Array.from({ length: n }, (_, k) => `f${k}`);
  const base = compareFromSearch({});
  assert.deepEqual(compareProblem({ ...base, feeders: feeders(1) }, now), {
    kind: "limit",
    key: "limits.compareMin",
  });
  assert.equal(compareProblem({ ...base, feeders: feeders(2) }, now), null);
  assert.equal(compareProblem({ ...base, feeders: feeders(10) }, now), null);
  assert.deepEqual(compareProblem({ ...base, feeders: feeders(11) }, now), {
    kind: "limit",
    key: "limits.compareMax",
  });
  assert.deepEqual(
    compareProblem(
      { ...base, feeders: feeders(2), period: { kind: "custom", from: now, to: 0 } },
      now,
    ),
    { kind: "period", key: "data.periodIncorrect" },
  );
});

Deno.test("toggleLimited() removes, adds within the limit and refuses beyond it", () => {
  assert.deepEqual(toggleLimited(["a", "b"], "a", 2), ["b"]);
  assert.deepEqual(toggleLimited(["a"], "b", 2), ["a", "b"]);
  assert.equal(toggleLimited(["a", "b"], "c", 2), null);
});

Deno.test("maxFeedersFor() divides the chart limit by the parameter count", () => {
  assert.equal(maxFeedersFor(0, 12), 12);
  assert.equal(maxFeedersFor(3, 12), 4);
  assert.equal(maxFeedersFor(5, 12), 2);
});

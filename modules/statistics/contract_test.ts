import assert from "node:assert/strict";
import {
  HISTOGRAM_BINS as CORE_BINS,
  RESOLUTION_NAMES,
  STATISTICS_PARAMETER_KEYS as CORE_KEYS,
} from "../../core/mod.ts";
import {
  compareQuery,
  HISTOGRAM_BINS,
  histogramQuery,
  RESOLUTIONS,
  seriesQuery,
  STATISTICS_PARAMETER_KEYS,
} from "./contract.ts";

Deno.test("the contract's parameters, levels and bins are the streaming core's", () => {
  assert.deepEqual([...STATISTICS_PARAMETER_KEYS], [...CORE_KEYS]);
  assert.deepEqual([...RESOLUTIONS], [...RESOLUTION_NAMES]);
  assert.deepEqual({ ...HISTOGRAM_BINS }, { ...CORE_BINS });
});

Deno.test("seriesQuery reads comma lists without empty items or repeats", () => {
  const q = seriesQuery.parse({
    from: "2026-01-01T00:00:00Z",
    to: "2026-01-02T00:00:00Z",
    feeders: " f1, f2,,f1 ",
    parameters: "u,i",
  });
  assert.deepEqual(q.feeders, ["f1", "f2"]);
  assert.deepEqual(q.parameters, ["u", "i"]);
  assert.equal(q.level, "LV");
  assert.equal(q.resolution, "auto");
  assert.equal(seriesQuery.safeParse({ ...q, feeders: "f1", parameters: "volts" }).success, false);
});

Deno.test("histogramQuery takes 1 to 100 bins and compareQuery one phase or all", () => {
  const base = { from: "a", to: "b", feeder: "f1", parameter: "u" };
  assert.equal(histogramQuery.parse({ ...base, bins: "40" }).bins, 40);
  assert.equal(histogramQuery.safeParse({ ...base, bins: "101" }).success, false);
  assert.equal(histogramQuery.safeParse({ ...base, bins: "0" }).success, false);
  const compare = { from: "a", to: "b", feeders: "f1,f2", parameter: "u" };
  assert.equal(compareQuery.parse(compare).phase, "all");
  assert.equal(compareQuery.safeParse({ ...compare, phase: "N" }).success, false);
});

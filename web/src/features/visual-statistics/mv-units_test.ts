import assert from "node:assert/strict";
import { compareAt, histogramAt, seriesAt, unitAt } from "./mv-units.ts";
import type { CompareAnswer, HistogramAnswer, SeriesAnswer } from "./vsm-api.ts";

const series: SeriesAnswer = {
  from: "2026-11-22T00:00:00Z",
  to: "2026-11-22T01:00:00Z",
  resolution: "20s",
  step_s: 20,
  times: [0, 20_000],
  charts: [
    {
      feeder_id: "f",
      feeder_name: "MV line",
      node_id: "n",
      node_name: "TS Dorf",
      parameter: "u",
      unit: "V",
      series: [{ phase: "L1", stat: "mean", values: [9238.5, null] }],
    },
    {
      feeder_id: "f",
      feeder_name: "MV line",
      node_id: "n",
      node_name: "TS Dorf",
      parameter: "i",
      unit: "A",
      series: [{ phase: "L1", stat: "mean", values: [24.5, null] }],
    },
  ],
};

Deno.test("at MV voltages read in kV, gaps stay gaps and other units are left alone", () => {
  const mv = seriesAt(series, "mv");
  assert.equal(mv.charts[0]!.unit, "kV");
  assert.deepEqual(mv.charts[0]!.series[0]!.values, [9.2385, null]);
  assert.deepEqual(mv.charts[1], series.charts[1]);
  assert.deepEqual(seriesAt(series, "lv"), series);
  assert.equal(unitAt("V", "mv"), "kV");
  assert.equal(unitAt("V", "lv"), "V");
  assert.equal(unitAt("A", "mv"), "A");
});

Deno.test("histograms and comparisons at MV convert bins, statistics and values", () => {
  const histogram: HistogramAnswer = {
    parameter: "u",
    unit: "V",
    resolution: "10min",
    bins: [{ from: 9200, to: 9250, count: 3 }],
    count: 3,
    min: 9210,
    max: 9240,
    mean: 9225,
    p05: 9211,
    p95: 9239,
  };
  const h = histogramAt(histogram, "mv");
  assert.deepEqual([h.unit, h.bins[0], h.min, h.p95], [
    "kV",
    { from: 9.2, to: 9.25, count: 3 },
    9.21,
    9.239,
  ]);
  const compare: CompareAnswer = {
    ...series,
    parameter: "u",
    unit: "V",
    feeders: [{
      feeder_id: "f",
      feeder_name: "MV line",
      node_id: "n",
      node_name: "TS Dorf",
      values: [9300, null],
      summary: { min: 9300, max: 9300, mean: null },
    }],
  };
  const c = compareAt(compare, "mv");
  assert.deepEqual([c.unit, c.feeders[0]!.values, c.feeders[0]!.summary], [
    "kV",
    [9.3, null],
    { min: 9.3, max: 9.3, mean: null },
  ]);
});

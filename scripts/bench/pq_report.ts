/**
 * One node's one-week power-quality report as the report job makes it (modules/power_quality
 * jobs.ts): the columnar load of the week from stored 10-minute aggregates and PQ records
 * (`loadComplianceInputs`), the evaluation per part and phase (`evaluateFeeder`) and the PDF
 * (`renderReportPdf`, with 60 voltage events in the tables and the list), p50 of 5 after a
 * warm-up (which loads the fonts). Baseline in the same run: `nodeCompliance` of the same node
 * and week (the bare EN 50160 query and engine); the report's time is also given as a ratio to
 * it. Also one PDF of 366 days (synthetic input, no load), to show how the PDF scales.
 */
import {
  EN50160_LV,
  isoWeekRange,
  loadComplianceInputs,
  nodeCompliance,
  openTimeSeriesStore,
} from "../../core/mod.ts";
import { DDL } from "../../core/ingest/schema.ts";
import { evaluateFeeder, loadStart } from "../../modules/power_quality/analysis.ts";
import { renderReportPdf } from "../../modules/power_quality/pdf.ts";
import { steadyInput } from "../../modules/power_quality/_test_utils.ts";
import type { PeriodEvents } from "../../modules/voltage_events/mod.ts";
import { weekOfAggregatesSql } from "./en50160.ts";
import { platformMemoryLimit } from "./lib/duck.ts";
import { atMost, type Result } from "./lib/report.ts";
import { summarize } from "./lib/stats.ts";
import { timeOnce, timeRepeated } from "./lib/timing.ts";

const WEEK = isoWeekRange(2026, 2);
const NODE = { phases: [1, 2, 3], nominalVoltage: 230, nominalFrequency: 50 as const };
const CUSTOMER = {
  name: "EW Bench AG",
  nominalVoltage: 230,
  nominalVoltageMv: 9238,
  nominalFrequency: 50 as const,
  timezone: "Europe/Zurich",
  formats: {
    dateFormat: "DD.MM.YYYY",
    timeFormat: "HH:mm",
    numberFormat: "1'234.56",
    timezone: "Europe/Zurich",
  },
};

function events(from: number): PeriodEvents {
  const grid = (rows: string[], columns: string[]) =>
    Object.fromEntries(rows.map((r) => [r, Object.fromEntries(columns.map((c) => [c, 2]))]));
  return {
    tables: {
      dip: grid(["90-80", "80-70", "70-40", "40-5", "<5"], [
        "10-200ms",
        "0.2-0.5s",
        "0.5-1s",
        "1-5s",
        "5-60s",
      ]),
      swell: grid([">=120", "120-110"], ["10-500ms", "0.5-5s", "5-60s"]),
      interruptions_short: 1,
      interruptions_long: 0,
      outside_tables: 0,
      rvc: 3,
      msv: 0,
    },
    total: 60,
    events: Array.from({ length: 60 }, (_, k) => ({
      key: `k${k}`,
      event_id: `e${k}`,
      cell_id: "c",
      node_id: "n",
      node_name: "TS Bench",
      ew_name: "TS Bench",
      type: "DIP" as const,
      kind: "DIP" as const,
      start: new Date(from + k * 9_000_000).toISOString(),
      end: new Date(from + k * 9_000_000 + 120).toISOString(),
      duration_ms: 120,
      start_phase: "L1" as const,
      end_phase: "L1" as const,
      extreme_pct: 62,
      delta_u_pct: null,
      depth_pct: 38,
      table_cell: { table: "DIP" as const, row: "70-40", column: "10-200ms" },
      recording: null,
    })),
  };
}

const report = (from: number, to: number) => ({
  name: "Bench week",
  language: "en" as const,
  nodeName: "TS Bench",
  ewName: "TS Bench",
  feeders: [{ id: "f", name: "Transformer", slot: 1 }],
  startAt: new Date(from),
  endAt: new Date(to),
  limitSet: "EN 50160",
});

/** Load + evaluate + PDF of one node's week; the bare evaluation as the baseline. */
export async function benchPqReport(dir: string): Promise<Result[]> {
  const ts = await openTimeSeriesStore(`${dir}/pq_report`, platformMemoryLimit());
  const c = ts.connection;
  try {
    for (const statement of DDL) await c.run(statement);
    for (const sql of weekOfAggregatesSql(0, 1)) await c.run(sql);
    const from = WEEK.from.getTime();
    const to = WEEK.to.getTime();
    const baseline = summarize(
      await timeRepeated(() => nodeCompliance(c, NODE, WEEK.from, WEEK.to), {
        warmup: 3,
        repeats: 20,
      }),
    );
    const parts = { load: [] as number[], evaluate: [] as number[], pdf: [] as number[] };
    let bytes = 0;
    for (let run = 0; run < 6; run++) {
      let input!: Awaited<ReturnType<typeof loadComplianceInputs>>[number];
      const load = await timeOnce(async () => {
        input = (await loadComplianceInputs(c, [NODE], new Date(loadStart(from)), WEEK.to))[0]!;
      });
      let summary!: ReturnType<typeof evaluateFeeder>["summary"];
      const evaluate = await timeOnce(() => {
        summary = evaluateFeeder({ id: "f", name: "Transformer" }, input, from, to, EN50160_LV)
          .summary;
      });
      const pdf = await timeOnce(async () => {
        bytes = (await renderReportPdf({
          report: report(from, to),
          customer: CUSTOMER,
          summary: [summary],
          inputs: [input],
          passed: summary.passed === true,
          events: events(from),
        })).length;
      });
      if (run === 0) continue; // warm-up: fonts read and parsed once per process
      parts.load.push(load);
      parts.evaluate.push(evaluate);
      parts.pdf.push(pdf);
    }
    const p50 = (xs: number[]) => summarize(xs).p50;
    const total = p50(parts.load.map((l, k) => l + parts.evaluate[k]! + parts.pdf[k]!));
    // A year: the PDF's trends and curves over 52,704 intervals per phase.
    const yearFrom = from;
    const yearTo = from + 366 * 86_400_000;
    const year = steadyInput(yearFrom, yearTo);
    const yearSummary = evaluateFeeder(
      { id: "f", name: "Transformer" },
      year,
      yearFrom,
      yearTo,
      EN50160_LV,
    ).summary;
    const yearPdf = await timeOnce(() =>
      renderReportPdf({
        report: report(yearFrom, yearTo),
        customer: CUSTOMER,
        summary: [yearSummary],
        inputs: [year],
        passed: true,
        events: events(yearFrom),
      })
    );
    return [
      {
        name: "PQ report baseline: nodeCompliance, 1 node, 1 week, p50",
        value: baseline.p50,
        unit: "ms",
      },
      { name: "PQ report, 1 node, 1 week: load, p50", value: p50(parts.load), unit: "ms" },
      { name: "PQ report, 1 node, 1 week: evaluate, p50", value: p50(parts.evaluate), unit: "ms" },
      { name: "PQ report, 1 node, 1 week: PDF, p50", value: p50(parts.pdf), unit: "ms" },
      { name: "PQ report, 1 node, 1 week: PDF size", value: bytes / 1024, unit: "KiB" },
      {
        name: "PQ report, 1 node, 1 week: load + evaluate + PDF, p50",
        value: total,
        unit: "ms",
        target: atMost(2_000, "<= 2 s"),
      },
      {
        name: "PQ report, 1 node, 1 week / baseline (nodeCompliance)",
        value: total / baseline.p50,
        unit: "x",
      },
      { name: "PQ report PDF of 366 days (synthetic input, no load)", value: yearPdf, unit: "ms" },
    ];
  } finally {
    await ts.close();
  }
}

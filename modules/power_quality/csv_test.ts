import assert from "node:assert/strict";
import type { DuckDBConnection } from "@duckdb/node-api";
import { EN50160_LV } from "../../core/mod.ts";
import { AppError } from "../../kernel/mod.ts";
import { evaluateFeeder } from "./analysis.ts";
import { steadyInput } from "./_test_utils.ts";
import { type InputLoader, INTERVAL_COLUMNS, ReportCsv } from "./csv.ts";
import type { ReportDirectory } from "./directory.ts";
import type { ReportRow } from "./schema.ts";

const DAY = 86_400_000;
const MONDAY = Date.UTC(2026, 10, 9);
const directory = {
  cellsByNode: () => Promise.resolve(new Map([["n1", "cell-1"]])),
  series: () => [1, 2, 3],
  customer: () =>
    Promise.resolve({
      name: "EW",
      nominalVoltage: 230,
      nominalVoltageMv: 9238,
      nominalFrequency: 50 as const,
      timezone: "UTC",
    }),
} as unknown as ReportDirectory;

/** A completed report of `days` days from a Monday, feeder "Trafo, 1" (a name with a comma). */
function report(days: number): ReportRow {
  const to = MONDAY + days * DAY;
  const summary = evaluateFeeder(
    { id: "f1", name: "Trafo, 1" },
    steadyInput(MONDAY, to),
    MONDAY,
    to,
    EN50160_LV,
  ).summary;
  return {
    key: "r1",
    customerKey: "c1",
    name: "R",
    nodeId: "n1",
    feeders: [{ id: "f1", name: "Trafo, 1", slot: 1, level: "LV" }],
    startAt: new Date(MONDAY),
    endAt: new Date(to),
    status: "COMPLETED",
    summary: [summary],
  } as unknown as ReportRow;
}

/** A loader of steady inputs that records its calls and fails at call `failAt` (1-based). */
function loader(failAt = Infinity) {
  const calls: [number, number][] = [];
  const load: InputLoader = (_analytics, specs, from, to) => {
    calls.push([from.getTime(), to.getTime()]);
    if (calls.length >= failAt) return Promise.reject(new Error("DuckDB went away"));
    return Promise.resolve(specs.map(() => steadyInput(from.getTime(), to.getTime())));
  };
  return { load, calls };
}

const analytics = {} as DuckDBConnection;

Deno.test("ReportCsv streams a long period one week at a time and ends with the results", async () => {
  const { load, calls } = loader();
  const csv = new ReportCsv(analytics, directory, load);
  const stream = await csv.stream(report(30));
  // Before the client reads, only the first week was loaded (made before answering).
  assert.equal(calls.length, 1);
  const pieces: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of stream) pieces.push(decoder.decode(chunk, { stream: true }));
  // 30 days: weeks of 7, 7, 7, 7 and 2 days, each loaded on its own.
  assert.deepEqual(calls.map(([a, b]) => (b - a) / DAY), [7, 7, 7, 7, 2]);
  const text = pieces.join("");
  const [intervals, results] = text.split("\r\n\r\n");
  const rows = intervals!.split("\r\n");
  assert.equal(rows[0], INTERVAL_COLUMNS.join(","));
  assert.equal(rows.length, 1 + 30 * 144);
  assert.match(rows[1]!, /^2026-11-09T00:00:00\.000Z,"Trafo, 1",0,230,230,230,2,2,2,50,50,0\.5,/);
  assert.equal(rows.at(-1)!.slice(0, 24), "2026-12-08T23:50:00.000Z");
  assert.match(results!, /^feeder,parameter,phase,limit/);
  assert.match(results!, /"Trafo, 1",voltage,L1,10,95,0,0,4320,0,0,0,0,PASSED/);
  assert.ok(text.endsWith("\r\n"));
});

Deno.test("ReportCsv: a failure before the answer is a 524 without any CSV", async () => {
  const { load } = loader(1);
  const csv = new ReportCsv(analytics, directory, load);
  await assert.rejects(
    () => csv.stream(report(30)),
    (e) => e instanceof AppError && e.entry.code === 524,
  );
});

Deno.test("ReportCsv: a failure while streaming errors the stream: no file that looks complete", async () => {
  const { load } = loader(3);
  const csv = new ReportCsv(analytics, directory, load);
  const stream = await csv.stream(report(30));
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let read = "";
  await assert.rejects(async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += decoder.decode(value, { stream: true });
    }
  }, (e) => e instanceof AppError && e.entry.code === 524);
  // Two weeks reached the client, then the answer broke off: no results table.
  assert.equal(read.split("\r\n").length - 1, 1 + 14 * 144);
  assert.doesNotMatch(read, /feeder,parameter,phase/);
});

Deno.test("ReportCsv: a report that is not completed has no CSV (502)", async () => {
  const csv = new ReportCsv(analytics, directory, loader().load);
  const row = { ...report(7), status: "IN_PROGRESS" } as ReportRow;
  await assert.rejects(
    () => csv.stream(row),
    (e) => e instanceof AppError && e.entry.code === 502,
  );
});

import assert from "node:assert/strict";
import type { ExportFeederDto, ScheduleDto } from "../../../../modules/export/contract.ts";
import {
  createBody,
  duckdbQuery,
  editedScheduleBody,
  estimateBody,
  feedersBelow,
  formIssues,
  formOfSchedule,
  initialForm,
  pickerTree,
  scheduleBody,
  sizeParts,
  toggleFeeders,
} from "./export-form.ts";

Deno.test("formIssues() mirrors the server's rules: name, period, feeders, parameters", () => {
  const form = initialForm(Date.parse("2026-03-10T12:00:00Z"));
  assert.deepEqual(Object.keys(formIssues(form)).sort(), ["feeders", "name"]);
  const ok = { ...form, name: "loads", feeders: ["f1"] };
  assert.deepEqual(formIssues(ok), {});
  assert.equal(formIssues({ ...ok, name: "a/b" }).name?.key, "validation.forbiddenChars");
  assert.equal(
    formIssues({ ...ok, from: "2024-01-01T00:00", to: "2025-06-01T00:00" }).period?.key,
    "validation.exportPeriodMax",
  );
  assert.equal(formIssues({ ...ok, parameters: [] }).parameters?.key, "validation.minItems");
  assert.equal(
    formIssues({ ...ok, format: "duckdb", structure: "feeder" }).structure?.key,
    "export.structureNotForDuckdb",
  );
});

Deno.test("createBody() sends ISO instants and the trimmed name", () => {
  const form = { ...initialForm(), name: " loads ", feeders: ["f1"] };
  const body = createBody(form);
  assert.equal(body.file_name, "loads");
  assert.match(body.period.from, /Z$/);
});

const feeder = (id: string, node: string, lv: string, name = id): ExportFeederDto => ({
  feeder_id: id,
  feeder_name: name,
  feeder_type: "LV_LINE",
  node_id: node,
  node_name: `Node ${node}`,
  station_name: `TS ${node}`,
  lv_group_id: lv,
  lv_group_name: `LV ${lv}`,
  station_group_id: "g",
  station_group_name: "Group",
});

Deno.test("pickerTree() groups feeders and searches every name level", () => {
  const feeders = [feeder("a", "1", "x"), feeder("b", "1", "x"), feeder("c", "2", "y", "Main")];
  const tree = pickerTree(feeders);
  assert.equal(tree.length, 1);
  assert.deepEqual(feedersBelow(tree[0]!), ["a", "b", "c"]);
  assert.deepEqual(feedersBelow(pickerTree(feeders, "main")[0]!), ["c"]);
  assert.deepEqual(feedersBelow(pickerTree(feeders, "lv x")[0]!), ["a", "b"]);
});

Deno.test("toggleFeeders() selects a whole group, or clears it when all were selected", () => {
  assert.deepEqual(toggleFeeders(["a"], ["a", "b"]), ["a", "b"]);
  assert.deepEqual(toggleFeeders(["a", "b", "c"], ["a", "b"]), ["c"]);
});

Deno.test("sizeParts() uses decimal units", () => {
  assert.deepEqual(sizeParts(1e9), { value: 1, unit: "GB" });
  assert.deepEqual(sizeParts(2_500_000), { value: 2.5, unit: "MB" });
});

Deno.test("duckdbQuery() reads the export's files as unzipped into a folder of its name", () => {
  const parquet = duckdbQuery({
    file_name: "GDE_a_20260101-20260131.zip",
    format: "parquet",
    directory_structure: "month",
  });
  assert.match(parquet, /read_parquet\('GDE_a_20260101-20260131\/\*\/\*\*\/\*\.parquet'\)/);
  const duck = duckdbQuery({
    file_name: "GDE_a.zip",
    format: "duckdb",
    directory_structure: "flat",
  });
  assert.match(duck, /^ATTACH 'GDE_a\/GDE_a\.duckdb' AS GDE_a;/);
  assert.match(duck, /FROM GDE_a\.measurements/);
});

Deno.test("formIssues() mirrors the PQ, layout and schedule rules", () => {
  const ok = { ...initialForm(), name: "loads", feeders: ["f1"] };
  assert.equal(
    formIssues({ ...ok, interval: "20s", parameters: ["u", "pst"] }).parameters?.key,
    "export.pqNotAt20s",
  );
  assert.deepEqual(formIssues({ ...ok, interval: "10min", parameters: ["u", "h5"] }), {});
  assert.equal(
    formIssues({ ...ok, format: "duckdb", layout: "wide" }).layout?.key,
    "export.layoutNotForDuckdb",
  );
  // A schedule has no period of its own: a broken period is no issue then.
  const broken = { ...ok, from: "", to: "" };
  assert.equal(formIssues(broken).period?.key, "validation.dateInvalid");
  assert.equal(formIssues({ ...broken, repeat: "WEEKLY" }).period, undefined);
});

Deno.test("scheduleBody() sends the selection without a period; the estimate takes the longest run", () => {
  const form = {
    ...initialForm(),
    name: " weekly ",
    feeders: ["f1"],
    repeat: "MONTHLY" as const,
    layout: "wide" as const,
  };
  const body = scheduleBody(form);
  assert.equal(body.frequency, "MONTHLY");
  assert.equal(body.file_name, "weekly");
  assert.equal(body.layout, "wide");
  assert.ok(!("period" in body));
  const estimate = estimateBody(form, Date.parse("2026-03-10T12:00:00Z"));
  const days = (Date.parse(estimate.period.to) - Date.parse(estimate.period.from)) / 86_400_000;
  assert.equal(Math.round(days), 31);
  assert.equal(estimateBody({ ...form, repeat: "ONCE" }).period.from, createBody(form).period.from);
  // DuckDB files are always long.
  assert.equal(scheduleBody({ ...form, format: "duckdb" }).layout, "long");
});

Deno.test("an edited schedule loads its selection into the form and saves it, paused or not", () => {
  const schedule: ScheduleDto = {
    key: "s1",
    name: "Weekly loads",
    frequency: "WEEKLY",
    feeders: ["f2", "f1"],
    parameters: ["i", "p"],
    interval: "1h",
    format: "parquet",
    layout: "wide",
    directory_structure: "station",
    active: false,
    next_run_at: "2026-03-16T00:30:00Z",
    last_run_at: null,
    last_export_key: null,
    runs: 3,
    created_at: "2026-03-01T00:00:00Z",
  };
  const base = initialForm(Date.parse("2026-03-10T12:00:00Z"));
  const form = formOfSchedule(schedule, base);
  assert.deepEqual(
    [form.name, form.repeat, form.feeders, form.parameters, form.interval, form.format],
    ["Weekly loads", "WEEKLY", ["f2", "f1"], ["i", "p"], "1h", "parquet"],
  );
  assert.deepEqual([form.layout, form.structure, form.from], ["wide", "station", base.from]);
  assert.deepEqual(formIssues(form), {});
  const body = editedScheduleBody(
    { ...form, repeat: "MONTHLY", name: " Monthly loads " },
    schedule,
  );
  assert.deepEqual(body, {
    feeders: ["f2", "f1"],
    parameters: ["i", "p"],
    interval: "1h",
    format: "parquet",
    layout: "wide",
    directory_structure: "station",
    file_name: "Monthly loads",
    frequency: "MONTHLY",
    active: false,
  });
});

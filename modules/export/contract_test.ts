import assert from "node:assert/strict";
import {
  createExportInput,
  estimateExport,
  EXPORT_LIMITS,
  exportFileName,
  exportNameIssue,
  exportPeriodIssue,
  PQ_PARAMETER_KEYS,
  scheduleInput,
  slotCount,
} from "./contract.ts";

Deno.test("exportNameIssue() requires a name without the forbidden characters of spec 5", () => {
  assert.equal(exportNameIssue("  ")?.key, "validation.required");
  for (const c of [":", "<", ">", '"', "/", "\\", "|", "?", "*", "!"]) {
    assert.equal(exportNameIssue(`a${c}b`)?.key, "validation.forbiddenChars", c);
  }
  assert.equal(exportNameIssue("x".repeat(61))?.key, "validation.nameMax");
  assert.equal(exportNameIssue("Feeder loads 2026"), null);
});

Deno.test("exportPeriodIssue() refuses a period over one year, reversed or not ISO", () => {
  assert.equal(exportPeriodIssue("2025-01-01T00:00:00Z", "2026-01-02T00:00:00Z"), null);
  assert.equal(
    exportPeriodIssue("2025-01-01T00:00:00Z", "2026-01-03T00:00:00Z"),
    "validation.exportPeriodMax",
  );
  assert.equal(
    exportPeriodIssue("2025-01-02T00:00:00Z", "2025-01-01T00:00:00Z"),
    "data.periodIncorrect",
  );
  assert.equal(exportPeriodIssue("yesterday", "2025-01-01T00:00:00Z"), "validation.dateInvalid");
});

Deno.test("exportFileName() is GDE_<name>_<first day>-<last day> with the extension", () => {
  assert.equal(
    exportFileName("Feeder loads", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z", "zip"),
    "GDE_Feeder_loads_20260301-20260331.zip",
  );
  // A local day of Zurich (UTC+1) is named after that day, not the two UTC days it spans.
  assert.equal(
    exportFileName("day", "2026-03-27T23:00:00Z", "2026-03-28T23:00:00Z", "zip", "Europe/Zurich"),
    "GDE_day_20260328-20260328.zip",
  );
  assert.equal(
    exportFileName("day", "2026-03-27T23:00:00Z", "2026-03-28T23:00:00Z", "zip"),
    "GDE_day_20260327-20260328.zip",
  );
});

Deno.test("slotCount() counts the slots starting inside the period", () => {
  const from = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(slotCount(from, from + 3_600_000, "20s"), 180);
  assert.equal(slotCount(from, from + 86_400_000, "10min"), 144);
  assert.equal(slotCount(from + 1, from + 86_400_000, "1d"), 0);
});

Deno.test("estimateExport() counts every slot of every phase and parameter, N for current", () => {
  const feeders = [{ hasNeutral: true, nameBytes: 30 }, { hasNeutral: false, nameBytes: 30 }];
  const csv = estimateExport(feeders, ["u", "i"], 100, "csv");
  assert.equal(csv.rows, 100 * (3 + 4) + 100 * (3 + 3));
  const parquet = estimateExport(feeders, ["u", "i"], 100, "parquet");
  assert.equal(parquet.rows, csv.rows);
  assert.ok(parquet.bytes < csv.bytes / 4);
});

Deno.test("createExportInput refuses a directory structure for a DuckDB file", () => {
  const input = {
    file_name: "a",
    period: { from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z" },
    feeders: ["f"],
    parameters: ["u"],
    interval: "1h",
    format: "duckdb",
    directory_structure: "feeder",
  };
  const result = createExportInput.safeParse(input);
  assert.equal(result.success, false);
  assert.equal(result.error?.issues[0]?.message, "export.structureNotForDuckdb");
  assert.equal(
    createExportInput.safeParse({ ...input, directory_structure: "flat" }).success,
    true,
  );
  assert.equal(
    createExportInput.safeParse({
      ...input,
      feeders: Array(EXPORT_LIMITS.maxFeeders + 1).fill("f"),
    })
      .success,
    false,
  );
});

Deno.test("PQ quantities are 10-minute records: refused at 20 s, accepted at 10 min and coarser", () => {
  const base = {
    period: { from: "2026-03-01T00:00:00Z", to: "2026-03-02T00:00:00Z" },
    feeders: ["f1"],
    parameters: ["u", "pst", "h5"],
    file_name: "pq",
  };
  assert.equal(PQ_PARAMETER_KEYS.length, 27, "unbalance, Pst, Plt and harmonics 2-25");
  const at20s = createExportInput.safeParse({ ...base, interval: "20s" });
  assert.deepEqual(
    at20s.error?.issues.map((i) => `${i.path.join(".")}:${i.message}`),
    ["parameters:export.pqNotAt20s"],
  );
  for (const interval of ["10min", "1h", "1d"]) {
    assert.ok(createExportInput.safeParse({ ...base, interval }).success, interval);
  }
  assert.ok(!createExportInput.safeParse({ ...base, interval: "1h", parameters: ["h26"] }).success);
});

Deno.test("the wide layout is for CSV and Parquet; its estimate counts a row per time and phase", () => {
  const wide = {
    period: { from: "2026-03-01T00:00:00Z", to: "2026-03-02T00:00:00Z" },
    feeders: ["f1"],
    parameters: ["u", "i"],
    interval: "10min",
    file_name: "w",
    layout: "wide",
  };
  assert.ok(createExportInput.safeParse(wide).success);
  assert.deepEqual(
    createExportInput.safeParse({ ...wide, format: "duckdb" }).error?.issues.map((i) => i.message),
    ["export.layoutNotForDuckdb"],
  );
  const feeders = [{ hasNeutral: true, nameBytes: 20 }];
  const long = estimateExport(feeders, ["u", "i"], 144, "csv", "long");
  const rows = estimateExport(feeders, ["u", "i"], 144, "csv", "wide");
  assert.equal(long.rows, 144 * 7);
  assert.equal(rows.rows, 144 * 4, "L1, L2, L3 and N (current)");
  assert.ok(rows.bytes < long.bytes / 1.5, "names and times once per row");
});

Deno.test("scheduleInput takes a selection without a period and a frequency", () => {
  const ok = scheduleInput.parse({
    feeders: ["f1"],
    parameters: ["u"],
    interval: "1h",
    file_name: "daily loads",
    frequency: "DAILY",
  });
  assert.equal(ok.active, true);
  assert.equal(ok.layout, "long");
  const bad = scheduleInput.safeParse({
    feeders: [],
    parameters: ["u"],
    interval: "1h",
    file_name: "",
    frequency: "HOURLY",
  });
  assert.deepEqual(bad.error?.issues.map((i) => i.path.join(".")).sort(), [
    "feeders",
    "file_name",
    "frequency",
  ]);
});

/**
 * Data export throughput: `feeders` feeders x 3 phases of 20-s voltage over `days` days (30 days
 * of 100 feeders: 13.4M slots per phase... 40M long rows) written as a flat Parquet export by the
 * module's writer (stage chunk by chunk, COPY, zip), against the engine limit measured in the
 * same run on the same file: one `COPY (SELECT ... FROM raw_measurements) TO ... parquet` of the
 * same rows without names, gaps or zip. Peak extra memory is the process RSS above the level
 * before the export (DuckDB's buffers included), sampled every 50 ms. Meanwhile an ingestion
 * connection appends a batch every second through core's chunk writer (the appender of
 * `raw_measurements` in one transaction, as a group commit writes it): the p50 and p99 batch
 * latency during the export against the same batches without an export.
 *
 *   npx deno run -A scripts/bench/export.ts [--feeders=100] [--days=30] [--batch-cells=500]
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { unzipSync } from "fflate";
import { DDL } from "../../core/ingest/schema.ts";
import { appendRows } from "../../core/ingest/chunk_writer.ts";
import type { MeasurementRow } from "../../core/ingest/validate.ts";
import { allocateColumns, generateColumns, WINDOW_MS } from "../../core/simulator/mod.ts";
import { summarize } from "./lib/stats.ts";
import { lvgridCell, rowsByCell, SEED } from "./lib/workload.ts";
import { type ExportFeeder, writeExport } from "../../modules/export/writer.ts";

const arg = (name: string, fallback: number) =>
  Number(Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const FEEDERS = arg("feeders", 100);
const DAYS = arg("days", 30);
const START = Date.UTC(2026, 0, 1);
const END = START + DAYS * 86_400_000;
const BATCH_CELLS = arg("batch-cells", 500);

/** One ingestion batch of `cells` cells (24 rows each) after the exported period. */
function batch(cells: ReturnType<typeof lvgridCell>[], window: number) {
  const cols = allocateColumns(cells.length * 24);
  const count = generateColumns(cells, END + window * WINDOW_MS, SEED, cols);
  const rows: MeasurementRow[] = [];
  const ids: number[] = [];
  for (const [cell, list] of rowsByCell(cols, count)) {
    for (const row of list) {
      rows.push(row);
      ids.push(1_000_000 + cell * 24 + (row.feeder - 1) * 4 + row.phase);
    }
  }
  return { rows, ids, indexes: rows.map((_, k) => k) };
}

const dir = await mkdtemp(join(tmpdir(), "gw-bench-export-"));
const instance = await DuckDBInstance.create(join(dir, "timeseries.duckdb"), {
  memory_limit: "512MB",
});
const connection = await instance.connect();
try {
  for (const statement of DDL) await connection.run(statement);
  const series = FEEDERS * 3;
  console.log(`Filling ${series} series x ${DAYS} days of 20-s rows ...`);
  await connection.run(`INSERT INTO raw_measurements (series_id, ts, u, i, p)
    SELECT s, make_timestamp((${START} + t * 20000) * 1000),
      (230 + 5 * sin(t / 500.0) + s / 100.0)::FLOAT, (50 + s % 7)::FLOAT, (10 + s % 5)::FLOAT
    FROM range(${series}) a(s), range(${(END - START) / 20_000}) b(t)`);
  // Gaps, as real data has them: the first feeder offline for 6 hours on the second day, and
  // one stored row in 2,000 missing (a lost batch here and there).
  await connection.run(`DELETE FROM raw_measurements WHERE (series_id < 3
      AND ts >= make_timestamp(${(START + 86_400_000) * 1000})
      AND ts < make_timestamp(${(START + 86_400_000 + 6 * 3_600_000) * 1000}))
    OR hash(series_id, ts) % 2000 = 0`);
  const rows = Number(
    (await connection.runAndReadAll("SELECT count(*) FROM raw_measurements")).getRows()[0]![0],
  );
  await connection.run("CHECKPOINT");

  // Ingestion: a batch a second on its own connection, timed from BEGIN to COMMIT.
  const ingest = await instance.connect();
  const cells = Array.from({ length: BATCH_CELLS }, (_, k) => lvgridCell(k));
  let window = 0;
  const ingestFor = (until: () => boolean) => {
    const latencies: number[] = [];
    const done = (async () => {
      while (!until()) {
        const next = performance.now() + 1000;
        const b = batch(cells, ++window);
        const t = performance.now();
        await ingest.run("BEGIN TRANSACTION");
        const appender = await ingest.createAppender("raw_measurements");
        appendRows(appender, b.ids, b.rows, b.indexes);
        appender.flushSync();
        appender.closeSync();
        await ingest.run("COMMIT");
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
    })();
    return { latencies, done };
  };
  let quietEnd = false;
  const quiet = ingestFor(() => quietEnd);
  await new Promise((r) => setTimeout(r, 10_000));
  quietEnd = true;
  await quiet.done;

  const peak = () => {
    const base = Deno.memoryUsage().rss;
    let max = base;
    const timer = setInterval(() => (max = Math.max(max, Deno.memoryUsage().rss)), 50);
    return () => {
      clearInterval(timer);
      return (max - base) / 1e6;
    };
  };

  const stop = peak();
  const t0 = performance.now();
  await connection.run(`COPY (SELECT series_id, ts, u FROM raw_measurements
      WHERE ts >= make_timestamp(${START * 1000}) AND ts < make_timestamp(${END * 1000})
      ORDER BY series_id, ts)
    TO '${dir}/baseline.parquet' (FORMAT parquet, COMPRESSION zstd)`);
  const baseMs = performance.now() - t0;
  const baseMb = stop();

  const feeders: ExportFeeder[] = Array.from({ length: FEEDERS }, (_, f) => ({
    feeder_id: `feeder-${f}`,
    feeder_name: `Feeder ${f % 6 + 1}`,
    node_name: `Node ${Math.floor(f / 6)}`,
    station_name: `TS Station ${Math.floor(f / 30)}`,
    series: [f * 3, f * 3 + 1, f * 3 + 2, undefined],
  }));
  /** One export by the module's writer on its own connection, ingestion running meanwhile. */
  const exportOnce = async (staged: boolean) => {
    const connection = await instance.connect();
    // The statements' times (the first words of each), to see where the time goes.
    const statements: Record<string, number> = {};
    const own = new Proxy(connection, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key !== "run") return typeof value === "function" ? value.bind(target) : value;
        return async (sql: string) => {
          const t = performance.now();
          try {
            return await target.run(sql);
          } finally {
            const name = sql.replace(/\s+/g, " ").slice(0, 40);
            statements[name] = Math.round((statements[name] ?? 0) + performance.now() - t);
          }
        };
      },
    });
    let exporting = true;
    const during = ingestFor(() => !exporting);
    const stop = peak();
    const t0 = performance.now();
    const stages: Record<string, number> = {};
    let lastStage = "start";
    let lastAt = t0;
    const target = `${dir}/export-${staged ? "staged" : "direct"}.zip`;
    try {
      const size = await writeExport(
        own,
        {
          key: staged ? "staged" : "direct",
          baseName: "GDE_bench",
          from: START,
          to: END,
          interval: "20s",
          parameters: ["u"],
          format: "parquet",
          layout: "long",
          structure: "flat",
          timezone: "Europe/Zurich",
          separator: ",",
          decimalMark: ".",
          staged,
        },
        feeders,
        target,
        {
          signal: new AbortController().signal,
          exclusive: true,
          progress(_done, _total, stage) {
            const now = performance.now();
            if (stage !== lastStage) {
              stages[lastStage] = Math.round(now - lastAt);
              lastStage = stage;
              lastAt = now;
            }
          },
        },
      );
      stages[lastStage] = Math.round(performance.now() - lastAt);
      const ms = performance.now() - t0;
      const mb = stop();
      exporting = false;
      await during.done;
      // What the file holds, read back: rows, values, their sum and the MISSING rows.
      const files = unzipSync(await Deno.readFile(target));
      const parquet = `${dir}/read-${staged ? "staged" : "direct"}.parquet`;
      await Deno.writeFile(parquet, files["GDE_bench.parquet"]!);
      const [n, values, sum, missing] = (await own.runAndReadAll(`SELECT count(*)::DOUBLE,
          count(value)::DOUBLE, sum(value::DOUBLE), count(*) FILTER (quality = 'MISSING')::DOUBLE
        FROM '${parquet}'`)).getRows()[0] as [number, number, number, number];
      return {
        ms,
        size,
        mb,
        stages,
        statements: Object.fromEntries(Object.entries(statements).filter(([, v]) => v >= 100)),
        latencies: during.latencies,
        file: { rows: n, values, sum, missing },
      };
    } finally {
      exporting = false;
      await during.done;
      connection.closeSync();
    }
  };
  // The staged path (every slot staged, sorted per chunk) and the direct one, same data and run.
  const staged = await exportOnce(true);
  const direct = await exportOnce(false);
  ingest.closeSync();
  const ms = (xs: number[]) => {
    const s = summarize(xs);
    return { batches: xs.length, p50_ms: Math.round(s.p50), p99_ms: Math.round(s.p99) };
  };

  const rate = (ms: number) => Math.round(rows / (ms / 1000));
  const report = (e: typeof staged) => ({
    ms: Math.round(e.ms),
    rows_per_s: rate(e.ms),
    file_rows_per_s: Math.round(e.file.rows / (e.ms / 1000)),
    bytes: e.size,
    peak_extra_mb: Math.round(e.mb),
    stages_ms: e.stages,
    statements_ms: e.statements,
    ratio_to_engine_limit: Math.round((baseMs / e.ms) * 100) / 100,
    file: e.file,
    ingestion_during: ms(e.latencies),
  });
  console.log(JSON.stringify(
    {
      stored_rows: rows,
      engine_limit: {
        ms: Math.round(baseMs),
        rows_per_s: rate(baseMs),
        bytes: (await stat(`${dir}/baseline.parquet`)).size,
        peak_extra_mb: Math.round(baseMb),
      },
      staged: report(staged),
      direct: report(direct),
      same_file_content: JSON.stringify(staged.file) === JSON.stringify(direct.file),
      ingestion: { rows_per_batch: BATCH_CELLS * 24, without_export: ms(quiet.latencies) },
    },
    null,
    2,
  ));
} finally {
  connection.closeSync();
  instance.closeSync();
  await rm(dir, { recursive: true, force: true });
}

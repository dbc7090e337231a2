/**
 * Calibration of quality.md, measured first in every run: the engine limit (`INSERT INTO t
 * SELECT * FROM src`, rows/s) and the scan bandwidth (`SELECT sum(x)` over doubles, GB/s).
 * Also the copy rate of the raw_measurements schema itself, to show how much its columns cost
 * compared with the 4-column reference row.
 */
import { RAW_FLOAT_COLUMNS } from "../../core/ingest/schema.ts";
import { openDuckFile, rawTableDdl } from "./lib/duck.ts";
import type { Sizes } from "./lib/options.ts";
import type { Calibration, Result } from "./lib/report.ts";
import { perSecond, summarize } from "./lib/stats.ts";
import { collect, timeOnce, timeRepeated } from "./lib/timing.ts";

// A measurement-like reference row: series, time and two values at device resolution.
const REFERENCE_SRC = (rows: number) =>
  `CREATE TABLE src AS SELECT (r % 120000)::INTEGER AS series_id,
     TIMESTAMP '2026-01-05' + to_seconds((r // 120000) * 20) AS ts,
     (200 + (r % 4001) / 100)::FLOAT AS u, ((r * 7) % 5003 / 10)::FLOAT AS i
   FROM range(${rows}) t(r)`;

const RAW_COLUMNS = 2 + RAW_FLOAT_COLUMNS.length;

// raw_measurements rows with their values at device resolution (0.01).
function schemaSrc(rows: number): string {
  const values = Array.from(
    { length: RAW_FLOAT_COLUMNS.length },
    (_, k) => `((r * ${2 * k + 3}) % ${1000 + 7 * k} / 100)::FLOAT`,
  );
  return `INSERT INTO src SELECT (r % 120000)::INTEGER,
    TIMESTAMP '2026-01-05' + to_seconds((r // 120000) * 20), ${values.join(", ")}
    FROM range(${rows}) t(r)`;
}

/** Median time (ms) to copy `src` into a fresh table: one warm-up, three timed runs. */
async function medianCopyMs(run: (sql: string) => Promise<unknown>): Promise<number> {
  const samples = await collect(async (k) => {
    const table = k < 0 ? "t_warmup" : `t${k}`;
    await run(`CREATE TABLE ${table} AS SELECT * FROM src LIMIT 0`);
    const ms = await timeOnce(() => run(`INSERT INTO ${table} SELECT * FROM src`));
    await run(`DROP TABLE ${table}`);
    return ms;
  }, { warmup: 1, repeats: 3 });
  return summarize(samples).p50;
}

/** Measures the calibration in a fresh database file of `dir`. */
export async function calibrate(
  dir: string,
  sizes: Sizes,
): Promise<{ calibration: Calibration; results: Result[] }> {
  // Large enough that the scanned column stays in memory: the bandwidth is a memory figure.
  const db = await openDuckFile(dir, "calibration", "4GB");
  const run = (sql: string) => db.connection.run(sql);
  try {
    await run(REFERENCE_SRC(sizes.engineRows));
    await run("CHECKPOINT");
    const engineMs = await medianCopyMs(run);
    await run("DROP TABLE src");
    await run(rawTableDdl("src"));
    await run(schemaSrc(sizes.schemaRows));
    await run("CHECKPOINT");
    const schemaMs = await medianCopyMs(run);
    await run("DROP TABLE src");

    await run(`CREATE TABLE d AS SELECT (hash(r) % 1000000) / 1000.0 AS x
      FROM range(${sizes.scanDoubles}) t(r)`);
    const scan = await timeRepeated(() => run("SELECT sum(x) FROM d"), { warmup: 2, repeats: 5 });
    const calibration = {
      engineRowsPerSec: perSecond(sizes.engineRows, engineMs),
      scanBytesPerSec: perSecond(sizes.scanDoubles * 8, summarize(scan).p50),
    };
    const schemaRate = perSecond(sizes.schemaRows, schemaMs);
    return {
      calibration,
      results: [
        {
          name: `Engine limit: INSERT ... SELECT ${count(sizes.engineRows)} rows (4 columns)`,
          value: calibration.engineRowsPerSec,
          unit: "rows/s",
          basis: { kind: "engine", rowsPerSec: calibration.engineRowsPerSec },
        },
        {
          name: `Scan bandwidth: sum() over ${count(sizes.scanDoubles)} doubles`,
          value: calibration.scanBytesPerSec / 1e9,
          unit: "GB/s",
          basis: { kind: "bandwidth", bytesPerSec: calibration.scanBytesPerSec },
        },
        {
          name: `INSERT ... SELECT ${
            count(sizes.schemaRows)
          } raw_measurements rows (${RAW_COLUMNS} columns)`,
          value: schemaRate,
          unit: "rows/s",
          basis: { kind: "engine", rowsPerSec: schemaRate },
        },
      ],
    };
  } finally {
    db.close();
  }
}

/** 10000000 -> "10M", 200000 -> "200k". */
export function count(n: number): string {
  if (n >= 1e6 && n % 1e5 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 100 === 0) return `${n / 1e3}k`;
  return String(n);
}

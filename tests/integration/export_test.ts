/**
 * Data export on real DuckDB files with simulator data: two demo cells' hours (one of them
 * offline for part of the period) go through the ingestion core and the aggregator, then /dem
 * writes CSV, Parquet and DuckDB files that read back with DuckDB give exactly the stored
 * values (counts and sums per series and parameter), gaps included as MISSING rows; the CSV
 * estimate is within 30 % of the real size; cancel, expiry, the rules, another customer's
 * feeders and the recovery of exports a dead process left running.
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { sql } from "drizzle-orm";
import { unzipSync } from "fflate";
import { releaseNativeHandles, SLOT_GRACE_MS, SLOT_MS } from "../../core/mod.ts";
import { backfill, DEMO_USERS, demoSimCells, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import type { StationGroupDto } from "../../modules/grid/mod.ts";
import type {
  ExportDto,
  ExportPageDto,
  ScheduleDto,
  SchedulesDto,
} from "../../modules/export/mod.ts";
import type { NotificationPageDto } from "../../modules/notifications/contract.ts";
import { createLogger, userIdFromSub } from "../../kernel/mod.ts";
import {
  databaseKinds,
  decodeClaims,
  startTestPlatform,
  type TestPlatform,
} from "../helpers/platform.ts";

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const STATION = "TS Seeblick";
/** Offline from 30 h to 24 h ago (the demo's history). */
const CABINET = "CAB Gleisfeld";

for (const kind of databaseKinds()) {
  Deno.test({
    name: `data export files read back with DuckDB (${kind})`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const platform = await startTestPlatform(kind);
      try {
        await run(platform);
      } finally {
        await platform.close();
      }
    },
  });
}

type Nodes = Map<string, StationGroupDto["mv_feeder_groups"][0]["lv_groups"][0]["nodes"][0]>;

async function run(platform: TestPlatform): Promise<void> {
  const { measurements, aggregator, analytics, exports } = platform.services;
  const deps = {
    ...platform.services,
    store: measurements,
    logger: createLogger("error"),
    baseUrl: "http://unused",
    backfillDays: 0,
    rawLifetimeDays: 30,
  };
  const user = await platform.login(DEMO_USERS[0].email, DEMO_USERS[0].password);
  const token = user.access_token;
  const structure =
    await (await platform.request("/gsm/grid-structure/hv-mv-station-groups", { token }))
      .json() as StationGroupDto[];
  const nodes: Nodes = new Map(
    structure.flatMap((g) => g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes)))
      .map((n) => [n.name, n]),
  );
  const station = nodes.get(STATION)!;
  const cabinet = nodes.get(CABINET)!;
  const customerKey = (await platform.services.customers.getByConnection("demo-ew"))!.key;
  const installed = await platform.services.cells.listFor(customerKey, "INSTALLED");
  const cellOf = (nodeId: string) => installed.find((c) => c.node_id === nodeId)!.id;
  const now = Date.now();
  const ours = (await demoSimCells(deps, now)).filter((c) =>
    c.cellId === cellOf(station.id) || c.cellId === cellOf(cabinet.id)
  );
  assert.equal(ours.length, 2);
  const to = now - (now % HOUR) - 23 * HOUR;
  const from = to - 8 * HOUR;
  await backfill(deps, ours, from - HOUR, to + HOUR);
  await aggregator.flush(now + SLOT_MS + SLOT_GRACE_MS);

  const call = async <T>(method: string, path: string, body?: unknown, as = token) => {
    const res = await platform.request(path, {
      method,
      token: as,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    const text = res.status === 204 ? "null" : await res.text();
    return { status: res.status, body: JSON.parse(text || "null") as T & Record<string, unknown> };
  };
  const feeders = [station.feeders[0]!, cabinet.feeders[0]!];
  const selection = (over: Record<string, unknown> = {}) => ({
    period: { from: iso(from), to: iso(to) },
    feeders: feeders.map((f) => f.id),
    parameters: ["u", "i", "p"],
    interval: "20s",
    format: "csv",
    ...over,
  });

  // ---- rules --------------------------------------------------------------------------------
  const issues = (body: Record<string, unknown>) =>
    (body.params as { issues: { path: string; key: string }[] }).issues
      .map((i) => `${i.path}:${i.key}`);
  let res = await call("POST", "/dem/exports", { ...selection(), file_name: "  " });
  assert.equal(res.status, 400);
  assert.deepEqual(issues(res.body), ["file_name:validation.required"]);
  res = await call("POST", "/dem/exports", { ...selection(), file_name: "a/b" });
  assert.deepEqual(issues(res.body), ["file_name:validation.forbiddenChars"]);
  res = await call("POST", "/dem/exports/estimate", {
    ...selection({ period: { from: iso(from - 367 * 24 * HOUR), to: iso(to) } }),
  });
  assert.deepEqual(issues(res.body), ["period.to:validation.exportPeriodMax"]);
  res = await call("POST", "/dem/exports/estimate", selection({ feeders: [], parameters: [] }));
  assert.deepEqual(issues(res.body).sort(), [
    "feeders:validation.minItems",
    "parameters:validation.minItems",
  ]);
  // A year of 20-s values of every parameter: refused, with the limit.
  const year = { from: iso(to - 365 * 24 * HOUR), to: iso(to) };
  res = await call("POST", "/dem/exports", {
    ...selection({ period: year, parameters: ["u", "i", "p", "q", "pf", "thd_u", "thd_i", "f"] }),
    file_name: "huge",
  });
  assert.equal(res.status, 422);
  assert.equal(res.body.key, "export.tooLarge");
  // Another customer's feeder reads like an unknown one.
  const other = await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password);
  const foreign = await (await platform.request("/gsm/grid-structure/hv-mv-station-groups", {
    token: other.access_token,
  })).json() as StationGroupDto[];
  const foreignFeeder = foreign[0]!.mv_feeder_groups[0]!.lv_groups[0]!.nodes[0]!.feeders[0]!.id;
  for (const id of [foreignFeeder, "no-such-feeder"]) {
    res = await call("POST", "/dem/exports/estimate", selection({ feeders: [id] }));
    assert.equal(res.status, 400);
    assert.deepEqual(issues(res.body), ["feeders.0:grid.elementNotFound"]);
  }

  // ---- CSV, 20-s values, gaps as rows ------------------------------------------------------
  const estimate = await call<{ rows: number; estimated_bytes: number }>(
    "POST",
    "/dem/exports/estimate",
    selection(),
  );
  assert.equal(estimate.status, 200);
  const slots = 8 * 180;
  // 2 feeders x 3 phases x 3 parameters, and the neutral's current where it is measured.
  assert.ok(estimate.body.rows >= slots * 18 && estimate.body.rows <= slots * 20);
  const csv = await exportAndRead(platform, call, { ...selection(), file_name: "Seeblick csv" });
  assert.match(csv.dto.file_name, /^GDE_Seeblick_csv_\d{8}-\d{8}\.zip$/);
  const csvFile = Object.keys(csv.files).find((f) => f.endsWith(".csv") && f.startsWith("GDE_"))!;
  const csvBytes = csv.files[csvFile]!;
  assert.deepEqual([...csvBytes.slice(0, 3)], [0xef, 0xbb, 0xbf], "a UTF-8 BOM");
  const ratio = estimate.body.estimated_bytes / csvBytes.length;
  assert.ok(
    ratio > 0.7 && ratio < 1.3,
    `estimate ${estimate.body.estimated_bytes} vs ${csvBytes.length}`,
  );
  assert.ok(csv.readme.includes("MISSING"));
  const expected20s = await storedSums(analytics, measurements, feeders, nodes, cellOf, {
    table: "raw_measurements",
    time: "ts",
    columns: { u: "u", i: "i", p: "p" },
    from,
    to,
  });
  const csvDir = await unpack(csv.files);
  const fromCsv = await readBack(
    `read_csv('${csvDir}/${csvFile}', delim = ',', header = true, all_varchar = true)`,
    "TRY_CAST(value AS FLOAT)",
  );
  compare(fromCsv, expected20s, slots);
  // The cabinet was offline during the period: its gap is in the README and the gaps file.
  assert.ok(csv.readme.includes(CABINET), "the README names the cabinet's gap");
  // A notification for the user: DONE.
  const list = await call<NotificationPageDto>(
    "GET",
    `/nsm/notifications/users/${userIdFromSub(String(decodeClaims(token).sub))}?page=0&size=20`,
  );
  const done = list.body.notifications.find((n) => n.type === "DATA_EXPORT");
  assert.ok(done, "a DATA_EXPORT notification");
  assert.equal(JSON.parse(done.info).state, "DONE");

  // ---- Parquet, 10-minute aggregates, folders per month -----------------------------------
  const parquet = await exportAndRead(platform, call, {
    ...selection({ interval: "10min", format: "parquet" }),
    file_name: "Seeblick parquet",
    directory_structure: "month",
  });
  const parquetDir = await unpack(parquet.files);
  assert.ok(Object.keys(parquet.files).some((f) => f.split("/").length === 5), "nested folders");
  compare(
    await readBack(`read_parquet('${parquetDir}/*/**/*.parquet')`, "value"),
    await storedSums(analytics, measurements, feeders, nodes, cellOf, {
      table: "agg_10min",
      time: "slot",
      columns: { u: "u_rms", i: "i_rms", p: "p_mean" },
      from,
      to,
    }),
    8 * 6,
  );

  // ---- DuckDB file, hourly aggregates --------------------------------------------------------
  const duck = await exportAndRead(platform, call, {
    ...selection({ interval: "1h", format: "duckdb" }),
    file_name: "Seeblick duckdb",
  });
  const duckDir = await unpack(duck.files);
  const duckFile = Object.keys(duck.files).find((f) => f.endsWith(".duckdb"))!;
  compare(
    await readBack(`'${duckDir}/${duckFile}'`, "value", true),
    await storedSums(analytics, measurements, feeders, nodes, cellOf, {
      table: "agg_1h",
      time: "slot",
      columns: { u: "u_rms", i: "i_rms", p: "p_mean" },
      from,
      to,
    }),
    8,
  );
  await rm(csvDir, { recursive: true });
  await rm(parquetDir, { recursive: true });
  await rm(duckDir, { recursive: true });

  // ---- wide CSV, 10-minute aggregates: a column per parameter -------------------------------
  const wide = await exportAndRead(platform, call, {
    ...selection({ interval: "10min", layout: "wide" }),
    file_name: "Seeblick wide",
  });
  const wideFile = Object.keys(wide.files).find((f) => f.endsWith(".csv") && f.startsWith("GDE_"))!;
  const wideDir = await unpack(wide.files);
  const header = new TextDecoder().decode(wide.files[wideFile]!.slice(3, 200)).split(/\r?\n/)[0]!;
  const sep = header.includes(";") ? ";" : ",";
  assert.deepEqual(header.split(sep), [
    "time_utc",
    "time_local",
    "station",
    "node",
    "feeder_id",
    "feeder",
    "phase",
    "u (V)",
    "i (A)",
    "p (kW)",
    "quality",
  ]);
  assert.ok(wide.readme.includes("wide layout"));
  const expected10min = await storedSums(analytics, measurements, feeders, nodes, cellOf, {
    table: "agg_10min",
    time: "slot",
    columns: { u: "u_rms", i: "i_rms", p: "p_mean" },
    from,
    to,
  });
  compare(
    await readWide(`${wideDir}/${wideFile}`, sep, { u: "u (V)", i: "i (A)", p: "p (kW)" }),
    expected10min,
    8 * 6,
  );
  await rm(wideDir, { recursive: true });

  // ---- PQ quantities: 10-minute records and hourly rollups ----------------------------------
  const stored = Number(
    (await analytics.runAndReadAll("SELECT count(*) FROM pq_10min")).getRows()[0]![0],
  );
  assert.ok(stored > 0, "the simulated cells' PQ records are stored");
  res = await call("POST", "/dem/exports/estimate", selection({ parameters: ["u", "pst"] }));
  assert.deepEqual(issues(res.body), ["parameters:export.pqNotAt20s"]);
  const pq = await exportAndRead(platform, call, {
    ...selection({ interval: "10min", format: "parquet", parameters: ["unbalance", "pst", "h5"] }),
    file_name: "Seeblick pq",
  });
  const pqDir = await unpack(pq.files);
  compare(
    await readBack(`read_parquet('${pqDir}/GDE_*.parquet')`, "value"),
    await storedSums(analytics, measurements, feeders, nodes, cellOf, {
      table: "pq_10min",
      time: "slot",
      columns: { unbalance: "unbalance", pst: "pst", h5: "h5" },
      from,
      to,
    }),
    8 * 6,
  );
  assert.ok(pq.readme.includes("Power quality"));
  const pqHourly = await exportAndRead(platform, call, {
    ...selection({ interval: "1h", format: "parquet", parameters: ["plt", "unbalance"] }),
    file_name: "Seeblick pq hourly",
  });
  const pqHourlyDir = await unpack(pqHourly.files);
  compare(
    await readBack(`read_parquet('${pqHourlyDir}/GDE_*.parquet')`, "value"),
    await storedSums(analytics, measurements, feeders, nodes, cellOf, {
      table: "pq_1h",
      time: "slot",
      columns: { plt: "plt", unbalance: "unbalance" },
      from,
      to,
    }),
    8,
  );
  await rm(pqDir, { recursive: true });
  await rm(pqHourlyDir, { recursive: true });
  for (const key of [wide.dto.key, pq.dto.key, pqHourly.dto.key]) {
    assert.equal((await call("DELETE", `/dem/exports/${key}`)).status, 204);
  }

  // ---- list, ownership, download marks, cancel, expiry, restart -----------------------------
  const page = await call<ExportPageDto>("GET", "/dem/exports?page=0&size=10");
  assert.equal(page.body.total, 6);
  const kept = page.body.items.filter((e) => e.status !== "DELETED");
  assert.equal(kept.length, 3);
  assert.ok(kept.every((e) => e.status === "DOWNLOADED"));
  const expires = Date.parse(kept[0]!.expires_at!);
  assert.ok(Math.abs(expires - Date.parse(kept[0]!.finished_at!) - 7 * 24 * HOUR) < 1000);
  res = await call("GET", `/dem/exports/${csv.dto.key}`, undefined, other.access_token);
  assert.equal(res.status, 404);
  // API clients download with their bearer token.
  const direct = await platform.request(`/dem/exports/${csv.dto.key}/file`, { token });
  assert.equal(direct.status, 200);
  assert.equal((await direct.arrayBuffer()).byteLength, csv.dto.size_bytes);

  const big = await call<{ key: string }>("POST", "/dem/exports", {
    ...selection({
      feeders: [...nodes.values()].flatMap((n) => n.feeders.map((f) => f.id)),
      parameters: ["u", "i", "p", "q", "pf", "thd_u", "thd_i", "f"],
    }),
    file_name: "cancelled",
  });
  assert.equal(big.status, 202);
  res = await call<ExportDto>("POST", `/dem/exports/${big.body.key}/cancel`);
  assert.equal(res.status, 200);
  assert.equal(res.body.status, "CANCELLED");
  await exports.runner.idle();
  assert.equal(
    (await call<ExportDto>("GET", `/dem/exports/${big.body.key}`)).body.status,
    "CANCELLED",
  );
  const dir = `${platform.config.dataDir}/exports`;
  assert.ok(!(await readdir(dir)).some((f) => f.startsWith(big.body.key)), "no file stays");
  res = await call("POST", `/dem/exports/${big.body.key}/cancel`);
  assert.equal(res.status, 409);

  assert.equal(await exports.service.purge(new Date(Date.now() + 8 * 24 * HOUR)), 3);
  assert.equal(
    (await call<ExportDto>("GET", `/dem/exports/${csv.dto.key}`)).body.status,
    "DELETED",
  );
  assert.equal((await readdir(dir)).length, 0);
  res = await call("GET", `/dem/exports/${csv.dto.key}/file`);
  assert.equal(res.status, 409);

  // A process that died while exporting: the export starts again (three attempts, then failed).
  const { db } = platform.services;
  await db.execute(
    sql`UPDATE export.exports SET status = 'IN_PROGRESS', attempts = 1 WHERE key = ${csv.dto.key}`,
  );
  await db.execute(
    sql`UPDATE export.exports SET status = 'IN_PROGRESS', attempts = 3 WHERE key = ${parquet.dto.key}`,
  );
  await writeFile(`${dir}/${csv.dto.key}.zip`, "partial");
  await exports.service.recover();
  assert.ok(!(await readdir(dir)).includes(`${csv.dto.key}.zip`), "the partial file is removed");
  const failed = (await call<ExportDto>("GET", `/dem/exports/${parquet.dto.key}`)).body;
  assert.equal(failed.status, "FAILED");
  assert.equal(failed.error?.key, "export.interrupted");
  exports.runner.wake();
  await exports.runner.idle();
  const again = (await call<ExportDto>("GET", `/dem/exports/${csv.dto.key}`)).body;
  assert.equal(again.status, "FINISHED");

  // Delete by hand; the administrators' disk usage.
  res = await call("DELETE", `/dem/exports/${csv.dto.key}`);
  assert.equal(res.status, 204);
  assert.equal(
    (await call<ExportDto>("GET", `/dem/exports/${csv.dto.key}`)).body.status,
    "DELETED",
  );
  res = await call("GET", "/dem/usage", undefined, other.access_token);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { files: 0, bytes: 0 }, "another utility's usage counts its files");

  await scheduled(platform, call, selection, issues, token);
}

/**
 * Scheduled exports: the rules, CRUD, a due run queued once even when two processes claim it
 * at once, and not again after a restart (the restarted instance also honours a download link
 * signed before it started).
 */
async function scheduled(
  platform: TestPlatform,
  call: Call,
  selection: (over?: Record<string, unknown>) => Record<string, unknown>,
  issues: (body: Record<string, unknown>) => string[],
  token: string,
): Promise<void> {
  const { exports, db } = platform.services;
  const { period: _, ...content } = selection({ interval: "1h", format: "parquet" });
  let res = await call("POST", "/dem/schedules", {
    ...content,
    file_name: "",
    frequency: "HOURLY",
  });
  assert.equal(res.status, 400);
  assert.deepEqual(issues(res.body).sort(), [
    "file_name:validation.required",
    "frequency:validation.invalidChoice",
  ]);
  res = await call("POST", "/dem/schedules", {
    ...content,
    interval: "20s",
    parameters: ["pst"],
    file_name: "flicker",
    frequency: "WEEKLY",
  });
  assert.deepEqual(issues(res.body), ["parameters:export.pqNotAt20s"]);
  const created = await call<ScheduleDto>("POST", "/dem/schedules", {
    ...content,
    file_name: "Daily loads",
    frequency: "DAILY",
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const schedule = created.body;
  assert.ok(Date.parse(schedule.next_run_at) > Date.now(), "the first run is after the next day");
  assert.equal((await call<SchedulesDto>("GET", "/dem/schedules")).body.items.length, 1);
  const other = await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password);
  res = await call("GET", `/dem/schedules/${schedule.key}`, undefined, other.access_token);
  assert.equal(res.status, 404);
  // Paused and resumed through PUT.
  res = await call("PUT", `/dem/schedules/${schedule.key}`, {
    ...content,
    file_name: "Daily loads",
    frequency: "DAILY",
    active: false,
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.active, false);
  res = await call("PUT", `/dem/schedules/${schedule.key}`, {
    ...content,
    file_name: "Daily loads",
    frequency: "DAILY",
  });
  assert.equal(res.body.active, true);

  // The run is due: two instances (two processes, or one and its restart) claim it at once.
  const due = new Date(Date.now() - 60_000).toISOString();
  await db.execute(
    sql`UPDATE export.schedules SET next_run_at = ${due} WHERE key = ${schedule.key}`,
  );
  const second = exports.restarted();
  const claimed = await Promise.all([exports.schedules.tick(), second.schedules.tick()]);
  assert.equal(claimed.flat().length, 1, "one run, one export");
  const runs = async () =>
    (await call<ExportPageDto>("GET", "/dem/exports?page=0&size=50")).body.items
      .filter((e) => e.schedule_key === schedule.key);
  // Whichever instance claimed the run may be running its export.
  await Promise.all([exports.runner.idle(), second.runner.idle()]);
  let mine = await runs();
  assert.equal(mine.length, 1);
  assert.equal(mine[0]!.status, "FINISHED", JSON.stringify(mine[0]!.error));
  assert.match(mine[0]!.file_name, /^GDE_Daily_loads_\d{8}-\d{8}\.zip$/);
  const days = (Date.parse(mine[0]!.period.to) - Date.parse(mine[0]!.period.from)) / HOUR;
  assert.ok(days >= 23 && days <= 25, "a local day");
  const after = (await call<ScheduleDto>("GET", `/dem/schedules/${schedule.key}`)).body;
  assert.equal(after.runs, 1);
  assert.equal(after.last_export_key, mine[0]!.key);
  assert.ok(Date.parse(after.next_run_at) > Date.now(), "the next run is the next day's");
  const notes = await call<NotificationPageDto>(
    "GET",
    `/nsm/notifications/users/${userIdFromSub(String(decodeClaims(token).sub))}?page=0&size=50`,
  );
  assert.ok(
    notes.body.notifications.some((n) =>
      n.type === "DATA_EXPORT" && JSON.parse(n.info).state === "DONE" &&
      n.info.includes(mine[0]!.file_name)
    ),
    "the run is notified",
  );
  const link = await call<{ url: string }>("POST", `/dem/exports/${mine[0]!.key}/link`);

  // A restart: the run is not made again, even if its claim were read again (the unique
  // index on schedule and period), and a link signed before the restart still downloads.
  await second.start!();
  await db.execute(
    sql`UPDATE export.schedules SET next_run_at = ${due} WHERE key = ${schedule.key}`,
  );
  assert.deepEqual(await second.schedules.tick(), []);
  await second.runner.idle();
  mine = await runs();
  assert.equal(mine.length, 1, "one file for the period across the restart");
  const download = await second.public![0]!.routes.request(link.body.url.replace(/^\/dem/, ""));
  assert.equal(download.status, 200);
  assert.equal((await download.arrayBuffer()).byteLength, mine[0]!.size_bytes);
  await second.close!();

  // Run now: the last whole day as a one-off export of the schedule's selection, named after
  // it; the schedule's next run and its count stay; someone else's schedule is not found.
  res = await call("POST", `/dem/schedules/${schedule.key}/run`, {}, other.access_token);
  assert.equal(res.status, 404);
  assert.equal((await call("POST", `/dem/schedules/${crypto.randomUUID()}/run`, {})).status, 404);
  const before = (await call<ScheduleDto>("GET", `/dem/schedules/${schedule.key}`)).body;
  const now = await call<{ key: string }>("POST", `/dem/schedules/${schedule.key}/run`, {});
  assert.equal(now.status, 202, JSON.stringify(now.body));
  await exports.runner.idle();
  const ran = (await call<ExportDto>("GET", `/dem/exports/${now.body.key}`)).body;
  assert.equal(ran.status, "FINISHED", JSON.stringify(ran.error));
  assert.equal(ran.schedule_key, null, "a one-off export, not a run of the period");
  assert.match(ran.file_name, /^GDE_Daily_loads_\d{8}-\d{8}\.zip$/);
  assert.deepEqual([ran.parameters, ran.interval, ran.format], [
    schedule.parameters,
    schedule.interval,
    schedule.format,
  ]);
  const to = Date.parse(ran.period.to);
  const length = (to - Date.parse(ran.period.from)) / HOUR;
  assert.ok(length >= 23 && length <= 25, "a local day");
  assert.ok(to <= Date.now() && to > Date.now() - 25 * HOUR, "the last whole day");
  const unchanged = (await call<ScheduleDto>("GET", `/dem/schedules/${schedule.key}`)).body;
  assert.deepEqual([unchanged.runs, unchanged.next_run_at], [before.runs, before.next_run_at]);

  res = await call("DELETE", `/dem/schedules/${schedule.key}`);
  assert.equal(res.status, 204);
  assert.equal((await call("GET", `/dem/schedules/${schedule.key}`)).status, 404);
  assert.equal((await runs()).length, 1, "the files of a deleted schedule stay");
}

type Call = <T>(method: string, path: string, body?: unknown, as?: string) => Promise<{
  status: number;
  body: T & Record<string, unknown>;
}>;

/** Starts an export, waits for it, downloads it and unzips it in memory. */
async function exportAndRead(platform: TestPlatform, call: Call, body: Record<string, unknown>) {
  const created = await call<{ key: string }>("POST", "/dem/exports", body);
  assert.equal(created.status, 202, JSON.stringify(created.body));
  await platform.services.exports.runner.idle();
  const dto = (await call<ExportDto>("GET", `/dem/exports/${created.body.key}`)).body;
  assert.equal(dto.status, "FINISHED", JSON.stringify(dto.error));
  assert.equal(dto.progress.percent, 100);
  // The browser's way: a signed link, fetched without a bearer token.
  const link = await call<{ url: string }>("POST", `/dem/exports/${created.body.key}/link`);
  assert.equal(link.status, 200);
  assert.equal(
    (await platform.request(link.body.url.replace(/token=.*/, "token=1.x.y"))).status,
    404,
  );
  const res = await platform.request(link.body.url);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-disposition") ?? "", /GDE_/);
  const zip = new Uint8Array(await res.arrayBuffer());
  assert.equal(zip.length, dto.size_bytes);
  const files = unzipSync(zip);
  const readme = new TextDecoder().decode(files["README.txt"]);
  return { dto, files, readme };
}

async function unpack(files: Record<string, Uint8Array>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gde-"));
  for (const [name, data] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeFile(join(dir, name), data);
  }
  return dir;
}

/** Per feeder, phase and parameter: values, their sum, and missing rows. */
type Sums = Map<string, { n: number; sum: number; missing: number }>;

async function readBack(source: string, value: string, database = false): Promise<Sums> {
  const instance = await DuckDBInstance.create(":memory:");
  const c = await instance.connect();
  try {
    let from = `(${source.startsWith("read_") ? `SELECT * FROM ${source}` : source})`;
    if (database) {
      await c.run(`ATTACH ${source} AS f (READ_ONLY)`);
      from = "f.measurements";
    }
    const rows = (await c.runAndReadAll(`SELECT feeder_id, phase, parameter,
        count(${value})::DOUBLE, coalesce(sum(${value}::DOUBLE), 0),
        count(*) FILTER (WHERE quality = 'MISSING')::DOUBLE
      FROM ${from} GROUP BY ALL`)).getRows() as [string, string, string, number, number, number][];
    return new Map(
      rows.map(([f, ph, p, n, sum, missing]) => [`${f}/${ph}/${p}`, { n, sum, missing }]),
    );
  } finally {
    await closeReader(c, instance);
  }
}

async function storedSums(
  analytics: TestPlatform["services"]["analytics"],
  store: TestPlatform["services"]["measurements"],
  feeders: { id: string; slot: number }[],
  nodes: Nodes,
  cellOf: (nodeId: string) => string,
  q: { table: string; time: string; columns: Record<string, string>; from: number; to: number },
): Promise<Sums> {
  const out: Sums = new Map();
  for (const feeder of feeders) {
    const node = [...nodes.values()].find((n) => n.feeders.some((f) => f.id === feeder.id))!;
    for (const [k, phase] of ["L1", "L2", "L3", "N"].entries()) {
      const id = store.seriesId(cellOf(node.id), feeder.slot, k);
      if (id === undefined) continue;
      for (const [parameter, column] of Object.entries(q.columns)) {
        if (phase === "N" && parameter !== "i") continue;
        const [n, sum] = (await analytics.runAndReadAll(`SELECT count(${column})::DOUBLE,
            coalesce(sum(${column}::DOUBLE), 0) FROM ${q.table} WHERE series_id = ${id}
            AND ${q.time} >= make_timestamp(${q.from * 1000})
            AND ${q.time} < make_timestamp(${q.to * 1000})`)).getRows()[0] as [number, number];
        out.set(`${feeder.id}/${phase}/${parameter}`, { n: n!, sum: sum!, missing: 0 });
      }
    }
  }
  return out;
}

/** The exported counts and sums equal the stored ones; every other slot is a MISSING row. */
function compare(actual: Sums, expected: Sums, slots: number): void {
  let gaps = 0;
  for (const [key, e] of expected) {
    const a = actual.get(key);
    assert.ok(a, `${key} exported`);
    assert.equal(a.n, e.n, `${key} count`);
    assert.ok(Math.abs(a.sum - e.sum) <= 1e-9 * Math.max(1, Math.abs(e.sum)), `${key} sum`);
    assert.equal(a.n + a.missing, slots, `${key}: every slot is a row`);
    gaps += a.missing;
  }
  assert.ok(gaps > 0, "the cabinet's gap is exported as MISSING rows");
}

/** Counts and sums per feeder, phase and parameter of a wide CSV (a column per parameter). */
async function readWide(path: string, sep: string, columns: Record<string, string>): Promise<Sums> {
  const instance = await DuckDBInstance.create(":memory:");
  const c = await instance.connect();
  try {
    const src = `read_csv('${path}', delim = '${sep}', header = true, all_varchar = true)`;
    const parts = Object.entries(columns).map(([key, column]) => {
      const value = `TRY_CAST(replace("${column}", ',', '.') AS FLOAT)`;
      return `SELECT feeder_id, phase, '${key}' AS parameter, count(${value})::DOUBLE,
        coalesce(sum(${value}::DOUBLE), 0), count(*) FILTER (WHERE "${column}" IS NULL)::DOUBLE
        FROM ${src} GROUP BY ALL`;
    });
    const rows = (await c.runAndReadAll(parts.join(" UNION ALL "))).getRows() as [
      string,
      string,
      string,
      number,
      number,
      number,
    ][];
    return new Map(
      rows.map(([f, ph, p, n, sum, missing]) => [`${f}/${ph}/${p}`, { n, sum, missing }]),
    );
  } finally {
    await closeReader(c, instance);
  }
}

/**
 * Closes a read-back instance: its results are collected first, while the instance that
 * allocated them still lives (a result freed after its instance corrupts the heap:
 * "malloc_consolidate(): unaligned fastbin chunk detected").
 */
async function closeReader(
  c: { closeSync(): void },
  instance: { closeSync(): void },
): Promise<void> {
  await releaseNativeHandles();
  c.closeSync();
  instance.closeSync();
  await releaseNativeHandles();
}

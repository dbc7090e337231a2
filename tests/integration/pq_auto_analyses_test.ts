/**
 * Auto-analyses and the grid-wide compliance end to end (real DuckDB, PGlite and PostgreSQL).
 * Hand-made weeks of the demo station TS Seeblick (feeder 1, Un = 230 V) go through the cell
 * protocol: week A (two weeks ago) with L1 at 200 V in 50 of 1,008 slots (4.96 %: Passed), week
 * B (last week) in 51 slots (5.06 %: Not passed). An auto-analysis started two weeks ago on
 * Mondays at 06:00 (Europe/Zurich) is behind by its past due times: each is caught up once, each
 * run makes one ordinary report of the week before it; a restart runs nothing again, and a run a
 * dead process left half made is made once. The compliance view says Not passed (voltage) for
 * the station's last complete week, linked to the auto-analysis' report of that week.
 */
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { postgresTestDatabase } from "../helpers/postgres.ts";
import { SLOT_GRACE_MS, SLOT_MS } from "../../core/mod.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import { type Platform, startPlatform } from "../../main.ts";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import type { StationGroupDto } from "../../modules/grid/mod.ts";
import type {
  AutoAnalysisDto,
  AutoRunPageDto,
  ComplianceDto,
  ComplianceMapDto,
} from "../../modules/power_quality/auto/contract.ts";
import { AutoRunJobs } from "../../modules/power_quality/auto/runs.ts";
import { nextRun } from "../../modules/power_quality/auto/schedule.ts";
import {
  autoAnalyses,
  autoRuns,
  complianceVerdicts,
  complianceWeeks,
} from "../../modules/power_quality/auto/schema.ts";
import { reports } from "../../modules/power_quality/schema.ts";
import { loginWithPassword } from "../helpers/oidc_login.ts";
import { databaseKinds, TEST_BASE_URL } from "../helpers/platform.ts";

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();
const mondayOf = (t: number) => {
  const midnight = Math.floor(t / DAY) * DAY;
  return midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * DAY;
};
type Answer<T> = { status: number; body: T & { code?: number; key?: string; params?: unknown } };

async function open(dataDir: string, databaseUrl: string | undefined) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_BASE_URL,
    LOG_LEVEL: "error",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const platform = await startPlatform(config, createLogger("error"));
  const fetchApp = (req: Request) => Promise.resolve(platform.app.fetch(req));
  const tokenOf = async (role: string) => {
    const u = DEMO_USERS.find((d) => d.role === role)!;
    return (await loginWithPassword(fetchApp, TEST_BASE_URL, u.email, u.password)).access_token;
  };
  const admin = await tokenOf("admin");
  const user = await tokenOf("user");
  const call = async <T>(method: string, path: string, body?: unknown, token = admin) => {
    const res = await fetchApp(
      new Request(`${TEST_BASE_URL}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} } as Answer<T>;
  };
  return { platform, call, user };
}

async function sendWeeks(platform: Platform, cellId: string, from: number, low: Set<number>) {
  const credential = await platform.services.cells.rotateCredential(cellId);
  const h = Array.from({ length: 24 }, () => 0.1);
  for (let day = from; day < from + 2 * WEEK; day += DAY) {
    const measurements: unknown[] = [];
    const pq: unknown[] = [];
    for (let slot = day; slot < day + DAY; slot += SLOT_MS) {
      for (const phase of ["L1", "L2", "L3"]) {
        const u = phase === "L1" && low.has(slot) ? 200 : 230;
        measurements.push({ ts: iso(slot), feeder: 1, phase, u, i: 50, thd_u: 2, f: 50 });
        pq.push({ slot: iso(slot), feeder: 1, phase, h_u: h, pst: 0.4, plt: 0.5, unbalance: 0.5 });
      }
    }
    const res = await platform.app.fetch(
      new Request(`${TEST_BASE_URL}/ingest/v1/batches`, {
        method: "POST",
        headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
        body: JSON.stringify({ protocol: 2, batch_id: crypto.randomUUID(), measurements, pq }),
      }),
    );
    assert.equal(res.status, 200, await res.text());
  }
  await platform.services.aggregator.flush(Date.now() + SLOT_MS + SLOT_GRACE_MS);
}

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean) {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

for (const kind of databaseKinds()) {
  Deno.test({
    name: `auto-analyses on ${kind}: codes, catch-up, restart runs once, compliance verdicts`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const database = kind === "postgres" ? await postgresTestDatabase("gw_pqa") : null;
      try {
        await run(database?.url);
      } finally {
        await database?.drop();
      }
    },
  });
}

async function run(databaseUrl: string | undefined): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "gridwatch-pqa-"));
  let client = await open(dataDir, databaseUrl);
  const { platform } = client;
  let closed = false;
  try {
    const customer = (await platform.services.customers.getByConnection("demo-ew"))!;
    const structure = (await (await platform.app.fetch(
      new Request(`${TEST_BASE_URL}/gsm/grid-structure/hv-mv-station-groups`, {
        headers: { authorization: `Bearer ${client.user}` },
      }),
    )).json()) as StationGroupDto[];
    const lvGroups = structure.flatMap((g) => g.mv_feeder_groups.flatMap((m) => m.lv_groups));
    const station = lvGroups.flatMap((l) => l.nodes).find((n) => n.name === "TS Seeblick")!;
    const installed = await platform.services.cells.listFor(customer.key, "INSTALLED");
    const cell = installed.find((c) => c.node_id === station.id)!.id;

    const monday = mondayOf(Date.now());
    const weekA = monday - 2 * WEEK;
    const weekB = monday - WEEK;
    const low = new Set<number>();
    for (let k = 0; k < 50; k++) low.add(weekA + (5 + k * 19) * SLOT_MS);
    for (let k = 0; k < 51; k++) low.add(weekB + (7 + k * 19) * SLOT_MS);
    await sendWeeks(platform, cell, weekA, low);

    const body = (extra: Record<string, unknown> = {}) => ({
      name: "Weekly Seeblick",
      language: "en",
      scope: "NODES",
      nodes: [station.id],
      standard: "EN50160",
      weekday: 1,
      hour: 6,
      start: iso(weekA).slice(0, 10),
      ...extra,
    });
    const create = (extra: Record<string, unknown> = {}, token?: string) =>
      client.call<AutoAnalysisDto>("POST", "/pqm/auto-analyses", body(extra), token);

    // Rules and codes before anything is stored.
    assert.equal((await create({}, client.user)).status, 403, "users read, admins schedule");
    assert.equal((await create({ start: "2020-01-06" })).body.code, 520);
    assert.equal((await create({ start: iso(monday + 60 * DAY).slice(0, 10) })).body.code, 513);
    assert.equal((await create({ nodes: [crypto.randomUUID()] })).body.code, 506);
    const noNodes = await create({ nodes: [] });
    assert.equal(noNodes.status, 400);
    assert.match(JSON.stringify(noNodes.body), /validation.required/);
    assert.equal((await create({ scope: "LV_GROUP", group: "nope" })).status, 404);
    assert.match(JSON.stringify((await create({ name: "a:b" })).body), /forbiddenChars/);

    const created = await create();
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const key = created.body.key;
    assert.equal(created.body.status, "ACTIVE");
    assert.equal(created.body.timezone, "Europe/Zurich");
    const duplicate = await create({ name: "weekly seeblick" });
    assert.match(JSON.stringify(duplicate.body), /pq.autoAnalysisExists/);
    // A whole LV group is accepted too.
    const group = lvGroups.find((l) => l.nodes.some((n) => n.id === station.id))!;
    const byGroup = await create({ name: "Group weekly", scope: "LV_GROUP", group: group.id });
    assert.equal(byGroup.status, 201, JSON.stringify(byGroup.body));
    assert.equal(byGroup.body.group?.name, group.name);
    assert.equal(
      (await client.call("POST", `/pqm/auto-analyses/${byGroup.body.key}/pause`)).status,
      200,
    );

    // The due times since the start, Mondays 06:00 Zurich; each analyses the week before.
    const schedule = { weekday: 1, hour: 6, timezone: "Europe/Zurich" };
    const due: number[] = [];
    for (let t = nextRun(schedule, weekA - DAY); t <= Date.now(); t = nextRun(schedule, t + 1)) {
      due.push(t);
    }
    const runsOf = () =>
      client.call<AutoRunPageDto>("GET", `/pqm/auto-analyses/${key}/runs`, undefined, client.user);
    const history = await until("the caught-up runs", runsOf, (r) =>
      r.body.total === due.length &&
      r.body.runs.every((run) => run.status === "COMPLETED" || run.status === "FAILED"));
    assert.deepEqual(
      history.body.runs.map((r) => r.scheduled_for).sort(),
      due.map(iso).sort(),
    );
    const byWeek = new Map(history.body.runs.map((r) => [r.week.from, r]));
    const runA = byWeek.get(iso(weekA))!;
    const runB = byWeek.get(iso(weekB));
    assert.equal(runA.items[0]!.report?.result, "PASSED", JSON.stringify(runA));
    assert.equal(runA.passed, 1);
    if (runB) {
      assert.equal(runB.items[0]!.report?.result, "NOT_PASSED");
      assert.equal(runB.not_passed, 1);
    }
    // Ordinary reports: in the reports list, with the analysis' name, week and node.
    const report = await client.call<{ name: string; status: string; result: string }>(
      "GET",
      `/pqm/reports/${runA.items[0]!.report!.key}`,
    );
    assert.match(report.body.name, /^Weekly Seeblick 20\d\d-W\d\d TS Seeblick$/);

    // Status rules (503).
    const path = `/pqm/auto-analyses/${key}`;
    assert.equal((await client.call("POST", `${path}/resume`)).body.code, 503);
    assert.equal((await client.call("DELETE", path)).body.code, 503);
    assert.equal((await client.call("PUT", path, body({ hour: 7 }))).body.code, 503);
    assert.equal((await client.call("POST", `${path}/pause`)).status, 200);
    assert.equal((await client.call("POST", `${path}/pause`)).body.code, 503);
    const edited = await client.call<AutoAnalysisDto>("PUT", path, body({ hour: 7 }));
    assert.equal(edited.body.hour, 7);
    assert.equal(edited.body.next_run, null);
    const resumed = await client.call<AutoAnalysisDto>("POST", `${path}/resume`);
    assert.equal(resumed.body.status, "ACTIVE");
    assert.ok(Date.parse(resumed.body.next_run!) > Date.now(), "paused weeks are not caught up");

    // Two schedulers at one due time: one run. (Restart-safety: the claim is the UPDATE.)
    const db = platform.services.db;
    const dueNow = new Date(Date.now() - 60_000);
    await db.update(autoAnalyses).set({ nextRunAt: dueNow }).where(eq(autoAnalyses.key, key));
    const deps = {
      db,
      directory: null as never,
      structure: null as never,
      reports: { wake() {}, cancel: () => false },
      logger: createLogger("error"),
    };
    const made = await Promise.all([
      new AutoRunJobs(deps).schedule(new Date()),
      new AutoRunJobs(deps).schedule(new Date()),
    ]);
    const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(autoRuns)
      .where(sql`${autoRuns.analysisKey} = ${key} AND ${autoRuns.scheduledFor} = ${dueNow}`);
    assert.equal(counted?.n, 1, `made ${made}`);
    await until(
      "the due run's report",
      runsOf,
      (r) => r.body.runs.every((run) => run.status === "COMPLETED" || run.status === "FAILED"),
    );
    // A run a dead process left half made (CREATING, nothing inserted).
    const crashed = crypto.randomUUID();
    await db.insert(autoRuns).values({
      key: crashed,
      analysisKey: key,
      customerKey: customer.key,
      scheduledFor: new Date(Date.now() - 30_000),
      weekStart: new Date(weekB),
      status: "CREATING",
      attempts: 1,
    });
    const countReports = async () =>
      (await db.select({ key: reports.key }).from(reports).where(
        sql`${reports.autoRunKey} IN (SELECT key FROM power_quality.auto_runs
          WHERE analysis_key = ${key})`,
      )).length;
    const before = await countReports();
    const runsBefore = (await runsOf()).body.total;

    await platform.close();
    closed = true;
    client = await open(dataDir, databaseUrl);
    closed = false;
    const after = await until(
      "the half-made run",
      () => client.call<AutoRunPageDto>("GET", `/pqm/auto-analyses/${key}/runs`),
      (r) => r.body.runs.find((x) => x.key === crashed)?.status === "COMPLETED",
    );
    assert.equal(after.body.total, runsBefore, "no run twice after the restart");
    const crashedRun = after.body.runs.find((x) => x.key === crashed)!;
    assert.equal(crashedRun.items.length, 1);
    assert.equal(crashedRun.not_passed, 1, "week B fails on voltage");
    const db2 = client.platform.services.db;
    const count2 = (await db2.select({ key: reports.key }).from(reports).where(
      sql`${reports.autoRunKey} IN (SELECT key FROM power_quality.auto_runs
        WHERE analysis_key = ${key})`,
    )).length;
    assert.equal(count2, before + 1);

    // The grid-wide compliance of the last complete week (week B): the station fails voltage.
    const queued = await client.call<{ status: string }>("POST", "/pqm/compliance/evaluate");
    assert.equal(queued.status, 202);
    assert.equal(
      (await client.call("POST", "/pqm/compliance/evaluate", undefined, client.user)).status,
      403,
    );
    const view = await until(
      "the compliance week",
      () =>
        client.call<ComplianceDto>(
          "GET",
          "/pqm/compliance?verdict=NOT_PASSED",
          undefined,
          client.user,
        ),
      (r) =>
        r.body.week?.status === "DONE" && r.body.week.from === iso(weekB) &&
        r.body.nodes.some((n) => n.node_id === station.id && n.passed === false),
    );
    const node = view.body.nodes.find((n) => n.node_id === station.id)!;
    assert.deepEqual(node.failed, ["voltage"]);
    assert.equal(node.availability_pct, 100);
    assert.equal(node.feeders.find((f) => f.name)!.failed.includes("voltage"), true);
    assert.ok(node.report_key, "linked to the week's report");
    const linked = await client.call<{ node_id: string; start: string }>(
      "GET",
      `/pqm/reports/${node.report_key}`,
    );
    assert.equal(linked.body.node_id, station.id);
    assert.equal(linked.body.start, iso(weekB));
    assert.equal(view.body.not_passed >= 1, true);
    assert.equal(view.body.total, view.body.not_passed);
    assert.ok(view.body.nodes.every((n) => n.passed === false));
    // Nodes with a cell but no data this week: not evaluable, never Passed.
    const all = await client.call<ComplianceDto>("GET", "/pqm/compliance");
    assert.equal(all.body.total, all.body.passed + all.body.not_passed + all.body.not_evaluable);
    for (const other of all.body.nodes.filter((n) => n.node_id !== station.id)) {
      assert.notEqual(other.passed, true, other.node_name);
    }
    // The map: every node of the week with its verdict, the same link to the report.
    const map = await client.call<ComplianceMapDto>(
      "GET",
      "/pqm/compliance/map",
      undefined,
      client.user,
    );
    assert.equal(map.status, 200);
    assert.equal(map.body.week?.from, iso(weekB));
    assert.equal(map.body.nodes.length, all.body.total);
    const onMap = map.body.nodes.find((n) => n.node_id === station.id)!;
    assert.equal(onMap.passed, false);
    assert.deepEqual(onMap.failed, ["voltage"]);
    assert.equal(onMap.report_key, node.report_key);
    assert.equal(typeof onMap.latitude, "number");
    assert.equal((await client.call("GET", "/pqm/compliance?week=2020-01-06")).status, 404);
    assert.equal((await client.call("GET", "/pqm/compliance/map?week=2020-01-06")).status, 404);
    assert.equal((await client.call("GET", "/pqm/compliance?week=nope")).status, 400);
    const badVerdict = await client.call("GET", "/pqm/compliance?verdict=MAYBE");
    assert.equal(badVerdict.status, 400);
    assert.match(JSON.stringify(badVerdict.body), /validation\.invalidChoice/);
    assert.equal((await client.call("GET", "/pqm/compliance?page=-1")).status, 400);
    assert.equal((await client.call("GET", "/pqm/compliance?page=x")).status, 400);

    // Paging on the server: a stored week of 123 nodes (41 of each verdict), 50 per page, by
    // node name, the verdict filter applied before paging; the counts are the week's.
    const old = new Date("2021-03-01T00:00:00Z");
    await db2.insert(complianceWeeks).values({
      customerKey: customer.key,
      weekStart: old,
      status: "DONE",
      dueAt: old,
      nodes: 123,
      finishedAt: old,
    });
    const verdictOf = (k: number) => (k % 3 === 0 ? true : k % 3 === 1 ? false : null);
    await db2.insert(complianceVerdicts).values(Array.from({ length: 123 }, (_, k) => ({
      customerKey: customer.key,
      weekStart: old,
      nodeId: `paging-${k}`,
      nodeName: `Node ${String(k).padStart(3, "0")}`,
      ewName: "EW",
      lvGroup: "LV",
      latitude: 47 + k / 1000,
      longitude: 8.3,
      passed: verdictOf(k),
      failed: verdictOf(k) === false ? ["thd"] : [],
      availabilityPct: 99.5,
      feeders: [],
    })));
    const pageOf = async (verdict: string, page: number) =>
      (await client.call<ComplianceDto>(
        "GET",
        `/pqm/compliance?week=2021-03-01&verdict=${verdict}&page=${page}`,
        undefined,
        client.user,
      )).body;
    const pages = await Promise.all([0, 1, 2, 3].map((p) => pageOf("ALL", p)));
    assert.deepEqual(pages.map((p) => p.nodes.length), [50, 50, 23, 0]);
    assert.deepEqual(
      pages.flatMap((p) => p.nodes.map((n) => n.node_name)),
      Array.from({ length: 123 }, (_, k) => `Node ${String(k).padStart(3, "0")}`),
    );
    assert.deepEqual(
      [pages[0]!.total, pages[0]!.size, pages[1]!.page, pages[0]!.passed, pages[0]!.not_passed],
      [123, 50, 1, 41, 41],
    );
    assert.equal(pages[0]!.not_evaluable, 41);
    const failing = await Promise.all([0, 1].map((p) => pageOf("NOT_PASSED", p)));
    assert.deepEqual(failing.map((p) => [p.total, p.nodes.length]), [[41, 41], [41, 0]]);
    assert.ok(failing[0]!.nodes.every((n) => n.passed === false && n.failed[0] === "thd"));
    assert.equal((await pageOf("NONE", 0)).nodes.every((n) => n.passed === null), true);
    assert.equal((await pageOf("PASSED", 0)).nodes[0]!.node_name, "Node 000");
    const oldMap = await client.call<ComplianceMapDto>(
      "GET",
      "/pqm/compliance/map?week=2021-03-01",
    );
    assert.equal(oldMap.body.nodes.length, 123);
    assert.equal(oldMap.body.nodes.filter((n) => n.passed === null).length, 41);

    // Delete: paused only.
    assert.equal((await client.call("DELETE", `/pqm/auto-analyses/${key}`)).body.code, 503);
    await client.call("POST", `/pqm/auto-analyses/${key}/pause`);
    assert.equal((await client.call("DELETE", `/pqm/auto-analyses/${key}`)).status, 204);
    assert.equal((await client.call("GET", `/pqm/auto-analyses/${key}/runs`)).status, 404);
    // Its reports stay.
    assert.equal((await client.call("GET", `/pqm/reports/${node.report_key}`)).status, 200);
  } finally {
    if (!closed) await client.platform.close();
  }
}

/**
 * Power-quality reports end to end on real DuckDB and the relational database: hand-made weeks
 * go through the cell protocol (POST /ingest/v1/batches, protocol v2) and the aggregator, then
 * /pqm reports evaluate them with the EN 50160 engine. The counts below are stated by hand:
 *
 * The demo station's feeder 1, Un = 230 V (the demo customer's 230/400), one 20-s value per phase
 * and 10-minute slot (the slot's RMS is that value) and one PQ record per phase and slot
 * (harmonics 0.1 %, Plt 0.5, unbalance 0.5 %), frequency 50.00 Hz, THD 2 %:
 * - day D (the Sunday before week A, 144 slots): 12 slots not sent (missing), the rest 230 V;
 * - ISO week A (1,008 slots): L1 at 200 V (below 207 V = -10 %, above 195.5 V = -15 %) in 50 slots:
 *   N = 1,008, N1 = 50, N2 = 0: 50 / 1,008 = 4.96 % <= 5 %: Passed;
 * - ISO week B (1,008 slots): L1 at 200 V in 51 slots: N1 = 51: 5.06 % > 5 %: Not passed.
 * A report of week A is Passed; a report of D + A + B is Not passed with voltage L1 N = 2,148,
 * N1 = 101, N2 = 0, missing 12, and the weeks Passed, Passed, Not passed.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { releaseNativeHandles, SLOT_GRACE_MS, SLOT_MS } from "../../core/mod.ts";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import type { StationGroupDto } from "../../modules/grid/mod.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import { type Platform, startPlatform } from "../../main.ts";
import type {
  PqElectricalWorksDto,
  ReportDetailDto,
  ReportPageDto,
} from "../../modules/power_quality/contract.ts";
import { reports } from "../../modules/power_quality/schema.ts";
import { loginWithPassword } from "../helpers/oidc_login.ts";
import { postgresTestDatabase } from "../helpers/postgres.ts";
import { databaseKinds, decodeClaims, TEST_BASE_URL } from "../helpers/platform.ts";

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();

/** Monday 00:00 UTC of the current ISO week. */
function mondayOf(t: number): number {
  const midnight = Math.floor(t / DAY) * DAY;
  return midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * DAY;
}

interface Client {
  platform: Platform;
  token: string;
  call<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T & { code?: number; key?: string; params?: unknown } }>;
  raw(path: string): Promise<Response>;
}

async function open(dataDir: string, databaseUrl: string | undefined): Promise<Client> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_BASE_URL,
    LOG_LEVEL: "error",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const platform = await startPlatform(config, createLogger("error"));
  const fetchApp = (req: Request) => Promise.resolve(platform.app.fetch(req));
  const user = DEMO_USERS[0];
  const token = (await loginWithPassword(fetchApp, TEST_BASE_URL, user.email, user.password))
    .access_token;
  const raw = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${token}`);
    return fetchApp(new Request(`${TEST_BASE_URL}${path}`, { ...init, headers }));
  };
  return {
    platform,
    token,
    raw,
    async call(method, path, body) {
      const res = await raw(path, {
        method,
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : {} };
    },
  };
}

/** The hand-made data: which slots are missing and which L1 values are 200 V. */
function plan(d: number, weekA: number, weekB: number) {
  const missing = new Set<number>();
  for (let k = 0; k < 12; k++) missing.add(d + (30 + k) * SLOT_MS);
  const low = new Set<number>();
  for (let k = 0; k < 50; k++) low.add(weekA + (5 + k * 19) * SLOT_MS);
  for (let k = 0; k < 51; k++) low.add(weekB + (7 + k * 19) * SLOT_MS);
  return { missing, low };
}

async function sendWeeks(
  platform: Platform,
  cellId: string,
  from: number,
  to: number,
  shape: ReturnType<typeof plan>,
): Promise<void> {
  const credential = await platform.services.cells.rotateCredential(cellId);
  const h = Array.from({ length: 24 }, () => 0.1);
  for (let day = from; day < to; day += DAY) {
    const measurements: unknown[] = [];
    const pq: unknown[] = [];
    for (let slot = day; slot < Math.min(to, day + DAY); slot += SLOT_MS) {
      if (shape.missing.has(slot)) continue;
      for (const phase of ["L1", "L2", "L3"]) {
        const u = phase === "L1" && shape.low.has(slot) ? 200 : 230;
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
    const answer = await res.text();
    assert.equal(res.status, 200, answer);
  }
  await platform.services.aggregator.flush(Date.now() + SLOT_MS + SLOT_GRACE_MS);
}

/** Polls a report until it leaves Scheduled and In progress. */
async function finished(client: Client, key: string): Promise<ReportDetailDto> {
  for (let i = 0; i < 300; i++) {
    const { body } = await client.call<ReportDetailDto>("GET", `/pqm/reports/${key}`);
    if (body.status !== "SCHEDULED" && body.status !== "IN_PROGRESS") return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Report ${key} did not finish`);
}

async function pdfText(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gw-pdf-"));
  try {
    await writeFile(join(dir, "r.pdf"), pdf);
    const out = await new Deno.Command("pdftotext", {
      args: ["-layout", join(dir, "r.pdf"), "-"],
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

for (const kind of databaseKinds()) {
  Deno.test({
    name: `power-quality reports on ${kind}: hand-made weeks, codes, cancel, restart, PDF and CSV`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const database = kind === "postgres" ? await postgresTestDatabase("gw_pq") : null;
      try {
        await run(database?.url);
      } finally {
        await database?.drop();
      }
    },
  });
}

async function run(databaseUrl: string | undefined): Promise<void> {
  {
    const dataDir = await mkdtemp(join(tmpdir(), "gridwatch-pq-"));
    let client = await open(dataDir, databaseUrl);
    try {
      const { platform } = client;
      // The demo users turn the power-quality notifications on (as the settings page saves it).
      await platform.services.db.execute(sql`
        UPDATE users.users SET user_metadata = jsonb_set(user_metadata, '{notification}',
          '{"apps": {"app:power-quality": true}}'::jsonb)`);
      const customer = (await platform.services.customers.getByConnection("demo-ew"))!;
      const structure = await (await platform.app.fetch(
        new Request(`${TEST_BASE_URL}/gsm/grid-structure/hv-mv-station-groups`, {
          headers: { authorization: `Bearer ${client.token}` },
        }),
      )).json() as StationGroupDto[];
      const nodes = structure.flatMap((g) =>
        g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
      );
      const station = nodes.find((n) => n.name === "TS Seeblick")!;
      const feeder1 = station.feeders.find((f) => f.slot === 1)!;
      const installed = await platform.services.cells.listFor(customer.key, "INSTALLED");
      const cellOf = (nodeId: string) => installed.find((c) => c.node_id === nodeId)!.id;

      const monday = mondayOf(Date.now());
      const weekB = monday - WEEK;
      const weekA = monday - 2 * WEEK;
      const d = weekA - DAY;
      const shape = plan(d, weekA, weekB);
      await sendWeeks(platform, cellOf(station.id), d, monday, shape);

      // GET /pqm/electrical-works: the station with its feeders and the form's limits.
      const works = await client.call<PqElectricalWorksDto>("GET", "/pqm/electrical-works");
      assert.equal(works.status, 200);
      const worksNode = works.body.electrical_works.flatMap((w) => w.nodes)
        .find((n) => n.id === station.id)!;
      assert.equal(worksNode.has_cell, true);
      assert.equal(worksNode.feeders[0]!.id, feeder1.id);
      assert.equal(worksNode.latest_report, null);
      assert.equal(works.body.limits.max_reports, 50);

      const create = (body: Record<string, unknown>) =>
        client.call<{ key: string; status: string }>("POST", "/pqm/reports", {
          language: "en",
          node: station.id,
          feeders: [feeder1.id],
          standard: "EN50160",
          ...body,
        });

      // Week A alone: Passed.
      const passing = await create({ name: "Week A", start: iso(weekA), period: "P7D" });
      assert.equal(passing.status, 202, JSON.stringify(passing.body));
      assert.equal(passing.body.status, "SCHEDULED");
      const a = await finished(client, passing.body.key);
      assert.equal(a.status, "COMPLETED", JSON.stringify(a.failure));
      assert.equal(a.result, "PASSED");
      const aVoltage = a.summary![0]!.parameters.find((p) => p.parameter === "voltage")!;
      assert.deepEqual(
        { n: aVoltage.n, n1: aVoltage.n1, n2: aVoltage.n2, passed: aVoltage.passed },
        { n: 1008, n1: 50, n2: 0, passed: true },
      );
      assert.equal(a.summary![0]!.availability_pct, 100);
      assert.equal(a.stage, "DONE");
      assert.equal(a.percent, 100);

      // D + A + B (an ISO-8601 end instead of a duration): Not passed, by week B's voltage.
      const all = await create({ name: "Three parts", start: iso(d), period: iso(monday) });
      assert.equal(all.status, 202, JSON.stringify(all.body));
      const r = await finished(client, all.body.key);
      assert.equal(r.status, "COMPLETED", JSON.stringify(r.failure));
      assert.equal(r.result, "NOT_PASSED");
      const feeder = r.summary![0]!;
      assert.deepEqual(feeder.weeks.map((w) => [w.full, w.passed, w.failed]), [
        [false, true, []],
        [true, true, []],
        [true, false, ["voltage"]],
      ]);
      const voltage = feeder.parameters.find((p) => p.parameter === "voltage")!;
      const l1 = voltage.phases.find((p) => p.phase === "L1")!;
      assert.deepEqual(
        { n: l1.n, n1: l1.n1, n2: l1.n2, missing: l1.missing, flagged: l1.flagged },
        { n: 2148, n1: 101, n2: 0, missing: 12, flagged: 0 },
      );
      assert.equal(l1.passed, false);
      const l2 = voltage.phases.find((p) => p.phase === "L2")!;
      assert.deepEqual({ n1: l2.n1, passed: l2.passed }, { n1: 0, passed: true });
      // |200 - 230| / 230 = 13.04 %: the highest deviation; the 95th percentile is inside.
      assert.equal(l1.max, 13.043);
      assert.equal(feeder.missing, 12);
      assert.equal(feeder.availability_pct, Math.round((2148 / 2160) * 10000) / 100);
      for (const id of ["frequency", "flicker", "unbalance", "thd", "h5"]) {
        assert.equal(feeder.parameters.find((p) => p.parameter === id)!.passed, true, id);
      }

      // The PDF: extractable text with the verdict, the counts and the language.
      const pdf = await client.raw(`/pqm/reports/${all.body.key}/pdf`);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get("content-type"), "application/pdf");
      const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
      assert.match(text, /Power quality report/);
      assert.match(text, /Result: Not passed/);
      assert.match(text, /TS Seeblick/);
      assert.match(
        text,
        /Voltage deviation\s+L1\s+±10 % \(-15\/\+10\)\s+0\s+13\.04\s+2'148\s+101\s+0\s+0\s+12\s+Not passed/,
      );
      // The CSV: one row per interval (2,160 slots) and the results table.
      const csv = await (await client.raw(`/pqm/reports/${all.body.key}/csv`)).text();
      const [intervals, results] = csv.split("\r\n\r\n");
      assert.equal(intervals!.split("\r\n").length, 1 + 2160);
      assert.match(results!, /^feeder,parameter,phase,limit/);
      assert.match(results!, /voltage,L1,10,95,0,13\.043,2148,101,0,0,12,NOT_PASSED/);

      // A German report of week A: the PDF speaks German.
      const de = await create({
        name: "Woche A",
        start: iso(weekA),
        period: "P1W",
        language: "de",
      });
      const deDone = await finished(client, de.body.key);
      const deText = await pdfText(
        new Uint8Array(await (await client.raw(`/pqm/reports/${de.body.key}/pdf`)).arrayBuffer()),
      );
      assert.equal(deDone.result, "PASSED");
      assert.match(deText, /Bericht zur Spannungsqualität/);
      assert.match(deText, /Ergebnis: Bestanden/);

      // The codes the platform can raise on creation.
      const refused = async (body: Record<string, unknown>, code: number) => {
        const res = await create({ name: "Refused", start: iso(weekA), period: "P1D", ...body });
        assert.equal(res.body.code, code, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      };
      await refused({ period: "one week" }, 401);
      await refused({ start: iso(weekA + 60_000) }, 401);
      await refused({ period: "P367D" }, 402);
      await refused({ period: "PT5M" }, 403);
      await refused({ name: "Week A" }, 501);
      await refused({ name: "week a" }, 501);
      await refused({ node: "no-such-node" }, 506);
      await refused({ start: iso(d - DAY) }, 509);
      await refused({ start: iso(weekA - 399 * DAY) }, 512);
      // 38 days after this week's Monday is over 30 days ahead whatever the weekday today.
      await refused({ start: iso(monday + 38 * DAY) }, 513);
      const quiet = nodes.find((n) =>
        n.id !== station.id && installed.some((c) => c.node_id === n.id)
      )!;
      await refused({ node: quiet.id, feeders: [] }, 526);
      // A node whose cell is taken away: no node linked.
      await platform.services.cells.toWaiting(cellOf(quiet.id));
      await refused({ node: quiet.id, feeders: [] }, 505);
      // Field rules: the name's characters and length, the same keys as the form.
      const bad = await create({ name: "a:b", start: iso(weekA), period: "P1D" });
      assert.equal(bad.status, 400);
      assert.match(JSON.stringify(bad.body), /validation.forbiddenChars/);
      const short = await create({ name: "ab", start: iso(weekA), period: "P1D" });
      assert.match(JSON.stringify(short.body), /validation.nameMin/);

      // Custom limit sets: administrators derive them from EN 50160, which stays locked.
      const admin = DEMO_USERS[1];
      const adminToken = (await loginWithPassword(
        (req) => Promise.resolve(platform.app.fetch(req)),
        TEST_BASE_URL,
        admin.email,
        admin.password,
      )).access_token;
      const asAdmin = async (method: string, path: string, body?: unknown) => {
        const res = await platform.app.fetch(
          new Request(`${TEST_BASE_URL}${path}`, {
            method,
            headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }),
        );
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : {} };
      };
      // 99 % of the intervals inside +/-10 %: week A's 50 low intervals (4.96 %) fail it.
      const strict = { name: "Strict 99 percent", overrides: { voltage: { sharePct: 99 } } };
      assert.equal((await client.call("POST", "/pqm/limit-sets", strict)).status, 403);
      const set = await asAdmin("POST", "/pqm/limit-sets", strict);
      assert.equal(set.status, 201, JSON.stringify(set.body));
      assert.equal(set.body.limits.voltage.sharePct, 99);
      assert.equal(set.body.limits.voltage.band100.lowerPct, -15);
      assert.equal(
        (await asAdmin("POST", "/pqm/limit-sets", strict)).body.params.issues[0].key,
        "pq.limitSetExists",
      );
      const narrow = await asAdmin("POST", "/pqm/limit-sets", {
        name: "Narrow 100 percent band",
        overrides: { voltage: { band100: { lowerPct: -5 } } },
      });
      assert.equal(narrow.status, 400);
      assert.equal(narrow.body.params.issues[0].key, "pq.limitSetInvalid");
      assert.equal((await asAdmin("PUT", "/pqm/limit-sets/EN50160", strict)).status, 403);
      const sets = await client.call<{ limit_sets: { key: string; locked: boolean }[] }>(
        "GET",
        "/pqm/limit-sets",
      );
      assert.deepEqual(sets.body.limit_sets.map((l) => l.locked), [true, false]);
      const custom = await create({
        name: "Week A strict",
        start: iso(weekA),
        period: "P7D",
        standard: "CUSTOM",
        limit_set: set.body.key,
      });
      assert.equal(custom.status, 202, JSON.stringify(custom.body));
      // The set changes after the report was asked for: the report keeps the set it was given.
      await asAdmin("PUT", `/pqm/limit-sets/${set.body.key}`, { ...strict, overrides: {} });
      const strictDone = await finished(client, custom.body.key);
      assert.equal(strictDone.limit_set, "Custom: Strict 99 percent");
      assert.equal(strictDone.result, "NOT_PASSED");
      const strictVoltage = strictDone.summary![0]!.parameters[0]!;
      assert.deepEqual([strictVoltage.n1, strictVoltage.share_pct, strictVoltage.passed], [
        50,
        99,
        false,
      ]);

      // 502: a completed report cannot be cancelled; a scheduled one can, then not again.
      assert.equal(
        (await client.call("POST", `/pqm/reports/${passing.body.key}/cancel`)).body.code,
        502,
      );
      const future = await create({ name: "Next week", start: iso(monday + WEEK), period: "P7D" });
      assert.equal(future.status, 202);
      const cancelled = await client.call<{ status: string }>(
        "POST",
        `/pqm/reports/${future.body.key}/cancel`,
      );
      assert.equal(cancelled.body.status, "CANCELLED");
      assert.equal(
        (await client.call("POST", `/pqm/reports/${future.body.key}/cancel`)).body.code,
        502,
      );
      assert.equal((await client.call("DELETE", `/pqm/reports/${future.body.key}`)).status, 204);
      assert.equal((await client.call("GET", `/pqm/reports/${future.body.key}`)).status, 404);

      // The list: 12 per page, newest first, filters.
      const page = await client.call<ReportPageDto>("GET", "/pqm/reports?result=PASSED");
      assert.deepEqual(page.body.reports.map((x) => x.name).sort(), ["Week A", "Woche A"]);
      const notPassed = await client.call<ReportPageDto>("GET", "/pqm/reports?result=NOT_PASSED");
      assert.deepEqual(notPassed.body.reports.map((x) => x.name).sort(), [
        "Three parts",
        "Week A strict",
      ]);
      assert.equal(page.body.size, 12);

      // POWER_QUALITY notifications: one per completed report, state DONE.
      const me = String(decodeClaims(client.token).sub).split("|")[1]!;
      const notes = await (await client.raw(`/nsm/notifications/users/${me}?size=100`))
        .json() as { notifications: { type: string; info: string }[] };
      const pq = notes.notifications.filter((n) => n.type === "POWER_QUALITY")
        .map((n) => JSON.parse(n.info) as { state: string; report_name: string });
      assert.equal(pq.length, 4, JSON.stringify(pq));
      assert.ok(pq.every((n) => n.state === "DONE"));

      // A restart: a report a dead process left In progress resumes; one out of attempts fails.
      const { db } = platform.services;
      await db.update(reports).set({
        status: "IN_PROGRESS",
        stage: "EVALUATING",
        percent: 40,
        attempts: 1,
        result: null,
      })
        .where(eq(reports.key, passing.body.key));
      await db.update(reports).set({
        status: "IN_PROGRESS",
        stage: "LOADING",
        percent: 5,
        attempts: 3,
        result: null,
      })
        .where(eq(reports.key, de.body.key));
      await platform.close();
      client = await open(dataDir, databaseUrl);
      const resumed = await finished(client, passing.body.key);
      assert.equal(resumed.status, "COMPLETED");
      assert.equal(resumed.result, "PASSED");
      const gaveUp = await finished(client, de.body.key);
      assert.equal(gaveUp.status, "FAILED");
      assert.equal(gaveUp.failure?.key, "pq.reportInterrupted");
      // The report given up on ends in a POWER_QUALITY notification that reads as failed.
      const after = await (await client.raw(`/nsm/notifications/users/${me}?size=100`))
        .json() as { notifications: { type: string; info: string }[] };
      const failed = after.notifications.filter((n) => n.type === "POWER_QUALITY")
        .map((n) => JSON.parse(n.info) as { state: string; report_key: string })
        .filter((n) => n.state === "FAILED");
      assert.deepEqual(failed.map((n) => n.report_key), [de.body.key]);
      // How long the runs took (claim to completion), for the report.
      const timings = await client.platform.services.db.select().from(reports);
      for (const row of timings) {
        if (row.startedAt && row.finishedAt && row.status === "COMPLETED") {
          console.log(
            `report ${row.name}: ${
              (row.endAt.getTime() - row.startAt.getTime()) / 86_400_000
            } days in ${row.finishedAt.getTime() - row.startedAt.getTime()} ms`,
          );
        }
      }
    } finally {
      await client.platform.close();
      await releaseNativeHandles();
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}

/**
 * Power-quality events (pqe) through the real HTTP stack on DuckDB and PGlite (and PostgreSQL
 * with TEST_PG_ADMIN_URL): events sent by a cell through the ingestion protocol, the electrical
 * works with their counts, the list with its filters and 12-per-page paging, an event's detail
 * with its EN 50160 cell and RMS trace, the tables and the plot, and tenant isolation (another
 * customer's event is 404); recordings asked through the cells' configuration answer and served
 * by the simulator's good, silent (518), corrupting (521) cells and for an event the cell does not
 * know (515), downloaded as COMTRADE zips and CSV, with the requester's notification.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { unzipSync } from "fflate";
import {
  answerRecordingCommands,
  generateBatch,
  type RecordingBehaviour,
  type SimCell,
} from "../../core/mod.ts";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import type { NotificationPageDto as NotificationPage } from "../../modules/notifications/mod.ts";
import type {
  EventDetailDto,
  EventPageDto,
  EventWorksDto,
} from "../../modules/voltage_events/mod.ts";
import {
  databaseKinds,
  decodeClaims,
  startTestPlatform,
  TEST_BASE_URL,
  type TestPlatform,
} from "../helpers/platform.ts";
import type { RecordingPageDto } from "../../modules/voltage_events/contract.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatform } from "../../main.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import { loginWithPassword } from "../helpers/oidc_login.ts";

const [USER] = DEMO_USERS;
const iso = (ms: number) => new Date(ms).toISOString();

/** A cell's event record (protocol v1 `events[]`). */
function event(
  id: string,
  type: string,
  startMs: number,
  durationMs: number,
  extreme: number,
  phases: [string, string] = ["L1", "L1"],
  deltaU: number | null = null,
) {
  return {
    id,
    type,
    start: iso(startMs),
    end: iso(startMs + durationMs),
    start_phase: phases[0],
    end_phase: phases[1],
    extreme_pct: extreme,
    delta_u_pct: deltaU,
    rms_trace: { interval_ms: 10, values_pct: [99.9, 100, extreme, extreme + 1, 99.5, 100] },
  };
}

for (const kind of databaseKinds()) {
  Deno.test({
    name: `pqe on ${kind}: events through ingestion, list, filters, paging, detail, isolation`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform: TestPlatform = await startTestPlatform(kind);
      try {
        const user = (await platform.login(USER.email, USER.password)).access_token;
        const other = (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password)).access_token;
        const get = async <T>(path: string, token = user) => {
          const res = await platform.request(path, { token });
          return { status: res.status, body: await res.json() as T };
        };

        const works = (await get<EventWorksDto>("/pqe/electrical-works")).body.electrical_works;
        const nodes = works.flatMap((w) => w.nodes).filter((n) => n.cell_id);
        assert.ok(nodes.length >= 2, "the demo has nodes with cells");
        const [a, b] = [nodes[0]!, nodes[1]!];

        const send = async (cellId: string, events: unknown[]) => {
          const credential = await platform.services.cells.rotateCredential(cellId);
          const now = Date.now();
          const res = await platform.request("/ingest/v1/batches", {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
            body: JSON.stringify({
              batch_id: `evt-${cellId}-${now}`,
              measurements: [{
                ts: iso(now - (now % 20_000) - 20_000),
                feeder: 1,
                phase: "L1",
                u: 231,
                i: 40,
              }],
              events,
            }),
          });
          const answer = await res.json() as { rejected?: unknown[] };
          assert.equal(res.status, 200, JSON.stringify(answer));
        };

        const t0 = Date.parse("2026-11-20T08:00:00.000Z");
        const MIN = 60_000;
        // Node a: 12 dips (two of them deep and long), a swell, an interruption, an RVC.
        const dips = Array.from(
          { length: 12 },
          (_, k) =>
            event(`d${k}`, "DIP", t0 + k * MIN, 100 + 50 * k, k < 10 ? 85 : 30, ["L1", "L2"]),
        );
        await send(a.cell_id!, [
          ...dips,
          event("s1", "SWELL", t0 + 20 * MIN, 300, 115, ["L3", "L3"]),
          event("i1", "INTERRUPTION", t0 + 30 * MIN, 5_000, 1, ["L1", "L3"]),
          event("r1", "RVC", t0 + 40 * MIN, 1_000, 96, ["L2", "L2"], 4),
        ]);
        // Node b: one dip.
        await send(b.cell_id!, [event("d0", "DIP", t0 + 50 * MIN, 250, 62.3)]);

        await t.step("the list pages 12 per page, newest first, over the whole grid", async () => {
          const p1 = (await get<EventPageDto>("/pqe/events")).body;
          assert.equal(p1.total, 16);
          assert.equal(p1.page_size, 12);
          assert.equal(p1.events.length, 12);
          assert.equal(p1.events[0]!.node_id, b.id);
          assert.equal(p1.events[0]!.kind, "DIP");
          const p2 = (await get<EventPageDto>("/pqe/events?page=2")).body;
          assert.equal(p2.events.length, 4);
          const keys = new Set([...p1.events, ...p2.events].map((e) => e.key));
          assert.equal(keys.size, 16);
        });

        await t.step("filters by node, type, phase, period, depth and duration", async () => {
          const q = async (query: string) =>
            (await get<EventPageDto>(`/pqe/events?${query}`)).body.events.map((e) => e.event_id);
          assert.equal((await q(`node=${a.id}`)).length, 12);
          assert.deepEqual(await q("type=SWELL"), ["s1"]);
          assert.deepEqual(await q("type=INTERRUPTION"), ["i1"]);
          assert.deepEqual(await q("type=RVC"), ["r1"]);
          assert.deepEqual(await q("phase=L3"), ["i1", "s1"]);
          assert.deepEqual(
            await q(`from=${iso(t0 + 25 * MIN)}&to=${iso(t0 + 45 * MIN)}`),
            ["r1", "i1"],
          );
          // Depth: 100 - residual for dips; 70 % deep only the two deep dips and the interruption.
          assert.deepEqual(await q("type=DIP&depth_min=60"), ["d11", "d10"]);
          assert.deepEqual(await q("depth_min=60"), ["i1", "d11", "d10"]);
          assert.deepEqual(await q(`node=${a.id}&type=DIP&duration_max_ms=200`), [
            "d2",
            "d1",
            "d0",
          ]);
          assert.deepEqual(
            await q("type=DIP&duration_min_ms=600&duration_max_ms=650"),
            ["d11", "d10"],
          );
        });

        await t.step("wrong filters are field errors, not 500", async () => {
          const bad = await get<{ key: string; params: { issues?: unknown[] } }>(
            `/pqe/events?from=${iso(t0 + MIN)}&to=${iso(t0)}&type=FLICKER&page=0`,
          );
          assert.equal(bad.status, 400);
          assert.equal(bad.body.key, "common.validation");
        });

        await t.step("an event's detail: times, phases, extreme, cell and trace", async () => {
          const list = (await get<EventPageDto>(`/pqe/events?node=${b.id}`)).body.events;
          const res = await get<EventDetailDto>(`/pqe/events/${list[0]!.key}`);
          assert.equal(res.status, 200);
          const { event: e, trace } = res.body;
          assert.equal(e.start, iso(t0 + 50 * MIN));
          assert.equal(e.end, iso(t0 + 50 * MIN + 250));
          assert.equal(e.duration_ms, 250);
          assert.equal(e.start_phase, "L1");
          assert.equal(e.extreme_pct, 62.3);
          assert.equal(e.depth_pct, 37.7);
          assert.deepEqual(e.table_cell, { table: "DIP", row: "70-40", column: "0.2-0.5s" });
          assert.equal(e.recording, null);
          assert.deepEqual(trace?.values_pct.slice(0, 3), [99.9, 100, 62.3]);
          assert.equal(trace?.start, iso(t0 + 50 * MIN - 20));
          assert.equal(res.body.nominal_voltage, 230);
        });

        await t.step("the EN 50160 tables count events per cell", async () => {
          const res = await get<import("../../modules/voltage_events/contract.ts").EventTablesDto>(
            "/pqe/events/tables",
          );
          const dip = res.body.dip;
          // d0..d9: 85 % for 100..550 ms: 3 in 10-200ms, 6 in 0.2-0.5s, 1 in 0.5-1s.
          assert.equal(dip["90-80"]!["10-200ms"], 3);
          assert.equal(dip["90-80"]!["0.2-0.5s"], 6);
          assert.equal(dip["90-80"]!["0.5-1s"], 1);
          assert.equal(dip["40-5"]!["0.5-1s"], 2);
          assert.equal(dip["70-40"]!["0.2-0.5s"], 1);
          assert.equal(res.body.swell["120-110"]!["10-500ms"], 1);
          assert.equal(res.body.interruptions_short, 1);
          assert.equal(res.body.rvc, 1);
        });

        await t.step("the ITIC filter keeps the events outside the curve", async () => {
          const outside = (await get<EventPageDto>("/pqe/events?curve=ITIC&side=OUTSIDE")).body;
          // 30 % for 600-650 ms, 62.3 % for 250 ms, the 5 s interruption: under the lower curve.
          assert.deepEqual(outside.events.map((e) => e.event_id).sort(), [
            "d0",
            "d10",
            "d11",
            "i1",
          ]);
          const points = await get<{ points: unknown[] }>("/pqe/events/points");
          assert.equal(points.body.points.length, 15);
        });

        await t.step("events of different cells within a second are one grid event", async () => {
          const t1 = t0 + 2 * 3_600_000;
          // Every measured node at once (an MV fault): MV; two nodes only: local.
          for (const [k, n] of nodes.entries()) {
            await send(n.cell_id!, [event(`mv-${k}`, "DIP", t1 + 37 * k, 120, 70)]);
          }
          await send(a.cell_id!, [event("loc-a", "DIP", t1 + 60_000, 100, 80)]);
          await send(b.cell_id!, [event("loc-b", "DIP", t1 + 60_900, 100, 81)]);
          await send(b.cell_id!, [event("late-b", "DIP", t1 + 62_000, 100, 81)]);
          const res = await get<
            import("../../modules/voltage_events/contract.ts").GridEventPageDto
          >(
            `/pqe/grid-events?from=${iso(t1 - 1)}&to=${iso(t1 + 3_600_000)}`,
          );
          assert.equal(res.status, 200);
          assert.equal(res.body.total, 2);
          const [local, mv] = res.body.grid_events;
          assert.equal(local!.origin, "LOCAL");
          assert.deepEqual(local!.nodes.map((n) => n.node_id), [a.id, b.id]);
          assert.equal(local!.nodes[1]!.depth_pct, 19);
          assert.equal(mv!.origin, "MV");
          assert.ok(mv!.mv_feeder_group);
          assert.equal(mv!.nodes.length, nodes.length);
          assert.equal(mv!.start, iso(t1));
        });

        await t.step(
          "another customer sees none of it (its applications lack power quality: 403)",
          async () => {
            const mine = (await get<EventPageDto>("/pqe/events")).body.events[0]!;
            const theirs = await get<EventPageDto>("/pqe/events", other);
            assert.equal(theirs.status, 403);
            assert.equal((await get(`/pqe/events/${mine.key}`, other)).status, 403);
            assert.equal((await get(`/pqe/events/not-a-key`)).status, 404);
          },
        );
      } finally {
        await platform.close();
      }
    },
  });
}

/** A simulator cell for a demo cell (its credential rotated) that answers recordings so. */
async function simCell(
  platform: TestPlatform,
  cellId: string,
  behaviour: RecordingBehaviour,
): Promise<SimCell> {
  return {
    cellId,
    credential: await platform.services.cells.rotateCredential(cellId),
    nodeKind: "LV_CABINET",
    nominalVoltage: 230,
    frequency: 50,
    electricalDistance: 0.5,
    feeders: [{ slot: 1, kind: "LV_LINE", nominalCurrentA: 250, profile: "residential" }],
    recordingBehaviour: behaviour,
  };
}

/** The newest dip the simulator makes `cell` detect before `fromMs`. */
function simulatedDip(cell: SimCell, fromMs: number) {
  for (let w = fromMs - (fromMs % 20_000); w > fromMs - 20 * 86_400_000; w -= 20_000) {
    const event = generateBatch(cell, w, 42, 1)?.events?.find((e) => e.type === "DIP");
    if (event) return event;
  }
  throw new Error(`no simulated dip for ${cell.cellId}`);
}

for (const kind of databaseKinds()) {
  Deno.test({
    name: `pqe on ${kind}: recordings through the cell command channel: 200, 515, 518, 521`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform: TestPlatform = await startTestPlatform(kind);
      try {
        const user = (await platform.login(USER.email, USER.password)).access_token;
        const other = (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password)).access_token;
        const call = (path: string, init: RequestInit = {}, token = user) =>
          platform.request(path, { ...init, token });
        const json = async <T>(path: string, token = user) => {
          const res = await call(path, {}, token);
          return { status: res.status, body: await res.json() as T };
        };
        const works = (await json<EventWorksDto>("/pqe/electrical-works")).body.electrical_works;
        const ids = works.flatMap((w) => w.nodes).flatMap((n) => n.cell_id ? [n.cell_id] : []);
        const good = await simCell(platform, ids[0]!, "GOOD");
        const silent = await simCell(platform, ids[1]!, "TIMEOUT");
        const corrupt = await simCell(platform, ids[2]!, "CORRUPT");
        const cellFetch = ((url: string | URL | Request, init?: RequestInit) =>
          Promise.resolve(platform.app.fetch(new Request(url, init)))) as typeof fetch;
        const poll = (cell: SimCell) =>
          answerRecordingCommands({ baseUrl: TEST_BASE_URL, cell, seed: 42, fetch: cellFetch });

        // The cells send the dips the simulator makes them detect, through the protocol.
        const now = Date.now();
        const keyOf = new Map<string, string>();
        for (const cell of [good, silent, corrupt]) {
          const dip = simulatedDip(cell, now - 3_600_000);
          const extra = cell === good
            ? [event("hand-made-1", "DIP", Date.parse(dip.start) - 60_000, 120, 80)]
            : [];
          const res = await platform.request("/ingest/v1/batches", {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: `Bearer ${cell.credential}`,
            },
            body: JSON.stringify({
              batch_id: `rec-${cell.cellId}`,
              measurements: [{
                ts: iso(now - (now % 20_000) - 20_000),
                feeder: 1,
                phase: "L1",
                u: 231,
                i: 40,
              }],
              events: [dip, ...extra],
            }),
          });
          assert.equal(res.status, 200, await res.text());
          const list = (await json<EventPageDto>(`/pqe/events?node=${
            works.flatMap((w) =>
              w.nodes
            ).find((n) => n.cell_id === cell.cellId)!.id
          }`)).body.events;
          for (const e of list) {
            keyOf.set(e.event_id, e.key);
          }
          keyOf.set(
            cell.cellId,
            list.find((e) =>
              e.event_id === dip.id
            )!.key,
          );
        }
        const keys = {
          good: keyOf.get(good.cellId)!,
          silent: keyOf.get(silent.cellId)!,
          corrupt: keyOf.get(corrupt.cellId)!,
          unknown: keyOf.get("hand-made-1")!,
        };
        const status = async (key: string) =>
          (await json<EventDetailDto>(`/pqe/events/${key}`)).body.event.recording;

        await t.step("a request answers 202 REQUESTED and is the cell's command", async () => {
          for (const key of Object.values(keys)) {
            const res = await call(`/pqe/events/${key}/recording`, { method: "POST" });
            assert.equal(res.status, 202);
            assert.deepEqual(await res.json(), { status: "REQUESTED" });
          }
          assert.equal((await status(keys.good))?.status, "REQUESTED");
          const config = await (await platform.request("/ingest/v1/configuration", {
            headers: { authorization: `Bearer ${silent.credential}` },
          })).json() as { commands: { kind: string; event_id: string }[] };
          assert.deepEqual(
            config.commands.map((c) =>
              c.kind
            ),
            ["UPLOAD_EVENT_RECORDING"],
          );
          // That poll was the pick-up.
          assert.equal((await status(keys.silent))?.status, "DOWNLOADING");
        });

        await t.step("the good cell uploads: DOWNLOADED; an unknown event: 515", async () => {
          const outcomes = [...(await poll(good)).values()].sort();
          assert.deepEqual(outcomes, ["NOT_FOUND", "UPLOADED"]);
          assert.equal((await status(keys.good))?.status, "DOWNLOADED");
          assert.deepEqual(
            [(await status(keys.unknown))?.status, (await status(keys.unknown))?.code],
            ["FAILED", 515],
          );
        });

        await t.step("the corrupting cell's file fails its checksum: 521", async () => {
          assert.deepEqual([...(await poll(corrupt)).values()], ["CORRUPTED"]);
          const s = await status(keys.corrupt);
          assert.deepEqual([s?.status, s?.code], ["FAILED", 521]);
        });

        await t.step("the silent cell times out: 518 once its deadline passed", async () => {
          assert.deepEqual([...(await poll(silent)).values()], ["SILENT"]);
          assert.equal(await platform.services.voltageEvents.recordings.sweep(), 0);
          assert.equal((await status(keys.silent))?.status, "DOWNLOADING");
          // The deadline is persisted: move it into the past as time would.
          await platform.services.db.execute(sql`
            UPDATE voltage_events.recordings SET deadline_at = now() - interval '1 second'
            WHERE status = 'DOWNLOADING'`);
          assert.equal(await platform.services.voltageEvents.recordings.sweep(), 1);
          const s = await status(keys.silent);
          assert.deepEqual([s?.status, s?.code], ["FAILED", 518]);
          // A late upload is refused; the status stays.
          assert.deepEqual([...(await poll(silent)).values()], []);
        });

        await t.step("downloads: COMTRADE zips (ASCII, binary) and CSV of the trace", async () => {
          for (const [format, ft] of [["comtrade-ascii", "ASCII"], ["comtrade-binary", "BINARY"]]) {
            const res = await call(`/pqe/events/${keys.good}/recording?format=${format}`);
            assert.equal(res.status, 200);
            assert.equal(res.headers.get("content-type"), "application/zip");
            const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
            const names = Object.keys(files).sort();
            assert.deepEqual(names.map((n) => n.slice(n.lastIndexOf("."))), [
              ".cfg",
              ".csv",
              ".dat",
            ]);
            const cfg = new TextDecoder().decode(files[names[0]!]!).split("\r\n");
            assert.match(cfg[0]!, new RegExp(`,${good.cellId},2013$`));
            assert.equal(cfg[1], "3,3A,0D");
            assert.ok(cfg.includes(ft!));
          }
          const csv = await call(`/pqe/events/${keys.good}/recording?format=csv`);
          assert.equal(csv.status, 200);
          const lines = (await csv.text()).trim().split("\r\n");
          assert.equal(lines[0], "time_utc,UL1_V,UL2_V,UL3_V");
          assert.equal(lines.length, 21, "a header and the 20 values of the trace");
          assert.equal((await call(`/pqe/events/${keys.silent}/recording?format=csv`)).status, 404);
          assert.equal((await call(`/pqe/events/${keys.good}/recording?format=pdf`)).status, 400);
        });

        await t.step("#events-downloaded lists them, with a status filter", async () => {
          const all = (await json<RecordingPageDto>("/pqe/recordings")).body;
          assert.equal(all.total, 4);
          const done = (await json<RecordingPageDto>("/pqe/recordings?status=DOWNLOADED")).body;
          assert.deepEqual(done.recordings.map((r) => r.event.key), [keys.good]);
          assert.ok(done.recordings[0]!.size_bytes! > 100);
        });

        await t.step("the requester is notified of each end (POWER_QUALITY)", async () => {
          const userId = String(decodeClaims(user).sub).split("|")[1]!;
          let mine: NotificationPage["notifications"] = [];
          for (let k = 0; k < 20 && mine.length < 4; k++) {
            mine = (await json<NotificationPage>(`/nsm/notifications/users/${userId}`)).body
              .notifications.filter((n) => n.type === "POWER_QUALITY");
            if (mine.length < 4) await new Promise((r) => setTimeout(r, 100));
          }
          assert.equal(mine.length, 4);
          const states = mine.map((n) => JSON.parse(n.info) as { state: string; counter?: number })
            .map((i) => `${i.state}${i.counter ? ` ${i.counter}` : ""}`).sort();
          assert.deepEqual(states, ["DONE", "FAILED 515", "FAILED 518", "FAILED 521"]);
          assert.ok(mine.every((n) => n.name === "EVENT_DOWNLOAD"));
        });

        await t.step("a failed download can be asked again; isolation holds", async () => {
          const again = await call(`/pqe/events/${keys.corrupt}/recording`, { method: "POST" });
          assert.deepEqual(await again.json(), { status: "REQUESTED" });
          const done = await call(`/pqe/events/${keys.good}/recording`, { method: "POST" });
          assert.deepEqual(await done.json(), { status: "DOWNLOADED" });
          // The other utility's applications lack power quality: refused before any lookup.
          assert.equal(
            (await call(`/pqe/events/${keys.good}/recording`, { method: "POST" }, other)).status,
            403,
          );
          assert.equal(
            (await call(`/pqe/events/${keys.good}/recording?format=csv`, {}, other)).status,
            403,
          );
          assert.equal((await json<RecordingPageDto>("/pqe/recordings", other)).status, 403);
          // A cell cannot answer another cell's request.
          const result = await platform.services.db.execute(sql`
            SELECT id FROM voltage_events.recordings WHERE status = 'REQUESTED'`);
          const [row] = (result as unknown as { rows: { id: string }[] }).rows;
          const res = await platform.request(`/ingest/v1/recordings/${row!.id}/failure`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: `Bearer ${good.credential}`,
            },
            body: JSON.stringify({ reason: "ERROR" }),
          });
          assert.equal(res.status, 404);
        });
      } finally {
        await platform.close();
      }
    },
  });
}

Deno.test({
  name: "pqe on pglite: a recording request survives a restart; a download late at start is 518",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await mkdtemp(join(tmpdir(), "gridwatch-pqe-restart-"));
    const start = async () => {
      const platform = await startPlatform(
        loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: TEST_BASE_URL, LOG_LEVEL: "error" }),
        createLogger("error"),
      );
      const appFetch = ((url: string | URL | Request, init?: RequestInit) =>
        Promise.resolve(platform.app.fetch(new Request(url, init)))) as typeof fetch;
      const token = (await loginWithPassword(appFetch, TEST_BASE_URL, USER.email, USER.password))
        .access_token;
      const call = (path: string, init: RequestInit = {}) =>
        appFetch(`${TEST_BASE_URL}${path}`, {
          ...init,
          headers: { ...init.headers, authorization: `Bearer ${token}` },
        });
      return { platform, appFetch, call };
    };
    try {
      const first = await start();
      const works = await (await first.call("/pqe/electrical-works")).json() as EventWorksDto;
      const ids = works.electrical_works.flatMap((w) =>
        w.nodes
      ).flatMap((n) => n.cell_id ? [n.cell_id] : []);
      const good = await simCell(first.platform as TestPlatform, ids[0]!, "GOOD");
      const late = await simCell(first.platform as TestPlatform, ids[1]!, "TIMEOUT");
      const now = Date.now();
      const keys: string[] = [];
      for (const cell of [good, late]) {
        const dip = simulatedDip(cell, now - 3_600_000);
        const res = await first.appFetch(`${TEST_BASE_URL}/ingest/v1/batches`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${cell.credential}`,
          },
          body: JSON.stringify({ batch_id: `restart-${cell.cellId}`, events: [dip] }),
        });
        assert.equal(res.status, 200, await res.text());
        await first.platform.services.measurements.flush?.();
        const list = await (await first.call("/pqe/events")).json() as EventPageDto;
        const key = list.events.find((e) =>
          e.event_id === dip.id
        )!.key;
        keys.push(key);
        const req = await first.call(`/pqe/events/${key}/recording`, { method: "POST" });
        assert.equal(req.status, 202);
      }
      // The silent cell picks its command up; its deadline then passes while the process is down.
      await answerRecordingCommands({
        baseUrl: TEST_BASE_URL,
        cell: late,
        seed: 42,
        fetch: first.appFetch,
      });
      await first.platform.services.db.execute(sql`
        UPDATE voltage_events.recordings SET deadline_at = now() - interval '1 second'
        WHERE status = 'DOWNLOADING'`);
      await first.platform.close();

      const second = await start();
      try {
        const state = async (key: string) =>
          ((await (await second.call(`/pqe/events/${key}`)).json()) as EventDetailDto).event
            .recording;
        // The sweep at start failed the late download; the untouched request is still open.
        const lateState = await state(keys[1]!);
        assert.deepEqual([lateState?.status, lateState?.code], ["FAILED", 518]);
        assert.equal((await state(keys[0]!))?.status, "REQUESTED");
        const outcome = await answerRecordingCommands({
          baseUrl: TEST_BASE_URL,
          cell: good,
          seed: 42,
          fetch: second.appFetch,
        });
        assert.deepEqual([...outcome.values()], ["UPLOADED"]);
        assert.equal((await state(keys[0]!))?.status, "DOWNLOADED");
      } finally {
        await second.platform.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  },
});

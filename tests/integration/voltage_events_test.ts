/**
 * Power-quality events (pqe) through the real HTTP stack on DuckDB and PGlite (and PostgreSQL
 * with TEST_PG_ADMIN_URL): events sent by a cell through the ingestion protocol, the electrical
 * works with their counts, the list with its filters and 12-per-page paging, an event's detail
 * with its EN 50160 cell and RMS trace, the tables and the plot, and tenant isolation (another
 * customer's event is 404).
 */
import assert from "node:assert/strict";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import type {
  EventDetailDto,
  EventPageDto,
  EventWorksDto,
} from "../../modules/voltage_events/mod.ts";
import { databaseKinds, startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

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

        await t.step("another customer sees none of it and gets 404 for a key", async () => {
          const mine = (await get<EventPageDto>("/pqe/events")).body.events[0]!;
          const theirs = await get<EventPageDto>("/pqe/events", other);
          assert.equal(theirs.status, 200);
          assert.equal(theirs.body.total, 0);
          assert.equal((await get(`/pqe/events/${mine.key}`, other)).status, 404);
          assert.equal((await get(`/pqe/events/not-a-key`)).status, 404);
        });
      } finally {
        await platform.close();
      }
    },
  });
}

/**
 * The cell protocol through the real HTTP stack (docs/ingestion-protocol.md): credentials,
 * per-record rejections, idempotent retries, size and type limits, and aggregation of the
 * stored data into the 10-minute table.
 */
import assert from "node:assert/strict";
import { SLOT_GRACE_MS, SLOT_MS } from "../../core/mod.ts";
import { startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

const lastWindow = () => {
  const now = Date.now();
  return now - (now % 20_000) - 20_000;
};

function measurement(ts: number, feeder: number, phase: string, u: number) {
  return {
    ts: new Date(ts).toISOString(),
    feeder,
    phase,
    u,
    i: 42.5,
    p: 9.6,
    q: 1.1,
    pf: 0.99,
    f: 50.02,
  };
}

async function post(
  platform: TestPlatform,
  credential: string | null,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await platform.request("/ingest/v1/batches", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

Deno.test({
  name:
    "POST /ingest/v1/batches stores a cell's batch once, refuses bad records precisely, and aggregates it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const platform = await startTestPlatform("pglite");
    try {
      const { cells, aggregator } = platform.services;
      const demoCustomer = await platform.services.customers.getByConnection("demo-ew");
      const [cell] = await cells.listFor(demoCustomer!.key, "INSTALLED");
      const credential = await cells.rotateCredential(cell!.id);
      const ts = lastWindow();
      const batch = {
        batch_id: "b-1",
        device: { firmware: "2.4.1", gps_fix: "GPS_FIX", gsm_signal: "GOOD" },
        measurements: ["L1", "L2", "L3"].map((phase) => measurement(ts, 1, phase, 231)),
      };

      await t.step("a valid batch is acknowledged with its counts", async () => {
        const res = await post(platform, credential, batch);
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { accepted: 3, duplicates: 0, rejected: [] });
      });

      await t.step("a retry of the same batch stores nothing twice", async () => {
        const res = await post(platform, credential, batch);
        assert.deepEqual([res.status, res.body.accepted, res.body.duplicates], [200, 0, 3]);
      });

      await t.step(
        "bad records are refused by index and field while the valid ones are stored",
        async () => {
          const res = await post(platform, credential, {
            measurements: [
              measurement(ts - 20_000, 1, "L1", 230),
              { ...measurement(ts - 20_000, 1, "L2", 230), u: "NaN" },
              measurement(ts - 20_000, 1, "L9", 230),
              measurement(ts + 3_600_000, 1, "L1", 230),
            ],
          });
          assert.equal(res.status, 207);
          assert.equal(res.body.accepted, 1);
          assert.deepEqual(
            (res.body.rejected as { index: number; field: string; key: string }[]).map((
              r,
            ) => [r.index, r.field, r.key]),
            [
              [1, "u", "ingest.notANumber"],
              [2, "phase", "ingest.outOfRange"],
              [3, "ts", "ingest.inFuture"],
            ],
          );
        },
      );

      await t.step(
        "the device status is written when it changes, not for every batch",
        async () => {
          const written: string[] = [];
          const record = cells.recordStatuses.bind(cells);
          cells.recordStatuses = (entries) => {
            written.push(...entries.map((e) => String(e.status.gsm_signal)));
            return record(entries);
          };
          const { statuses } = platform.services.ingestion;
          try {
            await statuses.flush();
            written.length = 0;
            const next = (k: number, gsm: string) => ({
              device: { firmware: "2.4.1", gps_fix: "GPS_FIX", gsm_signal: gsm },
              measurements: [measurement(ts - 200_000 - k * 20_000, 1, "L1", 230)],
            });
            for (const [k, gsm] of [[1, "GOOD"], [2, "GOOD"], [3, "FAIR"], [4, "FAIR"]] as const) {
              assert.equal((await post(platform, credential, next(k, gsm))).status, 200);
            }
            await statuses.flush();
            // The first batch's status was recorded before (same as now): only the change counts.
            assert.deepEqual(written, ["FAIR"]);
            assert.equal((await post(platform, credential, next(5, "GOOD"))).status, 200);
            await statuses.flush();
            assert.deepEqual(written, ["FAIR", "GOOD"]);
            const stored = (await cells.listFor(demoCustomer!.key, "INSTALLED"))
              .find((c) => c.id === cell!.id);
            assert.deepEqual([stored?.gsm_signal, stored?.firmware], ["GOOD", "2.4.1"]);
            assert.ok(Date.now() - Date.parse(stored!.last_seen!) < 10_000, "last seen now");
          } finally {
            cells.recordStatuses = record;
          }
        },
      );

      await t.step("a batch without any valid record gets 422", async () => {
        const res = await post(platform, credential, {
          measurements: [{ ...measurement(ts, 1, "L1", 230), feeder: 9 }],
        });
        assert.equal(res.status, 422);
      });

      await t.step("batch-level problems get 400, 401, 413 and 415", async () => {
        assert.equal((await post(platform, credential, "{not json")).status, 400);
        assert.equal(
          (await post(platform, credential, { measurements: [], extra: 1 })).status,
          400,
        );
        assert.equal((await post(platform, null, batch)).status, 401);
        assert.equal(
          (await post(platform, `${cell!.id}.AAAAAAAAAAAAAAAAAAAAAAAAAAAA`, batch)).status,
          401,
        );
        const huge = JSON.stringify({ measurements: [], pad: "x".repeat(4 * 1024 * 1024) });
        assert.equal((await post(platform, credential, huge)).status, 413);
        assert.equal(
          (await post(platform, credential, JSON.stringify(batch), {
            "content-type": "text/plain",
          })).status,
          415,
        );
      });

      await t.step(
        "a storage failure (e.g. disk full) answers 503 and the retry is stored",
        async () => {
          const { measurements } = platform.services;
          const append = measurements.append.bind(measurements);
          measurements.append = () =>
            Promise.reject(new Error("IO Error: No space left on device"));
          const retried = { measurements: [measurement(ts - 40_000, 1, "L1", 232)] };
          try {
            const res = await post(platform, credential, retried);
            assert.equal(res.status, 503);
            assert.equal(res.body.key, "common.serviceUnavailable");
          } finally {
            measurements.append = append;
          }
          const again = await post(platform, credential, retried);
          assert.deepEqual([again.status, again.body.accepted], [200, 1]);
        },
      );

      // The slot before the one of `ts`: it has ended, so its PQ record exists.
      const slot = ts - (ts % SLOT_MS) - SLOT_MS;
      const h = Array.from({ length: 24 }, (_, k) => (k % 5) / 4);
      const pqOf = async (phase: number) =>
        (await platform.services.analytics.runAndReadAll(
          `SELECT p.origin, p.pst, p.plt, p.unbalance, p.h5, p.windows::INT FROM pq_10min p
           JOIN series s USING (series_id)
           WHERE s.cell_id = '${cell!.id}' AND s.feeder = 2 AND s.phase = ${phase}
             AND p.slot = make_timestamp(${slot * 1000})`,
        )).getRows();

      await t.step(
        "a protocol v2 batch stores its 10-minute PQ records once, and refuses v1 fields",
        async () => {
          const body = {
            protocol: 2,
            batch_id: "b-v2",
            measurements: [measurement(ts, 2, "L1", 230)],
            pq: ["L1", "L2", "L3"].map((phase) => ({
              slot: new Date(slot).toISOString(),
              feeder: 2,
              phase,
              h_u: h,
              pst: 0.5,
              plt: 0.25,
              unbalance: 0.75,
            })),
          };
          const res = await post(platform, credential, body);
          assert.deepEqual([res.status, res.body], [200, {
            accepted: 4,
            duplicates: 0,
            rejected: [],
          }]);
          const again = await post(platform, credential, body);
          assert.deepEqual([again.body.accepted, again.body.duplicates], [0, 4]);
          assert.deepEqual(await pqOf(0), [[1, 0.5, 0.25, 0.75, 0.75, 0]]);
          const mixed = await post(platform, credential, {
            ...body,
            batch_id: "b-v2-bad",
            measurements: [{ ...measurement(ts, 2, "L2", 230), pst: 0.5 }],
            pq: [{ slot: new Date(slot + 60_000).toISOString(), feeder: 2, phase: "L1", pst: 1 }],
          });
          assert.equal(mixed.status, 422);
          assert.deepEqual(
            (mixed.body.rejected as { section: string; field: string; key: string }[])
              .map((r) => [r.section, r.field, r.key]),
            [["measurements", "pst", "ingest.unknownField"], [
              "pq",
              "slot",
              "ingest.notSlotAligned",
            ]],
          );
          const version = await post(platform, credential, { ...body, protocol: 3 });
          assert.equal(version.status, 400);
          const unknownInV1 = await post(platform, credential, { ...body, protocol: undefined });
          assert.equal(unknownInV1.status, 400, "pq[] is protocol v2 only");
        },
      );

      await t.step(
        "a protocol v1 batch's 20-s PQ values are folded into its slot's record",
        async () => {
          const windows = [0, 1, 2].map((k) => slot + k * 20_000);
          const res = await post(platform, credential, {
            batch_id: "b-v1",
            measurements: windows.map((w, k) => ({
              ...measurement(w, 2, "L2", 231),
              h_u: h.map((v) => v * (k + 1)),
              pst: 0.25 * (k + 1),
              plt: 0.5,
              unbalance: k,
            })),
          });
          assert.deepEqual([res.status, res.body.accepted], [200, 3]);
          assert.deepEqual(await pqOf(1), [[1, 0.5, 0.25, 0.75, 0.75, 0]], "v2 record kept");
          // Series of feeder 2, L3 got a v2 record; feeder 3 had none: it is folded.
          await post(platform, credential, {
            batch_id: "b-v1-f3",
            measurements: windows.map((w, k) => ({
              ...measurement(w, 3, "L1", 231),
              h_u: h.map((v) => v * (k + 1)),
              pst: 0.25 * (k + 1),
              plt: 0.5,
              unbalance: k,
            })),
          });
          await platform.services.measurements.writeFolds(slot + SLOT_MS + SLOT_GRACE_MS);
          const rows = (await platform.services.analytics.runAndReadAll(
            `SELECT p.origin, p.windows::INT, p.pst, p.plt, p.unbalance, p.h5 FROM pq_10min p
             JOIN series s USING (series_id)
             WHERE s.cell_id = '${cell!.id}' AND s.feeder = 3 AND s.phase = 0`,
          )).getRows() as number[][];
          assert.equal(rows.length, 1);
          const [origin, bits, pst, plt, unbalance, h5] = rows[0]!;
          assert.deepEqual([origin, bits, pst, plt, unbalance], [2, 7, 0.75, 0.5, 1]);
          assert.ok(Math.abs(h5! - 0.75 * Math.sqrt((1 + 4 + 9) / 3)) < 1e-6);
        },
      );

      await t.step(
        "a rotated credential stops working at once, a revoked cell is refused",
        async () => {
          const next = await cells.rotateCredential(cell!.id);
          assert.equal((await post(platform, credential, batch)).status, 401);
          assert.equal((await post(platform, next, batch)).status, 200);
          await cells.revoke(cell!.id);
          assert.equal((await post(platform, next, batch)).status, 401);
        },
      );

      await t.step(
        "the stored data reaches the 10-minute aggregates once the slot is closed",
        async () => {
          const written = await aggregator.flush(ts + SLOT_MS + SLOT_GRACE_MS + SLOT_MS);
          assert.ok(written >= 1);
          const listed = await cells.listFor(demoCustomer!.key, "INSTALLED");
          const seen = listed.find((c) => c.id === cell!.id)!;
          assert.equal(seen.firmware, "2.4.1");
          assert.equal(seen.gsm_signal, "GOOD");
          assert.ok(seen.last_seen);
        },
      );
    } finally {
      await platform.close();
    }
  },
});

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

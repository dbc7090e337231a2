/**
 * Cell onboarding over HTTP, as an administrator and a real cell see it (docs/operations.md,
 * "Onboarding cells"): a cell registered through POST /gsm/cells polls its configuration with
 * the credential it was shown once, is linked and mapped to a new node, sends a batch, and its
 * values appear in grid monitoring. After a rotation the old credential gets 401 on the very
 * next batch and the new one works; after a revocation every credential gets 401. Also the
 * refusals (duplicate serial, field errors, CSV problems by line, access) and an import of
 * 1,000 serial numbers.
 */
import assert from "node:assert/strict";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { databaseKinds, startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

type Json = Record<string, unknown>;

for (const kind of databaseKinds()) {
  Deno.test({
    name: `cell onboarding on ${kind}: register, send, see it in grid monitoring, rotate, revoke`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind);
      try {
        await run(platform, t);
      } finally {
        await platform.close();
      }
    },
  });
}

/** A 20-s window start `k` windows before the latest complete one. */
function windowStart(k: number): string {
  const now = Date.now();
  return new Date(now - (now % 20_000) - (k + 1) * 20_000).toISOString();
}

async function run(platform: TestPlatform, t: Deno.TestContext) {
  platform.services.gridStatus.reuseMs = 0;
  const token = async (account: { email: string; password: string }) =>
    (await platform.login(account.email, account.password)).access_token;
  const admin = await token(DEMO_USERS[1]);
  const superUser = await token(DEMO_USERS[2]);
  const otherAdmin = await token(OTHER_ADMIN);
  const call = async (
    path: string,
    init: { token?: string; method?: string; body?: unknown } = {},
  ) => {
    const res = await platform.request(path, {
      method: init.method ?? "GET",
      token: init.token ?? admin,
      ...(init.body !== undefined
        ? { body: JSON.stringify(init.body), headers: { "content-type": "application/json" } }
        : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  /** What the cell sees: the protocol's answer to a batch sent with `credential`. */
  const sendBatch = async (credential: string, slot: number, k: number, u = 231.5) => {
    const measurements = ["L1", "L2", "L3"].map((phase, p) => ({
      ts: windowStart(k),
      feeder: slot,
      phase,
      u: u + p,
      i: 40 + p,
    }));
    const res = await platform.request("/ingest/v1/batches", {
      method: "POST",
      headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
      body: JSON.stringify({
        batch_id: crypto.randomUUID(),
        device: { firmware: "3.0.0", gps_fix: "GPS_FIX", gsm_signal: "GOOD" },
        measurements,
      }),
    });
    return { status: res.status, body: await res.json() as Json };
  };

  let cellId = "";
  let credential = "";
  let nodeId = "";
  let slot = 0;

  await t.step(
    "an administrator registers a cell; the credential is in that answer only",
    async () => {
      const res = await call("/gsm/cells", {
        method: "POST",
        body: { serial_number: " gw-onb-0001 ", type: "WAITING_FOR_INSTALLATION" },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.deepEqual(
        [res.body.cell_id, res.body.serial_number, res.body.device_model, res.body.type],
        ["CGWONB0001", "GW-ONB-0001", "GW4", "WAITING_FOR_INSTALLATION"],
      );
      assert.equal(res.body.ingest_url, "http://gw.test/ingest/v1/batches");
      assert.equal(res.body.configuration_url, "http://gw.test/ingest/v1/configuration");
      assert.equal(res.body.protocol_version, 2);
      assert.match(res.body.credential, /^CGWONB0001\.[A-Za-z0-9_-]{43}$/);
      cellId = res.body.cell_id;
      credential = res.body.credential;
      const cell = await call(`/gsm/cells/${cellId}`);
      assert.deepEqual(
        [cell.body.type, cell.body.status, cell.body.credential_state],
        ["WAITING_FOR_INSTALLATION", "FIELD_INSTALLATION", "ACTIVE"],
      );
      const secret = credential.split(".")[1]!;
      for (const path of [`/gsm/cells/${cellId}`, "/gsm/cells?category=WAITING_FOR_INSTALLATION"]) {
        assert.ok(!JSON.stringify((await call(path)).body).includes(secret), path);
      }
    },
  );

  await t.step("refusals: duplicate serial 409, field errors 400, access 403 and 404", async () => {
    const dup = await call("/gsm/cells", {
      method: "POST",
      body: { serial_number: "GW-ONB-0001" },
    });
    assert.deepEqual([dup.status, dup.body.key, dup.body.params], [409, "setup.cellSerialExists", {
      serial_number: "GW-ONB-0001",
    }]);
    // A device belongs to one utility: the other utility cannot register it either.
    const foreign = await call("/gsm/cells", {
      token: otherAdmin,
      method: "POST",
      body: { serial_number: "gw-onb-0001" },
    });
    assert.equal(foreign.status, 409);
    const bad = await call("/gsm/cells", {
      method: "POST",
      body: { serial_number: "GW/1", device_model: "X", extra: 1 },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.key, "common.validation");
    assert.deepEqual(
      (bad.body.params.issues as Json[]).map((i) => `${i.path}:${i.key}`).sort(),
      [
        "device_model:validation.invalidChoice",
        "extra:validation.unknownField",
        "serial_number:validation.serialNumberFormat",
      ],
    );
    const nul = await call("/gsm/cells", { method: "POST", body: { serial_number: "GW\u00001" } });
    assert.equal(nul.status, 400);
    const reader = await call("/gsm/cells", {
      token: superUser,
      method: "POST",
      body: { serial_number: "GW-ONB-0099" },
    });
    assert.equal(reader.status, 403);
    for (const method of ["POST", "DELETE"]) {
      const other = await call(`/gsm/cells/${cellId}/credential`, { token: otherAdmin, method });
      assert.equal(other.status, 404, method);
    }
    const race = await Promise.all(
      [1, 2].map(() =>
        call("/gsm/cells", { method: "POST", body: { serial_number: "GW-ONB-RACE" } })
      ),
    );
    assert.deepEqual(race.map((r) => r.status).sort(), [201, 409]);
  });

  await t.step("the cell is linked to a new node and mapped; its batch is stored", async () => {
    const structure = (await call("/gsm/grid-structure/hv-mv-station-groups")).body as {
      mv_feeder_groups: { lv_groups: { id: string }[] }[];
    }[];
    const lvGroupId = structure[0]!.mv_feeder_groups[0]!.lv_groups[0]!.id;
    const node = await call("/gsm/nodes", {
      method: "POST",
      body: {
        lv_group_id: lvGroupId,
        name: "CAB Onboarding",
        electrical_work: { name: "CAB Onboarding", type: "LV_CABINET" },
        latitude: 47.05,
        longitude: 8.31,
        feeders: [{
          name: "Line Nord",
          type: "LV_LINE",
          in_out: "OUT",
          nominal_current_a: 160,
          parameters: {},
        }],
      },
    });
    assert.equal(node.status, 201, JSON.stringify(node.body));
    nodeId = node.body.id;
    const feeder = (node.body.feeders as { id: string; slot: number }[])[0]!;
    slot = feeder.slot;

    // Powered on in the field: the cell's first contact is its configuration poll.
    const headers = { authorization: `Bearer ${credential}` };
    const first = await platform.request("/ingest/v1/configuration", { headers });
    assert.equal(first.status, 200);
    assert.equal((await first.json() as Json).data, "NONE");
    const linked = await call(`/gsm/cells/${cellId}/link`, {
      method: "POST",
      body: { node_id: nodeId },
    });
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    const mapped = await call(`/gsm/cells/${cellId}/mapping`, {
      method: "PUT",
      body: {
        entries: (["L1", "L2", "L3"] as const).map((phase, k) => ({
          node_id: nodeId,
          feeder_id: feeder.id,
          probe: k + 1,
          phase,
        })),
      },
    });
    assert.equal(mapped.status, 200, JSON.stringify(mapped.body));
    const config = await platform.request("/ingest/v1/configuration", { headers });
    assert.equal((await config.json() as Json).data, "VALIDATION");

    // Linked a moment ago: the batch is read against the new node at once (no cache minute).
    const sent = await sendBatch(credential, slot, 1);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual([sent.body.accepted, sent.body.rejected], [3, []]);
  });

  await t.step("its values appear in grid monitoring", async () => {
    type Detail = { feeders: { phases: { phase: string; u: number | null }[] }[] };
    // The monitored topology is checked every 30 s; a new node appears within that.
    const deadline = Date.now() + 45_000;
    let detail: { status: number; body: Detail } | null = null;
    for (;;) {
      await sendBatch(credential, slot, 0, 232.5);
      detail = await call(`/evm/grid-monitoring/nodes/${nodeId}?level=LV`, { token: superUser });
      const u = detail.body?.feeders?.[0]?.phases.find((p) => p.phase === "L1")?.u ?? null;
      if (detail.status === 200 && u !== null) break;
      if (Date.now() > deadline) {
        assert.fail(`No values in grid monitoring: ${JSON.stringify(detail)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const phases = detail.body.feeders[0]!.phases;
    assert.deepEqual(phases.filter((p) => p.phase !== "N").map((p) => p.u), [232.5, 233.5, 234.5]);
  });

  await t.step(
    "after a rotation the old credential gets 401 at once, the new one works",
    async () => {
      const rotated = await call(`/gsm/cells/${cellId}/credential`, { method: "POST" });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.equal(rotated.headers.get("cache-control"), "no-store");
      const answered = performance.now();
      const old = await sendBatch(credential, slot, 2);
      const refusedAfterMs = performance.now() - answered;
      assert.deepEqual([old.status, old.body.key], [401, "common.unauthorized"]);
      console.log(
        `Old credential refused ${refusedAfterMs.toFixed(1)} ms after the rotation answer`,
      );
      const poll = await platform.request("/ingest/v1/configuration", {
        headers: { authorization: `Bearer ${credential}` },
      });
      assert.equal(poll.status, 401);
      credential = rotated.body.credential;
      assert.equal((await sendBatch(credential, slot, 2)).status, 200);
    },
  );

  await t.step("after a revocation every batch gets 401 until a new credential", async () => {
    const revoked = await call(`/gsm/cells/${cellId}/credential`, { method: "DELETE" });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal(revoked.body.credential_state, "REVOKED");
    assert.equal((await sendBatch(credential, slot, 3)).status, 401);
    const reissued = await call(`/gsm/cells/${cellId}/credential`, { method: "POST" });
    assert.equal((await sendBatch(credential, slot, 3)).status, 401);
    assert.equal((await sendBatch(reissued.body.credential, slot, 3)).status, 200);
    assert.equal((await call(`/gsm/cells/${cellId}`)).body.credential_state, "ACTIVE");
  });

  await t.step("a CSV import registers every cell or none, with the problems by line", async () => {
    const refused = await call("/gsm/cells/import", {
      method: "POST",
      body: { csv: "serial_number\nGW-IMP-1\nGW-ONB-0001\nGW/3\ngw-imp-1\n" },
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(
      (refused.body.params.issues as Json[]).map((i) => `${i.path}:${i.key}`),
      ["csv.4:validation.serialNumberFormat", "csv.5:validation.serialNumberRepeated"],
    );
    const taken = await call("/gsm/cells/import", {
      method: "POST",
      body: { csv: "GW-IMP-1\nGW-ONB-0001" },
    });
    assert.deepEqual(
      (taken.body.params.issues as Json[]).map((i) => `${i.path}:${i.key}`),
      ["csv.2:setup.cellSerialExists"],
    );
    const serials = Array.from({ length: 1000 }, (_, k) => `GW-IMP-${String(k).padStart(4, "0")}`);
    const started = performance.now();
    const imported = await call("/gsm/cells/import", {
      method: "POST",
      body: { csv: `serial_number;device_model\n${serials.join(";GW4\n")}`, device_model: "DTVI" },
    });
    const ms = performance.now() - started;
    assert.equal(imported.status, 201, JSON.stringify(imported.body).slice(0, 500));
    assert.equal(imported.body.count, 1000);
    console.log(`Imported 1,000 cells in ${ms.toFixed(0)} ms`);
    const cells = imported.body.cells as { credential: string; device_model: string }[];
    assert.equal(cells.at(-1)!.device_model, "DTVI", "the last line names no model");
    assert.equal(cells[0]!.device_model, "GW4");
    const stock = await call("/gsm/cells?category=IN_STOCK");
    assert.ok(stock.body.total >= 1000);
    // The credentials work at once (an imported cell may send before it is installed).
    for (const cell of [cells[0]!, cells.at(-1)!]) {
      assert.equal((await sendBatch(cell.credential, 1, 0)).status, 200);
    }
  });
}

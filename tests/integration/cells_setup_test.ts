/**
 * Cells and mapping calls over HTTP (docs/contracts.md, "Cells and mapping calls"): lists,
 * search, stock, link rules (301, 310, compatibility), mapping codes (101-111, 114), validation
 * from real ingested data (verdict, confirm 108/109, ignore), the cell's configuration and its
 * acknowledgement, custom messages and the I/O configuration rules; admin vs user vs operator
 * vs another customer.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { backfill, demoSimCells } from "../../modules/demo/simulation.ts";
import { createLogger } from "../../kernel/mod.ts";
import { databaseKinds, startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

type Json = Record<string, unknown> & { items?: Json[] };

for (const kind of databaseKinds()) {
  Deno.test({
    name: `cells setup calls on ${kind}`,
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

async function run(platform: TestPlatform, t: Deno.TestContext) {
  const token = async (account: { email: string; password: string }) =>
    (await platform.login(account.email, account.password)).access_token;
  const admin = await token(DEMO_USERS[1]);
  const plainUser = await token(DEMO_USERS[0]);
  // The super-user holds hes:infrastructure-setup:user: reads, never changes.
  const user = await token(DEMO_USERS[2]);
  const operator = await token(DEMO_USERS[4]);
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
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
  };
  const expectError = async (
    path: string,
    init: { method?: string; body?: unknown; token?: string },
    status: number,
    codeOrKey: number | string,
  ) => {
    const res = await call(path, init);
    assert.equal(res.status, status, `${path}: ${JSON.stringify(res.body)}`);
    if (typeof codeOrKey === "number") assert.equal(res.body.code, codeOrKey);
    else assert.equal(res.body.key, codeOrKey);
    return res.body;
  };
  const db = platform.services.db;
  const nodeId = async (name: string) => {
    const rows = await db.execute(sql`SELECT id FROM grid.nodes WHERE name = ${name}`);
    return String((rows as unknown as { rows: { id: string }[] }).rows[0]!.id);
  };
  const feederIds = async (node: string) => {
    const rows = await db.execute(
      sql`SELECT id FROM grid.feeders WHERE node_id = ${node} ORDER BY slot`,
    );
    return (rows as unknown as { rows: { id: string }[] }).rows.map((r) => String(r.id));
  };

  await t.step("lists by category, 10 per page with the total, and search", async () => {
    const stock = await call("/gsm/cells?category=IN_STOCK");
    assert.equal(stock.status, 200);
    assert.equal(stock.body.total, 4);
    assert.equal(stock.body.items![0]!.status_label, "waitingForInstallation");
    const field = await call("/gsm/cells?category=INSTALLED&page=2");
    assert.deepEqual([field.body.total, field.body.page_size, field.body.items!.length], [
      20,
      10,
      10,
    ]);
    assert.equal(field.body.items![0]!.mapping_status, "CONFIGURED");
    assert.equal(field.body.items![0]!.status, "DISCONNECTED");
    const waiting = await call("/gsm/cells?category=WAITING_FOR_INSTALLATION");
    assert.equal(waiting.body.total, 3);
    const found = await call("/gsm/cells/search?q=GW-2026");
    assert.equal((found.body as unknown as Json[]).length, 10);
    const one = await call("/gsm/cells/search?q=Seeblick%204");
    assert.equal((one.body as unknown as Json[]).length, 1);
    await expectError("/gsm/cells?category=BROKEN", {}, 400, "common.validation");
  });

  await t.step(
    "roles: module users read, only admins change, others and other customers see nothing",
    async () => {
      assert.equal((await call("/gsm/cells?category=IN_STOCK", { token: user })).status, 200);
      await expectError(
        "/gsm/cells/CGW20260021/take-from-stock",
        { method: "POST", token: user },
        403,
        "common.forbidden",
      );
      await expectError(
        "/gsm/cells?category=IN_STOCK",
        { token: operator },
        403,
        "common.forbidden",
      );
      await expectError("/gsm/io-modules", { token: plainUser }, 403, "common.forbidden");
      await expectError(
        "/gsm/cells?category=IN_STOCK",
        { token: plainUser },
        403,
        "common.forbidden",
      );
      await expectError("/gsm/cells/CGW20260021", { token: otherAdmin }, 404, "common.notFound");
      await expectError(
        "/gsm/cells/CGW20260021/take-from-stock",
        { method: "POST", token: otherAdmin },
        404,
        "common.notFound",
      );
    },
  );

  await t.step("take from stock, once", async () => {
    const res = await call("/gsm/cells/CGW20260021/take-from-stock", { method: "POST" });
    assert.deepEqual([res.status, res.body.type], [200, "WAITING_FOR_INSTALLATION"]);
    await expectError(
      "/gsm/cells/CGW20260021/take-from-stock",
      { method: "POST" },
      409,
      "setup.cellWrongState",
    );
  });

  const seeblick4 = await nodeId("CAB Seeblick 4");
  await t.step(
    "link rules: 310 unknown node, 301 disconnected, incompatible and taken nodes",
    async () => {
      await expectError(
        "/gsm/cells/CGW20260024/link",
        { method: "POST", body: { node_id: "nope" } },
        422,
        310,
      );
      await expectError(
        "/gsm/cells/CGW20260026/link",
        { method: "POST", body: { node_id: seeblick4 } },
        502,
        301,
      );
      await expectError(
        "/gsm/cells/CGW20260024/link",
        { method: "POST", body: { node_id: seeblick4 } },
        409,
        "setup.nodeHasCell",
      );
      await db.execute(sql`INSERT INTO grid.nodes (id, lv_group_id, name, electrical_work_key,
      electrical_work_name, electrical_work_type, latitude, longitude)
      SELECT 'mv-cab', lv_group_id, 'MV cabinet', 'ew-mv-cab', 'MV cabinet', 'MV_CABINET', 47, 8
      FROM grid.nodes WHERE id = ${seeblick4}`);
      await expectError(
        "/gsm/cells/CGW20260024/link",
        { method: "POST", body: { node_id: "mv-cab" } },
        422,
        "validation.incompatibleNodeType",
      );
      const nodes = (await call("/gsm/cells/linkable-nodes")).body as unknown as Json[];
      assert.equal(nodes.find((n) => n.id === "mv-cab")!.compatible, false);
      assert.ok(nodes.find((n) => n.id === seeblick4)!.cell_id);
    },
  );

  await t.step(
    "unlink puts the cell back in 'waiting'; a waiting cell cannot be unlinked",
    async () => {
      const cellId = (await call("/gsm/cells/search?q=Seeblick%204")).body as unknown as Json[];
      const res = await call(`/gsm/cells/${cellId[0]!.id}/unlink`, { method: "POST" });
      assert.deepEqual([res.status, res.body.type, res.body.node], [
        200,
        "WAITING_FOR_INSTALLATION",
        null,
      ]);
      await expectError(`/gsm/cells/${cellId[0]!.id}/unlink`, { method: "POST" }, 422, 310);
      const linked = await call("/gsm/cells/CGW20260024/link", {
        method: "POST",
        body: { node_id: seeblick4 },
      });
      assert.deepEqual([linked.status, linked.body.type, linked.body.status], [
        200,
        "INSTALLED",
        "NOT_COMPLETED",
      ]);
      assert.equal(linked.body.mapping_status, "TO_BE_CONFIGURED");
    },
  );

  const [incoming, outgoing] = await feederIds(seeblick4);
  const entry = (feeder: string, probe: number, phase: string, node = seeblick4) => ({
    node_id: node,
    feeder_id: feeder,
    probe,
    phase,
  });
  const straight = (feeder: string, probes = [1, 2, 3]) =>
    probes.map((probe, k) => entry(feeder, probe, ["L1", "L2", "L3"][k]!));
  const path = "/gsm/cells/CGW20260024/mapping";

  await t.step("mapping codes 110, 101, 102, 103, 105, unmapped predecessor, 111", async () => {
    await expectError(path, { method: "PATCH", body: { entries: straight(incoming!) } }, 404, 110);
    await expectError(path, { method: "PUT", body: { entries: [] } }, 422, 101);
    const other = await nodeId("TS Seeblick");
    await expectError(
      path,
      {
        method: "PUT",
        body: { entries: [entry(incoming!, 1, "L1"), entry(incoming!, 2, "L2", other)] },
      },
      422,
      102,
    );
    await expectError(
      path,
      { method: "PUT", body: { entries: [entry(incoming!, 1, "L1"), entry(incoming!, 1, "L2")] } },
      409,
      103,
    );
    await expectError(
      path,
      { method: "PUT", body: { entries: [entry(incoming!, 4, "N")] } },
      422,
      105,
    );
    await expectError(
      path,
      { method: "PUT", body: { entries: [entry(incoming!, 1, "L1"), entry(incoming!, 3, "L3")] } },
      400,
      "common.validation",
    );
    await expectError("/gsm/cells/CGW20260024/mapping/confirm", { method: "POST" }, 404, 110);
    // A transformer with MV estimation needs L1-L3.
    const station = await nodeId("TS Seeblick");
    const [transformer] = await feederIds(station);
    await db.execute(
      sql`UPDATE grid.feeders SET parameters = '{"mvVoltageEstimation": true}'::jsonb WHERE id = ${transformer}`,
    );
    const stationCell =
      ((await call("/gsm/cells/search?q=TS%20Seeblick")).body as unknown as Json[])[0]!;
    await expectError(
      `/gsm/cells/${stationCell.id}/mapping`,
      { method: "PUT", body: { entries: [entry(transformer!, 1, "L1", station)] } },
      422,
      111,
    );
    // The demo's cells have not been heard from: a saved mapping cannot be sent (114).
    const saved = await call(`/gsm/cells/${stationCell.id}/mapping`, {
      method: "PUT",
      body: { entries: straight(transformer!).map((e) => ({ ...e, node_id: station })) },
    });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body.delivery, {
      state: "FAILED",
      code: 114,
      key: "mapping.sendFailed",
    });
  });

  await t.step("a valid mapping is saved and pending delivery; PATCH merges a feeder", async () => {
    const saved = await call(path, { method: "PUT", body: { entries: straight(incoming!) } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.delivery, { state: "PENDING" });
    const patched = await call(path, { method: "PATCH", body: { entries: straight(outgoing!) } });
    const feeders =
      (patched.body.mapping as { feeders: { phases: Record<string, number | null> }[] })
        .feeders;
    assert.deepEqual(feeders.map((f) => f.phases.L1), [1, 1]);
    await expectError("/gsm/cells/CGW20260024/mapping/confirm", { method: "POST" }, 409, 108);
  });

  await t.step("the cell fetches its configuration and acknowledges the version", async () => {
    const credential = await platform.services.cells.rotateCredential("CGW20260024");
    const headers = { authorization: `Bearer ${credential}` };
    const config = await platform.request("/ingest/v1/configuration", { headers });
    const body = await config.json() as {
      mapping_version: number;
      data: string;
      feeders: unknown[];
    };
    assert.deepEqual([config.status, body.data, body.feeders.length], [200, "VALIDATION", 2]);
    const ack = (version: number) =>
      platform.request("/ingest/v1/configuration/ack", {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ mapping_version: version }),
      });
    assert.equal((await ack(body.mapping_version - 1)).status, 409);
    assert.equal((await ack(body.mapping_version)).status, 204);
    assert.equal((await call("/gsm/cells/CGW20260024")).body.status, "UNDER_VALIDATION");
    assert.equal((await platform.request("/ingest/v1/configuration")).status, 401);
  });

  await t.step("validation on no data is a timeout", async () => {
    const res = await call(`${path}/validate`, { method: "POST" });
    assert.deepEqual([res.status, res.body.verdict, res.body.message_key], [
      200,
      "TIMEOUT",
      "messages.mappingValidationTimeout",
    ]);
    await expectError(`${path}/confirm`, { method: "POST" }, 409, 108);
  });

  await t.step(
    "validation on ingested data: wrong wiring found, 109, fixed mapping CORRECT",
    async () => {
      await ingestSwapped(platform, "CGW20260024");
      const wrong = await call(`${path}/validate`, { method: "POST" });
      assert.deepEqual([wrong.body.verdict, wrong.body.certainty, wrong.body.message_key], [
        "SHIFT_LEFT",
        "CERTAIN",
        "mapping.verdict.invalid",
      ]);
      assert.equal((await call("/gsm/cells/CGW20260024")).body.status_label, "mappingNotValid");
      await expectError(`${path}/confirm`, { method: "POST" }, 422, 109);
      const fixed = [...straight(incoming!, [2, 3, 1]), ...straight(outgoing!, [2, 3, 1])];
      assert.equal((await call(path, { method: "PUT", body: { entries: fixed } })).status, 200);
      const right = await call(`${path}/validate`, { method: "POST" });
      assert.deepEqual([right.body.verdict, right.body.certainty], ["CORRECT", "CERTAIN"]);
      const confirmed = await call(`${path}/confirm`, { method: "POST" });
      assert.deepEqual([confirmed.status, confirmed.body.mapping_status], [200, "CONFIGURED"]);
      assert.equal((await call(`${path}/validate`, { method: "POST", token: user })).status, 403);
    },
  );

  await t.step("ignoring a wrong mapping: 'Failed or Skipped'", async () => {
    const wrong = [...straight(incoming!), ...straight(outgoing!)];
    await call(path, { method: "PUT", body: { entries: wrong } });
    await call(`${path}/validate`, { method: "POST" });
    const ignored = await call(`${path}/ignore`, { method: "POST" });
    assert.deepEqual([ignored.status, ignored.body.status_label], [200, "failedOrSkipped"]);
  });

  await t.step("custom message: set, refused characters and length, cleared", async () => {
    const msg = "/gsm/cells/CGW20260022/message";
    const set = await call(msg, { method: "PUT", body: { message: "Key at the depot, box 4" } });
    assert.deepEqual([set.status, set.body.custom_message], [200, "Key at the depot, box 4"]);
    await expectError(
      msg,
      { method: "PUT", body: { message: "Call me!" } },
      400,
      "common.validation",
    );
    await expectError(
      msg,
      { method: "PUT", body: { message: "x".repeat(121) } },
      400,
      "common.validation",
    );
    await expectError(
      msg,
      { method: "PUT", body: { message: "ok" }, token: user },
      403,
      "common.forbidden",
    );
    const cleared = await call(msg, { method: "PUT", body: { message: null } });
    assert.equal(cleared.body.custom_message, null);
  });

  await t.step("I/O modules: form rules, thresholds, analog resolution, DTVI, in use", async () => {
    const create = (body: Json, tok = admin) =>
      call("/gsm/io-modules", { method: "POST", body, token: tok });
    const noSize = await create({
      name: "Door",
      module_type: "DIGITAL_INPUT",
      system_type: "DRY_CONTACT",
      resolution: 1,
    });
    assert.equal(noSize.status, 400);
    assert.deepEqual(
      (noSize.body.params as { issues: { key: string }[] }).issues.map((i) => i.key),
      [
        "validation.selectModuleSize",
      ],
    );
    const bad = await create({
      name: "Do",
      module_type: "ANALOG_INPUT",
      system_type: "0_10V",
      size: 2,
      resolution: 2,
    });
    assert.deepEqual(
      (bad.body.params as { issues: { key: string }[] }).issues.map((i) => i.key),
      [
        "validation.nameMin",
        "validation.resolutionRange",
      ],
    );
    const noResolution = await create({
      name: "Temp",
      module_type: "ANALOG_INPUT",
      system_type: "0_10V",
      size: 2,
    });
    assert.equal(
      (noResolution.body.params as { issues: { key: string }[] }).issues[0]!.key,
      "validation.setModuleResolution",
    );
    assert.equal(
      (await create({
        name: "Door",
        module_type: "DIGITAL_INPUT",
        system_type: "DRY_CONTACT",
        size: 2,
        resolution: 1,
      }, user)).status,
      403,
    );
    const ids: string[] = [];
    for (let k = 1; k <= 5; k++) {
      const res = await create({
        name: `Door ${k}`,
        module_type: "DIGITAL_INPUT",
        system_type: "DRY_CONTACT",
        size: 2,
        resolution: 1,
      });
      assert.equal(res.status, 201);
      ids.push(String(res.body.id));
    }
    await expectError(
      "/gsm/io-modules",
      {
        method: "POST",
        body: {
          name: "Door 1",
          module_type: "DIGITAL_INPUT",
          system_type: "DRY_CONTACT",
          size: 2,
          resolution: 1,
        },
      },
      409,
      "common.conflict",
    );
    const io = "/gsm/cells/CGW20260024/io-modules";
    for (const id of ids.slice(0, 4)) {
      assert.equal((await call(io, { method: "POST", body: { module_id: id } })).status, 200);
    }
    await expectError(
      io,
      { method: "POST", body: { module_id: ids[4] } },
      422,
      "validation.moduleThresholdExceeded",
    );
    const a1 = await create({
      name: "Oil temp",
      module_type: "ANALOG_INPUT",
      system_type: "4_20MA",
      size: 2,
      resolution: 0.5,
    });
    const a2 = await create({
      name: "Water level",
      module_type: "ANALOG_INPUT",
      system_type: "0_10V",
      size: 2,
      resolution: 0.25,
    });
    await call(io, { method: "POST", body: { module_id: a1.body.id } });
    const second = await call(io, { method: "POST", body: { module_id: a2.body.id } });
    assert.deepEqual(second.body.deactivated, [a1.body.id]);
    const modules = second.body.modules as { id: string; active: boolean }[];
    assert.equal(modules.find((m) => m.id === a1.body.id)!.active, false);
    await expectError(
      `/gsm/io-modules/${ids[0]}`,
      { method: "DELETE" },
      409,
      "validation.deleteModuleInUse",
    );
    assert.equal((await call(`/gsm/io-modules/${ids[4]}`, { method: "DELETE" })).status, 204);
    const dtvi = await call("/gsm/cells/CDTVI20260001/io-modules");
    assert.deepEqual([dtvi.body.supported, dtvi.body.unsupported_reason], [false, "DTVI"]);
    await expectError(
      "/gsm/cells/CDTVI20260001/io-modules",
      { method: "POST", body: { module_id: ids[1] } },
      422,
      "validation.ioConfigurationUnsupported",
    );
    await expectError(
      `/gsm/io-modules/${ids[1]}`,
      { token: otherAdmin, method: "DELETE" },
      404,
      "common.notFound",
    );
    const config = await platform.request("/ingest/v1/configuration", {
      headers: {
        authorization: `Bearer ${await platform.services.cells.rotateCredential("CGW20260024")}`,
      },
    });
    assert.equal(((await config.json()) as { io_modules: unknown[] }).io_modules.length, 6);
  });
}

/** 30 samples of the last 10 minutes from a cell whose probe k carries conductor [2,0,1][k]. */
async function ingestSwapped(platform: TestPlatform, cellId: string): Promise<void> {
  const credential = await platform.services.cells.rotateCredential(cellId);
  const alpha = [0, -120, 120];
  const now = Date.now();
  const last = now - (now % 20_000) - 20_000;
  const measurements = [];
  for (let t = 0; t < 28; t++) {
    const ts = new Date(last - t * 20_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    for (const feeder of [1, 2]) {
      for (let probe = 0; probe < 3; probe++) {
        const j = [2, 0, 1][probe]!;
        const theta = (alpha[probe]! - (alpha[j]! - 14)) * Math.PI / 180;
        const i = 60 + probe * 5;
        const s = 230 * i / 1000;
        measurements.push({
          ts,
          feeder,
          phase: ["L1", "L2", "L3"][probe],
          u: 230,
          i,
          p: Math.round(s * Math.cos(theta) * 1000) / 1000,
          q: Math.round(s * Math.sin(theta) * 1000) / 1000,
        });
      }
    }
  }
  const res = await platform.request("/ingest/v1/batches", {
    method: "POST",
    headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
    body: JSON.stringify({ batch_id: crypto.randomUUID(), measurements }),
  });
  assert.equal(res.status, 200, await res.text());
}

Deno.test({
  name: "the demo's miswired cell is found on simulated data, and the shifted mapping is correct",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform("pglite");
    try {
      const deps = {
        ...platform.services,
        store: platform.services.measurements,
        logger: createLogger("error"),
        baseUrl: "http://unused",
        backfillDays: 0,
        rawLifetimeDays: 30,
      };
      const now = Date.now();
      const to = now - (now % 20_000);
      await backfill(deps, await demoSimCells(deps, now), to - 12 * 60_000, to);
      const token = (await platform.login(DEMO_USERS[1].email, DEMO_USERS[1].password))
        .access_token;
      const post = async (path: string, body?: unknown) =>
        await (await platform.request(path, {
          method: body === undefined ? "POST" : "PUT",
          token,
          ...(body === undefined
            ? {}
            : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
        })).json() as Json;
      const [cell] = await (await platform.request("/gsm/cells/search?q=M%C3%BChlebach", { token }))
        .json() as Json[];
      const path = `/gsm/cells/${cell!.id}/mapping`;
      const wrong = await post(`${path}/validate`);
      assert.deepEqual([wrong.verdict, wrong.certainty], ["SHIFT_LEFT", "CERTAIN"]);
      // Shift left: the probe on L1 measures L3, the one on L2 measures L1, the one on L3 L2.
      const mapping = await (await platform.request(path, { token })).json() as {
        node_id: string;
        feeders: { id: string }[];
      };
      const entries = mapping.feeders.flatMap((f) =>
        [[2, "L1"], [3, "L2"], [1, "L3"], [4, "N"]].map(([probe, phase]) => ({
          node_id: mapping.node_id,
          feeder_id: f.id,
          probe,
          phase,
        }))
      );
      await post(path, { entries });
      const right = await post(`${path}/validate`);
      assert.deepEqual([right.verdict, right.certainty], ["CORRECT", "CERTAIN"]);
    } finally {
      await platform.close();
    }
  },
});

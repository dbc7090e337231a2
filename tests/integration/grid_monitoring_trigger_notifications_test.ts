/**
 * Spec 2.7: an automatic trigger that fires becomes a GRID_MONITORING notification of the
 * customer's users: status FAILURE when another request was running on the node, otherwise the
 * request started successfully; the texts say so in every language.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import { allNodes, type NodeDto, readStructure } from "../../modules/grid/mod.ts";
import type { NotificationPageDto as NotificationPage } from "../../modules/notifications/mod.ts";
import { decodeClaims, startTestPlatform, type TestPlatform } from "../helpers/platform.ts";
import en from "../../web/src/i18n/locales/en/notifications.json" with { type: "json" };

async function post(platform: TestPlatform, token: string, path: string, body: unknown) {
  const res = await platform.request(`/evm/custom-monitoring${path}`, {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

/** 40 A, then 141 A on L1 of the first feeder: a change above a 50-A delta. */
async function stepCurrent(platform: TestPlatform, credential: string, node: NodeDto) {
  const now = Date.now();
  const t0 = now - (now % 20_000) - 40_000;
  for (const [ts, l1] of [[t0, 40], [t0 + 20_000, 141]] as const) {
    const measurements = node.feeders.flatMap((f, k) =>
      ["L1", "L2", "L3"].map((phase) => ({
        ts: new Date(ts).toISOString(),
        feeder: f.slot,
        phase,
        u: 230,
        i: k === 0 && phase === "L1" ? l1 : 40,
      }))
    );
    const res = await platform.request("/ingest/v1/batches", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
      body: JSON.stringify({ measurements }),
    });
    assert.equal(res.status, 200, await res.text());
  }
}

Deno.test({
  name: "automatic trigger fires become notifications: FAILURE when another request was running",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform("pglite");
    try {
      const { cells, customers, db } = platform.services;
      await db.execute(sql`
        UPDATE users.users SET user_metadata = jsonb_set(user_metadata, '{notification}',
          ${JSON.stringify({ apps: { "app:grid-monitoring": true } })}::jsonb)`);
      const demo = (await customers.getByConnection("demo-ew"))!;
      const installed = await cells.listFor(demo.key, "INSTALLED");
      const [busy, free] = allNodes(await readStructure(db, demo.key))
        .filter((n) => installed.some((c) => c.node_id === n.id) && n.feeders.length)
        .filter((n) => n.feeders.every((f) => f.type !== "MV_LINE"));
      assert.ok(busy && free);
      const credentialOf = (node: NodeDto) =>
        cells.rotateCredential(installed.find((x) => x.node_id === node.id)!.id);
      const user = (await platform.login(DEMO_USERS[0].email, DEMO_USERS[0].password))
        .access_token;
      const admin = (await platform.login(DEMO_USERS[1].email, DEMO_USERS[1].password))
        .access_token;
      const userId = String(decodeClaims(user).sub).split("|")[1]!;

      for (const node of [busy, free]) {
        const created = await post(platform, admin, "/triggers", {
          node_id: node.id,
          delta_lv_a: 50,
          delta_mv_a: 20,
          duration_min: 1,
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
      }
      const manual = await post(platform, user, "/requests", {
        node_id: busy.id,
        duration_min: 10,
      });
      assert.equal(manual.status, 201, JSON.stringify(manual.body));
      await stepCurrent(platform, await credentialOf(busy), busy);
      await stepCurrent(platform, await credentialOf(free), free);

      type Info = { status: string; node_name: string; ew_name: string; start_time: string };
      let fired: { severity: string; info: Info }[] = [];
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const res = await platform.request(`/nsm/notifications/users/${userId}`, { token: user });
        const page = await res.json() as NotificationPage;
        fired = page.notifications
          .filter((n) => n.type === "GRID_MONITORING" && n.name === "AUTOMATIC_REQUEST_TRIGGER")
          .map((n) => ({ severity: n.severity, info: JSON.parse(n.info) as Info }));
        if (fired.length >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const of = (node: NodeDto) => fired.find((n) => n.info.node_name === node.name);
      assert.equal(of(busy)?.info.status, "FAILURE", JSON.stringify(fired));
      assert.equal(of(busy)?.severity, "WARNING");
      assert.equal(of(busy)?.info.ew_name, busy.electrical_work.name);
      assert.equal(of(free)?.info.status, "STARTED", JSON.stringify(fired));
      assert.equal(of(free)?.severity, "INFO");
      // What the notification centre shows for them (web/src/features/notifications).
      assert.match(en.text.triggerFailed, /another request was running/);
      assert.match(en.text.triggerStarted, /started successfully/);
    } finally {
      await platform.close();
    }
  },
});

/**
 * Custom monitoring through the HTTP stack and real logins: manual requests started and stopped
 * on request with their conflicts and limits (331, 333, 322), automatic triggers (330) firing
 * from cell batches (STARTED, FAILURE), tenant isolation, and the values of a request's window.
 */
import assert from "node:assert/strict";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import type { NodeDto, StationGroupDto } from "../../modules/grid/mod.ts";
import type { RequestDto, RequestValuesDto, TriggerDto } from "../../modules/monitoring/mod.ts";
import { startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

const BASE = "/evm/custom-monitoring";

interface Answer<T> {
  status: number;
  body: T & { code?: number; key?: string; params?: Record<string, unknown> };
}

async function call<T = Record<string, unknown>>(
  platform: TestPlatform,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const res = await platform.request(`${BASE}${path}`, {
    method,
    token,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  return { status: res.status, body: await res.json() };
}

/** One batch of a node's cell: every feeder and phase at `ts`, with `i` per (slot, phase). */
async function sendBatch(
  platform: TestPlatform,
  credential: string,
  node: NodeDto,
  ts: number,
  i: (slot: number, phase: string) => number,
) {
  const measurements = node.feeders.flatMap((f) =>
    ["L1", "L2", "L3"].map((phase) => ({
      ts: new Date(ts).toISOString(),
      feeder: f.slot,
      phase,
      u: 230,
      i: i(f.slot, phase),
    }))
  );
  const res = await platform.request("/ingest/v1/batches", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
    body: JSON.stringify({ measurements }),
  });
  assert.equal(res.status, 200, await res.text());
}

async function until<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Three batches 20 s apart: 40 A, then 90 A (a change of exactly 50 A), then 141 A on L1. */
async function stepCurrent(platform: TestPlatform, credential: string, node: NodeDto) {
  const now = Date.now();
  const t0 = now - (now % 20_000) - 60_000;
  const slot = node.feeders[0]!.slot;
  const at = (l1: number) => (s: number, phase: string) => s === slot && phase === "L1" ? l1 : 40;
  await sendBatch(platform, credential, node, t0, at(40));
  await sendBatch(platform, credential, node, t0 + 20_000, at(90));
  await sendBatch(platform, credential, node, t0 + 40_000, at(141));
  return { t0, slot };
}

Deno.test({
  name: "custom monitoring: manual requests, limits, automatic triggers and the request window",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const platform = await startTestPlatform("pglite");
    try {
      const login = async (a: { email: string; password: string }) =>
        (await platform.login(a.email, a.password)).access_token;
      const user = await login(DEMO_USERS[0]);
      const admin = await login(DEMO_USERS[1]);
      const other = await login(OTHER_ADMIN);
      const structure =
        await (await platform.request("/gsm/grid-structure/hv-mv-station-groups", { token: user }))
          .json() as StationGroupDto[];
      const nodes = structure.flatMap((g) =>
        g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
      );
      assert.ok(nodes.length >= 8);
      const [a, b, c, d, e, f, g, h] = nodes;
      const { cells, customers } = platform.services;
      const demo = (await customers.getByConnection("demo-ew"))!;
      const installed = await cells.listFor(demo.key, "INSTALLED");
      const credentialOf = (node: NodeDto) =>
        cells.rotateCredential(installed.find((x) => x.node_id === node.id)!.id);
      const start = (token: string, node: NodeDto, duration_min: number | null) =>
        call<RequestDto>(platform, token, "POST", "/requests", { node_id: node.id, duration_min });
      let requestA = "";
      let requestD = "";

      await t.step(
        "a manual request starts now, ends after its duration, and conflicts",
        async () => {
          const started = await start(user, a!, 5);
          assert.equal(started.status, 201, JSON.stringify(started.body));
          requestA = started.body.id;
          assert.equal(started.body.kind, "MANUAL");
          assert.equal(started.body.status, "RUNNING");
          assert.equal(
            Date.parse(started.body.ends_at!) - Date.parse(started.body.started_at),
            5 * 60_000,
          );
          const second = await start(user, a!, 10);
          assert.equal(second.status, 409);
          assert.equal(second.body.code, 331);
          assert.equal(second.body.key, "monitoring.requestRunning");
          for (const refused of [6, 70, 1500, 0]) {
            const res = await start(user, b!, refused);
            assert.equal(res.status, 400, `${refused} min`);
            assert.equal(res.body.key, "common.validation");
          }
          assert.equal((await start(user, b!, 120)).status, 201);
          assert.equal((await start(user, c!, 1440)).status, 201);
        },
      );

      await t.step("a request without end is for admins and blocks its node with 333", async () => {
        const refused = await start(user, d!, null);
        assert.equal(refused.status, 403);
        const infinite = await start(admin, d!, null);
        assert.equal(infinite.status, 201);
        assert.equal(infinite.body.ends_at, null);
        requestD = infinite.body.id;
        const blocked = await start(admin, d!, 5);
        assert.equal(blocked.status, 409);
        assert.equal(blocked.body.code, 333);
      });

      await t.step("the sixth running request of the customer is refused with 322", async () => {
        assert.equal((await start(user, e!, 60)).status, 201);
        const refused = await start(user, f!, 5);
        assert.equal(refused.status, 429);
        assert.equal(refused.body.code, 322);
        assert.deepEqual(refused.body.params, { limit: 5 });
        const running = await call<RequestDto[]>(platform, user, "GET", "/requests?status=RUNNING");
        assert.equal(running.body.length, 5);
        const onF = await call<RequestDto[]>(platform, user, "GET", `/requests?node_id=${f!.id}`);
        assert.deepEqual(onF.body, [], "a refused start leaves nothing behind");
      });

      await t.step("another customer's admin sees the nodes and requests as missing", async () => {
        const foreign = await start(other, a!, 5);
        assert.equal(foreign.status, 404);
        assert.equal(foreign.body.key, "grid.elementNotFound");
        const missing = await call(platform, other, "POST", "/requests", {
          node_id: crypto.randomUUID(),
          duration_min: 5,
        });
        assert.deepEqual(missing.body, foreign.body);
        assert.equal((await call(platform, other, "GET", `/requests/${requestA}`)).status, 404);
        assert.equal(
          (await call(platform, other, "POST", `/requests/${requestA}/stop`)).status,
          404,
        );
        assert.equal(
          (await call(platform, other, "GET", `/requests?node_id=${a!.id}`)).status,
          404,
        );
        const own = await call<RequestDto[]>(platform, other, "GET", "/requests");
        assert.deepEqual(own.body, []);
      });

      await t.step("stop now ends a request; a request without end needs an admin", async () => {
        const stopped = await call<RequestDto>(
          platform,
          user,
          "POST",
          `/requests/${requestA}/stop`,
        );
        assert.equal(stopped.status, 200);
        assert.equal(stopped.body.status, "STOPPED");
        const again = await call<RequestDto>(platform, user, "POST", `/requests/${requestA}/stop`);
        assert.equal(again.body.stopped_at, stopped.body.stopped_at);
        assert.equal(
          (await call(platform, user, "POST", `/requests/${requestD}/stop`)).status,
          403,
        );
        const byAdmin = await call<RequestDto>(
          platform,
          admin,
          "POST",
          `/requests/${requestD}/stop`,
        );
        assert.equal(byAdmin.body.status, "STOPPED");
        assert.equal((await start(user, a!, 5)).status, 201, "the node is free again");
        const mine = await call<RequestDto[]>(platform, user, "GET", `/requests?node_id=${a!.id}`);
        assert.deepEqual(mine.body.map((r) => r.status), ["RUNNING", "STOPPED"]);
        await call(platform, user, "POST", `/requests/${mine.body[0]!.id}/stop`);
      });

      await t.step(
        "the values endpoint serves the 20-s values of the request's window",
        async () => {
          const started = await start(user, h!, 5);
          assert.equal(started.status, 201);
          const from = Date.parse(started.body.started_at);
          const inside = from - (from % 20_000) + 20_000;
          const credential = await credentialOf(h!);
          await sendBatch(platform, credential, h!, inside - 40_000, () => 11);
          await sendBatch(platform, credential, h!, inside, (slot) => 20 + slot);
          const res = await call<RequestValuesDto>(
            platform,
            user,
            "GET",
            `/requests/${started.body.id}/values`,
          );
          assert.equal(res.status, 200);
          assert.equal(res.body.feeders.length, h!.feeders.length);
          for (const feeder of res.body.feeders) {
            assert.deepEqual(feeder.phases.map((p) => p.phase), ["L1", "L2", "L3"]);
            for (const phase of feeder.phases) {
              assert.deepEqual(phase.t, [inside], "the value before the start is not served");
              assert.deepEqual(phase.i, [20 + feeder.slot]);
              assert.deepEqual(phase.u, [230]);
            }
          }
          assert.equal(
            (await call(platform, other, "GET", `/requests/${started.body.id}/values`)).status,
            404,
          );
        },
      );

      let triggerG = "";
      await t.step("one automatic trigger per node; 330 for a second one", async () => {
        const settings = { delta_lv_a: 50, delta_mv_a: 20, duration_min: 5 };
        assert.equal(
          (await call(platform, user, "POST", "/triggers", { node_id: g!.id, ...settings })).status,
          403,
        );
        const created = await call<TriggerDto>(platform, admin, "POST", "/triggers", {
          node_id: g!.id,
          ...settings,
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        triggerG = created.body.id;
        const second = await call(platform, admin, "POST", "/triggers", {
          node_id: g!.id,
          ...settings,
        });
        assert.equal(second.status, 409);
        assert.equal(second.body.code, 330);
        for (
          const bad of [
            { ...settings, duration_min: 6 },
            { ...settings, duration_min: 120 },
            { delta_lv_a: 50, duration_min: 5 },
          ]
        ) {
          const res = await call(platform, admin, "POST", "/triggers", { node_id: h!.id, ...bad });
          assert.equal(res.status, 400, JSON.stringify(bad));
        }
        const updated = await call<TriggerDto>(platform, admin, "PUT", `/triggers/${triggerG}`, {
          ...settings,
          enabled: true,
        });
        assert.equal(updated.status, 200, "re-saving the enabled trigger is no conflict");
        const foreign = await call(platform, other, "POST", "/triggers", {
          node_id: g!.id,
          ...settings,
        });
        assert.equal(foreign.status, 404);
      });

      await t.step("a current step above the delta starts an automatic request", async () => {
        const { t0, slot } = await stepCurrent(platform, await credentialOf(g!), g!);
        const fired = await until("the trigger of G to fire", async () => {
          const res = await call<TriggerDto>(platform, user, "GET", `/triggers/${triggerG}`);
          return res.body.last_fire;
        });
        assert.equal(fired.status, "STARTED");
        const request = await call<RequestDto>(
          platform,
          user,
          "GET",
          `/requests/${fired.request_id}`,
        );
        assert.equal(request.body.kind, "AUTOMATIC");
        assert.equal(request.body.trigger_id, triggerG);
        assert.equal(request.body.node_id, g!.id);
        // 40 -> 90 A is exactly the delta and does not fire; 90 -> 141 A does.
        assert.equal(request.body.started_at, new Date(t0 + 20_000).toISOString());
        assert.equal(request.body.duration_min, 5);
        const values = await call<RequestValuesDto>(
          platform,
          user,
          "GET",
          `/requests/${fired.request_id}/values`,
        );
        const l1 = values.body.feeders.find((x) => x.slot === slot)!.phases[0]!;
        assert.deepEqual(l1.t, [t0 + 20_000, t0 + 40_000]);
        assert.deepEqual(l1.i, [90, 141]);
      });

      await t.step("a trigger fires FAILURE when another request runs on its node", async () => {
        const created = await call<TriggerDto>(platform, admin, "POST", "/triggers", {
          node_id: e!.id,
          delta_lv_a: 50,
          delta_mv_a: 20,
          duration_min: 1,
        });
        assert.equal(created.status, 201);
        await stepCurrent(platform, await credentialOf(e!), e!);
        const fired = await until("the trigger of E to fire", async () => {
          const res = await call<TriggerDto>(platform, user, "GET", `/triggers/${created.body.id}`);
          return res.body.last_fire;
        });
        assert.equal(fired.status, "FAILURE");
        assert.equal(fired.code, 331);
        assert.equal(fired.request_id, null);
        const onE = await call<RequestDto[]>(platform, user, "GET", `/requests?node_id=${e!.id}`);
        assert.deepEqual(onE.body.map((r) => r.kind), ["MANUAL"]);
      });

      await t.step("DELETE disables a trigger, which frees its node for a new one", async () => {
        const disabled = await call<TriggerDto>(platform, admin, "DELETE", `/triggers/${triggerG}`);
        assert.equal(disabled.status, 200);
        assert.equal(disabled.body.enabled, false);
        const again = await call(platform, admin, "POST", "/triggers", {
          node_id: g!.id,
          delta_lv_a: 80.5,
          delta_mv_a: 30,
          duration_min: 60,
        });
        assert.equal(again.status, 201);
        const listed = await call<TriggerDto[]>(
          platform,
          user,
          "GET",
          `/triggers?node_id=${g!.id}`,
        );
        assert.deepEqual(listed.body.map((x) => x.enabled), [false, true]);
      });
    } finally {
      await platform.close();
    }
  },
});

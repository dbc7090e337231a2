/**
 * "Add values…" on a profile's point list (POST /scm/profiles/{id}/points/add) against the real
 * database: P and the frequency added to a generated list for chosen nodes, existing points
 * untouched (address, activation, order), new points on the next free addresses after their
 * node's points, the same values not added twice, unknown nodes and feeders and the profile's
 * maximum refused with field errors, and the running connector answering the new addresses in a
 * general interrogation (an IEC 104 master written for the tests).
 */
import assert from "node:assert/strict";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import type {
  AddedPointsDto,
  PointListDto,
  ProfileDto,
  ScadaNodeDto,
} from "../../modules/scada/contract.ts";
import { SCADA_LIMITS } from "../../modules/scada/contract.ts";
import { COT, TYPE, U } from "../../modules/scada/iec104_codec.ts";
import { interrogation, readMonitoring } from "../../modules/scada/iec104_master.ts";
import { freePort } from "../helpers/acknowledged.ts";
import { isAsdu, isU, TestMaster } from "../helpers/iec104_master.ts";
import { databaseKinds, startTestPlatform } from "../helpers/platform.ts";

const [USER, ADMIN] = DEMO_USERS;
const CA = 9;

for (const kind of databaseKinds()) {
  Deno.test({
    name: `scada on ${kind}: values added to a point list without regenerating it`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind);
      let master: TestMaster | undefined;
      try {
        const admin = (await platform.login(ADMIN.email, ADMIN.password)).access_token;
        const user = (await platform.login(USER.email, USER.password)).access_token;
        const call = async (method: string, path: string, body?: unknown, token = admin) => {
          const res = await platform.request(path, {
            method,
            token,
            ...(body === undefined
              ? {}
              : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
          });
          const text = await res.text();
          return { status: res.status, body: text ? JSON.parse(text) : null };
        };
        const issues = (body: { params: { issues: { path: string; key: string }[] } }) =>
          body.params.issues.map((i) => `${i.path}:${i.key}`);
        const port = freePort();
        const created = await call("POST", "/scm/profiles", {
          name: "Add values",
          ip_address: "127.0.0.1",
          port,
          asdu: CA,
          activated: true,
          timers: { t0: 30, t1: 5, t2: 2, t3: 20, k: 12, w: 8 },
        });
        assert.equal(created.status, 201);
        const profile = created.body as ProfileDto;
        const generated = (await call("POST", `/scm/profiles/${profile.id}/points/generate`))
          .body as PointListDto;
        // The user switches one point off and moves the last point first: both must stay.
        const edited = [generated.points.at(-1)!, ...generated.points.slice(0, -1)]
          .map((p, k) => ({ ...p, activated: k !== 1 }));
        const saved = await call("PUT", `/scm/profiles/${profile.id}/points`, {
          points: edited.map(({ ioa, node_id, feeder_id, quantity, phase, activated }) => ({
            ioa,
            node_id,
            feeder_id,
            quantity,
            phase,
            activated,
          })),
        });
        assert.equal(saved.status, 200);
        const before = (saved.body as PointListDto).points;
        const highest = Math.max(...before.map((p) => p.ioa));

        const nodes = (await call("GET", "/scm/nodes")).body as ScadaNodeDto[];
        const withFeeders = nodes.filter((n) => n.feeders.length >= 2);
        const [a, b] = withFeeders;
        assert.ok(a && b, "two nodes with LV feeders in the demo grid");
        let added!: AddedPointsDto;

        await t.step("the nodes points may name; admins of the connector only", async () => {
          assert.equal(new Set(nodes.map((n) => n.id)).size, nodes.length);
          assert.deepEqual(
            nodes.map((n) => n.id),
            [...new Set(generated.points.map((p) => p.node_id))],
            "every node, in feeder order",
          );
          assert.ok(a.name.includes(" / "));
          assert.equal((await call("GET", "/scm/nodes", undefined, user)).status, 403);
          const refused = await call(
            "POST",
            `/scm/profiles/${profile.id}/points/add`,
            { quantities: ["P"], node_ids: [a.id] },
            user,
          );
          assert.equal(refused.status, 403);
        });

        await t.step("refused: no values, no nodes, unknown nodes and feeders", async () => {
          const empty = await call("POST", `/scm/profiles/${profile.id}/points/add`, {
            quantities: [],
            node_ids: [],
          });
          assert.equal(empty.status, 400);
          assert.deepEqual(issues(empty.body), [
            "quantities:validation.required",
            "node_ids:validation.required",
          ]);
          const unknown = await call("POST", `/scm/profiles/${profile.id}/points/add`, {
            quantities: ["P"],
            node_ids: [a.id, "no-such-node"],
            feeder_ids: [b.feeders[0]!.id],
          });
          assert.equal(unknown.status, 400);
          assert.deepEqual(issues(unknown.body), [
            "node_ids.1:grid.elementNotFound",
            "feeder_ids.0:grid.elementNotFound",
          ]);
          const missing = await call("POST", "/scm/profiles/no-such-profile/points/add", {
            quantities: ["P"],
            node_ids: [a.id],
          });
          assert.equal(missing.status, 404);
          const after = (await call("GET", `/scm/profiles/${profile.id}/points`)).body;
          assert.deepEqual(after.points, before, "nothing written by a refusal");
        });

        await t.step("P per phase and f added: existing points untouched", async () => {
          const res = await call("POST", `/scm/profiles/${profile.id}/points/add`, {
            quantities: ["FREQUENCY", "P"],
            node_ids: [b.id, a.id],
            feeder_ids: null,
          });
          assert.equal(res.status, 200);
          added = res.body as AddedPointsDto;
          const want = 2 * 1 + 3 * (a.feeders.length + b.feeders.length);
          assert.equal(added.added, want);
          assert.equal(added.points.length, before.length + want);
          const fresh = added.points.filter((p) => !before.some((q) => q.ioa === p.ioa));
          assert.deepEqual(
            fresh.map((p) => p.ioa),
            Array.from({ length: want }, (_, k) => highest + 1 + k),
            "the next free addresses, in list order",
          );
          assert.deepEqual(
            added.points.filter((p) => before.some((q) => q.ioa === p.ioa)),
            before,
            "existing points: same address, activation and order",
          );
          for (const node of [a, b]) {
            const at = added.points.map((p) => p.node_id);
            const last = at.lastIndexOf(node.id);
            const firstNew = added.points.findIndex((p) =>
              p.node_id === node.id && !before.some((q) => q.ioa === p.ioa)
            );
            const lastOld = before.map((p) => p.node_id).lastIndexOf(node.id);
            assert.equal(
              added.points[firstNew - 1]!.ioa,
              before[lastOld]!.ioa,
              "a node's new points follow its last point",
            );
            assert.ok(last > firstNew);
          }
          assert.ok(fresh.every((p) => p.known && p.activated));
          assert.deepEqual(
            fresh.filter((p) => p.node_id === a.id).map((p) => [p.quantity, p.feeder_id, p.phase]),
            [
              ...a.feeders.flatMap((f) => [1, 2, 3].map((ph) => ["P", f.id, ph])),
              ["FREQUENCY", null, null],
            ],
          );
          const stored = (await call("GET", `/scm/profiles/${profile.id}/points`)).body;
          assert.deepEqual(stored.points, added.points);
        });

        await t.step("the same values again add nothing; chosen feeders only", async () => {
          const again = await call("POST", `/scm/profiles/${profile.id}/points/add`, {
            quantities: ["P", "FREQUENCY"],
            node_ids: [a.id],
          });
          assert.equal(again.status, 200);
          assert.equal(again.body.added, 0);
          const q = await call("POST", `/scm/profiles/${profile.id}/points/add`, {
            quantities: ["Q"],
            node_ids: [a.id],
            feeder_ids: [a.feeders[1]!.id],
          });
          assert.equal(q.body.added, 3);
          const qs = (q.body as AddedPointsDto).points.filter((p) => p.quantity === "Q");
          assert.deepEqual(qs.map((p) => [p.feeder_id, p.phase]), [
            [a.feeders[1]!.id, 1],
            [a.feeders[1]!.id, 2],
            [a.feeders[1]!.id, 3],
          ]);
          added = q.body;
        });

        await t.step("the whole grid's values at once: addresses stay unique", async () => {
          const many = await call("POST", `/scm/profiles/${profile.id}/points/add`, {
            quantities: ["U", "I", "P", "Q"],
            node_ids: nodes.map((n) => n.id),
          });
          assert.equal(many.status, 200);
          const list = (many.body as AddedPointsDto).points;
          assert.equal(new Set(list.map((p) => p.ioa)).size, list.length);
          added = many.body;
        });

        await t.step("refused beyond the profile's 60,000 points, nothing written", async () => {
          const other = (await call("POST", "/scm/profiles", {
            name: "Full profile",
            ip_address: "127.0.0.2",
            port: freePort(),
            asdu: CA + 1,
          })).body as ProfileDto;
          const full = Array.from({ length: SCADA_LIMITS.pointsMax - 1 }, (_, k) => ({
            ioa: k + 1,
            node_id: a.id,
            quantity: "NODE_STATE",
          }));
          assert.equal(
            (await call("PUT", `/scm/profiles/${other.id}/points`, { points: full })).status,
            200,
          );
          const over = await call("POST", `/scm/profiles/${other.id}/points/add`, {
            quantities: ["U"],
            node_ids: [a.id],
          });
          assert.equal(over.status, 400);
          assert.deepEqual(over.body.params.issues, [{
            path: "quantities",
            key: "validation.scadaPointsMax",
            params: { max: SCADA_LIMITS.pointsMax, count: SCADA_LIMITS.pointsMax + 2 },
          }]);
          const kept = (await call("GET", "/scm/profiles")).body as ProfileDto[];
          assert.equal(
            kept.find((p) => p.id === other.id)!.point_count,
            SCADA_LIMITS.pointsMax - 1,
          );
        });

        await t.step("the running connector answers the new addresses in a GI", async () => {
          await platform.services.scada.connector.settled();
          master = await TestMaster.connect({ port });
          master.u(U.STARTDT_ACT);
          await master.next(isU(U.STARTDT_CON), 5000);
          const since = master.log.length;
          master.send(interrogation(CA));
          await master.next(isAsdu(TYPE.C_IC_NA_1, COT.ACTIVATION_TERM), 10_000, since);
          const data = master.asdus(since).filter((x) => x.cause === COT.INTERROGATED_STATION);
          const ioas = new Set(data.flatMap((x) => readMonitoring(x).map((v) => v.ioa)));
          const activated = added.points.filter((p) => p.activated).map((p) => p.ioa);
          assert.deepEqual([...ioas].sort((x, y) => x - y), activated.sort((x, y) => x - y));
        });
      } finally {
        await master?.close();
        await platform.close();
      }
    },
  });
}

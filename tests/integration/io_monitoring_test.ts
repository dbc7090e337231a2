/**
 * IO monitoring (iom) through the real HTTP stack on DuckDB and PGlite (and PostgreSQL with
 * TEST_PG_ADMIN_URL): the electrical works with their active I/O modules and newest values, the
 * history with a gap and the period codes, isolation (403 without the application or the role,
 * 404 for a foreign electrical work), and a digital state change that becomes exactly one
 * IO_MONITORING notification per user who enabled it.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import type {
  IoElectricalWorksDto as IoElectricalWorksAnswer,
  IoHistoryDto as IoHistoryAnswer,
} from "../../modules/io_monitoring/mod.ts";
import type { NotificationPageDto as NotificationPage } from "../../modules/notifications/mod.ts";
import {
  databaseKinds,
  decodeClaims,
  startTestPlatform,
  type TestPlatform,
} from "../helpers/platform.ts";

const [USER, , , , OPERATOR] = DEMO_USERS;
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A batch of I/O records (door DI on module 1, temperature AI on module 3) and one measurement. */
function batch(id: string, windows: { ts: number; door?: number; ma?: number }[]) {
  const newest = Math.max(...windows.map((w) => w.ts));
  return {
    batch_id: id,
    measurements: [{ ts: iso(newest), feeder: 1, phase: "L1", u: 231, i: 40 }],
    io: windows.flatMap((w) => [
      ...(w.door === undefined
        ? []
        : [{ ts: iso(w.ts), module: 1, channel: 1, kind: "DI", value: w.door }]),
      ...(w.ma === undefined
        ? []
        : [{ ts: iso(w.ts), module: 3, channel: 1, kind: "AI", value: w.ma }]),
    ]),
  };
}

for (const kind of databaseKinds()) {
  Deno.test({
    name:
      `iom on ${kind}: electrical works, history with gaps, period codes, isolation, notifications`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform: TestPlatform = await startTestPlatform(kind);
      try {
        const user = (await platform.login(USER.email, USER.password)).access_token;
        const operator = (await platform.login(OPERATOR.email, OPERATOR.password)).access_token;
        const other = (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password)).access_token;
        const get = async (path: string, token = user) => {
          const res = await platform.request(path, { token });
          return { status: res.status, body: await res.json() };
        };
        const now = Date.now();
        const window = now - (now % 20_000) - 20_000;

        let works: IoElectricalWorksAnswer["electrical_works"] = [];
        await t.step("the demo's electrical works list their cells' active modules", async () => {
          const res = await get("/iom/electrical-works");
          assert.equal(res.status, 200);
          works = (res.body as IoElectricalWorksAnswer).electrical_works;
          assert.equal(works.length, 20);
          const modules = works[0]!.cells[0]!.modules;
          assert.deepEqual(
            modules.map((m) => [m.slot, m.name, m.module_type, m.system_type, m.size, m.unit]),
            [
              [1, "Station door", "DIGITAL_INPUT", "DRY_CONTACT", 2, ""],
              [2, "Boiler release", "DIGITAL_OUTPUT", "RELAY", 2, ""],
              [3, "Cabinet temperature", "ANALOG_INPUT", "4_20MA", 2, "mA"],
            ],
          );
          assert.deepEqual(modules[0]!.channels[0], {
            channel: 1,
            value: null,
            scaled: null,
            at: null,
            since: null,
          });
          // The demo's temperature sensor spans -20 to 80 °C over its 4-20 mA loop.
          assert.deepEqual(modules[2]!.scale, { min: -20, max: 80, unit: "°C" });
          assert.equal(modules[0]!.scale, null);
          assert.ok(works[0]!.key && works[0]!.name && Number.isFinite(works[0]!.latitude));
        });

        const work = works[0]!;
        const cellId = work.cells[0]!.cell_id;
        const credential = await platform.services.cells.rotateCredential(cellId);
        const ingest = async (body: unknown) => {
          const res = await platform.request("/ingest/v1/batches", {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
            body: JSON.stringify(body),
          });
          const answer = await res.json() as { rejected: unknown[] };
          assert.equal(res.status, 200, JSON.stringify(answer));
          await platform.services.ioMonitoring.watcher.poke();
        };
        // Two hours of closed door and temperature, with 30 minutes without data in between.
        const history = [];
        for (let ts = window - 120 * MIN; ts < window; ts += 20_000) {
          if (ts >= window - 60 * MIN && ts < window - 30 * MIN) continue;
          history.push({ ts, door: 0, ma: ts < window - 60 * MIN ? 10 : 12.345 });
        }
        await ingest(batch("io-history", history));

        await t.step(
          "the newest values: digital state with since, analog to 2 decimals",
          async () => {
            const res = await get("/iom/electrical-works");
            const cell = (res.body as IoElectricalWorksAnswer).electrical_works
              .find((w) => w.key === work.key)!.cells[0]!;
            assert.deepEqual(cell.modules[0]!.channels[0], {
              channel: 1,
              value: 0,
              scaled: null,
              at: iso(window - 20_000),
              since: iso(window - 120 * MIN),
            });
            assert.equal(cell.modules[2]!.channels[0]!.value, 12.35);
            // 12.345 mA on 4-20 mA over -20..80 °C: 32.16 °C.
            assert.equal(cell.modules[2]!.channels[0]!.scaled, 32.16);
            assert.equal(cell.modules[0]!.channels[1]!.value, null, "channel 2 sends nothing");
            assert.equal(cell.last_data_at, iso(window - 20_000));
          },
        );

        await t.step("history: step series with a gap, analog values with nulls", async () => {
          const from = window - 150 * MIN;
          const res = await get(
            `/iom/electrical-works/${encodeURIComponent(work.key)}/history?from=${iso(from)}&to=${
              iso(window + 20_000)
            }`,
          );
          assert.equal(res.status, 200);
          const body = res.body as IoHistoryAnswer;
          assert.equal(body.resolution, "20s");
          const door = body.digital.find((d) => d.slot === 1 && d.channel === 1)!;
          assert.deepEqual(door.points.slice(0, 3), [
            { t: window - 120 * MIN, value: 0 },
            { t: window - 60 * MIN, value: null },
            { t: window - 30 * MIN, value: 0 },
          ]);
          assert.equal(door.points.length, 4);
          assert.equal(door.points[3]!.value, 0, "the state holds up to the end of the period");
          assert.ok(door.points[3]!.t >= window);
          const temp = body.analog.find((a) => a.slot === 3 && a.channel === 1)!;
          // Scaled onto the module's measuring range: 10 mA is 17.5 °C, 12.345 mA 32.16 °C.
          assert.deepEqual([temp.unit, temp.scaled], ["°C", true]);
          const at = (ms: number) => temp.mean[body.times.indexOf(ms)];
          assert.deepEqual(
            [
              at(window - 150 * MIN),
              at(window - 100 * MIN),
              at(window - 45 * MIN),
              at(window - 20 * MIN),
            ],
            [null, 17.5, null, 32.16],
          );
          const week = await get(
            `/iom/electrical-works/${work.key}/history?from=${iso(window - 7 * 86_400_000)}&to=${
              iso(window)
            }`,
          );
          assert.equal((week.body as IoHistoryAnswer).resolution, "10min");
          const times = (week.body as IoHistoryAnswer).times;
          const from7 = window - 7 * 86_400_000;
          assert.equal(times[0], from7 - (from7 % 600_000), "slots from `from` floored to 10 min");
          assert.ok(times.at(-1)! < window && times.at(-1)! + 600_000 >= window);
        });

        await t.step("periods out of range answer 401, 402 and 403; unknown keys 404", async () => {
          const history = (from: number, to: number, key = work.key) =>
            get(`/iom/electrical-works/${key}/history?from=${iso(from)}&to=${iso(to)}`);
          const code = async (p: Promise<{ status: number; body: unknown }>) => {
            const r = await p;
            return [r.status, (r.body as { code?: number; key: string }).code ?? r.body];
          };
          assert.deepEqual(await code(history(window, window)), [400, 401]);
          assert.deepEqual(await code(history(window - 367 * 86_400_000, window)), [400, 402]);
          assert.deepEqual(await code(history(window - 9 * MIN, window)), [400, 403]);
          const bad = await get(
            `/iom/electrical-works/${work.key}/history?from=x&to=${iso(window)}`,
          );
          assert.equal(bad.body.code, 401);
          const unknown = await history(window - MIN * 60, window, "no-such-work");
          assert.deepEqual([unknown.status, unknown.body.key], [404, "grid.elementNotFound"]);
        });

        await t.step(
          "403 without the role or the customer's application; foreign 404",
          async () => {
            assert.equal((await get("/iom/electrical-works", operator)).status, 403);
            const refused = await get("/iom/electrical-works", other);
            assert.deepEqual([refused.status, refused.body.key], [403, "common.forbidden"]);
            await platform.services.db.execute(sql`
            UPDATE customers.customers SET applications = array_append(applications, 'app:io-monitoring')
            WHERE auth_connection_name = 'sw-beispiel'`);
            // Written past the customers service: its tenant cache is told by hand.
            platform.services.customers.tenants.invalidate();
            const own = await get("/iom/electrical-works", other);
            assert.deepEqual([own.status, own.body.electrical_works], [200, []]);
            const foreign = await get(
              `/iom/electrical-works/${work.key}/history?from=${iso(window - 60 * MIN)}&to=${
                iso(window)
              }`,
              other,
            );
            assert.deepEqual([foreign.status, foreign.body.key], [404, "grid.elementNotFound"]);
          },
        );

        await t.step(
          "a door opening becomes exactly one notification per enabled user",
          async () => {
            await platform.services.db.execute(sql`
            UPDATE users.users SET user_metadata = jsonb_set(user_metadata, '{notification}',
              '{"apps": {"app:io-monitoring": true}}'::jsonb)`);
            const userId = String(decodeClaims(user).sub).split("|")[1]!;
            const list = async () =>
              ((await get(`/nsm/notifications/users/${userId}`)).body as NotificationPage)
                .notifications.filter((n) => n.type === "IO_MONITORING");
            assert.equal((await list()).length, 0, "the first sight of a state notifies nobody");
            await ingest(batch("io-open", [{ ts: window, door: 1, ma: 12.4 }]));
            const after = await list();
            assert.equal(after.length, 1);
            assert.equal(after[0]!.name, "IO_STATE_CHANGED");
            assert.equal(after[0]!.severity, "WARNING");
            assert.equal(after[0]!.gridwatch_id, cellId);
            assert.deepEqual(JSON.parse(after[0]!.info), {
              ew_name: work.name,
              ew_key: work.key,
              node_id: work.cells[0]!.node_id,
              node_name: work.cells[0]!.node_name,
              start_time: iso(window),
              state: "ON",
              status: "Station door",
              counter: 1,
            });
            // The same state again, and a rescan: nothing new.
            await ingest(batch("io-open-2", [{ ts: window + 20_000, door: 1 }]));
            await platform.services.ioMonitoring.watcher.scan();
            assert.equal((await list()).length, 1);
            const res = await get("/iom/electrical-works");
            const channel = (res.body as IoElectricalWorksAnswer).electrical_works
              .find((w) => w.key === work.key)!.cells[0]!.modules[0]!.channels[0]!;
            assert.deepEqual([channel.value, channel.since], [1, iso(window)]);
          },
        );
      } finally {
        await platform.close();
      }
    },
  });
}

/**
 * GET /evm/grid-monitoring/nodes/{id} and .../values from cell batches stored in DuckDB: the
 * state of each phase just below, at and just above the customer's over- and undervoltage and
 * overcurrent thresholds, the start time of a warning derived from the stored values (a gap
 * breaks the run), gaps answered as nulls at 20 s and at 10 minutes, the period codes and
 * 404 'This element of the grid was not found!' for unknown, foreign and wrong-level nodes.
 */
import assert from "node:assert/strict";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { allNodes, type NodeDto, readStructure } from "../../modules/grid/mod.ts";
import { databaseKinds, startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

interface NodeDetail {
  state: string;
  last_value_at: string | null;
  limits: { nominal_voltage_v: number; undervoltage_v: number; overvoltage_v: number };
  feeders: {
    id: string;
    nominal_current_a: number;
    state: string;
    phases: { phase: string; u: number | null; i: number | null; state: string | null }[];
  }[];
  warnings: { feeder_id: string; phase: string; state: string; since: string | null }[];
}
interface NodeValues {
  resolution: string;
  step_s: number;
  times: number[];
  feeders: {
    id: string;
    phases: { phase: string; u: (number | null)[]; i: (number | null)[] }[];
  }[];
}
interface ErrorBody {
  code?: number;
  key: string;
  params: Record<string, unknown>;
}

type Reading = { u: number; i: number } | null;

/** One batch of `node`'s cell: per timestamp and phase a reading (null: not sent). */
async function send(
  platform: TestPlatform,
  credential: string,
  node: NodeDto,
  times: number[],
  reading: (ts: number, phase: string, slot: number) => Reading,
  neutral = false,
) {
  const measurements = times.flatMap((ts) =>
    node.feeders.flatMap((f) =>
      [...["L1", "L2", "L3"], ...(neutral ? ["N"] : [])].flatMap((phase) => {
        const r = reading(ts, phase, f.slot);
        if (!r) return [];
        const ts_ = new Date(ts).toISOString();
        return [
          phase === "N"
            ? { ts: ts_, feeder: f.slot, phase, i: r.i }
            : { ts: ts_, feeder: f.slot, phase, u: r.u, i: r.i },
        ];
      })
    )
  );
  const res = await platform.request("/ingest/v1/batches", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
    body: JSON.stringify({ measurements }),
  });
  assert.equal(res.status, 200, await res.text());
}

for (const kind of databaseKinds()) {
  Deno.test({
    name: `grid monitoring nodes on ${kind}: states at the limits, warning start, gaps, errors`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind);
      try {
        const { cells, customers, gridStatus, aggregator } = platform.services;
        // Every request evaluates the values just sent (no reuse of a 20-s old evaluation).
        gridStatus.reuseMs = 0;
        const demo = (await customers.getByConnection("demo-ew"))!;
        const installed = await cells.listFor(demo.key, "INSTALLED");
        const measured = allNodes(await readStructure(platform.services.db, demo.key))
          .filter((n) => installed.some((c) => c.node_id === n.id) && n.feeders.length);
        const [a, b, c] = measured;
        assert.ok(a && b && c, "three measured demo nodes");
        const credentialOf = (node: NodeDto) =>
          cells.rotateCredential(installed.find((x) => x.node_id === node.id)!.id);

        // The batches go in before the first evaluation builds the topology (series exist).
        const now = Date.now();
        const last = now - (now % 20_000) - 20_000;
        const times = Array.from({ length: 90 }, (_, k) => last - (89 - k) * 20_000);
        const runStart = times[76]!;
        // A: L1 just below, L2 at, L3 above the overvoltage limit (253 V) from slot 60 on, with
        // L3 silent for slots 70-75 (2 minutes: a gap that breaks the run).
        await send(platform, await credentialOf(a), a, times, (ts, phase) => {
          const k = times.indexOf(ts);
          if (phase === "L1") return { u: 252.99, i: 40 };
          if (phase === "L2") return { u: 253, i: 40 };
          if (k >= 70 && k <= 75) return null;
          return { u: k >= 60 ? 253.01 : 230, i: 40 };
        }, true);
        // B: undervoltage limit 207 V, latest values only.
        await send(platform, await credentialOf(b), b, [last], (_, phase) => ({
          u: phase === "L1" ? 207.01 : phase === "L2" ? 207 : 206.99,
          i: 40,
        }));
        // C: overcurrent above 100 % of each feeder's nominal current.
        const inom = new Map(c.feeders.map((f) => [f.slot, f.nominal_current_a]));
        await send(platform, await credentialOf(c), c, [last], (_, phase, slot) => ({
          u: 230,
          i: inom.get(slot)! + (phase === "L1" ? -0.01 : phase === "L2" ? 0 : 0.01),
        }));

        const user = (await platform.login(DEMO_USERS[0].email, DEMO_USERS[0].password))
          .access_token;
        const admin = (await platform.login(DEMO_USERS[1].email, DEMO_USERS[1].password))
          .access_token;
        const put = await platform.request(`/csm/customers/${demo.key}/grid-monitoring-settings`, {
          method: "PUT",
          token: admin,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 10, overcurrent_pct: 100 },
          }),
        });
        assert.equal(put.status, 200, await put.text());
        const get = async <T>(path: string, token = user) => {
          const res = await platform.request(`/evm/grid-monitoring${path}`, { token });
          return { status: res.status, body: await res.json() as T };
        };
        const detail = async (node: NodeDto) => {
          const res = await get<NodeDetail>(`/nodes/${node.id}?level=LV`);
          assert.equal(res.status, 200, JSON.stringify(res.body));
          return res.body;
        };
        const phaseStates = (d: NodeDetail) =>
          d.feeders[0]!.phases.filter((p) => p.phase !== "N").map((p) => p.state);

        await t.step("voltage states just below, at and just above the limits", async () => {
          const da = await detail(a);
          assert.deepEqual(da.limits, {
            nominal_voltage_v: 230,
            undervoltage_v: 207,
            overvoltage_v: 253,
            overcurrent_pct: 100,
          });
          assert.deepEqual(phaseStates(da), ["OK", "OK", "OVERVOLTAGE"]);
          assert.equal(da.state, "OVERVOLTAGE");
          assert.deepEqual(da.feeders[0]!.phases.map((p) => p.phase), ["L1", "L2", "L3", "N"]);
          assert.equal(da.feeders[0]!.phases[2]!.u, 253.01);
          assert.equal(da.feeders[0]!.phases[3]!.state, null, "N carries current, no state");
          const db = await detail(b);
          assert.deepEqual(phaseStates(db), ["OK", "OK", "UNDERVOLTAGE"]);
          assert.equal(db.feeders[0]!.phases[1]!.u, 207);
        });

        await t.step(
          "current state just below, at and just above the overcurrent limit",
          async () => {
            const dc = await detail(c);
            for (const f of dc.feeders) {
              assert.deepEqual(
                f.phases.map((p) => p.state),
                ["OK", "OK", "OVERCURRENT"],
                `feeder ${f.id} at ${f.nominal_current_a} A nominal`,
              );
            }
            assert.equal(dc.state, "OVERCURRENT");
          },
        );

        await t.step("a warning starts at the first value of its unbroken run", async () => {
          const da = await detail(a);
          assert.equal(da.warnings.length, a.feeders.length, "L3 of every feeder");
          for (const w of da.warnings) {
            assert.equal(w.phase, "L3");
            assert.equal(w.state, "OVERVOLTAGE");
            assert.equal(w.since, new Date(runStart).toISOString(), "after the 2-minute gap");
          }
          const db = await detail(b);
          assert.equal(db.warnings[0]!.since, new Date(last).toISOString());
        });

        await t.step("20-s values with gaps as nulls, 10-minute means beyond a day", async () => {
          const from = new Date(times[0]!).toISOString();
          const to = new Date(now).toISOString();
          const res = await get<NodeValues>(
            `/nodes/${a.id}/values?level=LV&from=${from}&to=${to}`,
          );
          assert.equal(res.status, 200, JSON.stringify(res.body));
          const v = res.body;
          assert.equal(v.resolution, "20s");
          assert.equal(v.step_s, 20);
          assert.equal(v.times[0], times[0]);
          const phase = (name: string) => v.feeders[0]!.phases.find((p) => p.phase === name)!;
          const at = (ts: number) => v.times.indexOf(ts);
          assert.equal(phase("L1").u[at(times[70]!)], 252.99);
          assert.equal(phase("L3").u[at(times[70]!)], null, "the gap is a gap");
          assert.equal(phase("L3").u[at(times[76]!)], 253.01);
          assert.equal(phase("L3").u[at(times[59]!)], 230);
          assert.deepEqual(phase("N").u.filter((x) => x !== null), [], "N has no voltage");
          assert.equal(phase("N").i[at(times[10]!)], 40);

          await aggregator.flush();
          const twoDays = await get<NodeValues>(
            `/nodes/${a.id}/values?level=LV&from=${
              new Date(now - 2 * 86_400_000).toISOString()
            }&to=${to}`,
          );
          assert.equal(twoDays.status, 200, JSON.stringify(twoDays.body));
          assert.equal(twoDays.body.resolution, "10min");
          const l1 = twoDays.body.feeders[0]!.phases[0]!.u;
          assert.equal(l1[0], null, "nothing was stored two days ago");
          assert.ok(l1.slice(-4).some((x) => x !== null && Math.abs(x - 252.99) < 0.01));
          // The default period is the last 24 h at 20 s.
          const day = await get<NodeValues>(`/nodes/${a.id}/values?level=LV`);
          assert.equal(day.body.resolution, "20s");
          assert.ok(day.body.times.length >= 4320);
        });

        await t.step("period codes 401, 403 and the 7-day limit", async () => {
          const bad = async (query: string) => {
            const res = await get<ErrorBody>(`/nodes/${a.id}/values?level=LV&${query}`);
            assert.equal(res.status, 400, query);
            return res.body;
          };
          const iso = (ms: number) => new Date(ms).toISOString();
          assert.equal((await bad("from=yesterday")).code, 401);
          assert.equal((await bad(`from=${iso(now)}&to=${iso(now - 60_000)}`)).code, 401);
          assert.equal((await bad(`from=${iso(now - 5 * 60_000)}&to=${iso(now)}`)).code, 403);
          const long = await bad(`from=${iso(now - 8 * 86_400_000)}&to=${iso(now)}`);
          assert.equal(long.key, "monitoring.valuesPeriodTooLong");
          assert.deepEqual(long.params, { days: 7 });
          const week = await get<NodeValues>(
            `/nodes/${a.id}/values?level=LV&from=${iso(now - 7 * 86_400_000)}&to=${iso(now)}`,
          );
          assert.equal(week.status, 200, "exactly 7 days is allowed");
        });

        await t.step("unknown, foreign and wrong-level nodes are not found", async () => {
          const other = (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password))
            .access_token;
          for (
            const [path, token] of [
              [`/nodes/${crypto.randomUUID()}?level=LV`, user],
              [`/nodes/${a.id}?level=LV`, other],
              [`/nodes/${a.id}/values?level=LV`, other],
              [`/nodes/${a.id}?level=MV`, user],
            ] as const
          ) {
            const res = await get<ErrorBody>(path, token);
            assert.equal(res.status, 404, path);
            assert.equal(res.body.key, "grid.elementNotFound");
          }
          const anonymous = await platform.request(`/evm/grid-monitoring/nodes/${a.id}?level=LV`);
          assert.equal(anonymous.status, 401);
          await anonymous.body?.cancel();
        });
      } finally {
        await platform.close();
      }
    },
  });
}

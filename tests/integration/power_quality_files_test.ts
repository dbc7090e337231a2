/**
 * Power-quality reports, the week with flagged and missing intervals, the PDF read back with
 * pdftotext (French and Ukrainian: verdict, N values, the EN 50160 dip and swell tables, the
 * events, the customer's formats and time zone, the logo), the streamed CSV, and the codes the
 * platform raises at run time: 508, 510 (PQ_MAX_REPORTS), 514.
 *
 * Week C, the last full ISO week, TS Seeblick feeder 1, Un = 230 V, one 20-s value per phase and
 * slot (the slot's RMS), one PQ record per phase and slot, sent through POST /ingest/v1/batches
 * (protocol 2) with the cell's voltage events:
 * - slots 100-119 (20) are not sent: missing;
 * - E1, a dip to 62 % for 150 ms inside slot 200 (table cell 70-40 / 10-200 ms): slot 200 is
 *   flagged; its L1 is 180 V (below -15 %: it would be N1 and N2 if it counted);
 * - E2, a dip to 85 % for 300 ms from 0.1 s before the end of slot 400 (cell 90-80 / 0.2-0.5 s):
 *   slots 400 and 401 are flagged;
 * - E3, a swell to 115 % for 2 s in slot 600 (cell 120-110 / 0.5-5 s): slot 600 is flagged; its
 *   L2 is 260 V (above +10 %);
 * - L1 is 200 V (-13 %: outside +/-10 %, inside -15 %) in 40 other slots (700, 707, .. 973).
 * Hence every phase: flagged 4, missing 20, N = 1,008 - 20 - 4 = 984; L1: N1 = 40, N2 = 0,
 * 40 / 984 = 4.07 % <= 5 %: Passed (only because slot 200 is left out: counted, its N2 = 1 would
 * fail the week); L2, L3: N1 = 0. THD and unbalance: N = 984, flagged 4, missing 20.
 * The report is Passed; the events tables hold 1 in 70-40 x 10-200 ms, 1 in 90-80 x 0.2-0.5 s
 * and 1 swell in 120-110 x 0.5-5 s.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { SLOT_GRACE_MS, SLOT_MS } from "../../core/mod.ts";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import type { StationGroupDto } from "../../modules/grid/mod.ts";
import type { ReportDetailDto } from "../../modules/power_quality/contract.ts";
import { reports } from "../../modules/power_quality/schema.ts";
import { databaseKinds, startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();
const [USER, ADMIN] = DEMO_USERS;

function mondayOf(t: number): number {
  const midnight = Math.floor(t / DAY) * DAY;
  return midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * DAY;
}

/** A 2 x 1 PNG (red, blue), as the settings page would upload it. */
const LOGO = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGM4IScnZ3MCAAdfAieyfXRcAAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

async function tool(name: string, args: string[], pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gw-pq-"));
  try {
    await writeFile(join(dir, "r.pdf"), pdf);
    // pdftotext writes to "-" (stdout); pdfimages -list prints without an output root.
    const to = name === "pdftotext" ? ["-"] : [];
    const out = await new Deno.Command(name, { args: [...args, join(dir, "r.pdf"), ...to] })
      .output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Sends week C (see the file's comment) day by day, then closes the slots. */
async function sendWeekC(platform: TestPlatform, cellId: string, week: number): Promise<void> {
  const credential = await platform.services.cells.rotateCredential(cellId);
  const slot = (k: number) => week + k * SLOT_MS;
  const missing = new Set(Array.from({ length: 20 }, (_, k) => slot(100 + k)));
  const low = new Set(Array.from({ length: 40 }, (_, k) => slot(700 + k * 7)));
  const trace = (v: number) => ({ interval_ms: 10, values_pct: [100, v, v, 100] });
  const events = [
    ["E1", "DIP", slot(200) + 120_000, 150, 62, "L1"],
    ["E2", "DIP", slot(401) - 100, 300, 85, "L2"],
    ["E3", "SWELL", slot(600) + 60_000, 2_000, 115, "L2"],
  ] as const;
  const h = Array.from({ length: 24 }, () => 0.1);
  for (let day = week; day < week + WEEK; day += DAY) {
    const measurements: unknown[] = [];
    const pq: unknown[] = [];
    for (let t = day; t < day + DAY; t += SLOT_MS) {
      if (missing.has(t)) continue;
      for (const phase of ["L1", "L2", "L3"]) {
        let u = 230;
        if (phase === "L1" && low.has(t)) u = 200;
        if (phase === "L1" && t === slot(200)) u = 180;
        if (phase === "L2" && t === slot(600)) u = 260;
        measurements.push({ ts: iso(t), feeder: 1, phase, u, i: 50, thd_u: 2, f: 50 });
        pq.push({ slot: iso(t), feeder: 1, phase, h_u: h, pst: 0.4, plt: 0.5, unbalance: 0.5 });
      }
    }
    const dayEvents = events.filter(([, , start]) => start >= day && start < day + DAY)
      .map(([id, type, start, ms, extreme, phase]) => ({
        id,
        type,
        start: iso(start),
        end: iso(start + ms),
        start_phase: phase,
        end_phase: phase,
        extreme_pct: extreme,
        delta_u_pct: null,
        rms_trace: trace(extreme),
      }));
    const res = await platform.request("/ingest/v1/batches", {
      method: "POST",
      headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
      body: JSON.stringify({
        protocol: 2,
        batch_id: crypto.randomUUID(),
        measurements,
        pq,
        events: dayEvents,
      }),
    });
    assert.equal(res.status, 200, await res.text());
  }
  await platform.services.aggregator.flush(Date.now() + SLOT_MS + SLOT_GRACE_MS);
}

for (const kind of databaseKinds()) {
  Deno.test({
    name: `power-quality reports on ${kind}: flagged and missing week, PDF text, CSV, 508 510 514`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind, { PQ_MAX_REPORTS: "6" });
      try {
        const user = (await platform.login(USER.email, USER.password)).access_token;
        const admin = (await platform.login(ADMIN.email, ADMIN.password)).access_token;
        const call = async <T>(method: string, path: string, body?: unknown, token = user) => {
          const res = await platform.request(path, {
            method,
            token,
            ...(body === undefined
              ? {}
              : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
          });
          const text = await res.text();
          return {
            status: res.status,
            body: (text ? JSON.parse(text) : {}) as T & { code?: number; params?: never },
          };
        };
        const finished = async (key: string) => {
          for (let i = 0; i < 600; i++) {
            const { body } = await call<ReportDetailDto>("GET", `/pqm/reports/${key}`);
            if (body.status !== "SCHEDULED" && body.status !== "IN_PROGRESS") return body;
            await new Promise((r) => setTimeout(r, 100));
          }
          throw new Error(`Report ${key} did not finish`);
        };
        const pdfOf = async (key: string) => {
          const res = await platform.request(`/pqm/reports/${key}/pdf`, { token: user });
          assert.equal(res.status, 200);
          return new Uint8Array(await res.arrayBuffer());
        };

        const customer = (await platform.services.customers.getByConnection("demo-ew"))!;
        const structure = await (await platform.request(
          "/gsm/grid-structure/hv-mv-station-groups",
          { token: user },
        )).json() as StationGroupDto[];
        const nodes = structure.flatMap((g) =>
          g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
        );
        const station = nodes.find((n) => n.name === "TS Seeblick")!;
        const feeder1 = station.feeders.find((f) => f.slot === 1)!;
        const installed = await platform.services.cells.listFor(customer.key, "INSTALLED");
        const cellOf = (nodeId: string) => installed.find((c) => c.node_id === nodeId)?.id;
        const weekC = mondayOf(Date.now()) - WEEK;
        await sendWeekC(platform, cellOf(station.id)!, weekC);
        // The utility's logo (Global Settings), for the cover.
        const logo = await platform.request(`/csm/customers/${customer.key}/logo`, {
          method: "PUT",
          token: admin,
          headers: { "content-type": "image/png" },
          body: LOGO,
        });
        assert.equal(logo.status, 200, await logo.text());

        const create = (body: Record<string, unknown>) =>
          call<{ key: string; status: string }>("POST", "/pqm/reports", {
            language: "en",
            node: station.id,
            feeders: [feeder1.id],
            standard: "EN50160",
            start: iso(weekC),
            period: "P7D",
            ...body,
          });

        let french = "";
        await t.step("week C: flagged and missing intervals counted as stated", async () => {
          const made = await create({ name: "Semaine C", language: "fr" });
          assert.equal(made.status, 202, JSON.stringify(made.body));
          const r = await finished(made.body.key);
          assert.equal(r.status, "COMPLETED", JSON.stringify(r.failure));
          assert.equal(r.result, "PASSED");
          const feeder = r.summary![0]!;
          const counts = (id: string, phase: string | null) => {
            const p = feeder.parameters.find((x) => x.parameter === id)!;
            const x = p.phases.find((y) => y.phase === phase)!;
            return [x.n, x.n1, x.n2, x.flagged, x.missing, x.passed];
          };
          assert.deepEqual(counts("voltage", "L1"), [984, 40, 0, 4, 20, true]);
          assert.deepEqual(counts("voltage", "L2"), [984, 0, 0, 4, 20, true]);
          assert.deepEqual(counts("voltage", "L3"), [984, 0, 0, 4, 20, true]);
          assert.deepEqual(counts("thd", "L1"), [984, 0, null, 4, 20, true]);
          assert.deepEqual(counts("unbalance", null), [984, 0, null, 4, 20, true]);
          assert.equal(feeder.flagged, 4);
          assert.equal(feeder.missing, 20);
          assert.equal(feeder.availability_pct, Math.round((984 / 1008) * 10000) / 100);
          french = await tool("pdftotext", ["-layout"], await pdfOf(made.body.key));
        });

        await t.step("the French PDF: verdict, N values, dip and swell tables, events", () => {
          assert.match(french, /Rapport de qualité de l'énergie/);
          assert.match(french, /Résultat: Conforme/);
          // Summary: L1 P95, max, N, N1, N2, flagged, missing, verdict.
          assert.match(
            french,
            /Écart de tension\s+L1\s+±10 % \(-15\/\+10\)\s+0\s+13\.04\s+984\s+40\s+0\s+4\s+20\s+Conforme/,
          );
          assert.match(french, /L2\s+0\s+0\s+984\s+0\s+0\s+4\s+20\s+Conforme/);
          assert.match(
            french,
            /Intervalles: 1'008\s+Valides \(N\): 984\s+Marqués: 4\s+Manquants: 20/,
          );
          assert.match(french, /Creux de tension : tension résiduelle u et durée t/);
          assert.match(french, /90 > u ≥ 80\s+0\s+1\s+0\s+0\s+0/);
          assert.match(french, /70 > u ≥ 40\s+1\s+0\s+0\s+0\s+0/);
          assert.match(french, /40 > u ≥ 5\s+0\s+0\s+0\s+0\s+0/);
          assert.match(french, /120 > u > 110\s+0\s+1\s+0/);
          assert.match(french, /Événements de tension \(EN 50160\): 3 · Creux 2 · Surtension 1/);
          // The list, oldest first, times in the customer's zone and formats (DD.MM.YYYY HH:mm).
          const local = (ms: number) => {
            const p = Object.fromEntries(
              new Intl.DateTimeFormat("en-GB", {
                timeZone: customer.default_timezone,
                hourCycle: "h23",
                year: "numeric",
                month: "2-digit",
                day: "2-digit",
                hour: "2-digit",
                minute: "2-digit",
                second: "2-digit",
              }).formatToParts(new Date(ms)).map((x) => [x.type, x.value]),
            );
            return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`;
          };
          const e1 = weekC + 200 * SLOT_MS + 120_000;
          assert.match(french, new RegExp(`${local(e1).replaceAll(".", "\\.")}:00\\.000\\s+Creux`));
          assert.match(french, /Surtension\s+L2\s+2 ?s\s+115 %/);
          assert.match(french, new RegExp(`Période\\s+${local(weekC).replaceAll(".", "\\.")}`));
          assert.match(french, /Fuseau horaire\s+Europe\/Zurich/);
          // Trends and probability curves of the five parameters.
          assert.match(french, /Évolutions et probabilité cumulée: Transformer/);
          for (
            const name of ["Écart de tension", "Écart de fréquence", "THD", "Papillotement Plt"]
          ) {
            assert.match(french, new RegExp(`${name} · Limite`));
          }
          assert.equal((french.match(/Probabilité cumulée/g) ?? []).length, 5);
        });

        await t.step("the Ukrainian PDF, with the utility's logo as its only image", async () => {
          const made = await create({ name: "Тиждень C", language: "uk" });
          assert.equal(made.status, 202, JSON.stringify(made.body));
          assert.equal((await finished(made.body.key)).result, "PASSED");
          const pdf = await pdfOf(made.body.key);
          const text = await tool("pdftotext", ["-layout"], pdf);
          assert.match(text, /Звіт про якість електроенергії/);
          assert.match(text, /Результат: Відповідає/);
          assert.match(text, /Провали напруги: залишкова напруга u і тривалість t/);
          assert.match(text, /Відхилення напруги\s+L1\s+.*984\s+40\s+0\s+4\s+20\s+Відповідає/);
          const images = (await tool("pdfimages", ["-list"], pdf)).trim().split("\n").slice(2);
          assert.equal(images.length, 1, images.join("\n"));
          assert.match(images[0]!, /^\s*1\s+0\s+image\s+2\s+1\s/);
        });

        await t.step("the CSV streams every interval, the missing ones empty", async () => {
          const made = await create({ name: "Week C csv" });
          await finished(made.body.key);
          const res = await platform.request(`/pqm/reports/${made.body.key}/csv`, { token: user });
          assert.equal(res.status, 200);
          assert.match(res.headers.get("content-type")!, /^text\/csv/);
          const [intervals, results] = (await res.text()).split("\r\n\r\n");
          const rows = intervals!.split("\r\n").slice(1);
          assert.equal(rows.length, 1008);
          const at = (k: number) => rows[k]!.split(",");
          assert.deepEqual(at(100).slice(2, 6), ["0", "", "", ""]); // missing
          assert.deepEqual(at(200).slice(2, 4), ["1", "180"]); // flagged, value kept
          assert.deepEqual(at(401).slice(2, 3), ["1"]);
          assert.deepEqual(at(700).slice(2, 4), ["0", "200"]);
          assert.match(
            results!,
            /Transformer 630 kVA,voltage,L1,10,95,0,13\.043,984,40,0,4,20,PASSED/,
          );
        });

        // Run-time codes: a report waits for its (future) period while the grid changes.
        const makeDue = async (key: string) => {
          await platform.services.db.update(reports).set({ dueAt: new Date() })
            .where(eq(reports.key, key));
          platform.services.powerQuality.runner.wake();
          return await finished(key);
        };
        const next = iso(mondayOf(Date.now()) + WEEK);

        await t.step("508: the report's feeder was removed from the node meanwhile", async () => {
          const added = await call<{ feeder: { id: string } } & { id?: string }>(
            "POST",
            `/gsm/nodes/${station.id}/feeders`,
            { name: "Spare", type: "LV_LINE", in_out: "OUT", nominal_current_a: 250 },
            admin,
          );
          assert.equal(added.status, 201, JSON.stringify(added.body));
          const spare = (await call<{ feeders: { id: string; name: string }[] }>(
            "GET",
            `/gsm/nodes/${station.id}`,
            undefined,
            admin,
          )).body.feeders.find((f) => f.name === "Spare")!;
          const made = await create({ name: "Spare next week", feeders: [spare.id], start: next });
          assert.equal(made.status, 202, JSON.stringify(made.body));
          const gone = await call(
            "DELETE",
            `/gsm/nodes/${station.id}/feeders/${spare.id}`,
            undefined,
            admin,
          );
          assert.equal(gone.status, 204, JSON.stringify(gone.body));
          const r = await makeDue(made.body.key);
          assert.equal(r.status, "FAILED");
          assert.deepEqual([r.failure?.code, r.failure?.key], [508, "pq.cellNotConfigured"]);
        });

        await t.step("514: the node was deleted while its report waited", async () => {
          const quiet = nodes.find((n) => n.id !== station.id && cellOf(n.id))!;
          const made = await create({
            name: "Quiet next week",
            node: quiet.id,
            feeders: [],
            start: next,
          });
          assert.equal(made.status, 202, JSON.stringify(made.body));
          const gone = await call("DELETE", `/gsm/nodes/${quiet.id}`, undefined, admin);
          assert.equal(gone.status, 200, JSON.stringify(gone.body));
          const r = await makeDue(made.body.key);
          assert.equal(r.status, "FAILED");
          assert.deepEqual([r.failure?.code, r.failure?.key], [514, "pq.nodeNotFound"]);
          // Asked again now, the node is unknown at creation: 506.
          const again = await create({ name: "Quiet again", node: quiet.id, start: next });
          assert.equal(again.body.code, 506);
        });

        await t.step(
          "510: PQ_MAX_REPORTS=6 reports per customer, then one is deleted",
          async () => {
            assert.equal((await create({ name: "Sixth", start: next })).status, 202);
            const refused = await create({ name: "Seventh", start: next });
            assert.equal(refused.status, 409);
            assert.equal(refused.body.code, 510);
            assert.deepEqual(refused.body.params, { limit: 6 });
            const page = await call<
              { limit: number; total: number; reports: { key: string; name: string }[] }
            >(
              "GET",
              "/pqm/reports",
            );
            assert.deepEqual([page.body.limit, page.body.total], [6, 6]);
            const sixth = page.body.reports.find((r) => r.name === "Sixth")!;
            await call("POST", `/pqm/reports/${sixth.key}/cancel`);
            assert.equal((await call("DELETE", `/pqm/reports/${sixth.key}`)).status, 204);
            assert.equal((await create({ name: "Seventh", start: next })).status, 202);
          },
        );
      } finally {
        await platform.close();
      }
    },
  });
}

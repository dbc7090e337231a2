/**
 * external_v1 through the real HTTP stack (PGlite, and PostgreSQL with TEST_PG_ADMIN_URL): the
 * pq API (a report of a 10-minute slot sent through the cell protocol, created, polled, its PDF
 * read by pdftotext and its CSV; events sent by a cell, paged, a recording asked and uploaded by
 * the simulator's cell and downloaded as a COMTRADE zip), fm's mapping status against the setup
 * screen's mapping, the served document against the official OpenAPI 3.1 schema, and the
 * contract walk: every operation of the document called with example bodies built from its
 * schemas, its documented success status and answer schema checked, and every documented error
 * status provoked where a generic way exists (401, 403, 404, 400, 429) or a scenario of the
 * screens' rules is listed below.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import {
  answerRecordingCommands,
  generateBatch,
  type SimCell,
  SLOT_GRACE_MS,
  SLOT_MS,
} from "../../core/mod.ts";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { answerValidator, exampleOf, openApi31Problems } from "../helpers/openapi_check.ts";
import {
  databaseKinds,
  startTestPlatform,
  TEST_BASE_URL,
  type TestPlatform,
} from "../helpers/platform.ts";

type Json = Record<string, unknown>;
type Op = Json & {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean; schema: Json }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
  security: Record<string, string[]>[];
};
type Doc = Json & { paths: Record<string, Record<string, Op>>; components: { schemas: Json } };

const ADMIN = DEMO_USERS[1]!;
const iso = (ms: number) => new Date(ms).toISOString();

interface Secret {
  client_id: string;
  client_secret: string;
}

async function createClient(
  platform: TestPlatform,
  admin: string,
  name: string,
  permission: string,
): Promise<Secret> {
  const res = await platform.request("/acm/clients", {
    method: "POST",
    token: admin,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, permission }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return await res.json() as Secret;
}

async function tokenOf(platform: TestPlatform, s: Secret, scope?: string): Promise<string> {
  const res = await platform.request("/oidc/token", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa(`${s.client_id}:${s.client_secret}`)}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials", ...(scope ? { scope } : {}) })
      .toString(),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { access_token: string }).access_token;
}

/** One 10-minute slot of a cell's feeder 1 (20-s values and PQ records) through the protocol. */
async function sendSlot(platform: TestPlatform, cellId: string, slot: number): Promise<void> {
  const credential = await platform.services.cells.rotateCredential(cellId);
  const measurements: unknown[] = [];
  const pq: unknown[] = [];
  for (const phase of ["L1", "L2", "L3"]) {
    for (let t = slot; t < slot + SLOT_MS; t += 20_000) {
      measurements.push({ ts: iso(t), feeder: 1, phase, u: 230, i: 50, thd_u: 2, f: 50 });
    }
    const h_u = Array.from({ length: 24 }, () => 0.1);
    pq.push({ slot: iso(slot), feeder: 1, phase, h_u, pst: 0.4, plt: 0.5, unbalance: 0.5 });
  }
  const res = await platform.request("/ingest/v1/batches", {
    method: "POST",
    headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
    body: JSON.stringify({ protocol: 2, batch_id: crypto.randomUUID(), measurements, pq }),
  });
  assert.equal(res.status, 200, await res.text());
  await platform.services.measurements.flush();
  await platform.services.aggregator.flush(Date.now() + SLOT_MS + SLOT_GRACE_MS);
}

/** A simulator cell of a demo cell that uploads the recordings asked for. */
async function simCell(platform: TestPlatform, cellId: string): Promise<SimCell> {
  return {
    cellId,
    credential: await platform.services.cells.rotateCredential(cellId),
    nodeKind: "LV_CABINET",
    nominalVoltage: 230,
    frequency: 50,
    electricalDistance: 0.5,
    feeders: [{ slot: 1, kind: "LV_LINE", nominalCurrentA: 250, profile: "residential" }],
    recordingBehaviour: "GOOD",
  };
}

/** The newest dip the simulator makes `cell` detect before `fromMs` (its recording exists). */
function simulatedDip(cell: SimCell, fromMs: number) {
  for (let w = fromMs - (fromMs % 20_000); w > fromMs - 20 * 86_400_000; w -= 20_000) {
    const event = generateBatch(cell, w, 42, 1)?.events?.find((e) => e.type === "DIP");
    if (event) return event;
  }
  throw new Error(`no simulated dip for ${cell.cellId}`);
}

async function pdfText(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gw-ext-pdf-"));
  try {
    await writeFile(join(dir, "r.pdf"), pdf);
    const out = await new Deno.Command("pdftotext", { args: [join(dir, "r.pdf"), "-"] }).output();
    return new TextDecoder().decode(out.stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

for (const kind of databaseKinds()) {
  Deno.test({
    name: `external_v1 on ${kind}: pq, fm mapping, OpenAPI 3.1 validity and the contract walk`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind, {
        SIMULATOR: "false",
        API_RATE_LIMIT_PER_MINUTE: "400",
      });
      try {
        const admin = (await platform.login(ADMIN.email, ADMIN.password)).access_token;
        const writer = await createClient(platform, admin, "Contract writer", "write");
        const reader = await createClient(platform, admin, "Contract reader", "read");
        const write = await tokenOf(platform, writer);
        const read = await tokenOf(platform, reader);
        const call = (method: string, path: string, token: string | null, body?: unknown) =>
          platform.request(`/external/v1${path}`, {
            method,
            ...(token ? { token } : {}),
            ...(body === undefined
              ? {}
              : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
          });

        type FleetCell = {
          id: string;
          type: string;
          node_id: string | null;
          mapping: {
            status: string;
            placed: boolean;
            node_id: string | null;
            complete: boolean;
            synchronized: boolean;
            feeders: { feeder_id: string; phases: { phase: string; probe: number }[] }[];
          };
        };
        const fleet = (await (await call("GET", "/fm/cells?page_size=500", read)).json())
          .items as FleetCell[];
        const installed = fleet.filter((c) => c.type === "INSTALLED" && c.node_id);
        assert.ok(installed.length >= 3, "the demo has installed cells");

        await t.step(
          "fm: each cell's placement and phase mapping, as the setup screen's",
          async () => {
            for (const cell of fleet) {
              assert.equal(cell.mapping.placed, cell.node_id !== null, cell.id);
              assert.equal(cell.mapping.node_id, cell.node_id);
              if (!cell.node_id) {
                assert.deepEqual(cell.mapping.feeders, []);
                assert.equal(cell.mapping.complete, false);
              }
            }
            const cell = installed[0]!;
            const screen = await (await platform.request(`/gsm/cells/${cell.id}/mapping`, {
              token: admin,
            })).json() as {
              feeders: { id: string; phases: Record<string, number | null> }[];
              synchronized: boolean;
            };
            assert.deepEqual(
              cell.mapping.feeders.map((f) => [f.feeder_id, f.phases]),
              screen.feeders.map((f) => [
                f.id,
                ["L1", "L2", "L3", "N"].flatMap((phase) =>
                  f.phases[phase] === null || f.phases[phase] === undefined
                    ? []
                    : [{ phase, probe: f.phases[phase] }]
                ),
              ]),
            );
            assert.equal(cell.mapping.synchronized, screen.synchronized);
            const setup = await (await platform.request(`/gsm/cells/${cell.id}`, { token: admin }))
              .json() as { mapping_status: string };
            assert.equal(cell.mapping.status, setup.mapping_status);
            const one = await (await call("GET", `/fm/cells/${cell.id}`, read)).json();
            assert.deepEqual(one.mapping, cell.mapping);
          },
        );

        // The pq data: a 10-minute slot of the first installed cell, events of a simulator cell.
        const reportCell = installed[0]!;
        const slot = Math.floor(Date.now() / SLOT_MS) * SLOT_MS - 3 * SLOT_MS;
        await sendSlot(platform, reportCell.id, slot);
        const sim = await simCell(platform, installed[1]!.id);
        const dip = simulatedDip(sim, Date.now() - 3_600_000);
        const extra = [0, 1].map((k) => ({
          ...dip,
          id: `ext-${k}`,
          start: iso(Date.parse(dip.start) - (k + 1) * 60_000),
          end: iso(Date.parse(dip.start) - (k + 1) * 60_000 + 200),
        }));
        const sent = await platform.request("/ingest/v1/batches", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${sim.credential}`,
          },
          body: JSON.stringify({
            batch_id: `ext-events-${Date.now()}`,
            measurements: [{
              ts: iso(Date.now() - (Date.now() % 20_000) - 40_000),
              feeder: 1,
              phase: "L1",
              u: 231,
              i: 4,
            }],
            events: [dip, ...extra],
          }),
        });
        assert.equal(sent.status, 200, await sent.text());
        const reportBody = (name: string) => ({
          name,
          language: "de",
          node: reportCell.node_id,
          start: iso(slot),
          period: "PT10M",
        });
        let reportKey = "";
        let eventKey = "";

        await t.step("pq reports: create (write scope), status, PDF and CSV, paging", async () => {
          const refused = await call("POST", "/pq/reports", read, reportBody("Ext report"));
          assert.equal(refused.status, 403);
          assert.equal((await refused.json()).key, "apiClients.insufficientScope");
          const created = await call("POST", "/pq/reports", write, reportBody("Ext report"));
          assert.equal(created.status, 202, await created.clone().text());
          const accepted = await created.json() as { key: string; status: string };
          assert.equal(accepted.status, "SCHEDULED");
          reportKey = accepted.key;
          const twice = await call("POST", "/pq/reports", write, reportBody("ext REPORT"));
          assert.equal(twice.status, 409);
          assert.equal(twice.headers.get("content-type"), "application/problem+json");
          const problem = await twice.json();
          assert.equal(problem.code, 501);
          assert.equal(problem.key, "pq.reportExists");
          const tooLong = await call("POST", "/pq/reports", write, {
            ...reportBody("Ext long"),
            period: "P400D",
          });
          assert.equal((await tooLong.json()).code, 402);
          const early = await call("GET", `/pq/reports/${reportKey}/pdf`, read);
          // Scheduled or already running: 409 (502) until completed.
          if (early.status !== 200) assert.equal((await early.json()).code, 502);
          let detail: { status: string; result: string | null; summary: unknown[] | null } = {
            status: "",
            result: null,
            summary: null,
          };
          for (let i = 0; i < 300; i++) {
            detail = await (await call("GET", `/pq/reports/${reportKey}`, read)).json();
            if (!["SCHEDULED", "IN_PROGRESS"].includes(detail.status)) break;
            await new Promise((r) => setTimeout(r, 100));
          }
          assert.equal(detail.status, "COMPLETED", JSON.stringify(detail));
          assert.ok(detail.summary?.length);
          const pdf = await call("GET", `/pq/reports/${reportKey}/pdf`, read);
          assert.equal(pdf.status, 200);
          assert.equal(pdf.headers.get("content-type"), "application/pdf");
          const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
          assert.match(text, /Ext report/);
          const csv = await call("GET", `/pq/reports/${reportKey}/csv`, read);
          assert.equal(csv.status, 200);
          assert.match(csv.headers.get("content-type") ?? "", /^text\/csv/);
          assert.ok((await csv.text()).split("\n").length > 2);
          await call("POST", "/pq/reports", write, reportBody("Ext second"));
          const page = await (await call("GET", "/pq/reports?page_size=1&page=2", read)).json();
          assert.deepEqual([page.page, page.page_size, page.total, page.items.length], [
            2,
            1,
            2,
            1,
          ]);
          assert.equal(page.items[0].key, reportKey, "newest first");
          const completed = await (await call("GET", "/pq/reports?status=COMPLETED", read)).json();
          assert.deepEqual(completed.items.map((r: { key: string }) => r.key), [reportKey]);
        });

        await t.step("pq events: paged list, detail, recording asked and downloaded", async () => {
          const node = installed[1]!.node_id!;
          const page = await (await call("GET", `/pq/events?node=${node}&page_size=2`, read))
            .json();
          assert.equal(page.total, 3);
          assert.equal(page.items.length, 2);
          assert.equal(page.page_size, 2);
          const second = await (await call(
            "GET",
            `/pq/events?node=${node}&page_size=2&page=2`,
            read,
          )).json();
          assert.equal(second.items.length, 1);
          const all = [...page.items, ...second.items] as { key: string; event_id: string }[];
          eventKey = all.find((e) => e.event_id === dip.id)!.key;
          const detail = await (await call("GET", `/pq/events/${eventKey}`, read)).json();
          assert.equal(detail.event.event_id, dip.id);
          assert.ok(detail.trace === null || Array.isArray(detail.trace.values_pct));
          const badRange = await call(
            "GET",
            `/pq/events?from=${iso(slot)}&to=${iso(slot - 1)}`,
            read,
          );
          assert.equal(badRange.status, 400);
          assert.equal((await badRange.json()).params.issues[0].key, "validation.endBeforeStart");
          // An unknown parameter is refused, as on the other lists (not silently ignored).
          assert.equal((await call("GET", `/pq/events?nod=${node}`, read)).status, 400);
          assert.equal((await call("POST", `/pq/events/${eventKey}/recording`, read)).status, 403);
          const asked = await call("POST", `/pq/events/${eventKey}/recording`, write);
          assert.equal(asked.status, 202);
          assert.deepEqual(await asked.json(), { status: "REQUESTED" });
          assert.equal((await call("GET", `/pq/events/${eventKey}/recording`, read)).status, 404);
          const cellFetch = ((url: string | URL | Request, init?: RequestInit) =>
            Promise.resolve(platform.app.fetch(new Request(url, init)))) as typeof fetch;
          await answerRecordingCommands({
            baseUrl: TEST_BASE_URL,
            cell: sim,
            seed: 42,
            fetch: cellFetch,
          });
          const state = (await (await call("GET", `/pq/events/${eventKey}`, read)).json()).event
            .recording;
          assert.equal(state.status, "DOWNLOADED", JSON.stringify(state));
          const zip = await call("GET", `/pq/events/${eventKey}/recording`, read);
          assert.equal(zip.status, 200);
          assert.equal(zip.headers.get("content-type"), "application/zip");
          const files = Object.keys(unzipSync(new Uint8Array(await zip.arrayBuffer())));
          assert.deepEqual(
            files.map((f) =>
              f.split(".").pop()
            ).sort(),
            ["cfg", "csv", "dat"],
          );
          const csv = await call("GET", `/pq/events/${eventKey}/recording?format=csv`, read);
          assert.match(csv.headers.get("content-type") ?? "", /^text\/csv/);
          const otherAdmin = (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password))
            .access_token;
          const foreign = await createClient(platform, otherAdmin, "Other reader", "read");
          const foreignToken = await tokenOf(platform, foreign);
          // The other customer has no power quality: 403, as on the screens.
          const noPq = await call("GET", `/pq/events/${eventKey}`, foreignToken);
          assert.equal(noPq.status, 403);
          assert.equal((await noPq.json()).params.key, "app:power-quality");
        });

        await t.step("the served document validates against the OpenAPI 3.1 schema", async () => {
          const doc = await (await platform.request("/external/v1/openapi.json")).json();
          assert.deepEqual(openApi31Problems(doc), []);
        });

        await t.step("contract: every operation answers as documented", async () => {
          const doc = await (await platform.request("/external/v1/openapi.json")).json() as Doc;
          const scoped: Record<string, string> = {};
          await walk(doc, {
            platform,
            call,
            write,
            admin,
            tokenOf: async (scope) => scoped[scope] ??= await tokenOf(platform, writer, scope),
            fixtures: {
              cell: installed[0]!.id,
              reportKey,
              eventKey,
              reportCell: reportCell.node_id!,
              slot,
            },
          });
        });
      } finally {
        await platform.close();
      }
    },
  });
}

interface WalkContext {
  platform: TestPlatform;
  call(method: string, path: string, token: string | null, body?: unknown): Promise<Response>;
  write: string;
  admin: string;
  tokenOf(scope: string): Promise<string>;
  fixtures: { cell: string; reportKey: string; eventKey: string; reportCell: string; slot: number };
}

const METHOD_ORDER = ["post", "get", "put", "patch", "delete"];
/** Creations in the order their parents exist; deletions the other way round. */
const PARENT_ORDER = [
  "/gsm/station-groups",
  "/gsm/mv-feeder-groups",
  "/gsm/lv-groups",
  "/gsm/nodes",
  "/gsm/nodes/{id}/feeders",
];

/**
 * Calls every operation: example bodies from the request schemas (with the values a schema cannot
 * tell, named in `overrides`), path ids of what the walk created, the documented success status
 * and answer schema; then each documented error status by the generic way or a scenario.
 */
async function walk(doc: Doc, ctx: WalkContext): Promise<void> {
  const schemas = doc.components.schemas as Record<string, Json>;
  const resolve = (s: Json): Json => {
    const ref = s.$ref as string | undefined;
    return ref ? resolve(schemas[ref.split("/").pop()!]!) : s;
  };
  const validateAnswer = answerValidator(doc);
  const created: Record<string, string> = {};
  /** The rank of a path's collection in PARENT_ORDER (others after them). */
  const rankOf = (path: string) => {
    const k = PARENT_ORDER.indexOf(path.replace(/\/\{\w+\}$/, ""));
    return k < 0 ? 99 : k;
  };
  const ops = Object.entries(doc.paths).flatMap(([path, o]) =>
    Object.entries(o).map(([method, op]) => ({
      path: path.replace("/external/v1", ""),
      method,
      op,
    }))
  ).sort((a, b) => {
    const m = METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method);
    if (m) return m;
    const pa = rankOf(a.path);
    const pb = rankOf(b.path);
    return a.method === "delete" ? pb - pa : pa - pb;
  });
  const measuredFeeder = () => created.feeder!;
  const ids = (path: string): Record<string, string> => {
    if (path.startsWith("/gsm/nodes/{id}")) return { id: created.node!, feederId: created.feeder! };
    if (path.startsWith("/gsm/station-groups/")) return { id: created.station! };
    if (path.startsWith("/gsm/mv-feeder-groups/")) return { id: created.mv! };
    if (path.startsWith("/gsm/lv-groups/")) return { id: created.lv! };
    if (path.startsWith("/dm/feeders/")) return { id: measuredFeeder() };
    if (path.startsWith("/fm/cells/")) return { id: ctx.fixtures.cell };
    if (path.startsWith("/pq/reports/")) return { key: ctx.fixtures.reportKey };
    if (path.startsWith("/pq/events/")) return { key: ctx.fixtures.eventKey };
    return {};
  };
  const now = Date.now();
  /** What the schemas cannot tell: ids of the walk's parents, the rules' valid combinations. */
  const overrides: Record<string, () => Json> = {
    "post /gsm/mv-feeder-groups": () => ({ station_group_id: created.station }),
    "post /gsm/lv-groups": () => ({ mv_feeder_group_id: created.mv }),
    "post /gsm/nodes": () => ({
      lv_group_id: created.lv,
      electrical_work: { name: "Contract cabinet", type: "LV_CABINET" },
      feeders: [{
        name: "Contract line",
        type: "LV_LINE",
        in_out: "OUT",
        nominal_current_a: 100,
        parameters: {},
      }],
    }),
    "put /gsm/nodes/{id}": () => ({
      electrical_work: { name: "Contract cabinet", type: "LV_CABINET" },
    }),
    "post /gsm/nodes/{id}/feeders": () => ({
      type: "LV_LINE",
      in_out: "OUT",
      nominal_current_a: 100,
    }),
    "put /gsm/nodes/{id}/feeders/{feederId}": () => ({
      type: "LV_LINE",
      in_out: "OUT",
      nominal_current_a: 80,
    }),
    "post /dm/feeders/{id}/measurements": () => ({
      measurements: [{ ts: iso(now - (now % 20_000) - 60_000), phase: "L1", u: 230, i: 5 }],
    }),
    "post /pq/reports": () => ({
      name: "Contract report",
      node: ctx.fixtures.reportCell,
      start: iso(ctx.fixtures.slot),
      period: "PT10M",
    }),
  };
  const query = (path: string) =>
    path === "/dm/feeders/{id}/values" ? `?from=${iso(now - 3_600_000)}&to=${iso(now)}` : "";
  const urlOf = (path: string, values: Record<string, string>) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? "none"));
  let called = 0;
  const reached = new Set<string>();
  for (const { path, method, op } of ops) {
    const name = `${method} ${path}`;
    const [success, answer] = Object.entries(op.responses).find(([s]) => /^2/.test(s))!;
    const bodySchema = op.requestBody?.content["application/json"]?.schema;
    let body: unknown;
    if (bodySchema) {
      const example = exampleOf(bodySchema, resolve, `C${called}`) as Json;
      body = deepMerge(example, overrides[name]?.() ?? {});
    }
    const res = await ctx.call(
      method.toUpperCase(),
      urlOf(path, ids(path)) + query(path),
      ctx.write,
      body,
    );
    const text = await res.text();
    assert.equal(String(res.status), success, `${name}: ${text}`);
    const content = answer.content ? Object.entries(answer.content)[0] : undefined;
    if (content && content[0] === "application/json") {
      const problem = validateAnswer(content[1].schema, JSON.parse(text));
      assert.equal(problem, null, `${name} answers its documented schema`);
    } else if (content) {
      assert.ok(res.headers.get("content-type")?.startsWith(content[0].split(";")[0]!), name);
    } else {
      assert.equal(text, "", `${name}: no body`);
    }
    if (method === "post" && success === "201") {
      const answer = JSON.parse(text) as {
        id?: string;
        feeders?: { id: string }[];
        feeder?: { id: string };
      };
      const kind = ({
        "/gsm/station-groups": "station",
        "/gsm/mv-feeder-groups": "mv",
        "/gsm/lv-groups": "lv",
        "/gsm/nodes": "node",
      } as Record<string, string>)[path];
      if (kind) created[kind] = answer.id!;
      if (path === "/gsm/nodes") created.feeder = created.firstFeeder = answer.feeders![0]!.id;
      if (path === "/gsm/nodes/{id}/feeders") created.feeder = answer.feeder!.id;
    }
    called++;
    await provokeErrors({
      ctx,
      path,
      method,
      op,
      ids: ids(path),
      body,
      query: query(path),
      urlOf,
      reached,
      created,
      resolve,
    });
  }
  assert.equal(called, ops.length);
  // Every documented error status was seen, but the rate limit (one route shows it below) and
  // the rules the walk cannot set up generically (each listed with why).
  const NOT_GENERIC: Record<string, string> = {
    "post /pq/reports 422":
      "no cell at the node (505) etc.: tests/integration/power_quality_test.ts",
    "post /pq/reports 503": "no data yet (526): tests/integration/power_quality_test.ts",
    "post /gsm/nodes/{id}/feeders 422": "more feeders than the device takes: grid_setup_test.ts",
    "post /dm/feeders/{id}/measurements 422": "every record refused: api_clients_test.ts",
  };
  for (const { path, method, op } of ops) {
    for (const status of Object.keys(op.responses)) {
      if (!/^[45]/.test(status) || status === "429") continue;
      const key = `${method} ${path} ${status}`;
      assert.ok(reached.has(key) || key in NOT_GENERIC, `${key} was not provoked`);
    }
  }
  // 429: the client's one-minute window (400 calls in this test) runs out on any route. The
  // calls go at once so that they fall in one window even on a slow machine (one retry for a
  // burst cut by the minute's turn).
  let limited: Response | undefined;
  for (let attempt = 0; attempt < 2 && !limited; attempt++) {
    const burst = await Promise.all(
      Array.from({ length: 401 }, () => ctx.call("GET", "/gsm/station-groups", ctx.write)),
    );
    limited = burst.find((r) => r.status === 429);
    for (const r of burst) if (r !== limited) await r.body?.cancel();
  }
  assert.ok(limited, "the rate limit answers 429");
  assert.ok(Number(limited!.headers.get("retry-after")) > 0);
  assert.equal((await limited!.json()).key, "common.rateLimited");
}

/** Provokes a route's documented errors by the generic ways (and the scenarios of the rules). */
async function provokeErrors(a: {
  ctx: WalkContext;
  created: Record<string, string>;
  resolve(s: Json): Json;
  path: string;
  method: string;
  op: Op;
  ids: Record<string, string>;
  body: unknown;
  query: string;
  urlOf(path: string, values: Record<string, string>): string;
  reached: Set<string>;
}): Promise<void> {
  const { ctx, path, method, op, reached } = a;
  const statuses = Object.keys(op.responses);
  const expect = async (status: string, res: Promise<Response>, why: string) => {
    const answer = await res;
    const text = await answer.text();
    assert.equal(String(answer.status), status, `${method} ${path} (${why}): ${text}`);
    assert.equal(answer.headers.get("content-type"), "application/problem+json", why);
    const problem = JSON.parse(text);
    assert.equal(problem.status, Number(status));
    assert.ok(problem.key && problem.type && problem.title, why);
    reached.add(`${method} ${path} ${status}`);
  };
  const M = method.toUpperCase();
  const url = a.urlOf(path, a.ids) + a.query;
  if (statuses.includes("401")) await expect("401", ctx.call(M, url, null, a.body), "no token");
  if (statuses.includes("403")) {
    const needed = op.security[0]!.clientCredentials![0]!;
    const other = needed.includes("grid") ? "api:read:data" : "api:read:grid-elements";
    await expect("403", ctx.call(M, url, await ctx.tokenOf(other), a.body), "scope");
  }
  if (statuses.includes("404") && Object.keys(a.ids).length) {
    const unknown = Object.fromEntries(Object.keys(a.ids).map((k) => [k, "unknown-id"]));
    await expect("404", ctx.call(M, a.urlOf(path, unknown) + a.query, ctx.write, a.body), "id");
  }
  if (statuses.includes("400")) {
    const free = (op.parameters ?? []).filter((p) =>
      p.in === "query" && !a.query.includes(`${p.name}=`)
    );
    const query = free.find((p) => Array.isArray(p.schema.enum)) ??
      free.find((p) => p.schema.pattern || p.schema.maxLength || p.schema.format);
    if (a.body !== undefined) {
      // The body without its first required field.
      const schema = a.resolve(op.requestBody!.content["application/json"]!.schema);
      const missing = ((schema.required ?? []) as string[])[0]!;
      const { [missing]: _, ...rest } = a.body as Json;
      await expect("400", ctx.call(M, url, ctx.write, rest), `body without ${missing}`);
    } else if (query) {
      const sep = a.query ? "&" : "?";
      const bad = Array.isArray(query.schema.enum) ? "NOT-A-VALUE" : "x".repeat(300);
      await expect("400", ctx.call(M, `${url}${sep}${query.name}=${bad}`, ctx.write), query.name);
    } else {
      const long = Object.fromEntries(Object.keys(a.ids).map((k) => [k, "x".repeat(300)]));
      await expect("400", ctx.call(M, a.urlOf(path, long), ctx.write), "path id too long");
    }
  }
  // The rules' conflicts, each with the screens' code or key.
  const demo = async () =>
    (await (await ctx.call("GET", "/gsm/station-groups", ctx.write)).json()) as {
      id: string;
      mv_feeder_groups: { id: string; lv_groups: { id: string; nodes: unknown[] }[] }[];
    }[];
  const withChildren = (id: string) => ctx.call(M, a.urlOf(path, { id }), ctx.write);
  const future = async () => {
    const start = Math.floor(Date.now() / SLOT_MS) * SLOT_MS + 86_400_000;
    const res = await ctx.call("POST", "/pq/reports", ctx.write, {
      name: `Contract future ${crypto.randomUUID().slice(0, 8)}`,
      language: "en",
      node: ctx.fixtures.reportCell,
      start: iso(start),
      period: "PT10M",
    });
    assert.equal(res.status, 202, await res.clone().text());
    return ((await res.json()) as { key: string }).key;
  };
  const scenario: Record<string, () => Promise<Response>> = {
    // Groups of the demo grid have children: 409 and the screens' key.
    "delete /gsm/station-groups/{id} 409": async () =>
      withChildren((await demo()).find((g) => g.mv_feeder_groups.length)!.id),
    "delete /gsm/mv-feeder-groups/{id} 409": async () =>
      withChildren(
        (await demo()).flatMap((g) => g.mv_feeder_groups).find((m) => m.lv_groups.length)!.id,
      ),
    "delete /gsm/lv-groups/{id} 409": async () =>
      withChildren(
        (await demo()).flatMap((g) => g.mv_feeder_groups).flatMap((m) => m.lv_groups)
          .find((l) => l.nodes.length)!.id,
      ),
    // The walk's node keeps its first feeder after the added one is gone: its last one.
    "delete /gsm/nodes/{id}/feeders/{feederId} 409": () =>
      ctx.call(
        M,
        a.urlOf(path, { id: a.created.node!, feederId: a.created.firstFeeder! }),
        ctx.write,
      ),
    // A report of tomorrow is Scheduled: no PDF or CSV yet (502).
    "get /pq/reports/{key}/pdf 409": async () =>
      ctx.call(M, a.urlOf(path, { key: await future() }), ctx.write),
    "get /pq/reports/{key}/csv 409": async () =>
      ctx.call(M, a.urlOf(path, { key: await future() }), ctx.write),
    "post /pq/reports 409": () => ctx.call(M, url, ctx.write, a.body),
    // An unknown node: 404 with code 506, as on the screen.
    "post /pq/reports 404": () =>
      ctx.call(M, url, ctx.write, { ...(a.body as Json), node: "unknown-node" }),
    "post /dm/feeders/{id}/measurements 409": async () => {
      const feeders = await (await ctx.call("GET", "/dm/feeders?page_size=500", ctx.write)).json();
      const measured = feeders.items.find((f: { cell_id: string | null }) => f.cell_id).id;
      return ctx.call(M, a.urlOf(path, { id: measured }), ctx.write, a.body);
    },
  };
  for (const status of statuses) {
    const run = scenario[`${method} ${path} ${status}`];
    if (run) await expect(status, run(), "rule");
  }
}

function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    if (Array.isArray(v) && Array.isArray(b)) {
      out[k] = v.map((item, i) =>
        item && typeof item === "object" && b[i] && typeof b[i] === "object"
          ? deepMerge(b[i] as Json, item as Json)
          : item
      );
    } else if (v && typeof v === "object" && !Array.isArray(v) && b && typeof b === "object") {
      out[k] = deepMerge(b as Json, v as Json);
    } else out[k] = v;
  }
  return out;
}

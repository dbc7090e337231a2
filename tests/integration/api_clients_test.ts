/**
 * API clients and external_v1 through the real HTTP stack (PGlite, and PostgreSQL with
 * TEST_PG_ADMIN_URL): clients created through /acm (the 5-client limit exact under 50 concurrent
 * creations), the client credentials grant at /oidc/token (Basic and form, invalid_client,
 * invalid_scope, the monthly quota exact under 50 concurrent requests), rotated and deleted
 * clients refused at once, the forged-token list of the quality guide, and the external API.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { exportSPKI, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import type { ApiClientListDto } from "../../modules/api_clients/mod.ts";
import {
  databaseKinds,
  decodeClaims,
  startTestPlatform,
  type TestPlatform,
} from "../helpers/platform.ts";

const ADMIN = DEMO_USERS[1];
const USER = DEMO_USERS[0];

interface Secret {
  id: string;
  client_id: string;
  client_secret: string;
}

/** A token request as curl would send it. */
function tokenRequest(
  platform: TestPlatform,
  form: Record<string, string>,
  basic?: { id: string; secret: string },
): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (basic) headers.authorization = `Basic ${btoa(`${basic.id}:${basic.secret}`)}`;
  return platform.request("/oidc/token", {
    method: "POST",
    headers,
    body: new URLSearchParams(form).toString(),
  });
}

async function clientToken(platform: TestPlatform, s: Secret, scope?: string): Promise<string> {
  const res = await tokenRequest(
    platform,
    { grant_type: "client_credentials", ...(scope ? { scope } : {}) },
    { id: s.client_id, secret: s.client_secret },
  );
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The install's private signing key (tests forge tokens the server must refuse). */
async function installKey(platform: TestPlatform): Promise<JWK> {
  const result = await platform.services.db.execute(
    sql`SELECT value FROM identity.secrets WHERE name = 'signing_keys'`,
  );
  const rows = (result as unknown as { rows: { value: JWK[] }[] }).rows;
  return rows[0]!.value[0]!;
}

for (const kind of databaseKinds()) {
  Deno.test({
    name: `api clients on ${kind}: limits, tokens, quota, rotation, deletion`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind, { SIMULATOR: "false" });
      try {
        const admin = (await platform.login(ADMIN!.email, ADMIN!.password)).access_token;
        const user = (await platform.login(USER!.email, USER!.password)).access_token;
        const json = (body: unknown) => ({
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        const create = (name: string, permission = "read") =>
          platform.request("/acm/clients", {
            method: "POST",
            token: admin,
            ...json({ name, permission }),
          });

        await t.step("only API clients admins reach /acm", async () => {
          assert.equal((await platform.request("/acm/clients", { token: user })).status, 403);
          assert.equal((await platform.request("/acm/clients")).status, 401);
        });

        await t.step("names of 3 to 60 characters and a known permission", async () => {
          const short = await create("ab");
          assert.equal(short.status, 400);
          const body = await short.json();
          assert.equal(body.params.issues[0].key, "validation.nameMin");
          assert.equal((await create("x".repeat(61))).status, 400);
          assert.equal((await create("Valid name", "admin")).status, 400);
        });

        let secrets: Secret[] = [];
        await t.step("50 concurrent creations give exactly 5 clients", async () => {
          const answers = await Promise.all(
            Array.from({ length: 50 }, (_, i) => create(`Client ${i}`, i % 2 ? "read" : "write")),
          );
          const created = answers.filter((r) => r.status === 201);
          const refused = answers.filter((r) => r.status === 422);
          assert.equal(created.length, 5);
          assert.equal(refused.length, 45);
          const refusal = await refused[0]!.json();
          assert.deepEqual(refusal, { key: "apiClients.tooManyClients", params: { limit: 5 } });
          secrets = await Promise.all(created.map((r) => r.json() as Promise<Secret>));
          const list = await (await platform.request("/acm/clients", { token: admin }))
            .json() as ApiClientListDto;
          assert.equal(list.clients.length, 5);
          assert.ok(list.clients.every((c) => !("client_secret" in c)));
          assert.equal(list.limits.clients, 5);
        });

        const writer = async () => {
          const list = await (await platform.request("/acm/clients", { token: admin }))
            .json() as ApiClientListDto;
          const w = list.clients.find((c) => c.permission === "write")!;
          return secrets.find((s) => s.id === w.id)!;
        };

        await t.step("client credentials: Basic and form, one hour, scopes, customer", async () => {
          const s = await writer();
          const token = await clientToken(platform, s);
          const claims = decodeClaims(token);
          assert.equal(claims.client_id, s.client_id);
          const [row] = await platform.services.db.execute(sql`
            SELECT customer_key FROM api_clients.clients WHERE client_id = ${s.client_id}`)
            .then((r) => (r as unknown as { rows: { customer_key: string }[] }).rows);
          assert.equal(claims.customer, row!.customer_key);
          assert.equal((claims.exp as number) - (claims.iat as number), 3600);
          assert.equal(
            claims.scope,
            "api:read:data api:read:grid-elements api:write:data api:write:grid-elements",
          );
          const post = await tokenRequest(platform, {
            grant_type: "client_credentials",
            client_id: s.client_id,
            client_secret: s.client_secret,
            scope: "api:read:data",
          });
          assert.equal(post.status, 200);
          const body = await post.json();
          assert.equal(body.token_type, "Bearer");
          assert.equal(body.expires_in, 3600);
          assert.equal(body.scope, "api:read:data");
          assert.equal(post.headers.get("cache-control"), "no-store");
        });

        await t.step("invalid_client 401 with WWW-Authenticate, invalid_scope 400", async () => {
          const s = secrets.find((x) => x.id !== (undefined as unknown))!;
          const wrong = await tokenRequest(platform, { grant_type: "client_credentials" }, {
            id: s.client_id,
            secret: `${s.client_secret}x`,
          });
          assert.equal(wrong.status, 401);
          assert.match(wrong.headers.get("www-authenticate") ?? "", /^Basic /);
          assert.equal((await wrong.json()).error, "invalid_client");
          const unknown = await tokenRequest(platform, {
            grant_type: "client_credentials",
            client_id: "gwc_00000000000000000000",
            client_secret: "nope",
          });
          assert.equal(unknown.status, 401);
          assert.ok(unknown.headers.get("www-authenticate"));
          const none = await tokenRequest(platform, { grant_type: "client_credentials" });
          assert.equal(none.status, 401);
          const reader = secrets.find((x) => x.id !== undefined)!;
          const list = await (await platform.request("/acm/clients", { token: admin }))
            .json() as ApiClientListDto;
          const readId = list.clients.find((c) => c.permission === "read")!.id;
          const r = secrets.find((x) => x.id === readId) ?? reader;
          const scope = await tokenRequest(platform, {
            grant_type: "client_credentials",
            scope: "api:write:data",
          }, { id: r.client_id, secret: r.client_secret });
          assert.equal(scope.status, 400);
          assert.equal((await scope.json()).error, "invalid_scope");
        });

        await t.step("the month's quota holds exactly under 50 concurrent requests", async () => {
          const s = await writer();
          const month = new Date().toISOString().slice(0, 7);
          await platform.services.db.execute(sql`
            UPDATE api_clients.token_counts SET issued = 975 WHERE month = ${month}`);
          const answers = await Promise.all(
            Array.from(
              { length: 50 },
              () =>
                tokenRequest(platform, { grant_type: "client_credentials" }, {
                  id: s.client_id,
                  secret: s.client_secret,
                }),
            ),
          );
          const ok = answers.filter((r) => r.status === 200).length;
          const limited = answers.filter((r) => r.status === 429);
          assert.equal(ok, 25);
          assert.equal(limited.length, 25);
          const retry = Number(limited[0]!.headers.get("retry-after"));
          assert.ok(retry >= 1 && retry <= 31 * 86400);
          const body = await limited[0]!.json();
          assert.equal(body.key, "apiClients.tokenQuota");
          assert.equal(body.params.limit, 1000);
          const list = await (await platform.request("/acm/clients", { token: admin }))
            .json() as ApiClientListDto;
          assert.equal(list.tokens_this_month, 1000);
          await platform.services.db.execute(sql`
            UPDATE api_clients.token_counts SET issued = 0`);
        });

        await t.step("a rotated secret is refused, the new one works", async () => {
          const s = await writer();
          const rotated = await platform.request(`/acm/clients/${s.id}/secret`, {
            method: "POST",
            token: admin,
          });
          assert.equal(rotated.status, 200);
          const fresh = await rotated.json() as Secret;
          assert.equal(fresh.client_id, s.client_id);
          assert.notEqual(fresh.client_secret, s.client_secret);
          const old = await tokenRequest(platform, { grant_type: "client_credentials" }, {
            id: s.client_id,
            secret: s.client_secret,
          });
          assert.equal(old.status, 401);
          await clientToken(platform, fresh);
          secrets = secrets.map((x) => (x.id === fresh.id ? fresh : x));
        });

        await t.step("a client token reads the grid and the fleet on /external/v1", async () => {
          const s = await writer();
          const token = await clientToken(platform, s);
          const groups = await platform.request("/external/v1/gsm/station-groups", { token });
          assert.equal(groups.status, 200);
          const structure = await groups.json() as { mv_feeder_groups: unknown[] }[];
          assert.ok(structure.length > 0);
          assert.ok(groups.headers.get("x-ratelimit-limit"));
          assert.ok(Number(groups.headers.get("x-ratelimit-remaining")) >= 0);
          const nodes = await (await platform.request("/external/v1/gsm/nodes?page_size=5", {
            token,
          })).json();
          assert.equal(nodes.items.length, 5);
          assert.ok(nodes.total >= 20);
          const fleet = await (await platform.request("/external/v1/fm/cells", { token })).json();
          assert.ok(fleet.items.length > 0);
          assert.ok("firmware" in fleet.items[0] && "last_contact" in fleet.items[0]);
          const missing = await platform.request("/external/v1/fm/cells/nope", { token });
          assert.equal(missing.status, 404);
          assert.equal(missing.headers.get("content-type"), "application/problem+json");
          const problem = await missing.json();
          assert.equal(problem.status, 404);
          assert.equal(problem.key, "common.notFound");
          // A token without the grid scope: 403 with the scope named.
          const dataOnly = await clientToken(platform, s, "api:read:data");
          const refused = await platform.request("/external/v1/gsm/nodes", { token: dataOnly });
          assert.equal(refused.status, 403);
          assert.equal((await refused.json()).key, "apiClients.insufficientScope");
          assert.match(refused.headers.get("www-authenticate") ?? "", /insufficient_scope/);
          // The user API refuses client tokens, /external refuses users' tokens.
          assert.equal(
            (await platform.request("/gsm/grid-structure/hv-mv-station-groups", {
              token,
            })).status,
            401,
          );
          assert.equal(
            (await platform.request("/external/v1/gsm/nodes", { token: admin })).status,
            401,
          );
          const audit = await (await platform.request("/acm/audit", { token: admin })).json();
          assert.ok(audit.entries.length >= 5);
          assert.ok(
            audit.entries.some((e: { status: number; route: string }) =>
              e.status === 403 && e.route === "/external/v1/gsm/nodes"
            ),
          );
          const list = await (await platform.request("/acm/clients", { token: admin }))
            .json() as ApiClientListDto;
          assert.ok(list.clients.find((c) => c.id === s.id)!.last_used_at);
        });

        await t.step("gsm writes: the screens' rules and codes, Read gets 403", async () => {
          const list = await (await platform.request("/acm/clients", { token: admin }))
            .json() as ApiClientListDto;
          const readId = list.clients.find((c) => c.permission === "read")!.id;
          const reader = await clientToken(platform, secrets.find((x) => x.id === readId)!);
          const token = await clientToken(platform, await writer());
          const send = (method: string, path: string, body?: unknown, as = token) =>
            platform.request(`/external/v1${path}`, {
              method,
              token: as,
              ...(body === undefined ? {} : json(body)),
            });
          const readRefused = await send(
            "POST",
            "/gsm/station-groups",
            { name: "API North" },
            reader,
          );
          assert.equal(readRefused.status, 403);
          assert.equal((await readRefused.json()).key, "apiClients.insufficientScope");
          const station = await send("POST", "/gsm/station-groups", {
            name: "API North",
            latitude: 47.05,
            longitude: 8.3,
          });
          assert.equal(station.status, 201);
          const stationId = (await station.json()).id as string;
          const mv = await (await send("POST", "/gsm/mv-feeder-groups", {
            station_group_id: stationId,
            name: "API MV",
          })).json();
          const lv = await (await send("POST", "/gsm/lv-groups", {
            mv_feeder_group_id: mv.id,
            name: "API LV",
          })).json();
          const node = await send("POST", "/gsm/nodes", {
            lv_group_id: lv.id,
            name: "API cabinet",
            electrical_work: { name: "API cabinet", type: "LV_CABINET" },
            latitude: 47.051,
            longitude: 8.301,
            feeders: [{
              name: "LV line 1",
              type: "LV_LINE",
              in_out: "OUT",
              nominal_current_a: 250,
              parameters: { meshed: false },
            }],
          });
          assert.equal(node.status, 201, await node.clone().text());
          const nodeId = (await node.json()).id as string;
          // The screen's rule and code: a station with MV feeders cannot be deleted.
          const blocked = await send("DELETE", `/gsm/station-groups/${stationId}`);
          assert.equal(blocked.status, 409);
          assert.equal(blocked.headers.get("content-type"), "application/problem+json");
          assert.equal((await blocked.json()).key, "validation.deleteStationHasMvFeeders");
          const invalid = await send("PUT", `/gsm/nodes/${nodeId}`, {
            name: "A node name that is far too long for the rules",
            electrical_work: { name: "API cabinet", type: "LV_CABINET" },
            latitude: 47,
            longitude: 8,
          });
          assert.equal(invalid.status, 400);
          assert.equal((await invalid.json()).key, "common.validation");
          const renamed = await send("PUT", `/gsm/nodes/${nodeId}`, {
            name: "API cabinet 2",
            electrical_work: { name: "API cabinet", type: "LV_CABINET" },
            latitude: 47,
            longitude: 8,
          });
          assert.equal(renamed.status, 200);
          const nodes = await (await send("GET", "/gsm/nodes?page_size=500")).json();
          assert.ok(nodes.items.some((n: { name: string }) => n.name === "API cabinet 2"));
          assert.equal((await send("DELETE", `/gsm/nodes/${nodeId}`)).status, 200);
          assert.equal((await send("DELETE", `/gsm/lv-groups/${lv.id}`)).status, 204);
          assert.equal((await send("DELETE", `/gsm/mv-feeder-groups/${mv.id}`)).status, 204);
          assert.equal((await send("DELETE", `/gsm/station-groups/${stationId}`)).status, 204);
          assert.equal((await send("DELETE", `/gsm/station-groups/${stationId}`)).status, 404);
        });

        await t.step("dm: a feeder's 20-s values, aggregates, CSV and latest values", async () => {
          const token = await clientToken(platform, await writer());
          const feeders = await (await platform.request("/external/v1/dm/feeders?page_size=500", {
            token,
          })).json() as { items: { id: string; slot: number; cell_id: string | null }[] };
          const feeder = feeders.items.find((f) => f.cell_id)!;
          const credential = await platform.services.cells.rotateCredential(feeder.cell_id!);
          const start = Math.floor(Date.now() / 600_000) * 600_000 - 1_200_000;
          const measurements = [0, 1, 2].flatMap((k) =>
            (["L1", "L2"] as const).map((phase) => ({
              ts: new Date(start + k * 20_000).toISOString(),
              feeder: feeder.slot,
              phase,
              u: 230 + k,
              i: 40,
            }))
          );
          const ingest = await platform.request("/ingest/v1/batches", {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
            body: JSON.stringify({ batch_id: "dm-test", measurements }),
          });
          assert.equal(ingest.status, 200, await ingest.clone().text());
          const period = `from=${new Date(start).toISOString()}&to=${
            new Date(start + 600_000).toISOString()
          }`;
          const base = `/external/v1/dm/feeders/${feeder.id}`;
          const values = await platform.request(
            `${base}/values?${period}&resolution=20s&page_size=4`,
            { token },
          );
          assert.equal(values.status, 200);
          const page = await values.json();
          assert.equal(page.total, 6);
          assert.equal(page.items.length, 4);
          assert.deepEqual(
            page.items.map((r: { phase: string; u: number }) => [r.phase, r.u]),
            [["L1", 230], ["L2", 230], ["L1", 231], ["L2", 231]],
          );
          const csv = await platform.request(
            `${base}/values?${period}&resolution=20s&phase=L2&format=csv`,
            { token },
          );
          assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8");
          const lines = (await csv.text()).trim().split("\n");
          assert.equal(lines[0], "ts,phase,u,i,p,q,pf,thd_u,thd_i,f");
          assert.equal(lines.length, 4);
          await platform.services.aggregator.flush();
          const agg = await (await platform.request(
            `${base}/values?${period}&resolution=10min&phase=L1`,
            { token },
          )).json();
          assert.equal(agg.total, 1);
          assert.equal(agg.items[0].n, 3);
          assert.equal(agg.items[0].u_min, 230);
          assert.equal(agg.items[0].u_max, 232);
          const latest = await (await platform.request(`${base}/latest`, { token })).json();
          assert.equal(latest.phases[0].phase, "L1");
          assert.ok(latest.phases[0].u >= 230);
          const wrong = await platform.request(
            `${base}/values?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`,
            { token },
          );
          assert.equal(wrong.status, 400);
          assert.equal((await wrong.json()).code, 401);
          const gridOnly = await clientToken(platform, await writer(), "api:read:grid-elements");
          const refused = await platform.request(`${base}/latest`, { token: gridOnly });
          assert.equal(refused.status, 403);
        });

        await t.step(
          "dm writes: a third-party meter's batch, checked and stored once",
          async () => {
            const token = await clientToken(platform, await writer());
            const send = (method: string, path: string, body?: unknown, as = token) =>
              platform.request(`/external/v1${path}`, {
                method,
                token: as,
                ...(body === undefined ? {} : json(body)),
              });
            const station = await (await send("POST", "/gsm/station-groups", { name: "Meter ST" }))
              .json();
            const mv = await (await send("POST", "/gsm/mv-feeder-groups", {
              station_group_id: station.id,
              name: "Meter MV",
            })).json();
            const lv = await (await send("POST", "/gsm/lv-groups", {
              mv_feeder_group_id: mv.id,
              name: "Meter LV",
            })).json();
            const node = await (await send("POST", "/gsm/nodes", {
              lv_group_id: lv.id,
              name: "Meter cabinet",
              electrical_work: { name: "Meter cabinet", type: "LV_CABINET" },
              latitude: 47.05,
              longitude: 8.3,
              feeders: [{
                name: "LV line 1",
                type: "LV_LINE",
                in_out: "OUT",
                nominal_current_a: 250,
                parameters: { meshed: false },
              }],
            })).json();
            const feederId = node.feeders[0].id as string;
            const start = Math.floor(Date.now() / 600_000) * 600_000 - 1_800_000;
            const batch = {
              batch_id: "meter-1",
              measurements: [0, 1, 2].map((k) => ({
                ts: new Date(start + k * 20_000).toISOString(),
                phase: "L1",
                u: 229.5 + k,
                i: 12,
              })),
            };
            const first = await send("POST", `/dm/feeders/${feederId}/measurements`, batch);
            assert.equal(first.status, 200, await first.clone().text());
            assert.deepEqual(await first.json(), { accepted: 3, duplicates: 0, rejected: [] });
            const again = await send("POST", `/dm/feeders/${feederId}/measurements`, batch);
            assert.deepEqual(await again.json(), { accepted: 0, duplicates: 3, rejected: [] });
            const old = await send("POST", `/dm/feeders/${feederId}/measurements`, {
              batch_id: "meter-2",
              measurements: [
                { ts: new Date(start + 60_000).toISOString(), phase: "L1", u: 231, i: 12 },
                { ts: "2001-01-01T00:00:00Z", phase: "L1", u: 231, i: 12 },
              ],
            });
            assert.equal(old.status, 207, await old.clone().text());
            const partial = await old.json();
            assert.equal(partial.accepted, 1);
            assert.deepEqual(partial.rejected[0], {
              section: "measurements",
              index: 1,
              field: "ts",
              key: "ingest.tooOld",
            });
            await platform.services.measurements.flush();
            const values = await (await send(
              "GET",
              `/dm/feeders/${feederId}/values?from=${new Date(start).toISOString()}&to=${
                new Date(start + 600_000).toISOString()
              }&resolution=20s`,
            )).json();
            assert.deepEqual(values.items.map((r: { u: number }) => r.u), [
              229.5,
              230.5,
              231.5,
              231,
            ]);
            const feeders = await (await send("GET", "/dm/feeders?page_size=500")).json();
            const measured = feeders.items.find((f: { cell_id: string | null }) => f.cell_id);
            const conflict = await send("POST", `/dm/feeders/${measured.id}/measurements`, batch);
            assert.equal(conflict.status, 409);
            const list = await (await platform.request("/acm/clients", { token: admin }))
              .json() as ApiClientListDto;
            const readId = list.clients.find((c) => c.permission === "read")!.id;
            const reader = await clientToken(platform, secrets.find((x) => x.id === readId)!);
            const refused = await send(
              "POST",
              `/dm/feeders/${feederId}/measurements`,
              batch,
              reader,
            );
            assert.equal(refused.status, 403);
            const invalid = await send("POST", `/dm/feeders/${feederId}/measurements`, {
              batch_id: "meter-3",
              measurements: [{ ts: "x", phase: "L9", u: 1 }],
            });
            assert.equal(invalid.status, 400);
            assert.equal((await invalid.json()).key, "common.validation");
          },
        );

        await t.step("forged tokens are refused", async () => {
          const s = await writer();
          const good = await clientToken(platform, s);
          const claims = decodeClaims(good);
          const jwk = await installKey(platform);
          const key = await importJWK(jwk, "RS256");
          const now = Math.floor(Date.now() / 1000);
          const sign = (
            extra: Record<string, unknown>,
            header: Record<string, unknown> = {},
            signingKey: CryptoKey | Uint8Array = key as unknown as CryptoKey,
            alg = "RS256",
          ) =>
            new SignJWT({ ...claims, ...extra })
              .setProtectedHeader({ alg, typ: "at+jwt", kid: jwk.kid!, ...header })
              .sign(signingKey);
          const b64 = (v: unknown) =>
            btoa(JSON.stringify(v)).replaceAll("=", "").replaceAll("+", "-").replaceAll("/", "_");
          const { publicKey } = {
            publicKey: await importJWK(
              {
                ...jwk,
                d: undefined,
                p: undefined,
                q: undefined,
                dp: undefined,
                dq: undefined,
                qi: undefined,
              } as JWK,
              "RS256",
            ),
          };
          const pem = await exportSPKI(publicKey as unknown as CryptoKey);
          const stranger = await generateKeyPair("RS256", { extractable: true });
          const forged: Record<string, string> = {
            "alg none": `${b64({ alg: "none", typ: "at+jwt" })}.${b64(claims)}.`,
            "HS/RS confusion": await sign({}, {}, new TextEncoder().encode(pem), "HS256"),
            "unknown kid": await sign({}, { kid: "unknown" }, stranger.privateKey),
            "expired by 1 s": await sign({ iat: now - 3601, exp: now - 1 }),
            "future nbf": await sign({ nbf: now + 60 }),
            "wrong audience": await sign({ aud: "urn:gridwatch:api" }),
            "wrong issuer": await sign({ iss: "https://evil.example/oidc" }),
            "flipped signature": `${good.slice(0, -4)}${
              good.slice(-4) === "AAAA" ? "BBBB" : "AAAA"
            }`,
            "oversize": await sign({ pad: "x".repeat(9000) }),
            "old secret version": await sign({ ver: 0 }),
            "not a client token type": await sign({}, { typ: "JWT" }),
          };
          for (const [name, token] of Object.entries(forged)) {
            const res = await platform.request("/external/v1/gsm/nodes", { token });
            assert.equal(res.status, 401, name);
            assert.equal(res.headers.get("content-type"), "application/problem+json", name);
          }
          assert.equal(
            (await platform.request("/external/v1/gsm/nodes", { token: good })).status,
            200,
          );
        });

        await t.step("a rotated or deleted client's token is refused at once", async () => {
          const list = await (await platform.request("/acm/clients", { token: admin }))
            .json() as ApiClientListDto;
          const c = list.clients.find((x) => x.permission === "read")!;
          const s = secrets.find((x) => x.id === c.id)!;
          const token = await clientToken(platform, s);
          assert.equal((await platform.request("/external/v1/fm/cells", { token })).status, 200);
          const rotated = await (await platform.request(`/acm/clients/${c.id}/secret`, {
            method: "POST",
            token: admin,
          })).json() as Secret;
          assert.equal((await platform.request("/external/v1/fm/cells", { token })).status, 401);
          const fresh = await clientToken(platform, rotated);
          assert.equal(
            (await platform.request("/external/v1/fm/cells", { token: fresh })).status,
            200,
          );
          const deleted = await platform.request(`/acm/clients/${c.id}`, {
            method: "DELETE",
            token: admin,
            ...json({ name: c.name }),
          });
          assert.equal(deleted.status, 204);
          assert.equal(
            (await platform.request("/external/v1/fm/cells", { token: fresh })).status,
            401,
          );
          secrets = secrets.filter((x) => x.id !== c.id);
        });

        await t.step("delete needs the client's name typed again", async () => {
          const s = secrets[0]!;
          const del = (name: string) =>
            platform.request(`/acm/clients/${s.id}`, {
              method: "DELETE",
              token: admin,
              ...json({ name }),
            });
          const wrong = await del("not the name");
          assert.equal(wrong.status, 422);
          assert.equal((await wrong.json()).key, "apiClients.nameMismatch");
          const list = await (await platform.request("/acm/clients", { token: admin }))
            .json() as ApiClientListDto;
          const name = list.clients.find((c) => c.id === s.id)!.name;
          assert.equal((await del(name)).status, 204);
          assert.equal((await del(name)).status, 404);
          const again = await tokenRequest(platform, { grant_type: "client_credentials" }, {
            id: s.client_id,
            secret: s.client_secret,
          });
          assert.equal(again.status, 401);
          assert.equal((await create("A sixth after a delete")).status, 201);
        });
      } finally {
        await platform.close();
      }
    },
  });
}

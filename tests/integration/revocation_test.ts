/**
 * Token revocation through the real login, on PGlite and PostgreSQL: a demoted admin's old
 * token loses the taken right at once (403 on POST /usm/users) and keeps the rest; a deleted
 * user's token is refused on every API route within a second (401), their STOMP session gets
 * an ERROR frame and is closed, their refresh token is refused; a disabled user's token stays
 * refused after they are enabled again, while a token issued after a change works; an admin's
 * password reset revokes older tokens; all of it survives a restart.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresTestDatabase } from "../helpers/postgres.ts";
import { sql } from "drizzle-orm";
import { type Platform, startPlatform } from "../../main.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import { API_PREFIXES } from "../../kernel/mod.ts";
import { loginWithPassword, type Tokens } from "../helpers/oidc_login.ts";
import {
  type DatabaseKind,
  databaseKinds,
  decodeClaims,
  TEST_BASE_URL,
} from "../helpers/platform.ts";

const ADMIN = DEMO_USERS[1];
const STRONG = "Kx7#mPq2vL9z";
const RESET = "Blue-Kettle-42-Moss";

/** A platform that can be stopped and started again on the same databases. */
async function restartable(kind: DatabaseKind) {
  const dataDir = await mkdtemp(join(tmpdir(), "gridwatch-revocation-"));
  const database = kind === "postgres" ? await postgresTestDatabase("gw_test") : undefined;
  const drop = async () => await database?.drop();
  const databaseUrl = database?.url;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_BASE_URL,
    LOG_LEVEL: "error",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  return {
    start: () => startPlatform(config, createLogger("error")),
    cleanup: async () => {
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function clientOf(platform: Platform) {
  const fetchApp = (req: Request) => Promise.resolve(platform.app.fetch(req));
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const headers = new Headers({ authorization: `Bearer ${token}` });
    if (body !== undefined) headers.set("content-type", "application/json");
    const res = await fetchApp(
      new Request(`${TEST_BASE_URL}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    fetchApp,
    call,
    login: (email: string, password: string) =>
      loginWithPassword(fetchApp, TEST_BASE_URL, email, password),
    refresh: async (tokens: Tokens) => {
      const res = await fetchApp(
        new Request(`${TEST_BASE_URL}/oidc/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: tokens.refresh_token ?? "",
            client_id: "gridwatch-web",
          }).toString(),
        }),
      );
      return { status: res.status, body: await res.json() as Record<string, unknown> };
    },
  };
}

function newUser(name: string, email: string, role: string, appsRoles: string[]) {
  return {
    name,
    email,
    phone: null,
    role,
    start_page: null,
    language: "en",
    apps_roles: appsRoles,
    password: STRONG,
    password_confirmation: STRONG,
  };
}

const idOf = (tokens: Tokens) => String(decodeClaims(tokens.access_token).sub).split("|")[1]!;

/** A STOMP session over a real WebSocket; resolves frames by their command. */
async function stompSession(port: number, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/nsm/websocket`, ["v12.stomp"]);
  const frames: string[] = [];
  const closed = new Promise<CloseEvent>((resolve) => ws.addEventListener("close", resolve));
  ws.addEventListener("message", (e) => frames.push(String(e.data)));
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  ws.send(`CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`);
  const frame = async (command: string) => {
    const end = Date.now() + 5000;
    while (Date.now() < end) {
      const found = frames.find((f) => f.startsWith(`${command}\n`));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`No ${command} frame, got ${JSON.stringify(frames)}`);
  };
  return { ws, frames, frame, closed };
}

/** Every API route the app lists, as method and a path with ids filled in. */
function apiRoutes(platform: Platform, ids: { cid: string; id: string }) {
  const seen = new Set<string>();
  return platform.app.routes
    .filter((r) => r.method !== "ALL" && API_PREFIXES.some((p) => r.path.startsWith(`${p}/`)))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`))
    .map((r) => ({
      method: r.method,
      route: `${r.method} ${r.path}`,
      path: r.path.replace(":cid", ids.cid).replace(":id", ids.id)
        .replace(/:\w+/g, crypto.randomUUID()),
    }));
}

/** Public routes: they do not read a user's token. */
const PUBLIC = new Set([
  "GET /usm/email-validation/:token",
  "GET /nsm/websocket",
  "POST /ingest/v1/batches",
  "GET /ingest/v1/configuration",
  "POST /ingest/v1/configuration/ack",
  // The external API's document is open; an export file's signed link is its own proof.
  "GET /external/v1/openapi.json",
  "GET /dem/files/:key",
]);

for (const kind of databaseKinds()) {
  Deno.test({
    name: `revocation on ${kind}: demoted, deleted, disabled, password reset, restart`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const databases = await restartable(kind);
      let platform = await databases.start();
      const server = Deno.serve(
        { port: 0, hostname: "127.0.0.1", onListen: () => {} },
        (req) => platform.app.fetch(req),
      );
      try {
        let api = clientOf(platform);
        const admin = (await api.login(ADMIN.email, ADMIN.password)).access_token;
        const [demo] = (await api.call(admin, "GET", "/csm/customers")).body as { key: string }[];
        const create = async (body: ReturnType<typeof newUser>) => {
          const res = await api.call(admin, "POST", "/usm/users", body);
          assert.equal(res.status, 201, JSON.stringify(res.body));
          return await api.login(body.email, STRONG);
        };
        const dora = await create(
          newUser("Dora Demoted", "dora@demo-ew.ch", "admin", [
            "hes:default",
            "hes:um:admin",
            "app:grid-monitoring:user",
          ]),
        );
        const plain = ["hes:default", "app:grid-monitoring:user"];
        const erik = await create(newUser("Erik Erased", "erik@demo-ew.ch", "user", plain));
        const dieter = await create(newUser("Dieter Disabled", "dieter@demo-ew.ch", "user", plain));
        const frieda = await create(newUser("Frieda Reset", "frieda@demo-ew.ch", "user", plain));
        const current = (tokens: Tokens) => `/usm/users/current/${idOf(tokens)}`;
        let doraNew: Tokens | undefined;
        let dieterNew: Tokens | undefined;

        await t.step(
          "a demoted admin's old token gets 403 on POST /usm/users at once",
          async () => {
            const before = await api.call(
              dora.access_token,
              "POST",
              "/usm/users",
              newUser("Made By Dora", "made.by.dora@demo-ew.ch", "user", ["hes:default"]),
            );
            assert.equal(before.status, 201, JSON.stringify(before.body));
            const demote = await api.call(admin, "PUT", `/usm/users/${demo!.key}/${idOf(dora)}`, {
              ...newUser("Dora Demoted", "dora@demo-ew.ch", "user", plain),
              password: undefined,
              password_confirmation: undefined,
            });
            assert.equal(demote.status, 200, JSON.stringify(demote.body));
            const after = await api.call(
              dora.access_token,
              "POST",
              "/usm/users",
              newUser("Made Too Late", "too.late@demo-ew.ch", "user", ["hes:default"]),
            );
            assert.equal(after.status, 403);
            assert.equal(after.body.key, "common.forbidden");
            assert.equal((await api.call(dora.access_token, "GET", "/usm/users")).status, 403);
            // What she still may do keeps working with the same token.
            assert.equal((await api.call(dora.access_token, "GET", current(dora))).status, 200);
            const list = await api.call(admin, "GET", "/usm/users?search=too.late");
            assert.equal(list.body.total, 0, "nothing was created");
            doraNew = await api.login("dora@demo-ew.ch", STRONG);
            const claims = decodeClaims(doraNew.access_token);
            assert.deepEqual(claims.roles, ["user"]);
            // The issue time to the ms: a token issued right after a change counts as newer.
            assert.equal(Math.floor(Number(claims.iat_ms) / 1000), claims.iat);
            assert.equal((await api.call(doraNew.access_token, "GET", current(dora))).status, 200);
          },
        );

        await t.step(
          "a deleted user's token is refused on every API route within a second, STOMP included",
          async () => {
            const stomp = await stompSession(server.addr.port, erik.access_token);
            await stomp.frame("CONNECTED");
            assert.equal(platform.services.notifications.hub.size(idOf(erik)), 1);
            assert.equal((await api.call(erik.access_token, "GET", current(erik))).status, 200);
            const refreshed = await api.refresh(erik);
            assert.equal(refreshed.status, 200, "refresh works before the deletion");

            const removed = await api.call(
              admin,
              "DELETE",
              `/usm/users/${demo!.key}/${idOf(erik)}`,
            );
            assert.equal(removed.status, 204);
            const deletedAt = performance.now();
            // The very next call is refused: the registry learns the deletion before the
            // DELETE answers (the "within one second" of the issue is in fact at once).
            const first = await api.call(erik.access_token, "GET", current(erik));
            const firstMs = performance.now() - deletedAt;
            assert.equal(first.status, 401);
            assert.ok(firstMs < 1000, `first refusal after ${firstMs} ms`);
            const routes = apiRoutes(platform, { cid: demo!.key, id: idOf(erik) })
              .filter((r) => !PUBLIC.has(r.route));
            assert.ok(routes.length > 50, `${routes.length} routes`);
            const wrong: string[] = [];
            for (const token of [erik.access_token, String(refreshed.body.access_token)]) {
              for (const r of routes) {
                const res = await api.call(
                  token,
                  r.method,
                  r.path,
                  r.method === "GET" ? undefined : {},
                );
                if (res.status !== 401 || res.body?.key !== "common.unauthorized") {
                  wrong.push(`${r.route}: ${res.status}`);
                }
              }
            }
            const elapsed = performance.now() - deletedAt;
            assert.deepEqual(wrong, []);
            console.log(
              `revocation (${kind}): first refusal ${firstMs.toFixed(1)} ms after the DELETE; ` +
                `all ${routes.length * 2} calls (${routes.length} routes, two tokens) refused ` +
                `within ${Math.round(elapsed)} ms`,
            );

            const error = await stomp.frame("ERROR");
            assert.match(error, /message:Unauthorized\\c access revoked\n/);
            assert.ok(error.endsWith("\n\nUnauthorized: access revoked\0"), error);
            await stomp.closed;
            assert.equal(platform.services.notifications.hub.size(idOf(erik)), 0);
            const again = await stompSession(server.addr.port, erik.access_token);
            assert.match(await again.frame("ERROR"), /message:Unauthorized/);
            await again.closed;

            const refused = await api.refresh(erik);
            assert.equal(refused.status, 400);
            assert.equal(refused.body.error, "invalid_grant");
          },
        );

        await t.step(
          "a disabled user's token is refused, also after enabling; a newer token works",
          async () => {
            const stomp = await stompSession(server.addr.port, dieter.access_token);
            await stomp.frame("CONNECTED");
            const path = `/usm/users/${demo!.key}/${idOf(dieter)}`;
            assert.equal((await api.call(admin, "POST", `${path}/disable`)).status, 200);
            const refused = await api.call(dieter.access_token, "GET", current(dieter));
            assert.equal(refused.status, 401);
            assert.equal(refused.body.key, "common.unauthorized");
            assert.match(await stomp.frame("ERROR"), /access revoked/);
            assert.equal((await api.refresh(dieter)).status, 400, "no refresh while disabled");
            await assert.rejects(api.login("dieter@demo-ew.ch", STRONG), /status 401/);
            assert.equal((await api.call(admin, "POST", `${path}/enable`)).status, 200);
            assert.equal(
              (await api.call(dieter.access_token, "GET", current(dieter))).status,
              401,
              "a token from before the disable does not come back",
            );
            assert.equal((await api.refresh(dieter)).status, 400, "nor its refresh token");
            dieterNew = await api.login("dieter@demo-ew.ch", STRONG);
            assert.equal(
              (await api.call(dieterNew.access_token, "GET", current(dieter))).status,
              200,
            );
          },
        );

        await t.step(
          "an admin's password reset revokes older tokens; the new login works",
          async () => {
            const put = await api.call(admin, "PUT", `/usm/users/${demo!.key}/${idOf(frieda)}`, {
              ...newUser("Frieda Reset", "frieda@demo-ew.ch", "user", plain),
              password: RESET,
              password_confirmation: RESET,
            });
            assert.equal(put.status, 200, JSON.stringify(put.body));
            assert.equal((await api.call(frieda.access_token, "GET", current(frieda))).status, 401);
            assert.equal((await api.refresh(frieda)).status, 400);
            const fresh = await api.login("frieda@demo-ew.ch", RESET);
            assert.equal((await api.call(fresh.access_token, "GET", current(frieda))).status, 200);
          },
        );

        await t.step(
          "a kiosk: only a plain user, a grant of a year, renewal works; removing the choice signs it out",
          async () => {
            const refused = await api.call(admin, "POST", "/usm/users", {
              ...newUser("Karl Kiosk Admin", "karl@demo-ew.ch", "admin", plain),
              kiosk: true,
            });
            assert.equal(refused.status, 400, JSON.stringify(refused.body));
            assert.deepEqual(
              refused.body.params.issues.map((
                f: { path: string; key: string },
              ) => [f.path, f.key]),
              [["kiosk", "validation.kioskRights"]],
            );
            const wall = newUser("Wall Display", "wall@demo-ew.ch", "user", plain);
            // Edits without a password: a password reset would sign it out by itself.
            const edit = { ...wall, password: undefined, password_confirmation: undefined };
            const created = await api.call(admin, "POST", "/usm/users", { ...wall, kiosk: true });
            assert.equal(created.status, 201, JSON.stringify(created.body));
            assert.equal(created.body.kiosk, true);
            const kiosk = await api.login(wall.email, STRONG);
            const me = await api.call(kiosk.access_token, "GET", current(kiosk));
            assert.equal(me.body.kiosk, true);
            const grants = async (email: string) => {
              const id = email === wall.email ? idOf(kiosk) : idOf(dieterNew!);
              const rows = await platform.services.db.execute(
                sql`SELECT expires_at FROM identity.oidc_payloads
                    WHERE model = 'Grant' AND payload->>'accountId' LIKE ${"%|" + id}`,
              );
              const list = ((rows as { rows?: unknown[] }).rows ?? rows) as { expires_at: Date }[];
              return list.map((r) => (new Date(r.expires_at).getTime() - Date.now()) / 86_400_000);
            };
            const days = await grants(wall.email);
            assert.ok(days.length >= 1 && days.every((d) => d > 360), `kiosk grant: ${days}`);
            const plainDays = await grants("dieter@demo-ew.ch");
            assert.ok(plainDays.every((d) => d < 15), `a plain user's grant: ${plainDays}`);
            const renewed = await api.refresh(kiosk);
            assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
            const path = `/usm/users/${demo!.key}/${idOf(kiosk)}`;
            const ended = await api.call(admin, "PUT", path, { ...edit, kiosk: false });
            assert.equal(ended.status, 200, JSON.stringify(ended.body));
            assert.equal(ended.body.kiosk, false);
            assert.equal((await api.call(kiosk.access_token, "GET", current(kiosk))).status, 401);
            const renewedTokens = { ...kiosk, refresh_token: String(renewed.body.refresh_token) };
            assert.equal((await api.refresh(renewedTokens)).status, 400, "its sign-in ended");
            // Kept unchanged when an update does not name it.
            const again = await api.call(admin, "PUT", path, { ...edit, kiosk: true });
            assert.equal(again.body.kiosk, true);
            const kept = await api.call(admin, "PUT", path, edit);
            assert.equal(kept.body.kiosk, true);
          },
        );

        await t.step(
          "after a restart, revoked tokens stay refused and narrowed ones narrowed",
          async () => {
            await platform.close();
            platform = await databases.start();
            api = clientOf(platform);
            for (
              const [name, tokens] of [["erik", erik], ["dieter", dieter], [
                "frieda",
                frieda,
              ]] as const
            ) {
              const res = await api.call(tokens.access_token, "GET", current(tokens));
              assert.equal(res.status, 401, name);
            }
            const post = await api.call(
              dora.access_token,
              "POST",
              "/usm/users",
              newUser("After Restart", "after.restart@demo-ew.ch", "user", ["hes:default"]),
            );
            assert.equal(post.status, 403, "the demoted admin's old token is still narrowed");
            assert.equal((await api.call(dora.access_token, "GET", current(dora))).status, 200);
            assert.equal((await api.call(doraNew!.access_token, "GET", current(dora))).status, 200);
            assert.equal(
              (await api.call(dieterNew!.access_token, "GET", current(dieter))).status,
              200,
            );
            assert.equal((await api.call(admin, "GET", "/usm/users")).status, 200);
          },
        );
      } finally {
        await server.shutdown();
        await platform.close();
        await databases.cleanup();
      }
    },
  });
}

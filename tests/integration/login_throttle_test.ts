/**
 * Login throttling on the real login form of the embedded provider, through the /oidc proxy
 * with client addresses as Deno.serve hands them to the app: a growing wait after three wrong
 * passwords (429 + Retry-After, translated text), the account lockout at ten (its
 * administrators notified), its expiry, an administrator's password reset ending it, the
 * address lockout, and the log lines with the client address. The throttle keeps no
 * relational state, so PGlite suffices; its clock is injected.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatform } from "../../main.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import { loginWithPassword } from "../helpers/oidc_login.ts";
import { decodeClaims, TEST_BASE_URL } from "../helpers/platform.ts";
import de from "../../modules/identity/i18n/de.json" with { type: "json" };
import fr from "../../modules/identity/i18n/fr.json" with { type: "json" };
import uk from "../../modules/identity/i18n/uk.json" with { type: "json" };
import en from "../../modules/identity/i18n/en.json" with { type: "json" };

const [USER, ADMIN] = DEMO_USERS;
const NEW_PASSWORD = "Blue-Kettle-42-Moss";

type Fetch = (req: Request) => Promise<Response>;

/** The page text as the login page escapes it. */
const html = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Opens a login form (authorization request, interaction page) and posts to it. */
async function loginForm(fetchFn: Fetch) {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetchFn(
      new Request(new URL(url, TEST_BASE_URL), { ...init, headers, redirect: "manual" }),
    );
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  };
  const auth = new URL(`${TEST_BASE_URL}/oidc/auth`);
  auth.search = new URLSearchParams({
    client_id: "gridwatch-web",
    response_type: "code",
    scope: "openid profile email offline_access",
    redirect_uri: `${TEST_BASE_URL}/auth/callback`,
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    prompt: "login",
    state: "s1",
  }).toString();
  const first = await send(auth.toString());
  await first.body?.cancel();
  const page = new URL(first.headers.get("location")!, TEST_BASE_URL).pathname;
  await (await send(page)).text();
  return async (email: string, password: string, lang = "en") => {
    const res = await send(`${page}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password, lang }).toString(),
    });
    return {
      status: res.status,
      retryAfter: res.headers.get("retry-after"),
      body: await res.text(),
    };
  };
}

Deno.test({
  name: "login throttling on the real login form: wait, lockout, expiry, reset, address",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dataDir = await mkdtemp(join(tmpdir(), "gridwatch-throttle-"));
    const clock = { now: Date.now() };
    const logs: Record<string, unknown>[] = [];
    const logger = createLogger("info", {}, (_level, line) => logs.push(JSON.parse(line)));
    const platform = await startPlatform(
      loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: TEST_BASE_URL }),
      logger,
      { loginThrottle: { now: () => clock.now } },
    );
    // As Deno.serve calls the app: the connection's address in the env.
    const from = (hostname: string | null): Fetch => (req) =>
      Promise.resolve(
        platform.app.fetch(req, hostname ? { remoteAddr: { hostname, port: 50000 } } : undefined),
      );
    const office = from("203.0.113.5");
    try {
      const admin = (await loginWithPassword(office, TEST_BASE_URL, ADMIN.email, ADMIN.password))
        .access_token;
      const adminId = String(decodeClaims(admin).sub).split("|")[1]!;
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await office(
          new Request(`${TEST_BASE_URL}${path}`, {
            method,
            headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }),
        );
        return { status: res.status, body: await res.json() };
      };

      await t.step(
        "three wrong passwords, then 429 with Retry-After and the wait text",
        async () => {
          const post = await loginForm(office);
          for (let i = 0; i < 3; i++) {
            const res = await post(USER.email, `wrong-${i}`, "de");
            assert.equal(res.status, 401);
            assert.ok(res.body.includes(html(de.invalidCredentials)));
          }
          const waiting = await post(USER.email, USER.password, "de");
          assert.equal(waiting.status, 429, "even the right password waits");
          assert.equal(waiting.retryAfter, "1");
          assert.ok(waiting.body.includes(html(de.tooManyAttempts.replace("{seconds}", "1"))));
          clock.now += 1000;
          const fourth = await post(USER.email, "wrong-3", "de");
          assert.equal(fourth.status, 401, "allowed again after the wait");
          const longer = await post(USER.email, "wrong-4", "de");
          assert.equal(longer.status, 429);
          assert.equal(longer.retryAfter, "2", "the wait doubles");
        },
      );

      await t.step(
        "the 10th failure locks the account for 15 min and notifies its admins",
        async () => {
          const post = await loginForm(office);
          let last = { status: 0, retryAfter: null as string | null, body: "" };
          for (let failure = 5; failure <= 10; failure++) {
            clock.now += 31_000;
            last = await post(USER.email, `wrong-${failure}`, "fr");
          }
          assert.equal(last.status, 429);
          assert.equal(last.retryAfter, "900");
          assert.ok(last.body.includes(html(fr.accountLocked.replace("{minutes}", "15"))));
          const right = await post(USER.email, USER.password, "uk");
          assert.equal(right.status, 429, "the right password is refused while locked");
          assert.ok(right.body.includes(html(uk.accountLocked.replace("{minutes}", "15"))));
          const page = await call("GET", `/nsm/notifications/users/${adminId}?page=0&size=20`);
          assert.equal(page.status, 200, JSON.stringify(page.body));
          const notes = (page.body.notifications as { name: string; type: string; info: string }[])
            .filter((n) => n.name === "LOGIN_LOCKED");
          assert.equal(notes.length, 1);
          assert.equal(notes[0]!.type, "SETUP_INFORMATION");
          assert.deepEqual(JSON.parse(notes[0]!.info).status, USER.email);
          assert.ok(
            logs.some((l) => l.msg === "Login locked" && l.address === "203.0.113.5"),
            "the lockout is logged with the client address",
          );
        },
      );

      await t.step("the lockout expires after 15 minutes", async () => {
        clock.now += 15 * 60_000 - 2000;
        const post = await loginForm(office);
        const early = await post(USER.email, USER.password);
        assert.equal(early.status, 429);
        assert.equal(early.retryAfter, "2");
        assert.ok(early.body.includes(html(en.accountLocked.replace("{minutes}", "1"))));
        clock.now += 2000;
        const tokens = await loginWithPassword(office, TEST_BASE_URL, USER.email, USER.password);
        assert.ok(tokens.access_token);
      });

      await t.step("an administrator's password reset ends a lockout at once", async () => {
        // From another address: ten failures would also make the office's address wait.
        const post = await loginForm(from("203.0.113.77"));
        for (let i = 0; i < 10; i++) {
          clock.now += 31_000;
          await post(USER.email, `again-${i}`);
        }
        assert.equal((await post(USER.email, USER.password)).status, 429);
        const current = (await call("GET", "/usm/users?search=ursula")).body.items[0];
        const userId = current.user_id;
        const [demo] = (await call("GET", "/csm/customers")).body as { key: string }[];
        const reset = await call("PUT", `/usm/users/${demo!.key}/${userId}`, {
          name: current.name,
          email: current.email,
          phone: current.phone,
          role: current.role,
          start_page: current.start_page,
          language: current.language,
          apps_roles: current.apps_roles,
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
        });
        assert.equal(reset.status, 200, JSON.stringify(reset.body));
        const tokens = await loginWithPassword(office, TEST_BASE_URL, USER.email, NEW_PASSWORD);
        assert.ok(tokens.access_token, "no wait for the next clock tick");
      });

      await t.step("30 failures from one address lock that address, not the others", async () => {
        const attacker = from("198.51.100.66");
        const post = await loginForm(attacker);
        let last = { status: 0, retryAfter: null as string | null, body: "" };
        for (let i = 0; i < 30; i++) {
          clock.now += 31_000;
          last = await post(`spray-${i}@demo-ew.ch`, "Winter2026!");
        }
        assert.equal(last.status, 429);
        assert.equal(last.retryAfter, "900");
        assert.ok(last.body.includes(html(en.addressLocked.replace("{minutes}", "15"))));
        const blocked = await post(ADMIN.email, ADMIN.password);
        assert.equal(blocked.status, 429, "the admin cannot log in from the locked address");
        const elsewhere = await loginWithPassword(
          from("192.0.2.10"),
          TEST_BASE_URL,
          ADMIN.email,
          ADMIN.password,
        );
        assert.ok(elsewhere.access_token, "the admin logs in from another address");
        const unknown = await loginWithPassword(
          from(null),
          TEST_BASE_URL,
          ADMIN.email,
          ADMIN.password,
        );
        assert.ok(unknown.access_token, "an unknown address is throttled per account only");
      });

      await t.step("failed and successful logins are logged with the client address", () => {
        const failed = logs.find((l) => l.msg === "Login failed" && l.email === USER.email);
        assert.equal(failed?.address, "203.0.113.5");
        assert.equal(failed?.reason, "wrongPassword");
        const ok = logs.filter((l) => l.msg === "Login").map((l) => l.address);
        assert.ok(ok.includes("203.0.113.5"));
        assert.ok(ok.includes("192.0.2.10"));
        assert.ok(ok.includes(null), "an unknown address is logged as null");
        assert.ok(!JSON.stringify(logs).includes("Winter2026!"), "no password in the logs");
      });
    } finally {
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
});

import assert from "node:assert/strict";
import { createLogger, hashPassword } from "../../kernel/mod.ts";
import type { LoginUser } from "../users/mod.ts";
import type { LoginLocked } from "./events.ts";
import { type LoginAttempt, type LoginOutcome, submitLogin } from "./login_form.ts";
import { escapeHtml, interpolate, LANGUAGES } from "./login_page.ts";
import { LoginThrottle } from "./login_throttle.ts";

const PASSWORD = "Kx7#mPq2vL9z";
const HASH = await hashPassword(PASSWORD);

const ANNA: LoginUser = {
  user_id: "u-anna",
  name: "Anna Admin",
  email: "anna.admin@demo-ew.ch",
  phone: null,
  role: "admin",
  start_page: null,
  language: "de",
  apps_roles: ["hes:default"],
  customer_key: "demo",
  user_metadata: {},
  app_metadata: {},
  latest_login: null,
  email_validated: false,
  kiosk: false,
  password_hash: HASH,
  disabled: false,
};

function harness() {
  const clock = { now: 1_000_000 };
  const logs: Record<string, unknown>[] = [];
  const published: LoginLocked[] = [];
  const logins: string[] = [];
  const deps = {
    appName: "GridWatch",
    users: {
      findByEmail: (email: string) =>
        Promise.resolve(email.toLowerCase() === ANNA.email ? ANNA : null),
      recordLogin: (id: string) => {
        logins.push(id);
        return Promise.resolve();
      },
    },
    customers: {
      getByKey: () => Promise.resolve({ authorized_email_domains: [] } as never),
    },
    logger: createLogger("info", {}, (_level, line) => logs.push(JSON.parse(line))),
    throttle: new LoginThrottle({ now: () => clock.now }),
    bus: {
      publish: (name: string, payload: unknown) => {
        if (name === "identity.loginLocked") {
          published.push(payload as LoginLocked);
        }
        return Promise.resolve();
      },
    } as never,
  };
  const submit = (
    email: string,
    password: string,
    opts: { address?: string | null; lang?: string } = {},
  ) => {
    const attempt: LoginAttempt = {
      form: new URLSearchParams({ email, password, lang: opts.lang ?? "en" }),
      pageUrl: "/oidc/interaction/abc",
      uiLocales: undefined,
      acceptLanguage: undefined,
      address: opts.address === undefined ? "198.51.100.7" : opts.address,
    };
    return submitLogin(deps, attempt);
  };
  return { clock, logs, published, logins, submit };
}

function page(outcome: LoginOutcome) {
  assert.equal(outcome.kind, "page");
  return outcome as Extract<LoginOutcome, { kind: "page" }>;
}

Deno.test("submitLogin() answers 429 with Retry-After and the wait text after three failures", async () => {
  const h = harness();
  for (let i = 0; i < 3; i++) assert.equal(page(await h.submit(ANNA.email, "wrong")).status, 401);
  const refused = page(await h.submit(ANNA.email, PASSWORD, { lang: "fr" }));
  assert.equal(refused.status, 429, "the right password waits too");
  assert.equal(refused.headers["Retry-After"], "1");
  const text = interpolate(LANGUAGES.fr.tooManyAttempts, { seconds: 1 });
  assert.ok(refused.html.includes(escapeHtml(text)));
  h.clock.now += 1000;
  assert.deepEqual(await h.submit(ANNA.email, PASSWORD), {
    kind: "login",
    accountId: "gridwatch|u-anna",
  });
  assert.deepEqual(h.logins, ["u-anna"]);
});

Deno.test("submitLogin() locks the account at the 10th failure and tells its administrators once", async () => {
  const h = harness();
  let last: LoginOutcome | undefined;
  for (let i = 0; i < 10; i++) {
    last = await h.submit(ANNA.email.toUpperCase(), `wrong-${i}`, { lang: "de" });
    h.clock.now += 31_000;
  }
  const locked = page(last!);
  assert.equal(locked.status, 429);
  assert.equal(locked.headers["Retry-After"], "900");
  const text = interpolate(LANGUAGES.de.accountLocked, { minutes: 15 });
  assert.ok(locked.html.includes(escapeHtml(text)));
  assert.equal(h.published.length, 1);
  assert.equal(h.published[0]?.email, ANNA.email);
  assert.equal(h.published[0]?.userId, "u-anna");
  assert.equal(h.published[0]?.address, "198.51.100.7");
  assert.equal(Date.parse(h.published[0]!.until) - Date.parse(h.published[0]!.at), 900_000);
  const still = page(await h.submit(ANNA.email, PASSWORD));
  assert.equal(still.status, 429, "the right password is refused during the lockout");
  assert.equal(h.published.length, 1);
});

Deno.test("submitLogin() locks an unknown e-mail like a known one, without a notification", async () => {
  const h = harness();
  let last: LoginOutcome | undefined;
  for (let i = 0; i < 10; i++) {
    last = await h.submit("nobody@demo-ew.ch", "wrong", { address: null });
    h.clock.now += 31_000;
  }
  assert.equal(page(last!).status, 429);
  assert.equal(h.published.length, 0);
  assert.ok(h.logs.some((l) => l.msg === "Login locked" && l.userId === null));
});

Deno.test("submitLogin() logs failed and successful logins with the client address", async () => {
  const h = harness();
  await h.submit(ANNA.email, "wrong");
  await h.submit("ghost@demo-ew.ch", "wrong", { address: null });
  await h.submit(ANNA.email, PASSWORD, { address: "2001:db8::7" });
  const failed = h.logs.filter((l) => l.msg === "Login failed");
  assert.deepEqual(
    failed.map((l) => [l.email, l.userId, l.address, l.reason]),
    [
      [ANNA.email, "u-anna", "198.51.100.7", "wrongPassword"],
      ["ghost@demo-ew.ch", null, null, "unknownEmail"],
    ],
  );
  const ok = h.logs.find((l) => l.msg === "Login");
  assert.deepEqual([ok?.userId, ok?.address], ["u-anna", "2001:db8::7"]);
  assert.ok(!JSON.stringify(h.logs).includes(PASSWORD), "no password in the logs");
  assert.ok(!JSON.stringify(h.logs).includes('wrong"'), "no attempted password in the logs");
});

Deno.test("submitLogin() does not count an empty form as a failure", async () => {
  const h = harness();
  for (let i = 0; i < 5; i++) assert.equal(page(await h.submit(ANNA.email, "")).status, 401);
  assert.equal((await h.submit(ANNA.email, PASSWORD)).kind, "login");
});

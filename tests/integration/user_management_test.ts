/**
 * User management and My Profile & Settings through the real login, on PGlite and PostgreSQL:
 * rights per role, foreign customers, role escalation, e-mail uniqueness (609), the password
 * codes (601, 602, 603, 604, 611), the e-mail validation link and the claims of the next token.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import type { EmailValidationRequested } from "../../modules/users/mod.ts";
import {
  databaseKinds,
  decodeClaims,
  startTestPlatform,
  TEST_BASE_URL,
  type TestPlatform,
} from "../helpers/platform.ts";

const [USER, ADMIN, SUPER_USER, SUPER_ADMIN] = DEMO_USERS;
const STRONG = "Kx7#mPq2vL9z";

interface Managed {
  user_id: string;
  name: string;
  email: string;
  phone: string | null;
  role: string;
  start_page: string | null;
  language: string;
  apps_roles: string[];
  disabled: boolean;
  email_validated: boolean;
  latest_login: string | null;
}

function client(platform: TestPlatform, token: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await platform.request(path, {
      method,
      token,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body?: unknown) => call("POST", path, body),
    put: (path: string, body: unknown) => call("PUT", path, body),
    patch: (path: string, body: unknown) => call("PATCH", path, body),
    delete: (path: string) => call("DELETE", path),
  };
}

function newUser(overrides: Record<string, unknown> = {}) {
  return {
    name: "Nina Neumann",
    email: "nina.neumann@demo-ew.ch",
    phone: "079 123 45 67",
    role: "user",
    start_page: "/metering-information",
    language: "fr",
    apps_roles: ["app:grid-metering:user", "app:grid-monitoring:user"],
    password: STRONG,
    password_confirmation: STRONG,
    ...overrides,
  };
}

const idOf = (token: string) => String(decodeClaims(token).sub).split("|")[1]!;

for (const kind of databaseKinds()) {
  Deno.test({
    name: `user management on ${kind}: rights, rules, codes and the validation link`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind);
      const links: EmailValidationRequested[] = [];
      platform.services.bus.subscribe("users.emailValidationRequested", (e) => {
        links.push(e);
      });
      try {
        const adminTokens = await platform.login(ADMIN.email, ADMIN.password);
        const admin = client(platform, adminTokens.access_token);
        const superAdmin = client(
          platform,
          (await platform.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).access_token,
        );
        const customers = (await superAdmin.get("/csm/customers")).body as {
          key: string;
          auth_connection_name: string;
        }[];
        const demo = customers.find((c) => c.auth_connection_name === "demo-ew")!.key;
        const other = customers.find((c) => c.auth_connection_name === "sw-beispiel")!.key;
        let nina = {} as Managed;

        await t.step("only user-management admins may call it", async () => {
          for (const account of [USER, SUPER_USER]) {
            const token = (await platform.login(account.email, account.password)).access_token;
            const res = await client(platform, token).get("/usm/users");
            assert.equal(res.status, 403, account.email);
          }
        });

        await t.step("an admin creates a user with start page and module access", async () => {
          const res = await admin.post("/usm/users", newUser());
          assert.equal(res.status, 201, JSON.stringify(res.body));
          nina = res.body as Managed;
          assert.equal(nina.phone, "+41 79 123 45 67");
          assert.deepEqual(nina.apps_roles, [
            "app:grid-metering:user",
            "app:grid-monitoring:user",
            "hes:default",
          ]);
          assert.equal(nina.email_validated, false);
          assert.equal("password_hash" in nina, false);
        });

        await t.step(
          "the new user logs in and the token carries the assigned profile",
          async () => {
            const tokens = await platform.login("Nina.Neumann@demo-ew.ch", STRONG);
            const claims = decodeClaims(tokens.access_token);
            assert.equal(claims.start_page, "/metering-information");
            assert.equal(claims.language, "fr");
            assert.deepEqual(claims.roles, ["user"]);
            const me = await client(platform, tokens.access_token)
              .get(`/usm/users/current/${nina.user_id}`);
            assert.ok((me.body as Managed).latest_login, "latest login recorded");
          },
        );

        await t.step("the list has 17 users per page, a total and a search", async () => {
          for (let i = 0; i < 14; i++) {
            const res = await admin.post(
              "/usm/users",
              newUser({
                name: `Paged Person ${String(i).padStart(2, "0")}`,
                email: `paged${i}@demo-ew.ch`,
                phone: null,
                password: `Kx7#mPq2vL9z-${i}`,
                password_confirmation: undefined,
              }),
            );
            assert.equal(res.status, 201, JSON.stringify(res.body));
          }
          const first = (await admin.get("/usm/users")).body as {
            items: Managed[];
            total: number;
            page_size: number;
          };
          assert.equal(first.page_size, 17);
          assert.equal(first.total, 20, "5 demo users + Nina + 14");
          assert.equal(first.items.length, 17);
          const second = (await admin.get("/usm/users?page=2")).body as { items: Managed[] };
          assert.equal(second.items.length, 3);
          const found = (await admin.get("/usm/users?search=NEUMANN")).body as {
            items: Managed[];
            total: number;
          };
          assert.deepEqual(found.items.map((u) => u.email), ["nina.neumann@demo-ew.ch"]);
          const byMail = (await admin.get("/usm/users?search=paged1")).body as { total: number };
          assert.equal(byMail.total, 5, "paged1, paged10-13");
          const none = (await admin.get("/usm/users?search=%25")).body as { total: number };
          assert.equal(none.total, 0, "% is searched literally");
        });

        await t.step("609: the same e-mail cannot be used twice, in any case", async () => {
          const res = await admin.post(
            "/usm/users",
            newUser({ email: "NINA.neumann@demo-ew.ch", name: "Other Nina" }),
          );
          assert.equal(res.status, 409);
          assert.equal(res.body.code, 609);
          const put = await admin.put(`/usm/users/${demo}/${nina.user_id}`, {
            ...newUser({ email: ADMIN.email }),
            password: undefined,
            password_confirmation: undefined,
          });
          assert.equal(put.body.code, 609);
        });

        await t.step(
          "password codes 601, 603, 604 and a mismatching confirmation",
          async () => {
            const cases: [string, number | string][] = [
              ["Sh0rt!A", 601],
              ["kx7#mpq2vl9z", 601],
              ["Password1!", 603],
              ["Neumann-Kettle-42", 604],
              ["Abcdefg1!", 601],
            ];
            for (const [password, code] of cases) {
              const res = await admin.post(
                "/usm/users",
                newUser({ email: "pw@demo-ew.ch", password, password_confirmation: password }),
              );
              assert.equal(res.status, 422, password);
              assert.equal(res.body.code, code, password);
            }
            const mismatch = await admin.post(
              "/usm/users",
              newUser({ email: "pw@demo-ew.ch", password_confirmation: `${STRONG}x` }),
            );
            assert.equal(mismatch.body.key, "users.passwordMismatch");
            const list = (await admin.get("/usm/users?search=pw@")).body as { total: number };
            assert.equal(list.total, 0, "a refused user leaves nothing behind");
          },
        );

        await t.step("fields: name, phone, language and start page are checked", async () => {
          const bad = [
            [{ name: "Al" }, 400],
            [{ name: "Nina / Ops" }, 400],
            [{ phone: "12" }, 400],
            [{ email: "not-an-email" }, 400],
            [{ apps_roles: ["app:grid-monitoring:root"] }, 400],
            [{ start_page: "/global-settings" }, 422],
          ] as const;
          for (const [overrides, status] of bad) {
            const res = await admin.post(
              "/usm/users",
              newUser({ email: "f@demo-ew.ch", ...overrides }),
            );
            assert.equal(res.status, status, JSON.stringify(overrides));
          }
          const phone = await admin.post(
            "/usm/users",
            newUser({ email: "f@demo-ew.ch", phone: "12" }),
          );
          assert.deepEqual(phone.body.params.issues, [{
            path: "phone",
            key: "validation.phoneInvalid",
            params: {},
          }]);
          const short = await admin.post(
            "/usm/users",
            newUser({ email: "f@demo-ew.ch", name: "Al" }),
          );
          assert.deepEqual(short.body.params.issues, [{
            path: "name",
            key: "validation.nameMin",
            params: { count: 3 },
          }]);
          const uk = await superAdmin.post(
            "/usm/users",
            newUser({ email: "uk@sw-beispiel.ch", language: "uk", customer_key: other }),
          );
          assert.equal(uk.body.key, "users.languageNotAvailable");
        });

        await t.step("nobody grants a role or an app role above their own", async () => {
          const superUser = await admin.post(
            "/usm/users",
            newUser({ email: "su@demo-ew.ch", role: "super-user" }),
          );
          assert.equal(superUser.body.key, "users.roleAboveOwn");
          const limited = await superAdmin.post(
            "/usm/users",
            newUser({
              name: "Lena Limited",
              email: "lena@demo-ew.ch",
              role: "admin",
              start_page: "/user-management",
              apps_roles: ["hes:um:admin", "app:grid-monitoring:user"],
            }),
          );
          assert.equal(limited.status, 201, JSON.stringify(limited.body));
          const lena = client(
            platform,
            (await platform.login("lena@demo-ew.ch", STRONG)).access_token,
          );
          for (const entry of ["app:grid-monitoring:admin", "app:power-quality:user"]) {
            const res = await lena.post(
              "/usm/users",
              newUser({ email: "x@demo-ew.ch", start_page: null, apps_roles: [entry] }),
            );
            assert.equal(res.body.key, "users.roleAboveOwn", entry);
          }
          const ok = await lena.post(
            "/usm/users",
            newUser({
              email: "x@demo-ew.ch",
              start_page: "/grid-monitoring",
              apps_roles: ["app:grid-monitoring:user"],
            }),
          );
          assert.equal(ok.status, 201);
          const superAdminId = idOf(
            (await platform.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).access_token,
          );
          const edit = await admin.put(`/usm/users/${demo}/${superAdminId}`, {
            ...newUser({ email: SUPER_ADMIN.email, role: "user", start_page: null }),
            password: undefined,
            password_confirmation: undefined,
          });
          assert.equal(edit.body.key, "users.roleAboveOwn", "an admin cannot edit a super-admin");
        });

        await t.step("nobody deletes, disables or demotes themselves", async () => {
          const me = idOf(adminTokens.access_token);
          assert.equal(
            (await admin.delete(`/usm/users/${demo}/${me}`)).body.key,
            "users.selfLockout",
          );
          assert.equal(
            (await admin.post(`/usm/users/${demo}/${me}/disable`)).body.key,
            "users.selfLockout",
          );
          const current = (await admin.get(`/usm/users/${demo}/${me}`)).body as Managed;
          const demote = await admin.put(`/usm/users/${demo}/${me}`, {
            name: current.name,
            email: current.email,
            phone: null,
            role: "user",
            start_page: null,
            language: "en",
            apps_roles: current.apps_roles,
          });
          assert.equal(demote.body.key, "users.selfLockout");
          const dropRight = await admin.put(`/usm/users/${demo}/${me}`, {
            name: current.name,
            email: current.email,
            phone: null,
            role: "admin",
            start_page: null,
            language: "en",
            apps_roles: current.apps_roles.filter((e) => e !== "hes:um:admin"),
          });
          assert.equal(dropRight.body.key, "users.selfLockout");
          const ownPassword = await admin.put(`/usm/users/${demo}/${me}`, {
            name: current.name,
            email: current.email,
            phone: null,
            role: "admin",
            start_page: null,
            language: "en",
            apps_roles: current.apps_roles,
            password: STRONG,
          });
          assert.equal(ownPassword.body.key, "users.ownPasswordInProfile");
        });

        await t.step(
          "a foreign customer's users look missing (404), except to super roles",
          async () => {
            const otherId = idOf(
              (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password)).access_token,
            );
            assert.equal((await admin.get(`/usm/users/${other}/${otherId}`)).status, 404);
            assert.equal((await admin.get(`/usm/users/${demo}/${otherId}`)).status, 404);
            assert.equal((await admin.get(`/usm/users?customer=${other}`)).status, 404);
            assert.equal((await admin.delete(`/usm/users/${other}/${otherId}`)).status, 404);
            const list = await superAdmin.get(`/usm/users?customer=${other}`);
            assert.equal(list.status, 200);
            assert.deepEqual((list.body.items as Managed[]).map((u) => u.email), [
              OTHER_ADMIN.email,
            ]);
          },
        );

        await t.step(
          "changes reach the claims of the next token; disabled users cannot log in",
          async () => {
            const put = await admin.put(`/usm/users/${demo}/${nina.user_id}`, {
              ...newUser({ start_page: "/grid-monitoring", language: "de" }),
              password: undefined,
              password_confirmation: undefined,
            });
            assert.equal(put.status, 200, JSON.stringify(put.body));
            const claims = decodeClaims((await platform.login(nina.email, STRONG)).access_token);
            assert.equal(claims.start_page, "/grid-monitoring");
            assert.equal(claims.language, "de");
            const disabled = await admin.post(`/usm/users/${demo}/${nina.user_id}/disable`);
            assert.equal((disabled.body as Managed).disabled, true);
            await assert.rejects(
              platform.login(nina.email, STRONG),
              /Login failed with status 401/,
            );
            await admin.post(`/usm/users/${demo}/${nina.user_id}/enable`);
            await platform.login(nina.email, STRONG);
          },
        );

        await t.step("an admin's password reset refuses the last passwords (602)", async () => {
          const put = (password: string) =>
            admin.put(`/usm/users/${demo}/${nina.user_id}`, {
              ...newUser(),
              password,
              password_confirmation: password,
            });
          assert.equal((await put(STRONG)).body.code, 602, "the current password");
          assert.equal((await put("Blue-Kettle-42-Moss")).status, 200);
          assert.equal((await put(STRONG)).body.code, 602, "an earlier password");
          await platform.login(nina.email, "Blue-Kettle-42-Moss");
        });

        const ninaTokens = await platform.login(nina.email, "Blue-Kettle-42-Moss");
        const me = client(platform, ninaTokens.access_token);
        const mine = `/usm/users/current/${nina.user_id}`;

        await t.step("My Profile: name, phone, language and start page", async () => {
          const res = await me.patch(mine, {
            name: "Nina Neumann-Roth",
            phone: "+33 6 12 34 56 78",
            language: "en",
            start_page: "/metering-information",
          });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          assert.equal(res.body.phone, "+33 6 12 34 56 78");
          assert.equal(res.body.user_metadata.language, "en");
          assert.equal(
            (await me.patch(mine, { start_page: "/user-management" })).body.key,
            "users.startPageNotReachable",
          );
          assert.equal((await me.patch(mine, { phone: "0000" })).status, 400);
          assert.equal((await me.patch(mine, { role: "admin" })).status, 400);
          const otherMe = await me.patch(`/usm/users/current/${idOf(adminTokens.access_token)}`, {
            language: "en",
          });
          assert.equal(otherMe.status, 404);
        });

        await t.step(
          "My Profile: password change needs the current one and the policy",
          async () => {
            const change = (body: unknown) => me.post(`${mine}/password`, body);
            assert.equal(
              (await change({ current_password: "nope", password: STRONG })).body.key,
              "users.currentPasswordWrong",
            );
            assert.equal(
              (await change({ current_password: "Blue-Kettle-42-Moss", password: "Password1!" }))
                .body.code,
              603,
            );
            assert.equal(
              (await change({ current_password: "Blue-Kettle-42-Moss", password: STRONG })).body
                .code,
              602,
            );
            const ok = await change({
              current_password: "Blue-Kettle-42-Moss",
              password: "Gr1dW@tch-Zeta-77",
              password_confirmation: "Gr1dW@tch-Zeta-77",
            });
            assert.equal(ok.status, 204);
            await platform.login(nina.email, "Gr1dW@tch-Zeta-77");
          },
        );

        await t.step(
          "e-mail notifications need a validated e-mail; the link works once",
          async () => {
            const settings = {
              apps: { "app:grid-monitoring": { web: true, email: true } },
              email: true,
            };
            const refused = await me.patch(mine, { notification: settings });
            assert.equal(refused.status, 422);
            assert.equal(refused.body.key, "users.emailNotValidated");
            assert.equal(
              (await me.patch(mine, { notification: { apps: { x: "yes" }, email: false } })).status,
              400,
            );

            const sent = await me.post(`${mine}/email-validation`);
            assert.equal(sent.status, 202);
            const event = links.at(-1)!;
            assert.equal(event.userId, nina.user_id);
            assert.equal(event.email, "nina.neumann@demo-ew.ch");
            assert.ok(event.link.startsWith(`${TEST_BASE_URL}/usm/email-validation/`));
            const path = new URL(event.link).pathname;
            const first = await platform.request(path);
            assert.equal(first.status, 302);
            assert.equal(
              first.headers.get("location"),
              "/user-settings?email-validation=done#notification-settings",
            );
            const again = await platform.request(path);
            assert.equal(
              again.headers.get("location"),
              "/user-settings?email-validation=invalid#notification-settings",
            );
            assert.equal((await me.get(mine)).body.email_validated, true);
            const stored = await me.patch(mine, { notification: settings });
            assert.equal(stored.status, 200);
            assert.deepEqual(stored.body.user_metadata.notification, settings);
            const claims = decodeClaims(
              (await platform.login(nina.email, "Gr1dW@tch-Zeta-77")).access_token,
            );
            assert.equal(claims.email_verified, true);
          },
        );

        await t.step(
          "an expired link validates nothing; a new e-mail clears the validation",
          async () => {
            await me.post(`${mine}/email-validation`);
            const path = new URL(links.at(-1)!.link).pathname;
            await platform.services.db.execute(
              sql`UPDATE users.email_validation_tokens SET expires_at = now() - interval '1 minute' WHERE used_at IS NULL`,
            );
            const expired = await platform.request(path);
            assert.equal(
              expired.headers.get("location"),
              "/user-settings?email-validation=invalid#notification-settings",
            );
            const put = await admin.put(`/usm/users/${demo}/${nina.user_id}`, {
              ...newUser({ email: "nina.roth@demo-ew.ch" }),
              password: undefined,
              password_confirmation: undefined,
            });
            assert.equal(put.status, 200);
            assert.equal(put.body.email_validated, false);
            assert.equal(put.body.user_metadata.notification.email, false);
            assert.equal(
              put.body.user_metadata.notification.apps["app:grid-monitoring"].email,
              false,
            );
          },
        );

        await t.step("an admin deletes a user, who can no longer log in", async () => {
          assert.equal((await admin.delete(`/usm/users/${demo}/${nina.user_id}`)).status, 204);
          assert.equal((await admin.get(`/usm/users/${demo}/${nina.user_id}`)).status, 404);
          await assert.rejects(platform.login("nina.roth@demo-ew.ch", "Gr1dW@tch-Zeta-77"));
        });
      } finally {
        await platform.close();
      }
    },
  });
}

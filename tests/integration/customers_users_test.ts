/**
 * csm and usm calls through the real login, on PGlite and on PostgreSQL: what each role sees,
 * and that another customer's data looks exactly like missing data (404).
 */
import assert from "node:assert/strict";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { databaseKinds, decodeClaims, startTestPlatform } from "../helpers/platform.ts";

const [USER, ADMIN, , SUPER_ADMIN] = DEMO_USERS;

for (const kind of databaseKinds()) {
  Deno.test({
    name: `csm and usm on ${kind}: roles, tenant isolation and error bodies`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind);
      try {
        const admin = await platform.login(ADMIN.email, ADMIN.password);
        const other = await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password);
        const superAdmin = await platform.login(SUPER_ADMIN.email, SUPER_ADMIN.password);

        await t.step("GET /csm/customers lists only the caller's customer", async () => {
          const res = await platform.request("/csm/customers", { token: admin.access_token });
          assert.equal(res.status, 200);
          const list = await res.json() as {
            auth_connection_name: string;
            default_timezone: string;
          }[];
          assert.deepEqual(list.map((c) => c.auth_connection_name), ["demo-ew"]);
          assert.equal(list[0]!.default_timezone, "Europe/Zurich");
        });

        const all =
          await (await platform.request("/csm/customers", { token: superAdmin.access_token }))
            .json() as { key: string; auth_connection_name: string }[];
        const demoKey = all.find((c) => c.auth_connection_name === "demo-ew")!.key;
        const otherKey = all.find((c) => c.auth_connection_name === "sw-beispiel")!.key;

        await t.step("GET /csm/customers shows every customer to a super-admin", () => {
          assert.equal(all.length, 2);
        });

        await t.step("GET /csm/customers/{cid} answers 200 for the own customer", async () => {
          const res = await platform.request(`/csm/customers/${demoKey}`, {
            token: admin.access_token,
          });
          assert.equal(res.status, 200);
          assert.equal((await res.json() as { name: string }).name, "EW Demo AG");
        });

        await t.step(
          "GET /csm/customers/{cid} answers the same 404 for foreign, unknown and malformed ids",
          async () => {
            const bodies = [];
            for (const cid of [otherKey, crypto.randomUUID(), "x'%20or%201=1--", "..%2F..%2Fetc"]) {
              const res = await platform.request(`/csm/customers/${cid}`, {
                token: admin.access_token,
              });
              assert.equal(res.status, 404, cid);
              bodies.push(await res.json());
            }
            for (const body of bodies) {
              assert.deepEqual(body, { key: "common.notFound", params: {} });
            }
            const res = await platform.request(`/csm/customers/${demoKey}`, {
              token: other.access_token,
            });
            assert.equal(res.status, 404);
            await res.body?.cancel();
          },
        );

        await t.step("GET /usm/users/current/{id} returns the caller's profile", async () => {
          const id = String(decodeClaims(admin.access_token).sub).split("|")[1]!;
          const res = await platform.request(`/usm/users/current/${id}`, {
            token: admin.access_token,
          });
          assert.equal(res.status, 200);
          const user = await res.json() as Record<string, unknown>;
          assert.equal(user.email, ADMIN.email);
          assert.equal(user.role, "admin");
          assert.equal(user.start_page, "/infrastructure-setup");
          assert.ok((user.apps_roles as string[]).includes("hes:cm:admin"));
          assert.equal("password_hash" in user, false);
          assert.ok(user.latest_login);
        });

        await t.step("GET /usm/users/current/{id} answers 404 for another user's id", async () => {
          const otherId = String(decodeClaims(other.access_token).sub).split("|")[1]!;
          const res = await platform.request(`/usm/users/current/${otherId}`, {
            token: admin.access_token,
          });
          assert.equal(res.status, 404);
          await res.body?.cancel();
        });

        await t.step(
          "PATCH /usm/users/current/{id} stores the interface language, validated",
          async () => {
            const id = String(decodeClaims(admin.access_token).sub).split("|")[1]!;
            const patch = (body: unknown) =>
              platform.request(`/usm/users/current/${id}`, {
                method: "PATCH",
                token: admin.access_token,
                headers: { "content-type": "application/json" },
                body: JSON.stringify(body),
              });
            const ok = await patch({ language: "fr" });
            assert.equal(ok.status, 200);
            assert.equal((await ok.json() as { language: string }).language, "fr");
            for (const bad of [{ language: "xx" }, { language: "fr", role: "super-admin" }, {}]) {
              const res = await patch(bad);
              assert.equal(res.status, 400, JSON.stringify(bad));
              assert.equal((await res.json() as { key: string }).key, "common.validation");
            }
            const again = await platform.request(`/usm/users/current/${id}`, {
              token: admin.access_token,
            });
            const user = await again.json() as {
              language: string;
              role: string;
              user_metadata: { language: string };
            };
            assert.equal(user.language, "fr");
            assert.equal(user.user_metadata.language, "fr");
            assert.equal(user.role, "admin");
          },
        );

        await t.step("calls without a valid token answer 401 with the catalogue body", async () => {
          for (
            const token of [
              undefined,
              "abc",
              admin.id_token,
              `${admin.access_token.slice(0, -4)}AAAA`,
            ]
          ) {
            const res = await platform.request("/csm/customers", token ? { token } : {});
            assert.equal(res.status, 401);
            const body = await res.json() as { key: string };
            assert.equal(body.key, "common.unauthorized");
          }
        });

        await t.step("a plain user's token carries the claims of spec 2.9", async () => {
          const user = await platform.login(USER.email, USER.password);
          const claims = decodeClaims(user.access_token);
          assert.equal(claims.aud, "urn:gridwatch:api");
          assert.deepEqual(claims.roles, ["user"]);
          assert.equal(claims.start_page, "/grid-monitoring");
          assert.equal((claims.app_metadata as { customer: string }).customer, "demo-ew");
          assert.ok(user.refresh_token, "offline_access gives a refresh token");
        });
      } finally {
        await platform.close();
      }
    },
  });
}

import assert from "node:assert/strict";
import type { Principal, Role } from "./auth.ts";
import { createHttpApp } from "./http.ts";
import { createLogger } from "./logger.ts";
import { CUSTOMER_HEADER, type Tenant, tenant, type TenantDirectory } from "./tenant.ts";

const OWN: Tenant = { key: "own-key", connection: "own", applications: [] };
const OTHER: Tenant = { key: "other-key", connection: "other", applications: ["app:x"] };

const directory: TenantDirectory = {
  byConnection: (connection) =>
    Promise.resolve([OWN, OTHER].find((t) => t.connection === connection) ?? null),
  byKey: (key) => Promise.resolve([OWN, OTHER].find((t) => t.key === key) ?? null),
};

/** An app whose principal has `role` in `customer`, answering the tenants it resolved. */
function appFor(role: Role, customer = "own") {
  const app = createHttpApp(createLogger("error"));
  const principal: Principal = {
    sub: "gridwatch|u1",
    userId: "u1",
    customer,
    role,
    appsRoles: [],
    language: "en",
  };
  app.use("*", async (c, next) => {
    c.set("principal", principal);
    await next();
  });
  app.use("*", tenant(directory));
  app.get("/x", (c) => c.json({ tenant: c.get("tenant").key, home: c.get("homeTenant").key }));
  return app;
}

const pick = (key: string) => ({ headers: { [CUSTOMER_HEADER]: key } });

Deno.test("tenant() binds a user to their token's customer", async () => {
  const res = await appFor("admin").request("/x");
  assert.deepEqual(await res.json(), { tenant: "own-key", home: "own-key" });
  const own = await appFor("user").request("/x", pick("own-key"));
  assert.deepEqual(await own.json(), { tenant: "own-key", home: "own-key" });
});

Deno.test("tenant() answers 404 to a non-super role naming another customer", async () => {
  for (const role of ["user", "admin"] as const) {
    for (const key of ["other-key", "missing", "bad key;"]) {
      const res = await appFor(role).request("/x", pick(key));
      assert.equal(res.status, 404, `${role} -> ${key}`);
      assert.equal((await res.json()).key, "common.notFound");
    }
  }
});

Deno.test("tenant() lets a super role act on the customer it names, keeping its own home", async () => {
  for (const role of ["super-user", "super-admin"] as const) {
    const res = await appFor(role).request("/x", pick("other-key"));
    assert.deepEqual(await res.json(), { tenant: "other-key", home: "own-key" });
    assert.equal((await appFor(role).request("/x", pick("missing"))).status, 404);
    assert.equal((await appFor(role).request("/x", pick("x".repeat(65)))).status, 404);
  }
});

Deno.test("tenant() answers 404 when the token's customer no longer exists", async () => {
  assert.equal((await appFor("super-admin", "gone").request("/x")).status, 404);
});

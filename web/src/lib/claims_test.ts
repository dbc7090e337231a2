import assert from "node:assert/strict";
import { readClaims, roleFrom, userIdFromSub } from "./claims.ts";

Deno.test("userIdFromSub() drops the identity provider prefix before |", () => {
  assert.equal(userIdFromSub("gridwatch|3f0c"), "3f0c");
  assert.equal(userIdFromSub("plain"), "plain");
});

Deno.test("roleFrom() picks the highest known role", () => {
  assert.equal(roleFrom(["admin"]), "admin");
  assert.equal(roleFrom(["user", "super-admin"]), "super-admin");
  assert.equal(roleFrom(undefined), "user");
});

Deno.test("readClaims() reads customer and documentation key from app_metadata", () => {
  const claims = readClaims({
    sub: "gridwatch|42",
    name: "Anna Admin",
    apps_roles: ["hes:um:admin", 3],
    roles: ["admin"],
    app_metadata: { documentation: { key: "demo" }, customer: "demo-ew" },
  });
  assert.equal(claims.userId, "42");
  assert.equal(claims.customer, "demo-ew");
  assert.equal(claims.documentationKey, "demo");
  assert.deepEqual(claims.appsRoles, ["hes:um:admin"]);
  assert.equal(claims.language, null);
});

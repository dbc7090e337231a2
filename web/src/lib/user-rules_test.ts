import assert from "node:assert/strict";
import {
  appRoleOf,
  canGrantAppRole,
  canGrantRole,
  isValidEmail,
  isValidPhone,
  nameError,
  reachableStartPages,
  withAppRole,
} from "./user-rules.ts";

const ctx = (appsRoles: string[], customerApplications: string[] = []) => ({
  appsRoles,
  defaultStartPageKey: "hes:data-export",
  appsOpenToAll: ["user-settings", "app:api-doc"],
  customerApplications,
});

Deno.test("reachableStartPages() lists the pages the server accepts as start pages", () => {
  const paths = reachableStartPages(ctx(["hes:default", "app:grid-monitoring:user"]))
    .map((p) => p.path);
  assert.deepEqual(paths, ["/data-export", "/user-settings", "/grid-monitoring", "/api-doc"]);
  const admin = reachableStartPages(ctx(["app:grid-monitoring:admin", "app:io-monitoring:user"]))
    .map((p) => p.path);
  assert.ok(admin.includes("/grid-monitoring-settings"));
  assert.ok(!admin.includes("/io-monitoring"), "not in the customer's applications");
});

Deno.test("withAppRole() sets, changes and removes one module's role", () => {
  const roles = withAppRole(["hes:default"], "app:grid-monitoring", "user");
  assert.deepEqual(roles, ["hes:default", "app:grid-monitoring:user"]);
  assert.equal(
    appRoleOf(withAppRole(roles, "app:grid-monitoring", "admin"), "app:grid-monitoring"),
    "admin",
  );
  assert.deepEqual(withAppRole(roles, "app:grid-monitoring", null), ["hes:default"]);
});

Deno.test("canGrantRole() and canGrantAppRole() never go above the granter", () => {
  assert.ok(canGrantRole("admin", "user"));
  assert.ok(!canGrantRole("admin", "super-user"));
  const admin = { role: "admin" as const, appsRoles: ["app:grid-monitoring:user"] };
  assert.ok(canGrantAppRole(admin, "app:grid-monitoring", "user"));
  assert.ok(!canGrantAppRole(admin, "app:grid-monitoring", "admin"));
  assert.ok(canGrantAppRole({ role: "super-admin", appsRoles: [] }, "hes:cm", "admin"));
});

Deno.test("nameError(), isValidEmail() and isValidPhone() mirror the rules of spec 5", () => {
  assert.equal(nameError("Al"), "validation.nameMin");
  assert.equal(nameError("x".repeat(61)), "validation.nameMax");
  assert.equal(nameError("Anna / Ops"), "validation.forbiddenChars");
  assert.equal(nameError("Anna Admin"), null);
  assert.ok(isValidEmail("anna@demo-ew.ch"));
  assert.ok(!isValidEmail("anna@demo"));
  assert.ok(isValidPhone("", "CH"), "empty is allowed");
  assert.ok(isValidPhone("079 123 45 67", "CH"));
  assert.ok(!isValidPhone("12", "CH"));
});

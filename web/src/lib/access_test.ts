import assert from "node:assert/strict";
import { type AccessContext, canAccess, denialReason, holdsKey, isAdminOf } from "./access.ts";

const ctx = (appsRoles: string[], customerApplications: string[] = []): AccessContext => ({
  appsRoles,
  defaultStartPageKey: "hes:data-export",
  appsOpenToAll: ["user-settings", "app:api-doc"],
  customerApplications,
});
const at = (pathname: string, hash = "") => ({ pathname, hash });

Deno.test("holdsKey() matches the exact key or a key followed by a role segment", () => {
  assert.equal(holdsKey(["app:grid-monitoring:user"], "app:grid-monitoring"), true);
  assert.equal(holdsKey(["hes:um"], "hes:um"), true);
  assert.equal(holdsKey(["hes:um-extra:user"], "hes:um"), false);
  assert.equal(holdsKey([], "hes:um"), false);
});

Deno.test("isAdminOf() needs the exact key:admin entry", () => {
  assert.equal(isAdminOf(["hes:um:admin"], "hes:um"), true);
  assert.equal(isAdminOf(["hes:um:user"], "hes:um"), false);
  assert.equal(isAdminOf(["hes:um"], "hes:um"), false);
});

Deno.test("canAccess() grants the default start page key without any role", () => {
  assert.equal(canAccess({ key: "hes:data-export" }, ctx([]), at("/data-export")), true);
});

Deno.test("canAccess() grants keys open to all logged-in users", () => {
  assert.equal(canAccess({ key: "app:api-doc" }, ctx([]), at("/api-doc")), true);
  assert.equal(canAccess({ key: "user-settings" }, ctx([]), at("/user-settings")), true);
});

Deno.test("canAccess() grants a key held in apps_roles and refuses one that is not", () => {
  const user = ctx(["app:grid-monitoring:user"]);
  assert.equal(canAccess({ key: "app:grid-monitoring" }, user, at("/grid-monitoring")), true);
  assert.equal(canAccess({ key: "app:power-quality" }, user, at("/power-quality/reports")), false);
});

Deno.test("canAccess() refuses an admin-only route to a user without the :admin role", () => {
  const access = { key: "hes:um", adminOnly: true };
  assert.equal(canAccess(access, ctx(["hes:um:user"]), at("/user-management")), false);
  assert.equal(canAccess(access, ctx(["hes:um:admin"]), at("/user-management")), true);
  assert.equal(denialReason(access, ctx(["hes:um:user"])), "admin-only");
  assert.equal(denialReason(access, ctx([])), "no-role");
});

Deno.test("canAccess() offers /io-monitoring only when the customer's applications list it", () => {
  const access = { key: "app:io-monitoring", requiresCustomerApplication: true };
  const roles = ["app:io-monitoring:user"];
  assert.equal(canAccess(access, ctx(roles, []), at("/io-monitoring")), false);
  assert.equal(canAccess(access, ctx(roles, ["app:io-monitoring"]), at("/io-monitoring")), true);
  assert.equal(canAccess(access, ctx([], ["app:io-monitoring"]), at("/io-monitoring")), false);
  assert.equal(denialReason(access, ctx(roles, [])), "not-in-customer-applications");
});

Deno.test("canAccess() needs a hes:io-configuration role for #io-configuration on infrastructure setup", () => {
  const access = { key: "hes:infrastructure-setup" };
  const setupOnly = ctx(["hes:infrastructure-setup:admin"]);
  const withIo = ctx(["hes:infrastructure-setup:admin", "hes:io-configuration:user"]);
  assert.equal(canAccess(access, setupOnly, at("/infrastructure-setup")), true);
  assert.equal(
    canAccess(access, setupOnly, at("/infrastructure-setup", "#io-configuration")),
    false,
  );
  assert.equal(
    canAccess(access, setupOnly, at("/infrastructure-setup/", "io-configuration")),
    false,
  );
  assert.equal(canAccess(access, withIo, at("/infrastructure-setup", "#io-configuration")), true);
});

Deno.test("canAccess() ignores the io-configuration hash on other routes", () => {
  assert.equal(canAccess(undefined, ctx([]), at("/404", "#io-configuration")), true);
});

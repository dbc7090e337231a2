import assert from "node:assert/strict";
import type { Principal } from "../../kernel/mod.ts";
import { kioskAllowed } from "./contract.ts";
import { wantsEmail } from "./profile.ts";
import {
  canGrantAppRole,
  canGrantRole,
  isAllowedName,
  isAppsRolesEntry,
  normalizeAppsRoles,
  normalizePhone,
  reachableStartPages,
} from "./rules.ts";
import { withoutEmailValidation } from "./service.ts";

const admin = (appsRoles: string[]): Pick<Principal, "role" | "appsRoles"> => ({
  role: "admin",
  appsRoles,
});

Deno.test("reachableStartPages() offers open pages, held keys and admin pages to admins only", () => {
  const pages = reachableStartPages(
    ["hes:default", "app:grid-monitoring:user", "hes:um:admin"],
    ["app:grid-monitoring"],
  );
  assert.deepEqual(pages, [
    "/data-export",
    "/user-settings",
    "/user-management",
    "/grid-monitoring",
    "/api-doc",
  ]);
  assert.ok(!pages.includes("/grid-monitoring-settings"), "needs app:grid-monitoring:admin");
});

Deno.test("reachableStartPages() offers IO monitoring only when the customer lists it", () => {
  const roles = ["app:io-monitoring:user"];
  assert.ok(!reachableStartPages(roles, []).includes("/io-monitoring"));
  assert.ok(reachableStartPages(roles, ["app:io-monitoring"]).includes("/io-monitoring"));
});

Deno.test("isAppsRolesEntry() accepts hes:default and <module key>:<user|admin> only", () => {
  assert.ok(isAppsRolesEntry("hes:default"));
  assert.ok(isAppsRolesEntry("app:grid-monitoring:admin"));
  assert.ok(isAppsRolesEntry("hes:um:user"));
  for (const bad of ["app:grid-monitoring", "app:grid-monitoring:root", "app:unknown:user", ""]) {
    assert.equal(isAppsRolesEntry(bad), false, bad);
  }
  assert.deepEqual(normalizeAppsRoles(["hes:um:admin", "hes:um:admin"]), [
    "hes:default",
    "hes:um:admin",
  ]);
});

Deno.test("canGrantRole() never grants above the caller's own role", () => {
  assert.ok(canGrantRole({ role: "admin" }, "admin"));
  assert.ok(!canGrantRole({ role: "admin" }, "super-user"));
  assert.ok(canGrantRole({ role: "super-admin" }, "super-admin"));
  assert.ok(!canGrantRole({ role: "super-user" }, "super-admin"));
});

Deno.test("canGrantAppRole() grants only app roles the caller holds (super-admin: any)", () => {
  const caller = admin(["hes:default", "app:grid-monitoring:user", "hes:um:admin"]);
  assert.ok(canGrantAppRole(caller, "app:grid-monitoring:user"));
  assert.ok(!canGrantAppRole(caller, "app:grid-monitoring:admin"));
  assert.ok(!canGrantAppRole(caller, "app:power-quality:user"));
  assert.ok(canGrantAppRole(caller, "hes:um:user"), "an admin may grant the user role");
  assert.ok(canGrantAppRole({ role: "super-admin", appsRoles: [] }, "hes:cm:admin"));
});

Deno.test("isAllowedName() refuses the forbidden characters of spec 5", () => {
  assert.ok(isAllowedName("Anna-Lena O'Neil"));
  for (const c of [":", "<", ">", '"', "/", "\\", "|", "?", "*", "!"]) {
    assert.equal(isAllowedName(`Anna${c}`), false, c);
  }
});

Deno.test("normalizePhone() reads national numbers with the customer's country", () => {
  assert.equal(normalizePhone("079 123 45 67", "CH"), "+41 79 123 45 67");
  assert.equal(normalizePhone("+33 6 12 34 56 78", "CH"), "+33 6 12 34 56 78");
  assert.equal(normalizePhone("079 123 45 67", ""), null, "national without a country");
  assert.equal(normalizePhone("12", "CH"), null);
});

Deno.test("wantsEmail() sees the global and the per-app e-mail switches", () => {
  assert.equal(wantsEmail({ apps: { a: true }, email: false }), false);
  assert.equal(wantsEmail({ apps: {}, email: true }), true);
  assert.equal(wantsEmail({ apps: { a: { web: true, email: true } }, email: false }), true);
});

Deno.test("withoutEmailValidation() clears the validation and every e-mail switch", () => {
  const after = withoutEmailValidation({
    email_validated: true,
    language: "fr",
    notification: { apps: { a: { web: true, email: true }, b: true }, email: true },
  });
  assert.deepEqual(after, {
    email_validated: false,
    language: "fr",
    notification: { apps: { a: { web: true, email: false }, b: true }, email: false },
  });
});

Deno.test("kioskAllowed() only for the role user without any module's admin rights", () => {
  assert.equal(kioskAllowed("user", ["hes:default", "app:grid-monitoring:user"]), true);
  assert.equal(kioskAllowed("user", ["hes:default", "hes:um:admin"]), false);
  assert.equal(kioskAllowed("admin", ["hes:default"]), false);
  assert.equal(kioskAllowed("super-user", ["hes:default"]), false);
});
